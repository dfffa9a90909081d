// Replays the games of `yorimichi match` logs under lishogi's own rules
// library, shogiops (pinned in package.json): an independent check that
// every move in them was legal, and of how each game ended.
//
//   node tools/shogiops/replay.mjs <log> [<log> …]
//
// A log holds one block a game: a header line (`game N Yorimichi=先手 …`),
// `end: …` and `moves: <USI moves from the start position>`. Each move is
// read as lishogi writes it (a lion's two steps as three squares) and must
// be legal in shogiops's position; a leap written as two steps through an
// empty square is read as the leap it is. For every game the script prints
// the moves replayed and shogiops's outcome of the final position (none
// for a game stopped by the clock, the ply cap or a dispute), which must
// name the log's winner, and must exist where the log says the game ended
// on the board (its reason is a rules' end: `(RoyalsTaken)`). The first
// illegal move of a game is printed with its position; the exit status is
// 1 if there is an illegal move or a disagreement, 2 if a log cannot be
// read.

import { readFileSync } from 'node:fs';
import { Chushogi } from 'shogiops/variant/chushogi';
import { makeSfen } from 'shogiops/sfen';
import { parseUsi } from 'shogiops/util';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node replay.mjs <match log> [<match log> …]');
  process.exit(2);
}

// The move `text` means in `pos`, if it is legal there.
function legal(pos, text) {
  const md = parseUsi(text);
  if (!md || md.from === undefined) return undefined;
  if (pos.isLegal(md)) return md;
  const throughEmpty = md.midStep !== undefined && md.to !== md.from && !pos.board.get(md.midStep);
  if (throughEmpty) {
    const leap = { from: md.from, to: md.to, promotion: md.promotion };
    if (pos.isLegal(leap)) return leap;
  }
  return undefined;
}

let illegal = 0;
let disagreements = 0;
let games = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    process.exit(2);
  }
  let header = '';
  let end = '';
  for (const [index, line] of text.split('\n').entries()) {
    if (line.startsWith('game ')) header = line;
    else if (line.startsWith('end: ')) end = line.slice(5);
    else if (line.startsWith('moves:')) {
      games += 1;
      const ours = header.includes('Yorimichi=先手') ? 'sente' : 'gote';
      const name = (color) => (color === ours ? 'Yorimichi' : 'the opponent');
      const moves = line.slice(6).trim().split(/\s+/).filter((m) => m);
      const pos = Chushogi.default();
      let bad;
      for (const [ply, move] of moves.entries()) {
        const md = legal(pos, move);
        if (!md) {
          bad = `ply ${ply + 1}, ${name(pos.turn)}: ${move} is illegal in ${makeSfen(pos)}`;
          break;
        }
        pos.play(md);
      }
      const where = `${file}:${index + 1}: ${header.split(' opponent=')[0]}`;
      if (bad) {
        illegal += 1;
        console.log(`${where}: ${bad}`);
        continue;
      }
      const outcome = pos.outcome();
      const winner = outcome && (outcome.winner ? name(outcome.winner) : 'nobody');
      const ended = outcome ? `shogiops: ${outcome.result}, ${winner} wins` : 'shogiops: not over';
      const logged = end.startsWith('Yorimichi wins')
        ? 'Yorimichi'
        : end.startsWith('the opponent wins')
          ? 'the opponent'
          : 'nobody';
      const onBoard = /^[^(]*\([A-Z][A-Za-z]+\)/.test(end);
      const agree = outcome ? winner === logged : !onBoard;
      if (!agree) disagreements += 1;
      console.log(
        `${where}: ${moves.length} moves legal; ${ended} (the log: ${end})${agree ? '' : ' — DISAGREE'}`,
      );
    }
  }
}
console.log(`${games} games, ${illegal} with an illegal move, ${disagreements} ending otherwise than the log says`);
process.exit(illegal + disagreements > 0 ? 1 : 0);
