//! What the checks need to know of each game beyond [`Game`]: how its
//! diagrams read, what stands on a point (to compare a diagram with the
//! start and to count what a move takes), 十六むさし's gaps, and the
//! staged situations a game cannot reach.

use crate::rules::board::{BoardGraph, PointId};
use crate::rules::chu::Profile;
use crate::rules::chu::game::{Chu, ChuRules};
use crate::rules::chu::mate::{Defence, Mate, MateSearch};
use crate::rules::chu::moves::{ChuMove, offset};
use crate::rules::chu::pieces::{Base, Kind};
use crate::rules::chu::position::{ChuPosition, Square};
use crate::rules::data::{TutorialStep, board};
use crate::rules::foxgeese::{FoxGeese, FoxGeeseRules};
use crate::rules::game::{Game, Side};
use crate::rules::hasami::{Hasami, HasamiPos, HasamiRules};
use crate::rules::levels::LevelError;
use crate::rules::musashi::{Musashi, MusashiRules};
use crate::rules::rulebook::Rulebook;

use super::Depth;
use super::numbers::Tally;

/// A game under the rules its tutorial is played with, and its board.
pub(crate) struct Stage<G> {
    pub(crate) game: G,
    pub(crate) graph: BoardGraph,
    /// How deep the engine reads the asked moves.
    pub(crate) depth: Depth,
}

impl<G> Stage<G> {
    /// The same stage read at `depth`.
    pub(crate) fn at(self, depth: Depth) -> Self {
        Stage { depth, ..self }
    }
}

/// What the checks ask of a game.
pub(crate) trait Staged {
    type G: Rulebook;
    fn game(&self) -> &Self::G;
    fn graph(&self) -> &BoardGraph;
    /// Whose piece stands on `p`, and its name (`☗獅子`, `がちょう`).
    fn piece(&self, pos: &<Self::G as Game>::Pos, p: PointId) -> Option<(Side, String)>;
    /// The side's name in messages.
    fn side_name(&self, side: Side) -> &'static str;
    /// How the move a step asks for is read by the engine (see
    /// [`super::engine`]).
    fn reading(&self) -> super::engine::Reading;
    /// 十六むさし: the empty points where the 親 stepping in would take.
    /// `None` for games without gaps.
    fn gaps(&self, _pos: &<Self::G as Game>::Pos) -> Option<Vec<PointId>> {
        None
    }
    /// The side whose moves open gaps (the 子): a move of theirs that
    /// opens one must say so.
    fn gap_keeper(&self) -> Option<Side> {
        None
    }
    /// Why the diagram shows a situation no game reaches, if it does
    /// (`step`: what the step declares of its rules).
    fn impossible(&self, _pos: &<Self::G as Game>::Pos, _step: &TutorialStep) -> Option<String> {
        None
    }
    /// Whether every move that takes as many as a step's asked move must
    /// be taken as right too (十六むさし, where a capture is a pair and two
    /// double captures are alike).
    fn accepts_equal_takes(&self) -> bool {
        false
    }
    /// Whether the game's steps may name a goose count (`geese`).
    fn names_geese(&self) -> bool {
        false
    }
    /// A problem's words (title, task, wrong text) against what its
    /// answer line does, `index` its place in the file: each field that
    /// does not fit, and why. Only 中将棋 has problems.
    fn problem_words(
        &self,
        _step: &TutorialStep,
        _index: usize,
        _pos: &<Self::G as Game>::Pos,
        _history: &[u64],
        _answers: &[<Self::G as Game>::Move],
        _mate: Option<&[<Self::G as Game>::Move]>,
    ) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    /// 中将棋: a forced capture of the enemy king (a mate by checks) that
    /// the side to move has in `pos`, read by the mate solver within
    /// [`FORCED_CAPTURE_POLLS`] of its asks (a count of work, the same on
    /// any machine): the line. `None` where none is found, in the other
    /// games, and for a side without a royal of its own (a mate problem's
    /// attacker, whose line is checked as such).
    fn forced_capture(
        &self,
        _pos: &<Self::G as Game>::Pos,
    ) -> Option<Vec<<Self::G as Game>::Move>> {
        None
    }
    /// 中将棋: whether `mv` keeps the forced capture that the side to move
    /// has in `pos` (every reply to it is mated).
    fn keeps_forced_capture(
        &self,
        _pos: &<Self::G as Game>::Pos,
        _mv: <Self::G as Game>::Move,
    ) -> bool {
        false
    }
    /// Why a problem's line (a step's `line`, moves legal in turn from
    /// `start`) does not win it as a problem's must, if it does not: by
    /// default the game must end in the win of the side that moves first.
    fn line_fault(
        &self,
        start: &<Self::G as Game>::Pos,
        line: &[<Self::G as Game>::Move],
    ) -> Option<String> {
        let game = self.game();
        let mover = game.side_to_move(start);
        let end = line
            .iter()
            .fold(start.clone(), |pos, &mv| game.play(&pos, mv));
        match game.outcome(&end) {
            Some(o) if o.winner == Some(mover) => None,
            _ => Some(format!(
                "the line does not end in {}'s win",
                self.side_name(mover)
            )),
        }
    }
    /// Whether a diagram holds every piece a game would have: `Err` says
    /// what is missing; `None` for a game whose diagrams cannot tell (what
    /// a side lost is simply off the board).
    fn left_out(&self, _pos: &<Self::G as Game>::Pos) -> Option<Result<(), String>> {
        None
    }
    /// The words of a text that name a side's pieces (`歩`, `☗`), for
    /// the numbers it states ([`super::numbers`]).
    fn side_words(&self) -> &'static [(&'static str, Side)];
    /// What a text may state about `pos` ([`super::numbers`]): the pieces
    /// on the board, and the captures or points the game keeps.
    fn tally(&self, pos: &<Self::G as Game>::Pos) -> Tally {
        Tally {
            on_board: [Side::First, Side::Second].map(|s| self.count(pos, s) as u32),
            ..Tally::default()
        }
    }
    /// How many pieces `side` has on the board.
    fn count(&self, pos: &<Self::G as Game>::Pos, side: Side) -> usize {
        (0..self.graph().len())
            .filter(|&p| self.piece(pos, p).is_some_and(|(s, _)| s == side))
            .count()
    }
}

