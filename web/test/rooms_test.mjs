// Two players, two browser contexts, one room: the room server serves the
// web build (`yorimichi serve --web dist`); the first page makes a room on
// はさみ将棋's setup screen (離れた人 → 部屋を作る), the second opens the
// room's link (#room=CODE) and lands in the same game; moves tapped on each
// page reach the other; the second page is closed mid-game, a move is made
// without it, and the link opened again takes its seat back where the game
// stands; a watcher opens the room's watch link mid-game and follows it;
// the game is then played to its end on the board (a lead of 3 kept
// through the other's turn), and both pages show the result. The evening
// goes on in the same room: a review led by one page and followed by the
// other and the watcher (ひとりで見る leaves it), もう一回 with the sides
// swapped, 待った accepted and declined, 投了, the series on the room
// screen, and the host's next game, another game, with the same code. Then
// まわり将棋 with three seats (a person at each page, the CPU), one page
// closed and opened again mid-race, played to its end. Last, a page and
// the desktop app (in an X server of its own, clicked with xdotool) play a
// whole はさみ将棋 game through a room.
//
// Usage: node rooms_test.mjs <yorimichi binary with the server> <dist> <out>
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const [bin, dist, out] = process.argv.slice(2);
if (!bin || !dist || !out) {
  console.error("usage: node rooms_test.mjs <yorimichi> <dist-dir> <out-dir>");
  process.exit(2);
}
mkdirSync(out, { recursive: true });
// The room protocol's version, as the server speaks it (for the bare
// WebSocket device below).
const PROTOCOL = Number(
  readFileSync(new URL("../../src/net/protocol.rs", import.meta.url), "utf8").match(/PROTOCOL_VERSION: u32 = (\d+)/)[1],
);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const port = 9000 + Math.floor(Math.random() * 900);
const db = path.join(tmpdir(), `yorimichi-web-rooms-${process.pid}.sqlite3`);
const server = spawn(bin, ["serve", "--listen", `127.0.0.1:${port}`, "--db", db, "--web", dist], {
  stdio: ["ignore", "inherit", "inherit"],
});
const base = `http://127.0.0.1:${port}/index.html`;
for (let i = 0; i < 200; i++) {
  try {
    if ((await fetch(base)).ok) break;
  } catch {}
  await sleep(100);
}

let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};

// The board at 1100×800: 5九 at (360, 656), a square 64 pixels; the page
// playing 後手 sees the board turned round.
const SQUARE = 64;
function square(name, turned) {
  const file = Number(name[0]);
  const rank = "一二三四五六七八九".indexOf(name[1]) + 1;
  return turned
    ? [360 + (file - 5) * SQUARE, 656 - (rank - 1) * SQUARE]
    : [360 + (5 - file) * SQUARE, 656 - (9 - rank) * SQUARE];
}
// A whole game (the engine's strong against its easy level, seed 1):
// 先手 leads by 3 after the 9th move and keeps it through the 10th.
const GAME = "1九→1四 9一→9六 6九→6二 2一→2四 3九→3四 ×1 8一→8八 9九→9八 7一→7八 6二→6八 ×2 1一→2一"
  .split(" ")
  .filter((w) => w.includes("→"));

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
async function tap(page, [x, y]) {
  await page.mouse.move(x, y);
  await sleep(250);
  await page.mouse.down();
  await sleep(80);
  await page.mouse.up();
}
const ply = (page) => page.evaluate(() => Number(document.body.dataset.ply ?? -1));
// Whether `page` shows `screen` within `timeout` ms.
const reaches = (page, screen, timeout) =>
  page
    .waitForSelector(`body[data-screen="${screen}"]`, { timeout })
    .then(() => true)
    .catch(() => false);
