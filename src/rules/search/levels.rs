//! CPU strengths as data ([`CpuLevel`], from `levels/presets/<game>.ron`)
//! and the plan one search follows, decided once per move from a level.

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

#[cfg(doc)]
use super::{Searcher, contempt};
#[cfg(doc)]
use crate::rules::game::Game;

/// How one CPU strength plays (from `levels/presets/<game>.ron`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CpuLevel {
    /// Deepest full-width iteration, in plies.
    pub depth: u8,
    /// Nodes the search may visit before it plays its best completed move.
    pub nodes: u64,
    /// Whether leaf positions are searched on through captures.
    pub quiescence: bool,
    /// How often (0..1) the CPU plays a blunder instead of its best move.
    pub blunder_rate: f64,
    /// How deep the blunder search reads: 1 means it sees its own move's
    /// captures but not the reply.
    pub blunder_depth: u8,
    /// Random noise added to each root move's score, in hundredths of a
    /// piece: how far apart two moves may be and still both get played.
    pub noise: i32,
    /// Whether the CPU trusts the game's exact endgame tables
    /// ([`Game::exact`]) where they reach.
    #[serde(default)]
    pub endgame_tables: bool,
    /// Whether this level judges positions without looking for threats
    /// ([`Game::evaluate_plain`]): it sees what its own move takes, not the
    /// gap it leaves behind.
    #[serde(default)]
    pub plain_eval: bool,
    /// Whether its blunders are oversights ([`Game::evaluate_oversight`]:
    /// a threat missed, not just a shallower reading).
    #[serde(default)]
    pub plain_blunders: bool,
    /// Whether this level judges with the game's expert knowledge
    /// ([`Game::evaluate_expert`]) instead of the ordinary judgement.
    #[serde(default)]
    pub expert_eval: bool,
    /// The most time a move may take, in milliseconds: when it is up the
    /// CPU plays the best move of its deepest finished reading. Measured
    /// by whoever runs the search ([`Searcher::with_clock`]); without a
    /// clock (self-play tables) only the node budget counts.
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// Whether the search may prune with a null move where the game
    /// offers one ([`Game::null_move`]).
    #[serde(default)]
    pub null_move: bool,
    /// Whether this level keeps to a careful style: it does not play a
    /// move that takes nothing and leaves the opponent something to take
    /// at once unless every other move loses by its reading. The つよい
    /// CPUs that the 十六むさし and きつねとがちょう source pages describe
    /// close in without leaving gaps even where a sacrifice would pay off.
    #[serde(default)]
    pub careful: bool,
    /// Whether the search reads the moves its ordering puts late less
    /// deeply, and every move after the first with a null window first
    /// (principal-variation search), reading a move again at full depth
    /// and width only when it looks better. With many legal moves (中将棋
    /// has over a hundred) this reads some plies deeper in the same time.
    /// An iteration cut short by the clock still gives the better move it
    /// found: each such move was read to the end. The same search leaves
    /// out the quiet moves of a node near the horizon whose static value is
    /// far below what it already has (futility pruning).
    #[serde(default)]
    pub late_move_reductions: bool,
}

/// What one search will do, decided once per move from a [`CpuLevel`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchPlan {
    pub depth: u8,
    pub nodes: u64,
    pub quiescence: bool,
    pub noise: i32,
    pub seed: u64,
    /// Probe the game's exact tables ([`Game::exact`]).
    pub exact: bool,
    /// How leaves are judged.
    pub judgement: Judgement,
    /// The level's time for a move ([`CpuLevel::time_ms`]).
    pub time_ms: Option<u64>,
    /// Null-move pruning ([`CpuLevel::null_move`]).
    pub null_move: bool,
    /// Careless root moves scored down ([`CpuLevel::careful`]).
    pub careful: bool,
    /// Late-move reductions ([`CpuLevel::late_move_reductions`]).
    pub reductions: bool,
    /// Futility pruning: near the horizon, a node whose static value is far
    /// below alpha leaves out its quiet moves (with the reductions in a
    /// level: [`CpuLevel::late_move_reductions`]).
    pub futility: bool,
    /// Whether a draw is worth less than nothing to a side ahead at the
    /// root: it makes progress rather than repeat (see [`contempt`]).
    pub contempt: bool,
    /// No position may come again, for either side: a move that makes one
    /// already on the game's or the search's path loses at once, as if it
    /// were illegal (HaChu's rule: it refuses such a move and makes none).
    /// Without it a side trapped but for a return to an earlier square
    /// reads itself safe.
    pub no_repeats: bool,
}

impl SearchPlan {
    /// A plain, repeatable reading to `depth` within `nodes`: capture
    /// search on, no noise, no tables, no clock, no null move (tests,
    /// references and problem judging start from it).
    pub fn fixed(depth: u8, nodes: u64) -> SearchPlan {
        SearchPlan {
            depth,
            nodes,
            quiescence: true,
            noise: 0,
            seed: 1,
            exact: false,
            judgement: Judgement::Ordinary,
            time_ms: None,
            null_move: false,
            careful: false,
            reductions: false,
            futility: false,
            contempt: false,
            no_repeats: false,
        }
    }
}

/// Which of the game's evaluations a search judges its leaves by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Judgement {
    /// [`Game::evaluate_plain`]: no eye for the threats left behind.
    Plain,
    /// [`Game::evaluate_oversight`]: the ordinary judgement, a threat
    /// missed.
    Oversight,
    /// [`Game::evaluate`].
    Ordinary,
    /// [`Game::evaluate_expert`].
    Expert,
}

impl Judgement {
    fn of(plain: bool, expert: bool) -> Judgement {
        match (plain, expert) {
            (true, _) => Judgement::Plain,
            (false, true) => Judgement::Expert,
            (false, false) => Judgement::Ordinary,
        }
    }
}

impl CpuLevel {
    /// Rolls the dice for this move: the full search or a blunder.
    pub fn plan(&self, rng: &mut impl Rng) -> SearchPlan {
        let seed = rng.next_u64();
        if self.blunder_rate > 0.0 && rng.random::<f64>() < self.blunder_rate {
            SearchPlan {
                depth: self.blunder_depth.max(1),
                nodes: self.nodes,
                quiescence: false,
                noise: self.noise.max(50),
                seed,
                exact: false,
                judgement: if self.plain_blunders && !self.plain_eval {
                    Judgement::Oversight
                } else {
                    Judgement::of(self.plain_eval, self.expert_eval)
                },
                time_ms: self.time_ms,
                null_move: false,
                careful: false,
                reductions: false,
                futility: false,
                contempt: false,
                no_repeats: false,
            }
        } else {
            SearchPlan {
                noise: self.noise,
                seed,
                ..self.hint_plan()
            }
        }
    }

    /// The strongest play: used for hints (ヒント).
    pub fn hint_plan(&self) -> SearchPlan {
        SearchPlan {
            depth: self.depth.max(1),
            nodes: self.nodes,
            quiescence: self.quiescence,
            noise: 0,
            seed: 0,
            exact: self.endgame_tables,
            judgement: Judgement::of(self.plain_eval, self.expert_eval),
            time_ms: self.time_ms,
            null_move: self.null_move,
            careful: self.careful,
            reductions: self.late_move_reductions,
            futility: self.late_move_reductions,
            contempt: false,
            no_repeats: false,
        }
    }
}
