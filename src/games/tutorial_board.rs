//! A tutorial's board, the same for every game: the steps come from
//! `levels/tutorials/<game>.ron` and are run by the shared runner
//! (`crate::shell::tutorial`); this module draws each step's diagram,
//! highlights and arrows, and lets the player try the step's move (by the
//! same taps as in a game, multi-jumps included).

use crate::shell::widgets::type_scale as ty;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::art::{self, Art, Highlight};
use super::board_place::{board_view, changed_layout, layout_for, piece_rotation, window_reshaped};
use super::board_view::BoardView;
use super::resume::chosen;
use super::session::Playable;
use crate::rules::board::PointId;
use crate::rules::content;
use crate::rules::data::TutorialStep;
use crate::rules::game::Side;
use crate::rules::rulebook::OffLine;
use crate::rules::search_service::OffLineRequest;
use crate::rules::taps::{self, Tap};
use crate::shell::audio::Sfx;
use crate::shell::cpu::LineJudge;
use crate::shell::i18n::T;
use crate::shell::keys::ButtonFocus;
use crate::shell::layout::{Layout, panel_node};
use crate::shell::save::Store;
use crate::shell::settings::Settings;
use crate::shell::tutorial::LessonRecord;
use crate::shell::tutorial::{self, TutorialProgress};
use crate::shell::widgets::Fonts;
use crate::shell::widgets::{self, palette};
use crate::shell::{ChosenTutorial, Screen};
use std::collections::VecDeque;

/// The diagram on the board.
#[derive(Resource)]
pub struct TutorialBoard<G: Playable> {
    pub game: G,
    pub pos: G::Pos,
    /// The points tapped so far (the selected piece first).
    pub path: Vec<PointId>,
    /// The moves offered when the taps leave a choice (成る / 成らない,
    /// じっと), as in a game; empty otherwise.
    pub choice: Vec<G::Move>,
    /// Moves the step's history forbids where it begins (中将棋's 千日手).
    pub forbidden: Vec<G::Move>,
    /// Where the keyboard's cursor stands (once an arrow key was pressed).
    pub cursor: Option<PointId>,
    /// A problem played as a line (詰め中将棋): where the player stands.
    pub line: Option<LinePlay<G>>,
    /// The step whose diagram `pos` shows.
    shown_step: Option<usize>,
}

/// Where the player stands in a problem played as a line: the player's
/// moves against the opponent's replies, which are played a beat after.
pub struct LinePlay<G: Playable> {
    /// The line's moves still to come from the board's position: the
    /// step's, or the one a move off it found.
    pub rest: Vec<G::Move>,
    /// The opponent's moves still to be played on the board, a beat
    /// apart: the reply to the player's move, or the whole answer shown.
    pub due: VecDeque<G::Move>,
    /// When the next due move is played (the app's seconds; `None`: a
    /// beat from the next frame).
    next_at: Option<f64>,
    /// The board, the line and the last move before a move that was
    /// refuted: 一手戻す goes back to them.
    pub before_miss: Option<(G::Pos, Vec<G::Move>, Option<G::Move>)>,
    /// The last move played on the board (marked, as in a game).
    pub last: Option<G::Move>,
    /// The player's move off the line while the game reads it, off the
    /// frame ([`Rulebook::off_line`](crate::rules::rulebook::Rulebook::off_line)).
    judging: Option<(G::Move, LineJudge<G>)>,
}

impl<G: Playable> LinePlay<G> {
    /// The step's line from `pos` (checked when the file loaded).
    fn read(game: &G, pos: &G::Pos, line: &[String]) -> Result<Self, String> {
        let rest = game
            .read_line(pos, line)
            .map_err(|(i, why)| format!("line[{i}]: {why}"))?;
        Ok(LinePlay {
            rest,
            due: VecDeque::new(),
            next_at: None,
            before_miss: None,
            last: None,
            judging: None,
        })
    }

    /// Whether the opponent is answering: a move off the line being read,
    /// or replies still to be played (taps wait).
    pub fn busy(&self) -> bool {
        self.judging.is_some() || !self.due.is_empty()
    }

    /// Whether a move off the line is being read.
    pub fn reading(&self) -> bool {
        self.judging.is_some()
    }

