//! 詰め中将棋: mate problems (the attacker without royals) as the rules
//! read them, the mate solver (src/rules/chu/mate.rs) on problems of
//! 中将棊絹篩 (tests/data/chu-tsume), the solver inside the game search
//! (src/rules/chu/probe.rs), and no moves at the root of an ended game.

use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::end::{ChuEnd, is_mated, is_over, outcome_in};
use yorimichi::rules::chu::exchange::{attacked_after, attacked_after_quiet, attacked_by};
use yorimichi::rules::chu::game::{Chu, ChuRules};
use yorimichi::rules::chu::mate::{Mate, MateSearch, check_line};
use yorimichi::rules::chu::moves::{ChuMove, legal_moves_in, parse_usi_in, perft_in, play};
use yorimichi::rules::chu::pieces::Kind;
use yorimichi::rules::chu::position::{ChuPosition, Square};
use yorimichi::rules::chu::probe::{mate_in, royal_exposed};
use yorimichi::rules::game::{Game, Side};
use yorimichi::rules::search::{SearchPlan, Searcher, mate_plies};

const KINUBURUI: &str = include_str!("../data/chu-tsume/kinuburui.tsv");

/// A problem of the collection: its SFEN, the published line, its plies.
struct Problem {
    id: &'static str,
    sfen: &'static str,
    line: Vec<&'static str>,
    plies: usize,
}

fn problems() -> Vec<Problem> {
    KINUBURUI
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Problem {
                id: f[0],
                sfen: f[2],
                line: f[3].split_whitespace().collect(),
                plies: f[4].trim().parse().unwrap(),
            }
        })
        .collect()
}

fn problem(id: &str) -> Problem {
    problems()
        .into_iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("no problem {id}"))
}

fn start(p: &Problem) -> ChuPosition {
    ChuPosition::from_sfen_start(p.sfen).unwrap_or_else(|e| panic!("{}: {e}", p.id))
}

/// Whether a royal of `side` could be taken by the other side now.
fn royal_attacked(pos: &ChuPosition, side: Side) -> bool {
    pos.pieces()
        .filter(|&(_, s, p)| s == side && matches!(p.kind(), Kind::King | Kind::Prince))
        .any(|(sq, _, _)| attacked_by(pos, sq, side.opponent()))
}

fn solve(profile: Profile, pos: &ChuPosition, seconds: f64) -> Mate {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds);
    let mut search = MateSearch::with_entries(profile, 1 << 18);
    let mut stop = || std::time::Instant::now() >= deadline;
    match search.solve(pos, &mut stop) {
        Mate::Proved(line) => Mate::Proved(search.shorten(pos, line, &mut stop)),
        other => other,
    }
}

#[test]
fn a_side_without_royals_read_as_a_start_is_a_mate_problem_s_attacker() {
    let p = problem("kinu01");
    let plain = ChuPosition::from_sfen(p.sfen).unwrap();
    let tsume = start(&p);
    assert_eq!(plain.attacker(), None);
    assert_eq!(tsume.attacker(), Some(Side::First));
    for profile in Profile::ALL {
        // Read as the board alone, 先手 has lost its royals; as a problem
        // nothing has ended, and 先手 moves.
        assert_eq!(
            outcome_in(profile, &plain),
            Some((Some(Side::Second), ChuEnd::RoyalsTaken)),
            "{profile:?}"
        );
        assert_eq!(outcome_in(profile, &tsume), None, "{profile:?}");
        assert_eq!(perft_in(profile, &plain, 1), 0, "{profile:?}");
        assert!(perft_in(profile, &tsume, 1) > 0, "{profile:?}");
        assert!(perft_in(profile, &tsume, 2) > 0, "{profile:?}");
    }
    // The attacker keeps its part move after move, and wins when the
    // defender's royals are taken.
    let mut pos = tsume.clone();
    for m in &p.line {
        pos = play(&pos, parse_usi_in(Profile::Jcsa, &pos, m).unwrap());
        assert_eq!(pos.attacker(), Some(Side::First));
    }
    // Both sides with royals, or neither: an ordinary position.
    assert_eq!(ChuPosition::start().read_start().attacker(), None);
    let bare = ChuPosition::from_sfen_start("12/12/12/12/12/12/5N6/12/12/12/12/12 b - 1").unwrap();
    assert_eq!(bare.attacker(), None);
    // 後手 attacking 先手's king.
    let turned =
        ChuPosition::from_sfen_start("11K/12/1g10/12/12/12/12/12/12/12/12/12 w - 1").unwrap();
    assert_eq!(turned.attacker(), Some(Side::Second));
    assert_eq!(turned.mirrored().attacker(), Some(Side::First));
}

