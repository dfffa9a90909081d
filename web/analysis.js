// The 中将棋 analysis page (analysis.html): a game read from a KIF, a USI
// move list or an SFEN, stepped through move by move, each position read
// by the engine worker (engine/worker.js, USI by postMessage, started
// through analysis-worker.js): the
// evaluation, the best line and the mate search, written in Japanese
// notation by the rules in the same wasm module (read_game, board, line),
// loaded here a second time so that the page can ask while the worker
// thinks. Once opened it works offline (analysis-sw.js).
import init, { board as boardOf, line as lineOf, read_game as readGame } from "./engine/yorimichi_engine.js";

const $ = (id) => document.getElementById(id);

const TEXT = {
  title: ["中将棋 検討", "Chu shogi analysis"],
  toGame: ["よりみち盤遊びへ", "Yorimichi games"],
  evaluation: ["評価値（先手から）", "Evaluation (for Sente)"],
  analyse: ["読む", "Analyse"],
  time: ["時間", "Time"],
  mate: ["詰みを探す", "Search for mate"],
  bestLine: ["最善手順", "Best line"],
  mateTitle: ["詰み", "Mate"],
  moves: ["指し手", "Moves"],
  inputTitle: ["棋譜（KIF・USI）または局面（SFEN）", "A game (KIF, USI) or a position (SFEN)"],
  read: ["読みこむ", "Read"],
  open: ["ファイルを開く", "Open a file"],
  rules: ["ルール", "Rules"],
  jcsa: ["日本中将棋連盟", "JCSA"],
  sfenTitle: ["この局面の SFEN", "This position's SFEN"],
  footer: [
    "矢印キー（← →）でも進めます。一度開けば、ネットワークがなくても使えます。",
    "The arrow keys (← →) step too. Once opened, the page works without a network.",
  ],
  start: ["開始局面", "Start"],
  plyOf: ["{0}手目 / {1}手", "Move {0} of {1}"],
  toMove: ["{0}の番", "{0} to move"],
  sente: ["☗先手", "☗Sente"],
  gote: ["☖後手", "☖Gote"],
  lionTaken: ["先獅子：{0}", "Lion just taken on {0}: no lion may take back there"],
  over: ["この局面で終局しています（{0}）", "The game is over here ({0})"],
  wins: ["{0}の勝ち", "{0} wins"],
  draw: ["引き分け", "drawn"],
  loading: ["エンジンを読みこみ中…", "Loading the engine…"],
  thinking: ["読んでいます…", "Reading…"],
  depth: ["深さ {0}　{1} 局面　{2} 秒", "depth {0}, {1} positions, {2} s"],
  mateIn: ["{0}の勝ち（{1}手詰）", "{0} mates in {1} plies"],
  mated: ["詰み", "Mate"],
  searching: ["詰みを探しています（10秒まで）…", "Searching for a mate (up to 10 s)…"],
  mateFound: ["{0}手詰", "Mate in {0} plies"],
  noMate: ["王手の連続で詰む手順はありません。", "There is no mate by checks."],
  mateTimeout: ["10秒では読み切れませんでした。", "Not solved within 10 seconds."],
  read1: ["{0}手の棋譜を読みこみました。", "Read a game of {0} moves."],
  readProfile: ["選んだルールでは読めないため、{0}のルールで読みました。", "The chosen rules refuse it: read under {0}'s rules."],
  empty: ["棋譜か局面を貼りつけてください。", "Paste a game or a position first."],
  bad: ["読めませんでした：{0}（前の棋譜はそのままです）", "Could not read it: {0} (the game before is kept)"],
  fileBad: ["ファイルを読めませんでした：{0}", "Could not open the file: {0}"],
  engineBad: ["エンジンを読みこめませんでした：{0}", "The engine could not load: {0}"],
  unread: ["（以降は読めない手：{0}）", "(moves the rules refuse from here: {0})"],
  resign: ["指す手がありません。", "There is no move to make."],
};
const PROFILE_NAME = { jcsa: ["日本中将棋連盟", "the JCSA"], lishogi: ["lishogi", "lishogi"] };

let lang = localStorage.getItem("yorimichi-analysis-lang") || (/^ja\b/i.test(navigator.language || "") ? "ja" : "en");
const t = (key, ...args) => TEXT[key][lang === "ja" ? 0 : 1].replace(/\{(\d)\}/g, (_, i) => args[i]);

// The game shown: its start command, moves ([usi, words]), and where in it.
let game = { profile: "jcsa", start: "position startpos", moves: [], players: [null, null], end: null };
let ply = 0;
let shownBoard = null;

