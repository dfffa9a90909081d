// Differential test of Yorimichi's 中将棋 (lishogi profile) against
// shogiops, lishogi's own rules library (pinned in package.json).
//
//   node tools/shogiops/diff.mjs <yorimichi binary> [--positions N] [--seed S] [--endings F]
//
// Plays seeded random games with shogiops (promotions and captures
// preferred, so that lions, eagles, falcons, promoted kirin and the 先獅子
// square come up, and games end); with `--endings F`, that share of the
// games begins instead from a sparse ending (a king, often with a 太子,
// and a few pieces against a king with at most one), where the bare-king
// rule decides. For every position reached it compares the end of the game
// and the full set of legal moves with `yorimichi moves chushogi`. Moves are
// compared by what they do (from, to, the squares emptied of enemy pieces,
// promotion), since a lion's leap may be written as one step or two. Every
// difference is printed as the SFEN and the move; the exit status is 1 if
// there is any.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Chushogi } from 'shogiops/variant/chushogi';
import { makeSfen, parseSfen } from 'shogiops/sfen';
import { makeSquareName, parseSquareName } from 'shogiops/util';
import { generator, legalMoves } from './games.mjs';

const args = process.argv.slice(2);
const binary = args[0];
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const positions = option('--positions', 300);
const seed = option('--seed', 1);
const endings = option('--endings', 0);
if (!binary || !Number.isInteger(positions) || positions < 1 || !(endings >= 0 && endings <= 1)) {
  console.error('usage: node diff.mjs <yorimichi binary> [--positions N] [--seed S] [--endings 0..1]');
  process.exit(2);
}

const random = generator(seed);

// What a move does on `pos`'s board: the key both sides are compared by.
function effect(pos, from, mid, to, promotion) {
  const enemy = (sq) => {
    const p = pos.board.get(sq);
    return p && p.color !== pos.turn;
  };
  const emptied = [];
  if (mid !== undefined && enemy(mid)) emptied.push(mid);
  if (to !== from && enemy(to)) emptied.push(to);
  emptied.sort((a, b) => a - b);
  const name = (sq) => makeSquareName(sq);
  return `${name(from)}>${name(to)} x${emptied.map(name).join(',')}${promotion ? '+' : ''}`;
}

function shogiopsEffects(pos, moves) {
  return new Set(moves.map((m) => effect(pos, m.from, m.midStep, m.to, !!m.promotion)));
}

// Yorimichi's USI: two or three squares (file 1-12, rank a-l), then `+`.
function yorimichiEffect(pos, usi) {
  const promotion = usi.endsWith('+');
  const squares = (promotion ? usi.slice(0, -1) : usi).match(/\d+[a-l]/g) || [];
  const sq = squares.map((s) => parseSquareName(s));
  if (sq.length === 2) return effect(pos, sq[0], undefined, sq[1], promotion);
  if (sq.length === 3) return effect(pos, sq[0], sq[1], sq[2], promotion);
  return `unreadable ${usi}`;
}

function shogiopsEnd(pos) {
  const outcome = pos.outcome();
  if (!outcome) return 'ongoing';
  return outcome.winner ?? 'draw';
}

// A sparse ending: one side a king (now and then only a 太子), mostly with
// a 太子, and up to two pieces; the other a king (now and then a 太子)
// with at most one piece. Every piece on a square of its own, either side
// to move. Pawns and lances are left out: one on its last rank cannot move.
const endingRoles = [
  'gold', 'silver', 'copper', 'leopard', 'tiger', 'elephant', 'chariot', 'kirin', 'phoenix',
  'sidemover', 'verticalmover', 'rook', 'bishop', 'horse', 'dragon', 'queen', 'lion',
  'gobetween', 'promotedpawn', 'falcon', 'eagle',
];
const ENDING_PLIES = 24;
function sparseEnding() {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const colors = random() < 0.5 ? ['sente', 'gote'] : ['gote', 'sente'];
  const [stronger, weaker] = colors;
  const pieces = [];
  if (random() < 0.85) pieces.push({ role: 'king', color: stronger });
  if (pieces.length === 0 || random() < 0.7) pieces.push({ role: 'prince', color: stronger });
  for (let n = Math.floor(random() * 3); n > 0; n--) pieces.push({ role: pick(endingRoles), color: stronger });
  pieces.push({ role: random() < 0.85 ? 'king' : 'prince', color: weaker });
  if (random() < 0.5) pieces.push({ role: pick(endingRoles), color: weaker });
  const board = Array.from({ length: 12 }, () => Array(12).fill(null));
  for (const piece of pieces) {
    let rank, file;
    do {
      rank = Math.floor(random() * 12);
      file = Math.floor(random() * 12);
    } while (board[rank][file]);
    board[rank][file] = piece;
  }
  const empty = Array(12).fill('12').join('/');
  const start = parseSfen('chushogi', `${empty} ${random() < 0.5 ? 'b' : 'w'} - 1`, false).unwrap();
  board.forEach((row, rank) =>
    row.forEach((piece, file) => {
      if (piece) start.board.set(parseSquareName(`${12 - file}${'abcdefghijkl'[rank]}`), piece);
    }),
  );
  // Through the SFEN, so that the position is exactly what is compared.
  return parseSfen('chushogi', makeSfen(start), false).unwrap();
}

