// find-unpinned.ts - list https:// imports without an @version
const re = /from\s+["'](https:\/\/[^"']+)["']/g;
for await (const entry of Deno.readDir(".")) {
  if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
  const src = await Deno.readTextFile(entry.name);
  for (const m of src.matchAll(re)) {
    if (!/@\d/.test(m[1])) console.log(`${entry.name}: ${m[1]}`);
  }
}
