//! まわり将棋: the race's rules (docs/rules/mawari.md), each special rule
//! and their chains, the throw values, the position text and the level
//! files; the koma-dice simulation is in `mawari_dice`.

use yorimichi::rules::mawari::dice::{KomaDice, Pose, ThrowValue, result_name};
use yorimichi::rules::mawari::race::{
    BabaRule, Event, KeimaPush, MawariRules, Piece, Race, Rank, TRACK,
};

fn mv(n: u8) -> ThrowValue {
    ThrowValue::Move(n)
}

/// A race with the pieces placed by hand: (square, rank, depth) each.
pub(crate) fn race_with(rules: MawariRules, pieces: &[(u8, Rank, u8)]) -> Race {
    let mut race = Race::new(pieces.len().max(2), rules).expect("2-4 players");
    race.pieces = pieces
        .iter()
        .map(|&(square, rank, depth)| Piece {
            square,
            rank,
            depth,
            out: false,
            onbu_left: None,
        })
        .collect();
    race
}

fn only(flag: impl Fn(&mut MawariRules)) -> MawariRules {
    let mut r = MawariRules::BASIC;
    flag(&mut r);
    r
}

// --- the throw -------------------------------------------------------------

#[test]
fn throw_values_follow_the_seed() {
    use Pose::*;
    assert_eq!(ThrowValue::of(&[FaceUp, FaceUp, FaceDown, FaceDown]), mv(2));
    assert_eq!(ThrowValue::of(&[Side, Side, Side, Side]), mv(20));
    assert_eq!(
        ThrowValue::of(&[Upright, Upright, Upright, Upright]),
        mv(40)
    );
    // The seed's example: one upright, one on its side, two face up = 17.
    assert_eq!(ThrowValue::of(&[Upright, Side, FaceUp, FaceUp]), mv(17));
    // All four face down count 10, not 0.
    assert_eq!(ThrowValue::of(&[FaceDown; 4]), mv(10));
    assert_eq!(ThrowValue::of(&[Upright, FaceUp, FaceUp, FaceUp]), mv(13));
    assert_eq!(
        ThrowValue::of(&[Leaning, FaceUp, FaceDown, FaceDown]),
        ThrowValue::Senko
    );
    // ばば beats everything, and remembers what the others counted.
    assert_eq!(
        ThrowValue::of(&[Stacked, Leaning, FaceUp, Side]),
        ThrowValue::Baba { counted: 6 }
    );
    assert_eq!(result_name(&[FaceDown; 4]), "all_down");
    assert_eq!(result_name(&[Upright, FaceDown, FaceDown, FaceDown]), "10");
}

#[test]
fn possible_totals_are_exactly_the_seeds_list() {
    let seed_list: Vec<u8> = vec![
        1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 15, 16, 17, 20, 21, 22, 25, 26, 30, 31, 35, 40,
    ];
    assert_eq!(ThrowValue::possible_moves(), seed_list);
}

// --- the race --------------------------------------------------------------

#[test]
fn pieces_start_on_corners_and_take_turns() {
    let race = Race::new(4, MawariRules::BASIC).expect("four players");
    let squares: Vec<u8> = race.pieces.iter().map(|p| p.square).collect();
    assert_eq!(squares, vec![0, 8, 16, 24]);
    assert!(race.pieces.iter().all(|p| p.rank == Rank::Fu));
    assert_eq!(
        Race::new(2, MawariRules::BASIC).expect("two").pieces[1].square,
        16
    );
    assert!(Race::new(1, MawariRules::BASIC).is_err());
    assert!(Race::new(5, MawariRules::BASIC).is_err());
    let mut race = race;
    assert_eq!(race.thrower(), Some(0));
    race.apply(mv(3));
    assert_eq!(race.thrower(), Some(1));
    race.apply(mv(3));
    race.apply(mv(3));
    race.apply(mv(3));
    assert_eq!(race.thrower(), Some(0));
    assert_eq!(race.pieces[0].square, 3);
}

#[test]
fn landing_exactly_on_a_corner_promotes_and_passing_one_does_not() {
    let mut race = race_with(MawariRules::BASIC, &[(0, Rank::Fu, 0), (16, Rank::Fu, 0)]);
    let ev = race.apply(mv(8));
    assert_eq!(race.pieces[0].square, 8);
    assert_eq!(race.pieces[0].rank, Rank::Kyosha);
    assert!(ev.contains(&Event::Promote {
        piece: 0,
        to: Rank::Kyosha
    }));
    // Eight steps, square by square.
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Step { .. }))
            .count(),
        8
    );
    race.apply(mv(1));
    race.apply(mv(10)); // 8 → 18: passes corner 16
    assert_eq!(race.pieces[0].rank, Rank::Kyosha);
    assert_eq!(race.pieces[0].square, 18);
}

#[test]
fn the_ladder_runs_from_fu_to_osho_and_osho_wins() {
    let mut r = Rank::Fu;
    let mut names = vec![r.name_ja()];
    while r != Rank::Osho {
        r = r.up();
        names.push(r.name_ja());
    }
    assert_eq!(
        names,
        ["歩", "香車", "桂馬", "銀将", "成銀", "角行", "飛車", "王将"]
    );
    let mut race = race_with(
        MawariRules::BASIC,
        &[(0, Rank::Hisha, 0), (16, Rank::Fu, 0)],
    );
    let ev = race.apply(mv(8));
    assert_eq!(race.winner, Some(0));
    assert!(ev.contains(&Event::Win { piece: 0 }));
    assert_eq!(race.thrower(), None);
}

