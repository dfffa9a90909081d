//! まわり将棋's tutorial: the steps of `levels/tutorials/mawari.ron` on the
//! play screen's board. A step shows four koma lying in the poses it names
//! (drawn as the dice are, from resting bodies), or a staged example whose
//! throw plays out, banners and all, when the player taps やってみる.

use bevy::prelude::*;

use super::dice_view::DiceSprites;
use super::scene::{BoardPlace, Phase, SceneMaker, Shown};
use super::session::{MawariMatch, Seat};
use super::throw::pose_label;
use crate::rules::mawari::dice::{Pose, lying_on};
use crate::rules::mawari::levels::{MawariLesson, MawariPresets, Stage};
use crate::rules::mawari::physics::{Face, KomaShape, V3};
use crate::rules::mawari::race::{MawariRules, Race};
use crate::shell::Screen;
use crate::shell::audio::Sfx;
use crate::shell::i18n::{Lang, T};
use crate::shell::screens::go_to;
use crate::shell::widgets::{self, Fonts, palette};

/// The tutorial shown and the step reached.
#[derive(Resource, Clone, Debug)]
pub struct LessonState {
    pub lesson: MawariLesson,
    pub presets: MawariPresets,
    pub step: usize,
}

impl LessonState {
    fn stage(&self) -> Option<&Stage> {
        self.lesson
            .steps
            .get(self.step)
            .and_then(|s| s.stage.as_ref())
    }
    /// The race a step starts from: its stage, or two pawns at the start.
    pub fn race(&self) -> Race {
        self.stage()
            .and_then(|s| s.race(self.presets.rules(&s.rules)?).ok())
            .unwrap_or_else(|| Race::two_pawns(MawariRules::BASIC))
    }
}

pub(crate) fn enter(mut scene: SceneMaker) {
    let loaded = crate::rules::mawari::levels::presets()
        .and_then(|p| crate::rules::mawari::levels::lesson().map(|l| (p, l)));
    let (presets, lesson) = match loaded {
        Ok(x) => x,
        Err(e) => {
            // A broken tutorial file is named; the list is shown again.
            scene.back_to_list(e);
            return;
        }
    };
    let state = LessonState {
        lesson,
        presets,
        step: 0,
    };
    let m = MawariMatch {
        race: state.race(),
        seats: vec![Seat::Person; 2],
        log: Vec::new(),
        rng: 1,
        quick: false,
        preset: None,
        names: Vec::new(),
        colours: Vec::new(),
        draw: None,
    };
    if scene.open(&m, Screen::Tutorial) {
        scene.commands.insert_resource(m);
        scene.commands.insert_resource(state);
    }
}

/// Where the koma of a picture lie (cm from the board's centre).
const PICTURE_X: [f64; 4] = [-7.5, -2.5, 2.5, 7.5];

/// Resting bodies for a picture of four poses.
pub fn picture_bodies(
    shape: &KomaShape,
    poses: &[Pose; 4],
) -> Vec<(V3, crate::rules::mawari::physics::Quat)> {
    let mut out: Vec<(V3, crate::rules::mawari::physics::Quat)> = Vec::new();
    for (i, pose) in poses.iter().enumerate() {
        let face = match pose {
            Pose::FaceUp => Face::Back,
            Pose::FaceDown | Pose::Stacked | Pose::OffBoard => Face::Front,
            Pose::Side => Face::Side,
            Pose::Upright => Face::Base,
            Pose::Leaning => Face::Shoulder,
        };
        let mut body = lying_on(shape, face, PICTURE_X[i], 2.0);
        if *pose == Pose::Stacked && i > 0 {
            // Half on the koma before it.
            let (below, _) = out[i - 1];
            body.position.x = below.x + 1.0;
            body.position.y = below.y + 0.6;
            body.position.z += below.z * 2.0;
        }
        out.push((body.position, body.rotation));
    }
    out
}

