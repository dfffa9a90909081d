//! The keyboard reaches every button: Tab and Shift+Tab move the focus
//! through a screen's buttons (the focused one outlined in gold), and Enter
//! or Space presses it. The keys a screen gives a meaning of its own (Enter
//! to begin, the board's cursor, a throw) leave them to a focused button.

use std::time::Duration;

use bevy::camera::NormalizedRenderTarget;
use bevy::ecs::system::SystemParam;
use bevy::input_focus::tab_navigation::TabGroup;
use bevy::input_focus::{InputFocus, InputFocusVisible};
use bevy::picking::backend::HitData;
use bevy::picking::events::{Click, Pointer};
use bevy::picking::pointer::{Location, PointerButton, PointerId};
use bevy::prelude::*;

use super::widgets::palette;

/// The button the keyboard's focus is on, if the focus is shown (after a
/// Tab) and on a button.
#[derive(SystemParam)]
pub struct ButtonFocus<'w, 's> {
    focus: Option<Res<'w, InputFocus>>,
    visible: Option<Res<'w, InputFocusVisible>>,
    buttons: Query<'w, 's, (), With<Button>>,
}

impl ButtonFocus<'_, '_> {
    pub fn focused(&self) -> Option<Entity> {
        let shown = self.visible.as_ref().is_some_and(|v| v.0);
        self.focus
            .as_ref()
            .and_then(|f| f.get())
            .filter(|&e| shown && self.buttons.contains(e))
    }
}

/// The direction of the arrow key just pressed, if any (up is +y, as on
/// the board).
pub fn arrow_pressed(keys: &ButtonInput<KeyCode>) -> Option<Vec2> {
    [
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
        (KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::ArrowRight, Vec2::X),
    ]
    .into_iter()
    .find(|(key, _)| keys.just_pressed(*key))
    .map(|(_, dir)| dir)
}

/// A primary click on `entity`, as a pointer delivers it.
pub fn click_on(entity: Entity) -> Pointer<Click> {
    let location = Location {
        target: NormalizedRenderTarget::None {
            width: 1,
            height: 1,
        },
        position: Vec2::ZERO,
    };
    let event = Click {
        button: PointerButton::Primary,
        hit: HitData::new(Entity::PLACEHOLDER, 0.0, None, None),
        duration: Duration::from_millis(80),
        count: 1,
    };
    Pointer::new(PointerId::Mouse, location, event, entity)
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (group_screens, press_focused, outline_focused).chain(),
    );
}

/// Every screen's root is a tab group: Tab goes through its buttons.
fn group_screens(mut commands: Commands, roots: Query<Entity, (Added<Node>, Without<ChildOf>)>) {
    for root in &roots {
        // A panel rebuilt within the frame may be gone already.
        commands.entity(root).try_insert(TabGroup::new(0));
    }
}

fn press_focused(keys: Res<ButtonInput<KeyCode>>, focus: ButtonFocus, mut commands: Commands) {
    if keys.any_just_pressed([KeyCode::Enter, KeyCode::Space])
        && let Some(button) = focus.focused()
    {
        commands.trigger(click_on(button));
    }
}

fn outline_focused(focus: ButtonFocus, mut outlines: Query<(Entity, &mut Outline), With<Button>>) {
    let focused = focus.focused();
    for (entity, mut outline) in &mut outlines {
        let colour = if Some(entity) == focused {
            palette::GOLD
        } else {
            Color::NONE
        };
        if outline.color != colour {
            outline.color = colour;
        }
    }
}