#[test]
fn senko_makes_the_thrower_osho_without_moving() {
    let mut race = race_with(MawariRules::BASIC, &[(3, Rank::Fu, 0), (16, Rank::Fu, 0)]);
    let ev = race.apply(ThrowValue::Senko);
    assert_eq!(race.pieces[0].square, 3);
    assert_eq!(race.pieces[0].rank, Rank::Osho);
    assert_eq!(race.winner, Some(0));
    assert!(ev.contains(&Event::Senko { piece: 0 }));
}

#[test]
fn senko_can_be_one_rank_up_or_a_rethrow() {
    use yorimichi::rules::mawari::race::SenkoRule;
    let rules = only(|r| r.senko = SenkoRule::OneUp);
    let mut race = race_with(rules, &[(3, Rank::Keima, 0), (16, Rank::Fu, 0)]);
    let ev = race.apply(ThrowValue::Senko);
    assert_eq!(race.pieces[0].square, 3);
    assert_eq!(race.pieces[0].rank, Rank::Ginsho);
    assert!(ev.contains(&Event::Promote {
        piece: 0,
        to: Rank::Ginsho
    }));
    assert_eq!(race.winner, None);
    assert_eq!(race.thrower(), Some(1));
    // One up from 飛車 is 王将, and wins.
    let mut race = race_with(rules, &[(3, Rank::Hisha, 0), (16, Rank::Fu, 0)]);
    race.apply(ThrowValue::Senko);
    assert_eq!(race.winner, Some(0));
    // 投げ直し: nothing moves, and the same player throws again.
    let rules = only(|r| r.senko = SenkoRule::Rethrow);
    let mut race = race_with(rules, &[(3, Rank::Fu, 0), (16, Rank::Fu, 0)]);
    let before = race.pieces.clone();
    let ev = race.apply(ThrowValue::Senko);
    assert_eq!(race.pieces, before);
    assert_eq!(race.thrower(), Some(0));
    assert!(ev.contains(&Event::Rethrow { piece: 0 }));
    race.apply(mv(2));
    assert_eq!(race.pieces[0].square, 5);
    assert_eq!(race.thrower(), Some(1));
}

#[test]
fn a_koma_off_the_board_is_thrown_again_or_counts_nothing() {
    use yorimichi::rules::mawari::race::OffBoardRule;
    assert_eq!(MawariRules::BASIC.off_board, OffBoardRule::Rethrow);
    assert_eq!(
        ThrowValue::of(&[Pose::OffBoard, Pose::FaceUp, Pose::Stacked, Pose::Leaning]),
        ThrowValue::OffBoard
    );
    let mut race = race_with(MawariRules::BASIC, &[(3, Rank::Fu, 0), (16, Rank::Fu, 0)]);
    let ev = race.apply(ThrowValue::OffBoard);
    assert_eq!(race.pieces[0].square, 3);
    assert_eq!(race.thrower(), Some(0), "the same player throws again");
    assert_eq!(
        ev,
        vec![Event::OffBoard { piece: 0 }, Event::Rethrow { piece: 0 }]
    );
    let rules = only(|r| r.off_board = OffBoardRule::Zero);
    let mut race = race_with(rules, &[(3, Rank::Fu, 0), (16, Rank::Fu, 0)]);
    let ev = race.apply(ThrowValue::OffBoard);
    assert_eq!(race.pieces[0].square, 3);
    assert_eq!(race.thrower(), Some(1), "the turn passes");
    assert_eq!(ev, vec![Event::OffBoard { piece: 0 }]);
}

#[test]
fn rules_saved_before_the_off_board_and_senko_settings_still_load() {
    use yorimichi::rules::mawari::race::{OffBoardRule, SenkoRule};
    let old = "(korosu: false, keima_double: false, yaito: false, shinigami: false, nakayoshi: false, senso: false, pussun: false, keima_push: One, onbu: false, fu_demotion: false, baba: Zero)";
    let rules: MawariRules = ron::from_str(old).expect("an older rules text");
    assert_eq!(rules, MawariRules::BASIC);
    let new = old.replace("baba: Zero)", "baba: Zero, off_board: Zero, senko: OneUp)");
    let rules: MawariRules = ron::from_str(&new).expect("the settings");
    assert_eq!(rules.off_board, OffBoardRule::Zero);
    assert_eq!(rules.senko, SenkoRule::OneUp);
}

#[test]
fn baba_counts_nothing_or_goes_back_with_the_local_rule() {
    let mut race = race_with(MawariRules::BASIC, &[(5, Rank::Fu, 0), (16, Rank::Fu, 0)]);
    race.apply(ThrowValue::Baba { counted: 3 });
    assert_eq!(race.pieces[0].square, 5);
    assert_eq!(race.thrower(), Some(1));
    let rules = only(|r| r.baba = BabaRule::Back);
    let mut race = race_with(rules, &[(11, Rank::Kyosha, 0), (20, Rank::Fu, 0)]);
    let ev = race.apply(ThrowValue::Baba { counted: 3 });
    assert_eq!(race.pieces[0].square, 8);
    // Back onto a corner: a rank lost.
    assert_eq!(race.pieces[0].rank, Rank::Fu);
    assert!(ev.contains(&Event::Demote {
        piece: 0,
        to: Rank::Fu
    }));
}

