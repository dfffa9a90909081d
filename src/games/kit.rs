//! The setup widgets every game's setup screen is built of, まわり将棋's
//! included: a choice button that edits the screen's draft, a heading, and
//! a heading over a row of choices.

use bevy::ecs::component::Mutable;
use bevy::prelude::*;

use crate::shell::audio::Sfx;
use crate::shell::i18n::{Lang, T};
use crate::shell::widgets::{self, Fonts, palette};

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
