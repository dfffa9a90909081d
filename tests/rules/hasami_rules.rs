//! はさみ将棋 rules, after seed 004: movement, sandwiches (rows, several
//! directions, broken runs, moving in between), corner/edge/anywhere
//! enclosure, the diagonal option, and every way a game ends.

use yorimichi::rules::data;
use yorimichi::rules::game::{EndReason, Game, Outcome, Side};
use yorimichi::rules::hasami::{Enclosure, Hasami, HasamiMove, HasamiPos, HasamiRules};
use yorimichi::rules::record::GameRecord;

fn game(rules: HasamiRules) -> Hasami {
    Hasami::new(data::board("shogi9").unwrap(), rules).unwrap()
}

fn std_game() -> Hasami {
    game(HasamiRules::STANDARD)
}

fn pos(rows: [&str; 9]) -> HasamiPos {
    HasamiPos::from_rows(&rows, Side::First, [0, 0]).unwrap()
}

fn mv(g: &Hasami, from: &str, to: &str) -> HasamiMove {
    let b = g.board();
    HasamiMove {
        from: b.find(from).unwrap() as u8,
        to: b.find(to).unwrap() as u8,
    }
}

fn names(g: &Hasami, points: &[usize]) -> Vec<String> {
    points
        .iter()
        .map(|&p| g.board().point(p).name.clone())
        .collect()
}

fn legal(g: &Hasami, p: &HasamiPos) -> Vec<HasamiMove> {
    let mut v = Vec::new();
    g.legal_moves(p, &mut v);
    v
}

const EMPTY: &str = ".........";

#[test]
fn start_position_and_first_moves() {
    let g = std_game();
    let p = g.start();
    assert_eq!(p.count(Side::First), 9);
    assert_eq!(p.count(Side::Second), 9);
    assert_eq!(p.to_move(), Side::First);
    // Each of the nine 歩 can go up 1..=7 squares; sideways is blocked.
    assert_eq!(legal(&g, &p).len(), 9 * 7);
    assert!(g.outcome(&p).is_none());
}

#[test]
fn pieces_move_like_rooks_and_never_jump() {
    let g = std_game();
    let p = pos([
        EMPTY,
        EMPTY,
        EMPTY,
        "....S....",
        "..F.F....",
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
    ]);
    let moves: Vec<_> = legal(&g, &p)
        .into_iter()
        .filter(|m| m.from == g.board().find("5五").unwrap() as u8)
        .collect();
    let targets = names(&g, &moves.iter().map(|m| m.to as usize).collect::<Vec<_>>());
    // Up is blocked at once by the と; left stops before the 歩 on 7五; right
    // runs to the edge; down runs to the edge.
    assert!(!targets.contains(&"5四".to_string()));
    assert!(targets.contains(&"6五".to_string()) && !targets.contains(&"7五".to_string()));
    assert!(
        !targets.contains(&"8五".to_string()),
        "no jumping over a friend"
    );
    assert!(targets.contains(&"1五".to_string()) && targets.contains(&"5九".to_string()));
    assert!(!targets.contains(&"4四".to_string()), "no diagonal moves");
    assert_eq!(moves.len(), 1 + 4 + 4);
}

#[test]
fn a_single_sandwich_captures() {
    let g = std_game();
    let p = pos([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "....SF...",
        EMPTY,
        EMPTY,
        EMPTY,
        "...F.....",
    ]);
    let m = mv(&g, "6九", "6五");
    let report = g.captures(&p, m);
    assert_eq!(names(&g, &report.captured), ["5五"]);
    assert_eq!(names(&g, &report.capturers), ["6五", "4五"]);
    let next = g.play(&p, m);
    assert_eq!(next.at(g.board().find("5五").unwrap()), None);
    assert_eq!(next.captured_by(Side::First), 1);
}

