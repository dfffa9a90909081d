//! 振り返り: a finished game of each two-player game opened from the result
//! screen and from its card on the list, read to the end by the CPU, a
//! marked mistake's better move checked against the search, and stepping
//! back and forth checked against the rules.

use std::time::{Duration, Instant};

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use rand::{SeedableRng, rngs::StdRng};
use yorimichi::games::review::{
    OpenReviewButton, Review, ReviewArrow, ReviewButton, ReviewCommand, ReviewMoveEntry,
    ReviewPiece,
};
use yorimichi::games::session::{Match, MatchSetup, Opponent, Playable, Presets};
use yorimichi::headless::{self, click, find};
use yorimichi::rules::data::Strength;
use yorimichi::rules::game::Side;
use yorimichi::rules::review::{self, Reading};
use yorimichi::rules::search::Searcher;
use yorimichi::shell::Screen;
use yorimichi::shell::screens::CardButton;

use crate::common::{self, screen};

/// A game between two やさしい CPUs (seeded), ended by a resignation after
/// `max_plies` if the rules have not ended it: やさしい slips, so the
/// review has mistakes to mark.
fn finished_match<G: Playable>(
    app: &App,
    rules: G::Rules,
    seed: u64,
    max_plies: usize,
) -> Match<G> {
    let setup = MatchSetup::new(
        Opponent::Cpu(Strength::Normal),
        Side::First,
        "standard",
        rules,
    );
    let mut m = Match::<G>::new(setup).expect("a match");
    let easy = app.world().resource::<Presets<G>>().0.cpu.easy.clone();
    let mut rng = StdRng::seed_from_u64(seed);
    while m.record.outcome(&m.game).is_none() {
        if m.record.ply() >= max_plies {
            let side = m.game.side_to_move(m.record.current());
            m.record.resign(side);
            break;
        }
        let forbidden = m.record.forbidden_moves(&m.game);
        let mut searcher = Searcher::new(
            &m.game,
            m.record.current().clone(),
            m.record.hashes(),
            easy.plan(&mut rng),
        )
        .restrict_root(|mv| !forbidden.contains(&mv));
        let best = searcher.run(&m.game).expect("a move").best;
        m.record.play(&m.game, best).expect("a legal move");
    }
    m
}