/// The collection's lines whose last position leaves the defender a
/// reply that does not lose the royal at once (an interposition or a king
/// step that only delays the mate, which the collection does not count),
/// with those replies.
const DELAYING_REPLIES: [(&str, &[&str]); 9] = [
    ("kinu02", &["5b5a"]),
    ("kinu06", &["6c7d"]),
    ("kinu11", &["4c5b", "6d6c"]),
    ("kinu17", &["2i2h", "2i3h"]),
    ("kinu20", &["4b5a"]),
    ("kinu22", &["12i4a", "2c4a"]),
    ("kinu30", &["11a12b"]),
    ("kinu57", &["4b5a", "4b5b", "4b5c"]),
    ("kinu61", &["6b7a", "8l8a"]),
];

#[test]
fn every_collection_line_mates_by_checks_under_both_profiles() {
    let all = problems();
    assert_eq!(all.len(), 58);
    for p in &all {
        assert_eq!(p.line.len(), p.plies, "{}", p.id);
        let delaying: &[&str] = DELAYING_REPLIES
            .iter()
            .find(|(id, _)| *id == p.id)
            .map_or(&[], |(_, replies)| replies);
        for profile in Profile::ALL {
            let mut pos = start(p);
            for (i, m) in p.line.iter().enumerate() {
                let mv = parse_usi_in(profile, &pos, m)
                    .unwrap_or_else(|e| panic!("{} {profile:?} ply {}: {e}", p.id, i + 1));
                let attacking = pos.to_move() == Side::First;
                pos = play(&pos, mv);
                if attacking {
                    assert!(
                        royal_attacked(&pos, Side::Second),
                        "{} {profile:?} ply {} ({m}) is not a check",
                        p.id,
                        i + 1
                    );
                }
            }
            if pos.to_move() == Side::First {
                // kinu54's line stops after a king step out of check, with
                // the attacker to move and no mate found from there: the
                // published line is short of its end. (The solver mates
                // kinu54 another way from the start.)
                assert_eq!(p.id, "kinu54");
                assert!(!royal_attacked(&pos, Side::Second), "{profile:?}");
                continue;
            }
            // At the end every reply lets the last royal be taken, but for
            // the delaying ones listed.
            let mut replies = Vec::new();
            legal_moves_in(profile, &pos, &mut replies);
            assert!(!replies.is_empty(), "{} {profile:?}", p.id);
            let mut escapes: Vec<String> = replies
                .iter()
                .filter(|&&r| !royal_attacked(&play(&pos, r), Side::Second))
                .map(|r| r.usi())
                .collect();
            escapes.sort();
            assert_eq!(escapes, delaying, "{} {profile:?}", p.id);
            assert_eq!(
                is_mated(profile, &pos),
                delaying.is_empty(),
                "{} {profile:?}",
                p.id
            );
        }
    }
}

