//! The scenes of `yorimichi screenshot` and `yorimichi frames`: one
//! [`Scene`] enum, from which the command's usage text and the Makefile's
//! picture list (`yorimichi screenshot --list`) are made. The shell takes
//! the picture or times the frames ([`crate::shell::capture`]); each game's
//! file here stages its own scenes.

mod chushogi;
mod foxgeese;
mod hasami;
mod mawari;
mod musashi;
mod room;

use bevy::prelude::*;

use crate::games::play::BoardTap;
use crate::games::review::Review;
use crate::games::session::{Match, MatchSetup, Opponent, Playable, SetupDraft};
use crate::rules::data::{GameId, GamePresets};
use crate::rules::game::Side;
use crate::rules::levels::LevelError;
use crate::rules::review;
use crate::shell::capture::{CaptureSet, SETTLE_FRAMES, ScreenshotJob};
use crate::shell::settings::{BoardTheme, ChuPieceSet, Coords, PieceStyle, Settings};
use crate::shell::{ChosenGame, Screen};

/// A scene the game can picture: a screen of one game, staged as a player
/// would see it.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scene {
    Title,
    List,
    /// The game list on a phone held upright.
    ListPhone,
    Settings,
    Hasami,
    HasamiContrast,
    HasamiWin,
    HasamiSymbol,
    HasamiCapture,
    HasamiSetup,
    /// The setup with 離れた人 chosen: 部屋を作る.
    HasamiRoom,
    /// The room screen of a room just made, waiting for the other player
    /// (a real room on a server started for the picture).
    Room,
    HasamiTutorial,
    HasamiRules,
    HasamiReview,
    FoxGeese,
    FoxGeeseSymbol,
    FoxGeeseJump,
    FoxGeeseSetup,
    FoxGeeseTutorial,
    FoxGeeseReview,
    Musashi,
    MusashiCapture,
    MusashiSetup,
    MusashiTutorial,
    MusashiReview,
    Chushogi,
    ChushogiLion,
    ChushogiTutorial,
    ChushogiLearn,
    ChushogiLesson,
    ChushogiProblem,
    ChushogiTsume,
    ChushogiPhone,
    ChushogiSetup,
    /// 中将棋's setup for a room (離れた人), with a clock chosen.
    ChushogiRoom,
    ChushogiKif,
    ChushogiOneKanji,
    ChushogiMnemonic,
    ChushogiWestern,
    ChushogiReview,
    ChushogiAnalysis,
    Mawari,
    MawariThrow,
    MawariSetup,
    MawariTutorial,
    MawariPhone,
    MawariFamily,
    MawariWar,
    MawariBaba,
    MawariPractice,
    MawariReview,
    /// The strong CPU thinking on the 中将棋 board (for `frames`).
    ChushogiCpu,
}