#[test]
fn a_row_is_captured_at_once_and_a_gap_or_friend_breaks_it() {
    let g = std_game();
    let row = pos([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "....SSSF.",
        EMPTY,
        EMPTY,
        EMPTY,
        "...F.....",
    ]);
    assert_eq!(
        names(&g, &g.captures(&row, mv(&g, "6九", "6五")).captured),
        ["5五", "4五", "3五"]
    );
    let gap = pos([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "....SS.SF",
        EMPTY,
        EMPTY,
        EMPTY,
        "...F.....",
    ]);
    assert!(g.captures(&gap, mv(&g, "6九", "6五")).captured.is_empty());
    // A friendly piece ends the run: only the part before it is sandwiched.
    let friend = pos([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "....SFSF.",
        EMPTY,
        EMPTY,
        EMPTY,
        "...F.....",
    ]);
    assert_eq!(
        names(&g, &g.captures(&friend, mv(&g, "6九", "6五")).captured),
        ["5五"]
    );
    let friend_first = pos([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "....FSSF.",
        EMPTY,
        EMPTY,
        EMPTY,
        "...F.....",
    ]);
    assert!(
        g.captures(&friend_first, mv(&g, "6九", "6五"))
            .captured
            .is_empty()
    );
}

#[test]
fn two_directions_are_captured_by_one_move() {
    let g = std_game();
    let p = pos([
        EMPTY,
        EMPTY,
        "...F.....",
        "...S.....",
        "....SF...",
        EMPTY,
        EMPTY,
        EMPTY,
        "...F.....",
    ]);
    let r = g.captures(&p, mv(&g, "6九", "6五"));
    assert_eq!(names(&g, &r.captured), ["6四", "5五"]);
    assert_eq!(names(&g, &r.capturers), ["6三", "6五", "4五"]);
}

#[test]
fn moving_in_between_is_safe_but_closing_again_captures() {
    let g = std_game();
    let p = pos([
        "........S",
        EMPTY,
        EMPTY,
        EMPTY,
        "...S.S...",
        EMPTY,
        EMPTY,
        EMPTY,
        "....F...F",
    ]);
    let m = mv(&g, "5九", "5五");
    assert!(g.captures(&p, m).captured.is_empty());
    let (r, _) = record_after(&g, p, &[("5九", "5五"), ("4五", "4四"), ("1九", "1八")]);
    assert_eq!(
        r.current().at(g.board().find("5五").unwrap()),
        Some(Side::First)
    );
    // 後手 moved one of the two away; moving it back captures.
    let back = mv(&g, "4四", "4五");
    assert_eq!(names(&g, &g.captures(r.current(), back).captured), ["5五"]);
}

#[test]
fn only_the_mover_captures() {
    let g = std_game();
    // The と on 5五 already sits between two 歩: a 先手 move elsewhere does
    // not take it.
    let p = pos([
        "S........",
        EMPTY,
        EMPTY,
        EMPTY,
        "...FSF...",
        EMPTY,
        EMPTY,
        EMPTY,
        "........F",
    ]);
    assert!(g.captures(&p, mv(&g, "1九", "1八")).captured.is_empty());
}

#[test]
fn corner_piece_is_captured_by_filling_both_neighbours() {
    for enclosure in [Enclosure::Corner, Enclosure::Edge, Enclosure::Anywhere] {
        let g = game(HasamiRules {
            enclosure,
            ..HasamiRules::STANDARD
        });
        let p = pos([
            "SF.......",
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            "F........",
        ]);
        let r = g.captures(&p, mv(&g, "9九", "9二"));
        assert_eq!(names(&g, &r.captured), ["9一"], "{enclosure:?}");
        assert_eq!(names(&g, &r.capturers), ["8一", "9二"]);
        // With a gap next to the corner nothing is captured.
        let open = pos([
            "S........",
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            "F........",
        ]);
        assert!(g.captures(&open, mv(&g, "9九", "9二")).captured.is_empty());
    }
}

