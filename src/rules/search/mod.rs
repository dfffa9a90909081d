//! One search for every game: iterative-deepening negamax with alpha-beta,
//! a transposition table, move ordering (TT move, sound captures, killers,
//! captures that lose their exchange, history), an optional capture-only
//! quiescence search (without the losing captures, where the game judges
//! exchanges), null-move pruning where the game allows it, late-move
//! reductions with a principal-variation search, futility pruning and
//! contempt for draws and a rule that no position may come again (as
//! HaChu plays) where the plan asks for them, a node budget, and seeded
//! root noise for variety.
//!
//! The search is *resumable*: [`Searcher::step`] runs until the caller's
//! `should_stop` says the time slice is over, and the next call carries on
//! (work already done is kept in the transposition table, and with
//! [`Searcher::resuming_slices`] from the very node where it stopped).
//! Native builds run it to completion on a background task; the
//! single-threaded web build runs a few milliseconds per frame.
//!
//! CPU strengths are data ([`CpuLevel`]): how deep and how far the CPU reads,
//! and how often and how badly it blunders (a blunder is a move chosen by a
//! shallower, noisier search, so a weak CPU makes the *typical* mistakes of
//! a beginner rather than random ones).

use rand::{RngExt, SeedableRng, rngs::StdRng};

mod levels;
mod node;
mod resume;
mod table;

pub use levels::{CpuLevel, Judgement, SearchPlan};
use resume::{Frame, RootFrame};
pub use table::Table;

use super::game::{EndReason, Exact, Game, Outcome, Side, capture_open};

/// Score of a win found at the root; wins further away score less.
pub(crate) const WIN: i32 = 1_000_000;
const INF: i32 = i32::MAX / 2;
/// Scores above this are wins or losses in some number of plies.
const WIN_BOUND: i32 = WIN - 10_000;
const MAX_PLY: usize = 128;
const QUIESCENCE_PLIES: i32 = 6;
/// The null move's reading is this many plies shorter than a real move's.
const NULL_MOVE_REDUCTION: i32 = 2;
/// Below this depth the null move saves too little to be worth its risk
/// (at 2 its reduced reading is the capture search alone).
const NULL_MOVE_MIN_DEPTH: i32 = 2;
/// Where captures that lose material in their exchange are ordered: after
/// the killer moves, before the quiet moves (whose history stays below).
const LOSING_CAPTURES: i32 = 1 << 25;
/// Score of a position the exact tables give to one side without a
/// distance (plus the static value, so the winner still plays purposefully).
const KNOWN_WIN: i32 = WIN / 2;

/// Late-move reductions: the plies below which no move is reduced, and the
/// moves of a node read in full before any is.
const LMR_MIN_DEPTH: i32 = 3;
const LMR_FULL_MOVES: usize = 3;

/// How many plies shorter the `index`th move of a node at `depth` is read:
/// more for later moves and deeper nodes, growing with both logarithms.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    let r = 0.5 + (depth as f32).ln() * (index as f32).ln() / 2.25;
    r as i32
}

/// Futility pruning: the plies it works within, and the margin a ply by
/// which the static value must fall short of alpha.
const FUTILITY_DEPTH: i32 = 2;
const FUTILITY_MARGIN: i32 = 200;

/// What a draw is worth to the side to move at the root, where a search
/// with contempt judges the root `value` from its own view: less than
/// nothing when it is ahead (a draw throws the lead away, so it looks for
/// progress instead of a repetition), nothing when it is level or behind
/// (it does not court a draw it might be refused).
pub fn contempt(value: i32) -> i32 {
    -(value / CONTEMPT_SHARE).clamp(0, CONTEMPT_MOST)
}
const CONTEMPT_SHARE: i32 = 4;
const CONTEMPT_MOST: i32 = 150;

/// What a careful level ([`CpuLevel::careful`]) takes off a careless root
/// move's score: more than any judgement of a position, so that it plays
/// one only for a win it reads (or against a loss).
const CARELESS: i32 = 10_000;

