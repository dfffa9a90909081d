//! はさみ将棋's scenes: the board against the CPU (both piece designs), a
//! capture mid-animation, a winning capture to the result screen, the
//! high-contrast board, and the setup with 自分で決める.

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
        (Scene::HasamiRoom, 1) => {
            custom_setup::<Hasami>(&mut commands, &mut next, hasami_presets(), |d| {
                d.preset = "standard".into();
                d.remote = true;
            })
        }
        (Scene::Room, 1) => super::room::make_room(&mut commands, &mut next),
        (Scene::Hasami | Scene::HasamiSymbol | Scene::HasamiContrast, 1) => {
            commands.insert_resource(sample_match::<Hasami>(
                Opponent::Cpu(Strength::Normal),
                Side::First,
                HasamiRules::STANDARD,
            ));
            next.set(Screen::Play);
        }
        (Scene::HasamiCapture, 1) => {
            commands.insert_resource(capture_match("S.S.S..SS", [1, 1]));
            next.set(Screen::Play);
        }
        (Scene::HasamiWin, 1) => {
            // Three と taken already: the capture's two make the five that
            // win.
            commands.insert_resource(capture_match("S...S...S", [3, 1]));
            next.set(Screen::Play);
        }
        (Scene::HasamiCapture | Scene::HasamiWin, SETTLE_FRAMES) => {
            // 7九→7四 sandwiches the two と on 6四 and 5四 against 4四.
            moves.write(PlayMove(HasamiMove { from: 74, to: 29 }));
        }
        _ => {}
    }
}

/// A game against a person (so the capture is shown, not answered), with
/// `top` as the far row and `taken` pieces off the board so far.
fn capture_match(top: &str, taken: [u8; 2]) -> crate::games::session::Match<Hasami> {
    let mut m = sample_match::<Hasami>(Opponent::Human, Side::First, HasamiRules::STANDARD);
    let rows = [
        top,
        ".........",
        ".S.......",
        "...SSF...",
        ".........",
        "......F..",
        ".F.......",
        ".........",
        "F.FF..F.F",
    ];
    let pos = HasamiPos::from_rows(&rows, Side::First, taken).unwrap_or_else(|e| panic!("{e}"));
    m.record = GameRecord::from_position(&m.game, pos);
    m
}