#[test]
fn edge_groups_follow_the_enclosure_option() {
    let rows = [
        "...FSSF..",
        "....F....",
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".....F...",
    ];
    for (enclosure, expect) in [
        (Enclosure::Corner, vec![]),
        (Enclosure::Edge, vec!["5一", "4一"]),
        (Enclosure::Anywhere, vec!["5一", "4一"]),
    ] {
        let g = game(HasamiRules {
            enclosure,
            ..HasamiRules::STANDARD
        });
        let r = g.captures(&pos(rows), mv(&g, "4九", "4二"));
        assert_eq!(names(&g, &r.captured), expect, "{enclosure:?}");
    }
}

#[test]
fn a_single_edge_piece_closed_on_three_sides_is_captured() {
    let g = std_game();
    let p = pos([
        EMPTY,
        EMPTY,
        EMPTY,
        "F........",
        "S........",
        "F........",
        EMPTY,
        EMPTY,
        ".F.......",
    ]);
    let r = g.captures(&p, mv(&g, "8九", "8五"));
    assert_eq!(names(&g, &r.captured), ["9五"]);
    assert_eq!(names(&g, &r.capturers), ["9四", "8五", "9六"]);
    // An edge group with one open square survives.
    let open = pos([
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "S........",
        "S........",
        "F........",
        EMPTY,
        ".F.......",
    ]);
    assert!(g.captures(&open, mv(&g, "8九", "8五")).captured.is_empty());
    // Corner-only rule: an edge piece is not taken by enclosure.
    let corner = game(HasamiRules {
        enclosure: Enclosure::Corner,
        ..HasamiRules::STANDARD
    });
    assert!(
        corner
            .captures(&p, mv(&corner, "8九", "8五"))
            .captured
            .is_empty()
    );
}

#[test]
fn interior_groups_are_enclosed_only_with_anywhere() {
    // A 2×2 block in the middle; the last move closes its last way out. The
    // line straight through it is a sandwich under any option; "anywhere"
    // takes the whole block.
    let rows = [
        "...F.....",
        EMPTY,
        "....F....",
        "..FSSF...",
        "..FSSF...",
        "...FF....",
        EMPTY,
        EMPTY,
        EMPTY,
    ];
    let close = |g: &Hasami| mv(g, "6一", "6三");
    let edge = std_game();
    assert_eq!(
        names(&edge, &edge.captures(&pos(rows), close(&edge)).captured),
        ["6四", "6五"]
    );
    let anywhere = game(HasamiRules {
        enclosure: Enclosure::Anywhere,
        ..HasamiRules::STANDARD
    });
    assert_eq!(
        names(
            &anywhere,
            &anywhere.captures(&pos(rows), close(&anywhere)).captured
        ),
        ["6四", "5四", "6五", "5五"]
    );
}

#[test]
fn diagonal_sandwich_only_with_the_option() {
    let rows = [
        EMPTY,
        EMPTY,
        EMPTY,
        "...F.....",
        "....S....",
        EMPTY,
        EMPTY,
        EMPTY,
        ".....F...",
    ];
    let plain = std_game();
    let m = mv(&plain, "4九", "4六");
    assert!(plain.captures(&pos(rows), m).captured.is_empty());
    let diag = game(HasamiRules {
        diagonal: true,
        ..HasamiRules::STANDARD
    });
    assert_eq!(
        names(&diag, &diag.captures(&pos(rows), m).captured),
        ["5五"]
    );
    // Movement stays orthogonal.
    assert!(legal(&diag, &pos(rows)).iter().all(|m| {
        let (a, b) = (
            diag.board().point(m.from as usize),
            diag.board().point(m.to as usize),
        );
        a.x == b.x || a.y == b.y
    }));
}

fn record_after(
    g: &Hasami,
    start: HasamiPos,
    moves: &[(&str, &str)],
) -> (GameRecord<Hasami>, Option<Outcome>) {
    let mut r = GameRecord::from_position(g, start);
    let mut last = None;
    for (a, b) in moves {
        last = r
            .play(g, mv(g, a, b))
            .unwrap_or_else(|e| panic!("{a}→{b}: {e}"))
            .outcome;
    }
    (r, last)
}

