//! まわり将棋's level data: the rule presets (`levels/presets/mawari.ron`)
//! and the tutorial's steps (`levels/tutorials/mawari.ron`), checked when
//! they load: every staged example is played and must show what it names,
//! and every picture of a thrown toss is simulated and must come to rest
//! as it says.

use serde::Deserialize;

use super::dice::{KomaDice, Pose, ThrowValue, Toss};
use super::physics::{MAX_TIME, Quat, V3};
use super::race::{
    BabaRule, Event, KeimaPush, MAX_DEPTH, MawariRules, OffBoardRule, Piece, Race, RaceText, Rank,
    SenkoRule, TRACK,
};
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

/// The local rules a staged example plays under where they differ from its
/// preset's (ばば going back, a 桂馬 pushed one square).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LocalRules {
    #[serde(default)]
    pub baba: Option<BabaRule>,
    #[serde(default)]
    pub keima_push: Option<KeimaPush>,
    #[serde(default)]
    pub senko: Option<SenkoRule>,
    #[serde(default)]
    pub off_board: Option<OffBoardRule>,
}

impl LocalRules {
    /// `rules` with these local rules in place of its own.
    pub fn over(self, mut rules: MawariRules) -> MawariRules {
        rules.baba = self.baba.unwrap_or(rules.baba);
        rules.keima_push = self.keima_push.unwrap_or(rules.keima_push);
        rules.senko = self.senko.unwrap_or(rules.senko);
        rules.off_board = self.off_board.unwrap_or(rules.off_board);
        rules
    }
}

/// A staged example: pieces placed by hand, the throws made from there in
/// turn, and the events they must show, in order (by
/// [`super::race::Event::name`]).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    /// A preset's id.
    pub rules: String,
    #[serde(default)]
    pub local: LocalRules,
    pub pieces: Vec<StagePiece>,
    #[serde(default)]
    pub turn: usize,
    /// Each throw's value, by whoever throws next (a war's two in turn; a
    /// player who sits out is passed over, as on the play screen).
    pub throws: Vec<ThrowValue>,
    pub expect: Vec<String>,
    /// The race after the last throw, as a race text (`fu@5/1 gin@21
    /// turn=1`), when the example says how it ends.
    #[serde(default)]
    pub end: Option<String>,
}

impl Stage {
    /// The rules the example plays under.
    pub fn rules_in(&self, presets: &MawariPresets) -> Option<MawariRules> {
        presets.rules(&self.rules).map(|r| self.local.over(r))
    }

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

/// Plays `value` as the next throw of `race`, passing first the turns of
/// those who sit out (dead), as the play screen does before it asks for a
/// throw.
pub fn throw_in_turn(race: &mut Race, value: ThrowValue) -> Vec<Event> {
    let mut events = Vec::new();
    // Bounded: with every piece dead nobody would ever throw (the race
    // brings them out after a throw, but a staged start may have none alive).
    for _ in 0..race.pieces.len() {
        if !race.sits_out() {
            break;
        }
        events.extend(race.skip_turn());
    }
    events.extend(race.apply(value));
    events
}

/// A picture of a real throw: the toss is simulated when the file loads and
/// must come to rest in `poses`; the koma are drawn where they rest.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ThrownPicture {
    pub toss: Toss,
    pub poses: [Pose; 4],
}

/// Where each koma of a picture lies: its centre and rotation on the board.
pub type Resting = [(V3, Quat); 4];

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LessonStep {
    pub title: Text,
    pub body: Text,
    /// A picture of four koma lying so (placed by hand, side by side).
    #[serde(default)]
    pub poses: Option<[Pose; 4]>,
    /// A picture of a simulated throw.
    #[serde(default)]
    pub thrown: Option<ThrownPicture>,
    /// Where the koma of `thrown` came to rest (simulated when the file
    /// loads).
    #[serde(skip)]
    pub resting: Option<Resting>,
    #[serde(default)]
    pub stage: Option<Stage>,
    /// A practice throw: the player throws the four koma as in a game and
    /// reads them; the race is not touched.
    #[serde(default)]
    pub practice: bool,
}

/// `levels/tutorials/mawari.ron`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MawariLesson {
    pub title: Text,
    pub steps: Vec<LessonStep>,
}

fn pose_list(poses: &[Pose; 4]) -> String {
    poses.map(Pose::id).join(", ")
}

