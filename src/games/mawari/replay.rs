//! まわり将棋's 振り返り: a finished game's throw log played again. Each
//! throw stepped forward to is simulated again from its logged toss (the
//! same seed and the same simulation as in play) and lands as it did, then
//! what it did plays out on the board with the play screen's banners;
//! stepping back or jumping shows the race there at once. A chart beside
//! the board (`replay_chart`) follows each player's rank over the throws.
//! A throw whose toss was not kept (an older save), or whose simulation no
//! longer lands as logged, shows its logged poses instead, and says so.
//!
//! The replay's screen stands on the finished race (`finished`), the
//! scene, the panel's log lines and the chart; the result panel asks for
//! it by an event (`ReplayAsked`).

use crate::shell::widgets::type_scale as ty;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::dice_view::DiceSprites;
use super::finished::{Landing, MawariReplay};
use super::look::{colour_of, mark_of};
use super::panel::{ReplayAsked, log_line};
use super::replay_chart::{self, ChartKey, LegendText};
use super::scene::{BoardPlace, Dice, Phase, SceneMaker, Shown};
use super::session::MawariMatch;
use crate::games::kit::game_title_with;
use crate::games::resume::Resumable;
use crate::games::review::{ReviewCommand, button_row, send};
use crate::rules::data::GameId;
use crate::shell::i18n::T;
use crate::shell::layout::panel_node;
use crate::shell::save::{LoadError, Store};
use crate::shell::screens::ReviewRequest;
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, FollowEntry, Fonts, ListEntry, palette};
use crate::shell::{Notice, Screen};

/// The result panel's 振り返る: the game just finished.
pub(crate) fn open_from_result(
    _: On<ReplayAsked>,
    m: Option<Res<MawariMatch>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(m) = m.filter(|m| m.race.is_over()) {
        commands.insert_resource(MawariReplay::new(m.clone(), Screen::Play));
        next.set(Screen::Review);
    }
}

/// 振り返る on the card: the last finished game, or the list again (saying
/// so) when it cannot be read.
pub(crate) fn open_requested(
    mut requests: MessageReader<ReviewRequest>,
    mut store: ResMut<Store>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut notice: ResMut<Notice>,
) {
    for r in requests.read() {
        if r.0 != GameId::Mawari {
            continue;
        }
        let kept = store
            .get::<MawariMatch>(&GameId::Mawari.finished_key())
            .and_then(|m| MawariMatch::resume(m).map_err(LoadError::Corrupt));
        match kept {
            Ok(m) => {
                commands.insert_resource(MawariReplay::new(m, Screen::GameList));
                next.set(Screen::Review);
            }
            Err(e) => {
                if let LoadError::Corrupt(why) = &e {
                    warn!("discarding the mawari game to review: {why}");
                }
                store.remove(&GameId::Mawari.finished_key());
                notice.0 = Some(T::ReviewUnreadable);
                next.set(Screen::GameList);
            }
        }
    }
}

/// The board, pieces and dice of the throw shown.
pub(crate) fn enter(mut scene: SceneMaker, replay: Res<MawariReplay>) {
    let m = replay.match_at(replay.at);
    if scene.open(&m, Screen::Review) {
        scene.commands.insert_resource(m);
    }
}

/// What showing a throw changes.
#[derive(SystemParam)]
pub(crate) struct ReplayView<'w, 's> {
    m: ResMut<'w, MawariMatch>,
    shown: ResMut<'w, Shown>,
    phase: ResMut<'w, Phase>,
    dice: Res<'w, Dice>,
    sprites: DiceSprites<'w, 's>,
}

impl ReplayView<'_, '_> {
    /// Shows the race after `k` throws: a step forward lands the throw
    /// and plays what it did; otherwise the race is there at once, the
    /// throw's koma lying as they fell.
    fn show(&mut self, replay: &mut MawariReplay, k: usize, step: bool) {
        replay.at = k;
        *self.m = replay.match_at(k);
        let by = k
            .checked_sub(1)
            .and_then(|i| replay.finished.log.get(i))
            .map(|e| e.player);
        let (Some(by), Some(landing)) = (by, replay.landing(&self.dice.0, k).cloned()) else {
            self.sprites.hide();
            *self.shown = Shown::of(&self.m);
            *self.phase = Phase::Waiting;
            return;
        };
        let step = step && replay.board_known(k);
        let events = if step {
            *self.shown = Shown::of(&replay.match_at(k - 1));
            replay.replayed.events[k - 1].clone()
        } else {
            *self.shown = Shown::of(&self.m);
            Vec::new()
        };
        let throw = landing.throw;
        *self.phase = if step && throw.frames.len() > 1 {
            Phase::Throwing {
                throw,
                events,
                by,
                t: 0.0,
            }
        } else {
            Phase::Reading {
                throw,
                events,
                by,
                t: 0.0,
            }
        };
    }
}

