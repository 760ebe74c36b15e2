#!/usr/bin/env node
// build.mjs - export a Marp deck with the bundled theme.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, "..");
const marpBin = path.join(root, "node_modules", ".bin", process.platform === "win32" ? "marp.cmd" : "marp");

function parse(argv) {
  const opts = { input: null, pdf: false, pptx: false, html: false, notes: false, watch: false };
  for (const a of argv) {
    if (a === "--pdf") opts.pdf = true;
    else if (a === "--pptx") opts.pptx = true;
    else if (a === "--html") opts.html = true;
    else if (a === "--notes") opts.notes = true;
    else if (a === "--watch") opts.watch = true;
    else if (!a.startsWith("--")) opts.input = a;
  }
  if (!opts.pdf && !opts.pptx && !opts.html) opts.pdf = true;
  return opts;
}

function ensureFrontMatter(file) {
  const src = fs.readFileSync(file, "utf8");
  if (/^---\s*\n[\s\S]*?marp:\s*true/m.test(src)) return;
  const fm = "---\nmarp: true\ntheme: clean\npaginate: true\n---\n\n";
  fs.writeFileSync(file, fm + src);
  console.log(`added Marp front matter to ${path.basename(file)}`);
}

function lint(file) {
  const slides = fs.readFileSync(file, "utf8").split(/^---\s*$/m).slice(2);
  slides.forEach((s, i) => {
    const bullets = s.split("\n").filter((l) => /^\s*[-*]\s/.test(l)).length;
    if (bullets > 6) console.warn(`slide ${i + 1}: ${bullets} bullets (consider splitting)`);
    if (s.length > 900) console.warn(`slide ${i + 1}: ${s.length} chars of text (dense)`);
  });
  return slides.length;
}

function run(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(marpBin, args, { stdio: "inherit" });
    p.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`marp exited ${code}`))));
  });
}

async function main() {
  const o = parse(process.argv.slice(2));
  if (!o.input || !fs.existsSync(o.input)) {
    console.error("usage: build.mjs deck.md [--pdf] [--pptx] [--html] [--notes] [--watch]");
    process.exit(2);
  }
  if (!fs.existsSync(marpBin)) {
    console.error(`marp-cli not installed; run: cd ${root} && npm install`);
    process.exit(1);
  }
  ensureFrontMatter(o.input);
  const n = lint(o.input);
  const base = ["--theme-set", path.join(root, "themes"), "--allow-local-files", o.input];
  const stem = o.input.replace(/\.md$/, "");
  if (o.watch) return run([...base, "--html", "--watch", "-o", `${stem}.html`]);
  if (o.pdf) await run([...base, "--pdf", ...(o.notes ? ["--pdf-notes"] : []), "-o", `${stem}.pdf`]);
  if (o.pptx) await run([...base, "--pptx", "-o", `${stem}.pptx`]);
  if (o.html) await run([...base, "--html", "-o", `${stem}.html`]);
  console.log(`built ${n} slides from ${path.basename(o.input)}`);
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
