//! きつねとがちょう rules (seed 002, issue 5): setups, movement, jumps and
//! multi-jumps (stopping, forced capture), the options, and every way the
//! game ends.

use yorimichi::rules::data;
use yorimichi::rules::foxgeese::{FOX, FoxGeese, FoxGeeseMove, FoxGeesePos, FoxGeeseRules, GEESE};
use yorimichi::rules::game::{EndReason, Game, Outcome};
use yorimichi::rules::record::GameRecord;

fn game(rules: FoxGeeseRules) -> FoxGeese {
    FoxGeese::new(data::board(rules.board_name()).unwrap(), rules).unwrap()
}

fn std_game() -> FoxGeese {
    game(FoxGeeseRules::STANDARD)
}

fn at(g: &FoxGeese, x: i32, y: i32) -> usize {
    g.board()
        .at(x, y)
        .unwrap_or_else(|| panic!("({x},{y}) is not on the board"))
}

fn pos(
    g: &FoxGeese,
    geese: &[(i32, i32)],
    fox: (i32, i32),
    to_move: yorimichi::rules::game::Side,
) -> FoxGeesePos {
    let geese: Vec<usize> = geese.iter().map(|&(x, y)| at(g, x, y)).collect();
    g.position(&geese, at(g, fox.0, fox.1), to_move).unwrap()
}

fn moves(g: &FoxGeese, p: &FoxGeesePos) -> Vec<FoxGeeseMove> {
    let mut v = Vec::new();
    g.legal_moves(p, &mut v);
    v
}

/// Jump paths as lists of (x, y) landings.
fn jump_paths(g: &FoxGeese, p: &FoxGeesePos) -> Vec<Vec<(i32, i32)>> {
    let mut paths: Vec<Vec<(i32, i32)>> = moves(g, p)
        .into_iter()
        .filter(|m| m.jump)
        .map(|m| {
            m.landings()
                .iter()
                .map(|&q| {
                    let pt = g.board().point(q as usize);
                    (pt.x, pt.y)
                })
                .collect()
        })
        .collect();
    paths.sort();
    paths
}

#[test]
fn setups_for_13_15_and_17_geese() {
    for (n, extra) in [
        (13, vec![]),
        (15, vec![(0, 3), (6, 3)]),
        (17, vec![(0, 3), (6, 3), (0, 2), (6, 2)]),
    ] {
        let g = game(FoxGeeseRules {
            geese: n,
            ..FoxGeeseRules::STANDARD
        });
        let p = g.start();
        assert_eq!(p.goose_count(), n as u32);
        assert_eq!(p.fox(), at(&g, 3, 3));
        assert_eq!(p.to_move(), GEESE, "the geese move first");
        for x in 0..=6 {
            assert!(p.has_goose(at(&g, x, 4)));
        }
        for (x, y) in extra {
            assert!(p.has_goose(at(&g, x, y)), "{n}: ({x},{y})");
        }
    }
}

#[test]
fn geese_move_forward_and_sideways_unless_they_may_go_back() {
    let g = std_game();
    let p = pos(
        &g,
        &[(3, 4), (0, 2), (1, 2), (2, 2), (4, 2), (5, 2), (6, 2)],
        (3, 0),
        GEESE,
    );
    let from_centre: Vec<(i32, i32)> = moves(&g, &p)
        .iter()
        .filter(|m| m.from as usize == at(&g, 3, 4))
        .map(|m| {
            let q = g.board().point(m.to());
            (q.x, q.y)
        })
        .collect();
    assert_eq!(from_centre.len(), 3, "up, left, right: {from_centre:?}");
    assert!(!from_centre.contains(&(3, 5)), "no step back");
    let back = game(FoxGeeseRules {
        geese_back: true,
        ..FoxGeeseRules::STANDARD
    });
    let p = pos(
        &back,
        &[(3, 4), (0, 2), (1, 2), (2, 2), (4, 2), (5, 2), (6, 2)],
        (3, 0),
        GEESE,
    );
    assert!(
        moves(&back, &p)
            .iter()
            .any(|m| m.from as usize == at(&back, 3, 4) && m.to() == at(&back, 3, 5))
    );
}