// The engine worker. Every `go` is answered by one `bestmove` or
// `checkmate`; lines that come while an older `go` is still unanswered
// are that one's, and passed over.
// Started once the page's own copy of the wasm is in, so that the
// worker's fetch of it is a revalidation, not a second download.
let engine = null;
let sent = 0;
let answered = 0;
// What the search under way is about: { kind: "search" | "mate", position }.
let current = null;
let analysing = true;
// Every line read, with its position: the browser test judges each.
const linesRead = [];
window.analysisLines = linesRead;

function positionAt(n) {
  const moves = game.moves.slice(0, n).map(([usi]) => usi);
  return moves.length ? `${game.start} moves ${moves.join(" ")}` : game.start;
}

function send(line) {
  engine?.postMessage(line);
}

function stopEngine() {
  if (sent > answered) send("stop");
  current = null;
  document.body.dataset.state = "idle";
  $("mate").disabled = false;
}

function go(kind) {
  stopEngine();
  const position = positionAt(ply);
  send(position);
  send(kind === "mate" ? "go mate 10000" : `go ${$("time").value === "infinite" ? "infinite" : "movetime " + $("time").value}`);
  sent++;
  current = { kind, position, id: sent };
  document.body.dataset.state = kind === "mate" ? "mate" : "thinking";
}

function onEngineLine({ data }) {
  const text = String(data);
  const mine = current && current.id === answered + 1;
  if (/^(bestmove|checkmate)\b/.test(text)) {
    answered++;
    if (mine) finish(text);
    return;
  }
  if (text.startsWith("info string the engine ")) {
    say(t("engineBad", text.slice(12)), true);
    return;
  }
  if (mine && current.kind === "search" && text.startsWith("info ") && text.includes(" pv ")) showInfo(text);
}

function finish(text) {
  const done = current;
  current = null;
  document.body.dataset.state = "idle";
  if (done.kind === "mate") {
    showMate(done.position, text.replace(/^checkmate\s*/, ""));
    // The reading the mate search stopped goes on.
    if (analysing && !shownBoard?.over) go("search");
  } else if (text === "bestmove resign" && !$("best").dataset.pv) {
    $("best").textContent = t("resign");
  }
  $("mate").disabled = false;
}

// One `info … score … pv …` line: the evaluation for 先手 and the line.
function showInfo(text) {
  const field = (name) => new RegExp(` ${name} (\\S+)`).exec(text)?.[1];
  const score = / score (cp|mate) (-?\d+)/.exec(text);
  const pv = / pv (.*)$/.exec(text)?.[1].trim() ?? "";
  const black = shownBoard?.toMove !== "w";
  if (score) {
    const n = Number(score[2]) * (black ? 1 : -1);
    if (score[1] === "cp") {
      $("eval").textContent = (n > 0 ? "+" : "") + n;
    } else {
      const winner = n > 0 ? t("sente") : t("gote");
      $("eval").textContent = t("mateIn", winner, Math.abs(Number(score[2])));
    }
    $("eval").dataset.score = `${score[1]} ${n}`;
  }
  const seconds = ((Number(field("time")) || 0) / 1000).toFixed(1);
  $("eval-detail").textContent = t("depth", field("depth") ?? "?", Number(field("nodes") || 0).toLocaleString(), seconds);
  showLine($("best"), $("best-usi"), current.position, pv);
  $("best").dataset.pv = pv;
  linesRead.push([current.position, pv]);
  $("best").dataset.position = current.position;
  document.body.dataset.pvCount = String(Number(document.body.dataset.pvCount || 0) + 1);
}

// Writes `moves` (USI) read from `position` in Japanese notation.
function showLine(box, usiBox, position, moves) {
  const read = JSON.parse(lineOf(position, moves, game.profile));
  box.replaceChildren();
  if (read.error) {
    box.textContent = read.error;
    return;
  }
  for (const words of read.words) {
    const span = document.createElement("span");
    span.className = "move";
    span.textContent = words;
    box.append(span);
  }
  if (read.unread.length) box.append(t("unread", read.unread.join(" ")));
  if (usiBox) usiBox.textContent = moves;
}

function showMate(position, answer) {
  const box = $("mate-result");
  box.dataset.position = position;
  box.dataset.answer = answer;
  if (answer === "nomate") {
    box.textContent = t("noMate");
  } else if (answer === "timeout" || answer === "") {
    box.textContent = t("mateTimeout");
  } else {
    const plies = answer.split(/\s+/).length;
    showLine(box, null, position, answer);
    box.prepend(`${t("mateFound", plies)}：`);
    box.dataset.line = answer;
  }
  document.body.dataset.mate = answer.split(" ")[0];
}

