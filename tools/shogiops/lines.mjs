// Lines of USI moves judged by lishogi's own rules library: a USI
// `position` command read into a shogiops position, and every move of a
// line (an engine's principal variation, a mate line) checked legal from
// there, move by move. What web/test/engine_test.mjs asks of the engine
// worker's output.

import { initialSfen, makeSfen, parseSfen } from 'shogiops/sfen';
import { parseUsi } from 'shogiops/util';

// The move `text` means in `pos`, if it is legal there; a leap written as
// two steps through an empty square is the leap it is (as replay.mjs reads
// the match logs).
export function legal(pos, text) {
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

// The position a USI `position startpos|sfen … [moves …]` command sets
// up, or a string saying why shogiops cannot. The SFEN is read without
// validation: a mate problem's attacker has no king.
export function positionOf(command) {
  const words = command.trim().split(/\s+/);
  if (words[0] !== 'position') return `not a position command: ${command}`;
  const at = words.indexOf('moves');
  const setup = words.slice(1, at < 0 ? undefined : at);
  const moves = at < 0 ? [] : words.slice(at + 1);
  const sfen = setup[0] === 'startpos' ? initialSfen('chushogi') : setup.slice(1).join(' ');
  const parsed = parseSfen('chushogi', sfen, false);
  if (parsed.isErr) return `shogiops cannot read ${sfen}`;
  const pos = parsed.unwrap();
  const fault = play(pos, moves);
  return fault ? `the game's ${fault}` : pos;
}

// Plays `moves` in `pos` (which it changes); the first illegal one named
// with its position, or undefined when all are legal.
export function play(pos, moves) {
  for (const [i, text] of moves.entries()) {
    const md = legal(pos, text);
    if (!md) return `move ${i + 1}, ${text}, is illegal in ${makeSfen(pos)}`;
    pos.play(md);
  }
  return undefined;
}

// How many king and prince the side `color` has left in `pos`.
export function royals(pos, color) {
  return [...pos.board.color(color)].filter((sq) => ['king', 'prince'].includes(pos.board.get(sq).role)).length;
}
