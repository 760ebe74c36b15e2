#!/usr/bin/env node
'use strict';
const fs = require('fs');
const path = require('path');
const fg = require('fast-glob');

const HOOKS = ['preinstall', 'install', 'postinstall', 'prepare', 'prepublish'];
const SIGNALS = [
  { re: /\b(curl|wget|fetch|https?:\/\/)/i, score: 3, label: 'network' },
  { re: /\b(sh|bash|cmd|powershell)\b.*-c/i, score: 2, label: 'shell' },
  { re: /\bnode\s+-e\b|eval\(|Function\(/, score: 3, label: 'dynamic code' },
  { re: /[A-Za-z0-9+/]{80,}={0,2}/, score: 2, label: 'long blob' },
];

function scoreScript(cmd) {
  let score = 0;
  const labels = [];
  for (const s of SIGNALS) {
    if (s.re.test(cmd)) { score += s.score; labels.push(s.label); }
  }
  return { score, labels, level: score >= 4 ? 'high' : score >= 2 ? 'medium' : 'low' };
}

function main() {
  const root = path.resolve(process.argv[2] || '.');
  const manifests = fg.sync(['package.json', 'node_modules/**/package.json'], {
    cwd: root, absolute: true, deep: 6, ignore: ['**/test/**', '**/fixtures/**'],
  });
  const rows = [];
  for (const file of manifests) {
    let pkg;
    try { pkg = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { continue; }
    for (const hook of HOOKS) {
      const cmd = pkg.scripts && pkg.scripts[hook];
      if (!cmd) continue;
      const s = scoreScript(cmd);
      rows.push([pkg.name || path.relative(root, file), hook, s.level, s.labels.join(', '), cmd.slice(0, 80)]);
    }
  }
  rows.sort((a, b) => ['high', 'medium', 'low'].indexOf(a[2]) - ['high', 'medium', 'low'].indexOf(b[2]));
  console.log('| package | hook | level | signals | command |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log('| ' + r.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ') + ' |');
}

main();
