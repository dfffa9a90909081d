//! The play screen, the same for every board game: the board and pieces
//! drawn from the rules state, input (click, tap, drag, keys; a move of
//! several taps for a multi-jump), the CPU's turn, 待った, ヒント, 投了,
//! 跳ぶのをやめる, the capture animation (gold frame, red ring, flight to
//! the 駒台), and the result screen.

mod analysis;
mod animate;
mod commands;
mod hud;
mod input;
mod result;
mod thinking;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::art::{self, Art, Highlight};
use super::board_view::BoardView;
use super::kit::{game_title, game_title_with};
use super::resume::{self, chosen};
use super::session::{Match, MoveMark, Opponent, PieceFace, Playable, Presets};
use crate::rules::board::PointId;
use crate::rules::game::{Outcome, Side};
use crate::rules::taps::{self, Tap};
use crate::shell::anim::{Lifetime, Tween};
use crate::shell::audio::Sfx;
use crate::shell::cpu::{SearchPace, Thinker, ThinkingSlices};
use crate::shell::files::{self, Exported, Imported};
use crate::shell::i18n::{Lang, Localized, T};
use crate::shell::layout::{Layout, PointerInput, panel_node};
use crate::shell::save::Store;
use crate::shell::screens::{localized_game_name, open_from, quit_key};
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, Fonts, palette};
use crate::shell::{BugContext, GameProgress, PendingPosition, Screen};

use analysis::*;
use animate::*;
use commands::*;
use hud::*;
use input::*;
use result::*;
use thinking::*;

pub use analysis::{
    ANALYSIS_LINES, Analysis, AnalysisArrowLabel, AnalysisLine, SHOWN_PLIES, analysis_of,
    begin_analysis,
};
pub use result::{Confetto, PlayAgainButton};

/// A click or tap on a board point (from the pointer, or from tests).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardTap(pub PointId);

/// A right click or a long press on a board point: show the help of the
/// piece there, whoever's it is, without selecting it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardInspect(pub PointId);

/// A play-screen command (buttons and keys).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayCommand {
    Undo,
    Hint,
    Resign,
    Quit,
    ToggleSound,
    /// 跳ぶのをやめる: end a multi-jump where the piece stands.
    StopJump,
    /// 局面を書き出す: the position as text to copy (games that have one).
    ExportPosition,
    /// 局面を読み込む: start over from a position text.
    ImportPosition,
    /// 検討 from the position shown (the game is kept).
    Analyse,
    /// Leave 検討 for where it was opened from.
    LeaveAnalysis,
}

/// The player's answer when the taps left a choice (成る / 成らない, a
/// pass): the index of the move offered, or `None` to take none.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChoicePick(pub Option<usize>);

/// The panel that offers the choice (tests find its buttons by index).
#[derive(Component)]
struct ChoicePanel;

/// A button of the choice panel.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChoiceButton(pub Option<usize>);

/// The form picked to export the game in (an index of
/// [`Playable::export_forms`]), or `None` to export nothing.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportPick(pub Option<usize>);

/// The panel that offers the export forms.
#[derive(Component)]
struct ExportPanel;

/// A button of the export panel (tests find it by its form).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportButton(pub Option<usize>);

/// A move to play (from the player or the CPU).
#[derive(Message)]
pub struct PlayMove<G: Playable>(pub G::Move);

/// A piece on the board, at a point.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub point: PointId,
    pub side: Side,
}

/// The face a piece was drawn with, so that a settled board redraws only
/// the pieces that changed (a promotion changes the face).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct ShownFace(Option<PieceFace>);

/// Selection, destinations, last move and hint marks (redrawn on change).
#[derive(Component, Clone)]
struct Marker;

/// The captured pieces shown on a stand (redrawn on sync).
#[derive(Component)]
struct StandContent;

#[derive(Component)]
struct TurnText;
#[derive(Component)]
struct ScoreText;
#[derive(Component)]
struct NoticeText;
#[derive(Component)]
struct ClockText;
#[derive(Component)]
struct MovesText;
/// 棋譜, over the record (empty before the first move).
#[derive(Component)]
struct RecordHeading;
/// The box the record scrolls in.
#[derive(Component)]
struct RecordBox;
#[derive(Component)]
struct SoundButton;

