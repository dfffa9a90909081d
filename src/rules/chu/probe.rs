//! The mate solver inside the game search: at a node where the enemy's
//! royal is exposed, a short df-pn reading ([`MateSearch`]) asks whether
//! the side to move mates by checks, and the search trusts a proof as it
//! trusts an endgame table ([`crate::rules::game::Game::exact`]).
//!
//! Reading a few hundred positions at every node would cost the search
//! most of its depth, so a probe is made only where a royal has few of its
//! own pieces around it and the search has [`PROBE_MIN_DEPTH`] plies or
//! more still to read, each position is probed once per thread (a small
//! cache of answers), and one probe reads at most [`PROBE_NODES`]
//! positions. A proof is exact; "no mate found" says nothing, and the
//! search reads on.

use std::cell::RefCell;

use super::Profile;
use super::end::is_royal;
use super::game::neighbours;
use super::mate::{Mate, MateSearch, POLL_NODES};
use super::position::{ChuPosition, Square};
use crate::rules::game::Side;

/// A royal with at most this many of its own pieces on the squares around
/// it is exposed: it has room to be checked and few defenders to block.
pub const EXPOSED_FRIENDS_MOST: usize = 2;

/// The most positions one probe reads (a multiple of [`POLL_NODES`], how
/// often the solver asks whether to stop).
pub const PROBE_NODES: u64 = 512;

/// The least depth the search still has to read below a position it
/// probes: near its horizon, where most of its positions are, a probe
/// would cost many times the reading it saves.
pub const PROBE_MIN_DEPTH: i32 = 2;

/// Table entries of the probing solver: a probe reads few positions.
const PROBE_ENTRIES: usize = 1 << 14;

/// Answers kept (direct-mapped by key).
const ANSWERS: usize = 1 << 16;

/// Whether a royal of `side` in `pos` has at most
/// [`EXPOSED_FRIENDS_MOST`] of its own pieces around it.
pub fn royal_exposed(pos: &ChuPosition, side: Side) -> bool {
    pos.pieces()
        .filter(|&(_, s, p)| s == side && is_royal(p))
        .any(|(sq, _, _)| friends_around(pos, sq, side) <= EXPOSED_FRIENDS_MOST)
}

fn friends_around(pos: &ChuPosition, sq: Square, side: Side) -> usize {
    neighbours(sq)
        .filter(|&n| matches!(pos.at(n), Some((s, _)) if s == side))
        .count()
}

/// A probing solver and what it has answered, one per thread and profile.
struct Prober {
    profile: Profile,
    solver: MateSearch,
    /// (key, plies to the royals' capture; 0 for no mate found).
    answers: Vec<(u64, u16)>,
}

impl Prober {
    fn new(profile: Profile) -> Prober {
        Prober {
            profile,
            solver: MateSearch::with_entries(profile, PROBE_ENTRIES),
            answers: vec![(0, 0); ANSWERS],
        }
    }

    fn probe(&mut self, pos: &ChuPosition) -> Option<u16> {
        let key = pos.key();
        let slot = key as usize % ANSWERS;
        let (seen, plies) = self.answers[slot];
        if seen == key {
            return (plies > 0).then_some(plies);
        }
        let mut asked = 0;
        let mut stop = || {
            asked += 1;
            asked * POLL_NODES >= PROBE_NODES
        };
        let plies = match self.solver.solve(pos, &mut stop) {
            Mate::Proved(line) => u16::try_from(line.len()).unwrap_or(u16::MAX),
            Mate::NoMate | Mate::Unknown => 0,
        };
        self.answers[slot] = (key, plies);
        (plies > 0).then_some(plies)
    }
}

thread_local! {
    static PROBER: RefCell<Option<Prober>> = const { RefCell::new(None) };
}

/// The plies in which the side to move in `pos` takes the enemy's royals
/// by a mate by checks the probing solver proves within [`PROBE_NODES`],
/// if the enemy's royal is exposed ([`royal_exposed`]); `None` when it is
/// not, or no such mate was found.
pub fn mate_in(profile: Profile, pos: &ChuPosition) -> Option<u16> {
    if !royal_exposed(pos, pos.to_move().opponent()) {
        return None;
    }
    PROBER.with(|cell| {
        let mut prober = cell.borrow_mut();
        let prober = match prober.as_mut() {
            Some(p) if p.profile == profile => p,
            _ => prober.insert(Prober::new(profile)),
        };
        prober.probe(pos)
    })
}