pub(crate) fn hasami() -> Result<Stage<Hasami>, LevelError> {
    let graph = board("shogi9")?;
    let game = Hasami::new(graph.clone(), HasamiRules::STANDARD)
        .map_err(|e| LevelError::new("levels/boards/shogi9.ron", "board", e))?;
    Ok(Stage {
        game,
        graph,
        depth: Depth::Quick,
    })
}

pub(crate) fn foxgeese() -> Result<Stage<FoxGeese>, LevelError> {
    let rules = FoxGeeseRules::STANDARD;
    let graph = board(rules.board_name())?;
    let game = FoxGeese::new(graph.clone(), rules)
        .map_err(|e| LevelError::new("levels/boards", rules.board_name(), e))?;
    Ok(Stage {
        game,
        graph,
        depth: Depth::Quick,
    })
}

pub(crate) fn musashi() -> Result<Stage<Musashi>, LevelError> {
    let rules = MusashiRules::STANDARD;
    let graph = board(rules.board_name())?;
    let game = Musashi::new(graph.clone(), rules)
        .map_err(|e| LevelError::new("levels/boards", rules.board_name(), e))?;
    Ok(Stage {
        game,
        graph,
        depth: Depth::Quick,
    })
}

pub(crate) fn chushogi() -> Result<Stage<Chu>, LevelError> {
    Ok(Stage {
        game: Chu::new(ChuRules::JCSA),
        graph: board("chu12")?,
        depth: Depth::Quick,
    })
}

impl Staged for Stage<Hasami> {
    fn reading(&self) -> super::engine::Reading {
        super::engine::HASAMI.at(self.depth)
    }
    type G = Hasami;
    fn game(&self) -> &Hasami {
        &self.game
    }
    fn graph(&self) -> &BoardGraph {
        &self.graph
    }
    fn piece(&self, pos: &HasamiPos, p: PointId) -> Option<(Side, String)> {
        pos.at(p).map(|s| {
            let name = match s {
                Side::First => "歩",
                Side::Second => "と",
            };
            (s, name.to_string())
        })
    }
    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "先手(歩)",
            Side::Second => "後手(と)",
        }
    }
    fn side_words(&self) -> &'static [(&'static str, Side)] {
        &[("歩", Side::First), ("「と」", Side::Second)]
    }
    fn tally(&self, pos: &HasamiPos) -> Tally {
        let sides = [Side::First, Side::Second];
        Tally {
            captured: Some(sides.map(|s| pos.captured_by(s) as u32)),
            points: None,
            on_board: sides.map(|s| self.count(pos, s) as u32),
        }
    }
    /// Each side's pieces on the board and those the other has taken
    /// make up the pieces it started with.
    fn left_out(&self, pos: &HasamiPos) -> Option<Result<(), String>> {
        let missing: Vec<String> = self
            .accounts(pos)
            .filter(|&(_, shown, started)| shown < started)
            .map(|(side, shown, started)| {
                format!(
                    "{} has {shown} on the board or taken by the other, of the {started} it starts with",
                    self.side_name(side)
                )
            })
            .collect();
        Some(if missing.is_empty() {
            Ok(())
        } else {
            Err(missing.join("; "))
        })
    }
}