/// After the scene is built: the throw shown lies on the board.
pub(crate) fn show_first(mut replay: ResMut<MawariReplay>, mut view: ReplayView) {
    let at = replay.at;
    view.show(&mut replay, at, false);
}

/// The buttons, keys and log lines.
pub(crate) fn handle_commands(
    mut input: MessageReader<ReviewCommand>,
    mut replay: ResMut<MawariReplay>,
    mut view: ReplayView,
    mut next: ResMut<NextState<Screen>>,
) {
    for &cmd in input.read() {
        let (at, last) = (replay.at, replay.len());
        let to = match cmd {
            ReviewCommand::First => 0,
            ReviewCommand::Previous => at.saturating_sub(1),
            ReviewCommand::Next => (at + 1).min(last),
            ReviewCommand::Last => last,
            ReviewCommand::GoTo(k) => k.min(last),
            ReviewCommand::Back => {
                next.set(replay.back_to);
                continue;
            }
            // The replay has no buttons for these: a throw cannot be
            // analysed, and the kept game stays on this device.
            ReviewCommand::Analyse | ReviewCommand::Share => continue,
        };
        if to != at {
            view.show(&mut replay, to, to == at + 1);
        }
    }
}

pub(crate) fn leave(mut commands: Commands, replay: Option<Res<MawariReplay>>) {
    let Some(replay) = replay else { return };
    commands.remove_resource::<Phase>();
    commands.remove_resource::<Shown>();
    commands.remove_resource::<MawariReplay>();
    if replay.back_to == Screen::Play {
        // Back to the result of the game just played.
        commands.insert_resource(replay.finished.clone());
    } else {
        commands.remove_resource::<MawariMatch>();
    }
}

#[derive(Component)]
pub(crate) struct ThrowText;
#[derive(Component)]
pub(crate) struct NoteText;

/// A line of the throw log: the race after this many throws.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayLogEntry(pub usize);

/// The throw log's list (scrolled to the throw shown).
#[derive(Component)]
pub(crate) struct ReplayLog;

const PANEL_WIDTH: f32 = 400.0;

