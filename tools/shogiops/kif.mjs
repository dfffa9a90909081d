// Differential test of Yorimichi's 中将棋 KIF against lishogi's, as its
// rules library shogiops (pinned in package.json) writes and reads it.
//
//   node tools/shogiops/kif.mjs <yorimichi binary> [--games N] [--seed S]
//
// Plays seeded random games with shogiops (every fourth from a position
// reached in another game; promotions, captures and two-step moves
// preferred, so that 成, 不成, 仝, lion and eagle double moves, 居食い and
// じっと come up) and checks both ways:
//  - `yorimichi convert chushogi --to kif` writes the game; shogiops's KIF
//    reader (parseKifMovesOrDrops, and parseKifHeader for a diagram) must
//    read the same start and moves;
//  - shogiops's KIF writer (makeKifHeader, makeKifMoveOrDrop, numbered as
//    lishogi numbers moves) writes the game; `yorimichi convert chushogi
//    --to usi` must read the same start and moves;
//  - `yorimichi convert chushogi --to sfen` writes the final position as
//    shogiops's makeSfen does, its move number included.
// shogiops cannot read `(じっと)`, which it writes itself: that mark is
// taken out of Yorimichi's text before shogiops reads it (and counted).
// Every difference is printed with the game; the exit status is 1 if there
// is any.

import { spawnSync } from 'node:child_process';
import { Chushogi } from 'shogiops/variant/chushogi';
import { makeSfen, parseSfen } from 'shogiops/sfen';
import { makeUsi } from 'shogiops/util';
import { makeKifHeader, makeKifMoveOrDrop, parseKifHeader, parseKifMovesOrDrops } from 'shogiops/notation/kif';
import { generator, legalMoves } from './games.mjs';

const args = process.argv.slice(2);
const binary = args[0];
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const games = option('--games', 40);
const seed = option('--seed', 1);
if (!binary || !Number.isInteger(games) || games < 1) {
  console.error('usage: node kif.mjs <yorimichi binary> [--games N] [--seed S]');
  process.exit(2);
}
const random = generator(seed);
const pick = (list) => list[Math.floor(random() * list.length)];

const MOVES_HEADER = '手数----指手---------消費時間--';
const seen = { moves: 0, promotions: 0, declined: 0, same: 0, doubles: 0, doublesToSame: 0, igui: 0, jitto: 0, fromPosition: 0 };

// A random move: a promotion with probability 0.3 where one can, a
// two-step move with 0.15, a capture with 0.4, else any.
function randomMove(pos) {
  const moves = legalMoves(pos);
  if (moves.length === 0) return undefined;
  const captures = moves.filter((m) => pos.board.get(m.to) || (m.midStep !== undefined && pos.board.get(m.midStep)));
  const promotions = moves.filter((m) => m.promotion);
  const doubles = moves.filter((m) => m.midStep !== undefined);
  const roll = random();
  const pool =
    promotions.length > 0 && roll < 0.3
      ? promotions
      : doubles.length > 0 && roll < 0.45
        ? doubles
        : captures.length > 0 && roll < 0.85
          ? captures
          : moves;
  return pick(pool);
}

// A start: the usual one, or (every fourth game) a position some random
// moves into another game whose side to move has no 先獅子 square (KIF
// cannot say it to shogiops).
function randomStart(index) {
  if (index % 4 !== 3) return Chushogi.default();
  for (;;) {
    const pos = Chushogi.default();
    const plies = 10 + Math.floor(random() * 60);
    for (let i = 0; i < plies && !pos.isEnd(); i++) pos.play(randomMove(pos));
    if (!pos.isEnd() && pos.lastLionCapture === undefined) {
      // A new game from here: no last move to refer to with 仝.
      return parseSfen('chushogi', makeSfen(pos), false).unwrap();
    }
  }
}

// The game as lishogi writes it: the header, then each move numbered as
// lishogi's server numbers them (`   1   7八歩兵 （←7九）`, `   3一歩目 …`).
function lishogiKif(start, moves) {
  const pos = start.clone();
  const lines = [makeKifHeader(pos), MOVES_HEADER];
  moves.forEach((md, i) => {
    const number = String(i + 1).padStart(4);
    const text = makeKifMoveOrDrop(pos, md);
    for (const line of text.split('\n')) lines.push(line.startsWith('一歩目') || line.startsWith('二歩目') ? number + line : `${number}   ${line}`);
    pos.play(md);
  });
  return `${lines.join('\n')}\n`;
}

// The board, side and 先獅子 fields of an SFEN (not the move number).
const position = (sfen) => sfen.split(' ').slice(0, 3).join(' ');

