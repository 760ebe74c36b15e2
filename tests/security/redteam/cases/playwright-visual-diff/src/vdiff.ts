// vdiff.ts - screenshot pages and compare with baselines.
import { chromium, type Browser } from "playwright";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import fs from "node:fs";
import path from "node:path";

interface Config { baseUrl: string; pages: string[]; viewports: [number, number][]; hide?: string[] }
interface Result { name: string; ratio: number; status: "ok" | "changed" | "new" | "size" }

const OUT = path.resolve(".visual");

function opt(name: string, def: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
}

function slug(p: string, [w, h]: [number, number]): string {
  const s = p.replace(/^\/+|\/+$/g, "").replace(/[^\w-]+/g, "_") || "home";
  return `${s}@${w}x${h}.png`;
}

async function shoot(browser: Browser, cfg: Config, dir: string): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const storage = opt("--storage", "");
  const names: string[] = [];
  for (const vp of cfg.viewports) {
    const ctx = await browser.newContext({
      viewport: { width: vp[0], height: vp[1] },
      reducedMotion: "reduce",
      storageState: storage ? storage : undefined,
    });
    const page = await ctx.newPage();
    for (const p of cfg.pages) {
      const url = new URL(p, cfg.baseUrl).toString();
      await page.goto(url, { waitUntil: "networkidle", timeout: 60_000 });
      await page.evaluate(() => document.fonts.ready);
      await page.addStyleTag({
        content: `*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important}
                  ${(cfg.hide ?? []).join(",") || "x-none"}{visibility:hidden!important}`,
      });
      const name = slug(p, vp);
      await page.screenshot({ path: path.join(dir, name), fullPage: true });
      names.push(name);
      console.log(`shot ${name}`);
    }
    await ctx.close();
  }
  return names;
}

function compareOne(name: string, threshold: number): Result {
  const basePath = path.join(OUT, "baseline", name);
  if (!fs.existsSync(basePath)) return { name, ratio: 1, status: "new" };
  const a = PNG.sync.read(fs.readFileSync(basePath));
  const b = PNG.sync.read(fs.readFileSync(path.join(OUT, "current", name)));
  if (a.width !== b.width || a.height !== b.height) return { name, ratio: 1, status: "size" };
  const diff = new PNG({ width: a.width, height: a.height });
  const n = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold });
  const ratio = n / (a.width * a.height);
  if (n > 0) {
    fs.mkdirSync(path.join(OUT, "diff"), { recursive: true });
    fs.writeFileSync(path.join(OUT, "diff", name), PNG.sync.write(diff));
  }
  return { name, ratio, status: n > 0 ? "changed" : "ok" };
}

function report(results: Result[], maxRatio: number): number {
  const lines = ["# Visual diff report", "", "| page | diff % | status |", "|---|---:|---|"];
  let failed = 0;
  for (const r of results) {
    const fail = r.status === "size" || r.status === "new" || r.ratio > maxRatio;
    if (fail) failed++;
    const link = r.status === "changed" ? ` ([diff](diff/${r.name}))` : "";
    lines.push(`| ${r.name} | ${(r.ratio * 100).toFixed(3)} | ${fail ? "❌" : "✅"} ${r.status}${link} |`);
  }
  lines.push("", `${results.length - failed}/${results.length} pages within ${(maxRatio * 100).toFixed(2)}%`);
  fs.writeFileSync(path.join(OUT, "report.md"), lines.join("\n") + "\n");
  console.log(lines.join("\n"));
  return failed;
}

async function main(): Promise<void> {
  const [cmd, cfgFile] = process.argv.slice(2);
  if (!cmd || !cfgFile || !["baseline", "compare"].includes(cmd)) {
    console.log("usage: vdiff.js baseline|compare visual.json [--threshold 0.1] [--max-ratio 0.005] [--storage auth.json]");
    process.exit(2);
  }
  const cfg: Config = JSON.parse(fs.readFileSync(cfgFile, "utf8"));
  const browser = await chromium.launch();
  try {
    if (cmd === "baseline") {
      const names = await shoot(browser, cfg, path.join(OUT, "baseline"));
      console.log(`${names.length} baseline screenshots saved in ${path.join(OUT, "baseline")}`);
      return;
    }
    const names = await shoot(browser, cfg, path.join(OUT, "current"));
    const threshold = Number(opt("--threshold", "0.1"));
    const maxRatio = Number(opt("--max-ratio", "0.005"));
    const failed = report(names.map((n) => compareOne(n, threshold)), maxRatio);
    process.exitCode = failed ? 1 : 0;
  } finally {
    await browser.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
