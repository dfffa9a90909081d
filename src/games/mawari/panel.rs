//! The panel beside the board: each player's name, colour and rank
//! ladder, whose throw it is, the throw log and the buttons (the
//! tutorial's step instead, in the tutorial); and the result once someone
//! has won.
//!
//! The panel stands below the tutorial, the room and the replay: the
//! tutorial draws its own step in the panel's frame ([`PanelFrame`]), the
//! room says what is wrong in [`RoomNote`], and the result's 振り返る asks
//! for the replay by an event ([`ReplayAsked`]).

use crate::shell::widgets::type_scale as ty;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::events::event_banner;
use super::look::{colour_of, seat_patch};
use super::scene::{BoardPlace, Phase, Shown};
use super::session::{LogEntry, MawariMatch};
use super::throw::{self, ThrowRequest, value_text};
use crate::games::kit::game_title;
use crate::games::play::OpenReviewButton;
use crate::games::resume;
use crate::rules::data::GameId;
use crate::rules::mawari::race::{Piece, Rank, TRACK};
use crate::shell::Screen;
use crate::shell::i18n::{Lang, T};
use crate::shell::layout::panel_node;
use crate::shell::save::Store;
use crate::shell::screens::go_to;
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, Fonts, palette};

#[derive(Component)]
pub(crate) struct PanelRoot;

/// The 投げる button (tests click it).
#[derive(Component)]
pub struct ThrowButton;

/// What the panel says about the room while something is wrong: the
/// connection down, or a player away (the race waits for them). The room
/// sets it; the panel shows it.
#[derive(Resource, Default, PartialEq)]
pub(crate) struct RoomNote(pub Option<String>);

/// 振り返る was pressed on the result: the replay, a floor above, opens the
/// race just finished.
#[derive(Event, Clone, Copy, Debug, Default)]
pub(crate) struct ReplayAsked;

/// What the panel is drawn from.
#[derive(SystemParam)]
pub(crate) struct PanelShows<'w> {
    pub m: Res<'w, MawariMatch>,
    pub phase: Res<'w, Phase>,
    pub settings: Res<'w, Settings>,
    pub fonts: Res<'w, Fonts>,
    pub note: Res<'w, RoomNote>,
}

/// The panel's frame beside the board, and when it is drawn again: the
/// play screen's panel and the tutorial's step are drawn in it alike.
#[derive(SystemParam)]
pub(crate) struct PanelFrame<'w, 's> {
    commands: Commands<'w, 's>,
    place: Res<'w, BoardPlace>,
    roots: Query<'w, 's, Entity, With<PanelRoot>>,
    shows: PanelShows<'w>,
}

impl PanelFrame<'_, '_> {
    /// Whether the panel is to be drawn again: when it is not there yet,
    /// or the match, the phase, the settings, the room's note or
    /// (`also_changed`) what else it shows changed; but not while a throw
    /// plays out, unless the match or the note changed.
    pub(crate) fn stale(&self, also_changed: bool) -> bool {
        let s = &self.shows;
        let fresh = self.roots.is_empty();
        // Not on `Shown`: its banner counts down every frame. The pieces it
        // shows change while a throw plays out, whose end changes the phase.
        let changed = s.m.is_changed()
            || s.phase.is_changed()
            || s.settings.is_changed()
            || s.note.is_changed();
        if !fresh && !changed && !also_changed {
            return false;
        }
        !(matches!(*s.phase, Phase::Moving { .. } | Phase::Throwing { .. })
            && !fresh
            && !s.m.is_changed()
            && !s.note.is_changed())
    }

    /// Draws the panel again, its contents from `fill`.
    pub(crate) fn redraw(&mut self, fill: impl FnOnce(&mut ChildSpawnerCommands, &PanelShows)) {
        for e in &self.roots {
            self.commands.entity(e).despawn();
        }
        let shows = &self.shows;
        self.commands
            .spawn((
                DespawnOnExit(self.place.screen),
                PanelRoot,
                crate::shell::widgets::ScrollColumn,
                Node {
                    align_items: AlignItems::Stretch,
                    row_gap: px(6),
                    ..panel_node(self.place.layout, 400.0)
                },
            ))
            .with_children(|panel| fill(panel, shows));
    }
}

