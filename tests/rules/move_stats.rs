//! `selfplay --stats` (what makes each CPU level's character measurable):
//! [`Game::move_stat`] on hand-set positions. A 子 move that opens a gap
//! next to 親 counts, one that does not, does not; a goose move that leaves
//! a goose for the fox to jump counts; a はさみ将棋 move into a square
//! the opponent can sandwich at once counts; 親 stepping into the 雪隠 or a
//! corner and the fox stepping where it has at most one move are traps.

use yorimichi::rules::data;
use yorimichi::rules::foxgeese::{FOX, FoxGeese, FoxGeeseMove, FoxGeeseRules, GEESE};
use yorimichi::rules::game::{Game, Side};
use yorimichi::rules::hasami::{Hasami, HasamiMove, HasamiPos, HasamiRules};
use yorimichi::rules::musashi::{KO, Musashi, MusashiMove, MusashiPos, MusashiRules, OYA};

/// `move_stat` of a legal move, checking that it is legal and the game
/// goes on after it.
fn stat<G: Game>(g: &G, pos: &G::Pos, mv: G::Move) -> Option<bool> {
    let mut legal = Vec::new();
    g.legal_moves(pos, &mut legal);
    assert!(legal.contains(&mv), "{mv:?} is not legal");
    assert_eq!(g.outcome(pos), None);
    let after = g.play(pos, mv);
    g.move_stat(pos, mv, &after)
}

fn musashi() -> Musashi {
    let rules = MusashiRules::STANDARD;
    Musashi::new(data::board(rules.board_name()).unwrap(), rules).unwrap()
}

fn mp(g: &Musashi, name: &str) -> usize {
    g.board().find(name).unwrap()
}

fn mpos(g: &Musashi, ko: &[&str], oya: usize, to_move: Side) -> MusashiPos {
    let ko: Vec<usize> = ko.iter().map(|n| mp(g, n)).collect();
    g.position(&ko, oya, to_move).unwrap()
}

fn mmv(from: usize, to: usize) -> MusashiMove {
    MusashiMove {
        from: from as u8,
        to: to as u8,
    }
}

#[test]
fn a_ko_move_that_opens_a_gap_counts() {
    let g = musashi();
    assert_eq!(g.stat_label(KO), ("子", "takeable"));
    // 親 on c4: a3→b3 makes b5–b4–b3 a gap next to 親; e1→d1 opens none.
    let q = mpos(&g, &["b5", "a3", "e4", "e3", "a1", "e1"], mp(&g, "c4"), KO);
    assert_eq!(stat(&g, &q, mmv(mp(&g, "a3"), mp(&g, "b3"))), Some(true));
    assert_eq!(stat(&g, &q, mmv(mp(&g, "e1"), mp(&g, "d1"))), Some(false));
    // The same kind of gap far from 親 is safe.
    let far = mpos(&g, &["b5", "d4", "a1", "b1", "c1", "d1"], mp(&g, "e2"), KO);
    assert_eq!(stat(&g, &far, mmv(mp(&g, "d4"), mp(&g, "d5"))), Some(false));
    let near = mpos(&g, &["b5", "d4", "a1", "b1", "c1", "d1"], mp(&g, "c4"), KO);
    assert_eq!(stat(&g, &near, mmv(mp(&g, "d4"), mp(&g, "d5"))), Some(true));
}

#[test]
fn oya_stepping_into_the_setchin_or_a_corner_is_a_trap() {
    let g = musashi();
    assert_eq!(g.stat_label(OYA), ("親", "trap"));
    let at = |x, y| g.board().at(x, y).unwrap();
    let ko: Vec<usize> = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0), (1, 2)]
        .iter()
        .map(|&(x, y)| at(x, y))
        .collect();
    let mpos = |oya| g.position(&ko, oya, OYA).unwrap();
    // From the apex (4,2) into the 雪隠, or back into the square.
    let q = mpos(at(4, 2));
    assert_eq!(stat(&g, &q, mmv(at(4, 2), at(5, 2))), Some(true));
    assert_eq!(stat(&g, &q, mmv(at(4, 2), at(3, 2))), Some(false));
    // From (3,4) along the edge into the corner (4,4), or not.
    let q = mpos(at(3, 4));
    assert!(g.is_corner(at(4, 4)));
    assert_eq!(stat(&g, &q, mmv(at(3, 4), at(4, 4))), Some(true));
    assert_eq!(stat(&g, &q, mmv(at(3, 4), at(2, 4))), Some(false));
}

fn foxgeese() -> FoxGeese {
    let rules = FoxGeeseRules::STANDARD;
    FoxGeese::new(data::board(rules.board_name()).unwrap(), rules).unwrap()
}

/// 13 geese: the bottom arm and row 4, with one goose moved to `extra`.
fn flock(extra: [(i32, i32); 2]) -> Vec<(i32, i32)> {
    let mut v = vec![
        (0, 4),
        (1, 4),
        (2, 4),
        (3, 4),
        (4, 4),
        (5, 4),
        (6, 4),
        (2, 5),
        (3, 5),
        (4, 5),
        (2, 6),
    ];
    v.extend(extra);
    v
}