function say(text, error = false) {
  $("message").textContent = text;
  $("message").className = error ? "error" : "";
}

// The board, the move shown and the list's mark, for `ply`; then the
// readings of the position before are cleared and it is read.
function show() {
  if (!drawBoard()) return;
  $("eval").textContent = "—";
  delete $("eval").dataset.score;
  $("eval-detail").textContent = "";
  for (const id of ["best", "mate-result"]) {
    $(id).replaceChildren();
    $(id).dataset.pv = $(id).dataset.line = $(id).dataset.answer = "";
  }
  $("best-usi").textContent = "";
  delete document.body.dataset.mate;
  if (analysing && !shownBoard.over) {
    go("search");
  } else {
    stopEngine();
  }
}

const RANKS = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"];

function drawBoard() {
  const position = positionAt(ply);
  const view = JSON.parse(boardOf(position, game.profile));
  if (view.error) {
    say(t("bad", view.error), true);
    return false;
  }
  shownBoard = view;
  const last = ply > 0 ? game.moves[ply - 1][0] : null;
  const squares = last ? last.replace("+", "").match(/\d+[a-l]/g) : [];
  const grid = $("board");
  grid.replaceChildren();
  for (let file = 12; file >= 1; file--) {
    const label = document.createElement("div");
    label.className = "file-label";
    label.textContent = String(file);
    grid.append(label);
  }
  grid.append(document.createElement("div"));
  const lionTaken = view.lionTaken;
  view.cells.forEach((cell, i) => {
    const row = Math.floor(i / 12);
    const column = i % 12;
    const name = `${12 - column}${"abcdefghijkl"[row]}`;
    const sq = document.createElement("div");
    sq.className = "sq";
    if (column === 0) sq.classList.add("left");
    if (row === 0) sq.classList.add("top");
    if (squares.length && name === squares[0]) sq.classList.add("from");
    if (squares.length && name === squares.at(-1)) sq.classList.add("to");
    if (lionTaken && lionTaken === `${12 - column}${RANKS[row]}`) sq.classList.add("lion-taken");
    if (cell) {
      const [side, kanji, promoted, ja, en] = cell;
      sq.classList.add(side);
      if (promoted) sq.classList.add("promoted");
      const span = document.createElement("span");
      span.textContent = kanji;
      sq.append(span);
      sq.title = `${side === "b" ? "☗" : "☖"}${ja} ${en}`;
    }
    grid.append(sq);
    if (column === 11) {
      const label = document.createElement("div");
      label.className = "rank-label";
      label.textContent = RANKS[row];
      grid.append(label);
    }
  });
  const side = view.toMove === "b" ? t("sente") : t("gote");
  let state = t("toMove", side);
  if (lionTaken) state += "　" + t("lionTaken", lionTaken);
  if (view.over) state = t("over", view.over === "draw" ? t("draw") : t("wins", view.over === "b" ? t("sente") : t("gote")));
  $("to-move").textContent = state;
  $("ply").textContent = ply === 0 ? t("start") : t("plyOf", ply, game.moves.length);
  $("shown-move").textContent = ply > 0 ? `${ply} ${game.moves[ply - 1][1]}` : "";
  $("sfen").value = view.sfen;
  for (const [i, button] of [...$("moves").querySelectorAll("button")].entries()) {
    button.classList.toggle("current", i + 1 === ply);
  }
  keepInView($("moves").querySelector("button.current")?.parentElement);
  $("first").disabled = $("back").disabled = ply === 0;
  $("next").disabled = $("last").disabled = ply === game.moves.length;
  document.body.dataset.ply = String(ply);
  document.body.dataset.position = position;
  return true;
}

// Scrolls the move list, and only it, to show `item` (scrollIntoView
// would scroll the whole page to the list on a phone).
function keepInView(item) {
  const list = $("moves");
  if (!item) return;
  if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
  else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
  }
}

function step(to) {
  const next = Math.max(0, Math.min(game.moves.length, to));
  if (next === ply && shownBoard) return;
  ply = next;
  show();
}