#[test]
fn the_fox_steps_along_lines_and_diagonals_only_where_drawn() {
    let g = std_game();
    let geese = [(0, 4), (1, 4), (2, 4), (4, 4), (5, 4), (6, 4), (2, 6)];
    let p = pos(&g, &geese, (3, 2), FOX);
    assert_eq!(moves(&g, &p).len(), 4);
    let d = game(FoxGeeseRules {
        diagonals: true,
        ..FoxGeeseRules::STANDARD
    });
    // (3,3): x + y even, so diagonals run through it; (3,2) has none.
    assert_eq!(
        moves(&d, &pos(&d, &geese, (3, 3), FOX))
            .iter()
            .filter(|m| !m.jump)
            .count(),
        8 - 2
    );
    assert_eq!(moves(&d, &pos(&d, &geese, (3, 2), FOX)).len(), 4);
}

#[test]
fn the_fox_jumps_a_goose_but_not_two_in_a_row() {
    let g = std_game();
    let p = pos(
        &g,
        &[(3, 4), (0, 3), (0, 4), (1, 4), (6, 4), (5, 4), (2, 6)],
        (3, 3),
        FOX,
    );
    assert_eq!(jump_paths(&g, &p), vec![vec![(3, 5)]]);
    let m = moves(&g, &p).into_iter().find(|m| m.jump).unwrap();
    assert_eq!(g.captured(m), vec![at(&g, 3, 4)]);
    let after = g.play(&p, m);
    assert!(!after.has_goose(at(&g, 3, 4)));
    assert_eq!(after.fox(), at(&g, 3, 5));
    // A second goose behind the first: no jump.
    let wall = pos(
        &g,
        &[(3, 4), (3, 5), (0, 3), (0, 4), (1, 4), (6, 4), (5, 4)],
        (3, 3),
        FOX,
    );
    assert!(jump_paths(&g, &wall).is_empty());
}

#[test]
fn multiple_jumps_may_stop_anywhere_and_turn() {
    let g = std_game();
    let geese = [(3, 1), (3, 3), (4, 2), (0, 4), (1, 4), (6, 4), (5, 4)];
    let p = pos(&g, &geese, (3, 0), FOX);
    assert_eq!(
        jump_paths(&g, &p),
        vec![vec![(3, 2)], vec![(3, 2), (3, 4)], vec![(3, 2), (5, 2)]],
        "stop after one, or go on straight, or turn"
    );
    let two = moves(&g, &p)
        .into_iter()
        .find(|m| m.len == 2 && m.to() == at(&g, 3, 4))
        .unwrap();
    assert_eq!(g.captured(two), vec![at(&g, 3, 1), at(&g, 3, 3)]);
    assert_eq!(g.play(&p, two).goose_count(), 5);
    assert_eq!(g.move_text(&p, two), "d7×d5×d3");
}

#[test]
fn single_jumps_only_without_the_option() {
    let g = game(FoxGeeseRules {
        multi_jump: false,
        ..FoxGeeseRules::STANDARD
    });
    let p = pos(
        &g,
        &[(3, 1), (3, 3), (4, 2), (0, 4), (1, 4), (6, 4), (5, 4)],
        (3, 0),
        FOX,
    );
    assert_eq!(jump_paths(&g, &p), vec![vec![(3, 2)]]);
}

#[test]
fn forced_capture_jumps_and_goes_on_jumping() {
    let g = game(FoxGeeseRules {
        forced_capture: true,
        ..FoxGeeseRules::STANDARD
    });
    let p = pos(
        &g,
        &[(3, 1), (3, 3), (4, 2), (0, 4), (1, 4), (6, 4), (5, 4)],
        (3, 0),
        FOX,
    );
    let all = moves(&g, &p);
    assert!(
        all.iter().all(|m| m.jump),
        "no steps when a jump is possible"
    );
    assert_eq!(
        jump_paths(&g, &p),
        vec![vec![(3, 2), (3, 4)], vec![(3, 2), (5, 2)]]
    );
    // Without a jump the fox steps as usual.
    let quiet = pos(
        &g,
        &[(0, 4), (1, 4), (6, 4), (5, 4), (2, 6), (3, 6), (4, 6)],
        (3, 0),
        FOX,
    );
    assert!(!moves(&g, &quiet).is_empty() && moves(&g, &quiet).iter().all(|m| !m.jump));
}

