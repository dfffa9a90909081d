//! What a player reads is true: every level file (`levels/`) checked
//! against the rules engines, not only parsed. A diagram that names the
//! start position is the start position; every arrow and try-it move is
//! legal where it is drawn (a line of play move by move); an answer that
//! could promote says whether it does; a staged situation (中将棋's 先獅子)
//! is one a game can reach; what a step declares its move does (`captures`,
//! `wins`, `safe`, `opens_gap`) is what the move does when played; and no
//! field is unknown or missing.
//!
//! `yorimichi check` also reads the move each step asks for with the
//! engine (the `engine` module): it must be one the engine would play, or a mistake
//! the step declares. The loaders leave that reading out, so the app starts
//! quickly.
//!
//! The loaders in [`crate::rules::data`] run these checks (and refuse a
//! file with the first problem); `yorimichi check` runs them over a whole
//! folder and lists every problem.

mod engine;
mod numbers;
mod stages;
mod steps;
mod themes;

use std::path::Path;

use super::board::BoardGraph;
use super::data::{self, LevelFile, NamedMove, Tutorial};
use super::game::{Game, Outcome};
use super::levels::LevelError;
use super::mawari::levels as mawari_levels;

#[cfg(all(feature = "app", not(target_arch = "wasm32")))]
pub(crate) use engine::CHUSHOGI as CHUSHOGI_READING;
pub(crate) use stages::{chushogi, foxgeese, hasami, musashi};
pub(crate) use steps::{check_tutorial, check_tutorial_reading};

/// A step's game so far: the positions from its diagram through its
/// `history` (the last is where the step begins) and the moves between.
pub struct StepGame<G: Game> {
    pub positions: Vec<G::Pos>,
    pub moves: Vec<G::Move>,
}

impl<G: Game> StepGame<G> {
    /// Where the step begins.
    pub fn position(&self) -> &G::Pos {
        self.positions
            .last()
            .expect("a step game starts with its diagram")
    }
    /// The keys of the game's positions so far, oldest first.
    pub fn keys(&self, game: &G) -> Vec<u64> {
        self.positions.iter().map(|p| game.hash(p)).collect()
    }

    /// The moves allowed where the step begins: the legal moves less those
    /// the game so far forbids (中将棋's 千日手).
    pub fn allowed(&self, game: &G) -> Vec<G::Move> {
        let mut legal = Vec::new();
        game.legal_moves(self.position(), &mut legal);
        let forbidden = game.forbidden_moves(&self.positions, &self.moves);
        legal.retain(|m| !forbidden.contains(m));
        legal
    }

    /// How the game ends at once after `mv` where the step begins, the
    /// game so far counted (a fourth occurrence, 中将棋's 千日手).
    pub fn outcome_after(&self, game: &G, mv: G::Move) -> Option<Outcome> {
        let after = game.play(self.position(), mv);
        let key = game.hash(&after);
        let occurrences = 1 + self
            .positions
            .iter()
            .filter(|p| game.hash(p) == key)
            .count() as u32;
        let mut positions = self.positions.clone();
        positions.push(after.clone());
        let mut moves = self.moves.clone();
        moves.push(mv);
        game.outcome(&after)
            .or_else(|| game.history_outcome(&positions, &moves, occurrences))
    }
}

