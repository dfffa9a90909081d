//! Level data: board shapes, rule presets, CPU strengths and tutorials,
//! read from `levels/` (compiled into the binary so that the native and web
//! builds see exactly the same data) and validated when loaded.

use serde::Deserialize;

use super::board::{BoardGraph, PointId};
use super::content;
use super::game::Side;
use super::hasami::HasamiRules;
use super::levels::LevelError;
use super::search::CpuLevel;

/// A text in both UI languages.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub ja: String,
    pub en: String,
}

/// The three CPU strengths (やさしい / ふつう / つよい).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
pub enum Strength {
    Easy,
    Normal,
    Strong,
}

impl Strength {
    pub const ALL: [Strength; 3] = [Strength::Easy, Strength::Normal, Strength::Strong];
    /// The command-line name (`easy`, `normal`, `strong`).
    pub fn id(self) -> &'static str {
        match self {
            Strength::Easy => "easy",
            Strength::Normal => "normal",
            Strength::Strong => "strong",
        }
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CpuLevels {
    pub easy: CpuLevel,
    pub normal: CpuLevel,
    pub strong: CpuLevel,
}

impl CpuLevels {
    pub fn get(&self, s: Strength) -> &CpuLevel {
        match s {
            Strength::Easy => &self.easy,
            Strength::Normal => &self.normal,
            Strength::Strong => &self.strong,
        }
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Preset<R> {
    pub id: String,
    pub name: Text,
    pub about: Text,
    pub rules: R,
}

/// `levels/presets/<game>.ron`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GamePresets<R> {
    pub board: String,
    pub presets: Vec<Preset<R>>,
    pub cpu: CpuLevels,
}

impl<R> GamePresets<R> {
    pub fn preset(&self, id: &str) -> Option<&Preset<R>> {
        self.presets.iter().find(|p| p.id == id)
    }
    /// The preset `id`, or a message that names the ids there are.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn require(&self, id: &str) -> Result<&Preset<R>, String> {
        self.preset(id).ok_or_else(|| {
            let ids: Vec<&str> = self.presets.iter().map(|p| p.id.as_str()).collect();
            format!("unknown preset \"{id}\" (presets: {})", ids.join(", "))
        })
    }
}

/// A level file compiled into the binary: its path (for messages) and text.
pub struct LevelFile {
    pub path: &'static str,
    pub text: &'static str,
}

macro_rules! level_file {
    ($path:literal) => {
        LevelFile {
            path: $path,
            text: include_str!(concat!("../../", $path)),
        }
    };
}

pub const BOARD_FILES: &[LevelFile] = &[
    level_file!("levels/boards/shogi9.ron"),
    level_file!("levels/boards/musashi33.ron"),
    level_file!("levels/boards/musashi25.ron"),
    level_file!("levels/boards/cross33.ron"),
    level_file!("levels/boards/cross33_diagonal.ron"),
    level_file!("levels/boards/chu12.ron"),
];
pub const HASAMI_PRESETS: LevelFile = level_file!("levels/presets/hasami.ron");
pub const FOXGEESE_PRESETS: LevelFile = level_file!("levels/presets/foxgeese.ron");
pub const MUSASHI_PRESETS: LevelFile = level_file!("levels/presets/musashi.ron");
pub const CHUSHOGI_PRESETS: LevelFile = level_file!("levels/presets/chushogi.ron");
pub const HASAMI_TUTORIAL: LevelFile = level_file!("levels/tutorials/hasami.ron");
pub const FOXGEESE_TUTORIAL: LevelFile = level_file!("levels/tutorials/foxgeese.ron");
pub const MUSASHI_TUTORIAL: LevelFile = level_file!("levels/tutorials/musashi.ron");
pub const CHUSHOGI_TUTORIAL: LevelFile = level_file!("levels/tutorials/chushogi.ron");
pub const CHUSHOGI_PIECE_LESSONS: LevelFile = level_file!("levels/lessons/chushogi_pieces.ron");
pub const CHUSHOGI_LION_LESSONS: LevelFile = level_file!("levels/lessons/chushogi_lion.ron");
pub const CHUSHOGI_PROBLEMS: LevelFile = level_file!("levels/problems/chushogi.ron");
pub const CHUSHOGI_TSUME: LevelFile = level_file!("levels/problems/chushogi_tsume.ron");

/// Every level file the program reads, as compiled in.
pub fn level_files() -> Vec<&'static LevelFile> {
    let mut all: Vec<&'static LevelFile> = BOARD_FILES.iter().collect();
    all.extend([
        &HASAMI_PRESETS,
        &FOXGEESE_PRESETS,
        &MUSASHI_PRESETS,
        &CHUSHOGI_PRESETS,
        &MAWARI_PRESETS,
        &HASAMI_RULES_TEXT,
        &FOXGEESE_RULES_TEXT,
        &MUSASHI_RULES_TEXT,
        &CHUSHOGI_RULES_TEXT,
        &MAWARI_RULES_TEXT,
        &HASAMI_TUTORIAL,
        &FOXGEESE_TUTORIAL,
        &MUSASHI_TUTORIAL,
        &CHUSHOGI_TUTORIAL,
        &MAWARI_TUTORIAL,
        &CHUSHOGI_PIECE_LESSONS,
        &CHUSHOGI_LION_LESSONS,
        &CHUSHOGI_PROBLEMS,
        &CHUSHOGI_TSUME,
    ]);
    all
}

