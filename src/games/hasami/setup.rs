//! The setup screen: opponent, CPU strength, first player, rules (a preset
//! or 自分で決める), 待った, piece design.

use bevy::prelude::*;

use super::{FirstChoice, HasamiMatch, HasamiPresets, SetupDraft};
use crate::app::audio::Sfx;
use crate::app::i18n::{Lang, T};
use crate::app::save::Store;
use crate::app::screens::{go_to, localized_game_name, open_from};
use crate::app::settings::{PieceStyle, Settings};
use crate::app::widgets::{self, Fonts, palette};
use crate::app::{ChosenGame, Screen};
use crate::rules::data::{GameId, Strength};
use crate::rules::hasami::Enclosure;

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Setup), spawn_setup.run_if(chosen_hasami))
        .add_systems(
            Update,
            (rebuild_on_change, begin_on_enter)
                .run_if(in_state(Screen::Setup))
                .run_if(chosen_hasami),
        );
}

pub fn chosen_hasami(chosen: Res<ChosenGame>) -> bool {
    chosen.0 == GameId::Hasami
}

#[derive(Component)]
struct SetupRoot;

/// The setup screen's start button (tests click it).
#[derive(Component)]
pub struct BeginButton;

type Edit = fn(&mut SetupDraft);

fn option(
    parent: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    caption: &str,
    selected: bool,
    edit: impl Fn(&mut SetupDraft) + Send + Sync + 'static,
) {
    parent
        .spawn(widgets::button(fonts, caption, selected))
        .observe(
            move |_: On<Pointer<Click>>,
                  mut draft: ResMut<SetupDraft>,
                  mut sfx: MessageWriter<Sfx>| {
                sfx.write(Sfx::Button);
                edit(&mut draft);
            },
        );
}

/// A heading and a row of choices, the current one highlighted.
fn choice_group<V: Copy + PartialEq + Send + Sync + 'static>(
    parent: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    title: T,
    choices: &[(V, T)],
    current: V,
    set: fn(&mut SetupDraft, V),
) {
    heading(parent, fonts, lang, title);
    parent.spawn(widgets::row()).with_children(|r| {
        for &(value, key) in choices {
            option(r, fonts, key.get(lang), current == value, move |d| {
                set(d, value)
            });
        }
    });
}

fn heading(parent: &mut ChildSpawnerCommands, fonts: &Fonts, lang: Lang, key: T) {
    parent.spawn(widgets::label(fonts, lang, key, 18.0, palette::INK));
}

fn spawn_setup(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    draft: Res<SetupDraft>,
    presets: Res<HasamiPresets>,
) {
    let lang = settings.lang;
    let d = draft.clone();
    let tr = |k: T| k.get(lang);
    commands
        .spawn((
            DespawnOnExit(Screen::Setup),
            SetupRoot,
            widgets::screen_root(),
        ))
        .with_children(|root| {
            root.spawn(widgets::text(
                &fonts,
                localized_game_name(GameId::Hasami, lang),
                34.0,
                palette::INK,
            ));
            // Two columns: who plays on the left, the rules on the right.
            root.spawn(Node {
                flex_direction: FlexDirection::Row,
                align_items: AlignItems::FlexStart,
                justify_content: JustifyContent::Center,
                column_gap: px(24),
                ..default()
            })
            .with_children(|cols| {
                cols.spawn(column()).with_children(|left| {
                    heading(left, &fonts, lang, T::Opponent);
                    left.spawn(widgets::row()).with_children(|r| {
                        option(r, &fonts, tr(T::OpponentCpu), d.opponent_is_cpu, |d| {
                            d.opponent_is_cpu = true
                        });
                        option(r, &fonts, tr(T::OpponentHuman), !d.opponent_is_cpu, |d| {
                            d.opponent_is_cpu = false
                        });
                    });
                    if d.opponent_is_cpu {
                        choice_group(
                            left,
                            &fonts,
                            lang,
                            T::CpuStrength,
                            &[
                                (Strength::Easy, T::Easy),
                                (Strength::Normal, T::Normal),
                                (Strength::Strong, T::Strong),
                            ],
                            d.strength,
                            |d, v| d.strength = v,
                        );
                        choice_group(
                            left,
                            &fonts,
                            lang,
                            T::FirstPlayer,
                            &[
                                (FirstChoice::You, T::FirstYou),
                                (FirstChoice::Cpu, T::FirstCpu),
                                (FirstChoice::Random, T::FirstRandom),
                            ],
                            d.first,
                            |d, v| d.first = v,
                        );
                    }
                    choice_group(
                        left,
                        &fonts,
                        lang,
                        T::UndoAllowed,
                        &[(true, T::On), (false, T::Off)],
                        d.undo_allowed,
                        |d, v| d.undo_allowed = v,
                    );
                    heading(left, &fonts, lang, T::PieceDesign);
                    left.spawn(widgets::row()).with_children(|r| {
                        for (style, key) in [
                            (PieceStyle::Koma, T::PieceKoma),
                            (PieceStyle::Symbol, T::PieceSymbol),
                        ] {
                            r.spawn(widgets::button(
                                &fonts,
                                tr(key),
                                settings.piece_style == style,
                            ))
                            .observe(
                                move |_: On<Pointer<Click>>, mut s: ResMut<Settings>| {
                                    s.piece_style = style
                                },
                            );
                        }
                    });
                });
                cols.spawn(column()).with_children(|right| {
                    heading(right, &fonts, lang, T::Rules);
                    right.spawn(widgets::row()).with_children(|r| {
                        for p in &presets.0.presets {
                            let id = p.id.clone();
                            option(r, &fonts, lang.text(&p.name), d.preset == p.id, move |d| {
                                d.preset = id.clone()
                            });
                        }
                        option(r, &fonts, tr(T::CustomRules), d.preset == "custom", |d| {
                            d.preset = "custom".into()
                        });
                    });
                    if let Some(p) = presets.0.preset(&d.preset) {
                        right.spawn(widgets::text(
                            &fonts,
                            lang.text(&p.about),
                            15.0,
                            palette::INK_SOFT,
                        ));
                    } else {
                        custom_rules(right, &fonts, lang, &d);
                    }
                });
            });
            root.spawn(Node {
                margin: UiRect::top(px(18)),
                ..default()
            })
            .with_children(|r| {
                r.spawn(widgets::key_button(&fonts, lang, T::Back, false))
                    .observe(go_to(Screen::GameList));
                r.spawn((
                    widgets::key_button(&fonts, lang, T::Begin, true),
                    BeginButton,
                ))
                .observe(begin);
                r.spawn(widgets::key_button(&fonts, lang, T::Settings, false))
                    .observe(open_from(Screen::Settings, Screen::Setup));
            });
        });
}

