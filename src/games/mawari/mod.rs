//! まわり将棋 on screen: a setup screen (2–4 seats, each a person here,
//! the CPU or someone far away through a room; 基本, 全部 or 自分で決める rules; 早投げ), the play screen (the board
//! with its 32-square track, the pieces, each player's rank ladder, the
//! koma-dice thrown with a drag and simulated, moves square by square with
//! named banners for the special rules, a throw log, 続きから), and a
//! tutorial of pictures, a practice throw and staged examples. The race and
//! the dice are
//! `crate::rules::mawari`; this module only presents them.
//!
//! The folder is laid in floors: each module imports only those above it
//! in this list, and this file, which puts them together, is imported by
//! none of them.
//!
//! - `session`: the match (seats, the throw log), its save, and the
//!   setup's draft;
//! - `dice_view`: the koma-dice drawn, and a picture of four poses;
//! - `look`: a square's size, the board's place, each seat's colour and
//!   mark;
//! - `scene`: the board and pieces, what the screen is doing and showing,
//!   entering and leaving it;
//! - `finished`: a finished race kept, and replayed throw by throw;
//! - `throw`: the person's drag, the CPU's throws, the dice in the air;
//! - `events`: what a throw did, played event by event with banners;
//! - `panel`: the players' ladders, the log, the buttons, the result; the
//!   frame the tutorial draws in, the room's note, and 振り返る's event;
//! - `lesson`: the tutorial;
//! - `room`: the race played through a room, its throws from the server;
//! - `replay_chart`, `replay`: 振り返り, each player's rank over the
//!   throws, and a finished game's throws landing again one by one;
//! - `setup`: the setup screen, names typed and house rules;
//! - `title`: the throws on the title and the game's card.

pub mod dice_view;
mod events;
mod finished;
pub mod lesson;
mod look;
mod panel;
mod replay;
mod replay_chart;
mod room;
mod scene;
mod session;
mod setup;
mod throw;
pub mod title;

use bevy::prelude::*;

use super::resume::{self, chosen};
use crate::rules::data::GameId;
use crate::shell::Screen;
use crate::shell::screens::quit_on_key;

pub use events::BoardMark;
pub use finished::{Landing, MawariReplay, ReplayThrow};
pub use panel::{ResultPanel, ThrowButton};
pub use replay::ReplayLogEntry;
pub use replay_chart::{CHART_PAD, RankChart, RankLabel, RankLine, RankMarker, RankPoint};
pub use room::room_match;
pub use scene::{Phase, RacePiece, Shown};
pub use session::{LogEntry, MAX_NAME, MawariDraft, MawariMatch, Seat, TurnOrder};
pub use setup::{
    HOUSE_KEY, HouseRule, HouseRules, MawariBegin, SETUP_KEY, SaveRulesButton, SetupField,
    SetupNotes, TextFocus,
};
pub use throw::{RoomThrow, ThrowRequest};

/// The play screen or the tutorial (both throw).
fn playing() -> impl SystemCondition<()> {
    in_state(Screen::Play).or_else(in_state(Screen::Tutorial))
}

/// The replay of a finished game.
fn replaying() -> impl SystemCondition<()> {
    in_state(Screen::Review).and_then(resource_exists::<MawariReplay>)
}

pub fn plugin(app: &mut App) {
    let chosen = || chosen(GameId::Mawari);
    app.add_message::<ThrowRequest>()
        .add_message::<RoomThrow>()
        .init_resource::<room::ThrowSent>()
        .init_resource::<panel::RoomNote>()
        .add_message::<bevy::window::Ime>()
        .init_resource::<scene::StartNotice>()
        .add_observer(replay::open_from_result)
        .init_resource::<SetupNotes>()
        .init_resource::<TextFocus>()
        .add_systems(OnEnter(Screen::Setup), setup::spawn.run_if(chosen()))
        .add_systems(
            Update,
            (setup::begin_on_enter, setup::type_text, setup::rebuild)
                .chain()
                .run_if(in_state(Screen::Setup))
                .run_if(chosen()),
        )
        .add_systems(OnEnter(Screen::Title), title::enter_title)
        .add_systems(
            Update,
            (
                title::play_title_throw
                    .run_if(in_state(Screen::Title))
                    .run_if(resource_exists::<title::TitleThrow>),
                title::fill_card.run_if(in_state(Screen::GameList)),
            ),
        )
        .add_systems(
            Update,
            (room::describe_room_rules, room::begin_room_match)
                .run_if(in_state(Screen::Lobby))
                .run_if(chosen()),
        )
        .add_systems(
            Update,
            room::offer_next_rules.run_if(in_state(Screen::Lobby)),
        )
        .add_systems(
            OnEnter(Screen::Play),
            (scene::enter_play, room::reopen_room).run_if(chosen()),
        )
        .add_systems(OnEnter(Screen::Tutorial), lesson::enter.run_if(chosen()))
        .add_systems(
            Update,
            (
                (
                    throw::skip_dead_turns,
                    throw::throw_gesture,
                    throw::throw_key,
                    throw::cpu_throws,
                    room::take_room_events,
                    room::send_throws,
                    throw::start_throw,
                )
                    .chain()
                    .run_if(playing()),
                replay::handle_commands.run_if(replaying()),
                // A throw shown, in play and in the replay alike.
                (
                    throw::play_throw,
                    events::play_events,
                    events::place_pieces,
                    events::show_marks,
                )
                    .chain(),
                (
                    panel::refresh_panel.run_if(not(resource_exists::<lesson::LessonState>)),
                    lesson::refresh_panel.run_if(resource_exists::<lesson::LessonState>),
                    panel::show_result,
                    quit_on_key,
                )
                    .chain()
                    .run_if(playing()),
                (replay::update_panel, replay_chart::fit_rank_chart).run_if(replaying()),
            )
                .chain()
                .run_if(playing().or_else(in_state(Screen::Review)))
                .run_if(chosen())
                .run_if(resource_exists::<MawariMatch>),
        )
        .add_systems(
            Update,
            (
                lesson::draw_step.before(throw::skip_dead_turns),
                lesson::play_staged_throws
                    .after(throw::start_throw)
                    .before(events::play_events),
                lesson::practice_throws
                    .after(throw::start_throw)
                    .before(throw::play_throw),
            )
                .run_if(in_state(Screen::Tutorial))
                .run_if(chosen())
                .run_if(resource_exists::<lesson::LessonState>),
        )
        .add_systems(Update, replay::open_requested)
        .add_systems(
            OnEnter(Screen::Review),
            (replay::enter, replay::spawn_panel, replay::show_first)
                .chain()
                .run_if(chosen())
                .run_if(resource_exists::<MawariReplay>),
        )
        .add_systems(OnExit(Screen::Review), replay::leave)
        .add_systems(OnExit(Screen::Play), (scene::leave, lesson::leave))
        .add_systems(OnExit(Screen::Tutorial), (scene::leave, lesson::leave))
        .add_systems(Update, resume::handle_resume::<MawariMatch>);
}
