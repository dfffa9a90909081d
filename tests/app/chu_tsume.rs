//! 詰め中将棋 in 中将棋を学ぶ: every problem of the collection plays by
//! taps to the royals taken against the line's replies; a check that does
//! not mate is refuted by the solver's reply and taken back; a move that is
//! no check is refused; the answer plays out; the stars are those of the
//! other problems; the lesson opens from the 学ぶ menu with its buttons.

use bevy::prelude::*;
use yorimichi::games::tutorial_board::{self, LessonCard, LineButton, TutorialBoard};
use yorimichi::headless::click;
use yorimichi::rules::chu::end::royal_in_danger;
use yorimichi::rules::chu::game::Chu;
use yorimichi::rules::chu::moves::ChuMove;
use yorimichi::rules::data::{GameId, Tutorial};
use yorimichi::rules::game::{Game, Side};
use yorimichi::shell::i18n::T;
use yorimichi::shell::save::Store;
use yorimichi::shell::tutorial::{LessonRecord, TutorialProgress};
use yorimichi::shell::{ChosenTutorial, Screen};

use crate::chu_lessons::{chu, lessons, on_the_lessons_menu, taps_for};
use crate::common;

fn tsume() -> (usize, Tutorial) {
    lessons()
        .into_iter()
        .enumerate()
        .find(|(_, t)| t.id == "tsume")
        .expect("the 詰め中将棋 lesson")
}

fn board_at(lesson: &Tutorial, step: usize) -> (TutorialBoard<Chu>, TutorialProgress) {
    let board = TutorialBoard::for_step(chu(), &lesson.steps[step]).unwrap();
    let mut progress = TutorialProgress::new(lesson.clone());
    progress.step = step;
    (board, progress)
}