/// The panel: each player's name, colour and ladder, the throw log, and
/// the buttons; rebuilt when the match or the phase changes.
pub(crate) fn refresh_panel(mut frame: PanelFrame, shown: Res<Shown>) {
    if !frame.stale(false) {
        return;
    }
    frame.redraw(|panel, s| {
        let m: &MawariMatch = &s.m;
        let phase: &Phase = &s.phase;
        let settings: &Settings = &s.settings;
        let fonts: &Fonts = &s.fonts;
        let note: &RoomNote = &s.note;
        let lang = settings.lang;
        panel.spawn(game_title(fonts, lang, GameId::Mawari, ty::HEADING));
        for (i, p) in shown.pieces.iter().enumerate() {
            let to_throw = m.thrower() == Some(i) && phase.is_waiting();
            player_row(panel, fonts, lang, m, &shown, i, p, to_throw);
        }
        // Only what the board has shown: the winner once the last
        // throw has played out, the war as far as it has been thrown.
        let drawing = shown.draw.as_ref().is_some_and(|d| d.first.is_none());
        let status = match (phase, m.race.winner) {
            (Phase::Over, Some(w)) => T::MawariWins.fill(lang, &[&m.name(w, lang)]),
            (Phase::Waiting, _) => match m.thrower() {
                Some(p) if m.person_to_throw() && drawing => {
                    T::MawariDrawPrompt.fill(lang, &[&m.name(p, lang)])
                }
                Some(p) if m.person_to_throw() => {
                    T::MawariDragToThrow.fill(lang, &[&m.name(p, lang)])
                }
                Some(p) if drawing => T::MawariDrawIsThrowing.fill(lang, &[&m.name(p, lang)]),
                Some(p) => T::MawariIsThrowing.fill(lang, &[&m.name(p, lang)]),
                None => String::new(),
            },
            _ => String::new(),
        };
        if let Some(d) = &shown.draw
            && m.log.is_empty()
        {
            panel.spawn(widgets::text(
                fonts,
                T::MawariDrawTitle.get(lang),
                ty::SMALL,
                palette::INK,
            ));
            for (k, round) in d
                .rounds
                .iter()
                .chain(std::iter::once(&d.scores))
                .enumerate()
            {
                if round.is_empty() {
                    continue;
                }
                let line: Vec<String> = round
                    .iter()
                    .map(|&(p, score)| {
                        format!("{} {}", m.name(p, lang), draw_score_text(score, lang))
                    })
                    .collect();
                panel.spawn(widgets::text(
                    fonts,
                    format!("{}. {}", k + 1, line.join(" · ")),
                    ty::CAPTION,
                    palette::INK_SOFT,
                ));
            }
            if let Some(first) = d.first {
                panel.spawn(widgets::text(
                    fonts,
                    T::MawariGoesFirst.fill(lang, &[&m.name(first, lang)]),
                    ty::SMALL,
                    palette::VERMILION,
                ));
            }
        }
        if let Some(w) = shown.war.filter(|_| phase.is_waiting()) {
            panel.spawn(widgets::text(
                fonts,
                format!(
                    "{} {} {}/{TRACK} · {} {}/{TRACK}",
                    T::MawariAtWar.get(lang),
                    m.name(w.first, lang),
                    w.made[0],
                    m.name(w.second, lang),
                    w.made[1]
                ),
                ty::SMALL,
                palette::VERMILION,
            ));
        }
        panel.spawn(widgets::text(fonts, status, ty::BODY, palette::INK_SOFT));
        if let Some(line) = &note.0 {
            panel.spawn(widgets::text(
                fonts,
                line.clone(),
                ty::SMALL,
                palette::VERMILION,
            ));
        }
        panel.spawn(widgets::row()).with_children(|row| {
            row.spawn((
                widgets::button(
                    fonts,
                    T::MawariThrow.get(lang),
                    m.person_to_throw() && phase.is_waiting(),
                ),
                ThrowButton,
            ))
            .observe(
                |_: On<Pointer<Click>>,
                 mut m: ResMut<MawariMatch>,
                 phase: Res<Phase>,
                 mut w: MessageWriter<ThrowRequest>| {
                    throw::ask_for_throw(&mut m, &phase, &mut w);
                },
            );
            row.spawn(widgets::button_with(
                fonts,
                T::MawariQuick.get(lang),
                widgets::ButtonLook::Toggle { on: m.quick },
            ))
            .observe(
                |_: On<Pointer<Click>>, mut m: ResMut<MawariMatch>, mut store: ResMut<Store>| {
                    m.quick = !m.quick;
                    if !m.race.is_over() {
                        resume::keep(&mut store, &*m);
                    }
                },
            );
            let sound = if settings.sound {
                T::SoundOn
            } else {
                T::SoundOff
            };
            row.spawn(widgets::key_button_with(
                fonts,
                lang,
                sound,
                widgets::ButtonLook::Toggle { on: settings.sound },
            ))
            .observe(|_: On<Pointer<Click>>, mut s: ResMut<Settings>| s.sound = !s.sound);
            row.spawn(widgets::key_button(fonts, lang, T::Quit, false))
                .observe(go_to(Screen::GameList));
        });
        if m.room_events.is_some() {
            crate::shell::rooms::stamp_row(panel, fonts, lang);
        }
        panel.spawn(widgets::text(
            fonts,
            T::MawariLog.get(lang),
            ty::BODY,
            palette::INK,
        ));
        // A throw is logged once it has played out.
        for entry in m.log.iter().take(shown.logged).rev().take(6) {
            panel.spawn(widgets::text(
                fonts,
                log_line(m, entry, lang),
                ty::CAPTION,
                palette::INK_SOFT,
            ));
        }
    });
}

