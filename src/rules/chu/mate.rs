//! 詰め中将棋: a mate solver for 中将棋 positions, mate problems above all
//! (the attacker has no royal, [`ChuPosition::attacker`]).
//!
//! What a mate is here. The side to move at the root attacks; as in every
//! tsume, each of its moves must be a check: after it a defender royal (king
//! or 太子) could be taken at once, or the move takes one. The defender may
//! answer with any legal move of the profile's rules (the lion-trading
//! rules and 先獅子 come from the move generator). The attacker has won when
//! the defender's royals are all taken or the defender has no legal move
//! (or, from an ordinary game, when the rules end it in the attacker's
//! favour). A defender whose every reply lets its last royal be taken is
//! mated; the line the solver gives goes on to the capture, so that it ends
//! with the royals taken. A position that comes again along a line counts
//! against the attacker (no mate is built on a repetition).
//!
//! The search is df-pn (depth-first proof-number search) with the 1+ε
//! trick over a bounded transposition table keyed by
//! [`ChuPosition::key`] (board, side to move and 先獅子 square). A
//! disproof that rests on a repetition in the path holds only there and is
//! kept out of the table (the graph-history problem would otherwise report
//! mates as missing). Replies that leave the royal where it can be taken
//! are proved on the spot without a table entry, and a defender mated on
//! sight is proved before it is read. Each node's moves are kept in a
//! small cache: df-pn comes back to a node many times, and finding the
//! checks among every move is most of the work. Once the root is proved,
//! the line is read from the table: the attacker's shortest proof at each
//! of its moves, the defender's longest one at each reply (a proof that was
//! overwritten is proved again); [`MateSearch::shorten`] then proves again
//! within fewer plies until no shorter mate is found.

use super::Profile;
use super::end::{is_royal, outcome_in};
use super::exchange::{attacked_after, attacked_after_quiet, attacked_by, worth};
use super::moves::{ChuMove, legal_moves_in, play};
use super::position::{ChuPosition, Square};
use crate::rules::game::Side;

mod defend;
mod table;

pub use defend::{Defence, check_line};

use table::{Entry, MoveCache, Table};

/// A proof or disproof number that means "proved" or "disproved" beyond.
const INF: u32 = u32::MAX / 4;

/// How much past the second-best child a child may be read before the
/// search turns to the other (the 1+ε trick): a quarter.
const EPSILON_SHARE: u64 = 4;

/// The longest line read back from the table, in plies.
const MAX_LINE: usize = 1000;

/// How often (in nodes) the caller is asked whether to stop.
pub const POLL_NODES: u64 = 256;

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mate {
    /// A mate: the line from the root to the defender's royals taken, the
    /// defender resisting as long as the proof allows.
    Proved(Vec<ChuMove>),
    /// No mate by checks (with the table's proof: every check refuted).
    NoMate,
    /// Stopped (time, `stop`) before either was known.
    Unknown,
}

/// A mate solver with its table, reusable across positions of one profile
/// (the table is cleared for each new root).
pub struct MateSearch {
    profile: Profile,
    table: Table,
    moves: MoveCache,
    nodes: u64,
}

/// Table entries unless asked otherwise (24 bytes each: about 48 MB).
pub const DEFAULT_ENTRIES: usize = 1 << 21;

impl MateSearch {
    pub fn new(profile: Profile) -> MateSearch {
        MateSearch::with_entries(profile, DEFAULT_ENTRIES)
    }

    /// A solver whose table holds about `entries` positions.
    pub fn with_entries(profile: Profile, entries: usize) -> MateSearch {
        MateSearch {
            profile,
            table: Table::new(entries),
            moves: MoveCache::new(),
            nodes: 0,
        }
    }

    /// Positions expanded by the last [`MateSearch::solve`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Looks for a mate by the side to move in `pos`. `stop` is asked now
    /// and then; once it says yes the answer is [`Mate::Unknown`] unless
    /// the root was already settled. The line is the first proof's:
    /// [`MateSearch::shorten`] looks for a shorter one.
    pub fn solve(&mut self, pos: &ChuPosition, stop: &mut dyn FnMut() -> bool) -> Mate {
        self.fresh_solve(pos, None, stop)
    }