/// For a score that is a forced win or loss, the plies to its end:
/// positive when the side the score is for wins.
pub fn mate_plies(score: i32) -> Option<i32> {
    (score.abs() >= WIN_BOUND).then(|| (WIN - score.abs()) * score.signum())
}

/// The answer of a finished search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    pub best: M,
    /// From the mover's point of view, noise included.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u8,
    pub nodes: u64,
    /// The expected line of play, `best` first ([`PV_LENGTH`] moves at
    /// most).
    pub pv: Vec<M>,
}

/// How many moves of the expected line a finished search reports.
pub const PV_LENGTH: usize = 8;

#[derive(Clone, Debug, PartialEq)]
pub enum Step<M> {
    /// The slice ended; call `step` again to continue.
    Pending,
    Done(SearchResult<M>),
    /// The root position has no legal move (or the game is over).
    NoMove,
}

/// Why a search call returned without a value.
enum Abort {
    Slice,
    Budget,
}

pub struct Searcher<G: Game> {
    root: G::Pos,
    plan: SearchPlan,
    tt: Table<G::Move>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    /// Hashes of the game before the root and of the current search path.
    path: Vec<u64>,
    game_len: usize,
    nodes: u64,
    root_moves: Vec<(G::Move, i32)>,
    noise: Vec<i32>,
    depth_done: u8,
    best: Option<(G::Move, i32)>,
    finished: bool,
    /// Says when the move's time is up ([`Searcher::with_clock`]).
    clock: Option<Clock>,
    /// Plies whose position was reached by a null move: no second null
    /// move follows one.
    after_null: Vec<bool>,
    /// One move list per ply, kept between nodes so that generating moves
    /// allocates nothing once the lists have grown (a search cut short
    /// leaves its plies' lists empty; they grow again).
    move_lists: Vec<Vec<G::Move>>,
    /// Buffers for sorting a move list, kept between nodes so that
    /// ordering allocates nothing ([`sort_by_key_in`]).
    sort_keys: Vec<(i32, u32)>,
    sort_moves: Vec<G::Move>,
    /// Whether `step` returns after each finished iteration, so that the
    /// caller can report it ([`Searcher::pausing_each_iteration`]).
    pause_each_iteration: bool,
    /// The deepest ply reached in the current iteration, capture search
    /// included.
    seldepth: usize,
    /// A root with one move is read all the same, for its score
    /// ([`Searcher::scoring_a_single_move`]).
    score_single: bool,
    /// A slice's end keeps where the search stood, and the next slice goes
    /// on from there ([`Searcher::resuming_slices`]).
    resume_slices: bool,
    /// Where the root's loop stood when the last slice ended.
    root_frame: Option<RootFrame<G::Move>>,
    /// Where each ply of the path stood when the last slice ended.
    frames: Vec<Option<Frame<G::Move>>>,
    /// The last slice ended at the node about to be entered again.
    slice_ended_here: bool,
    /// Who moves at the root, and what a draw is worth to that side.
    root_side: Side,
    draw_for_root: i32,
}

/// A caller's clock: true once the move's time is up. The rules know no
/// time of their own (the web has no `std::time`), so the app, the
/// commands and the tests bring theirs.
pub(crate) type Clock = Box<dyn FnMut() -> bool + Send + Sync>;

