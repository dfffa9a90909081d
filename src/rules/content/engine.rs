//! Moves the engine would play: the move a step asks for (`expect`) is
//! searched in the step's position, and must be the engine's best move or
//! within the game's margin of the best score. A step that shows a mistake
//! on purpose (`mistake: true`) is held to the opposite: its move must be
//! worse than the best by at least the margin. Only `yorimichi check` (and
//! its tests) runs this reading; the loaders at app start do not.

use super::Depth;
use crate::rules::game::Game;
use crate::rules::search::{SearchPlan, Searcher, mate_plies};

/// How one game's asked moves are read: the search depth in plies, its
/// node budget, and how far below the best score (the game's own units,
/// about 100 a piece or a capture) an asked move may be.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reading {
    pub(crate) depth: u8,
    pub(crate) nodes: u64,
    pub(crate) margin: i32,
}

impl Reading {
    /// This reading at `depth`: [`Depth::Deep`] reads every game two plies
    /// deeper (中将棋 four) with ten times the nodes, a fixed amount of
    /// work, so it finds the same on any machine.
    pub(crate) const fn at(self, depth: Depth) -> Reading {
        match depth {
            Depth::Quick => self,
            Depth::Deep => Reading {
                depth: if self.depth < 6 {
                    self.depth * 2
                } else {
                    self.depth + 2
                },
                nodes: self.nodes * 10,
                margin: self.margin,
            },
        }
    }
}

// Every game's reading, in one place. The depths are the deepest that keep
// the whole `yorimichi check` quick (its measured time is in
// docs/rules-to-tutorials.md); the margins are under a piece, so a move
// that loses a piece or a capture against the best is always named, while
// two moves the evaluation barely tells apart both pass.

/// はさみ将棋: a rook-moving board of 18 pieces has many moves a ply, so
/// six plies (three moves a side) with the capture search beyond; a
/// capture is worth 100 and more.
pub(crate) const HASAMI: Reading = Reading {
    depth: 6,
    nodes: 400_000,
    margin: 60,
};

/// きつねとがちょう: few moves a ply, so the search sees a jump coming
/// three moves ahead each; a goose is worth 100.
pub(crate) const FOXGEESE: Reading = Reading {
    depth: 8,
    nodes: 400_000,
    margin: 60,
};

/// 十六むさし: as きつねとがちょう; a capture takes a pair (200), and a 子
/// alone is 100.
pub(crate) const MUSASHI: Reading = Reading {
    depth: 8,
    nodes: 400_000,
    margin: 60,
};

/// 中将棋: hundreds of moves a ply, so two moves a side with the capture
/// search beyond: enough to see a piece lost on the reply after next, or a
/// lone king hunted down; a 歩兵 is 100 and the pieces the steps teach are
/// worth several.
pub(crate) const CHUSHOGI: Reading = Reading {
    depth: 4,
    nodes: 400_000,
    margin: 150,
};

/// What the engine found where a step asks for a move.
pub(crate) enum Verdict<M> {
    /// The asked move is the best, or within the margin of it.
    Good,
    /// Another move scores more than the margin better.
    Worse { better: M, best: i32, asked: i32 },
    /// The asked move, declared a mistake, is the best or within the
    /// margin of it.
    NoMistake { best: i32, asked: i32 },
}

/// Reads `pos` (reached through the positions `history`, its own last)
/// with the root moves `allowed`, and judges the moves `asked` (one move,
/// perhaps by several routes) against the best of them.
pub(crate) fn judge<G: Game>(
    game: &G,
    reading: Reading,
    pos: &G::Pos,
    history: &[u64],
    allowed: &[G::Move],
    asked: &[G::Move],
    mistake: bool,
) -> Option<Verdict<G::Move>> {
    let plan = SearchPlan {
        seed: 0,
        ..SearchPlan::fixed(reading.depth, reading.nodes)
    };
    let search = |keep: &dyn Fn(G::Move) -> bool| {
        Searcher::new(game, pos.clone(), history, plan.clone())
            .with_table_megabytes(16)
            .restrict_root(keep)
            .scoring_a_single_move()
            .run(game)
    };
    let best = search(&|m| allowed.contains(&m))?;
    let asked_score = if asked.contains(&best.best) {
        best.score
    } else {
        search(&|m| asked.contains(&m))?.score
    };
    let short = best.score - asked_score;
    Some(match (mistake, short > reading.margin) {
        (false, true) => Verdict::Worse {
            better: best.best,
            best: best.score,
            asked: asked_score,
        },
        (true, false) if short < reading.margin => Verdict::NoMistake {
            best: best.score,
            asked: asked_score,
        },
        _ => Verdict::Good,
    })
}

/// A score for messages: a number, or a win or loss in so many plies.
pub(crate) fn score_text(score: i32) -> String {
    match mate_plies(score) {
        Some(p) if p > 0 => format!("a win in {p} plies"),
        Some(p) => format!("a loss in {} plies", -p),
        None => score.to_string(),
    }
}