/// Sets the board, the pieces and the picture for the step reached.
pub(crate) fn draw_step(
    state: Res<LessonState>,
    mut m: ResMut<MawariMatch>,
    mut shown: ResMut<Shown>,
    mut phase: ResMut<Phase>,
    place: Res<BoardPlace>,
    settings: Res<crate::shell::settings::Settings>,
    mut dice: DiceSprites,
) {
    if !state.is_changed() {
        return;
    }
    m.race = state.race();
    shown.pieces = m.race.pieces.clone();
    shown.war = m.race.war;
    shown.banner = None;
    *phase = Phase::Waiting;
    dice.hide();
    let poses = state.lesson.steps.get(state.step).and_then(|s| s.poses);
    let (Some(poses), Some(shape)) = (poses, dice.shape()) else {
        return;
    };
    let bodies = picture_bodies(shape, &poses);
    dice.show(&bodies, place.centre);
    for (i, (p, _)) in bodies.iter().enumerate() {
        dice.label(i, pose_label(poses[i], settings.lang), *p, place.centre);
    }
}

/// The tutorial's panel: the step's text and its buttons.
pub(crate) fn panel(
    panel: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    state: &LessonState,
) {
    let Some(step) = state.lesson.steps.get(state.step) else {
        return;
    };
    panel.spawn(widgets::text(
        fonts,
        lang.text(&state.lesson.title),
        22.0,
        palette::INK,
    ));
    panel.spawn(widgets::text(
        fonts,
        format!("{} / {}", state.step + 1, state.lesson.steps.len()),
        14.0,
        palette::INK_SOFT,
    ));
    panel.spawn(widgets::text(
        fonts,
        lang.text(&step.title),
        24.0,
        palette::VERMILION,
    ));
    panel.spawn((
        Node {
            max_width: px(370),
            ..default()
        },
        children![widgets::text(
            fonts,
            lang.text(&step.body),
            17.0,
            palette::INK
        )],
    ));
    let len = state.lesson.steps.len();
    panel.spawn(widgets::row()).with_children(|row| {
        if step.stage.is_some() {
            row.spawn((
                widgets::key_button(fonts, lang, T::MawariTryIt, true),
                TryButton,
            ))
            .observe(try_stage);
        }
        row.spawn(widgets::key_button(fonts, lang, T::Previous, false))
            .observe(
                |_: On<Pointer<Click>>, mut s: ResMut<LessonState>, mut sfx: MessageWriter<Sfx>| {
                    sfx.write(Sfx::Button);
                    s.step = s.step.saturating_sub(1);
                },
            );
        row.spawn((widgets::key_button(fonts, lang, T::Next, false), NextStep))
            .observe(
                move |_: On<Pointer<Click>>,
                      mut s: ResMut<LessonState>,
                      mut sfx: MessageWriter<Sfx>| {
                    sfx.write(Sfx::Button);
                    s.step = (s.step + 1).min(len - 1);
                },
            );
        row.spawn(widgets::key_button(fonts, lang, T::BackToList, false))
            .observe(go_to(Screen::GameList));
    });
}

/// やってみる (tests click it).
#[derive(Component)]
pub struct TryButton;

/// 次へ (tests click it).
#[derive(Component)]
pub struct NextStep;

/// Plays the step's staged throw from its start.
fn try_stage(
    _: On<Pointer<Click>>,
    state: Res<LessonState>,
    mut m: ResMut<MawariMatch>,
    mut shown: ResMut<Shown>,
    mut phase: ResMut<Phase>,
    mut sfx: MessageWriter<Sfx>,
) {
    if !(phase.is_waiting() || matches!(*phase, Phase::Over)) {
        return;
    }
    let Some(stage) = state.stage() else { return };
    sfx.write(Sfx::Button);
    m.race = state.race();
    shown.pieces = m.race.pieces.clone();
    shown.war = m.race.war;
    let events = m.race.apply(stage.throw);
    *phase = Phase::Moving {
        events: events.into(),
        t: 0.4,
    };
}
