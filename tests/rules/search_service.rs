//! The searches a web page's worker runs for the CPU: a request posted as
//! text gives exactly the answer the desktop's thread finds for the same
//! position and plan, in every game that searches, however the worker
//! slices its time; bad messages are refused with a reason.

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use std::sync::Arc;
use yorimichi::rules::chu::game::Chu;
use yorimichi::rules::data::{self, Strength};
use yorimichi::rules::game::Game;
use yorimichi::rules::musashi::solve::Solver;
use yorimichi::rules::musashi::{Musashi, MusashiPos, MusashiRules};
use yorimichi::rules::rulebook::Rulebook;
use yorimichi::rules::search::{SearchPlan, SearchResult, Searcher};
use yorimichi::rules::search_service::{
    Reply, SearchAnswer, SearchRequest, SearchService, read_reply, search_message,
};

/// A clock that never moves: the plans here have no time for a move, so
/// the answers depend on the counted work alone.
fn still() -> f64 {
    0.0
}

/// The position after `plies` moves, each the first legal one.
fn after<G: Game>(game: &G, plies: usize) -> (G::Pos, Vec<u64>) {
    let mut pos = game.start();
    let mut history = vec![game.hash(&pos)];
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        game.legal_moves(&pos, &mut moves);
        pos = game.play(&pos, moves[moves.len() / 2]);
        history.push(game.hash(&pos));
    }
    (pos, history)
}

/// Runs `request` through a service that stops every `every`-th look at
/// the clock, and returns its answer and how many slices it took.
fn served<G: Rulebook>(
    request: &SearchRequest<G>,
    every: u32,
) -> (Option<SearchResult<G::Move>>, u32)
where
    G::Pos: Serialize,
{
    let mut service = SearchService::new(still);
    let message = search_message(7, request).expect("the request writes");
    assert_eq!(service.input(&message), None, "accepted");
    let mut looks = 0u32;
    let mut slices = 0u32;
    loop {
        slices += 1;
        assert!(slices < 1_000_000, "the search never ends");
        let Some(reply) = service.think(&mut || {
            looks += 1;
            looks.is_multiple_of(every)
        }) else {
            continue;
        };
        assert!(!service.busy());
        let (id, reply) = read_reply::<Option<SearchAnswer<G::Move>>>(&reply).expect("a reply");
        assert_eq!(id, 7);
        let Reply::Answer(answer) = reply else {
            panic!("refused: {reply:?}");
        };
        return (answer.map(|a| a.into_result()), slices);
    }
}

/// What the desktop's thread finds: one search, not sliced.
fn direct<G: Rulebook>(request: &SearchRequest<G>) -> Option<SearchResult<G::Move>>
where
    G::Pos: Clone,
{
    let game = G::create(&request.rules).expect("rules");
    let forbidden = request.forbidden.clone();
    Searcher::new(
        &game,
        request.pos.clone(),
        &request.history,
        request.plan.clone(),
    )
    .restrict_root(|m| !forbidden.contains(&m))
    .run(&game)
}

fn request<G: Rulebook>(game: &G, plies: usize, plan: SearchPlan) -> SearchRequest<G> {
    let (pos, history) = after(game, plies);
    SearchRequest {
        rules: game.rules().clone(),
        pos,
        history,
        plan,
        forbidden: Vec::new(),
        score_single: false,
    }
}

/// The strongest level's plan without its clock (a count of work).
fn strong_plan(level: &yorimichi::rules::search::CpuLevel) -> SearchPlan {
    SearchPlan {
        time_ms: None,
        ..level.plan(&mut StdRng::seed_from_u64(3))
    }
}

fn agrees<G: Rulebook>(request: SearchRequest<G>)
where
    G::Pos: Serialize + Clone,
{
    let expected = direct(&request);
    assert!(expected.is_some(), "the position has a move");
    for every in [1, 13, u32::MAX] {
        let (found, slices) = served(&request, every);
        assert_eq!(found, expected, "{} sliced every {every}", G::ID.id());
        if every == 1 {
            assert!(slices > 1, "{}: {slices} slices for {found:?}", G::ID.id());
        }
    }
}