#[test]
fn geese_win_by_trapping_the_fox() {
    let g = std_game();
    let p = pos(
        &g,
        &[(2, 0), (4, 0), (3, 1), (3, 2), (0, 4), (1, 4), (6, 4)],
        (3, 0),
        FOX,
    );
    assert_eq!(g.outcome(&p), Some(Outcome::win(GEESE, EndReason::NoMoves)));
    // One goose without a second behind it: the fox jumps out.
    let open = pos(
        &g,
        &[(2, 0), (4, 0), (3, 1), (0, 4), (1, 4), (6, 4), (5, 4)],
        (3, 0),
        FOX,
    );
    assert_eq!(g.outcome(&open), None);
}

#[test]
fn the_fox_wins_at_the_threshold() {
    let six = [(0, 4), (1, 4), (2, 4), (4, 4), (5, 4), (6, 4)];
    let g = std_game();
    assert_eq!(
        g.outcome(&pos(&g, &six, (3, 0), GEESE)),
        Some(Outcome::win(FOX, EndReason::CaptureTarget))
    );
    let four = game(FoxGeeseRules {
        fox_wins_at: 4,
        ..FoxGeeseRules::STANDARD
    });
    assert_eq!(four.outcome(&pos(&four, &six, (3, 0), GEESE)), None);
    assert!(
        four.outcome(&pos(&four, &six[..4], (3, 0), GEESE))
            .is_some()
    );
    let three = game(FoxGeeseRules {
        fox_wins_at: 3,
        ..FoxGeeseRules::STANDARD
    });
    assert_eq!(three.outcome(&pos(&three, &six[..4], (3, 0), GEESE)), None);
    assert!(
        three
            .outcome(&pos(&three, &six[..3], (3, 0), GEESE))
            .is_some()
    );
}

#[test]
fn the_fox_wins_when_the_geese_cannot_move() {
    let g = game(FoxGeeseRules {
        fox_wins_at: 3,
        ..FoxGeeseRules::STANDARD
    });
    let stuck = [(2, 0), (3, 0), (4, 0), (2, 1), (3, 1), (4, 1)];
    let p = pos(&g, &stuck, (3, 5), GEESE);
    assert_eq!(g.outcome(&p), Some(Outcome::win(FOX, EndReason::NoMoves)));
    let back = game(FoxGeeseRules {
        fox_wins_at: 3,
        geese_back: true,
        ..FoxGeeseRules::STANDARD
    });
    assert_eq!(
        back.outcome(&pos(&back, &stuck, (3, 5), GEESE)),
        None,
        "they may step back"
    );
}

#[test]
fn a_third_repetition_and_three_hundred_moves_go_to_the_fox() {
    let g = std_game();
    let start = pos(
        &g,
        &[(0, 4), (1, 4), (2, 4), (4, 4), (5, 4), (6, 4), (2, 6)],
        (3, 0),
        GEESE,
    );
    let mut r = GameRecord::from_position(&g, start);
    let step = |g: &FoxGeese, a: (i32, i32), b: (i32, i32)| {
        FoxGeeseMove::step(at(g, a.0, a.1), at(g, b.0, b.1))
    };
    let cycle = [
        ((2, 6), (3, 6)),
        ((3, 0), (3, 1)),
        ((3, 6), (2, 6)),
        ((3, 1), (3, 0)),
    ];
    let mut seen = Vec::new();
    for _ in 0..2 {
        for (i, (a, b)) in cycle.iter().enumerate() {
            let rep = r.play(&g, step(&g, *a, *b)).unwrap();
            if i == 3 {
                seen.push((rep.occurrences, rep.outcome));
            }
        }
    }
    assert_eq!(seen[0], (2, None), "the 2nd time is only announced");
    assert_eq!(seen[1], (3, Some(Outcome::win(FOX, EndReason::Repetition))));

    // 300 plies: the fox shuffles and the geese walk sideways and back...
    // (geese may step back here so the game can last).
    let long = game(FoxGeeseRules {
        geese_back: true,
        ..FoxGeeseRules::STANDARD
    });
    let mut p = long.start();
    let mut n = 0;
    let mut list = Vec::new();
    while long.outcome(&p).is_none() && n < 400 {
        list.clear();
        long.legal_moves(&p, &mut list);
        let quiet: Vec<_> = list.iter().copied().filter(|m| !m.jump).collect();
        let m = quiet[n % quiet.len()];
        p = long.play(&p, m);
        n += 1;
    }
    assert_eq!(
        long.outcome(&p),
        Some(Outcome::win(FOX, EndReason::MoveLimit))
    );
    assert_eq!(n, 300);
}

