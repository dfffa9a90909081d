//! 振り返り: a finished game of each two-player game opened from the result
//! screen and from its card on the list, read to the end by the CPU, a
//! marked mistake's better move checked against the search, and stepping
//! back and forth checked against the rules.

use std::time::{Duration, Instant};

use bevy::input::keyboard::Key;
use bevy::prelude::*;
use rand::{SeedableRng, rngs::StdRng};
use yorimichi::games::play::{
    ANALYSIS_LINES, Analysis, AnalysisArrowLabel, OpenReviewButton, PlayCommand, PlayMove, PlayUi,
};
use yorimichi::games::review::{
    Review, ReviewArrow, ReviewButton, ReviewCommand, ReviewEvalFill, ReviewMoveEntry, ReviewPiece,
    eval_share,
};
use yorimichi::games::session::{Match, MatchSetup, Opponent, Playable, Presets};
use yorimichi::headless::{self, click, find};
use yorimichi::rules::data::Strength;
use yorimichi::rules::game::Side;
use yorimichi::rules::review::{self, Reading};
use yorimichi::rules::rulebook::Rulebook;
use yorimichi::rules::search::Searcher;
use yorimichi::shell::Screen;
use yorimichi::shell::save::Store;
use yorimichi::shell::screens::CardButton;

use crate::common::{self, screen};

/// A game between two やさしい CPUs (seeded), ended by a resignation after
/// `max_plies` if the rules have not ended it: やさしい slips, so the
/// review has mistakes to mark.
fn finished_match<G: Playable>(
    app: &App,
    rules: G::Rules,
    seed: u64,
    max_plies: usize,
) -> Match<G> {
    let setup = MatchSetup::new(
        Opponent::Cpu(Strength::Normal),
        Side::First,
        "standard",
        rules,
    );
    let mut m = Match::<G>::new(setup).expect("a match");
    let easy = app.world().resource::<Presets<G>>().0.cpu.easy.clone();
    let mut rng = StdRng::seed_from_u64(seed);
    while m.record.outcome(&m.game).is_none() {
        if m.record.ply() >= max_plies {
            let side = m.game.side_to_move(m.record.current());
            m.record.resign(side);
            break;
        }
        let forbidden = m.record.forbidden_moves(&m.game);
        let mut searcher = Searcher::new(
            &m.game,
            m.record.current().clone(),
            m.record.hashes(),
            easy.plan(&mut rng),
        )
        .restrict_root(|mv| !forbidden.contains(&mv));
        let best = searcher.run(&m.game).expect("a move").best;
        m.record.play(&m.game, best).expect("a legal move");
    }
    m
}

/// The finished game `m` on the play screen, through its result screen
/// to 振り返る.
fn open_review<G: Playable>(app: &mut App, m: Match<G>) {
    common::open_play(app, m);
    update_until(app, "the result screen", Duration::from_secs(30), |a| {
        screen(a) == Screen::Result
    });
    let open = find::<OpenReviewButton>(app).expect("振り返る on the result screen");
    click(app, open);
    app.update();
    assert_eq!(screen(app), Screen::Review);
}

