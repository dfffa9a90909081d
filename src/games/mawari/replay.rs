//! まわり将棋's 振り返り: a finished game's throw log played again. Each
//! throw stepped forward to is simulated again from its logged toss (the
//! same seed and the same simulation as in play) and lands as it did, then
//! what it did plays out on the board with the play screen's banners;
//! stepping back or jumping shows the race there at once. A chart beside
//! the board (`replay_chart`) follows each player's rank over the throws.
//! A throw whose toss was not kept (an older save), or whose simulation no
//! longer lands as logged, shows its logged poses instead, and says so.

use crate::shell::widgets::type_scale as ty;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::dice_view::DiceSprites;
use super::lesson::picture_bodies;
use super::panel::log_line;
use super::replay_chart::{self, ChartKey, LegendText};
use super::scene::{BoardPlace, Dice, Phase, SceneMaker, Shown};
use super::session::{LogEntry, MawariMatch};
use crate::games::kit::game_title_with;
use crate::games::resume::Resumable;
use crate::games::review::{ReviewCommand, button_row, send};
use crate::rules::data::GameId;
use crate::rules::mawari::dice::{KomaDice, Throw, Toss};
use crate::rules::mawari::physics::{Quat as PQuat, V3};
use crate::rules::mawari::race::{Race, Rank};
use crate::rules::mawari::replay::{Logged, Replayed, ranks, replay};
use crate::shell::i18n::T;
use crate::shell::layout::{Layout, panel_node};
use crate::shell::save::{LoadError, Store};
use crate::shell::screens::ReviewRequest;
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, FollowEntry, Fonts, ListEntry, palette};
use crate::shell::{Notice, Screen};

/// How a replayed throw's koma came to lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// Simulated again from its toss: the same poses as logged.
    Simulated,
    /// No toss was kept: the logged poses, laid out.
    Logged,
    /// Simulated again it lay otherwise: the logged poses, laid out.
    Differs,
}

/// A throw of the log as the replay shows it.
#[derive(Clone, Debug)]
pub struct ReplayThrow {
    pub throw: Throw,
    pub landing: Landing,
}

/// The finished game being replayed and where the replay stands.
#[derive(Resource, Clone, Debug)]
pub struct MawariReplay {
    /// The game as it ended.
    pub finished: MawariMatch,
    /// The race after each throw, as far as the log could be replayed.
    pub replayed: Replayed,
    /// Each player's rank after each throw (the chart's lines).
    pub ranks: Vec<Vec<Rank>>,
    /// The throws shown: the board is the race after this many.
    pub at: usize,
    /// Each throw once simulated again (made when first shown).
    pub throws: Vec<Option<ReplayThrow>>,
    /// Where もどる goes back to.
    pub back_to: Screen,
}

impl MawariReplay {
    pub fn new(finished: MawariMatch, back_to: Screen) -> Self {
        let start = start_of(&finished);
        let replayed = replay(
            &start,
            finished.log.iter().map(|e| Logged {
                player: e.player,
                value: e.value,
                events: &e.events,
            }),
        );
        MawariReplay {
            ranks: ranks(&replayed),
            throws: vec![None; finished.log.len()],
            finished,
            replayed,
            at: 0,
            back_to,
        }
    }

    /// The throws in the log.
    pub fn len(&self) -> usize {
        self.finished.log.len()
    }

    pub fn is_empty(&self) -> bool {
        self.finished.log.is_empty()
    }

    /// Whether the race after `k` throws could be replayed (the board
    /// shows it); past that only the log's words and poses are shown.
    pub fn board_known(&self, k: usize) -> bool {
        k <= self.replayed.throws()
    }

    /// The game as it stood after `k` throws (the race as far as it could
    /// be replayed).
    pub fn match_at(&self, k: usize) -> MawariMatch {
        let known = k.min(self.replayed.throws());
        let mut m = self.finished.clone();
        if let Some(race) = self.replayed.races.get(known) {
            m.race = race.clone();
        }
        m.log.truncate(k);
        m.quick = false;
        m
    }

    /// Throw `k` (counted from 1) simulated again, or its logged poses.
    pub fn landing(&mut self, dice: &KomaDice, k: usize) -> Option<&ReplayThrow> {
        let i = k.checked_sub(1)?;
        let entry = self.finished.log.get(i)?;
        if self.throws[i].is_none() {
            self.throws[i] = Some(simulate(dice, entry));
        }
        self.throws[i].as_ref()
    }
}

/// The race the first throw found: kept with the game, or (an older save)
/// each piece a 歩 on its corner, the draw's winner to throw.
fn start_of(m: &MawariMatch) -> Race {
    if let Some(s) = &m.start {
        return s.clone();
    }
    match Race::new(m.race.pieces.len(), m.race.rules) {
        Ok(mut r) => {
            r.play_on = m.race.play_on;
            if let Some(first) = m.draw.as_ref().and_then(|d| d.first) {
                r.turn = first;
            }
            r
        }
        Err(_) => m.race.clone(),
    }
}

/// Simulates a logged throw again; where that cannot be done or lands
/// otherwise, the logged poses are laid out side by side instead.
pub(crate) fn simulate(dice: &KomaDice, entry: &LogEntry) -> ReplayThrow {
    let laid_out = |landing| {
        let mut frame = [(V3::ZERO, PQuat::IDENTITY); 4];
        for (slot, body) in frame
            .iter_mut()
            .zip(picture_bodies(&dice.shape, &entry.poses))
        {
            *slot = body;
        }
        ReplayThrow {
            throw: Throw {
                toss: entry.toss.unwrap_or(Toss::natural(0)),
                frames: vec![frame],
                poses: entry.poses,
                value: entry.value,
                seconds: 0.0,
                settled: true,
                impacts: Vec::new(),
            },
            landing,
        }
    };
    let Some(toss) = entry.toss else {
        return laid_out(Landing::Logged);
    };
    let throw = dice.throw(toss, true);
    if throw.poses == entry.poses && throw.value == entry.value {
        ReplayThrow {
            throw,
            landing: Landing::Simulated,
        }
    } else {
        laid_out(Landing::Differs)
    }
}

/// The result panel's 振り返る: the game just finished.
pub(crate) fn open_from_result(
    _: On<Pointer<Click>>,
    m: Option<Res<MawariMatch>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(m) = m.filter(|m| m.race.is_over()) {
        commands.insert_resource(MawariReplay::new(m.clone(), Screen::Play));
        next.set(Screen::Review);
    }
}

/// The game just finished is kept, so that its card can open the replay.
pub(crate) fn keep_finished(store: &mut Store, m: &MawariMatch) {
    store.put(&GameId::Mawari.finished_key(), m);
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
    let layout = Layout {
        board_center: place.centre,
        panel_top: place.panel_top,
    };
    commands
        .spawn((
            DespawnOnExit(Screen::Review),
            Node {
                row_gap: px(6),
                ..panel_node(layout, PANEL_WIDTH)
            },
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
                                    super::mark_of(m, entry.player),
                                    log_line(m, entry, lang)
                                ),
                                ty::CAPTION,
                                super::colour_of(m, entry.player),
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