/// Makes `mv` by taps on the lesson board, as a player would: the taps,
/// then the choice they leave (成る / 成らない) or a second tap where a
/// capture could go on.
fn tap_move(board: &mut TutorialBoard<Chu>, progress: &mut TutorialProgress, mv: ChuMove) {
    let before = board.pos.clone();
    let taps = taps_for(&before, mv);
    for &p in &taps {
        tutorial_board::tap_diagram(board, progress, p);
    }
    if !board.choice.is_empty() {
        let pick = board.choice.iter().position(|&c| c == mv);
        tutorial_board::choose(board, progress, pick);
    }
    if board.pos == before && board.path.len() > 1 {
        tutorial_board::tap_diagram(board, progress, taps[taps.len() - 1]);
        if !board.choice.is_empty() {
            let pick = board.choice.iter().position(|&c| c == mv);
            tutorial_board::choose(board, progress, pick);
        }
    }
    // A move off the line is read off the frame: its answer, once come.
    let started = std::time::Instant::now();
    while board.line.as_ref().is_some_and(|l| l.reading()) {
        tutorial_board::settle_judging(board, progress);
        assert!(started.elapsed().as_secs() < 30, "the reading never ended");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

fn rest(board: &TutorialBoard<Chu>) -> Vec<ChuMove> {
    board.line.as_ref().expect("a line step").rest.clone()
}

/// Plays the step's line: the player's moves by taps, each reply as the
/// board plays it; the royals are taken at the end and the step is found.
fn play_the_line(board: &mut TutorialBoard<Chu>, progress: &mut TutorialProgress) -> usize {
    let mut plies = 0;
    loop {
        let mv = rest(board)[0];
        tap_move(board, progress, mv);
        plies += 1;
        if progress.feedback == Some(true) {
            return plies;
        }
        assert_eq!(progress.feedback, None, "ply {plies}: {}", mv.usi());
        assert_eq!(progress.remark, None, "ply {plies}");
        let line = board.line.as_ref().unwrap();
        assert_eq!(line.due.len(), 1, "ply {plies}: the reply is due");
        // A tap while the reply is due does nothing.
        let held = board.pos.clone();
        tutorial_board::tap_diagram(board, progress, mv.from.0 as usize);
        assert_eq!(board.pos, held);
        assert!(tutorial_board::play_next_due(board).is_some());
        plies += 1;
    }
}

#[test]
fn every_mate_problem_plays_by_taps_to_the_royals_taken() {
    let (_, lesson) = tsume();
    assert!(lesson.steps.len() >= 50, "{}", lesson.steps.len());
    let game = chu();
    for (i, step) in lesson.steps.iter().enumerate() {
        assert!(
            step.text.ja.contains("中将棊絹篩 第") && step.title.ja.starts_with("絹篩 第"),
            "step {i}: the collection and the number are named"
        );
        let (mut board, mut progress) = board_at(&lesson, i);
        let attacker = game.side_to_move(&board.pos);
        let plies = play_the_line(&mut board, &mut progress);
        assert_eq!(plies, step.line.len(), "step {i} ({})", step.title.ja);
        let outcome = game.outcome(&board.pos).expect("the game is over");
        assert_eq!(outcome.winner, Some(attacker), "step {i}");
        assert!(!progress.awaits_move());
    }
}

#[test]
fn a_check_that_does_not_mate_is_refuted_and_taken_back() {
    let (_, lesson) = tsume();
    let game = chu();
    let (board, _) = board_at(&lesson, 0);
    let start = board.pos.clone();
    let attacker = game.side_to_move(&start);
    let mut legal = Vec::new();
    game.legal_moves(&start, &mut legal);
    let first = rest(&board)[0];
    let checks: Vec<ChuMove> = legal
        .iter()
        .copied()
        .filter(|&m| m != first && royal_in_danger(&game.play(&start, m), attacker.opponent()))
        .collect();
    let mut refuted = None;
    for &m in &checks {
        let (mut board, mut progress) = board_at(&lesson, 0);
        tap_move(&mut board, &mut progress, m);
        if progress.remark == Some(T::LineRefuted) {
            refuted = Some((m, board, progress));
            break;
        }
    }
    let (m, mut board, mut progress) = refuted.expect("a check of the first problem that fails");
    println!("refuted: {}", m.usi());
    assert_eq!(progress.feedback, Some(false));
    assert_eq!(progress.misses, 1);
    assert_eq!(board.pos, game.play(&start, m), "the wrong move stands");
    assert!(
        tutorial_board::play_next_due(&mut board).is_some(),
        "the refutation is played"
    );
    assert!(board.line.as_ref().unwrap().before_miss.is_some());
    // No move until it is taken back.
    let held = board.pos.clone();
    let mut after = Vec::new();
    game.legal_moves(&held, &mut after);
    for &mv in after.iter().take(5) {
        tap_move(&mut board, &mut progress, mv);
        assert_eq!(board.pos, held, "{} played after a refuted move", mv.usi());
    }
    assert_eq!(progress.misses, 1);
    tutorial_board::take_back(&mut board, &mut progress);
    assert_eq!(board.pos, start);
    assert_eq!((progress.feedback, progress.remark), (None, None));
    play_the_line(&mut board, &mut progress);
    assert_eq!(progress.stars(), 2);

    // A move that is no check is refused as one.
    let quiet = legal
        .iter()
        .copied()
        .find(|&m| {
            !royal_in_danger(&game.play(&start, m), attacker.opponent())
                && !game.is_capture(&start, m)
        })
        .expect("a quiet move");
    let (mut board, mut progress) = board_at(&lesson, 0);
    tap_move(&mut board, &mut progress, quiet);
    assert_eq!(progress.remark, Some(T::LineNotACheck));
    assert_eq!(progress.feedback, Some(false));
    assert_eq!(board.pos, start, "the move that is no check is not played");
    assert!(board.line.as_ref().unwrap().due.is_empty());
    // The line can be played at once.
    play_the_line(&mut board, &mut progress);
    assert_eq!(progress.stars(), 2);
}

#[test]
fn the_answer_plays_out_and_a_try_after_it_earns_one_star() {
    let (_, lesson) = tsume();
    let game = chu();
    let (mut board, mut progress) = board_at(&lesson, 0);
    let start = board.pos.clone();
    let line = rest(&board);
    tap_move(&mut board, &mut progress, line[0]);
    tutorial_board::show_answer(&mut board, &mut progress);
    assert_eq!(board.pos, start, "the answer starts from the diagram");
    assert_eq!(progress.remark, Some(T::LineAnswerShown));
    let mut played = 0;
    while tutorial_board::play_next_due(&mut board).is_some() {
        played += 1;
    }
    assert_eq!(played, line.len());
    assert_eq!(
        game.outcome(&board.pos).and_then(|o| o.winner),
        Some(Side::First)
    );
    assert_ne!(progress.feedback, Some(true), "showing is not solving");
    // The game is over on the board: no tap moves a piece.
    let ended = board.pos.clone();
    let mut left = Vec::new();
    game.legal_moves(&ended, &mut left);
    for &mv in left.iter().take(5) {
        tap_move(&mut board, &mut progress, mv);
        assert_eq!(board.pos, ended);
    }
    // Away to the next step and back: still one star at most.
    progress.turn(1);
    progress.turn(-1);
    tutorial_board::restart_line(&mut board, &mut progress);
    assert_eq!(board.pos, start);
    play_the_line(&mut board, &mut progress);
    assert_eq!(progress.stars(), 1);
}

/// The line step's button `which` on the lesson screen.
fn line_button(app: &mut App, which: LineButton) -> Entity {
    let mut q = app.world_mut().query::<(Entity, &LineButton)>();
    q.iter(app.world())
        .find(|(_, b)| **b == which)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("no {which:?} button"))
}

/// Opens lesson `index` from the lessons menu, as its card does.
fn open_lesson(app: &mut App, index: usize) {
    app.insert_resource(ChosenTutorial(index));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Tutorial);
    app.update();
    app.update();
}

