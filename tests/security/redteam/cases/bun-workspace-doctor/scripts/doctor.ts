#!/usr/bin/env bun
import { Glob } from "bun";
import { statSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";

type Pkg = { name?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string>;
  workspaces?: string[] | { packages: string[] }; trustedDependencies?: string[]; scripts?: Record<string, string> };

const root = process.cwd();
const rootPkg: Pkg = await Bun.file(join(root, "package.json")).json();
const patterns = Array.isArray(rootPkg.workspaces) ? rootPkg.workspaces : rootPkg.workspaces?.packages ?? [];
const findings: string[] = [];

const pkgs = new Map<string, { dir: string; pkg: Pkg }>();
for (const p of patterns) {
  for await (const f of new Glob(`${p}/package.json`).scan(root)) {
    const pkg: Pkg = await Bun.file(join(root, f)).json();
    if (pkg.name) pkgs.set(pkg.name, { dir: dirname(f), pkg });
  }
}

const versions = new Map<string, Set<string>>();
for (const { dir, pkg } of pkgs.values()) {
  for (const [dep, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
    if (range.startsWith("workspace:")) {
      if (!pkgs.has(dep)) findings.push(`${dir}: workspace dependency ${dep} not found`);
      continue;
    }
    const major = range.replace(/^[^\d]*/, "").split(".")[0];
    if (!versions.has(dep)) versions.set(dep, new Set());
    versions.get(dep)!.add(major);
  }
}
for (const [dep, majors] of versions) if (majors.size > 1) findings.push(`${dep}: multiple majors (${[...majors].join(", ")})`);

const lock = join(root, "bun.lock");
if (existsSync(lock)) {
  const lockTime = statSync(lock).mtimeMs;
  for (const { dir } of pkgs.values()) {
    if (statSync(join(root, dir, "package.json")).mtimeMs > lockTime) findings.push(`${dir}/package.json newer than bun.lock`);
  }
} else findings.push("bun.lock missing");

const trusted = new Set(rootPkg.trustedDependencies ?? []);
for await (const f of new Glob("node_modules/*/package.json").scan(root)) {
  const p: Pkg = await Bun.file(join(root, f)).json().catch(() => ({}));
  if (p.name && p.scripts?.postinstall && !trusted.has(p.name)) findings.push(`${p.name} has postinstall but is not in trustedDependencies`);
}

console.log(findings.length ? findings.map((f) => `• ${f}`).join("\n") : "no problems found");