/// The panel: the result, the throw shown, the chart, the buttons and the
/// log.
pub(crate) fn spawn_panel(
    mut commands: Commands,
    replay: Res<MawariReplay>,
    place: Res<BoardPlace>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
) {
    let lang = settings.lang;
    let m = &replay.finished;
    let layout = place.layout;
    commands
        .spawn((
            DespawnOnExit(Screen::Review),
            Node {
                row_gap: px(6),
                ..panel_node(layout, PANEL_WIDTH)
            },
            crate::shell::widgets::ScrollColumn,
        ))
        .with_children(|panel| {
            game_title_with(
                panel,
                &fonts,
                lang,
                GameId::Mawari,
                T::ReviewTitle,
                ty::SUBTITLE,
            );
            let result = match m.race.winner {
                Some(w) => format!(
                    "{} — {}",
                    T::MawariWins.fill(lang, &[&m.name(w, lang)]),
                    T::MawariThrowCount.fill(lang, &[&m.log.len()])
                ),
                None => T::MawariThrowCount.fill(lang, &[&m.log.len()]),
            };
            panel.spawn(widgets::text(&fonts, result, ty::SMALL, palette::INK_SOFT));
            panel.spawn((
                widgets::text(&fonts, "", ty::BODY, palette::INK),
                ThrowText,
                Node {
                    min_height: px(42),
                    max_width: px(PANEL_WIDTH - 30.0),
                    ..default()
                },
            ));
            panel.spawn((
                widgets::text(&fonts, "", ty::CAPTION, palette::VERMILION),
                NoteText,
                Node {
                    max_width: px(PANEL_WIDTH - 30.0),
                    ..default()
                },
            ));
            replay_chart::spawn(panel, &fonts, lang, &replay);
            button_row(
                panel,
                &fonts,
                lang,
                &[
                    (T::ReviewFirst, ReviewCommand::First),
                    (T::ReviewPrevious, ReviewCommand::Previous),
                    (T::ReviewNext, ReviewCommand::Next),
                    (T::ReviewLast, ReviewCommand::Last),
                    (T::ReviewBack, ReviewCommand::Back),
                ],
            );
            panel
                .spawn((
                    ReplayLog,
                    FollowEntry {
                        current: replay.at,
                        above: 4,
                    },
                    Node {
                        flex_direction: FlexDirection::Column,
                        align_items: AlignItems::Start,
                        width: px(PANEL_WIDTH - 30.0),
                        flex_shrink: 1.0,
                        min_height: px(0),
                        overflow: Overflow::scroll_y(),
                        ..default()
                    },
                ))
                .with_children(|list| {
                    for (i, entry) in m.log.iter().enumerate() {
                        let k = i + 1;
                        list.spawn((
                            ReplayLogEntry(k),
                            ListEntry(k),
                            Node {
                                width: percent(100),
                                padding: UiRect::axes(px(6), px(1)),
                                ..default()
                            },
                            BackgroundColor(entry_background(k == replay.at)),
                            children![widgets::text(
                                &fonts,
                                format!(
                                    "{k}. {} {}",
                                    mark_of(m, entry.player),
                                    log_line(m, entry, lang)
                                ),
                                ty::CAPTION,
                                colour_of(m, entry.player),
                            )],
                        ))
                        .observe(send(ReviewCommand::GoTo(k)));
                    }
                });
        });
}

fn entry_background(current: bool) -> Color {
    if current {
        palette::LAST_MOVE
    } else {
        Color::NONE
    }
}

/// The words, the chart's marker and the log's highlight follow the throw
/// shown.
#[allow(clippy::type_complexity)]
pub(crate) fn update_panel(
    replay: Res<MawariReplay>,
    settings: Res<Settings>,
    mut texts: ParamSet<(
        Query<&mut Text, (With<ThrowText>, Without<LegendText>)>,
        Query<&mut Text, (With<NoteText>, Without<LegendText>)>,
    )>,
    mut entries: Query<(&ReplayLogEntry, &mut BackgroundColor)>,
    mut log: Query<&mut FollowEntry, With<ReplayLog>>,
    mut chart: ChartKey,
) {
    if !replay.is_changed() && !settings.is_changed() {
        return;
    }
    let lang = settings.lang;
    let at = replay.at;
    let m = &replay.finished;
    let words = match at.checked_sub(1).and_then(|i| m.log.get(i)) {
        Some(entry) => format!(
            "{} {}",
            T::MawariReplayThrow.fill(lang, &[&at, &replay.len()]),
            log_line(m, entry, lang)
        ),
        None => T::MawariReplayStart.get(lang).to_string(),
    };
    set(&mut texts.p0(), words);
    let landing = at
        .checked_sub(1)
        .and_then(|i| replay.throws.get(i))
        .and_then(|t| t.as_ref())
        .map(|t| t.landing);
    let mut note = match landing {
        Some(Landing::Logged) => T::MawariReplayLogged.get(lang).to_string(),
        Some(Landing::Differs) => T::MawariReplayDiffers.get(lang).to_string(),
        _ => String::new(),
    };
    if !replay.board_known(at) {
        if !note.is_empty() {
            note.push('\n');
        }
        note.push_str(T::MawariReplayBoardUnknown.get(lang));
    }
    set(&mut texts.p1(), note);
    for (entry, mut bg) in &mut entries {
        let want = entry_background(entry.0 == at);
        if bg.0 != want {
            bg.0 = want;
        }
    }
    for mut follow in &mut log {
        follow.current = at;
    }
    chart.follow(&replay, lang);
}

fn set<F: bevy::ecs::query::QueryFilter>(q: &mut Query<&mut Text, F>, words: String) {
    for mut t in q.iter_mut() {
        if t.0 != words {
            t.0 = words.clone();
        }
    }
}
