//! The はさみ将棋 tutorial: steps from `levels/tutorials/hasami.ron`, each
//! with a diagram, highlights and arrows, and optionally a "try it" move.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::pieces::{self, Art};
use super::setup::chosen_hasami;
use crate::app::Screen;
use crate::app::audio::Sfx;
use crate::app::i18n::{Lang, T};
use crate::app::screens::go_to;
use crate::app::settings::Settings;
use crate::app::widgets::{self, Fonts, palette};
use crate::games::board_view::BoardView;
use crate::rules::data::{self, Tutorial};
use crate::rules::game::Game;
use crate::rules::hasami::{Hasami, HasamiMove, HasamiPos, HasamiRules};

/// Where the player is in the tutorial.
#[derive(Resource)]
pub struct TutorialRun {
    pub tutorial: Tutorial,
    pub game: Hasami,
    pub step: usize,
    pub pos: HasamiPos,
    pub selected: Option<usize>,
    /// Feedback after a "try it" move: right (true) or wrong (false).
    pub feedback: Option<bool>,
}

impl TutorialRun {
    fn load_step(&mut self, step: usize) {
        self.step = step.min(self.tutorial.steps.len() - 1);
        let s = &self.tutorial.steps[self.step];
        let rows: Vec<&str> = s.board.iter().map(String::as_str).collect();
        // The file was validated when it was loaded.
        if let Ok(p) = HasamiPos::from_rows(&rows, s.to_move, [0, 0]) {
            self.pos = p;
        }
        self.selected = None;
        self.feedback = None;
    }

    /// Plays `mv` if it is this step's expected move; otherwise reports wrong.
    pub fn try_move(&mut self, mv: HasamiMove) -> bool {
        let s = &self.tutorial.steps[self.step];
        let board = self.game.board();
        let expected = s
            .expect
            .as_ref()
            .and_then(|e| Some((board.find(&e.from)?, board.find(&e.to)?)));
        let right = expected == Some((mv.from as usize, mv.to as usize));
        if right {
            self.pos = self.game.play(&self.pos, mv);
        }
        self.feedback = Some(right);
        self.selected = None;
        right
    }
}

#[derive(Component, Clone)]
struct TutorialScene;

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Tutorial), enter.run_if(chosen_hasami))
        .add_systems(OnExit(Screen::Tutorial), |mut c: Commands| {
            c.remove_resource::<TutorialRun>()
        })
        .add_systems(
            Update,
            (tutorial_input, redraw)
                .chain()
                .run_if(in_state(Screen::Tutorial))
                .run_if(resource_exists::<TutorialRun>),
        );
}

fn enter(mut commands: Commands) {
    let tutorial = match data::hasami_tutorial() {
        Ok(t) => t,
        Err(e) => return error!("{e}"),
    };
    let Ok(board) = data::board("shogi9") else {
        return;
    };
    let Ok(game) = Hasami::new(board, HasamiRules::STANDARD) else {
        return;
    };
    let pos = game.start();
    let mut run = TutorialRun {
        tutorial,
        game,
        step: 0,
        pos,
        selected: None,
        feedback: None,
    };
    run.load_step(0);
    let view = BoardView::new(
        run.game.board(),
        Vec2::new(-190.0, 0.0),
        pieces::CELL,
        false,
    );
    commands.insert_resource(view);
    commands.insert_resource(run);
}

fn tutorial_input(
    buttons: Res<ButtonInput<MouseButton>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    view: Res<BoardView>,
    mut run: ResMut<TutorialRun>,
    mut sfx: MessageWriter<Sfx>,
) {
    if !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let (Ok(window), Ok((camera, cam_t))) = (windows.single(), cameras.single()) else {
        return;
    };
    let Some(point) = window
        .cursor_position()
        .and_then(|c| camera.viewport_to_world_2d(cam_t, c).ok())
        .and_then(|w| view.point_at(run.game.board(), w))
    else {
        return;
    };
    let step = &run.tutorial.steps[run.step];
    if step.expect.is_none() || run.feedback == Some(true) {
        return;
    }
    let me = run.game.side_to_move(&run.pos);
    if let Some(from) = run.selected {
        let mv = HasamiMove {
            from: from as u8,
            to: point as u8,
        };
        let mut legal = Vec::new();
        run.game.legal_moves(&run.pos, &mut legal);
        if legal.contains(&mv) {
            let captures = !run.game.captures(&run.pos, mv).captured.is_empty();
            if run.try_move(mv) {
                sfx.write(if captures { Sfx::Capture } else { Sfx::Place });
            } else {
                sfx.write(Sfx::Illegal);
            }
            return;
        }
    }
    run.selected = (run.pos.at(point) == Some(me)).then_some(point);
    run.set_changed();
}

