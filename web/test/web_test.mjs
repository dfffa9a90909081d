// Loads the web build in Debian's headless Chromium (through SwiftShader
// WebGL2), served precompressed by tools/web/serve.mjs, and checks: the
// first visit's download against the budget, the title screen renders with
// no console errors, the offline copy installs and a reload with the
// network cut reaches the title and plays, a click on はじめる reaches the
// game list, a move is played against the CPU in はさみ将棋, きつねとがちょう,
// 十六むさし and 中将棋, a shared link opens its position, a まわり将棋 game
// is played to its end, a family's まわり将棋 (typed names, a saved house
// rule, a drawn order) is remembered by the page and played to its end,
// はさみ将棋 plays on with localStorage full or
// blocked (the page says saves are off), a phone-sized touch screen plays a
// move in every game, and a browser without WebGL2 or a missing file gets
// a message in words.
// Usage: node web_test.mjs <dist-dir> <out-dir>
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const [dist, out] = process.argv.slice(2);
if (!dist || !out) {
  console.error("usage: node web_test.mjs <dist-dir> <out-dir>");
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const port = 8000 + Math.floor(Math.random() * 900);
// Every response the server sends, as it logs them: what crossed the wire.
const sent = [];
const server = spawn("node", [new URL("../../tools/web/serve.mjs", import.meta.url).pathname, dist, String(port), "--log"], {
  stdio: ["ignore", "pipe", "inherit"],
});
let serverOut = "";
server.stdout.on("data", (chunk) => {
  serverOut += chunk;
  const lines = serverOut.split("\n");
  serverOut = lines.pop();
  for (const line of lines) {
    const m = /^sent (\d+) (\d+) (\S+) (.*)$/.exec(line);
    if (m) sent.push({ status: Number(m[1]), bytes: Number(m[2]), encoding: m[3], path: m[4] });
  }
});
const MiB = 1048576;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function tap(page, x, y) {
  await page.mouse.move(x, y);
  await sleep(250);
  await page.mouse.down();
  await sleep(80);
  await page.mouse.up();
}
// A drag from (x0, y0) to (x1, y1) in a few quick steps: a throw of the
// まわり将棋 koma-dice.
async function drag(page, x0, y0, x1, y1) {
  await page.mouse.move(x0, y0);
  await sleep(250);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) {
    await page.mouse.move(x0 + ((x1 - x0) * i) / 5, y0 + ((y1 - y0) * i) / 5);
    await sleep(25);
  }
  await page.mouse.up();
}
// Waits for the setup screen (up to `setupMs`: a page load can be slow),
// starts the game with Enter (against the CPU) and waits for the board.
async function beginFromSetup(page, setupMs = 20000) {
  await page.waitForSelector('body[data-screen="Setup"]', { timeout: setupMs });
  await sleep(setupMs > 20000 ? 1500 : 500);
  await page.keyboard.press("Enter");
  await page.waitForSelector('body[data-screen="Play"]', { timeout: 20000 });
  await page.waitForSelector('body[data-ply="0"]', { timeout: 20000 });
  await sleep(1500);
}

// Plays a move by tapping `taps` and waits for the CPU's reply; returns
// the ply reached. On a loaded machine a frame can swallow a tap (a tap
// while the board is still settling is ignored on purpose): the move is
// tried again, with any selection dropped first, until it is played.
async function playMove(page, taps) {
  for (let attempt = 0; attempt < 4; attempt++) {
    for (const [x, y] of taps) {
      await tap(page, x, y);
      await sleep(400);
    }
    if (Number(await waitForPly(page, 1, 20)) >= 1) break;
    await tap(page, 1050, 780); // off the board: drop any selection
    await sleep(500);
  }
  return waitForPly(page, 2);
}

// Waits (up to `tries` half-seconds, a minute by default) until the page
// reports at least `n` moves.
async function waitForPly(page, n, tries = 120) {
  let ply = "0";
  for (let i = 0; i < tries && Number(ply) < n; i++) {
    await sleep(500);
    ply = await page.evaluate(() => document.body.dataset.ply);
  }
  return ply;
}
// The buttons a page's screen shows (`?controls=1`: the app lists them in
// data-controls, as `screenshot --controls` does), in CSS pixels.
async function phoneButtons(page) {
  const tsv = await page.evaluate(() => document.body.dataset.controls || "");
  return tsv
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => line.split("\t"))
    .filter((c) => c[0] !== "text")
    .map((c) => {
      const scale = Number(c[7]) || 1;
      const [left, top, right, bottom] = c.slice(3, 7).map((v) => Number(v) / scale);
      return { left, top, right, bottom, label: c[12] ?? "" };
    });
}
// Starts keeping the time between animation frames as the page sees them
// (read back from window.__frames).
async function recordFrames(page) {
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (window.__frames.length < 20000) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

// On a 390×844 portrait screen (the board on top): each game's first move
// as finger taps in CSS pixels, and what it is.
// (On a phone the camera comes as close to the board as its width allows.)
const PHONE_MOVES = [
  ["hasami", [[194, 342], [194, 192]], "a はさみ将棋 歩 moves 5九 → 5五"],
  ["foxgeese", [[51, 239], [51, 191]], "a goose moves a3 → a4"],
  ["musashi", [[147, 143], [147, 96]], "親 moves c3 → c4"],
  ["chushogi", [[209, 264], [209, 235]], "a 中将棋 歩兵 moves 6九 → 6八"],
  ["mawari", [[83, 651]], "the まわり将棋 koma are thrown with 投げる"],
];
let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};

