//! 中将棋 (Chu Shogi), after `shared/seeds/001` and issue 6: the pieces and
//! their moves, the board and SFEN, the legal moves with the lion-trading
//! rules, and how a game ends. (千日手, the game record, the search and the
//! command-line faces come next; see issue 6.)

pub mod end;
pub mod moves;
pub mod pieces;
pub mod position;
