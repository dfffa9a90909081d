//! 中将棋を学ぶ: every lesson loads and is checked against the engine; every
//! "try it" can be played by taps on the lesson board and is judged right;
//! the piece lessons cover all 30 kinds; the lion lessons show illegal
//! options the engine refuses; every problem's answer is the engine's best
//! move by a clear margin; progress is saved and shown on the 学ぶ menu.

use crate::common;

use std::collections::BTreeSet;

use bevy::prelude::*;
use yorimichi::games::session::Playable;
use yorimichi::games::tutorial_board::{self, LessonCard, PracticeButton, TutorialBoard};
use yorimichi::headless::{self, find};
use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::game::{Chu, ChuRules};
use yorimichi::rules::chu::mate::{Mate, MateSearch};
use yorimichi::rules::chu::pieces::Kind;
use yorimichi::rules::chu::position::ChuPosition;
use yorimichi::rules::chu::problems;
use yorimichi::rules::data::{self, GameId, NamedMove, Tutorial, TutorialStep, move_matches};
use yorimichi::rules::game::Game;
use yorimichi::rules::search::SearchPlan;
use yorimichi::shell::save::Store;
use yorimichi::shell::tutorial::{LessonRecord, TutorialProgress};
use yorimichi::shell::{ChosenGame, ChosenTutorial, Screen};

pub(crate) fn chu() -> Chu {
    Chu::new(ChuRules::JCSA)
}

/// Where `step` begins: its diagram, after its history.
fn diagram(step: &TutorialStep) -> ChuPosition {
    let rows: Vec<&str> = step.board.iter().map(String::as_str).collect();
    let start = ChuPosition::from_rows(&rows, step.to_move).unwrap();
    let game = chu();
    yorimichi::rules::content::replay(&game, game.graph(), start, &step.history)
        .unwrap()
        .position()
        .clone()
}

pub(crate) fn point(name: &str) -> usize {
    chu().graph().find(name).unwrap_or_else(|| panic!("{name}"))
}

/// The legal moves `m` names (any route when it has no `via`; promoting
/// or not as it says).
fn matching(pos: &ChuPosition, m: &NamedMove) -> Vec<yorimichi::rules::chu::moves::ChuMove> {
    let game = chu();
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal);
    let ends = (point(&m.from), point(&m.to));
    let via = m.via.as_deref().map(point);
    legal
        .into_iter()
        .filter(|&mv| move_matches(&game, mv, ends, via))
        .filter(|mv| m.promote.is_none_or(|p| mv.promote == p))
        .collect()
}

/// The taps that make `mv` on the board.
pub(crate) fn taps_for(pos: &ChuPosition, mv: yorimichi::rules::chu::moves::ChuMove) -> Vec<usize> {
    let game = chu();
    game.input_path(pos, mv)
        .or_else(|| {
            // A route through an empty square is tapped as the leap.
            let mut direct = Vec::new();
            game.legal_moves(pos, &mut direct);
            direct
                .into_iter()
                .find(|&d| d.mid.is_none() && (d.from, d.to) == (mv.from, mv.to))
                .map(|d| game.move_path(d))
        })
        .unwrap()
}

pub(crate) fn lessons() -> Vec<Tutorial> {
    data::chushogi_lessons().unwrap()
}

#[test]
fn the_lessons_load_with_their_own_ids() {
    let all = lessons();
    let ids: Vec<&str> = all.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["rules", "pieces", "lion", "problems", "tsume"]);
}