impl Scene {
    /// Every scene, in the order of the handbook's pictures (docs/screenshots.md).
    pub const ALL: [Scene; 53] = [
        Scene::Title,
        Scene::List,
        Scene::ListPhone,
        Scene::Settings,
        Scene::Hasami,
        Scene::HasamiContrast,
        Scene::HasamiWin,
        Scene::HasamiSymbol,
        Scene::HasamiCapture,
        Scene::HasamiSetup,
        Scene::HasamiRoom,
        Scene::Room,
        Scene::HasamiTutorial,
        Scene::HasamiRules,
        Scene::HasamiReview,
        Scene::FoxGeese,
        Scene::FoxGeeseSymbol,
        Scene::FoxGeeseJump,
        Scene::FoxGeeseSetup,
        Scene::FoxGeeseTutorial,
        Scene::FoxGeeseReview,
        Scene::Musashi,
        Scene::MusashiCapture,
        Scene::MusashiSetup,
        Scene::MusashiTutorial,
        Scene::MusashiReview,
        Scene::Chushogi,
        Scene::ChushogiLion,
        Scene::ChushogiTutorial,
        Scene::ChushogiLearn,
        Scene::ChushogiLesson,
        Scene::ChushogiProblem,
        Scene::ChushogiTsume,
        Scene::ChushogiPhone,
        Scene::ChushogiSetup,
        Scene::ChushogiRoom,
        Scene::ChushogiKif,
        Scene::ChushogiOneKanji,
        Scene::ChushogiMnemonic,
        Scene::ChushogiWestern,
        Scene::ChushogiReview,
        Scene::ChushogiAnalysis,
        Scene::Mawari,
        Scene::MawariThrow,
        Scene::MawariSetup,
        Scene::MawariTutorial,
        Scene::MawariPhone,
        Scene::MawariFamily,
        Scene::MawariWar,
        Scene::MawariBaba,
        Scene::MawariPractice,
        Scene::MawariReview,
        Scene::ChushogiCpu,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scene::Title => "title",
            Scene::List => "list",
            Scene::ListPhone => "list-phone",
            Scene::Settings => "settings",
            Scene::HasamiContrast => "hasami-contrast",
            Scene::HasamiWin => "hasami-win",
            Scene::Hasami => "hasami",
            Scene::HasamiSymbol => "hasami-symbol",
            Scene::HasamiCapture => "hasami-capture",
            Scene::HasamiSetup => "hasami-setup",
            Scene::HasamiRoom => "hasami-room",
            Scene::Room => "room",
            Scene::HasamiTutorial => "hasami-tutorial",
            Scene::HasamiRules => "hasami-rules",
            Scene::HasamiReview => "hasami-review",
            Scene::FoxGeese => "foxgeese",
            Scene::FoxGeeseSymbol => "foxgeese-symbol",
            Scene::FoxGeeseJump => "foxgeese-jump",
            Scene::FoxGeeseSetup => "foxgeese-setup",
            Scene::FoxGeeseTutorial => "foxgeese-tutorial",
            Scene::FoxGeeseReview => "foxgeese-review",
            Scene::Musashi => "musashi",
            Scene::MusashiCapture => "musashi-capture",
            Scene::MusashiSetup => "musashi-setup",
            Scene::MusashiTutorial => "musashi-tutorial",
            Scene::MusashiReview => "musashi-review",
            Scene::Chushogi => "chushogi",
            Scene::ChushogiLion => "chushogi-lion",
            Scene::ChushogiTutorial => "chushogi-tutorial",
            Scene::ChushogiLearn => "chushogi-learn",
            Scene::ChushogiLesson => "chushogi-lesson",
            Scene::ChushogiProblem => "chushogi-problem",
            Scene::ChushogiTsume => "chushogi-tsume",
            Scene::ChushogiPhone => "chushogi-phone",
            Scene::ChushogiSetup => "chushogi-setup",
            Scene::ChushogiRoom => "chushogi-room",
            Scene::ChushogiKif => "chushogi-kif",
            Scene::ChushogiOneKanji => "chushogi-one-kanji",
            Scene::ChushogiMnemonic => "chushogi-mnemonic",
            Scene::ChushogiWestern => "chushogi-western",
            Scene::ChushogiReview => "chushogi-review",
            Scene::ChushogiAnalysis => "chushogi-analysis",
            Scene::Mawari => "mawari",
            Scene::MawariThrow => "mawari-throw",
            Scene::MawariSetup => "mawari-setup",
            Scene::MawariTutorial => "mawari-tutorial",
            Scene::MawariPhone => "mawari-phone",
            Scene::MawariFamily => "mawari-family",
            Scene::MawariWar => "mawari-war",
            Scene::MawariBaba => "mawari-baba",
            Scene::MawariPractice => "mawari-practice",
            Scene::MawariReview => "mawari-review",
            Scene::ChushogiCpu => "chushogi-cpu",
        }
    }

    pub fn parse(name: &str) -> Option<Scene> {
        Scene::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The names of every scene, for the usage text.
    pub fn names() -> String {
        Scene::ALL.map(Scene::name).join(", ")
    }

    /// The game the scene shows (the title and the list: はさみ将棋, the
    /// game chosen at start).
    pub fn game(self) -> GameId {
        match self {
            Scene::Title
            | Scene::List
            | Scene::ListPhone
            | Scene::Settings
            | Scene::Hasami
            | Scene::HasamiContrast
            | Scene::HasamiWin
            | Scene::HasamiSymbol
            | Scene::HasamiCapture
            | Scene::HasamiSetup
            | Scene::HasamiRoom
            | Scene::Room
            | Scene::HasamiTutorial
            | Scene::HasamiRules
            | Scene::HasamiReview => GameId::Hasami,
            Scene::FoxGeese
            | Scene::FoxGeeseSymbol
            | Scene::FoxGeeseJump
            | Scene::FoxGeeseSetup
            | Scene::FoxGeeseTutorial
            | Scene::FoxGeeseReview => GameId::FoxGeese,
            Scene::Musashi
            | Scene::MusashiCapture
            | Scene::MusashiSetup
            | Scene::MusashiTutorial
            | Scene::MusashiReview => GameId::Musashi,
            Scene::Chushogi
            | Scene::ChushogiLion
            | Scene::ChushogiTutorial
            | Scene::ChushogiLearn
            | Scene::ChushogiLesson
            | Scene::ChushogiProblem
            | Scene::ChushogiTsume
            | Scene::ChushogiPhone
            | Scene::ChushogiSetup
            | Scene::ChushogiRoom
            | Scene::ChushogiKif
            | Scene::ChushogiOneKanji
            | Scene::ChushogiMnemonic
            | Scene::ChushogiWestern
            | Scene::ChushogiReview
            | Scene::ChushogiAnalysis
            | Scene::ChushogiCpu => GameId::ChuShogi,
            Scene::Mawari
            | Scene::MawariThrow
            | Scene::MawariSetup
            | Scene::MawariTutorial
            | Scene::MawariPhone
            | Scene::MawariFamily
            | Scene::MawariWar
            | Scene::MawariBaba
            | Scene::MawariPractice
            | Scene::MawariReview => GameId::Mawari,
        }
    }

    /// Pictured for the handbook (`make screenshots`); the others only time frames.
    pub fn in_gallery(self) -> bool {
        self != Scene::ChushogiCpu
    }

    /// The title and each game's board: what `make screenshot-test` renders.
    pub fn is_smoke_test(self) -> bool {
        matches!(
            self,
            Scene::Title
                | Scene::Hasami
                | Scene::FoxGeese
                | Scene::Musashi
                | Scene::Chushogi
                | Scene::Mawari
        )
    }

    /// A phone held upright: the window turns portrait before the game opens.
    fn is_phone(self) -> bool {
        matches!(
            self,
            Scene::ChushogiPhone | Scene::MawariPhone | Scene::ListPhone
        )
    }

    /// Frames after the scene has settled at which it shows what it is for:
    /// a capture's rings, a jump's path, the koma in the air or read.
    fn extra_frames(self) -> u32 {
        match self {
            Scene::MawariThrow => 9,
            Scene::Mawari | Scene::MawariPhone => mawari::READ_FRAMES,
            // The throw read, then its value in the panel.
            Scene::MawariPractice => mawari::READ_FRAMES + 90,
            Scene::HasamiCapture | Scene::MusashiCapture => 30,
            // The winning capture, the celebration, then the result screen.
            Scene::HasamiWin => 200,
            // The lion's first step hops before the scene is taken.
            Scene::FoxGeeseJump | Scene::ChushogiLion => 45,
            // The refuted check, then the defence's reply a beat later.
            Scene::ChushogiTsume => 60,
            _ => 0,
        }
    }

    /// The job that pictures this scene into `path`.
    pub fn picture(self, path: impl Into<std::path::PathBuf>) -> ScreenshotJob {
        ScreenshotJob::new(self.name(), path, self.extra_frames())
    }

    /// The job that times `seconds` of this scene's frames.
    pub fn timing(self, seconds: f32) -> ScreenshotJob {
        ScreenshotJob::measure(self.name(), seconds, self.extra_frames())
    }
}

