//! 十六むさし rules (seed 000, issue 4): the start, steps along lines, the
//! 親's capture (pairs on straight lines only, several at once, through the
//! 雪隠), every way the game ends, the presets, and 印.

use yorimichi::rules::data;
use yorimichi::rules::game::{EndReason, Game, Outcome, Side};
use yorimichi::rules::musashi::{KO, Musashi, MusashiMove, MusashiPos, MusashiRules, OYA};
use yorimichi::rules::record::GameRecord;

fn game(rules: MusashiRules) -> Musashi {
    Musashi::new(data::board(rules.board_name()).unwrap(), rules).unwrap()
}

fn std_game() -> Musashi {
    game(MusashiRules::STANDARD)
}

fn p(g: &Musashi, name: &str) -> usize {
    g.board()
        .find(name)
        .unwrap_or_else(|| panic!("no point {name}"))
}

fn pos(g: &Musashi, ko: &[&str], oya: &str, to_move: Side) -> MusashiPos {
    let ko: Vec<usize> = ko.iter().map(|n| p(g, n)).collect();
    g.position(&ko, p(g, oya), to_move).unwrap()
}

fn mv(g: &Musashi, from: &str, to: &str) -> MusashiMove {
    MusashiMove {
        from: p(g, from) as u8,
        to: p(g, to) as u8,
    }
}

fn captured_names(g: &Musashi, pos: &MusashiPos, m: MusashiMove) -> Vec<String> {
    let mut v: Vec<String> = g
        .captured(pos, m)
        .into_iter()
        .map(|q| g.board().point(q).name.clone())
        .collect();
    v.sort();
    v
}

#[test]
fn the_start_has_oya_in_the_centre_and_sixteen_ko_round_the_square() {
    let g = std_game();
    let s = g.start();
    assert_eq!(g.board().len(), 33);
    assert_eq!(s.oya(), p(&g, "c3"));
    assert_eq!(s.ko_count(), 16);
    for q in s.ko() {
        let pt = g.board().point(q);
        assert!(pt.x <= 4 && (pt.x == 0 || pt.x == 4 || pt.y == 0 || pt.y == 4));
    }
    assert_eq!(g.side_to_move(&s), OYA, "親 moves first");
    assert_eq!(
        game(MusashiRules {
            ko_first: true,
            ..MusashiRules::STANDARD
        })
        .start()
        .to_move(),
        KO
    );
    assert_eq!(
        g.position_from_rows(
            &g.to_rows(&s).iter().map(String::as_str).collect::<Vec<_>>(),
            OYA
        )
        .unwrap(),
        s
    );
}

#[test]
fn pieces_step_along_lines_and_diagonals_only_where_drawn() {
    let g = std_game();
    let s = g.start();
    let mut moves = Vec::new();
    g.legal_moves(&s, &mut moves);
    // From c3 (x + y even) every one of the 8 neighbours is linked.
    assert_eq!(moves.len(), 8);
    // b3 (x + y odd) has no diagonals.
    let q = pos(&g, &["a5"], "b3", OYA);
    let mut v = Vec::new();
    g.legal_moves(&q, &mut v);
    let mut to: Vec<String> = v
        .iter()
        .map(|m| g.board().point(m.to as usize).name.clone())
        .collect();
    to.sort();
    assert_eq!(to, ["a3", "b2", "b4", "c3"]);
    // The square's corner e5 has no link into the 雪隠; e3 (the apex) has three.
    let corner = pos(&g, &["a5"], "e5", OYA);
    v.clear();
    g.legal_moves(&corner, &mut v);
    assert!(v.iter().all(|m| g.board().point(m.to as usize).x <= 4));
    let apex = pos(&g, &["a5"], "e3", OYA);
    v.clear();
    g.legal_moves(&apex, &mut v);
    assert_eq!(
        v.iter()
            .filter(|m| g.board().point(m.to as usize).x == 5)
            .count(),
        3
    );
}

#[test]
fn the_first_move_to_a_diamond_point_takes_two() {
    let g = std_game();
    let s = g.start();
    // c3→b4: a3 and c5 stand on the diamond side through b4.
    assert_eq!(captured_names(&g, &s, mv(&g, "c3", "b4")), ["a3", "c5"]);
    // c3→b3 takes nothing (a3 is alone on that row).
    assert!(g.captured(&s, mv(&g, "c3", "b3")).is_empty());
    let after = g.play(&s, mv(&g, "c3", "b4"));
    assert_eq!(after.ko_count(), 14);
    assert!(g.is_capture(&s, mv(&g, "c3", "b4")));
}

