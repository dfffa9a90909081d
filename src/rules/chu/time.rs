//! How long the 中将棋 engine thinks about a move: the time plan that
//! `yorimichi usi`, `engine` and `match` share, and the web worker with them.

use super::moves::ChuMove;

/// How long the engine may think about one move, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveTime {
    /// No new iteration is begun once this much has passed: the next one
    /// would take several times as long as all before it.
    pub aim: f64,
    /// The search stops here, with the best move read so far.
    pub most: f64,
}

impl MoveTime {
    /// Exactly `seconds` (`--st`, XBoard's `st`).
    pub fn fixed(seconds: f64) -> MoveTime {
        MoveTime {
            aim: seconds,
            most: seconds,
        }
    }

    /// From a clock with `left` seconds, of which `share` is this move's
    /// fair part.
    pub fn from_clock(share: f64, left: f64) -> MoveTime {
        MoveTime::within(share, left * 0.5)
    }

    /// Until when a new iteration may be begun, after one that ended with
    /// `after` (best move, value) where the one before ended with `before`:
    /// [`MoveTime::aim`], or twice that (within [`MoveTime::most`]) where
    /// the move is unsettled, the iteration having changed its mind or
    /// seen its value fall by more than `UNSETTLED_FALL`: it found
    /// something the one before did not, and the next may decide the move.
    pub fn aim_after(&self, before: Option<(ChuMove, i32)>, after: Option<(ChuMove, i32)>) -> f64 {
        match (before, after) {
            (Some((was, valued)), Some((is, value)))
                if is != was || value < valued - UNSETTLED_FALL =>
            {
                (self.aim * 2.0).min(self.most)
            }
            _ => self.aim,
        }
    }

    /// From this move's fair `share` and the most it may ever take: a
    /// deeper reading begun early may run past the share, one begun late
    /// (past 60% of it) is not begun.
    pub fn within(share: f64, ceiling: f64) -> MoveTime {
        MoveTime {
            aim: share * 0.6,
            most: (share * 1.5).min(ceiling),
        }
    }
}

/// A fall in the value this large from one iteration to the next
/// (hundredths of a pawn) marks the move as unsettled.
const UNSETTLED_FALL: i32 = 30;