#[test]
fn first_to_the_target_wins() {
    let g = std_game();
    let start = HasamiPos::from_rows(
        &[
            "S........",
            EMPTY,
            EMPTY,
            EMPTY,
            "....SF...",
            EMPTY,
            EMPTY,
            EMPTY,
            "...F....S",
        ],
        Side::First,
        [4, 2],
    )
    .unwrap();
    let (_, outcome) = record_after(&g, start, &[("6九", "6五")]);
    assert_eq!(
        outcome,
        Some(Outcome::win(Side::First, EndReason::CaptureTarget))
    );
    let four = game(HasamiRules {
        capture_target: 4,
        lead: None,
        ..HasamiRules::STANDARD
    });
    let start3 = HasamiPos::from_rows(
        &[
            "S........",
            EMPTY,
            EMPTY,
            EMPTY,
            "....SF...",
            EMPTY,
            EMPTY,
            EMPTY,
            "...F....S",
        ],
        Side::First,
        [3, 0],
    )
    .unwrap();
    let (_, outcome) = record_after(&four, start3, &[("6九", "6五")]);
    assert_eq!(
        outcome,
        Some(Outcome::win(Side::First, EndReason::CaptureTarget))
    );
}

#[test]
fn down_to_the_last_piece() {
    let g = game(HasamiRules {
        capture_target: 8,
        lead: None,
        ..HasamiRules::STANDARD
    });
    // 後手 has two pieces left; taking one leaves one: 先手 wins.
    let start = HasamiPos::from_rows(
        &[
            "S........",
            EMPTY,
            EMPTY,
            EMPTY,
            "....SF...",
            EMPTY,
            EMPTY,
            EMPTY,
            "...F.....",
        ],
        Side::First,
        [7, 0],
    )
    .unwrap();
    let (_, outcome) = record_after(&g, start, &[("6九", "6五")]);
    assert_eq!(
        outcome,
        Some(Outcome::win(Side::First, EndReason::CaptureTarget))
    );
}

#[test]
fn the_lead_rule_waits_for_the_opponents_reply() {
    let g = std_game();
    // 先手 leads 2-0 and captures a third: lead 3, but the game goes on.
    let start = HasamiPos::from_rows(
        &[
            "S.......S",
            EMPTY,
            EMPTY,
            EMPTY,
            "....SF...",
            EMPTY,
            EMPTY,
            EMPTY,
            "...F....F",
        ],
        Side::First,
        [2, 0],
    )
    .unwrap();
    let (r, outcome) = record_after(&g, start, &[("6九", "6五")]);
    assert_eq!(outcome, None, "the leader has not survived a reply yet");
    // 後手 answers without capturing: 先手's turn comes with the lead kept.
    let (_, outcome) = record_after(&g, *r.current(), &[("9一", "9二")]);
    assert_eq!(outcome, Some(Outcome::win(Side::First, EndReason::Lead)));
}

#[test]
fn the_lead_rule_is_stopped_by_a_capture_back() {
    let g = std_game();
    // After 先手 makes it 3-0, 後手 captures back at once (2 lead): play on.
    let start = HasamiPos::from_rows(
        &[
            "S.......S",
            EMPTY,
            EMPTY,
            EMPTY,
            "....SF...",
            EMPTY,
            EMPTY,
            "F........",
            "S..F.....",
        ],
        Side::First,
        [2, 0],
    )
    .unwrap();
    let (r, outcome) = record_after(&g, start, &[("6九", "6五")]);
    assert_eq!(outcome, None);
    let (r2, outcome) = record_after(&g, *r.current(), &[("9一", "9七")]);
    assert_eq!(r2.current().captured_by(Side::Second), 1);
    assert_eq!(outcome, None, "the lead is back to 2");
    // Without a lead rule nothing happens at 3 either.
    let no_lead = game(HasamiRules {
        lead: None,
        ..HasamiRules::STANDARD
    });
    let (r, _) = record_after(&no_lead, start, &[("6九", "6五")]);
    let (_, outcome) = record_after(&no_lead, *r.current(), &[("9一", "9二")]);
    assert_eq!(outcome, None);
    // A lead rule of 2 ends the game earlier.
    let two = game(HasamiRules {
        lead: Some(2),
        ..HasamiRules::STANDARD
    });
    let start1 = HasamiPos::from_rows(
        &[
            "S.......S",
            EMPTY,
            EMPTY,
            EMPTY,
            "....SF...",
            EMPTY,
            EMPTY,
            EMPTY,
            "...F....F",
        ],
        Side::First,
        [1, 0],
    )
    .unwrap();
    let (r, _) = record_after(&two, start1, &[("6九", "6五")]);
    let (_, outcome) = record_after(&two, *r.current(), &[("9一", "9二")]);
    assert_eq!(outcome, Some(Outcome::win(Side::First, EndReason::Lead)));
}

