//! The checks of a tutorial file's steps (a tutorial, a lesson, the
//! problems): each diagram is played by the rules engine, and every
//! move, arrow and claim of the step must hold on it.

use super::Checked;
use super::numbers::{self, Claim, Tally};
use super::stages::Staged;
use crate::rules::board::PointId;
use crate::rules::data::{NamedMove, Text, Tutorial, TutorialStep, move_matches};
use crate::rules::game::{Game, Outcome, Side};
use crate::rules::levels::LevelError;
use crate::rules::rulebook::Rulebook;

mod answers;
mod choices;

type Pos<S> = <<S as Staged>::G as Game>::Pos;
type Move<S> = <<S as Staged>::G as Game>::Move;

/// Words in a step's title that say its diagram is the start position.
const START_TITLES: [&str; 3] = ["並べ方", "初期配置", "最初の並び"];

/// Words in a step's title that say its point is promotion: its answer
/// must promote.
const PROMOTION_TITLES: [&str; 4] = ["成る", "成って", "成れる", "成り"];

/// Words in a title that say the promotion comes later in the line (a
/// problem that prepares one): its answer need not promote.
const PREPARED_TITLES: [&str; 1] = ["ねらう"];

/// At most this many differences are listed in one message.
const SHOWN: usize = 4;

/// Parses a tutorial file and checks every step (see the module), the
/// engine's reading of the asked moves left out (the loaders).
pub(crate) fn check_tutorial<S: Staged>(file: &str, text: &str, stage: &S) -> Checked<Tutorial> {
    check(file, text, stage, false)
}

/// [`check_tutorial`] with the engine's reading of every asked move
/// (`yorimichi check`).
pub(crate) fn check_tutorial_reading<S: Staged>(
    file: &str,
    text: &str,
    stage: &S,
) -> Checked<Tutorial> {
    check(file, text, stage, true)
}

fn check<S: Staged>(file: &str, text: &str, stage: &S, reading: bool) -> Checked<Tutorial> {
    let tutorial: Tutorial = match ron::from_str(text) {
        Ok(t) => t,
        Err(e) => return Checked::failed(LevelError::parse(file, &e)),
    };
    let mut problems = Vec::new();
    if tutorial.steps.is_empty() {
        problems.push(LevelError::new(
            file,
            "steps",
            "a tutorial needs at least one step",
        ));
    }
    if !both(&tutorial.title) {
        problems.push(LevelError::new(
            file,
            "title",
            "both the Japanese and the English text are needed",
        ));
    }
    for (index, step) in tutorial.steps.iter().enumerate() {
        let mut check = StepCheck {
            stage,
            file,
            index,
            step,
            problems: Vec::new(),
            begins: None,
            reading,
        };
        check.run();
        problems.extend(check.problems);
    }
    Checked {
        items: tutorial.steps.len(),
        value: Some(tutorial),
        problems,
    }
}

/// The numbers written just before `word` in `text` (digits, ASCII or
/// full-width).
fn numbers_before(text: &str, word: &str) -> Vec<u32> {
    text.match_indices(word)
        .filter_map(|(at, _)| {
            let digits: String = text[..at]
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
                .collect();
            number(digits.chars().rev())
        })
        .collect()
}

/// The numbers written just after `word` in `text`.
fn numbers_after(text: &str, word: &str) -> Vec<u32> {
    text.match_indices(word)
        .filter_map(|(at, _)| {
            number(
                text[at + word.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit()),
            )
        })
        .collect()
}

fn number(digits: impl Iterator<Item = char>) -> Option<u32> {
    let mut value: Option<u32> = None;
    for c in digits {
        let d = c
            .to_digit(10)
            .or_else(|| ('０'..='９').contains(&c).then(|| c as u32 - '０' as u32))?;
        value = Some(value.unwrap_or(0).checked_mul(10)?.checked_add(d)?);
    }
    value
}

