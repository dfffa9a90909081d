//! Where the board and the side panel go on the play and tutorial screens,
//! for a landscape window and for a portrait one (a phone); and where the
//! pointer touches them.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

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

/// The pointer on the board screens: the mouse's left button or a finger.
#[derive(SystemParam)]
pub struct PointerInput<'w, 's> {
    buttons: Res<'w, ButtonInput<MouseButton>>,
    touches: Res<'w, Touches>,
    windows: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<Camera2d>>,
}

/// One frame of the pointer: where it went down and where it came up (in
/// screen coordinates), and the camera that puts them in the world.
pub struct PointerFrame<'a> {
    pub pressed: Option<Vec2>,
    pub released: Option<Vec2>,
    /// Where the mouse's right button went down (to inspect, not to play).
    pub right_pressed: Option<Vec2>,
    camera: &'a Camera,
    transform: &'a GlobalTransform,
}

impl PointerInput<'_, '_> {
    /// This frame's press and release; `None` without a window or a
    /// camera.
    pub fn frame(&self) -> Option<PointerFrame<'_>> {
        let window = self.windows.single().ok()?;
        let (camera, transform) = self.cameras.single().ok()?;
        let mouse = |now: bool| now.then(|| window.cursor_position()).flatten();
        let finger = |t: Option<&bevy::input::touch::Touch>| t.map(|t| t.position());
        Some(PointerFrame {
            pressed: mouse(self.buttons.just_pressed(MouseButton::Left))
                .or_else(|| finger(self.touches.iter_just_pressed().next())),
            released: mouse(self.buttons.just_released(MouseButton::Left))
                .or_else(|| finger(self.touches.iter_just_released().next())),
            right_pressed: mouse(self.buttons.just_pressed(MouseButton::Right)),
            camera,
            transform,
        })
    }
}

impl PointerInput<'_, '_> {
    /// The finger held on the screen, if one is (and only one): its id,
    /// where it went down and where it is.
    pub fn held_touch(&self) -> Option<(u64, Vec2, Vec2)> {
        let mut touches = self.touches.iter();
        let touch = touches.next()?;
        touches
            .next()
            .is_none()
            .then(|| (touch.id(), touch.start_position(), touch.position()))
    }
}

impl PointerFrame<'_> {
    /// Where a point of the screen lies in the world.
    pub fn world(&self, screen: Vec2) -> Option<Vec2> {
        self.camera
            .viewport_to_world_2d(self.transform, screen)
            .ok()
    }
}
