//! Yorimichi (よりみち盤遊び): traditional board games with their real rules.
//!
//! - [`rules`]: pure game logic and search (no Bevy), tested exactly.
//! - [`app`]: the Bevy shell (screens, widgets, saves, sound, animation).
//! - [`games`]: one Bevy plugin per game, presenting its rules.
//! - [`cli`]: command-line parsing.

pub mod app;
pub mod bench_cmd;
pub mod cli;
pub mod dice_cmd;
pub mod engine_cmd;
pub mod games;
pub mod match_cmd;
pub mod perft_cmd;
pub mod problems_cmd;
pub mod rules;
pub mod selfplay_cmd;
pub mod solve_cmd;
