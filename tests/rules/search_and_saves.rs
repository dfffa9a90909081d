//! The shared search (on はさみ将棋 positions) and the save format.

use yorimichi::games::session::{GameSave, Match, MatchSetup, Opponent};
use yorimichi::shell::save::{LoadError, decode};

type HasamiMatch = Match<Hasami>;
type HasamiSave = GameSave<HasamiRules, HasamiMove>;
use rand::{SeedableRng, rngs::StdRng};
use yorimichi::rules::data::{self, Strength};
use yorimichi::rules::game::{Game, Side};
use yorimichi::rules::hasami::{Hasami, HasamiMove, HasamiPos, HasamiRules};
use yorimichi::rules::search::{CpuLevel, Judgement, SearchPlan, Searcher, Step};

fn game() -> Hasami {
    Hasami::new(data::board("shogi9").unwrap(), HasamiRules::STANDARD).unwrap()
}

fn plan(depth: u8, quiescence: bool) -> SearchPlan {
    SearchPlan {
        quiescence,
        seed: 3,
        ..SearchPlan::fixed(depth, 1_000_000)
    }
}

fn best(g: &Hasami, pos: HasamiPos, p: SearchPlan) -> HasamiMove {
    Searcher::new(g, pos, &[g.hash(&pos)], p)
        .run(g)
        .expect("a move")
        .best
}

fn point(g: &Hasami, name: &str) -> u8 {
    g.board().find(name).unwrap() as u8
}

const E: &str = ".........";

#[test]
fn takes_a_capture_at_depth_one() {
    let g = game();
    let pos = HasamiPos::from_rows(
        &[E, E, E, E, "....SF...", E, E, "S........", "...F....."],
        Side::First,
        [0, 0],
    )
    .unwrap();
    let mv = best(&g, pos, plan(1, false));
    assert_eq!((mv.from, mv.to), (point(&g, "6九"), point(&g, "6五")));
}

#[test]
fn reading_the_reply_avoids_a_sandwich() {
    let g = game();
    // 5九→5三 would sit between 6三's と and the square 4三 that 4一's と
    // reaches next move. Depth 2 sees it; the move is never chosen.
    let pos = HasamiPos::from_rows(
        &[".....S...", E, "...S.....", E, E, E, E, E, "....F...."],
        Side::First,
        [0, 0],
    )
    .unwrap();
    let bad = HasamiMove {
        from: point(&g, "5九"),
        to: point(&g, "5三"),
    };
    for seed in 0..10 {
        let p = SearchPlan {
            seed,
            ..plan(2, true)
        };
        assert_ne!(best(&g, pos, p), bad, "seed {seed}");
    }
}

#[test]
fn a_sliced_search_finds_what_a_whole_search_finds() {
    let g = game();
    let pos = g.start();
    let whole = Searcher::new(&g, pos, &[g.hash(&pos)], plan(4, true))
        .run(&g)
        .unwrap();
    let mut sliced = Searcher::new(&g, pos, &[g.hash(&pos)], plan(4, true));
    let mut slices = 0;
    let result = loop {
        let mut calls = 0;
        match sliced.step(&g, &mut || {
            calls += 1;
            calls > 3
        }) {
            Step::Pending => slices += 1,
            Step::Done(r) => break r,
            Step::NoMove => panic!("the start has moves"),
        }
        assert!(slices < 100_000, "the sliced search must finish");
    };
    assert!(slices > 1, "the search was really cut into slices");
    assert_eq!(result.depth, whole.depth);
    assert_eq!(result.best, whole.best);
}

#[test]
fn the_node_budget_is_kept() {
    let g = game();
    let pos = g.start();
    let p = SearchPlan {
        nodes: 5_000,
        ..plan(20, true)
    };
    let r = Searcher::new(&g, pos, &[g.hash(&pos)], p).run(&g).unwrap();
    assert!(r.nodes < 5_000 + 512, "{} nodes", r.nodes);
    assert!(r.depth >= 1);
}

