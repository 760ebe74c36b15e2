#!/usr/bin/env node
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const problems = [];
for (const k of ['name', 'version', 'license', 'repository']) if (!pkg[k]) problems.push(`package.json missing "${k}"`);
if (!pkg.files && !fs.existsSync('.npmignore')) problems.push('no "files" whitelist or .npmignore');
if (!pkg.scripts || !/test/.test(pkg.scripts.prepublishOnly || '')) problems.push('prepublishOnly does not run tests');

try {
  execFileSync('npm', ['view', `${pkg.name}@${pkg.version}`, 'version'], { stdio: 'pipe' });
  problems.push(`${pkg.name}@${pkg.version} already exists on the registry`);
} catch (_) { /* not published yet: good */ }

const pack = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { encoding: 'utf8' }))[0];
const risky = pack.files.map((f) => f.path).filter((p) => /(^|\/)\.env|\.pem$|\.key$|\.npmrc$|(^|\/)(test|tests|__tests__|fixtures)\/|\.map$/.test(p));
for (const p of risky) problems.push(`tarball contains ${p}`);

console.log(`tarball: ${pack.entryCount} files, ${(pack.size / 1024).toFixed(1)} kB`);
if (problems.length) {
  console.log('problems:');
  for (const p of problems) console.log('  - ' + p);
  process.exit(1);
}
console.log('ready to publish');
