//! 中将棋 (Chu Shogi), after `shared/seeds/001` and issue 6: the pieces and
//! their moves, the board and SFEN. (The move generator, the lion rules and
//! the search come next; see issue 6.)

pub mod moves;
pub mod pieces;
pub mod position;