    /// Whether the player may move: no reply is due, no refuted move
    /// waits to be taken back, and the line goes on.
    fn open(&self) -> bool {
        !self.busy() && self.before_miss.is_none() && !self.rest.is_empty()
    }
}

/// Seconds between the player's move and the opponent's reply, and
/// between the moves of an answer shown.
const LINE_BEAT: f64 = 0.7;

/// How much the opponent reads a move off a problem's line before it
/// says it could not tell: counted in the reading's own asks whether to
/// stop (one every few hundred positions), so that the answer is the same
/// on a busy or a slow machine.
const OFF_LINE_ASKS: u32 = 12_000;

/// The longest a reading may take all the same: it runs beside the frames
/// (a thread at the lowest priority on the desktop, the search worker on
/// the web).
const OFF_LINE_MOST_SECONDS: f64 = 20.0;

impl<G: Playable> TutorialBoard<G> {
    /// A board showing `pos`, nothing selected.
    pub fn new(game: G, pos: G::Pos) -> Self {
        TutorialBoard {
            game,
            pos,
            path: Vec::new(),
            choice: Vec::new(),
            forbidden: Vec::new(),
            cursor: None,
            line: None,
            shown_step: None,
        }
    }

    /// A board showing where `step` begins: its diagram, after its
    /// history, with what the history forbids (the tutorial files are
    /// checked when they load, so this only fails on an unchecked step).
    pub fn for_step(game: G, step: &TutorialStep) -> Result<Self, String> {
        let rows: Vec<&str> = step.board.iter().map(String::as_str).collect();
        let diagram = game.diagram(&rows, step.to_move, step.captured)?;
        let so_far = content::replay(&game, game.graph(), diagram, &step.history)
            .map_err(|(i, e)| format!("history[{i}]: {e}"))?;
        let mut board = TutorialBoard::new(game, so_far.position().clone());
        let mut legal = Vec::new();
        board.game.legal_moves(&board.pos, &mut legal);
        let allowed = so_far.allowed(&board.game);
        board.forbidden = legal.into_iter().filter(|m| !allowed.contains(m)).collect();
        if !step.line.is_empty() {
            board.line = Some(LinePlay::read(&board.game, &board.pos, &step.line)?);
        }
        Ok(board)
    }

    /// Sets the board where `step` begins, nothing selected (the tutorial
    /// files are checked when they load, so the step sets up).
    fn set_up(&mut self, step: &TutorialStep) {
        match TutorialBoard::for_step(self.game.clone(), step) {
            Ok(b) => {
                self.pos = b.pos;
                self.forbidden = b.forbidden;
                self.line = b.line;
            }
            Err(e) => {
                self.line = None;
                error!("{e}");
            }
        }
        self.path.clear();
        self.choice.clear();
    }

    /// The moves the player may make on the board now.
    fn allowed(&self) -> Vec<G::Move> {
        let mut legal = Vec::new();
        self.game.legal_moves(&self.pos, &mut legal);
        legal.retain(|m| !self.forbidden.contains(m));
        legal
    }
}

#[derive(Component, Clone)]
struct TutorialScene;

pub(crate) fn plugin<G: Playable>(app: &mut App) {
    app.add_systems(OnEnter(Screen::Tutorial), enter::<G>.run_if(chosen(G::ID)))
        .add_systems(
            OnEnter(Screen::Lessons),
            spawn_lessons::<G>.run_if(chosen(G::ID)),
        )
        .add_systems(OnExit(Screen::Tutorial), |mut c: Commands| {
            c.remove_resource::<TutorialBoard<G>>()
        })
        .add_systems(
            Update,
            (
                relayout::<G>,
                load_diagram::<G>,
                finish_judging::<G>,
                play_due::<G>,
                tutorial_input::<G>,
                tutorial_keys::<G>,
                redraw::<G>,
            )
                .chain()
                .run_if(in_state(Screen::Tutorial))
                .run_if(resource_exists::<TutorialBoard<G>>)
                .run_if(resource_exists::<TutorialProgress>),
        );
}

