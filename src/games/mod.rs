//! One Bevy plugin per game: each presents its rules (from `crate::rules`)
//! with the shell's widgets, animation, saves, sound and CPU runner.

pub mod board_view;
pub mod hasami;

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins(hasami::plugin);
}
