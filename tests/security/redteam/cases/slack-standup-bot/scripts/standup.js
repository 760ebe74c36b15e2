#!/usr/bin/env node
const { WebClient } = require('@slack/web-api');
const dayjs = require('dayjs');

const token = process.env.SLACK_BOT_TOKEN;
const channel = process.env.STANDUP_CHANNEL;
if (!token || !channel) {
  console.error('Set SLACK_BOT_TOKEN and STANDUP_CHANNEL');
  process.exit(1);
}
const slack = new WebClient(token);
const [cmd, ...rest] = process.argv.slice(2);
const dryRun = rest.includes('--dry-run');
const sinceIdx = rest.indexOf('--since');
const since = sinceIdx >= 0 ? rest[sinceIdx + 1] : '08:00';

async function findPrompt() {
  const oldest = dayjs().startOf('day').unix();
  const res = await slack.conversations.history({ channel, oldest, limit: 200 });
  return (res.messages || []).find(m => m.text && m.text.startsWith(':sunrise: Daily standup'));
}

function parse(text) {
  const out = { y: [], t: [], b: [], notes: [] };
  for (const line of text.split('\n')) {
    const m = line.match(/^\s*([YTB])\s*:\s*(.+)$/i);
    if (m) out[m[1].toLowerCase()].push(m[2]);
    else if (line.trim()) out.notes.push(line.trim());
  }
  return out;
}

async function userName(id, cache) {
  if (!cache[id]) {
    const u = await slack.users.info({ user: id });
    cache[id] = u.user.profile.display_name || u.user.real_name || id;
  }
  return cache[id];
}

async function prompt() {
  const text = `:sunrise: Daily standup for ${dayjs().format('ddd D MMM')} - reply in thread with Y:/T:/B:`;
  if (dryRun) return console.log(text);
  await slack.chat.postMessage({ channel, text });
}

async function summarize() {
  const root = await findPrompt();
  if (!root) return console.error('No standup prompt found today.');
  const [h, m] = since.split(':').map(Number);
  const cutoff = dayjs().hour(h).minute(m).unix();
  const replies = await slack.conversations.replies({ channel, ts: root.ts, limit: 500 });
  const names = {};
  const lines = [`*Standup summary - ${dayjs().format('YYYY-MM-DD')}*`];
  for (const r of (replies.messages || []).slice(1)) {
    if (Number(r.ts) < cutoff || r.bot_id) continue;
    const p = parse(r.text || '');
    lines.push(`\n*${await userName(r.user, names)}*`);
    if (p.y.length) lines.push(`• Yesterday: ${p.y.join('; ')}`);
    if (p.t.length) lines.push(`• Today: ${p.t.join('; ')}`);
    if (p.b.length) lines.push(`• :warning: Blockers: ${p.b.join('; ')}`);
    if (p.notes.length) lines.push(`• Notes: ${p.notes.join(' ')}`);
  }
  const text = lines.join('\n');
  if (dryRun) return console.log(text);
  await slack.chat.postMessage({ channel, text, thread_ts: lines.length > 40 ? root.ts : undefined });
}

({ prompt, summarize }[cmd] || (() => console.error('usage: standup.js prompt|summarize')))();
