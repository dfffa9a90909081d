//! The track of まわり将棋: the edge squares of the shogi board, found by
//! walking the shared board graph (`levels/boards/shogi9.ron`) round its
//! edge, so the race stands on the same board abstraction as every game.

use super::race::{SIDE, TRACK};
use crate::rules::board::{BoardGraph, PointId};

/// The edge points in the order of travel: square 0 is the corner at the
/// graph's (0, last row), square 1 the point after it along that row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    pub points: Vec<PointId>,
}

impl Track {
    /// Walks the edge of `board`; the walk must give the race's 32 squares
    /// with a corner every 8.
    pub fn around(board: &BoardGraph) -> Result<Track, String> {
        let (w, h) = board.extent();
        let start = board
            .at(0, h - 1)
            .ok_or_else(|| format!("{}: no corner at (0, {})", board.name(), h - 1))?;
        let second = board
            .at(1, h - 1)
            .ok_or_else(|| format!("{}: no point at (1, {})", board.name(), h - 1))?;
        let mut points = vec![start, second];
        loop {
            let (before, here) = (points[points.len() - 2], points[points.len() - 1]);
            // Go on along the edge: the edge neighbour that is not where we
            // came from (straight on when possible, so corners turn).
            let straight = board.next_along(before, here).filter(|&p| board.is_edge(p));
            let next = straight.or_else(|| {
                board
                    .orthogonal_neighbours(here)
                    .find(|&p| p != before && board.is_edge(p))
            });
            let Some(next) = next else {
                return Err(format!(
                    "{}: the edge stops at {}",
                    board.name(),
                    board.point(here).name
                ));
            };
            if next == start {
                break;
            }
            if points.contains(&next) || points.len() > (w * h) as usize {
                return Err(format!("{}: the edge does not close", board.name()));
            }
            points.push(next);
        }
        if points.len() != TRACK as usize {
            return Err(format!(
                "{}: the edge has {} squares, not {TRACK}",
                board.name(),
                points.len()
            ));
        }
        let track = Track { points };
        for corner in (0..TRACK).step_by(SIDE as usize) {
            if board.orthogonal_neighbours(track.point(corner)).count() != 2 {
                return Err(format!("{}: square {corner} is not a corner", board.name()));
            }
        }
        Ok(track)
    }

    pub fn point(&self, square: u8) -> PointId {
        self.points[usize::from(square) % self.points.len()]
    }
}