#[test]
fn several_pairs_go_at_once_and_a_bend_breaks_the_line() {
    let g = std_game();
    // 親 d3→c3: the column c4–c2 and the diagonal b4–d2 (the row b3–d3 is
    // broken: d3 is where 親 comes from).
    let q = pos(&g, &["b3", "c4", "c2", "b4", "d2", "a5"], "d3", OYA);
    assert_eq!(
        captured_names(&g, &q, mv(&g, "d3", "c3")),
        ["b4", "c2", "c4", "d2"]
    );
    // 親 b2→c3: row, column and diagonal: three pairs, six 子.
    let q = pos(&g, &["b3", "d3", "c4", "c2", "b4", "d2", "a5"], "b2", OYA);
    assert_eq!(
        captured_names(&g, &q, mv(&g, "b2", "c3")),
        ["b3", "b4", "c2", "c4", "d2", "d3"]
    );
    assert_eq!(g.play(&q, mv(&g, "b2", "c3")).ko_count(), 1);
    // A bend: b3 and c4 are both next to c3 but not on one line.
    let bend = pos(&g, &["b3", "c4", "a5"], "d4", OYA);
    assert!(g.captured(&bend, mv(&g, "d4", "c3")).is_empty());
    // 子 moving into a gap between... nothing: 子 never capture.
    let q = pos(&g, &["b3", "a5", "a4"], "d3", KO);
    assert!(g.captured(&q, mv(&g, "b3", "c3")).is_empty());
    assert_eq!(g.play(&q, mv(&g, "b3", "c3")).ko_count(), 3);
}

#[test]
fn capture_lines_run_through_the_setchin() {
    let g = std_game();
    // The diamond side continues through the apex: d4–e3–f2.
    let q = pos(&g, &["d4", "f2", "a5"], "e4", OYA);
    assert_eq!(captured_names(&g, &q, mv(&g, "e4", "e3")), ["d4", "f2"]);
    // The middle row continues: d3–e3–f3.
    let q = pos(&g, &["d3", "f3", "a5"], "e4", OYA);
    assert_eq!(captured_names(&g, &q, mv(&g, "e4", "e3")), ["d3", "f3"]);
    // The column f4–f3–f2 and the base g4–g3–g2.
    let q = pos(&g, &["f4", "f2", "g4", "g2", "a5"], "e3", OYA);
    assert_eq!(captured_names(&g, &q, mv(&g, "e3", "f3")), ["f2", "f4"]);
    let q = pos(&g, &["g4", "g2", "a5"], "f3", OYA);
    assert_eq!(captured_names(&g, &q, mv(&g, "f3", "g3")), ["g2", "g4"]);
    // f4–g3 and f2–g3 are separate two-point segments: no sandwich.
    let q = pos(&g, &["f4", "f2", "a5"], "f3", OYA);
    assert!(g.captured(&q, mv(&g, "f3", "g3")).is_empty());
}

#[test]
fn ko_win_by_trapping_oya_and_setchin_zume_is_recognised() {
    let g = std_game();
    // 親 in the 雪隠's far corner g5: f4 and g4 close it.
    let q = pos(&g, &["f4", "g4", "a5", "a4", "a3", "a2"], "g5", OYA);
    assert_eq!(g.outcome(&q), Some(Outcome::win(KO, EndReason::NoMoves)));
    assert!(g.in_setchin(&q));
    // On the 25-point board a corner needs three 子.
    let g25 = game(MusashiRules {
        setchin: false,
        ..MusashiRules::STANDARD
    });
    assert_eq!(g25.board().len(), 25);
    let two = pos(&g25, &["d5", "e4", "a1", "a2", "a3", "b1"], "e5", OYA);
    assert_eq!(g25.outcome(&two), None);
    let three = pos(&g25, &["d5", "e4", "d4", "a1", "a2", "a3"], "e5", OYA);
    assert_eq!(
        g25.outcome(&three),
        Some(Outcome::win(KO, EndReason::NoMoves))
    );
    assert!(!g25.in_setchin(&three));
}

