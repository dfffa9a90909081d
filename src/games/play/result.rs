//! The result screen and もう一度.

use super::*;

/// The result screen's "play again" button (tests click it).
#[derive(Component)]
pub struct PlayAgainButton;

pub(super) fn spawn_result<G: Playable>(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    result: Res<LastResult<G>>,
) {
    let lang = settings.lang;
    let o = result.outcome;
    let headline = match (o.winner, result.setup.opponent) {
        (None, _) => T::Draw,
        (Some(w), Opponent::Cpu(_)) if w == result.setup.human_side => T::YouWin,
        (Some(_), Opponent::Cpu(_)) => T::YouLose,
        (Some(w), Opponent::Human | Opponent::Analysis) => G::wins_text(w),
    };
    commands
        .spawn((DespawnOnExit(Screen::Result), widgets::screen_root()))
        .with_children(|root| {
            root.spawn(widgets::text(
                &fonts,
                localized_game_name(G::ID, lang),
                26.0,
                palette::INK_SOFT,
            ));
            // A win in vermilion; a loss told calmly, in ink.
            let colour = match headline {
                T::YouLose | T::Draw => palette::INK,
                _ => palette::VERMILION,
            };
            root.spawn(widgets::label(&fonts, lang, headline, 54.0, colour));
            root.spawn(widgets::label(
                &fonts,
                lang,
                result.reason,
                22.0,
                palette::INK,
            ));
            if let Some(detail) = &result.detail {
                root.spawn(widgets::text(&fonts, detail.clone(), 20.0, palette::INK));
            }
            root.spawn(widgets::text(
                &fonts,
                format!("{} {}", result.plies, T::Moves.get(lang)),
                18.0,
                palette::INK_SOFT,
            ));
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn((
                    widgets::key_button(&fonts, lang, T::PlayAgain, true),
                    PlayAgainButton,
                ))
                .observe(play_again::<G>);
                row.spawn((
                    widgets::key_button(&fonts, lang, T::Review, false),
                    crate::games::review::OpenReviewButton,
                ))
                .observe(crate::games::review::open_from_result::<G>);
                row.spawn(widgets::key_button(&fonts, lang, T::BackToList, false))
                    .observe(crate::shell::screens::go_to(Screen::GameList));
            });
        });
}

/// もう一度: a new game with the same settings (a random side is drawn
/// again).
pub(super) fn play_again<G: Playable>(
    _: On<Pointer<Click>>,
    result: Res<LastResult<G>>,
    mut commands: Commands,
    mut store: ResMut<Store>,
    mut next: ResMut<NextState<Screen>>,
) {
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
