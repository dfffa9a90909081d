//! Yorimichi (よりみち盤遊び): traditional board games with their real rules.
//!
//! - [`rules`]: pure game logic and search (no Bevy), tested exactly.
//! - [`shell`]: the Bevy shell (window, screens, widgets, saves, sound,
//!   animation, the CPU runner); it knows no game.
//! - [`games`]: one Bevy plugin per game, presenting its rules in the shell.
//! - [`scenes`]: the screenshot and frame-timing scenes.
//! - [`cli`]: command-line parsing.

pub mod bench_cmd;
pub mod cli;
pub mod dice_cmd;
pub mod engine_cmd;
pub mod games;
pub mod headless;
pub mod match_cmd;
pub mod perft_cmd;
pub mod problems_cmd;
pub mod rules;
pub mod scenes;
pub mod selfplay_cmd;
pub mod shell;
pub mod solve_cmd;

use bevy::prelude::*;

/// The shell's screens and every game: what the app and the headless tests
/// run.
pub fn plugin(app: &mut App) {
    app.add_plugins((shell::core_plugin, games::plugin));
}

/// Opens the window and runs the app (or the capture job's scene): the
/// shell adds its own core, then every game and the scenes.
pub fn run(options: shell::StartOptions) -> AppExit {
    shell::run(options, |app| {
        app.add_plugins((games::plugin, scenes::plugin));
    })
}
