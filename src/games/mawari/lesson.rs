//! まわり将棋's tutorial: the steps of `levels/tutorials/mawari.ron` on the
//! play screen's board. A step shows four koma lying in the poses it names
//! or where a simulated throw left them (drawn as the dice are, from
//! resting bodies); or a staged example whose throws play out one after
//! another, banners and all, when the player taps やってみる; or a practice
//! throw, made as in a game (a drag across the board, or 投げる) and read,
//! that leaves the race alone.

use crate::shell::widgets::type_scale as ty;
use std::collections::VecDeque;

use bevy::prelude::*;

use super::dice_view::{DiceSprites, picture_bodies};
use super::panel::{PanelFrame, ThrowButton};
use super::scene::{BoardPlace, Dice, Phase, RacePiece, SceneMaker, Shown, spawn_pieces};
use super::session::{MawariMatch, Seat};
use super::throw::{ThrowRequest, pose_label, value_text};
use crate::games::art::Art;
use crate::rules::mawari::dice::{Pose, ThrowValue, Toss};
use crate::rules::mawari::levels::{LessonStep, MawariLesson, MawariPresets, Stage};
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
    fn current(&self) -> Option<&LessonStep> {
        self.lesson.steps.get(self.step)
    }
    fn stage(&self) -> Option<&Stage> {
        self.current().and_then(|s| s.stage.as_ref())
    }
    /// Whether the step reached is a practice throw.
    pub fn practising(&self) -> bool {
        self.current().is_some_and(|s| s.practice)
    }
    /// The race a step starts from: its stage, or two pawns at the start.
    pub fn race(&self) -> Race {
        self.stage()
            .and_then(|s| s.race(s.rules_in(&self.presets)?).ok())
            .unwrap_or_else(|| Race::two_pawns(MawariRules::BASIC))
    }
}

/// The throws of the staged example still to be made (やってみる fills it;
/// each is thrown once the one before has played out).
#[derive(Resource, Clone, Debug, Default)]
pub struct StagedThrows(pub VecDeque<ThrowValue>);

/// The practice throws made at the practice step: how the last one came to
/// rest and what it counts, shown once the board has shown it.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PracticeThrows {
    pub count: u32,
    pub last: Option<([Pose; 4], ThrowValue)>,
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
        // Practice throws differ from one visit to the next, as in a game.
        rng: rand::random::<u64>(),
        quick: false,
        preset: None,
        names: Vec::new(),
        colours: Vec::new(),
        draw: None,
        start: None,
        room_events: None,
        room_code: None,
    };
    if scene.open(&m, Screen::Tutorial) {
        scene.commands.insert_resource(m);
        scene.commands.insert_resource(state);
        scene.commands.insert_resource(StagedThrows::default());
        scene.commands.insert_resource(PracticeThrows::default());
    }
}

/// What showing a step needs beside the match and the screen's state.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct StepScene<'w, 's> {
    commands: Commands<'w, 's>,
    art: Res<'w, Art>,
    fonts: Res<'w, Fonts>,
    pieces: Query<'w, 's, Entity, With<RacePiece>>,
    staged: ResMut<'w, StagedThrows>,
    practice: ResMut<'w, PracticeThrows>,
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
    mut scene: StepScene,
) {
    if !state.is_changed() {
        return;
    }
    m.race = state.race();
    scene.staged.0.clear();
    *scene.practice = PracticeThrows::default();
    // A stage of three or four players: a seat and a koma for each.
    if scene.pieces.iter().count() != m.race.pieces.len() {
        m.seats = vec![Seat::Person; m.race.pieces.len()];
        for e in &scene.pieces {
            scene.commands.entity(e).despawn();
        }
        spawn_pieces(
            &mut scene.commands,
            &scene.art,
            &scene.fonts,
            &place,
            &m,
            DespawnOnExit(Screen::Tutorial),
        );
    }
    *shown = Shown {
        banner: None,
        ..Shown::of(&m)
    };
    *phase = Phase::Waiting;
    dice.hide();
    let Some(step) = state.current() else { return };
    let lang = settings.lang;
    if let (Some(thrown), Some(resting)) = (&step.thrown, &step.resting) {
        // A real throw, drawn where its koma came to rest.
        dice.show(resting, place.centre);
        let texts = thrown.poses.map(|p| pose_label(p, lang));
        dice.labels(&texts, resting, place.centre);
        return;
    }
    let (Some(poses), Some(shape)) = (step.poses, dice.shape()) else {
        return;
    };
    let bodies = picture_bodies(shape, &poses);
    dice.show(&bodies, place.centre);
    dice.labels(&poses.map(|p| pose_label(p, lang)), &bodies, place.centre);
}

/// Throws the staged example's next throw once the last has played out
/// (a player who sits out first passes, with a banner, as in a game).
pub(crate) fn play_staged_throws(
    mut staged: ResMut<StagedThrows>,
    mut m: ResMut<MawariMatch>,
    mut shown: ResMut<Shown>,
    mut phase: ResMut<Phase>,
    settings: Res<crate::shell::settings::Settings>,
) {
    if !phase.is_waiting() || staged.0.is_empty() {
        return;
    }
    if m.race.is_over() {
        staged.0.clear();
        return;
    }
    if m.race.sits_out() {
        let events = m.race.skip_turn();
        *phase = Phase::Moving {
            events: events.into(),
            t: 0.2,
        };
        return;
    }
    let Some(value) = staged.0.pop_front() else {
        return;
    };
    let lang = settings.lang;
    if let Some(by) = m.race.thrower() {
        // What was thrown, before the pieces move.
        shown.banner = Some((
            format!("{} {}", m.name(by, lang), value_text(value, lang)),
            0.9,
        ));
    }
    let events = m.race.apply(value);
    *phase = Phase::Moving {
        events: events.into(),
        t: 0.9,
    };
}

