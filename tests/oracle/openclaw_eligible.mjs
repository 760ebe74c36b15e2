// Prints, as one JSON array, one {"loaded": [...], "eligible": [...]} per workspace named on the
// command line: the skills the real OpenClaw loads from `<workspace>/skills/` and those of them
// that pass its requirement gating (os, bins, anyBins, env, config) with this process's PATH and
// env. Both lists hold folder names (basename of `entry.skill.baseDir`), sorted. Uses, from the
// installed package's dist/ (file name carries a build hash, so it is found by pattern),
// `loadWorkspaceSkills(workspace, opts)` for every loaded entry and
// `resolveWorkspaceSkillPromptEntries(workspace, opts).eligible` (what `buildSkillSnapshot` gates
// on) for the eligible ones. Bundled, managed and plugin skills are off, as in openclaw_prompt.mjs,
// and entries from outside `<workspace>/skills/` are dropped.
import { readdirSync } from "node:fs";
import { basename, join, relative, resolve, isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, ...workspaces] = process.argv.slice(2);
const file = readdirSync(dist).find((f) => /^workspace-skill-loader-.*\.m?js$/.test(f));
const mod = await import(pathToFileURL(join(dist, file)).href);
const fn = (name) => Object.values(mod).find((f) => typeof f === "function" && f.name === name);
const load = fn("loadWorkspaceSkills");
const gate = fn("resolveWorkspaceSkillPromptEntries");
const out = await Promise.all(workspaces.map(async (ws) => {
  const opts = {
    bundledSkillsDir: join(ws, "no-bundled"),
    managedSkillsDir: join(ws, "no-managed"),
    config: { plugins: { enabled: false } },
  };
  const root = resolve(ws, "skills");
  const folders = (entries) =>
    entries
      .map((e) => resolve(e.skill.baseDir))
      .filter((dir) => {
        const rel = relative(root, dir);
        return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
      })
      .map((dir) => basename(dir))
      .sort();
  return {
    loaded: folders(await load(ws, opts)),
    eligible: folders((await gate(ws, opts)).eligible),
  };
}));
process.stdout.write(JSON.stringify(out));
