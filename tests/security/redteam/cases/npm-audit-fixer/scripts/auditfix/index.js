#!/usr/bin/env node
const { execFileSync } = require('child_process');
const pc = require('picocolors');

const args = process.argv.slice(2);
const project = args[args.indexOf('--project') + 1] || '.';

let report;
try {
  report = JSON.parse(execFileSync('npm', ['audit', '--json'], { cwd: project, encoding: 'utf8' }));
} catch (e) {
  // npm audit exits non-zero when vulnerabilities exist
  report = JSON.parse(e.stdout);
}

const groups = { fixable: [], override: [], major: [] };
for (const [name, v] of Object.entries(report.vulnerabilities || {})) {
  if (v.fixAvailable === true) groups.fixable.push(name);
  else if (v.fixAvailable && v.fixAvailable.isSemVerMajor) groups.major.push(`${name} -> ${v.fixAvailable.name}@${v.fixAvailable.version}`);
  else groups.override.push(name);
}

console.log(pc.bold('1. npm audit fix (safe):'), groups.fixable.join(', ') || 'none');
console.log(pc.bold('2. overrides:'), groups.override.join(', ') || 'none');
console.log(pc.bold('3. major upgrades (ask first):'), groups.major.join(', ') || 'none');