/// A throw of the log as written: who threw, what came up, and what it
/// did by name.
pub(crate) fn log_line(m: &MawariMatch, entry: &LogEntry, lang: Lang) -> String {
    let named: Vec<String> = entry
        .events
        .iter()
        .filter_map(|e| event_banner(e, m, lang))
        .collect();
    format!(
        "{}: {} {}",
        m.name(entry.player, lang),
        value_text(entry.value, lang),
        named.join(" · ")
    )
}

/// A draw throw's score as written: its squares, or せんこ立ち, or ばば.
fn draw_score_text(score: u8, lang: Lang) -> String {
    match score {
        u8::MAX => T::MawariSenko.get(lang).to_string(),
        0 => T::MawariBaba.get(lang).to_string(),
        n => n.to_string(),
    }
}

#[allow(clippy::too_many_arguments)]
fn player_row(
    panel: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    m: &MawariMatch,
    shown: &Shown,
    i: usize,
    p: &Piece,
    to_throw: bool,
) {
    panel
        .spawn((
            Node {
                flex_direction: FlexDirection::Row,
                align_items: AlignItems::Center,
                column_gap: px(4),
                padding: UiRect::all(px(3)),
                border: UiRect::all(px(2)),
                border_radius: BorderRadius::all(px(6)),
                ..default()
            },
            BackgroundColor(if to_throw {
                Color::srgba(1.0, 0.9, 0.6, 0.8)
            } else {
                palette::CARD
            }),
            BorderColor::all(colour_of(m, i)),
        ))
        .with_children(|row| {
            row.spawn(seat_patch(fonts, m.colour(i), 20.0, 30.0));
            row.spawn((
                Node {
                    width: px(112),
                    ..default()
                },
                children![widgets::text(
                    fonts,
                    m.name(i, lang),
                    ty::SMALL,
                    palette::INK
                )],
            ));
            // The ladder: the rank reached in vermilion.
            for r in Rank::LADDER.iter().filter(|r| **r >= Rank::Fu) {
                let reached = *r == p.rank;
                row.spawn(widgets::text(
                    fonts,
                    r.kanji(),
                    if reached { ty::BUTTON } else { ty::CAPTION },
                    if reached {
                        palette::VERMILION
                    } else if *r < p.rank {
                        palette::INK
                    } else {
                        Color::srgb(0.7, 0.65, 0.58)
                    },
                ));
            }
            let state = if let Some(k) = shown.finished.iter().position(|&q| q == i) {
                T::MawariPlace.fill(lang, &[&(k + 1)])
            } else if p.out {
                T::MawariOut.get(lang).to_string()
            } else if p.rank < Rank::Fu {
                lang.pick(p.rank.name_ja(), p.rank.name_en()).to_string()
            } else if p.depth > 0 {
                format!(
                    "{}{}",
                    T::MawariDead.get(lang),
                    if p.depth > 1 { "×2" } else { "" }
                )
            } else if let Some(left) = p.onbu_left {
                T::MawariOnbuLeft.fill(lang, &[&left])
            } else {
                String::new()
            };
            row.spawn(widgets::text(fonts, state, ty::CAPTION, palette::VERMILION));
        });
}

