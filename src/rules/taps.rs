//! Building a move from taps on board points, the same for every game: tap
//! a piece, then each point along its path (one destination for a step,
//! each landing for a multi-jump, the middle square for a double move).
//! A path that could stop here or go on waits for the next tap; tapping the
//! piece again stops there (跳ぶのをやめる).

use super::board::PointId;
use super::game::Game;

/// What a tap did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tap<M> {
    /// A piece with legal moves was picked up.
    Select,
    /// The path went one point further; more taps may follow.
    Extend,
    /// The tap completed a legal move.
    Play(M),
    /// The selection was put down again.
    Deselect,
    /// Not a point the piece can go to (the selection is dropped, or kept
    /// mid-path where the move cannot stop yet).
    Reject,
    /// A tap on nothing in particular with nothing selected.
    Ignore,
}

fn paths<G: Game>(game: &G, pos: &G::Pos) -> Vec<(G::Move, Vec<PointId>)> {
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal);
    legal
        .into_iter()
        .map(|mv| (mv, game.move_path(mv)))
        .collect()
}

/// The legal move whose whole path is `path`, if there is one.
pub fn move_along<G: Game>(game: &G, pos: &G::Pos, path: &[PointId]) -> Option<G::Move> {
    paths(game, pos)
        .into_iter()
        .find(|(_, p)| p.as_slice() == path)
        .map(|(mv, _)| mv)
}

/// Points the next tap may go to, after `path`.
pub fn next_points<G: Game>(game: &G, pos: &G::Pos, path: &[PointId]) -> Vec<PointId> {
    if path.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<PointId> = paths(game, pos)
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
    let all = paths(game, pos);
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
        let exact = matching.iter().find(|(_, p)| p.len() == longer.len());
        let goes_on = matching.iter().any(|(_, p)| p.len() > longer.len());
        return match exact {
            Some((mv, _)) if !goes_on => {
                path.clear();
                Tap::Play(*mv)
            }
            _ => {
                *path = longer;
                Tap::Extend
            }
        };
    }
    if path.last() == Some(&point) {
        if path.len() == 1 {
            path.clear();
            return Tap::Deselect;
        }
        // Tapping the piece where it stands mid-path: stop here if allowed.
        return match all.iter().find(|(_, p)| p == path) {
            Some((mv, _)) => {
                path.clear();
                Tap::Play(*mv)
            }
            None => Tap::Reject,
        };
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