fn both(t: &Text) -> bool {
    !t.ja.trim().is_empty() && !t.en.trim().is_empty()
}

/// A move a step names, by points.
struct Spec {
    from: PointId,
    to: PointId,
    via: Option<PointId>,
    /// The whole path, for arrows drawn leg by leg.
    path: Option<Vec<PointId>>,
    promote: Option<bool>,
    /// As messages write it: `6七→6六→6五`, `+` for a promotion.
    text: String,
}

impl Spec {
    /// Whether `mv` is this move, promotion aside. `direct`: a move
    /// without `via` is the direct one, not any route (an illegal move).
    fn matches<G: Game>(&self, game: &G, mv: G::Move, direct: bool) -> bool {
        match &self.path {
            Some(path) => game.move_path(mv) == *path,
            None => {
                move_matches(game, mv, (self.from, self.to), self.via)
                    && !(direct && self.via.is_none() && game.move_path(mv).len() > 2)
            }
        }
    }
}

/// What the moves of a step do, from the position before each.
struct Played<S: Staged> {
    before: Pos<S>,
    moves: Vec<Move<S>>,
    text: String,
}

struct StepCheck<'a, S: Staged> {
    stage: &'a S,
    file: &'a str,
    index: usize,
    step: &'a TutorialStep,
    problems: Vec<LevelError>,
    /// Where the step begins (after its history).
    begins: Option<Begins<S>>,
    /// Whether the engine reads the asked move ([`super::engine`]).
    reading: bool,
}

/// Where a step begins: the game from its diagram through its history, and
/// what that game allows there.
struct Begins<S: Staged> {
    so_far: super::StepGame<S::G>,
    key: u64,
    allowed: Vec<Move<S>>,
}

