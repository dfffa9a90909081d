//! `yorimichi screenshot <scene> <out.png>`: renders one scene with the real
//! renderer, saves it, and exits. Time advances a fixed 1/60 s per frame so
//! that animations are caught at the same moment every run. Screenshots
//! never touch the player's saves.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::time::TimeUpdateStrategy;

use super::save::Store;
use super::settings::{PieceStyle, Settings};
use super::{ChosenGame, Screen};
use crate::games::play::{BoardTap, PlayMove};
use crate::games::session::{Match, MatchSetup, Opponent, Playable, SetupDraft};
use crate::rules::chu::game::{Chu, ChuRules};
use crate::rules::data::{GameId, Strength};
use crate::rules::foxgeese::{FOX, FoxGeese, FoxGeeseMove, FoxGeeseRules};
use crate::rules::game::Side;
use crate::rules::hasami::{Hasami, HasamiMove, HasamiPos, HasamiRules};
use crate::rules::musashi::{Musashi, MusashiMove, MusashiRules};
use crate::rules::record::GameRecord;

/// The scenes `yorimichi screenshot` knows.
pub const SCENES: [&str; 31] = [
    "title",
    "list",
    "hasami",
    "hasami-symbol",
    "hasami-capture",
    "hasami-setup",
    "hasami-tutorial",
    "hasami-rules",
    "foxgeese",
    "foxgeese-symbol",
    "foxgeese-jump",
    "foxgeese-setup",
    "foxgeese-tutorial",
    "musashi",
    "musashi-capture",
    "musashi-setup",
    "musashi-tutorial",
    "chushogi",
    "chushogi-lion",
    "chushogi-tutorial",
    "chushogi-learn",
    "chushogi-lesson",
    "chushogi-problem",
    "chushogi-phone",
    "chushogi-setup",
    "mawari",
    "mawari-throw",
    "mawari-setup",
    "mawari-tutorial",
    "mawari-phone",
    "chushogi-cpu",
];

#[derive(Resource, Clone, Debug)]
pub struct ScreenshotJob {
    pub scene: String,
    pub path: std::path::PathBuf,
    frame: u32,
    requested_at: Option<u32>,
    /// `yorimichi frames`: instead of a picture, time this many seconds of
    /// frames from the moment the picture would be taken.
    measure: Option<f32>,
}

impl ScreenshotJob {
    pub fn new(scene: &str, path: impl Into<std::path::PathBuf>) -> Self {
        ScreenshotJob {
            scene: scene.to_string(),
            path: path.into(),
            frame: 0,
            requested_at: None,
            measure: None,
        }
    }

    /// A picture is wanted (not frame times).
    pub fn is_picture(&self) -> bool {
        self.measure.is_none()
    }

    /// A job that times `seconds` of the scene's frames (`yorimichi frames`).
    pub fn measure(scene: &str, seconds: f32) -> Self {
        ScreenshotJob {
            measure: Some(seconds),
            ..ScreenshotJob::new(scene, "")
        }
    }
}

/// Frame times of `yorimichi frames`: the wall-clock time between frames
/// while the scene runs (animations still step 1/60 s a frame, so the same
/// scene does the same work every run).
#[derive(Resource, Debug)]
struct FrameClock {
    since: Instant,
    last: Instant,
    /// (seconds since the scene began, frame time in ms)
    samples: Vec<(f64, f64)>,
    seconds: f32,
}

/// When the program started (for the time to the first frame).
#[derive(Resource, Clone, Copy, Debug)]
pub struct LaunchedAt(pub Instant);

fn measure_frames(
    clock: Option<ResMut<FrameClock>>,
    job: Res<ScreenshotJob>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(mut clock) = clock else { return };
    let now = Instant::now();
    let dt = now.duration_since(clock.last).as_secs_f64() * 1000.0;
    clock.last = now;
    let since = now.duration_since(clock.since).as_secs_f64();
    clock.samples.push((since, dt));
    if since < f64::from(clock.seconds) {
        return;
    }
    let mut s = clock.samples.clone();
    s.sort_by(|a, b| a.1.total_cmp(&b.1));
    let at = |q: f64| s[((s.len() - 1) as f64 * q).round() as usize].1;
    // When the slowest frames came tells what caused them (a move played,
    // a search starting): printed as "ms@s".
    let slowest: Vec<String> = s
        .iter()
        .rev()
        .take(3)
        .map(|(t, ms)| format!("{ms:.1}@{t:.2}"))
        .collect();
    println!(
        "{}: {} frames in {:.1} s · median {:.1} ms · 99th percentile {:.1} ms · longest {:.1} ms (slowest ms@s: {})",
        job.scene,
        s.len(),
        clock.seconds,
        at(0.5),
        at(0.99),
        at(1.0),
        slowest.join(" ")
    );
    exit.write(AppExit::Success);
}