// Whether every page shows `screen`, each within `timeout` ms.
async function allReach(pages, screen, timeout) {
  let all = true;
  for (const page of pages) all = (await reaches(page, screen, timeout)) && all;
  return all;
}
// What the page's screen shows (`?controls=1`: the app lists its buttons
// and texts into data-controls, as `screenshot --controls` does), in CSS
// pixels.
async function controls(page) {
  const tsv = await page.evaluate(() => document.body.dataset.controls || "");
  return tsv
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const c = line.split("\t");
      const scale = Number(c[7]) || 1;
      const [left, top, right, bottom] = c.slice(3, 7).map((v) => Number(v) / scale);
      return { kind: c[0], state: Number(c[1]), left, top, right, bottom, label: c[12] ?? "" };
    });
}
// Taps the button that reads `label` once the screen shows it.
async function tapButton(page, label, tries = 40) {
  for (let i = 0; i < tries; i++) {
    const button = (await controls(page)).find((c) => c.kind !== "text" && c.label === label);
    if (button) {
      await tap(page, [(button.left + button.right) / 2, (button.top + button.bottom) / 2]);
      return true;
    }
    await sleep(250);
  }
  const shown = (await controls(page)).map((c) => c.label).filter(Boolean);
  check(false, `a button reading ${label} shows (the screen shows: ${shown.join(" | ")})`);
  return false;
}
// The first text on the screen that `pattern` matches, or "".
async function shownText(page, pattern) {
  const text = (await controls(page)).find((c) => c.kind === "text" && pattern.test(c.label));
  return text ? text.label : "";
}
async function waitForText(page, pattern, tries = 80) {
  for (let i = 0; i < tries; i++) {
    const text = await shownText(page, pattern);
    if (text) return text;
    await sleep(250);
  }
  return "";
}
// The move a review shows: 0 at the start, else its 「N手目」.
async function reviewPly(page) {
  const line = await shownText(page, /^(\d+)手目|^はじめの局面/);
  if (line.startsWith("はじめ")) return 0;
  return line ? Number(line.match(/^(\d+)/)[1]) : -1;
}
async function waitForReviewPly(page, n, tries = 60) {
  for (let i = 0; i < tries; i++) {
    if ((await reviewPly(page)) === n) return true;
    await sleep(250);
  }
  return false;
}
async function waitForPly(page, n, tries = 120) {
  for (let i = 0; i < tries; i++) {
    if ((await ply(page)) >= n) return true;
    await sleep(250);
  }
  return false;
}
// Taps move `index` of GAME on `page` and waits until `others` show it
// too. A tap while the board settles is dropped on purpose: the move is
// tried again until it is played.
async function play(page, turned, index, others) {
  const [from, to] = GAME[index].split("→");
  for (let attempt = 0; attempt < 4 && (await ply(page)) <= index; attempt++) {
    await tap(page, square(from, turned));
    await sleep(300);
    await tap(page, square(to, turned));
    if (await waitForPly(page, index + 1, 16)) break;
    await tap(page, [1050, 780]); // off the board: drop any selection
    await sleep(500);
  }
  let shown = (await ply(page)) >= index + 1;
  for (const other of others) shown = (await waitForPly(other, index + 1)) && shown;
  check(shown, `move ${index + 1} ${GAME[index]} is on every page`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--no-first-run"],
});
const errors = [];
const watch = (page, who) =>
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${who}: ${m.text()}`);
  });
try {
  const hostContext = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const guestContext = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const host = await hostContext.newPage();
  watch(host, "host");
  await host.goto(`${base}?game=hasami&controls=1`);
  await host.waitForSelector('body[data-screen="Setup"]', { timeout: 120000 });
  await sleep(1500);
  // 離れた人, then Enter: 部屋を作る.
  await tap(host, [277, 274]);
  await sleep(800);
  await host.keyboard.press("Enter");
  await host.waitForSelector('body[data-screen="Lobby"]', { timeout: 20000 });
  await host.waitForSelector("body[data-room]", { timeout: 20000 });
  const code = await host.evaluate(() => document.body.dataset.room);
  check(/^[0-9A-Z]{8}$/.test(code), `the room is made: ${code}`);
  await sleep(1000);
  await host.screenshot({ path: path.join(out, "web-room-lobby.png") });
  // The room screen's second link, for watchers: the room's watch code.
  const watchLine = await waitForText(host, /^見るだけのリンク/);
  const watchCode = (watchLine.match(/#watch=([0-9A-Z]{8})/) || [])[1] || "";
  check(/^[0-9A-Z]{8}$/.test(watchCode) && watchCode !== code, `the room screen shows a watch link with a code of its own: ${watchLine}`);

  let guest = await guestContext.newPage();
  watch(guest, "guest");
  await guest.goto(`${base}?controls=1#room=${code}`);
  await guest.waitForSelector('body[data-screen="Play"]', { timeout: 120000 });
  await host.waitForSelector('body[data-screen="Play"]', { timeout: 20000 });
  check(true, "the link opens the same game on the second page, and both begin");
  await sleep(1500);

  for (let i = 0; i < 4; i++) {
    await play(i % 2 === 0 ? host : guest, i % 2 === 1, i, [i % 2 === 0 ? guest : host]);
  }
  // The second page goes away; the first moves without it.
  await guest.close();
  await sleep(1000);
  await play(host, false, 4, []);
  // The link again: the seat is taken back and the move made meanwhile is there.
  guest = await guestContext.newPage();
  watch(guest, "guest again");
  await guest.goto(`${base}?controls=1#room=${code}`);
  await guest.waitForSelector('body[data-screen="Play"]', { timeout: 120000 });
  check(await waitForPly(guest, 5), `the page opened again is at the same move (ply ${await ply(guest)})`);
  await sleep(1500);
  await guest.screenshot({ path: path.join(out, "web-room-play.png") });
  // A watcher opens the room's second link mid-game: the whole game so far
  // is on its board, and every move after reaches it.
  const watcherContext = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const watcher = await watcherContext.newPage();
  watch(watcher, "watcher");
  await watcher.goto(`${base}?controls=1#watch=${watchCode}`);
  await watcher.waitForSelector('body[data-screen="Play"]', { timeout: 120000 });
  check(await waitForPly(watcher, 5), `a watcher arriving mid-game gets the whole game (ply ${await ply(watcher)})`);
  check((await shownText(watcher, /あなたの番/)) === "" && (await shownText(watcher, /の番/)) !== "",
    `the watcher is told whose turn it is, never that it is its own (${await shownText(watcher, /の番/)})`);
  const watching = await waitForText(watcher, /見ています|見るだけ/);
  check(watching !== "", `the watcher's screen says it only watches (${watching || (await controls(watcher)).map((c) => c.label).join(" | ")})`);
  await sleep(1000);
  await watcher.screenshot({ path: path.join(out, "web-room-watcher.png") });
  for (let i = 5; i < GAME.length; i++) {
    await play(i % 2 === 0 ? host : guest, i % 2 === 1, i, [i % 2 === 0 ? guest : host, watcher]);
  }
  const ended = await allReach([host, guest, watcher], "Result", 30000);
  check(ended, "the game ends on the board, and both pages show the result");
  const watcherHeadline = await waitForText(watcher, /の勝ち|あなた/);
  check(/の勝ち/.test(watcherHeadline) && !/あなた/.test(watcherHeadline),
    `the watcher's result names the winning side, not "you" (${watcherHeadline})`);
  await guest.screenshot({ path: path.join(out, "web-room-result.png") });
  // 振り返り together: 振り返る on the host's result opens the review on the
  // guest's page too.
  await tap(host, [529, 498]);
  await host.waitForSelector('body[data-screen="Review"]', { timeout: 20000 });
  const followed = await reaches(guest, "Review", 30000);
  check(followed, "振り返る on one page opens the room's review on the other");
  const watcherFollowed = await reaches(watcher, "Review", 30000);
  check(watcherFollowed, "the watcher's page follows into the room's review");
  await sleep(1500);
  await guest.screenshot({ path: path.join(out, "web-room-review.png") });
  await watcher.screenshot({ path: path.join(out, "web-room-watcher-review.png") });

  // The host leads: four steps on (→) from the start reach both the guest
  // and the watcher. The guest then looks alone (ひとりで見る): two more
  // steps of the host's move the watcher's review, not the guest's; turned
  // off, the guest's review goes back to the room's position.
  await sleep(1000);
  const first = await reviewPly(host);
  check(first === 0, `the review opens at the start (${first})`);
  // Each step waits for the host's review to show it: two key presses
  // within one slow frame are one press to the game.
  for (let i = 0; i < 4; i++) {
    await host.keyboard.press("ArrowRight");
    await waitForReviewPly(host, i + 1);
  }
  check((await waitForReviewPly(host, 4)) && (await waitForReviewPly(guest, 4)) && (await waitForReviewPly(watcher, 4)),
    `four steps of the leading review reach the guest and the watcher (${await reviewPly(host)}, ${await reviewPly(guest)}, ${await reviewPly(watcher)} of 4)`);
  check((await waitForText(guest, /動かしています/)) !== "", `the guest's review says who leads (${await shownText(guest, /振り返り中/)})`);
  await tapButton(guest, "ひとりで見る");
  check((await waitForText(guest, /^ひとりで見ています/)) !== "", "ひとりで見る: the guest's review says it looks alone");
  for (let i = 0; i < 2; i++) {
    await host.keyboard.press("ArrowRight");
    await waitForReviewPly(host, 5 + i);
  }
  check(await waitForReviewPly(watcher, 6), `the watcher still follows the host (${await reviewPly(watcher)} of 6)`);
  await sleep(1500);
  check((await reviewPly(guest)) === 4, `the guest looking alone stays where it was (${await reviewPly(guest)} of 4)`);
  await tapButton(guest, "ひとりで見る");
  check(await waitForReviewPly(guest, 6), `ひとりで見る off: the guest's review goes back to the room's (${await reviewPly(guest)} of 6)`);

  // もう一回: each player goes back to the result and taps もう一度, which
  // offers the room's next game on the room screen; when both agree the
  // next game begins on every page, the watcher's too, with the sides
  // swapped: the guest now plays 先手 (its board the right way up) and the
  // host 後手. The room screen keeps the series.
  for (const page of [host, guest]) {
    await tapButton(page, "もどる");
    await page.waitForSelector('body[data-screen="Result"]', { timeout: 20000 });
    await sleep(800);
    await tapButton(page, "もう一度");
    await page.waitForSelector('body[data-screen="Lobby"]', { timeout: 20000 });
    await sleep(800);
  }
  const rematch = await allReach([host, guest, watcher], "Play", 60000);
  check(rematch, "both accept もう一回: the next game begins on both pages and the watcher's");
  let fresh = false;
  for (let i = 0; i < 40 && !fresh; i++) {
    fresh = (await ply(host)) === 0 && (await ply(guest)) === 0 && (await ply(watcher)) === 0;
    if (!fresh) await sleep(250);
  }
  check(fresh, "the next game starts from its first move on every page");
  await sleep(1500);
  // Sides swapped: the guest moves first, from its own (unturned) view.
  await play(guest, false, 0, [host, watcher]);
  await play(host, true, 1, [guest, watcher]);
  await host.screenshot({ path: path.join(out, "web-room-rematch.png") });

  // 待った accepted: the host (後手) asks, the guest accepts, and the host's
  // move is taken back on every page.
  await tapButton(host, "待ったをたのむ");
  check((await waitForText(guest, /待ったをたのんでいます/)) !== "", "the guest's page shows the host's request");
  await tapButton(guest, "待ったを受ける");
  let takenBack = true;
  for (const page of [host, guest, watcher]) {
    let back = false;
    for (let i = 0; i < 60 && !back; i++) {
      back = (await ply(page)) === 1;
      if (!back) await sleep(250);
    }
    takenBack = back && takenBack;
  }
  check(takenBack, "待った accepted: the host's move is taken back on both pages and the watcher's");
  await sleep(1500);
  await play(host, true, 1, [guest, watcher]);
  await play(guest, false, 2, [host, watcher]);
  // 待った declined: the guest asks, the host refuses; the move stays.
  await tapButton(guest, "待ったをたのむ");
  check((await waitForText(host, /待ったをたのんでいます/)) !== "", "the host's page shows the guest's request");
  await tapButton(host, "待ったはだめ");
  check((await waitForText(guest, /待ったはだめでした/)) !== "", "待った declined: the guest's page says so");
  await sleep(2000);
  check((await ply(host)) === 3 && (await ply(guest)) === 3 && (await ply(watcher)) === 3,
    `待った declined: the move stays on every page (${await ply(host)}, ${await ply(guest)}, ${await ply(watcher)})`);

  // A different game with the same code: the host resigns (投了: the
  // series is one game each), goes to the room screen by もう一度 and picks
  // きつねとがちょう for the next game; the guest's もう一度 then agrees to
  // it, and both pages and the watcher's begin it.
  await tapButton(host, "投了");
  const over = await allReach([host, guest], "Result", 30000);
  check(over, "投了 ends the second game on both pages");
  await sleep(800);
  await tapButton(host, "もう一度");
  await host.waitForSelector('body[data-screen="Lobby"]', { timeout: 20000 });
  const series = await waitForText(host, /^勝ち数/);
  check(/ 1 – .* 1$/.test(series), `the room screen keeps the series: one game each (${series})`);
  check((await waitForText(host, /^見ている人: 1人/)) !== "", "the players' room screen counts the watcher");
  check((await shownText(host, /まだです/)) === "", "after a game of the series every seat shows as taken, sides swapped or not");
  await host.screenshot({ path: path.join(out, "web-room-series.png") });
  await tapButton(host, "きつねとがちょう");
  check((await waitForText(host, /^次の対局: きつねとがちょう/)) !== "", "the host's room screen names the next game");
  // The guest, still on its result, is told of the offer and the game
  // (the offer may show first, the game a message later).
  const offer = await waitForText(guest, /もう一回 しませんか[\s\S]*次の対局: きつねとがちょう/);
  check(/ホスト/.test(offer) && offer !== "", `the guest's result screen tells the host's offer and the game (${offer || (await shownText(guest, /もう一回/))})`);
  await guest.screenshot({ path: path.join(out, "web-room-offer.png") });
  await sleep(800);
  await tapButton(guest, "もう一度");
  const another = await allReach([host, guest, watcher], "Play", 60000);
  const title = await waitForText(watcher, /きつねとがちょう/);
  check(another && title !== "", "the host's next game, きつねとがちょう, begins on both pages and the watcher's, with the same code");
  await sleep(1500);
  await watcher.screenshot({ path: path.join(out, "web-room-next-game.png") });
  await watcherContext.close();

  // まわり将棋 with three seats from two browsers: on the first page's
  // setup the second seat is made 離れた人 (a person at the host's page
  // keeps the first, the CPU the third), from a start where the second
  // and third seats' 角 each need two corners and the host's 歩 many more
  // (basic rules: the host, throwing while the second page is away, cannot
  // end the race before its turn comes round); Enter makes the room. The second
  // page opens the link. Each page throws by a drag when its seat is to
  // throw, the server throws for the CPU; the second page is closed after
  // its first throw and the race waits for it; the link opened again
  // brings it back at the same throw, and the race is played to its end
  // with both pages showing the same winner.
  // A 金斜 throw makes a piece 王将 at once, which wins under the basic
  // rules: when one ends the race before the absent seat's turn, the
  // premise above does not hold, and a new room starts (three tries).
  const start = "rules=basic fu@4 kaku@12 kaku@20 turn=0";
  let mawariHostContext, mawariGuestContext, mHost, mGuest, mawariCode, waitedAt, waitedThrows;
  const position = (page) => page.evaluate(() => document.body.dataset.position || "");
  const throwsOn = (page) => page.evaluate(() => Number(document.body.dataset.ply ?? -1));
  // Throws by drags on whichever page's seat is to throw, until `done`.
  const seatOf = new Map();
  async function throwUntil(pages, done, what, ms = 240000) {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await done()) return true;
      for (const page of pages) {
        const pos = await position(page);
        if (!pos.includes("winner=") && pos.endsWith(`turn=${seatOf.get(page)}`)) {
          await drag(page, 335, 640, 390, 380);
        }
      }
      await sleep(700);
    }
    check(false, `timed out: ${what}`);
    return false;
  }
  const guestThrows = async () => {
    const players = await mGuest.evaluate(() => document.body.dataset.players || "");
    return players;
  };
  for (let attempt = 1; attempt <= 3; attempt++) {
    mawariHostContext = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    mawariGuestContext = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    mHost = await mawariHostContext.newPage();
    watch(mHost, "mawari host");
    await mHost.goto(`${base}?game=mawari&position=${encodeURIComponent(start)}`);
    await mHost.waitForSelector('body[data-screen="Setup"]', { timeout: 120000 });
    await sleep(2000);
    await tap(mHost, [736, 323]); // the second seat: CPU → 離れた人
    await sleep(1200);
    await mHost.screenshot({ path: path.join(out, "web-room-mawari-setup.png") });
    await mHost.keyboard.press("Enter"); // 部屋を作る
    await mHost.waitForSelector('body[data-screen="Lobby"]', { timeout: 20000 });
    await mHost.waitForSelector("body[data-room]", { timeout: 20000 });
    mawariCode = await mHost.evaluate(() => document.body.dataset.room);
    check(/^[0-9A-Z]{8}$/.test(mawariCode), `the まわり将棋 room is made: ${mawariCode}`);
    mGuest = await mawariGuestContext.newPage();
    watch(mGuest, "mawari guest");
    await mGuest.goto(`${base}#room=${mawariCode}`);
    await mGuest.waitForSelector('body[data-screen="Play"]', { timeout: 120000 });
    await mHost.waitForSelector('body[data-screen="Play"]', { timeout: 20000 });
    seatOf.clear();
    seatOf.set(mHost, 0);
    seatOf.set(mGuest, 1);
    check((await position(mGuest)) === (await position(mHost)) && (await position(mHost)).startsWith("fu@4 kaku@12 kaku@20"),
      `both pages begin the race from the host's start (${await position(mGuest)})`);
    // The guest's first throw: its seat has moved on from turn=1.
    let guestThrew = 0;
    await throwUntil([mHost, mGuest], async () => {
      const pos = await position(mGuest);
      if (pos.endsWith("turn=1")) guestThrew = 1;
      return pos.includes("winner=") || (guestThrew === 1 && !pos.endsWith("turn=1"));
    }, "the second page's first throw");
    if ((await position(mHost)).includes("winner=") && attempt < 3) {
      console.log(`note: the race ended before the absent seat's turn (a 金斜 makes 王将 at once); a new room (${await position(mHost)})`);
      await mawariHostContext.close();
      await mawariGuestContext.close();
      continue;
    }
    check(!(await position(mHost)).includes("winner="), "the race is still on after the second page's first throw");
    await mGuest.close();
    // Without the second page the race goes on to its seat and waits there.
    await throwUntil([mHost], async () => {
      const pos = await position(mHost);
      return pos.endsWith("turn=1") || pos.includes("winner=");
    }, "the race reaching the absent seat");
    await sleep(3000);
    waitedAt = await position(mHost);
    waitedThrows = await throwsOn(mHost);
    if (waitedAt.includes("winner=") && attempt < 3) {
      console.log(`note: the race ended before the absent seat's turn (a 金斜 makes 王将 at once); a new room (${waitedAt})`);
      await mawariHostContext.close();
      await mawariGuestContext.close();
      continue;
    }
    break;
  }
  check(waitedAt.endsWith("turn=1"), `the race waits for the absent player (${waitedAt}, ${waitedThrows} throws)`);
  mGuest = await mawariGuestContext.newPage();
  watch(mGuest, "mawari guest again");
  seatOf.set(mGuest, 1);
  await mGuest.goto(`${base}#room=${mawariCode}`);
  await mGuest.waitForSelector('body[data-screen="Play"]', { timeout: 120000 });
  let back = false;
  for (let i = 0; i < 60 && !back; i++) {
    back = (await position(mGuest)) === waitedAt;
    if (!back) await sleep(500);
  }
  check(back, `the page opened again is at the same throw (${await position(mGuest)})`);
  await sleep(1500);
  await mGuest.screenshot({ path: path.join(out, "web-room-mawari.png") });
  await throwUntil([mHost, mGuest], async () => {
    const [a, b] = [await position(mHost), await position(mGuest)];
    return a.includes("winner=") && a === b;
  }, "the race's end on both pages");
  const [endHost, endGuest] = [await position(mHost), await position(mGuest)];
  check(endHost.includes("winner=") && endHost === endGuest,
    `the three-seat race ends with the same winner on both pages after ${await throwsOn(mHost)} throws (${endHost})`);
  const players = await mHost.evaluate(() => document.body.dataset.players || "");
  check(players === (await guestThrows()), `both pages name the same players (${players})`);
  await sleep(6000);
  await mGuest.screenshot({ path: path.join(out, "web-room-mawari-result.png") });
  await mawariHostContext.close();
  await mawariGuestContext.close();

  // A browser and the desktop app: the page makes a はさみ将棋 room (先手),
  // the desktop build joins with `yorimichi --join CODE --server …` in its
  // own window (an X server of its own, a fresh home folder), and the whole
  // game is played, the desktop's moves clicked in its window (xdotool):
  // each of its moves reaches the page, and the page's moves the desktop
  // (or it could not answer them), to the end on the board.
  const crossContext = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = await crossContext.newPage();
  watch(page, "page with the desktop");
  await page.goto(`${base}?game=hasami`);
  await page.waitForSelector('body[data-screen="Setup"]', { timeout: 120000 });
  await sleep(1500);
  await tap(page, [277, 274]);
  await sleep(800);
  await page.keyboard.press("Enter"); // 部屋を作る
  await page.waitForSelector("body[data-room]", { timeout: 20000 });
  const crossCode = await page.evaluate(() => document.body.dataset.room);
  // A display no other X server holds (its lock file is free).
  let displayNumber = 50 + (process.pid % 40);
  while (existsSync(`/tmp/.X${displayNumber}-lock`)) displayNumber++;
  const display = `:${displayNumber}`;
  const home = mkdtempSync(path.join(tmpdir(), "yorimichi-desktop-"));
  const xvfb = spawn("Xvfb", [display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], { stdio: "ignore" });
  await sleep(1500);
  const env = { ...process.env, DISPLAY: display, HOME: home, XDG_DATA_HOME: path.join(home, "data"), XDG_CONFIG_HOME: path.join(home, "config") };
  delete env.WAYLAND_DISPLAY;
  const desktop = spawn(bin, ["--join", crossCode, "--server", `ws://127.0.0.1:${port}/ws`], { env, stdio: ["ignore", "ignore", "pipe"] });
  let desktopLog = "";
  desktop.stderr.on("data", (d) => (desktopLog += d).length > 20000 && (desktopLog = desktopLog.slice(-10000)));
  const xdo = (...args) =>
    new Promise((resolve) => {
      const p = spawn("xdotool", args, { env, stdio: ["ignore", "pipe", "ignore"] });
      let text = "";
      p.stdout.on("data", (d) => (text += d));
      p.on("close", (code) => resolve(code === 0 ? text.trim() : ""));
    });
  try {
    let window = "";
    for (let i = 0; i < 120 && !window; i++) {
      window = (await xdo("search", "--name", "Yorimichi")).split("\n")[0];
      if (!window) await sleep(500);
    }
    check(window !== "", `the desktop app opens its window (${window})`);
    await page.waitForSelector('body[data-screen="Play"]', { timeout: 120000 });
    check(true, "the desktop joins the page's room and both begin");
    await sleep(5000);
    // A click in the desktop's window: the pointer moved there first, then
    // pressed and released.
    const click = async ([x, y]) => {
      await xdo("mousemove", "--window", window, String(x), String(y));
      await sleep(250);
      await xdo("mousedown", "1");
      await sleep(80);
      await xdo("mouseup", "1");
    };
    for (let i = 0; i < GAME.length; i++) {
      if (i % 2 === 0) {
        await play(page, false, i, []);
        continue;
      }
      const [from, to] = GAME[i].split("→");
      for (let attempt = 0; attempt < 4 && (await ply(page)) <= i; attempt++) {
        await click(square(from, true));
        await sleep(500);
        await click(square(to, true));
        if (await waitForPly(page, i + 1, 24)) break;
        await click([1050, 780]);
        await sleep(800);
      }
      check((await ply(page)) >= i + 1, `the desktop's move ${i + 1} ${GAME[i]} reaches the page`);
    }
    const over = await reaches(page, "Result", 30000);
    check(over, "the game between the page and the desktop ends on the board");
    await page.screenshot({ path: path.join(out, "web-room-desktop.png") });
  } finally {
    desktop.kill();
    xvfb.kill();
    if (failed) console.log(`the desktop's log:\n${desktopLog.slice(-3000)}`);
    rmSync(home, { recursive: true, force: true });
    await crossContext.close();
  }
  // 中将棋 on a short clock, on a server of its own that takes any clock
  // (`--any-clock`, for tests): a bare WebSocket in a blank page makes the
  // room as 先手 and never moves; a phone-sized page joins by the link as 後手. Mid-clock
  // the server is killed and started again on the same database; the page
  // comes back by itself, the bare device resumes, and the server ends the
  // game 時間切れ with the rest of 先手's clock: the page shows the result.
  // (This page is not watched for console errors: the dead server's
  // refused connections are logged as such.)
  {
    const clockPort = port + 1000;
    const clockDb = path.join(tmpdir(), `yorimichi-web-clocks-${process.pid}.sqlite3`);
    const clockBase = `http://127.0.0.1:${clockPort}/index.html`;
    const clockWs = `ws://127.0.0.1:${clockPort}/ws`;
    const startClockServer = async () => {
      const child = spawn(bin, ["serve", "--listen", `127.0.0.1:${clockPort}`, "--db", clockDb, "--web", dist, "--any-clock"], {
        stdio: ["ignore", "inherit", "inherit"],
      });
      for (let i = 0; i < 200; i++) {
        try {
          if ((await fetch(clockBase)).ok) break;
        } catch {}
        await sleep(100);
      }
      return child;
    };
    let clockServer = await startClockServer();
    const makerContext = await browser.newContext();
    const maker = await makerContext.newPage();
    // A page of the server's own origin that starts no game (a blank
    // page's opaque origin may not open a socket to the loopback).
    await maker.goto(`http://127.0.0.1:${clockPort}/manifest.webmanifest`);
    // The bare device: RON by hand, the server's answers kept in `got`.
    const connect = (first) =>
      maker.evaluate(
        ([url, first]) =>
          new Promise((resolve, reject) => {
            const socket = new WebSocket(url);
            window.got = window.got || [];
            socket.onmessage = (m) => {
              window.got.push(m.data);
              const welcome = /^Welcome\(view:\(room:"([0-9A-Z]{8})".*token:"([0-9a-f]{32})"/.exec(m.data);
              if (welcome) resolve([welcome[1], welcome[2]]);
            };
            socket.onerror = () => reject(new Error("no connection"));
            socket.onopen = () => socket.send(first);
          }),
        [clockWs, first],
      );
    const [clockCode, makerToken] = await connect(
      `Create(version:${PROTOCOL},plan:(game:ChuShogi,rules:"(profile:Jcsa)",seats:[(kind:Host,name:"はな"),(kind:Remote,name:"ゲスト")],draw_seats:false,grace_seconds:60,takebacks:false,clock:Some((main_seconds:6,byoyomi_seconds:2))))`,
    );
    check(/^[0-9A-Z]{8}$/.test(clockCode), `a 中将棋 room on a 6 s + 2 s clock is made: ${clockCode}`);
    // The player on the clock holds a phone (its play screen in the
    // phone's layout: the clocks where a thumb player sees them).
    const clockContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const clockPage = await clockContext.newPage();
    await clockPage.goto(`${clockBase}#room=${clockCode}`);
    await clockPage.waitForSelector('body[data-screen="Play"]', { timeout: 120000 });
    await sleep(2000);
    await clockPage.screenshot({ path: path.join(out, "web-room-clocks.png") });
    check(
      (await clockPage.evaluate(() => document.body.dataset.screen)) === "Play",
      "the game on a clock is still on after 2 s",
    );
    clockServer.kill("SIGKILL");
    await new Promise((r) => clockServer.once("exit", r));
    // Down for longer than 先手's whole clock: that time is nobody's.
    await sleep(9000);
    clockServer = await startClockServer();
    await connect(`Resume(version:${PROTOCOL},room:"${clockCode}",token:"${makerToken}",have:0)`);
    const restarted = Date.now();
    const lost = await reaches(clockPage, "Result", 60000);
    check(lost && Date.now() - restarted >= 1000, `the restarted server still ends the game on time (${Date.now() - restarted} ms after)`);
    const ended = await maker.evaluate(() => window.got.some((m) => m.includes("reason:OutOfTime")));
    check(ended, "the server wrote 時間切れ, lost by 先手");
    await clockPage.screenshot({ path: path.join(out, "web-room-clocks-result.png") });
    await makerContext.close();
    await clockContext.close();
    clockServer.kill();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${clockDb}${suffix}`, { force: true });
  }
  check(errors.length === 0, `no console errors ${errors.length ? JSON.stringify(errors) : ""}`);
} catch (e) {
  check(false, `the room test ran through: ${e}`);
} finally {
  await browser.close();
  server.kill();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
