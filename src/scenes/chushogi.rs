//! 中将棋's scenes: the lion selected and its first step, a lesson and a
//! problem, a phone held upright, the setup, and the strong CPU thinking.

use bevy::prelude::*;

use super::{Scene, SceneTaps, custom_setup, sample_match};
use crate::games::session::{Match, Opponent};
use crate::rules::chu::game::{Chu, ChuRules};
use crate::rules::chu::moves::parse_usi;
use crate::rules::chu::position::Square;
use crate::rules::data::{Strength, chushogi_presets};
use crate::rules::game::Side;
use crate::shell::capture::ScreenshotJob;
use crate::shell::tutorial::TutorialProgress;
use crate::shell::{ChosenTutorial, Screen};

pub(super) fn stage(
    scene: Res<Scene>,
    job: Res<ScreenshotJob>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut taps: ResMut<SceneTaps>,
    progress: Option<ResMut<TutorialProgress>>,
    mut lesson_step: Local<Option<usize>>,
) {
    match (*scene, job.frame) {
        (Scene::ChushogiSetup, 1) => {
            custom_setup::<Chu>(&mut commands, &mut next, chushogi_presets(), |_| {})
        }
        (Scene::ChushogiCpu, 1) => {
            // The strong CPU moves first (the player took 後手): it thinks
            // while the frames are timed.
            commands.insert_resource(sample_match::<Chu>(
                Opponent::Cpu(Strength::Strong),
                Side::Second,
                ChuRules::JCSA,
            ));
            next.set(Screen::Play);
        }
        (Scene::ChushogiLesson | Scene::ChushogiProblem, 1) => {
            // The lion lessons at 付け喰い, or the first problem.
            let (index, step) = if *scene == Scene::ChushogiLesson {
                (2, 6)
            } else {
                (3, 0)
            };
            commands.insert_resource(ChosenTutorial(index));
            *lesson_step = Some(step);
            next.set(Screen::Tutorial);
        }
        (Scene::Chushogi | Scene::ChushogiLion, 1) | (Scene::ChushogiPhone, 10) => {
            // The lion selected (its whole area marked); for the two-step
            // scene, then its first step onto the pawn.
            let (m, lion, pawn) = lion_match();
            taps.0 = if *scene == Scene::ChushogiLion {
                vec![lion, pawn]
            } else {
                vec![lion]
            };
            commands.insert_resource(m);
            next.set(Screen::Play);
        }
        _ => {}
    }
    if let (Some(step), Some(mut progress)) = (*lesson_step, progress)
        && progress.step != step
    {
        progress.step = step;
    }
}

/// Four plies in: 先手's 獅子 has leapt to 7f, facing 後手's advanced pawns.
/// Returns the match and the board points of the lion and the pawn in
/// front of it.
fn lion_match() -> (Match<Chu>, usize, usize) {
    let mut m = sample_match::<Chu>(Opponent::Cpu(Strength::Normal), Side::First, ChuRules::JCSA);
    for usi in ["7j7h", "7d7e", "7h7f", "8d8e"] {
        let mv = parse_usi(m.record.current(), usi).unwrap_or_else(|e| panic!("sample game: {e}"));
        if let Err(e) = m.record.play(&m.game, mv) {
            panic!("sample game: {e}");
        }
    }
    let at = |usi: &str| Square::parse(usi).unwrap_or_else(|e| panic!("{e}")).0 as usize;
    (m, at("7f"), at("7e"))
}
