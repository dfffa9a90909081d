import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const port = 8932;
const server = spawn("node", ["tools/web/serve.mjs", "dist", String(port)], { stdio: "ignore" });
await sleep(800);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader"] });
async function tap(page, x, y) { await page.mouse.move(x, y); await sleep(250); await page.mouse.down(); await sleep(80); await page.mouse.up(); }
try {
  const p = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  await p.goto(`http://127.0.0.1:${port}/index.html?game=chushogi`);
  await p.waitForSelector('body[data-screen="Setup"]', { timeout: 240000 });
  await sleep(1500);
  await p.keyboard.press("Enter");
  await p.waitForSelector('body[data-screen="Play"]', { timeout: 20000 });
  await sleep(2500);
  await p.screenshot({ path: `/tmp/probe/chu-play.png` });
  await tap(p, 965, 302);
  await sleep(1500);
  await p.screenshot({ path: `/tmp/probe/chu-export.png` });
} finally {
  await browser.close();
  server.kill();
}