#[test]
fn oya_wins_at_the_threshold_when_ko_are_stuck_on_repetition_and_at_300() {
    let g = std_game();
    let five = pos(&g, &["a5", "b5", "c5", "d5", "e5"], "c3", KO);
    assert_eq!(
        g.outcome(&five),
        Some(Outcome::win(OYA, EndReason::CaptureTarget))
    );
    let six = pos(&g, &["a5", "b5", "c5", "d5", "e5", "a1"], "c3", KO);
    assert_eq!(g.outcome(&six), None);
    for (at, left_over) in [(4u8, 5usize), (6, 7), (1, 2)] {
        let rules = MusashiRules {
            oya_wins_at: at,
            ..MusashiRules::STANDARD
        };
        let g = game(rules);
        let names = ["a5", "b5", "c5", "d5", "e5", "a1", "b1"];
        let q = pos(&g, &names[..left_over], "c3", KO);
        assert_eq!(g.outcome(&q), None, "threshold {at}");
        let q = pos(&g, &names[..at as usize], "c3", KO);
        assert_eq!(
            g.outcome(&q),
            Some(Outcome::win(OYA, EndReason::CaptureTarget))
        );
    }
    assert!(
        MusashiRules {
            oya_wins_at: 3,
            ..MusashiRules::STANDARD
        }
        .validate()
        .is_err()
    );
    // The third occurrence of a position: 親 wins.
    let mut r = GameRecord::new(&g);
    let shuffle = [
        mv(&g, "c3", "c4"),
        mv(&g, "a1", "b2"),
        mv(&g, "c4", "c3"),
        mv(&g, "b2", "a1"),
    ];
    let mut last = None;
    for round in 0..2 {
        for m in shuffle {
            let played = r.play(&g, m).unwrap();
            last = Some((round, played.occurrences, played.outcome));
        }
    }
    assert_eq!(
        last,
        Some((1, 3, Some(Outcome::win(OYA, EndReason::Repetition))))
    );
    assert_eq!(g.repetition_outcome(&g.start(), 2), None);
}

#[test]
fn three_hundred_plies_go_to_oya() {
    let g = std_game();
    // Six 子 in the left corners, 親 in the middle: too few to trap it.
    let mut q = pos(&g, &["a5", "b5", "a4", "a1", "b1", "a2"], "d3", OYA);
    let mut n = 0;
    let mut list = Vec::new();
    // Quiet moves only (the rules alone: no repetition count here).
    while g.outcome(&q).is_none() && n < 400 {
        list.clear();
        g.legal_moves(&q, &mut list);
        // Quiet moves that open no gap, so that nobody wins early.
        let quiet: Vec<_> = list
            .iter()
            .copied()
            .filter(|&m| !g.is_capture(&q, m) && !g.move_exposes(&q, m))
            .collect();
        let pool = if quiet.is_empty() { &list } else { &quiet };
        let m = pool[(n * 7) % pool.len()];
        q = g.play(&q, m);
        n += 1;
    }
    assert_eq!(g.outcome(&q), Some(Outcome::win(OYA, EndReason::MoveLimit)));
    assert_eq!(n, 300);
}

#[test]
fn hashes_are_incremental_and_exact() {
    let g = std_game();
    let mut q = g.start();
    let mut moves = Vec::new();
    for step in 0..60 {
        moves.clear();
        g.legal_moves(&q, &mut moves);
        if moves.is_empty() || g.outcome(&q).is_some() {
            break;
        }
        let m = moves[(step * 7) % moves.len()];
        q = g.play(&q, m);
        let fresh = g
            .position(&q.ko().collect::<Vec<_>>(), q.oya(), q.to_move())
            .unwrap();
        assert_eq!(g.hash(&q), g.hash(&fresh), "step {step}");
    }
}

#[test]
fn presets_load_and_match_the_issue() {
    let presets = data::musashi_presets().unwrap();
    let ids: Vec<&str> = presets.presets.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["standard", "no_setchin", "ko_first"]);
    assert_eq!(presets.presets[0].rules, MusashiRules::STANDARD);
    assert_eq!(
        presets.presets[1].rules,
        MusashiRules {
            setchin: false,
            ko_first: false,
            oya_wins_at: 5
        }
    );
    assert_eq!(
        presets.presets[2].rules,
        MusashiRules {
            setchin: true,
            ko_first: true,
            oya_wins_at: 1
        }
    );
    let bad = data::musashi_presets_from(
        "levels/presets/musashi.ron",
        &data::MUSASHI_PRESETS
            .text
            .replace("oya_wins_at: 5", "oya_wins_at: 2"),
    )
    .unwrap_err();
    assert!(bad.to_string().contains("oya_wins_at"), "{bad}");
    // つよい judges as an expert; an expert that also judges plainly is a
    // contradiction the file is refused for, naming the level.
    assert!(presets.cpu.get(data::Strength::Strong).expert_eval);
    assert!(!presets.cpu.get(data::Strength::Normal).expert_eval);
    let confused = data::musashi_presets_from(
        "levels/presets/musashi.ron",
        &data::MUSASHI_PRESETS
            .text
            .replace("expert_eval: true", "expert_eval: true, plain_eval: true"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        confused.contains("levels/presets/musashi.ron") && confused.contains("cpu.strong"),
        "{confused}"
    );
    assert!(Musashi::new(data::board("musashi25").unwrap(), MusashiRules::STANDARD).is_err());
}

