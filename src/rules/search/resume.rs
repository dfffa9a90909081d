//! Where a search stood when its slice ended, so that the next slice goes
//! on from that very point instead of reading its iteration again from the
//! root ([`super::Searcher::resuming_slices`]): a frame for the root and
//! one for each ply of the path being read. Read on from its frames, a
//! search cut into any number of slices visits the same nodes in the same
//! order as one read in a single call, and finds the same.

/// A node `negamax` was reading.
pub(super) struct NodeFrame<M> {
    pub(super) key: u64,
    pub(super) depth: i32,
    /// The window the node was entered with.
    pub(super) alpha0: i32,
    pub(super) beta: i32,
    /// The window's lower edge now.
    pub(super) alpha: i32,
    pub(super) tt_move: Option<M>,
    /// The null move is still to be read (or was being read).
    pub(super) null_move: bool,
    /// The moves, ordered, once they are generated.
    pub(super) moves: Option<Vec<M>>,
    /// The move being read.
    pub(super) index: usize,
    pub(super) best: i32,
    pub(super) best_move: Option<M>,
    pub(super) in_check: bool,
    pub(super) futile: bool,
    pub(super) killers: [Option<M>; 2],
    /// How far the reading of the move at `index` had come.
    pub(super) call: Option<Call>,
}

impl<M> NodeFrame<M> {
    /// A node just entered, its moves not yet generated.
    pub(super) fn entered(
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        tt_move: Option<M>,
        null_move: bool,
    ) -> NodeFrame<M> {
        NodeFrame {
            key,
            depth,
            alpha0: alpha,
            beta,
            alpha,
            tt_move,
            null_move,
            moves: None,
            index: 0,
            best: -super::INF,
            best_move: None,
            in_check: false,
            futile: false,
            killers: [None, None],
            call: None,
        }
    }
}

/// The readings of one move, in order: the first move, or one read with
/// the full window, is read once (`Only`); a later one first with a null
/// window, reduced by the given plies if it is a late quiet move
/// (`Reduced`), then at full depth if that beats alpha (`Full`), then with
/// the full window if it lands inside it (`Wide`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Call {
    Only,
    Reduced(i32),
    Full,
    Wide,
}

/// A node of the capture search.
pub(super) struct QuietFrame<M> {
    pub(super) key: u64,
    pub(super) alpha0: i32,
    pub(super) beta: i32,
    pub(super) left: i32,
    pub(super) alpha: i32,
    pub(super) best: i32,
    pub(super) moves: Vec<M>,
    pub(super) index: usize,
    /// The move at `index` was counted as a node already.
    pub(super) counted: bool,
}

/// The frame of one ply of the path.
pub(super) enum Frame<M> {
    Node(NodeFrame<M>),
    Quiet(QuietFrame<M>),
}

/// The root's loop over its moves.
pub(super) struct RootFrame<M> {
    pub(super) depth: i32,
    pub(super) index: usize,
    pub(super) alpha: i32,
    pub(super) best: Option<(M, i32)>,
    pub(super) scored: Vec<(M, i32, i32)>,
    /// The move at `index` was being read with a null window.
    pub(super) null_window: bool,
}

use super::{Abort, Game, Searcher};

impl<G: Game> Searcher<G> {
    /// Forgets the frames kept for plies from `ply` on (a reading that
    /// does not go on along their path).
    pub(super) fn forget_frames(&mut self, ply: usize) {
        for frame in self.frames.iter_mut().skip(ply) {
            *frame = None;
        }
    }

    /// Keeps `frame` for the next slice if a slice ended and the search
    /// goes on from there; passes `abort` on.
    pub(super) fn suspend(&mut self, ply: usize, frame: Frame<G::Move>, abort: Abort) -> Abort {
        if self.resume_slices && matches!(abort, Abort::Slice) {
            self.frames[ply] = Some(frame);
        }
        abort
    }
}