#[test]
fn every_try_it_can_be_played_by_taps_and_is_judged_right() {
    let game = chu();
    let mut tried = 0;
    for lesson in lessons() {
        for (i, step) in lesson.steps.iter().enumerate() {
            let Some(expect) = &step.expect else { continue };
            let pos = diagram(step);
            let mv = *matching(&pos, expect)
                .first()
                .unwrap_or_else(|| panic!("{} step {i}: no legal move", lesson.id));
            let taps = taps_for(&pos, mv);
            let mut board = TutorialBoard::for_step(game.clone(), step).unwrap();
            let mut progress = TutorialProgress::new(lesson.clone());
            progress.step = i;
            for &p in &taps {
                tutorial_board::tap_diagram(&mut board, &mut progress, p);
            }
            // Where the taps leave a choice (成る / 成らない, じっと), the
            // player picks the answer's, as in a game.
            let answer = |board: &TutorialBoard<Chu>| {
                board
                    .choice
                    .iter()
                    .position(|c| expect.promote.is_none_or(|p| c.promote == p))
            };
            if !board.choice.is_empty() {
                let pick = answer(&board);
                tutorial_board::choose(&mut board, &mut progress, pick);
            }
            // A capture that could go on waits: a second tap stops there.
            if progress.feedback.is_none() && board.path.len() > 1 {
                let last = taps[taps.len() - 1];
                tutorial_board::tap_diagram(&mut board, &mut progress, last);
                if !board.choice.is_empty() {
                    let pick = answer(&board);
                    tutorial_board::choose(&mut board, &mut progress, pick);
                }
            }
            assert_eq!(
                progress.feedback,
                Some(true),
                "{} step {i} ({}): the answer by taps is judged right",
                lesson.id,
                step.title.ja
            );
            tried += 1;
        }
    }
    assert!(tried >= 40, "{tried}");
}

/// An answer that says whether it promotes is found only with that
/// choice: the taps leave 成る / 成らない to choose, as in a game; the
/// other choice is judged wrong and leaves the diagram as it was; the
/// right one is played, and the board shows the promoted piece.
#[test]
fn a_promotion_answer_is_passed_only_by_promoting() {
    let mut tried = 0;
    for lesson in lessons() {
        for (i, step) in lesson.steps.iter().enumerate() {
            let Some(expect) = &step.expect else { continue };
            let Some(promote) = expect.promote else {
                continue;
            };
            let pos = diagram(step);
            let mv = matching(&pos, expect)[0];
            let taps = taps_for(&pos, mv);
            let mut board = TutorialBoard::for_step(chu(), step).unwrap();
            let mut progress = TutorialProgress::new(lesson.clone());
            progress.step = i;
            let what = format!("{} step {i} ({})", lesson.id, step.title.ja);
            for (round, right) in [false, true].into_iter().enumerate() {
                for &p in &taps {
                    tutorial_board::tap_diagram(&mut board, &mut progress, p);
                }
                assert_eq!(
                    board.choice.len(),
                    2,
                    "{what}: 成る and 成らない are offered"
                );
                assert_eq!(
                    progress.feedback,
                    if round == 0 { None } else { Some(false) }
                );
                let wanted = if right { promote } else { !promote };
                let pick = board.choice.iter().position(|c| c.promote == wanted);
                tutorial_board::choose(&mut board, &mut progress, pick);
                assert_eq!(progress.feedback, Some(right), "{what}");
                if !right {
                    assert_eq!(board.pos, pos, "{what}: a wrong answer is not played");
                }
            }
            let (_, piece) = board.pos.at(mv.to).expect("the piece moved");
            assert_eq!(piece.promoted, promote, "{what}: the board shows it");
            tried += 1;
        }
    }
    // The 成る step and the promotion steps of the rules, and the
    // problems won by promoting.
    assert!(tried >= 20, "{tried}");
}

/// The 千日手 step begins after its history: the checking side has
/// repeated the same check three times, so the check that would make the
/// position's fourth occurrence cannot be tapped; another move can.
#[test]
fn the_repetition_step_refuses_the_fourth_occurrence() {
    use yorimichi::shell::audio::Sfx;
    let lesson = lessons().into_iter().next().unwrap();
    let i = lesson
        .steps
        .iter()
        .position(|s| s.title.ja == "千日手")
        .unwrap();
    let step = &lesson.steps[i];
    assert!(step.history.len() >= 8, "three rounds of check and escape");
    let mut board = TutorialBoard::for_step(chu(), step).unwrap();
    let mut progress = TutorialProgress::new(lesson.clone());
    progress.step = i;
    assert_eq!(board.forbidden.len(), 1, "the repeated check");
    tutorial_board::tap_diagram(&mut board, &mut progress, point("5二"));
    let refused = tutorial_board::tap_diagram(&mut board, &mut progress, point("5一"));
    assert_eq!(refused, Some(Sfx::Illegal));
    assert_eq!(progress.feedback, None, "not even judged");
    // Without the history the same check is a legal move.
    let mut legal = Vec::new();
    chu().legal_moves(&board.pos, &mut legal);
    assert!(legal.contains(&board.forbidden[0]));
    tutorial_board::tap_diagram(&mut board, &mut progress, point("5二"));
    tutorial_board::tap_diagram(&mut board, &mut progress, point("5五"));
    assert_eq!(progress.feedback, Some(true));
}