#[test]
fn a_finished_position_has_no_move() {
    let g = game();
    let pos = HasamiPos::from_rows(
        &["SF.......", "F........", E, E, E, E, E, E, "........F"],
        Side::Second,
        [0, 0],
    )
    .unwrap();
    let mut s = Searcher::new(&g, pos, &[g.hash(&pos)], plan(3, true));
    assert_eq!(s.step(&g, &mut || false), Step::NoMove);
}

#[test]
fn levels_differ_in_the_way_the_seed_describes() {
    let presets = data::hasami_presets().unwrap();
    let (easy, normal, strong) = (
        presets.cpu.get(Strength::Easy),
        presets.cpu.get(Strength::Normal),
        presets.cpu.get(Strength::Strong),
    );
    assert!(easy.depth < normal.depth && normal.depth < strong.depth);
    assert!(easy.blunder_rate >= normal.blunder_rate && normal.blunder_rate > strong.blunder_rate);
    assert!(
        !easy.quiescence,
        "やさしい does not read replies, so it steps into sandwiches"
    );
}

fn setup() -> MatchSetup<HasamiRules> {
    MatchSetup {
        undo_allowed: false,
        ..MatchSetup::new(
            Opponent::Cpu(Strength::Normal),
            Side::Second,
            "standard",
            HasamiRules::STANDARD,
        )
    }
}

/// "Your turn" and "you win" are for a side this device's player holds: a
/// room's watcher holds none, nor do two players at one device or 検討.
#[test]
fn only_a_player_against_another_holds_a_side_of_their_own() {
    let with = |opponent, watching| MatchSetup {
        watching,
        ..MatchSetup::new(opponent, Side::Second, "standard", HasamiRules::STANDARD)
    };
    assert_eq!(
        with(Opponent::Cpu(Strength::Normal), false).own_side(),
        Some(Side::Second)
    );
    assert_eq!(with(Opponent::Remote, false).own_side(), Some(Side::Second));
    assert_eq!(with(Opponent::Remote, true).own_side(), None);
    assert_eq!(with(Opponent::Human, false).own_side(), None);
    assert_eq!(with(Opponent::Analysis, false).own_side(), None);
}

#[test]
fn a_save_replays_to_the_same_game() {
    let mut m = HasamiMatch::new(setup()).unwrap();
    let mut moves = Vec::new();
    for _ in 0..12 {
        moves.clear();
        m.game.legal_moves(m.record.current(), &mut moves);
        let mv = moves[moves.len() / 3];
        m.record.play(&m.game, mv).unwrap();
    }
    let text = ron::to_string(&m.to_save()).unwrap();
    let back: HasamiSave = ron::from_str(&text).unwrap();
    let again = HasamiMatch::from_save(back).unwrap();
    assert_eq!(again.record.moves(), m.record.moves());
    assert_eq!(
        again.game.hash(again.record.current()),
        m.game.hash(m.record.current())
    );
    assert_eq!(again.setup, m.setup);
}

#[test]
fn a_save_from_before_imported_positions_still_loads() {
    // Saves written by 0.2 have no `start` field.
    let m = HasamiMatch::new(setup()).unwrap();
    let text = ron::to_string(&m.to_save()).unwrap();
    assert!(text.contains("start:None"), "{text}");
    let old = text.replace("start:None,", "");
    assert!(!old.contains("start"), "{old}");
    let back: HasamiSave = ron::from_str(&old).unwrap();
    assert_eq!(back.start, None);
    assert!(HasamiMatch::from_save(back).is_ok());
}

#[test]
fn a_save_with_an_illegal_move_is_refused() {
    let save = HasamiSave {
        setup: setup(),
        start: None,
        moves: vec![HasamiMove { from: 0, to: 80 }],
        elapsed: 0.0,
    };
    let e = HasamiMatch::from_save(save).err().expect("refused");
    assert!(e.contains("move 1"), "{e}");
}