// The games, a batch at a time (so that a million positions need little
// memory): a move promotes with probability 0.3 where one can, else it
// captures with probability 0.4 where one can.
let plies = 0;
let pliesAllowed = 400;
let pos = newGame();
function newGame() {
  plies = 0;
  if (endings > 0 && random() < endings) {
    pliesAllowed = ENDING_PLIES;
    return sparseEnding();
  }
  pliesAllowed = 400;
  return Chushogi.default();
}
function nextCases(count) {
  const cases = [];
  while (cases.length < count) {
    const sfen = makeSfen(pos);
    const moves = legalMoves(pos);
    cases.push({ sfen, moves });
    if (pos.isEnd() || moves.length === 0 || plies >= pliesAllowed) {
      pos = newGame();
      continue;
    }
    plies += 1;
    const captures = moves.filter((m) => pos.board.get(m.to) || (m.midStep !== undefined && pos.board.get(m.midStep)));
    const promotions = moves.filter((m) => m.promotion);
    const roll = random();
    const pool =
      promotions.length > 0 && roll < 0.3 ? promotions : captures.length > 0 && roll < 0.7 ? captures : moves;
    pos.play(pool[Math.floor(random() * pool.length)]);
  }
  return cases;
}

const child = spawn(binary, ['moves', 'chushogi', '--profile', 'lishogi'], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const answers = [];
let waiting = null;
const lines = createInterface({ input: child.stdout });
lines.on('line', (line) => {
  answers.push(line);
  if (waiting && answers.length >= waiting.count) waiting.resolve();
});
let closed = false;
child.on('close', () => {
  closed = true;
  if (waiting) waiting.resolve();
});
const answersFor = (count) =>
  new Promise((resolve) => {
    if (answers.length >= count || closed) return resolve();
    waiting = { count, resolve };
  });

let differences = 0;
const seen = { ended: 0, counterStrike: 0, eagleOrFalcon: 0, promotedKirin: 0, twoRoyals: 0 };
const report = (sfen, what) => {
  differences += 1;
  if (differences <= 50) console.log(`${sfen}\t${what}`);
};
function compare(c, answer) {
  if (answer === undefined) return report(c.sfen, 'no answer');
  const [end, moveText] = answer.split('\t');
  if (end === 'error') return report(c.sfen, `yorimichi cannot read it: ${moveText}`);
  const pos = parseSfen('chushogi', c.sfen, false).unwrap();
  const [board, , lionSquare] = c.sfen.split(' ');
  if (lionSquare !== '-') seen.counterStrike += 1;
  if (/\+[dhDH]/.test(board)) seen.eagleOrFalcon += 1;
  if (/\+[oO]/.test(board)) seen.promotedKirin += 1;
  for (const color of ['sente', 'gote']) if (pos.kingsOf(color).size() >= 2) seen.twoRoyals += 1;
  const theirs = shogiopsEnd(pos);
  const ours = end.split(' ')[0];
  if (theirs !== 'ongoing') seen.ended += 1;
  if (theirs !== ours) return report(c.sfen, `end: shogiops ${theirs}, yorimichi ${end}`);
  if (theirs !== 'ongoing') return;
  const expected = shogiopsEffects(pos, c.moves);
  const got = new Set((moveText ? moveText.split(' ') : []).map((u) => yorimichiEffect(pos, u)));
  for (const m of expected) if (!got.has(m)) report(c.sfen, `move ${m}: legal in shogiops, not in yorimichi`);
  for (const m of got) if (!expected.has(m)) report(c.sfen, `move ${m}: legal in yorimichi, not in shogiops`);
}

const BATCH = 2000;
for (let done = 0; done < positions; ) {
  const cases = nextCases(Math.min(BATCH, positions - done));
  for (const c of cases) child.stdin.write(`${c.sfen}\n`);
  await answersFor(done + cases.length);
  cases.forEach((c, i) => compare(c, answers[done + i]));
  // Answers compared are not needed again.
  for (let i = done; i < done + cases.length; i++) answers[i] = undefined;
  done += cases.length;
}
child.stdin.end();
console.log(
  `compared ${positions} positions with shogiops (${seen.ended} where the game is over, ` +
    `${seen.counterStrike} with a 先獅子 square, ${seen.eagleOrFalcon} with an eagle or falcon, ` +
    `${seen.promotedKirin} with a promoted kirin, ${seen.twoRoyals} with a king and a 太子 on one side): ` +
    `${differences} differences`,
);
process.exit(differences === 0 ? 0 : 1);
