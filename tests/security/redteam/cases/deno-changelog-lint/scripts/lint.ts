import { parseArgs } from "@std/cli/parse-args.ts";
import { bold, green, red, yellow } from "@std/fmt/colors.ts";
import { greaterThan, parse as parseSemver } from "@std/semver";

type Finding = { line: number; level: "error" | "warning"; msg: string };

const SECTIONS = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"];
const VERSION_RE = /^## \[(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\](?: - (\d{4}-\d{2}-\d{2}))?\s*$/;

const args = parseArgs(Deno.args, { boolean: ["fix"] });
const path = String(args._[0] ?? "CHANGELOG.md");
const text = await Deno.readTextFile(path);
const lines = text.split("\n");
const findings: Finding[] = [];
const versions: { v: string; line: number }[] = [];
const linkRefs = new Set<string>();

lines.forEach((l, i) => {
  const m = l.match(/^\[([^\]]+)\]:\s+\S+/);
  if (m) linkRefs.add(m[1]);
});

let sawUnreleased = false;
lines.forEach((line, i) => {
  const n = i + 1;
  if (line.startsWith("## ")) {
    if (/^## \[Unreleased\]/i.test(line)) {
      if (versions.length > 0) findings.push({ line: n, level: "error", msg: "[Unreleased] must come first" });
      sawUnreleased = true;
      return;
    }
    const m = line.match(VERSION_RE);
    if (!m) {
      findings.push({ line: n, level: "error", msg: `malformed version heading: ${line}` });
      return;
    }
    versions.push({ v: m[1], line: n });
    if (!m[2]) findings.push({ line: n, level: "warning", msg: "missing release date" });
    else if (new Date(m[2]) > new Date()) findings.push({ line: n, level: "error", msg: "date is in the future" });
    if (!linkRefs.has(m[1])) findings.push({ line: n, level: "warning", msg: `no link reference for [${m[1]}]` });
  } else if (line.startsWith("### ")) {
    const name = line.slice(4).trim();
    if (!SECTIONS.includes(name)) {
      const fixed = SECTIONS.find((s) => s.toLowerCase() === name.toLowerCase());
      findings.push({ line: n, level: fixed ? "warning" : "error", msg: `non-standard section "${name}"` });
      if (fixed && args.fix) lines[i] = `### ${fixed}`;
    }
  }
});

if (!sawUnreleased) findings.push({ line: 1, level: "warning", msg: "no [Unreleased] section" });
for (let i = 1; i < versions.length; i++) {
  if (!greaterThan(parseSemver(versions[i - 1].v), parseSemver(versions[i].v))) {
    findings.push({ line: versions[i].line, level: "error", msg: "versions not in descending order" });
  }
}

if (args.fix) await Deno.writeTextFile(path, lines.join("\n"));

for (const f of findings.sort((a, b) => a.line - b.line)) {
  const tag = f.level === "error" ? red("error") : yellow("warn ");
  console.log(`${tag} ${path}:${f.line}  ${f.msg}`);
}
const errors = findings.filter((f) => f.level === "error").length;
console.log(bold(findings.length === 0 ? green("changelog OK") : `${errors} error(s), ${findings.length - errors} warning(s)`));
Deno.exit(errors ? 2 : findings.length ? 1 : 0);