#[test]
fn keima_moves_double() {
    let rules = only(|r| r.keima_double = true);
    let mut race = race_with(rules, &[(0, Rank::Keima, 0), (16, Rank::Keima, 0)]);
    race.apply(mv(4));
    assert_eq!(race.pieces[0].square, 8);
    assert_eq!(race.pieces[0].rank, Rank::Ginsho);
    // Without the rule a 桂馬 moves like any other piece.
    let mut race = race_with(
        MawariRules::BASIC,
        &[(0, Rank::Keima, 0), (16, Rank::Fu, 0)],
    );
    race.apply(mv(4));
    assert_eq!(race.pieces[0].square, 4);
}

#[test]
fn korosu_a_higher_piece_passing_kills_and_passing_again_revives() {
    let rules = only(|r| r.korosu = true);
    let mut race = race_with(
        rules,
        &[(0, Rank::Ginsho, 0), (3, Rank::Fu, 0), (20, Rank::Fu, 0)],
    );
    let ev = race.apply(mv(5));
    assert!(ev.contains(&Event::Kill { victim: 1, by: 0 }));
    assert!(race.pieces[1].dead());
    // The dead piece's turn is skipped.
    assert_eq!(race.thrower(), Some(1));
    let ev = race.apply(mv(4));
    assert_eq!(ev, vec![Event::Skip { piece: 1 }]);
    assert_eq!(race.pieces[1].square, 3);
    race.apply(mv(1)); // piece 2
    // Piece 0 goes once round and passes it again: revived.
    race.pieces[0].square = 1;
    let ev = race.apply(mv(4));
    assert!(ev.contains(&Event::Revive {
        piece: 1,
        by: Some(0),
        depth: 0
    }));
    assert!(race.pieces[1].alive());
}

#[test]
fn korosu_needs_a_higher_rank_and_a_real_pass() {
    let rules = only(|r| r.korosu = true);
    // Equal ranks: nothing.
    let mut race = race_with(rules, &[(0, Rank::Fu, 0), (3, Rank::Fu, 0)]);
    race.apply(mv(5));
    assert!(race.pieces[1].alive());
    // Stopping on the piece is no pass.
    let mut race = race_with(rules, &[(0, Rank::Hisha, 0), (3, Rank::Fu, 0)]);
    race.apply(mv(3));
    assert!(race.pieces[1].alive());
    // A lower piece passing a dead one does not revive it.
    let mut race = race_with(rules, &[(0, Rank::Fu, 0), (3, Rank::Kyosha, 1)]);
    race.apply(mv(5));
    assert!(race.pieces[1].dead());
    // Without the rule nobody dies.
    let mut race = race_with(MawariRules::BASIC, &[(0, Rank::Hisha, 0), (3, Rank::Fu, 0)]);
    race.apply(mv(5));
    assert!(race.pieces[1].alive());
}

#[test]
fn yaito_sends_a_dead_piece_further_in_so_it_needs_two_revivals() {
    let rules = only(|r| {
        r.korosu = true;
        r.yaito = true;
    });
    let mut race = race_with(rules, &[(0, Rank::Kakugyo, 0), (6, Rank::Fu, 1)]);
    let ev = race.apply(mv(6));
    assert!(ev.contains(&Event::Yaito { victim: 1, by: 0 }));
    assert_eq!(race.pieces[1].depth, 2);
    // One pass: one step out, still dead; a second: alive.
    race.pieces[0].square = 4;
    race.turn = 0;
    let ev = race.apply(mv(3));
    assert!(ev.contains(&Event::Revive {
        piece: 1,
        by: Some(0),
        depth: 1
    }));
    assert!(race.pieces[1].dead());
    race.pieces[0].square = 5;
    race.turn = 0;
    race.apply(mv(2));
    assert!(race.pieces[1].alive());
}

#[test]
fn shinigami_the_stopper_dies_and_the_dead_piece_comes_out() {
    let rules = only(|r| r.shinigami = true);
    let mut race = race_with(rules, &[(0, Rank::Ginsho, 0), (21, Rank::Fu, 1)]);
    let ev = race.apply(mv(5)); // stops on 5, opposite 21
    assert!(ev.contains(&Event::Shinigami {
        stopper: 0,
        freed: 1
    }));
    assert!(race.pieces[0].dead());
    assert!(race.pieces[1].alive());
    // Twice dead (やいと): it only comes one step out.
    let mut race = race_with(
        rules,
        &[(0, Rank::Ginsho, 0), (21, Rank::Fu, 2), (10, Rank::Fu, 0)],
    );
    race.apply(mv(5));
    assert_eq!(race.pieces[1].depth, 1);
    assert!(race.pieces[0].dead());
}