#[test]
fn every_game_answers_through_messages_what_it_answers_in_a_thread() {
    let hasami = data::hasami_presets().expect("presets");
    let game = yorimichi::rules::hasami::Hasami::create(&hasami.presets[0].rules).expect("rules");
    agrees(request(
        &game,
        6,
        strong_plan(hasami.cpu.get(Strength::Strong)),
    ));

    let fox = data::foxgeese_presets().expect("presets");
    let game = yorimichi::rules::foxgeese::FoxGeese::create(&fox.presets[0].rules).expect("rules");
    agrees(request(
        &game,
        5,
        strong_plan(fox.cpu.get(Strength::Strong)),
    ));

    let musashi = data::musashi_presets().expect("presets");
    let game =
        yorimichi::rules::musashi::Musashi::create(&musashi.presets[0].rules).expect("rules");
    agrees(request(
        &game,
        4,
        strong_plan(musashi.cpu.get(Strength::Normal)),
    ));

    let game = Chu::create(&Default::default()).expect("rules");
    let mut chu = request(&game, 4, SearchPlan::fixed(4, 60_000));
    chu.plan.null_move = true;
    chu.plan.reductions = true;
    // A forbidden move (a rule about the game so far) stays out of the
    // worker's answer too.
    let first = direct(&chu).expect("a move").best;
    chu.forbidden.push(first);
    let (found, _) = served(&chu, 5);
    assert_ne!(found.as_ref().map(|r| r.best), Some(first));
    agrees(chu);
}

/// 十六むさし played until every 子 is taken: small tables, solved in a
/// second.
const FOUR_KO_TABLES: u64 = 3_000_000;

/// A position of four 子 under those rules, and the game with its tables
/// solved as the desktop solves them.
struct FourKo {
    rules: MusashiRules,
    game: Musashi,
    pos: MusashiPos,
    with_tables: Musashi,
}

fn four_ko() -> FourKo {
    let rules = MusashiRules {
        oya_wins_at: 1,
        ..MusashiRules::STANDARD
    };
    let game = Musashi::create(&rules).expect("rules");
    let pos = game
        .position_from_text("K...K-./......./.O...../......./K.K..-. oya")
        .expect("a position of four 子");
    let mut with_tables = game.clone();
    let tables = Solver::for_game(&game, FOUR_KO_TABLES)
        .expect("a layer fits")
        .finish();
    with_tables
        .set_endgame(Arc::new(tables))
        .expect("tables fit");
    FourKo {
        rules,
        game,
        pos,
        with_tables,
    }
}