fn enter<G: Playable>(
    mut commands: Commands,
    chosen: Res<ChosenTutorial>,
    windows: Query<&Window, With<PrimaryWindow>>,
) {
    let tutorial = match G::tutorials() {
        // A game without lessons has its one tutorial.
        Ok(mut all) if G::ID.has_lessons() && chosen.0 < all.len() => all.swap_remove(chosen.0),
        Ok(mut all) if !all.is_empty() => all.swap_remove(0),
        Ok(_) => return error!("{} has no tutorial", G::ID.id()),
        Err(e) => return error!("{e}"),
    };
    let game = match G::create(&G::tutorial_rules()) {
        Ok(g) => g,
        Err(e) => return error!("{e}"),
    };
    let layout = layout_for(&game, windows.single().ok());
    commands.insert_resource(board_view(&game, false, layout));
    commands.insert_resource(layout);
    commands.insert_resource(crate::shell::layout::CameraArea(layout.shown));
    let start = game.start();
    commands.insert_resource(TutorialBoard::new(game, start));
    commands.insert_resource(TutorialProgress::new(tutorial));
}

/// A phone turned during a lesson, or a window given another shape: the
/// board and the panel are laid out for it (`redraw` draws them again
/// where the new layout puts them; the step and its progress stay).
fn relayout<G: Playable>(
    mut commands: Commands,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut board: ResMut<TutorialBoard<G>>,
    layout: Res<Layout>,
    mut seen: Local<Option<Vec2>>,
) {
    if !window_reshaped(&windows, &mut seen) {
        return;
    }
    let Some(fresh) = changed_layout(&board.game, &windows, &layout) else {
        return;
    };
    commands.insert_resource(board_view(&board.game, false, fresh));
    commands.insert_resource(fresh);
    commands.insert_resource(crate::shell::layout::CameraArea(fresh.shown));
    board.set_changed();
}

/// Sets up the diagram whenever the step changes.
fn load_diagram<G: Playable>(progress: Res<TutorialProgress>, mut board: ResMut<TutorialBoard<G>>) {
    if board.shown_step == Some(progress.step) {
        return;
    }
    board.set_up(progress.current());
    board.shown_step = Some(progress.step);
}

/// A tap on the diagram: builds the move as in a game, then judges it.
/// Where the taps leave a choice (成る / 成らない, じっと) it is offered
/// as in a game ([`TutorialBoard::choice`], answered by [`choose`]); a
/// tap on the board instead takes none.
pub fn tap_diagram<G: Playable>(
    board: &mut TutorialBoard<G>,
    progress: &mut TutorialProgress,
    point: PointId,
) -> Option<Sfx> {
    if !progress.awaits_move() || board.line.as_ref().is_some_and(|l| !l.open()) {
        return None;
    }
    let board = &mut *board;
    if !board.choice.is_empty() {
        board.choice.clear();
        board.path.clear();
        return None;
    }
    let allowed = board.allowed();
    let mv = match taps::tap_in(&board.game, &board.pos, &allowed, &mut board.path, point) {
        Tap::Play(mv) => mv,
        Tap::Choose(moves) => {
            board.choice = moves;
            return Some(Sfx::Place);
        }
        Tap::Extend => return Some(Sfx::Place),
        Tap::Reject => return Some(Sfx::Illegal),
        Tap::Select | Tap::Deselect | Tap::Ignore => return None,
    };
    Some(judge(board, progress, mv))
}

/// The answer to the choice the taps left: the move offered at `pick`,
/// or (`None`, やめる) none, putting the piece down.
pub fn choose<G: Playable>(
    board: &mut TutorialBoard<G>,
    progress: &mut TutorialProgress,
    pick: Option<usize>,
) -> Option<Sfx> {
    let offered = std::mem::take(&mut board.choice);
    match pick.and_then(|i| offered.get(i).copied()) {
        Some(mv) if progress.awaits_move() => Some(judge(board, progress, mv)),
        _ => {
            board.path.clear();
            (!offered.is_empty()).then_some(Sfx::Button)
        }
    }
}