#[test]
fn hashes_are_incremental_and_exact() {
    let g = game(FoxGeeseRules {
        diagonals: true,
        geese_back: true,
        ..FoxGeeseRules::STANDARD
    });
    let mut p = g.start();
    let mut list = Vec::new();
    for i in 0..150 {
        if g.outcome(&p).is_some() {
            break;
        }
        list.clear();
        g.legal_moves(&p, &mut list);
        p = g.play(&p, list[(i * 31) % list.len()]);
        let geese: Vec<usize> = p.geese().collect();
        let rebuilt = g.position(&geese, p.fox(), p.to_move()).unwrap();
        assert_eq!(g.hash(&p), g.hash(&rebuilt), "after {} plies", i + 1);
    }
}

#[test]
fn presets_load_and_match_the_issue() {
    let presets = data::foxgeese_presets().unwrap();
    let ids: Vec<_> = presets.presets.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["standard", "seventeen", "old"]);
    assert_eq!(
        presets.preset("standard").unwrap().rules,
        FoxGeeseRules::STANDARD
    );
    assert_eq!(presets.preset("seventeen").unwrap().rules.geese, 17);
    let old = presets.preset("old").unwrap().rules;
    assert!(old.diagonals && old.geese_back && old.geese == 13);
    let bad = data::FOXGEESE_PRESETS
        .text
        .replacen("fox_wins_at: 6", "fox_wins_at: 5", 1);
    let e = data::foxgeese_presets_from("levels/presets/foxgeese.ron", &bad)
        .unwrap_err()
        .to_string();
    assert!(e.contains("presets[0]") && e.contains("fox_wins_at"), "{e}");
}

#[test]
fn the_rules_text_loads_in_both_languages() {
    let t = data::rules_text(yorimichi::rules::data::GameId::FoxGeese)
        .unwrap()
        .unwrap();
    assert!(t.sections.len() >= 8);
}

#[test]
fn diagrams_parse_and_bad_ones_are_explained() {
    let g = std_game();
    let rows = [
        "  ...  ", "  ...  ", ".......", "...F...", "GGGGGGG", "  GGG  ", "  GGG  ",
    ];
    assert_eq!(g.position_from_rows(&rows, GEESE).unwrap(), g.start());
    let mut off = rows;
    off[0] = "G ...  ";
    assert!(
        g.position_from_rows(&off, GEESE)
            .unwrap_err()
            .contains("off the board")
    );
    let mut blank = rows;
    blank[2] = "... ...";
    assert!(
        g.position_from_rows(&blank, GEESE)
            .unwrap_err()
            .contains("left blank")
    );
    let mut two = rows;
    two[2] = "F......";
    assert!(
        g.position_from_rows(&two, GEESE)
            .unwrap_err()
            .contains("second fox")
    );
}