#[test]
fn saves_of_another_version_or_kind_are_refused() {
    let body = ron::to_string(&1u32).unwrap();
    let other_version = format!("(version: 99, kind: \"save.hasami\", body: {body:?})");
    assert!(
        matches!(decode::<u32>("save.hasami", &other_version), Err(LoadError::Corrupt(e)) if e.contains("version 99"))
    );
    let other_kind = format!("(version: 1, kind: \"save.musashi\", body: {body:?})");
    assert!(
        matches!(decode::<u32>("save.hasami", &other_kind), Err(LoadError::Corrupt(e)) if e.contains("belongs to"))
    );
    assert!(matches!(
        decode::<u32>("save.hasami", "(version: 1, kind:"),
        Err(LoadError::Corrupt(_))
    ));
    let good = format!("(version: 1, kind: \"save.hasami\", body: {body:?})");
    assert_eq!(decode::<u32>("save.hasami", &good), Ok(1));
}

#[test]
fn plain_levels_and_plain_blunders_judge_without_looking_for_threats() {
    let level = CpuLevel {
        depth: 4,
        nodes: 1_000,
        quiescence: true,
        blunder_rate: 0.5,
        blunder_depth: 2,
        noise: 0,
        endgame_tables: false,
        plain_eval: false,
        plain_blunders: true,
        expert_eval: false,
        time_ms: Some(250),
        null_move: false,
        careful: false,
        late_move_reductions: true,
    };
    let mut rng = StdRng::seed_from_u64(1);
    let plans: Vec<SearchPlan> = (0..100).map(|_| level.plan(&mut rng)).collect();
    let (blunders, full): (Vec<_>, Vec<_>) = plans.iter().partition(|p| p.depth == 2);
    assert!(!blunders.is_empty() && !full.is_empty());
    // A blunder is a plain shallow reading: nothing reduced.
    assert!(full.iter().all(|p| p.reductions && p.futility));
    assert!(blunders.iter().all(|p| !p.reductions && !p.futility));
    assert!(
        blunders
            .iter()
            .all(|p| p.judgement == Judgement::Oversight && !p.quiescence)
    );
    assert!(
        full.iter()
            .all(|p| p.judgement == Judgement::Ordinary && p.quiescence)
    );
    let plain_level = CpuLevel {
        plain_eval: true,
        blunder_rate: 0.0,
        ..level.clone()
    };
    assert_eq!(plain_level.plan(&mut rng).judgement, Judgement::Plain);
    assert_eq!(level.hint_plan().judgement, Judgement::Ordinary);
    // Without plain blunders a blunder is only a shallower reading.
    let shallow = CpuLevel {
        plain_blunders: false,
        blunder_rate: 1.0,
        ..level.clone()
    };
    let p = shallow.plan(&mut rng);
    assert!(p.depth == 2 && p.judgement == Judgement::Ordinary);
    // An expert level judges as an expert, in its full readings and its
    // hints alike.
    let expert = CpuLevel {
        plain_blunders: false,
        expert_eval: true,
        blunder_rate: 0.0,
        ..level.clone()
    };
    assert_eq!(expert.plan(&mut rng).judgement, Judgement::Expert);
    assert_eq!(expert.hint_plan().judgement, Judgement::Expert);
    // Every plan carries the level's time for a move.
    assert!(plans.iter().all(|p| p.time_ms == Some(250)));
    assert_eq!(level.hint_plan().time_ms, Some(250));
}

#[test]
fn a_clock_ends_the_search_with_its_deepest_finished_reading() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    use yorimichi::rules::chu::game::Chu;
    let chu = Chu::default();
    let deep = SearchPlan {
        depth: 30,
        nodes: u64::MAX,
        ..plan(1, true)
    };
    // A clock that says the time is up at its 40th reading: the search
    // ends early, after at least one whole iteration, with a legal move.
    let polls = Arc::new(AtomicU64::new(0));
    let seen = polls.clone();
    let mut timed = Searcher::new(&chu, chu.start(), &[], deep.clone())
        .with_clock(Box::new(move || seen.fetch_add(1, Ordering::Relaxed) >= 40));
    let r = timed.run(&chu).expect("a move");
    assert!(r.depth >= 1 && r.depth < 30, "depth {}", r.depth);
    assert!(polls.load(Ordering::Relaxed) > 40);
    let mut moves = Vec::new();
    chu.legal_moves(&chu.start(), &mut moves);
    assert!(moves.contains(&r.best));
    // A clock that is up at once still lets the first iteration finish.
    let mut at_once = Searcher::new(&chu, chu.start(), &[], deep).with_clock(Box::new(|| true));
    let r = at_once.run(&chu).expect("a move");
    assert_eq!(r.depth, 1);
}

