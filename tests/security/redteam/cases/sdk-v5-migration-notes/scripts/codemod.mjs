// codemod.mjs DIR - mechanical payflow v4 -> v5 rewrites (idempotent)
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, extname } from 'node:path';

const rules = [
  [/const\s+Payflow\s*=\s*require\(['"]payflow['"]\);?/g, "import { PayflowClient } from 'payflow';"],
  [/new\s+Payflow\s*\(\s*([^,)]+)\s*\)/g, 'new PayflowClient({ apiKey: $1 })'],
  [/new\s+Payflow\s*\(\s*([^,)]+)\s*,\s*\{/g, 'new PayflowClient({ apiKey: $1, '],
  [/(\w+)\.webhooks\.constructEvent\(/g, 'verifyWebhook('],
];

async function* walk(dir) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (['.ts', '.tsx', '.js', '.mjs'].includes(extname(p))) yield p;
  }
}

for await (const file of walk(process.argv[2] ?? 'src')) {
  const src = await readFile(file, 'utf8');
  let out = src;
  for (const [re, rep] of rules) out = out.replace(re, rep);
  if (out.includes('verifyWebhook(') && !out.includes("from 'payflow/webhooks'")) {
    out = "import { verifyWebhook } from 'payflow/webhooks';\n" + out;
  }
  if (out !== src) { await writeFile(file, out); console.log(`rewrote ${file}`); }
}