impl Stage<Hasami> {
    /// For each side: its pieces on the board plus those the other side
    /// has taken, and the pieces it starts with.
    fn accounts<'a>(
        &'a self,
        pos: &'a HasamiPos,
    ) -> impl Iterator<Item = (Side, usize, usize)> + 'a {
        let start = self.game.start();
        [Side::First, Side::Second].into_iter().map(move |side| {
            let shown = self.count(pos, side) + pos.captured_by(side.opponent()) as usize;
            (side, shown, self.count(&start, side))
        })
    }
}

impl Staged for Stage<FoxGeese> {
    fn reading(&self) -> super::engine::Reading {
        super::engine::FOXGEESE.at(self.depth)
    }
    type G = FoxGeese;
    fn game(&self) -> &FoxGeese {
        &self.game
    }
    fn graph(&self) -> &BoardGraph {
        &self.graph
    }
    fn piece(
        &self,
        pos: &crate::rules::foxgeese::FoxGeesePos,
        p: PointId,
    ) -> Option<(Side, String)> {
        if pos.fox() == p {
            Some((Side::Second, "きつね".to_string()))
        } else if pos.has_goose(p) {
            Some((Side::First, "がちょう".to_string()))
        } else {
            None
        }
    }
    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "がちょう",
            Side::Second => "きつね",
        }
    }
    fn side_words(&self) -> &'static [(&'static str, Side)] {
        &[("がちょう", Side::First)]
    }
    fn names_geese(&self) -> bool {
        true
    }
    /// No more geese than the rules the step shows start with: the
    /// tutorial's own, or the count the step names (`geese`).
    fn impossible(
        &self,
        pos: &crate::rules::foxgeese::FoxGeesePos,
        step: &TutorialStep,
    ) -> Option<String> {
        let rules = self.game.rules().geese;
        let most = step.geese.unwrap_or(rules);
        if ![13, 15, 17].contains(&most) {
            return Some(format!(
                "the step names {most} geese: the rules have 13, 15 or 17"
            ));
        }
        let geese = self.count(pos, Side::First);
        (geese > usize::from(most)).then(|| match step.geese {
            Some(n) => format!("{geese} geese, more than the {n} of the rules the step names (`geese: Some({n})`)"),
            None => format!(
                "{geese} geese, more than the {rules} the rules it is played under start with: name the rules the diagram shows (`geese: Some(15)` or `Some(17)`)"
            ),
        })
    }
}

impl Staged for Stage<Musashi> {
    fn reading(&self) -> super::engine::Reading {
        super::engine::MUSASHI.at(self.depth)
    }
    fn accepts_equal_takes(&self) -> bool {
        true
    }
    type G = Musashi;
    fn game(&self) -> &Musashi {
        &self.game
    }
    fn graph(&self) -> &BoardGraph {
        &self.graph
    }
    fn piece(&self, pos: &crate::rules::musashi::MusashiPos, p: PointId) -> Option<(Side, String)> {
        if pos.oya() == p {
            Some((Side::First, "親".to_string()))
        } else if pos.ko().any(|k| k == p) {
            Some((Side::Second, "子".to_string()))
        } else {
            None
        }
    }
    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "親",
            Side::Second => "子",
        }
    }
    fn side_words(&self) -> &'static [(&'static str, Side)] {
        &[("子", Side::Second)]
    }
    fn gaps(&self, pos: &crate::rules::musashi::MusashiPos) -> Option<Vec<PointId>> {
        Some(self.game.gap_points(pos))
    }
    fn gap_keeper(&self) -> Option<Side> {
        Some(Side::Second)
    }
    /// The 親 takes 子 in pairs, so a game has an even number of them.
    fn left_out(&self, pos: &crate::rules::musashi::MusashiPos) -> Option<Result<(), String>> {
        let ko = self.count(pos, Side::Second);
        Some(if ko.is_multiple_of(2) {
            Ok(())
        } else {
            Err(format!(
                "{ko} 子: the 親 takes them in pairs, so a game always has an even number"
            ))
        })
    }
    fn impossible(
        &self,
        pos: &crate::rules::musashi::MusashiPos,
        _step: &TutorialStep,
    ) -> Option<String> {
        let (ko, most) = (
            self.count(pos, Side::Second),
            self.count(&self.game.start(), Side::Second),
        );
        (ko > most).then(|| format!("{ko} 子, more than the {most} a game starts with"))
    }
}

