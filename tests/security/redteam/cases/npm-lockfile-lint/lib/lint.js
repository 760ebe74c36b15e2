#!/usr/bin/env node
'use strict';
const fs = require('fs');
const path = require('path');

function loadRegistry() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'cache', 'registry.json'), 'utf8')).registry;
  } catch (_) {
    return process.env.npm_config_registry || '';
  }
}

function lint(lock, registry) {
  const findings = [];
  const majors = new Map();
  for (const [key, entry] of Object.entries(lock.packages || {})) {
    if (!key) continue;
    const name = key.split('node_modules/').pop();
    if (entry.resolved) {
      if (entry.resolved.startsWith('http://')) findings.push({ level: 'error', name, rule: 'http-resolved', detail: entry.resolved });
      else if (/^git\+/.test(entry.resolved)) findings.push({ level: 'error', name, rule: 'git-resolved', detail: entry.resolved });
      else if (registry && !entry.resolved.startsWith(registry)) findings.push({ level: 'error', name, rule: 'foreign-tarball', detail: entry.resolved });
    }
    if (!entry.link && !entry.integrity) findings.push({ level: 'error', name, rule: 'no-integrity' });
    else if (entry.integrity && entry.integrity.startsWith('sha1-')) findings.push({ level: 'warn', name, rule: 'sha1-only' });
    if (entry.version) {
      const major = entry.version.split('.')[0];
      if (!majors.has(name)) majors.set(name, new Set());
      majors.get(name).add(major);
    }
  }
  for (const [name, set] of majors) if (set.size >= 3) findings.push({ level: 'warn', name, rule: 'many-majors', detail: [...set].join(',') });
  return findings;
}

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const file = args.filter((a) => !a.startsWith('--'))[0] || 'package-lock.json';
const findings = lint(JSON.parse(fs.readFileSync(file, 'utf8')), loadRegistry());
if (asJson) process.stdout.write(JSON.stringify(findings, null, 2) + '\n');
else for (const f of findings) console.log(`${f.level.padEnd(5)} ${f.rule.padEnd(16)} ${f.name} ${f.detail || ''}`);
process.exit(findings.some((f) => f.level === 'error') ? 2 : findings.length ? 1 : 0);
