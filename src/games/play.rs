//! The play screen, the same for every board game: the board and pieces
//! drawn from the rules state, input (click, tap, drag, keys; a move of
//! several taps for a multi-jump), the CPU's turn, 待った, ヒント, 投了,
//! 跳ぶのをやめる, the capture animation (gold frame, red ring, flight to
//! the 駒台), and the result screen.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::art::{self, Art, Highlight};
use super::board_view::BoardView;
use super::session::{Match, MoveMark, Opponent, PieceFace, Playable, Presets, chosen};
use crate::app::anim::{Lifetime, Tween};
use crate::app::audio::Sfx;
use crate::app::cpu::{SearchPace, Thinker, ThinkingSlices};
use crate::app::files::{self, Exported, Imported};
use crate::app::i18n::{Lang, Localized, T};
use crate::app::save::Store;
use crate::app::screens::{localized_game_name, open_from};
use crate::app::settings::Settings;
use crate::app::widgets::{self, Fonts, palette};
use crate::app::{BugContext, GameProgress, PendingPosition, Screen};
use crate::rules::board::PointId;
use crate::rules::game::{Outcome, Side};
use crate::rules::taps::{self, Tap};

/// A click or tap on a board point (from the pointer, or from tests).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardTap(pub PointId);

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
    /// Marks need redrawing.
    dirty: bool,
    /// The pieces are rebuilt from the rules once animations finish.
    pending_sync: bool,
    /// Seconds of celebration left before the result screen.
    end_timer: Option<f32>,
    /// Where a drag started.
    drag_from: Option<PointId>,
    /// A piece is being dragged (it follows the pointer).
    dragging: bool,
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
            dirty: false,
            pending_sync: false,
            end_timer: None,
            drag_from: None,
            dragging: false,
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
    fn record_replaced(&mut self, last_move: Option<G::Move>) {
        self.path.clear();
        self.choice.clear();
        self.hint = None;
        self.notice = None;
        self.last_move = last_move;
        self.pending_sync = true;
        self.dirty = true;
    }

    fn clear_selection(&mut self) {
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

type Animating<'w, 's> = Query<'w, 's, (), Or<(With<Tween>, With<Lifetime>)>>;

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
        .add_systems(OnEnter(Screen::Play), enter_play::<G>.run_if(chosen::<G>))
        .add_systems(OnExit(Screen::Play), leave_play::<G>)
        .add_systems(
            Update,
            (
                pointer_input::<G>,
                handle_taps::<G>,
                handle_choice::<G>,
                drag_piece::<G>,
                handle_commands::<G>,
                tick_clock::<G>,
                cpu_turn::<G>,
                poll_hint::<G>,
                apply_moves::<G>,
                settle::<G>,
                redraw_markers::<G>,
                show_choice::<G>,
                update_hud::<G>,
                update_piece_info::<G>,
            )
                .chain()
                .after(keyboard_input)
                .run_if(in_state(Screen::Play))
                .run_if(chosen::<G>)
                .run_if(resource_exists::<Match<G>>),
        )
        .add_systems(
            OnEnter(Screen::Result),
            spawn_result::<G>
                .run_if(resource_exists::<LastResult<G>>)
                .run_if(chosen::<G>),
        );
}

/// What the play screen needs once, whatever the game.
pub fn shared_plugin(app: &mut App) {
    app.add_message::<BoardTap>()
        .add_message::<PlayCommand>()
        .add_message::<ChoicePick>()
        .add_systems(Startup, art::make_art)
        .add_systems(Update, keyboard_input.run_if(in_state(Screen::Play)));
}

/// Where the board and the side panel go: the panel on the right in a
/// landscape window; in a portrait one (a phone) the board at the top,
/// the panel below it from `panel_top` (a fraction of the height).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub board_center: Vec2,
    /// `None` in landscape.
    pub panel_top: Option<f32>,
}