/// Prints how long the program took to a title screen that can be drawn
/// whole: the first frame on it once its fonts have loaded.
fn report_first_frame(
    mut commands: Commands,
    launched: Option<Res<LaunchedAt>>,
    screen: Res<State<Screen>>,
    job: Res<ScreenshotJob>,
    fonts: Res<super::widgets::Fonts>,
    assets: Res<AssetServer>,
    mut done: Local<bool>,
) {
    if *done || job.measure.is_none() || job.scene != "title" || *screen.get() != Screen::Title {
        return;
    }
    if !assets.is_loaded_with_dependencies(&fonts.ui)
        || !assets.is_loaded_with_dependencies(&fonts.koma)
    {
        return;
    }
    *done = true;
    // Timed when that frame has been drawn and read back: a screenshot of it.
    let started = launched.map(|l| l.0);
    commands
        .spawn(Screenshot::primary_window())
        .observe(move |_: On<ScreenshotCaptured>| {
            if let Some(t) = started {
                println!(
                    "title screen drawn {:.2} s after the program started",
                    t.elapsed().as_secs_f64()
                );
            }
        });
}

/// Frames to wait for fonts and the first layout before capturing.
const SETTLE_FRAMES: u32 = 40;
/// Frames after the capture move: the gold frames and red rings are shown.
const CAPTURE_FRAMES: u32 = 30;

pub fn install(app: &mut App, job: ScreenshotJob) {
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )))
    // A fresh store in a temporary folder: the scenes look as they do for a
    // player with saves on, and never touch the player's saves.
    .insert_resource(scratch_store())
    .insert_resource(job)
    .add_systems(
        Update,
        (drive, drive_mawari, report_first_frame, measure_frames).chain(),
    );
}

#[cfg(target_arch = "wasm32")]
fn scratch_store() -> Store {
    Store::new(None)
}

