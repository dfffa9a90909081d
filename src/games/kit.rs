//! The widgets every game's setup screen is built of, まわり将棋's
//! included: the screen under the game's name, a choice button that edits
//! the screen's draft, a heading, and a heading over a row of choices.

use bevy::ecs::component::Mutable;
use bevy::prelude::*;

use crate::rules::data::GameId;
use crate::shell::Screen;
use crate::shell::audio::Sfx;
use crate::shell::i18n::{Lang, T};
use crate::shell::screens::localized_game_name;
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, Fonts, palette};

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
            root.spawn(game_title(fonts, lang, game, 34.0));
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

/// One choice button; clicking it edits the draft `D` (the setup screen's
/// choices, kept as a resource).
pub(crate) fn option<D: Resource<Mutability = Mutable>>(
    parent: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    caption: &str,
    selected: bool,
    edit: impl Fn(&mut D) + Send + Sync + 'static,
) {
    parent
        .spawn(widgets::button(fonts, caption, selected))
        .observe(
            move |_: On<Pointer<Click>>, mut draft: ResMut<D>, mut sfx: MessageWriter<Sfx>| {
                sfx.write(Sfx::Button);
                edit(&mut draft);
            },
        );
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
            option::<D>(r, fonts, key.get(lang), current == value, move |d| {
                set(d, value)
            });
        }
    });
}

/// The title of a group of choices.
pub(crate) fn heading(parent: &mut ChildSpawnerCommands, fonts: &Fonts, lang: Lang, key: T) {
    parent.spawn(widgets::label(fonts, lang, key, 18.0, palette::INK));
}
