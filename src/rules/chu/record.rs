//! Whole 中将棋 games as text: the USI form lishogi and engines
//! read and write (`position sfen <SFEN> moves 7i7h 7d7e …`, or `startpos`
//! for the usual start), and a readable Japanese record (`1 ☗7八歩兵(←7九)`), as the play
//! screen shows it.
//! KIF, the record other programs exchange, is in `kif.rs`.

use super::Profile;
use super::moves::{ChuMove, parse_usi_in, play};
use super::notation::{Coords, screen_move};
use super::position::{ChuPosition, START_SFEN};
use super::repetition::ChuHistory;

/// A game: where it started and the moves played, every one legal.
#[derive(Clone, Debug, PartialEq)]
pub struct ChuGameText {
    pub start: ChuPosition,
    pub moves: Vec<ChuMove>,
}

impl ChuGameText {
    /// Reads `[position] (startpos | sfen <SFEN> | <SFEN>) [moves m1 m2 …]`.
    /// A trailing `resign` (as some programs write) is ignored. The message
    /// names the first move that is not legal, by number and text.
    pub fn parse(text: &str) -> Result<ChuGameText, String> {
        Self::parse_in(Profile::Jcsa, text)
    }

    /// [`ChuGameText::parse`] under `profile`'s rules.
    pub(crate) fn parse_in(profile: Profile, text: &str) -> Result<ChuGameText, String> {
        let mut words: Vec<&str> = text.split_whitespace().collect();
        if words.first() == Some(&"position") {
            words.remove(0);
        }
        let (start, rest) = match words.first() {
            None => return Err("the game text is empty".into()),
            Some(&"startpos") => (ChuPosition::start(), &words[1..]),
            Some(&"sfen") => sfen_then_rest(&words[1..])?,
            Some(_) => sfen_then_rest(&words)?,
        };
        let rest = match rest.first() {
            Some(&"moves") => &rest[1..],
            Some(other) if !looks_like_move(other) => {
                return Err(format!("expected \"moves\", not \"{other}\""));
            }
            _ => rest,
        };
        // The history refuses what 千日手 forbids (JCSA).
        let mut history = ChuHistory::new_in(profile, start.clone());
        for (i, word) in rest.iter().enumerate() {
            if *word == "resign" && i + 1 == rest.len() {
                break;
            }
            let mv = parse_usi_in(profile, history.current(), word)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            history
                .play_unless_refused(mv)
                .map_err(|e| format!("move {} ({word}): {e}", i + 1))?;
        }
        Ok(ChuGameText {
            start,
            moves: history.moves().to_vec(),
        })
    }

    /// The USI form: `position startpos moves …` from the usual start,
    /// else `position sfen <SFEN> moves …`.
    pub fn usi(&self) -> String {
        let mut text = if self.start.to_sfen() == START_SFEN {
            "position startpos".to_string()
        } else {
            format!("position sfen {}", self.start.to_sfen())
        };
        if !self.moves.is_empty() {
            text.push_str(" moves");
            for mv in &self.moves {
                text.push(' ');
                text.push_str(&mv.usi());
            }
        }
        text
    }

    /// A Japanese record: the start (`開始局面` with its SFEN when it is
    /// not the usual one), then one numbered move a line (`1 ☗7八歩兵(←7九)`).
    pub fn japanese(&self) -> String {
        let mut text = String::from("# 中将棋\n");
        if self.start.to_sfen() != START_SFEN {
            text.push_str(&format!("開始局面: {}\n", self.start.to_sfen()));
        }
        let mut pos = self.start.clone();
        let mut last_to = None;
        for (i, &mv) in self.moves.iter().enumerate() {
            let line = screen_move(&pos, mv, last_to, Coords::Japanese);
            text.push_str(&format!("{} {line}\n", i + 1));
            last_to = Some(mv.to);
            pos = play(&pos, mv);
        }
        text
    }

    /// Every position of the game, the start first and the end last.
    pub fn positions(&self) -> Vec<ChuPosition> {
        let mut positions = vec![self.start.clone()];
        for &mv in &self.moves {
            let next = play(&positions[positions.len() - 1], mv);
            positions.push(next);
        }
        positions
    }

    /// The position after every move.
    pub fn end(&self) -> ChuPosition {
        self.moves
            .iter()
            .fold(self.start.clone(), |pos, &mv| play(&pos, mv))
    }
}

/// An SFEN is four words (board, side, 先獅子 square, move number).
fn sfen_then_rest<'a>(words: &'a [&'a str]) -> Result<(ChuPosition, &'a [&'a str]), String> {
    if words.len() < 4 {
        return Err(
            "an SFEN has four fields: board, side to move, 先獅子 square, move number".into(),
        );
    }
    let pos = ChuPosition::from_sfen_start(&words[..4].join(" "))?;
    Ok((pos, &words[4..]))
}

/// Whether a word could be a USI move (starts with a file number).
fn looks_like_move(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_digit())
}