#[test]
fn the_lesson_opens_from_the_menu_plays_its_reply_a_beat_later_and_keeps_stars() {
    let (index, lesson) = tsume();
    let (store, dir) = common::temp_store("chu-tsume");
    let mut app = on_the_lessons_menu(store);
    let mut cards = app.world_mut().query::<&LessonCard>();
    assert!(cards.iter(app.world()).any(|c| c.0 == index));
    open_lesson(&mut app, index);
    assert_eq!(
        app.world().resource::<TutorialProgress>().tutorial.id,
        "tsume"
    );
    let buttons = |app: &mut App| -> Vec<LineButton> {
        let mut q = app.world_mut().query::<&LineButton>();
        q.iter(app.world()).copied().collect()
    };
    let shown = buttons(&mut app);
    assert!(shown.contains(&LineButton::Restart) && shown.contains(&LineButton::ShowAnswer));
    assert!(
        !shown.contains(&LineButton::TakeBack),
        "nothing to take back yet"
    );

    // The player's first move; the reply comes a beat later, not at once.
    let first = lesson.steps[0].line.len();
    app.world_mut()
        .resource_scope(|world, mut board: Mut<TutorialBoard<Chu>>| {
            let mut progress = world.resource_mut::<TutorialProgress>();
            let mv = rest(&board)[0];
            tap_move(&mut board, &mut progress, mv);
        });
    app.update();
    let left = |app: &App| {
        app.world()
            .resource::<TutorialBoard<Chu>>()
            .line
            .as_ref()
            .unwrap()
            .rest
            .len()
    };
    assert_eq!(left(&app), first - 1);
    for _ in 0..120 {
        app.update();
    }
    assert_eq!(left(&app), first - 2, "the reply was played");

    // 答えを見る from its button: the whole line, a beat a move.
    let show = line_button(&mut app, LineButton::ShowAnswer);
    click(&mut app, show);
    // The click reached that button alone (not 前へ / 次へ as well).
    assert_eq!(app.world().resource::<TutorialProgress>().step, 0);
    assert_eq!(
        app.world().resource::<TutorialProgress>().remark,
        Some(T::LineAnswerShown)
    );
    for _ in 0..(60 * first) {
        app.update();
    }
    let board = app.world().resource::<TutorialBoard<Chu>>();
    assert!(board.line.as_ref().unwrap().due.is_empty());
    assert!(
        chu().outcome(&board.pos).is_some(),
        "the answer ends the game"
    );

    // 最初から, then the line played through: one star after the answer.
    let restart = line_button(&mut app, LineButton::Restart);
    click(&mut app, restart);
    assert_eq!(left(&app), first);
    while app.world().resource::<TutorialProgress>().feedback != Some(true) {
        app.world_mut()
            .resource_scope(|world, mut board: Mut<TutorialBoard<Chu>>| {
                let mut progress = world.resource_mut::<TutorialProgress>();
                let mv = rest(&board)[0];
                tap_move(&mut board, &mut progress, mv);
            });
        for _ in 0..60 {
            app.update();
        }
    }
    app.world_mut()
        .resource_scope(|world, progress: Mut<TutorialProgress>| {
            tutorial_board::save_step::<Chu>(&mut world.resource_mut::<Store>(), &progress);
        });
    let record: LessonRecord = app
        .world()
        .resource::<Store>()
        .get(&LessonRecord::key(GameId::ChuShogi, "tsume"))
        .unwrap();
    assert_eq!((record.solved(), record.total_stars()), (1, 1));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_move_off_the_line_is_read_off_the_frame_and_answered_by_the_app() {
    let (index, _) = tsume();
    let (store, dir) = common::temp_store("chu-tsume-off-line");
    let mut app = on_the_lessons_menu(store);
    open_lesson(&mut app, index);
    let start = app.world().resource::<TutorialBoard<Chu>>().pos.clone();
    // 4一 to 4二: a check that does not mate (the first problem).
    app.world_mut()
        .resource_scope(|world, mut board: Mut<TutorialBoard<Chu>>| {
            let mut progress = world.resource_mut::<TutorialProgress>();
            for usi in ["4a", "4b"] {
                let at = yorimichi::rules::chu::position::Square::parse(usi)
                    .unwrap()
                    .0 as usize;
                tutorial_board::tap_diagram(&mut board, &mut progress, at);
            }
        });
    // Nothing is decided in the tap: the board waits for the reading.
    let board = app.world().resource::<TutorialBoard<Chu>>();
    assert_eq!(board.pos, start);
    assert!(board.line.as_ref().unwrap().busy());
    let started = std::time::Instant::now();
    while app.world().resource::<TutorialProgress>().remark.is_none() {
        app.update();
        assert!(started.elapsed().as_secs() < 30, "no answer came");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert_eq!(
        app.world().resource::<TutorialProgress>().remark,
        Some(T::LineRefuted)
    );
    assert_ne!(app.world().resource::<TutorialBoard<Chu>>().pos, start);
    let _ = std::fs::remove_dir_all(dir);
}
