//! How one node is read: `negamax`'s first looks (repetition, the end,
//! the table), its null move and its moves with their reductions and
//! re-readings, and the capture search at the horizon, each able to stop
//! at a slice's end and go on from its frame ([`super::resume`]).

use super::resume::{Call, Frame, NodeFrame, QuietFrame};
use super::table::{Bound, TtEntry, from_tt, to_tt};
use super::{
    Abort, FUTILITY_DEPTH, FUTILITY_MARGIN, LMR_FULL_MOVES, LMR_MIN_DEPTH, MAX_PLY,
    NULL_MOVE_MIN_DEPTH, NULL_MOVE_REDUCTION, QUIESCENCE_PLIES, Searcher, WIN_BOUND,
    late_move_reduction,
};
use crate::rules::game::Game;

impl<G: Game> Searcher<G> {
    pub(super) fn negamax(
        &mut self,
        game: &G,
        pos: &G::Pos,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        should_stop: &mut dyn FnMut() -> bool,
    ) -> Result<i32, Abort> {
        if self.capture_search_waits(game, pos, depth, ply, alpha, beta) {
            // The slice ended in this node's capture search: on with it.
            return self.quiescence(game, pos, ply, alpha, beta, QUIESCENCE_PLIES, should_stop);
        }
        let node = match self.resumed_node(game, pos, depth, ply, alpha, beta) {
            Some(node) => node,
            None => match self.enter_node(game, pos, depth, ply, alpha, beta, should_stop)? {
                Ok(settled) => return Ok(settled),
                Err(node) => node,
            },
        };
        self.read_node(game, pos, ply, node, should_stop)
    }

    /// Whether the last slice ended in the capture search of this node (at
    /// the horizon), which shares its ply.
    fn capture_search_waits(
        &self,
        game: &G,
        pos: &G::Pos,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> bool {
        self.resume_slices
            && self.plan.quiescence
            && (depth <= 0 || ply >= MAX_PLY)
            && matches!(&self.frames[ply], Some(Frame::Quiet(frame))
                if frame.alpha0 == alpha
                    && frame.beta == beta
                    && frame.left == QUIESCENCE_PLIES
                    && frame.key == game.hash(pos))
    }

    /// The frame the last slice left at `ply`, if it is this node's.
    fn resumed_node(
        &mut self,
        game: &G,
        pos: &G::Pos,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<NodeFrame<G::Move>> {
        if !self.resume_slices {
            return None;
        }
        match self.frames[ply].take()? {
            Frame::Node(node)
                if node.key == game.hash(pos)
                    && node.depth == depth
                    && node.alpha0 == alpha
                    && node.beta == beta =>
            {
                Some(node)
            }
            // Another node than the path's: read afresh.
            _ => {
                self.forget_frames(ply);
                None
            }
        }
    }

    /// A node's first looks: its value when they settle it (`Ok`), or the
    /// node to read (`Err`).
    fn enter_node(
        &mut self,
        game: &G,
        pos: &G::Pos,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        should_stop: &mut dyn FnMut() -> bool,
    ) -> Result<Result<i32, NodeFrame<G::Move>>, Abort> {
        self.count_node(should_stop)?;
        self.seldepth = self.seldepth.max(ply);
        // A repetition is judged before the position's own end: under the
        // no-repeat rule the move that made it is no move at all, whatever it
        // would end (and a game that has really ended repeats nothing).
        if let Some(s) = self.repetition_score(game, pos, ply) {
            return Ok(Ok(s));
        }
        if let Some(o) = game.outcome(pos) {
            return Ok(Ok(self.terminal_score(o, game, pos, ply)));
        }
        // The tables know no history: right below the root the search reads
        // on, so that a repetition the opponent could make next (a loss the
        // tables cannot see) is not mistaken for their longest resistance.
        if self.plan.exact
            && ply >= 2
            && depth >= game.exact_min_depth()
            && let Some(known) = game.exact(pos)
        {
            return Ok(Ok(Self::exact_score(known, game, pos, ply)));
        }
        if depth <= 0 || ply >= MAX_PLY {
            return if self.plan.quiescence {
                self.quiescence(game, pos, ply, alpha, beta, QUIESCENCE_PLIES, should_stop)
                    .map(Ok)
            } else {
                Ok(Ok(self.evaluate(game, pos)))
            };
        }

        let key = game.hash(pos);
        let mut tt_move = None;
        if let Some(e) = self.tt.get(key) {
            tt_move = e.best;
            if e.depth >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return Ok(Ok(s)),
                    Bound::Lower if s >= beta => return Ok(Ok(s)),
                    Bound::Upper if s <= alpha => return Ok(Ok(s)),
                    _ => {}
                }
            }
        }

        // Null move: if passing still leaves this side at or above beta
        // after a reduced reading, a real move will too (the game offers
        // a pass only where zugzwang does not occur). Not next to a mate
        // score, not twice in a row, not in shallow nodes.
        let null_move = self.plan.null_move
            && depth >= NULL_MOVE_MIN_DEPTH
            && !self.after_null[ply]
            && beta.abs() < WIN_BOUND
            && self.evaluate(game, pos) >= beta;
        Ok(Err(NodeFrame::entered(
            key, depth, alpha, beta, tt_move, null_move,
        )))
    }