/// On the lesson screen the choice is drawn as buttons over the board
/// (成る, 成らない, やめる), as the play screen draws it.
#[test]
fn the_lesson_screen_offers_the_promotion_as_buttons() {
    use yorimichi::games::tutorial_board::TutorialChoiceButton;
    let mut app = headless::app(Store::new(None));
    app.update();
    app.insert_resource(ChosenGame(GameId::ChuShogi));
    app.insert_resource(ChosenTutorial(0));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Tutorial);
    app.update();
    app.update();
    let step = {
        let progress = app.world().resource::<TutorialProgress>();
        progress
            .tutorial
            .steps
            .iter()
            .position(|s| s.title.ja == "成る")
            .expect("the 成る step")
    };
    app.world_mut().resource_mut::<TutorialProgress>().step = step;
    app.update();
    app.world_mut()
        .resource_scope(|world, mut board: Mut<TutorialBoard<Chu>>| {
            let mut progress = world.resource_mut::<TutorialProgress>();
            tutorial_board::tap_diagram(&mut board, &mut progress, point("6五"));
            tutorial_board::tap_diagram(&mut board, &mut progress, point("6四"));
        });
    app.update();
    let mut buttons: Vec<Option<usize>> = {
        let mut q = app.world_mut().query::<&TutorialChoiceButton>();
        q.iter(app.world()).map(|b| b.0).collect()
    };
    buttons.sort();
    assert_eq!(buttons, [None, Some(0), Some(1)]);
}

#[test]
fn the_piece_lessons_cover_all_thirty_kinds() {
    let pieces = &lessons()[1];
    assert_eq!(pieces.steps.len(), 30);
    let mut kinds = BTreeSet::new();
    for step in &pieces.steps {
        let pos = diagram(step);
        let home = yorimichi::rules::chu::position::Square(point("6七") as u8);
        let (_, piece) = pos.at(home).expect("the lesson's piece on 6七");
        kinds.insert(format!("{:?}", piece.kind()));
        assert!(step.expect.is_some());
    }
    let all: BTreeSet<String> = Kind::ALL.iter().map(|k| format!("{k:?}")).collect();
    assert_eq!(kinds, all);
}

#[test]
fn the_lion_lessons_put_illegal_options_on_the_board() {
    let lion = &lessons()[2];
    let with_illegal: Vec<&TutorialStep> = lion
        .steps
        .iter()
        .filter(|s| !s.illegal.is_empty())
        .collect();
    assert!(with_illegal.len() >= 4, "{}", with_illegal.len());
    // Loading has checked each is refused; the answer of each is legal.
    for step in with_illegal {
        let expect = step.expect.as_ref().unwrap();
        assert!(!matching(&diagram(step), expect).is_empty());
    }
    // The 先獅子 step carries the square where the lion was just taken.
    assert!(lion.steps.iter().any(|s| s.board.len() == 13));
}

