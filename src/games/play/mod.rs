//! The play screen, the same for every board game: the board and pieces
//! drawn from the rules state, input (click, tap, drag, keys; a move of
//! several taps for a multi-jump), the CPU's turn, 待った, ヒント, 投了,
//! 跳ぶのをやめる, the capture animation (gold frame, red ring, flight to
//! the 駒台), and the result screen.
//!
//! This file is the folder's top: it puts the parts together and opens
//! the screen. The parts build on `state` and on one another, never on
//! this file; a game through a room joins the screen's frame from above
//! (`PlayStep`), and 振り返る asks for the review by an event
//! (`ReviewAsked`).

mod analysis;
mod animate;
mod commands;
mod hud;
mod input;
mod result;
mod state;
mod thinking;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::art;
use super::board_place::{board_view, changed_layout, despawn_screen, layout_for, window_reshaped};
use super::resume::chosen;
use super::session::{Match, Playable};
use crate::rules::game::Side;
use crate::shell::i18n::T;
use crate::shell::layout::{CameraArea, Layout};
use crate::shell::settings::Settings;
use crate::shell::widgets::Fonts;
use crate::shell::{PendingPosition, Screen};

use analysis::{analyse, analysis_commands, show_analysis};
use animate::{apply_moves, redraw_markers, settle};
use commands::{
    handle_choice, handle_commands, handle_export_pick, show_choice, show_export_choice,
};
use hud::{spawn_hud, update_hud, update_piece_info};
use input::{
    drag_piece, handle_inspect, handle_taps, inspect_input, keyboard_cursor, keyboard_input,
    pointer_input,
};
use result::spawn_result;
use state::stand_center;
use thinking::{cpu_turn, poll_hint, tick_clock};

pub use analysis::{
    ANALYSIS_LINES, Analysis, AnalysisArrowLabel, AnalysisLine, SHOWN_PLIES, analysis_of,
    begin_analysis,
};
pub use result::{Confetto, OpenReviewButton, PlayAgainButton, RematchOfferText, ReviewAsked};
pub(crate) use state::Animating;
pub use state::{
    BoardInspect, BoardTap, ChoiceButton, ChoicePick, CommandButton, CpuThink, ExportButton,
    ExportPick, HintThink, LastResult, PieceView, PlayCommand, PlayMove, PlayStep, PlayUi,
};

pub fn plugin<G: Playable>(app: &mut App) {
    app.add_message::<PlayMove<G>>()
        .init_resource::<PlayUi<G>>()
        .init_resource::<CpuThink<G>>()
        .init_resource::<HintThink<G>>()
        .add_systems(OnEnter(Screen::Play), enter_play::<G>.run_if(chosen(G::ID)))
        .add_systems(OnExit(Screen::Play), leave_play::<G>)
        .add_systems(
            Update,
            relayout_play::<G>
                .before(PlayStep::Input)
                .run_if(in_state(Screen::Play))
                .run_if(chosen(G::ID))
                .run_if(resource_exists::<Match<G>>),
        )
        .add_systems(
            Update,
            (
                (
                    pointer_input::<G>,
                    keyboard_cursor::<G>,
                    inspect_input::<G>,
                    handle_taps::<G>,
                    handle_inspect::<G>,
                    handle_choice::<G>,
                    handle_export_pick::<G>,
                    drag_piece::<G>,
                    handle_commands::<G>,
                    analysis_commands::<G>,
                    tick_clock::<G>,
                    cpu_turn::<G>,
                )
                    .chain()
                    .in_set(PlayStep::Input),
                (poll_hint::<G>, apply_moves::<G>)
                    .chain()
                    .in_set(PlayStep::Play),
                (
                    settle::<G>,
                    analyse::<G>,
                    redraw_markers::<G>,
                    show_choice::<G>,
                    show_export_choice::<G>,
                    update_hud::<G>,
                    show_analysis::<G>,
                    update_piece_info::<G>,
                )
                    .chain()
                    .in_set(PlayStep::Show),
            )
                .run_if(chosen(G::ID))
                .run_if(resource_exists::<Match<G>>),
        )
        .add_systems(
            OnEnter(Screen::Result),
            spawn_result::<G>
                .run_if(resource_exists::<LastResult<G>>)
                .run_if(chosen(G::ID)),
        );
}

/// What the play screen needs once, whatever the game: its messages, the
/// keys, the order of its frame's steps, and the confetti.
pub fn shared_plugin(app: &mut App) {
    app.add_message::<BoardTap>()
        .add_message::<BoardInspect>()
        .add_message::<PlayCommand>()
        .add_message::<ChoicePick>()
        .add_message::<ExportPick>()
        .configure_sets(
            Update,
            (
                PlayStep::Input,
                PlayStep::Arrive,
                PlayStep::Play,
                PlayStep::Depart,
                PlayStep::Show,
            )
                .chain()
                .after(keyboard_input)
                .run_if(in_state(Screen::Play)),
        )
        .add_systems(Update, keyboard_input.run_if(in_state(Screen::Play)))
        .add_systems(
            Update,
            (result::fall_confetti, result::show_rematch_offers).run_if(in_state(Screen::Result)),
        );
}

