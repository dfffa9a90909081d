//! What the play screen's parts share, at the bottom of the folder: the
//! messages its input, buttons and the CPU send, the marks on its
//! entities, what the screen is doing (`PlayUi`), the thinkers, the
//! finished game for the result screen, and the steps of its frame, which
//! a floor above (a game through a room) joins. The parts import this
//! module and one another, never the folder's `mod.rs`.

use bevy::prelude::*;

use crate::games::board_view::BoardView;
use crate::games::session::{MatchSetup, PieceFace, Playable};
use crate::rules::board::PointId;
use crate::rules::game::{Outcome, Side};
use crate::shell::anim::{Lifetime, Tween};
use crate::shell::cpu::Thinker;
use crate::shell::i18n::T;

/// The play screen's frame, step by step, in this order. The screen's own
/// systems fill `Input`, `Play` and `Show`; a game through a room takes
/// the room's moves in at `Arrive` (before the moves are played) and sends
/// this device's on at `Depart`, without the play screen naming it.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayStep {
    /// The pointer, the keys, the buttons, the clock and the CPU's turn.
    Input,
    /// Moves that come from elsewhere.
    Arrive,
    /// The hint read, and the moves played into the record.
    Play,
    /// This device's moves sent on.
    Depart,
    /// The board settled and redrawn, the panel updated.
    Show,
}

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
pub(super) struct ChoicePanel;

/// A button of the choice panel.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChoiceButton(pub Option<usize>);

/// The form picked to export the game in (an index of
/// [`Playable::export_forms`]), or `None` to export nothing.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportPick(pub Option<usize>);

/// The panel that offers the export forms.
#[derive(Component)]
pub(super) struct ExportPanel;

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
pub(super) struct ShownFace(pub(super) Option<PieceFace>);

/// Selection, destinations, last move and hint marks (redrawn on change).
#[derive(Component, Clone)]
pub(super) struct Marker;

/// The captured pieces shown on a stand (redrawn on sync).
#[derive(Component)]
pub(super) struct StandContent;

#[derive(Component)]
pub(super) struct TurnText;
#[derive(Component)]
pub(super) struct ScoreText;
#[derive(Component)]
pub(super) struct NoticeText;
#[derive(Component)]
pub(super) struct ClockText;
#[derive(Component)]
pub(super) struct MovesText;
/// 棋譜, over the record (empty before the first move).
#[derive(Component)]
pub(super) struct RecordHeading;
/// The box the record scrolls in.
#[derive(Component)]
pub(super) struct RecordBox;
#[derive(Component)]
pub(super) struct SoundButton;

/// The selected piece's help under the buttons (games that give it).
#[derive(Component)]
pub(super) struct PieceInfoBox;
#[derive(Component)]
pub(super) struct PieceInfoName;
#[derive(Component)]
pub(super) struct PieceInfoDetails;
/// A square of the movement diagram: row, column.
#[derive(Component)]
pub(super) struct MoveCell(pub(super) usize, pub(super) usize);

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
    pub(super) dirty: bool,
    /// The pieces are rebuilt from the rules once animations finish.
    pub(crate) pending_sync: bool,
    /// Seconds of celebration left before the result screen.
    pub(super) end_timer: Option<f32>,
    /// Where a drag started.
    pub(super) drag_from: Option<PointId>,
    /// A piece is being dragged (it follows the pointer).
    pub(super) dragging: bool,
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
pub struct CpuThink<G: Playable>(pub(super) Option<Thinker<G>>);

#[derive(Resource)]
pub struct HintThink<G: Playable>(pub(super) Option<Thinker<G>>);

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
    pub setup: MatchSetup<G::Rules>,
    pub plies: usize,
    /// A line under the reason (the point totals of a cutoff).
    pub detail: Option<String>,
}

pub(crate) type Animating<'w, 's> = Query<'w, 's, (), Or<(With<Tween>, With<Lifetime>)>>;

/// Height of a piece moving along its path, above those standing.
pub(super) const MOVING_Z: f32 = 5.0;

/// Seconds a piece takes to slide one move.
pub(super) const SLIDE: f32 = 0.22;
/// Seconds per hop of a jump.
pub(super) const HOP: f32 = 0.32;

/// The centre of `side`'s 駒台, beside the board.
pub(super) fn stand_center(view: &BoardView, side: Side, bottom: Side) -> Vec2 {
    let half = view.half_size();
    let x = view.center.x + half.x + 125.0;
    if side == bottom {
        Vec2::new(x, view.center.y - half.y + 70.0)
    } else {
        Vec2::new(x, view.center.y + half.y - 70.0)
    }
}
