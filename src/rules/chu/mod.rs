//! 中将棋 (Chu Shogi), after `shared/seeds/001` and issue 6: the pieces and
//! their moves, the board and SFEN, the legal moves with the lion-trading
//! rules, how a game ends, 千日手 with its four rules for who must change,
//! the [`game::Chu`] the shared search plays, and whole games as text (USI
//! and a Japanese record). The lishogi profile and the command-line engine
//! come next (issue 6).

pub mod end;
pub mod game;
pub mod moves;
pub mod pieces;
pub mod position;
pub mod record;
pub mod repetition;
