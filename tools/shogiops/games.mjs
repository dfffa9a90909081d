// What the differential tests against shogiops share: a seeded random
// generator and every legal move of a 中将棋 position.

import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { lionRoles, squareDist } from 'shogiops/util';

// A small seeded generator (mulberry32): the same games on every machine.
export function generator(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The pieces that may move twice: lions, and the eagle and falcon on their
// lion lines.
const doubleMovers = [...lionRoles, 'eagle', 'falcon'];

// Every legal move of `pos`, lion double moves included.
export function legalMoves(pos) {
  const moves = [];
  for (const [from, dests] of pos.allMoveDests()) {
    for (const to of dests) {
      for (const promotion of [false, true]) {
        const md = { from, to, promotion };
        if (pos.isLegal(md)) moves.push(md);
      }
    }
    const piece = pos.board.get(from);
    if (!piece || !doubleMovers.includes(piece.role)) continue;
    for (const mid of dests) {
      if (squareDist(from, mid) !== 1) continue;
      for (const to of secondLionStepDests(pos, from, mid)) {
        const md = { from, to, midStep: mid };
        if (pos.isLegal(md)) moves.push(md);
      }
    }
  }
  return moves;
}
