//! The はさみ将棋 tutorial: steps from `levels/tutorials/hasami.ron`, run by
//! the shared runner (`crate::app::tutorial`). This module draws each step's
//! diagram, highlights and arrows, and lets the player try the step's move.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::pieces::{self, Art};
use super::setup::chosen_hasami;
use crate::app::Screen;
use crate::app::audio::Sfx;
use crate::app::settings::Settings;
use crate::app::tutorial::{self, TutorialProgress};
use crate::app::widgets::{Fonts, palette};
use crate::games::board_view::BoardView;
use crate::rules::data;
use crate::rules::game::{Game, Side};
use crate::rules::hasami::{Hasami, HasamiMove, HasamiPos, HasamiRules};

/// The diagram on the board.
#[derive(Resource)]
pub struct TutorialBoard {
    pub game: Hasami,
    pub pos: HasamiPos,
    pub selected: Option<usize>,
    /// The step whose diagram `pos` shows.
    shown_step: Option<usize>,
}

#[derive(Component, Clone)]
struct TutorialScene;

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Tutorial), enter.run_if(chosen_hasami))
        .add_systems(OnExit(Screen::Tutorial), |mut c: Commands| {
            c.remove_resource::<TutorialBoard>()
        })
        .add_systems(
            Update,
            (load_diagram, tutorial_input, redraw)
                .chain()
                .run_if(in_state(Screen::Tutorial))
                .run_if(resource_exists::<TutorialBoard>)
                .run_if(resource_exists::<TutorialProgress>),
        );
}

fn enter(mut commands: Commands) {
    let tutorial = match data::hasami_tutorial() {
        Ok(t) => t,
        Err(e) => return error!("{e}"),
    };
    let game = match data::board("shogi9")
        .map_err(|e| e.to_string())
        .and_then(|b| Hasami::new(b, HasamiRules::STANDARD))
    {
        Ok(g) => g,
        Err(e) => return error!("{e}"),
    };
    let view = BoardView::new(game.board(), Vec2::new(-190.0, 0.0), pieces::CELL, false);
    commands.insert_resource(view);
    commands.insert_resource(TutorialBoard {
        pos: game.start(),
        game,
        selected: None,
        shown_step: None,
    });
    commands.insert_resource(TutorialProgress::new(tutorial));
}

/// Sets up the diagram whenever the step changes.
fn load_diagram(progress: Res<TutorialProgress>, mut board: ResMut<TutorialBoard>) {
    if board.shown_step == Some(progress.step) {
        return;
    }
    let step = progress.current();
    let rows: Vec<&str> = step.board.iter().map(String::as_str).collect();
    // Tutorial files are validated when loaded, so the diagram parses.
    if let Ok(p) = HasamiPos::from_rows(&rows, step.to_move, [0, 0]) {
        board.pos = p;
    }
    board.selected = None;
    board.shown_step = Some(progress.step);
}

fn tutorial_input(
    buttons: Res<ButtonInput<MouseButton>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    view: Res<BoardView>,
    mut board: ResMut<TutorialBoard>,
    mut progress: ResMut<TutorialProgress>,
    mut sfx: MessageWriter<Sfx>,
) {
    if !buttons.just_pressed(MouseButton::Left) || !progress.awaits_move() {
        return;
    }
    let (Ok(window), Ok((camera, cam_t))) = (windows.single(), cameras.single()) else {
        return;
    };
    let Some(point) = window
        .cursor_position()
        .and_then(|c| camera.viewport_to_world_2d(cam_t, c).ok())
        .and_then(|w| view.point_at(board.game.board(), w))
    else {
        return;
    };
    let me = board.game.side_to_move(&board.pos);
    if let Some(from) = board.selected {
        let mv = HasamiMove {
            from: from as u8,
            to: point as u8,
        };
        let mut legal = Vec::new();
        board.game.legal_moves(&board.pos, &mut legal);
        if legal.contains(&mv) {
            let names = board.game.board();
            let (from_name, to_name) = (
                names.point(from).name.clone(),
                names.point(point).name.clone(),
            );
            board.selected = None;
            if progress.judge(&from_name, &to_name) {
                let captures = !board.game.captures(&board.pos, mv).captured.is_empty();
                board.pos = board.game.play(&board.pos, mv);
                sfx.write(if captures { Sfx::Capture } else { Sfx::Place });
            } else {
                sfx.write(Sfx::Illegal);
            }
            return;
        }
    }
    board.selected = (board.pos.at(point) == Some(me)).then_some(point);
}

fn redraw(
    mut commands: Commands,
    board: Res<TutorialBoard>,
    progress: Res<TutorialProgress>,
    view: Res<BoardView>,
    art: Res<Art>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    scene: Query<Entity, With<TutorialScene>>,
) {
    if !board.is_changed() && !progress.is_changed() && !settings.is_changed() {
        return;
    }
    for e in &scene {
        commands.entity(e).despawn();
    }
    let graph = board.game.board();
    let scope = (DespawnOnExit(Screen::Tutorial), TutorialScene);
    pieces::spawn_board(&mut commands, &view, &fonts, scope.clone());
    let step = progress.current();
    let mut marks: Vec<usize> = step
        .highlights
        .iter()
        .filter_map(|n| graph.find(n))
        .collect();
    marks.extend(board.selected);
    for p in marks {
        commands.spawn((
            scope.clone(),
            Sprite::from_color(palette::SELECTED, Vec2::splat(pieces::CELL - 2.0)),
            Transform::from_translation(view.world(graph, p).extend(-1.4)),
        ));
    }
    for arrow in &step.arrows {
        if let (Some(a), Some(b)) = (graph.find(&arrow.from), graph.find(&arrow.to)) {
            pieces::spawn_dotted_arrow(
                &mut commands,
                scope.clone(),
                view.world(graph, a),
                view.world(graph, b),
            );
        }
    }
    for p in 0..graph.len() {
        if let Some(side) = board.pos.at(p) {
            commands
                .spawn((
                    scope.clone(),
                    Transform::from_translation(view.world(graph, p).extend(1.0))
                        .with_rotation(pieces::facing(side == Side::First)),
                    Visibility::default(),
                ))
                .with_children(|c| {
                    pieces::piece_children(c, &art, &fonts, settings.piece_style, side)
                });
        }
    }
    tutorial::spawn_panel(&mut commands, scope, &fonts, settings.lang, &progress);
}
