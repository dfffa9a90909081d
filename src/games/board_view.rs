//! Where a board graph's points are on the screen, for every game: drawing
//! the board, placing pieces, and turning a click back into a point.

use bevy::prelude::*;

use crate::rules::board::{BoardGraph, PointId};

/// Maps board coordinates to world positions (and back). `flipped` turns
/// the board round so that the player's own pieces are at the bottom.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct BoardView {
    pub center: Vec2,
    /// Distance between neighbouring points.
    pub cell: f32,
    pub flipped: bool,
    /// Board extent in coordinate units.
    pub extent: (i32, i32),
}

impl BoardView {
    pub fn new(board: &BoardGraph, center: Vec2, cell: f32, flipped: bool) -> Self {
        BoardView {
            center,
            cell,
            flipped,
            extent: board.extent(),
        }
    }

    /// World position of a point (y grows upwards on screen, downwards on
    /// the board).
    pub fn world(&self, board: &BoardGraph, p: PointId) -> Vec2 {
        let pt = board.point(p);
        self.world_of(pt.x as f32, pt.y as f32)
    }

    pub(crate) fn world_of(&self, x: f32, y: f32) -> Vec2 {
        let (w, h) = (self.extent.0 as f32 - 1.0, self.extent.1 as f32 - 1.0);
        let (x, y) = if self.flipped { (w - x, h - y) } else { (x, y) };
        self.center + Vec2::new((x - w / 2.0) * self.cell, (h / 2.0 - y) * self.cell)
    }

    /// The point under a world position, if one is within half a cell.
    pub fn point_at(&self, board: &BoardGraph, world: Vec2) -> Option<PointId> {
        let mut best = None;
        let mut best_d = self.cell * 0.5;
        for p in 0..board.len() {
            let d = self.world(board, p).distance(world);
            if d < best_d {
                best_d = d;
                best = Some(p);
            }
        }
        best
    }

    /// Where an arrow key pointing `dir` (on screen) goes from `p`: along
    /// one of `p`'s lines when one runs that way, else to the nearest point
    /// that lies that way (the next square of a grid, or across a board of
    /// lines where no line leads there). `None` at the board's edge.
    pub fn step_from(&self, board: &BoardGraph, p: PointId, dir: Vec2) -> Option<PointId> {
        let here = self.world(board, p);
        let toward = |q: PointId| {
            let d = self.world(board, q) - here;
            (d.length(), d.normalize_or_zero().dot(dir))
        };
        let nearest = |candidates: &mut dyn Iterator<Item = PointId>, min_cos: f32| {
            candidates
                .filter(|&q| q != p && toward(q).1 > min_cos)
                .min_by(|&a, &b| {
                    let score = |q| {
                        let (length, cos) = toward(q);
                        length / (cos * cos)
                    };
                    score(a).total_cmp(&score(b))
                })
        };
        nearest(&mut board.links(p).iter().map(|l| l.to), 0.92)
            .or_else(|| nearest(&mut (0..board.len()), 0.7))
    }

    /// Where the keyboard's cursor goes for an arrow pointing `dir`: a
    /// step from where it stands, or, the first time, `start` (the
    /// selected piece) or else the board's middle.
    pub fn move_cursor(
        &self,
        board: &BoardGraph,
        cursor: Option<PointId>,
        start: Option<PointId>,
        dir: Vec2,
    ) -> Option<PointId> {
        match cursor {
            Some(at) => Some(self.step_from(board, at, dir).unwrap_or(at)),
            None => start.or_else(|| self.central_point(board)),
        }
    }

    /// The point nearest the board's centre (where a keyboard cursor
    /// starts).
    pub fn central_point(&self, board: &BoardGraph) -> Option<PointId> {
        (0..board.len()).min_by(|&a, &b| {
            let d = |q| self.world(board, q).distance_squared(self.center);
            d(a).total_cmp(&d(b))
        })
    }

    /// Half the size of the drawn board (points plus a margin).
    pub(crate) fn half_size(&self) -> Vec2 {
        Vec2::new(self.extent.0 as f32, self.extent.1 as f32) * self.cell * 0.5
    }
}