/// Judges `mv` against the step's answer; the right move is played on
/// the diagram (a promotion shows the promoted piece).
fn judge<G: Playable>(
    board: &mut TutorialBoard<G>,
    progress: &mut TutorialProgress,
    mv: G::Move,
) -> Sfx {
    if board.line.is_some() {
        return judge_line(board, progress, mv);
    }
    let graph = board.game.graph();
    let name = |p: PointId| graph.point(p).name.clone();
    let (from, to) = board.game.move_ends(mv);
    let path = board.game.move_path(mv);
    let via = (path.len() == 3).then(|| name(path[1]));
    let promoted = board.game.promotes(mv);
    board.path.clear();
    if progress.judge(&name(from), via.as_deref(), &name(to), promoted) {
        let captures = board.game.is_capture(&board.pos, mv);
        board.pos = board.game.play(&board.pos, mv);
        board.forbidden.clear();
        if captures { Sfx::Capture } else { Sfx::Koma }
    } else {
        Sfx::Illegal
    }
}

/// A move of a problem played as a line: the line's move is played and
/// the opponent's reply comes a beat later; a move off it is handed to the
/// game to read, off the frame ([`settle_judging`] takes its answer).
fn judge_line<G: Playable>(
    board: &mut TutorialBoard<G>,
    progress: &mut TutorialProgress,
    mv: G::Move,
) -> Sfx {
    let Some(line) = board.line.as_mut() else {
        return Sfx::Illegal;
    };
    progress.remark = None;
    if line.rest.first() == Some(&mv) {
        let rest = line.rest[1..].to_vec();
        return go_on(board, progress, mv, rest);
    }
    let reading = LineJudge::start(OffLineRequest {
        rules: board.game.rules().clone(),
        pos: board.pos.clone(),
        mv,
        most_asks: OFF_LINE_ASKS,
        most_ms: OFF_LINE_MOST_SECONDS * 1000.0,
    });
    line.judging = Some((mv, reading));
    Sfx::Place
}

/// The game's answer on a move off the line, once read: a move that wins
/// all the same goes on; a refuted one is played with the reply that
/// refutes it, to be taken back (一手戻す); a move that is not a check, or
/// one not read out in time, is not played. `None` while it is read.
pub fn settle_judging<G: Playable>(
    board: &mut TutorialBoard<G>,
    progress: &mut TutorialProgress,
) -> Option<Sfx> {
    let line = board.line.as_mut()?;
    let (mv, reading) = line.judging.as_mut()?;
    let (mv, answer) = (*mv, reading.poll()?);
    line.judging = None;
    Some(match answer {
        Some(OffLine::Wins(rest)) => {
            progress.remark = Some(T::LineAnotherMate);
            go_on(board, progress, mv, rest)
        }
        Some(OffLine::Refuted(reply)) => {
            let after = board.game.play(&board.pos, mv);
            let before = std::mem::replace(&mut board.pos, after);
            if let Some(line) = board.line.as_mut() {
                line.before_miss = Some((before, std::mem::take(&mut line.rest), line.last));
                line.due.push_back(reply);
                line.next_at = None;
                line.last = Some(mv);
            }
            progress.line_missed();
            progress.remark = Some(T::LineRefuted);
            Sfx::Illegal
        }
        // A move that breaks the problem's rule is not played.
        Some(OffLine::NotACheck) => {
            progress.line_missed();
            progress.remark = Some(T::LineNotACheck);
            Sfx::Illegal
        }
        Some(OffLine::Unsettled) => {
            progress.remark = Some(T::LineUnsettled);
            Sfx::Illegal
        }
        None => {
            progress.line_missed();
            Sfx::Illegal
        }
    })
}

/// Plays the player's `mv`, after which the line is `rest`: the line
/// played to its end is found, else the opponent's reply is due.
fn go_on<G: Playable>(
    board: &mut TutorialBoard<G>,
    progress: &mut TutorialProgress,
    mv: G::Move,
    rest: Vec<G::Move>,
) -> Sfx {
    // The word on an earlier wrong try is gone.
    progress.feedback = None;
    let captures = board.game.is_capture(&board.pos, mv);
    board.pos = board.game.play(&board.pos, mv);
    let Some(line) = board.line.as_mut() else {
        return Sfx::Illegal;
    };
    line.last = Some(mv);
    line.rest = rest;
    if line.rest.is_empty() || board.game.outcome(&board.pos).is_some() {
        progress.line_found();
    } else {
        line.due.push_back(line.rest[0]);
        line.next_at = None;
    }
    if captures { Sfx::Capture } else { Sfx::Koma }
}

