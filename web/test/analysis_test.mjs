// The 中将棋 analysis page (`make engine-web`: dist/analysis.html on the
// engine's module) in headless Chromium: a KIF the game wrote pasted and
// read, stepped through by buttons and arrow keys, the worker's USI session
// driven over several positions of it — each best line shown in Japanese
// notation (☗7八歩兵(←7九)), one written move for every USI move, and
// judged legal move by move from the position shown by lishogi's own rules
// library, shogiops (tools/shogiops/lines.mjs), as engine_test.mjs judges
// the worker's native lines; a KIF opened as a file, a link's game, a
// USI move list; the mate search proving a mate of 中将棊絹篩 to the royals
// taken; bad input said and the game kept; both languages; a phone's
// text and touch sizes; and the page opened and analysing offline after
// one visit.
// Usage: node web/test/analysis_test.mjs <dist>
import { chromium } from "playwright-core";
import { servePage } from "./page_server.mjs";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { play, positionOf, royals } from "../../tools/shogiops/lines.mjs";

const [dist] = process.argv.slice(2);
if (!dist || !existsSync(path.join(dist, "analysis.html"))) {
  console.error("usage: node web/test/analysis_test.mjs <dist> (a folder with analysis.html: make engine-web)");
  process.exit(2);
}
const root = path.resolve(dist);
const data = (name) => readFileSync(new URL(`../../tests/data/${name}`, import.meta.url), "utf8");

let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};

// A KIF the game wrote (`yorimichi convert chushogi --to kif`, the game's
// own KIF writer): the first 60 moves of a match against HaChu.
const KIF = data("kif/match_opening.kif");
const KIF_MOVES = 60;
const tsume = new Map(
  data("chu-tsume/kinuburui.tsv")
    .split("\n")
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => l.split("\t"))
    .map(([id, , sfen, , plies]) => [id, [sfen, Number(plies)]]),
);

const { server, url } = await servePage(root, `<!doctype html><meta charset="utf-8"><a href="analysis.html">analysis</a>`);
const PAGE = `${url}analysis.html`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-background-networking", "--no-first-run"],
});
// A record move as the play screen writes it: the side's mark, the square
// (file in figures, rank in kanji) or 仝, a piece's name.
const JAPANESE_MOVE = /^[☗☖](\d{1,2}(一|二|三|四|五|六|七|八|九|十|十一|十二)|仝)\S*[^\x00-\x7f]/;

