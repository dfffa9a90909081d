//! The setup screen, the same for every game: opponent, CPU strength, the
//! player's side, rules (a preset or 自分で決める, whose options each game
//! lays out), 待った, 印を出す, piece design.

use crate::shell::widgets::type_scale as ty;
use bevy::prelude::*;

use super::kit::{SetupRoot, choice_group, clear_if_changed, heading, option, setup_screen};
use super::resume::{self, chosen};
use super::session::{Match, Playable, Presets, SetupDraft, SideChoice};
use crate::net::protocol::CLOCK_CHOICES;
use crate::rules::data::{GameId, Strength};
use crate::shell::Screen;
use crate::shell::audio::Sfx;
use crate::shell::i18n::T;
use crate::shell::keys::ButtonFocus;
use crate::shell::save::Store;
use crate::shell::screens::{go_to, open_from};
use crate::shell::settings::{PieceStyle, Settings};
use crate::shell::widgets::{self, ButtonLook, Fonts, palette};

pub fn plugin<G: Playable>(app: &mut App) {
    app.add_systems(
        OnEnter(Screen::Setup),
        spawn_setup::<G>.run_if(chosen(G::ID)),
    )
    .add_systems(
        Update,
        (rebuild_on_change::<G>, begin_on_enter::<G>)
            .run_if(in_state(Screen::Setup))
            .run_if(chosen(G::ID)),
    );
}

/// The setup screen's start button (tests click it).
#[derive(Component)]
pub struct BeginButton;

