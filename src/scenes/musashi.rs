//! 十六むさし's scenes: the player's 子 against the CPU's 親 with a 子
//! selected, 親's first move taking two 子, and the setup with 自分で決める.

use bevy::prelude::*;

use crate::rules::musashi::solve::{self, Solver};

/// The tables the review scene solves: as many as the platform's game
/// solves.
#[cfg(not(target_arch = "wasm32"))]
const TABLES_BUDGET: u64 = solve::NATIVE_BUDGET;
#[cfg(target_arch = "wasm32")]
const TABLES_BUDGET: u64 = solve::WEB_BUDGET;

use super::{Scene, SceneTaps, custom_setup, sample_match};
use crate::games::play::PlayMove;
use crate::games::session::{Match, Opponent, SideChoice};
use crate::rules::data::{Strength, musashi_presets};
use crate::rules::game::Side;
use crate::rules::musashi::{Musashi, MusashiMove, MusashiRules};
use crate::shell::Screen;
use crate::shell::capture::{SETTLE_FRAMES, ScreenshotJob};

pub(super) fn stage(
    scene: Res<Scene>,
    job: Res<ScreenshotJob>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut taps: ResMut<SceneTaps>,
    mut moves: MessageWriter<PlayMove<Musashi>>,
) {
    match (*scene, job.frame) {
        (Scene::MusashiReview, 1) => {
            let mut m = super::cpu_game::<Musashi>(MusashiRules::STANDARD, None, 3, 80);
            // The tables the review reads with, solved now (the picture
            // cannot wait for the background).
            if let Some(solver) = Solver::for_game(&m.game, TABLES_BUDGET)
                && let Err(e) = m.game.set_endgame(std::sync::Arc::new(solver.finish()))
            {
                panic!("{e}");
            }
            // A mistake where the tables know the outcome, if there is one.
            super::review_scene(&mut commands, &mut next, m, |r, i| {
                use crate::rules::game::Game;
                r.game.exact(&r.record.positions()[i]).is_some()
            })
        }
        (Scene::MusashiSetup, 1) => {
            custom_setup::<Musashi>(&mut commands, &mut next, musashi_presets(), |d| {
                d.side = SideChoice::Second;
                d.marks = true;
            })
        }
        (Scene::Musashi, 1) => {
            // The player's 子 against the CPU's 親, a few moves in: the
            // selected 子 shows its destinations and a ×.
            let mut m = sample_match::<Musashi>(
                Opponent::Cpu(Strength::Normal),
                Side::Second,
                MusashiRules::STANDARD,
            );
            for (from, to) in [("c3", "c4"), ("b5", "b4"), ("c4", "c3")] {
                let mv = step(&m, from, to);
                if let Err(e) = m.record.play(&m.game, mv) {
                    panic!("sample game: {e}");
                }
            }
            taps.0 = vec![point(&m, "a3")];
            commands.insert_resource(m);
            next.set(Screen::Play);
        }
        (Scene::MusashiCapture, 1) => {
            commands.insert_resource(sample_match::<Musashi>(
                Opponent::Human,
                Side::First,
                MusashiRules::STANDARD,
            ));
            next.set(Screen::Play);
        }
        (Scene::MusashiCapture, SETTLE_FRAMES) => {
            let m = sample_match::<Musashi>(Opponent::Human, Side::First, MusashiRules::STANDARD);
            moves.write(PlayMove(step(&m, "c3", "b4")));
        }
        _ => {}
    }
}

fn point(m: &Match<Musashi>, name: &str) -> usize {
    m.game
        .board()
        .find(name)
        .unwrap_or_else(|| panic!("no point {name}"))
}

fn step(m: &Match<Musashi>, from: &str, to: &str) -> MusashiMove {
    MusashiMove {
        from: point(m, from) as u8,
        to: point(m, to) as u8,
    }
}