impl<G: Game> Searcher<G> {
    /// `history` holds the hashes of the positions before the root, oldest
    /// first, the root's own last (as [`super::record::GameRecord::hashes`]).
    pub fn new(game: &G, root: G::Pos, history: &[u64], plan: SearchPlan) -> Self {
        let mut moves = Vec::new();
        if game.outcome(&root).is_none() {
            game.legal_moves(&root, &mut moves);
        }
        let mut rng = StdRng::seed_from_u64(plan.seed);
        // Shuffle so that equal moves are chosen with variety, then put
        // captures first.
        for i in (1..moves.len()).rev() {
            let j = rng.random_range(0..=i);
            moves.swap(i, j);
        }
        moves.sort_by_key(|&m| !game.is_capture(&root, m));
        let noise = moves
            .iter()
            .map(|_| {
                if plan.noise > 0 {
                    rng.random_range(-plan.noise..=plan.noise)
                } else {
                    0
                }
            })
            .zip(&moves)
            .map(|(noise, &m)| {
                let careless = plan.careful
                    && !game.is_capture(&root, m)
                    && capture_open(game, &game.play(&root, m));
                if careless { noise - CARELESS } else { noise }
            })
            .collect();
        let mut path: Vec<u64> = history.to_vec();
        if path.last() != Some(&game.hash(&root)) {
            path.push(game.hash(&root));
        }
        let draw_for_root = if plan.contempt {
            contempt(game.evaluate(&root))
        } else {
            0
        };
        Searcher {
            root_side: game.side_to_move(&root),
            draw_for_root,
            game_len: path.len(),
            root,
            tt: Table::standard(),
            killers: vec![[None, None]; MAX_PLY + 1],
            history: vec![0; game.move_index_bound()],
            path,
            nodes: 0,
            root_moves: moves.into_iter().map(|m| (m, 0)).collect(),
            noise,
            depth_done: 0,
            best: None,
            plan,
            finished: false,
            clock: None,
            after_null: vec![false; MAX_PLY + 2],
            move_lists: vec![Vec::new(); MAX_PLY + 1],
            sort_keys: Vec::new(),
            sort_moves: Vec::new(),
            pause_each_iteration: false,
            seldepth: 0,
            score_single: false,
            resume_slices: false,
            root_frame: None,
            frames: Vec::new(),
            slice_ended_here: false,
        }
    }

    /// A fresh transposition table of at most `megabytes`
    /// ([`Table::with_megabytes`]).
    pub fn with_table_megabytes(self, megabytes: usize) -> Self {
        self.with_table(Table::with_megabytes(megabytes))
    }

    /// Reads with `table`, and what earlier searches left in it.
    pub fn with_table(mut self, table: Table<G::Move>) -> Self {
        self.tt = table;
        self
    }

    /// The transposition table, with what this search added, for the next.
    pub fn into_table(self) -> Table<G::Move> {
        self.tt
    }

    /// `step` returns [`Step::Pending`] after each finished iteration too,
    /// so that an engine can print what it found at each depth.
    pub fn pausing_each_iteration(mut self) -> Self {
        self.pause_each_iteration = true;
        self
    }

    /// Reads a root with a single move as any other, instead of playing
    /// it at once: 振り返り asks what the move played was worth, by the
    /// same reading that found the best one.
    pub fn scoring_a_single_move(mut self) -> Self {
        self.score_single = true;
        self
    }

    /// A slice that ends inside an iteration keeps where each ply of the
    /// path stood, and the next slice goes on from there: the search then
    /// reads the same nodes, and finds the same, however it is sliced.
    /// Without it each slice reads its iteration again from the root,
    /// which the table makes quick only while it still holds what the
    /// last slice read: a deep iteration can then outlast any number of
    /// short slices.
    pub fn resuming_slices(mut self) -> Self {
        self.resume_slices = true;
        self.frames = (0..=MAX_PLY).map(|_| None).collect();
        self
    }

    /// The deepest iteration finished so far.
    pub fn depth_done(&self) -> u8 {
        self.depth_done
    }

    /// The deepest ply the last iteration reached, capture search included.
    pub fn seldepth(&self) -> usize {
        self.seldepth
    }

    /// The expected line of play from the root: the best move, then the
    /// table's best replies while they are legal (at most `limit` moves).
    pub fn principal_variation(&self, game: &G, limit: usize) -> Vec<G::Move> {
        let Some((first, _)) = self.best else {
            return Vec::new();
        };
        let mut line = vec![first];
        let mut pos = game.play(&self.root, first);
        let mut seen = vec![game.hash(&self.root), game.hash(&pos)];
        let mut moves = Vec::new();
        while line.len() < limit && game.outcome(&pos).is_none() {
            let key = game.hash(&pos);
            let Some(mv) = self.tt.get(key).and_then(|e| e.best) else {
                break;
            };
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            if !moves.contains(&mv) {
                break;
            }
            pos = game.play(&pos, mv);
            let next = game.hash(&pos);
            if seen.contains(&next) {
                break;
            }
            seen.push(next);
            line.push(mv);
        }
        line
    }

