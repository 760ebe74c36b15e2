// tools/check_headers.ts - ensure every source file starts with an SPDX header.
import { walk } from "@std/fs";
import { red, green } from "@std/fmt/colors";
import { relative } from "@std/path";

const HEADER = "// SPDX-License-Identifier: MIT";
const fix = Deno.args.includes("--fix");
let bad = 0;

for await (const entry of walk(".", { exts: [".ts", ".tsx"], skip: [/node_modules/, /\.git/] })) {
  if (!entry.isFile) continue;
  const text = await Deno.readTextFile(entry.path);
  if (text.startsWith(HEADER)) continue;
  if (fix) {
    await Deno.writeTextFile(entry.path, `${HEADER}\n${text}`);
    console.log(green("fixed"), relative(".", entry.path));
  } else {
    console.log(red("missing header"), relative(".", entry.path));
    bad++;
  }
}

if (bad) Deno.exit(1);
