//! 中将棋's scenes: the lion selected and its first step, a lesson, a
//! problem and a mate problem, a phone held upright, the setup, the strong CPU thinking, the
//! record of a short game with every kind of move, and the other piece
//! sets and coordinates.

use bevy::prelude::*;

use crate::rules::review::Slip;

use super::{Scene, SceneTaps, custom_setup, sample_match};
use crate::games::session::{Match, Opponent};
use crate::games::tutorial_board::{self, TutorialBoard};
use crate::rules::chu::game::{Chu, ChuRules};
use crate::rules::chu::moves::parse_usi;
use crate::rules::chu::position::{ChuPosition, Square};
use crate::rules::data::{Strength, chushogi_presets};
use crate::rules::game::Side;
use crate::rules::record::GameRecord;
use crate::shell::capture::ScreenshotJob;
use crate::shell::tutorial::TutorialProgress;
use crate::shell::{ChosenTutorial, Screen};

pub(super) fn stage(
    scene: Res<Scene>,
    job: Res<ScreenshotJob>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut taps: ResMut<SceneTaps>,
    mut progress: Option<ResMut<TutorialProgress>>,
    board: Option<ResMut<TutorialBoard<Chu>>>,
    mut lesson_step: Local<Option<usize>>,
) {
    match (*scene, job.frame) {
        (Scene::ChushogiReview, 1) => {
            let rules = chushogi_presets().unwrap_or_else(|e| panic!("{e}")).presets[0].rules;
            super::review_scene(
                &mut commands,
                &mut next,
                super::cpu_game::<Chu>(rules, None, 3, 40),
                |r, i| r.mistake_at(i).is_some_and(|m| m.slip == Slip::Bad),
            )
        }
        (Scene::ChushogiAnalysis, 1) => {
            let rules = chushogi_presets().unwrap_or_else(|e| panic!("{e}")).presets[0].rules;
            super::analysis_scene(
                &mut commands,
                &mut next,
                super::cpu_game::<Chu>(rules, None, 3, 40),
                |r, i| r.mistake_at(i).is_some_and(|m| m.slip == Slip::Bad),
            )
        }
        (Scene::ChushogiSetup, 1) => {
            custom_setup::<Chu>(&mut commands, &mut next, chushogi_presets(), |_| {})
        }
        (Scene::ChushogiRoom, 1) => {
            custom_setup::<Chu>(&mut commands, &mut next, chushogi_presets(), |d| {
                d.remote = true;
                d.room_clock = crate::net::protocol::CLOCK_CHOICES.first().copied();
            })
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
        (Scene::ChushogiLesson | Scene::ChushogiProblem | Scene::ChushogiTsume, 1) => {
            // The lion lessons at 付け喰い, the first problem, or the first
            // mate problem of 中将棊絹篩.
            let (index, step) = match *scene {
                Scene::ChushogiLesson => (2, 6),
                Scene::ChushogiProblem => (3, 0),
                _ => (4, 0),
            };
            commands.insert_resource(ChosenTutorial(index));
            *lesson_step = Some(step);
            next.set(Screen::Tutorial);
        }
        (Scene::ChushogiKif, 1) => {
            commands.insert_resource(record_match());
            next.set(Screen::Play);
        }
        (Scene::ChushogiOneKanji | Scene::ChushogiMnemonic | Scene::ChushogiWestern, 1) => {
            // Some pieces promoted (drawn in red) and the lion selected;
            // in western coordinates, a few moves in the record too.
            let (mut m, mut lion) = promoted_match();
            if *scene == Scene::ChushogiWestern {
                play_all(&mut m, &["7f7e", "9e9f", "7e7d7e", "9f9g"]);
                lion = Square::parse("7e").unwrap_or_else(|e| panic!("{e}")).0 as usize;
            }
            taps.0 = vec![lion];
            commands.insert_resource(m);
            next.set(Screen::Play);
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
    if let (Some(step), Some(progress)) = (*lesson_step, progress.as_mut())
        && progress.step != step
    {
        progress.step = step;
    }
    // The mate problem: a check that does not mate (4一 to 4二), refuted
    // by the defence's reply a beat later, 一手戻す offered.
    if (*scene, job.frame) == (Scene::ChushogiTsume, 10)
        && let (Some(mut board), Some(mut progress)) = (board, progress)
    {
        for usi in ["4a", "4b"] {
            let at = Square::parse(usi).unwrap_or_else(|e| panic!("{e}")).0 as usize;
            tutorial_board::tap_diagram(&mut board, &mut progress, at);
        }
    }
}

/// Four plies in: 先手's 獅子 has leapt to 7f, facing 後手's advanced pawns.
/// Returns the match and the board points of the lion and the pawn in
/// front of it.
fn lion_match() -> (Match<Chu>, usize, usize) {
    let mut m = sample_match::<Chu>(Opponent::Cpu(Strength::Normal), Side::First, ChuRules::JCSA);
    play_all(&mut m, &["7j7h", "7d7e", "7h7f", "8d8e"]);
    let at = |usi: &str| Square::parse(usi).unwrap_or_else(|e| panic!("{e}")).0 as usize;
    (m, at("7f"), at("7e"))
}

/// Plays `moves` (USI) in `m`; the scenes' games are fixed and legal.
fn play_all(m: &mut Match<Chu>, moves: &[&str]) {
    for usi in moves {
        let mv = parse_usi(m.record.current(), usi).unwrap_or_else(|e| panic!("sample game: {e}"));
        if let Err(e) = m.record.play(&m.game, mv) {
            panic!("sample game: {e}");
        }
    }
}

/// Two players from a small position, and a short game with every kind
/// of move the record writes: 居食い, じっと, 二枚取り, 仝, 不成 and 成, each
/// king by its name.
fn record_match() -> Match<Chu> {
    let mut m = sample_match::<Chu>(Opponent::Human, Side::First, ChuRules::JCSA);
    let rows = [
        "5k6", "12", "8s3", "6pp4", "6p2PS1", "6N5", "12", "12", "12", "2R9", "12", "6K5",
    ];
    let pos = ChuPosition::from_rows(&rows, Side::First)
        .unwrap_or_else(|e| panic!("sample position: {e}"));
    m.record = GameRecord::from_position(&m.game, pos);
    play_all(
        &mut m,
        &[
            "6f6e6f", "7a7b", "6f6g6f", "6d6e", "6f6e5d", "4c5d", "3e3d", "7b7a", "2e2d+", "5d5e",
            "6l6k",
        ],
    );
    m
}

/// A game some way in, with promoted pieces on both sides (先手's と金,
/// 龍王 and 龍馬 from a 飛車 and a 角行, 後手's 竪行 from a 銀将), for the
/// one-kanji, mnemonic and western scenes. Returns the match and the
/// point of 先手's lion.
fn promoted_match() -> (Match<Chu>, usize) {
    let mut m = sample_match::<Chu>(Opponent::Cpu(Strength::Normal), Side::First, ChuRules::JCSA);
    let sfen = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pp+Pppppppppp/3i4i3/5N6/12/3I1+s2I3/\
                PPPPP1PPPPPP/MV+RHD1QDHRVM/A1+B1TOXT1B1A/LFCSGKEGSCFL b - 31";
    let pos = ChuPosition::from_sfen(sfen).unwrap_or_else(|e| panic!("sample position: {e}"));
    m.record = GameRecord::from_position(&m.game, pos);
    let lion = Square::parse("7f").unwrap_or_else(|e| panic!("{e}")).0 as usize;
    (m, lion)
}
