//! きつねとがちょう's scenes: a goose selected with 印を出す on, the fox's
//! double jump mid-animation, and the setup with 自分で決める.

use bevy::prelude::*;

use crate::rules::review::Slip;

use super::{Scene, SceneTaps, custom_setup, sample_match};
use crate::games::play::PlayMove;
use crate::games::session::{Match, Opponent};
use crate::rules::data::{Strength, foxgeese_presets};
use crate::rules::foxgeese::{FOX, FoxGeese, FoxGeeseMove, FoxGeeseRules};
use crate::rules::game::Side;
use crate::rules::record::GameRecord;
use crate::shell::Screen;
use crate::shell::capture::{SETTLE_FRAMES, ScreenshotJob};

pub(super) fn stage(
    scene: Res<Scene>,
    job: Res<ScreenshotJob>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut taps: ResMut<SceneTaps>,
    mut moves: MessageWriter<PlayMove<FoxGeese>>,
    mut jump: Local<Option<FoxGeeseMove>>,
) {
    match (*scene, job.frame) {
        (Scene::FoxGeeseReview, 1) => {
            let rules = foxgeese_presets().unwrap_or_else(|e| panic!("{e}")).presets[0].rules;
            super::review_scene(
                &mut commands,
                &mut next,
                super::cpu_game::<FoxGeese>(rules, None, 3, 80),
                |r, i| r.mistake_at(i).is_some_and(|m| m.slip == Slip::Bad),
            )
        }
        (Scene::FoxGeeseSetup, 1) => {
            custom_setup::<FoxGeese>(&mut commands, &mut next, foxgeese_presets(), |d| {
                d.marks = true
            })
        }
        (Scene::FoxGeese | Scene::FoxGeeseSymbol, 1) => {
            let (m, goose) = geese_match();
            taps.0 = vec![goose];
            commands.insert_resource(m);
            next.set(Screen::Play);
        }
        (Scene::FoxGeeseJump, 1) => {
            let (m, mv) = jump_match();
            commands.insert_resource(m);
            *jump = Some(mv);
            next.set(Screen::Play);
        }
        (Scene::FoxGeeseJump, SETTLE_FRAMES) => {
            if let Some(mv) = jump.take() {
                moves.write(PlayMove(mv));
            }
        }
        _ => {}
    }
}

/// A few moves in: the fox has come close, and the goose to select on c3
/// shows one safe destination and one ×.
fn geese_match() -> (Match<FoxGeese>, usize) {
    let mut m = sample_match::<FoxGeese>(
        Opponent::Cpu(Strength::Normal),
        Side::First,
        FoxGeeseRules::STANDARD,
    );
    let at = |x, y| {
        m.game
            .board()
            .at(x, y)
            .unwrap_or_else(|| panic!("no point {x},{y}"))
    };
    let moves = [
        FoxGeeseMove::step(at(0, 4), at(0, 3)),
        FoxGeeseMove::step(at(3, 3), at(3, 2)),
        FoxGeeseMove::step(at(1, 4), at(1, 3)),
        FoxGeeseMove::step(at(3, 2), at(2, 2)),
    ];
    let goose = at(2, 4);
    for mv in moves {
        if let Err(e) = m.record.play(&m.game, mv) {
            panic!("sample game: {e}");
        }
    }
    (m, goose)
}

/// The fox about to take two geese in one turn.
fn jump_match() -> (Match<FoxGeese>, FoxGeeseMove) {
    let mut m = sample_match::<FoxGeese>(Opponent::Human, Side::First, FoxGeeseRules::STANDARD);
    let rows = [
        "  ...  ", "  .F.  ", "...G...", "G.....G", "GG.G.GG", "  G.G  ", "  GGG  ",
    ];
    let pos = m
        .game
        .position_from_rows(&rows, FOX)
        .unwrap_or_else(|e| panic!("{e}"));
    m.record = GameRecord::from_position(&m.game, pos);
    let at = |x, y| {
        m.game
            .board()
            .at(x, y)
            .unwrap_or_else(|| panic!("no point {x},{y}"))
    };
    let mv = FoxGeeseMove::jumps(at(3, 1), &[at(3, 3), at(3, 5)]);
    (m, mv)
}