fn step_button(lang: Lang, fonts: &Fonts, key: T, delta: i32) -> impl Bundle {
    (
        widgets::key_button(fonts, lang, key, delta > 0),
        Observer::new(
            move |_: On<Pointer<Click>>,
                  mut run: ResMut<TutorialRun>,
                  mut sfx: MessageWriter<Sfx>| {
                sfx.write(Sfx::Button);
                let next = (run.step as i32 + delta).clamp(0, run.tutorial.steps.len() as i32 - 1)
                    as usize;
                run.load_step(next);
            },
        ),
    )
}

fn redraw(
    mut commands: Commands,
    run: Res<TutorialRun>,
    view: Res<BoardView>,
    art: Res<Art>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    scene: Query<Entity, With<TutorialScene>>,
) {
    if !run.is_changed() && !settings.is_changed() {
        return;
    }
    for e in &scene {
        commands.entity(e).despawn();
    }
    let lang = settings.lang;
    let board = run.game.board();
    let scope = (DespawnOnExit(Screen::Tutorial), TutorialScene);
    pieces::spawn_board(&mut commands, &view, &fonts, scope.clone());
    let step = &run.tutorial.steps[run.step];
    for name in &step.highlights {
        if let Some(p) = board.find(name) {
            commands.spawn((
                scope.clone(),
                Sprite::from_color(palette::SELECTED, Vec2::splat(pieces::CELL - 2.0)),
                Transform::from_translation(view.world(board, p).extend(-1.4)),
            ));
        }
    }
    for arrow in &step.arrows {
        let (Some(a), Some(b)) = (board.find(&arrow.from), board.find(&arrow.to)) else {
            continue;
        };
        pieces::spawn_dotted_arrow(
            &mut commands,
            scope.clone(),
            view.world(board, a),
            view.world(board, b),
        );
    }
    for p in 0..board.len() {
        if let Some(side) = run.pos.at(p) {
            commands
                .spawn((
                    scope.clone(),
                    Transform::from_translation(view.world(board, p).extend(1.0))
                        .with_rotation(pieces::facing(side == crate::rules::game::Side::First)),
                    Visibility::default(),
                ))
                .with_children(|c| {
                    pieces::piece_children(c, &art, &fonts, settings.piece_style, side)
                });
        }
    }
    if let Some(sel) = run.selected {
        commands.spawn((
            scope.clone(),
            Sprite::from_color(palette::SELECTED, Vec2::splat(pieces::CELL - 2.0)),
            Transform::from_translation(view.world(board, sel).extend(-1.3)),
        ));
    }
    let feedback = match run.feedback {
        Some(true) => step
            .right
            .as_ref()
            .map(|t| lang.text(t).to_string())
            .unwrap_or_default(),
        Some(false) => step
            .wrong
            .as_ref()
            .map(|t| lang.text(t).to_string())
            .unwrap_or_default(),
        None if step.expect.is_some() => format!("▶ {}", T::TryIt.get(lang)),
        None => String::new(),
    };
    let last = run.step + 1 == run.tutorial.steps.len();
    commands
        .spawn((
            scope.clone(),
            Node {
                position_type: PositionType::Absolute,
                right: px(0),
                top: px(0),
                width: px(300),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(14)),
                row_gap: px(10),
                ..default()
            },
        ))
        .with_children(|panel| {
            panel.spawn(widgets::text(
                &fonts,
                lang.text(&run.tutorial.title),
                20.0,
                palette::INK_SOFT,
            ));
            panel.spawn(widgets::text(
                &fonts,
                format!(
                    "{} / {}  {}",
                    run.step + 1,
                    run.tutorial.steps.len(),
                    lang.text(&step.title)
                ),
                22.0,
                palette::INK,
            ));
            panel.spawn(widgets::text(
                &fonts,
                lang.text(&step.text),
                16.0,
                palette::INK,
            ));
            panel.spawn(widgets::text(&fonts, feedback, 16.0, palette::VERMILION));
            if last {
                panel.spawn(widgets::label(
                    &fonts,
                    lang,
                    T::TutorialDone,
                    16.0,
                    palette::INK_SOFT,
                ));
            }
            panel.spawn(widgets::row()).with_children(|row| {
                row.spawn(step_button(lang, &fonts, T::Previous, -1));
                row.spawn(step_button(lang, &fonts, T::Next, 1));
            });
            panel
                .spawn(widgets::key_button(&fonts, lang, T::BackToList, false))
                .observe(go_to(Screen::GameList));
        });
}