#[test]
fn a_side_without_a_move_loses() {
    let g = std_game();
    // 後手's only piece is boxed into the corner (it got there itself, so it
    // was never captured) and cannot move: 後手 loses.
    let p = HasamiPos::from_rows(
        &[
            "SF.......",
            "F........",
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            "........F",
        ],
        Side::Second,
        [0, 0],
    )
    .unwrap();
    assert_eq!(
        g.outcome(&p),
        Some(Outcome::win(Side::First, EndReason::NoMoves))
    );
}

#[test]
fn four_fold_repetition_is_a_draw_with_notices_before() {
    let g = std_game();
    let start = pos([
        "S........",
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "........F",
    ]);
    let mut r = GameRecord::from_position(&g, start);
    let cycle = [
        ("1九", "1八"),
        ("9一", "9二"),
        ("1八", "1九"),
        ("9二", "9一"),
    ];
    let mut seen = Vec::new();
    for round in 0..3 {
        for (i, (a, b)) in cycle.iter().enumerate() {
            let report = r.play(&g, mv(&g, a, b)).unwrap();
            if i == 3 {
                seen.push(report.occurrences);
                if round < 2 {
                    assert_eq!(report.outcome, None);
                } else {
                    assert_eq!(report.outcome, Some(Outcome::draw(EndReason::Repetition)));
                }
            }
        }
    }
    assert_eq!(seen, [2, 3, 4]);
    assert!(
        r.play(&g, mv(&g, "1九", "1八")).is_err(),
        "no moves after the end"
    );
}

#[test]
fn three_hundred_moves_is_a_draw_only_with_the_option() {
    let g = std_game();
    // Play 300 quiet plies (no captures), the first quiet move each time.
    let mut p = g.start();
    let mut moves = Vec::new();
    let mut n = 0;
    while g.outcome(&p).is_none() {
        moves.clear();
        g.legal_moves(&p, &mut moves);
        let Some(m) = moves.iter().copied().find(|m| !g.is_capture(&p, *m)) else {
            break;
        };
        p = g.play(&p, m);
        n += 1;
    }
    assert_eq!(n, 300);
    assert_eq!(g.outcome(&p), Some(Outcome::draw(EndReason::MoveLimit)));
    let unlimited = game(HasamiRules {
        move_limit: None,
        ..HasamiRules::STANDARD
    });
    assert_eq!(unlimited.outcome(&p), None);
}

#[test]
fn undo_restores_position_and_repetition_counts() {
    let g = std_game();
    let mut r = GameRecord::new(&g);
    let start_hash = g.hash(r.current());
    r.play(&g, mv(&g, "5九", "5五")).unwrap();
    r.play(&g, mv(&g, "5一", "5四")).unwrap();
    assert!(r.undo() && r.undo());
    assert!(!r.undo());
    assert_eq!(g.hash(r.current()), start_hash);
    assert_eq!(r.occurrences_of_current(), 1);
}

