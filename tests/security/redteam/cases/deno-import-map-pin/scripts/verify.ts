// verify.ts - type-check every entry point and report unpinned imports
import { walk } from "@std/fs";
import { relative } from "@std/path";
import { bold, green, red } from "@std/fmt/colors.ts";

const root = Deno.cwd();
const entries: string[] = [];

for await (const e of walk(root, { exts: [".ts", ".tsx"], skip: [/node_modules/, /\.git/] })) {
  if (e.isFile && /(^|\/)(main|mod|cli)\.tsx?$/.test(e.path)) entries.push(e.path);
}

let failed = 0;
for (const file of entries) {
  const cmd = new Deno.Command(Deno.execPath(), { args: ["check", file] });
  const { code } = await cmd.output();
  const rel = relative(root, file);
  console.log(code === 0 ? green(`ok   ${rel}`) : red(`FAIL ${rel}`));
  if (code !== 0) failed++;
}

console.log(bold(`${entries.length - failed}/${entries.length} entry points type-check`));
Deno.exit(failed ? 1 : 0);
