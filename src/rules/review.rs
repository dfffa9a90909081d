//! 振り返り: what the search says about every position of a finished game,
//! and which moves it calls mistakes. The app reads the positions one by
//! one in the background ([`Reading`]) and judges the game once all are
//! read ([`judge`]); the tests read them here directly.

use super::game::{Game, Outcome, Side};
use super::search::{CpuLevel, SearchPlan, Searcher, WIN};

/// How far the mover's evaluation may fall with one move before the move
/// is called 疑問手 (`dubious`) or 悪手 (`bad`), in evaluation units; and
/// what a won position counts (`cap`: a winning game thrown away is one
/// big drop, not a million), which also bounds the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Margins {
    pub dubious: i32,
    pub bad: i32,
    pub cap: i32,
}

/// Scores beyond this are wins found by the search or the exact tables.
const WON: i32 = WIN / 4;

/// What is known about one position of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reading<M> {
    /// The search's score for the side to move and its move; and, where
    /// another move was played, that move's score by the same reading
    /// (comparing two readings of different positions would call moves
    /// mistakes for the reading's own ups and downs from ply to ply).
    Searched {
        score: i32,
        best: M,
        played: Option<i32>,
    },
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

/// The whole game judged: each position's value for the player, as far as
/// it has changed since the start (some games' evaluations count what a
/// side has, not what it is ahead by: the geese's start is worth 1 300),
/// within [`Margins::cap`], a won position counting the cap; and each
/// move's mistake, if it is one.
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
    let mut searcher = Searcher::new(game, positions[i].clone(), &hashes[..=i], plan.clone())
        .restrict_root(|m| !forbidden.contains(&m));
    let Some(found) = searcher.run(game) else {
        return Reading::Over { score: 0 };
    };
    let played = moves
        .get(i)
        .filter(|&&mv| mv != found.best)
        .and_then(|&mv| {
            let others = all_but(game, &positions[i], mv);
            Searcher::new(game, positions[i].clone(), &hashes[..=i], plan)
                .restrict_root(|m| !others.contains(&m))
                .scoring_a_single_move()
                .run(game)
        })
        .map(|r| r.score);
    Reading::Searched {
        score: found.score,
        best: found.best,
        played,
    }
}

/// The `count` best moves of `pos` (reached after the positions
/// `history`, its own last) by `plan`, as 検討 reads them one after
/// another: each with its score for the side to move and the line the
/// search expects, the move first; each next one is the best of the moves
/// not yet read, none of them `forbidden`. Fewer when fewer moves are
/// legal.
pub fn best_lines<G: Game>(
    game: &G,
    pos: &G::Pos,
    history: &[u64],
    forbidden: &[G::Move],
    plan: SearchPlan,
    count: usize,
) -> Vec<(i32, Vec<G::Move>)> {
    let mut lines: Vec<(i32, Vec<G::Move>)> = Vec::new();
    let mut left_out = forbidden.to_vec();
    while lines.len() < count {
        let Some(found) = Searcher::new(game, pos.clone(), history, plan.clone())
            .restrict_root(|m| !left_out.contains(&m))
            .scoring_a_single_move()
            .run(game)
        else {
            break;
        };
        left_out.push(found.best);
        lines.push((found.score, found.pv));
    }
    lines
}

/// Every legal move of `pos` but `mv`: left out of the root, they leave the
/// search to read `mv` alone.
pub fn all_but<G: Game>(game: &G, pos: &G::Pos, mv: G::Move) -> Vec<G::Move> {
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal);
    legal.retain(|&m| m != mv);
    legal
}

/// Each position's score for its side to move and the search's move
/// there (a forced position takes its only move and the next one's
/// worth).
fn scores<M: Copy>(readings: &[Reading<M>]) -> Vec<(i32, Option<M>)> {
    let mut out = vec![(0, None); readings.len()];
    for i in (0..readings.len()).rev() {
        out[i] = match readings[i] {
            Reading::Searched { score, best, .. } => (score, Some(best)),
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
    let cap = margins.cap;
    let scored = scores(readings);
    // What a position is worth to its side to move: a win the cap.
    let worth = |i: usize| {
        let s = scored[i].0;
        if s.abs() >= WON { s.signum() * cap } else { s }
    };
    let for_player = |i: usize, v: i32| {
        if game.side_to_move(&positions[i]) == player {
            v
        } else {
            -v
        }
    };
    let start = if positions.is_empty() {
        0
    } else {
        for_player(0, worth(0))
    };
    let values = (0..positions.len())
        .map(|i| {
            let v = for_player(i, worth(i));
            if v.abs() == cap {
                v
            } else {
                (v - start).clamp(-cap, cap)
            }
        })
        .collect();
    let mistakes = (0..moves.len())
        .map(|i| {
            let Reading::Searched {
                best,
                played: Some(played),
                ..
            } = readings[i]
            else {
                return None;
            };
            if best == moves[i] {
                return None;
            }
            let won = |s: i32| if s.abs() >= WON { s.signum() * cap } else { s };
            let after = won(played);
            // A move that leaves the mover well ahead is no mistake, even
            // where a quicker win was there.
            if after >= cap / 2 {
                return None;
            }
            let drop = worth(i) - after;
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
