//! Each game's card on the list shows its board in miniature: the start
//! position drawn from the game's own board graph and rules, in the board
//! theme's wood (UI nodes, so the list stays one flat layout).

use bevy::prelude::*;

use super::session::Playable;
use super::wood::Wood;
use crate::rules::board::BoardGraph;
use crate::rules::game::Side;
use crate::shell::screens::CardPicture;
use crate::shell::widgets::palette;

/// The miniature's longer side, in pixels.
pub(crate) const SIZE: f32 = 96.0;

/// Where the board's points fall in the miniature: a margin of half a
/// spacing round the points (a shogi board's squares, a board of lines'
/// outermost points).
struct Mini {
    spacing: f32,
    size: Vec2,
}

impl Mini {
    fn of(graph: &BoardGraph) -> Mini {
        let (w, h) = graph.extent();
        let spacing = SIZE / w.max(h) as f32;
        Mini {
            spacing,
            size: Vec2::new(w as f32, h as f32) * spacing,
        }
    }
    /// The centre of point (x, y), from the miniature's top left.
    fn at(&self, x: i32, y: i32) -> Vec2 {
        (Vec2::new(x as f32, y as f32) + 0.5) * self.spacing
    }
}

/// A line from `a` to `b` (top-left coordinates), `width` thick.
pub(crate) fn line(a: Vec2, b: Vec2, width: f32, colour: Color) -> impl Bundle {
    let d = b - a;
    let mid = (a + b) / 2.0;
    let length = d.length() + width;
    (
        Node {
            position_type: PositionType::Absolute,
            left: px(mid.x - length / 2.0),
            top: px(mid.y - width / 2.0),
            width: px(length),
            height: px(width),
            ..default()
        },
        // Screen y grows downwards: the angle is clockwise, as the UI turns.
        UiTransform::from_rotation(Rot2::radians(d.y.atan2(d.x))),
        BackgroundColor(colour),
    )
}

/// The lines of a board of `columns` × `rows` squares, `spacing` apart.
pub(crate) fn grid(
    board: &mut ChildSpawnerCommands,
    columns: i32,
    rows: i32,
    spacing: f32,
    ink: Color,
) {
    let size = Vec2::new(columns as f32, rows as f32) * spacing;
    for i in 0..=columns {
        let x = i as f32 * spacing;
        board.spawn(line(Vec2::new(x, 0.0), Vec2::new(x, size.y), 1.0, ink));
    }
    for i in 0..=rows {
        let y = i as f32 * spacing;
        board.spawn(line(Vec2::new(0.0, y), Vec2::new(size.x, y), 1.0, ink));
    }
}

/// A piece: a disc of `colour`, ringed in ink.
pub(crate) fn piece(at: Vec2, diameter: f32, colour: Color) -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            left: px(at.x - diameter / 2.0),
            top: px(at.y - diameter / 2.0),
            width: px(diameter),
            height: px(diameter),
            border: UiRect::all(px(1)),
            border_radius: BorderRadius::MAX,
            ..default()
        },
        BackgroundColor(colour),
        BorderColor::all(palette::INK),
    )
}

/// The miniature's frame: the theme's wood, `size` big inside its rim.
pub(crate) fn board(size: Vec2, wood: &Wood) -> impl Bundle {
    const BORDER: f32 = 2.0;
    (
        Node {
            // The size is the wood's inside the border (children are
            // placed from the border's inner edge).
            width: px(size.x + 2.0 * BORDER),
            height: px(size.y + 2.0 * BORDER),
            border: UiRect::all(px(BORDER)),
            ..default()
        },
        ImageNode::new(wood.board.clone()),
        BorderColor::all(wood.colors.line),
    )
}

/// A side's colour in the miniatures: the first player in ink, the second
/// in vermilion.
fn side_colour(side: Side) -> Color {
    match side {
        Side::First => palette::INK,
        Side::Second => palette::VERMILION,
    }
}

/// Draws `G`'s start position into its card.
pub(crate) fn fill<G: Playable>(
    mut commands: Commands,
    wood: Res<Wood>,
    cards: Query<(Entity, &CardPicture), Added<CardPicture>>,
) {
    for (entity, card) in &cards {
        if card.0 != G::ID {
            continue;
        }
        let Ok(game) = G::create(&G::tutorial_rules()) else {
            continue;
        };
        let graph = game.graph();
        let mini = Mini::of(graph);
        let start = game.start();
        let ink = wood.colors.line;
        commands.entity(entity).with_children(|card| {
            card.spawn(board(mini.size, &wood)).with_children(|b| {
                let (w, h) = graph.extent();
                if G::SQUARES {
                    grid(b, w, h, mini.spacing, ink);
                } else {
                    for p in 0..graph.len() {
                        let a = graph.point(p);
                        for link in graph.links(p).iter().filter(|l| l.to > p) {
                            let c = graph.point(link.to);
                            b.spawn(line(mini.at(a.x, a.y), mini.at(c.x, c.y), 1.5, ink));
                        }
                    }
                }
                for p in 0..graph.len() {
                    if let Some(side) = game.piece_at(&start, p) {
                        let pt = graph.point(p);
                        b.spawn(piece(
                            mini.at(pt.x, pt.y),
                            mini.spacing * 0.78,
                            side_colour(side),
                        ));
                    }
                }
            });
        });
    }
}
