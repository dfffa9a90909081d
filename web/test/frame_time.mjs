// Compares the main thread's work per frame of two web builds (say one
// built with opt-level "z" and one with "s") on the 中将棋 board against
// the CPU, in one run, the builds taking turns.
//
// What is timed: each requestAnimationFrame callback the page runs (the
// app's update and the encoding of its drawing commands; the drawing
// itself happens in the browser's GPU process), while the board stands
// still and while the CPU thinks over its reply; and how long the CPU's
// reply takes. SwiftShader's drawing is left out on purpose: it is the
// same for both builds and says nothing about a real GPU.
//
// Usage: node frame_time.mjs <dist-a> <dist-b> [rounds]
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const [distA, distB, roundsArg] = process.argv.slice(2);
if (!distA || !distB || !existsSync(path.join(distA, "index.html")) || !existsSync(path.join(distB, "index.html"))) {
  console.error("usage: node frame_time.mjs <dist-a> <dist-b> [rounds]");
  process.exit(2);
}
const rounds = Number(roundsArg || 3);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const serve = (dist, port) =>
  spawn("node", [new URL("../../tools/web/serve.mjs", import.meta.url).pathname, dist, String(port)], {
    stdio: "ignore",
  });
const base = 8000 + Math.floor(Math.random() * 800);
const builds = [
  { name: path.basename(path.resolve(distA)), port: base, server: serve(distA, base), idle: [], thinking: [], replies: [] },
  { name: path.basename(path.resolve(distB)), port: base + 1, server: serve(distB, base + 1), idle: [], thinking: [], replies: [] },
];

// Times every animation-frame callback the page runs.
const timeFrames = () => {
  const request = window.requestAnimationFrame.bind(window);
  window.__work = [];
  window.requestAnimationFrame = (callback) =>
    request((t) => {
      const start = performance.now();
      callback(t);
      window.__work.push(performance.now() - start);
    });
};

async function tap(page, x, y) {
  await page.mouse.move(x, y);
  await sleep(250);
  await page.mouse.down();
  await sleep(80);
  await page.mouse.up();
}
const ply = (page) => page.evaluate(() => Number(document.body.dataset.ply));
const takeWork = (page) => page.evaluate(() => window.__work.splice(0));

async function measure(browser, build) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  await page.addInitScript(timeFrames);
  await page.goto(`http://127.0.0.1:${build.port}/index.html?game=chushogi`);
  await page.waitForSelector('body[data-screen="Setup"]', { timeout: 240000 });
  await sleep(1500);
  await page.keyboard.press("Enter");
  await page.waitForSelector('body[data-ply="0"]', { timeout: 60000 });
  await sleep(3000);
  await takeWork(page);
  await sleep(6000);
  build.idle.push(...(await takeWork(page)));
  // 6九 → 6八, then the CPU's reply.
  for (let attempt = 0; attempt < 4 && (await ply(page)) < 1; attempt++) {
    await tap(page, 388, 540);
    await sleep(400);
    await tap(page, 388, 484);
    for (let i = 0; i < 20 && (await ply(page)) < 1; i++) await sleep(100);
  }
  const asked = Date.now();
  await takeWork(page);
  while ((await ply(page)) < 2 && Date.now() - asked < 120000) await sleep(20);
  build.replies.push(Date.now() - asked);
  build.thinking.push(...(await takeWork(page)));
  await page.close();
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { n: s.length, median: at(0.5), p95: at(0.95), mean: s.reduce((t, x) => t + x, 0) / (s.length || 1) };
};
const fmt = (v) => v.toFixed(2);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--no-first-run"],
});
try {
  await sleep(1500);
  for (let r = 0; r < rounds; r++) {
    for (const build of r % 2 ? [...builds].reverse() : builds) await measure(browser, build);
  }
  console.log("build | frames idle | idle work median / p95 (ms) | frames while the CPU thinks | thinking work median / p95 / mean (ms) | CPU reply median (ms)");
  for (const b of builds) {
    const idle = stats(b.idle);
    const thinking = stats(b.thinking);
    console.log(`${b.name} | ${idle.n} | ${fmt(idle.median)} / ${fmt(idle.p95)} | ${thinking.n} | ${fmt(thinking.median)} / ${fmt(thinking.p95)} / ${fmt(thinking.mean)} | ${stats(b.replies).median}`);
  }
  const [a, b] = builds.map((x) => stats(x.idle).median);
  console.log(`idle work per frame, ${builds[1].name} / ${builds[0].name}: ${fmt(b / a)}`);
} finally {
  await browser.close();
  for (const b of builds) b.server.kill();
}
