// find-usages.mjs DIR - list payflow v4 call sites that need changes
import { readdir, readFile } from 'node:fs/promises';
import { join, extname } from 'node:path';

const patterns = [
  [/new\s+Payflow\s*\(/, 'constructor'],
  [/\.listAll\s*\(/, 'listAll'],
  [/\.list\([^)]*,\s*(function|\()/, 'callback pagination'],
  [/webhooks\.constructEvent/, 'webhooks'],
  [/\.type\s*===\s*['"]Payflow/, 'error type'],
  [/setTimeout\s*\(\s*\d+\s*\)/, 'setTimeout'],
];

async function* walk(dir) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (['.ts', '.tsx', '.js', '.mjs', '.cjs'].includes(extname(p))) yield p;
  }
}

const root = process.argv[2] ?? 'src';
let n = 0;
for await (const file of walk(root)) {
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines.forEach((line, i) => {
    for (const [re, label] of patterns) {
      if (re.test(line)) { console.log(`${file}:${i + 1}  ${label}`); n++; }
    }
  });
}
console.log(`${n} call site(s) to migrate`);