impl<S: Staged> StepCheck<'_, S> {
    fn report(&mut self, what: &str, reason: impl Into<String>) {
        let place = if what.is_empty() {
            format!("steps[{}]", self.index)
        } else {
            format!("steps[{}].{what}", self.index)
        };
        let reason = format!("{} (step 「{}」)", reason.into(), self.step.title.ja);
        let e = LevelError::new(self.file, &place, reason);
        if !self.problems.contains(&e) {
            self.problems.push(e);
        }
    }

    fn point(&mut self, name: &str, what: &str) -> Option<PointId> {
        let p = self.stage.graph().find(name);
        if p.is_none() {
            self.report(what, format!("unknown point \"{name}\""));
        }
        p
    }

    /// The moves allowed in `pos`: where the step begins, what its
    /// history leaves allowed; elsewhere (along the arrows), the legal ones.
    fn moves_in(&self, pos: &Pos<S>) -> Vec<Move<S>> {
        let game = self.stage.game();
        match &self.begins {
            Some(b) if b.key == game.hash(pos) => b.allowed.clone(),
            _ => {
                let mut legal = Vec::new();
                game.legal_moves(pos, &mut legal);
                legal
            }
        }
    }

    fn name(&self, p: PointId) -> String {
        self.stage.graph().point(p).name.clone()
    }

    fn run(&mut self) {
        let step = self.step;
        self.texts();
        self.last_move_named();
        if let Some(level) = step.level
            && !(1..=3).contains(&level)
        {
            self.report("level", format!("a level is 1, 2 or 3, not {level}"));
        }
        if step.expect.is_some() && step.wrong.is_none() {
            self.report("", "a step with `expect` needs a `wrong` text");
        }
        let rows: Vec<&str> = step.board.iter().map(String::as_str).collect();
        let diagram = match self
            .stage
            .game()
            .diagram(&rows, step.to_move, step.captured)
        {
            Ok(p) => p,
            Err(e) => return self.report("board", e),
        };
        let game = self.stage.game();
        let so_far = match super::replay(game, self.stage.graph(), diagram, &step.history) {
            Ok(g) => g,
            Err((i, e)) => return self.report(&format!("history[{i}]"), e),
        };
        self.live(&so_far);
        let pos = so_far.position().clone();
        self.begins = Some(Begins {
            key: game.hash(&pos),
            allowed: so_far.allowed(game),
            so_far,
        });
        if let Some(why) = self.stage.impossible(&pos, step) {
            self.report("board", why);
        }
        if step.geese.is_some() && !self.stage.names_geese() {
            self.report("geese", "only きつねとがちょう's steps name a goose count");
        }
        self.line(&pos);
        self.start(&pos);
        self.highlights(&pos);
        self.illegal(&pos);
        let arrows = self.arrows(&pos);
        let expect = match &step.expect {
            Some(m) => self
                .spec(std::slice::from_ref(m), "expect")
                .and_then(|spec| {
                    let moves = self.legal(&pos, &spec, "expect", "in the diagram")?;
                    Some(vec![Played {
                        before: pos.clone(),
                        moves,
                        text: spec.text,
                    }])
                }),
            None => None,
        };
        let also = self.named(&pos, &step.also, "also");
        let worse = self.named(&pos, &step.worse, "worse");
        if let Some(played) = &expect {
            self.equal_takes(&pos, &played[0], &also, &worse);
            self.answer_text(&played[0]);
            if self.reading {
                let (mate, mating) = self.mate_read(&played[0]);
                self.engine(&played[0], mating);
                self.forced_captures(&played[0], mate.as_deref(), mating);
                // The line the problem's words read is the mate's when the
                // answer is its first move.
                let begun = mate
                    .as_deref()
                    .filter(|m| m.first().is_some_and(|f| played[0].moves.contains(f)));
                self.problem_words(&played[0], begun);
                for other in &also {
                    self.engine_as(other, false, false, "also");
                }
                for other in &worse {
                    self.engine_as(other, false, true, "worse");
                }
            }
        } else if step.mistake {
            self.report(
                "mistake",
                "the step says its move is a mistake, but it asks for no move (expect)",
            );
        }
        if let Some(m) = &step.expect
            && PROMOTION_TITLES.iter().any(|t| step.title.ja.contains(t))
            && !PREPARED_TITLES.iter().any(|t| step.title.ja.contains(t))
            && m.promote != Some(true)
        {
            self.report(
                "expect",
                "the title is about promotion, so the answer must promote (`promote: Some(true)`)",
            );
        }
        self.cannot_move(&pos);
        let has_move = step.expect.is_some() || !step.arrows.is_empty();
        let subject = if step.expect.is_some() {
            expect
        } else {
            arrows
        };
        self.numbers(&pos, subject.as_deref());
        if step.expect.is_some() {
            self.claims(&also);
        }
        match subject {
            Some(played) => self.claims(&played),
            None if !has_move && self.declares() => self.report(
                "",
                "the step says what its move does (captures, wins, draws, safe, opens_gap) but has no move (expect or arrows)",
            ),
            None => {}
        }
    }

    /// The game in the diagram, and through its history, is still going
    /// on under the rules the tutorial is played with, unless the step
    /// declares the end it shows (`shows_end`). A diagram that leaves
    /// pieces out must say so (`pieces_left_out`), and is then held only
    /// to what it claims.
    fn live(&mut self, so_far: &super::StepGame<S::G>) {
        let stage = self.stage;
        let game = stage.game();
        let step = self.step;
        match (stage.left_out(&so_far.positions[0]), step.pieces_left_out) {
            // A problem's diagram holds what the problem needs.
            (Some(Err(_)), false) if !step.line.is_empty() => {}
            (Some(Err(what)), false) => self.report(
                "board",
                format!(
                    "the diagram leaves pieces out ({what}): add them, or declare `pieces_left_out: true` (the step then says 「この図では駒を省いています」)"
                ),
            ),
            (Some(Ok(())), true) => self.report(
                "pieces_left_out",
                "the step says pieces are left out, but the diagram holds every piece a game would",
            ),
            _ => {}
        }
        let last = so_far.positions.len() - 1;
        for (i, pos) in so_far.positions.iter().enumerate() {
            let outcome = game.outcome(pos);
            let shown = if i == last { step.shows_end } else { None };
            let what = match i {
                0 => "board".to_string(),
                _ => format!("history[{}]", i - 1),
            };
            match (outcome, shown) {
                (Some(o), Some(end)) if end.is(o) => {}
                (Some(o), Some(end)) => self.report(
                    "shows_end",
                    format!("the step says {end:?}, but the game there: {}", self.ending(o)),
                ),
                (None, Some(_)) => self.report(
                    "shows_end",
                    "the step says the game is over, but under the rules it is played with it goes on",
                ),
                (Some(o), None) if !step.pieces_left_out => self.report(
                    &what,
                    format!(
                        "the game is already over here under the rules the tutorial is played with: {}. A diagram shows a game still going on, unless the step declares the end it shows (`shows_end`)",
                        self.ending(o)
                    ),
                ),
                _ => {}
            }
        }
        if step.shows_end.is_some() && (step.expect.is_some() || !step.arrows.is_empty()) {
            self.report(
                "shows_end",
                "the game is over in the diagram, so the step has no move to play (expect or arrows)",
            );
        }
    }

    /// The numbers the step's texts state about its diagram (a move's
    /// captures, a lead, points, pieces taken or left: see
    /// [`super::numbers`]) are the diagram's, and the English states each
    /// too. A `text` speaks of the diagram or of the position after the
    /// move; a `right` text of the position after it; a clause of what
    /// would have happened, and what a `text` says a move takes, of the
    /// position after any allowed move.
    fn numbers(&mut self, pos: &Pos<S>, played: Option<&[Played<S>]>) {
        let stage = self.stage;
        let game = stage.game();
        let step = self.step;
        let outcome = |before: &Pos<S>, mv: Move<S>| {
            let after = game.play(before, mv);
            let foe = game.side_to_move(before).opponent();
            let taken = stage
                .count(before, foe)
                .saturating_sub(stage.count(&after, foe));
            (stage.tally(&after), Some(taken as u32))
        };
        // A text may tell what another move would take (「d4へ入ると
        // 2つ取れる」); a `right` text tells what the move took.
        let statements: Vec<(&str, &Text, bool, numbers::Stated)> = [
            ("text", Some(&step.text), false),
            ("right", step.right.as_ref(), true),
        ]
        .into_iter()
        .filter_map(|(what, text, every)| Some((what, text?, every)))
        .flat_map(|(what, text, every)| {
            numbers::stated(&text.ja, every, stage.side_words())
                .into_iter()
                .map(move |said| (what, text, every, said))
        })
        .collect();
        if statements.is_empty() {
            return;
        }
        let now = (stage.tally(pos), None);
        let after: Vec<(Tally, Option<u32>)> = played
            .into_iter()
            .flatten()
            .flat_map(|p| p.moves.iter().map(|&mv| outcome(&p.before, mv)))
            .collect();
        // Every allowed move, read only where a sentence speaks of another.
        let other_move = |every: bool, said: &numbers::Stated| {
            said.would_have || (!every && said.claim == Claim::Taken)
        };
        let any: Vec<(Tally, Option<u32>)> = if statements
            .iter()
            .any(|(_, _, every, said)| other_move(*every, said))
        {
            self.moves_in(pos)
                .into_iter()
                .map(|mv| outcome(pos, mv))
                .collect()
        } else {
            Vec::new()
        };
        for (what, text, every, said) in statements {
            let places: Vec<&(Tally, Option<u32>)> = if other_move(every, &said) {
                any.iter().chain(&after).collect()
            } else if every {
                after.iter().collect()
            } else {
                std::iter::once(&now).chain(&after).collect()
            };
            let mut values: Vec<i32> = places
                .iter()
                .flat_map(|(tally, taken)| match said.claim {
                    Claim::Taken => taken.map(|n| vec![n as i32 * 10]).unwrap_or_default(),
                    claim => tally.value(claim).unwrap_or_default(),
                })
                .collect();
            values.sort_unstable();
            values.dedup();
            let claim = describe(said.claim, stage);
            if values.is_empty() {
                self.report(
                        what,
                        format!(
                            "the text says {} ({claim}), which the step cannot show: it has no move, or the game keeps no such count",
                            said.written
                        ),
                    );
            } else if !values.contains(&said.tenths) {
                let shown: Vec<String> = values.iter().map(|&v| in_tenths(v)).collect();
                self.report(
                    what,
                    format!(
                        "the text says {} ({claim}), but the diagram gives {}",
                        said.written,
                        shown.join(" or ")
                    ),
                );
            }
            if !numbers::english_states(&text.en, &said.written) {
                self.report(
                    what,
                    format!(
                        "the Japanese text says {} ({claim}) but the English text does not",
                        said.written
                    ),
                );
            }
        }
    }

    /// How a game ended, for messages.
    fn ending(&self, o: Outcome) -> String {
        match o.winner {
            Some(side) => format!("{} has won ({:?})", self.stage.side_name(side), o.reason),
            None => format!("it is drawn ({:?})", o.reason),
        }
    }

    fn declares(&self) -> bool {
        let s = self.step;
        s.captures.is_some()
            || s.wins.is_some()
            || s.draws.is_some()
            || s.safe.is_some()
            || s.opens_gap.is_some()
    }

    /// A problem played as a line: asked instead of a move (`expect`),
    /// with both texts for the player's tries; each move, read by the
    /// game's notation, legal in turn; the line wins as the game's
    /// problems must ([`Staged::line_fault`]); a length the title or the
    /// text states (`7手詰`, `mate in 7`: digits just before 手詰, just
    /// after "mate in") is the line's, less its last two plies (the
    /// defender's last move and the royals' capture). A book's length is
    /// written otherwise (原本の手順は11手).
    fn line(&mut self, pos: &Pos<S>) {
        let step = self.step;
        if step.line.is_empty() {
            return;
        }
        if step.expect.is_some() {
            self.report(
                "line",
                "a step asks for a move (expect) or for a line, not both",
            );
        }
        if step.wrong.is_none() || step.right.is_none() {
            self.report("line", "a step with a line needs `wrong` and `right` texts");
        }
        let moves = match self.stage.game().read_line(pos, &step.line) {
            Ok(moves) => moves,
            Err((i, why)) => return self.report(&format!("line[{i}]"), why),
        };
        if let Some(why) = self.stage.line_fault(pos, &moves) {
            self.report("line", why);
        }
        let length = step.line.len().saturating_sub(2) as u32;
        let stated = [&step.title, &step.text].into_iter().flat_map(|t| {
            numbers_before(&t.ja, "手詰")
                .into_iter()
                .chain(numbers_after(&t.en.to_lowercase(), "mate in "))
        });
        let wrong: Vec<u32> = stated.filter(|&n| n != length).collect();
        if !wrong.is_empty() {
            self.report(
                "line",
                format!(
                    "the texts state a mate in {wrong:?}, but the line mates in {length} (its plies less the last reply and the capture)"
                ),
            );
        }
    }

    fn texts(&mut self) {
        let step = self.step;
        for (what, t) in [("title", Some(&step.title)), ("text", Some(&step.text))]
            .into_iter()
            .chain([
                ("wrong", step.wrong.as_ref()),
                ("right", step.right.as_ref()),
            ])
        {
            if t.is_some_and(|t| !both(t)) {
                self.report(what, "both the Japanese and the English text are needed");
            }
        }
    }

    /// A diagram that names the start position, or holds just the start's
    /// pieces, must be the start position (the side to move included).
    fn start(&mut self, pos: &Pos<S>) {
        let step = self.step;
        let stage = self.stage;
        let game = stage.game();
        let start = game.start();
        let titled = START_TITLES.iter().any(|t| step.title.ja.contains(t));
        let pieces = |p: &Pos<S>| {
            let mut all: Vec<(usize, String)> = (0..stage.graph().len())
                .filter_map(|q| stage.piece(p, q))
                .map(|(s, n)| (s.index(), n))
                .collect();
            all.sort();
            all
        };
        let claimed = match step.start {
            Some(true) => true,
            Some(false) => {
                if titled {
                    self.report(
                        "start",
                        "the title names the start position, but the step says `start: Some(false)`",
                    );
                }
                false
            }
            None => titled || pieces(pos) == pieces(&start),
        };
        if !claimed {
            return;
        }
        let show = |p: Option<(Side, String)>| p.map_or("nothing".to_string(), |(_, n)| n);
        let mut diffs = Vec::new();
        for p in 0..stage.graph().len() {
            let (here, there) = (stage.piece(pos, p), stage.piece(&start, p));
            if here != there {
                diffs.push(format!(
                    "{} has {} where the start has {}",
                    self.name(p),
                    show(here),
                    show(there)
                ));
            }
        }
        let (here, there) = (game.side_to_move(pos), game.side_to_move(&start));
        if here != there {
            diffs.push(format!(
                "{} is to move where the start has {} to move",
                stage.side_name(here),
                stage.side_name(there)
            ));
        }
        if !diffs.is_empty() {
            let more = diffs.len().saturating_sub(SHOWN);
            let mut text = diffs[..diffs.len().min(SHOWN)].join("; ");
            if more > 0 {
                text.push_str(&format!("; and {more} more"));
            }
            self.report(
                "board",
                format!("the diagram is shown as the start position but is not: {text}"),
            );
        }
    }

    /// The move named by `legs` (one, or arrows drawn leg by leg).
    fn spec(&mut self, legs: &[NamedMove], what: &str) -> Option<Spec> {
        let first = &legs[0];
        let from = self.point(&first.from, what)?;
        let mut path = vec![from];
        for leg in legs {
            path.push(self.point(&leg.to, what)?);
        }
        let via = match &first.via {
            Some(v) => Some(self.point(v, what)?),
            None => None,
        };
        let promote = legs.iter().rev().find_map(|l| l.promote);
        let mut text: Vec<String> = path.iter().map(|&p| self.name(p)).collect();
        if let Some(v) = via {
            text.insert(1, self.name(v));
        }
        let mut text = text.join("→");
        match promote {
            Some(true) => text.push_str(" (成る)"),
            Some(false) => text.push_str(" (成らない)"),
            None => {}
        }
        Some(Spec {
            from,
            to: *path.last()?,
            via,
            path: (legs.len() > 1).then_some(path),
            promote,
            text,
        })
    }

    /// The legal moves `spec` names in `pos`; `None` (and a problem) when
    /// there are none, or when it leaves open whether the move promotes.
    fn legal(
        &mut self,
        pos: &Pos<S>,
        spec: &Spec,
        what: &str,
        place: &str,
    ) -> Option<Vec<Move<S>>> {
        let game = self.stage.game();
        let routes: Vec<Move<S>> = self
            .moves_in(pos)
            .into_iter()
            .filter(|&mv| spec.matches(game, mv, false))
            .collect();
        if routes.is_empty() {
            self.report(what, format!("{} is not a legal move {place}", spec.text));
            return None;
        }
        let up = routes.iter().any(|&m| game.promotes(m));
        let plain = routes.iter().any(|&m| !game.promotes(m));
        match spec.promote {
            None if up && plain => {
                self.report(
                    what,
                    format!(
                        "{} may promote or not {place}: say which (`promote: Some(true)` or `Some(false)`)",
                        spec.text
                    ),
                );
                return None;
            }
            Some(true) if !up => {
                self.report(what, format!("{} cannot promote {place}", spec.text));
                return None;
            }
            Some(false) if !plain => {
                self.report(what, format!("{} must promote {place}", spec.text));
                return None;
            }
            _ => {}
        }
        Some(
            routes
                .into_iter()
                .filter(|&m| spec.promote.is_none_or(|p| game.promotes(m) == p))
                .collect(),
        )
    }

    /// A highlight marks a piece, or an empty point where the step's move
    /// or arrows go.
    fn highlights(&mut self, pos: &Pos<S>) {
        let step = self.step;
        let reached: Vec<&str> = step
            .expect
            .iter()
            .chain(&step.arrows)
            .flat_map(|m| [Some(&m.from), Some(&m.to), m.via.as_ref()])
            .flatten()
            .map(String::as_str)
            .collect();
        for h in &step.highlights {
            if let Some(p) = self.point(h, "highlights")
                && self.stage.piece(pos, p).is_none()
                && !reached.contains(&h.as_str())
            {
                self.report(
                    "highlights",
                    format!("{h} is empty and no move of the step goes there: a highlight marks a piece or where the step's move goes"),
                );
            }
        }
    }

    /// Pieces the step says cannot move (中将棋's pieces left on the last
    /// rank) have no legal move.
    fn cannot_move(&mut self, pos: &Pos<S>) {
        let stage = self.stage;
        let game = stage.game();
        let legal = self.moves_in(pos);
        for (j, name) in self.step.cannot_move.iter().enumerate() {
            let what = format!("cannot_move[{j}]");
            let Some(p) = self.point(name, &what) else {
                continue;
            };
            match stage.piece(pos, p) {
                None => self.report(&what, format!("there is no piece on {name}")),
                Some((side, _)) if side != game.side_to_move(pos) => self.report(
                    &what,
                    format!("the piece on {name} is not the side to move's, so its moves are not checked"),
                ),
                Some((_, piece)) => {
                    if let Some(&mv) = legal.iter().find(|&&mv| game.move_ends(mv).0 == p) {
                        self.report(
                            &what,
                            format!("{piece} on {name} can move: {}", game.move_text(pos, mv)),
                        );
                    }
                }
            }
        }
    }

    /// Moves the step shows as not allowed must be illegal.
    fn illegal(&mut self, pos: &Pos<S>) {
        let game = self.stage.game();
        let legal = self.moves_in(pos);
        for (j, m) in self.step.illegal.iter().enumerate() {
            let what = format!("illegal[{j}]");
            let Some(spec) = self.spec(std::slice::from_ref(m), &what) else {
                continue;
            };
            let allowed = legal.iter().any(|&mv| {
                spec.matches(game, mv, true) && spec.promote.is_none_or(|p| game.promotes(mv) == p)
            });
            if allowed {
                self.report(
                    &what,
                    format!("{} is legal in this step's diagram", spec.text),
                );
            }
        }
    }
}

/// A number's claim, for messages.
fn describe<S: Staged>(claim: Claim, stage: &S) -> String {
    match claim {
        Claim::Taken => "what the move takes".to_string(),
        Claim::Lead(None) => "a lead".to_string(),
        Claim::Lead(Some(side)) => format!("{}'s lead", stage.side_name(side)),
        Claim::Points(side) => format!("{}'s points", stage.side_name(side)),
        Claim::Captured(side) => format!("what {} has taken", stage.side_name(side)),
        Claim::Left(side) => format!("{}'s pieces on the board", stage.side_name(side)),
    }
}

/// A value in tenths as the texts write it: `3`, `18.5`.
fn in_tenths(v: i32) -> String {
    if v % 10 == 0 {
        (v / 10).to_string()
    } else {
        format!("{}.{}", v / 10, (v % 10).abs())
    }
}
