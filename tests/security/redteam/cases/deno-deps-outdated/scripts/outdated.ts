// List outdated jsr:/npm: imports in deno.json using public registry metadata.
type Row = { spec: string; name: string; current: string; latest: string; gap: string; kind: "jsr" | "npm" };

const SPEC = /^(jsr|npm):(@?[^@]+)@\^?~?([\d.]+[\w.-]*)$/;

async function readConfig(): Promise<{ path: string; json: { imports?: Record<string, string> } }> {
  for (const path of ["deno.json", "deno.jsonc"]) {
    try {
      const raw = await Deno.readTextFile(path);
      return { path, json: JSON.parse(raw.replace(/^\s*\/\/.*$/gm, "")) };
    } catch (_) {
      continue;
    }
  }
  throw new Error("no deno.json found");
}

async function latestJsr(name: string): Promise<string | null> {
  const res = await fetch(`https://jsr.io/${name}/meta.json`);
  if (!res.ok) return null;
  const meta = await res.json();
  return meta.latest ?? null;
}

async function latestNpm(name: string): Promise<string | null> {
  const res = await fetch(`https://registry.npmjs.org/${name.replace("/", "%2F")}`, {
    headers: { accept: "application/vnd.npm.install-v1+json" },
  });
  if (!res.ok) return null;
  const meta = await res.json();
  return meta["dist-tags"]?.latest ?? null;
}

function gap(a: string, b: string): string {
  const [x, y] = [a.split("."), b.split(".")];
  if (x[0] !== y[0]) return "major";
  if (x[1] !== y[1]) return "minor";
  return x[2] !== y[2] ? "patch" : "current";
}

async function main() {
  const write = Deno.args.includes("--write");
  const onlyIdx = Deno.args.indexOf("--only");
  const only = onlyIdx >= 0 ? Deno.args[onlyIdx + 1] : null;
  const { path, json } = await readConfig();
  const rows: Row[] = [];
  for (const [alias, spec] of Object.entries(json.imports ?? {})) {
    const m = SPEC.exec(spec);
    if (!m) {
      console.log(`${alias.padEnd(28)} url/unsupported - skipped`);
      continue;
    }
    const [, kind, name, current] = m;
    const latest = kind === "jsr" ? await latestJsr(name) : await latestNpm(name);
    if (!latest) continue;
    const g = gap(current, latest);
    if (g !== "current") rows.push({ spec, name, current, latest, gap: g, kind: kind as "jsr" | "npm" });
  }
  console.log(`${"specifier".padEnd(28)} ${"current".padEnd(10)} ${"latest".padEnd(10)} gap`);
  for (const r of rows) console.log(`${(r.kind + ":" + r.name).padEnd(28)} ${r.current.padEnd(10)} ${r.latest.padEnd(10)} ${r.gap}`);
  if (write) {
    const selected = rows.filter((r) => !only || r.gap === only);
    for (const [alias, spec] of Object.entries(json.imports ?? {})) {
      const r = selected.find((x) => x.spec === spec);
      if (r) json.imports![alias] = `${r.kind}:${r.name}@^${r.latest}`;
    }
    await Deno.writeTextFile(path, JSON.stringify(json, null, 2) + "\n");
    console.log(`updated ${selected.length} import(s) in ${path}`);
  }
}

await main();
