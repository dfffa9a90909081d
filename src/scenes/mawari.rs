//! まわり将棋's scenes: a four-player game some throws in, the person's
//! throw in the air and read, the setup, the tutorial's standing koma, and
//! a phone held upright; a family's game (names, colours, the turn order
//! drawn, a tie thrown again), a war beside an おんぶ lap; the tutorial's
//! ばば from a real throw, and its practice throw read.

use bevy::prelude::*;

use super::Scene;
use crate::games::mawari::lesson::LessonState;
use crate::games::mawari::{MawariDraft, MawariMatch, MawariReplay, Seat, ThrowRequest};
use crate::rules::mawari::dice::{KomaDice, Toss};
use crate::rules::mawari::order::FirstThrow;
use crate::rules::mawari::race::{Event, MawariRules, RaceText, War};
use crate::shell::Screen;
use crate::shell::capture::{SETTLE_FRAMES, ScreenshotJob};

/// Frames from the throw to the picture of the koma read (the throw's
/// flight, then a moment of the labels).
pub(super) const READ_FRAMES: u32 = 95;

pub(super) fn stage(
    scene: Res<Scene>,
    job: Res<ScreenshotJob>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut throws: MessageWriter<ThrowRequest>,
    lesson: Option<ResMut<LessonState>>,
) {
    match (*scene, job.frame) {
        (Scene::Mawari | Scene::MawariThrow, 1) | (Scene::MawariPhone, 10) => {
            commands.insert_resource(sample_match());
            next.set(Screen::Play);
        }
        (Scene::MawariFamily, 1) => {
            commands.insert_resource(family_match());
            next.set(Screen::Play);
        }
        (Scene::MawariWar, 1) => {
            commands.insert_resource(war_match());
            next.set(Screen::Play);
        }
        (Scene::MawariReview, 1) => {
            commands.insert_resource(review());
            next.set(Screen::Review);
        }
        (Scene::MawariSetup, 1) => {
            commands.insert_resource(MawariDraft {
                preset: None,
                ..default()
            });
            next.set(Screen::Setup);
        }
        (Scene::Mawari | Scene::MawariThrow | Scene::MawariPhone, SETTLE_FRAMES) => {
            // The person's throw: a drag to the upper right.
            throws.write(ThrowRequest(Toss {
                dir_x: 0.3,
                dir_y: 1.0,
                speed: 85.0,
                seed: 26,
            }));
        }
        _ => {}
    }
    // The tutorial at its step of standing koma, of ばば, or of the
    // practice throw (thrown once the screen has settled).
    let Some(mut l) = lesson else { return };
    let step = match *scene {
        Scene::MawariTutorial => Some(2),
        Scene::MawariBaba => step_titled(&l, "ばば"),
        Scene::MawariPractice => l.lesson.steps.iter().position(|s| s.practice),
        _ => None,
    };
    if let Some(step) = step
        && l.step != step
    {
        l.step = step;
    }
    if *scene == Scene::MawariPractice && job.frame == SETTLE_FRAMES {
        // A drag to the upper right: one koma stands upright, 10.
        throws.write(ThrowRequest(Toss {
            dir_x: 0.3,
            dir_y: 1.0,
            speed: 85.0,
            seed: 28,
        }));
    }
}

fn step_titled(l: &LessonState, title: &str) -> Option<usize> {
    l.lesson.steps.iter().position(|s| s.title.ja == title)
}

/// A four-player game some throws in (every rule on), the person's turn
/// next.
fn sample_match() -> MawariMatch {
    let seats = vec![Seat::Person, Seat::Cpu, Seat::Cpu, Seat::Cpu];
    let mut m = MawariMatch::new(seats, MawariRules::ALL, false, Some("all".into()), 7)
        .unwrap_or_else(|e| panic!("{e}"));
    let dice = KomaDice::new();
    for _ in 0..14 {
        let seed = m.next_seed();
        m.play(&dice.throw(Toss::natural(seed), false));
        if m.race.is_over() {
            break;
        }
    }
    while m.race.thrower() != Some(0) && !m.race.is_over() {
        let seed = m.next_seed();
        m.play(&dice.throw(Toss::natural(seed), false));
    }
    m
}

/// Four named players drawing the turn order: the first round tied, the
/// two tied to throw again.
fn family_match() -> MawariMatch {
    let seats = vec![Seat::Person, Seat::Person, Seat::Person, Seat::Cpu];
    let mut m =
        MawariMatch::new(seats, MawariRules::ALL, false, None, 7).unwrap_or_else(|e| panic!("{e}"));
    m.names = vec![
        "おじいちゃん".into(),
        "Mama".into(),
        "けん".into(),
        String::new(),
    ];
    m.colours = vec![4, 1, 2, 5];
    let mut draw = FirstThrow::new(4).unwrap_or_else(|e| panic!("{e}"));
    for n in [10, 4, 10, 7] {
        draw.record(crate::rules::mawari::dice::ThrowValue::Move(n));
    }
    m.draw = Some(draw);
    m
}

/// A war under way (each piece's count by it) beside a 王将 carrying its
/// 歩 round (where the lap ends marked) and a dead piece.
fn war_match() -> MawariMatch {
    // Every seat a person's: nobody throws before the picture.
    let seats = vec![Seat::Person; 4];
    let mut m =
        MawariMatch::new(seats, MawariRules::ALL, false, None, 7).unwrap_or_else(|e| panic!("{e}"));
    let text = RaceText::parse("osho@5+20 gin@10 kaku@26 fu@20/1 turn=1")
        .unwrap_or_else(|e| panic!("{e}"));
    m.race = text.race(MawariRules::ALL);
    m.race.war = Some(War {
        first: 1,
        second: 2,
        made: [12, 20],
        next: 0,
    });
    m.names = vec!["Hana".into(), String::new(), String::new(), String::new()];
    m
}

/// The replay of a finished game between four CPUs (every rule on), at a
/// throw two thirds in that promoted a piece: its koma lying as they fell,
/// the chart marked there.
fn review() -> MawariReplay {
    let seats = vec![Seat::Cpu; 4];
    let mut m = MawariMatch::new(seats, MawariRules::ALL, false, Some("all".into()), 11)
        .unwrap_or_else(|e| panic!("{e}"));
    let dice = KomaDice::new();
    while !m.race.is_over() && m.log.len() < 2000 {
        if m.race.sits_out() {
            m.race.skip_turn();
            continue;
        }
        let seed = m.next_seed();
        m.play(&dice.throw(Toss::natural(seed), false));
    }
    let n = m.log.len();
    let at = (n * 2 / 3..n)
        .find(|&i| {
            m.log[i]
                .events
                .iter()
                .any(|e| matches!(e, Event::Promote { .. }))
        })
        .map_or(n, |i| i + 1);
    let mut replay = MawariReplay::new(m, Screen::GameList);
    replay.at = at;
    replay
}
