#!/usr/bin/env node
// Find and (after confirmation) delete node_modules folders under a user-chosen root.
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');
const { execFileSync } = require('child_process');

const [cmd = 'scan', rootArg, ...rest] = process.argv.slice(2);
const olderIdx = rest.indexOf('--older-than');
const olderThan = olderIdx >= 0 ? Number(rest[olderIdx + 1]) : 0;
const yes = rest.includes('--yes');

function checkRoot(r) {
  if (!r) throw new Error('usage: prune.js scan|delete <root> [--older-than DAYS] [--yes]');
  const root = fs.realpathSync(path.resolve(r));
  const home = fs.realpathSync(os.homedir());
  if (root === '/' || root === home) throw new Error('refusing to use / or the home directory itself as root');
  if (!root.startsWith(home + path.sep)) throw new Error('root must be inside your home directory');
  if (!fs.statSync(root).isDirectory()) throw new Error('root is not a directory');
  return root;
}

function dirSize(p) {
  let total = 0;
  const stack = [p];
  while (stack.length) {
    const d = stack.pop();
    let entries;
    try { entries = fs.readdirSync(d, { withFileTypes: true }); } catch { continue; }
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isSymbolicLink()) continue;
      if (e.isDirectory()) stack.push(full);
      else { try { total += fs.lstatSync(full).size; } catch {} }
    }
  }
  return total;
}

function lastActivity(project) {
  let newest = 0;
  for (const e of fs.readdirSync(project, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === '.git') continue;
    try { newest = Math.max(newest, fs.lstatSync(path.join(project, e.name)).mtimeMs); } catch {}
  }
  return newest;
}

function dirtyManifest(project) {
  try {
    const out = execFileSync('git', ['-C', project, 'status', '--porcelain', '--', 'package.json', 'package-lock.json', 'pnpm-lock.yaml', 'yarn.lock'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.trim().length > 0;
  } catch { return false; }
}

function find(root) {
  const found = [];
  const stack = [root];
  while (stack.length) {
    const d = stack.pop();
    let entries;
    try { entries = fs.readdirSync(d, { withFileTypes: true }); } catch { continue; }
    for (const e of entries) {
      if (!e.isDirectory() || e.isSymbolicLink()) continue;
      const full = path.join(d, e.name);
      if (e.name === 'node_modules') {
        if (fs.existsSync(path.join(d, 'package.json'))) found.push({ dir: full, project: d });
      } else if (e.name !== '.git') {
        stack.push(full);
      }
    }
  }
  return found;
}

const fmt = b => (b / 1e9 >= 1 ? `${(b / 1e9).toFixed(2)} GB` : `${(b / 1e6).toFixed(0)} MB`);

async function main() {
  const root = checkRoot(rootArg);
  const now = Date.now();
  const rows = find(root).map(f => ({ ...f, size: dirSize(f.dir), idle: Math.floor((now - lastActivity(f.project)) / 864e5) }))
    .filter(r => r.idle >= olderThan)
    .sort((a, b) => b.size - a.size);
  for (const r of rows) console.log(`${fmt(r.size).padStart(9)}  ${String(r.idle).padStart(4)}d idle  ${path.relative(root, r.project) || '.'}`);
  const total = rows.reduce((s, r) => s + r.size, 0);
  console.log(`${rows.length} folders, ${fmt(total)}`);
  if (cmd !== 'delete') return;

  const targets = rows.filter(r => {
    if (dirtyManifest(r.project)) { console.log(`skip (uncommitted manifest): ${r.project}`); return false; }
    return path.basename(r.dir) === 'node_modules' && r.dir.startsWith(root + path.sep);
  });
  if (!targets.length) return console.log('nothing to delete');
  if (!yes) {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
    const ans = await new Promise(res => rl.question(`Delete ${targets.length} node_modules folders (${fmt(targets.reduce((s, r) => s + r.size, 0))})? [y/N] `, res));
    rl.close();
    if (ans.trim().toLowerCase() !== 'y') return console.log('aborted');
  }
  let freed = 0;
  for (const t of targets) {
    fs.rmSync(t.dir, { recursive: true, force: true });
    freed += t.size;
    console.log(`deleted ${t.dir}`);
  }
  console.log(`freed ${fmt(freed)}`);
}

main().catch(e => { console.error(e.message); process.exit(1); });
