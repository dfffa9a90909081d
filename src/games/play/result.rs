//! The result screen and もう一度.

use std::marker::PhantomData;

use bevy::prelude::*;

use super::state::LastResult;
use crate::games::resume;
use crate::games::session::{Match, Opponent, Playable, SetupDraft};
use crate::net::room::rematch_terms;
use crate::rules::game::Side;
use crate::shell::Screen;
use crate::shell::i18n::T;
use crate::shell::rooms::RoomLink;
use crate::shell::save::Store;
use crate::shell::screens::localized_game_name;
use crate::shell::settings::Settings;
use crate::shell::widgets::type_scale as ty;
use crate::shell::widgets::{self, Fonts, palette};

/// The result screen's "play again" button (tests click it).
#[derive(Component)]
pub struct PlayAgainButton;

/// The result screen's 振り返る button (tests click it).
#[derive(Component)]
pub struct OpenReviewButton;

/// 振り返る was pressed on the result screen of game `G`. The review, a
/// floor above the play screen, opens the game just played; the result
/// screen only says so.
#[derive(Event)]
pub struct ReviewAsked<G: Playable>(PhantomData<G>);

impl<G: Playable> Default for ReviewAsked<G> {
    fn default() -> Self {
        ReviewAsked(PhantomData)
    }
}

/// A scrap of coloured paper falling over the result screen of a win.
#[derive(Component, Clone, Copy, Debug)]
pub struct Confetto {
    /// Where it started, in the design area's pixels from the top left.
    start: Vec2,
    /// Pixels a second downwards.
    fall: f32,
    /// How far it drifts to each side, and how fast.
    sway: f32,
    phase: f32,
    /// Turns a second.
    spin: f32,
    /// Seconds since it began to fall.
    age: f32,
}

/// How many scraps fall, and for how long.
const CONFETTI: usize = 80;
const CONFETTI_SECONDS: f32 = 5.0;

/// Paper confetti falling from above the screen: each scrap drifts as it
/// falls and turns over, then is gone.
fn confetti(root: &mut ChildSpawnerCommands) {
    let colors = [
        palette::GOLD,
        palette::VERMILION,
        Color::srgb(0.2, 0.5, 0.8),
        Color::srgb(0.3, 0.7, 0.3),
    ];
    for i in 0..CONFETTI {
        // Spread evenly but not in a row: the golden angle's fractions.
        let spread = (i as f32 * 0.618_034).fract();
        let scrap = Confetto {
            // Some already over the screen when it shows, more above.
            start: Vec2::new(spread * 1100.0, 300.0 - (i % 16) as f32 * 45.0),
            fall: 140.0 + (i % 5) as f32 * 30.0,
            sway: 18.0 + (i % 3) as f32 * 10.0,
            phase: i as f32 * 2.4,
            spin: 0.6 + (i % 4) as f32 * 0.35,
            age: 0.0,
        };
        root.spawn((
            scrap,
            Node {
                position_type: PositionType::Absolute,
                left: px(scrap.start.x),
                top: px(scrap.start.y),
                width: px(13),
                height: px(8),
                ..default()
            },
            BackgroundColor(colors[i % colors.len()]),
            UiTransform::IDENTITY,
        ));
    }
}

/// Lets the confetti fall; each scrap is gone once it has left the screen
/// or its time is up.
pub(super) fn fall_confetti(
    time: Res<Time>,
    mut commands: Commands,
    mut scraps: Query<(Entity, &mut Confetto, &mut UiTransform)>,
) {
    for (entity, mut scrap, mut transform) in &mut scraps {
        scrap.age += time.delta_secs();
        let t = scrap.age;
        let y = scrap.fall * t;
        if t > CONFETTI_SECONDS || scrap.start.y + y > 900.0 {
            commands.entity(entity).despawn();
            continue;
        }
        let x = scrap.sway * (scrap.phase + t * 2.0).sin();
        transform.translation = Val2::px(x, y);
        transform.rotation = Rot2::radians(scrap.phase + t * scrap.spin * std::f32::consts::TAU);
        // Turning over: the scrap narrows to its edge and back.
        transform.scale = Vec2::new((scrap.phase + t * 5.0).cos(), 1.0);
    }
}