#[test]
fn nakayoshi_both_advance_seven() {
    let rules = only(|r| r.nakayoshi = true);
    let mut race = race_with(rules, &[(0, Rank::Fu, 0), (3, Rank::Kyosha, 0)]);
    let ev = race.apply(mv(3));
    assert!(ev.contains(&Event::Nakayoshi { mover: 0, other: 1 }));
    assert_eq!(race.pieces[0].square, 10);
    assert_eq!(race.pieces[1].square, 10);
}

#[test]
fn nakayoshi_that_ends_on_a_corner_promotes_both() {
    let rules = only(|r| r.nakayoshi = true);
    let mut race = race_with(rules, &[(0, Rank::Fu, 0), (1, Rank::Keima, 0)]);
    race.apply(mv(1)); // 1 + 7 = 8: a corner
    assert_eq!(race.pieces[0].square, 8);
    assert_eq!(race.pieces[0].rank, Rank::Kyosha);
    assert_eq!(race.pieces[1].rank, Rank::Ginsho);
}

#[test]
fn senso_the_first_back_round_gains_a_rank_the_other_loses_one() {
    let rules = only(|r| r.senso = true);
    let mut race = race_with(
        rules,
        &[
            (0, Rank::Ginsho, 0),
            (19, Rank::Kyosha, 0),
            (10, Rank::Fu, 0),
        ],
    );
    let ev = race.apply(mv(3)); // 3, opposite 19
    assert!(ev.contains(&Event::WarStart {
        first: 0,
        second: 1
    }));
    assert!(race.war.is_some());
    // The two throw in turn; piece 2 waits.
    assert_eq!(race.thrower(), Some(0));
    race.apply(mv(20));
    assert_eq!(race.thrower(), Some(1));
    race.apply(mv(30));
    assert_eq!(race.thrower(), Some(0));
    let ev = race.apply(mv(12)); // 32: home first
    assert!(ev.contains(&Event::WarEnd {
        winner: 0,
        loser: 1
    }));
    assert_eq!(race.pieces[0].rank, Rank::Narigin);
    assert_eq!(race.pieces[1].rank, Rank::Fu);
    // The pieces stay where they were; play goes on after the war's starter.
    assert_eq!(race.pieces[0].square, 3);
    assert_eq!(race.pieces[1].square, 19);
    assert_eq!(race.thrower(), Some(1));
}

#[test]
fn senso_that_ends_with_a_promotion_to_osho_wins_the_game() {
    let rules = only(|r| r.senso = true);
    let mut race = race_with(rules, &[(0, Rank::Hisha, 0), (19, Rank::Fu, 0)]);
    race.apply(mv(3));
    race.apply(ThrowValue::Senko); // a whole lap at once
    assert_eq!(race.pieces[0].rank, Rank::Osho);
    assert_eq!(race.winner, Some(0));
}

#[test]
fn pussun_the_front_piece_steps_on_and_the_mover_steps_back() {
    let rules = only(|r| r.pussun = true);
    let mut race = race_with(rules, &[(0, Rank::Fu, 0), (5, Rank::Kyosha, 0)]);
    let ev = race.apply(mv(4)); // stops on 4, right behind 5
    assert!(ev.contains(&Event::Pussun { front: 1, back: 0 }));
    assert_eq!(race.pieces[1].square, 6);
    assert_eq!(race.pieces[0].square, 3);
}

#[test]
fn pussun_onto_corners_promotes_the_front_and_demotes_the_back() {
    let rules = only(|r| r.pussun = true);
    // The seed's figure 12: the front piece steps onto a corner (up), the
    // mover steps back onto one (down).
    let mut race = race_with(rules, &[(0, Rank::Kyosha, 0), (10, Rank::Ginsho, 0)]);
    race.pieces[1].square = 15; // the front piece just before corner 16
    let ev = race.apply(mv(14)); // stops on 14, behind 15
    assert_eq!(race.pieces[1].square, 16);
    assert_eq!(race.pieces[1].rank, Rank::Narigin);
    assert_eq!(race.pieces[0].square, 13);
    // Back onto corner 8 instead:
    let mut race = race_with(rules, &[(0, Rank::Kyosha, 0), (10, Rank::Ginsho, 0)]);
    let ev2 = race.apply(mv(9)); // stops on 9, behind 10; steps back to 8
    assert_eq!(race.pieces[0].square, 8);
    assert_eq!(race.pieces[0].rank, Rank::Fu);
    assert!(ev2.contains(&Event::Demote {
        piece: 0,
        to: Rank::Fu
    }));
    assert!(ev.contains(&Event::Promote {
        piece: 1,
        to: Rank::Narigin
    }));
}

#[test]
fn pussun_demotes_below_fu_with_fu_demotion() {
    let rules = only(|r| {
        r.pussun = true;
        r.fu_demotion = true;
    });
    let mut race = race_with(rules, &[(0, Rank::Fu, 0), (18, Rank::Fu, 0)]);
    race.pieces[0].square = 12;
    let ev = race.apply(mv(5)); // 17, behind 18; back to 16
    assert_eq!(race.pieces[0].square, 16);
    assert_eq!(race.pieces[0].rank, Rank::Tokin);
    assert!(ev.contains(&Event::Demote {
        piece: 0,
        to: Rank::Tokin
    }));
}

