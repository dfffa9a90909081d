//! The replay's chart: each player's rank on the ladder over the throws,
//! one line in the seat's colour (a step at each throw that changed it, a
//! point at every throw), the ranks from 歩 to 王 written up the side, and
//! the throw shown marked by a gold line; under it each player's name and
//! rank at the throw shown. Heights are placed as shares of the plot, whose
//! height follows the drawn size of the rank labels, so that they never
//! overlap however large the text is drawn (a phone's readable floor, the
//! text-size setting).

use crate::shell::widgets::type_scale as ty;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::finished::MawariReplay;
use super::look::{colour_of, seat_patch};
use crate::rules::mawari::race::Rank;
use crate::rules::mawari::replay::{TOP, height};
use crate::shell::i18n::{Lang, T};
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, Fonts, TypeSize, palette};

pub const CHART_WIDTH: f32 = 370.0;
/// The chart's height when its labels are drawn at their own size.
pub const CHART_HEIGHT: f32 = 190.0;
/// Room on the left for the ranks written up the side.
const LEFT: f32 = 22.0;
/// The plot's margin above and below, inside the chart.
pub const CHART_PAD: f32 = 8.0;
const LINE: f32 = 2.0;

/// The chart's box (clicks on it are not taken: the log lines are).
#[derive(Component)]
pub struct RankChart;

/// A rank written up the chart's side.
#[derive(Component)]
pub struct RankLabel;

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
    LEFT + k as f32 / n.max(1) as f32 * (CHART_WIDTH - LEFT - CHART_PAD)
}

/// Where ladder height `h` stands down the plot, in percent of its height.
fn y_of(h: usize) -> f32 {
    (TOP - h.min(TOP)) as f32 / TOP as f32 * 100.0
}

/// The ranks written up the side: 歩 and above.
fn labelled() -> impl Iterator<Item = Rank> {
    Rank::LADDER.into_iter().filter(|r| *r >= Rank::Fu)
}

/// The chart's height for labels drawn `label` design pixels high: the
/// ladder's steps at least a label and a gap apart.
fn chart_height(label: f32) -> f32 {
    // A label's line is about 1.4 of its size in the bundled font.
    CHART_HEIGHT.max(TOP as f32 * label * 1.4 + 2.0 * CHART_PAD)
}

/// Lines of players on the same rank lie side by side, not on each other.
fn offset(player: usize, players: usize) -> f32 {
    (player as f32 - (players as f32 - 1.0) / 2.0) * LINE
}

/// A bar `width` pixels wide at `left`; down the plot from `top` percent,
/// `tall` percent tall but never thinner than a line, nudged `dy` pixels.
fn bar(left: f32, width: f32, top: f32, tall: f32, dy: f32, colour: Color) -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            left: px(left),
            top: percent(top),
            width: px(width.max(LINE)),
            height: percent(tall),
            min_height: px(LINE),
            margin: UiRect::top(px(dy)),
            ..default()
        },
        BackgroundColor(colour),
    )
}

/// A level line across the plot at `top` percent, `thick` pixels thick.
fn rule(left: f32, width: f32, top: f32, thick: f32, dy: f32, colour: Color) -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            left: px(left),
            top: percent(top),
            width: px(width),
            height: px(thick),
            margin: UiRect::top(px(dy)),
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
            // Heights are placed in the plot, the chart less its padding.
            chart
                .spawn(Node {
                    position_type: PositionType::Absolute,
                    left: px(0),
                    right: px(0),
                    top: px(CHART_PAD),
                    bottom: px(CHART_PAD),
                    ..default()
                })
                .with_children(|plot| plot_ranks(plot, fonts, replay));
            // The gold line at the throw shown over the lines, runs the chart's height.
            chart.spawn((
                RankMarker,
                Node {
                    position_type: PositionType::Absolute,
                    left: px(x_of(replay.at, n) - 1.5),
                    top: px(2),
                    bottom: px(2),
                    width: px(3),
                    ..default()
                },
                BackgroundColor(palette::GOLD.with_alpha(0.8)),
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
                        entry.spawn(seat_patch(fonts, m.colour(p), 16.0, 16.0));
                        entry.spawn((
                            widgets::text(fonts, "", ty::CAPTION, palette::INK),
                            LegendText(p),
                        ));
                    });
            }
        });
}

