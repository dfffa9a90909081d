//! まわり将棋 on screen: a setup screen (2–4 seats, each a person here,
//! the CPU or someone far away through a room; 基本, 全部 or 自分で決める rules; 早投げ), the play screen (the board
//! with its 32-square track, the pieces, each player's rank ladder, the
//! koma-dice thrown with a drag and simulated, moves square by square with
//! named banners for the special rules, a throw log, 続きから), and a
//! tutorial of pictures, a practice throw and staged examples. The race and
//! the dice are
//! `crate::rules::mawari`; this module only presents them.
//!
//! - `session`: the match (seats, the throw log) and its save;
//! - `setup`: the setup screen, its draft, names typed and house rules;
//! - `scene`: the board and pieces, and entering and leaving the screen;
//! - `throw`: the person's drag, the CPU's throws, the dice in the air;
//! - `room`: the race played through a room, its throws from the server;
//! - `events`: what a throw did, played event by event with banners;
//! - `panel`: the players' ladders, the log, the buttons, the result;
//! - `replay`, `replay_chart`: 振り返り, a finished game's throws landing
//!   again one by one, and each player's rank over the throws;
//! - `dice_view`, `lesson`: the koma-dice drawn, the tutorial.

pub mod dice_view;
mod events;
pub mod lesson;
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
use crate::shell::widgets::{self, Fonts};

pub use events::BoardMark;
pub use panel::{ResultPanel, ThrowButton};
pub use replay::{Landing, MawariReplay, ReplayLogEntry, ReplayThrow};
pub use replay_chart::{CHART_PAD, RankChart, RankLabel, RankLine, RankMarker, RankPoint};
pub use room::{RoomThrow, room_match};
pub use scene::{Phase, RacePiece, Shown};
pub use session::{LogEntry, MawariMatch, Seat};
pub use setup::{
    HOUSE_KEY, HouseRule, HouseRules, MAX_NAME, MawariBegin, MawariDraft, SETUP_KEY,
    SaveRulesButton, SetupField, SetupNotes, TextFocus, TurnOrder,
};
pub use throw::ThrowRequest;

/// Side of one square on the play screen.
const CELL: f32 = 64.0;
/// The board's centre on a landscape screen.
const BOARD_CENTRE: Vec2 = Vec2::new(-215.0, -22.0);
/// The colours a seat can take: 赤, 青, 緑, 紫, 橙, 茶 (named in
/// `session::COLOUR_NAMES`).
const COLOURS: [Color; 6] = [
    Color::srgb(0.80, 0.18, 0.14),
    Color::srgb(0.16, 0.36, 0.78),
    Color::srgb(0.14, 0.56, 0.28),
    Color::srgb(0.52, 0.24, 0.64),
    Color::srgb(0.92, 0.52, 0.10),
    Color::srgb(0.42, 0.27, 0.15),
];

/// Seat `player`'s colour in match `m`.
fn colour_of(m: &MawariMatch, player: usize) -> Color {
    COLOURS[m.colour(player).min(COLOURS.len() - 1)]
}

/// Seat `player`'s mark in match `m` (its colour's shape).
fn mark_of(m: &MawariMatch, player: usize) -> &'static str {
    session::COLOUR_MARKS[m.colour(player).min(session::COLOUR_MARKS.len() - 1)]
}

/// A seat's colour as a patch with its mark on it, at least `width` ×
/// `height` (more where the text's size draws the mark bigger).
fn seat_patch(fonts: &Fonts, colour: usize, width: f32, height: f32) -> impl Bundle {
    let colour = colour
        .min(COLOURS.len() - 1)
        .min(session::COLOUR_MARKS.len() - 1);
    let mark = session::COLOUR_MARKS[colour];
    (
        widgets::ColourKey(u8::try_from(colour).unwrap_or(u8::MAX)),
        Node {
            min_width: px(width),
            min_height: px(height),
            padding: UiRect::all(px(2)),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            border_radius: BorderRadius::all(px(3)),
            ..default()
        },
        BackgroundColor(COLOURS[colour]),
        children![widgets::text(
            fonts,
            mark,
            // Large enough that the marks' shapes tell the colours apart
            // to a player who does not see them.
            widgets::type_scale::BUTTON,
            Color::WHITE
        )],
    )
}

/// The play screen or the tutorial (both throw).
fn playing() -> impl SystemCondition<()> {
    in_state(Screen::Play).or_else(in_state(Screen::Tutorial))
}

/// The replay of a finished game.
fn replaying() -> impl SystemCondition<()> {
    in_state(Screen::Review).and_then(resource_exists::<replay::MawariReplay>)
}

pub fn plugin(app: &mut App) {
    let chosen = || chosen(GameId::Mawari);
    app.add_message::<ThrowRequest>()
        .add_message::<RoomThrow>()
        .init_resource::<room::ThrowSent>()
        .init_resource::<room::RoomNote>()
        .add_message::<bevy::window::Ime>()
        .init_resource::<setup::StartNotice>()
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
            OnEnter(Screen::Play),
            (scene::enter_play, room::reopen_room).run_if(chosen()),
        )
        .add_systems(
            OnExit(Screen::Play),
            room::leave_finished_room.run_if(chosen()),
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
                (panel::refresh_panel, panel::show_result, quit_on_key)
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
                .run_if(resource_exists::<replay::MawariReplay>),
        )
        .add_systems(OnExit(Screen::Review), replay::leave)
        .add_systems(OnExit(Screen::Play), scene::leave)
        .add_systems(OnExit(Screen::Tutorial), scene::leave)
        .add_systems(Update, resume::handle_resume::<MawariMatch>);
}
