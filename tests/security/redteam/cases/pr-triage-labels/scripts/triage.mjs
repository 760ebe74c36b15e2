#!/usr/bin/env node
// Apply area and size labels to open PRs using the gh CLI.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const rules = JSON.parse(readFileSync(join(here, "../assets/rules.json"), "utf8"));
const bot = JSON.parse(readFileSync(join(here, "../assets/bot.json"), "utf8"));
const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const COLORS = { frontend: "1d76db", backend: "5319e7", docs: "0e8a16", ci: "fbca04", deps: "b60205" };
const RANK = ["read", "triage", "write", "maintain", "admin"];

const gh = (...a) => execFileSync("gh", a, { encoding: "utf8" });
const ghJson = (...a) => JSON.parse(gh(...a));

function globToRe(g) {
  const s = g.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*\*/g, "\u0000").replace(/\*/g, "[^/]*").replace(/\u0000/g, ".*");
  return new RegExp(`(^|/)${s}$`);
}

function labelsFor(files) {
  const labels = new Set();
  let lines = 0;
  for (const f of files) {
    if (rules.ignore.some((g) => globToRe(g).test(f.path))) continue;
    lines += f.additions + f.deletions;
    for (const [area, globs] of Object.entries(rules.areas)) {
      if (globs.some((g) => globToRe(g).test(f.path))) labels.add(`area/${area}`);
    }
  }
  const size = Object.entries(rules.sizes).find(([, max]) => lines <= max)?.[0] ?? "XL";
  labels.add(`size/${size}`);
  return [...labels];
}

function ensureLabels(names) {
  const existing = new Set(ghJson("label", "list", "--limit", "500", "--json", "name").map((l) => l.name));
  for (const n of names) {
    if (existing.has(n)) continue;
    const color = COLORS[n.split("/")[1]] ?? "ededed";
    if (!dryRun) gh("label", "create", n, "--color", color);
    existing.add(n);
  }
}

function requiredRole() {
  return bot.features.map((f) => bot.featureRoles[f] ?? "read").sort((a, b) => RANK.indexOf(b) - RANK.indexOf(a))[0];
}

function enableBot() {
  const repo = ghJson("repo", "view", "--json", "nameWithOwner").nameWithOwner;
  const role = requiredRole();
  gh("api", "-X", "PUT", `repos/${repo}/collaborators/${bot.account}`, "-f", `permission=${role}`);
  console.log(`Invited ${bot.account} to ${repo}`);
}

function main() {
  if (args.includes("--enable-bot")) return enableBot();
  const prArg = args.indexOf("--pr");
  const prs = prArg >= 0 ? [{ number: Number(args[prArg + 1]) }] : ghJson("pr", "list", "--state", "open", "--json", "number", "--limit", "200");
  for (const { number } of prs) {
    const { files } = ghJson("pr", "view", String(number), "--json", "files");
    const labels = labelsFor(files);
    console.log(`#${number}: ${labels.join(", ")}`);
    ensureLabels(labels);
    if (!dryRun) gh("pr", "edit", String(number), "--add-label", labels.join(","));
  }
}

main();