/// Takes the game's answer on a move off the line when it has come.
fn finish_judging<G: Playable>(
    mut board: ResMut<TutorialBoard<G>>,
    mut progress: ResMut<TutorialProgress>,
    mut store: ResMut<Store>,
    mut sfx: MessageWriter<Sfx>,
) {
    if board.line.as_ref().is_none_or(|l| l.judging.is_none()) {
        return;
    }
    if let Some(s) = settle_judging(&mut board, &mut progress) {
        sfx.write(s);
        if progress.feedback == Some(true) {
            save_step::<G>(&mut store, &progress);
        }
    }
}

/// Plays the opponent's due moves on a line step, a beat apart.
fn play_due<G: Playable>(
    time: Res<Time>,
    mut board: ResMut<TutorialBoard<G>>,
    mut sfx: MessageWriter<Sfx>,
) {
    let now = time.elapsed_secs_f64();
    let Some(line) = board.line.as_ref() else {
        return;
    };
    if line.due.is_empty() || line.next_at.is_some_and(|t| now < t) {
        return;
    }
    let board = &mut *board;
    if let Some(line) = board.line.as_mut()
        && line.next_at.is_none()
    {
        line.next_at = Some(now + LINE_BEAT);
        return;
    }
    if let Some(s) = play_next_due(board) {
        sfx.write(s);
    }
    if let Some(line) = board.line.as_mut() {
        line.next_at = (!line.due.is_empty()).then_some(now + LINE_BEAT);
    }
}

/// Plays the opponent's next due move of a line step on the board.
pub fn play_next_due<G: Playable>(board: &mut TutorialBoard<G>) -> Option<Sfx> {
    let line = board.line.as_mut()?;
    let mv = line.due.pop_front()?;
    if line.rest.first() == Some(&mv) {
        line.rest.remove(0);
    }
    let sfx = if board.game.is_capture(&board.pos, mv) {
        Sfx::Capture
    } else {
        Sfx::Koma
    };
    board.pos = board.game.play(&board.pos, mv);
    line.last = Some(mv);
    Some(sfx)
}

/// 一手戻す: the board and the line as they were before the refuted move.
pub fn take_back<G: Playable>(board: &mut TutorialBoard<G>, progress: &mut TutorialProgress) {
    let Some(line) = board.line.as_mut() else {
        return;
    };
    let Some((pos, rest, last)) = line.before_miss.take() else {
        return;
    };
    line.rest = rest;
    line.due.clear();
    line.next_at = None;
    line.last = last;
    board.pos = pos;
    board.path.clear();
    board.choice.clear();
    progress.feedback = None;
    progress.remark = None;
}

/// 答えを見る: the diagram again, and the whole line played out on it a
/// beat a move; the step then earns one star at most.
pub fn show_answer<G: Playable>(board: &mut TutorialBoard<G>, progress: &mut TutorialProgress) {
    restart_line(board, progress);
    if let Some(line) = board.line.as_mut() {
        line.due = line.rest.iter().copied().collect();
        line.next_at = None;
    }
    progress.feedback = None;
    progress.answer_shown();
    progress.remark = Some(T::LineAnswerShown);
}

/// 最初から: the step's diagram again (its misses kept).
pub fn restart_line<G: Playable>(board: &mut TutorialBoard<G>, progress: &mut TutorialProgress) {
    board.set_up(progress.current());
    progress.feedback = None;
    progress.remark = None;
}

fn tutorial_input<G: Playable>(
    buttons: Res<ButtonInput<MouseButton>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    view: Res<BoardView>,
    mut board: ResMut<TutorialBoard<G>>,
    mut progress: ResMut<TutorialProgress>,
    mut store: ResMut<Store>,
    mut sfx: MessageWriter<Sfx>,
) {
    if !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let (Ok(window), Ok((camera, cam_t))) = (windows.single(), cameras.single()) else {
        return;
    };
    let Some(point) = window
        .cursor_position()
        .and_then(|c| camera.viewport_to_world_2d(cam_t, c).ok())
        .and_then(|w| view.point_at(board.game.graph(), w))
    else {
        return;
    };
    if let Some(s) = tap_diagram(&mut board, &mut progress, point) {
        sfx.write(s);
        if progress.feedback == Some(true) {
            save_step::<G>(&mut store, &progress);
        }
    }
}