/// A column of option groups, each centred.
fn column() -> impl Bundle {
    Node {
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        row_gap: px(4),
        max_width: px(580),
        ..default()
    }
}

fn custom_rules(root: &mut ChildSpawnerCommands, fonts: &Fonts, lang: Lang, d: &SetupDraft) {
    let tr = |k: T| k.get(lang);
    let c = d.custom;
    heading(root, fonts, lang, T::CaptureTarget);
    root.spawn(widgets::row()).with_children(|r| {
        for n in [4u8, 5, 7] {
            option(r, fonts, &format!("{n}"), c.capture_target == n, move |d| {
                d.custom.capture_target = n
            });
        }
        option(
            r,
            fonts,
            tr(T::TargetDownToOne),
            c.capture_target == 8,
            |d| d.custom.capture_target = 8,
        );
    });
    choice_group(
        root,
        fonts,
        lang,
        T::LeadRule,
        &[
            (None, T::LeadNone),
            (Some(2u8), T::Lead2),
            (Some(3u8), T::Lead3),
        ],
        c.lead,
        |d, v| d.custom.lead = v,
    );
    choice_group(
        root,
        fonts,
        lang,
        T::Enclosure,
        &[
            (Enclosure::Corner, T::EnclosureCorner),
            (Enclosure::Edge, T::EnclosureEdge),
            (Enclosure::Anywhere, T::EnclosureAnywhere),
        ],
        c.enclosure,
        |d, v| d.custom.enclosure = v,
    );
    root.spawn(widgets::row()).with_children(|r| {
        let flip_diagonal: Edit = |d| d.custom.diagonal = !d.custom.diagonal;
        let flip_limit: Edit = |d| {
            d.custom.move_limit = if d.custom.move_limit.is_some() {
                None
            } else {
                Some(300)
            }
        };
        option(r, fonts, tr(T::Diagonal), c.diagonal, flip_diagonal);
        option(
            r,
            fonts,
            tr(T::MoveLimit),
            c.move_limit.is_some(),
            flip_limit,
        );
    });
}

fn rebuild_on_change(
    mut commands: Commands,
    draft: Res<SetupDraft>,
    settings: Res<Settings>,
    fonts: Res<Fonts>,
    presets: Res<HasamiPresets>,
    roots: Query<Entity, With<SetupRoot>>,
) {
    if (draft.is_changed() && !draft.is_added()) || (settings.is_changed() && !settings.is_added())
    {
        for r in &roots {
            commands.entity(r).despawn();
        }
        spawn_setup(commands, fonts, settings, draft, presets);
    }
}

fn begin(
    _: On<Pointer<Click>>,
    draft: Res<SetupDraft>,
    presets: Res<HasamiPresets>,
    commands: Commands,
    store: ResMut<Store>,
    next: ResMut<NextState<Screen>>,
    sfx: MessageWriter<Sfx>,
) {
    start_game(draft, presets, commands, store, next, sfx);
}

/// Enter starts the game too.
fn begin_on_enter(
    keys: Res<ButtonInput<KeyCode>>,
    draft: Res<SetupDraft>,
    presets: Res<HasamiPresets>,
    commands: Commands,
    store: ResMut<Store>,
    next: ResMut<NextState<Screen>>,
    sfx: MessageWriter<Sfx>,
) {
    if keys.just_pressed(KeyCode::Enter) {
        start_game(draft, presets, commands, store, next, sfx);
    }
}

fn start_game(
    draft: Res<SetupDraft>,
    presets: Res<HasamiPresets>,
    mut commands: Commands,
    mut store: ResMut<Store>,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
) {
    sfx.write(Sfx::Button);
    let setup = draft.to_setup(&presets.0, &mut rand::rng());
    match HasamiMatch::new(setup) {
        Ok(m) => {
            store.put(&GameId::Hasami.save_key(), &m.to_save());
            commands.insert_resource(m);
            next.set(Screen::Play);
        }
        Err(e) => error!("cannot start はさみ将棋: {e}"),
    }
}