/// Simulates a thrown picture's toss; it must come to rest as it says.
fn check_thrown(
    file: &str,
    place: &dyn Fn(&str) -> String,
    thrown: &ThrownPicture,
) -> Result<Resting, LevelError> {
    let throw = KomaDice::new().throw(thrown.toss, true);
    if !throw.settled {
        return Err(LevelError::new(
            file,
            &place("thrown.toss"),
            format!("the koma are still moving after {MAX_TIME} s"),
        ));
    }
    if throw.poses != thrown.poses {
        return Err(LevelError::new(
            file,
            &place("thrown.poses"),
            format!(
                "the toss comes to rest as ({}), not ({})",
                pose_list(&throw.poses),
                pose_list(&thrown.poses)
            ),
        ));
    }
    throw
        .frames
        .last()
        .copied()
        .ok_or_else(|| LevelError::new(file, &place("thrown.toss"), "the simulation kept no frame"))
}

/// Plays a staged example: its throws in turn must all be thrown, show
/// the expected events in order, and end as it says.
fn check_stage(
    file: &str,
    place: &dyn Fn(&str) -> String,
    stage: &Stage,
    presets: &MawariPresets,
) -> Result<(), LevelError> {
    let rules = stage.rules_in(presets).ok_or_else(|| {
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
    if stage.throws.is_empty() {
        return Err(LevelError::new(
            file,
            &place("stage.throws"),
            "a staged example needs a throw",
        ));
    }
    let mut race = stage
        .race(rules)
        .map_err(|e| LevelError::new(file, &place("stage.pieces"), e))?;
    let mut events = Vec::new();
    for (k, &value) in stage.throws.iter().enumerate() {
        if race.is_over() {
            return Err(LevelError::new(
                file,
                &place(&format!("stage.throws[{k}]")),
                format!("the game is over after throw {k}: this throw is never made"),
            ));
        }
        events.extend(throw_in_turn(&mut race, value));
    }
    let shown: Vec<&str> = events
        .iter()
        .map(Event::name)
        .filter(|n| *n != "Step")
        .collect();
    // The expected events in order, others allowed between them.
    let mut rest = shown.iter();
    for (k, want) in stage.expect.iter().enumerate() {
        if !rest.any(|n| n == want) {
            let after = match k {
                0 => String::new(),
                _ => format!(" after {}", stage.expect[k - 1]),
            };
            return Err(LevelError::new(
                file,
                &place(&format!("stage.expect[{k}]")),
                format!(
                    "the throws do not show {want}{after} (they show: {})",
                    shown.join(", ")
                ),
            ));
        }
    }
    if let Some(end) = &stage.end {
        let want = RaceText::parse(end)
            .map_err(|e| LevelError::new(file, &place("stage.end"), e))?
            .write();
        let got = RaceText::of(&race).write();
        if got != want {
            return Err(LevelError::new(
                file,
                &place("stage.end"),
                format!("the throws end with \"{got}\", not \"{want}\""),
            ));
        }
    }
    Ok(())
}

pub fn lesson_from(
    file: &str,
    text: &str,
    presets: &MawariPresets,
) -> Result<MawariLesson, LevelError> {
    let mut lesson: MawariLesson = ron::from_str(text).map_err(|e| LevelError::parse(file, &e))?;
    if lesson.steps.is_empty() {
        return Err(LevelError::new(file, "steps", "the tutorial has no steps"));
    }
    for (i, step) in lesson.steps.iter_mut().enumerate() {
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
        let pictured_or_staged =
            step.poses.is_some() || step.thrown.is_some() || step.stage.is_some();
        if step.practice && pictured_or_staged {
            return Err(LevelError::new(
                file,
                &place("practice"),
                "a practice throw stands alone: no picture and no staged example beside it",
            ));
        }
        if let Some(k) = step
            .poses
            .iter()
            .flatten()
            .position(|p| matches!(p, Pose::Stacked | Pose::OffBoard))
        {
            return Err(LevelError::new(
                file,
                &place(&format!("poses[{k}]")),
                "a koma on another or off the board is not placed by hand: show a thrown picture",
            ));
        }
        if step.poses.is_some() && step.thrown.is_some() {
            return Err(LevelError::new(
                file,
                &place("thrown"),
                "a step shows one picture: poses or thrown, not both",
            ));
        }
        if let Some(thrown) = &step.thrown {
            step.resting = Some(check_thrown(file, &place, thrown)?);
        }
        if let Some(stage) = &step.stage {
            // A picture beside a staged example is its first throw.
            let pictured = step.poses.or(step.thrown.map(|t| t.poses));
            if let (Some(poses), Some(&first)) = (pictured, stage.throws.first())
                && ThrowValue::of(&poses) != first
            {
                return Err(LevelError::new(
                    file,
                    &place("stage.throws[0]"),
                    format!(
                        "the picture shows {:?} but the example throws {first:?}",
                        ThrowValue::of(&poses)
                    ),
                ));
            }
            check_stage(file, &place, stage, presets)?;
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
