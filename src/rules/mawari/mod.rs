//! まわり将棋 (Mawari Shogi): the race round the board's edge
//! ([`race`]), and the four 金将 thrown as dice ([`dice`]), whose throws
//! are simulated as rigid bodies ([`physics`]) and read from how they lie.

pub mod dice;
pub mod games;
pub mod levels;
pub mod order;
pub mod physics;
pub mod race;
pub mod replay;
pub mod track;
