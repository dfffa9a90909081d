//! The はさみ将棋 play screen: board and pieces drawn from the rules state,
//! input (click, tap, drag, keys), the CPU's turn, 待った, ヒント, 投了,
//! the capture animation, and the result screen.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::pieces::{self, Art};
use super::setup::chosen_hasami;
use super::{HasamiMatch, HasamiPresets, Opponent, SetupDraft};
use crate::app::anim::{Lifetime, Tween};
use crate::app::audio::Sfx;
use crate::app::cpu::Thinker;
use crate::app::i18n::{Lang, Localized, T};
use crate::app::save::Store;
use crate::app::screens::{localized_game_name, open_from};
use crate::app::settings::Settings;
use crate::app::widgets::{self, Fonts, palette};
use crate::app::{BugContext, Screen};
use crate::games::board_view::BoardView;
use crate::rules::data::GameId;
use crate::rules::game::{EndReason, Game, Outcome, Side};
use crate::rules::hasami::{Hasami, HasamiMove};

/// A click or tap on a board point (from the pointer, or from tests).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardTap(pub usize);

/// A play-screen command (buttons and keys).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayCommand {
    Undo,
    Hint,
    Resign,
    Quit,
    ToggleSound,
}

/// A move to play (from the player or the CPU).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayMove(pub HasamiMove);

/// A piece on the board, at a point.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub point: usize,
    pub side: Side,
}

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
struct SoundButton;

/// What the play screen is doing.
#[derive(Resource, Default, Debug)]
pub struct PlayUi {
    pub selected: Option<usize>,
    pub last_move: Option<HasamiMove>,
    pub hint: Option<HasamiMove>,
    pub notice: Option<T>,
    /// Marks need redrawing.
    dirty: bool,
    /// The pieces are rebuilt from the rules once animations finish.
    pending_sync: bool,
    /// Seconds of celebration left before the result screen.
    end_timer: Option<f32>,
    /// Where a drag started.
    drag_from: Option<usize>,
    /// A piece is being dragged (it follows the pointer).
    dragging: bool,
}

impl PlayUi {
    /// True while the view may differ from the rules (a move is being shown).
    pub fn is_settling(&self) -> bool {
        self.pending_sync || self.end_timer.is_some()
    }
}

#[derive(Resource, Default)]
pub struct CpuThink(Option<Thinker<Hasami>>);

#[derive(Resource, Default)]
pub struct HintThink(Option<Thinker<Hasami>>);

/// The finished game, for the result screen.
#[derive(Resource, Clone, Debug)]
pub struct LastResult {
    pub outcome: Outcome,
    pub setup: super::MatchSetup,
    pub plies: usize,
}

type Animating<'w, 's> = Query<'w, 's, (), Or<(With<Tween>, With<Lifetime>)>>;

pub fn plugin(app: &mut App) {
    app.add_message::<BoardTap>()
        .add_message::<PlayCommand>()
        .add_message::<PlayMove>()
        .init_resource::<PlayUi>()
        .init_resource::<CpuThink>()
        .init_resource::<HintThink>()
        .add_systems(Startup, pieces::make_art)
        .add_systems(OnEnter(Screen::Play), enter_play.run_if(chosen_hasami))
        .add_systems(OnExit(Screen::Play), leave_play)
        .add_systems(
            Update,
            (
                pointer_input,
                keyboard_input,
                handle_taps,
                drag_piece,
                handle_commands,
                cpu_turn,
                poll_hint,
                apply_moves,
                settle,
                redraw_markers,
                update_hud,
            )
                .chain()
                .run_if(in_state(Screen::Play))
                .run_if(resource_exists::<HasamiMatch>),
        )
        .add_systems(Update, scale_ui)
        .add_systems(
            OnEnter(Screen::Result),
            spawn_result
                .run_if(resource_exists::<LastResult>)
                .run_if(chosen_hasami),
        );
}

/// Keeps the UI the same size relative to the board when the window changes.
fn scale_ui(
    windows: Query<&Window, (With<PrimaryWindow>, Changed<Window>)>,
    mut scale: ResMut<UiScale>,
) {
    for w in &windows {
        let s = (w.width() / 1100.0).min(w.height() / 800.0).max(0.3);
        if (scale.0 - s).abs() > 0.001 {
            scale.0 = s;
        }
    }
}

