//! The keyboard reaches every button: Tab and Shift+Tab move the focus
//! through a screen's buttons (the focused one outlined in gold), and Enter
//! or Space presses it. The keys a screen gives a meaning of its own (Enter
//! to begin, the board's cursor, a throw) leave them to a focused button.

use std::time::Duration;

use bevy::camera::NormalizedRenderTarget;
use bevy::ecs::system::SystemParam;
use bevy::input::ButtonState;
use bevy::input::keyboard::KeyboardInput;
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

/// The direction of each arrow key pressed since the last look, in order
/// (up is +y, as on the board): every press is a step, also two within
/// one slow frame, and a held key repeats.
pub fn arrow_presses(presses: &mut MessageReader<KeyboardInput>) -> Vec<Vec2> {
    presses
        .read()
        .filter(|k| k.state == ButtonState::Pressed)
        .filter_map(|k| match k.key_code {
            KeyCode::ArrowUp => Some(Vec2::Y),
            KeyCode::ArrowDown => Some(Vec2::NEG_Y),
            KeyCode::ArrowLeft => Some(Vec2::NEG_X),
            KeyCode::ArrowRight => Some(Vec2::X),
            _ => None,
        })
        .collect()
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