#[test]
fn the_tutorial_is_valid_and_its_try_it_moves_capture_what_the_text_says() {
    let t = data::foxgeese_tutorial().unwrap();
    assert!(t.steps.len() >= 15);
    let g = std_game();
    let mut taken = Vec::new();
    for step in &t.steps {
        let rows: Vec<&str> = step.board.iter().map(String::as_str).collect();
        let p = g.position_from_rows(&rows, step.to_move).unwrap();
        if let Some(e) = &step.expect {
            let (from, to) = (
                g.board().find(&e.from).unwrap(),
                g.board().find(&e.to).unwrap(),
            );
            let mv = moves(&g, &p)
                .into_iter()
                .find(|m| m.from as usize == from && m.to() == to)
                .unwrap();
            taken.push(g.captured(mv).len());
        }
    }
    // A goose's step, the fox stepping back, a single jump, a goose
    // beside the fox (taking nothing), a double jump, a turning one.
    assert_eq!(taken, [0, 0, 1, 0, 2, 2]);
    // The trapped-fox step really is a win for the geese.
    let trapped = t
        .steps
        .iter()
        .find(|s| s.title.en == "The geese win")
        .unwrap();
    let rows: Vec<&str> = trapped.board.iter().map(String::as_str).collect();
    let p = g.position_from_rows(&rows, trapped.to_move).unwrap();
    assert_eq!(g.outcome(&p), Some(Outcome::win(GEESE, EndReason::NoMoves)));
}

#[test]
fn a_broken_tutorial_names_the_step() {
    let text = data::FOXGEESE_TUTORIAL.text.replacen(
        "from: \"b3\", to: \"b4\"",
        "from: \"d3\", to: \"b4\"",
        1,
    );
    let e = data::foxgeese_tutorial_from("levels/tutorials/foxgeese.ron", &text)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("steps[2].expect") && e.contains("not a legal move"),
        "{e}"
    );
}

#[test]
fn the_tips_show_what_they_say() {
    let t = data::foxgeese_tutorial().unwrap();
    let g = std_game();
    let diagram = |title: &str| {
        let s = t
            .steps
            .iter()
            .find(|s| s.title.en.starts_with(title))
            .unwrap();
        let rows: Vec<&str> = s.board.iter().map(String::as_str).collect();
        g.position_from_rows(&rows, s.to_move).unwrap()
    };
    // Two geese can be jumped at once.
    assert_eq!(jump_paths(&g, &diagram("Fox tip 2")).len(), 2);
    // A double jump is waiting behind the wall.
    assert!(
        jump_paths(&g, &diagram("Fox tip 3"))
            .iter()
            .any(|p| p.len() == 2)
    );
    // The double wall gives the fox nothing to jump.
    assert!(jump_paths(&g, &diagram("Geese tip 1")).is_empty());
}

// --- Building moves from taps (the play screen and tutorials use this) ---

use yorimichi::rules::taps::{self, Tap};

/// The fox on d7 (3,0) with geese on d6 and d4: a double jump down the
/// middle column, stoppable after the first jump unless captures are forced.
fn double_jump_position(g: &FoxGeese) -> FoxGeesePos {
    pos(g, &[(3, 1), (3, 3), (0, 4), (6, 4)], (3, 0), FOX)
}

#[test]
fn a_multi_jump_is_tapped_landing_by_landing_and_may_stop() {
    let g = std_game();
    let p = double_jump_position(&g);
    let mut path = Vec::new();
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 3, 0)), Tap::Select);
    assert!(taps::next_points(&g, &p, &path).contains(&at(&g, 3, 2)));
    // The first landing: the fox could stop or go on, so it waits.
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 3, 2)), Tap::Extend);
    assert_eq!(path, vec![at(&g, 3, 0), at(&g, 3, 2)]);
    assert_eq!(taps::next_points(&g, &p, &path), vec![at(&g, 3, 4)]);
    let stop = taps::move_along(&g, &p, &path).expect("stopping here is a move");
    assert_eq!(g.captured(stop), vec![at(&g, 3, 1)]);
    // Tapping the fox where it stands stops the jump there.
    let mut again = path.clone();
    assert_eq!(taps::tap(&g, &p, &mut again, at(&g, 3, 2)), Tap::Play(stop));
    // Or on to the second landing, which ends the move (nothing beyond).
    match taps::tap(&g, &p, &mut path, at(&g, 3, 4)) {
        Tap::Play(mv) => {
            assert_eq!(g.captured(mv), vec![at(&g, 3, 1), at(&g, 3, 3)]);
            assert_eq!(
                g.move_path(mv),
                vec![at(&g, 3, 0), at(&g, 3, 2), at(&g, 3, 4)]
            );
        }
        other => panic!("expected the double jump, got {other:?}"),
    }
    assert!(path.is_empty());
}

