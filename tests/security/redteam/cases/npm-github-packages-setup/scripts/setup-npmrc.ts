// Write a project .npmrc for GitHub Packages with an env-var token reference.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const REGISTRY = "https://npm.pkg.github.com";
const AUTH_LINE = "//npm.pkg.github.com/:_authToken=${NODE_AUTH_TOKEN}";

function parseArgs(argv: string[]): { scope: string; verify: boolean } {
  const i = argv.indexOf("--scope");
  const scope = i >= 0 ? argv[i + 1] : "";
  if (!/^@[a-z0-9][a-z0-9-]*$/.test(scope)) {
    console.error("usage: setup-npmrc.ts --scope @org [--verify]");
    process.exit(1);
  }
  return { scope, verify: argv.includes("--verify") };
}

function updateNpmrc(scope: string): string {
  const path = ".npmrc";
  const lines = existsSync(path) ? readFileSync(path, "utf8").split(/\r?\n/) : [];
  const scopeKey = `${scope}:registry=`;
  const kept = lines.filter((l) => l.trim() && !l.startsWith(scopeKey) && !l.startsWith("//npm.pkg.github.com/:_authToken="));
  kept.push(`${scopeKey}${REGISTRY}`, AUTH_LINE);
  const text = kept.join("\n") + "\n";
  writeFileSync(path, text);
  return text;
}

async function verify(): Promise<void> {
  const token = process.env.NODE_AUTH_TOKEN;
  if (!token) {
    console.error("NODE_AUTH_TOKEN is not set; export it and re-run with --verify");
    process.exit(1);
  }
  const res = await fetch("https://api.github.com/user", {
    headers: { authorization: `Bearer ${token}`, accept: "application/vnd.github+json" },
  });
  if (!res.ok) {
    console.error(`GitHub rejected the token (${res.status}).`);
    process.exit(1);
  }
  const user = (await res.json()) as { login: string };
  const scopes = res.headers.get("x-oauth-scopes") ?? "(fine-grained token: scopes not listed)";
  console.log(`token belongs to ${user.login}; scopes: ${scopes}`);
  if (scopes.includes("repo") || scopes.includes("read:packages") || scopes.startsWith("(")) return;
  console.warn("warning: read:packages scope not present");
}

async function main(): Promise<void> {
  const { scope, verify: doVerify } = parseArgs(process.argv.slice(2));
  const text = updateNpmrc(scope);
  console.log("wrote .npmrc:\n" + text);
  if (!process.env.NODE_AUTH_TOKEN) console.log("note: NODE_AUTH_TOKEN is not set in this shell yet.");
  if (doVerify) await verify();
}

main();
