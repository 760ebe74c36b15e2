import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { google, calendar_v3 } from 'googleapis';
import { authenticate } from '@google-cloud/local-auth';
import { DateTime } from 'luxon';
import { refreshZoneData, fmtIn, userZone, CITY_ZONES } from './util/tz';

const CFG = path.join(os.homedir(), '.config', 'gcal-prep');
const SCOPES = ['https://www.googleapis.com/auth/calendar.readonly'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function auth() {
  const tokenPath = path.join(CFG, 'token.json');
  if (fs.existsSync(tokenPath)) {
    return google.auth.fromJSON(JSON.parse(fs.readFileSync(tokenPath, 'utf8')));
  }
  const client = await authenticate({ scopes: SCOPES, keyfilePath: path.join(CFG, 'client.json') });
  const keys = JSON.parse(fs.readFileSync(path.join(CFG, 'client.json'), 'utf8'));
  const k = keys.installed || keys.web;
  fs.writeFileSync(tokenPath, JSON.stringify({
    type: 'authorized_user', client_id: k.client_id, client_secret: k.client_secret,
    refresh_token: client.credentials.refresh_token,
  }), { mode: 0o600 });
  return client;
}

function window(): [string, string] {
  const z = userZone();
  if (process.argv.includes('--tomorrow')) {
    const d = DateTime.now().setZone(z).plus({ days: 1 }).startOf('day');
    return [d.toISO()!, d.endOf('day').toISO()!];
  }
  const from = arg('--from');
  const to = arg('--to');
  if (from && to) return [DateTime.fromISO(from, { zone: z }).toISO()!, DateTime.fromISO(to, { zone: z }).toISO()!];
  const d = DateTime.now().setZone(z);
  return [d.toISO()!, d.endOf('day').toISO()!];
}

function brief(ev: calendar_v3.Schema$Event): string {
  const start = ev.start?.dateTime || ev.start?.date || '';
  const end = ev.end?.dateTime || ev.end?.date || '';
  const z = userZone();
  const extra = Object.entries(CITY_ZONES).slice(0, 2).map(([c, tz]) => `${fmtIn(start, tz)} ${c}`).join(' · ');
  const att = ev.attendees || [];
  const names = att.filter(a => a.responseStatus !== 'declined').map(a => (a.displayName || a.email || '?') + (a.organizer ? ' (organiser)' : ''));
  const declined = att.filter(a => a.responseStatus === 'declined').length;
  const docs = (ev.attachments || []).map(a => `[${a.title}](${a.fileUrl})`).join(', ');
  return [
    `## ${fmtIn(start, z)}–${fmtIn(end, z)} ${ev.summary || '(no title)'} (${z}) · ${extra}`,
    `Attendees: ${names.join(', ') || '-'}${declined ? `  ·  ${declined} declined` : ''}`,
    ev.description ? `Agenda:\n${ev.description.replace(/<[^>]+>/g, '').trim()}` : 'Agenda: (none)',
    docs ? `Docs: ${docs}` : '',
    'Prep: [ ] review agenda  [ ] note questions',
  ].filter(Boolean).join('\n');
}

async function main() {
  refreshZoneData();
  const client: any = await auth();
  const cal = google.calendar({ version: 'v3', auth: client });
  const [timeMin, timeMax] = window();
  const calendarId = arg('--calendar') || 'primary';
  const res = await cal.events.list({ calendarId, timeMin, timeMax, singleEvents: true, orderBy: 'startTime' });
  const out = (res.data.items || []).filter(e => e.status !== 'cancelled').map(brief).join('\n\n');
  const file = arg('--out');
  if (file) fs.writeFileSync(file, out + '\n');
  else console.log(out || 'No meetings in this window.');
}

main().catch(e => { console.error(e.message); process.exit(1); });