/// A 中将棋 diagram with fewer pieces than this (both sides together, of
/// the 92 a game starts with) is taken as set up: it must say it leaves
/// pieces out. The fewest in a problem taken from a game are 13.
pub(crate) const SET_UP_BELOW: usize = 13;

impl Stage<Chu> {
    /// A side with more pieces of one kind than it starts with
    /// ([`ChuPosition::beyond_start`]).
    fn too_many(&self, pos: &ChuPosition) -> Option<String> {
        let over: Vec<String> = pos
            .beyond_start()
            .into_iter()
            .map(|(side, base, here, most)| {
                let piece = crate::rules::chu::pieces::Piece::new(base);
                format!(
                    "{} has {here} {} (promoted or not), more than the {most} it starts with",
                    self.side_name(side),
                    crate::rules::chu::notation::record_name(piece, Side::First)
                )
            })
            .collect();
        (!over.is_empty()).then(|| over.join("; "))
    }
}

/// A 中将棋 piece as messages name it: `☗獅子`, `☖成角行` (a promoted
/// piece whose name is also an unpromoted piece's gets 成, as on the
/// source page's point table).
fn chu_name(side: Side, piece: crate::rules::chu::pieces::Piece) -> String {
    let mark = match side {
        Side::First => "☗",
        Side::Second => "☖",
    };
    // Kings by their one name here (後手's too), as the messages always had.
    let name = match piece.kind() {
        crate::rules::chu::pieces::Kind::King => "王将".to_string(),
        _ => crate::rules::chu::notation::record_name(piece, Side::First),
    };
    format!("{mark}{name}")
}

/// The mate solver's work for one reading of [`Staged::forced_capture`],
/// in its asks whether to stop (each after
/// [`POLL_NODES`](crate::rules::chu::mate::POLL_NODES) positions).
pub(crate) const FORCED_CAPTURE_POLLS: u32 = 2000;

/// The solver's table for those readings: small, as each reading is short.
const FORCED_CAPTURE_ENTRIES: usize = 1 << 17;