#[test]
fn pussun_keima_local_rule_moves_two() {
    let rules = only(|r| {
        r.pussun = true;
        r.keima_push = KeimaPush::Two;
    });
    let mut race = race_with(rules, &[(0, Rank::Fu, 0), (5, Rank::Keima, 0)]);
    race.apply(mv(4));
    assert_eq!(race.pieces[1].square, 7);
    assert_eq!(race.pieces[0].square, 3);
    let rules = only(|r| {
        r.pussun = true;
        r.keima_push = KeimaPush::One;
    });
    let mut race = race_with(rules, &[(0, Rank::Fu, 0), (5, Rank::Keima, 0)]);
    race.apply(mv(4));
    assert_eq!(race.pieces[1].square, 6);
}

#[test]
fn fu_demotion_ladder_ends_out_of_the_game() {
    let rules = only(|r| {
        r.fu_demotion = true;
        r.baba = BabaRule::Back;
    });
    let mut race = race_with(
        rules,
        &[
            (9, Rank::SenkoStand, 0),
            (20, Rank::Fu, 0),
            (26, Rank::Fu, 0),
        ],
    );
    let ev = race.apply(ThrowValue::Baba { counted: 1 }); // back onto corner 8
    assert!(ev.contains(&Event::Out { piece: 0 }));
    assert!(race.pieces[0].out);
    // Out players are skipped in the turn order.
    assert_eq!(race.thrower(), Some(1));
    race.apply(mv(1));
    race.apply(mv(1));
    assert_eq!(race.thrower(), Some(1));
    // Without the rule 歩 is the bottom.
    let mut race = race_with(
        only(|r| r.baba = BabaRule::Back),
        &[(9, Rank::Fu, 0), (20, Rank::Fu, 0)],
    );
    race.apply(ThrowValue::Baba { counted: 1 });
    assert_eq!(race.pieces[0].rank, Rank::Fu);
    assert!(!race.pieces[0].out);
}

#[test]
fn the_last_player_left_wins() {
    let rules = only(|r| {
        r.fu_demotion = true;
        r.baba = BabaRule::Back;
    });
    let mut race = race_with(rules, &[(9, Rank::SenkoStand, 0), (20, Rank::Fu, 0)]);
    race.apply(ThrowValue::Baba { counted: 1 });
    assert_eq!(race.winner, Some(1));
}

#[test]
fn onbu_osho_carries_a_fu_round_once_more() {
    let rules = only(|r| r.onbu = true);
    let mut race = race_with(rules, &[(0, Rank::Hisha, 0), (20, Rank::Fu, 0)]);
    let ev = race.apply(mv(8));
    assert_eq!(race.pieces[0].rank, Rank::Osho);
    assert!(ev.contains(&Event::Onbu { piece: 0 }));
    assert_eq!(race.winner, None);
    assert_eq!(race.pieces[0].onbu_left, Some(TRACK));
    race.apply(mv(1));
    race.apply(mv(30));
    assert_eq!(race.winner, None);
    assert_eq!(race.pieces[0].onbu_left, Some(2));
    race.apply(mv(1));
    race.apply(mv(5)); // passes the end of the lap: wins there
    assert_eq!(race.winner, Some(0));
}

#[test]
fn everyone_dead_comes_out_one_step() {
    let rules = only(|r| r.shinigami = true);
    // Piece 1 is twice dead; piece 0 stops opposite it and dies, and 1 only
    // comes one step out: nobody is alive, so all come one step out.
    let mut race = race_with(rules, &[(0, Rank::Fu, 0), (21, Rank::Fu, 2)]);
    let ev = race.apply(mv(5));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Revive { by: None, .. }))
    );
    assert!(race.pieces.iter().any(|p| p.alive()));
    // Each comes exactly one step out: one twice dead and not freed by the
    // 死神 is still one step in, and sits out.
    let mut race = race_with(
        rules,
        &[(0, Rank::Fu, 0), (21, Rank::Fu, 2), (10, Rank::Fu, 2)],
    );
    let ev = race.apply(mv(5));
    let revived = ev
        .iter()
        .filter(|e| matches!(e, Event::Revive { by: None, .. }))
        .count();
    assert_eq!(revived, 3);
    let depths: Vec<u8> = race.pieces.iter().map(|p| p.depth).collect();
    assert_eq!(depths, [0, 0, 1]);
    assert_eq!(race.thrower(), Some(1));
    assert!(!race.sits_out());
}