/// The selected piece's help under the buttons (games that give it).
#[derive(Component)]
struct PieceInfoBox;
#[derive(Component)]
struct PieceInfoName;
#[derive(Component)]
struct PieceInfoDetails;
/// A square of the movement diagram: row, column.
#[derive(Component)]
struct MoveCell(usize, usize);

/// Tags a HUD button with its command (tests find buttons by it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandButton(pub PlayCommand);

/// What the play screen is doing.
#[derive(Resource, Debug)]
pub struct PlayUi<G: Playable> {
    /// The points tapped so far: the selected piece, then each landing of
    /// a move still being made. Empty when nothing is selected.
    pub path: Vec<PointId>,
    pub last_move: Option<G::Move>,
    pub hint: Option<G::Move>,
    pub notice: Option<T>,
    /// The moves offered when the taps completed a path that more than one
    /// move takes, or a pass; empty when nothing is asked.
    pub choice: Vec<G::Move>,
    /// A message with details (where an export went, why an import
    /// failed), under the notice.
    pub message: Option<String>,
    /// 局面を書き出す is asking which form to write.
    pub choosing_export: bool,
    /// The piece whose help is shown without being selected (a right
    /// click or a long press on it).
    pub inspected: Option<PointId>,
    /// Marks need redrawing.
    dirty: bool,
    /// The pieces are rebuilt from the rules once animations finish.
    pub(crate) pending_sync: bool,
    /// Seconds of celebration left before the result screen.
    end_timer: Option<f32>,
    /// Where a drag started.
    drag_from: Option<PointId>,
    /// A piece is being dragged (it follows the pointer).
    dragging: bool,
    /// Where the keyboard's cursor stands (once an arrow key was pressed).
    pub cursor: Option<PointId>,
}

impl<G: Playable> Default for PlayUi<G> {
    fn default() -> Self {
        PlayUi {
            path: Vec::new(),
            last_move: None,
            hint: None,
            notice: None,
            choice: Vec::new(),
            message: None,
            choosing_export: false,
            inspected: None,
            dirty: false,
            pending_sync: false,
            end_timer: None,
            drag_from: None,
            dragging: false,
            cursor: None,
        }
    }
}

impl<G: Playable> PlayUi<G> {
    /// True while the view may differ from the rules (a move is being shown).
    pub fn is_settling(&self) -> bool {
        self.pending_sync || self.end_timer.is_some()
    }
    /// The selected piece, if any.
    pub fn selected(&self) -> Option<PointId> {
        self.path.first().copied()
    }
    /// The record changed under the view (待った, an imported position):
    /// drop the selection, hint and notices, and redraw from the rules.
    pub(crate) fn record_replaced(&mut self, last_move: Option<G::Move>) {
        self.path.clear();
        self.choice.clear();
        self.hint = None;
        self.notice = None;
        self.inspected = None;
        self.last_move = last_move;
        self.pending_sync = true;
        self.dirty = true;
    }

    pub(crate) fn clear_selection(&mut self) {
        if !self.choice.is_empty() {
            self.choice.clear();
            self.pending_sync = true;
            self.dirty = true;
        }
        if !self.path.is_empty() {
            // A piece moved along part of a path goes back to its point.
            self.pending_sync |= self.path.len() > 1;
            self.path.clear();
            self.dirty = true;
        }
    }
}

#[derive(Resource)]
pub struct CpuThink<G: Playable>(Option<Thinker<G>>);

#[derive(Resource)]
pub struct HintThink<G: Playable>(Option<Thinker<G>>);

impl<G: Playable> Default for CpuThink<G> {
    fn default() -> Self {
        CpuThink(None)
    }
}
impl<G: Playable> Default for HintThink<G> {
    fn default() -> Self {
        HintThink(None)
    }
}

/// The finished game, for the result screen.
#[derive(Resource, Clone, Debug)]
pub struct LastResult<G: Playable> {
    pub outcome: Outcome,
    /// Words for how it ended.
    pub reason: T,
    pub setup: super::session::MatchSetup<G::Rules>,
    pub plies: usize,
    /// A line under the reason (the point totals of a cutoff).
    pub detail: Option<String>,
}

pub(crate) type Animating<'w, 's> = Query<'w, 's, (), Or<(With<Tween>, With<Lifetime>)>>;

/// Height of a piece moving along its path, above those standing.
const MOVING_Z: f32 = 5.0;

/// Seconds a piece takes to slide one move.
const SLIDE: f32 = 0.22;
/// Seconds per hop of a jump.
const HOP: f32 = 0.32;