#[cfg(not(target_arch = "wasm32"))]
fn scratch_store() -> Store {
    let dir = std::env::temp_dir().join(format!("yorimichi-screenshot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    match std::fs::create_dir_all(&dir) {
        Ok(()) => Store::new(Some(bevy_pkv::PkvStore::new_in_dir(&dir))),
        Err(_) => Store::new(None),
    }
}

fn new_match<G: Playable>(opponent: Opponent, human_side: Side, rules: G::Rules) -> Match<G> {
    let mut setup = MatchSetup::new(opponent, human_side, "standard", rules);
    setup.marks = true;
    Match::new(setup).unwrap_or_else(|e| panic!("{e}"))
}

fn hasami_capture_match() -> Match<Hasami> {
    let mut m = new_match::<Hasami>(Opponent::Human, Side::First, HasamiRules::STANDARD);
    let rows = [
        "S.S.S..SS",
        ".........",
        ".S.......",
        "...SSF...",
        ".........",
        "......F..",
        ".F.......",
        ".........",
        "F.FF..F.F",
    ];
    let pos = HasamiPos::from_rows(&rows, Side::First, [1, 1]).unwrap_or_else(|e| panic!("{e}"));
    m.record = GameRecord::from_position(&m.game, pos);
    m
}

/// The fox about to take two geese in one turn.
fn fox_jump_match() -> (Match<FoxGeese>, FoxGeeseMove) {
    let mut m = new_match::<FoxGeese>(Opponent::Human, Side::First, FoxGeeseRules::STANDARD);
    let rows = [
        "  ...  ", "  .F.  ", "...G...", "G.....G", "GG.G.GG", "  G.G  ", "  GGG  ",
    ];
    let pos = m
        .game
        .position_from_rows(&rows, FOX)
        .unwrap_or_else(|e| panic!("{e}"));
    m.record = GameRecord::from_position(&m.game, pos);
    let at = |x, y| {
        m.game
            .board()
            .at(x, y)
            .unwrap_or_else(|| panic!("no point {x},{y}"))
    };
    let mv = FoxGeeseMove::jumps(at(3, 1), &[at(3, 3), at(3, 5)]);
    (m, mv)
}

/// 中将棋 four plies in: 先手's 獅子 has leapt to 7f, facing 後手's advanced
/// pawns. Returns the match and the board points of the lion and the pawn
/// in front of it.
fn chu_lion_match() -> (Match<Chu>, usize, usize) {
    let mut m = new_match::<Chu>(Opponent::Cpu(Strength::Normal), Side::First, ChuRules::JCSA);
    for usi in ["7j7h", "7d7e", "7h7f", "8d8e"] {
        let mv = crate::rules::chu::moves::parse_usi(m.record.current(), usi)
            .unwrap_or_else(|e| panic!("sample game: {e}"));
        if let Err(e) = m.record.play(&m.game, mv) {
            panic!("sample game: {e}");
        }
    }
    let at = |usi: &str| {
        crate::rules::chu::position::Square::parse(usi)
            .unwrap_or_else(|e| panic!("{e}"))
            .0 as usize
    };
    (m, at("7f"), at("7e"))
}

/// Frames after the capture move at which the scene is taken: the gold
/// frames and red rings are shown.
fn capture_frames(scene: &str) -> Option<u32> {
    match scene {
        // The koma in the air, then lying with their values written.
        "mawari-throw" => Some(9),
        "mawari" | "mawari-phone" => Some(MAWARI_READ_FRAMES),
        "hasami-capture" => Some(CAPTURE_FRAMES),
        "foxgeese-jump" => Some(45),
        "musashi-capture" => Some(30),
        // The lion's first step hops before the scene is taken.
        "chushogi-lion" => Some(45),
        _ => None,
    }
}

/// A four-player まわり将棋 game some throws in (every rule on), the
/// person's turn next.
fn mawari_sample_match() -> crate::games::mawari::MawariMatch {
    use crate::games::mawari::{MawariMatch, Seat};
    use crate::rules::mawari::dice::{KomaDice, Toss};
    use crate::rules::mawari::race::MawariRules;
    let seats = vec![Seat::Person, Seat::Cpu, Seat::Cpu, Seat::Cpu];
    let mut m = MawariMatch::new(seats, MawariRules::ALL, false, Some("all".into()), 7)
        .unwrap_or_else(|e| panic!("{e}"));
    let dice = KomaDice::new();
    for _ in 0..14 {
        let seed = m.next_seed();
        m.play(&dice.throw(Toss::natural(seed), false));
        if m.race.is_over() {
            break;
        }
    }
    while m.race.thrower() != Some(0) && !m.race.is_over() {
        let seed = m.next_seed();
        m.play(&dice.throw(Toss::natural(seed), false));
    }
    m
}

/// Frames from the throw to the picture of the koma read (the throw's
/// flight, then a moment of the labels).
const MAWARI_READ_FRAMES: u32 = 95;

/// まわり将棋's scenes: the person's throw at the capture frame (a drag
/// to the upper right), and the tutorial at its step of standing koma.
fn drive_mawari(
    job: Res<ScreenshotJob>,
    mut throws: MessageWriter<crate::games::mawari::ThrowRequest>,
    lesson: Option<ResMut<crate::games::mawari::lesson::LessonState>>,
) {
    if !job.scene.starts_with("mawari") {
        return;
    }
    if job.frame == SETTLE_FRAMES
        && matches!(
            job.scene.as_str(),
            "mawari" | "mawari-throw" | "mawari-phone"
        )
    {
        throws.write(crate::games::mawari::ThrowRequest(
            crate::rules::mawari::dice::Toss {
                dir_x: 0.3,
                dir_y: 1.0,
                speed: 85.0,
                seed: 26,
            },
        ));
    }
    if job.scene == "mawari-tutorial"
        && let Some(mut l) = lesson
        && l.step != 2
    {
        l.step = 2;
    }
}

fn drive(
    mut job: ResMut<ScreenshotJob>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut settings: ResMut<Settings>,
    mut hasami_moves: MessageWriter<PlayMove<Hasami>>,
    mut fox_moves: MessageWriter<PlayMove<FoxGeese>>,
    mut musashi_moves: MessageWriter<PlayMove<Musashi>>,
    mut taps: MessageWriter<BoardTap>,
    mut exit: MessageWriter<AppExit>,
    mut pending_fox_move: Local<Option<FoxGeeseMove>>,
    mut select: Local<Vec<usize>>,
    mut pending_musashi_move: Local<Option<MusashiMove>>,
    mut lesson: Local<Option<(usize, usize)>>,
    progress: Option<ResMut<crate::app::tutorial::TutorialProgress>>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) {
    job.frame += 1;
    let f = job.frame;
    let scene = job.scene.clone();
    if f == 1 {
        settings.piece_style = if scene.ends_with("-symbol") {
            PieceStyle::Symbol
        } else {
            PieceStyle::Koma
        };
        let game = if scene.starts_with("foxgeese") {
            GameId::FoxGeese
        } else if scene.starts_with("musashi") {
            GameId::Musashi
        } else if scene.starts_with("chushogi") {
            GameId::ChuShogi
        } else if scene.starts_with("mawari") {
            GameId::Mawari
        } else {
            GameId::Hasami
        };
        commands.insert_resource(ChosenGame(game));
        match scene.as_str() {
            "title" => {}
            "list" => next.set(Screen::GameList),
            "hasami-setup" => {
                // Show the 自分で決める options too.
                let mut draft = SetupDraft::<Hasami>::new(
                    &crate::rules::data::hasami_presets().unwrap_or_else(|e| panic!("{e}")),
                );
                draft.preset = "custom".into();
                commands.insert_resource(draft);
                next.set(Screen::Setup);
            }
            "foxgeese-setup" => {
                let mut draft = SetupDraft::<FoxGeese>::new(
                    &crate::rules::data::foxgeese_presets().unwrap_or_else(|e| panic!("{e}")),
                );
                draft.preset = "custom".into();
                draft.marks = true;
                commands.insert_resource(draft);
                next.set(Screen::Setup);
            }
            "hasami-tutorial" | "foxgeese-tutorial" | "musashi-tutorial" | "chushogi-tutorial" => {
                next.set(Screen::Tutorial)
            }
            "chushogi-learn" => next.set(Screen::Lessons),
            "chushogi-cpu" => {
                // The strong CPU moves first (the player took 後手): it
                // thinks while the frames are timed.
                commands.insert_resource(new_match::<Chu>(
                    Opponent::Cpu(Strength::Strong),
                    Side::Second,
                    ChuRules::JCSA,
                ));
                next.set(Screen::Play);
            }
            "chushogi-setup" => {
                let presets =
                    crate::rules::data::chushogi_presets().unwrap_or_else(|e| panic!("{e}"));
                let mut draft = SetupDraft::<Chu>::new(&presets);
                draft.preset = "custom".into();
                commands.insert_resource(draft);
                next.set(Screen::Setup);
            }
            "chushogi-phone" | "mawari-phone" => {
                // A phone held upright: the window turns portrait first,
                // then the game opens (its layout follows the window).
                for mut w in &mut windows {
                    w.resolution.set(390.0, 844.0);
                }
            }
            "chushogi-lesson" | "chushogi-problem" => {
                // The lion lessons at 付け喰い, or the first problem.
                let (index, step) = if scene == "chushogi-lesson" {
                    (2, 6)
                } else {
                    (3, 0)
                };
                commands.insert_resource(crate::app::ChosenTutorial(index));
                *lesson = Some((index, step));
                next.set(Screen::Tutorial);
            }
            "chushogi" | "chushogi-lion" => {
                // The lion selected (its whole area marked); for the
                // two-step scene, then its first step onto the pawn.
                let (m, lion, pawn) = chu_lion_match();
                *select = if scene == "chushogi" {
                    vec![lion]
                } else {
                    vec![lion, pawn]
                };
                commands.insert_resource(m);
                next.set(Screen::Play);
            }
            "musashi-setup" => {
                let presets =
                    crate::rules::data::musashi_presets().unwrap_or_else(|e| panic!("{e}"));
                let mut draft = SetupDraft::<Musashi>::new(&presets);
                draft.preset = "custom".into();
                draft.side = crate::games::session::SideChoice::Second;
                draft.marks = true;
                commands.insert_resource(draft);
                next.set(Screen::Setup);
            }
            "musashi" => {
                // The player's 子 against the CPU's 親, a few moves in: the
                // selected 子 shows its destinations and a ×.
                let mut m = new_match::<Musashi>(
                    Opponent::Cpu(Strength::Normal),
                    Side::Second,
                    MusashiRules::STANDARD,
                );
                let at = |name: &str| {
                    m.game
                        .board()
                        .find(name)
                        .unwrap_or_else(|| panic!("no point {name}"))
                };
                let step = |a: &str, b: &str| MusashiMove {
                    from: at(a) as u8,
                    to: at(b) as u8,
                };
                for mv in [step("c3", "c4"), step("b5", "b4"), step("c4", "c3")] {
                    if let Err(e) = m.record.play(&m.game, mv) {
                        panic!("sample game: {e}");
                    }
                }
                *select = vec![at("a3")];
                commands.insert_resource(m);
                next.set(Screen::Play);
            }
            "musashi-capture" => {
                let m = new_match::<Musashi>(Opponent::Human, Side::First, MusashiRules::STANDARD);
                let at = |name: &str| {
                    m.game
                        .board()
                        .find(name)
                        .unwrap_or_else(|| panic!("no point {name}"))
                };
                *pending_musashi_move = Some(MusashiMove {
                    from: at("c3") as u8,
                    to: at("b4") as u8,
                });
                commands.insert_resource(m);
                next.set(Screen::Play);
            }
            "hasami-rules" => next.set(Screen::Rules),
            "mawari" | "mawari-throw" => {
                commands.insert_resource(mawari_sample_match());
                next.set(Screen::Play);
            }
            "mawari-setup" => {
                commands.insert_resource(crate::games::mawari::MawariDraft {
                    preset: None,
                    ..default()
                });
                next.set(Screen::Setup);
            }
            "mawari-tutorial" => next.set(Screen::Tutorial),
            "hasami" | "hasami-symbol" => {
                commands.insert_resource(new_match::<Hasami>(
                    Opponent::Cpu(Strength::Normal),
                    Side::First,
                    HasamiRules::STANDARD,
                ));
                next.set(Screen::Play);
            }
            "hasami-capture" => {
                commands.insert_resource(hasami_capture_match());
                next.set(Screen::Play);
            }
            "foxgeese" | "foxgeese-symbol" => {
                let mut m = new_match::<FoxGeese>(
                    Opponent::Cpu(Strength::Normal),
                    Side::First,
                    FoxGeeseRules::STANDARD,
                );
                // A few moves in: the fox has come close, and the goose
                // selected on c3 shows one safe destination and one ×.
                let at = |x, y| {
                    m.game
                        .board()
                        .at(x, y)
                        .unwrap_or_else(|| panic!("no point {x},{y}"))
                };
                let moves = [
                    FoxGeeseMove::step(at(0, 4), at(0, 3)),
                    FoxGeeseMove::step(at(3, 3), at(3, 2)),
                    FoxGeeseMove::step(at(1, 4), at(1, 3)),
                    FoxGeeseMove::step(at(3, 2), at(2, 2)),
                ];
                for mv in moves {
                    if let Err(e) = m.record.play(&m.game, mv) {
                        panic!("sample game: {e}");
                    }
                }
                *select = vec![at(2, 4)];
                commands.insert_resource(m);
                next.set(Screen::Play);
            }
            "foxgeese-jump" => {
                let (m, mv) = fox_jump_match();
                commands.insert_resource(m);
                *pending_fox_move = Some(mv);
                next.set(Screen::Play);
            }
            other => {
                error!("unknown scene {other}");
                exit.write(AppExit::error());
            }
        }
        return;
    }
    if scene == "mawari-phone" && f == 10 {
        commands.insert_resource(mawari_sample_match());
        next.set(Screen::Play);
    }
    if scene == "chushogi-phone" && f == 10 {
        let (m, lion, _) = chu_lion_match();
        *select = vec![lion];
        commands.insert_resource(m);
        next.set(Screen::Play);
    }
    if let (Some((_, step)), Some(mut progress)) = (*lesson, progress)
        && progress.step != step
    {
        progress.step = step;
    }
    let capture_at = SETTLE_FRAMES;
    if f == capture_at {
        if scene == "hasami-capture" {
            // 7九→7四 sandwiches the two と on 6四 and 5四 against 4四.
            hasami_moves.write(PlayMove(HasamiMove { from: 74, to: 29 }));
        }
        if let Some(mv) = pending_fox_move.take() {
            fox_moves.write(PlayMove(mv));
        }
        if let Some(mv) = pending_musashi_move.take() {
            musashi_moves.write(PlayMove(mv));
        }
    }
    // Taps a few frames apart, so that a hop along a path has ended.
    if f >= SETTLE_FRAMES - 10
        && (f - (SETTLE_FRAMES - 10)).is_multiple_of(25)
        && !select.is_empty()
    {
        taps.write(BoardTap(select.remove(0)));
    }
    let shoot_at = SETTLE_FRAMES + capture_frames(&scene).unwrap_or(0);
    if let Some(seconds) = job.measure {
        // Timing starts where the picture would be taken: the moment the
        // scene shows what it is for (a capture's rings, a throw in flight).
        if f == shoot_at.saturating_sub(20) {
            let now = Instant::now();
            commands.insert_resource(FrameClock {
                since: now,
                last: now,
                samples: Vec::new(),
                seconds,
            });
        }
        return;
    }
    if f == shoot_at {
        let path = job.path.clone();
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path));
        job.requested_at = Some(f);
    }
    if let Some(at) = job.requested_at {
        if job.path.exists() && f > at + 2 {
            exit.write(AppExit::Success);
        } else if f > at + 600 {
            error!("the screenshot was not written");
            exit.write(AppExit::error());
        }
    }
}