#[test]
fn illegal_moves_are_refused() {
    let g = std_game();
    let mut r = GameRecord::new(&g);
    assert!(r.play(&g, mv(&g, "5九", "4八")).is_err(), "diagonal");
    assert!(r.play(&g, mv(&g, "5一", "5二")).is_err(), "not your piece");
    assert!(r.play(&g, mv(&g, "5九", "5一")).is_err(), "occupied");
    assert_eq!(r.ply(), 0);
}

#[test]
fn hash_is_incremental_and_exact() {
    let g = std_game();
    let mut p = g.start();
    let mut moves = Vec::new();
    for i in 0..200 {
        moves.clear();
        g.legal_moves(&p, &mut moves);
        if moves.is_empty() || g.outcome(&p).is_some() {
            break;
        }
        let m = moves[(i * 7919) % moves.len()];
        p = g.play(&p, m);
        let rebuilt = HasamiPos::from_rows(
            &p.to_text().lines().take(9).collect::<Vec<_>>(),
            p.to_move(),
            [p.captured_by(Side::First), p.captured_by(Side::Second)],
        )
        .unwrap();
        assert_eq!(g.hash(&p), g.hash(&rebuilt), "after {} plies", i + 1);
    }
}

#[test]
fn presets_load_and_match_the_seed() {
    let presets = data::hasami_presets().unwrap();
    let ids: Vec<_> = presets.presets.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["standard", "four", "last-one"]);
    assert_eq!(
        presets.preset("standard").unwrap().rules,
        HasamiRules::STANDARD
    );
    assert_eq!(presets.preset("four").unwrap().rules.capture_target, 4);
    assert_eq!(presets.preset("last-one").unwrap().rules.capture_target, 8);
}

#[test]
fn bad_presets_name_the_place() {
    let text = data::HASAMI_PRESETS
        .text
        .replacen("capture_target: 4", "capture_target: 6", 1);
    let e = data::hasami_presets_from("levels/presets/hasami.ron", &text)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("presets[1] \"four\"") && e.contains("capture_target"),
        "{e}"
    );
}

#[test]
fn the_tutorial_is_valid_and_its_try_it_moves_capture_what_the_text_says() {
    let t = data::hasami_tutorial().unwrap();
    assert!(t.steps.len() >= 15, "setup, rules, and the six tips");
    let g = std_game();
    let mut taken = Vec::new();
    for step in &t.steps {
        let rows: Vec<&str> = step.board.iter().map(String::as_str).collect();
        let p = HasamiPos::from_rows(&rows, step.to_move, [0, 0]).unwrap();
        if let Some(e) = &step.expect {
            taken.push(g.captures(&p, mv(&g, &e.from, &e.to)).captured.len());
        }
    }
    // move, sandwich, row of two, two directions, moving in (safe), corner,
    // edge group, a lone edge piece closed from three sides, a diagonal
    // sandwich (nothing), the middle (only the sandwiched one of two), a
    // capture to the piece stand, tip 5's row of three.
    assert_eq!(taken, [0, 1, 2, 2, 0, 1, 2, 1, 0, 1, 1, 3]);
}

#[test]
fn a_broken_tutorial_names_the_step() {
    let text = data::HASAMI_TUTORIAL.text.replacen(
        "from: \"5五\", to: \"5二\"",
        "from: \"5六\", to: \"5二\"",
        1,
    );
    let e = data::hasami_tutorial_from("levels/tutorials/hasami.ron", &text)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("steps[1].expect") && e.contains("not a legal move"),
        "{e}"
    );
}

#[test]
fn the_rules_text_loads_in_both_languages() {
    let t = data::rules_text(yorimichi::rules::data::GameId::Hasami)
        .unwrap()
        .unwrap();
    assert!(t.sections.len() >= 8);
    let bad = data::HASAMI_RULES_TEXT
        .text
        .replacen("en: \"The game\"", "en: \"\"", 1);
    let e = data::rules_text_from("levels/rules/hasami.ron", &bad)
        .unwrap_err()
        .to_string();
    assert!(e.contains("sections[0].title"), "{e}");
}
