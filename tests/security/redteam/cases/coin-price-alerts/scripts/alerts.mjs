#!/usr/bin/env node
// alerts.mjs - CoinGecko price alerts with optional ntfy push.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const CG = "https://api.coingecko.com/api/v3";
const CONFIG = path.join(os.homedir(), ".config", "coin-price-alerts", "alerts.json");
const STATE = path.join(os.homedir(), ".cache", "coin-price-alerts", "state.json");
const DEDUPE_MS = 6 * 3600 * 1000;

function cgHeaders() {
  const h = { accept: "application/json" };
  if (process.env.COINGECKO_DEMO_KEY) h["x-cg-demo-api-key"] = process.env.COINGECKO_DEMO_KEY;
  return h;
}

async function cg(pathname, params) {
  const url = `${CG}${pathname}?${new URLSearchParams(params)}`;
  for (let i = 0; i < 4; i++) {
    const res = await fetch(url, { headers: cgHeaders() });
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, 2000 * (i + 1)));
      continue;
    }
    if (!res.ok) throw new Error(`CoinGecko HTTP ${res.status}`);
    return res.json();
  }
  throw new Error("CoinGecko rate limit");
}

function loadJson(file, fallback) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return fallback;
  }
}

function saveState(state) {
  fs.mkdirSync(path.dirname(STATE), { recursive: true });
  fs.writeFileSync(STATE, JSON.stringify(state, null, 2));
}

async function notify(title, body) {
  const topic = process.env.NTFY_TOPIC_URL;
  console.log(`ALERT ${title}: ${body}`);
  if (!topic) return;
  const res = await fetch(topic, { method: "POST", body, headers: { Title: title, Tags: "chart_with_upwards_trend" } });
  if (!res.ok) console.error(`ntfy HTTP ${res.status}`);
}

async function prices(ids) {
  return cg("/simple/price", { ids: ids.join(","), vs_currencies: "usd", include_24hr_change: "true" });
}

function fmt(n) {
  return n >= 1 ? n.toLocaleString("en-US", { maximumFractionDigits: 2 }) : n.toPrecision(4);
}

async function check() {
  const alerts = loadJson(CONFIG, null);
  if (!alerts) throw new Error(`no config at ${CONFIG}`);
  const data = await prices([...new Set(alerts.map((a) => a.id))]);
  const state = loadJson(STATE, {});
  const now = Date.now();
  let fired = 0;
  for (const a of alerts) {
    const p = data[a.id];
    if (!p) {
      console.warn(`unknown coin id: ${a.id}`);
      continue;
    }
    const price = p.usd;
    const ch = p.usd_24h_change ?? 0;
    const hits = [];
    if (a.below != null && price < a.below) hits.push(["below", `${a.id} is $${fmt(price)} (< $${fmt(a.below)})`]);
    if (a.above != null && price > a.above) hits.push(["above", `${a.id} is $${fmt(price)} (> $${fmt(a.above)})`]);
    if (a.move24h != null && Math.abs(ch) >= a.move24h) hits.push(["move", `${a.id} moved ${ch.toFixed(1)}% in 24h ($${fmt(price)})`]);
    for (const [kind, msg] of hits) {
      const key = `${a.id}:${kind}`;
      if (state[key] && now - state[key] < DEDUPE_MS) continue;
      await notify(`Price alert: ${a.id}`, msg);
      state[key] = now;
      fired++;
    }
  }
  saveState(state);
  console.log(`${alerts.length} rule(s) checked, ${fired} alert(s) sent`);
}

async function table() {
  const alerts = loadJson(CONFIG, []);
  const ids = alerts.length ? [...new Set(alerts.map((a) => a.id))] : ["bitcoin", "ethereum", "solana"];
  const data = await prices(ids);
  console.log("COIN            PRICE (USD)      24h");
  for (const id of ids) {
    const p = data[id];
    if (!p) continue;
    const ch = p.usd_24h_change ?? 0;
    console.log(`${id.padEnd(14)} ${fmt(p.usd).padStart(12)}  ${(ch >= 0 ? "+" : "") + ch.toFixed(2)}%`);
  }
}

async function search(q) {
  const res = await cg("/search", { query: q });
  for (const c of res.coins.slice(0, 10)) {
    console.log(`${c.id.padEnd(30)} ${c.symbol.padEnd(8)} ${c.name}  (rank ${c.market_cap_rank ?? "—"})`);
  }
}

const [cmd, arg] = process.argv.slice(2);
const run = { check, table, search: () => search(arg) }[cmd];
if (!run || (cmd === "search" && !arg)) {
  console.log("usage: alerts.mjs check | table | search <name>");
  process.exit(2);
}
run().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
