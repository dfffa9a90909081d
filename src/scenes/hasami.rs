//! はさみ将棋's scenes: the board against the CPU (both piece designs), a
//! capture mid-animation, and the setup with 自分で決める.

use bevy::prelude::*;

use crate::rules::review::Slip;

use super::{Scene, custom_setup, sample_match};
use crate::games::play::PlayMove;
use crate::games::session::Opponent;
use crate::rules::data::{Strength, hasami_presets};
use crate::rules::game::Side;
use crate::rules::hasami::{Hasami, HasamiMove, HasamiPos, HasamiRules};
use crate::rules::record::GameRecord;
use crate::shell::Screen;
use crate::shell::capture::{SETTLE_FRAMES, ScreenshotJob};

pub(super) fn stage(
    scene: Res<Scene>,
    job: Res<ScreenshotJob>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut moves: MessageWriter<PlayMove<Hasami>>,
) {
    match (*scene, job.frame) {
        (Scene::HasamiReview, 1) => super::review_scene(
            &mut commands,
            &mut next,
            super::cpu_game::<Hasami>(HasamiRules::STANDARD, None, 3, 80),
            |r, i| r.mistake_at(i).is_some_and(|m| m.slip == Slip::Bad),
        ),
        (Scene::HasamiSetup, 1) => {
            custom_setup::<Hasami>(&mut commands, &mut next, hasami_presets(), |_| {})
        }
        (Scene::Hasami | Scene::HasamiSymbol, 1) => {
            commands.insert_resource(sample_match::<Hasami>(
                Opponent::Cpu(Strength::Normal),
                Side::First,
                HasamiRules::STANDARD,
            ));
            next.set(Screen::Play);
        }
        (Scene::HasamiCapture, 1) => {
            commands.insert_resource(capture_match());
            next.set(Screen::Play);
        }
        (Scene::HasamiCapture, SETTLE_FRAMES) => {
            // 7九→7四 sandwiches the two と on 6四 and 5四 against 4四.
            moves.write(PlayMove(HasamiMove { from: 74, to: 29 }));
        }
        _ => {}
    }
}

fn capture_match() -> crate::games::session::Match<Hasami> {
    let mut m = sample_match::<Hasami>(Opponent::Human, Side::First, HasamiRules::STANDARD);
    let rows = [
        "S.S.S..SS",
        ".........",
        ".S.......",
        "...SSF...",
        ".........",
        "......F..",
        ".F.......",
        ".........",
        "F.FF..F.F",
    ];
    let pos = HasamiPos::from_rows(&rows, Side::First, [1, 1]).unwrap_or_else(|e| panic!("{e}"));
    m.record = GameRecord::from_position(&m.game, pos);
    m
}
