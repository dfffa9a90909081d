//! 振り返り: what the search says about every position of a finished game,
//! and which moves it calls mistakes. The app reads the positions one by
//! one in the background ([`Reading`]) and judges the game once all are
//! read ([`judge`]); the tests read them here directly.

use super::game::{Game, Outcome, Side};
use super::search::{CpuLevel, SearchPlan, Searcher, WIN};

/// How far the mover's evaluation may fall with one move before the move
/// is called 疑問手 (`dubious`) or 悪手 (`bad`), in evaluation units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Margins {
    pub dubious: i32,
    pub bad: i32,
}

impl Margins {
    /// The largest evaluation the graph and the judgement tell apart: a
    /// won position counts as this much, so that a winning game thrown
    /// away is one big drop, not a million.
    pub fn cap(self) -> i32 {
        self.bad * 4
    }
}

/// What is known about one position of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reading<M> {
    /// The search's score for the side to move and its move.
    Searched { score: i32, best: M },
    /// The game is over here; the score for the side to move.
    Over { score: i32 },
    /// Only one move can be played: the position is worth what the next
    /// one is (the search does not read a forced move).
    Forced { only: M },
}

/// How a mistake is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// 疑問手.
    Dubious,
    /// 悪手.
    Bad,
}

/// A move the search calls a mistake, with the move it prefers there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mistake<M> {
    pub slip: Slip,
    pub better: M,
    /// How far the mover's evaluation fell.
    pub drop: i32,
}

/// The whole game judged: each position's value for the player (clamped
/// to [`Margins::cap`]) and each move's mistake, if it is one.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged<M> {
    pub values: Vec<i32>,
    pub mistakes: Vec<Option<Mistake<M>>>,
}

/// The search every position is read with: the level's strongest play
/// (as for ヒント) within `nodes`, with no clock and no noise, so that a
/// position reads the same on every machine and every time.
pub fn review_plan(level: &CpuLevel, nodes: u64) -> SearchPlan {
    SearchPlan {
        nodes: nodes.min(level.nodes),
        time_ms: None,
        noise: 0,
        seed: 0,
        // The careful style marks moves down for the CPU's taste, not for
        // their worth.
        careful: false,
        ..level.hint_plan()
    }
}

/// The moves a rule about the game so far forbids at position `i`.
pub fn forbidden_at<G: Game>(
    game: &G,
    positions: &[G::Pos],
    moves: &[G::Move],
    i: usize,
) -> Vec<G::Move> {
    game.forbidden_moves(&positions[..=i], &moves[..i])
}

/// What position `i` is worth without a search: the end of the game
/// (`end`, the record's outcome, holds for the last position), or a
/// forced move. `None`: it must be searched.
pub fn settled<G: Game>(
    game: &G,
    positions: &[G::Pos],
    moves: &[G::Move],
    end: Option<Outcome>,
    i: usize,
) -> Option<Reading<G::Move>> {
    let pos = &positions[i];
    let over = if i + 1 == positions.len() {
        end.or_else(|| game.outcome(pos))
    } else {
        game.outcome(pos)
    };
    if let Some(outcome) = over {
        let mover = game.side_to_move(pos);
        let score = match outcome.winner {
            None => 0,
            Some(w) if w == mover => WIN,
            Some(_) => -WIN,
        };
        return Some(Reading::Over { score });
    }
    // The last position of an unfinished record has no next one to be
    // worth; it is searched whatever its moves.
    if i + 1 == positions.len() {
        return None;
    }
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal);
    let forbidden = forbidden_at(game, positions, moves, i);
    legal.retain(|m| !forbidden.contains(m));
    match legal[..] {
        [only] => Some(Reading::Forced { only }),
        _ => None,
    }
}

/// Reads position `i` at once (tests, the command line): what the app's
/// background reading finds there.
pub fn read<G: Game>(
    game: &G,
    positions: &[G::Pos],
    moves: &[G::Move],
    hashes: &[u64],
    end: Option<Outcome>,
    i: usize,
    plan: SearchPlan,
) -> Reading<G::Move> {
    if let Some(r) = settled(game, positions, moves, end, i) {
        return r;
    }
    let forbidden = forbidden_at(game, positions, moves, i);
    let mut searcher = Searcher::new(game, positions[i].clone(), &hashes[..=i], plan)
        .restrict_root(|m| !forbidden.contains(&m));
    match searcher.run(game) {
        Some(r) => Reading::Searched {
            score: r.score,
            best: r.best,
        },
        None => Reading::Over { score: 0 },
    }
}

/// Each position's score for its side to move and the search's move
/// there (a forced position takes its only move and the next one's
/// worth).
fn scores<M: Copy>(readings: &[Reading<M>]) -> Vec<(i32, Option<M>)> {
    let mut out = vec![(0, None); readings.len()];
    for i in (0..readings.len()).rev() {
        out[i] = match readings[i] {
            Reading::Searched { score, best } => (score, Some(best)),
            Reading::Over { score } => (score, None),
            Reading::Forced { only } => (-out.get(i + 1).map_or(0, |s| s.0), Some(only)),
        };
    }
    out
}

/// Judges the game from its readings (one per position): each position's
/// value for `player`, and the moves after which the mover's value fell
/// by a margin while the search preferred another move.
pub fn judge<G: Game>(
    game: &G,
    positions: &[G::Pos],
    moves: &[G::Move],
    readings: &[Reading<G::Move>],
    player: Side,
    margins: Margins,
) -> Judged<G::Move> {
    let cap = margins.cap();
    let scored = scores(readings);
    let for_mover = |i: usize| scored[i].0.clamp(-cap, cap);
    let values = (0..positions.len())
        .map(|i| {
            let v = for_mover(i);
            if game.side_to_move(&positions[i]) == player {
                v
            } else {
                -v
            }
        })
        .collect();
    let mistakes = (0..moves.len())
        .map(|i| {
            let Reading::Searched { best, .. } = readings[i] else {
                return None;
            };
            if best == moves[i] {
                return None;
            }
            let mover = game.side_to_move(&positions[i]);
            let after = if game.side_to_move(&positions[i + 1]) == mover {
                for_mover(i + 1)
            } else {
                -for_mover(i + 1)
            };
            let drop = for_mover(i) - after;
            let slip = if drop >= margins.bad {
                Slip::Bad
            } else if drop >= margins.dubious {
                Slip::Dubious
            } else {
                return None;
            };
            Some(Mistake {
                slip,
                better: best,
                drop,
            })
        })
        .collect();
    Judged { values, mistakes }
}