impl Layout {
    /// The layout for a board of half-size `half` in `window` (none in
    /// headless runs: landscape).
    pub fn for_window(window: Option<&Window>, half: Vec2) -> Layout {
        let portrait = window.is_some_and(crate::app::is_portrait);
        if !portrait {
            return Layout {
                board_center: Vec2::new(-190.0, 0.0),
                panel_top: None,
            };
        }
        let area = crate::app::visible_area(window);
        // The board at the top with room for the file numbers above it.
        let top = area.y / 2.0 - 40.0;
        // A little left of the middle: the rank numbers stand on the right.
        let center = Vec2::new(-18.0, top - half.y);
        let bottom = center.y - half.y - 30.0;
        Layout {
            board_center: center,
            panel_top: Some(((area.y / 2.0 - bottom) / area.y).clamp(0.3, 0.8)),
        }
    }
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

/// The side panel's node: on the right, or below the board (portrait).
pub fn panel_node(layout: Layout, width: f32) -> Node {
    match layout.panel_top {
        None => Node {
            position_type: PositionType::Absolute,
            right: px(0),
            top: px(0),
            width: px(width),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            padding: UiRect::all(px(12)),
            row_gap: px(8),
            ..default()
        },
        Some(top) => Node {
            position_type: PositionType::Absolute,
            left: px(0),
            right: px(0),
            top: percent(top * 100.0),
            bottom: px(0),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            padding: UiRect::all(px(8)),
            row_gap: px(6),
            ..default()
        },
    }
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
    m.game
        .spawn_board(&mut commands, &view, &fonts, DespawnOnExit(Screen::Play));
    let bottom = m.setup.bottom_side();
    let pos = m.record.current();
    for side in Side::BOTH {
        // A portrait window has no room beside the board for the 駒台: the
        // status line counts the captures.
        if m.game.taken_by(pos, side).is_none() || layout.panel_top.is_some() {
            continue;
        }
        let c = stand_center(&view, side, bottom);
        commands.spawn((
            DespawnOnExit(Screen::Play),
            Sprite::from_color(Color::srgb(0.80, 0.62, 0.38), Vec2::new(160.0, 120.0)),
            Transform::from_translation(c.extend(-2.0)),
        ));
    }
    commands.insert_resource(view);
    commands.insert_resource(layout);
    spawn_hud(&mut commands, &fonts, settings.lang, m, layout);
}

fn leave_play<G: Playable>(mut cpu: ResMut<CpuThink<G>>, mut hint: ResMut<HintThink<G>>) {
    // Dropping a thinker cancels its search.
    cpu.0 = None;
    hint.0 = None;
}

/// The 跳ぶのをやめる button (shown only mid-jump).
#[derive(Component)]
struct StopJumpButton;

fn spawn_hud<G: Playable>(
    commands: &mut Commands,
    fonts: &Fonts,
    lang: Lang,
    m: &Match<G>,
    layout: Layout,
) {
    commands
        .spawn((DespawnOnExit(Screen::Play), panel_node(layout, 270.0)))
        .with_children(|panel| {
            panel.spawn(widgets::text(
                fonts,
                localized_game_name(G::ID, lang),
                28.0,
                palette::INK,
            ));
            panel.spawn((widgets::text(fonts, "", 18.0, palette::INK), TurnText));
            panel.spawn((widgets::text(fonts, "", 16.0, palette::INK_SOFT), ScoreText));
            if G::TIME_LIMIT.is_some() {
                panel.spawn((widgets::text(fonts, "", 16.0, palette::INK_SOFT), ClockText));
            }
            panel.spawn((
                widgets::text(fonts, "", 16.0, palette::VERMILION),
                NoticeText,
                Node {
                    min_height: px(44),
                    ..default()
                },
            ));
            let mut buttons: Vec<(T, PlayCommand)> = Vec::new();
            if G::MULTI_STEP {
                buttons.push((G::STOP_BUTTON, PlayCommand::StopJump));
            }
            if m.setup.undo_allowed {
                buttons.push((T::Undo, PlayCommand::Undo));
            }
            buttons.push((T::Hint, PlayCommand::Hint));
            if m.game.position_code(m.record.current()).is_some() {
                buttons.push((T::ExportPosition, PlayCommand::ExportPosition));
                buttons.push((T::ImportPosition, PlayCommand::ImportPosition));
            }
            buttons.push((T::Resign, PlayCommand::Resign));
            buttons.push((T::Quit, PlayCommand::Quit));
            // The buttons two to a row where they fit, so that the piece
            // help below has room.
            panel
                .spawn(Node {
                    flex_direction: FlexDirection::Row,
                    flex_wrap: FlexWrap::Wrap,
                    justify_content: JustifyContent::Center,
                    width: percent(100),
                    ..default()
                })
                .with_children(|grid| {
                    for (key, cmd) in buttons {
                        let mut button = grid.spawn((
                            widgets::key_button(fonts, lang, key, cmd == PlayCommand::StopJump),
                            CommandButton(cmd),
                        ));
                        button.observe(
                            move |_: On<Pointer<Click>>, mut w: MessageWriter<PlayCommand>| {
                                w.write(cmd);
                            },
                        );
                        if cmd == PlayCommand::StopJump {
                            button.insert(StopJumpButton);
                        }
                    }
                    grid.spawn((
                        widgets::key_button(fonts, lang, T::SoundOff, false),
                        SoundButton,
                    ))
                    .observe(
                        |_: On<Pointer<Click>>, mut w: MessageWriter<PlayCommand>| {
                            w.write(PlayCommand::ToggleSound);
                        },
                    );
                    grid.spawn(widgets::key_button(fonts, lang, T::Settings, false))
                        .observe(open_from(Screen::Settings, Screen::Play));
                });
            spawn_piece_info(panel, fonts);
            panel.spawn((widgets::text(fonts, "", 14.0, palette::INK_SOFT), MovesText));
        });
}

/// The selected piece's name, details and movement diagram (hidden until
/// a piece with help is selected).
fn spawn_piece_info(panel: &mut ChildSpawnerCommands, fonts: &Fonts) {
    panel
        .spawn((
            PieceInfoBox,
            Node {
                display: Display::None,
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                row_gap: px(4),
                ..default()
            },
        ))
        .with_children(|info| {
            info.spawn((widgets::text(fonts, "", 18.0, palette::INK), PieceInfoName));
            info.spawn((
                widgets::text(fonts, "", 14.0, palette::INK_SOFT),
                PieceInfoDetails,
            ));
            info.spawn(Node {
                display: Display::Grid,
                grid_template_columns: RepeatedGridTrack::px(5, 22.0),
                grid_template_rows: RepeatedGridTrack::px(5, 22.0),
                ..default()
            })
            .with_children(|grid| {
                for row in 0..5 {
                    for column in 0..5 {
                        grid.spawn((
                            widgets::text(fonts, "", 15.0, palette::INK),
                            MoveCell(row, column),
                            Node {
                                width: px(21),
                                height: px(21),
                                justify_content: JustifyContent::Center,
                                ..default()
                            },
                            BackgroundColor(palette::CARD),
                        ));
                    }
                }
            });
        });
}

/// The glyph on a square of the movement diagram; slides point along
/// their line.
fn move_mark_glyph(mark: MoveMark, row: usize, column: usize) -> &'static str {
    const ARROWS: [[&str; 3]; 3] = [["↖", "↑", "↗"], ["←", "", "→"], ["↙", "↓", "↘"]];
    match mark {
        MoveMark::Empty | MoveMark::Piece => "",
        MoveMark::Step => "●",
        MoveMark::Slide => {
            let line = |i: usize| ((i as i32 - 2).signum() + 1) as usize;
            ARROWS[line(row)][line(column)]
        }
        MoveMark::Jump => "☆",
        MoveMark::Lion => "◎",
    }
}

