//! The widgets every game's setup screen is built of, まわり将棋's
//! included: the screen under the game's name, a choice button that edits
//! the screen's draft, a heading, and a heading over a row of choices.

use crate::shell::widgets::type_scale as ty;
use bevy::ecs::component::Mutable;
use bevy::prelude::*;

use crate::rules::data::GameId;
use crate::shell::Screen;
use crate::shell::i18n::{Lang, T};
use crate::shell::screens::localized_game_name;
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, ButtonLook, Fonts, palette};

/// The root of a setup screen (rebuilt when its choices change).
#[derive(Component)]
pub(crate) struct SetupRoot;

/// A setup screen: `game`'s name over what `body` lays out.
pub(crate) fn setup_screen(
    commands: &mut Commands,
    fonts: &Fonts,
    lang: Lang,
    game: GameId,
    body: impl FnOnce(&mut ChildSpawnerCommands),
) {
    commands
        .spawn((
            DespawnOnExit(Screen::Setup),
            SetupRoot,
            widgets::screen_root(),
        ))
        .with_children(|root| {
            root.spawn(game_title(fonts, lang, game, ty::TITLE));
            body(root);
        });
}

/// Takes down a setup screen whose draft `D` or settings changed since it
/// was built (not when either was just made), and says so: the caller
/// builds it again.
pub(crate) fn clear_if_changed<D: Resource>(
    commands: &mut Commands,
    draft: &Res<D>,
    settings: &Res<Settings>,
    roots: &Query<Entity, With<SetupRoot>>,
) -> bool {
    let changed = (draft.is_changed() && !draft.is_added())
        || (settings.is_changed() && !settings.is_added());
    if changed {
        for r in roots {
            commands.entity(r).despawn();
        }
    }
    changed
}

/// The game's name as a screen's title.
pub(crate) fn game_title(fonts: &Fonts, lang: Lang, game: GameId, size: f32) -> impl Bundle {
    widgets::text(fonts, localized_game_name(game, lang), size, palette::INK)
}

/// The game's name and what the screen is (振り返り, 検討) in one row, as
/// a screen's title.
pub(crate) fn game_title_with(
    parent: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    game: GameId,
    what: T,
    size: f32,
) {
    parent.spawn(widgets::row()).with_children(|row| {
        row.spawn((
            game_title(fonts, lang, game, size),
            Node {
                margin: UiRect::right(px(10)),
                ..default()
            },
        ));
        row.spawn(widgets::label(fonts, lang, what, size, palette::INK));
    });
}

/// One button of a setup screen, drawn as `look` (an option of a group, a
/// toggle or an action); clicking it edits the draft `D` (the setup
/// screen's choices, kept as a resource).
pub(crate) fn option<D: Resource<Mutability = Mutable>>(
    parent: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    caption: &str,
    look: ButtonLook,
    edit: impl Fn(&mut D) + Send + Sync + 'static,
) {
    parent
        .spawn(widgets::button_with(fonts, caption, look))
        .observe(move |_: On<Pointer<Click>>, mut draft: ResMut<D>| edit(&mut draft));
}

/// A heading and a row of choices, the current one highlighted.
pub(crate) fn choice_group<
    D: Resource<Mutability = Mutable>,
    V: Copy + PartialEq + Send + Sync + 'static,
>(
    parent: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    title: T,
    choices: &[(V, T)],
    current: V,
    set: fn(&mut D, V),
) {
    heading(parent, fonts, lang, title);
    parent.spawn(widgets::row()).with_children(|r| {
        for &(value, key) in choices {
            let chosen = current == value;
            option::<D>(
                r,
                fonts,
                key.get(lang),
                ButtonLook::Choice { chosen },
                move |d| set(d, value),
            );
        }
    });
}

/// The title of a group of choices.
pub(crate) fn heading(parent: &mut ChildSpawnerCommands, fonts: &Fonts, lang: Lang, key: T) {
    parent.spawn(widgets::label(fonts, lang, key, ty::LEAD, palette::INK));
}

/// A text field: its text, with a caret while it is focused (the game's
/// setup feeds it the keyboard, see [`type_into`]); the placeholder, dimmed,
/// while it is empty and not focused. Attach `.observe(...)` to focus it.
pub(crate) fn text_field(
    fonts: &Fonts,
    text: &str,
    placeholder: &str,
    focused: bool,
    width: f32,
) -> impl Bundle {
    let (shown, colour) = if text.is_empty() && !focused {
        (placeholder.to_string(), palette::INK_SOFT)
    } else if focused {
        (format!("{text}|"), palette::INK)
    } else {
        (text.to_string(), palette::INK)
    };
    (
        Node {
            width: px(width),
            padding: UiRect::axes(px(10), px(6)),
            margin: UiRect::all(px(4)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
        BackgroundColor(Color::WHITE),
        BorderColor::all(if focused {
            palette::VERMILION
        } else {
            palette::INK_SOFT
        }),
        children![widgets::text(fonts, shown, ty::BUTTON, colour)],
    )
}

/// What a key press did to a text being typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Typed {
    /// The text changed.
    Edited,
    /// Enter, Tab or Esc: the typing is over.
    Done,
    Nothing,
}

/// Applies one key press to `text` (at most `max` characters): a
/// character is added (as the keyboard writes it, so shift and layouts
/// work, in the browser too), Backspace takes the last off.
pub(crate) fn type_into(
    text: &mut String,
    input: &bevy::input::keyboard::KeyboardInput,
    max: usize,
) -> Typed {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::Key;
    if input.state != ButtonState::Pressed {
        return Typed::Nothing;
    }
    match &input.logical_key {
        Key::Enter | Key::Tab | Key::Escape => return Typed::Done,
        Key::Backspace => {
            return if text.pop().is_some() {
                Typed::Edited
            } else {
                Typed::Nothing
            };
        }
        _ => {}
    }
    let typed = match (&input.text, &input.logical_key) {
        (Some(t), _) => t.to_string(),
        (None, Key::Character(c)) => c.to_string(),
        (None, Key::Space) => " ".into(),
        _ => return Typed::Nothing,
    };
    add_text(text, &typed, max)
}

/// Adds `typed` (an input method's committed text, or a key's) to `text`,
/// leaving out control characters, up to `max` characters.
pub(crate) fn add_text(text: &mut String, typed: &str, max: usize) -> Typed {
    let mut edited = Typed::Nothing;
    for c in typed.chars().filter(|c| !c.is_control()) {
        if text.chars().count() >= max {
            break;
        }
        text.push(c);
        edited = Typed::Edited;
    }
    edited
}
