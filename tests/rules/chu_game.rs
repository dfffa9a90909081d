//! 中将棋 as a game the shared search plays (issue 6): the key kept move by
//! move, the quick test for a move that takes nothing, 千日手 on the fourth
//! occurrence, the Japanese move text, and the search finding a capture.

use rand::{RngExt, SeedableRng, rngs::StdRng};
use yorimichi::rules::chu::game::{Chu, REPETITION_DRAW, japanese_move};
use yorimichi::rules::chu::moves::{ChuMove, has_quiet_move, legal_moves, parse_usi, play};
use yorimichi::rules::chu::position::{ChuPosition, Square};
use yorimichi::rules::data;
use yorimichi::rules::game::{EndReason, Game, Outcome, Side};
use yorimichi::rules::search::{SearchPlan, Searcher};

#[test]
fn random_games_keep_the_key_and_the_quick_move_test_true() {
    let chu = Chu::default();
    let mut rng = StdRng::seed_from_u64(11);
    let mut positions = 0;
    let mut lion_rule_positions = 0;
    // `make soak` plays about a million moves (YORIMICHI_PLAYOUT_GAMES=6500).
    let games = std::env::var("YORIMICHI_PLAYOUT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    for _ in 0..games {
        let mut pos = chu.start();
        for _ in 0..300 {
            assert_eq!(pos.key(), pos.computed_key(), "{}", pos.to_sfen());
            positions += 1;
            if pos.lion_taken_at().is_some() {
                lion_rule_positions += 1;
            }
            let mut moves: Vec<ChuMove> = Vec::new();
            legal_moves(&pos, &mut moves);
            let quiet = moves.iter().any(|&m| !chu.is_capture(&pos, m));
            // The quick test may only say yes when a quiet move exists.
            if has_quiet_move(&pos) {
                assert!(quiet, "{}", pos.to_sfen());
            }
            if chu.outcome(&pos).is_some() || moves.is_empty() {
                break;
            }
            // Prefer captures now and then, so games reach the lion rules
            // and the end.
            let captures: Vec<ChuMove> = moves
                .iter()
                .copied()
                .filter(|&m| chu.is_capture(&pos, m))
                .collect();
            let mv = if !captures.is_empty() && rng.random::<f64>() < 0.5 {
                captures[rng.random_range(0..captures.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos = chu.play(&pos, mv);
        }
    }
    assert!(positions > 1000, "{positions}");
    // Not every seed reaches 先獅子; the count is printed for the curious.
    println!("{positions} positions, {lion_rule_positions} under 先獅子");
}

#[test]
fn the_fourth_occurrence_is_a_draw() {
    let chu = Chu::default();
    let pos = chu.start();
    assert_eq!(REPETITION_DRAW, 4);
    assert_eq!(chu.repetition_outcome(&pos, 3), None);
    assert_eq!(
        chu.repetition_outcome(&pos, 4),
        Some(Outcome::draw(EndReason::Repetition))
    );
}

#[test]
fn moves_read_as_a_japanese_record() {
    let start = ChuPosition::start();
    let mv = parse_usi(&start, "7i7h").unwrap();
    assert_eq!(japanese_move(&start, mv), "☗7八歩兵(←7九)");
    let reply = play(&start, mv);
    let mv2 = parse_usi(&reply, "7d7e").unwrap();
    assert_eq!(Chu::default().move_text(&reply, mv2), "☖7五歩兵(←7四)");
    // Each king by its own name: 先手's 王将, 後手's 玉将.
    let kings = ChuPosition::from_sfen("6k5/12/12/12/12/12/12/12/12/12/12/5K6 b - 1").unwrap();
    let mv = parse_usi(&kings, "7l7k").unwrap();
    assert_eq!(japanese_move(&kings, mv), "☗7十一王将(←7十二)");
    let reply = play(&kings, mv);
    let mv2 = parse_usi(&reply, "6a6b").unwrap();
    assert_eq!(japanese_move(&reply, mv2), "☖6二玉将(←6一)");
    use yorimichi::rules::chu::record::ChuGameText;
    let game = ChuGameText {
        start: kings,
        moves: vec![mv, mv2],
    };
    assert!(
        game.japanese()
            .ends_with("1 ☗7十一王将(←7十二)\n2 ☖6二玉将(←6一)\n")
    );
}

#[test]
fn the_search_takes_a_lion_left_hanging() {
    let chu = Chu::default();
    // 先手's rook on 7j faces 後手's lion on 7f with nothing between.
    let pos = ChuPosition::from_sfen("k11/12/12/12/12/5n6/12/12/12/5R6/12/11K b - 1").unwrap();
    let plan = SearchPlan::fixed(3, 200_000);
    let best = Searcher::new(&chu, pos.clone(), &[chu.hash(&pos)], plan)
        .run(&chu)
        .unwrap()
        .best;
    assert_eq!(best.usi(), "7j7f");
    // Taking it leaves 後手 a bare king: 先手 has won.
    let after = chu.play(&pos, best);
    assert_eq!(
        chu.outcome(&after),
        Some(Outcome::win(Side::First, EndReason::CaptureTarget))
    );
}

#[test]
fn the_chu_presets_load_with_three_levels() {
    let presets = data::chushogi_presets().unwrap();
    assert!(presets.preset("jcsa").is_some());
    let board = data::board(&presets.board).unwrap();
    assert_eq!(board.len(), 144);
    let (easy, normal, strong) = (&presets.cpu.easy, &presets.cpu.normal, &presets.cpu.strong);
    assert!(easy.depth < normal.depth && normal.depth < strong.depth);
    assert!(easy.plain_eval && !strong.plain_eval);
}

#[test]
fn the_sixty_minute_cutoff_counts_the_seeds_points() {
    use yorimichi::rules::chu::end::{cutoff_points, cutoff_winner};
    let start = ChuPosition::start();
    let [first, second] = cutoff_points(&start);
    // 46 pieces a side; the king counts nothing.
    assert_eq!(first, second);
    assert_eq!(cutoff_winner(&start), None);
    // A 太子 (17.6) counts while its king lives: 先手 has K + 太子, 後手
    // k + 龍王 (12.1).
    let prince = ChuPosition::from_sfen("k11/12/12/12/12/5d6/12/12/12/5+E6/12/11K b - 1").unwrap();
    assert_eq!(cutoff_points(&prince), [176, 121]);
    assert_eq!(cutoff_winner(&prince), Some(Side::First));
    // Without its king the 太子 counts nothing.
    let alone = ChuPosition::from_sfen("k11/12/12/12/12/5d6/12/12/12/5+E6/12/12 b - 1").unwrap();
    assert_eq!(cutoff_points(&alone), [0, 121]);
    assert_eq!(cutoff_winner(&alone), Some(Side::Second));
    // A 歩兵 stuck on the last rank still counts (1.0), a と金 3.5.
    let stuck = ChuPosition::from_sfen("k4P6/12/12/12/12/12/12/12/12/12/5+p6/11K b - 1").unwrap();
    assert_eq!(cutoff_points(&stuck), [10, 35]);
}

#[test]
fn whole_games_read_and_write_as_usi_and_a_japanese_record() {
    use yorimichi::rules::chu::record::ChuGameText;
    let game = ChuGameText::parse("position startpos moves 7i7h 7d7e 6i6h").unwrap();
    assert_eq!(game.moves.len(), 3);
    assert_eq!(game.usi(), "position startpos moves 7i7h 7d7e 6i6h");
    assert_eq!(ChuGameText::parse(&game.usi()).unwrap(), game);
    assert_eq!(
        game.japanese(),
        "# 中将棋\n1 ☗7八歩兵(←7九)\n2 ☖7五歩兵(←7四)\n3 ☗6八歩兵(←6九)\n"
    );
    // Without `position`, with `sfen`, with a bare SFEN, and a trailing
    // `resign` all read the same game.
    let sfen = ChuPosition::start().to_sfen();
    for text in [
        "startpos moves 7i7h 7d7e 6i6h".to_string(),
        format!("sfen {sfen} moves 7i7h 7d7e 6i6h"),
        format!("{sfen} moves 7i7h 7d7e 6i6h resign"),
    ] {
        assert_eq!(ChuGameText::parse(&text).unwrap(), game, "{text}");
    }
    // Another start is written out and comes back.
    let other = ChuGameText::parse(
        "position sfen k11/12/12/12/12/5n6/12/12/12/5R6/12/11K b - 1 moves 7j7f",
    )
    .unwrap();
    assert!(other.usi().starts_with("position sfen k11/"));
    assert!(other.japanese().contains("開始局面: k11/"));
    assert!(other.japanese().contains("1 ☗7六飛車(←7十)"));
    assert_eq!(ChuGameText::parse(&other.usi()).unwrap(), other);
    // Bad text says where.
    for (text, says) in [
        ("", "empty"),
        ("position startpos moves 7i7h 7i7h", "move 2"),
        ("sfen k11/12 b", "four fields"),
        ("startpos foo 7i7h", "expected \"moves\""),
    ] {
        let e = ChuGameText::parse(text).unwrap_err();
        assert!(e.contains(says), "{text}: {e}");
    }
}

#[test]
fn a_pass_flips_the_turn_and_keeps_the_key_exact() {
    let chu = Chu::default();
    let start = chu.start();
    let passed = chu
        .null_move(&start)
        .expect("中将棋 offers a pass to the search");
    assert_eq!(chu.side_to_move(&passed), Side::Second);
    assert_eq!(passed.key(), passed.computed_key());
    assert_ne!(passed.key(), start.key());
    // 先獅子 lasts one move: a pass clears it.
    let lion = ChuPosition::from_sfen("k11/12/12/12/12/5n6/12/12/12/5R6/12/11K b 6e 1").unwrap();
    assert!(lion.lion_taken_at().is_some());
    let p = lion.passed();
    assert_eq!(p.lion_taken_at(), None);
    assert_eq!(p.key(), p.computed_key());
    assert_eq!(
        p.passed().key(),
        ChuPosition::from_sfen("k11/12/12/12/12/5n6/12/12/12/5R6/12/11K b - 1")
            .unwrap()
            .key()
    );
}

/// The null move prunes: fewer nodes to the same depth (its tactics are
/// checked on the problem collection in chu_lessons.rs).
#[test]
fn the_null_move_prunes() {
    let chu = Chu::default();
    let plan = |null_move| SearchPlan {
        null_move,
        ..SearchPlan::fixed(5, u64::MAX)
    };
    let start = chu.start();
    let nodes = |null_move| {
        Searcher::new(&chu, start.clone(), &[chu.hash(&start)], plan(null_move))
            .run(&chu)
            .expect("a move")
            .nodes
    };
    let (full, pruned) = (nodes(false), nodes(true));
    println!("depth 5 from the start: {full} nodes, {pruned} with the null move");
    assert!(pruned < full, "{pruned} ≥ {full}");
}

/// The transposition table kept from one search to the next: the second
/// reading of the same position finds what the first left and visits
/// fewer positions for the same move; a cleared table forgets it.
#[test]
fn a_kept_table_carries_one_search_into_the_next() {
    use yorimichi::rules::search::Table;
    let chu = Chu::default();
    let pos = chu.start();
    let search = |table: Table<ChuMove>| {
        let mut searcher = Searcher::new(
            &chu,
            pos.clone(),
            &[chu.hash(&pos)],
            SearchPlan::fixed(4, u64::MAX),
        )
        .with_table(table);
        let result = searcher.run(&chu).expect("a move");
        (result, searcher.into_table())
    };
    let (first, table) = search(Table::with_megabytes(16));
    let (second, mut table) = search(table);
    println!(
        "depth 4 from the start: {} nodes, then {}",
        first.nodes, second.nodes
    );
    assert_eq!(second.best, first.best);
    assert!(
        second.nodes < first.nodes / 2,
        "{} then {}",
        first.nodes,
        second.nodes
    );
    table.clear();
    let (cleared, _) = search(table);
    assert_eq!(cleared.nodes, first.nodes);
}

/// 後手's king on 12a, 先手's on 1l, ranks e to h as given (SFEN rows).
fn middle(e: &str, f: &str, g: &str, h: &str) -> ChuPosition {
    let rows = ["k11", "12", "12", "12", e, f, g, h, "12", "12", "12", "11K"];
    ChuPosition::from_rows(&rows, Side::First).unwrap()
}

#[test]
fn a_ranging_piece_reaches_along_its_open_lines() {
    use yorimichi::rules::chu::moves::sliding_reach;
    // A rook alone on 7g: 11 squares on its file, 11 on its rank.
    let open = middle("12", "12", "5R6", "12");
    let rook = |pos: &ChuPosition| {
        let sq = Square::parse("7g").unwrap();
        let (side, piece) = pos.at(sq).unwrap();
        sliding_reach(pos, sq, side, piece)
    };
    assert_eq!(rook(&open), 22);
    // Its own pawn in front stops the file there (5 squares behind are
    // left); an enemy pawn beside it can be taken (counted) and stops the
    // rank on that side (5 squares on the other).
    let crowded = middle("12", "5P6", "5Rp5", "12");
    assert_eq!(rook(&crowded), 5 + 1 + 5);
    // Steps are not lines: a gold reaches nothing along lines.
    let gold = middle("12", "12", "5G6", "12");
    let sq = Square::parse("7g").unwrap();
    let (side, piece) = gold.at(sq).unwrap();
    assert_eq!(sliding_reach(&gold, sq, side, piece), 0);
}

#[test]
fn the_evaluation_likes_open_lines_and_a_guarded_lion() {
    let chu = Chu::default();
    // The same rook and pawn: the rook behind its pawn, or beside it.
    let blocked = middle("12", "5P6", "5R6", "12");
    let free = middle("12", "5P6", "4R7", "12");
    assert!(chu.evaluate(&free) > chu.evaluate(&blocked));
    // The same lion and gold: the gold guarding the lion, or far off.
    let guarded = middle("12", "5N6", "5G6", "12");
    let alone = middle("12", "5N6", "12", "G11");
    assert!(
        chu.evaluate(&guarded) > chu.evaluate(&alone) + 20,
        "{} vs {}",
        chu.evaluate(&guarded),
        chu.evaluate(&alone)
    );
}

#[test]
fn the_only_lion_on_the_board_is_worth_its_premium_and_two_lions_none() {
    let plain = Chu::default();
    let keen = Chu {
        lion_alone: 1000,
        ..Chu::default()
    };
    // 先手's lion against none: worth the premium more to 先手 (to move).
    let ours = middle("12", "5N6", "12", "12");
    assert_eq!(keen.evaluate(&ours) - plain.evaluate(&ours), 1000);
    // 後手's lion against none: the premium counts against 先手.
    let theirs = middle("12", "5n6", "12", "12");
    assert_eq!(keen.evaluate(&theirs) - plain.evaluate(&theirs), -1000);
    // A lion each (a promoted 麒麟 counts as one): no premium either way.
    let both = middle("12", "5N6", "12", "5+o6");
    assert_eq!(keen.evaluate(&both), plain.evaluate(&both));
}

#[test]
fn a_king_with_no_lion_keeps_its_distance_from_the_enemy_lion() {
    let chu = Chu::default();
    // 後手's lion on 6f; 先手's king three steps from it (on 6i) or six
    // (on 6l); `last` is the back rank, where 先手 may have more.
    let board = |king_on_i: bool, last: &str| {
        let i = if king_on_i { "6K5" } else { "12" };
        let rows = [
            "k11", "12", "12", "12", "12", "6n5", "12", "12", i, "12", "12", last,
        ];
        ChuPosition::from_rows(&rows, Side::First).unwrap()
    };
    let near = board(true, "12");
    let far = board(false, "6K5");
    assert!(
        chu.evaluate(&near) + 100 < chu.evaluate(&far),
        "{} vs {}",
        chu.evaluate(&near),
        chu.evaluate(&far)
    );
    // With a lion of its own (on 12l) the distance is nothing to fear.
    assert_eq!(
        chu.evaluate(&board(true, "N11")),
        chu.evaluate(&board(false, "N5K5"))
    );
}

#[test]
fn against_an_enemy_lion_a_king_keeps_to_its_back_rank_behind_its_elephant_and_tigers() {
    let chu = Chu {
        king_shelter: true,
        ..Chu::default()
    };
    // 先手's 醉象 on 7k with a 盲虎 on either side of it (8k, 6k), its king
    // behind them on 7l or in front of them on 7j; 後手's lion on 7c or
    // away.
    let board = |king_behind: bool, enemy_lion: bool| {
        let (j, l) = if king_behind {
            ("12", "5K6")
        } else {
            ("5K6", "12")
        };
        let rows = [
            "k11",
            "12",
            if enemy_lion { "5n6" } else { "12" },
            "12",
            "12",
            "12",
            "12",
            "12",
            "12",
            j,
            "4TET5",
            l,
        ];
        ChuPosition::from_rows(&rows, Side::First).unwrap()
    };
    let behind = chu.evaluate(&board(true, true));
    let in_front = chu.evaluate(&board(false, true));
    assert!(behind > in_front + 100, "{behind} vs {in_front}");
    // No enemy lion: nothing to shelter from, and the king's neighbours
    // (pieces that may still promote) make no shield either way.
    assert_eq!(
        chu.evaluate(&board(true, false)),
        chu.evaluate(&board(false, false))
    );
}

#[test]
fn a_royal_counts_the_friends_beside_it_that_stay_to_guard_it() {
    let chu = Chu {
        king_shelter: true,
        ..Chu::default()
    };
    // 先手's 奔王 (which does not promote) beside its king (8l, king on
    // 7l) or a file further off (9l), its lines as open either way; a 金将
    // (which may still promote) beside the king or off.
    let board = |last: &str| {
        let rows = [
            "k11", "12", "12", "12", "12", "12", "12", "12", "12", "12", "12", last,
        ];
        ChuPosition::from_rows(&rows, Side::First).unwrap()
    };
    let beside = chu.evaluate(&board("4QK6"));
    let off = chu.evaluate(&board("3Q1K6"));
    assert!(beside > off + 100, "{beside} vs {off}");
    assert_eq!(chu.evaluate(&board("4GK6")), chu.evaluate(&board("3G1K6")));
}

#[test]
fn a_king_beside_its_prince_is_worth_what_the_prince_counts_at_the_cutoff() {
    use yorimichi::rules::chu::end::cutoff_points;
    let chu = Chu::default();
    // 先手's 太子 (a promoted 醉象) on 12l, with its king on 1l or without.
    let mut rows = [
        "k11", "12", "12", "12", "12", "12", "12", "12", "12", "12", "12", "+E11",
    ];
    let prince_alone = ChuPosition::from_rows(&rows, Side::First).unwrap();
    rows[11] = "+E10K";
    let prince_and_king = ChuPosition::from_rows(&rows, Side::First).unwrap();
    // A king counts nothing and a 太子 counts only beside its king: losing
    // the king loses the 太子's points at the cutoff, and as much in the
    // evaluation.
    let at_cutoff = cutoff_points(&prince_and_king)[0] - cutoff_points(&prince_alone)[0];
    assert_eq!(at_cutoff, 176);
    assert_eq!(
        chu.evaluate(&prince_and_king) - chu.evaluate(&prince_alone),
        10 * at_cutoff
    );
}

#[test]
fn the_evaluation_is_the_same_from_either_side_of_the_board() {
    let plain = Chu::default();
    let lone_lion = Chu {
        lion_alone: 300,
        ..Chu::default()
    };
    let sheltered = Chu {
        king_shelter: true,
        ..Chu::default()
    };
    let hunting = Chu {
        king_shelter: true,
        plays_out_bare_king: true,
        ..Chu::default()
    };
    // A lone king hunted, its image hunted alike.
    for sfen in [
        "12/1k10/12/12/12/12/12/12/12/12/12/6+R4K b - 1",
        "12/1k10/12/3p8/12/12/12/12/12/12/12/6+R4K w - 1",
    ] {
        let pos = ChuPosition::from_sfen(sfen).unwrap();
        assert_eq!(
            hunting.evaluate(&pos),
            hunting.evaluate(&pos.mirrored()),
            "{sfen}"
        );
        assert_ne!(hunting.evaluate(&pos), sheltered.evaluate(&pos), "{sfen}");
    }
    let turned = ChuPosition::from_sfen("k10r/12/12/6p5/6g5/12/12/12/12/6R5/12/K8S2 b 6e 5")
        .unwrap()
        .mirrored();
    assert_eq!(
        turned.to_sfen(),
        "2s8k/12/5r6/12/12/12/12/5G6/5P6/12/12/R10K w 7h 5"
    );
    let mut rng = StdRng::seed_from_u64(23);
    let mut checked = 0;
    for _ in 0..40 {
        let mut pos = plain.start();
        for _ in 0..260 {
            let image = pos.mirrored();
            assert_eq!(image.mirrored().to_sfen(), pos.to_sfen());
            assert_eq!(image.key(), image.computed_key());
            for chu in [&plain, &lone_lion, &sheltered, &hunting] {
                assert_eq!(
                    chu.evaluate(&pos),
                    chu.evaluate(&image),
                    "{} against its image {}",
                    pos.to_sfen(),
                    image.to_sfen()
                );
            }
            checked += 1;
            let mut moves: Vec<ChuMove> = Vec::new();
            legal_moves(&pos, &mut moves);
            if plain.outcome(&pos).is_some() || moves.is_empty() {
                break;
            }
            // Captures first, as games go, so that lions and kings fall.
            let captures: Vec<ChuMove> = moves
                .iter()
                .copied()
                .filter(|&m| plain.is_capture(&pos, m))
                .collect();
            let pool = if !captures.is_empty() && rng.random_bool(0.5) {
                &captures
            } else {
                &moves
            };
            pos = play(&pos, pool[rng.random_range(0..pool.len())]);
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn a_game_with_a_move_cap_ends_there_on_the_seeds_points() {
    // 先手: 飛車 and 銀将 (12.9); 後手: 飛車, 金将 and 歩兵 (14.9).
    let board = "k10r/12/12/6p5/6g5/12/12/12/12/6R5/12/K8S2";
    let at = |number: u32| ChuPosition::from_sfen(&format!("{board} b - {number}")).unwrap();
    let capped = Chu {
        move_cap: Some(400),
        ..Chu::default()
    };
    // The move number counts plies from 1: 401 is the position after 400.
    assert_eq!(capped.outcome(&at(400)), None);
    assert_eq!(
        capped.outcome(&at(401)),
        Some(Outcome::win(Side::Second, EndReason::MoveLimit))
    );
    assert_eq!(Chu::default().outcome(&at(401)), None);
    // The rules' own end comes first: with 先手's king gone the royals decide.
    let kingless =
        ChuPosition::from_sfen("k10r/12/12/6p5/6g5/12/12/12/12/6R5/12/9S2 b - 401").unwrap();
    assert_eq!(
        capped.outcome(&kingless),
        Some(Outcome::win(Side::Second, EndReason::CaptureTarget))
    );
}