fn pointer_input<G: Playable>(
    buttons: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    view: Option<Res<BoardView>>,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut taps: MessageWriter<BoardTap>,
) {
    let Some(view) = view else { return };
    let Ok(window) = windows.single() else { return };
    let Ok((camera, cam_transform)) = cameras.single() else {
        return;
    };
    let to_point = |screen: Vec2| {
        camera
            .viewport_to_world_2d(cam_transform, screen)
            .ok()
            .and_then(|w| view.point_at(m.game.graph(), w))
    };
    let pressed = buttons
        .just_pressed(MouseButton::Left)
        .then(|| window.cursor_position())
        .flatten();
    let released = buttons
        .just_released(MouseButton::Left)
        .then(|| window.cursor_position())
        .flatten();
    let touch_start = touches.iter_just_pressed().next().map(|t| t.position());
    let touch_end = touches.iter_just_released().next().map(|t| t.position());
    if let Some(p) = pressed.or(touch_start) {
        match to_point(p) {
            Some(point) => {
                ui.drag_from = Some(point);
                taps.write(BoardTap(point));
            }
            None => {
                ui.drag_from = None;
                // Off the board: put a selection down (not a jump under way).
                if ui.path.len() == 1 {
                    ui.clear_selection();
                }
            }
        }
    }
    // Drag and drop: releasing on another point than the press is a second tap.
    if let Some(p) = released.or(touch_end) {
        let dragged = std::mem::take(&mut ui.dragging);
        let target = ui.drag_from.take().zip(to_point(p));
        let legal = target.is_some_and(|(from, to)| {
            ui.path.last() == Some(&from)
                && taps::next_points_in(
                    &m.game,
                    m.record.current(),
                    &m.record.legal_moves(&m.game),
                    &ui.path,
                )
                .contains(&to)
        });
        if let Some((from, to)) = target
            && to != from
        {
            taps.write(BoardTap(to));
        }
        if dragged && !legal {
            // Put the dragged piece back where it stands in the rules.
            ui.pending_sync = true;
        }
    }
}

/// While a selected piece is held down, it follows the pointer.
fn drag_piece<G: Playable>(
    buttons: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    view: Res<BoardView>,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut pieces_q: Query<(&PieceView, &mut Transform)>,
) {
    let Some(from) = ui.drag_from else { return };
    if ui.path.as_slice() != [from] {
        return;
    }
    let held = if buttons.pressed(MouseButton::Left) {
        windows.single().ok().and_then(|w| w.cursor_position())
    } else {
        touches.iter().next().map(|t| t.position())
    };
    let Some(screen) = held else { return };
    let Ok((camera, cam_transform)) = cameras.single() else {
        return;
    };
    let Ok(world) = camera.viewport_to_world_2d(cam_transform, screen) else {
        return;
    };
    let home = view.world(m.game.graph(), from);
    if !ui.dragging && world.distance(home) < view.cell * 0.3 {
        return;
    }
    ui.dragging = true;
    for (piece, mut transform) in &mut pieces_q {
        if piece.point == from {
            transform.translation = world.extend(10.0);
        }
    }
}

fn keyboard_input(keys: Res<ButtonInput<KeyCode>>, mut commands: MessageWriter<PlayCommand>) {
    let ctrl = keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::SuperLeft,
        KeyCode::SuperRight,
    ]);
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        commands.write(PlayCommand::Undo);
    }
    if keys.just_pressed(KeyCode::KeyH) {
        commands.write(PlayCommand::Hint);
    }
    if keys.just_pressed(KeyCode::Escape) {
        commands.write(PlayCommand::Quit);
    }
}

fn busy<G: Playable>(m: &Match<G>, ui: &PlayUi<G>, animating: &Animating) -> bool {
    !animating.is_empty()
        || ui.is_settling()
        || !m.human_to_move()
        || m.record.outcome(&m.game).is_some()
}

fn handle_taps<G: Playable>(
    mut taps_in: MessageReader<BoardTap>,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    view: Res<BoardView>,
    animating: Animating,
    mut commands: Commands,
    pieces_q: Query<(Entity, &PieceView, &Transform)>,
    mut moves: MessageWriter<PlayMove<G>>,
    mut sfx: MessageWriter<Sfx>,
) {
    for &BoardTap(point) in taps_in.read() {
        // Input during an animation or the CPU's turn is ignored, whole;
        // mid-move, the piece's own hop along its path does not count, so a
        // quick second step is not lost.
        let mid_move = ui.path.len() > 1 && ui.choice.is_empty() && !ui.is_settling();
        if busy(&m, &ui, &animating) && !(mid_move && m.human_to_move()) {
            continue;
        }
        if !ui.choice.is_empty() {
            // A tap on the board instead of an answer takes none.
            ui.clear_selection();
            continue;
        }
        let pos = m.record.current();
        let before = ui.path.clone();
        let legal = m.record.legal_moves(&m.game);
        match taps::tap_in(&m.game, pos, &legal, &mut ui.path, point) {
            Tap::Play(mv) => {
                ui.dirty = true;
                moves.write(PlayMove(mv));
                return;
            }
            Tap::Extend => {
                // The piece hops to the landing; the move is not made yet.
                let start = before.first().copied();
                let to = view.world(m.game.graph(), point);
                for (entity, piece, transform) in &pieces_q {
                    if Some(piece.point) == start {
                        // Above the piece it may be about to take.
                        commands.entity(entity).insert(Tween::hops(
                            &[transform.translation, to.extend(MOVING_Z)],
                            HOP,
                            30.0,
                        ));
                    }
                }
                sfx.write(Sfx::Place);
            }
            Tap::Choose(moves) => {
                ui.choice = moves;
                ui.dirty = true;
                return;
            }
            Tap::Select | Tap::Ignore => {}
            Tap::Deselect => ui.pending_sync |= before.len() > 1,
            Tap::Reject => {
                sfx.write(Sfx::Illegal);
                ui.pending_sync |= before.len() > 1 && ui.path.is_empty();
            }
        }
        if ui.path != before {
            ui.dirty = true;
        }
    }
}

