//! 検討: from any position of a review, or the position on the play screen
//! (an imported one too), one person moves the pieces of both sides while
//! the CPU reads every position reached: its best moves, each with its
//! score and the line it expects, the best line's first moves drawn as
//! numbered arrows. It reads as the review does (the strongest level's
//! play within the review's nodes, no clock, no noise), so the review's
//! better move and 検討's first line agree. 検討 is never saved, has no
//! clock and no result screen; leaving it brings back the match that was
//! there before, untouched, and the screen it was opened from.

use bevy::prelude::*;

use super::state::{Animating, Marker, PlayCommand, PlayUi};
use crate::games::art;
use crate::games::board_view::BoardView;
use crate::games::session::{Match, MatchSetup, Opponent, Playable, Presets};
use crate::rules::record::GameRecord;
use crate::rules::review::review_plan;
use crate::rules::search::mate_plies;
use crate::shell::Screen;
use crate::shell::audio::Sfx;
use crate::shell::cpu::{SearchPace, Thinker, ThinkingSlices};
use crate::shell::i18n::{Lang, T};
use crate::shell::settings::Settings;
use crate::shell::widgets::{Fonts, palette};

/// How many best moves 検討 reads in each position.
pub const ANALYSIS_LINES: usize = 3;
/// How many moves of the best line are drawn and written.
pub const SHOWN_PLIES: usize = 3;

/// One line of the reading: the score for the side to move, and the
/// moves the CPU expects, the line's own move first.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisLine<M> {
    pub score: i32,
    pub moves: Vec<M>,
}

/// 検討 under way.
#[derive(Resource)]
pub struct Analysis<G: Playable> {
    /// The screen it returns to.
    pub back_to: Screen,
    /// The match there was before, put back on leaving.
    previous: Option<Box<Match<G>>>,
    /// The position the lines are about (the record's hashes).
    about: Vec<u64>,
    /// The lines read so far, best first.
    pub lines: Vec<AnalysisLine<G::Move>>,
    /// Every line of this position is read (or there is none to read).
    pub done: bool,
    thinker: Option<Thinker<G>>,
}

impl<G: Playable> Analysis<G> {
    /// The CPU's best move in the position shown, once read.
    pub fn best(&self) -> Option<G::Move> {
        self.lines.first().and_then(|l| l.moves.first()).copied()
    }
}

/// The number by an arrow of the best line (tests find it).
#[derive(Component)]
pub struct AnalysisArrowLabel;

/// The 検討 text under the buttons.
#[derive(Component)]
pub(super) struct AnalysisText;

/// 検討 of `record`'s game after its first `ply` moves: the match to
/// show (that position, one person for both sides, seen from `setup`'s
/// bottom side) and the analysis, which puts `previous` back and returns
/// to `back_to` when it ends. The caller inserts both and moves to the
/// play screen.
pub fn analysis_of<G: Playable>(
    previous: Option<Match<G>>,
    game: &G,
    record: &GameRecord<G>,
    ply: usize,
    setup: &MatchSetup<G::Rules>,
    back_to: Screen,
) -> Result<(Match<G>, Analysis<G>), String> {
    let start = record
        .positions()
        .first()
        .ok_or("the record has no start")?
        .clone();
    let moves = &record.moves()[..ply.min(record.moves().len())];
    // A fresh record: a resignation or a time-out at the end does not
    // stop the moves of 検討.
    let record = GameRecord::replay_from(game, start, moves)
        .map_err(|(i, e)| format!("move {}: {e}", i + 1))?;
    let m = Match {
        game: game.clone(),
        record,
        setup: MatchSetup {
            opponent: Opponent::Analysis,
            human_side: setup.bottom_side(),
            undo_allowed: true,
            ..setup.clone()
        },
        elapsed: 0.0,
    };
    let analysis = Analysis {
        back_to,
        previous: previous.map(Box::new),
        about: Vec::new(),
        lines: Vec::new(),
        done: false,
        thinker: None,
    };
    Ok((m, analysis))
}