/// Board points a scene taps, a few frames apart (so that a hop along a
/// path has ended before the next tap).
#[derive(Resource, Default)]
struct SceneTaps(Vec<usize>);

/// Stages the scene of the capture job the shell was given, if any.
pub(crate) fn plugin(app: &mut App) {
    let Some(job) = app.world().get_resource::<ScreenshotJob>() else {
        return;
    };
    let Some(scene) = Scene::parse(&job.scene) else {
        error!("unknown scene {}", job.scene);
        app.world_mut().write_message(AppExit::error());
        return;
    };
    app.insert_resource(scene)
        .init_resource::<SceneTaps>()
        .add_systems(
            Update,
            (
                stage_screens,
                hasami::stage,
                foxgeese::stage,
                musashi::stage,
                chushogi::stage,
                mawari::stage,
                send_taps,
            )
                .chain()
                .in_set(CaptureSet::Stage),
        );
}

/// What every scene does first: the piece design (and 中将棋's piece set
/// and coordinates), the game, and the screens that need nothing staged.
fn stage_screens(
    scene: Res<Scene>,
    job: Res<ScreenshotJob>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut settings: ResMut<Settings>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) {
    if job.frame != 1 {
        return;
    }
    let scene = *scene;
    settings.piece_style = if scene.name().ends_with("-symbol") {
        PieceStyle::Symbol
    } else {
        PieceStyle::Koma
    };
    settings.chu_pieces = match scene {
        Scene::ChushogiOneKanji => ChuPieceSet::OneKanji,
        Scene::ChushogiMnemonic => ChuPieceSet::Mnemonic,
        _ => ChuPieceSet::TwoKanji,
    };
    settings.board_theme = match scene {
        Scene::HasamiContrast => BoardTheme::Contrast,
        _ => BoardTheme::Kaya,
    };
    settings.chu_coords = match scene {
        Scene::ChushogiWestern => Coords::Western,
        _ => Coords::Japanese,
    };
    commands.insert_resource(ChosenGame(scene.game()));
    match scene {
        Scene::List | Scene::ListPhone => next.set(Screen::GameList),
        Scene::Settings => next.set(Screen::Settings),
        Scene::HasamiTutorial
        | Scene::FoxGeeseTutorial
        | Scene::MusashiTutorial
        | Scene::ChushogiTutorial
        | Scene::MawariTutorial
        | Scene::MawariBaba
        | Scene::MawariPractice => next.set(Screen::Tutorial),
        Scene::HasamiRules => next.set(Screen::Rules),
        Scene::ChushogiLearn => next.set(Screen::Lessons),
        _ => {}
    }
    // A size asked for on the command line wins over the scene's own.
    if scene.is_phone() && job.size.is_none() {
        for mut w in &mut windows {
            // Drawn at twice its CSS pixels, as a phone draws it.
            w.resolution.set_scale_factor_override(Some(2.0));
            w.resolution.set(390.0, 844.0);
        }
    }
}

