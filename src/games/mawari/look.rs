//! How the race looks wherever it is drawn, at the bottom of まわり将棋's
//! floors: the size of a square and the board's place, and each seat's
//! colour and mark (on the board, the panel, the setup, the chart and the
//! title alike).

use bevy::prelude::*;

use super::session::{COLOUR_MARKS, MawariMatch};
use crate::shell::widgets::{self, Fonts};

/// Side of one square on the play screen.
pub(super) const CELL: f32 = 64.0;
/// The board's centre on a landscape screen.
pub(super) const BOARD_CENTRE: Vec2 = Vec2::new(-215.0, -22.0);
/// The colours a seat can take: 赤, 青, 緑, 紫, 橙, 茶 (named in
/// `session::COLOUR_NAMES`).
pub(super) const COLOURS: [Color; 6] = [
    Color::srgb(0.80, 0.18, 0.14),
    Color::srgb(0.16, 0.36, 0.78),
    Color::srgb(0.14, 0.56, 0.28),
    Color::srgb(0.52, 0.24, 0.64),
    Color::srgb(0.92, 0.52, 0.10),
    Color::srgb(0.42, 0.27, 0.15),
];

/// Seat `player`'s colour in match `m`.
pub(super) fn colour_of(m: &MawariMatch, player: usize) -> Color {
    COLOURS[m.colour(player).min(COLOURS.len() - 1)]
}

/// Seat `player`'s mark in match `m` (its colour's shape).
pub(super) fn mark_of(m: &MawariMatch, player: usize) -> &'static str {
    COLOUR_MARKS[m.colour(player).min(COLOUR_MARKS.len() - 1)]
}

/// A seat's colour as a patch with its mark on it, at least `width` ×
/// `height` (more where the text's size draws the mark bigger).
pub(super) fn seat_patch(fonts: &Fonts, colour: usize, width: f32, height: f32) -> impl Bundle {
    let colour = colour.min(COLOURS.len() - 1).min(COLOUR_MARKS.len() - 1);
    let mark = COLOUR_MARKS[colour];
    (
        widgets::ColourKey(u8::try_from(colour).unwrap_or(u8::MAX)),
        Node {
            min_width: px(width),
            min_height: px(height),
            padding: UiRect::all(px(2)),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            border_radius: BorderRadius::all(px(3)),
            ..default()
        },
        BackgroundColor(COLOURS[colour]),
        children![widgets::text(
            fonts,
            mark,
            // Large enough that the marks' shapes tell the colours apart
            // to a player who does not see them.
            widgets::type_scale::BUTTON,
            Color::WHITE
        )],
    )
}