    /// Reads a node's null move and moves, from where `node` stands.
    fn read_node(
        &mut self,
        game: &G,
        pos: &G::Pos,
        ply: usize,
        mut node: NodeFrame<G::Move>,
        should_stop: &mut dyn FnMut() -> bool,
    ) -> Result<i32, Abort> {
        let (depth, beta) = (node.depth, node.beta);
        // Asked last: the game may look for a check to refuse it.
        if node.null_move
            && let Some(passed) = game.null_move(pos)
        {
            self.after_null[ply + 1] = true;
            let reduced = depth - 1 - NULL_MOVE_REDUCTION;
            let v = self.child_value(game, &passed, reduced, ply + 1, beta - 1, beta, should_stop);
            self.after_null[ply + 1] = false;
            match v {
                Ok(v) if v >= beta => return Ok(beta),
                Ok(_) => {}
                Err(e) => return Err(self.suspend(ply, Frame::Node(node), e)),
            }
        }
        node.null_move = false;

        let moves = match node.moves.take() {
            Some(moves) => moves,
            None => {
                let mut moves = std::mem::take(&mut self.move_lists[ply]);
                moves.clear();
                game.legal_moves(pos, &mut moves);
                if moves.is_empty() {
                    // Games decide this in `outcome`; a position without
                    // moves that is not over is scored statically.
                    self.move_lists[ply] = moves;
                    return Ok(self.evaluate(game, pos));
                }
                self.order(game, pos, &mut moves, node.tt_move, ply);
                node.in_check = (self.plan.reductions || self.plan.futility) && game.in_check(pos);
                node.killers = self.killers[ply];
                // Near the horizon, where the static value is far below
                // alpha, quiet moves that do not check cannot bring it back
                // (futility).
                node.futile = self.plan.futility
                    && depth <= FUTILITY_DEPTH
                    && !node.in_check
                    && node.alpha.abs() < WIN_BOUND
                    && self.evaluate(game, pos) + FUTILITY_MARGIN * depth <= node.alpha;
                moves
            }
        };
        while node.index < moves.len() {
            let i = node.index;
            let mv = moves[i];
            let child = game.play(pos, mv);
            let call = match node.call.take() {
                Some(call) => call,
                None if node.futile
                    && i > 0
                    && node.best > -WIN_BOUND
                    && !game.is_capture(pos, mv)
                    && !game.promotes(mv)
                    && !game.in_check(&child) =>
                {
                    node.index += 1;
                    continue;
                }
                None if !self.plan.reductions || i == 0 => Call::Only,
                None => {
                    let reduce = depth >= LMR_MIN_DEPTH
                        && i >= LMR_FULL_MOVES
                        && !node.in_check
                        && !game.is_capture(pos, mv)
                        && !game.promotes(mv)
                        && !node.killers.contains(&Some(mv))
                        && !game.in_check(&child);
                    Call::Reduced(if reduce {
                        late_move_reduction(depth, i).min(depth - 2)
                    } else {
                        0
                    })
                }
            };
            let v = match self.read_move(
                game,
                &child,
                depth,
                ply,
                node.alpha,
                beta,
                call,
                should_stop,
            ) {
                Ok(v) => v,
                Err((call, e)) => {
                    node.call = Some(call);
                    node.moves = Some(moves);
                    return Err(self.suspend(ply, Frame::Node(node), e));
                }
            };
            if v > node.best {
                node.best = v;
                node.best_move = Some(mv);
            }
            if v > node.alpha {
                node.alpha = v;
            }
            if node.alpha >= beta {
                if !game.is_capture(pos, mv) {
                    let k = &mut self.killers[ply];
                    if k[0] != Some(mv) {
                        k[1] = k[0];
                        k[0] = Some(mv);
                    }
                    let h = &mut self.history[game.move_index(mv)];
                    *h = (*h + depth * depth).min(1 << 20);
                }
                break;
            }
            node.index += 1;
        }
        self.move_lists[ply] = moves;
        let bound = if node.best <= node.alpha0 {
            Bound::Upper
        } else if node.best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.put(TtEntry {
            key: node.key,
            depth,
            score: to_tt(node.best, ply),
            bound,
            best: node.best_move,
        });
        Ok(node.best)
    }