/// Starts [`analysis_of`]: inserts the match and the analysis and moves
/// to the play screen (a record that cannot be replayed is only logged).
pub fn begin_analysis<G: Playable>(
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    previous: Option<Match<G>>,
    game: &G,
    record: &GameRecord<G>,
    ply: usize,
    setup: &MatchSetup<G::Rules>,
    back_to: Screen,
) -> bool {
    match analysis_of(previous, game, record, ply, setup, back_to) {
        Ok((m, analysis)) => {
            commands.insert_resource(m);
            commands.insert_resource(analysis);
            next.set(Screen::Play);
            true
        }
        Err(e) => {
            warn!("検討 could not start: {e}");
            false
        }
    }
}

impl<G: Playable> Analysis<G> {
    /// Reads every line of `m`'s position at once (the screenshots, which
    /// cannot wait for the background).
    pub fn read_now(&mut self, m: &Match<G>, plan: crate::rules::search::SearchPlan) {
        self.about = m.record.hashes().to_vec();
        self.thinker = None;
        self.done = true;
        self.lines = crate::rules::review::best_lines(
            &m.game,
            m.record.current(),
            m.record.hashes(),
            &m.record.forbidden_moves(&m.game),
            plan,
            ANALYSIS_LINES,
        )
        .into_iter()
        .map(|(score, moves)| AnalysisLine { score, moves })
        .collect();
    }
}

/// 検討 on the play screen (the game there is kept) and leaving it (もどる
/// or Esc).
#[allow(clippy::too_many_arguments)]
pub(super) fn analysis_commands<G: Playable>(
    mut commands_in: MessageReader<PlayCommand>,
    mut commands: Commands,
    m: Res<Match<G>>,
    ui: Res<PlayUi<G>>,
    analysis: Option<ResMut<Analysis<G>>>,
    animating: Animating,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
) {
    let mut analysis = analysis;
    for cmd in commands_in.read() {
        match cmd {
            PlayCommand::Analyse if !m.setup.analysing() => {
                if !animating.is_empty() || ui.is_settling() {
                    continue;
                }
                let previous = Some(m.clone());
                let begun = begin_analysis(
                    &mut commands,
                    &mut next,
                    previous,
                    &m.game,
                    &m.record,
                    m.record.ply(),
                    &m.setup,
                    Screen::Play,
                );
                sfx.write(if begun { Sfx::Button } else { Sfx::Illegal });
                return;
            }
            PlayCommand::LeaveAnalysis | PlayCommand::Quit if m.setup.analysing() => {
                let Some(a) = analysis.as_mut() else {
                    next.set(Screen::GameList);
                    return;
                };
                a.thinker = None;
                // Without a match before (a review opened from the list),
                // 検討's stays: the screens after it never read it, and
                // the next game replaces it.
                if let Some(previous) = a.previous.take() {
                    commands.insert_resource(*previous);
                }
                sfx.write(Sfx::Button);
                next.set(a.back_to);
                commands.remove_resource::<Analysis<G>>();
                return;
            }
            _ => {}
        }
    }
}

/// Reads the position shown, line after line: the first line is the best
/// move, each next one the best of the moves not yet read.
pub(super) fn analyse<G: Playable>(
    m: Res<Match<G>>,
    analysis: Option<ResMut<Analysis<G>>>,
    mut ui: ResMut<PlayUi<G>>,
    presets: Res<Presets<G>>,
    pace: Res<SearchPace>,
    mut slices: ResMut<ThinkingSlices>,
) {
    let Some(mut analysis) = analysis else { return };
    if !m.setup.analysing() {
        return;
    }
    // Only a new line touches the analysis mutably: the text redraws then.
    let a = analysis.bypass_change_detection();
    let mut changed = false;
    if a.about != m.record.hashes() {
        a.about = m.record.hashes().to_vec();
        a.lines.clear();
        a.thinker = None;
        a.done = m.record.outcome(&m.game).is_some();
        changed = true;
    }
    if a.done || ui.is_settling() {
        if changed {
            analysis.set_changed();
            ui.dirty = true;
        }
        return;
    }
    if let Some(thinker) = a.thinker.as_mut() {
        let Some(answer) = thinker.poll(&m.game, &mut slices) else {
            return;
        };
        a.thinker = None;
        match answer {
            Some(r) => a.lines.push(AnalysisLine {
                score: r.score,
                moves: r.pv,
            }),
            // Every move is read.
            None => a.done = true,
        }
        a.done |= a.lines.len() >= ANALYSIS_LINES;
        changed = true;
    }
    if !a.done {
        let mut forbidden = m.record.forbidden_moves(&m.game);
        forbidden.extend(a.lines.iter().filter_map(|l| l.moves.first().copied()));
        a.thinker = Some(Thinker::start(
            &m.game,
            m.record.current().clone(),
            m.record.hashes(),
            review_plan(&presets.0.cpu.strong, G::REVIEW_NODES),
            forbidden,
            *pace,
            true,
        ));
    }
    if changed {
        analysis.set_changed();
        ui.dirty = true;
    }
}

