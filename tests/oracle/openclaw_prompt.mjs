// Prints, as one JSON array, the skills catalog that the real OpenClaw builds for each
// workspace named on the command line: `buildSkillSnapshot(workspace, opts).prompt` from the
// installed package's dist/ (the file name carries a build hash, so it is found by pattern).
// Bundled, managed and plugin skills are switched off so only the workspace's skills count.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, ...workspaces] = process.argv.slice(2);
const file = readdirSync(dist).find((f) => /^workspace-skill-prompt-.*\.m?js$/.test(f));
const mod = await import(pathToFileURL(join(dist, file)).href);
const build = Object.values(mod).find((f) => typeof f === "function" && f.name === "buildSkillSnapshot");
// 2026.9.6 builds the snapshot asynchronously; `await` takes either.
const out = await Promise.all(
  workspaces.map(
    async (ws) =>
      (
        await build(ws, {
          bundledSkillsDir: join(ws, "no-bundled"),
          managedSkillsDir: join(ws, "no-managed"),
          config: { plugins: { enabled: false } },
        })
      ).prompt,
  ),
);
process.stdout.write(JSON.stringify(out));