/// The ladder and each player's line, placed in the plot.
fn plot_ranks(plot: &mut ChildSpawnerCommands, fonts: &Fonts, replay: &MawariReplay) {
    let m = &replay.finished;
    let n = replay.len();
    let players = replay.ranks.len();
    // The ladder from 歩 up, written up the side, a faint line at each
    // rank; below 歩 only the 歩's line.
    for r in labelled() {
        let y = y_of(height(r));
        let faint = if r == Rank::Fu { 0.35 } else { 0.12 };
        plot.spawn(rule(
            LEFT,
            CHART_WIDTH - LEFT - CHART_PAD,
            y,
            1.0,
            0.0,
            palette::INK_SOFT.with_alpha(faint),
        ));
        // A label centred on its line: a node of no height there, the
        // text centred on it whatever size it is drawn.
        plot.spawn(Node {
            position_type: PositionType::Absolute,
            left: px(5),
            top: percent(y),
            height: px(0),
            flex_direction: FlexDirection::Column,
            justify_content: JustifyContent::Center,
            ..default()
        })
        .with_child((
            RankLabel,
            widgets::text(fonts, r.kanji(), ty::CAPTION, palette::INK_SOFT),
        ));
    }
    let start = replay.replayed.races.first();
    for (p, heights) in replay.ranks.iter().enumerate() {
        let colour = colour_of(m, p);
        let dy = offset(p, players) - LINE / 2.0;
        let first = start.map_or(height(Rank::Fu), |r| height(r.pieces[p].rank));
        plot.spawn((
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
            // A run at one rank, then a step at the throw that changed it.
            let (mut from, mut h) = (0, first);
            for (i, &rank) in heights.iter().enumerate() {
                let (k, now) = (i + 1, height(rank));
                if now != h {
                    let (x0, x1) = (x_of(from, n), x_of(k, n));
                    line.spawn(rule(x0, x1 - x0, y_of(h), LINE, dy, colour));
                    let (a, b) = (y_of(h).min(y_of(now)), y_of(h).max(y_of(now)));
                    line.spawn(bar(x1 - LINE / 2.0, LINE, a, b - a, dy, colour));
                    (from, h) = (k, now);
                }
                line.spawn((
                    RankPoint {
                        player: p,
                        throw: k,
                    },
                    rule(x_of(k, n) - 2.0, 4.0, y_of(now), 4.0, dy - 1.0, colour),
                ));
            }
            let (x0, x1) = (x_of(from, n), x_of(heights.len(), n));
            line.spawn(rule(x0, x1 - x0, y_of(h), LINE, dy, colour));
        });
    }
}

/// Keeps the chart tall enough for its labels as they are drawn: the
/// text-size setting and the window's scale (a phone's readable floor)
/// both make them larger.
pub(crate) fn fit_rank_chart(
    settings: Res<Settings>,
    ui_scale: Res<UiScale>,
    phone: Res<crate::shell::Phone>,
    mut charts: Query<&mut Node, With<RankChart>>,
    new: Query<(), Added<RankChart>>,
) {
    if !settings.is_changed() && !ui_scale.is_changed() && !phone.is_changed() && new.is_empty() {
        return;
    }
    let floor = if phone.0 {
        crate::shell::widgets::PHONE_READABLE_PX
    } else {
        crate::shell::widgets::READABLE_PX
    };
    let label =
        TypeSize(ty::CAPTION).drawn_with_floor(settings.text_size.factor(), ui_scale.0, floor);
    let want = px(chart_height(label));
    for mut node in &mut charts {
        if node.height != want {
            node.height = want;
        }
    }
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