#[test]
fn marks_show_the_ko_moves_that_open_a_gap_next_to_oya() {
    let g = std_game();
    // 親 on c4: a3→b3 makes the column b5–b4–b3 a gap next to 親.
    let q = pos(&g, &["b5", "a3", "e4", "e3", "a1", "e1"], "c4", KO);
    assert!(g.move_exposes(&q, mv(&g, "a3", "b3")));
    assert!(!g.move_exposes(&q, mv(&g, "e1", "d1")));
    let q = pos(&g, &["b5", "d4", "a1", "b1", "c1", "d1"], "c3", KO);
    // d4→d5 makes the gap c5 between b5 and d5, but c5 is not next to 親
    // on c3: safe.
    assert!(!g.move_exposes(&q, mv(&g, "d4", "d5")));
    // 親 on c4: d4→d5 makes the gap c5 (b5, d5 on the top row) next to 親.
    let q = pos(&g, &["b5", "d4", "a1", "b1", "c1", "d1"], "c4", KO);
    assert!(g.move_exposes(&q, mv(&g, "d4", "d5")));
    // The same move when 親 is far away is safe.
    let far = pos(&g, &["b5", "d4", "a1", "b1", "c1", "d1"], "e2", KO);
    assert!(!g.move_exposes(&far, mv(&g, "d4", "d5")));
    // 親's own moves are never marked.
    let oya_turn = pos(&g, &["b5", "d4", "a1", "b1", "c1", "d1"], "c4", OYA);
    let mut v = Vec::new();
    g.legal_moves(&oya_turn, &mut v);
    assert!(v.iter().all(|&m| !g.move_exposes(&oya_turn, m)));
}

#[test]
fn the_rules_text_and_tutorial_load() {
    let text = data::rules_text(yorimichi::rules::data::GameId::Musashi)
        .expect("十六むさし has a rules text")
        .unwrap();
    assert!(text.sections.len() >= 8);
    let t = data::musashi_tutorial().unwrap();
    assert!(t.steps.len() >= 12);
    assert!(t.steps.iter().filter(|s| s.expect.is_some()).count() >= 9);
}

#[test]
fn the_tutorial_steps_show_what_they_say() {
    let g = std_game();
    let t = data::musashi_tutorial().unwrap();
    let step = |title_en: &str| {
        t.steps
            .iter()
            .find(|s| s.title.en.starts_with(title_en))
            .unwrap_or_else(|| panic!("no step {title_en}"))
    };
    let setup = |title_en: &str| {
        let s = step(title_en);
        let rows: Vec<&str> = s.board.iter().map(String::as_str).collect();
        let start = g.position_from_rows(&rows, s.to_move).unwrap();
        // The step begins after its history (a move the text tells of).
        let q = s
            .history
            .iter()
            .fold(start, |q, h| g.play(&q, mv(&g, &h.from, &h.to)));
        let e = s.expect.as_ref().map(|e| mv(&g, &e.from, &e.to));
        (q, e)
    };
    let (q, e) = setup("The oya takes");
    assert_eq!(captured_names(&g, &q, e.unwrap()), ["a3", "c5"]);
    let (q, e) = setup("Several pairs");
    assert_eq!(g.captured(&q, e.unwrap()).len(), 6);
    let (q, _) = setup("A bend");
    assert!(g.captured(&q, mv(&g, "d4", "c3")).is_empty());
    for trap in ["The ko win", "Ko tip 3"] {
        let (q, e) = setup(trap);
        let after = g.play(&q, e.unwrap());
        assert_eq!(
            g.outcome(&after),
            Some(Outcome::win(KO, EndReason::NoMoves)),
            "{trap}"
        );
        assert!(g.in_setchin(&after), "{trap}: 雪隠詰め");
    }
    let (q, e) = setup("Ko tip 1");
    assert!(!g.move_exposes(&q, e.unwrap()));
    assert!(
        g.move_exposes(&q, mv(&g, "a3", "b3")),
        "the move the text warns of"
    );
    let (q, e) = setup("Ko tip 2");
    assert!(!g.move_exposes(&q, e.unwrap()));
    let mobility = |q: &MusashiPos| {
        let mut v = Vec::new();
        let as_oya = g
            .position(&q.ko().collect::<Vec<_>>(), q.oya(), OYA)
            .unwrap();
        g.legal_moves(&as_oya, &mut v);
        v.len()
    };
    let (q, e) = setup("Oya tip 1");
    assert!(mobility(&g.play(&q, e.unwrap())) > mobility(&q));
    let (q, e) = setup("Oya tip 2");
    assert_eq!(captured_names(&g, &q, e.unwrap()), ["b3", "b5"]);
    let (q, e) = setup("Oya tip 3");
    let e = e.unwrap();
    assert!(!g.in_setchin(&g.play(&q, e)));
    assert!(g.is_capture(&q, e) || !g.is_capture(&q, mv(&g, "e3", "f3")));
    let bad = data::musashi_tutorial_from("levels/tutorials/musashi.ron", &{
        let asked = "expect: Some((from: \"c3\", to: \"b4\")),";
        assert!(data::MUSASHI_TUTORIAL.text.contains(asked));
        data::MUSASHI_TUTORIAL
            .text
            .replacen(asked, "expect: Some((from: \"c3\", to: \"b5\")),", 1)
    })
    .unwrap_err();
    assert!(bad.to_string().contains("steps[2].expect"), "{bad}");
}