#[test]
fn a_random_game_with_every_rule_ends_and_keeps_its_invariants() {
    let mut rng = yorimichi::rules::mawari::physics::SplitMix64(11);
    let totals = ThrowValue::possible_moves();
    // At least 300 games; `YORIMICHI_PLAYOUT_MOVES` (a million in `make
    // soak`) sets the least number of throws.
    let least_throws: usize = std::env::var("YORIMICHI_PLAYOUT_MOVES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let started = std::time::Instant::now();
    let mut all_throws = 0;
    let mut game = 0;
    while game < 300 || all_throws < least_throws {
        game += 1;
        let players = 2 + game % 3;
        let mut race = Race::new(players, MawariRules::ALL).expect("players");
        let mut throws = 0;
        while !race.is_over() && throws < 20_000 {
            let r = rng.unit();
            let value = if r < 0.01 {
                ThrowValue::Senko
            } else if r < 0.04 {
                ThrowValue::Baba { counted: 2 }
            } else {
                mv(totals[(rng.next_u64() % totals.len() as u64) as usize])
            };
            race.apply(value);
            throws += 1;
            for p in &race.pieces {
                assert!(p.square < TRACK);
                assert!(p.depth <= 2);
                assert!(p.onbu_left.is_none() || p.rank == Rank::Osho);
            }
            if let Some(w) = race.war {
                assert_ne!(w.first, w.second);
                assert!(race.pieces[w.first].alive() && race.pieces[w.second].alive());
            }
        }
        all_throws += throws;
        assert!(race.is_over(), "game {game} did not end in 20 000 throws");
        let winner = race.winner.expect("a winner");
        assert!(!race.pieces[winner].out);
        // A finished game takes no more throws.
        let before = race.clone();
        assert!(race.apply(mv(3)).is_empty());
        assert_eq!(race, before);
    }
    println!(
        "まわり将棋: {all_throws} random throws in {game} games with every rule, {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

// --- the position text -------------------------------------------------------

#[test]
fn race_text_round_trips_and_names_bad_words() {
    use yorimichi::rules::mawari::race::RaceText;
    let text = "hisha@6 fu@14/1 tokin@22! osho@30+12 turn=0";
    let parsed = RaceText::parse(text).expect("a good text");
    assert_eq!(parsed.pieces[1].depth, 1);
    assert!(parsed.pieces[2].out);
    assert_eq!(parsed.pieces[3].onbu_left, Some(12));
    assert_eq!(parsed.write(), text);
    for (bad, says) in [
        ("hisha@6", "2 to 4"),
        ("hisha@32 fu@0", "0 to 31"),
        ("king@3 fu@0", "no rank"),
        ("fu@3/3 fu@0", "/depth"),
        ("fu@3+4 fu@0", "only a 王将"),
        ("fu@3 fu@0 turn=2", "turn=2"),
        ("fu3 fu@0", "rank@square"),
        ("fu@1! fu@2! fu@3!", "turn=0"),
    ] {
        let err = RaceText::parse(bad).expect_err(bad);
        assert!(err.contains(says), "{bad}: {err}");
    }
    // A race read from a text plays on from there.
    let mut race = RaceText::parse("hisha@6 fu@14 turn=0")
        .expect("text")
        .race(MawariRules::BASIC);
    race.apply(mv(2));
    assert_eq!(race.winner, Some(0));
    assert_eq!(RaceText::of(&race).write(), "osho@8 fu@14 turn=0 winner=0");
}

// --- level files -------------------------------------------------------------

#[test]
fn the_level_files_load_and_every_staged_example_shows_what_it_names() {
    use yorimichi::rules::mawari::levels::{lesson, presets};
    let p = presets().expect("levels/presets/mawari.ron");
    assert_eq!(p.rules("basic"), Some(MawariRules::BASIC));
    assert_eq!(p.rules("all"), Some(MawariRules::ALL));
    let l = lesson().expect("levels/tutorials/mawari.ron");
    // A picture of each pose, and a staged example of each special rule.
    let pictured: Vec<Pose> = l
        .steps
        .iter()
        .filter_map(|s| s.poses.or(s.thrown.map(|t| t.poses)))
        .flatten()
        .collect();
    // A koma off the board has no place in a picture of the board.
    for pose in Pose::ALL.into_iter().filter(|&p| p != Pose::OffBoard) {
        assert!(pictured.contains(&pose), "no picture shows {pose:?}");
    }
    let shown: Vec<&str> = l
        .steps
        .iter()
        .filter_map(|s| s.stage.as_ref())
        .flat_map(|s| s.expect.iter().map(String::as_str))
        .collect();
    for rule in [
        "Promote",
        "Kill",
        "Revive",
        "Yaito",
        "Shinigami",
        "Nakayoshi",
        "WarStart",
        "Pussun",
        "Onbu",
        "Demote",
        "Senko",
        "WarThrow",
        "WarEnd",
        "Baba",
        "Out",
        "Win",
        "Skip",
    ] {
        assert!(shown.contains(&rule), "no staged example shows {rule}");
    }
    // The local rules each have their example, and a throw is practised.
    let rules: Vec<MawariRules> = l
        .steps
        .iter()
        .filter_map(|s| s.stage.as_ref())
        .filter_map(|s| s.rules_in(&p))
        .collect();
    assert!(rules.iter().any(|r| r.baba == BabaRule::Back));
    assert!(
        rules
            .iter()
            .any(|r| r.pussun && r.keima_push == KeimaPush::One)
    );
    assert!(
        rules
            .iter()
            .any(|r| r.pussun && r.keima_push == KeimaPush::Two)
    );
    assert!(l.steps.iter().any(|s| s.practice));
    // ばば is pictured from a real throw, simulated when the file loads.
    let baba = l
        .steps
        .iter()
        .find(|s| s.title.ja == "ばば")
        .expect("the ばば step");
    let thrown = baba.thrown.expect("a thrown picture");
    assert!(baba.poses.is_none() && baba.resting.is_some());
    let again = KomaDice::new().throw(thrown.toss, false);
    assert!(again.settled);
    assert_eq!(again.poses, thrown.poses);
    assert!(matches!(again.value, ThrowValue::Baba { .. }));
}

#[test]
fn broken_level_files_name_the_file_and_the_place() {
    use yorimichi::rules::mawari::levels::{lesson_from, presets, presets_from};
    let p = presets().expect("presets");
    let step = |stage: &str| {
        format!(
            "MawariLesson(title: (ja: \"t\", en: \"t\"), steps: [(title: (ja: \"a\", en: \"a\"), body: (ja: \"b\", en: \"b\"), stage: Some({stage}))])"
        )
    };
    for (text, place, says) in [
        (
            step("(rules: \"odd\", pieces: [(square: 0, rank: Fu), (square: 16, rank: Fu)], throws: [Move(8)], expect: [])"),
            "steps[0].stage.rules",
            "no preset",
        ),
        (
            step("(rules: \"basic\", pieces: [(square: 40, rank: Fu), (square: 16, rank: Fu)], throws: [Move(8)], expect: [])"),
            "steps[0].stage.pieces[0].square",
            "0 to 31",
        ),
        (
            step("(rules: \"basic\", pieces: [(square: 0, rank: Fu), (square: 16, rank: Fu)], throws: [Move(3)], expect: [\"Promote\"])"),
            "steps[0].stage.expect",
            "do not show Promote",
        ),
        (
            step("(rules: \"basic\", pieces: [(square: 0, rank: Fu, depth: 3), (square: 16, rank: Fu)], throws: [Move(3)], expect: [])"),
            "steps[0].stage.pieces[0].depth",
            "at most 2",
        ),
        (
            step("(rules: \"basic\", pieces: [(square: 0, rank: Fu), (square: 16, rank: Fu)], turn: 2, throws: [Move(3)], expect: [])"),
            "steps[0].stage.turn",
            "only 2 pieces",
        ),
        (
            step("(rules: \"basic\", pieces: [(square: 0, rank: Fu), (square: 16, rank: Fu)], throws: [], expect: [])"),
            "steps[0].stage.throws",
            "needs a throw",
        ),
        (
            step("(rules: \"basic\", pieces: [(square: 0, rank: Fu), (square: 16, rank: Fu)], throws: [Move(8)], expect: [], end: Some(\"kyosha@8 fu@99 turn=1\"))"),
            "steps[0].stage.end",
            "0 to 31",
        ),
        (
            step("(rules: \"basic\", pieces: [(square: 0, rank: Fu), (square: 16, rank: Fu)], throws: [Move(8)], expect: [], end: Some(\"fu@8 fu@16 turn=1\"))"),
            "steps[0].stage.end",
            "end with \"kyosha@8 fu@16 turn=1\", not \"fu@8 fu@16 turn=1\"",
        ),
        (
            "MawariLesson(title: (ja: \"t\", en: \"t\"), steps: [(title: (ja: \"\", en: \"a\"), body: (ja: \"b\", en: \"b\"))])".to_string(),
            "steps[0].title",
            "both the Japanese and the English",
        ),
        ("MawariLesson(title: (ja: \"t\", en: \"t\"), steps: [])".to_string(), "steps", "no steps"),
        ("MawariLesson(title: oops)".to_string(), "line 1", ""),
    ] {
        let e = lesson_from("levels/tutorials/mawari.ron", &text, &p).expect_err(place);
        assert_eq!(e.file, "levels/tutorials/mawari.ron");
        assert!(e.place.starts_with(place), "{place}: {e}");
        assert!(e.problem.contains(says), "{place}: {e}");
    }
    let dup = "MawariPresets(presets: [(id: \"a\", name: (ja: \"a\", en: \"a\"), about: (ja: \"a\", en: \"a\"), rules: (korosu: false, keima_double: false, yaito: false, shinigami: false, nakayoshi: false, senso: false, pussun: false, keima_push: One, onbu: false, fu_demotion: false, baba: Zero)), (id: \"a\", name: (ja: \"a\", en: \"a\"), about: (ja: \"a\", en: \"a\"), rules: (korosu: false, keima_double: false, yaito: false, shinigami: false, nakayoshi: false, senso: false, pussun: false, keima_push: One, onbu: false, fu_demotion: false, baba: Zero))])";
    let e = presets_from("levels/presets/mawari.ron", dup).expect_err("a duplicate id");
    assert_eq!(e.place, "presets[1].id");
    let e =
        presets_from("levels/presets/mawari.ron", "MawariPresets(presets: [])").expect_err("empty");
    assert_eq!(e.place, "presets");
}

/// The real tutorial with one of its examples broken: the loader names the
/// file, the step and what is wrong.
#[test]
fn each_tutorial_example_broken_in_the_real_file_is_named() {
    use yorimichi::rules::data::MAWARI_TUTORIAL;
    use yorimichi::rules::mawari::levels::{lesson_from, presets};
    let p = presets().expect("presets");
    let real = lesson_from(MAWARI_TUTORIAL.path, MAWARI_TUTORIAL.text, &p).expect("the real file");
    let step = |title: &str| {
        real.steps
            .iter()
            .position(|s| s.title.ja == title)
            .unwrap_or_else(|| panic!("no step {title}"))
    };
    for (title, from, to, place, says) in [
        // The ばば picture: another toss, or poses it does not come to rest in.
        (
            "ばば",
            "seed: 54)",
            "seed: 53)",
            "thrown",
            "the toss comes to rest as",
        ),
        (
            "ばば",
            "poses: (FaceUp, FaceUp, Stacked, FaceDown)",
            "poses: (FaceUp, FaceDown, Stacked, FaceDown)",
            "thrown.poses",
            "comes to rest as (face_up, face_up, stacked, face_down), not (face_up, face_down, stacked, face_down)",
        ),
        // A koma on another is never placed by hand.
        (
            "表は1、裏は0",
            "poses: Some((FaceUp, FaceUp, FaceDown, FaceDown))",
            "poses: Some((FaceUp, Stacked, FaceDown, FaceDown))",
            "poses[1]",
            "not placed by hand",
        ),
        (
            "投げてみよう",
            "practice: true,",
            "practice: true, stage: Some((rules: \"basic\", pieces: [(square: 0, rank: Fu), (square: 16, rank: Fu)], throws: [Move(8)], expect: [])),",
            "practice",
            "stands alone",
        ),
        // The war: 31 is not round.
        (
            "戦争",
            "Move(12), Move(20), Move(20)]",
            "Move(12), Move(20), Move(19)]",
            "stage.expect[4]",
            "do not show WarEnd after WarThrow",
        ),
        (
            "2回死んだ駒と死神",
            "(square: 21, rank: Fu, depth: 2), (square: 18, rank: Kakugyo)",
            "(square: 21, rank: Fu, depth: 1), (square: 18, rank: Kakugyo)",
            "stage.expect[1]",
            "do not show Skip after Shinigami",
        ),
        (
            "ぷっすんきゅうの桂馬: 2つ",
            "(rules: \"all\", pieces: [(square: 2, rank: Kyosha), (square: 6, rank: Keima)]",
            "(rules: \"all\", local: (keima_push: Some(One)), pieces: [(square: 2, rank: Kyosha), (square: 6, rank: Keima)]",
            "stage.expect[1]",
            "do not show Promote after Pussun",
        ),
        (
            "ぷっすんきゅうの桂馬: 1つ",
            "local: (keima_push: Some(One))",
            "local: (keima_push: Some(Two))",
            "stage.end",
            "end with \"kyosha@4 gin@9 turn=0\", not \"kyosha@4 keima@9 turn=0\"",
        ),
        (
            "脱落",
            "(square: 5, rank: SenkoStand), (square: 10, rank: Fu), (square: 20, rank: Fu)",
            "(square: 5, rank: Upright), (square: 10, rank: Fu), (square: 20, rank: Fu)",
            "stage.expect[1]",
            "do not show Out after Pussun",
        ),
        (
            "最後に残った人の勝ち",
            "(square: 10, rank: Fu)], throws: [Move(4)], expect: [\"Pussun\", \"Out\", \"Win\"]",
            "(square: 10, rank: Fu), (square: 20, rank: Fu)], throws: [Move(4)], expect: [\"Pussun\", \"Out\", \"Win\"]",
            "stage.expect[2]",
            "do not show Win after Out",
        ),
        (
            "最後に残った人の勝ち",
            "throws: [Move(4)], expect: [\"Pussun\", \"Out\", \"Win\"]",
            "throws: [Move(4), Move(1)], expect: [\"Pussun\", \"Out\", \"Win\"]",
            "stage.throws[1]",
            "the game is over after throw 1",
        ),
        (
            "みんな死んだら",
            "(square: 10, rank: Fu, depth: 1)], throws: [Move(3)]",
            "(square: 10, rank: Fu)], throws: [Move(3)]",
            "stage.expect[1]",
            "do not show Revive after Shinigami",
        ),
        (
            "ばばで戻る",
            "local: (baba: Some(Back))",
            "local: (baba: Some(Zero))",
            "stage.expect[1]",
            "do not show Demote after Baba",
        ),
        (
            "ばばで戻る",
            "throws: [Baba(counted: 2)]",
            "throws: [Baba(counted: 3)]",
            "stage.throws[0]",
            "the picture shows Baba { counted: 2 } but the example throws Baba { counted: 3 }",
        ),
    ] {
        let i = step(title);
        let body = MAWARI_TUTORIAL.text;
        // The step's own text (from its title on) holds what is changed.
        let at = body
            .find(&format!("title: (ja: \"{title}\""))
            .unwrap_or_else(|| panic!("{title}"));
        let (head, tail) = body.split_at(at);
        assert!(
            tail.contains(from),
            "{title}: the file no longer holds {from:?}"
        );
        let text = format!("{head}{}", tail.replacen(from, to, 1));
        let e = lesson_from(MAWARI_TUTORIAL.path, &text, &p).expect_err(title);
        assert_eq!(e.file, "levels/tutorials/mawari.ron");
        let want_place = format!("steps[{i}].{place}");
        assert!(e.place.starts_with(&want_place), "{title}: {e}");
        assert!(e.problem.contains(says), "{title}: {e}");
    }
}