fn board_view(m: &HasamiMatch) -> BoardView {
    BoardView::new(
        m.game.board(),
        Vec2::new(-190.0, 0.0),
        pieces::CELL,
        m.setup.bottom_side() == Side::Second,
    )
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

fn enter_play(
    mut commands: Commands,
    m: Res<HasamiMatch>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    mut ui: ResMut<PlayUi>,
    mut cpu: ResMut<CpuThink>,
    mut hint: ResMut<HintThink>,
) {
    *ui = PlayUi {
        last_move: m.record.moves().last().copied(),
        dirty: true,
        pending_sync: true,
        ..default()
    };
    cpu.0 = None;
    hint.0 = None;
    let view = board_view(&m);
    pieces::spawn_board(&mut commands, &view, &fonts, DespawnOnExit(Screen::Play));
    let bottom = m.setup.bottom_side();
    for side in Side::BOTH {
        let c = stand_center(&view, side, bottom);
        commands.spawn((
            DespawnOnExit(Screen::Play),
            Sprite::from_color(Color::srgb(0.80, 0.62, 0.38), Vec2::new(160.0, 120.0)),
            Transform::from_translation(c.extend(-2.0)),
        ));
    }
    commands.insert_resource(view);
    spawn_hud(&mut commands, &fonts, settings.lang, &m);
}

fn leave_play(mut cpu: ResMut<CpuThink>, mut hint: ResMut<HintThink>) {
    // Dropping a thinker cancels its search.
    cpu.0 = None;
    hint.0 = None;
}

fn spawn_hud(commands: &mut Commands, fonts: &Fonts, lang: Lang, m: &HasamiMatch) {
    commands
        .spawn((
            DespawnOnExit(Screen::Play),
            Node {
                position_type: PositionType::Absolute,
                right: px(0),
                top: px(0),
                width: px(270),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                padding: UiRect::all(px(12)),
                row_gap: px(8),
                ..default()
            },
        ))
        .with_children(|panel| {
            panel.spawn(widgets::text(
                fonts,
                localized_game_name(GameId::Hasami, lang),
                28.0,
                palette::INK,
            ));
            panel.spawn((widgets::text(fonts, "", 18.0, palette::INK), TurnText));
            panel.spawn((widgets::text(fonts, "", 16.0, palette::INK_SOFT), ScoreText));
            panel.spawn((
                widgets::text(fonts, "", 16.0, palette::VERMILION),
                NoticeText,
                Node {
                    min_height: px(44),
                    ..default()
                },
            ));
            let mut buttons: Vec<(T, PlayCommand)> = Vec::new();
            if m.setup.undo_allowed {
                buttons.push((T::Undo, PlayCommand::Undo));
            }
            buttons.push((T::Hint, PlayCommand::Hint));
            buttons.push((T::Resign, PlayCommand::Resign));
            buttons.push((T::Quit, PlayCommand::Quit));
            for (key, cmd) in buttons {
                panel
                    .spawn((
                        widgets::key_button(fonts, lang, key, false),
                        CommandButton(cmd),
                    ))
                    .observe(
                        move |_: On<Pointer<Click>>, mut w: MessageWriter<PlayCommand>| {
                            w.write(cmd);
                        },
                    );
            }
            panel
                .spawn((
                    widgets::key_button(fonts, lang, T::SoundOff, false),
                    SoundButton,
                ))
                .observe(|_: On<Pointer<Click>>, mut w: MessageWriter<PlayCommand>| {
                    w.write(PlayCommand::ToggleSound);
                });
            panel
                .spawn(widgets::key_button(fonts, lang, T::Settings, false))
                .observe(open_from(Screen::Settings, Screen::Play));
        });
}

/// Tags a HUD button with its command (tests find buttons by it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandButton(pub PlayCommand);

/// Whether the side to move is played by a person at this device.
fn human_to_move(m: &HasamiMatch) -> bool {
    let side = m.game.side_to_move(m.record.current());
    !m.setup.is_cpu(side)
}

fn pointer_input(
    buttons: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    view: Option<Res<BoardView>>,
    m: Res<HasamiMatch>,
    mut ui: ResMut<PlayUi>,
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
            .and_then(|w| view.point_at(m.game.board(), w))
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
                if ui.selected.take().is_some() {
                    ui.dirty = true;
                }
            }
        }
    }
    // Drag and drop: releasing on another point than the press is a second tap.
    if let Some(p) = released.or(touch_end) {
        let dragged = std::mem::take(&mut ui.dragging);
        let target = ui.drag_from.take().zip(to_point(p));
        let legal = target.is_some_and(|(from, to)| {
            m.record.is_legal(
                &m.game,
                HasamiMove {
                    from: from as u8,
                    to: to as u8,
                },
            )
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
fn drag_piece(
    buttons: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    view: Res<BoardView>,
    m: Res<HasamiMatch>,
    mut ui: ResMut<PlayUi>,
    mut pieces_q: Query<(&PieceView, &mut Transform)>,
) {
    let (Some(from), Some(selected)) = (ui.drag_from, ui.selected) else {
        return;
    };
    if from != selected {
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
    let home = view.world(m.game.board(), from);
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

fn busy(m: &HasamiMatch, ui: &PlayUi, animating: &Animating) -> bool {
    !animating.is_empty()
        || ui.is_settling()
        || !human_to_move(m)
        || m.record.outcome(&m.game).is_some()
}

fn handle_taps(
    mut taps: MessageReader<BoardTap>,
    m: Res<HasamiMatch>,
    mut ui: ResMut<PlayUi>,
    animating: Animating,
    mut moves: MessageWriter<PlayMove>,
    mut sfx: MessageWriter<Sfx>,
) {
    for &BoardTap(point) in taps.read() {
        // Input during an animation or the CPU's turn is ignored, whole.
        if busy(&m, &ui, &animating) {
            continue;
        }
        let pos = m.record.current();
        let me = m.game.side_to_move(pos);
        if let Some(from) = ui.selected {
            let mv = HasamiMove {
                from: from as u8,
                to: point as u8,
            };
            if m.record.is_legal(&m.game, mv) {
                ui.selected = None;
                ui.dirty = true;
                moves.write(PlayMove(mv));
                return;
            }
            if point == from {
                ui.selected = None;
                ui.dirty = true;
                continue;
            }
            if pos.at(point) != Some(me) {
                // Not a destination and not one's own piece: cancel.
                sfx.write(Sfx::Illegal);
                ui.selected = None;
                ui.dirty = true;
                continue;
            }
        }
        if pos.at(point) == Some(me) {
            ui.selected = Some(point);
            ui.dirty = true;
        }
    }
}

fn handle_commands(
    mut commands_in: MessageReader<PlayCommand>,
    mut m: ResMut<HasamiMatch>,
    mut ui: ResMut<PlayUi>,
    mut cpu: ResMut<CpuThink>,
    mut hint: ResMut<HintThink>,
    mut store: ResMut<Store>,
    mut settings: ResMut<Settings>,
    presets: Res<HasamiPresets>,
    animating: Animating,
    mut next: ResMut<NextState<Screen>>,
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
            PlayCommand::Undo => {
                if !m.setup.undo_allowed || !animating.is_empty() || ui.is_settling() {
                    continue;
                }
                let m = &mut *m;
                if undo_for_player(m) {
                    cpu.0 = None;
                    hint.0 = None;
                    ui.selected = None;
                    ui.hint = None;
                    ui.notice = None;
                    ui.last_move = m.record.moves().last().copied();
                    ui.pending_sync = true;
                    ui.dirty = true;
                    store.put(&GameId::Hasami.save_key(), &m.to_save());
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
                    *m.record.current(),
                    m.record.hashes(),
                    plan,
                ));
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
                m.record.resign(side);
                ui.pending_sync = true;
            }
        }
    }
}

/// 待った: against the CPU, takes back the player's last move and the CPU's
/// reply together; between two players, one move. False if nothing to undo.
pub fn undo_for_player(m: &mut HasamiMatch) -> bool {
    match m.setup.opponent {
        Opponent::Human => m.record.undo(),
        Opponent::Cpu(_) => {
            let human = m.setup.human_side;
            // Find the last position where the player was to move and had
            // moved from: only then is there a move of theirs to take back.
            let positions = m.record.positions();
            let Some(target) = (0..positions.len() - 1)
                .rev()
                .find(|&i| m.game.side_to_move(&positions[i]) == human)
            else {
                return false;
            };
            while m.record.ply() > target {
                m.record.undo();
            }
            true
        }
    }
}

fn cpu_turn(
    m: Res<HasamiMatch>,
    ui: Res<PlayUi>,
    presets: Res<HasamiPresets>,
    animating: Animating,
    mut cpu: ResMut<CpuThink>,
    mut moves: MessageWriter<PlayMove>,
) {
    let Opponent::Cpu(strength) = m.setup.opponent else {
        return;
    };
    if human_to_move(&m)
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
                *m.record.current(),
                m.record.hashes(),
                plan,
            ));
        }
        Some(thinker) => {
            if let Some(answer) = thinker.poll(&m.game) {
                cpu.0 = None;
                if let Some(result) = answer {
                    moves.write(PlayMove(result.best));
                }
            }
        }
    }
}

