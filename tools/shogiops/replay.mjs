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
// on the board (its reason is a rules' end: `(RoyalsTaken)`); a game the
// log scores because the side to move was mated and sent no move must end
// in a position where shogiops finds every move of that side losing its
// king (it says so for any unfinished game that ends so). The first
// illegal move of a game is printed with its position; the exit status is
// 1 if there is an illegal move or a disagreement, 2 if a log cannot be
// read.

import { readFileSync } from 'node:fs';
import { Chushogi } from 'shogiops/variant/chushogi';
import { makeSfen } from 'shogiops/sfen';
import { opposite, parseUsi } from 'shogiops/util';
import { legalMoves } from './games.mjs';

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

// Whether the side to move loses its last royal whatever it plays: it has
// moves, and after each one either the game is over against it or the
// other side can take its last royal at once.
function mated(pos) {
  const mover = pos.turn;
  const moves = legalMoves(pos);
  return (
    moves.length > 0 &&
    moves.every((md) => {
      const next = pos.clone();
      next.play(md);
      const over = next.outcome();
      if (over) return over.winner === opposite(mover);
      return legalMoves(next).some((reply) => {
        const after = next.clone();
        after.play(reply);
        const end = after.outcome();
        return end?.result === 'kingslost' && end.winner === opposite(mover);
      });
    })
  );
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
      // A game stopped where the side to move is mated is scored as its
      // loss; shogiops must find every one of its moves losing the king.
      const isMated = !outcome && mated(pos);
      const winner = outcome
        ? outcome.winner
          ? name(outcome.winner)
          : 'nobody'
        : isMated
          ? name(opposite(pos.turn))
          : undefined;
      const ended = outcome
        ? `shogiops: ${outcome.result}, ${winner} wins`
        : isMated
          ? `shogiops: not over, ${name(pos.turn)} mated`
          : 'shogiops: not over';
      const logged = end.startsWith('Yorimichi wins')
        ? 'Yorimichi'
        : end.startsWith('the opponent wins')
          ? 'the opponent'
          : 'nobody';
      const onBoard = /^[^(]*\([A-Z][A-Za-z]+\)/.test(end);
      const matedInLog = end.includes(' is mated ');
      const agree = outcome || matedInLog ? winner === logged : !onBoard;
      if (!agree) disagreements += 1;
      console.log(
        `${where}: ${moves.length} moves legal; ${ended} (the log: ${end})${agree ? '' : ' — DISAGREE'}`,
      );
    }
  }
}
console.log(`${games} games, ${illegal} with an illegal move, ${disagreements} ending otherwise than the log says`);
process.exit(illegal + disagreements > 0 ? 1 : 0);