#[derive(Component)]
pub struct ResultPanel;

pub(crate) fn show_result(
    mut commands: Commands,
    phase: Res<Phase>,
    m: Res<MawariMatch>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    place: Res<BoardPlace>,
    existing: Query<(), With<ResultPanel>>,
) {
    if !matches!(*phase, Phase::Over) || !existing.is_empty() || place.screen != Screen::Play {
        return;
    }
    let Some(w) = m.race.winner else { return };
    let lang = settings.lang;
    commands
        .spawn((
            DespawnOnExit(Screen::Play),
            ResultPanel,
            Node {
                position_type: PositionType::Absolute,
                left: if place.panel_top.is_some() {
                    percent(12)
                } else {
                    px(180)
                },
                top: if place.panel_top.is_some() {
                    percent(20)
                } else {
                    px(300)
                },
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                padding: UiRect::all(px(20)),
                row_gap: px(8),
                border: UiRect::all(px(3)),
                border_radius: BorderRadius::all(px(12)),
                ..default()
            },
            BackgroundColor(palette::CARD),
            BorderColor::all(colour_of(&m, w)),
        ))
        .with_children(|p| {
            p.spawn(widgets::text(
                &fonts,
                T::MawariWins.fill(lang, &[&m.name(w, lang)]),
                ty::TITLE,
                palette::VERMILION,
            ));
            // Playing on for places: every place, first to last.
            if m.race.play_on {
                for (k, player) in m.race.standings().into_iter().enumerate() {
                    p.spawn(widgets::text(
                        &fonts,
                        format!(
                            "{} {}",
                            T::MawariPlace.fill(lang, &[&(k + 1)]),
                            m.name(player, lang)
                        ),
                        ty::SUBTITLE,
                        colour_of(&m, player),
                    ));
                }
            }
            p.spawn(widgets::text(
                &fonts,
                T::MawariThrowCount.fill(lang, &[&m.log.len()]),
                ty::LEAD,
                palette::INK_SOFT,
            ));
            p.spawn(widgets::row()).with_children(|r| {
                r.spawn(widgets::key_button(&fonts, lang, T::PlayAgain, true))
                    .observe(play_again);
                r.spawn((
                    widgets::key_button(&fonts, lang, T::Review, false),
                    OpenReviewButton,
                ))
                .observe(|_: On<Pointer<Click>>, mut commands: Commands| {
                    commands.trigger(ReplayAsked);
                });
                r.spawn(widgets::key_button(&fonts, lang, T::BackToList, false))
                    .observe(go_to(Screen::GameList));
            });
        });
}

/// もう一度: in a room still open, its next race, agreed on the room
/// screen; else the setup for a new one.
fn play_again(
    _: On<Pointer<Click>>,
    mut room: ResMut<crate::shell::rooms::RoomLink>,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(connection) = room.0.as_mut()
        && connection.game_over()
        && !connection.watching
    {
        if !connection.agreed() {
            connection.offer_rematch(None);
        }
        next.set(Screen::Lobby);
    } else {
        next.set(Screen::Setup);
    }
}