    /// Looks for a mate by the side to move in `pos` that takes the
    /// defender's royals within `plies` plies.
    pub fn solve_bounded(
        &mut self,
        pos: &ChuPosition,
        plies: u16,
        stop: &mut dyn FnMut() -> bool,
    ) -> Mate {
        self.fresh_solve(pos, Some(plies.min(UNBOUNDED - 1)), stop)
    }

    /// A search from nothing kept, within `bound` plies if given.
    fn fresh_solve(
        &mut self,
        pos: &ChuPosition,
        bound: Option<u16>,
        stop: &mut dyn FnMut() -> bool,
    ) -> Mate {
        self.table.clear();
        self.moves.clear();
        self.nodes = 0;
        let plies = bound.unwrap_or(UNBOUNDED);
        let mut run = self.run(pos, bound, stop);
        match run.prove(pos, plies) {
            Some(true) => run.line(pos, plies).map_or(Mate::Unknown, Mate::Proved),
            Some(false) => Mate::NoMate,
            None => Mate::Unknown,
        }
    }

    /// A mate of `pos` as short as can be found before `stop`, from the
    /// proved `line`: proves again with a bound on the plies, each time
    /// one fewer than the line found, until no mate is that short (the
    /// line is then a shortest one, the defender resisting as long as
    /// that proof allows) or `stop` says so. Nodes add to
    /// [`MateSearch::nodes`].
    pub fn shorten(
        &mut self,
        pos: &ChuPosition,
        line: Vec<ChuMove>,
        stop: &mut dyn FnMut() -> bool,
    ) -> Vec<ChuMove> {
        let mut best = line;
        while best.len() > 1 {
            let bound = (best.len() - 1).min(usize::from(u16::MAX - 1)) as u16;
            // The moves kept stay good: the same root, the same attacker.
            self.table.clear();
            let mut run = self.run(pos, Some(bound), stop);
            match run.prove(pos, bound) {
                Some(true) => match run.line(pos, bound) {
                    Some(line) if line.len() < best.len() => best = line,
                    _ => break,
                },
                _ => break,
            }
        }
        best
    }

    /// Starts a reading of `pos` that [`MateSearch::read_on`] takes in
    /// slices: what [`MateSearch::solve`] and then [`MateSearch::shorten`]
    /// do, for a caller that must stop now and then and come back (a web
    /// page's worker, which has one thread and must hear `stop`).
    pub fn begin(&mut self, pos: &ChuPosition) -> MateReading {
        self.table.clear();
        self.moves.clear();
        self.nodes = 0;
        MateReading {
            root: pos.clone(),
            shortening: None,
        }
    }

    /// Reads on where `reading` stopped until the answer or `stop`. A
    /// stopped df-pn leaves valid numbers in its table, so the next call
    /// goes on from them; the answer is the one an unstopped `solve` and
    /// `shorten` would give.
    pub fn read_on(
        &mut self,
        reading: &mut MateReading,
        stop: &mut dyn FnMut() -> bool,
    ) -> MateSlice {
        let root = reading.root.clone();
        if reading.shortening.is_none() {
            let mut run = self.run(&root, None, stop);
            match run.prove(&root, UNBOUNDED) {
                Some(true) => match run.line(&root, UNBOUNDED) {
                    Some(line) => {
                        reading.shortening = Some(Shortening {
                            best: line,
                            table_cleared: false,
                        })
                    }
                    None => return MateSlice::Done(Mate::Unknown),
                },
                Some(false) => return MateSlice::Done(Mate::NoMate),
                None => return MateSlice::Stopped(Mate::Unknown),
            }
        }
        let Some(shortening) = reading.shortening.as_mut() else {
            return MateSlice::Done(Mate::Unknown);
        };
        while shortening.best.len() > 1 {
            let bound = (shortening.best.len() - 1).min(usize::from(u16::MAX - 1)) as u16;
            // Each bound is proved from a cleared table, once.
            if !shortening.table_cleared {
                self.table.clear();
                shortening.table_cleared = true;
            }
            let mut run = self.run(&root, Some(bound), stop);
            match run.prove(&root, bound) {
                Some(true) => match run.line(&root, bound) {
                    Some(line) if line.len() < shortening.best.len() => {
                        shortening.best = line;
                        shortening.table_cleared = false;
                    }
                    _ => break,
                },
                Some(false) => break,
                None => return MateSlice::Stopped(Mate::Proved(shortening.best.clone())),
            }
        }
        MateSlice::Done(Mate::Proved(shortening.best.clone()))
    }