fn poll_hint(m: Res<HasamiMatch>, mut hint: ResMut<HintThink>, mut ui: ResMut<PlayUi>) {
    if hint.0.is_none() {
        return;
    }
    let Some(thinker) = hint.0.as_mut() else {
        return;
    };
    if let Some(answer) = thinker.poll(&m.game) {
        hint.0 = None;
        ui.hint = answer.map(|r| r.best);
        ui.dirty = true;
    }
}

fn apply_moves(
    mut moves: MessageReader<PlayMove>,
    mut m: ResMut<HasamiMatch>,
    mut ui: ResMut<PlayUi>,
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
        let before = *m.record.current();
        let mover = m.game.side_to_move(&before);
        let report = m.game.captures(&before, mv);
        let played = match m.record.play(&m.game, mv) {
            Ok(p) => p,
            Err(e) => {
                warn!("refused move: {e}");
                sfx.write(Sfx::Illegal);
                continue;
            }
        };
        let board = m.game.board();
        let to_world = |p: usize| view.world(board, p);
        let stand = stand_center(&view, mover, m.setup.bottom_side());
        for (entity, mut piece, transform) in &mut pieces_q {
            if piece.point == mv.from as usize {
                let target = to_world(mv.to as usize).extend(transform.translation.z);
                commands
                    .entity(entity)
                    .insert(Tween::slide(transform.translation, target, 0.22));
                piece.point = mv.to as usize;
            } else if report.captured.contains(&piece.point) {
                let target = stand.extend(3.0);
                commands
                    .entity(entity)
                    .remove::<PieceView>()
                    .insert(Tween::flight(
                        transform.translation,
                        target,
                        0.95,
                        0.5,
                        60.0,
                        0.55,
                    ));
            }
        }
        // Gold frames on the capturing pieces, red rings on the captured.
        for &p in &report.capturers {
            spawn_gold_frame(&mut commands, to_world(p), 0.95);
        }
        for &p in &report.captured {
            commands.spawn((
                DespawnOnExit(Screen::Play),
                Mesh2d(art.red_ring.clone()),
                MeshMaterial2d(art.red.clone()),
                Transform::from_translation(to_world(p).extend(4.0)),
                Lifetime(0.95),
            ));
        }
        sfx.write(if report.captured.is_empty() {
            Sfx::Place
        } else {
            Sfx::Capture
        });
        ui.last_move = Some(mv);
        ui.selected = None;
        ui.hint = None;
        ui.dirty = true;
        ui.pending_sync = true;
        ui.notice = notice_after(m, played.occurrences);
        let key = GameId::Hasami.save_key();
        if played.outcome.is_some() {
            store.remove(&key);
        } else {
            store.put(&key, &m.to_save());
        }
        bug.0 = format!(
            "game: hasami\nsetup: {:?}\nmoves: {}\nposition:\n{}",
            m.setup,
            m.record.ply(),
            m.record.current().to_text()
        );
    }
}