#[test]
fn short_problems_are_solved_with_lines_legal_under_both_profiles() {
    for (id, plies) in [("kinu01", 9), ("kinu32", 11), ("kinu66", 9)] {
        let p = problem(id);
        let pos = start(&p);
        for profile in Profile::ALL {
            let Mate::Proved(line) = solve(profile, &pos, 20.0) else {
                panic!("{id} {profile:?}: not proved");
            };
            // The shortest mate, the defender's longest resistance, up to
            // the royal's capture.
            assert_eq!(line.len(), plies, "{id} {profile:?}: {line:?}");
            for check in Profile::ALL {
                check_line(check, &pos, &line).unwrap_or_else(|e| panic!("{id} {check:?}: {e}"));
            }
            let end = line.iter().fold(pos.clone(), |p, &m| play(&p, m));
            assert_eq!(
                outcome_in(profile, &end),
                Some((Some(Side::First), ChuEnd::RoyalsTaken)),
                "{id} {profile:?}"
            );
        }
    }
}

/// Whether the side to move at the start of `pos`'s problem mates within
/// `plies`: the solver proposes each attacker move (a proof tree's
/// oracle), and every legal reply is tried here, each attacker move checked
/// to be a legal check and the end read from the rules alone.
fn mates_against_every_reply(
    profile: Profile,
    search: &mut MateSearch,
    pos: &ChuPosition,
    plies: u16,
) -> bool {
    let attacker = Side::First;
    if let Some((winner, _)) = outcome_in(profile, pos) {
        return winner == Some(attacker);
    }
    if plies == 0 {
        return false;
    }
    let mut moves = Vec::new();
    legal_moves_in(profile, pos, &mut moves);
    if pos.to_move() == attacker {
        let Mate::Proved(line) = search.solve_bounded(pos, plies, &mut || false) else {
            return false;
        };
        let mv = line[0];
        assert!(moves.contains(&mv), "{}", mv.usi());
        let next = play(pos, mv);
        let won = outcome_in(profile, &next).is_some_and(|(w, _)| w == Some(attacker));
        assert!(
            won || royal_attacked(&next, Side::Second),
            "{} is no check",
            mv.usi()
        );
        mates_against_every_reply(profile, search, &next, plies - 1)
    } else {
        moves
            .iter()
            .all(|&mv| mates_against_every_reply(profile, search, &play(pos, mv), plies - 1))
    }
}

#[test]
fn the_solver_s_mates_hold_against_every_reply() {
    // Mates shorter than the collection's own lines: each reply the rules
    // allow is answered.
    for (id, plies) in [("kinu16", 7), ("kinu66", 9), ("kinu01", 9)] {
        let p = problem(id);
        let pos = start(&p);
        for profile in Profile::ALL {
            let mut search = MateSearch::with_entries(profile, 1 << 16);
            assert!(
                mates_against_every_reply(profile, &mut search, &pos, plies),
                "{id} {profile:?}"
            );
            // And none is shorter.
            assert_eq!(
                search.solve_bounded(&pos, plies - 2, &mut || false),
                Mate::NoMate,
                "{id} {profile:?}"
            );
        }
    }
}

#[test]
fn a_position_without_a_mate_is_disproved() {
    // A lone gold against a king in the open: every check is taken or
    // walked away from.
    let pos = ChuPosition::from_sfen_start("12/12/12/12/5k6/12/5G6/12/12/12/12/12 b - 1").unwrap();
    for profile in Profile::ALL {
        assert_eq!(solve(profile, &pos, 20.0), Mate::NoMate, "{profile:?}");
    }
    // No check at all.
    let pos = ChuPosition::from_sfen_start("k11/12/12/12/12/12/12/12/12/12/11P/12 b - 1").unwrap();
    assert_eq!(solve(Profile::Jcsa, &pos, 20.0), Mate::NoMate);
}