#[test]
fn a_goose_move_that_leaves_a_goose_to_jump_counts() {
    let g = foxgeese();
    assert_eq!(g.stat_label(GEESE), ("geese", "takeable"));
    let at = |x, y| g.board().at(x, y).unwrap();
    let geese: Vec<usize> = flock([(3, 3), (3, 6)])
        .iter()
        .map(|&(x, y)| at(x, y))
        .collect();
    let q = g.position(&geese, at(3, 1), GEESE).unwrap();
    // (3,3)→(3,2): next to the fox, with (3,3) empty behind it.
    let open = FoxGeeseMove::step(at(3, 3), at(3, 2));
    assert_eq!(stat(&g, &q, open), Some(true));
    // (0,4)→(0,3): nowhere near the fox.
    let safe = FoxGeeseMove::step(at(0, 4), at(0, 3));
    assert_eq!(stat(&g, &q, safe), Some(false));
}

#[test]
fn a_fox_move_to_a_point_with_one_way_out_is_a_trap() {
    let g = foxgeese();
    assert_eq!(g.stat_label(FOX), ("fox", "trap"));
    let at = |x, y| g.board().at(x, y).unwrap();
    let geese: Vec<usize> = flock([(2, 0), (4, 0)])
        .iter()
        .map(|&(x, y)| at(x, y))
        .collect();
    let q = g.position(&geese, at(3, 1), FOX).unwrap();
    // On (3,0) between two geese it cannot jump, the fox has one step back.
    let up = FoxGeeseMove::step(at(3, 1), at(3, 0));
    assert_eq!(stat(&g, &q, up), Some(true));
    assert_eq!(g.fox_moves_from(&g.play(&q, up)), 1);
    let down = FoxGeeseMove::step(at(3, 1), at(3, 2));
    assert_eq!(stat(&g, &q, down), Some(false));
}

const EMPTY: &str = ".........";

#[test]
fn a_hasami_move_into_a_sandwichable_square_counts() {
    let g = Hasami::new(data::board("shogi9").unwrap(), HasamiRules::STANDARD).unwrap();
    assert_eq!(g.stat_label(Side::First), ("first", "takeable"));
    let rows = [
        "....S....",
        EMPTY,
        EMPTY,
        EMPTY,
        "..S......",
        EMPTY,
        EMPTY,
        EMPTY,
        "...F....F",
    ];
    let q = HasamiPos::from_rows(&rows, Side::First, [0, 0]).unwrap();
    let mv = |from: &str, to: &str| HasamiMove {
        from: g.board().find(from).unwrap() as u8,
        to: g.board().find(to).unwrap() as u8,
    };
    // 6九→6五 lands next to 7五; 5一→5五 then sandwiches it.
    assert_eq!(stat(&g, &q, mv("6九", "6五")), Some(true));
    // 6九→6八 stands where no sandwich reaches it.
    assert_eq!(stat(&g, &q, mv("6九", "6八")), Some(false));
    // The same for the second side's moves.
    let q = HasamiPos::from_rows(&rows, Side::Second, [0, 0]).unwrap();
    // 7五→7九 stays safe; 5一→5九 lands next to 6九, and 1九→4九 then
    // sandwiches it.
    assert_eq!(stat(&g, &q, mv("7五", "7九")), Some(false));
    assert_eq!(stat(&g, &q, mv("5一", "5九")), Some(true));
}

/// A careful level (つよい 十六むさし's 子: 「すき間を作らずに囲んできます」)
/// plays a move that leaves a pair takeable only when its reading says
/// every careful move loses; where the same reading without the style
/// would leave a gap, it does not.
#[test]
fn a_careful_level_leaves_a_gap_only_when_every_other_move_loses() {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    use yorimichi::rules::search::{Judgement, SearchPlan, Searcher, mate_plies};
    let g = musashi();
    let reading = |careful: bool| SearchPlan {
        judgement: Judgement::Expert,
        careful,
        ..SearchPlan::fixed(14, 100_000)
    };
    // A 子 move that leaves 親 a pair to take at once.
    let careless =
        |pos: &MusashiPos, mv: MusashiMove| g.move_stat(pos, mv, &g.play(pos, mv)) == Some(true);
    let mut rng = StdRng::seed_from_u64(7);
    let (mut bitten, mut looked) = (0, 0);
    for game in 0..6 {
        // Positions from games of ordinary, noisy play.
        let mut pos = g.start();
        for ply in 0..60 {
            if g.outcome(&pos).is_some() {
                break;
            }
            if g.side_to_move(&pos) == KO && ply >= 6 {
                looked += 1;
                let plain = Searcher::new(&g, pos, &[], reading(false)).run(&g).unwrap();
                let styled = Searcher::new(&g, pos, &[], reading(true)).run(&g).unwrap();
                if careless(&pos, styled.best) {
                    let careful_only = Searcher::new(&g, pos, &[], reading(false))
                        .restrict_root(|m| !careless(&pos, m))
                        .run(&g);
                    if let Some(r) = careful_only {
                        assert!(
                            mate_plies(r.score).is_some_and(|p| p < 0)
                                || mate_plies(styled.score).is_some_and(|p| p > 0),
                            "game {game} ply {ply}: a gap left although a careful move scores {}",
                            r.score
                        );
                    }
                } else if careless(&pos, plain.best) {
                    bitten += 1;
                }
            }
            let plan = SearchPlan {
                noise: 40,
                seed: rng.random(),
                ..SearchPlan::fixed(2, 4_000)
            };
            let mv = Searcher::new(&g, pos, &[], plan).run(&g).unwrap().best;
            pos = g.play(&pos, mv);
        }
    }
    assert!(looked >= 60, "{looked} positions");
    assert!(
        bitten > 0,
        "the style never changed a move in {looked} positions"
    );
}