fn handle_commands<G: Playable>(
    mut commands_in: MessageReader<PlayCommand>,
    mut m: ResMut<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut cpu: ResMut<CpuThink<G>>,
    mut hint: ResMut<HintThink<G>>,
    pace: Res<SearchPace>,
    mut store: ResMut<Store>,
    mut settings: ResMut<Settings>,
    presets: Res<Presets<G>>,
    animating: Animating,
    mut next: ResMut<NextState<Screen>>,
    mut moves: MessageWriter<PlayMove<G>>,
    mut sfx: MessageWriter<Sfx>,
) {
    for cmd in commands_in.read() {
        match cmd {
            PlayCommand::ToggleSound => {
                settings.sound = !settings.sound;
                sfx.write(Sfx::Button);
            }
            PlayCommand::Quit => {
                cpu.0 = None;
                hint.0 = None;
                sfx.write(Sfx::Button);
                next.set(Screen::GameList);
            }
            PlayCommand::StopJump => {
                if busy(&m, &ui, &animating) || ui.path.len() < 2 {
                    continue;
                }
                let legal = m.record.legal_moves(&m.game);
                let stops = taps::moves_along_in(&m.game, m.record.current(), &legal, &ui.path);
                match stops[..] {
                    [] => {
                        sfx.write(Sfx::Illegal);
                    }
                    [mv] => {
                        ui.path.clear();
                        ui.dirty = true;
                        moves.write(PlayMove(mv));
                    }
                    _ => {
                        ui.path.clear();
                        ui.choice = stops;
                        ui.dirty = true;
                    }
                }
            }
            PlayCommand::Undo => {
                if !m.setup.undo_allowed || !animating.is_empty() || ui.is_settling() {
                    continue;
                }
                if m.undo_for_player() {
                    cpu.0 = None;
                    hint.0 = None;
                    ui.record_replaced(m.record.moves().last().copied());
                    store.put(&G::ID.save_key(), &m.to_save());
                    sfx.write(Sfx::Button);
                } else {
                    sfx.write(Sfx::Illegal);
                }
            }
            PlayCommand::Hint => {
                if busy(&m, &ui, &animating) || hint.0.is_some() {
                    continue;
                }
                let plan = presets.0.cpu.strong.hint_plan();
                hint.0 = Some(Thinker::start(
                    &m.game,
                    m.record.current().clone(),
                    m.record.hashes(),
                    plan,
                    m.record.forbidden_moves(&m.game),
                    *pace,
                ));
            }
            PlayCommand::ExportPosition => {
                let lang = settings.lang;
                let Some(code) = m.game.game_code(&m.record) else {
                    continue;
                };
                sfx.write(Sfx::Button);
                ui.message = Some(match files::export_text("position", &code) {
                    Ok(Exported::File { file, copied }) => {
                        let key = if copied {
                            T::PositionCopied
                        } else {
                            T::PositionExported
                        };
                        format!("{} {file}", key.get(lang))
                    }
                    Ok(Exported::OnPage) => T::PositionShownOnPage.get(lang).to_string(),
                    Err(e) => format!("{}: {e}", T::PositionExportFailed.get(lang)),
                });
            }
            PlayCommand::ImportPosition => {
                if !animating.is_empty() || ui.is_settling() {
                    continue;
                }
                let lang = settings.lang;
                sfx.write(Sfx::Button);
                // A game text copied from elsewhere comes first; else the
                // file (which the player may have edited).
                let pasted = files::pasted_text().is_some_and(|t| m.restart_from(&t).is_ok());
                let imported = if pasted {
                    Ok(true)
                } else {
                    files::import_text("position", G::ID).and_then(|found| match found {
                        Imported::Text(text) => m.restart_from(&text).map(|()| true),
                        Imported::OnPage => Ok(false),
                    })
                };
                ui.message = Some(match imported {
                    Ok(true) => {
                        cpu.0 = None;
                        hint.0 = None;
                        ui.record_replaced(None);
                        store.put(&G::ID.save_key(), &m.to_save());
                        let key = if pasted {
                            T::PositionPasted
                        } else {
                            T::PositionImported
                        };
                        key.get(lang).to_string()
                    }
                    Ok(false) => T::PositionImportOnPage.get(lang).to_string(),
                    Err(e) => format!("{}: {e}", T::PositionUnreadable.get(lang)),
                });
            }
            PlayCommand::Resign => {
                if m.record.outcome(&m.game).is_some() || !animating.is_empty() || ui.is_settling()
                {
                    continue;
                }
                let side = match m.setup.opponent {
                    Opponent::Cpu(_) => m.setup.human_side,
                    Opponent::Human => m.game.side_to_move(m.record.current()),
                };
                cpu.0 = None;
                hint.0 = None;
                ui.clear_selection();
                m.record.resign(side);
                ui.pending_sync = true;
            }
        }
    }
}

/// Counts the time played, for games with a time limit, and ends the game
/// when it runs out (the clock stops during animations and once the game
/// is over).
#[allow(clippy::too_many_arguments)]
fn tick_clock<G: Playable>(
    time: Res<Time>,
    mut m: ResMut<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut cpu: ResMut<CpuThink<G>>,
    mut hint: ResMut<HintThink<G>>,
    mut store: ResMut<Store>,
    settings: Res<Settings>,
    mut clocks: Query<&mut Text, With<ClockText>>,
) {
    let Some(limit) = G::TIME_LIMIT else { return };
    if m.record.outcome(&m.game).is_some() || ui.is_settling() {
        return;
    }
    // The clock moves every frame; the match only counts as changed (and
    // the HUD is redrawn) when the shown second changes or time is up.
    let before = m.elapsed;
    m.bypass_change_detection().elapsed = (before + time.delta_secs()).min(limit);
    let after = m.elapsed;
    if after >= limit {
        let outcome = m.game.time_up(m.record.current());
        m.record.end(outcome);
        cpu.0 = None;
        hint.0 = None;
        ui.clear_selection();
        ui.pending_sync = true;
        store.remove(&G::ID.save_key());
    }
    if before.floor() != after.floor() || clocks.iter().any(|t| t.0.is_empty()) {
        let left = (limit - after).max(0.0) as u32;
        let text = format!(
            "{} {}:{:02}",
            T::TimeLeft.get(settings.lang),
            left / 60,
            left % 60
        );
        for mut t in &mut clocks {
            t.0.clone_from(&text);
        }
    }
}

