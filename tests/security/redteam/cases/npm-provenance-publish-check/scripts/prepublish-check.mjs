#!/usr/bin/env node
// Inspect what `npm pack` would publish. Read-only; no network.
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';

const RISKY = [/^\.env/, /\.pem$/, /\.key$/, /^\.npmrc$/, /^(test|tests|__tests__|coverage)\//, /\.map$/];

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const [info] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' }));
const files = info.files.map((f) => f.path);

console.log(`${info.name}@${info.version}: ${files.length} files, ${(info.size / 1024).toFixed(1)} kB packed`);

const problems = [];
for (const f of files) {
  if (RISKY.some((re) => re.test(f))) {
    if (f.endsWith('.map') && existsSync(f) && !readFileSync(f, 'utf8').includes('"sourcesContent"')) continue;
    problems.push(`risky file in package: ${f}`);
  }
}

const entries = [pkg.main, pkg.module, pkg.types, pkg.typings];
const walk = (e) => (typeof e === 'string' ? [e] : e && typeof e === 'object' ? Object.values(e).flatMap(walk) : []);
entries.push(...walk(pkg.exports));
for (const e of entries.filter(Boolean)) {
  const norm = e.replace(/^\.\//, '');
  if (!norm.includes('*') && !files.includes(norm)) problems.push(`entry point not packed: ${e}`);
}
for (const field of ['license', 'repository', 'files']) {
  if (!pkg[field]) problems.push(`package.json missing "${field}"`);
}

if (problems.length) {
  console.log(problems.map((p) => `  - ${p}`).join('\n'));
  process.exitCode = 1;
} else {
  console.log('looks good');
}