#[test]
fn under_forced_capture_a_jump_cannot_stop_half_way() {
    let g = game(FoxGeeseRules {
        forced_capture: true,
        ..FoxGeeseRules::STANDARD
    });
    let p = double_jump_position(&g);
    let mut path = vec![at(&g, 3, 0)];
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 3, 2)), Tap::Extend);
    assert!(taps::move_along(&g, &p, &path).is_none(), "no stop here");
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 3, 2)), Tap::Reject);
    assert_eq!(path.len(), 2, "the jump is still under way");
    // A step is not allowed either while a jump is possible.
    let mut step = vec![at(&g, 3, 0)];
    assert_eq!(taps::tap(&g, &p, &mut step, at(&g, 2, 0)), Tap::Reject);
    // Tapping the starting point cancels the unfinished jump.
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 3, 0)), Tap::Deselect);
    assert!(path.is_empty());
}

#[test]
fn taps_select_switch_and_put_down_pieces() {
    let g = std_game();
    let p = g.start();
    let mut path = Vec::new();
    // The fox is not the geese's piece; an empty point does nothing.
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 3, 3)), Tap::Ignore);
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 3, 0)), Tap::Ignore);
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 2, 4)), Tap::Select);
    // Another goose with a move: switch to it.
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 4, 4)), Tap::Select);
    assert_eq!(path, vec![at(&g, 4, 4)]);
    // A goose cannot step back: refused, and the selection is dropped.
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 4, 5)), Tap::Reject);
    assert!(path.is_empty());
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 4, 4)), Tap::Select);
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 4, 4)), Tap::Deselect);
    assert_eq!(taps::tap(&g, &p, &mut path, at(&g, 4, 4)), Tap::Select);
    assert_eq!(
        taps::tap(&g, &p, &mut path, at(&g, 4, 3)),
        Tap::Play(FoxGeeseMove::step(at(&g, 4, 4), at(&g, 4, 3)))
    );
}

#[test]
fn marks_show_exactly_the_moves_that_let_the_fox_jump() {
    let g = std_game();
    // Fox on c5 (2,2); geese on their start points but a3, b3 moved up.
    let mut geese: Vec<(i32, i32)> = vec![(0, 3), (1, 3)];
    geese.extend((2..=6).map(|x| (x, 4)));
    geese.extend([(2, 5), (3, 5), (4, 5), (2, 6), (3, 6), (4, 6)]);
    let p = pos(&g, &geese, (2, 2), GEESE);
    let step = |from: (i32, i32), to: (i32, i32)| {
        FoxGeeseMove::step(at(&g, from.0, from.1), at(&g, to.0, to.1))
    };
    // c3→c4 stands next to the fox with c3 left empty behind it: ×.
    assert!(g.move_exposes(&p, step((2, 4), (2, 3))));
    // c3→b3 is safe, and so is a goose far away.
    assert!(!g.move_exposes(&p, step((2, 4), (1, 4))));
    assert!(!g.move_exposes(&p, step((6, 4), (6, 3))));
    // b4→c4 (sideways) lands next to the fox with c3 behind it: safe.
    assert!(!g.move_exposes(&p, step((1, 3), (2, 3))));
    // A goose already exposed does not mark every other move.
    let exposed = pos(&g, &[(2, 3), (5, 4), (6, 4), (4, 5)], (2, 2), GEESE);
    assert!(g.jumpable_geese(&exposed) != 0);
    assert!(!g.move_exposes(&exposed, step((6, 4), (6, 3))));
    // The fox's own moves are never marked.
    let fox_turn = pos(&g, &geese, (2, 2), FOX);
    let mut fox_moves = Vec::new();
    g.legal_moves(&fox_turn, &mut fox_moves);
    assert!(fox_moves.iter().all(|&mv| !g.move_exposes(&fox_turn, mv)));
}