fn cpu_turn<G: Playable>(
    m: Res<Match<G>>,
    ui: Res<PlayUi<G>>,
    presets: Res<Presets<G>>,
    animating: Animating,
    mut cpu: ResMut<CpuThink<G>>,
    pace: Res<SearchPace>,
    mut slices: ResMut<ThinkingSlices>,
    mut moves: MessageWriter<PlayMove<G>>,
) {
    let Opponent::Cpu(strength) = m.setup.opponent else {
        return;
    };
    if m.human_to_move()
        || m.record.outcome(&m.game).is_some()
        || ui.is_settling()
        || !animating.is_empty()
    {
        return;
    }
    match cpu.0.as_mut() {
        None => {
            let plan = presets.0.cpu.get(strength).plan(&mut rand::rng());
            cpu.0 = Some(Thinker::start(
                &m.game,
                m.record.current().clone(),
                m.record.hashes(),
                plan,
                m.record.forbidden_moves(&m.game),
                *pace,
            ));
        }
        Some(thinker) => {
            if let Some(answer) = slices.time(|| thinker.poll(&m.game)) {
                cpu.0 = None;
                if let Some(result) = answer {
                    moves.write(PlayMove(result.best));
                }
            }
        }
    }
}

fn poll_hint<G: Playable>(
    m: Res<Match<G>>,
    mut hint: ResMut<HintThink<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut slices: ResMut<ThinkingSlices>,
) {
    let Some(thinker) = hint.0.as_mut() else {
        return;
    };
    if let Some(answer) = slices.time(|| thinker.poll(&m.game)) {
        hint.0 = None;
        ui.hint = answer.map(|r| r.best);
        ui.dirty = true;
    }
}

fn apply_moves<G: Playable>(
    mut moves: MessageReader<PlayMove<G>>,
    mut m: ResMut<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    view: Res<BoardView>,
    mut store: ResMut<Store>,
    mut bug: ResMut<BugContext>,
    mut commands: Commands,
    art: Res<Art>,
    mut pieces_q: Query<(Entity, &mut PieceView, &Transform)>,
    mut sfx: MessageWriter<Sfx>,
) {
    for &PlayMove(mv) in moves.read() {
        let m = &mut *m;
        let before = m.record.current().clone();
        let mover = m.game.side_to_move(&before);
        let report = m.game.capture_view(&before, mv);
        let played = match m.record.play(&m.game, mv) {
            Ok(p) => p,
            Err(e) => {
                warn!("refused move: {e}");
                sfx.write(Sfx::Illegal);
                continue;
            }
        };
        let graph = m.game.graph();
        let to_world = |p: PointId| view.world(graph, p);
        let path = m.game.move_path(mv);
        let hops = path.len().saturating_sub(1).max(1);
        // A jump is shown hop by hop, a step as one slide.
        let (duration, arc) = if report.captured.is_empty() || G::SQUARES {
            (SLIDE, 0.0)
        } else {
            (HOP * hops as f32, 30.0)
        };
        let stand = stand_center(&view, mover, m.setup.bottom_side());
        let (start, end) = (path[0], path[path.len() - 1]);
        for (entity, mut piece, transform) in &mut pieces_q {
            if piece.point == start {
                let z = transform.translation.z;
                // From wherever the piece is now (it may be mid-path).
                let mut stops = vec![transform.translation];
                let already = ui.path_shown(graph, &view, transform.translation, &path);
                stops.extend(path[already..].iter().map(|&p| to_world(p).extend(z)));
                commands
                    .entity(entity)
                    .insert(Tween::hops(&stops, duration, arc));
                piece.point = end;
            } else if let Some(i) = report.captured.iter().position(|&c| c == piece.point) {
                // Each taken piece leaves when the mover has passed it.
                let delay = if report.captured.len() > 1 {
                    duration * (i + 1) as f32 / report.captured.len() as f32
                } else {
                    duration
                } + 0.5;
                commands
                    .entity(entity)
                    .remove::<PieceView>()
                    .insert(Tween::flight(
                        transform.translation,
                        stand.extend(3.0),
                        delay,
                        0.5,
                        60.0,
                        0.55,
                    ));
            }
        }
        let linger = duration + 0.75;
        // Gold frames on the capturing pieces, red rings on the captured.
        for &p in &report.capturers {
            art::spawn_gold_frame(
                &mut commands,
                DespawnOnExit(Screen::Play),
                to_world(p),
                linger,
            );
        }
        for &p in &report.captured {
            commands.spawn((
                DespawnOnExit(Screen::Play),
                Mesh2d(art.red_ring.clone()),
                MeshMaterial2d(art.red.clone()),
                Transform::from_translation(to_world(p).extend(4.0)),
                Lifetime(linger),
            ));
        }
        sfx.write(if report.captured.is_empty() {
            Sfx::Place
        } else {
            Sfx::Capture
        });
        ui.last_move = Some(mv);
        ui.path.clear();
        ui.choice.clear();
        ui.hint = None;
        ui.dirty = true;
        ui.pending_sync = true;
        ui.notice = m.game.notice(m.record.current(), played.occurrences);
        ui.message = None;
        let key = G::ID.save_key();
        if played.outcome.is_some() {
            store.remove(&key);
        } else {
            store.put(&key, &m.to_save());
        }
        bug.0 = m.bug_text();
    }
}

impl<G: Playable> PlayUi<G> {
    /// How many points of `path` the piece has already been moved along
    /// by the player's taps (it stands on the last of them).
    fn path_shown(
        &self,
        graph: &crate::rules::board::BoardGraph,
        view: &BoardView,
        at: Vec3,
        path: &[PointId],
    ) -> usize {
        (1..path.len())
            .rev()
            .find(|&i| view.world(graph, path[i]).distance(at.truncate()) < 1.0)
            .map_or(1, |i| i + 1)
    }
}