/// Notices after a move: repetition, or a lead that wins next turn.
fn notice_after(m: &HasamiMatch, occurrences: u32) -> Option<T> {
    match occurrences {
        2 => return Some(T::Repetition2),
        3 => return Some(T::Repetition3),
        _ => {}
    }
    let pos = m.record.current();
    let stm = pos.to_move();
    let lead = m.game.rules().lead?;
    (pos.captured_by(stm.opponent()) >= pos.captured_by(stm) + lead).then_some(T::LeadWarning)
}

fn spawn_gold_frame(commands: &mut Commands, at: Vec2, seconds: f32) {
    let s = pieces::CELL * 0.96;
    let t = 5.0;
    commands
        .spawn((
            DespawnOnExit(Screen::Play),
            Transform::from_translation(at.extend(4.5)),
            Visibility::default(),
            Lifetime(seconds),
        ))
        .with_children(|f| {
            for (offset, size) in [
                (Vec2::new(0.0, s / 2.0), Vec2::new(s + t, t)),
                (Vec2::new(0.0, -s / 2.0), Vec2::new(s + t, t)),
                (Vec2::new(s / 2.0, 0.0), Vec2::new(t, s + t)),
                (Vec2::new(-s / 2.0, 0.0), Vec2::new(t, s + t)),
            ] {
                f.spawn((
                    Sprite::from_color(palette::GOLD, size),
                    Transform::from_translation(offset.extend(0.0)),
                ));
            }
        });
}