fn update_until(app: &mut App, what: &str, limit: Duration, done: impl Fn(&mut App) -> bool) {
    let started = Instant::now();
    while !done(app) {
        assert!(started.elapsed() < limit, "{what}: not within {limit:?}");
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The pieces on the review board are exactly the rules' at the ply shown.
fn assert_review_board<G: Playable>(app: &mut App) {
    let mut q = app.world_mut().query::<&ReviewPiece>();
    let mut shown: Vec<(usize, Side)> = q.iter(app.world()).map(|p| (p.point, p.side)).collect();
    shown.sort_by_key(|(p, _)| *p);
    let r = app.world().resource::<Review<G>>();
    let pos = &r.record.positions()[r.ply];
    let expected: Vec<(usize, Side)> = (0..r.game.graph().len())
        .filter_map(|p| r.game.piece_at(pos, p).map(|s| (p, s)))
        .collect();
    assert_eq!(shown, expected, "the review board at ply {}", r.ply);
}

/// A key pressed and released, a frame each.
fn send(app: &mut App, cmd: ReviewCommand) {
    app.world_mut().write_message(cmd);
    app.update();
    app.update();
}

fn ply<G: Playable>(app: &App) -> usize {
    app.world().resource::<Review<G>>().ply
}

/// The whole review of one game: from the result screen, read to the end,
/// a mistake's better move against the search, stepping, the move list,
/// the keys, then again from the list's card. Returns the review's figures.
fn review_flow<G: Playable>(name: &str, rules: G::Rules, seed: u64, max_plies: usize) {
    let (store, dir) = common::temp_store(name);
    let mut app = headless::app(store);
    app.update();
    let m = finished_match::<G>(&app, rules, seed, max_plies);
    let plies = m.record.ply();
    open_review(&mut app, m);
    let started = Instant::now();
    update_until(&mut app, "the reading", Duration::from_secs(400), |a| {
        a.world().resource::<Review<G>>().finished()
    });
    let reading_time = started.elapsed();
    if G::ID == yorimichi::rules::data::GameId::Musashi {
        // The review waited for the exact tables and tells each position's
        // verdict as the game holding them knows it.
        let r = app.world().resource::<Review<G>>();
        let exact = r.exact.as_ref().expect("the tables' verdicts");
        assert_eq!(exact.len(), plies + 1);
        for (verdict, pos) in exact.iter().zip(r.record.positions()) {
            assert_eq!(*verdict, r.game.exact(pos));
        }
    }
    let (mistakes, first) = {
        let r = app.world().resource::<Review<G>>();
        let judged = r.judged.as_ref().expect("judged");
        assert_eq!(judged.values.len(), plies + 1);
        let cap = G::REVIEW_MARGINS.cap;
        assert!(judged.values.iter().all(|v| v.abs() <= cap));
        let marked: Vec<usize> = (0..plies).filter(|&i| r.mistake_at(i).is_some()).collect();
        (marked.len(), marked.first().copied())
    };
    println!(
        "{}: {plies} plies read in {:.1} s, {mistakes} marked",
        G::ID.id(),
        reading_time.as_secs_f64()
    );
    let i = first.expect("a game between やさしい CPUs has a marked mistake");
    send(&mut app, ReviewCommand::GoTo(i));
    assert_eq!(ply::<G>(&app), i);
    assert_review_board::<G>(&mut app);
    {
        let r = app.world().resource::<Review<G>>();
        let better = r.suggestion().expect("the better move is shown");
        assert_ne!(better, r.record.moves()[i], "the better move is another");
        // What the search finds there, read afresh.
        let presets = &app.world().resource::<Presets<G>>().0;
        let plan = review::review_plan(&presets.cpu.strong, G::REVIEW_NODES);
        let fresh = review::read(
            &r.game,
            r.record.positions(),
            r.record.moves(),
            r.record.hashes(),
            r.outcome,
            i,
            plan,
        );
        match fresh {
            Reading::Searched { best, .. } => assert_eq!(best, better, "the search's move"),
            other => panic!("position {i} was not searched: {other:?}"),
        }
    }
    assert!(find::<ReviewArrow>(&mut app).is_some(), "the dotted arrow");
    {
        // The evaluation bar shows the position's value for the player.
        let mut bar = app.world_mut().query::<&ReviewEvalFill>();
        let shown: Vec<f32> = bar.iter(app.world()).map(|f| f.0).collect();
        let r = app.world().resource::<Review<G>>();
        let value = r.judged.as_ref().map(|j| j.values[i]);
        let expected = eval_share(value, G::REVIEW_MARGINS.cap);
        assert_eq!(shown, vec![expected], "the evaluation bar at ply {i}");
        assert!((0.0..=100.0).contains(&expected));
    }
    analysis_from_review::<G>(&mut app, i, plies);
    // Back and forth: a step back takes the move back along its path.
    send(&mut app, ReviewCommand::Previous);
    assert_eq!(ply::<G>(&app), i.saturating_sub(1));
    if i > 0 {
        let mut moving = app
            .world_mut()
            .query_filtered::<&ReviewPiece, With<yorimichi::shell::anim::Tween>>();
        let moving: Vec<usize> = moving.iter(app.world()).map(|p| p.point).collect();
        let r = app.world().resource::<Review<G>>();
        let from = r.game.move_path(r.record.moves()[i - 1])[0];
        assert_eq!(
            moving,
            vec![from],
            "the piece goes back to where it came from"
        );
    }
    assert_review_board::<G>(&mut app);
    send(&mut app, ReviewCommand::Next);
    assert_eq!(ply::<G>(&app), i.max(1));
    assert_review_board::<G>(&mut app);
    send(&mut app, ReviewCommand::Last);
    assert_eq!(ply::<G>(&app), plies);
    assert_review_board::<G>(&mut app);
    send(&mut app, ReviewCommand::Next);
    assert_eq!(ply::<G>(&app), plies, "no step past the end");
    send(&mut app, ReviewCommand::First);
    assert_eq!(ply::<G>(&app), 0);
    assert_review_board::<G>(&mut app);
    // The keys.
    common::tap_key(&mut app, KeyCode::ArrowRight, Key::ArrowRight);
    assert_eq!(ply::<G>(&app), 1, "→ steps forward");
    assert_review_board::<G>(&mut app);
    common::tap_key(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    assert_eq!(ply::<G>(&app), 0, "← steps back");
    common::tap_key(&mut app, KeyCode::ArrowRight, Key::ArrowRight);
    assert_eq!(ply::<G>(&app), 1);
    // Two presses within one frame (a slow phone's) are two steps.
    common::taps_in_one_frame(&mut app, KeyCode::ArrowRight, Key::ArrowRight, 2, None);
    app.update();
    assert_eq!(ply::<G>(&app), 3, "→ → in one frame steps twice");
    common::taps_in_one_frame(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft, 2, None);
    app.update();
    assert_eq!(ply::<G>(&app), 1, "← ← in one frame steps back twice");
    // The move list and the buttons.
    let entry = {
        let mut q = app.world_mut().query::<(Entity, &ReviewMoveEntry)>();
        q.iter(app.world())
            .find(|(_, e)| e.0 == plies)
            .map(|(e, _)| e)
            .expect("the last move in the list")
    };
    click(&mut app, entry);
    app.update();
    assert_eq!(ply::<G>(&app), plies);
    let first_button = {
        let mut q = app.world_mut().query::<(Entity, &ReviewButton)>();
        q.iter(app.world())
            .find(|(_, b)| b.0 == ReviewCommand::First)
            .map(|(e, _)| e)
            .expect("最初")
    };
    click(&mut app, first_button);
    app.update();
    assert_eq!(ply::<G>(&app), 0);
    // Back to the result, then the list: the card opens the same game.
    send(&mut app, ReviewCommand::Back);
    assert_eq!(screen(&app), Screen::Result);
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::GameList);
    app.update();
    app.world_mut().remove_resource::<Review<G>>();
    let card = common::card(&mut app, CardButton::Review(G::ID)).expect("振り返る on the card");
    click(&mut app, card);
    app.update();
    assert_eq!(screen(&app), Screen::Review);
    let r = app.world().resource::<Review<G>>();
    assert_eq!(r.record.ply(), plies, "the kept game");
    assert!(r.outcome.is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The button of the review tagged `cmd`.
fn review_button(app: &mut App, cmd: ReviewCommand) -> Entity {
    let mut q = app.world_mut().query::<(Entity, &ReviewButton)>();
    q.iter(app.world())
        .find(|(_, b)| b.0 == cmd)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("the review button {cmd:?}"))
}

/// Runs frames until 検討 has read every line of the position shown.
fn read_lines<G: Playable>(app: &mut App) {
    update_until(app, "検討's lines", Duration::from_secs(200), |a| {
        let a = a.world();
        let (m, an) = (a.resource::<Match<G>>(), a.resource::<Analysis<G>>());
        let ui = a.resource::<PlayUi<G>>();
        an.done && !ui.is_settling() && an.lines.len() <= ANALYSIS_LINES && {
            // The lines are the current position's.
            let legal = m.record.legal_moves(&m.game);
            an.lines
                .iter()
                .all(|l| l.moves.first().is_some_and(|mv| legal.contains(mv)))
        }
    });
}

/// The lines 検討 shows for the match's position, against the same reading
/// done here at once.
fn assert_lines_are_the_search<G: Playable>(app: &App) {
    let m = app.world().resource::<Match<G>>();
    let an = app.world().resource::<Analysis<G>>();
    let presets = &app.world().resource::<Presets<G>>().0;
    let expected = review::best_lines(
        &m.game,
        m.record.current(),
        m.record.hashes(),
        &m.record.forbidden_moves(&m.game),
        review::review_plan(&presets.cpu.strong, G::REVIEW_NODES),
        ANALYSIS_LINES,
    );
    let shown: Vec<(i32, Vec<G::Move>)> = an
        .lines
        .iter()
        .map(|l| (l.score, l.moves.clone()))
        .collect();
    assert_eq!(shown, expected, "検討's lines at ply {}", m.record.ply());
    let legal = m.record.legal_moves(&m.game).len();
    assert_eq!(
        shown.len(),
        legal.min(ANALYSIS_LINES),
        "one line per move, at most three"
    );
}

/// 検討 from the review at the mistake `i`: the same best move as the
/// review's, both sides moved, 待った, the game and its save untouched, and
/// back to the review where it was.
fn analysis_from_review<G: Playable>(app: &mut App, i: usize, plies: usize) {
    let saved_before = app.world().resource::<Store>().get_raw(&G::ID.save_key());
    let better = app
        .world()
        .resource::<Review<G>>()
        .suggestion()
        .expect("a better move");
    let analyse = review_button(app, ReviewCommand::Analyse);
    click(app, analyse);
    app.update();
    app.update();
    assert_eq!(screen(app), Screen::Play, "検討 opens on the play screen");
    {
        let m = app.world().resource::<Match<G>>();
        assert!(m.setup.analysing());
        assert_eq!(m.record.ply(), i, "検討 starts at the position shown");
    }
    read_lines::<G>(app);
    assert_lines_are_the_search::<G>(app);
    let line = app.world().resource::<Analysis<G>>().lines[0].clone();
    assert_eq!(
        line.moves[0], better,
        "検討's best move is the review's better move"
    );
    assert!(
        find::<AnalysisArrowLabel>(app).is_some(),
        "the best line is drawn as numbered arrows"
    );
    // Both sides move: the line's first two moves, then one taken back.
    let moves: Vec<G::Move> = line.moves.iter().take(2).copied().collect();
    for (k, &mv) in moves.iter().enumerate() {
        app.world_mut().write_message(PlayMove::<G>(mv));
        common::settle::<G>(app);
        assert_eq!(app.world().resource::<Match<G>>().record.ply(), i + k + 1);
        read_lines::<G>(app);
        if app
            .world()
            .resource::<Match<G>>()
            .record
            .outcome(&app.world().resource::<Match<G>>().game)
            .is_none()
        {
            assert_lines_are_the_search::<G>(app);
        }
    }
    app.world_mut().write_message(PlayCommand::Undo);
    common::settle::<G>(app);
    assert_eq!(
        app.world().resource::<Match<G>>().record.ply(),
        i + moves.len() - 1,
        "待った takes back one move"
    );
    assert_eq!(
        app.world().resource::<Store>().get_raw(&G::ID.save_key()),
        saved_before,
        "検討 leaves the saved game alone"
    );
    // Back to the review, where it was; the game there again.
    app.world_mut().write_message(PlayCommand::LeaveAnalysis);
    app.update();
    app.update();
    assert_eq!(screen(app), Screen::Review);
    assert_eq!(ply::<G>(app), i);
    let m = app.world().resource::<Match<G>>();
    assert!(!m.setup.analysing());
    assert_eq!(
        m.record.ply(),
        plies,
        "the game reviewed is the match again"
    );
    assert!(app.world().get_resource::<Analysis<G>>().is_none());
}

#[test]
fn hasami_review() {
    review_flow::<yorimichi::rules::hasami::Hasami>(
        "review-hasami",
        yorimichi::rules::hasami::HasamiRules::STANDARD,
        3,
        80,
    );
}

#[test]
fn foxgeese_review() {
    let rules = yorimichi::rules::data::foxgeese_presets().unwrap().presets[0].rules;
    review_flow::<yorimichi::rules::foxgeese::FoxGeese>("review-foxgeese", rules, 3, 80);
}

#[test]
fn musashi_review() {
    review_flow::<yorimichi::rules::musashi::Musashi>(
        "review-musashi",
        yorimichi::rules::musashi::MusashiRules::STANDARD,
        3,
        80,
    );
}

#[test]
fn chushogi_review() {
    let rules = yorimichi::rules::data::chushogi_presets().unwrap().presets[0].rules;
    review_flow::<yorimichi::rules::chu::game::Chu>("review-chushogi", rules, 3, 40);
}

/// 検討 from a game against the CPU: the game is saved and kept as it was,
/// both sides move in 検討, and leaving it brings the game back.
#[test]
fn analysis_from_the_play_screen_keeps_the_game() {
    use yorimichi::games::play::CommandButton;
    use yorimichi::rules::hasami::{Hasami, HasamiRules};
    let (store, dir) = common::temp_store("analysis-play");
    let mut app = headless::app(store);
    app.update();
    let setup = MatchSetup::new(
        Opponent::Cpu(Strength::Easy),
        Side::First,
        "standard",
        HasamiRules::STANDARD,
    );
    common::open_play(&mut app, Match::<Hasami>::new(setup).expect("a match"));
    common::settle::<Hasami>(&mut app);
    // One move of the player's and the CPU's reply: the game is saved.
    let first = {
        let m = app.world().resource::<Match<Hasami>>();
        m.record.legal_moves(&m.game)[0]
    };
    app.world_mut().write_message(PlayMove::<Hasami>(first));
    common::settle::<Hasami>(&mut app);
    let game_moves = app
        .world()
        .resource::<Match<Hasami>>()
        .record
        .moves()
        .to_vec();
    assert_eq!(game_moves.len(), 2, "the move and the CPU's reply");
    let saved = app
        .world()
        .resource::<Store>()
        .get_raw(&Hasami::ID.save_key());
    assert!(saved.is_some(), "the game is saved");
    let analyse = {
        let mut q = app.world_mut().query::<(Entity, &CommandButton)>();
        q.iter(app.world())
            .find(|(_, b)| b.0 == PlayCommand::Analyse)
            .map(|(e, _)| e)
            .expect("検討 on the play screen")
    };
    click(&mut app, analyse);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Play);
    assert!(app.world().resource::<Match<Hasami>>().setup.analysing());
    read_lines::<Hasami>(&mut app);
    assert_lines_are_the_search::<Hasami>(&app);
    // The player's side, then the CPU's: one person moves both.
    for _ in 0..2 {
        let mv = app.world().resource::<Analysis<Hasami>>().lines[0].moves[0];
        app.world_mut().write_message(PlayMove::<Hasami>(mv));
        common::settle::<Hasami>(&mut app);
        read_lines::<Hasami>(&mut app);
    }
    assert_eq!(app.world().resource::<Match<Hasami>>().record.ply(), 4);
    assert_eq!(
        app.world()
            .resource::<Store>()
            .get_raw(&Hasami::ID.save_key()),
        saved,
        "検討 is not saved over the game"
    );
    app.world_mut().write_message(PlayCommand::LeaveAnalysis);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Play);
    let m = app.world().resource::<Match<Hasami>>();
    assert!(!m.setup.analysing());
    assert_eq!(m.setup.opponent, Opponent::Cpu(Strength::Easy));
    assert_eq!(m.record.moves(), &game_moves[..], "the game as it was");
    let _ = std::fs::remove_dir_all(&dir);
}

/// 共有's text opens the same review at start (a shared link's
/// `#review=`, `--review`), a text that is no game is refused with the
/// list's notice, and the browser test's saved link still reads.
#[test]
fn a_shared_game_opens_its_review() {
    use yorimichi::games::review::{read_shared, shared_text};
    use yorimichi::rules::hasami::{Hasami, HasamiRules};
    use yorimichi::shell::i18n::T;
    use yorimichi::shell::settings::Settings;
    use yorimichi::shell::{ChosenGame, Notice, PendingReview};
    let (store, dir) = common::temp_store("review-shared");
    let mut app = headless::app(store);
    app.update();
    let m = finished_match::<Hasami>(&app, HasamiRules::STANDARD, 5, 30);
    let text = shared_text(&Review::<Hasami>::of_match(&m, Screen::GameList)).expect("the text");
    println!("shared hasami game: {text}");
    app.insert_resource(ChosenGame(Hasami::ID));
    app.insert_resource(PendingReview(Some(text.clone())));
    app.update();
    app.update();
    assert_eq!(
        screen(&app),
        Screen::Review,
        "the shared game opens in the review"
    );
    {
        let r = app.world().resource::<Review<Hasami>>();
        assert_eq!(r.record.moves(), m.record.moves());
        assert_eq!(r.outcome, m.record.outcome(&m.game));
        assert_eq!(r.back_to, Screen::GameList);
    }
    assert!(
        app.world().resource::<PendingReview>().0.is_none(),
        "taken once"
    );
    // A text that is no game: the list, saying so.
    app.world_mut().remove_resource::<Review<Hasami>>();
    app.insert_resource(PendingReview(Some(text.replace("moves", "mooves"))));
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::GameList);
    let lang = app.world().resource::<Settings>().lang;
    let why = T::ReviewUnreadable.get(lang);
    let mut texts = app.world_mut().query::<&Text>();
    assert!(
        texts.iter(app.world()).any(|t| t.0 == why),
        "the list says why"
    );
    assert!(app.world().resource::<Notice>().0.is_none());
    // The link the browser test opens (web/test/review-hasami.txt).
    let saved = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/test/review-hasami.txt"),
    )
    .expect("the browser test's saved game");
    let r = read_shared::<Hasami>(&saved, Screen::GameList).expect("the saved game reads");
    assert!(r.outcome.is_some() && r.moves() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A phone turned during a review: the board and the panel are laid out
/// again for the new shape, at the move shown, the pieces exactly the
/// rules' there and each where the new board puts it, one panel.
#[test]
fn a_phone_turned_during_a_review_lays_it_out_again() {
    use yorimichi::games::board_view::BoardView;
    use yorimichi::games::review::ReviewPanel;
    use yorimichi::rules::hasami::Hasami;
    let (store, _dir) = common::temp_store("turned-review");
    let mut app = headless::app(store);
    app.update();
    let m = finished_match::<Hasami>(&app, yorimichi::rules::hasami::HasamiRules::STANDARD, 3, 30);
    open_review(&mut app, m);
    send(&mut app, ReviewCommand::Previous);
    let shown = ply::<Hasami>(&app);
    for (width, height, upright) in common::PHONE_TURNS {
        common::shape_window(&mut app, width, height);
        for _ in 0..30 {
            app.update();
        }
        common::assert_phone_layout(&app, upright);
        assert_eq!(ply::<Hasami>(&app), shown, "the move shown is kept");
        assert_review_board::<Hasami>(&mut app);
        let panels = app
            .world_mut()
            .query_filtered::<(), With<ReviewPanel>>()
            .iter(app.world())
            .count();
        assert_eq!(panels, 1, "one panel at {width}x{height}");
        let view = app.world().resource::<BoardView>().clone();
        let graph = app
            .world()
            .resource::<Review<Hasami>>()
            .game
            .graph()
            .clone();
        let placed: Vec<(usize, Vec3)> = app
            .world_mut()
            .query::<(&ReviewPiece, &Transform)>()
            .iter(app.world())
            .map(|(p, t)| (p.point, t.translation))
            .collect();
        common::assert_pieces_placed(&view, &graph, &placed);
    }
}