/// Plays a step's `history` from its diagram `start` (by point names on
/// `graph`); the message names the first move that is not allowed.
pub fn replay<G: Game>(
    game: &G,
    graph: &BoardGraph,
    start: G::Pos,
    history: &[NamedMove],
) -> Result<StepGame<G>, (usize, String)> {
    let mut played = StepGame {
        positions: vec![start],
        moves: Vec::new(),
    };
    for (i, m) in history.iter().enumerate() {
        let find = |name: &str| {
            graph
                .find(name)
                .ok_or_else(|| (i, format!("unknown point \"{name}\"")))
        };
        let ends = (find(&m.from)?, find(&m.to)?);
        let via = match &m.via {
            Some(v) => Some(find(v)?),
            None => None,
        };
        let mv = played
            .allowed(game)
            .into_iter()
            .find(|&mv| {
                data::move_matches(game, mv, ends, via)
                    && m.promote.is_none_or(|p| game.promotes(mv) == p)
            })
            .ok_or_else(|| {
                let place = match i {
                    0 => "in the diagram".to_string(),
                    1 => "after the move before it".to_string(),
                    _ => format!("after the {i} moves before it"),
                };
                (
                    i,
                    format!("{}→{} is not a legal move {place}", m.from, m.to),
                )
            })?;
        let next = game.play(played.position(), mv);
        played.positions.push(next);
        played.moves.push(mv);
    }
    Ok(played)
}

/// The outcome of checking one file: what it holds (when it reads at
/// all), how many items (steps, presets, sections) were checked, and the
/// problems found.
#[derive(Debug)]
pub(crate) struct Checked<T> {
    pub(crate) value: Option<T>,
    pub(crate) items: usize,
    pub(crate) problems: Vec<LevelError>,
}

impl<T> Checked<T> {
    fn failed(e: LevelError) -> Self {
        Checked {
            value: None,
            items: 0,
            problems: vec![e],
        }
    }
    /// The file's data, or its first problem.
    pub(crate) fn into_result(mut self) -> Result<T, LevelError> {
        if !self.problems.is_empty() {
            return Err(self.problems.swap_remove(0));
        }
        self.value
            .ok_or_else(|| LevelError::new("levels", "", "nothing was read"))
    }
}

/// A whole check: files and items looked at, and every problem.
#[derive(Debug, Default)]
pub struct Report {
    pub files: usize,
    pub items: usize,
    pub problems: Vec<LevelError>,
}

impl Report {
    /// `checked N files, M items`, or one `file: item: reason` line per
    /// problem.
    pub fn lines(&self) -> Vec<String> {
        if self.problems.is_empty() {
            vec![format!(
                "checked {} files, {} items",
                self.files, self.items
            )]
        } else {
            self.problems.iter().map(ToString::to_string).collect()
        }
    }
}

/// Items counted for a file that reads as one thing.
fn one<T>(r: Result<T, LevelError>) -> (usize, Vec<LevelError>) {
    match r {
        Ok(_) => (1, Vec::new()),
        Err(e) => (0, vec![e]),
    }
}

fn counted<T>(r: Result<T, LevelError>, count: impl Fn(&T) -> usize) -> (usize, Vec<LevelError>) {
    match r {
        Ok(v) => (count(&v), Vec::new()),
        Err(e) => (0, vec![e]),
    }
}

fn tutorial(checked: Checked<Tutorial>) -> (usize, Vec<LevelError>) {
    (checked.items, checked.problems)
}

/// How deep `yorimichi check` reads the moves the steps ask for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Depth {
    /// Each game's reading as `make test` runs it (the `engine` module's
    /// constants).
    #[default]
    Quick,
    /// Deeper, with ten times the nodes (`yorimichi check --deep`, run by
    /// `make soak`): deep enough to see the refutations a strong player
    /// finds beyond the quick reading.
    Deep,
}

/// Checks one level file: `relative` is its path under the levels folder
/// (`tutorials/hasami.ron`), `file` the name messages give it.
pub fn check_file(file: &str, relative: &str, text: &str) -> (usize, Vec<LevelError>) {
    check_file_at(file, relative, text, Depth::Quick)
}

