//! Pure game logic: boards, rules, search. Nothing below this module may
//! import Bevy, so all of it is tested fast and exactly, and the same code
//! runs in the app, the command-line tools and the tests.

// A few crate-visible helpers serve only the app: the engine-only build
// (without the `app` feature) leaves them unused.
#![cfg_attr(not(feature = "app"), allow(dead_code))]

pub mod board;
pub mod chu;
pub mod content;
pub mod data;
pub(crate) mod fixed_array;
pub mod foxgeese;
pub mod game;
pub mod hasami;
pub mod levels;
pub mod mawari;
pub mod musashi;
pub mod record;
pub mod review;
pub mod rulebook;
pub mod search;
pub mod search_service;
#[cfg(not(target_arch = "wasm32"))]
pub mod selfplay;
pub mod taps;
