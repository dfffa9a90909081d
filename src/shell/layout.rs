//! Where the board and the side panel go on the play and tutorial screens,
//! for a landscape window and for a portrait one (a phone).

use bevy::prelude::*;

/// Where the board and the side panel go: the panel on the right in a
/// landscape window; in a portrait one (a phone) the board at the top,
/// the panel below it from `panel_top` (a fraction of the height).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub board_center: Vec2,
    /// `None` in landscape.
    pub panel_top: Option<f32>,
}

impl Layout {
    /// The layout for a board of half-size `half` in `window` (none in
    /// headless runs: landscape).
    pub(crate) fn for_window(window: Option<&Window>, half: Vec2) -> Layout {
        let portrait = window.is_some_and(super::is_portrait);
        if !portrait {
            return Layout {
                board_center: Vec2::new(-190.0, 0.0),
                panel_top: None,
            };
        }
        let area = super::visible_area(window);
        // The board at the top with room for the file numbers above it.
        let top = area.y / 2.0 - 40.0;
        // A little left of the middle: the rank numbers stand on the right.
        let center = Vec2::new(-18.0, top - half.y);
        let bottom = center.y - half.y - 30.0;
        Layout {
            board_center: center,
            panel_top: Some(((area.y / 2.0 - bottom) / area.y).clamp(0.3, 0.8)),
        }
    }
}

/// The side panel's node: on the right, or below the board (portrait).
pub(crate) fn panel_node(layout: Layout, width: f32) -> Node {
    match layout.panel_top {
        None => Node {
            position_type: PositionType::Absolute,
            right: px(0),
            top: px(0),
            width: px(width),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            padding: UiRect::all(px(12)),
            row_gap: px(8),
            ..default()
        },
        Some(top) => Node {
            position_type: PositionType::Absolute,
            left: px(0),
            right: px(0),
            top: percent(top * 100.0),
            bottom: px(0),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            padding: UiRect::all(px(8)),
            row_gap: px(6),
            ..default()
        },
    }
}
