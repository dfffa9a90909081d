//! 駒問題集: what makes a 中将棋 position a problem, judged by the
//! engine. A position is a problem when the side to move has one best move
//! that wins clearly — every other move (every move ending in a different
//! position) scores at least [`MARGIN`] less — and it gains material over
//! the position as it stands (or takes the king). The same judgement finds
//! problems in self-play (`yorimichi problems chushogi`) and checks every
//! problem of `levels/problems/chushogi.ron` in the tests.

use super::game::Chu;
use super::moves::ChuMove;
use super::position::ChuPosition;
use crate::rules::game::Game;
use crate::rules::search::{SearchPlan, Searcher, WIN};

/// How much worse (hundredths of a pawn) every other move must be.
pub const MARGIN: i32 = 300;
/// How much the best move must gain on the position's static value.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) const GAIN: i32 = 250;
/// Node budget of one judging search.
pub(crate) const NODES: u64 = 400_000;

/// The search depth that judges a problem of `level` (1 easy … 3 hard):
/// 1, the move itself (and the captures that follow: quiescence); 2, the
/// opponent's reply too; 3, a combination of two own moves.
pub fn depth_for(level: u8) -> u8 {
    level.clamp(1, 3)
}

/// What kind of win the best move is.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Theme {
    /// The king is taken by force.
    King,
    /// The 獅子 (or a lion-powered piece) makes the winning move.
    Lion,
    /// The winning move promotes.
    Promotion,
    /// The move wins material.
    Material,
}

/// The engine's judgement of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub best: ChuMove,
    pub score: i32,
    /// The best score of every move that does not end where `best` does.
    pub others: i32,
    /// The position's static value for the side to move.
    pub before: i32,
}

impl Verdict {
    /// Whether the position is a problem with `best` as its answer.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn is_problem(&self) -> bool {
        self.score - self.others >= MARGIN
            && (self.score - self.before >= GAIN || self.score >= WIN / 2)
    }
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn theme(&self, pos: &ChuPosition) -> Theme {
        let mover = pos.at(self.best.from).map(|(_, p)| p);
        if self.score >= WIN / 2 {
            Theme::King
        } else if mover.is_some_and(|p| p.is_lion()) || self.best.mid.is_some() {
            Theme::Lion
        } else if self.best.promote {
            Theme::Promotion
        } else {
            Theme::Material
        }
    }
}

fn plan(depth: u8) -> SearchPlan {
    SearchPlan {
        seed: 0,
        ..SearchPlan::fixed(depth, NODES)
    }
}

/// The best score of the moves `keep` accepts, searched to `depth`.
pub fn best_of(
    game: &Chu,
    pos: &ChuPosition,
    depth: u8,
    keep: impl Fn(ChuMove) -> bool,
) -> Option<(ChuMove, i32)> {
    let key = game.hash(pos);
    let result = Searcher::new(game, pos.clone(), &[key], plan(depth))
        .restrict_root(keep)
        .run(game)?;
    Some((result.best, result.score))
}

/// Judges `pos` at `depth`: the best move, its score, and the best score
/// of every move that ends elsewhere.
pub fn judge(game: &Chu, pos: &ChuPosition, depth: u8) -> Option<Verdict> {
    let (best, score) = best_of(game, pos, depth, |_| true)?;
    let ends = |mv: ChuMove| game.hash(&game.play(pos, mv));
    let best_end = ends(best);
    let others = best_of(game, pos, depth, |mv| ends(mv) != best_end).map_or(-WIN, |(_, s)| s);
    Some(Verdict {
        best,
        score,
        others,
        before: game.evaluate(pos),
    })
}