#[allow(clippy::too_many_arguments)]
fn enter_play<G: Playable>(
    mut commands: Commands,
    mut m: ResMut<Match<G>>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    mut ui: ResMut<PlayUi<G>>,
    mut cpu: ResMut<CpuThink<G>>,
    mut hint: ResMut<HintThink<G>>,
    mut pending: ResMut<PendingPosition>,
    analysis: Option<Res<Analysis<G>>>,
    windows: Query<&Window, With<PrimaryWindow>>,
) {
    *ui = PlayUi {
        last_move: m.record.moves().last().copied(),
        dirty: true,
        pending_sync: true,
        ..default()
    };
    // A position from the command line or the page starts the first new
    // game; a bad one is explained and the usual start is kept.
    if m.record.ply() == 0
        && m.game.position_code(m.record.current()).is_some()
        && let Some(text) = pending.0.take()
    {
        let lang = settings.lang;
        ui.message = Some(match m.restart_from(&text) {
            Ok(()) => T::PositionImported.get(lang).to_string(),
            Err(e) => format!("{}: {e}", T::PositionUnreadable.get(lang)),
        });
    }
    let m = m.into_inner();
    cpu.0 = None;
    hint.0 = None;
    let layout = layout_for(&m.game, windows.single().ok());
    let analysis_back_to = analysis.map(|a| a.back_to);
    spawn_view(
        &mut commands,
        &fonts,
        &settings,
        m,
        layout,
        analysis_back_to,
    );
}

/// The board, its stands and the panel for `layout`, with the resources
/// that say where they stand; the pieces and marks follow from the rules
/// once `PlayUi` asks for them (`settle`, `redraw_markers`).
fn spawn_view<G: Playable>(
    commands: &mut Commands,
    fonts: &Fonts,
    settings: &Settings,
    m: &Match<G>,
    layout: Layout,
    analysis_back_to: Option<Screen>,
) {
    let view = board_view(
        &m.game,
        G::TURN_BOARD && m.setup.bottom_side() == Side::Second,
        layout,
    );
    m.game.spawn_board(
        commands,
        &view,
        fonts,
        settings,
        DespawnOnExit(Screen::Play),
    );
    let bottom = m.setup.bottom_side();
    let pos = m.record.current();
    for side in Side::BOTH {
        if m.game.taken_by(pos, side).is_none() || !layout.has_stands() {
            continue;
        }
        let c = stand_center(&view, side, bottom);
        art::spawn_stand(
            commands,
            DespawnOnExit(Screen::Play),
            c,
            Vec2::new(160.0, 120.0),
        );
    }
    commands.insert_resource(view);
    commands.insert_resource(layout);
    commands.insert_resource(CameraArea(layout.shown));
    spawn_hud(commands, fonts, settings.lang, m, layout, analysis_back_to);
}

/// A phone turned mid-game, or a window given another shape: the screen
/// is laid out again for it (the board at the top or beside the panel, the
/// camera on the board), the game, its selection and the CPU's reading
/// untouched. Waits for a move being shown to land.
#[allow(clippy::too_many_arguments)]
fn relayout_play<G: Playable>(
    mut commands: Commands,
    windows: Query<&Window, With<PrimaryWindow>>,
    m: Res<Match<G>>,
    layout: Res<Layout>,
    mut ui: ResMut<PlayUi<G>>,
    animating: Animating,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    analysis: Option<Res<Analysis<G>>>,
    scoped: Query<(Entity, &DespawnOnExit<Screen>)>,
    mut seen: Local<Option<Vec2>>,
    mut reshaped: Local<bool>,
) {
    *reshaped |= window_reshaped(&windows, &mut seen);
    if !*reshaped || !animating.is_empty() || ui.is_settling() {
        return;
    }
    *reshaped = false;
    let Some(fresh) = changed_layout(&m.game, &windows, &layout) else {
        return;
    };
    despawn_screen(&mut commands, &scoped, Screen::Play);
    let analysis_back_to = analysis.map(|a| a.back_to);
    spawn_view(
        &mut commands,
        &fonts,
        &settings,
        &m,
        fresh,
        analysis_back_to,
    );
    ui.pending_sync = true;
    ui.dirty = true;
}

fn leave_play<G: Playable>(mut cpu: ResMut<CpuThink<G>>, mut hint: ResMut<HintThink<G>>) {
    // Dropping a thinker cancels its search.
    cpu.0 = None;
    hint.0 = None;
}
