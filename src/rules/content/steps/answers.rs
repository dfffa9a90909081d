//! The checks of what a step asks and claims: its arrows (a line of play
//! or alternatives), the engine's reading of the asked move, a problem's
//! words, the answer's text and the claims of the numbers.

use super::{Move, Played, Pos, StepCheck};
use crate::rules::content::engine;
use crate::rules::content::stages::Staged;
use crate::rules::game::Game;

impl<S: Staged> StepCheck<'_, S> {
    /// Checks the arrows: one line of play (each move legal in turn), or
    /// alternatives from the diagram. Returns what the claims are about:
    /// the line's last move, or each alternative.
    pub(super) fn arrows(&mut self, pos: &Pos<S>) -> Option<Vec<Played<S>>> {
        let arrows = &self.step.arrows;
        if arrows.is_empty() {
            return None;
        }
        let game = self.stage.game();
        // Arrows that continue one another are the legs of one move.
        let mut groups: Vec<(usize, usize)> = Vec::new();
        for i in 0..arrows.len() {
            match groups.last_mut() {
                Some((_, end)) if arrows[*end - 1].to == arrows[i].from => *end = i + 1,
                _ => groups.push((i, i + 1)),
            }
        }
        let choices = self.step.arrow_choices;
        let mut at = pos.clone();
        let mut line: Vec<String> = Vec::new();
        let mut subject = Vec::new();
        for (start, end) in groups {
            let what = format!("arrows[{start}]");
            let spec = self.spec(&arrows[start..end], &what)?;
            let place = if line.is_empty() {
                "in the diagram".to_string()
            } else {
                format!("after {}", line.join(", "))
            };
            if !choices
                && !line.is_empty()
                && !self.step.pieces_left_out
                && let Some(o) = game.outcome(&at)
            {
                self.report(
                    &what,
                    format!(
                        "the game is over after {}: {}, but the arrows play on",
                        line.join(", "),
                        self.ending(o)
                    ),
                );
                return None;
            }
            let before = if choices { pos.clone() } else { at.clone() };
            let moves = self.legal(&before, &spec, &what, &place)?;
            if !choices {
                at = game.play(&at, moves[0]);
                line.push(spec.text.clone());
                subject.clear();
            }
            subject.push(Played {
                before,
                moves,
                text: spec.text,
            });
        }
        Some(subject)
    }

    /// The asked move is one the engine would play: its best, or within
    /// the game's margin of it; a declared mistake is worse by the margin.
    /// The mate solver's reading of the diagram for the side to move
    /// ([`Staged::forced_capture`]), read once for the checks that use it,
    /// and whether the asked move begins that mate (or keeps it).
    pub(super) fn mate_read(&self, asked: &Played<S>) -> (Option<Vec<Move<S>>>, bool) {
        let stage = self.stage;
        let mate = stage.forced_capture(&asked.before);
        let begins_it = mate.as_ref().is_some_and(|mate| {
            asked.moves.iter().any(|&mv| {
                mate.first() == Some(&mv) || stage.keeps_forced_capture(&asked.before, mv)
            })
        });
        (mate, begins_it)
    }

    /// `mating`: the asked move begins a forced capture of the king, which
    /// is the best move however the engine's shallower reading scores it.
    pub(super) fn engine(&mut self, asked: &Played<S>, mating: bool) {
        self.engine_as(asked, mating, self.step.mistake, "expect");
    }

    /// [`Self::engine`] for a move the step declares good (`mistake`
    /// false) or worse than the best; `what` is the field named.
    pub(super) fn engine_as(&mut self, asked: &Played<S>, mating: bool, mistake: bool, what: &str) {
        let stage = self.stage;
        let game = stage.game();
        let reading = stage.reading();
        let Some(begins) = &self.begins else {
            return;
        };
        let history = begins.so_far.keys(game);
        let verdict = engine::judge(
            game,
            reading,
            &asked.before,
            &history,
            &begins.allowed,
            &asked.moves,
            mistake,
        );
        let depth = reading.depth;
        match verdict {
            Some(engine::Verdict::Worse { .. }) if mating => {}
            Some(engine::Verdict::Worse { better, best, asked: score }) => {
                let better = game.move_text(&asked.before, better);
                self.report(
                    what,
                    format!(
                        "{} is not the move the engine would play: {better} gains {} more (it scores {} against {}, read {depth} plies deep; margin {}). Ask for a better move, or declare `mistake: true` if the step shows a mistake",
                        asked.text,
                        best - score,
                        engine::score_text(best),
                        engine::score_text(score),
                        reading.margin
                    ),
                );
            }
            Some(engine::Verdict::NoMistake { best, asked: score }) => self.report(
                if what == "expect" { "mistake" } else { what },
                format!(
                    "the step says {} is {}, but the engine finds it within {} of the best ({} against {}, read {depth} plies deep)",
                    asked.text,
                    if what == "expect" { "a mistake" } else { "worse" },
                    reading.margin,
                    engine::score_text(score),
                    engine::score_text(best)
                ),
            ),
            Some(engine::Verdict::Good) | None => {}
        }
    }

    /// No answer lets the opponent take the king by force where another
    /// move would not, and where the side to move can take the king by
    /// force the answer must be that mate (the mate solver's reading for
    /// both sides, [`Staged::forced_capture`]).
    /// `mate` and `mating`: [`StepCheck::mate_read`].
    pub(super) fn forced_captures(
        &mut self,
        asked: &Played<S>,
        mate: Option<&[Move<S>]>,
        mating: bool,
    ) {
        let stage = self.stage;
        let game = stage.game();
        // A step that shows a mistake may show this one.
        let (false, Some(begins)) = (self.step.mistake, &self.begins) else {
            return;
        };
        let allowed = begins.allowed.clone();
        let line_text = |pos: &Pos<S>, line: &[Move<S>]| {
            let mut at = pos.clone();
            let mut words = Vec::new();
            for &mv in line {
                words.push(game.move_text(&at, mv));
                at = game.play(&at, mv);
            }
            words.join(" ")
        };
        let mover = stage.side_name(game.side_to_move(&asked.before));
        if let Some(mate) = mate
            && !mating
        {
            self.report(
                "expect",
                format!(
                    "{} does not take the king, but {mover} takes it by force: {}. Ask for the mate",
                    asked.text,
                    line_text(&asked.before, mate)
                ),
            );
        }
        for &mv in &asked.moves {
            let after = game.play(&asked.before, mv);
            let Some(mate) = stage.forced_capture(&after) else {
                continue;
            };
            // Only a loss another move would have avoided is the answer's.
            let avoidable = allowed.iter().find(|&&other| {
                other != mv
                    && stage
                        .forced_capture(&game.play(&asked.before, other))
                        .is_none()
            });
            if let Some(&other) = avoidable {
                self.report(
                    "expect",
                    format!(
                        "after {} the opponent takes the king by force: {}; {} avoids it",
                        asked.text,
                        line_text(&after, &mate),
                        game.move_text(&asked.before, other)
                    ),
                );
            }
        }
    }

    /// A problem's words fit what its answer's line does (the stage
    /// reads the line; only problems, the steps with a `level`).
    /// `mate`: the mate the asked move begins, if it begins one (its line
    /// is then the mate solver's).
    pub(super) fn problem_words(&mut self, asked: &Played<S>, mate: Option<&[Move<S>]>) {
        let (Some(_), Some(begins)) = (self.step.level, &self.begins) else {
            return;
        };
        let game = self.stage.game();
        let history = begins.so_far.keys(game);
        let found = self.stage.problem_words(
            self.step,
            self.index,
            &asked.before,
            &history,
            &asked.moves,
            mate,
        );
        for (what, why) in found {
            self.report(what, why);
        }
    }

    /// A problem's stated answer (`正解:☗2一竪行成`) names the move.
    pub(super) fn answer_text(&mut self, played: &Played<S>) {
        let game = self.stage.game();
        let Some(right) = &self.step.right else {
            return;
        };
        let texts: Vec<String> = played
            .moves
            .iter()
            .map(|&m| game.move_text(&played.before, m))
            .collect();
        for (what, said) in [
            ("right.ja", right.ja.strip_prefix("正解:")),
            ("right.en", right.en.strip_prefix("Correct: ")),
        ] {
            if let Some(said) = said
                && !texts.iter().any(|t| t == said.trim())
            {
                self.report(
                    what,
                    format!(
                        "the answer given, {}, is not the move: that is {}",
                        said.trim(),
                        texts[0]
                    ),
                );
            }
        }
    }

    /// What the step declares its move does, against the move played.
    pub(super) fn claims(&mut self, played: &[Played<S>]) {
        let stage = self.stage;
        let game = stage.game();
        let step = self.step;
        for p in played {
            for &mv in &p.moves {
                let before = &p.before;
                let mover = game.side_to_move(before);
                let foe = mover.opponent();
                let after = game.play(before, mv);
                let taken = stage
                    .count(before, foe)
                    .saturating_sub(stage.count(&after, foe)) as u32;
                match step.captures {
                    Some(n) if n != taken => self.report(
                        "captures",
                        format!("{} takes {taken}, not {n}", p.text),
                    ),
                    None if taken > 0 && step.level.is_none() => self.report(
                        "captures",
                        format!(
                            "{} takes {taken} but the step does not say so: declare `captures: Some({taken})` and say it in the text",
                            p.text
                        ),
                    ),
                    _ => {}
                }
                if let Some(o) = game.outcome(&after)
                    && step.wins.is_none()
                    && step.draws.is_none()
                    && !step.pieces_left_out
                {
                    self.report(
                        "wins",
                        format!(
                            "{} ends the game ({}) but the step does not say so: declare `wins` or `draws` and say it in the text",
                            p.text,
                            self.ending(o)
                        ),
                    );
                }
                if let Some(wins) = step.wins {
                    let won = game
                        .outcome(&after)
                        .is_some_and(|o| o.winner == Some(mover));
                    if won != wins {
                        let does = if won { "wins" } else { "does not win" };
                        self.report("wins", format!("{} {does} at once", p.text));
                    }
                }
                if let Some(draws) = step.draws {
                    let outcome = match &self.begins {
                        Some(b) if b.key == game.hash(before) => b.so_far.outcome_after(game, mv),
                        _ => game.outcome(&after),
                    };
                    let drawn = outcome.is_some_and(|o| o.winner.is_none());
                    if drawn != draws {
                        let does = if drawn { "draws" } else { "does not draw" };
                        self.report("draws", format!("{} {does} at once", p.text));
                    }
                }
                if let Some(safe) = step.safe {
                    let mut replies = Vec::new();
                    if game.outcome(&after).is_none() {
                        game.legal_moves(&after, &mut replies);
                    }
                    let threat = replies.iter().find(|&&r| game.is_capture(&after, r));
                    if threat.is_some() == safe {
                        let says = match threat {
                            Some(&r) => format!(
                                "after {} the opponent can take: {}",
                                p.text,
                                game.move_text(&after, r)
                            ),
                            None => format!("after {} the opponent cannot take anything", p.text),
                        };
                        self.report("safe", says);
                    }
                }
                let (Some(old), Some(new)) = (stage.gaps(before), stage.gaps(&after)) else {
                    if step.opens_gap.is_some() {
                        self.report("opens_gap", "this game has no gaps to open");
                    }
                    continue;
                };
                let opened: Vec<String> = new
                    .iter()
                    .filter(|g| !old.contains(g))
                    .map(|&g| self.name(g))
                    .collect();
                match step.opens_gap {
                    Some(says) if says == opened.is_empty() => {
                        let does = if opened.is_empty() {
                            "opens no gap".to_string()
                        } else {
                            format!("opens a gap at {}", opened.join(", "))
                        };
                        self.report("opens_gap", format!("{} {does}", p.text));
                    }
                    None if !opened.is_empty() && stage.gap_keeper() == Some(mover) => self.report(
                        "opens_gap",
                        format!(
                            "{} opens a gap at {} but the step does not say so: declare `opens_gap: Some(true)` and say it in the text",
                            p.text,
                            opened.join(", ")
                        ),
                    ),
                    _ => {}
                }
            }
        }
    }
}
