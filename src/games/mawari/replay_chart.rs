//! The replay's chart: each player's rank on the ladder over the throws,
//! one line in the seat's colour (a step at each throw that changed it, a
//! point at every throw), the ranks from 歩 to 王 written up the side, and
//! the throw shown marked by a gold line; under it each player's name and
//! rank at the throw shown.

use crate::shell::widgets::type_scale as ty;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::replay::MawariReplay;
use super::{colour_of, mark_of, seat_patch};
use crate::rules::mawari::race::Rank;
use crate::rules::mawari::replay::{TOP, height};
use crate::shell::i18n::{Lang, T};
use crate::shell::widgets::{self, Fonts, palette};

pub const CHART_WIDTH: f32 = 370.0;
pub const CHART_HEIGHT: f32 = 190.0;
/// Room on the left for the ranks written up the side.
const LEFT: f32 = 22.0;
const PAD: f32 = 8.0;
const LINE: f32 = 2.0;

/// The chart's box (clicks on it are not taken: the log lines are).
#[derive(Component)]
pub struct RankChart;

/// One player's line on the chart.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankLine(pub usize);

/// A point of a line: the player's rank after throw `throw` (from 1).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankPoint {
    pub player: usize,
    pub throw: usize,
}

/// The gold line at the throw shown.
#[derive(Component)]
pub struct RankMarker;

/// A player's name and rank at the throw shown, under the chart.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LegendText(pub usize);

/// Where throw `k` of `n` stands across the chart.
fn x_of(k: usize, n: usize) -> f32 {
    LEFT + k as f32 / n.max(1) as f32 * (CHART_WIDTH - LEFT - PAD)
}

/// Where ladder height `h` stands up the chart.
fn y_of(h: usize) -> f32 {
    PAD + (TOP - h.min(TOP)) as f32 / TOP as f32 * (CHART_HEIGHT - 2.0 * PAD)
}

/// Lines of players on the same rank lie side by side, not on each other.
fn offset(player: usize, players: usize) -> f32 {
    (player as f32 - (players as f32 - 1.0) / 2.0) * LINE
}

fn bar(left: f32, top: f32, width: f32, height: f32, colour: Color) -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            left: px(left),
            top: px(top),
            width: px(width.max(LINE)),
            height: px(height.max(LINE)),
            ..default()
        },
        BackgroundColor(colour),
    )
}

