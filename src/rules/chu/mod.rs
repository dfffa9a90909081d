//! 中将棋 (Chu Shogi): the pieces and their moves, the board and SFEN, the
//! legal moves with the lion-trading rules under the JCSA or the lishogi
//! profile, how a game ends, 千日手 with its four rules for who must change,
//! the [`game::Chu`] the shared search plays (its evaluation, and the
//! static exchange of [`exchange`]), whole games as text (USI, a
//! Japanese record, and KIF in [`kif`]; how a move is told in
//! [`notation`]), XBoard's notation for the CECP engine, the USI engine's
//! session ([`usi`], native and in a web worker) and its time plan
//! ([`time`]), what the web's analysis page asks beside USI
//! ([`analysis`]), and what makes a position a problem.

pub mod analysis;
pub mod end;
pub mod exchange;
pub mod game;
pub mod kif;
pub mod mate;
pub mod moves;
pub mod notation;
pub mod pieces;
pub mod position;
pub mod probe;
pub mod problems;
pub mod record;
pub mod repetition;
pub mod time;
pub mod usi;
pub mod xboard;

use serde::{Deserialize, Serialize};

/// Whose rules a game follows. The default, `Jcsa`, is the Japan Chu Shogi
/// Association's rules (with 将棋-焔-'s additions); the lishogi profile is the
/// rules of lishogi.org, for games played there. Every difference is listed
/// in docs/rules/chushogi.md and tested (tests/rules/chu_profiles.rs).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
pub enum Profile {
    #[default]
    Jcsa,
    Lishogi,
}

impl Profile {
    pub const ALL: [Profile; 2] = [Profile::Jcsa, Profile::Lishogi];

    pub fn id(self) -> &'static str {
        match self {
            Profile::Jcsa => "jcsa",
            Profile::Lishogi => "lishogi",
        }
    }
}