    fn run<'a>(
        &'a mut self,
        pos: &ChuPosition,
        bound: Option<u16>,
        stop: &'a mut dyn FnMut() -> bool,
    ) -> Run<'a> {
        Run {
            profile: self.profile,
            attacker: pos.to_move(),
            bounded: bound.is_some(),
            table: &mut self.table,
            moves: &mut self.moves,
            nodes: &mut self.nodes,
            path: Vec::new(),
            stop,
            stopped: false,
        }
    }
}

/// A mate reading taken in slices ([`MateSearch::begin`]).
pub struct MateReading {
    root: ChuPosition,
    /// Once a mate is proved: the shortest line so far, and whether the
    /// table was cleared for the proof one ply shorter being read.
    shortening: Option<Shortening>,
}

struct Shortening {
    best: Vec<ChuMove>,
    table_cleared: bool,
}

/// What a slice of [`MateSearch::read_on`] ends with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateSlice {
    /// The answer.
    Done(Mate),
    /// `stop` said so; what is known so far ([`Mate::Unknown`], or the
    /// shortest mate proved yet), the answer if the caller stops here.
    Stopped(Mate),
}

/// The plies left to an unbounded search (never counted down).
const UNBOUNDED: u16 = u16::MAX;

/// A move from a node and where it leads, with what the table says of it.
struct Child {
    mv: ChuMove,
    pos: ChuPosition,
    pn: u32,
    dn: u32,
    length: u16,
    /// Disproved by way of a repetition on the path: true for this
    /// node's reading only, so it is kept here, not in the table.
    by_path: bool,
}

/// The numbers of a node.
#[derive(Clone, Copy, Debug)]
struct Numbers {
    pn: u32,
    dn: u32,
    length: u16,
    /// A disproof that holds only with this path (a repetition below).
    by_path: bool,
}

const PROVED: Numbers = Numbers {
    pn: 0,
    dn: INF,
    length: 0,
    by_path: false,
};
const DISPROVED: Numbers = Numbers {
    pn: INF,
    dn: 0,
    length: 0,
    by_path: false,
};

/// `a + b`, where either at [`INF`] is infinite and a finite sum stays
/// below it.
fn add(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF - 1)
    }
}

/// The threshold for the best child: past the second best by a share
/// (1+ε), never past the node's own.
fn epsilon_threshold(second: u32, own: u32) -> u32 {
    if second >= INF {
        return own;
    }
    let s = u64::from(second);
    let wider = (s + 1).max(s + s / EPSILON_SHARE);
    (wider.min(u64::from(INF - 1)) as u32).min(own)
}

/// One solve: the state its recursion shares.
struct Run<'a> {
    profile: Profile,
    attacker: Side,
    /// Whether a mate must end within the plies each node is given
    /// (keyed apart by them in the table).
    bounded: bool,
    table: &'a mut Table,
    moves: &'a mut MoveCache,
    nodes: &'a mut u64,
    /// Keys of the positions from the root to the node being read.
    path: Vec<u64>,
    stop: &'a mut dyn FnMut() -> bool,
    stopped: bool,
}

