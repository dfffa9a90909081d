//! Building a move from taps on board points, the same for every game: tap
//! a piece, then each point along its path (one destination for a step,
//! each landing for a multi-jump, the middle square for a double move).
//! A path that could stop here or go on waits for the next tap; tapping the
//! piece again stops there (跳ぶのをやめる). Where the taps do not settle
//! the move — promote or not, or a pass tapped on the piece itself — the
//! player is asked to choose.

use super::board::PointId;
use super::game::Game;

/// What a tap did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tap<M> {
    /// A piece with legal moves was picked up.
    Select,
    /// The path went one point further; more taps may follow.
    Extend,
    /// The tap completed a legal move.
    Play(M),
    /// The tap completed a path that more than one move takes (成る or
    /// 成らない), or a pass: the player picks one (or none) of these.
    Choose(Vec<M>),
    /// The selection was put down again.
    Deselect,
    /// Not a point the piece can go to (the selection is dropped, or kept
    /// mid-path where the move cannot stop yet).
    Reject,
    /// A tap on nothing in particular with nothing selected.
    Ignore,
}

fn all_legal<G: Game>(game: &G, pos: &G::Pos) -> Vec<G::Move> {
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal);
    legal
}

fn paths<G: Game>(game: &G, pos: &G::Pos, legal: &[G::Move]) -> Vec<(G::Move, Vec<PointId>)> {
    legal
        .iter()
        .filter_map(|&mv| Some((mv, game.input_path(pos, mv)?)))
        .collect()
}

/// The legal move whose whole path is `path`, if there is one (the first,
/// where a choice follows: see `moves_along_in`).
pub fn move_along<G: Game>(game: &G, pos: &G::Pos, path: &[PointId]) -> Option<G::Move> {
    move_along_in(game, pos, &all_legal(game, pos), path)
}

/// [`move_along`] among `legal` (the moves the game so far allows).
pub(crate) fn move_along_in<G: Game>(
    game: &G,
    pos: &G::Pos,
    legal: &[G::Move],
    path: &[PointId],
) -> Option<G::Move> {
    moves_along_in(game, pos, legal, path).into_iter().next()
}

/// Every move among `legal` whose whole path is `path`, one for each
/// position it leads to.
pub(crate) fn moves_along_in<G: Game>(
    game: &G,
    pos: &G::Pos,
    legal: &[G::Move],
    path: &[PointId],
) -> Vec<G::Move> {
    distinct(
        game,
        pos,
        paths(game, pos, legal)
            .into_iter()
            .filter(|(_, p)| p.as_slice() == path)
            .map(|(mv, _)| mv),
    )
}

/// `moves` less those that lead to the same position as an earlier one
/// (じっと out to any empty neighbour is one pass): the player chooses
/// between outcomes, not routes.
fn distinct<G: Game>(game: &G, pos: &G::Pos, moves: impl Iterator<Item = G::Move>) -> Vec<G::Move> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for mv in moves {
        let key = game.hash(&game.play(pos, mv));
        if !seen.contains(&key) {
            seen.push(key);
            out.push(mv);
        }
    }
    out
}

/// What completing `path` does: one move is played; several (成る /
/// 成らない), or a pass on the piece's own point, are offered.
fn complete<M: Copy>(path: &[PointId], moves: Vec<M>) -> Tap<M> {
    let is_pass = path.len() == 2 && path[0] == path[1];
    match moves[..] {
        [mv] if !is_pass => Tap::Play(mv),
        _ => Tap::Choose(moves),
    }
}

/// Points the next tap may go to, after `path`.
pub fn next_points<G: Game>(game: &G, pos: &G::Pos, path: &[PointId]) -> Vec<PointId> {
    next_points_in(game, pos, &all_legal(game, pos), path)
}

/// [`next_points`] among `legal`.
pub(crate) fn next_points_in<G: Game>(
    game: &G,
    pos: &G::Pos,
    legal: &[G::Move],
    path: &[PointId],
) -> Vec<PointId> {
    if path.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<PointId> = paths(game, pos, legal)
        .into_iter()
        .filter(|(_, p)| p.len() > path.len() && p.starts_with(path))
        .map(|(_, p)| p[path.len()])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Applies a tap on `point` to the path tapped so far.
pub fn tap<G: Game>(
    game: &G,
    pos: &G::Pos,
    path: &mut Vec<PointId>,
    point: PointId,
) -> Tap<G::Move> {
    tap_in(game, pos, &all_legal(game, pos), path, point)
}

/// [`tap`] among `legal` (the moves the game so far allows).
pub(crate) fn tap_in<G: Game>(
    game: &G,
    pos: &G::Pos,
    legal: &[G::Move],
    path: &mut Vec<PointId>,
    point: PointId,
) -> Tap<G::Move> {
    let all = paths(game, pos, legal);
    let starts_here = |p: PointId| all.iter().any(|(_, path)| path[0] == p);
    if path.is_empty() {
        if starts_here(point) {
            path.push(point);
            return Tap::Select;
        }
        return Tap::Ignore;
    }
    let mut longer = path.clone();
    longer.push(point);
    let matching: Vec<&(G::Move, Vec<PointId>)> =
        all.iter().filter(|(_, p)| p.starts_with(&longer)).collect();
    if !matching.is_empty() {
        let exact = distinct(
            game,
            pos,
            matching
                .iter()
                .filter(|(_, p)| p.len() == longer.len())
                .map(|(mv, _)| *mv),
        );
        let goes_on = matching.iter().any(|(_, p)| p.len() > longer.len());
        if exact.is_empty() || goes_on {
            *path = longer;
            return Tap::Extend;
        }
        path.clear();
        return complete(&longer, exact);
    }
    if path.last() == Some(&point) {
        if path.len() == 1 {
            path.clear();
            return Tap::Deselect;
        }
        // Tapping the piece where it stands mid-path: stop here if allowed.
        let stops = distinct(
            game,
            pos,
            all.iter().filter(|(_, p)| p == path).map(|(mv, _)| *mv),
        );
        if stops.is_empty() {
            return Tap::Reject;
        }
        let done = complete(path, stops);
        path.clear();
        return done;
    }
    if path.len() > 1 {
        // Mid-path: the starting point cancels; anything else is refused.
        if path[0] == point {
            path.clear();
            return Tap::Deselect;
        }
        return Tap::Reject;
    }
    if starts_here(point) {
        *path = vec![point];
        return Tap::Select;
    }
    path.clear();
    Tap::Reject
}