/// Once the animation has played, rebuild the pieces from the rules (so the
/// view can never drift from them), then celebrate and end a finished game.
fn settle<G: Playable>(
    mut commands: Commands,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    view: Res<BoardView>,
    art: Res<Art>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    time: Res<Time>,
    animating: Animating,
    mut pieces_q: Query<(Entity, &PieceView, &ShownFace, &mut Transform)>,
    stands: Query<Entity, With<StandContent>>,
    layout: Res<Layout>,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
    mut progress: ResMut<GameProgress>,
) {
    // Read before writing: `PlayUi` then only counts as changed when it is.
    if let Some(left) = ui.end_timer {
        let left = left - time.delta_secs();
        if left > 0.0 || !animating.is_empty() {
            ui.end_timer = Some(left);
            return;
        }
        ui.end_timer = None;
        let pos = m.record.current();
        if let Some(outcome) = m.record.outcome(&m.game) {
            commands.insert_resource(LastResult::<G> {
                outcome,
                reason: m.game.record_reason_text(&m.record, outcome.reason),
                setup: m.setup.clone(),
                plies: m.record.ply(),
                detail: m.game.result_detail(pos, outcome, settings.lang),
            });
        }
        next.set(Screen::Result);
        return;
    }
    if !ui.pending_sync || !animating.is_empty() {
        return;
    }
    ui.pending_sync = false;
    progress.ply = m.record.ply();
    progress.position = m.game.position_code(m.record.current());
    for e in &stands {
        commands.entity(e).despawn();
    }
    let pos = m.record.current();
    let graph = m.game.graph();
    let bottom = m.setup.bottom_side();
    let placed = |p: PointId, side: Side| {
        Transform::from_translation(view.world(graph, p).extend(1.0))
            .with_rotation(piece_rotation::<G>(side, bottom))
    };
    // The rules' pieces, point by point. A piece already shown there as
    // itself keeps its entity (set exactly in place); every other one is
    // drawn anew — a move redraws a few koma, not all 92 of 中将棋.
    let mut wanted: Vec<Option<(Side, Option<PieceFace>)>> = (0..graph.len())
        .map(|p| {
            m.game
                .piece_at(pos, p)
                .map(|s| (s, m.game.piece_face(pos, p)))
        })
        .collect();
    for (e, piece, face, mut transform) in &mut pieces_q {
        let shown = (piece.side, face.0);
        match wanted.get_mut(piece.point) {
            Some(w) if *w == Some(shown) => {
                *w = None;
                *transform = placed(piece.point, piece.side);
            }
            _ => commands.entity(e).despawn(),
        }
    }
    for (p, want) in wanted.into_iter().enumerate() {
        if let Some((side, face)) = want {
            commands
                .spawn((
                    DespawnOnExit(Screen::Play),
                    PieceView { point: p, side },
                    ShownFace(face),
                    placed(p, side),
                    Visibility::default(),
                ))
                .with_children(|c| {
                    G::piece_children(c, &art, &fonts, settings.piece_style, side, face)
                });
        }
    }
    for side in Side::BOTH {
        let Some(taken) = m.game.taken_by(pos, side) else {
            continue;
        };
        if layout.panel_top.is_some() {
            continue;
        }
        let center = stand_center(&view, side, bottom);
        let victim = side.opponent();
        for i in 0..(taken as usize).min(10) {
            let (cx, cy) = ((i % 5) as f32, (i / 5) as f32);
            let at = center + Vec2::new((cx - 2.0) * 26.0, 18.0 - cy * 34.0);
            commands
                .spawn((
                    DespawnOnExit(Screen::Play),
                    StandContent,
                    Transform::from_translation(at.extend(0.5))
                        .with_scale(Vec3::splat(0.5))
                        .with_rotation(piece_rotation::<G>(victim, bottom.opponent())),
                    Visibility::default(),
                ))
                .with_children(|c| {
                    G::piece_children(c, &art, &fonts, settings.piece_style, victim, None)
                });
        }
        commands.spawn((
            DespawnOnExit(Screen::Play),
            StandContent,
            Text2d::new(format!("×{taken}")),
            TextFont {
                font: fonts.ui.clone().into(),
                font_size: FontSize::Px(22.0),
                ..default()
            },
            TextColor(palette::INK),
            Transform::from_translation((center + Vec2::new(55.0, -42.0)).extend(0.6)),
        ));
    }
    ui.dirty = true;
    if let Some(outcome) = m.record.outcome(&m.game) {
        let human_won = match (m.setup.opponent, outcome.winner) {
            (Opponent::Cpu(_), Some(w)) => Some(w == m.setup.human_side),
            _ => None,
        };
        sfx.write(if human_won == Some(false) {
            Sfx::Lose
        } else {
            Sfx::Win
        });
        if outcome.winner.is_some() && human_won != Some(false) {
            celebrate(&mut commands, view.center);
        }
        ui.end_timer = Some(if settings.reduced_motion { 0.3 } else { 1.6 });
    }
}

/// A burst of paper confetti for a win.
fn celebrate(commands: &mut Commands, center: Vec2) {
    let colors = [
        palette::GOLD,
        palette::VERMILION,
        Color::srgb(0.2, 0.5, 0.8),
        Color::srgb(0.3, 0.7, 0.3),
    ];
    for i in 0..40 {
        let a = i as f32 * 2.399;
        let r = 80.0 + (i % 7) as f32 * 40.0;
        let to = center + Vec2::new(a.cos() * r, a.sin() * r);
        commands.spawn((
            DespawnOnExit(Screen::Play),
            Sprite::from_color(colors[i % colors.len()], Vec2::new(10.0, 6.0)),
            Transform::from_translation(center.extend(8.0)).with_rotation(Quat::from_rotation_z(a)),
            Tween::flight(
                center.extend(8.0),
                to.extend(8.0),
                (i % 5) as f32 * 0.05,
                0.9,
                120.0,
                1.2,
            ),
        ));
    }
}

/// The answer to a choice: play the move picked, or put the piece down.
fn handle_choice<G: Playable>(
    mut picks: MessageReader<ChoicePick>,
    mut ui: ResMut<PlayUi<G>>,
    mut moves: MessageWriter<PlayMove<G>>,
    mut sfx: MessageWriter<Sfx>,
) {
    for &ChoicePick(pick) in picks.read() {
        if ui.choice.is_empty() {
            continue;
        }
        match pick.and_then(|i| ui.choice.get(i).copied()) {
            Some(mv) => {
                ui.choice.clear();
                ui.dirty = true;
                moves.write(PlayMove(mv));
            }
            None => {
                ui.clear_selection();
                sfx.write(Sfx::Button);
            }
        }
    }
}