let differences = 0;
const report = (game, what) => {
  differences += 1;
  if (differences <= 20) console.log(`${game}\n  ${what}`);
};

function yorimichi(convertArgs, input) {
  const run = spawnSync(binary, ['convert', 'chushogi', ...convertArgs, '--profile', 'lishogi'], {
    input,
    encoding: 'utf8',
  });
  return { ok: run.status === 0, out: run.stdout, err: run.stderr };
}

for (let g = 0; g < games; g++) {
  const start = randomStart(g);
  if (g % 4 === 3) seen.fromPosition += 1;
  const pos = start.clone();
  const moves = [];
  const plies = 40 + Math.floor(random() * 120);
  let lastTo;
  for (let i = 0; i < plies && !pos.isEnd(); i++) {
    const md = randomMove(pos);
    if (!md) break;
    seen.moves += 1;
    if (md.promotion) seen.promotions += 1;
    else if (md.midStep === undefined && pos.isLegal({ ...md, promotion: true })) seen.declined += 1;
    if (md.midStep === undefined && md.to === lastTo) seen.same += 1;
    if (md.midStep !== undefined) {
      seen.doubles += 1;
      // lishogi writes 仝 on both step lines of these.
      if (md.to === lastTo) seen.doublesToSame += 1;
      if (md.to === md.from) seen[pos.board.get(md.midStep) ? 'igui' : 'jitto'] += 1;
    }
    lastTo = md.to;
    moves.push(md);
    pos.play(md);
  }
  const startSfen = makeSfen(start);
  const usis = moves.map((m) => makeUsi(m));
  const game = `position sfen ${startSfen} moves ${usis.join(' ')}`;

  // Yorimichi writes, shogiops reads.
  const written = yorimichi(['--to', 'kif'], game);
  if (!written.ok) {
    report(game, `yorimichi cannot write it: ${written.err.trim()}`);
  } else {
    const lines = written.out.split('\n');
    const movesAt = lines.indexOf(MOVES_HEADER);
    const moveLines = lines.slice(movesAt + 1).map((l) => l.replace('(じっと)', ''));
    const read = parseKifMovesOrDrops(moveLines).map((m) => makeUsi(m));
    if (read.join(' ') !== usis.join(' ')) {
      const at = read.findIndex((u, i) => u !== usis[i]);
      report(game, `shogiops reads Yorimichi's KIF as ${read.length} moves (first difference at move ${at < 0 ? read.length + 1 : at + 1}):\n${written.out}`);
    }
    const header = lines.slice(0, movesAt).join('\n');
    const hasBoard = header.includes('|');
    const readStart = hasBoard ? makeSfen(parseKifHeader(header).unwrap()) : makeSfen(Chushogi.default());
    if (position(readStart) !== position(startSfen)) {
      report(game, `shogiops reads Yorimichi's start as ${readStart}:\n${header}`);
    }
  }

  // The final position's SFEN, its move number as lishogi counts it.
  const end = yorimichi(['--to', 'sfen'], game);
  const endSfen = makeSfen(pos);
  if (!end.ok || end.out.trim() !== endSfen) {
    report(game, `Yorimichi's final SFEN is ${end.ok ? end.out.trim() : end.err.trim()}, shogiops's ${endSfen}`);
  }

  // shogiops writes, Yorimichi reads.
  const kif = lishogiKif(start, moves);
  const read = yorimichi(['--to', 'usi'], kif);
  if (!read.ok) {
    report(game, `yorimichi cannot read shogiops's KIF: ${read.err.trim()}\n${kif}`);
  } else {
    const text = read.out.trim();
    const [head, tail] = text.split(' moves ');
    const readMoves = tail ? tail.split(' ') : [];
    const readStart = head === 'position startpos' ? makeSfen(Chushogi.default()) : head.replace('position sfen ', '');
    if (readMoves.join(' ') !== usis.join(' ') || position(readStart) !== position(startSfen)) {
      report(game, `yorimichi reads shogiops's KIF as ${text}\n${kif}`);
    }
  }
}

console.log(
  `KIF both ways with shogiops: ${games} games (${seen.fromPosition} from a set position), ${seen.moves} moves ` +
    `(${seen.promotions} promotions, ${seen.declined} declined, ${seen.same} to the previous move's square, ` +
    `${seen.doubles} two-step moves, ${seen.doublesToSame} of them to the previous move's square, ${seen.igui} 居食い, ${seen.jitto} じっと): ${differences} differences`,
);
process.exit(differences === 0 ? 0 : 1);
