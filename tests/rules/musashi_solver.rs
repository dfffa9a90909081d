//! The exact 十六むさし solver (issue 4): hand-checked small cases, a
//! cross-check against plain value iteration over the game's own moves,
//! mirror counting, perfect play, the position text and the CSV.

use std::collections::HashMap;

use yorimichi::rules::data;
use yorimichi::rules::game::{Game, Side};
use yorimichi::rules::musashi::solve::{self, Solver, Tables, Value};
use yorimichi::rules::musashi::{KO, Musashi, MusashiPos, MusashiRules, OYA};

fn game(setchin: bool) -> Musashi {
    data::musashi_standard(setchin).unwrap()
}

fn pos(g: &Musashi, ko: &[&str], oya: &str, to_move: Side) -> MusashiPos {
    let at = |n: &str| g.board().find(n).unwrap_or_else(|| panic!("no point {n}"));
    let ko: Vec<usize> = ko.iter().map(|n| at(n)).collect();
    g.position(&ko, at(oya), to_move).unwrap()
}

/// Every position with up to `max_ko` 子, both sides to move.
fn all_positions(g: &Musashi, max_ko: u32) -> Vec<MusashiPos> {
    fn subsets(points: &[usize], k: u32, chosen: u64, out: &mut Vec<u64>) {
        if k == 0 {
            out.push(chosen);
            return;
        }
        for (i, &p) in points.iter().enumerate() {
            subsets(&points[i + 1..], k - 1, chosen | (1 << p), out);
        }
    }
    let n = g.board().len();
    let mut out = Vec::new();
    for oya in 0..n {
        let others: Vec<usize> = (0..n).filter(|&p| p != oya).collect();
        for k in 0..=max_ko {
            let mut sets = Vec::new();
            subsets(&others, k, 0, &mut sets);
            for bits in sets {
                for side in [OYA, KO] {
                    out.push(MusashiPos::from_bits(bits, oya as u8, side));
                }
            }
        }
    }
    out
}

fn key(p: &MusashiPos) -> (u64, usize, bool) {
    let bits = p.ko_bits();
    (bits, p.oya(), p.to_move() == OYA)
}

/// Plain synchronous value iteration over the game's own legal moves:
/// after t rounds every position that the 子 win within t plies has its
/// exact length; the rest stay `None`.
fn value_iteration(
    g: &Musashi,
    positions: &[MusashiPos],
) -> HashMap<(u64, usize, bool), Option<u16>> {
    let index: HashMap<_, usize> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (key(p), i))
        .collect();
    let children: Vec<Vec<usize>> = positions
        .iter()
        .map(|p| {
            let mut moves = Vec::new();
            g.legal_moves(p, &mut moves);
            moves.iter().map(|&m| index[&key(&g.play(p, m))]).collect()
        })
        .collect();
    let mut value: Vec<Option<u16>> = vec![None; positions.len()];
    loop {
        let next: Vec<Option<u16>> = (0..positions.len())
            .map(|i| {
                let kids = children[i].iter().map(|&c| value[c]);
                if positions[i].to_move() == KO {
                    kids.flatten().min().map(|d| d + 1)
                } else if children[i].is_empty() {
                    Some(0)
                } else {
                    kids.collect::<Option<Vec<u16>>>()
                        .map(|v| v.into_iter().max().unwrap_or(0) + 1)
                }
            })
            .collect();
        if next == value {
            break;
        }
        value = next;
    }
    positions
        .iter()
        .zip(value)
        .map(|(p, v)| (key(p), v))
        .collect()
}

fn as_option(v: Value) -> Option<u16> {
    match v {
        Value::KoWin(n) => Some(n),
        Value::NotKoWin => None,
    }
}

fn cross_check(setchin: bool, max_ko: u8) {
    let g = game(setchin);
    let positions = all_positions(&g, max_ko as u32);
    let expected = value_iteration(&g, &positions);
    let tables = solve::solve(&g, max_ko).unwrap();
    let mut wins = 0;
    for p in &positions {
        let got = tables.value(p).map(as_option);
        assert_eq!(got, Some(expected[&key(p)]), "{}", g.to_text(p));
        wins += got.flatten().is_some() as usize;
    }
    assert!(wins > 0, "the check must see some 子 wins");
}

#[test]
fn the_solver_agrees_with_plain_value_iteration_on_the_25_point_board() {
    cross_check(false, 4);
}

#[test]
fn the_solver_agrees_with_plain_value_iteration_with_the_setchin() {
    cross_check(true, 3);
}