    /// The value of one move's `child`, read as `call` begins: a late
    /// move's null-window readings, and a full one where they beat alpha.
    /// A slice's end says which reading it came in.
    fn read_move(
        &mut self,
        game: &G,
        child: &G::Pos,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        mut call: Call,
        should_stop: &mut dyn FnMut() -> bool,
    ) -> Result<i32, (Call, Abort)> {
        loop {
            let (plies, low, high) = match call {
                Call::Only | Call::Wide => (depth - 1, alpha, beta),
                Call::Reduced(r) => (depth - 1 - r, alpha, alpha + 1),
                Call::Full => (depth - 1, alpha, alpha + 1),
            };
            let v = self
                .child_value(game, child, plies, ply + 1, low, high, should_stop)
                .map_err(|e| (call, e))?;
            call = match call {
                Call::Reduced(r) if v > alpha && r > 0 => Call::Full,
                Call::Reduced(_) | Call::Full if v > alpha && v < beta => Call::Wide,
                _ => return Ok(v),
            };
        }
    }

    pub(super) fn quiescence(
        &mut self,
        game: &G,
        pos: &G::Pos,
        ply: usize,
        alpha: i32,
        beta: i32,
        left: i32,
        should_stop: &mut dyn FnMut() -> bool,
    ) -> Result<i32, Abort> {
        let resumed = self.resumed_quiet(game, pos, ply, alpha, beta, left);
        let (mut frame, start) = match resumed {
            Some(frame) => {
                let start = frame.index;
                (frame, start)
            }
            None => {
                self.seldepth = self.seldepth.max(ply);
                let stand = self.evaluate(game, pos);
                if stand >= beta || left <= 0 || ply >= MAX_PLY {
                    return Ok(stand);
                }
                let mut moves = std::mem::take(&mut self.move_lists[ply]);
                moves.clear();
                game.legal_captures(pos, &mut moves);
                // A capture that loses material in the exchange it starts is
                // no way out of a quiet position: left out.
                moves.retain(|&m| game.exchange(pos, m).is_none_or(|gain| gain >= 0));
                self.sort_moves_by(&mut moves, |m| -game.capture_order(pos, m));
                let frame = QuietFrame {
                    key: 0,
                    alpha0: alpha,
                    beta,
                    left,
                    alpha: alpha.max(stand),
                    best: stand,
                    moves,
                    index: 0,
                    counted: false,
                };
                (frame, 0)
            }
        };
        for i in start..frame.moves.len() {
            let mv = frame.moves[i];
            frame.index = i;
            if !std::mem::take(&mut frame.counted)
                && let Err(e) = self.count_node(should_stop)
            {
                return Err(self.suspend_quiet(game, pos, ply, frame, e));
            }
            let child = game.play(pos, mv);
            let v = match game.outcome(&child) {
                Some(o) => -self.terminal_score(o, game, &child, ply + 1),
                None => {
                    let low = -beta;
                    let high = -frame.alpha;
                    match self.quiescence(game, &child, ply + 1, low, high, left - 1, should_stop) {
                        Ok(v) => -v,
                        Err(e) => {
                            frame.counted = true;
                            return Err(self.suspend_quiet(game, pos, ply, frame, e));
                        }
                    }
                }
            };
            if v > frame.best {
                frame.best = v;
            }
            if v > frame.alpha {
                frame.alpha = v;
            }
            if frame.alpha >= beta {
                break;
            }
        }
        self.move_lists[ply] = frame.moves;
        Ok(frame.best)
    }

    /// The frame the last slice left at `ply`, if it is this capture
    /// search's.
    fn resumed_quiet(
        &mut self,
        game: &G,
        pos: &G::Pos,
        ply: usize,
        alpha: i32,
        beta: i32,
        left: i32,
    ) -> Option<QuietFrame<G::Move>> {
        if !self.resume_slices {
            return None;
        }
        match self.frames[ply].take()? {
            Frame::Quiet(frame)
                if frame.key == game.hash(pos)
                    && frame.alpha0 == alpha
                    && frame.beta == beta
                    && frame.left == left =>
            {
                Some(frame)
            }
            // Another node than the path's: read afresh.
            _ => {
                self.forget_frames(ply);
                None
            }
        }
    }

    /// [`Searcher::suspend`] for the capture search, which hashes its
    /// position only when it keeps a frame.
    fn suspend_quiet(
        &mut self,
        game: &G,
        pos: &G::Pos,
        ply: usize,
        mut frame: QuietFrame<G::Move>,
        abort: Abort,
    ) -> Abort {
        if self.resume_slices {
            frame.key = game.hash(pos);
        }
        self.suspend(ply, Frame::Quiet(frame), abort)
    }
}