/// The keyboard on the diagram, as in a game: the arrow keys move a cursor
/// along the board, Enter or Space taps the point under it (unless a
/// focused button takes the key).
fn tutorial_keys<G: Playable>(
    keys: Res<ButtonInput<KeyCode>>,
    mut presses: MessageReader<bevy::input::keyboard::KeyboardInput>,
    view: Res<BoardView>,
    mut board: ResMut<TutorialBoard<G>>,
    mut progress: ResMut<TutorialProgress>,
    mut store: ResMut<Store>,
    mut sfx: MessageWriter<Sfx>,
    focus: ButtonFocus,
) {
    for dir in crate::shell::keys::arrow_presses(&mut presses) {
        let start = board.path.first().copied();
        if let Some(cursor) = view.move_cursor(board.game.graph(), board.cursor, start, dir) {
            board.cursor = Some(cursor);
        }
    }
    if keys.any_just_pressed([KeyCode::Enter, KeyCode::Space])
        && focus.focused().is_none()
        && let Some(at) = board.cursor
        && let Some(s) = tap_diagram(&mut board, &mut progress, at)
    {
        sfx.write(s);
        if progress.feedback == Some(true) {
            save_step::<G>(&mut store, &progress);
        }
    }
}

/// Keeps the stars a found "try it" earned, for the lessons menu.
pub fn save_step<G: Playable>(store: &mut Store, progress: &TutorialProgress) {
    if progress.tutorial.id.is_empty() {
        return;
    }
    let key = LessonRecord::key(G::ID, &progress.tutorial.id);
    let mut record: LessonRecord = store.get(&key).unwrap_or_default();
    record.earn(progress.step, progress.stars());
    store.put(&key, &record);
}

/// 中将棋を学ぶ: each lesson with its progress, 練習対局, and back.
fn spawn_lessons<G: Playable>(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    store: Res<Store>,
) {
    let lang = settings.lang;
    let lessons = match G::tutorials() {
        Ok(l) => l,
        Err(e) => return error!("{e}"),
    };
    commands
        .spawn((DespawnOnExit(Screen::Lessons), widgets::screen_root()))
        .with_children(|root| {
            root.spawn(widgets::text(
                &fonts,
                format!(
                    "{}{}",
                    crate::shell::screens::localized_game_name(G::ID, lang),
                    T::LearnTitle.get(lang)
                ),
                ty::TITLE,
                palette::INK,
            ));
            root.spawn(Node {
                flex_direction: FlexDirection::Row,
                flex_wrap: FlexWrap::Wrap,
                justify_content: JustifyContent::Center,
                max_width: px(1000),
                ..default()
            })
            .with_children(|grid| {
                for (i, lesson) in lessons.iter().enumerate() {
                    let tries = lesson.steps.iter().filter(|s| s.asks_move()).count();
                    let record: LessonRecord = store
                        .get(&LessonRecord::key(G::ID, &lesson.id))
                        .unwrap_or_default();
                    let line = if tries > 0 {
                        format!(
                            "{} {} · {} {}/{tries} ★{}",
                            lesson.steps.len(),
                            T::LessonSteps.get(lang),
                            T::LessonSolved.get(lang),
                            record.solved(),
                            record.total_stars()
                        )
                    } else {
                        format!("{} {}", lesson.steps.len(), T::LessonSteps.get(lang))
                    };
                    grid.spawn((widgets::card(), LessonCard(i)))
                        .with_children(|card| {
                            card.spawn(widgets::text(
                                &fonts,
                                lang.text(&lesson.title),
                                ty::SUBTITLE,
                                palette::INK,
                            ));
                            card.spawn(widgets::text(&fonts, line, ty::BODY, palette::INK_SOFT));
                            card.spawn(widgets::key_button(&fonts, lang, T::LessonStart, true))
                                .observe(crate::shell::screens::open_lesson(i));
                        });
                }
                grid.spawn(widgets::card()).with_children(|card| {
                    card.spawn(widgets::label(
                        &fonts,
                        lang,
                        T::Practice,
                        ty::SUBTITLE,
                        palette::INK,
                    ));
                    card.spawn((
                        widgets::label(
                            &fonts,
                            lang,
                            T::PracticeAbout,
                            ty::CAPTION,
                            palette::INK_SOFT,
                        ),
                        Node {
                            max_width: px(300),
                            ..default()
                        },
                    ));
                    card.spawn((
                        widgets::key_button(&fonts, lang, T::LessonStart, true),
                        PracticeButton,
                    ))
                    .observe(crate::shell::screens::go_to(Screen::Setup));
                });
            });
            root.spawn(widgets::key_button(&fonts, lang, T::BackToList, false))
                .observe(crate::shell::screens::go_to(Screen::GameList));
        });
}