    /// Ends the search when `out_of_time` says so, with the best move of
    /// the deepest iteration finished by then (the first iteration always
    /// finishes, so there is one), as the node budget ends it.
    pub fn with_clock(mut self, out_of_time: Clock) -> Self {
        self.clock = Some(out_of_time);
        self
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches only the root moves `keep` accepts: the moves a rule
    /// outside the position forbids (中将棋's 千日手) are left out, and a
    /// problem's solution is checked against every other move.
    pub fn restrict_root(mut self, keep: impl Fn(G::Move) -> bool) -> Self {
        let (moves, noise): (Vec<_>, Vec<_>) = self
            .root_moves
            .iter()
            .zip(&self.noise)
            .filter(|((mv, _), _)| keep(*mv))
            .map(|(&m, &n)| (m, n))
            .unzip();
        self.root_moves = moves;
        self.noise = noise;
        self
    }

    /// The best move of the deepest iteration finished so far (the first
    /// root move before any has finished): what a CPU out of time plays.
    pub(crate) fn best_so_far(&self) -> Option<SearchResult<G::Move>> {
        let (best, score) = self
            .best
            .or_else(|| self.root_moves.first().map(|&(m, _)| (m, 0)))?;
        Some(SearchResult {
            best,
            score,
            depth: self.depth_done,
            nodes: self.nodes,
            pv: vec![best],
        })
    }

    /// Runs the search on to completion (native threads, CLI, tests).
    pub fn run(&mut self, game: &G) -> Option<SearchResult<G::Move>> {
        loop {
            match self.step(game, &mut || false) {
                Step::Pending => continue,
                Step::Done(r) => return Some(r),
                Step::NoMove => return None,
            }
        }
    }

    /// Searches until done or until `should_stop` returns true (it is asked
    /// every few hundred nodes).
    pub fn step(&mut self, game: &G, should_stop: &mut dyn FnMut() -> bool) -> Step<G::Move> {
        if self.root_moves.is_empty() {
            return Step::NoMove;
        }
        if self.root_moves.len() == 1 && self.depth_done == 0 && !self.score_single {
            // Only one move: no need to think.
            self.best = Some((self.root_moves[0].0, 0));
            self.finished = true;
        }
        while !self.finished {
            let depth = self.depth_done + 1;
            match self.search_root(game, depth as i32, should_stop) {
                Ok(()) => {
                    self.depth_done = depth;
                    if depth >= self.plan.depth
                        || self.nodes >= self.plan.nodes
                        || self.best.is_some_and(|(_, s)| s.abs() >= WIN_BOUND)
                        || self.clock.as_mut().is_some_and(|out_of_time| out_of_time())
                    {
                        self.finished = true;
                    } else if self.pause_each_iteration {
                        return Step::Pending;
                    }
                }
                Err(Abort::Slice) => return Step::Pending,
                Err(Abort::Budget) => self.finished = true,
            }
        }
        let (best, score) = self.best.unwrap_or((self.root_moves[0].0, 0));
        let mut pv = self.principal_variation(game, PV_LENGTH);
        if pv.first() != Some(&best) {
            pv = vec![best];
        }
        Step::Done(SearchResult {
            best,
            score,
            depth: self.depth_done,
            nodes: self.nodes,
            pv,
        })
    }

    fn search_root(
        &mut self,
        game: &G,
        depth: i32,
        should_stop: &mut dyn FnMut() -> bool,
    ) -> Result<(), Abort> {
        let beta = INF;
        let (start, mut alpha, mut best, mut scored, mut resumed_window) =
            match self.root_frame.take() {
                Some(f) if f.depth == depth => {
                    (f.index, f.alpha, f.best, f.scored, Some(f.null_window))
                }
                _ => {
                    self.forget_frames(0);
                    self.seldepth = 0;
                    let scored = Vec::with_capacity(self.root_moves.len());
                    (0, -INF, None, scored, None)
                }
            };
        let root = self.root.clone();
        for i in start..self.root_moves.len() {
            let (mv, _) = self.root_moves[i];
            let noise = self.noise[i];
            let child = game.play(&root, mv);
            // After the first move, a null window asks only whether a move
            // beats the best so far; one that does is read again in full.
            let mut null_window = resumed_window
                .take()
                .unwrap_or(self.plan.reductions && i > 0);
            let value = loop {
                let top = if null_window { alpha + 1 } else { beta };
                match self.child_value(
                    game,
                    &child,
                    depth - 1,
                    1,
                    alpha - noise,
                    top - noise,
                    should_stop,
                ) {
                    Ok(v) if null_window && v + noise > alpha => null_window = false,
                    Ok(v) => break v + noise,
                    Err(Abort::Budget) if self.depth_done == 0 => {
                        // The first iteration always completes, so there is a move.
                        self.plan.nodes = u64::MAX;
                        return self.search_root(game, depth, should_stop);
                    }
                    Err(Abort::Slice) if self.resume_slices => {
                        self.root_frame = Some(RootFrame {
                            depth,
                            index: i,
                            alpha,
                            best,
                            scored,
                            null_window,
                        });
                        return Err(Abort::Slice);
                    }
                    Err(e) => return Err(e),
                }
            };
            scored.push((mv, value, noise));
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((mv, value));
                if self.plan.reductions && self.depth_done > 0 {
                    // Read to the end at this depth: better than the last
                    // iteration's choice if the clock stops this one.
                    self.best = best;
                }
            }
            if value > alpha {
                alpha = value;
            }
        }
        // Order the next iteration by this one's scores (fail-low moves keep
        // their upper bound, which still sorts them after the best).
        let mut order: Vec<(G::Move, i32, i32)> = scored;
        order.sort_by_key(|&(_, v, _)| -v);
        self.root_moves = order.iter().map(|&(m, v, _)| (m, v)).collect();
        self.noise = order.iter().map(|&(_, _, n)| n).collect();
        self.best = best;
        Ok(())
    }

