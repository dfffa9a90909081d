//! What the solver answers about a line: the defender's best reply to a
//! move off a problem's line ([`MateSearch::defend`]), and whether a whole
//! mating line holds ([`check_line`]).

use super::{Mate, MateSearch};
use crate::rules::chu::Profile;
use crate::rules::chu::end::{is_royal, outcome_in, royal_in_danger};
use crate::rules::chu::moves::{ChuMove, legal_moves_in, play};
use crate::rules::chu::position::ChuPosition;

/// What the defender makes of an attacker's move (a move off a problem's
/// line): [`MateSearch::defend`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Defence {
    /// The move mates all the same: the rest of a mate, the defender's
    /// reply first (its longest resistance among the replies), on to the
    /// royals taken. Empty when the move took the last royal.
    Mated(Vec<ChuMove>),
    /// After this reply the attacker has no mate by checks.
    Escapes(ChuMove),
    /// Stopped before either was known.
    Unknown,
}

impl MateSearch {
    /// The defender's answer in `pos` (the defender to move, after the
    /// attacker's move): a reply after which there is no mate, or, if
    /// every reply is mated, the reply that holds out longest with the
    /// mate that follows it. Each reply is solved in turn, its line
    /// shortened; once `stop` says yes the answer is unknown, unless a
    /// reply has escaped. [`MateSearch::nodes`] counts the whole reading.
    pub fn defend(&mut self, pos: &ChuPosition, stop: &mut dyn FnMut() -> bool) -> Defence {
        let defender = pos.to_move();
        let attacker = defender.opponent();
        if outcome_in(self.profile, pos).is_some_and(|(winner, _)| winner == Some(attacker)) {
            return Defence::Mated(Vec::new());
        }
        let mut replies = Vec::new();
        legal_moves_in(self.profile, pos, &mut replies);
        // Once `stop` has said yes, a line not yet shortened could pass for
        // the longest: the answer is then unknown.
        let mut stopped = false;
        let mut watch = || {
            stopped = stopped || stop();
            stopped
        };
        let mut longest: Option<Vec<ChuMove>> = None;
        let mut nodes = 0;
        for reply in replies {
            let after = play(pos, reply);
            let answer = match outcome_in(self.profile, &after) {
                Some((winner, _)) if winner == Some(attacker) => Mate::Proved(Vec::new()),
                Some(_) => Mate::NoMate,
                None => {
                    // `solve` counts from nothing, `shorten` adds to it.
                    let answer = match self.solve(&after, &mut watch) {
                        Mate::Proved(line) => Mate::Proved(self.shorten(&after, line, &mut watch)),
                        other => other,
                    };
                    nodes += self.nodes;
                    answer
                }
            };
            let line = match answer {
                Mate::NoMate => {
                    self.nodes = nodes;
                    return Defence::Escapes(reply);
                }
                _ if watch() => {
                    self.nodes = nodes;
                    return Defence::Unknown;
                }
                Mate::Proved(line) => line,
                Mate::Unknown => {
                    self.nodes = nodes;
                    return Defence::Unknown;
                }
            };
            if longest.as_ref().is_none_or(|l| line.len() + 1 > l.len()) {
                let mut whole = vec![reply];
                whole.extend(line);
                longest = Some(whole);
            }
        }
        self.nodes = nodes;
        // No reply at all: the defender cannot move, which the rules end.
        Defence::Mated(longest.unwrap_or_default())
    }
}

/// Checks a mating line from `start` under `profile`: every move legal,
/// every move of the side to move at the start a check (a defender royal
/// can be taken after it, or it takes one), and at its end the defender's
/// royals all taken (or the defender without a move). The message names
/// the first fault.
pub fn check_line(profile: Profile, start: &ChuPosition, line: &[ChuMove]) -> Result<(), String> {
    let attacker = start.to_move();
    let mut pos = start.clone();
    for (i, &mv) in line.iter().enumerate() {
        if outcome_in(profile, &pos).is_some() {
            return Err(format!(
                "ply {} ({}): the game is already over",
                i + 1,
                mv.usi()
            ));
        }
        let mut moves = Vec::new();
        legal_moves_in(profile, &pos, &mut moves);
        if !moves.contains(&mv) {
            return Err(format!("ply {} ({}) is not legal", i + 1, mv.usi()));
        }
        let attacking = pos.to_move() == attacker;
        let takes_royal = mv.taken(&pos).any(|(_, p)| is_royal(p));
        pos = play(&pos, mv);
        if attacking && !takes_royal && !royal_in_danger(&pos, attacker.opponent()) {
            return Err(format!("ply {} ({}) is not a check", i + 1, mv.usi()));
        }
    }
    match outcome_in(profile, &pos) {
        Some((Some(winner), _)) if winner == attacker => Ok(()),
        Some(_) => Err("the line ends with the attacker lost or drawn".to_string()),
        None => Err("the line ends before the defender's royals are taken".to_string()),
    }
}