/// A 十六むさし search whose plan reads the exact tables is answered at
/// once without them, as on the desktop, while the worker solves them
/// between searches; the next search reads them, as the desktop's game
/// with the same tables does.
#[test]
fn a_musashi_search_reads_the_tables_the_worker_solves_between_searches() {
    let FourKo {
        rules,
        game,
        pos,
        with_tables,
    } = four_ko();
    let mut plan = SearchPlan::fixed(4, 200_000);
    plan.exact = true;
    let req = SearchRequest::<Musashi> {
        rules,
        pos,
        history: vec![game.hash(&pos)],
        plan,
        forbidden: Vec::new(),
        score_single: false,
    };
    let read = |g: &Musashi| Searcher::new(g, pos, &req.history, req.plan.clone()).run(g);
    let (without, with) = (read(&game), read(&with_tables));
    assert_ne!(
        without, with,
        "the tables change the reading of this position"
    );

    let mut service = SearchService::with_tables_budget(still, FOUR_KO_TABLES);
    let answer = |service: &mut SearchService, id: u64| {
        assert_eq!(
            service.input(&search_message(id, &req).expect("writes")),
            None
        );
        let reply = service.think(&mut || false).expect("an answer");
        match read_reply::<Option<SearchAnswer<<Musashi as Game>::Move>>>(&reply) {
            Ok((_, Reply::Answer(a))) => a.map(|a| a.into_result()),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        answer(&mut service, 1),
        without,
        "answered at once, without tables"
    );
    assert!(service.busy(), "solving the tables after the search");
    assert!(!service.has_tables_for(&rules));
    let mut looks = 0u32;
    let mut slices = 0;
    while service.busy() {
        slices += 1;
        assert_eq!(
            service.think(&mut || {
                looks += 1;
                looks.is_multiple_of(3)
            }),
            None
        );
    }
    assert!(slices > 10, "solved in {slices} slices");
    assert!(service.has_tables_for(&rules));
    assert_eq!(answer(&mut service, 2), with, "the next search reads them");
}

/// A review's 十六むさし positions are judged by the exact tables, which
/// the worker solves first, in slices, where it has none yet: the
/// verdicts are those of the desktop's game holding the same tables, and
/// a second review of the same rules is answered at once. Rules whose
/// tables fit no budget get `None`; no other game has tables.
#[test]
fn a_review_s_verdicts_wait_for_the_tables_the_worker_solves() {
    use yorimichi::rules::search_service::{Verdicts, VerdictsRequest, verdicts_message};
    let FourKo {
        rules,
        game,
        pos: start,
        with_tables,
    } = four_ko();
    let mut positions = vec![start];
    let mut moves = Vec::new();
    for _ in 0..6 {
        let pos = *positions.last().expect("one");
        moves.clear();
        game.legal_moves(&pos, &mut moves);
        let Some(&mv) = moves.first() else { break };
        positions.push(game.play(&pos, mv));
    }
    let expected: Vec<_> = positions.iter().map(|p| with_tables.exact(p)).collect();
    assert!(
        expected.iter().any(Option::is_some),
        "the tables know some of these positions"
    );
    let request = VerdictsRequest { rules, positions };
    let message = |id| verdicts_message(id, &request).expect("writes");
    let verdicts = |reply: &str| match read_reply::<Verdicts>(reply) {
        Ok((_, Reply::Answer(v))) => v,
        other => panic!("{other:?}"),
    };

    let mut service = SearchService::with_tables_budget(still, FOUR_KO_TABLES);
    assert_eq!(service.input(&message(1)), None);
    let mut looks = 0u32;
    let mut slices = 0;
    let reply = loop {
        slices += 1;
        if let Some(reply) = service.think(&mut || {
            looks += 1;
            looks.is_multiple_of(3)
        }) {
            break reply;
        }
    };
    assert!(slices > 10, "solved in {slices} slices");
    assert!(reply.starts_with("answer 1\n"), "{reply}");
    assert_eq!(verdicts(&reply), Some(expected.clone()));
    assert!(service.has_tables_for(&rules));
    assert_eq!(service.input(&message(2)), None);
    let again = service.think(&mut || true).expect("answered at once");
    assert_eq!(verdicts(&again), Some(expected));

    let mut too_small = SearchService::with_tables_budget(still, 1);
    assert_eq!(too_small.input(&message(3)), None);
    let reply = too_small.think(&mut || false).expect("an answer");
    assert_eq!(verdicts(&reply), None, "no tables fit");

    let refused = service.input(&message(4).replace("musashi", "hasami"));
    assert!(
        refused
            .as_deref()
            .is_some_and(|r| r.starts_with("refused 4 ")),
        "{refused:?}"
    );
}

#[test]
fn bad_messages_are_refused_with_a_reason_and_a_new_search_replaces_the_old() {
    let mut service = SearchService::new(still);
    for (message, why) in [
        ("hello", "not a message"),
        ("search x hasami\n()", "not a number"),
        ("search 3 go\n()", "no game"),
        ("search 4 hasami\n(rules: 5)", "does not read"),
        ("search 5 mawari\n()", "does not search"),
    ] {
        let reply = service.input(message).expect("a refusal");
        assert!(reply.starts_with("refused "), "{reply}");
        assert!(reply.contains(why), "{message:?}: {reply}");
        assert!(!service.busy());
    }
    let fox = data::foxgeese_presets().expect("presets");
    let game = yorimichi::rules::foxgeese::FoxGeese::create(&fox.presets[0].rules).expect("rules");
    let req = request(&game, 2, SearchPlan::fixed(6, 100_000));
    let first = search_message(1, &req).expect("writes");
    let second = search_message(2, &req).expect("writes");
    assert_eq!(service.input(&first), None);
    assert!(service.busy());
    // The first search is given up unanswered: the page has moved on.
    assert_eq!(service.input(&second), None);
    let reply = service.think(&mut || false).expect("an answer");
    assert!(reply.starts_with("answer 2\n"), "{reply}");
    // A cancelled search leaves nothing to do, and no answer comes.
    assert_eq!(service.input(&first), None);
    assert_eq!(service.input("cancel 1"), None);
    assert!(!service.busy());
    assert_eq!(service.think(&mut || false), None);
    // A cancel for another search leaves the one in hand.
    assert_eq!(service.input(&second), None);
    assert_eq!(service.input("cancel 1"), None);
    assert!(service.busy());
}

/// A move off a 詰め中将棋 problem's line is judged in the worker as the
/// desktop's thread judges it: a win all the same, a refutation, or no
/// check (kinu01 of 中将棊絹篩: its every check and a quiet move).
#[test]
fn a_move_off_a_problem_s_line_is_judged_through_messages_as_in_a_thread() {
    use yorimichi::rules::chu::end::royal_in_danger;
    use yorimichi::rules::chu::game::ChuRules;
    use yorimichi::rules::chu::position::ChuPosition;
    use yorimichi::rules::rulebook::OffLine;
    use yorimichi::rules::search_service::{OffLineRequest, off_line_message};
    let sfen = include_str!("../data/chu-tsume/kinuburui.tsv")
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0] == "kinu01")
        .map(|f| f[2])
        .expect("kinu01");
    let pos = ChuPosition::from_sfen_start(sfen).expect("sfen");
    let chu = Chu::create(&ChuRules::JCSA).expect("rules");
    let mut moves = Vec::new();
    chu.legal_moves(&pos, &mut moves);
    let attacker = pos.to_move();
    let checks = moves
        .iter()
        .filter(|&&m| royal_in_danger(&chu.play(&pos, m), attacker.opponent()));
    let quiet = moves
        .iter()
        .find(|&&m| !royal_in_danger(&chu.play(&pos, m), attacker.opponent()));
    let mut kinds = std::collections::BTreeSet::new();
    let mut service = SearchService::new(still);
    for (id, &mv) in (1..).zip(checks.chain(quiet)) {
        let request = OffLineRequest::<Chu> {
            rules: ChuRules::JCSA,
            pos: pos.clone(),
            mv,
            most_asks: 12_000,
            most_ms: 1e9,
        };
        let mut asks = 0;
        let expected = chu.off_line(&pos, mv, &mut || {
            asks += 1;
            asks > 12_000
        });
        let message = off_line_message(id, &request).expect("writes");
        assert_eq!(service.input(&message), None);
        let reply = service.think(&mut || true).expect("judged in one go");
        let Ok((got_id, Reply::Answer(judged))) =
            read_reply::<Option<OffLine<<Chu as Game>::Move>>>(&reply)
        else {
            panic!("{reply}");
        };
        assert_eq!((got_id, &judged), (id, &expected), "{}", mv.usi());
        kinds.insert(format!("{:?}", judged).chars().take(8).collect::<String>());
    }
    assert!(
        kinds.len() >= 3,
        "wins, refutations and no check: {kinds:?}"
    );
}