let exitCode = 0;
try {
  const context = await browser.newContext({ locale: "ja-JP", viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(PAGE);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  const body = (name) => page.evaluate((n) => document.body.dataset[n], name);
  const text = (selector) => page.$eval(selector, (e) => e.textContent);

  check((await page.evaluate(() => document.documentElement.lang)) === "ja" && (await text("h1")) === "中将棋 検討",
    `a Japanese browser opens the page in Japanese: 「${await text("h1")}」`);
  await page.click("#lang");
  check((await text("h1")) === "Chu shogi analysis" && (await text("#read")) === "Read", `English at a tap: 「${await text("h1")}」`);
  await page.click("#lang");
  check((await text("h1")) === "中将棋 検討", "and back to Japanese");

  // The game's rules at first; lishogi's for the lines that shogiops,
  // lishogi's own library, judges (as the native USI check does). Each
  // position is read for 2 s.
  check((await page.inputValue("#profile")) === "jcsa", "the JCSA's rules at first, as the game's");
  await page.selectOption("#profile", "lishogi");
  await page.selectOption("#time", "2000");

  // The KIF pasted and read: its moves listed in Japanese notation.
  await page.fill("#text", KIF);
  await page.click("#read");
  await page.waitForFunction((n) => document.body.dataset.game === String(n), KIF_MOVES, { timeout: 10000 });
  const listed = await page.$$eval("#moves button", (bs) => bs.map((b) => b.textContent));
  check(listed.length === KIF_MOVES && listed.every((m, i) => m.startsWith(`${i + 1} `) && JAPANESE_MOVE.test(m.slice(m.indexOf(" ") + 1))),
    `the KIF read: ${listed.length} moves listed, 「${listed[0]}」 … 「${listed.at(-1)}」; ${await text("#message")}`);
  check((await body("ply")) === String(KIF_MOVES), `it opens at its last position (ply ${await body("ply")})`);

  // Steps: the buttons, the arrow keys, a tap on the list.
  await page.click("#first");
  check((await body("ply")) === "0" && (await page.$eval("#back", (b) => b.disabled)), "⏮ goes to the start");
  await page.click("#next");
  await page.click("#next");
  check((await body("ply")) === "2", "▶ twice: ply 2");
  await page.focus("body");
  for (let i = 0; i < 18; i++) await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowLeft");
  check((await body("ply")) === "19", `→ eighteen times and ← once: ply ${await body("ply")}`);
  check((await text("#shown-move")) === listed[18], `the move shown is the list's: 「${await text("#shown-move")}」`);

  // The engine's best line at several positions, each judged by shogiops.
  async function bestLine(what) {
    // A step sets the page thinking at once; its answer, and a line, come.
    await page.waitForFunction(() => document.body.dataset.state === "idle" && document.getElementById("best").dataset.pv, null, {
      timeout: 60000,
    });
    const shown = await page.$eval("#best", (e) => ({
      pv: e.dataset.pv,
      position: e.dataset.position,
      words: [...e.querySelectorAll(".move")].map((m) => m.textContent),
      all: e.textContent,
    }));
    const moves = shown.pv.split(" ");
    const pos = positionOf(shown.position);
    const fault = typeof pos === "string" ? pos : play(pos, moves);
    const toMove = (await body("position")) === shown.position ? (await page.$eval("#to-move", (e) => e.textContent)) : "?";
    const mark = toMove.includes("先手") ? "☗" : "☖";
    check(!fault && shown.words.length === moves.length && shown.words.every((w) => JAPANESE_MOVE.test(w)) && shown.words[0].startsWith(mark),
      `${what}: best line 「${shown.words.slice(0, 3).join(" ")} …」 (${moves.length} moves, ${shown.pv.split(" ").slice(0, 3).join(" ")} …), ${fault ?? "every move legal under shogiops"}; evaluation ${await text("#eval")}`);
    return shown;
  }
  await bestLine("ply 19 (後手 to move)");
  // The handbook's picture of the page (docs/analysis.png) where SHOTS is set.
  if (process.env.SHOTS) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(process.env.SHOTS, "analysis.png") });
  }
  await page.click("#moves li:nth-child(30) button");
  check((await body("ply")) === "30", "a tap on the list's 30th move: ply 30");
  await bestLine("ply 30 (先手 to move)");
  await page.click("#first");
  await bestLine("the start");
  await page.click("#last");
  const last = await bestLine(`ply ${KIF_MOVES}, the KIF's end`);
  check(last.position.split(" moves ")[1]?.split(" ").length === KIF_MOVES, "the line is read from the KIF's 60th position");

  // Every line the page read on the way, not only the last of each
  // position, judged the same way.
  const all = await page.evaluate(() => window.analysisLines.slice());
  const faults = all.map(([position, pv]) => {
    const pos = positionOf(position);
    return typeof pos === "string" ? pos : play(pos, pv.split(" "));
  }).filter(Boolean);
  check(all.length >= 4 && faults.length === 0,
    `every line read: ${all.length} lines (${all.reduce((n, [, pv]) => n + pv.split(" ").length, 0)} moves) over ${new Set(all.map(([p]) => p)).size} positions, ${faults[0] ?? "all legal under shogiops"}`);

  // Bad input: said, and the game kept.
  const broken = KIF.replace("   7   5八歩兵 （←5九）", "   7   5七歩兵 （←5九）");
  await page.fill("#text", broken);
  await page.click("#read");
  await page.waitForFunction(() => document.body.dataset.readError);
  const message = await text("#message");
  check(/KIF line 12/.test(message) && (await page.$eval("#message", (e) => e.className)) === "error" && (await body("game")) === String(KIF_MOVES) &&
    (await page.$$eval("#moves button", (bs) => bs.length)) === KIF_MOVES && (await page.inputValue("#text")) === broken,
    `a KIF with an illegal move: 「${message}」, the game before and the text kept`);
  await page.fill("#text", "");
  await page.click("#read");
  check((await text("#message")) === "棋譜か局面を貼りつけてください。", `nothing pasted: 「${await text("#message")}」`);
  await page.fill("#text", "これは棋譜ではありません");
  await page.click("#read");
  check((await page.$eval("#message", (e) => e.className)) === "error" && (await body("game")) === String(KIF_MOVES), `not a record: 「${await text("#message")}」`);

  // A file opened, and a bare USI move list pasted.
  await page.setInputFiles("#file", { name: "game.kif", mimeType: "text/plain", buffer: Buffer.from(data("kif/every_move.kif")) });
  await page.waitForFunction(() => document.body.dataset.source === "file");
  check((await body("game")) === "13" && (await page.inputValue("#text")).startsWith("#KIF"), `a .kif file opened: ${await text("#message")}`);
  await page.fill("#text", "7i7h 6d6e 7j7i6h");
  await page.click("#read");
  await page.waitForFunction(() => document.body.dataset.game === "3");
  const usiMoves = await page.$$eval("#moves button", (bs) => bs.map((b) => b.textContent));
  check(usiMoves.length === 3 && usiMoves[2].startsWith("3 ☗"), `a USI move list pasted: ${usiMoves.join(" / ")}`);

  // The mate search on a problem of 中将棊絹篩, pasted as an SFEN.
  await page.click("#analyse");
  for (const id of ["kinu01", "kinu03"]) {
    const [sfen] = tsume.get(id);
    await page.fill("#text", sfen);
    await page.click("#read");
    await page.waitForFunction(() => document.body.dataset.game === "0" && document.body.dataset.position?.startsWith("position sfen"));
    await page.click("#mate");
    await page.waitForFunction(() => document.body.dataset.mate, null, { timeout: 30000 });
    const mate = await page.$eval("#mate-result", (e) => ({
      line: e.dataset.line,
      position: e.dataset.position,
      words: [...e.querySelectorAll(".move")].map((m) => m.textContent),
      all: e.textContent,
    }));
    const moves = mate.line.split(" ");
    const pos = positionOf(mate.position);
    const fault = typeof pos === "string" ? pos : play(pos, moves);
    const taken = !fault && royals(pos, "gote") === 0;
    check(mate.line && !fault && taken && mate.words.length === moves.length && mate.words.every((w) => JAPANESE_MOVE.test(w)),
      `${id}: 詰みを探す → 「${mate.all.slice(0, 60)}…」 (${moves.length} plies), ${fault ?? "legal under shogiops, 後手's royals taken"}`);
  }
  await page.click("#analyse");

  // A link carrying a game (the app's share link's form).
  await page.goto(`${PAGE}#game=chushogi&position=${encodeURIComponent("position startpos moves 7i7h 6d6e")}`);
  await page.waitForSelector('body[data-ready="1"]');
  check((await body("game")) === "2" && (await body("source")) === "link", "a link's #game=chushogi&position=… opens that game");

  // The offline copy: after this visit, with the network cut, the page
  // opens, reads a game and analyses it.
  await page.waitForSelector('body[data-offline="ready"]', { timeout: 30000 });
  await context.setOffline(true);
  await page.goto(PAGE);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  await page.selectOption("#profile", "lishogi");
  await page.selectOption("#time", "2000");
  await page.fill("#text", KIF);
  await page.click("#read");
  await page.waitForFunction((n) => document.body.dataset.game === String(n), KIF_MOVES);
  await page.keyboard.press("ArrowLeft");
  await bestLine("offline, ply 59");
  await context.setOffline(false);
  check(errors.length === 0, `no console errors ${errors.length ? JSON.stringify(errors) : ""}`);

  // A phone: every text at least 16 px and every control at least 44 px
  // tall, the board within the screen.
  const phone = await browser.newContext({ locale: "en-US", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await phone.newPage();
  await small.goto(`${PAGE}#position=${encodeURIComponent(KIF)}`);
  await small.waitForSelector('body[data-ready="1"]');
  check((await small.$eval("h1", (e) => e.textContent)) === "Chu shogi analysis", "an English browser opens the page in English");
  const sizes = await small.evaluate(() => {
    const tooSmall = [];
    for (const el of document.querySelectorAll("body *")) {
      const direct = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (direct && el.getClientRects().length && parseFloat(getComputedStyle(el).fontSize) < 16) tooSmall.push(`${el.tagName}.${el.className}: ${getComputedStyle(el).fontSize}`);
    }
    const controls = [...document.querySelectorAll("button, select, label.file, input[type=text]")].filter((e) => e.getClientRects().length);
    const short = controls.filter((e) => e.getBoundingClientRect().height < 44).map((e) => `${e.id || e.textContent}: ${e.getBoundingClientRect().height}`);
    const board = document.getElementById("board").getBoundingClientRect();
    // The rows' pitch: the same for all twelve (a rank's label kept on
    // one line never makes its row taller).
    const tops = [...new Set([...document.querySelectorAll("#board .sq")].map((e) => Math.round(e.getBoundingClientRect().top)))];
    const pitches = tops.slice(1).map((t, i) => t - tops[i]);
    return { tooSmall, short, controls: controls.length, boardRight: board.right, width: innerWidth, rows: tops.length, pitches };
  });
  check(sizes.tooSmall.length === 0, `on a 390×844 phone no text under 16 px ${sizes.tooSmall.slice(0, 5).join(", ")}`);
  check(sizes.short.length === 0, `and all ${sizes.controls} controls at least 44 px tall ${sizes.short.slice(0, 5).join(", ")}`);
  check(sizes.boardRight <= sizes.width, `the board within the screen (its right edge at ${sizes.boardRight.toFixed(0)} of ${sizes.width} px)`);
  check(sizes.rows === 12 && Math.max(...sizes.pitches) - Math.min(...sizes.pitches) <= 1,
    `its twelve rows evenly spaced (pitches ${sizes.pitches.join(", ")} px)`);
  if (process.env.SHOTS) await small.screenshot({ path: path.join(process.env.SHOTS, "analysis-phone.png"), fullPage: true });
  await phone.close();
} catch (e) {
  console.error(e);
  exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode || (failed ? 1 : 0));