fn send_taps(
    job: Res<ScreenshotJob>,
    mut pending: ResMut<SceneTaps>,
    mut taps: MessageWriter<BoardTap>,
) {
    let first = SETTLE_FRAMES - 10;
    if job.frame >= first && (job.frame - first).is_multiple_of(25) && !pending.0.is_empty() {
        taps.write(BoardTap(pending.0.remove(0)));
    }
}

/// A match with 印を出す on, as the scenes show it.
fn sample_match<G: Playable>(opponent: Opponent, human_side: Side, rules: G::Rules) -> Match<G> {
    let mut setup = MatchSetup::new(opponent, human_side, "standard", rules);
    setup.marks = true;
    Match::new(setup).unwrap_or_else(|e| panic!("{e}"))
}

/// The review of a game between two やさしい CPUs (seeded; resigned after
/// `max_plies`), read to the end at once, showing the position before the
/// mistake `pick` chooses among those marked (the first if it chooses
/// none).
fn review_scene<G: Playable>(
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    m: Match<G>,
    pick: impl Fn(&Review<G>, usize) -> bool,
) {
    commands.insert_resource(picked_review(&m, pick));
    next.set(Screen::Review);
}

/// The review of `m`, read at once, at the mistake `pick` chooses.
fn picked_review<G: Playable>(m: &Match<G>, pick: impl Fn(&Review<G>, usize) -> bool) -> Review<G> {
    let presets = G::presets().unwrap_or_else(|e| panic!("{e}"));
    let mut review = Review::of_match(m, Screen::GameList);
    review.read_all_now(review::review_plan(&presets.cpu.strong, G::REVIEW_NODES));
    let marked: Vec<usize> = (0..review.moves())
        .filter(|&i| review.mistake_at(i).is_some())
        .collect();
    review.ply = marked
        .iter()
        .copied()
        .find(|&i| pick(&review, i))
        .or(marked.first().copied())
        .unwrap_or(0);
    review
}