#[test]
fn every_problem_is_the_engines_clear_best_move_at_its_level() {
    let game = chu();
    let problems_lesson = &lessons()[3];
    let steps = &problems_lesson.steps;
    assert!(steps.len() >= 60, "{} problems", steps.len());
    // Lion tactics and king captures are among them.
    let titled = |word: &str| steps.iter().filter(|s| s.title.ja.contains(word)).count();
    assert!(titled("獅子") >= 10 && titled("王を取る") >= 10, "themes");
    for level in 1..=3u8 {
        let n = steps.iter().filter(|s| s.level == Some(level)).count();
        assert!(n >= 15, "level {level}: {n} problems");
    }
    for (i, step) in steps.iter().enumerate() {
        let pos = diagram(step);
        let expect = step.expect.as_ref().unwrap();
        let answers = matching(&pos, expect);
        // A forced capture of the king that the mate solver proves is the
        // answer, however short the problem's own reading (as `yorimichi
        // check` reads it, within the same count of the solver's work).
        let mut solver = MateSearch::with_entries(Profile::Jcsa, 1 << 17);
        let mut polls = 0;
        let mate = solver.solve(&pos, &mut || {
            polls += 1;
            polls > 2000
        });
        if let Mate::Proved(line) = &mate
            && line.first().is_some_and(|first| answers.contains(first))
            && step.title.ja.contains("王を取る")
        {
            continue;
        }
        let depth = problems::depth_for(step.level.unwrap());
        let v = problems::judge(&game, &pos, depth).unwrap();
        assert!(
            answers.contains(&v.best),
            "problem {}: the engine plays {:?}",
            i + 1,
            v.best
        );
        // Every move that is not an answer is clearly worse.
        let (_, others) =
            problems::best_of(&game, &pos, depth, |mv| !answers.contains(&mv)).unwrap();
        assert!(
            v.score - others >= problems::MARGIN,
            "problem {}: {} against {others}",
            i + 1,
            v.score
        );
    }
}

/// The headless app on 中将棋を学ぶ, saving into `store`.
pub(crate) fn on_the_lessons_menu(store: Store) -> App {
    let mut app = headless::app(store);
    app.update();
    app.insert_resource(ChosenGame(GameId::ChuShogi));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Lessons);
    app.update();
    app.update();
    app
}