#[test]
fn the_plain_judgement_does_not_see_the_pair_oya_takes_next() {
    let g = std_game();
    // 親 on c4 to move; b5 and b3 leave the gap b4 next to it. The same 子
    // with b3 moved up to b4 leave no gap.
    let threat = pos(&g, &["b5", "b3", "e4", "e3", "a1", "e1"], "c4", OYA);
    let closed = pos(&g, &["b5", "b4", "e4", "e3", "a1", "e1"], "c4", OYA);
    assert!(
        g.evaluate(&threat) >= g.evaluate(&closed) + 150,
        "the full judgement (親's view) counts the pair 親 takes next: {} vs {}",
        g.evaluate(&threat),
        g.evaluate(&closed)
    );
    // The plain judgement hardly tells the two apart (only how the 子
    // hold together differs).
    assert!(
        (g.evaluate_plain(&threat) - g.evaluate_plain(&closed)).abs() < 20,
        "{} vs {}",
        g.evaluate_plain(&threat),
        g.evaluate_plain(&closed)
    );
}

#[test]
fn the_plain_judgement_takes_the_setchin_for_an_escape() {
    let g = std_game();
    // The same 子; 親 in the 雪隠's far corner g5 or in the middle c3.
    let ko = ["a1", "b1", "c1", "a5", "b5"];
    let trapped = pos(&g, &ko, "g5", KO);
    let free = pos(&g, &ko, "c3", KO);
    assert!(g.in_setchin(&trapped) && !g.in_setchin(&free));
    // Judged for the 子 to move: the ordinary judgement likes 親 penned
    // in the 雪隠; the plain one sees only that no 子 is near it there,
    // so a plain 親 runs in (親のコツ3: 逃げ場所に見える).
    assert!(g.evaluate(&trapped) > g.evaluate(&free) + 100);
    assert!(g.evaluate_plain(&trapped) < g.evaluate_plain(&free));
}

#[test]
fn the_expert_oya_declines_a_pair_on_the_edge_that_would_pen_it_in() {
    use yorimichi::rules::search::{Judgement, SearchPlan, Searcher};
    let g = std_game();
    // From a game つよい lost with the ordinary judgement: 親 took b4×a3,
    // the pair on the left edge, and the 子 closed a wall in front of it
    // that held for two hundred plies.
    let pos = g
        .position_from_text("KKK.K-./KO..K../....K../K...K../KKKKK-. oya")
        .unwrap();
    let pick = |judgement| {
        let plan = SearchPlan {
            judgement,
            ..SearchPlan::fixed(4, 1_000_000)
        };
        let best = Searcher::new(&g, pos, &[g.hash(&pos)], plan)
            .run(&g)
            .unwrap()
            .best;
        g.move_text(&pos, best)
    };
    assert_eq!(pick(Judgement::Ordinary), "b4×a3");
    let expert = pick(Judgement::Expert);
    assert!(
        !expert.contains('×') && expert.starts_with("b4-"),
        "the expert keeps to the open board: {expert}"
    );
}