#[test]
fn hand_checked_wins_in_the_setchin_apex() {
    let g = game(true);
    let t = solve::solve(&g, 3).unwrap();
    // 親 on the apex g5 has two neighbours: two 子 on them leave it no move.
    let stuck = pos(&g, &["f4", "g4"], "g5", OYA);
    assert_eq!(t.value(&stuck), Some(Value::KoWin(0)));
    // The 子 to move close the second neighbour.
    let closing = pos(&g, &["f4", "g3"], "g5", KO);
    assert_eq!(t.value(&closing), Some(Value::KoWin(1)));
    // 親 on g4 has only g5 left; the 子 follow it in.
    let driven = pos(&g, &["f4", "g3"], "g4", OYA);
    assert_eq!(t.value(&driven), Some(Value::KoWin(2)));
    // Two 子 never trap 親 in the open square.
    let open = pos(&g, &["a5", "b4"], "c3", OYA);
    assert_eq!(t.value(&open), Some(Value::NotKoWin));
    // The 子 to move with no move at all have not won.
    let blocked = pos(&g, &[], "c3", KO);
    assert_eq!(t.value(&blocked), Some(Value::NotKoWin));
    // With two 子, 親 to move is lost only on the apexes g5 and g1 (no move)
    // and on g4 and g2 (driven in): 0 plies twice, 2 plies twice.
    let s = t.stats(2, OYA, false);
    assert_eq!(s.histogram.first(), Some(&2));
    assert_eq!(s.histogram.get(1), Some(&0));
    assert_eq!(s.histogram.get(2), Some(&2));
}

#[test]
fn a_capture_into_a_lost_position_does_not_save_oya_but_one_into_a_free_one_does() {
    let g = game(true);
    let t = solve::solve(&g, 4).unwrap();
    // 親 on a5 hemmed in by b5 and a4 has one move, into b4, which sits
    // between a3 and c5 on the diamond: it takes them and is free.
    let escape = pos(&g, &["b5", "a4", "a3", "c5"], "a5", OYA);
    let mut moves = Vec::new();
    g.legal_moves(&escape, &mut moves);
    assert_eq!(moves.len(), 1, "the only move is into b4");
    assert!(g.is_capture(&escape, moves[0]));
    let after = g.play(&escape, moves[0]);
    assert_eq!(after.ko_count(), 2);
    assert_eq!(t.value(&after), Some(Value::NotKoWin));
    assert_eq!(
        t.value(&escape),
        Some(Value::NotKoWin),
        "the capture frees 親"
    );
}

#[test]
fn perfect_play_ends_in_the_promised_number_of_plies() {
    let g = game(true);
    let t = solve::solve(&g, 4).unwrap();
    for ko in [3u8, 4] {
        for side in [OYA, KO] {
            let s = t.stats(ko, side, false);
            let (plies, start) = s.longest.expect("some wins");
            assert_eq!(t.value(&start), Some(Value::KoWin(plies)));
            let line = t.best_line(&g, &start, 500);
            assert_eq!(line.len(), plies as usize, "{}", g.to_text(&start));
            let end = line.iter().fold(start, |p, &m| g.play(&p, m));
            let mut moves = Vec::new();
            g.legal_moves(&end, &mut moves);
            assert!(
                end.to_move() == OYA && moves.is_empty(),
                "親 is stuck at the end"
            );
        }
    }
}

#[test]
fn mirror_counting_counts_each_pair_of_mirror_images_once() {
    for setchin in [true, false] {
        let g = game(setchin);
        let t = solve::solve(&g, 3).unwrap();
        let positions = all_positions(&g, 3);
        let mirror = |p: &MusashiPos| {
            let m = |q: usize| {
                let pt = g.board().point(q);
                g.board().at(pt.x, 4 - pt.y).unwrap()
            };
            let bits = p.ko().fold(0u64, |a, q| a | (1 << m(q)));
            MusashiPos::from_bits(bits, m(p.oya()) as u8, p.to_move())
        };
        for ko in 0..=3u8 {
            for side in [OYA, KO] {
                let layer: Vec<&MusashiPos> = positions
                    .iter()
                    .filter(|p| p.ko_count() == ko as u32 && p.to_move() == side)
                    .collect();
                let symmetric = layer.iter().filter(|p| key(&mirror(p)) == key(p)).count() as u64;
                let wins_symmetric = layer
                    .iter()
                    .filter(|p| key(&mirror(p)) == key(p))
                    .filter(|p| matches!(t.value(p), Some(Value::KoWin(_))))
                    .count() as u64;
                let full = t.stats(ko, side, false);
                let once = t.stats(ko, side, true);
                assert_eq!(full.positions, layer.len() as u64);
                assert_eq!(once.positions * 2 - symmetric, full.positions);
                assert_eq!(once.ko_wins * 2 - wins_symmetric, full.ko_wins);
                for p in &layer {
                    assert_eq!(
                        t.value(p),
                        t.value(&mirror(p)),
                        "mirror images have one value"
                    );
                }
            }
        }
    }
}