/// 検討 from the position [`review_scene`] would show, its lines read at
/// once.
fn analysis_scene<G: Playable>(
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    m: Match<G>,
    pick: impl Fn(&Review<G>, usize) -> bool,
) {
    let presets = G::presets().unwrap_or_else(|e| panic!("{e}"));
    let plan = review::review_plan(&presets.cpu.strong, G::REVIEW_NODES);
    let review = picked_review(&m, pick);
    let (analysis_match, mut analysis) = crate::games::play::analysis_of(
        Some(m),
        &review.game,
        &review.record,
        review.ply,
        &review.setup,
        Screen::Review,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    analysis.read_now(&analysis_match, plan);
    commands.insert_resource(analysis_match);
    commands.insert_resource(analysis);
    commands.insert_resource(review);
    next.set(Screen::Play);
}

/// A game between two やさしい CPUs of `G` (seeded), from the position text
/// `start` if given, resigned by the side to move after `max_plies` if the
/// rules have not ended it.
fn cpu_game<G: Playable>(
    rules: G::Rules,
    start: Option<&str>,
    seed: u64,
    max_plies: usize,
) -> Match<G> {
    use crate::rules::search::Searcher;
    use rand::SeedableRng;
    let presets = G::presets().unwrap_or_else(|e| panic!("{e}"));
    let setup = MatchSetup::new(
        Opponent::Cpu(crate::rules::data::Strength::Normal),
        Side::First,
        "standard",
        rules,
    );
    let mut m = Match::<G>::new(setup).unwrap_or_else(|e| panic!("{e}"));
    if let Some(text) = start {
        m.restart_from(text).unwrap_or_else(|e| panic!("{e}"));
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    while m.record.outcome(&m.game).is_none() {
        if m.record.ply() >= max_plies {
            let side = m.game.side_to_move(m.record.current());
            m.record.resign(side);
            break;
        }
        let forbidden = m.record.forbidden_moves(&m.game);
        let plan = presets.cpu.easy.plan(&mut rng);
        let mut searcher =
            Searcher::new(&m.game, m.record.current().clone(), m.record.hashes(), plan)
                .restrict_root(|mv| !forbidden.contains(&mv));
        let Some(best) = searcher.run(&m.game) else {
            break;
        };
        if m.record.play(&m.game, best.best).is_err() {
            break;
        }
    }
    m
}

/// The setup screen of `G` with 自分で決める chosen (its options shown).
fn custom_setup<G: Playable>(
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    presets: Result<GamePresets<G::Rules>, LevelError>,
    adjust: impl FnOnce(&mut SetupDraft<G>),
) {
    let presets = presets.unwrap_or_else(|e| panic!("{e}"));
    let mut draft = SetupDraft::<G>::new(&presets);
    draft.preset = "custom".into();
    adjust(&mut draft);
    commands.insert_resource(draft);
    next.set(Screen::Setup);
}
