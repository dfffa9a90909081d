//! Every screen a two-player game has, put together for one game: the
//! session (its presets, the setup's draft, 続きから), the setup screen,
//! the play and result screens, its card's miniature, the tutorial, 振り返り
//! and play through a room. This is the top of the shared floors: it names
//! them all and none of them names it; each game's module adds it.

use bevy::prelude::*;

use super::session::Playable;
use super::{card_picture, play, remote, review, room_review, session, setup, tutorial_board};

/// The shared screens for game `G`.
pub fn plugin<G: Playable>(app: &mut App) {
    app.add_plugins((
        session::plugin::<G>,
        setup::plugin::<G>,
        play::plugin::<G>,
        card_picture::plugin::<G>,
        tutorial_board::plugin::<G>,
        review::plugin::<G>,
        remote::plugin::<G>,
        room_review::plugin::<G>,
    ));
}