#[test]
fn the_search_trusts_a_mate_probed_where_the_enemy_royal_is_exposed() {
    // Both sides have a king; 先手 mates by checks in 7 plies, past what a
    // 4-ply search reads; the probe is asked two plies down, where the
    // search still has two to read. The enemy king has one of its own
    // beside it.
    let pos =
        ChuPosition::from_sfen_start("1k10/2s9/4G7/12/12/12/9ggg/12/12/12/12/R4R5K b - 1").unwrap();
    assert!(royal_exposed(&pos, Side::Second));
    assert!(mate_in(Profile::Lishogi, &pos).is_some());
    let search = |probes: bool| {
        let chu = Chu {
            mate_probes: probes,
            ..Chu::new(ChuRules {
                profile: Profile::Lishogi,
            })
        };
        let plan = SearchPlan {
            exact: probes,
            ..SearchPlan::fixed(4, u64::MAX)
        };
        let found = Searcher::new(&chu, pos.clone(), &[chu.hash(&pos)], plan)
            .run(&chu)
            .expect("a move");
        let checks = chu.in_check(&chu.play(&pos, found.best));
        (mate_plies(found.score), checks)
    };
    assert_eq!(search(false).0, None);
    let (plies, checks) = search(true);
    // The probe's proof need not be the shortest: at least the 7 plies of
    // the shortest, ended by 先手's capture.
    let plies = plies.expect("a mate score");
    assert!(plies >= 7 && plies % 2 == 1, "{plies}");
    assert!(checks, "the mate begins with a check");
}

#[test]
fn a_royal_walled_in_by_its_own_pieces_is_not_probed() {
    // A mate in 3 the solver proves, against a king with three of its own
    // around it: the search's probe leaves such a king to the search.
    let pos =
        ChuPosition::from_sfen_start("ks10/pp10/12/2N9/12/12/9ggg/12/12/12/12/R10K b - 1").unwrap();
    assert!(matches!(solve(Profile::Lishogi, &pos, 20.0), Mate::Proved(line) if line.len() == 3));
    assert!(!royal_exposed(&pos, Side::Second));
    assert_eq!(mate_in(Profile::Lishogi, &pos), None);
    let start = ChuPosition::start();
    assert!(Side::BOTH.iter().all(|&side| !royal_exposed(&start, side)));
}

#[test]
fn a_long_problem_with_little_time_is_unknown() {
    let pos = start(&problem("kinu57"));
    let mut search = MateSearch::new(Profile::Jcsa);
    let begun = std::time::Instant::now();
    let answer = search.solve(&pos, &mut || begun.elapsed().as_millis() >= 30);
    assert_eq!(answer, Mate::Unknown);
    assert!(begun.elapsed().as_secs_f64() < 2.0, "{:?}", begun.elapsed());
    assert!(search.nodes() > 0);
}

#[test]
fn a_line_that_is_no_mate_is_refused() {
    let p = problem("kinu01");
    let pos = start(&p);
    let line = |moves: &[&str]| -> Vec<ChuMove> {
        let mut at = pos.clone();
        moves
            .iter()
            .map(|m| {
                let mv = parse_usi_in(Profile::Jcsa, &at, m).unwrap();
                at = play(&at, mv);
                mv
            })
            .collect()
    };
    // The collection's line stops at the mate: the capture is missing.
    let published = line(&p.line);
    let e = check_line(Profile::Jcsa, &pos, &published).unwrap_err();
    assert!(e.contains("before the defender's royals are taken"), "{e}");
    // With any reply and the capture it is whole.
    let mut mated = pos.clone();
    for &mv in &published {
        mated = play(&mated, mv);
    }
    let mut replies = Vec::new();
    legal_moves_in(Profile::Jcsa, &mated, &mut replies);
    let reply = replies[0];
    let after = play(&mated, reply);
    let mut captures = Vec::new();
    legal_moves_in(Profile::Jcsa, &after, &mut captures);
    let capture = captures
        .into_iter()
        .find(|&m| outcome_in(Profile::Jcsa, &play(&after, m)).is_some())
        .expect("a capture of the king");
    let mut whole = published.clone();
    whole.extend([reply, capture]);
    check_line(Profile::Jcsa, &pos, &whole).unwrap();
    // A quiet first move is no check.
    let mut moves = Vec::new();
    legal_moves_in(Profile::Jcsa, &pos, &mut moves);
    let quiet = moves
        .into_iter()
        .find(|&m| !royal_attacked(&play(&pos, m), Side::Second))
        .unwrap();
    let e = check_line(Profile::Jcsa, &pos, &[quiet]).unwrap_err();
    assert!(e.contains("not a check"), "{e}");
}

