//! The player's hands on the board: clicks, taps and drags become board
//! taps and moves; keys become commands.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::state::{
    Animating, BoardInspect, BoardTap, HOP, MOVING_Z, PieceView, PlayCommand, PlayMove, PlayUi,
};
use crate::games::board_view::BoardView;
use crate::games::session::{Match, Playable};
use crate::rules::taps::{self, Tap};
use crate::shell::anim::Tween;
use crate::shell::audio::Sfx;
use crate::shell::keys::ButtonFocus;
use crate::shell::layout::PointerInput;
use crate::shell::screens::quit_key;

pub(super) fn pointer_input<G: Playable>(
    pointer: PointerInput,
    view: Option<Res<BoardView>>,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut taps: MessageWriter<BoardTap>,
) {
    let Some(view) = view else { return };
    let Some(frame) = pointer.frame() else { return };
    let to_point = |screen: Vec2| {
        frame
            .world(screen)
            .and_then(|w| view.point_at(m.game.graph(), w))
    };
    if let Some(p) = frame.pressed {
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
    if let Some(p) = frame.released {
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

/// Seconds a finger rests on a piece before its help shows (a long press).
const LONG_PRESS: f32 = 0.5;
/// How far (screen pixels) a resting finger may wander.
const LONG_PRESS_SLOP: f32 = 12.0;

/// A right click, or a finger resting on a point, inspects the piece there.
pub(super) fn inspect_input<G: Playable>(
    pointer: PointerInput,
    time: Res<Time>,
    view: Option<Res<BoardView>>,
    m: Res<Match<G>>,
    mut held: Local<Option<(u64, f32)>>,
    mut inspects: MessageWriter<BoardInspect>,
) {
    let Some(view) = view else { return };
    let Some(frame) = pointer.frame() else { return };
    let to_point = |screen: Vec2| {
        frame
            .world(screen)
            .and_then(|w| view.point_at(m.game.graph(), w))
    };
    if let Some(point) = frame.right_pressed.and_then(to_point) {
        inspects.write(BoardInspect(point));
    }
    let now = time.elapsed_secs();
    match pointer.held_touch() {
        Some((id, start, at)) if start.distance(at) < LONG_PRESS_SLOP => match *held {
            Some((touch, since)) if touch == id => {
                if now - since >= LONG_PRESS {
                    if let Some(point) = to_point(start) {
                        inspects.write(BoardInspect(point));
                    }
                    // Once a press.
                    *held = Some((id, f32::INFINITY));
                }
            }
            _ => *held = Some((id, now)),
        },
        _ => *held = None,
    }
}

/// Shows the help of the piece inspected (an empty point hides it); the
/// selection and the move being made are left as they are.
pub(super) fn handle_inspect<G: Playable>(
    mut inspects: MessageReader<BoardInspect>,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
) {
    for &BoardInspect(point) in inspects.read() {
        let inspected = m.game.piece_at(m.record.current(), point).map(|_| point);
        if ui.inspected != inspected {
            ui.inspected = inspected;
        }
    }
}

/// While a selected piece is held down, it follows the pointer.
pub(super) fn drag_piece<G: Playable>(
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
            // Held up off the board: bigger, its shadow further off.
            transform.scale = Vec3::splat(1.1);
        }
    }
}

/// The keyboard's hands on the board: the arrow keys move a cursor over
/// the points (it starts on the selected piece, or in the middle), Enter or
/// Space taps where it stands.
pub(super) fn keyboard_cursor<G: Playable>(
    keys: Res<ButtonInput<KeyCode>>,
    mut presses: MessageReader<bevy::input::keyboard::KeyboardInput>,
    view: Option<Res<BoardView>>,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut taps: MessageWriter<BoardTap>,
    focus: ButtonFocus,
) {
    let Some(view) = view else { return };
    let graph = m.game.graph();
    for dir in crate::shell::keys::arrow_presses(&mut presses) {
        if let Some(cursor) = view.move_cursor(graph, ui.cursor, ui.selected(), dir) {
            ui.cursor = Some(cursor);
            ui.dirty = true;
        }
    }
    if keys.any_just_pressed([KeyCode::Enter, KeyCode::Space])
        && focus.focused().is_none()
        && let Some(at) = ui.cursor
    {
        taps.write(BoardTap(at));
    }
}

pub(super) fn keyboard_input(
    keys: Res<ButtonInput<KeyCode>>,
    mut commands: MessageWriter<PlayCommand>,
) {
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
    if quit_key(&keys) {
        commands.write(PlayCommand::Quit);
    }
}

pub(super) fn busy<G: Playable>(m: &Match<G>, ui: &PlayUi<G>, animating: &Animating) -> bool {
    !animating.is_empty()
        || ui.is_settling()
        || !m.human_to_move()
        || m.record.outcome(&m.game).is_some()
}

pub(super) fn handle_taps<G: Playable>(
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
        // A tap puts an inspected piece's help away: the selection's shows.
        if ui.inspected.is_some() {
            ui.inspected = None;
        }
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