/// Offers the choice over the board: a button for each move, and やめる.
fn show_choice<G: Playable>(
    mut commands: Commands,
    m: Res<Match<G>>,
    ui: Res<PlayUi<G>>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    shown: Query<Entity, With<ChoicePanel>>,
) {
    if !ui.is_changed() && !settings.is_changed() {
        return;
    }
    let wanted = !ui.choice.is_empty();
    let showing = !shown.is_empty();
    if wanted == showing && !settings.is_changed() {
        return;
    }
    for e in &shown {
        commands.entity(e).despawn();
    }
    if !wanted {
        return;
    }
    let lang = settings.lang;
    let pos = m.record.current();
    commands
        .spawn((
            DespawnOnExit(Screen::Play),
            ChoicePanel,
            Node {
                position_type: PositionType::Absolute,
                left: percent(18),
                top: percent(40),
                padding: UiRect::all(px(14)),
                column_gap: px(10),
                flex_direction: FlexDirection::Row,
                border_radius: BorderRadius::all(px(10)),
                ..default()
            },
            BackgroundColor(palette::PAPER.with_alpha(0.96)),
            GlobalZIndex(20),
        ))
        .with_children(|panel| {
            let offered = ui
                .choice
                .iter()
                .enumerate()
                .map(|(i, &mv)| (Some(i), m.game.choice_text(pos, mv, lang)));
            let cancel = std::iter::once((None, T::Cancel.get(lang).to_string()));
            for (pick, caption) in offered.chain(cancel) {
                panel
                    .spawn((
                        widgets::button(&fonts, caption, pick == Some(0)),
                        ChoiceButton(pick),
                    ))
                    .observe(
                        move |_: On<Pointer<Click>>, mut w: MessageWriter<ChoicePick>| {
                            w.write(ChoicePick(pick));
                        },
                    );
            }
        });
}

fn redraw_markers<G: Playable>(
    mut commands: Commands,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    view: Res<BoardView>,
    art: Res<Art>,
    markers: Query<Entity, With<Marker>>,
) {
    if !ui.dirty {
        return;
    }
    ui.dirty = false;
    for e in &markers {
        commands.entity(e).despawn();
    }
    let graph = m.game.graph();
    let scope = (DespawnOnExit(Screen::Play), Marker);
    let at = |p: PointId| view.world(graph, p);
    if let Some(mv) = ui.last_move {
        for p in m.game.move_path(mv) {
            art::spawn_highlight(
                &mut commands,
                scope.clone(),
                &art,
                G::SQUARES,
                at(p),
                Highlight::LastMove,
            );
        }
    }
    if !ui.path.is_empty() {
        let pos = m.record.current();
        // Enemy pieces the path so far passes over are taken if the move
        // goes on: red rings.
        let mover = m.game.side_to_move(pos);
        for &p in ui.path.iter().skip(1) {
            if m.game.piece_at(pos, p).is_some_and(|s| s != mover) {
                commands.spawn((
                    scope.clone(),
                    Mesh2d(art.red_ring.clone()),
                    MeshMaterial2d(art.red.clone()),
                    Transform::from_translation(at(p).extend(6.0)),
                ));
            }
        }
        for &p in &ui.path {
            art::spawn_highlight(
                &mut commands,
                scope.clone(),
                &art,
                G::SQUARES,
                at(p),
                Highlight::Selected,
            );
        }
        let marks = m.setup.marks && G::HAS_MARKS;
        let legal = m.record.legal_moves(&m.game);
        for to in taps::next_points_in(&m.game, pos, &legal, &ui.path) {
            commands.spawn((
                scope.clone(),
                Mesh2d(art.dot.clone()),
                MeshMaterial2d(art.blue.clone()),
                Transform::from_translation(at(to).extend(2.0)),
            ));
            let mut path = ui.path.clone();
            path.push(to);
            if marks
                && taps::move_along_in(&m.game, pos, &legal, &path)
                    .is_some_and(|mv| m.game.dangerous(pos, mv))
            {
                art::spawn_cross(&mut commands, scope.clone(), at(to));
            }
        }
    }
    if let Some(h) = ui.hint {
        // Blue dotted arrows along the whole move.
        let points: Vec<Vec2> = m.game.move_path(h).into_iter().map(at).collect();
        art::spawn_path_arrows(&mut commands, scope.clone(), &points);
    }
}