fn spawn_setup<G: Playable>(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    draft: Res<SetupDraft<G>>,
    presets: Res<Presets<G>>,
) {
    let lang = settings.lang;
    let d = draft.clone();
    let tr = |k: T| k.get(lang);
    setup_screen(&mut commands, &fonts, lang, G::ID, |root| {
        // Two columns: who plays on the left, the rules on the right;
        // within the window, one above the other where it is narrow.
        root.spawn(Node {
            flex_direction: FlexDirection::Row,
            flex_wrap: FlexWrap::Wrap,
            align_items: AlignItems::FlexStart,
            justify_content: JustifyContent::Center,
            width: percent(100),
            max_width: px(1184),
            padding: UiRect::horizontal(px(16)),
            column_gap: px(24),
            row_gap: px(12),
            ..default()
        })
        .with_children(|cols| {
            cols.spawn(column()).with_children(|left| {
                heading(left, &fonts, lang, T::Opponent);
                left.spawn(widgets::row()).with_children(|r| {
                    option::<SetupDraft<G>>(
                        r,
                        &fonts,
                        tr(T::OpponentCpu),
                        ButtonLook::Choice {
                            chosen: d.opponent_is_cpu && !d.remote,
                        },
                        |d| {
                            d.opponent_is_cpu = true;
                            d.remote = false;
                        },
                    );
                    option::<SetupDraft<G>>(
                        r,
                        &fonts,
                        tr(T::OpponentHuman),
                        ButtonLook::Choice {
                            chosen: !d.opponent_is_cpu && !d.remote,
                        },
                        |d| {
                            d.opponent_is_cpu = false;
                            d.remote = false;
                        },
                    );
                    option::<SetupDraft<G>>(
                        r,
                        &fonts,
                        tr(T::OpponentRemote),
                        ButtonLook::Choice { chosen: d.remote },
                        |d| d.remote = true,
                    );
                });
                if d.opponent_is_cpu && !d.remote {
                    choice_group::<SetupDraft<G>, _>(
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
                }
                if d.opponent_is_cpu || d.remote {
                    let (question, [first, second, random]) = G::side_question();
                    // Against a person far away the CPU's place is theirs.
                    let second = match second {
                        T::FirstCpu if d.remote => T::FirstOther,
                        other => other,
                    };
                    choice_group::<SetupDraft<G>, _>(
                        left,
                        &fonts,
                        lang,
                        question,
                        &[
                            (SideChoice::First, first),
                            (SideChoice::Second, second),
                            (SideChoice::Random, random),
                        ],
                        d.side,
                        |d, v| d.side = v,
                    );
                }
                // In 中将棋 a player away too long loses: how long is the
                // room's choice.
                if d.remote && G::ID == GameId::ChuShogi {
                    choice_group::<SetupDraft<G>, _>(
                        left,
                        &fonts,
                        lang,
                        T::GracePeriod,
                        &[(30, T::Grace30), (60, T::Grace60), (180, T::Grace180)],
                        d.grace_seconds,
                        |d, v| d.grace_seconds = v,
                    );
                    let [ten, thirty] = CLOCK_CHOICES;
                    choice_group::<SetupDraft<G>, _>(
                        left,
                        &fonts,
                        lang,
                        T::RoomClock,
                        &[
                            (None, T::ClockNone),
                            (Some(ten), T::Clock10),
                            (Some(thirty), T::Clock30),
                        ],
                        d.room_clock,
                        |d, v| d.room_clock = v,
                    );
                }
                // A room's game is the room's: a move is taken back only
                // when the other side agrees, where the room allows it.
                if d.remote && G::ID != GameId::Mawari {
                    choice_group::<SetupDraft<G>, _>(
                        left,
                        &fonts,
                        lang,
                        T::RoomTakebacks,
                        &[(true, T::On), (false, T::Off)],
                        d.room_takebacks,
                        |d, v| d.room_takebacks = v,
                    );
                }
                if !d.remote {
                    choice_group::<SetupDraft<G>, _>(
                        left,
                        &fonts,
                        lang,
                        T::UndoAllowed,
                        &[(true, T::On), (false, T::Off)],
                        d.undo_allowed,
                        |d, v| d.undo_allowed = v,
                    );
                }
                if G::HAS_MARKS {
                    choice_group::<SetupDraft<G>, _>(
                        left,
                        &fonts,
                        lang,
                        T::ShowMarks,
                        &[(true, T::On), (false, T::Off)],
                        d.marks,
                        |d, v| d.marks = v,
                    );
                }
                // 中将棋's thirty kinds have only the named koma.
                if G::PIECE_STYLES {
                    heading(left, &fonts, lang, T::PieceDesign);
                    left.spawn(widgets::row()).with_children(|r| {
                        for (style, key) in [
                            (PieceStyle::Koma, T::PieceKoma),
                            (PieceStyle::Symbol, T::PieceSymbol),
                        ] {
                            r.spawn(widgets::button_with(
                                &fonts,
                                tr(key),
                                ButtonLook::Choice {
                                    chosen: settings.piece_style == style,
                                },
                            ))
                            .observe(
                                move |_: On<Pointer<Click>>, mut s: ResMut<Settings>| {
                                    s.piece_style = style
                                },
                            );
                        }
                    });
                }
                G::display_settings_ui(left, &fonts, lang, &settings);
            });
            cols.spawn(column()).with_children(|right| {
                heading(right, &fonts, lang, T::Rules);
                right.spawn(widgets::row()).with_children(|r| {
                    for p in &presets.0.presets {
                        let id = p.id.clone();
                        option::<SetupDraft<G>>(
                            r,
                            &fonts,
                            lang.text(&p.name),
                            ButtonLook::Choice {
                                chosen: d.preset == p.id,
                            },
                            move |d| d.preset = id.clone(),
                        );
                    }
                    option::<SetupDraft<G>>(
                        r,
                        &fonts,
                        tr(T::CustomRules),
                        ButtonLook::Choice {
                            chosen: d.preset == "custom",
                        },
                        |d| d.preset = "custom".into(),
                    );
                });
                if let Some(p) = presets.0.preset(&d.preset) {
                    right.spawn(widgets::text(
                        &fonts,
                        lang.text(&p.about),
                        ty::SMALL,
                        palette::INK_SOFT,
                    ));
                } else {
                    G::custom_rules_ui(right, &fonts, lang, &d.custom);
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
                widgets::key_button(
                    &fonts,
                    lang,
                    if d.remote { T::CreateRoom } else { T::Begin },
                    true,
                ),
                BeginButton,
            ))
            .observe(begin::<G>);
            r.spawn(widgets::key_button(&fonts, lang, T::Settings, false))
                .observe(open_from(Screen::Settings, Screen::Setup));
        });
    });
}

/// A column of option groups, each centred: the two share the width, and
/// their rows of choices wrap rather than push past the window.
fn column() -> impl Bundle {
    Node {
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        row_gap: px(4),
        flex_grow: 1.0,
        flex_shrink: 1.0,
        flex_basis: px(320),
        min_width: px(0),
        max_width: px(580),
        ..default()
    }
}

fn rebuild_on_change<G: Playable>(
    mut commands: Commands,
    draft: Res<SetupDraft<G>>,
    settings: Res<Settings>,
    fonts: Res<Fonts>,
    presets: Res<Presets<G>>,
    roots: Query<Entity, With<SetupRoot>>,
) {
    if clear_if_changed(&mut commands, &draft, &settings, &roots) {
        spawn_setup(commands, fonts, settings, draft, presets);
    }
}

fn begin<G: Playable>(
    _: On<Pointer<Click>>,
    draft: Res<SetupDraft<G>>,
    presets: Res<Presets<G>>,
    settings: Res<Settings>,
    commands: Commands,
    store: ResMut<Store>,
    next: ResMut<NextState<Screen>>,
    sfx: MessageWriter<Sfx>,
) {
    start_game(draft, presets, settings, commands, store, next, sfx);
}

/// Enter starts the game too.
fn begin_on_enter<G: Playable>(
    keys: Res<ButtonInput<KeyCode>>,
    draft: Res<SetupDraft<G>>,
    presets: Res<Presets<G>>,
    settings: Res<Settings>,
    commands: Commands,
    store: ResMut<Store>,
    next: ResMut<NextState<Screen>>,
    sfx: MessageWriter<Sfx>,
    focus: ButtonFocus,
) {
    if keys.just_pressed(KeyCode::Enter) && focus.focused().is_none() {
        start_game(draft, presets, settings, commands, store, next, sfx);
    }
}

fn start_game<G: Playable>(
    draft: Res<SetupDraft<G>>,
    presets: Res<Presets<G>>,
    settings: Res<Settings>,
    mut commands: Commands,
    mut store: ResMut<Store>,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
) {
    sfx.write(Sfx::Button);
    if draft.remote {
        super::remote::make_room(&draft, &presets, &settings, &mut commands, &mut next);
        return;
    }
    let setup = draft.to_setup(&presets.0, &mut rand::rng());
    match Match::<G>::new(setup) {
        Ok(m) => {
            resume::keep(&mut store, &m);
            commands.insert_resource(m);
            next.set(Screen::Play);
        }
        Err(e) => error!("cannot start {}: {e}", G::ID.id()),
    }
}