/// Loads a board by name from the compiled-in board files.
pub fn board(name: &str) -> Result<BoardGraph, LevelError> {
    let file = BOARD_FILES
        .iter()
        .find(|f| f.path.ends_with(&format!("/{name}.ron")))
        .ok_or_else(|| LevelError::new("levels/boards", name, "no board file of that name"))?;
    BoardGraph::from_ron(file.path, file.text)
}

fn validate_levels(file: &str, cpu: &CpuLevels) -> Result<(), LevelError> {
    for s in Strength::ALL {
        let l = cpu.get(s);
        let place = format!("cpu.{}", s.id());
        if l.depth == 0 || l.blunder_depth == 0 {
            return Err(LevelError::new(
                file,
                &place,
                "depth and blunder_depth must be at least 1",
            ));
        }
        if !(0.0..=1.0).contains(&l.blunder_rate) {
            return Err(LevelError::new(
                file,
                &place,
                "blunder_rate must lie between 0 and 1",
            ));
        }
        if l.expert_eval && (l.plain_eval || l.plain_blunders) {
            return Err(LevelError::new(
                file,
                &place,
                "a level with expert_eval cannot also judge plainly (plain_eval, plain_blunders)",
            ));
        }
        if l.noise < 0 || l.nodes == 0 {
            return Err(LevelError::new(
                file,
                &place,
                "noise must not be negative and nodes must be positive",
            ));
        }
    }
    Ok(())
}

/// Parses and validates a presets file: presets with unique ids and valid
/// rules (`validate`), and sound CPU levels.
fn presets_from<R: serde::de::DeserializeOwned>(
    file: &str,
    text: &str,
    validate: impl Fn(&R) -> Result<(), String>,
) -> Result<GamePresets<R>, LevelError> {
    let presets: GamePresets<R> = ron::from_str(text).map_err(|e| LevelError::parse(file, &e))?;
    if presets.presets.is_empty() {
        return Err(LevelError::new(
            file,
            "presets",
            "at least one preset is needed",
        ));
    }
    for (i, p) in presets.presets.iter().enumerate() {
        let place = format!("presets[{i}] \"{}\"", p.id);
        validate(&p.rules).map_err(|e| LevelError::new(file, &place, e))?;
        if presets.presets[..i].iter().any(|q| q.id == p.id) {
            return Err(LevelError::new(file, &place, "duplicate preset id"));
        }
    }
    validate_levels(file, &presets.cpu)?;
    Ok(presets)
}

pub fn hasami_presets_from(file: &str, text: &str) -> Result<GamePresets<HasamiRules>, LevelError> {
    presets_from(file, text, HasamiRules::validate)
}

pub fn hasami_presets() -> Result<GamePresets<HasamiRules>, LevelError> {
    hasami_presets_from(HASAMI_PRESETS.path, HASAMI_PRESETS.text)
}

pub fn foxgeese_presets_from(
    file: &str,
    text: &str,
) -> Result<GamePresets<super::foxgeese::FoxGeeseRules>, LevelError> {
    presets_from(file, text, super::foxgeese::FoxGeeseRules::validate)
}

