//! Where a two-player game's board stands on a screen: its frame on the
//! screen, the layout round it and how a piece is turned. The play,
//! tutorial and review screens place the board alike, each from here.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::art;
use super::board_view::BoardView;
use super::session::Playable;
use crate::rules::game::Side;
use crate::shell::Screen;
use crate::shell::layout::Layout;

/// The board's place on the play, tutorial and review screens.
pub fn board_view<G: Playable>(game: &G, flipped: bool, layout: Layout) -> BoardView {
    BoardView::new(game.graph(), layout.board_center, G::CELL, flipped)
}

/// The layout of `game`'s board in `window`.
pub fn layout_for<G: Playable>(game: &G, window: Option<&Window>) -> Layout {
    let probe = BoardView::new(game.graph(), Vec2::ZERO, G::CELL, false);
    Layout::for_window(window, probe.half_size(), true)
}

/// Whether the window's size is not the one last `seen` (which it then
/// becomes): a pointer's moves change the window too, and ask for no new
/// layout.
pub fn window_reshaped(
    windows: &Query<&Window, With<PrimaryWindow>>,
    seen: &mut Option<Vec2>,
) -> bool {
    let size = windows.single().ok().map(|w| w.size());
    let reshaped = size != *seen;
    *seen = size;
    reshaped
}

/// The layout `game`'s board needs in the window as it is now, where that
/// is not `current`: a phone turned, a window given another shape.
pub fn changed_layout<G: Playable>(
    game: &G,
    windows: &Query<&Window, With<PrimaryWindow>>,
    current: &Layout,
) -> Option<Layout> {
    let fresh = layout_for(game, windows.single().ok());
    (fresh != *current).then_some(fresh)
}

/// Clears `screen`'s entities, for the screen to be drawn again.
pub fn despawn_screen(
    commands: &mut Commands,
    scoped: &Query<(Entity, &DespawnOnExit<Screen>)>,
    screen: Screen,
) {
    for (entity, scope) in scoped {
        if scope.0 == screen {
            commands.entity(entity).despawn();
        }
    }
}

/// How a piece of `side` is turned when `bottom` plays from the bottom.
pub fn piece_rotation<G: Playable>(side: Side, bottom: Side) -> Quat {
    art::facing(!G::TURN_TOP_PIECES || side == bottom)
}