/// A practice throw: simulated and shown as in a game (its flight, then
/// the koma at rest, read), the race untouched.
pub(crate) fn practice_throws(
    mut requests: MessageReader<ThrowRequest>,
    state: Res<LessonState>,
    dice: Res<Dice>,
    mut phase: ResMut<Phase>,
    mut practice: ResMut<PracticeThrows>,
) {
    for ThrowRequest(toss) in requests.read() {
        if !state.practising() || !phase.is_waiting() {
            continue;
        }
        let throw = dice.0.throw(*toss, true);
        practice.count += 1;
        practice.last = Some((throw.poses, throw.value));
        *phase = Phase::Throwing {
            throw,
            events: Vec::new(),
            by: 0,
            t: 0.0,
        };
    }
}

/// The tutorial's panel, in the play screen's panel frame: the step's
/// text and its buttons instead of the players' ladders.
pub(crate) fn refresh_panel(
    mut frame: PanelFrame,
    state: Res<LessonState>,
    practice: Option<Res<PracticeThrows>>,
) {
    if !frame.stale(state.is_changed()) {
        return;
    }
    frame.redraw(|panel, s| {
        step_panel(
            panel,
            &s.fonts,
            s.settings.lang,
            &state,
            practice.as_deref(),
            s.phase.is_waiting(),
        );
    });
}

/// The tutorial's state goes with the screen.
pub(crate) fn leave(mut commands: Commands) {
    commands.remove_resource::<LessonState>();
}

/// The step's text and its buttons.
fn step_panel(
    panel: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    state: &LessonState,
    practice: Option<&PracticeThrows>,
    waiting: bool,
) {
    let Some(step) = state.lesson.steps.get(state.step) else {
        return;
    };
    panel.spawn(widgets::text(
        fonts,
        lang.text(&state.lesson.title),
        ty::SUBTITLE,
        palette::INK,
    ));
    panel.spawn(widgets::text(
        fonts,
        format!("{} / {}", state.step + 1, state.lesson.steps.len()),
        ty::CAPTION,
        palette::INK_SOFT,
    ));
    panel.spawn(widgets::text(
        fonts,
        lang.text(&step.title),
        ty::SUBTITLE,
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
            ty::BODY,
            palette::INK
        )],
    ));
    // The practice throw's value, once the board has shown the koma at rest.
    if let Some((poses, value)) = practice.and_then(|p| p.last).filter(|_| waiting) {
        let koma: Vec<&str> = poses.iter().map(|&p| pose_label(p, lang)).collect();
        panel.spawn((
            PracticeResult,
            widgets::text(
                fonts,
                T::MawariPracticeResult.fill(lang, &[&koma.join(" · "), &value_text(value, lang)]),
                ty::BUTTON,
                palette::VERMILION,
            ),
        ));
    }
    let len = state.lesson.steps.len();
    panel.spawn(widgets::row()).with_children(|row| {
        if step.practice {
            row.spawn((
                widgets::button(fonts, T::MawariThrow.get(lang), waiting),
                ThrowButton,
            ))
            .observe(
                |_: On<Pointer<Click>>,
                 mut m: ResMut<MawariMatch>,
                 phase: Res<Phase>,
                 mut w: MessageWriter<ThrowRequest>| {
                    if phase.is_waiting() {
                        let seed = m.next_seed();
                        w.write(ThrowRequest(Toss::natural(seed)));
                    }
                },
            );
        }
        if step.stage.is_some() {
            row.spawn((
                widgets::key_button(fonts, lang, T::MawariTryIt, true),
                TryButton,
            ))
            .observe(try_stage);
        }
        row.spawn(widgets::key_button(fonts, lang, T::Previous, false))
            .observe(|_: On<Pointer<Click>>, mut s: ResMut<LessonState>| {
                s.step = s.step.saturating_sub(1);
            });
        row.spawn((widgets::key_button(fonts, lang, T::Next, false), NextStep))
            .observe(move |_: On<Pointer<Click>>, mut s: ResMut<LessonState>| {
                s.step = (s.step + 1).min(len - 1);
            });
        row.spawn(widgets::key_button(fonts, lang, T::BackToList, false))
            .observe(go_to(Screen::GameList));
    });
}

/// やってみる (tests click it).
#[derive(Component)]
pub struct TryButton;

/// The practice throw's value in the panel (tests read it).
#[derive(Component)]
pub struct PracticeResult;

/// 次へ (tests click it).
#[derive(Component)]
pub struct NextStep;

/// Plays the step's staged throws from its start.
fn try_stage(
    _: On<Pointer<Click>>,
    state: Res<LessonState>,
    mut m: ResMut<MawariMatch>,
    mut shown: ResMut<Shown>,
    mut phase: ResMut<Phase>,
    mut staged: ResMut<StagedThrows>,
    mut sfx: MessageWriter<Sfx>,
) {
    if !(phase.is_waiting() || matches!(*phase, Phase::Over)) {
        return;
    }
    let Some(stage) = state.stage() else { return };
    sfx.write(Sfx::Button);
    m.race = state.race();
    *shown = Shown::of(&m);
    *phase = Phase::Waiting;
    staged.0 = stage.throws.iter().copied().collect();
}