    fn child_value(
        &mut self,
        game: &G,
        child: &G::Pos,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        should_stop: &mut dyn FnMut() -> bool,
    ) -> Result<i32, Abort> {
        self.path.push(game.hash(child));
        let r = self.negamax(game, child, depth, ply, -beta, -alpha, should_stop);
        self.path.pop();
        r.map(|v| -v)
    }

    fn count_node(&mut self, should_stop: &mut dyn FnMut() -> bool) -> Result<(), Abort> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(256) {
            // The node a slice ended at is entered (and counted) again
            // when the next goes on, and that slice does not end there
            // too.
            if !std::mem::take(&mut self.slice_ended_here) && should_stop() {
                if self.resume_slices {
                    self.nodes -= 1;
                    self.slice_ended_here = true;
                }
                return Err(Abort::Slice);
            }
            if self.depth_done > 0
                && (self.nodes >= self.plan.nodes || self.clock.as_mut().is_some_and(|c| c()))
            {
                return Err(Abort::Budget);
            }
        }
        Ok(())
    }

    /// The static value of `pos` for the side to move, as this plan judges.
    fn evaluate(&self, game: &G, pos: &G::Pos) -> i32 {
        match self.plan.judgement {
            Judgement::Plain => game.evaluate_plain(pos),
            Judgement::Oversight => game.evaluate_oversight(pos),
            Judgement::Ordinary => game.evaluate(pos),
            Judgement::Expert => game.evaluate_expert(pos),
        }
    }

    fn terminal_score(&self, outcome: Outcome, game: &G, pos: &G::Pos, ply: usize) -> i32 {
        match outcome.winner {
            None if game.side_to_move(pos) == self.root_side => self.draw_for_root,
            None => -self.draw_for_root,
            Some(winner) if game.won_on_margin(outcome) => {
                Self::exact_score(Exact::Won { winner }, game, pos, ply)
            }
            Some(w) if w == game.side_to_move(pos) => WIN - ply as i32,
            Some(_) => -(WIN - ply as i32),
        }
    }

    fn exact_score(known: Exact, game: &G, pos: &G::Pos, ply: usize) -> i32 {
        let mover = game.side_to_move(pos);
        match known {
            Exact::WinIn { winner, plies } => {
                let s = WIN - (ply as i32 + plies as i32);
                if winner == mover { s } else { -s }
            }
            Exact::Won { winner } => {
                // `evaluate` is the mover's view: the winner still plays
                // for the better of its won positions.
                let e = game.evaluate(pos).clamp(-KNOWN_WIN / 2, KNOWN_WIN / 2);
                if winner == mover {
                    KNOWN_WIN + e
                } else {
                    e - KNOWN_WIN
                }
            }
        }
    }

    /// Score of a position that repeats one already on the game or search
    /// path, if the repetition decides anything.
    fn repetition_score(&self, game: &G, pos: &G::Pos, ply: usize) -> Option<i32> {
        let h = *self.path.last()?;
        let count = self.path.iter().filter(|&&x| x == h).count() as u32;
        if count < 2 {
            return None;
        }
        if self.plan.no_repeats {
            // The side that repeated has lost; the side to move wins.
            return Some(WIN - ply as i32);
        }
        if let Some(o) = game.repetition_outcome(pos, count) {
            return Some(self.terminal_score(o, game, pos, ply));
        }
        // A cycle inside the search can be repeated until the repetition
        // rule fires: score it as that rule's result (a draw in most games,
        // a win for one side in some), unless the repetition only reaches
        // back into the game before the root.
        let first_in_search = self.path[self.game_len..]
            .iter()
            .filter(|&&x| x == h)
            .count();
        (first_in_search >= 2).then(|| {
            let o = game
                .repetition_outcome(pos, u32::MAX)
                .unwrap_or(Outcome::draw(EndReason::Repetition));
            self.terminal_score(o, game, pos, ply)
        })
    }

    /// Sorts `moves` by `key`, lowest first, moves with equal keys keeping
    /// their order (as `sort_by_cached_key`, in the searcher's buffers).
    fn sort_moves_by(&mut self, moves: &mut [G::Move], key: impl Fn(G::Move) -> i32) {
        let mut keys = std::mem::take(&mut self.sort_keys);
        let mut unsorted = std::mem::take(&mut self.sort_moves);
        sort_by_key_in(moves, key, &mut keys, &mut unsorted);
        self.sort_keys = keys;
        self.sort_moves = unsorted;
    }

    fn order(
        &mut self,
        game: &G,
        pos: &G::Pos,
        moves: &mut [G::Move],
        tt_move: Option<G::Move>,
        ply: usize,
    ) {
        let killers = self.killers[ply];
        let history = std::mem::take(&mut self.history);
        self.sort_moves_by(moves, |m| {
            let score = if Some(m) == tt_move {
                1 << 30
            } else if game.is_capture(pos, m) {
                match game.exchange(pos, m) {
                    // Captures that lose material: after the killers.
                    Some(gain) if gain < 0 => LOSING_CAPTURES + gain.max(-(1 << 23)),
                    _ => (1 << 28) + game.capture_order(pos, m).clamp(-(1 << 25), 1 << 25),
                }
            } else if killers[0] == Some(m) {
                1 << 26
            } else if killers[1] == Some(m) {
                (1 << 26) - 1
            } else {
                history[game.move_index(m)]
            };
            -score
        });
        self.history = history;
    }
}

/// Sorts `moves` by `key`, lowest first, moves with equal keys keeping
/// their order: each key is computed once, into `keys`, and `unsorted`
/// holds a copy of the moves while they are put back in order.
fn sort_by_key_in<M: Copy>(
    moves: &mut [M],
    key: impl Fn(M) -> i32,
    keys: &mut Vec<(i32, u32)>,
    unsorted: &mut Vec<M>,
) {
    keys.clear();
    keys.extend(moves.iter().enumerate().map(|(i, &m)| (key(m), i as u32)));
    // Each move's index makes every pair distinct: an unstable sort of the
    // pairs keeps equal keys in their first order.
    keys.sort_unstable();
    unsorted.clear();
    unsorted.extend_from_slice(moves);
    for (slot, &(_, i)) in moves.iter_mut().zip(keys.iter()) {
        *slot = unsorted[i as usize];
    }
}