/// Once the animation has played, rebuild the pieces from the rules (so the
/// view can never drift from them), then celebrate and end a finished game.
fn settle(
    mut commands: Commands,
    m: Res<HasamiMatch>,
    mut ui: ResMut<PlayUi>,
    view: Res<BoardView>,
    art: Res<Art>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    time: Res<Time>,
    animating: Animating,
    pieces_q: Query<Entity, With<PieceView>>,
    stands: Query<Entity, With<StandContent>>,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
    mut progress: ResMut<crate::app::GameProgress>,
) {
    // Read before writing: `PlayUi` then only counts as changed when it is.
    if let Some(left) = ui.end_timer {
        let left = left - time.delta_secs();
        if left > 0.0 || !animating.is_empty() {
            ui.end_timer = Some(left);
            return;
        }
        ui.end_timer = None;
        if let Some(outcome) = m.record.outcome(&m.game) {
            commands.insert_resource(LastResult {
                outcome,
                setup: m.setup.clone(),
                plies: m.record.ply(),
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
    for e in &pieces_q {
        commands.entity(e).despawn();
    }
    for e in &stands {
        commands.entity(e).despawn();
    }
    let pos = m.record.current();
    let board = m.game.board();
    let bottom = m.setup.bottom_side();
    for p in 0..board.len() {
        if let Some(side) = pos.at(p) {
            commands
                .spawn((
                    DespawnOnExit(Screen::Play),
                    PieceView { point: p, side },
                    Transform::from_translation(view.world(board, p).extend(1.0))
                        .with_rotation(pieces::facing(side == bottom)),
                    Visibility::default(),
                ))
                .with_children(|c| {
                    pieces::piece_children(c, &art, &fonts, settings.piece_style, side)
                });
        }
    }
    for side in Side::BOTH {
        let center = stand_center(&view, side, bottom);
        let taken = pos.captured_by(side) as usize;
        let victim = side.opponent();
        for i in 0..taken.min(9) {
            let (cx, cy) = ((i % 5) as f32, (i / 5) as f32);
            let at = center + Vec2::new((cx - 2.0) * 26.0, 18.0 - cy * 34.0);
            commands
                .spawn((
                    DespawnOnExit(Screen::Play),
                    StandContent,
                    Transform::from_translation(at.extend(0.5))
                        .with_scale(Vec3::splat(0.5))
                        .with_rotation(pieces::facing(side == bottom)),
                    Visibility::default(),
                ))
                .with_children(|c| {
                    pieces::piece_children(c, &art, &fonts, settings.piece_style, victim)
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

fn redraw_markers(
    mut commands: Commands,
    m: Res<HasamiMatch>,
    mut ui: ResMut<PlayUi>,
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
    let board = m.game.board();
    let square = |commands: &mut Commands, p: usize, color: Color, z: f32| {
        commands.spawn((
            DespawnOnExit(Screen::Play),
            Marker,
            Sprite::from_color(color, Vec2::splat(pieces::CELL - 2.0)),
            Transform::from_translation(view.world(board, p).extend(z)),
        ));
    };
    if let Some(mv) = ui.last_move {
        square(&mut commands, mv.from as usize, palette::LAST_MOVE, -1.5);
        square(&mut commands, mv.to as usize, palette::LAST_MOVE, -1.5);
    }
    if let Some(sel) = ui.selected {
        square(&mut commands, sel, palette::SELECTED, -1.4);
        let mut moves = Vec::new();
        m.game.legal_moves(m.record.current(), &mut moves);
        for mv in moves.iter().filter(|mv| mv.from as usize == sel) {
            commands.spawn((
                DespawnOnExit(Screen::Play),
                Marker,
                Mesh2d(art.dot.clone()),
                MeshMaterial2d(art.blue.clone()),
                Transform::from_translation(view.world(board, mv.to as usize).extend(2.0)),
            ));
        }
    }
    if let Some(h) = ui.hint {
        // A blue dotted arrow from the piece to its destination.
        let (a, b) = (
            view.world(board, h.from as usize),
            view.world(board, h.to as usize),
        );
        pieces::spawn_dotted_arrow(&mut commands, (DespawnOnExit(Screen::Play), Marker), a, b);
    }
}

fn update_hud(
    m: Res<HasamiMatch>,
    ui: Res<PlayUi>,
    settings: Res<Settings>,
    cpu: Res<CpuThink>,
    mut texts: ParamSet<(
        Query<&mut Text, With<TurnText>>,
        Query<&mut Text, With<ScoreText>>,
        Query<&mut Text, With<NoticeText>>,
        Query<(&mut Localized, &mut Text)>,
    )>,
    sound_buttons: Query<&Children, With<SoundButton>>,
    mut looks: Query<&mut widgets::ButtonLook, With<SoundButton>>,
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
        T::CpuThinking.get(lang).to_string()
    } else if matches!(m.setup.opponent, Opponent::Cpu(_)) && stm == m.setup.human_side {
        T::YourTurn.get(lang).to_string()
    } else if stm == Side::First {
        T::FirstToMove.get(lang).to_string()
    } else {
        T::SecondToMove.get(lang).to_string()
    };
    let turn = format!("{turn}\n{} {}", m.record.ply(), T::Moves.get(lang));
    for mut t in &mut texts.p0() {
        if t.0 != turn {
            t.0 = turn.clone();
        }
    }
    let score = format!(
        "{}: 歩 {} · と {}  ({} {})",
        T::Captured.get(lang),
        pos.captured_by(Side::First),
        pos.captured_by(Side::Second),
        lang.pick("目標", "target"),
        m.game.rules().capture_target
    );
    for mut t in &mut texts.p1() {
        if t.0 != score {
            t.0 = score.clone();
        }
    }
    let notice = ui
        .notice
        .map(|n| n.get(lang).to_string())
        .unwrap_or_default();
    for mut t in &mut texts.p2() {
        if t.0 != notice {
            t.0 = notice.clone();
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
}

/// Words for how the game ended.
pub fn reason_text(reason: EndReason) -> T {
    match reason {
        EndReason::CaptureTarget => T::ReasonCaptureTarget,
        EndReason::Lead => T::ReasonLead,
        EndReason::NoMoves => T::ReasonNoMoves,
        EndReason::Repetition => T::ReasonRepetition,
        EndReason::MoveLimit => T::ReasonMoveLimit,
        EndReason::Resignation => T::ReasonResignation,
    }
}

/// The result screen's "play again" button (tests click it).
#[derive(Component)]
pub struct PlayAgainButton;

fn spawn_result(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    result: Res<LastResult>,
) {
    let lang = settings.lang;
    let o = result.outcome;
    let headline = match (o.winner, result.setup.opponent) {
        (None, _) => T::Draw,
        (Some(w), Opponent::Cpu(_)) if w == result.setup.human_side => T::YouWin,
        (Some(_), Opponent::Cpu(_)) => T::YouLose,
        (Some(Side::First), Opponent::Human) => T::FirstWins,
        (Some(Side::Second), Opponent::Human) => T::SecondWins,
    };
    commands
        .spawn((DespawnOnExit(Screen::Result), widgets::screen_root()))
        .with_children(|root| {
            root.spawn(widgets::text(
                &fonts,
                localized_game_name(GameId::Hasami, lang),
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
                reason_text(o.reason),
                22.0,
                palette::INK,
            ));
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
                .observe(play_again);
                row.spawn(widgets::key_button(&fonts, lang, T::BackToList, false))
                    .observe(crate::app::screens::go_to(Screen::GameList));
            });
        });
}

/// もう一度: a new game with the same settings (a random first player is
/// drawn again).
fn play_again(
    _: On<Pointer<Click>>,
    result: Res<LastResult>,
    draft: Res<SetupDraft>,
    presets: Res<HasamiPresets>,
    mut commands: Commands,
    mut store: ResMut<Store>,
    mut next: ResMut<NextState<Screen>>,
) {
    let mut setup = result.setup.clone();
    if draft.first == super::FirstChoice::Random {
        setup.human_side = draft.to_setup(&presets.0, &mut rand::rng()).human_side;
    }
    if let Ok(m) = HasamiMatch::new(setup) {
        store.put(&GameId::Hasami.save_key(), &m.to_save());
        commands.insert_resource(m);
        next.set(Screen::Play);
    }
}
