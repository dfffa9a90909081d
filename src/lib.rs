//! Yorimichi (よりみち盤遊び): traditional board games with their real rules.
//!
//! - [`rules`]: pure game logic and search (no Bevy), tested exactly.
//! - [`shell`]: the Bevy shell (window, screens, widgets, saves, sound,
//!   animation, the CPU runner); it knows no game.
//! - [`games`]: one Bevy plugin per game, presenting its rules in the shell.
//! - [`scenes`]: the screenshot and frame-timing scenes.
//! - [`cli`]: the command line and its headless commands (native only).
//!
//! All but [`rules`] belong to the `app` cargo feature (on by default);
//! without it the crate is the rules and the search alone, and with
//! `engine-web` on wasm32 it is the 中将棋 engine as a web worker's
//! module (`engine_web`, `make engine-web`).
//!
//! The path of one move: a click on the board becomes a tap
//! ([`games::play`]), the game's rules turn taps into a move
//! ([`rules::taps`]), the record plays it ([`rules::record`]), and the
//! board's piece entities are moved to match, animated by the shell
//! ([`shell::anim`]). Boards, presets, tutorials, lessons and problems are
//! data in `levels/`, read by [`rules::data`] and proved by `yorimichi
//! check` ([`rules::content`]). The handbook's `docs/architecture.md` says
//! the same at length: what each folder owns, how to add a game, a tutorial
//! step or a level file.

#[cfg(all(feature = "app", not(target_arch = "wasm32")))]
pub mod cli;
#[cfg(all(feature = "engine-web", target_arch = "wasm32"))]
pub mod engine_web;
#[cfg(feature = "app")]
pub mod games;
#[cfg(feature = "app")]
pub mod headless;
#[cfg(feature = "app")]
pub mod net;
pub mod rules;
#[cfg(feature = "app")]
pub mod scenes;
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod server;
#[cfg(feature = "app")]
pub mod shell;

#[cfg(feature = "app")]
use bevy::prelude::*;

/// The shell's screens and every game: what the headless tests run.
#[cfg(feature = "app")]
pub fn plugin(app: &mut App) {
    app.add_plugins((shell::core_plugin, games::plugin));
}

/// Opens the window and runs the app (or the capture job's scene): the
/// shell adds its own core, then every game and the scenes.
#[cfg(feature = "app")]
pub fn run(options: shell::StartOptions) -> AppExit {
    shell::run(options, |app| {
        app.add_plugins((games::plugin, scenes::plugin));
    })
}