function listMoves() {
  const list = $("moves");
  list.replaceChildren();
  game.moves.forEach(([, words], i) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${i + 1} ${words}`;
    button.onclick = () => step(i + 1);
    li.append(button);
    list.append(li);
  });
  const names = game.players.map((p, i) => (p ? `${i ? "☖" : "☗"}${p}` : "")).filter(Boolean);
  $("players").textContent = names.join("　");
  $("end").textContent = game.end ? game.end[lang === "ja" ? 0 : 1] : "";
}

// Reads `text`; on success the game replaces the one shown, and the page
// opens at its last position (a position alone: at it).
function load(text, fromWhere) {
  if (!text.trim()) {
    say(t("empty"), true);
    return false;
  }
  const read = JSON.parse(readGame(text, $("profile").value));
  if (read.error) {
    say(t("bad", read.error), true);
    document.body.dataset.readError = read.error;
    return false;
  }
  delete document.body.dataset.readError;
  const asked = $("profile").value;
  game = read;
  if (game.profile !== asked) {
    $("profile").value = game.profile;
    setProfile();
  }
  listMoves();
  let message = t("read1", game.moves.length);
  if (game.profile !== asked) message += " " + t("readProfile", PROFILE_NAME[game.profile][lang === "ja" ? 0 : 1]);
  say(message);
  document.body.dataset.game = String(game.moves.length);
  document.body.dataset.source = fromWhere;
  ply = game.moves.length;
  shownBoard = null;
  show();
  return true;
}

function setProfile() {
  stopEngine();
  send(`setoption name Profile value ${$("profile").value}`);
}

function translate() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  $("lang").textContent = lang === "ja" ? "English" : "日本語";
  document.title = lang === "ja" ? "中将棋 検討 · よりみち" : "Chu shogi analysis · Yorimichi";
  if (shownBoard) {
    listMoves();
    drawBoard();
  }
}

// Bytes of a file as text: UTF-8, or Shift_JIS as older KIF files are.
function decode(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("shift_jis").decode(bytes);
  }
}

function wire() {
  $("lang").onclick = () => {
    lang = lang === "ja" ? "en" : "ja";
    try {
      localStorage.setItem("yorimichi-analysis-lang", lang);
    } catch {
      // Private windows may refuse storage: the choice lasts this visit.
    }
    translate();
  };
  $("first").onclick = () => step(0);
  $("back").onclick = () => step(ply - 1);
  $("next").onclick = () => step(ply + 1);
  $("last").onclick = () => step(game.moves.length);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: game.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    step(to);
  });
  $("read").onclick = () => load($("text").value, "text");
  $("file").onchange = async () => {
    const file = $("file").files?.[0];
    if (!file) return;
    try {
      const text = decode(new Uint8Array(await file.arrayBuffer()));
      if (load(text, "file")) $("text").value = text;
    } catch (e) {
      say(t("fileBad", String(e)), true);
    }
    $("file").value = "";
  };
  $("profile").onchange = () => {
    setProfile();
    // The same text read again under the other rules, if it still reads.
    if ($("text").value.trim()) load($("text").value, "text");
    else show();
  };
  $("analyse").onclick = () => {
    analysing = !analysing;
    $("analyse").classList.toggle("on", analysing);
    if (analysing) go("search");
    else stopEngine();
  };
  $("time").onchange = () => analysing && go("search");
  $("mate").onclick = () => {
    $("mate-result").textContent = t("searching");
    go("mate");
    $("mate").disabled = true;
  };
}

// A link may carry the game: #position=… (or the app's own share link's
// #game=chushogi&position=…), or ?position=….
function fromAddress() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  return fragment.get("position") || query.get("position") || fragment.get("kif") || fragment.get("usi");
}

async function start() {
  wire();
  translate();
  say(t("loading"));
  try {
    await init();
  } catch (e) {
    say(t("engineBad", String(e)), true);
    document.body.dataset.state = "broken";
    return;
  }
  engine = new Worker(new URL("analysis-worker.js", import.meta.url), { type: "module" });
  engine.onmessage = onEngineLine;
  engine.onerror = (e) => say(t("engineBad", e.message || "worker"), true);
  send("usi");
  send("setoption name USI_Hash value 16");
  setProfile();
  send("isready");
  say("");
  const linked = fromAddress();
  if (!(linked && load(linked, "link"))) {
    if (linked) $("text").value = linked;
    game.moves = [];
    listMoves();
    show();
  }
  document.body.dataset.ready = "1";
  registerOfflineCopy();
}

// The offline copy: its own service worker, whose scope is this page only,
// so that the game's own (at ./) is left as it is.
function registerOfflineCopy() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("./analysis-sw.js", { scope: "./analysis" }).then(
    () => navigator.serviceWorker.ready.then(() => (document.body.dataset.offline = "ready")),
    (e) => console.warn("no offline copy: " + e),
  );
}

window.addEventListener("hashchange", () => {
  const linked = fromAddress();
  if (linked) load(linked, "link");
});

start();
