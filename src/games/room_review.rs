//! 振り返り together in a room: after a game, the review a player opens
//! leads, and every other device of the room (watchers too) shows the
//! position it shows, until a device chooses to look alone. Any player's
//! device that moves through the game leads from then on. The server
//! passes each lead on and keeps the last one for devices that come in.
//!
//! It stands on the review and on room play: neither names it.

use bevy::prelude::*;

use super::resume::chosen;
use super::review::{Review, ReviewPanel};
use super::session::{Match, Opponent, Playable};
use crate::net::protocol::ClientMessage;
use crate::shell::Screen;
use crate::shell::i18n::{Lang, T};
use crate::shell::rooms::{RoomConnection, RoomLink};
use crate::shell::settings::Settings;
use crate::shell::widgets::type_scale as ty;
use crate::shell::widgets::{self, ButtonLook, Fonts, palette};

pub fn plugin<G: Playable>(app: &mut App) {
    app.init_resource::<Together>()
        .add_systems(OnEnter(Screen::Play), start_afresh.run_if(chosen(G::ID)))
        .add_systems(
            Update,
            spawn_together_row::<G>
                .run_if(in_state(Screen::Review))
                .run_if(chosen(G::ID))
                .run_if(in_room::<G>),
        )
        .add_systems(
            Update,
            (
                follow::<G>,
                // Only the review on the screen leads: the one an earlier
                // game left behind says nothing of the game just finished.
                lead::<G>.run_if(in_state(Screen::Review)),
                show_together,
            )
                .chain()
                .run_if(in_state(Screen::Result).or_else(in_state(Screen::Review)))
                .run_if(chosen(G::ID))
                .run_if(in_room::<G>),
        );
}

/// This device's part in the room's review.
#[derive(Resource, Default)]
pub struct Together {
    /// The device looks alone: it neither follows nor leads.
    pub alone: bool,
    /// The leads taken in so far (the connection counts them).
    seen: u64,
    /// The position the room's review was last told or shown: a review
    /// showing another leads.
    synced: Option<usize>,
}

/// The row on a room's review: who leads (tests read it), and ひとりで見る.
#[derive(Component)]
pub struct TogetherText;

/// ひとりで見る on a room's review (tests find it).
#[derive(Component)]
pub struct AloneButton;

fn in_room<G: Playable>(m: Option<Res<Match<G>>>, room: Res<RoomLink>) -> bool {
    m.is_some_and(|m| m.setup.opponent == Opponent::Remote) && room.0.is_some()
}

/// A new game: its review will be followed again. (A lead of an earlier
/// game is never followed into it: each game's welcome forgets it.)
fn start_afresh(mut together: ResMut<Together>) {
    together.alone = false;
    together.synced = None;
}

/// A lead from another device: the result screen opens the review there,
/// the review goes to its position.
fn follow<G: Playable>(
    room: Res<RoomLink>,
    m: Res<Match<G>>,
    review: Option<ResMut<Review<G>>>,
    screen: Res<State<Screen>>,
    mut together: ResMut<Together>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(connection) = room.0.as_ref() else {
        return;
    };
    if connection.review_leads == together.seen {
        return;
    }
    together.seen = connection.review_leads;
    let Some((_, ply)) = connection.review_lead else {
        return;
    };
    if together.alone {
        return;
    }
    let ply = ply as usize;
    match (screen.get(), review) {
        (Screen::Review, Some(mut review)) => {
            review.go_to(ply);
            together.synced = Some(review.ply);
        }
        (Screen::Result, _) => {
            let mut review = Review::of_match(&m, Screen::Result);
            review.go_to(ply);
            together.synced = Some(review.ply);
            commands.insert_resource(review);
            next.set(Screen::Review);
        }
        _ => {}
    }
}

/// A player's review that moves leads the room's: the server tells the
/// others.
fn lead<G: Playable>(
    review: Option<Res<Review<G>>>,
    mut room: ResMut<RoomLink>,
    mut together: ResMut<Together>,
) {
    let Some(review) = review else { return };
    let Some(connection) = room.0.as_mut() else {
        return;
    };
    if together.alone || connection.watching || together.synced == Some(review.ply) {
        return;
    }
    let Ok(ply) = u32::try_from(review.ply) else {
        return;
    };
    if connection.send(&ClientMessage::ReviewAt { ply }) {
        together.synced = Some(review.ply);
    }
}

fn spawn_together_row<G: Playable>(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    // A new panel: the review's first, or one laid out again for a turned
    // phone.
    panels: Query<Entity, Added<ReviewPanel>>,
) {
    let lang = settings.lang;
    for panel in &panels {
        commands.entity(panel).with_children(|panel| {
            panel.spawn((
                widgets::text(&fonts, "", ty::SMALL, palette::INK_SOFT),
                TogetherText,
            ));
            panel
                .spawn((
                    widgets::key_button_with(
                        &fonts,
                        lang,
                        T::ReviewAlone,
                        ButtonLook::Toggle { on: false },
                    ),
                    AloneButton,
                ))
                .observe(toggle_alone::<G>);
        });
    }
}

/// ひとりで見る: off again, the device goes back to the room's position.
fn toggle_alone<G: Playable>(
    _: On<Pointer<Click>>,
    mut together: ResMut<Together>,
    room: Res<RoomLink>,
    review: Option<ResMut<Review<G>>>,
) {
    together.alone = !together.alone;
    if together.alone {
        return;
    }
    let lead = room.0.as_ref().and_then(|c| c.review_lead);
    if let (Some((_, ply)), Some(mut review)) = (lead, review) {
        review.go_to(ply as usize);
        together.synced = Some(review.ply);
    }
}

fn show_together(
    together: Res<Together>,
    room: Res<RoomLink>,
    settings: Res<Settings>,
    mut texts: Query<&mut Text, With<TogetherText>>,
    mut buttons: Query<&mut ButtonLook, With<AloneButton>>,
    drawn: Query<(), Added<TogetherText>>,
) {
    // The line changes only with the room, the choice or the language (or
    // the row is new).
    if !(room.is_changed() || together.is_changed() || settings.is_changed() || !drawn.is_empty()) {
        return;
    }
    let Some(connection) = room.0.as_ref() else {
        return;
    };
    let line = together_line(connection, &together, settings.lang);
    for mut text in &mut texts {
        if text.0 != line {
            text.0.clone_from(&line);
        }
    }
    for mut look in &mut buttons {
        let wanted = ButtonLook::Toggle { on: together.alone };
        if *look != wanted {
            *look = wanted;
        }
    }
}

/// Who moves the room's review, in the player's words.
fn together_line(connection: &RoomConnection, together: &Together, lang: Lang) -> String {
    if together.alone {
        return T::ReviewLookingAlone.get(lang).to_string();
    }
    match connection.review_lead {
        Some((seat, _)) if !connection.seats.contains(&seat) => {
            let name = connection
                .view
                .as_ref()
                .and_then(|v| v.seats.get(seat as usize))
                .map_or(String::new(), |s| s.name.as_str().to_string());
            T::ReviewTogetherLed.fill(lang, &[&name])
        }
        _ if connection.watching => T::ReviewTogetherWatching.get(lang).to_string(),
        _ => T::ReviewTogetherYouLead.get(lang).to_string(),
    }
}