pub fn foxgeese_presets() -> Result<GamePresets<super::foxgeese::FoxGeeseRules>, LevelError> {
    foxgeese_presets_from(FOXGEESE_PRESETS.path, FOXGEESE_PRESETS.text)
}

pub fn musashi_presets_from(
    file: &str,
    text: &str,
) -> Result<GamePresets<super::musashi::MusashiRules>, LevelError> {
    presets_from(file, text, super::musashi::MusashiRules::validate)
}

pub fn chushogi_presets_from(
    file: &str,
    text: &str,
) -> Result<GamePresets<super::chu::game::ChuRules>, LevelError> {
    presets_from(file, text, super::chu::game::ChuRules::validate)
}

pub fn chushogi_presets() -> Result<GamePresets<super::chu::game::ChuRules>, LevelError> {
    chushogi_presets_from(CHUSHOGI_PRESETS.path, CHUSHOGI_PRESETS.text)
}

/// 十六むさし with the standard rules, with or without the 雪隠 (the
/// solver and position texts, whose values do not depend on the rest).
pub fn musashi_standard(setchin: bool) -> Result<super::musashi::Musashi, String> {
    use super::musashi::{Musashi, MusashiRules};
    let rules = MusashiRules {
        setchin,
        ..MusashiRules::STANDARD
    };
    Musashi::new(board(rules.board_name()).map_err(|e| e.to_string())?, rules)
}

/// Reads a 十六むさし position text on whichever board its rows fit (the
/// 33-point board's complaint when neither does), with the standard rules
/// for that board.
pub fn musashi_position(
    text: &str,
) -> Result<(super::musashi::Musashi, super::musashi::MusashiPos), String> {
    let game = musashi_standard;
    let big = game(true)?;
    match big.position_from_text(text) {
        Ok(pos) => Ok((big, pos)),
        Err(e33) => {
            let small = game(false)?;
            match small.position_from_text(text) {
                Ok(pos) => Ok((small, pos)),
                Err(_) => Err(format!("cannot read the position: {e33}")),
            }
        }
    }
}

pub fn musashi_presets() -> Result<GamePresets<super::musashi::MusashiRules>, LevelError> {
    musashi_presets_from(MUSASHI_PRESETS.path, MUSASHI_PRESETS.text)
}

/// A move in a tutorial or problem, by point names (e.g. `5九` → `5五`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct NamedMove {
    pub from: String,
    pub to: String,
    /// For a two-step move (中将棋's 獅子), the square of the first step;
    /// `None` accepts any route between `from` and `to`.
    #[serde(default)]
    pub via: Option<String>,
    /// Whether the move promotes (中将棋's 成る / 成らない). A move that
    /// may do either must say which; the answer then needs that choice.
    #[serde(default)]
    pub promote: Option<bool>,
}