#[test]
fn attacks_after_a_move_agree_with_the_position_it_leads_to() {
    // Positions of a seeded game from the start, and problems.
    let mut positions: Vec<ChuPosition> = problems().iter().take(12).map(start).collect();
    let mut pos = ChuPosition::start();
    let mut seed = 7u64;
    for _ in 0..60 {
        let mut moves = Vec::new();
        legal_moves_in(Profile::Jcsa, &pos, &mut moves);
        if moves.is_empty() || is_over(Profile::Jcsa, &pos) {
            break;
        }
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // Captures when there are some, so that pieces come off and lines
        // open.
        let captures: Vec<ChuMove> = moves
            .iter()
            .copied()
            .filter(|m| m.taken(&pos).next().is_some())
            .collect();
        let pool = if captures.is_empty() {
            &moves
        } else {
            &captures
        };
        pos = play(&pos, pool[(seed >> 33) as usize % pool.len()]);
        positions.push(pos.clone());
    }
    let mut compared = 0;
    for pos in &positions {
        let mut moves = Vec::new();
        legal_moves_in(Profile::Jcsa, pos, &mut moves);
        for &mv in &moves {
            let next = play(pos, mv);
            for sq in (0..144).map(Square) {
                for by in Side::BOTH {
                    let after = attacked_by(&next, sq, by);
                    let what = || format!("{} {} {by:?} on {}", pos.to_sfen(), mv.usi(), sq.name());
                    assert_eq!(attacked_after(pos, mv, sq, by), after, "{}", what());
                    // Looking along the changed lines only is enough for a
                    // square not attacked before.
                    if !attacked_by(pos, sq, by) {
                        assert_eq!(attacked_after_quiet(pos, mv, sq, by), after, "{}", what());
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1_000_000, "{compared}");
}

#[test]
fn nothing_moves_at_the_root_of_an_ended_game() {
    // 後手's king has just been taken in a game (read as the board alone):
    // over. A bare king under both profiles: over. The tsume start: on.
    let taken = ChuPosition::from_sfen("G11/p11/12/12/12/12/12/12/12/12/12/11K w - 2").unwrap();
    let bare = ChuPosition::from_sfen("k11/12/12/12/12/12/12/12/12/12/5G6/11K w - 1").unwrap();
    for profile in Profile::ALL {
        for (name, pos) in [("taken", &taken), ("bare", &bare)] {
            assert!(is_over(profile, pos), "{name} {profile:?}");
            for depth in 1..=2 {
                assert_eq!(perft_in(profile, pos, depth), 0, "{name} {profile:?}");
            }
        }
        assert_eq!(
            outcome_in(profile, &bare).map(|(_, why)| why),
            Some(ChuEnd::BareKing),
            "{profile:?}"
        );
        let tsume = start(&problem("kinu01"));
        assert!(!is_over(profile, &tsume));
        // Once the problem's royal is taken, it is over too.
        let Mate::Proved(line) = solve(profile, &tsume, 20.0) else {
            panic!("kinu01 {profile:?}");
        };
        let end = line.iter().fold(tsume.clone(), |p, &m| play(&p, m));
        assert!(is_over(profile, &end), "{profile:?}");
        assert_eq!(perft_in(profile, &end, 1), 0, "{profile:?}");
    }
}

/// A problem's move off the line, as the 詰め中将棋 lesson asks the
/// solver about it: the line's own first move is mated against every
/// reply (the rest a checked mating line), a check that does not mate is
/// escaped by a reply after which the solver proves no mate, and a move
/// that is no check is refused as one even by the game's judge.
#[test]
fn the_defence_answers_a_move_off_the_line() {
    use yorimichi::rules::chu::end::royal_in_danger;
    use yorimichi::rules::chu::game::{Chu, ChuRules};
    use yorimichi::rules::chu::mate::Defence;
    use yorimichi::rules::game::Game;
    use yorimichi::rules::rulebook::{OffLine, Rulebook};
    let p = problem("kinu01");
    let pos = start(&p);
    let mut solver = MateSearch::new(Profile::Jcsa);
    let Mate::Proved(line) = solve(Profile::Jcsa, &pos, 10.0) else {
        panic!("kinu01 is not proved");
    };
    let mut forever = || false;
    match solver.defend(&play(&pos, line[0]), &mut forever) {
        Defence::Mated(rest) => {
            let mut whole = vec![line[0]];
            whole.extend(rest);
            check_line(Profile::Jcsa, &pos, &whole).unwrap();
        }
        other => panic!("the line's first move is answered by {other:?}"),
    }
    let mut moves = Vec::new();
    legal_moves_in(Profile::Jcsa, &pos, &mut moves);
    let attacker = pos.to_move();
    let checks: Vec<ChuMove> = moves
        .iter()
        .copied()
        .filter(|&m| royal_in_danger(&play(&pos, m), attacker.opponent()))
        .collect();
    let quiet = moves
        .iter()
        .copied()
        .find(|&m| !royal_in_danger(&play(&pos, m), attacker.opponent()))
        .expect("a move that is no check");
    let mut escaped = 0;
    for &m in &checks {
        let after = play(&pos, m);
        if let Defence::Escapes(reply) = solver.defend(&after, &mut forever) {
            escaped += 1;
            assert_eq!(
                solver.solve(&play(&after, reply), &mut forever),
                Mate::NoMate,
                "{} escaped by {}, yet mated",
                m.usi(),
                reply.usi()
            );
        }
    }
    assert!(
        escaped > 0,
        "every check of kinu01 mates: no wrong try to test"
    );
    let chu = Chu::create(&ChuRules::JCSA).unwrap();
    assert_eq!(chu.side_to_move(&pos), attacker);
    match chu.off_line(&pos, quiet, &mut forever) {
        Some(OffLine::NotACheck) => {}
        other => panic!("{} (no check) judged {other:?}", quiet.usi()),
    }
    match chu.off_line(&pos, line[0], &mut forever) {
        Some(OffLine::Wins(rest)) => assert!(!rest.is_empty()),
        other => panic!("the line's first move judged {other:?}"),
    }
    // Stopped, the defence is unknown rather than a line not shortened.
    let mut stop_at_once = || true;
    assert_eq!(
        solver.defend(&play(&pos, line[0]), &mut stop_at_once),
        Defence::Unknown
    );
}

/// In an ordinary game both sides have a king: a reply that takes the
/// attacker's king ends the game, whatever it leaves attacked. Here 先手's
/// lion on 8c attacks 後手's king; 後手's checks that leave it there are
/// answered by taking it, so 後手 has no mate by checks (the solver once
/// left that reply out and proved a mate of 23 plies).
#[test]
fn a_reply_that_takes_the_attacker_s_king_refutes_a_check() {
    let diagram = ChuPosition::from_sfen("2k9/12/12/7q4/1r4Nv4/12/12/12/12/12/4T7/3K8 b - 1")
        .expect("a position");
    let threat = parse_usi_in(Profile::Jcsa, &diagram, "6e8c").expect("the lion's move");
    let pos = play(&diagram, threat);
    assert_eq!(pos.to_move(), Side::Second);
    let mut solver = MateSearch::with_entries(Profile::Jcsa, 1 << 17);
    let mut polls = 0;
    let answer = solver.solve(&pos, &mut || {
        polls += 1;
        polls > 4000
    });
    assert!(!matches!(answer, Mate::Proved(_)), "{answer:?}");
    // 先手 to move there does take the king by force, in 7 plies.
    let mut solver = MateSearch::with_entries(Profile::Jcsa, 1 << 17);
    match solver.solve(&diagram, &mut || false) {
        Mate::Proved(line) => {
            assert_eq!(line.len(), 7);
            check_line(Profile::Jcsa, &diagram, &line).expect("a mate by checks");
        }
        other => panic!("{other:?}"),
    }
}
