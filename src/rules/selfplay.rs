//! CPU-against-CPU matches, used by `yorimichi selfplay` to measure the
//! strengths against each other (and by tests). Native only: it reads the
//! system clock to report move times.

use std::ops::ControlFlow;
use std::time::Instant;

use rand::{SeedableRng, rngs::StdRng};

use super::game::{Game, Outcome, Side};
use super::record::GameRecord;
use super::search::{CpuLevel, Searcher};

/// One finished game of a match.
#[derive(Clone, Debug)]
pub(crate) struct GameSummary {
    pub index: usize,
    /// The side player A had.
    pub a_side: Side,
    pub outcome: Outcome,
    pub plies: usize,
    /// 1 for an A win, ½ for a draw, 0 for a loss.
    pub a_points: f64,
    /// The most nodes one move of each player took (A, B).
    pub max_nodes: [u64; 2],
    /// The longest one move of each player took, in milliseconds (A, B).
    pub max_ms: [f64; 2],
    /// The moves as text (`selfplay --moves` prints them).
    pub moves: Vec<String>,
    /// For A and B: what [`Game::move_stat`] said of their moves
    /// (`selfplay --stats`).
    pub stats: [MoveStats; 2],
}

/// What [`Game::move_stat`] said of one player's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveStats {
    /// Moves it judged.
    pub judged: usize,
    /// Moves it counted (a piece left takeable, a trap entered).
    pub hits: usize,
    /// Of those, the moves played where every other move would have
    /// counted too: no choice was left.
    pub forced: usize,
}

impl std::ops::AddAssign for MoveStats {
    fn add_assign(&mut self, other: MoveStats) {
        self.judged += other.judged;
        self.hits += other.hits;
        self.forced += other.forced;
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct MatchSummary {
    pub games: usize,
    pub a_wins: usize,
    pub b_wins: usize,
    pub draws: usize,
    pub a_points: f64,
}

impl MatchSummary {
    /// A's score in percent: wins plus half the draws.
    pub(crate) fn a_percent(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            100.0 * self.a_points / self.games as f64
        }
    }
}

/// Plays one game between two levels; `a_side` is the side level `a` plays.
pub(crate) fn play_game<G: Game>(
    game: &G,
    a: &CpuLevel,
    b: &CpuLevel,
    a_side: Side,
    rng: &mut StdRng,
    index: usize,
) -> GameSummary {
    let mut record = GameRecord::new(game);
    let mut max_nodes = [0u64; 2];
    let mut max_ms = [0f64; 2];
    let mut moves = Vec::new();
    let mut stats = [MoveStats::default(); 2];
    let outcome = loop {
        if let Some(o) = record.outcome(game) {
            break o;
        }
        let mover = game.side_to_move(record.current());
        let (level, who) = if mover == a_side { (a, 0) } else { (b, 1) };
        let plan = level.plan(rng);
        let started = Instant::now();
        let forbidden = record.forbidden_moves(game);
        let mut searcher = Searcher::new(game, record.current().clone(), record.hashes(), plan)
            .restrict_root(|m| !forbidden.contains(&m));
        let Some(result) = searcher.run(game) else {
            // `outcome` reports positions without moves; this cannot be
            // reached unless a game forgets to.
            panic!("no move in an unfinished game at ply {}", record.ply());
        };
        max_nodes[who] = max_nodes[who].max(result.nodes);
        max_ms[who] = max_ms[who].max(started.elapsed().as_secs_f64() * 1000.0);
        moves.push(game.move_text(record.current(), result.best));
        let after = game.play(record.current(), result.best);
        if let Some(hit) = game.move_stat(record.current(), result.best, &after) {
            let before = record.current();
            let forced = hit
                && record
                    .legal_moves(game)
                    .into_iter()
                    .all(|m| game.move_stat(before, m, &game.play(before, m)) == Some(true));
            stats[who] += MoveStats {
                judged: 1,
                hits: usize::from(hit),
                forced: usize::from(forced),
            };
        }
        if let Err(e) = record.play(game, result.best) {
            panic!("the search chose a move the record refused: {e}");
        }
    };
    let a_points = match outcome.winner {
        None => 0.5,
        Some(w) if w == a_side => 1.0,
        Some(_) => 0.0,
    };
    GameSummary {
        index,
        a_side,
        outcome,
        plies: record.ply(),
        a_points,
        max_nodes,
        max_ms,
        moves,
        stats,
    }
}

/// Plays `games` games, A taking `a_side` in all of them, or 先手 in the
/// even ones and 後手 in the odd ones; calls `each` after every game, and
/// stops early when it breaks.
pub(crate) fn play_match<G: Game>(
    game: &G,
    (a, b): (&CpuLevel, &CpuLevel),
    a_side: Option<Side>,
    games: usize,
    seed: u64,
    mut each: impl FnMut(&GameSummary) -> ControlFlow<()>,
) -> MatchSummary {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut summary = MatchSummary::default();
    for i in 0..games {
        let a_side = a_side.unwrap_or(if i % 2 == 0 {
            Side::First
        } else {
            Side::Second
        });
        let g = play_game(game, a, b, a_side, &mut rng, i);
        summary.games += 1;
        summary.a_points += g.a_points;
        match g.outcome.winner {
            None => summary.draws += 1,
            Some(w) if w == a_side => summary.a_wins += 1,
            Some(_) => summary.b_wins += 1,
        }
        if each(&g).is_break() {
            break;
        }
    }
    summary
}