/// One step of a tutorial (`levels/tutorials/<game>.ron`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TutorialStep {
    pub title: Text,
    pub text: Text,
    /// The diagram (game-specific rows, see e.g. [`HasamiPos::from_rows`](crate::rules::hasami::HasamiPos::from_rows)).
    pub board: Vec<String>,
    #[serde(default = "first")]
    pub to_move: Side,
    /// Points to highlight (by name).
    #[serde(default)]
    pub highlights: Vec<String>,
    /// Arrows to draw (from, to).
    #[serde(default)]
    pub arrows: Vec<NamedMove>,
    /// The move the player must find ("try it"); `None` for a step to read.
    #[serde(default)]
    pub expect: Option<NamedMove>,
    /// Other moves the step takes as right, each as good as `expect`
    /// (十六むさし: every move that takes as many pairs is one of them).
    #[serde(default)]
    pub also: Vec<NamedMove>,
    /// Moves that take as much as `expect` but are worse (the engine must
    /// find each worse by the game's margin): the step's `wrong` text says
    /// why the player is asked for another.
    #[serde(default)]
    pub worse: Vec<NamedMove>,
    /// Shown when the player makes another move.
    #[serde(default)]
    pub wrong: Option<Text>,
    /// Shown when the player finds the move.
    #[serde(default)]
    pub right: Option<Text>,
    /// Moves the step shows as not allowed (a lion-trading rule): checked
    /// to be illegal in the diagram. Here a move without `via` is the
    /// direct move (a leap), not any route.
    #[serde(default)]
    pub illegal: Vec<NamedMove>,
    /// A problem's difficulty, 1 (easy) to 3 (hard).
    #[serde(default)]
    pub level: Option<u8>,
    /// The diagram is the game's start position (`Some(true)`), or holds
    /// the start's pieces on purpose elsewhere (`Some(false)`). `None`
    /// decides by the title (駒の並べ方, 初期配置…) and the pieces: a
    /// diagram that names or holds the start must be the start.
    #[serde(default)]
    pub start: Option<bool>,
    /// The arrows are alternatives, each a move from the diagram; by
    /// default they are one line of play, each move legal in turn (arrows
    /// that continue one another are the legs of one move).
    #[serde(default)]
    pub arrow_choices: bool,
    /// What the step's move takes: the try-it move, else the last move of
    /// the arrows (each choice). A move that takes must declare it.
    #[serde(default)]
    pub captures: Option<u32>,
    /// The step's move wins the game at once (or, `false`, does not).
    #[serde(default)]
    pub wins: Option<bool>,
    /// The step's move ends the game in a draw at once, what its history
    /// forbids and counts included (中将棋's 千日手), or (`false`) does not.
    #[serde(default)]
    pub draws: Option<bool>,
    /// After the step's move the opponent cannot capture anything.
    #[serde(default)]
    pub safe: Option<bool>,
    /// Moves played from the diagram before the step begins, each legal in
    /// turn: the board shows the position after them, and what the game so
    /// far forbids there (中将棋's 千日手) is forbidden in the step.
    #[serde(default)]
    pub history: Vec<NamedMove>,
    /// Points whose piece (the side to move's) has no legal move: a piece
    /// the rules leave immovable.
    #[serde(default)]
    pub cannot_move: Vec<String>,
    /// 十六むさし: the step's move leaves a new gap (an empty point with a
    /// 子 on each side along one line, where the 親 stepping in takes).
    #[serde(default)]
    pub opens_gap: Option<bool>,
    /// はさみ将棋: the captures so far, 先手's then 後手's, so that a
    /// diagram can show a lead. The other games' diagrams carry none (what
    /// they have lost is what is missing from the board).
    #[serde(default)]
    pub captured: [u8; 2],
    /// The diagram shows a finished game on purpose, and how it ended.
    /// Without it the game in the diagram must still be going on.
    #[serde(default)]
    pub shows_end: Option<ShownEnd>,
    /// The diagram leaves pieces out on purpose: the step says so to the
    /// player, and the diagram is checked only for what the step claims,
    /// not as a game in progress.
    #[serde(default)]
    pub pieces_left_out: bool,
    /// The move the step asks for is a mistake shown on purpose: the
    /// engine must find it worse than its best by the game's margin,
    /// where every other asked move must be within it.
    #[serde(default)]
    pub mistake: bool,
    /// A problem played as a line (詰め中将棋): its moves in the game's
    /// notation ([`Rulebook::notation`](super::rulebook::Rulebook::notation)),
    /// the player's first and the opponent's replies between, on to the
    /// end of the game. The player plays its side against these replies;
    /// a move off the line is judged by the game
    /// ([`Rulebook::off_line`](super::rulebook::Rulebook::off_line)). The
    /// diagram holds only what the problem needs.
    #[serde(default)]
    pub line: Vec<String>,
    /// きつねとがちょう: the diagram shows the rules played with this many
    /// geese (15 or 17); by default the rules the tutorial is played with
    /// (13). A diagram with more geese than its rules start with is named.
    #[serde(default)]
    pub geese: Option<u8>,
}

/// How the finished game a step shows has ended.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub enum ShownEnd {
    Won(Side),
    Drawn,
}

impl ShownEnd {
    /// Whether `outcome` is this end.
    pub fn is(self, outcome: super::game::Outcome) -> bool {
        match self {
            ShownEnd::Won(side) => outcome.winner == Some(side),
            ShownEnd::Drawn => outcome.winner.is_none(),
        }
    }
}

impl TutorialStep {
    /// Whether the step waits for the player's move: a "try it" move or a
    /// line to play.
    pub fn asks_move(&self) -> bool {
        self.expect.is_some() || !self.line.is_empty()
    }
}