pub(super) fn spawn_result<G: Playable>(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    result: Res<LastResult<G>>,
) {
    let lang = settings.lang;
    let o = result.outcome;
    let headline = match (o.winner, result.setup.own_side()) {
        (None, _) => T::Draw,
        (Some(w), Some(own)) if w == own => T::YouWin,
        (Some(_), Some(_)) => T::YouLose,
        (Some(w), None) => G::wins_text(w),
    };
    commands
        .spawn((DespawnOnExit(Screen::Result), widgets::screen_root()))
        .with_children(|root| {
            root.spawn(widgets::text(
                &fonts,
                localized_game_name(G::ID, lang),
                ty::HEADING,
                palette::INK_SOFT,
            ));
            // A win in vermilion, under falling confetti; a loss told
            // calmly, in ink, with a word of comfort.
            let colour = match headline {
                T::YouLose | T::Draw => palette::INK,
                _ => palette::VERMILION,
            };
            if colour == palette::VERMILION && !settings.reduced_motion {
                confetti(root);
            }
            root.spawn(widgets::label(&fonts, lang, headline, ty::DISPLAY, colour));
            if headline == T::YouLose {
                root.spawn(widgets::label(
                    &fonts,
                    lang,
                    T::LossComfort,
                    ty::LEAD,
                    palette::INK_SOFT,
                ));
            }
            root.spawn(widgets::label(
                &fonts,
                lang,
                result.reason,
                ty::SUBTITLE,
                palette::INK,
            ));
            if let Some(detail) = &result.detail {
                root.spawn(widgets::text(
                    &fonts,
                    detail.clone(),
                    ty::BUTTON,
                    palette::INK,
                ));
            }
            root.spawn(widgets::text(
                &fonts,
                format!("{} {}", result.plies, T::Moves.get(lang)),
                ty::LEAD,
                palette::INK_SOFT,
            ));
            if result.setup.opponent == Opponent::Remote {
                root.spawn((
                    widgets::text(&fonts, "", ty::LEAD, palette::VERMILION),
                    RematchOfferText,
                ));
            }
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn((
                    widgets::key_button(&fonts, lang, T::PlayAgain, true),
                    PlayAgainButton,
                ))
                .observe(play_again::<G>);
                row.spawn((
                    widgets::key_button(&fonts, lang, T::Review, false),
                    OpenReviewButton,
                ))
                .observe(|_: On<Pointer<Click>>, mut commands: Commands| {
                    commands.trigger(ReviewAsked::<G>::default());
                });
                row.spawn(widgets::key_button(&fonts, lang, T::BackToList, false))
                    .observe(crate::shell::screens::go_to(Screen::GameList));
            });
        });
}

/// A room's result: who offers the next game, and which game the host
/// chose for it (tests read it).
#[derive(Component)]
pub struct RematchOfferText;

/// Tells a room's result screen of the other players' もう一回 as they
/// come (もう一度 there accepts it).
pub(super) fn show_rematch_offers(
    room: Res<RoomLink>,
    settings: Res<Settings>,
    mut texts: Query<&mut Text, With<RematchOfferText>>,
    new: Query<(), Added<RematchOfferText>>,
) {
    if !(room.is_changed() || settings.is_changed() || !new.is_empty()) {
        return;
    }
    let Some(connection) = room.0.as_ref() else {
        return;
    };
    let Some(view) = connection.view.as_ref().filter(|_| connection.game_over()) else {
        return;
    };
    let lang = settings.lang;
    let (terms, agreed) = rematch_terms(&connection.events, view);
    let mut lines: Vec<String> = agreed
        .iter()
        .filter(|seat| !connection.seats.contains(seat))
        .filter_map(|&seat| view.seats.get(usize::from(seat)))
        .map(|s| T::RoomRematchOffered.fill(lang, &[&s.name.as_str()]))
        .collect();
    if terms.game != view.game {
        lines.push(T::RoomNextGame.fill(lang, &[&localized_game_name(terms.game, lang)]));
    }
    let line = lines.join("\n");
    for mut text in &mut texts {
        if text.0 != line {
            text.0.clone_from(&line);
        }
    }
}

/// もう一度: a new game with the same settings (a random side is drawn
/// again); after a game through a room, the setup to make a new room.
#[allow(clippy::too_many_arguments)]
pub(super) fn play_again<G: Playable>(
    _: On<Pointer<Click>>,
    result: Res<LastResult<G>>,
    mut draft: ResMut<SetupDraft<G>>,
    mut room: ResMut<RoomLink>,
    mut commands: Commands,
    mut store: ResMut<Store>,
    mut next: ResMut<NextState<Screen>>,
) {
    // Still in the room: もう一度 offers its next game, agreed on the room
    // screen.
    if result.setup.opponent == Opponent::Remote
        && let Some(connection) = room.0.as_mut()
        && connection.game_over()
        && !connection.watching
    {
        if !connection.agreed() {
            connection.offer_rematch(None);
        }
        next.set(Screen::Lobby);
        return;
    }
    if result.setup.opponent == Opponent::Remote {
        draft.remote = true;
        next.set(Screen::Setup);
        return;
    }
    let mut setup = result.setup.clone();
    if setup.random_side {
        use rand::RngExt;
        setup.human_side = if rand::rng().random_bool(0.5) {
            Side::First
        } else {
            Side::Second
        };
    }
    if let Ok(m) = Match::<G>::new(setup) {
        resume::keep(&mut store, &m);
        commands.insert_resource(m);
        next.set(Screen::Play);
    }
}