fn update_until(app: &mut App, what: &str, limit: Duration, done: impl Fn(&mut App) -> bool) {
    let started = Instant::now();
    while !done(app) {
        assert!(started.elapsed() < limit, "{what}: not within {limit:?}");
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The pieces on the review board are exactly the rules' at the ply shown.
fn assert_review_board<G: Playable>(app: &mut App) {
    let mut q = app.world_mut().query::<&ReviewPiece>();
    let mut shown: Vec<(usize, Side)> = q.iter(app.world()).map(|p| (p.point, p.side)).collect();
    shown.sort_by_key(|(p, _)| *p);
    let r = app.world().resource::<Review<G>>();
    let pos = &r.record.positions()[r.ply];
    let expected: Vec<(usize, Side)> = (0..r.game.graph().len())
        .filter_map(|p| r.game.piece_at(pos, p).map(|s| (p, s)))
        .collect();
    assert_eq!(shown, expected, "the review board at ply {}", r.ply);
}

/// A key pressed and released, a frame each.
fn tap_key(app: &mut App, key_code: KeyCode, logical: Key) {
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput {
            key_code,
            logical_key: logical.clone(),
            state,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
        app.update();
    }
}

fn send(app: &mut App, cmd: ReviewCommand) {
    app.world_mut().write_message(cmd);
    app.update();
    app.update();
}

fn ply<G: Playable>(app: &App) -> usize {
    app.world().resource::<Review<G>>().ply
}

/// The whole review of one game: from the result screen, read to the end,
/// a mistake's better move against the search, stepping, the move list,
/// the keys, then again from the list's card. Returns the review's figures.
fn review_flow<G: Playable>(name: &str, rules: G::Rules, seed: u64, max_plies: usize) {
    let (store, dir) = common::temp_store(name);
    let mut app = headless::app(store);
    app.update();
    let m = finished_match::<G>(&app, rules, seed, max_plies);
    let plies = m.record.ply();
    common::open_play(&mut app, m);
    update_until(
        &mut app,
        "the result screen",
        Duration::from_secs(30),
        |a| screen(a) == Screen::Result,
    );
    let open = find::<OpenReviewButton>(&mut app).expect("振り返る on the result screen");
    click(&mut app, open);
    app.update();
    assert_eq!(screen(&app), Screen::Review);
    let started = Instant::now();
    update_until(&mut app, "the reading", Duration::from_secs(400), |a| {
        a.world().resource::<Review<G>>().finished()
    });
    let reading_time = started.elapsed();
    let (mistakes, first) = {
        let r = app.world().resource::<Review<G>>();
        let judged = r.judged.as_ref().expect("judged");
        assert_eq!(judged.values.len(), plies + 1);
        let cap = G::REVIEW_MARGINS.cap;
        assert!(judged.values.iter().all(|v| v.abs() <= cap));
        let marked: Vec<usize> = (0..plies).filter(|&i| r.mistake_at(i).is_some()).collect();
        (marked.len(), marked.first().copied())
    };
    println!(
        "{}: {plies} plies read in {:.1} s, {mistakes} marked",
        G::ID.id(),
        reading_time.as_secs_f64()
    );
    let i = first.expect("a game between やさしい CPUs has a marked mistake");
    send(&mut app, ReviewCommand::GoTo(i));
    assert_eq!(ply::<G>(&app), i);
    assert_review_board::<G>(&mut app);
    {
        let r = app.world().resource::<Review<G>>();
        let better = r.suggestion().expect("the better move is shown");
        assert_ne!(better, r.record.moves()[i], "the better move is another");
        // What the search finds there, read afresh.
        let presets = &app.world().resource::<Presets<G>>().0;
        let plan = review::review_plan(&presets.cpu.strong, G::REVIEW_NODES);
        let fresh = review::read(
            &r.game,
            r.record.positions(),
            r.record.moves(),
            r.record.hashes(),
            r.outcome,
            i,
            plan,
        );
        match fresh {
            Reading::Searched { best, .. } => assert_eq!(best, better, "the search's move"),
            other => panic!("position {i} was not searched: {other:?}"),
        }
    }
    assert!(find::<ReviewArrow>(&mut app).is_some(), "the dotted arrow");
    // Back and forth.
    send(&mut app, ReviewCommand::Previous);
    assert_eq!(ply::<G>(&app), i.saturating_sub(1));
    assert_review_board::<G>(&mut app);
    send(&mut app, ReviewCommand::Next);
    assert_eq!(ply::<G>(&app), i.max(1));
    assert_review_board::<G>(&mut app);
    send(&mut app, ReviewCommand::Last);
    assert_eq!(ply::<G>(&app), plies);
    assert_review_board::<G>(&mut app);
    send(&mut app, ReviewCommand::Next);
    assert_eq!(ply::<G>(&app), plies, "no step past the end");
    send(&mut app, ReviewCommand::First);
    assert_eq!(ply::<G>(&app), 0);
    assert_review_board::<G>(&mut app);
    // The keys.
    tap_key(&mut app, KeyCode::ArrowRight, Key::ArrowRight);
    assert_eq!(ply::<G>(&app), 1, "→ steps forward");
    assert_review_board::<G>(&mut app);
    tap_key(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    assert_eq!(ply::<G>(&app), 0, "← steps back");
    tap_key(&mut app, KeyCode::ArrowRight, Key::ArrowRight);
    assert_eq!(ply::<G>(&app), 1);
    // The move list and the buttons.
    let entry = {
        let mut q = app.world_mut().query::<(Entity, &ReviewMoveEntry)>();
        q.iter(app.world())
            .find(|(_, e)| e.0 == plies)
            .map(|(e, _)| e)
            .expect("the last move in the list")
    };
    click(&mut app, entry);
    app.update();
    assert_eq!(ply::<G>(&app), plies);
    let first_button = {
        let mut q = app.world_mut().query::<(Entity, &ReviewButton)>();
        q.iter(app.world())
            .find(|(_, b)| b.0 == ReviewCommand::First)
            .map(|(e, _)| e)
            .expect("最初")
    };
    click(&mut app, first_button);
    app.update();
    assert_eq!(ply::<G>(&app), 0);
    // Back to the result, then the list: the card opens the same game.
    send(&mut app, ReviewCommand::Back);
    assert_eq!(screen(&app), Screen::Result);
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::GameList);
    app.update();
    app.world_mut().remove_resource::<Review<G>>();
    let card = common::card(&mut app, CardButton::Review(G::ID)).expect("振り返る on the card");
    click(&mut app, card);
    app.update();
    assert_eq!(screen(&app), Screen::Review);
    let r = app.world().resource::<Review<G>>();
    assert_eq!(r.record.ply(), plies, "the kept game");
    assert!(r.outcome.is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hasami_review() {
    review_flow::<yorimichi::rules::hasami::Hasami>(
        "review-hasami",
        yorimichi::rules::hasami::HasamiRules::STANDARD,
        3,
        80,
    );
}

#[test]
fn foxgeese_review() {
    let rules = yorimichi::rules::data::foxgeese_presets().unwrap().presets[0].rules;
    review_flow::<yorimichi::rules::foxgeese::FoxGeese>("review-foxgeese", rules, 3, 80);
}

#[test]
fn musashi_review() {
    review_flow::<yorimichi::rules::musashi::Musashi>(
        "review-musashi",
        yorimichi::rules::musashi::MusashiRules::STANDARD,
        3,
        80,
    );
}

#[test]
fn chushogi_review() {
    let rules = yorimichi::rules::data::chushogi_presets().unwrap().presets[0].rules;
    review_flow::<yorimichi::rules::chu::game::Chu>("review-chushogi", rules, 3, 40);
}