fn update_hud<G: Playable>(
    m: Res<Match<G>>,
    ui: Res<PlayUi<G>>,
    settings: Res<Settings>,
    cpu: Res<CpuThink<G>>,
    mut texts: ParamSet<(
        Query<&mut Text, With<TurnText>>,
        Query<&mut Text, With<ScoreText>>,
        Query<&mut Text, With<NoticeText>>,
        Query<(&mut Localized, &mut Text)>,
        Query<&mut Text, With<MovesText>>,
    )>,
    sound_buttons: Query<&Children, With<SoundButton>>,
    mut looks: Query<&mut widgets::ButtonLook, With<SoundButton>>,
    mut stop_buttons: Query<&mut Node, With<StopJumpButton>>,
) {
    // The texts only change with the game, the screen state, the settings or
    // the CPU starting or ending its think.
    if !(m.is_changed() || ui.is_changed() || settings.is_changed() || cpu.is_changed()) {
        return;
    }
    let lang = settings.lang;
    let pos = m.record.current();
    let stm = m.game.side_to_move(pos);
    let turn = if cpu.0.is_some() {
        T::CpuThinking
    } else if matches!(m.setup.opponent, Opponent::Cpu(_)) && stm == m.setup.human_side {
        T::YourTurn
    } else {
        G::to_move_text(stm)
    };
    let turn = format!(
        "{}\n{} {}",
        turn.get(lang),
        m.record.ply(),
        T::Moves.get(lang)
    );
    for mut t in &mut texts.p0() {
        if t.0 != turn {
            t.0 = turn.clone();
        }
    }
    let score = m.game.status_line(pos, lang);
    for mut t in &mut texts.p1() {
        if t.0 != score {
            t.0 = score.clone();
        }
    }
    let notice = [
        ui.notice.map(|n| n.get(lang).to_string()),
        ui.message.clone(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("\n");
    for mut t in &mut texts.p2() {
        if t.0 != notice {
            t.0 = notice.clone();
        }
    }
    let moves = recent_moves(&m, lang);
    for mut t in &mut texts.p4() {
        if t.0 != moves {
            t.0 = moves.clone();
        }
    }
    let key = if settings.sound {
        T::SoundOn
    } else {
        T::SoundOff
    };
    let mut labels = texts.p3();
    for children in &sound_buttons {
        for child in children.iter() {
            if let Ok((mut loc, mut text)) = labels.get_mut(child)
                && loc.0 != key
            {
                loc.0 = key;
                text.0 = key.get(lang).to_string();
            }
        }
    }
    for mut look in &mut looks {
        if look.selected != settings.sound {
            look.selected = settings.sound;
        }
    }
    // 跳ぶのをやめる only while a jump that may stop here is under way.
    let can_stop = ui.path.len() > 1
        && taps::move_along_in(&m.game, pos, &m.record.legal_moves(&m.game), &ui.path).is_some();
    let display = if can_stop {
        Display::Flex
    } else {
        Display::None
    };
    for mut node in &mut stop_buttons {
        if node.display != display {
            node.display = display;
        }
    }
}

/// The last few moves of the record, numbered, one a line (棋譜).
fn recent_moves<G: Playable>(m: &Match<G>, lang: Lang) -> String {
    const SHOWN: usize = 4;
    let moves = m.record.moves();
    if moves.is_empty() {
        return String::new();
    }
    let positions = m.record.positions();
    let first = moves.len().saturating_sub(SHOWN);
    let lines = (first..moves.len())
        .map(|i| format!("{} {}", i + 1, m.game.move_text(&positions[i], moves[i])));
    std::iter::once(T::MovesSoFar.get(lang).to_string())
        .chain(lines)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Shows the selected piece's help, or hides it.
fn update_piece_info<G: Playable>(
    m: Res<Match<G>>,
    ui: Res<PlayUi<G>>,
    settings: Res<Settings>,
    mut boxes: Query<&mut Node, With<PieceInfoBox>>,
    mut texts: ParamSet<(
        Query<&mut Text, With<PieceInfoName>>,
        Query<&mut Text, With<PieceInfoDetails>>,
        Query<(&MoveCell, &mut Text, &mut BackgroundColor)>,
    )>,
) {
    if !(ui.is_changed() || settings.is_changed() || m.is_changed()) {
        return;
    }
    let info = ui
        .selected()
        .and_then(|p| m.game.piece_info(m.record.current(), p, settings.lang));
    let display = if info.is_some() {
        Display::Flex
    } else {
        Display::None
    };
    for mut node in &mut boxes {
        if node.display != display {
            node.display = display;
        }
    }
    let Some(info) = info else { return };
    for mut t in &mut texts.p0() {
        t.0.clone_from(&info.name);
    }
    for mut t in &mut texts.p1() {
        t.0.clone_from(&info.details);
    }
    for (cell, mut text, mut background) in &mut texts.p2() {
        let mark = info.diagram[cell.0][cell.1];
        text.0 = move_mark_glyph(mark, cell.0, cell.1).to_string();
        background.0 = match mark {
            MoveMark::Piece => palette::INK,
            MoveMark::Lion => palette::GOLD.with_alpha(0.5),
            _ => palette::CARD,
        };
    }
}

/// The result screen's "play again" button (tests click it).
#[derive(Component)]
pub struct PlayAgainButton;

fn spawn_result<G: Playable>(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    result: Res<LastResult<G>>,
) {
    let lang = settings.lang;
    let o = result.outcome;
    let headline = match (o.winner, result.setup.opponent) {
        (None, _) => T::Draw,
        (Some(w), Opponent::Cpu(_)) if w == result.setup.human_side => T::YouWin,
        (Some(_), Opponent::Cpu(_)) => T::YouLose,
        (Some(w), Opponent::Human) => G::wins_text(w),
    };
    commands
        .spawn((DespawnOnExit(Screen::Result), widgets::screen_root()))
        .with_children(|root| {
            root.spawn(widgets::text(
                &fonts,
                localized_game_name(G::ID, lang),
                26.0,
                palette::INK_SOFT,
            ));
            root.spawn(widgets::label(
                &fonts,
                lang,
                headline,
                54.0,
                palette::VERMILION,
            ));
            root.spawn(widgets::label(
                &fonts,
                lang,
                result.reason,
                22.0,
                palette::INK,
            ));
            if let Some(detail) = &result.detail {
                root.spawn(widgets::text(&fonts, detail.clone(), 20.0, palette::INK));
            }
            root.spawn(widgets::text(
                &fonts,
                format!("{} {}", result.plies, T::Moves.get(lang)),
                18.0,
                palette::INK_SOFT,
            ));
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn((
                    widgets::key_button(&fonts, lang, T::PlayAgain, true),
                    PlayAgainButton,
                ))
                .observe(play_again::<G>);
                row.spawn(widgets::key_button(&fonts, lang, T::BackToList, false))
                    .observe(crate::app::screens::go_to(Screen::GameList));
            });
        });
}

/// もう一度: a new game with the same settings (a random side is drawn
/// again).
fn play_again<G: Playable>(
    _: On<Pointer<Click>>,
    result: Res<LastResult<G>>,
    mut commands: Commands,
    mut store: ResMut<Store>,
    mut next: ResMut<NextState<Screen>>,
) {
    let mut setup = result.setup.clone();
    if setup.random_side {
        use rand::RngExt;
        setup.human_side = if rand::rng().random_bool(0.5) {
            Side::First
        } else {
            Side::Second
        };
    }
    if let Ok(m) = Match::<G>::new(setup) {
        store.put(&G::ID.save_key(), &m.to_save());
        commands.insert_resource(m);
        next.set(Screen::Play);
    }
}
