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
    /// A phone's window: the panel keeps only the common actions in view,
    /// at the bottom, the others behind a tap.
    pub compact: bool,
    /// A phone on its side: where the panel begins, a fraction of the
    /// width (it takes everything right of the board).
    pub panel_left: Option<f32>,
    /// On a phone, the world area the camera shows so that the board is as
    /// large as the window's width (upright) or height (on its side)
    /// allows; `None`: the design area ([`CameraArea`]).
    pub shown: Option<Vec2>,
}

/// The world area a board screen asks the camera to show on a phone (its
/// layout's [`Layout::shown`]); `None` on every other screen: the design
/// area.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct CameraArea(pub Option<Vec2>);

impl Layout {
    /// Whether the 駒台 stand beside the board: a portrait window or a
    /// phone's has no room for them (the status line counts the captures).
    pub fn has_stands(&self) -> bool {
        self.panel_top.is_none() && !self.compact
    }

    /// The layout for a board of half-size `half` in `window` (none in
    /// headless runs: landscape); on a phone, with `zoom`, the camera
    /// closer to the board (the screen sets [`CameraArea`] to `shown`).
    pub(crate) fn for_window(window: Option<&Window>, half: Vec2, zoom: bool) -> Layout {
        let portrait = window.is_some_and(super::is_portrait);
        let compact = window.is_some_and(super::is_phone);
        let shown = window.filter(|w| zoom && compact && w.width() > 0.0 && w.height() > 0.0);
        // Room round the board for its file and rank numbers; never wider
        // than the design area shows.
        let shown = shown.map(|w| {
            let aspect = w.width() / w.height();
            if portrait {
                let width = (2.0 * half.x + 90.0).min(super::design_area(Some(w)).x);
                Vec2::new(width, width / aspect)
            } else {
                let height = (2.0 * half.y + 90.0).min(super::design_area(Some(w)).y);
                Vec2::new(height * aspect, height)
            }
        });
        let area = shown.unwrap_or_else(|| super::visible_area(window));
        if !portrait {
            // A phone turned on its side draws its panel at the CSS pixel's
            // size, wider against the board than on a larger window: the
            // board stands at the left edge to leave it room.
            let x = if compact {
                (-area.x / 2.0 + half.x + 44.0).min(-190.0)
            } else {
                -190.0
            };
            // Clear of the rank numbers right of the board.
            let board_right = x + half.x + 40.0;
            return Layout {
                board_center: Vec2::new(x, 0.0),
                panel_top: None,
                compact,
                panel_left: compact.then(|| (0.5 + board_right / area.x).clamp(0.3, 0.7)),
                shown,
            };
        }
        // The board at the top with room for the file numbers above it.
        let top = area.y / 2.0 - 40.0;
        // A little left of the middle: the rank numbers stand on the right
        // (on a phone, whose camera leaves room on both sides, the middle:
        // some games number their ranks on the left).
        let x = if shown.is_some() { 0.0 } else { -18.0 };
        let center = Vec2::new(x, top - half.y);
        let bottom = center.y - half.y - 30.0;
        Layout {
            board_center: center,
            panel_top: Some(((area.y / 2.0 - bottom) / area.y).clamp(0.3, 0.8)),
            compact,
            panel_left: None,
            shown,
        }
    }
}

/// The side panel's node: on the right, or below the board (portrait).
/// Below the board or on a phone it scrolls what does not fit (give it a
/// [`super::widgets::ScrollColumn`] for the wheel and a drag).
pub(crate) fn panel_node(layout: Layout, width: f32) -> Node {
    let overflow = if layout.panel_top.is_some() || layout.compact {
        Overflow::scroll_y()
    } else {
        Overflow::visible()
    };
    let node = match layout.panel_top {
        None => Node {
            position_type: PositionType::Absolute,
            right: px(0),
            top: px(0),
            left: layout.panel_left.map_or(Val::Auto, |l| percent(l * 100.0)),
            width: if layout.panel_left.is_some() {
                Val::Auto
            } else {
                px(width)
            },
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
    };
    Node { overflow, ..node }
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
