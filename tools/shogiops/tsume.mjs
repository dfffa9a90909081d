// Replays the lines of 詰め中将棋 (levels/problems/chushogi_tsume.ron) under
// lishogi's own rules library, shogiops: an independent check that every
// move of every line is legal from the problem's diagram, and that at the
// end the defender has no king or prince left.
//
//   node tools/shogiops/tsume.mjs levels/problems/chushogi_tsume.ron
//
// The file is read as the app reads it (each step's `board` rows and
// `line` of USI moves); shogiops takes the position without validating it
// (a mate problem's attacker has no king). Exit status 1 on an illegal
// move or a line that leaves a royal, 2 if the file cannot be read.

import { readFileSync } from 'node:fs';
import { makeSfen, parseSfen } from 'shogiops/sfen';
import { parseUsi } from 'shogiops/util';

const file = process.argv[2];
let text;
try {
  text = readFileSync(file, 'utf8');
} catch (e) {
  console.error(`usage: node tsume.mjs <lesson file>: ${e.message}`);
  process.exit(2);
}

// A move as lishogi writes it; a leap written as two steps through an
// empty square is the leap.
function legal(pos, move) {
  const md = parseUsi(move);
  if (!md || md.from === undefined) return undefined;
  if (pos.isLegal(md)) return md;
  if (md.midStep !== undefined && !pos.board.get(md.midStep)) {
    const leap = { from: md.from, to: md.to, promotion: md.promotion };
    if (pos.isLegal(leap)) return leap;
  }
  return undefined;
}

const royals = (pos, color) =>
  [...pos.board.color(color)].filter((sq) => ['king', 'prince'].includes(pos.board.get(sq).role)).length;

// A step: its title, then (with no other title between) its board, side and line.
const steps = [
  ...text.matchAll(
    /title: \(ja: "([^"]*)"(?:(?!title:)[\s\S])*?board: \[([^\]]*)\]((?:(?!title:)[\s\S])*?)line: \[([^\]]*)\]/g,
  ),
];
if (steps.length === 0) {
  console.error(`${file}: no step with a line`);
  process.exit(2);
}
let faults = 0;
for (const [, title, rows, between, line] of steps) {
  const second = /to_move: Second/.test(between);
  const board = [...rows.matchAll(/"([^"]*)"/g)].map((m) => m[1]).slice(0, 12).join('/');
  const sfen = `${board} ${second ? 'w' : 'b'} - 1`;
  const parsed = parseSfen('chushogi', sfen, false);
  if (parsed.isErr) {
    console.log(`${title}: shogiops cannot read ${sfen}`);
    faults += 1;
    continue;
  }
  const pos = parsed.unwrap();
  const defender = pos.turn === 'sente' ? 'gote' : 'sente';
  const moves = [...line.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
  let bad;
  for (const [ply, move] of moves.entries()) {
    const md = legal(pos, move);
    if (!md) {
      bad = `ply ${ply + 1}: ${move} is illegal in ${makeSfen(pos)}`;
      break;
    }
    pos.play(md);
  }
  if (!bad && royals(pos, defender) > 0) bad = 'the defender keeps a royal at the end';
  if (bad) faults += 1;
  console.log(`${title}: ${moves.length} plies${bad ? ` — ${bad}` : ' legal, the royals taken'}`);
}
console.log(`${steps.length} lines, ${faults} refused`);
process.exit(faults > 0 ? 1 : 0);