#[test]
fn the_solver_works_in_slices_as_well_as_at_once() {
    let g = game(true);
    let whole: Tables = solve::solve(&g, 4).unwrap();
    let mut solver = Solver::new(&g, 4).unwrap();
    let mut slices = 0;
    while !solver.work(5_000) {
        slices += 1;
    }
    assert!(slices > 10, "the work was cut into slices");
    let sliced = solver.into_tables().unwrap();
    for ko in 0..=4 {
        for side in [OYA, KO] {
            assert_eq!(sliced.stats(ko, side, false), whole.stats(ko, side, false));
        }
    }
    assert!(Solver::new(&g, solve::MAX_KO + 1).is_err());
}

#[test]
fn the_position_text_round_trips_and_explains_its_mistakes() {
    let g = game(true);
    let start = g.start();
    let text = g.to_text(&start);
    assert_eq!(text, "KKKKK-./K...K../K.O.K../K...K../KKKKK-. oya");
    let back = g.position_from_text(&text).unwrap();
    assert_eq!(g.to_text(&back), text);
    let ko_to_move = g
        .position_from_text("KKKKK-./K...K../K.O.K../K...K../KKKKK-. 子")
        .unwrap();
    assert_eq!(ko_to_move.to_move(), KO);
    for (bad, says) in [
        ("KKKKK-./K...K../K.O.K../K...K../KKKKK-.", "side to move"),
        (
            "KKKKK-./K...K../K.O.K../K...K../KKKKK-. 親 more",
            "side to move",
        ),
        (
            "KKKKK-./K...K../K.O.K../K...K../KKKKK-. neko",
            "unknown side",
        ),
        ("KKKKK-./K...K../K.O.K../K...K. oya", "5 rows"),
        (
            "KKKKKK./K...K../K.O.K../K...K../KKKKK-. oya",
            "off the board",
        ),
        (
            "KKKKK-./K...K../K.X.K../K...K../KKKKK-. oya",
            "unknown mark",
        ),
        ("KKKKK-./K...K../K...K../K...K../KKKKK-. oya", "no 親"),
    ] {
        let err = g.position_from_text(bad).unwrap_err();
        assert!(err.contains(says), "{bad}: {err}");
    }
    let small = game(false);
    assert_eq!(
        small.to_text(&small.start()),
        "KKKKK/K...K/K.O.K/K...K/KKKKK oya"
    );
}

#[test]
fn describe_names_the_value_and_a_line_that_ends_it() {
    let g = game(true);
    let t = solve::solve(&g, 3).unwrap();
    let text = solve::describe(&t, &g, &pos(&g, &["f4", "g3"], "g4", OYA)).unwrap();
    assert!(text.contains("子 win in 2 plies"), "{text}");
    assert!(text.contains("親 g4-g5, 子 g3-g4"), "{text}");
    let free = solve::describe(&t, &g, &pos(&g, &["a5", "b4"], "c3", OYA)).unwrap();
    assert!(free.contains("not a 子 win"), "{free}");
    let too_many = pos(&g, &["a5", "b5", "c5", "d5"], "c3", OYA);
    assert!(solve::describe(&t, &g, &too_many).is_err());
}

/// The same check through five 子 with the 雪隠, where most positions turn
/// into 子 wins (minutes and several GiB: run by hand with
/// `cargo test --release --test musashi_solver -- --ignored`).
#[test]
#[ignore]
fn the_solver_agrees_with_plain_value_iteration_through_five_ko() {
    cross_check(true, 5);
}

fn game_with(rules: MusashiRules) -> Musashi {
    Musashi::new(data::board(rules.board_name()).unwrap(), rules).unwrap()
}

#[test]
fn the_games_tables_count_the_threshold_as_a_win_for_oya() {
    // 親 wins at 4 子 or fewer: a capture from five 子 ends the game, so
    // some pure-rule 子 wins (which allow a capture) are 親's here, and no
    // pure-rule non-win becomes a 子 win.
    let rules = MusashiRules {
        oya_wins_at: 4,
        ..MusashiRules::STANDARD
    };
    let g = game_with(rules);
    let pure = solve::solve(&g, 5).unwrap();
    let own = Solver::for_game(&g, solve::WEB_BUDGET).unwrap().finish();
    assert_eq!((own.floor(), own.max_ko()), (4, 5));
    let mut turned = 0;
    for side in [OYA, KO] {
        let s = own.stats(5, side, false);
        let p = pure.stats(5, side, false);
        assert!(s.ko_wins < p.ko_wins);
        let (_, example) = s.longest.unwrap();
        assert!(matches!(pure.value(&example), Some(Value::KoWin(_))));
        turned += p.ko_wins - s.ko_wins;
    }
    assert!(turned > 0);
    // The budget decides the reach; none fits when even one layer is too big.
    assert!(Solver::for_game(&g, 1000).is_none());
}

