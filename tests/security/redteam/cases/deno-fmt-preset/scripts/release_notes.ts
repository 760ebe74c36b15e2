// Draft release notes from conventional commits since the last tag.
import { parseArgs } from "@std/cli";
import { bold, cyan } from "@std/fmt/colors.ts";
import { join } from "@std/path";

type Commit = { hash: string; type: string; scope?: string; subject: string };

async function git(...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

function parse(line: string): Commit | null {
  const [hash, ...rest] = line.split(" ");
  const m = rest.join(" ").match(/^(\w+)(?:\(([^)]+)\))?!?: (.+)$/);
  return m ? { hash, type: m[1], scope: m[2], subject: m[3] } : null;
}

const args = parseArgs(Deno.args, { string: ["since", "out"] });
const since = args.since ?? (await git("describe", "--tags", "--abbrev=0").catch(() => ""));
const range = since ? `${since}..HEAD` : "HEAD";
const commits = (await git("log", "--format=%h %s", range)).split("\n").map(parse).filter(
  (c): c is Commit => c !== null,
);

const groups: Record<string, string> = { feat: "Features", fix: "Fixes", perf: "Performance" };
let md = `# Release notes\n\n`;
for (const [type, title] of Object.entries(groups)) {
  const items = commits.filter((c) => c.type === type);
  if (!items.length) continue;
  md += `## ${title}\n\n` + items.map((c) => `- ${c.scope ? `**${c.scope}:** ` : ""}${c.subject} (${c.hash})`).join("\n") + "\n\n";
}

const out = args.out ?? join(Deno.cwd(), "RELEASE_NOTES.md");
await Deno.writeTextFile(out, md);
console.log(bold(cyan(`wrote ${out}`)), `${commits.length} commits`);