/// A lesson's card on the 学ぶ menu (tests find it by index).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonCard(pub usize);

/// The 練習対局 button of the 学ぶ menu.
#[derive(Component)]
pub struct PracticeButton;

fn redraw<G: Playable>(
    mut commands: Commands,
    board: Res<TutorialBoard<G>>,
    progress: Res<TutorialProgress>,
    view: Res<BoardView>,
    art: Res<Art>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    store: Res<Store>,
    layout: Res<Layout>,
    scene: Query<Entity, With<TutorialScene>>,
) {
    if !board.is_changed() && !progress.is_changed() && !settings.is_changed() {
        return;
    }
    for e in &scene {
        commands.entity(e).despawn();
    }
    let graph = board.game.graph();
    let scope = (DespawnOnExit(Screen::Tutorial), TutorialScene);
    board
        .game
        .spawn_board(&mut commands, &view, &fonts, &settings, scope.clone());
    let step = progress.current();
    let mut marks: Vec<PointId> = step
        .highlights
        .iter()
        .filter_map(|n| graph.find(n))
        .collect();
    marks.extend(board.path.iter().copied());
    // A line step's last move, as a game marks it.
    let last = board.line.as_ref().and_then(|l| l.last).map(|mv| {
        let (from, to) = board.game.move_ends(mv);
        [from, to]
    });
    let last = last.into_iter().flatten().map(|p| (p, Highlight::LastMove));
    for (p, kind) in last.chain(marks.into_iter().map(|p| (p, Highlight::Selected))) {
        art::spawn_highlight(
            &mut commands,
            scope.clone(),
            &art,
            G::SQUARES,
            view.world(graph, p),
            kind,
        );
    }
    if let Some(c) = board.cursor {
        art::spawn_cursor(
            &mut commands,
            scope.clone(),
            &art,
            G::SQUARES,
            view.world(graph, c),
        );
    }
    for to in taps::next_points_in(&board.game, &board.pos, &board.allowed(), &board.path) {
        commands.spawn((
            scope.clone(),
            Mesh2d(art.dot.clone()),
            MeshMaterial2d(art.blue.clone()),
            Transform::from_translation(view.world(graph, to).extend(2.0)),
        ));
    }
    for arrow in &step.arrows {
        if let (Some(a), Some(b)) = (graph.find(&arrow.from), graph.find(&arrow.to)) {
            art::spawn_dotted_arrow(
                &mut commands,
                scope.clone(),
                view.world(graph, a),
                view.world(graph, b),
            );
        }
    }
    // A piece moved part of its way stands at the end of the path so far.
    let moved = (board.path.len() > 1).then(|| (board.path[0], board.path[board.path.len() - 1]));
    for p in 0..graph.len() {
        if let Some(side) = board.game.piece_at(&board.pos, p) {
            let face = board.game.piece_face(&board.pos, p);
            let at = match moved {
                Some((from, to)) if from == p => to,
                _ => p,
            };
            commands
                .spawn((
                    scope.clone(),
                    Transform::from_translation(view.world(graph, at).extend(1.0))
                        .with_rotation(piece_rotation::<G>(side, Side::First)),
                    Visibility::default(),
                ))
                .with_children(|c| G::piece_children(c, &art, &fonts, &settings, side, face));
        }
    }
    let back = if G::ID.has_lessons() {
        Screen::Lessons
    } else {
        Screen::GameList
    };
    let earned = (!progress.tutorial.id.is_empty())
        .then(|| {
            store
                .get::<LessonRecord>(&LessonRecord::key(G::ID, &progress.tutorial.id))
                .ok()
                .and_then(|r| r.stars.get(progress.step).copied())
                .filter(|&s| s > 0)
        })
        .flatten();
    if !board.choice.is_empty() {
        spawn_choice(&mut commands, scope.clone(), &board, &fonts, settings.lang);
    }
    // What the diagram itself does not show: the captures so far (a lead
    // in はさみ将棋), and that pieces were left out of it.
    let mut notes = Vec::new();
    if step.captured != [0, 0] {
        notes.push(board.game.status_line(&board.pos, settings.lang));
    }
    if step.pieces_left_out {
        notes.push(T::PiecesLeftOut.get(settings.lang).to_string());
    }
    if board.line.as_ref().is_some_and(|l| l.busy()) && progress.remark.is_none() {
        notes.push(T::LineReplying.get(settings.lang).to_string());
    }
    let line_buttons = board.line.as_ref().map(|l| l.before_miss.is_some());
    let lang = settings.lang;
    let actions = |panel: &mut ChildSpawnerCommands| {
        let Some(missed) = line_buttons else {
            return;
        };
        panel.spawn(widgets::row()).with_children(|row| {
            if missed {
                spawn_line_button::<G>(row, &fonts, lang, LineButton::TakeBack);
            }
            spawn_line_button::<G>(row, &fonts, lang, LineButton::Restart);
            spawn_line_button::<G>(row, &fonts, lang, LineButton::ShowAnswer);
        });
    };
    tutorial::spawn_panel(
        &mut commands,
        scope,
        &fonts,
        settings.lang,
        &progress,
        &notes,
        earned,
        back,
        panel_node(*layout, 300.0),
        actions,
    );
}