/// 子が先手 rules (play on to one 子, where the tables are exact) with the
/// tables the browser build affords (every position with 2–5 子).
fn ko_first_with_tables() -> (Musashi, std::sync::Arc<Tables>) {
    let rules = MusashiRules {
        ko_first: true,
        oya_wins_at: 1,
        ..MusashiRules::STANDARD
    };
    let mut g = game_with(rules);
    let tables = Solver::for_game(&g, solve::WEB_BUDGET).unwrap().finish();
    let t = std::sync::Arc::new(tables);
    g.set_endgame(t.clone()).unwrap();
    (g, t)
}

#[test]
fn the_strong_cpu_plays_the_tables_perfectly_in_the_endgame() {
    use yorimichi::rules::search::{SearchPlan, Searcher};
    let (g, t) = ko_first_with_tables();
    assert_eq!(g.endgame_reach(), 5);
    let plan = |exact| SearchPlan {
        quiescence: false,
        seed: 7,
        exact,
        ..SearchPlan::fixed(3, 50_000)
    };
    for ko in [3u8, 4] {
        for side in [OYA, KO] {
            let (plies, start) = t.stats(ko, side, false).longest.unwrap();
            let perfect = t.perfect_moves(&g, &start).unwrap();
            let mut pos = start;
            // Both sides follow the tables all the way to 親's last stand.
            for _ in 0..plies {
                let best = Searcher::new(&g, pos, &[g.hash(&pos)], plan(true))
                    .run(&g)
                    .unwrap()
                    .best;
                assert!(t.perfect_moves(&g, &pos).unwrap().contains(&best));
                pos = g.play(&pos, best);
            }
            assert!(perfect.len() <= 8);
            let mut moves = Vec::new();
            g.legal_moves(&pos, &mut moves);
            assert!(
                pos.to_move() == OYA && moves.is_empty(),
                "親 is trapped on time"
            );
        }
    }
    // Tables for other rules are refused.
    let mut other = game_with(MusashiRules::STANDARD);
    assert!(other.set_endgame(t).is_err());
}

#[test]
fn a_lost_ko_side_playing_from_the_tables_does_not_walk_into_a_repetition() {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    use yorimichi::rules::search::{SearchPlan, Searcher};
    let (g, t) = ko_first_with_tables();
    let plan = SearchPlan {
        seed: 7,
        exact: true,
        ..SearchPlan::fixed(3, 200_000)
    };
    let best = |pos: MusashiPos, history: &[u64]| {
        Searcher::new(&g, pos, history, plan.clone())
            .run(&g)
            .unwrap()
            .best
    };
    let mut rng = StdRng::seed_from_u64(5);
    let mut checked = 0;
    while checked < 20 {
        // Four 子 to move that cannot force a win (the tables: 親 lives).
        let mut points: Vec<usize> = (0..g.board().len()).collect();
        for i in 0..5 {
            let j = rng.random_range(i..points.len());
            points.swap(i, j);
        }
        let Ok(root) = g.position(&points[1..5], points[0], KO) else {
            continue;
        };
        let mut moves = Vec::new();
        g.legal_moves(&root, &mut moves);
        if g.outcome(&root).is_some() || moves.len() < 2 || t.value(&root) != Some(Value::NotKoWin)
        {
            continue;
        }
        // The move the 子 would play, and a 親 reply to it that has been
        // seen twice before: after that move 親 wins by repetition.
        let preferred = best(root, &[g.hash(&root)]);
        let after = g.play(&root, preferred);
        let mut replies = Vec::new();
        g.legal_moves(&after, &mut replies);
        let Some(&reply) = replies
            .iter()
            .find(|&&r| g.outcome(&g.play(&after, r)).is_none())
        else {
            continue;
        };
        let twice = g.hash(&g.play(&after, reply));
        let history = [twice, g.hash(&g.start()), twice, g.hash(&root)];
        let chosen = best(root, &history);
        assert_ne!(
            chosen,
            preferred,
            "{}: the 子 avoid the move after which 親 repeats",
            g.to_text(&root)
        );
        checked += 1;
    }
}