impl Run<'_> {
    /// Settles `pos` (true: a mate within `plies`), or `None` if stopped
    /// first.
    fn prove(&mut self, pos: &ChuPosition, plies: u16) -> Option<bool> {
        loop {
            let n = self.mid(pos, plies, INF, INF);
            if n.pn == 0 {
                return Some(true);
            }
            if n.dn == 0 {
                return Some(false);
            }
            if self.stopped {
                return None;
            }
        }
    }

    /// The table's key of `pos` with `plies` left: apart for each bound.
    fn key(&self, pos: &ChuPosition, plies: u16) -> u64 {
        if self.bounded {
            pos.key() ^ crate::rules::game::zobrist(7_000_000 + u64::from(plies))
        } else {
            pos.key()
        }
    }

    /// The plies a child of a node with `plies` left is given.
    fn below(&self, plies: u16) -> u16 {
        if self.bounded {
            plies.saturating_sub(1)
        } else {
            plies
        }
    }

    /// The defender's royal squares.
    fn royals(&self, pos: &ChuPosition) -> Vec<Square> {
        let defender = self.attacker.opponent();
        pos.pieces()
            .filter(|&(_, s, p)| s == defender && is_royal(p))
            .map(|(sq, _, _)| sq)
            .collect()
    }

    /// A legal move of the attacker (to move) that takes every royal the
    /// defender has left.
    fn royal_capture(&self, pos: &ChuPosition) -> Option<ChuMove> {
        let royals = self.royals(pos);
        if royals.is_empty() {
            return None;
        }
        if royals.len() == 1 && !attacked_by(pos, royals[0], self.attacker) {
            return None;
        }
        let mut moves = Vec::new();
        legal_moves_in(self.profile, pos, &mut moves);
        moves
            .into_iter()
            .find(|mv| royals.iter().all(|&r| mv.to == r || mv.mid == Some(r)))
    }

    /// Whether the attacker (to move) can take every royal left at once.
    fn can_take_royals(&self, pos: &ChuPosition) -> bool {
        let royals = self.royals(pos);
        match royals[..] {
            [] => false,
            // Nothing stops a royal's capture: the lion-trading rules
            // only guard lions.
            [royal] => attacked_by(pos, royal, self.attacker),
            _ => self.royal_capture(pos).is_some(),
        }
    }

    /// A settled node: the game over, the attacker to move able to take
    /// the royals, or too few of the `plies` left for a mate.
    fn leaf(&self, pos: &ChuPosition, plies: u16) -> Option<Numbers> {
        if let Some((winner, _)) = outcome_in(self.profile, pos) {
            return Some(if winner == Some(self.attacker) {
                PROVED
            } else {
                DISPROVED
            });
        }
        let or = pos.to_move() == self.attacker;
        if or && plies >= 1 && self.can_take_royals(pos) {
            return Some(Numbers {
                length: 1,
                ..PROVED
            });
        }
        // No plies left for the attacker's move, or for a reply and the
        // capture.
        (plies < if or { 1 } else { 2 }).then_some(DISPROVED)
    }

    /// The attacker's checks in `pos`, best first.
    fn checks(&self, pos: &ChuPosition) -> Vec<ChuMove> {
        let royals = self.royals(pos);
        // A royal attacked already (one of two) is asked about in full.
        let attacked: Vec<bool> = royals
            .iter()
            .map(|&r| attacked_by(pos, r, self.attacker))
            .collect();
        let mut moves = Vec::with_capacity(256);
        legal_moves_in(self.profile, pos, &mut moves);
        let mut scored: Vec<(i32, ChuMove)> = Vec::new();
        for mv in moves {
            let taken_royal = mv.taken(pos).any(|(_, p)| is_royal(p));
            // Only a move that touches a line to a royal (or a square
            // within a lion's reach of it) can attack it: the mover's
            // new square, or a square it empties.
            let check = taken_royal
                || royals.iter().zip(&attacked).any(|(&r, &before)| {
                    let touches = |sq: Square| aligned(sq, r);
                    mv.to != r
                        && mv.mid != Some(r)
                        && (touches(mv.to) || touches(mv.from) || mv.mid.is_some_and(touches))
                        && if before {
                            attacked_after(pos, mv, r, self.attacker)
                        } else {
                            attacked_after_quiet(pos, mv, r, self.attacker)
                        }
                });
            if !check {
                continue;
            }
            // Captures first (the most taken first), then moves that land
            // next to a royal, then promotions.
            let taken: i32 = mv.taken(pos).map(|(_, p)| worth(p)).sum();
            let near = royals
                .iter()
                .map(|&r| r.king_steps(mv.to))
                .min()
                .unwrap_or(9) as i32;
            let score = taken * 4 - near * 100 + i32::from(mv.promote) * 50;
            scored.push((score, mv));
        }
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        scored.into_iter().map(|(_, mv)| mv).collect()
    }

    /// The defender's replies in `pos` that do not lose the last royal at
    /// once (captures of the attacker's pieces first, then royal moves),
    /// and whether any does.
    fn replies(&self, pos: &ChuPosition) -> (Vec<ChuMove>, bool) {
        let royals = self.royals(pos);
        let attacked_now = match royals[..] {
            [royal] => attacked_by(pos, royal, self.attacker),
            _ => false,
        };
        let mut moves = Vec::with_capacity(256);
        legal_moves_in(self.profile, pos, &mut moves);
        let mut lost_at_once = false;
        let mut scored: Vec<(i32, ChuMove)> = Vec::new();
        for mv in moves {
            let mover = pos.at(mv.from).map(|(_, p)| p);
            let royal_moves = mover.is_some_and(is_royal);
            // A 醉象 promoting becomes a 太子: a second royal.
            let new_royal = mover.is_some_and(|p| !is_royal(p) && mv.promote)
                && mover.is_some_and(|p| {
                    is_royal(super::pieces::Piece {
                        promoted: true,
                        ..p
                    })
                });
            // Taking the attacker's royal may end the game first (an
            // ordinary game, where both sides have one): such a reply is
            // read, whatever it leaves attacked.
            let takes_royal = mv.taken(pos).any(|(_, p)| is_royal(p));
            if let [royal] = royals[..]
                && !new_royal
                && !takes_royal
            {
                let at = if royal_moves { mv.to } else { royal };
                // A royal that stays: a move off its lines takes no
                // attacker and blocks none (attacked still), and opens
                // none (safe still).
                let touches = |sq: Square| aligned(sq, royal);
                let attacked = if royal_moves {
                    attacked_after(pos, mv, at, self.attacker)
                } else if attacked_now {
                    !(touches(mv.to) || mv.mid.is_some_and(touches))
                        || attacked_after(pos, mv, at, self.attacker)
                } else {
                    (touches(mv.from) || mv.mid.is_some_and(touches))
                        && attacked_after(pos, mv, at, self.attacker)
                };
                if attacked {
                    lost_at_once = true;
                    continue;
                }
            }
            let taken: i32 = mv.taken(pos).map(|(_, p)| worth(p)).sum();
            let score = taken * 4 + i32::from(royal_moves) * 100;
            scored.push((score, mv));
        }
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let moves = scored.into_iter().map(|(_, mv)| mv).collect();
        (moves, lost_at_once)
    }

    /// The children a node reads: the attacker's checks, or the
    /// defender's replies that do not lose at once (and whether any does).
    fn expand(&mut self, pos: &ChuPosition) -> (Vec<Child>, bool) {
        let key = pos.key();
        let (moves, lost_at_once) = match self.moves.get(key) {
            Some((moves, lost)) => (moves.to_vec(), lost),
            None => {
                let (moves, lost) = if pos.to_move() == self.attacker {
                    (self.checks(pos), false)
                } else {
                    self.replies(pos)
                };
                self.moves.put(key, &moves, lost);
                (moves, lost)
            }
        };
        let children = moves.into_iter().map(|mv| self.child(pos, mv)).collect();
        (children, lost_at_once)
    }

    fn child(&self, pos: &ChuPosition, mv: ChuMove) -> Child {
        Child {
            mv,
            pos: play(pos, mv),
            pn: 1,
            dn: 1,
            length: 0,
            by_path: false,
        }
    }

    /// Reads what the table (and the path) says of each child, given
    /// `plies`.
    fn look_up(&mut self, children: &mut [Child], plies: u16) {
        for c in children.iter_mut() {
            if c.by_path {
                continue;
            }
            if self.path.contains(&c.pos.key()) {
                // A repetition is no mate.
                (c.pn, c.dn, c.length, c.by_path) = (INF, 0, 0, true);
            } else if let Some(e) = self.table.get(self.key(&c.pos, plies)) {
                (c.pn, c.dn, c.length) = (e.pn, e.dn, e.length);
            } else {
                (c.pn, c.dn, c.length) = self.estimate(&c.pos, plies);
            }
        }
    }

    /// The first numbers of a position not read yet: one each, but a
    /// defender mated there (every reply loses the royal at once, or it
    /// has none) is proved on sight. A royal with a free square to step
    /// to is not mated: that is looked at first, as it is cheap.
    fn estimate(&mut self, pos: &ChuPosition, plies: u16) -> (u32, u32, u16) {
        if pos.to_move() == self.attacker || (self.bounded && plies < 2) {
            return (1, 1, 0);
        }
        let royals = self.royals(pos);
        let [royal] = royals[..] else {
            return (1, 1, 0);
        };
        let defender = self.attacker.opponent();
        let steps_free = (-1..=1).any(|rows| {
            (-1..=1).any(|columns| {
                royal.shifted(rows, columns).is_some_and(|to| {
                    let step = ChuMove {
                        from: royal,
                        mid: None,
                        to,
                        promote: false,
                    };
                    to != royal
                        && pos.at(to).is_none_or(|(side, _)| side != defender)
                        && !attacked_after(pos, step, to, self.attacker)
                })
            })
        });
        if steps_free {
            return (1, 1, 0);
        }
        let key = pos.key();
        let (count, lost_at_once) = match self.moves.get(key) {
            Some((moves, lost)) => (moves.len(), lost),
            None => {
                let (moves, lost) = self.replies(pos);
                self.moves.put(key, &moves, lost);
                (moves.len(), lost)
            }
        };
        match count {
            // Every reply loses the royal at once, or there is none (the
            // rules' end: the attacker's win).
            0 => (0, INF, if lost_at_once { 2 } else { 0 }),
            _ => (1, 1, 0),
        }
    }

    /// df-pn's multiple iterative deepening at `pos` with `plies` left:
    /// reads below it until its proof number reaches `th_pn` or its
    /// disproof number `th_dn`.
    fn mid(&mut self, pos: &ChuPosition, plies: u16, th_pn: u32, th_dn: u32) -> Numbers {
        *self.nodes += 1;
        if (*self.nodes).is_multiple_of(POLL_NODES) && (self.stop)() {
            self.stopped = true;
        }
        let key = self.key(pos, plies);
        let before = *self.nodes;
        let below = self.below(plies);
        if let Some(n) = self.leaf(pos, plies) {
            self.store(key, n, 1);
            return n;
        }
        let or = pos.to_move() == self.attacker;
        let (mut children, lost_at_once) = self.expand(pos);
        self.path.push(pos.key());
        let mut n;
        loop {
            self.look_up(&mut children, below);
            n = self.numbers(or, &children, lost_at_once);
            if n.pn >= th_pn || n.dn >= th_dn || self.stopped {
                break;
            }
            // The child to read: the most promising for the side to move
            // (the smallest proof number for the attacker, the smallest
            // disproof number for the defender), with its thresholds.
            let (best, child_pn, child_dn) = if or {
                let (best, second) = two_smallest(children.iter().map(|c| c.pn));
                let c = &children[best];
                let child_pn = epsilon_threshold(second, th_pn);
                let child_dn = if th_dn >= INF {
                    INF
                } else {
                    th_dn.saturating_sub(n.dn.saturating_sub(c.dn))
                };
                (best, child_pn, child_dn)
            } else {
                let (best, second) = two_smallest(children.iter().map(|c| c.dn));
                let c = &children[best];
                let child_dn = epsilon_threshold(second, th_dn);
                let child_pn = if th_pn >= INF {
                    INF
                } else {
                    th_pn.saturating_sub(n.pn.saturating_sub(c.pn))
                };
                (best, child_pn, child_dn)
            };
            let child = children[best].pos.clone();
            let found = self.mid(&child, below, child_pn, child_dn);
            if found.by_path {
                let c = &mut children[best];
                (c.pn, c.dn, c.length, c.by_path) = (INF, 0, 0, true);
            }
        }
        self.path.pop();
        let work = (*self.nodes - before + 1).min(u64::from(u32::MAX)) as u32;
        // A disproof that rests on this path's repetitions is no disproof
        // elsewhere: it stays out of the table (this node's parent keeps it
        // for its own reading).
        if !n.by_path {
            self.store(key, n, work);
        }
        n
    }

    /// A node's numbers from its children's.
    fn numbers(&self, or: bool, children: &[Child], lost_at_once: bool) -> Numbers {
        if or {
            // No check: no mate.
            let pn = children.iter().map(|c| c.pn).min().unwrap_or(INF);
            let dn = children.iter().fold(0, |sum, c| add(sum, c.dn));
            let length = children
                .iter()
                .filter(|c| c.pn == 0)
                .map(|c| c.length)
                .min()
                .map_or(0, |l| l.saturating_add(1));
            // Disproved: every check refuted, one by way of the path.
            let by_path = pn >= INF && children.iter().any(|c| c.by_path);
            Numbers {
                pn,
                dn,
                length,
                by_path,
            }
        } else {
            // Every reply lost at once (or none at all): mated.
            let pn = children.iter().fold(0, |sum, c| add(sum, c.pn));
            let dn = children.iter().map(|c| c.dn).min().unwrap_or(INF);
            let longest = children.iter().map(|c| c.length).max().unwrap_or(0);
            let length = longest.max(u16::from(lost_at_once)).saturating_add(1);
            // Disproved: a reply escapes, and none without the path.
            let by_path = dn == 0 && children.iter().filter(|c| c.dn == 0).all(|c| c.by_path);
            Numbers {
                pn,
                dn,
                length,
                by_path,
            }
        }
    }

    fn store(&mut self, key: u64, n: Numbers, work: u32) {
        self.table.put(Entry {
            key,
            pn: n.pn,
            dn: n.dn,
            work: work.max(1),
            length: n.length,
            // Set by the table.
            age: 0,
        });
    }

    /// The proved child an extraction follows: the attacker's shortest
    /// proof, the defender's longest; `None` if one is not proved in the
    /// table (overwritten, or proved only by way of the path).
    fn proved_child(&mut self, pos: &ChuPosition, plies: u16) -> Option<LineStep> {
        let or = pos.to_move() == self.attacker;
        let (mut children, lost_at_once) = self.expand(pos);
        self.look_up(&mut children, self.below(plies));
        if or {
            let best = children
                .iter()
                .filter(|c| c.pn == 0)
                .min_by_key(|c| c.length)?;
            return Some(LineStep::Play(best.mv));
        }
        if let Some(unproved) = children.iter().find(|c| c.pn != 0) {
            return Some(LineStep::ProveReply(Box::new(unproved.pos.clone())));
        }
        match children.iter().max_by_key(|c| c.length) {
            Some(c) => Some(LineStep::Play(c.mv)),
            None if lost_at_once => {
                // Every reply loses the royal: any one will do.
                let mut moves = Vec::new();
                legal_moves_in(self.profile, pos, &mut moves);
                moves.first().map(|&mv| LineStep::Play(mv))
            }
            None => None,
        }
    }

    /// The mating line from `root`, proved within `plies`, ending with the
    /// royals taken (or the defender without a move); `None` if stopped
    /// while proving again what the table lost.
    fn line(&mut self, root: &ChuPosition, plies: u16) -> Option<Vec<ChuMove>> {
        let mut pos = root.clone();
        let mut plies = plies;
        let mut line = Vec::new();
        self.path = vec![pos.key()];
        // Proofs read again when the table lost them; a bound, so that two
        // proofs evicting each other cannot go on for ever.
        let mut again = 0;
        while line.len() < MAX_LINE && again < MAX_LINE {
            if outcome_in(self.profile, &pos).is_some() {
                return Some(line);
            }
            if pos.to_move() == self.attacker
                && let Some(mv) = self.royal_capture(&pos)
            {
                line.push(mv);
                return Some(line);
            }
            let mv = match self.proved_child(&pos, plies) {
                Some(LineStep::Play(mv)) => mv,
                // A reply's proof was lost: prove it again, then choose.
                Some(LineStep::ProveReply(child)) => {
                    again += 1;
                    if !self.prove_from_path(&child, self.below(plies))? {
                        return None;
                    }
                    continue;
                }
                // The attacker's proof was lost: prove this node again.
                None => {
                    again += 1;
                    if !self.prove_from_path(&pos, plies)? {
                        return None;
                    }
                    continue;
                }
            };
            pos = play(&pos, mv);
            plies = self.below(plies);
            line.push(mv);
            if self.path.contains(&pos.key()) {
                return None;
            }
            self.path.push(pos.key());
        }
        None
    }

    /// [`Run::prove`] with the path as it stands (the line so far).
    fn prove_from_path(&mut self, pos: &ChuPosition, plies: u16) -> Option<bool> {
        let path = self.path.clone();
        let proved = self.prove(pos, plies);
        self.path = path;
        proved
    }
}

/// Whether a piece on `sq` could bear on `target`, or stand in the way of
/// one that does: on the same rank, file or diagonal, or within two squares
/// (a lion's reach).
fn aligned(sq: Square, target: Square) -> bool {
    let rows = sq.row().abs_diff(target.row());
    let columns = sq.column().abs_diff(target.column());
    rows == 0 || columns == 0 || rows == columns || (rows <= 2 && columns <= 2)
}

/// What reading a line does at a node: play the move the proof chose, or
/// first prove again a reply whose proof the table lost.
enum LineStep {
    Play(ChuMove),
    ProveReply(Box<ChuPosition>),
}

/// The index of the smallest value and the second smallest value
/// ([`INF`] if there is one value only).
fn two_smallest(values: impl Iterator<Item = u32>) -> (usize, u32) {
    let (mut best, mut first, mut second) = (0, INF, INF);
    for (i, v) in values.enumerate() {
        if v < first {
            second = first;
            first = v;
            best = i;
        } else if v < second {
            second = v;
        }
    }
    (best, second)
}
