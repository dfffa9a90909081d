//! まわり将棋's level data: the rule presets (`levels/presets/mawari.ron`)
//! and the tutorial's steps (`levels/tutorials/mawari.ron`), checked when
//! they load: every staged example is played and must show what it names.

use serde::Deserialize;

use super::dice::{Pose, ThrowValue};
use super::race::{MAX_DEPTH, MawariRules, Piece, Race, RaceText, Rank, TRACK};
use crate::rules::data::{MAWARI_PRESETS, MAWARI_TUTORIAL, Preset, Text};
use crate::rules::levels::LevelError;

/// `levels/presets/mawari.ron`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MawariPresets {
    pub presets: Vec<Preset<MawariRules>>,
}

impl MawariPresets {
    pub fn rules(&self, id: &str) -> Option<MawariRules> {
        self.presets.iter().find(|p| p.id == id).map(|p| p.rules)
    }
}

pub fn presets_from(file: &str, text: &str) -> Result<MawariPresets, LevelError> {
    let p: MawariPresets = ron::from_str(text).map_err(|e| LevelError::parse(file, &e))?;
    if p.presets.is_empty() {
        return Err(LevelError::new(file, "presets", "there are no presets"));
    }
    for (i, preset) in p.presets.iter().enumerate() {
        if p.presets[..i].iter().any(|q| q.id == preset.id) {
            return Err(LevelError::new(
                file,
                &format!("presets[{i}].id"),
                format!("the id \"{}\" is used twice", preset.id),
            ));
        }
    }
    Ok(p)
}

pub fn presets() -> Result<MawariPresets, LevelError> {
    presets_from(MAWARI_PRESETS.path, MAWARI_PRESETS.text)
}

/// A piece of a staged example.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StagePiece {
    pub square: u8,
    pub rank: Rank,
    #[serde(default)]
    pub depth: u8,
}

/// A staged example: pieces placed by hand, one throw, and the events it
/// must show (by [`super::race::Event::name`]).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    /// A preset's id.
    pub rules: String,
    pub pieces: Vec<StagePiece>,
    #[serde(default)]
    pub turn: usize,
    pub throw: ThrowValue,
    pub expect: Vec<String>,
}

impl Stage {
    /// The race as the example sets it up.
    pub fn race(&self, rules: MawariRules) -> Result<Race, String> {
        let mut race = Race::new(self.pieces.len(), rules).map_err(|e| e.0)?;
        race.pieces = self
            .pieces
            .iter()
            .map(|p| Piece {
                square: p.square,
                rank: p.rank,
                depth: p.depth,
                out: false,
                onbu_left: None,
            })
            .collect();
        race.turn = self.turn;
        Ok(race)
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LessonStep {
    pub title: Text,
    pub body: Text,
    /// A picture of four koma lying so.
    #[serde(default)]
    pub poses: Option<[Pose; 4]>,
    #[serde(default)]
    pub stage: Option<Stage>,
}

/// `levels/tutorials/mawari.ron`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MawariLesson {
    pub title: Text,
    pub steps: Vec<LessonStep>,
}

pub fn lesson_from(
    file: &str,
    text: &str,
    presets: &MawariPresets,
) -> Result<MawariLesson, LevelError> {
    let lesson: MawariLesson = ron::from_str(text).map_err(|e| LevelError::parse(file, &e))?;
    if lesson.steps.is_empty() {
        return Err(LevelError::new(file, "steps", "the tutorial has no steps"));
    }
    for (i, step) in lesson.steps.iter().enumerate() {
        let place = |what: &str| format!("steps[{i}].{what}");
        for (what, t) in [("title", &step.title), ("body", &step.body)] {
            if t.ja.trim().is_empty() || t.en.trim().is_empty() {
                return Err(LevelError::new(
                    file,
                    &place(what),
                    "both the Japanese and the English text are needed",
                ));
            }
        }
        let Some(stage) = &step.stage else { continue };
        let rules = presets.rules(&stage.rules).ok_or_else(|| {
            LevelError::new(
                file,
                &place("stage.rules"),
                format!("no preset \"{}\"", stage.rules),
            )
        })?;
        for (k, p) in stage.pieces.iter().enumerate() {
            if p.square >= TRACK {
                return Err(LevelError::new(
                    file,
                    &place(&format!("stage.pieces[{k}].square")),
                    format!("squares are 0 to {}, not {}", TRACK - 1, p.square),
                ));
            }
            if p.depth > MAX_DEPTH {
                return Err(LevelError::new(
                    file,
                    &place(&format!("stage.pieces[{k}].depth")),
                    format!("a dead piece is at most {MAX_DEPTH} in, not {}", p.depth),
                ));
            }
        }
        if stage.turn >= stage.pieces.len() {
            return Err(LevelError::new(
                file,
                &place("stage.turn"),
                format!("there are only {} pieces", stage.pieces.len()),
            ));
        }
        let mut race = stage
            .race(rules)
            .map_err(|e| LevelError::new(file, &place("stage.pieces"), e))?;
        let events = race.apply(stage.throw);
        for want in &stage.expect {
            if !events.iter().any(|e| e.name() == want) {
                let got: Vec<&str> = events
                    .iter()
                    .map(|e| e.name())
                    .filter(|n| *n != "Step")
                    .collect();
                return Err(LevelError::new(
                    file,
                    &place("stage.expect"),
                    format!(
                        "the throw does not show {want} (it shows: {})",
                        got.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(lesson)
}

pub fn lesson() -> Result<MawariLesson, LevelError> {
    lesson_from(MAWARI_TUTORIAL.path, MAWARI_TUTORIAL.text, &presets()?)
}

/// A start position as the command line (`--position`) or the web page
/// (`?position=`) gives it: a [`RaceText`], with an optional `rules=<preset>`
/// word that sets the rules (else the setup screen's rules apply).
pub(crate) fn start_text(text: &str) -> Result<(Option<MawariRules>, RaceText), String> {
    let mut rules = None;
    let mut rest = Vec::new();
    for word in text.split_whitespace() {
        match word.strip_prefix("rules=") {
            Some(id) => {
                let presets = presets().map_err(|e| e.to_string())?;
                rules = Some(presets.rules(id).ok_or_else(|| {
                    let ids: Vec<&str> = presets.presets.iter().map(|p| p.id.as_str()).collect();
                    format!("rules={id}: no such preset ({})", ids.join(", "))
                })?);
            }
            None => rest.push(word),
        }
    }
    Ok((rules, RaceText::parse(&rest.join(" "))?))
}