/// [`check_file`] with the moves read at `depth`.
pub fn check_file_at(
    file: &str,
    relative: &str,
    text: &str,
    depth: Depth,
) -> (usize, Vec<LevelError>) {
    let unknown = || {
        (
            0,
            vec![LevelError::new(
                file,
                "file",
                "not a level file the program reads (no check knows it)",
            )],
        )
    };
    let Some((folder, name)) = relative.split_once('/') else {
        return unknown();
    };
    let Some(stem) = name.strip_suffix(".ron") else {
        return unknown();
    };
    let game = || data::GameId::ALL.into_iter().find(|g| g.id() == stem);
    match (folder, stem) {
        ("boards", _) => one(BoardGraph::from_ron(file, text)),
        ("presets", "hasami") => {
            counted(data::hasami_presets_from(file, text), |p| p.presets.len())
        }
        ("presets", "foxgeese") => {
            counted(data::foxgeese_presets_from(file, text), |p| p.presets.len())
        }
        ("presets", "musashi") => {
            counted(data::musashi_presets_from(file, text), |p| p.presets.len())
        }
        ("presets", "chushogi") => {
            counted(data::chushogi_presets_from(file, text), |p| p.presets.len())
        }
        ("presets", "mawari") => {
            counted(mawari_levels::presets_from(file, text), |p| p.presets.len())
        }
        ("rules", _) if game().is_some() => {
            counted(data::rules_text_from(file, text), |r| r.sections.len())
        }
        ("tutorials", "hasami") => match hasami() {
            Ok(stage) => tutorial(check_tutorial_reading(file, text, &stage.at(depth))),
            Err(e) => (0, vec![e]),
        },
        ("tutorials", "foxgeese") => match foxgeese() {
            Ok(stage) => tutorial(check_tutorial_reading(file, text, &stage.at(depth))),
            Err(e) => (0, vec![e]),
        },
        ("tutorials", "musashi") => match musashi() {
            Ok(stage) => tutorial(check_tutorial_reading(file, text, &stage.at(depth))),
            Err(e) => (0, vec![e]),
        },
        ("tutorials", "chushogi") | ("lessons", _) | ("problems", _)
            if folder == "tutorials" || stem.starts_with("chushogi") =>
        {
            match chushogi() {
                Ok(stage) => tutorial(check_tutorial_reading(file, text, &stage.at(depth))),
                Err(e) => (0, vec![e]),
            }
        }
        ("tutorials", "mawari") => match mawari_levels::presets() {
            Ok(presets) => counted(mawari_levels::lesson_from(file, text, &presets), |l| {
                l.steps.len()
            }),
            Err(e) => (0, vec![e]),
        },
        _ => unknown(),
    }
}

/// Checks the level files compiled into the program.
pub fn check_compiled(depth: Depth) -> Report {
    let mut report = Report::default();
    for f in data::level_files() {
        add(&mut report, f.path, relative(f), f.text, depth);
    }
    report
}

/// The path of a compiled-in file under the levels folder.
fn relative(f: &LevelFile) -> &str {
    f.path.strip_prefix("levels/").unwrap_or(f.path)
}

fn add(report: &mut Report, file: &str, relative: &str, text: &str, depth: Depth) {
    let (items, problems) = check_file_at(file, relative, text, depth);
    report.files += 1;
    report.items += items;
    report.problems.extend(problems);
}

/// Checks every file of the levels folder `dir`: each one the program
/// reads must be there, and every file there must be one it reads.
pub fn check_dir(dir: &Path, depth: Depth) -> Result<Report, String> {
    let mut found = Vec::new();
    collect(dir, dir, &mut found)?;
    found.sort();
    let mut report = Report::default();
    let name = |rel: &str| format!("{}/{rel}", dir.display()).replace("//", "/");
    for f in data::level_files() {
        if !found.iter().any(|r| r == relative(f)) {
            report.problems.push(LevelError::new(
                &name(relative(f)),
                "file",
                "missing: the program reads this file",
            ));
        }
    }
    for rel in &found {
        let path = dir.join(rel);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        add(&mut report, &name(rel), rel, &text, depth);
    }
    Ok(report)
}

/// Every file under `dir`, as paths relative to `root` with `/`.
fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            collect(root, &path, out)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    Ok(())
}
