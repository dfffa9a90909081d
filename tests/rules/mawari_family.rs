//! まわり将棋 as a family plays it: the draw for who throws first (ties
//! throw again), a dead player's turn passed without a throw, and playing
//! on for places after the first is through.

use crate::mawari_rules::race_with;
use yorimichi::rules::mawari::dice::ThrowValue;
use yorimichi::rules::mawari::order::{FirstThrow, draw_score};
use yorimichi::rules::mawari::race::{Event, MawariRules, Rank};

fn mv(n: u8) -> ThrowValue {
    ThrowValue::Move(n)
}

#[test]
fn the_highest_first_throw_goes_first() {
    let mut draw = FirstThrow::new(4).expect("four players");
    let mut events = Vec::new();
    for (player, n) in [(0, 5), (1, 12), (2, 3), (3, 11)] {
        assert_eq!(draw.thrower(), Some(player));
        events.extend(draw.record(mv(n)));
    }
    assert_eq!(draw.first, Some(1));
    assert_eq!(events, vec![Event::GoesFirst { piece: 1 }]);
    assert_eq!(draw.thrower(), None);
    // Nothing more is taken once it is decided.
    assert!(draw.record(mv(40)).is_empty());
    assert_eq!(draw.scores_of(3), vec![11]);
}

#[test]
fn those_tied_for_the_highest_throw_again_until_one_is_ahead() {
    let mut draw = FirstThrow::new(4).expect("four players");
    let mut events = Vec::new();
    for n in [10, 4, 10, 10] {
        events.extend(draw.record(mv(n)));
    }
    assert_eq!(
        events,
        vec![Event::DrawAgain {
            tied: [true, false, true, true]
        }]
    );
    assert_eq!(draw.first, None);
    // Only the tied throw again, in seat order.
    assert_eq!(draw.round, vec![0, 2, 3]);
    assert_eq!(draw.thrower(), Some(0));
    draw.record(mv(7));
    assert_eq!(draw.thrower(), Some(2));
    draw.record(mv(20));
    assert_eq!(draw.thrower(), Some(3));
    let ev = draw.record(mv(20));
    assert_eq!(
        ev,
        vec![Event::DrawAgain {
            tied: [false, false, true, true]
        }]
    );
    assert_eq!(draw.round, vec![2, 3]);
    draw.record(ThrowValue::Baba { counted: 2 });
    let ev = draw.record(mv(1));
    assert_eq!(ev, vec![Event::GoesFirst { piece: 3 }]);
    assert_eq!(draw.first, Some(3));
    assert_eq!(draw.rounds.len(), 3);
    assert_eq!(draw.scores_of(3), vec![10, 20, 1]);
    assert_eq!(draw.scores_of(1), vec![4]);
}

#[test]
fn senko_beats_every_number_and_baba_loses_to_every_one() {
    assert!(draw_score(ThrowValue::Senko) > draw_score(mv(40)));
    assert!(draw_score(ThrowValue::Baba { counted: 3 }) < draw_score(mv(1)));
    let mut draw = FirstThrow::new(2).expect("two players");
    draw.record(mv(40));
    draw.record(ThrowValue::Senko);
    assert_eq!(draw.first, Some(1));
    assert!(FirstThrow::new(1).is_err());
    assert!(FirstThrow::new(5).is_err());
}

#[test]
fn a_dead_players_turn_passes_without_a_throw() {
    let mut race = race_with(MawariRules::ALL, &[(3, Rank::Fu, 1), (14, Rank::Fu, 0)]);
    assert!(race.sits_out());
    let ev = race.skip_turn();
    assert_eq!(ev, vec![Event::Skip { piece: 0 }]);
    assert_eq!(race.turn, 1);
    assert_eq!(race.throws, 0, "no throw was made");
    assert!(!race.sits_out());
    assert!(
        race.skip_turn().is_empty(),
        "a living player is not skipped"
    );
    assert_eq!(race.turn, 1);
}

#[test]
fn playing_on_for_places_ends_when_one_is_left() {
    let mut race = race_with(
        MawariRules::BASIC,
        &[(6, Rank::Hisha, 0), (14, Rank::Hisha, 0), (20, Rank::Fu, 0)],
    )
    .playing_for_places();
    let ev = race.apply(mv(2));
    assert!(ev.contains(&Event::Finish { piece: 0, place: 1 }));
    assert!(!race.is_over(), "the others play on");
    assert_eq!(race.winner, None);
    assert_eq!(race.thrower(), Some(1));
    let ev = race.apply(mv(2));
    assert!(ev.contains(&Event::Finish { piece: 1, place: 2 }));
    assert!(ev.contains(&Event::Finish { piece: 2, place: 3 }));
    assert_eq!(ev.last(), Some(&Event::Win { piece: 0 }));
    assert!(race.is_over());
    assert_eq!(race.winner, Some(0));
    assert_eq!(race.standings(), vec![0, 1, 2]);
}

#[test]
fn playing_on_the_one_through_is_skipped_in_turn() {
    let mut race = race_with(
        MawariRules::BASIC,
        &[
            (6, Rank::Hisha, 0),
            (1, Rank::Fu, 0),
            (17, Rank::Fu, 0),
            (25, Rank::Fu, 0),
        ],
    )
    .playing_for_places();
    race.apply(mv(2));
    assert_eq!(race.finished, vec![0]);
    for expected in [1, 2, 3, 1, 2, 3] {
        assert_eq!(race.thrower(), Some(expected));
        race.apply(mv(1));
    }
    assert_eq!(race.pieces[0].square, 8, "the one through stays put");
}

#[test]
fn without_playing_on_the_first_through_wins_at_once() {
    let mut race = race_with(
        MawariRules::BASIC,
        &[(6, Rank::Hisha, 0), (14, Rank::Hisha, 0), (20, Rank::Fu, 0)],
    );
    let ev = race.apply(mv(2));
    assert_eq!(ev.last(), Some(&Event::Win { piece: 0 }));
    assert!(race.is_over());
    assert!(race.finished.is_empty());
    assert_eq!(race.standings()[0], 0);
}

#[test]
fn playing_on_one_put_out_comes_after_everyone_through() {
    let mut rules = MawariRules::BASIC;
    rules.pussun = true;
    rules.fu_demotion = true;
    let mut race = race_with(
        rules,
        &[
            (30, Rank::SenkoStand, 0),
            (2, Rank::Fu, 0),
            (14, Rank::Hisha, 0),
        ],
    )
    .playing_for_places();
    // Stopping right behind the 歩: a step back onto the corner, out.
    let ev = race.apply(mv(3));
    assert!(ev.contains(&Event::Out { piece: 0 }), "{ev:?}");
    assert!(!race.is_over());
    assert_eq!(race.thrower(), Some(1));
    race.apply(mv(1));
    let ev = race.apply(mv(2));
    assert!(ev.contains(&Event::Finish { piece: 2, place: 1 }));
    assert!(ev.contains(&Event::Finish { piece: 1, place: 2 }));
    assert!(race.is_over());
    assert_eq!(race.standings(), vec![2, 1, 0]);
}