fn first() -> Side {
    Side::First
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Tutorial {
    /// Names the tutorial in saved progress (a game with several lessons).
    #[serde(default)]
    pub id: String,
    pub title: Text,
    pub steps: Vec<TutorialStep>,
}

/// Whether `mv` goes from and to the points `ends`, through `via` when that
/// is given (the middle of a two-step move).
pub fn move_matches<G: super::game::Game>(
    game: &G,
    mv: G::Move,
    ends: (PointId, PointId),
    via: Option<PointId>,
) -> bool {
    game.move_ends(mv) == ends
        && via.is_none_or(|v| {
            let path = game.move_path(mv);
            path.len() == 3 && path[1] == v
        })
}

pub fn hasami_tutorial_from(file: &str, text: &str) -> Result<Tutorial, LevelError> {
    content::check_tutorial(file, text, &content::hasami()?).into_result()
}

/// A tutorial compiled into the program, read and checked by `checked`.
/// The web build only reads it: `yorimichi check` (in `make test`) has
/// checked the very same text, and the checker stays out of the download.
fn compiled_tutorial(
    file: &LevelFile,
    checked: fn(&str, &str) -> Result<Tutorial, LevelError>,
) -> Result<Tutorial, LevelError> {
    if cfg!(target_arch = "wasm32") {
        ron::from_str(file.text).map_err(|e| LevelError::parse(file.path, &e))
    } else {
        checked(file.path, file.text)
    }
}

pub fn hasami_tutorial() -> Result<Tutorial, LevelError> {
    compiled_tutorial(&HASAMI_TUTORIAL, hasami_tutorial_from)
}

/// The games of the collection, by command-line id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
pub enum GameId {
    Hasami,
    Musashi,
    FoxGeese,
    ChuShogi,
    Mawari,
}

impl GameId {
    pub const ALL: [GameId; 5] = [
        GameId::Hasami,
        GameId::Musashi,
        GameId::FoxGeese,
        GameId::ChuShogi,
        GameId::Mawari,
    ];
    /// Games that can be played in this version.
    pub(crate) const PLAYABLE: [GameId; 5] = [
        GameId::Hasami,
        GameId::Musashi,
        GameId::FoxGeese,
        GameId::ChuShogi,
        GameId::Mawari,
    ];
    /// Games whose rules engine exists (self-play works for them), even if
    /// their screens are still to come.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) const ENGINES: [GameId; 4] = [
        GameId::Hasami,
        GameId::FoxGeese,
        GameId::Musashi,
        GameId::ChuShogi,
    ];

    pub fn id(self) -> &'static str {
        match self {
            GameId::Hasami => "hasami",
            GameId::Musashi => "musashi",
            GameId::FoxGeese => "foxgeese",
            GameId::ChuShogi => "chushogi",
            GameId::Mawari => "mawari",
        }
    }
    pub(crate) fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.id() == id)
    }
    pub(crate) fn is_playable(self) -> bool {
        Self::PLAYABLE.contains(&self)
    }
    /// Games with several lessons (a 学ぶ menu) rather than one tutorial.
    pub(crate) fn has_lessons(self) -> bool {
        self == GameId::ChuShogi
    }
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn has_engine(self) -> bool {
        Self::ENGINES.contains(&self)
    }
    /// The save key of this game's game in progress.
    pub fn save_key(self) -> String {
        format!("save.{}", self.id())
    }
    /// The key of this game's last finished game, kept for 振り返り.
    pub fn finished_key(self) -> String {
        format!("finished.{}", self.id())
    }
}

/// One page of a game's rules text.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RulesSection {
    pub title: Text,
    pub body: Text,
}

/// `levels/rules/<game>.ron`: the 遊び方 text, page by page.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RulesText {
    pub title: Text,
    pub sections: Vec<RulesSection>,
}

pub const HASAMI_RULES_TEXT: LevelFile = level_file!("levels/rules/hasami.ron");
pub const FOXGEESE_RULES_TEXT: LevelFile = level_file!("levels/rules/foxgeese.ron");
pub const MUSASHI_RULES_TEXT: LevelFile = level_file!("levels/rules/musashi.ron");
pub const CHUSHOGI_RULES_TEXT: LevelFile = level_file!("levels/rules/chushogi.ron");
pub const MAWARI_RULES_TEXT: LevelFile = level_file!("levels/rules/mawari.ron");
pub const MAWARI_PRESETS: LevelFile = level_file!("levels/presets/mawari.ron");
pub const MAWARI_TUTORIAL: LevelFile = level_file!("levels/tutorials/mawari.ron");