/// A draw costs the side ahead a share of its lead (up to a limit), and
/// nothing to a side level or behind.
#[test]
fn contempt_makes_a_draw_cost_the_side_ahead() {
    use yorimichi::rules::search::contempt;
    assert_eq!(contempt(0), 0);
    assert_eq!(contempt(-800), 0);
    assert!(contempt(200) < 0);
    assert!(contempt(400) < contempt(200));
    assert_eq!(contempt(100_000), contempt(10_000));
    assert!(contempt(100_000) > -200, "never worth more than two pawns");
}

/// Reads `searcher` in slices that end at every `every`-th stop check.
fn read_in_slices<G: Game>(
    game: &G,
    mut searcher: Searcher<G>,
    every: u32,
) -> (yorimichi::rules::search::SearchResult<G::Move>, u64, u32) {
    let mut checks = 0u32;
    let mut slices = 0u32;
    loop {
        slices += 1;
        match searcher.step(game, &mut || {
            checks += 1;
            checks.is_multiple_of(every)
        }) {
            Step::Pending => continue,
            Step::Done(r) => return (r, searcher.nodes(), slices),
            Step::NoMove => panic!("no move"),
        }
    }
}

/// A search that resumes its slices (the 中将棋 engine in a web worker)
/// reads exactly what it reads in one piece, however short the slices:
/// the same nodes, the same move, value and line, in はさみ将棋 and in
/// 中将棋 with every pruning on.
#[test]
fn a_search_resumed_slice_by_slice_reads_what_it_reads_in_one_piece() {
    use yorimichi::rules::chu::game::{Chu, ChuRules};
    use yorimichi::rules::chu::position::ChuPosition;
    let hasami = game();
    let start = hasami.start();
    let history = [hasami.hash(&start)];
    let mut whole = Searcher::new(&hasami, start, &history, plan(5, true));
    let expected = whole.run(&hasami).expect("a move");
    for every in [1, 7] {
        let sliced = Searcher::new(&hasami, start, &history, plan(5, true)).resuming_slices();
        let (found, nodes, slices) = read_in_slices(&hasami, sliced, every);
        assert_eq!((&found, nodes), (&expected, whole.nodes()), "every {every}");
        assert!(slices > 1, "{slices} slices");
    }

    let chu = Chu {
        king_shelter: true,
        ..Chu::new(ChuRules::default())
    };
    let middle = "lfcsg2gso1l/a1bdtet2fc1/2r2q1k1r1a/mv1x+P1+Pp1bvm/3p3d2pp/1Q4h1p2h/P1piD5PP/5B2iPV1/2HP1ONPP3/MCVTED1GBT1M/A1S4XH1RA/LF1RGK2SCFL w - 142";
    for pos in [
        ChuPosition::start(),
        ChuPosition::from_sfen_start(middle).expect("sfen"),
    ] {
        let plan = SearchPlan {
            null_move: true,
            reductions: true,
            futility: true,
            contempt: true,
            ..SearchPlan::fixed(4, u64::MAX)
        };
        let history = [chu.hash(&pos)];
        let mut whole = Searcher::new(&chu, pos.clone(), &history, plan.clone());
        let expected = whole.run(&chu).expect("a move");
        let sliced = Searcher::new(&chu, pos.clone(), &history, plan).resuming_slices();
        let (found, nodes, slices) = read_in_slices(&chu, sliced, 1);
        assert_eq!((&found, nodes), (&expected, whole.nodes()));
        assert!(slices > 5, "{slices} slices");
    }
}
