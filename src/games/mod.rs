//! One Bevy plugin per game, over one set of shared screens: a game's rules
//! (from `crate::rules`) implement [`session::Playable`], and the setup,
//! play, result and tutorial screens present any of them with the shell's
//! widgets, animation, saves, sound and CPU runner.

pub mod art;
pub mod board_place;
pub mod board_view;
pub(crate) mod card_picture;
pub mod chushogi;
pub mod foxgeese;
pub mod hasami;
pub(crate) mod kit;
pub mod mawari;
pub mod musashi;
pub mod play;
pub mod remote;
pub(crate) mod resume;
pub mod review;
pub mod room_review;
pub mod screens;
pub mod session;
pub mod setup;
pub mod tutorial_board;
pub mod wood;

use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((
        art::plugin,
        play::shared_plugin,
        review::shared_plugin,
        hasami::plugin,
        foxgeese::plugin,
        musashi::plugin,
        chushogi::plugin,
        mawari::plugin,
    ));
}