pub fn rules_text_from(file: &str, text: &str) -> Result<RulesText, LevelError> {
    let rules: RulesText = ron::from_str(text).map_err(|e| LevelError::parse(file, &e))?;
    if rules.sections.is_empty() {
        return Err(LevelError::new(
            file,
            "sections",
            "the rules text has no sections",
        ));
    }
    for (i, s) in rules.sections.iter().enumerate() {
        for (what, t) in [("title", &s.title), ("body", &s.body)] {
            if t.ja.trim().is_empty() || t.en.trim().is_empty() {
                return Err(LevelError::new(
                    file,
                    &format!("sections[{i}].{what}"),
                    "both the Japanese and the English text are needed",
                ));
            }
        }
    }
    Ok(rules)
}

/// The rules text of a game, if it has one.
pub fn rules_text(game: GameId) -> Option<Result<RulesText, LevelError>> {
    match game {
        GameId::Hasami => Some(rules_text_from(
            HASAMI_RULES_TEXT.path,
            HASAMI_RULES_TEXT.text,
        )),
        GameId::FoxGeese => Some(rules_text_from(
            FOXGEESE_RULES_TEXT.path,
            FOXGEESE_RULES_TEXT.text,
        )),
        GameId::Musashi => Some(rules_text_from(
            MUSASHI_RULES_TEXT.path,
            MUSASHI_RULES_TEXT.text,
        )),
        GameId::ChuShogi => Some(rules_text_from(
            CHUSHOGI_RULES_TEXT.path,
            CHUSHOGI_RULES_TEXT.text,
        )),
        GameId::Mawari => Some(rules_text_from(
            MAWARI_RULES_TEXT.path,
            MAWARI_RULES_TEXT.text,
        )),
    }
}

/// Parses the きつねとがちょう tutorial and checks every step against the
/// standard cross board (see `content::check_tutorial`; a fox's expected move
/// ends where its whole multi-jump lands).
pub fn foxgeese_tutorial_from(file: &str, text: &str) -> Result<Tutorial, LevelError> {
    content::check_tutorial(file, text, &content::foxgeese()?).into_result()
}

pub fn foxgeese_tutorial() -> Result<Tutorial, LevelError> {
    compiled_tutorial(&FOXGEESE_TUTORIAL, foxgeese_tutorial_from)
}

/// Parses the 十六むさし tutorial and checks every step against the standard
/// 33-point board (see `content::check_tutorial`).
pub fn musashi_tutorial_from(file: &str, text: &str) -> Result<Tutorial, LevelError> {
    content::check_tutorial(file, text, &content::musashi()?).into_result()
}

pub fn musashi_tutorial() -> Result<Tutorial, LevelError> {
    compiled_tutorial(&MUSASHI_TUTORIAL, musashi_tutorial_from)
}

/// Parses the 中将棋 tutorial and checks every step under the JCSA rules
/// (see `content::check_tutorial`; diagrams are SFEN ranks).
pub fn chushogi_tutorial_from(file: &str, text: &str) -> Result<Tutorial, LevelError> {
    content::check_tutorial(file, text, &content::chushogi()?).into_result()
}

pub fn chushogi_tutorial() -> Result<Tutorial, LevelError> {
    compiled_tutorial(&CHUSHOGI_TUTORIAL, chushogi_tutorial_from)
}

/// 中将棋を学ぶ: the rules tutorial, a lesson for every piece, the lion's
/// moves and trading rules, the problems, and 詰め中将棋 (the classic
/// mate problems), each checked as a tutorial.
pub fn chushogi_lessons() -> Result<Vec<Tutorial>, LevelError> {
    [
        CHUSHOGI_TUTORIAL,
        CHUSHOGI_PIECE_LESSONS,
        CHUSHOGI_LION_LESSONS,
        CHUSHOGI_PROBLEMS,
        CHUSHOGI_TSUME,
    ]
    .iter()
    .map(|f| compiled_tutorial(f, chushogi_tutorial_from))
    .collect()
}