pub fn plugin<G: Playable>(app: &mut App) {
    app.add_message::<PlayMove<G>>()
        .init_resource::<PlayUi<G>>()
        .init_resource::<CpuThink<G>>()
        .init_resource::<HintThink<G>>()
        .add_systems(OnEnter(Screen::Play), enter_play::<G>.run_if(chosen(G::ID)))
        .add_systems(OnExit(Screen::Play), leave_play::<G>)
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
                    .chain(),
                (
                    super::remote::sync_remote::<G>,
                    poll_hint::<G>,
                    apply_moves::<G>,
                    super::remote::send_remote::<G>,
                    settle::<G>,
                    analyse::<G>,
                    redraw_markers::<G>,
                    show_choice::<G>,
                    show_export_choice::<G>,
                    update_hud::<G>,
                    show_analysis::<G>,
                    update_piece_info::<G>,
                )
                    .chain(),
            )
                .chain()
                .after(keyboard_input)
                .run_if(in_state(Screen::Play))
                .run_if(chosen(G::ID))
                .run_if(resource_exists::<Match<G>>),
        )
        .add_systems(
            Update,
            super::card_picture::fill::<G>.run_if(in_state(Screen::GameList)),
        )
        .add_systems(
            OnEnter(Screen::Result),
            spawn_result::<G>
                .run_if(resource_exists::<LastResult<G>>)
                .run_if(chosen(G::ID)),
        );
}

/// What the play screen needs once, whatever the game.
pub fn shared_plugin(app: &mut App) {
    app.add_message::<BoardTap>()
        .add_message::<BoardInspect>()
        .add_message::<PlayCommand>()
        .add_message::<ChoicePick>()
        .add_message::<ExportPick>()
        .add_systems(Update, keyboard_input.run_if(in_state(Screen::Play)))
        .add_systems(
            Update,
            result::fall_confetti.run_if(in_state(Screen::Result)),
        );
}

/// The board's place on the play and tutorial screens.
pub fn board_view<G: Playable>(game: &G, flipped: bool, layout: Layout) -> BoardView {
    BoardView::new(game.graph(), layout.board_center, G::CELL, flipped)
}

/// The layout of `game`'s board in `window`.
pub fn layout_for<G: Playable>(game: &G, window: Option<&Window>) -> Layout {
    let probe = BoardView::new(game.graph(), Vec2::ZERO, G::CELL, false);
    Layout::for_window(window, probe.half_size())
}

fn stand_center(view: &BoardView, side: Side, bottom: Side) -> Vec2 {
    let half = view.half_size();
    let x = view.center.x + half.x + 125.0;
    if side == bottom {
        Vec2::new(x, view.center.y - half.y + 70.0)
    } else {
        Vec2::new(x, view.center.y + half.y - 70.0)
    }
}

/// How a piece of `side` is turned when `bottom` plays from the bottom.
pub fn piece_rotation<G: Playable>(side: Side, bottom: Side) -> Quat {
    art::facing(!G::TURN_TOP_PIECES || side == bottom)
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
    let view = board_view(
        &m.game,
        G::TURN_BOARD && m.setup.bottom_side() == Side::Second,
        layout,
    );
    m.game.spawn_board(
        &mut commands,
        &view,
        &fonts,
        &settings,
        DespawnOnExit(Screen::Play),
    );
    let bottom = m.setup.bottom_side();
    let pos = m.record.current();
    for side in Side::BOTH {
        // A portrait window has no room beside the board for the 駒台: the
        // status line counts the captures.
        if m.game.taken_by(pos, side).is_none() || layout.panel_top.is_some() {
            continue;
        }
        let c = stand_center(&view, side, bottom);
        art::spawn_stand(
            &mut commands,
            DespawnOnExit(Screen::Play),
            c,
            Vec2::new(160.0, 120.0),
        );
    }
    commands.insert_resource(view);
    commands.insert_resource(layout);
    let analysis_back_to = analysis.map(|a| a.back_to);
    spawn_hud(
        &mut commands,
        &fonts,
        settings.lang,
        m,
        layout,
        analysis_back_to,
    );
}

fn leave_play<G: Playable>(mut cpu: ResMut<CpuThink<G>>, mut hint: ResMut<HintThink<G>>) {
    // Dropping a thinker cancels its search.
    cpu.0 = None;
    hint.0 = None;
}