/// The best line's first moves as numbered dotted arrows: the side to
/// move's in blue, the replies in vermilion.
pub(super) fn draw_line_arrows<G: Playable>(
    commands: &mut Commands,
    m: &Match<G>,
    analysis: &Analysis<G>,
    view: &BoardView,
    fonts: &Fonts,
) {
    let Some(line) = analysis.lines.first() else {
        return;
    };
    let graph = m.game.graph();
    for (i, &mv) in line.moves.iter().take(SHOWN_PLIES).enumerate() {
        let points: Vec<Vec2> = m
            .game
            .move_path(mv)
            .into_iter()
            .map(|p| view.world(graph, p))
            .collect();
        let color = if i % 2 == 0 {
            palette::HINT_BLUE
        } else {
            palette::VERMILION
        };
        let scope = (DespawnOnExit(Screen::Play), Marker);
        art::spawn_path_arrows_in(commands, scope.clone(), &points, color);
        if let Some(&end) = points.last() {
            commands.spawn((
                scope,
                AnalysisArrowLabel,
                Text2d::new((i + 1).to_string()),
                TextFont {
                    font: fonts.ui.clone().into(),
                    font_size: FontSize::Px(20.0),
                    ..default()
                },
                TextColor(color),
                Transform::from_translation((end + Vec2::new(16.0, 16.0)).extend(7.0)),
            ));
        }
    }
}

/// A score for the side to move, as the bottom player reads it: a win or
/// loss in so many moves, or points ahead.
fn score_words(score: i32, for_bottom: bool, lang: Lang) -> String {
    let score = if for_bottom { score } else { -score };
    match mate_plies(score) {
        Some(n) if n > 0 => T::ReviewWinIn.fill(lang, &[&n]),
        Some(n) => T::ReviewLossIn.fill(lang, &[&-n]),
        None => format!("{score:+}"),
    }
}

/// The lines in words: each line's score and its first moves as the
/// game's record writes them.
pub(super) fn analysis_words<G: Playable>(
    m: &Match<G>,
    analysis: &Analysis<G>,
    settings: &Settings,
) -> String {
    let lang = settings.lang;
    if m.record.outcome(&m.game).is_some() {
        return T::AnalysisOver.get(lang).to_string();
    }
    let pos = m.record.current();
    let for_bottom = m.game.side_to_move(pos) == m.setup.bottom_side();
    let mut out = String::new();
    for (i, line) in analysis.lines.iter().enumerate() {
        let mut at = pos.clone();
        let mut last = m.record.moves().last().copied();
        let mut words = Vec::new();
        for &mv in line.moves.iter().take(SHOWN_PLIES) {
            words.push(m.game.record_move_text(&at, mv, last, settings));
            at = m.game.play(&at, mv);
            last = Some(mv);
        }
        out.push_str(&format!(
            "{} {}\n  {}\n",
            T::AnalysisLine.fill(lang, &[&(i + 1)]),
            score_words(line.score, for_bottom, lang),
            words.join(" ")
        ));
    }
    if !analysis.done {
        out.push_str(T::AnalysisReading.get(lang));
    }
    out.trim_end().to_string()
}

/// Writes the lines when they change.
pub(super) fn show_analysis<G: Playable>(
    m: Res<Match<G>>,
    analysis: Option<Res<Analysis<G>>>,
    settings: Res<Settings>,
    mut texts: Query<&mut Text, With<AnalysisText>>,
) {
    let Some(analysis) = analysis else { return };
    if !analysis.is_changed() && !settings.is_changed() && !m.is_changed() {
        return;
    }
    let words = analysis_words(&m, &analysis, &settings);
    for mut t in &mut texts {
        if t.0 != words {
            t.0.clone_from(&words);
        }
    }
}