/// The chart and its legend, drawn once: only the marker and the legend's
/// ranks follow the throw shown.
pub(crate) fn spawn(
    panel: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    replay: &MawariReplay,
) {
    let m = &replay.finished;
    let n = replay.len();
    let players = replay.ranks.len();
    panel.spawn(widgets::text(
        fonts,
        T::MawariRankChart.get(lang),
        ty::CAPTION,
        palette::INK,
    ));
    panel
        .spawn((
            RankChart,
            Node {
                width: px(CHART_WIDTH),
                height: px(CHART_HEIGHT),
                flex_shrink: 0.0,
                ..default()
            },
            BackgroundColor(palette::CARD),
        ))
        .with_children(|chart| {
            // The ladder from 歩 up, written up the side, a faint line at
            // each rank; below 歩 only the 歩's line.
            for r in Rank::LADDER.iter().filter(|r| **r >= Rank::Fu) {
                let y = y_of(height(*r));
                let faint = if *r == Rank::Fu { 0.35 } else { 0.12 };
                chart.spawn(bar(
                    LEFT,
                    y,
                    CHART_WIDTH - LEFT - PAD,
                    1.0,
                    palette::INK_SOFT.with_alpha(faint),
                ));
                chart.spawn((
                    widgets::text(fonts, r.kanji(), ty::CAPTION, palette::INK_SOFT),
                    Node {
                        position_type: PositionType::Absolute,
                        left: px(5),
                        top: px(y - 8.0),
                        ..default()
                    },
                ));
            }
            let start = replay.replayed.races.first();
            for (p, heights) in replay.ranks.iter().enumerate() {
                let colour = colour_of(m, p);
                let dy = offset(p, players) - LINE / 2.0;
                let first = start.map_or(height(Rank::Fu), |r| height(r.pieces[p].rank));
                chart
                    .spawn((
                        RankLine(p),
                        Node {
                            position_type: PositionType::Absolute,
                            left: px(0),
                            top: px(0),
                            width: percent(100),
                            height: percent(100),
                            ..default()
                        },
                    ))
                    .with_children(|line| {
                        // A run at one rank, then a step at the throw that
                        // changed it.
                        let (mut from, mut h) = (0, first);
                        for (i, &rank) in heights.iter().enumerate() {
                            let (k, now) = (i + 1, height(rank));
                            if now != h {
                                let (x0, x1) = (x_of(from, n), x_of(k, n));
                                line.spawn(bar(x0, y_of(h) + dy, x1 - x0, LINE, colour));
                                let (a, b) = (y_of(h).min(y_of(now)), y_of(h).max(y_of(now)));
                                line.spawn(bar(x1 - LINE / 2.0, a + dy, LINE, b - a, colour));
                                (from, h) = (k, now);
                            }
                            line.spawn((
                                RankPoint {
                                    player: p,
                                    throw: k,
                                },
                                bar(x_of(k, n) - 2.0, y_of(now) + dy - 1.0, 4.0, 4.0, colour),
                            ));
                        }
                        let (x0, x1) = (x_of(from, n), x_of(heights.len(), n));
                        line.spawn(bar(x0, y_of(h) + dy, x1 - x0, LINE, colour));
                    });
            }
            chart.spawn((
                RankMarker,
                bar(
                    x_of(replay.at, n) - 1.5,
                    2.0,
                    3.0,
                    CHART_HEIGHT - 4.0,
                    palette::GOLD.with_alpha(0.8),
                ),
            ));
        });
    panel
        .spawn(Node {
            flex_direction: FlexDirection::Row,
            flex_wrap: FlexWrap::Wrap,
            column_gap: px(10),
            max_width: px(CHART_WIDTH),
            ..default()
        })
        .with_children(|legend| {
            for p in 0..players {
                legend
                    .spawn(Node {
                        flex_direction: FlexDirection::Row,
                        align_items: AlignItems::Center,
                        column_gap: px(4),
                        ..default()
                    })
                    .with_children(|entry| {
                        entry.spawn(seat_patch(
                            fonts,
                            colour_of(m, p),
                            mark_of(m, p),
                            16.0,
                            16.0,
                        ));
                        entry.spawn((
                            widgets::text(fonts, "", ty::CAPTION, palette::INK),
                            LegendText(p),
                        ));
                    });
            }
        });
}

/// What follows the throw shown: the marker and the legend's ranks.
#[derive(SystemParam)]
pub(crate) struct ChartKey<'w, 's> {
    marker: Query<'w, 's, &'static mut Node, With<RankMarker>>,
    legend: Query<'w, 's, (&'static LegendText, &'static mut Text)>,
}

impl ChartKey<'_, '_> {
    pub(crate) fn follow(&mut self, replay: &MawariReplay, lang: Lang) {
        let x = x_of(replay.at, replay.len()) - 1.5;
        for mut node in &mut self.marker {
            if node.left != px(x) {
                node.left = px(x);
            }
        }
        let race = replay
            .replayed
            .races
            .get(replay.at.min(replay.replayed.throws()));
        for (entry, mut text) in &mut self.legend {
            let p = entry.0;
            let rank = race
                .and_then(|r| r.pieces.get(p))
                .map(|piece| lang.pick(piece.rank.name_ja(), piece.rank.name_en()))
                .unwrap_or_default();
            let words = format!("{} {rank}", replay.finished.name(p, lang));
            if text.0 != words {
                text.0 = words;
            }
        }
    }
}