#[test]
fn a_solved_step_earns_stars_that_the_menu_shows() {
    let (store, dir) = common::temp_store("chu-lessons");
    let mut app = on_the_lessons_menu(store);
    let mut cards = app.world_mut().query::<&LessonCard>();
    assert_eq!(cards.iter(app.world()).count(), 5);
    assert!(find::<PracticeButton>(&mut app).is_some());

    // The piece lessons, first step: 歩兵 6七 takes on 6六.
    app.insert_resource(ChosenTutorial(1));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Tutorial);
    app.update();
    app.update();
    let progress = app.world().resource::<TutorialProgress>();
    assert_eq!(progress.tutorial.id, "pieces");
    app.world_mut()
        .resource_scope(|world, mut board: Mut<TutorialBoard<Chu>>| {
            let mut progress = world.resource_mut::<TutorialProgress>();
            tutorial_board::tap_diagram(&mut board, &mut progress, point("6七"));
            tutorial_board::tap_diagram(&mut board, &mut progress, point("6六"));
            assert_eq!(progress.feedback, Some(true));
            let progress = progress.clone();
            tutorial_board::save_step::<Chu>(&mut world.resource_mut::<Store>(), &progress);
        });
    let record: LessonRecord = app
        .world()
        .resource::<Store>()
        .get(&LessonRecord::key(GameId::ChuShogi, "pieces"))
        .unwrap();
    assert_eq!((record.solved(), record.total_stars()), (1, 3));

    // The 学ぶ menu shows it.
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Lessons);
    app.update();
    app.update();
    let texts: Vec<String> = {
        let mut q = app.world_mut().query::<&Text>();
        q.iter(app.world()).map(|t| t.0.clone()).collect()
    };
    assert!(
        texts.iter().any(|t| t.contains("1/30") && t.contains("★3")),
        "{texts:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Solves the problem collection with each plan at 20 000 nodes: problems
/// solved and the sum of the depths read, for each plan.
fn problems_at_equal_nodes(plans: [SearchPlan; 2]) -> (usize, [usize; 2], [u32; 2]) {
    use yorimichi::rules::search::Searcher;
    let game = chu();
    let steps = &lessons()[3].steps;
    let (mut solved, mut depth) = ([0usize; 2], [0u32; 2]);
    for step in steps {
        let pos = diagram(step);
        let answers = matching(&pos, step.expect.as_ref().unwrap());
        for (k, plan) in plans.iter().enumerate() {
            let r = Searcher::new(&game, pos.clone(), &[game.hash(&pos)], plan.clone())
                .run(&game)
                .expect("a move");
            solved[k] += usize::from(answers.contains(&r.best));
            depth[k] += u32::from(r.depth);
        }
    }
    (steps.len(), solved, depth)
}

/// Reads the collection with the plan without `what` and with it, prints
/// both, and asks that `what` reads a quarter ply deeper at least on
/// average and solves about as many problems (they are short tactics,
/// where a shortened reading can miss a line).
fn reads_deeper_and_keeps_the_tactics(what: &str, plan: impl Fn(bool) -> SearchPlan) {
    let (n, solved, depth) = problems_at_equal_nodes([plan(false), plan(true)]);
    println!(
        "{n} problems at 20 000 nodes: solved {} without {what}, {} with; mean depth {:.2} → {:.2}",
        solved[0],
        solved[1],
        f64::from(depth[0]) / n as f64,
        f64::from(depth[1]) / n as f64
    );
    assert!(
        depth[1] > depth[0] + n as u32 / 4,
        "deeper by a quarter ply at least"
    );
    assert!(solved[1] + 3 >= solved[0], "the tactics are kept");
}

/// The null move at equal effort.
#[test]
fn the_null_move_reads_deeper_at_equal_nodes_and_keeps_the_tactics() {
    reads_deeper_and_keeps_the_tactics("the null move", |null_move| SearchPlan {
        null_move,
        ..SearchPlan::fixed(30, 20_000)
    });
}

/// Late-move reductions on top of the null move, at equal effort (the
/// problems' captures, promotions and checks are never reduced).
#[test]
fn late_move_reductions_read_deeper_at_equal_nodes_and_keep_the_tactics() {
    reads_deeper_and_keeps_the_tactics("reductions", |reductions| SearchPlan {
        null_move: true,
        reductions,
        ..SearchPlan::fixed(30, 20_000)
    });
}

/// Futility pruning on top of the null move and the reductions, at equal
/// effort (captures, promotions and checks are never left out).
#[test]
fn futility_pruning_reads_deeper_at_equal_nodes_and_keeps_the_tactics() {
    reads_deeper_and_keeps_the_tactics("futility pruning", |futility| SearchPlan {
        null_move: true,
        reductions: true,
        futility,
        ..SearchPlan::fixed(30, 20_000)
    });
}

/// Every class of error in the 中将棋 level files names the file and the
/// place: a RON syntax error (line and column), a diagram row that does
/// not read, a move the diagram does not allow, an unknown rule profile.
#[test]
fn broken_chu_level_files_name_the_file_and_the_place() {
    let problems = data::CHUSHOGI_PROBLEMS;
    let broken = |what: &str, from: &str, to: &str, says: &[&str]| {
        assert!(problems.text.contains(from), "{what}: the file changed");
        let err = data::chushogi_tutorial_from(problems.path, &problems.text.replacen(from, to, 1))
            .expect_err(what)
            .to_string();
        println!("{what}: {err}");
        assert!(err.contains(problems.path), "{what}: {err}");
        for s in says {
            assert!(err.contains(s), "{what}: {err} (wanted {s})");
        }
    };
    broken(
        "syntax",
        "    steps: [",
        "    steps: [[",
        &["line 9, column 13"],
    );
    broken(
        "a diagram row",
        "board: [\"",
        "board: [\"13",
        &["steps[0].board"],
    );
    broken(
        "an illegal answer",
        "expect: Some((from: \"3十\", to: \"3九\")),",
        "expect: Some((from: \"3十\", to: \"3一\")),",
        &["steps[0].expect"],
    );
    let presets = data::CHUSHOGI_PRESETS;
    let err = data::chushogi_presets_from(
        presets.path,
        &presets
            .text
            .replacen("profile: Lishogi", "profile: Hachu", 1),
    )
    .expect_err("an unknown profile")
    .to_string();
    println!("a profile: {err}");
    assert!(err.contains(presets.path) && err.contains("Hachu"), "{err}");
}