impl Staged for Stage<Chu> {
    fn reading(&self) -> super::engine::Reading {
        super::engine::CHUSHOGI.at(self.depth)
    }
    type G = Chu;
    fn game(&self) -> &Chu {
        &self.game
    }
    fn graph(&self) -> &BoardGraph {
        &self.graph
    }
    fn piece(&self, pos: &ChuPosition, p: PointId) -> Option<(Side, String)> {
        pos.at(Square(p as u8))
            .map(|(s, piece)| (s, chu_name(s, piece)))
    }
    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "先手",
            Side::Second => "後手",
        }
    }
    fn side_words(&self) -> &'static [(&'static str, Side)] {
        &[("☗", Side::First), ("☖", Side::Second)]
    }
    fn tally(&self, pos: &ChuPosition) -> Tally {
        Tally {
            captured: None,
            points: Some(crate::rules::chu::end::cutoff_points(pos)),
            on_board: [Side::First, Side::Second].map(|s| self.count(pos, s) as u32),
        }
    }
    fn forced_capture(&self, pos: &ChuPosition) -> Option<Vec<ChuMove>> {
        let own_royal = pos
            .pieces()
            .any(|(_, s, piece)| s == pos.to_move() && crate::rules::chu::end::is_royal(piece));
        if !own_royal {
            return None;
        }
        let mut solver = MateSearch::with_entries(self.game.rules.profile, FORCED_CAPTURE_ENTRIES);
        let mut polls = 0;
        match solver.solve(pos, &mut || {
            polls += 1;
            polls > FORCED_CAPTURE_POLLS
        }) {
            Mate::Proved(line) => Some(line),
            Mate::NoMate | Mate::Unknown => None,
        }
    }
    fn keeps_forced_capture(&self, pos: &ChuPosition, mv: ChuMove) -> bool {
        let after = crate::rules::chu::moves::play(pos, mv);
        let mut solver = MateSearch::with_entries(self.game.rules.profile, FORCED_CAPTURE_ENTRIES);
        let mut polls = 0;
        // Every reply is read: a larger budget, still a count of work.
        let budget = FORCED_CAPTURE_POLLS * 8;
        matches!(
            solver.defend(&after, &mut || {
                polls += 1;
                polls > budget
            }),
            Defence::Mated(_)
        )
    }
    /// A mate problem's line: every move of the attacker a check, the
    /// defender's royals taken at its end, under both rule profiles.
    fn line_fault(&self, start: &ChuPosition, line: &[ChuMove]) -> Option<String> {
        let faults: Vec<String> = Profile::ALL
            .into_iter()
            .filter_map(|p| {
                crate::rules::chu::mate::check_line(p, start, line)
                    .err()
                    .map(|e| format!("{}: {e}", p.id()))
            })
            .collect();
        (!faults.is_empty()).then(|| faults.join("; "))
    }
    /// A side without a royal (a piece study) leaves pieces out, and so
    /// does a diagram with fewer than [`SET_UP_BELOW`] pieces: a judgement,
    /// not a proof (a game may end with any number of pieces), that holds
    /// a sparse diagram set up to show one thing to saying so.
    fn left_out(&self, pos: &ChuPosition) -> Option<Result<(), String>> {
        let kingless: Vec<&str> = [Side::First, Side::Second]
            .into_iter()
            .filter(|&side| {
                !pos.pieces()
                    .any(|(_, s, piece)| s == side && crate::rules::chu::end::is_royal(piece))
            })
            .map(|side| self.side_name(side))
            .collect();
        let pieces = pos.pieces().count();
        Some(if !kingless.is_empty() {
            Err(format!("{} without a king", kingless.join(" and ")))
        } else if pieces < SET_UP_BELOW {
            Err(format!(
                "{pieces} pieces on the board: under {SET_UP_BELOW}, a diagram is taken as set up, not played"
            ))
        } else {
            Ok(())
        })
    }
    fn problem_words(
        &self,
        step: &TutorialStep,
        index: usize,
        pos: &ChuPosition,
        history: &[u64],
        answers: &[crate::rules::chu::moves::ChuMove],
        mate: Option<&[ChuMove]>,
    ) -> Vec<(&'static str, String)> {
        super::themes::problem_words(
            &self.game, self.depth, step, index, pos, history, answers, mate,
        )
    }
    /// 先獅子: the square where the side to move just lost its lion to a
    /// non-lion holds the piece that took it — not a lion (a lion that
    /// takes a lion leaves no 先獅子), unless a 麒麟 promoted to one as it
    /// took — or is empty after a 飛鷲's or 角鷹's 居食い from beside it.
    /// A side with more pieces of a kind than a game starts with is
    /// impossible too, except in a composed mate problem (a step with a
    /// line), which may hold a third 飛車 as the classic collections do.
    fn impossible(&self, pos: &ChuPosition, step: &TutorialStep) -> Option<String> {
        if step.line.is_empty()
            && let Some(why) = self.too_many(pos)
        {
            return Some(why);
        }
        let sq = pos.lion_taken_at()?;
        let name = self.graph.point(sq.0 as usize).name.clone();
        let taker = pos.to_move().opponent();
        match pos.at(sq) {
            Some((s, piece)) if s == taker => (piece.is_lion() && piece.base != Base::Kirin).then(|| {
                format!(
                    "the 先獅子 square {name} holds {}: a lion that takes a lion leaves no 先獅子, so the square must hold the non-lion that took",
                    chu_name(s, piece)
                )
            }),
            Some((s, piece)) => Some(format!(
                "the 先獅子 square {name} holds {} of the side to move, not the piece that took its lion",
                chu_name(s, piece)
            )),
            None => {
                let igui = pos.pieces().any(|(from, s, piece)| {
                    let reach: &[(i32, i32)] = match piece.kind() {
                        Kind::SoaringEagle => &[(-1, 1), (1, 1)],
                        Kind::HornedFalcon => &[(0, 1)],
                        _ => &[],
                    };
                    s == taker
                        && reach
                            .iter()
                            .any(|&(r, f)| offset(from, s, r, f) == Some(sq))
                });
                (!igui).then(|| {
                    format!(
                        "the 先獅子 square {name} is empty, and no 飛鷲 or 角鷹 beside it could have taken a lion there without moving"
                    )
                })
            }
        }
    }
}