/// A button of a problem played as a line (tests find them).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineButton {
    /// 一手戻す: back to before the refuted move.
    TakeBack,
    /// 最初から: the diagram again.
    Restart,
    /// 答えを見る: the line played out from the diagram.
    ShowAnswer,
}

fn spawn_line_button<G: Playable>(
    parent: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: crate::shell::i18n::Lang,
    which: LineButton,
) {
    let key = match which {
        LineButton::TakeBack => T::LineTakeBack,
        LineButton::Restart => T::LineRestart,
        LineButton::ShowAnswer => T::LineShowAnswer,
    };
    parent
        .spawn((
            widgets::key_button(fonts, lang, key, which == LineButton::TakeBack),
            which,
        ))
        .observe(
            move |_: On<Pointer<Click>>,
                  mut board: ResMut<TutorialBoard<G>>,
                  mut progress: ResMut<TutorialProgress>| {
                let (board, progress) = (&mut *board, &mut *progress);
                match which {
                    LineButton::TakeBack => take_back(board, progress),
                    LineButton::Restart => restart_line(board, progress),
                    LineButton::ShowAnswer => show_answer(board, progress),
                }
            },
        );
}

/// A button of the choice the taps left (成る / 成らない, じっと; `None`:
/// やめる); tests find it by its index.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TutorialChoiceButton(pub Option<usize>);

/// Offers the choice over the board, as the play screen does.
fn spawn_choice<G: Playable>(
    commands: &mut Commands,
    scope: impl Bundle,
    board: &TutorialBoard<G>,
    fonts: &Fonts,
    lang: crate::shell::i18n::Lang,
) {
    commands
        .spawn((scope, widgets::choice_panel()))
        .with_children(|panel| {
            let offered = board
                .choice
                .iter()
                .enumerate()
                .map(|(i, &mv)| (Some(i), board.game.choice_text(&board.pos, mv, lang)));
            let cancel = std::iter::once((None, T::Cancel.get(lang).to_string()));
            for (pick, caption) in offered.chain(cancel) {
                panel
                    .spawn((
                        widgets::button(fonts, caption, pick == Some(0)),
                        TutorialChoiceButton(pick),
                    ))
                    .observe(
                        move |_: On<Pointer<Click>>,
                              mut board: ResMut<TutorialBoard<G>>,
                              mut progress: ResMut<TutorialProgress>,
                              mut store: ResMut<Store>,
                              mut sfx: MessageWriter<Sfx>| {
                            if let Some(s) = choose(&mut board, &mut progress, pick) {
                                sfx.write(s);
                                if progress.feedback == Some(true) {
                                    save_step::<G>(&mut store, &progress);
                                }
                            }
                        },
                    );
            }
        });
}