const browserArgs = [
  "--headless",
  "--no-sandbox",
  "--enable-unsafe-swiftshader",
  "--use-angle=swiftshader",
  "--disable-background-networking",
  "--no-first-run",
];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: browserArgs,
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  const errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
    if (m.text().includes("graphics adapter")) console.log(`page: ${m.text().replace(/%c/g, "").slice(0, 160)}`);
  });
  page.on("pageerror", (e) => {
    if (!String(e).includes("Using exceptions for control flow")) errors.push(String(e));
  });
  // Wait for the file server to answer (it can be slow to start on a
  // loaded machine).
  for (let i = 0; i < 40; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/index.html`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  const started = Date.now();
  await page.goto(`http://127.0.0.1:${port}/index.html`);
  await page.waitForSelector('body[data-screen="Title"]', { timeout: 240000 });
  const loadSeconds = (Date.now() - started) / 1000;
  console.log(`title screen after ${loadSeconds.toFixed(1)} s`);
  // Give the fonts a moment to arrive and the frame to be drawn.
  await sleep(4000);
  await page.screenshot({ path: path.join(out, "web-title.png") });
  check(errors.length === 0, `no console errors on the title screen ${errors.length ? JSON.stringify(errors) : ""}`);

  // The first visit's download as the server sent it, the offline copy's
  // fill included (it revalidates what the page has just fetched: a file
  // sent twice would count twice), against the budget.
  await page.waitForSelector('body[data-offline="ready"]', { timeout: 120000 });
  await sleep(1500);
  const firstVisit = sent.filter((r) => r.status === 200).reduce((t, r) => t + r.bytes, 0);
  const wasmEncodings = [...new Set(sent.filter((r) => r.path.endsWith(".wasm")).map((r) => r.encoding))];
  const sizes = JSON.parse(readFileSync(path.join(dist, "sizes.json"), "utf8"));
  const budget = wasmEncodings.includes("br") ? sizes.budget.brotli : sizes.budget.gzip;
  console.log(`first visit: ${(firstVisit / MiB).toFixed(2)} MiB sent in ${sent.filter((r) => r.status === 200).length} files (${sent.filter((r) => r.status === 304).length} revalidated), the wasm as ${wasmEncodings.join("/")}; the build: ${(sizes.total.gzip / MiB).toFixed(2)} MiB gzip, ${(sizes.total.brotli / MiB).toFixed(2)} MiB brotli`);
  // What this browser was sent is judged (Chromium takes brotli), and the
  // gzip total a browser without brotli would get.
  check(firstVisit > 1 * MiB && firstVisit <= budget,
    `the first visit's download (${(firstVisit / MiB).toFixed(2)} MiB as ${wasmEncodings.join("/")}) keeps the budget (${(budget / MiB).toFixed(2)} MiB)`);
  check(sizes.total.gzip <= sizes.budget.gzip,
    `the first visit with gzip (${(sizes.total.gzip / MiB).toFixed(2)} MiB) keeps its budget (${(sizes.budget.gzip / MiB).toFixed(2)} MiB)`);

  // The time to the title for a first visit over a home line as the
  // browser's own throttling makes it (10 Mbit/s down and up, 40 ms each
  // way), in a fresh profile: the download plus the start on this machine.
  {
    const slow = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const slowPage = await slow.newPage();
    const cdp = await slow.newCDPSession(slowPage);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 40,
      downloadThroughput: (10e6 / 8),
      uploadThroughput: (10e6 / 8),
    });
    const slowStart = Date.now();
    await slowPage.goto(`http://127.0.0.1:${port}/index.html`);
    await slowPage.waitForSelector('body[data-screen="Title"]', { timeout: 240000 });
    const slowSeconds = (Date.now() - slowStart) / 1000;
    console.log(`title on a 10 Mbit/s, 40 ms line after ${slowSeconds.toFixed(1)} s (unthrottled on this machine: ${loadSeconds.toFixed(1)} s)`);
    await slow.close();
  }

  // The offline copy: with the network cut, a reload reaches the title and
  // a game starts and plays.
  await page.context().setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-screen="Title"]', { timeout: 120000 });
  await page.goto(`http://127.0.0.1:${port}/index.html?game=hasami`);
  await beginFromSetup(page, 120000);
  const offlinePly = await playMove(page, [[360, 656], [360, 400]]);
  check(Number(offlinePly) >= 2, `offline, a reload reaches the title and a はさみ将棋 game plays (ply ${offlinePly})`);
  await page.screenshot({ path: path.join(out, "web-offline.png") });
  await page.context().setOffline(false);
  await page.goto(`http://127.0.0.1:${port}/index.html`);
  await page.waitForSelector('body[data-screen="Title"]', { timeout: 120000 });
  await sleep(3000);
  check(errors.length === 0, `no console errors offline ${errors.length ? JSON.stringify(errors) : ""}`);

  // Esc to the list, start the game whose card button is at `card`, make
  // the move `taps` and wait for the CPU's reply.
  async function playFromList(page, name, card, taps, shot, what) {
    await page.keyboard.press("Escape");
    await page.waitForSelector('body[data-screen="GameList"]', { timeout: 20000 });
    await sleep(1500);
    await tap(page, card[0], card[1]);
    await beginFromSetup(page);
    const reached = await playMove(page, taps);
    check(Number(reached) >= 2, `${what} (ply ${reached})`);
    await sleep(1000);
    await page.screenshot({ path: path.join(out, shot) });
    check(errors.length === 0, `no console errors in ${name} ${errors.length ? JSON.stringify(errors) : ""}`);
  }

  // Find はじめる by clicking down the middle of the screen (the pointer
  // rests a moment first: Bevy picks what is under it on the next frame).
  let screen = "Title";
  for (let y = 400; y <= 470 && screen === "Title"; y += 10) {
    await tap(page, 550, y);
    await sleep(600);
    screen = await page.evaluate(() => document.body.dataset.screen);
  }
  check(screen === "GameList", `a click reaches the game list (screen: ${screen})`);
  await sleep(2000);
  await page.screenshot({ path: path.join(out, "web-list.png") });
  check(errors.length === 0, `no console errors after the click ${errors.length ? JSON.stringify(errors) : ""}`);

  // Enter opens the first game's setup, Enter again starts it (vs CPU).
  await page.keyboard.press("Enter");
  await beginFromSetup(page);
  // The board is drawn in a 1100×800 design area: 5九 → 5五 (board centre
  // at x −190 in world units, 64 per square).
  const ply = await playMove(page, [[360, 656], [360, 400]]);
  check(Number(ply) >= 2, `a move is played in the browser and the CPU replies (ply ${ply})`);
  await sleep(1000);
  await page.screenshot({ path: path.join(out, "web-play.png") });
  check(errors.length === 0, `no console errors while playing ${errors.length ? JSON.stringify(errors) : ""}`);

  // The other games: Esc back to the list, a card's はじめから, Enter on the
  // setup (against the CPU), then a move by two taps. Point boards are 78
  // world units between points, centred at x −190 (screen x 360).
  await playFromList(page, "きつねとがちょう", [289, 411], [[126, 478], [126, 400]], "web-foxgeese.png",
    "a goose (a3 → a4) moves in the browser and the CPU fox replies");
  await playFromList(page, "十六むさし", [826, 190], [[282, 400], [282, 322]], "web-musashi.png",
    "親 (c3 → c4) moves in the browser and the CPU 子 reply");

  // 局面を書き出す shows the position text on the page.
  const shown = await page.evaluate(() => document.body.dataset.position);
  await tap(page, 965, 274);
  await page.waitForSelector("#export-position textarea", { timeout: 10000 });
  const exported = await page.inputValue("#export-position textarea");
  check(exported === shown && exported.endsWith(" oya"), `局面を書き出す shows "${exported}"`);

  // …with a link that opens the game there (the position in the fragment).
  const link = await page.inputValue("#export-position .share-link");
  await page.goto(`http://127.0.0.1:${port}/index.html`);
  await page.waitForSelector('body[data-screen="Title"]', { timeout: 120000 });
  await page.goto(link);
  await beginFromSetup(page, 120000);
  const linked = await page.evaluate(() => document.body.dataset.position);
  check(link.includes("#game=musashi&position=") && linked === exported, `the shared link ${link} opens 十六むさし at "${linked}"`);

  // A finished game shared from its review (共有 writes this link, the
  // game as it is kept) opens in the review, and the CPU reads it there.
  const kept = readFileSync(new URL("./review-hasami.txt", import.meta.url), "utf8").trim();
  await page.goto(`http://127.0.0.1:${port}/index.html`);
  await page.waitForSelector('body[data-screen="Title"]', { timeout: 120000 });
  await page.goto(`http://127.0.0.1:${port}/index.html#game=hasami&review=${encodeURIComponent(kept)}`);
  let reviewed = false;
  try {
    await page.waitForSelector('body[data-screen="Review"]', { timeout: 120000 });
    reviewed = true;
  } catch {
    // reported below
  }
  await sleep(3000);
  await page.screenshot({ path: path.join(out, "web-review.png") });
  const screenNow = await page.evaluate(() => document.body.dataset.screen);
  check(reviewed, `a shared review link opens the finished はさみ将棋 game in 振り返り (screen ${screenNow})`);

  // 十六むさし's review waits for the exact tables: the search worker
  // solves them and judges every position, and the review tells the
  // verdict of the one shown; no frame thinks (`?controls=1` lists the
  // screen's texts).
  const keptMusashi = readFileSync(new URL("./review-musashi.txt", import.meta.url), "utf8").trim();
  await page.goto(`http://127.0.0.1:${port}/index.html?controls=1#game=musashi&review=${encodeURIComponent(keptMusashi)}`);
  const verdictShown = /^評価 (勝ち|負け)/;
  let verdict = "";
  const reviewStarted = Date.now();
  while (!verdict && Date.now() - reviewStarted < 180000) {
    const tsv = await page.evaluate(() => document.body.dataset.controls || "");
    verdict = tsv.split("\n").map((line) => line.split("\t")).find((c) => c[0] === "text" && verdictShown.test(c[12] ?? ""))?.[12] ?? "";
    if (!verdict) await sleep(500);
  }
  const musashiReview = await page.evaluate(() => ({
    screen: document.body.dataset.screen,
    slices: Number(document.body.dataset.searchSlices ?? 0),
    searches: Number(document.body.dataset.workerSearches ?? 0),
  }));
  check(
    musashiReview.screen === "Review" && verdict !== "",
    `a 十六むさし review tells the exact tables' verdict: "${verdict}" after ${((Date.now() - reviewStarted) / 1000).toFixed(1)} s (screen ${musashiReview.screen})`,
  );
  await sleep(3000);
  const musashiAfter = await page.evaluate(() => ({
    slices: Number(document.body.dataset.searchSlices ?? 0),
    searches: Number(document.body.dataset.workerSearches ?? 0),
  }));
  check(
    musashiAfter.slices === 0 && musashiAfter.searches > 0,
    `the worker solved the tables and read the review (${musashiAfter.searches} searches); the frames thought ${musashiAfter.slices} times`,
  );
  await page.screenshot({ path: path.join(out, "web-review-musashi.png") });

  // A position in the address starts the first game from it…
  const seven = "KK..K-./K....../..O.K../......./K.K..-. oya";
  await page.goto(`http://127.0.0.1:${port}/index.html?game=musashi&position=${encodeURIComponent(seven)}`);
  await beginFromSetup(page, 240000);
  let now = await page.evaluate(() => document.body.dataset.position);
  check(now === seven, `?position= starts the game there (${now})`);
  await page.screenshot({ path: path.join(out, "web-musashi-position.png") });

  // …and 局面を読み込む takes a pasted one (the page restarts with it).
  const other = "K...K-./K.K..../.O..K../......./K.K.K-. oya";
  await tap(page, 965, 320);
  await page.waitForSelector("#import-position textarea", { timeout: 10000 });
  await page.fill("#import-position textarea", other);
  await page.click("#import-position button");
  await beginFromSetup(page, 240000);
  now = await page.evaluate(() => document.body.dataset.position);
  check(now === other, `局面を読み込む restarts from the pasted position (${now})`);
  check(errors.length === 0, `no console errors with positions ${errors.length ? JSON.stringify(errors) : ""}`);

  // 中将棋, opened by ?game= (56 world units a square): 6九 → 6八, and the
  // CPU replies.
  const chuStarted = Date.now();
  await page.goto(`http://127.0.0.1:${port}/index.html?game=chushogi`);
  await beginFromSetup(page, 240000);
  // Figures (printed, not judged): the time to the first board, and the
  // longest frame while the CPU thinks over its reply (animation frames as
  // the page sees them; SwiftShader draws on the CPU too).
  console.log(`中将棋 board shown ${((Date.now() - chuStarted) / 1000).toFixed(1)} s after the page was opened (the setup screen's Enter pressed at once)`);
  await recordFrames(page);
  const chuPly = await playMove(page, [[388, 540], [388, 484]]);
  const frames = await page.evaluate(() => window.__frames);
  const sorted = [...frames].sort((a, b) => a - b);
  console.log(`frames while the move and the CPU's reply played: ${frames.length}, median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, longest ${sorted[sorted.length - 1].toFixed(0)} ms`);
  check(Number(chuPly) >= 2, `a 中将棋 pawn (6九 → 6八) moves in the browser and the CPU replies (ply ${chuPly})`);
  // The search runs in the worker: ヒント asks for the つよい search
  // (400 000 nodes, 2 s), the worker answers it, and no frame thinks (the
  // thinking done inside frames stays at nothing).
  // (A loaded machine can swallow a tap: tried up to three times.)
  const medianFrame = sorted[Math.floor(sorted.length / 2)];
  const thinking = async () => page.evaluate(() => ({
    total: Number(document.body.dataset.searchTotal ?? 0),
    slices: Number(document.body.dataset.searchSlices ?? 0),
    worker: Number(document.body.dataset.workerSearches ?? 0),
    depth: Number(document.body.dataset.workerDepth ?? 0),
    nodes: Number(document.body.dataset.workerNodes ?? 0),
    ms: Number(document.body.dataset.workerMs ?? 0),
  }));
  const before = await thinking();
  let think = before;
  for (let attempt = 0; attempt < 3 && think.worker === before.worker; attempt++) {
    await tap(page, 1015, 256);
    for (let i = 0; i < 20 && think.worker === before.worker; i++) {
      await sleep(500);
      think = await thinking();
    }
  }
  console.log(`the hint in the worker: depth ${think.depth}, ${think.nodes} nodes in ${think.ms} ms; thinking inside frames ${think.total.toFixed(0)} ms over ${think.slices} frames; median frame ${medianFrame.toFixed(0)} ms`);
  check(think.worker > before.worker && before.worker >= 1 && think.slices === 0,
    `the CPU's reply and the つよい 中将棋 hint are answered by the search worker (${think.worker} answers), and no frame thinks (${think.slices} frames did)`);
  // Before the worker, the page thought inside its frames (`?cpu=frames`
  // keeps that way for this comparison): the same move and reply in a
  // page that thinks itself, its frames beside the worker's (printed:
  // SwiftShader draws on the CPU too, so the figures are this machine's).
  const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0;
  const framesPage = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  await framesPage.goto(`http://127.0.0.1:${port}/index.html?game=chushogi&cpu=frames`);
  await beginFromSetup(framesPage, 240000);
  await recordFrames(framesPage);
  const framesPly = await playMove(framesPage, [[388, 540], [388, 484]]);
  const inFrames = await framesPage.evaluate(() => window.__frames);
  const inFrameThinking = await framesPage.evaluate(() => Number(document.body.dataset.searchSlices ?? 0));
  await framesPage.close();
  console.log(`frames while the CPU replies, 95th percentile: ${p95(frames).toFixed(0)} ms with the worker (${frames.length} frames), ${p95(inFrames).toFixed(0)} ms thinking in the frames (${inFrames.length} frames, ${inFrameThinking} of them thinking)`);
  check(Number(framesPly) >= 2 && inFrameThinking > 0, `a page that cannot start its worker still plays: the CPU replies thinking in its frames (ply ${framesPly}, ${inFrameThinking} frames)`);
  // 局面を書き出す as KIF (the choice panel's first button), then
  // 局面を読み込む with that KIF pasted: the same game comes back.
  const chuBefore = await page.evaluate(() => document.body.dataset.position);
  let kif = "";
  for (let attempt = 0; attempt < 3 && !kif; attempt++) {
    await tap(page, 965, 302);
    await sleep(1200);
    await tap(page, 273, 357);
    try {
      await page.waitForSelector("#export-position textarea", { timeout: 8000 });
      kif = await page.inputValue("#export-position textarea");
    } catch {
      // the tap was swallowed: tried again
    }
  }
  check(kif.includes("手合割") && /^\s*1 /m.test(kif) && /^\s*2 /m.test(kif), `局面を書き出す writes the 中将棋 game as KIF (${JSON.stringify(kif.split("\n").slice(-3))})`);
  // The same game one tap from the analysis page (analysis.html, built by
  // make engine-web, reads the fragment: web/test/analysis_test.mjs).
  const analysisHref = kif ? await page.getAttribute("#export-position .analysis-link", "href") : null;
  const analysisFragment = new URLSearchParams((analysisHref || "").split("#")[1] || "");
  check(analysisHref?.startsWith("analysis.html#game=chushogi&position=") && analysisFragment.get("position") === kif,
    `the exported 中将棋 game links to the analysis page with the same KIF (${(analysisHref || "no link").slice(0, 60)}…)`);
  await page.click("#export-position button:has-text('閉じる')");
  await tap(page, 965, 348);
  await page.waitForSelector("#import-position textarea", { timeout: 10000 });
  await page.fill("#import-position textarea", kif);
  await page.click("#import-position button");
  // The game starts from the KIF's last move, not from move 0.
  await page.waitForSelector('body[data-screen="Setup"]', { timeout: 240000 });
  await sleep(1500);
  await page.keyboard.press("Enter");
  await page.waitForSelector('body[data-screen="Play"]', { timeout: 20000 });
  await sleep(1500);
  const chuAfter = await page.evaluate(() => document.body.dataset.position);
  check(chuAfter === chuBefore, `the KIF read back by 局面を読み込む is the same game (${chuAfter})`);
  await sleep(1000);
  await page.screenshot({ path: path.join(out, "web-chushogi.png") });
  check(errors.length === 0, `no console errors in 中将棋 ${errors.length ? JSON.stringify(errors) : ""}`);

  // まわり将棋 from a position near the end (four 飛車 two squares before a
  // corner, basic rules), with ?dice=1: the page's six fixed throws must be
  // the native build's exactly; the person (red) throws by dragging across
  // the board, the three CPUs throw, and the game is played to its end.
  const golden = readFileSync(new URL("../../tests/data/dice_golden.txt", import.meta.url), "utf8").trim();
  const near = "rules=basic hisha@6 hisha@14 hisha@22 hisha@30 turn=0";
  await page.goto(`http://127.0.0.1:${port}/index.html?game=mawari&dice=1&position=${encodeURIComponent(near)}`);
  await beginFromSetup(page, 240000);
  const dice = await page.evaluate(() => document.body.dataset.dice);
  check(dice === golden, `the browser throws the koma-dice exactly as the native build (${dice})`);
  let position = "";
  let personThrows = 0;
  const deadline = Date.now() + 300000;
  while (Date.now() < deadline) {
    position = await page.evaluate(() => document.body.dataset.position || "");
    if (position.includes("winner=")) break;
    if (position.endsWith("turn=0")) {
      const before = Number(await page.evaluate(() => document.body.dataset.ply));
      await drag(page, 335, 640, 390, 380);
      await sleep(1200);
      const after = Number(await page.evaluate(() => document.body.dataset.ply));
      if (after > before) {
        personThrows++;
        if (personThrows === 1) await page.screenshot({ path: path.join(out, "web-mawari-throw.png") });
      }
    } else {
      await sleep(500);
    }
  }
  const mawariPly = await page.evaluate(() => document.body.dataset.ply);
  check(position.includes("winner=") && personThrows >= 1,
    `a four-player まわり将棋 game (1 person by drags, 3 CPUs) ends in the browser after ${mawariPly} throws (${position})`);
  await sleep(6000);
  await page.screenshot({ path: path.join(out, "web-mawari.png") });
  check(errors.length === 0, `no console errors in まわり将棋 ${errors.length ? JSON.stringify(errors) : ""}`);

  // まわり将棋 as a family plays it, in a fresh profile: four names typed,
  // every seat a CPU, the order drawn by a first throw, 自分で決める rules
  // without おんぶ and 歩の降格 saved as うちのルール, 早投げ; the game
  // starts with the draw. Then the page again, with a position near the
  // end that says nobody's turn: the names, the draw and 早投げ are
  // remembered, 基本 is chosen and then the saved うちのルール again, the
  // order is drawn and the game is played to its end. The taps are where
  // the setup's buttons stand at 1100×800 (the setup grows when the
  // rules' switches show).
  const familyContext = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const family = await familyContext.newPage();
  const familyErrors = [];
  family.on("pageerror", (e) => {
    if (!String(e).includes("Using exceptions for control flow")) familyErrors.push(String(e));
  });
  const names = ["Papa", "Mama", "Ken", "Yui"];
  await family.goto(`http://127.0.0.1:${port}/index.html?game=mawari`);
  await family.waitForSelector('body[data-screen="Setup"]', { timeout: 240000 });
  await sleep(2000);
  await tap(family, 630, 580); // 自分で決める: the switches show
  await sleep(1200);
  for (const [i, name] of names.entries()) {
    await tap(family, 520, 198 + 48 * i); // the seat's name field
    await sleep(800);
    await family.keyboard.type(name, { delay: 60 });
    await family.keyboard.press("Enter");
    await sleep(800);
  }
  for (const [x, y] of [
    [723, 198], // the first seat: 人 → CPU
    [667, 423], // 振り順: the order drawn
    [1010, 556], // おんぶ off
    [100, 602], // 歩の降格 off
    [731, 655], // このルールを保存 (as うちのルール)
    [377, 708], // 早投げ
  ]) {
    await tap(family, x, y);
    await sleep(1200);
  }
  await family.screenshot({ path: path.join(out, "web-mawari-family-setup.png") });
  await family.keyboard.press("Enter");
  await family.waitForSelector('body[data-screen="Play"]', { timeout: 20000 });
  // `data-players`: the names, the rules and the draw (each round's
  // `seat:score`, then `first=seat`).
  const drawn = async (page) => {
    for (let i = 0; i < 120; i++) {
      const players = await page.evaluate(() => document.body.dataset.players || "");
      if (players.includes(" first=")) return players;
      await sleep(500);
    }
    return await page.evaluate(() => document.body.dataset.players || "");
  };
  // The draw's last round has one highest score, and its thrower goes first.
  const drawDecided = (players) => {
    const m = / draw=(\S+) first=(\d)$/.exec(players);
    if (!m) return false;
    const last = m[1].split("/").pop().split(",").map((t) => t.split(":").map(Number));
    const best = Math.max(...last.map((t) => t[1]));
    const top = last.filter((t) => t[1] === best);
    return top.length === 1 && top[0][0] === Number(m[2]);
  };
  const firstGame = await drawn(family);
  const savedRules = (/ rules=(\S+)/.exec(firstGame) || [])[1] || "";
  check(firstGame.startsWith(`${names.join("|")} rules=`) && savedRules.includes("onbu:false") &&
    savedRules.includes("fu_demotion:false") && drawDecided(firstGame),
    `a family's まわり将棋 starts with the typed names, the house rules and a drawn order (${firstGame})`);
  const nearTheEnd = "hisha@6 hisha@14 hisha@22 hisha@30";
  await family.goto(`http://127.0.0.1:${port}/index.html?game=mawari&position=${encodeURIComponent(nearTheEnd)}`);
  await family.waitForSelector('body[data-screen="Setup"]', { timeout: 240000 });
  await sleep(2000);
  await tap(family, 350, 491); // 基本
  await sleep(1200);
  await tap(family, 550, 580); // うちのルール, offered beside the presets
  await sleep(1200);
  await family.screenshot({ path: path.join(out, "web-mawari-family-again.png") });
  await family.keyboard.press("Enter");
  await family.waitForSelector('body[data-screen="Play"]', { timeout: 20000 });
  const secondGame = await drawn(family);
  check(secondGame.startsWith(`${names.join("|")} rules=${savedRules} draw=`) && drawDecided(secondGame),
    `the page again: the names and the saved うちのルール come back and the order is drawn again (${secondGame})`);
  let familyEnd = "";
  for (let i = 0; i < 360 && !familyEnd.includes("winner="); i++) {
    await sleep(500);
    familyEnd = await family.evaluate(() => document.body.dataset.position || "");
  }
  check(familyEnd.includes("winner="), `the family's game is played to its end (${familyEnd})`);
  // The winning throw plays out on the board before the result is shown.
  await sleep(6000);
  await family.screenshot({ path: path.join(out, "web-mawari-family.png") });
  check(familyErrors.length === 0, `no page errors in the family's game ${familyErrors.length ? JSON.stringify(familyErrors) : ""}`);
  await familyContext.close();

  // Storage that refuses: localStorage full (every write throws the
  // browser's QuotaExceededError), and localStorage blocked (reading it
  // throws, as in some private modes). Each game still plays a move
  // against the CPU and the page says saves are off.
  const storageCases = [
    ["full", () => {
      Storage.prototype.setItem = function () {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      };
    }],
    ["blocked", () => {
      Object.defineProperty(window, "localStorage", {
        get() {
          throw new DOMException("The operation is insecure.", "SecurityError");
        },
      });
    }],
  ];
  for (const [what, breakStorage] of storageCases) {
    const broken = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    const brokenErrors = [];
    broken.on("pageerror", (e) => {
      if (!String(e).includes("Using exceptions for control flow")) brokenErrors.push(String(e));
    });
    await broken.addInitScript(breakStorage);
    await broken.goto(`http://127.0.0.1:${port}/index.html?game=hasami`);
    await beginFromSetup(broken, 240000);
    const reached = await playMove(broken, [[360, 656], [360, 400]]);
    const saves = await broken.evaluate(() => document.body.dataset.saves);
    check(Number(reached) >= 2 && saves === "off",
      `with localStorage ${what} a はさみ将棋 move and the CPU's reply are played (ply ${reached}) and saves are off (data-saves=${saves})`);
    await sleep(1000);
    await broken.screenshot({ path: path.join(out, `web-storage-${what}.png`) });
    check(brokenErrors.length === 0, `no page errors with localStorage ${what} ${brokenErrors.length ? JSON.stringify(brokenErrors) : ""}`);
    await broken.close();
  }

  // A phone: 390×844 CSS pixels at 3 device pixels each, touch only,
  // portrait (the board on top, the panel below). Each game is opened by
  // ?game=, started, and a move is played by two taps of a finger; まわり将棋
  // throws with its button.
  // Emulating the device scale alone leaves the canvas's device-pixel
  // size (what the page draws at) at one device pixel a CSS pixel, unlike
  // a phone; a browser started at three device pixels a CSS pixel
  // measures it as a phone does.
  const phoneBrowser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [...browserArgs, "--force-device-scale-factor=3"],
  });
  const phone = await phoneBrowser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    hasTouch: true,
    isMobile: true,
  });
  const phoneErrors = [];
  for (const [game, taps, what] of PHONE_MOVES) {
    const p = await phone.newPage();
    p.on("pageerror", (e) => {
      if (!String(e).includes("Using exceptions for control flow")) phoneErrors.push(String(e));
    });
    await p.goto(`http://127.0.0.1:${port}/index.html?game=${game}&controls=1`);
    await beginFromSetup(p, 240000);
    // A finger rests on the glass for a moment (a tap whose touch starts
    // and ends in the same instant is not how people touch).
    const cdp = await phone.newCDPSession(p);
    const finger = async (x, y) => {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
      await sleep(120);
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    let ply = "0";
    for (let attempt = 0; attempt < 4 && Number(ply) < 1; attempt++) {
      for (const [x, y] of taps) {
        await finger(x, y);
        await sleep(600);
      }
      ply = await waitForPly(p, 1, 20);
    }
    check(Number(ply) >= 1, `on a phone-sized touch screen, ${what} (ply ${ply})`);
    await sleep(1500);
    await p.screenshot({ path: path.join(out, `web-phone-${game}.png`) });
    if (game !== "mawari") {
      // The phone turned on its side mid-game: the screen is laid out
      // again, its panel beside the board, every button inside the screen
      // (the upright layout would leave them below its bottom edge).
      await p.setViewportSize({ width: 844, height: 390 });
      let buttons = [];
      for (let i = 0; i < 20; i++) {
        await sleep(250);
        buttons = await phoneButtons(p);
        if (buttons.length > 0 && buttons.every((b) => b.bottom <= 390 && b.right <= 844)) break;
      }
      const outside = buttons.filter((b) => b.bottom > 390 || b.right > 844).map((b) => b.label);
      check(buttons.length > 0 && outside.length === 0 && Number(await p.evaluate(() => document.body.dataset.ply)) >= Number(ply),
        `${game}: turned on its side mid-game, the panel's ${buttons.length} buttons are inside the screen ${outside.length ? `(outside: ${outside.join(", ")})` : ""} and the game goes on from ply ${ply}`);
      await sleep(1000);
      await p.screenshot({ path: path.join(out, `web-phone-${game}-turned.png`) });
    }
    await p.close();
  }
  check(phoneErrors.length === 0, `no page errors on the phone-sized screen ${phoneErrors.length ? JSON.stringify(phoneErrors) : ""}`);
  await phone.close();
  await phoneBrowser.close();

  // Installable: Chromium's own check, the one behind "Install app" and
  // Android's 「ホーム画面に追加」 (manifest, icons, start URL, display
  // mode, a service worker controlling the page), in an ordinary profile
  // (the test's other pages are incognito, where nothing installs).
  const profile = mkdtempSync(path.join(tmpdir(), "yorimichi-profile-"));
  const installing = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: browserArgs,
    viewport: { width: 1100, height: 800 },
  });
  try {
    const p = installing.pages()[0] ?? (await installing.newPage());
    await p.goto(`http://127.0.0.1:${port}/index.html`);
    await p.waitForSelector('body[data-offline="ready"]', { timeout: 240000 });
    await p.reload();
    await p.waitForSelector('body[data-screen="Title"]', { timeout: 120000 });
    const cdp = await installing.newCDPSession(p);
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    const { errors: manifestErrors, manifest } = await cdp.send("Page.getAppManifest").then(
      (m) => ({ errors: m.errors, manifest: m.manifest }),
      () => ({ errors: ["Page.getAppManifest failed"], manifest: null }),
    );
    if (manifest) console.log(`the manifest as Chromium read it: display ${manifest.display}, start ${manifest.startUrl}, ${manifest.icons?.length ?? 0} icons`);
    check(installabilityErrors.length === 0 && manifestErrors.length === 0,
      `Chromium finds the game installable to a home screen ${JSON.stringify({ installabilityErrors, manifestErrors })}`);
  } finally {
    await installing.close();
    rmSync(profile, { recursive: true, force: true });
  }

  // What a player sees when the game cannot start: no WebGL2, or a file
  // missing on the server. Words in both languages and what to try.
  const failures = [
    ["webgl", "WebGL2", (ctx) => ctx.addInitScript(() => {
      const real = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
        return kind === "webgl2" ? null : real.call(this, kind, ...rest);
      };
    })],
    ["file", "ipaexg-subset.ttf", (ctx) => ctx.route("**/ipaexg-subset.ttf", (r) => r.fulfill({ status: 404, body: "not found" }))],
  ];
  for (const [kind, named, breakIt] of failures) {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    await breakIt(ctx);
    const p = await ctx.newPage();
    await p.goto(`http://127.0.0.1:${port}/index.html`);
    let message = "";
    try {
      await p.waitForSelector(`body[data-load-error="${kind}"]`, { timeout: 120000 });
      message = await p.innerText("#loading-error");
    } catch {
      // no message: reported below
    }
    check(message.includes(named) && /[ぁ-ん]/.test(message) && /[A-Za-z]{4}/.test(message) && (await p.isVisible("#loading-error")),
      `the page says in words why it cannot start (${kind}): ${JSON.stringify(message.split("\n")[0] || "nothing shown")}`);
    // Chromium now and then refuses a capture of a page whose canvas has
    // no context: tried again after a moment.
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        await p.screenshot({ path: path.join(out, `web-error-${kind}.png`) });
        break;
      } catch (e) {
        if (attempt === 3) throw e;
        await sleep(1000);
      }
    }
    await ctx.close();
  }
} catch (e) {
  check(false, String(e));
} finally {
  await browser.close();
  server.kill();
}
console.log(`web-test: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
