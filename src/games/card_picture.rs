//! Each game's card on the list shows its board in miniature: the start
//! position drawn from the game's own board graph and rules, in the board
//! theme's wood. The miniature is drawn once, on the CPU, into an image:
//! as a few hundred UI nodes (lines and rounded discs) it would be drawn
//! again in every frame, which a software renderer feels.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use super::session::Playable;
use super::wood::{Wood, grain_pixels};
use crate::rules::board::BoardGraph;
use crate::rules::game::Side;
use crate::shell::Screen;
use crate::shell::screens::CardPicture;
use crate::shell::widgets::palette;

/// Game `G`'s card on the list draws its miniature.
pub(crate) fn plugin<G: Playable>(app: &mut App) {
    app.add_systems(Update, fill::<G>.run_if(in_state(Screen::GameList)));
}

/// The miniature's longer side, in pixels.
pub(crate) const SIZE: f32 = 96.0;

/// Image pixels to a layout pixel: sharp on a phone's denser screen too.
const DENSITY: f32 = 2.0;

/// The frame round the wood, in layout pixels.
const BORDER: f32 = 2.0;

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

/// A miniature being drawn: the theme's wood, then lines and pieces laid
/// over it with smooth edges, in linear colour. Positions are in layout
/// pixels from the top left.
pub(crate) struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<Vec3>,
}

impl Canvas {
    /// The wood of `wood`'s theme, `size` layout pixels big.
    pub(crate) fn on_wood(size: Vec2, wood: &Wood) -> Canvas {
        let (width, height) = (
            (size.x * DENSITY).round().max(1.0) as u32,
            (size.y * DENSITY).round().max(1.0) as u32,
        );
        let c = wood.colors;
        let bytes = grain_pixels(width, height, c.board_light, c.board_dark, 26.0, c.grain, 7);
        let pixels = bytes
            .chunks_exact(4)
            .map(|p| {
                let srgb = Color::srgb_u8(p[0], p[1], p[2]).to_linear();
                Vec3::new(srgb.red, srgb.green, srgb.blue)
            })
            .collect();
        Canvas {
            width,
            height,
            pixels,
        }
    }

    /// Lays `colour` over the pixels by `cover(p)`, the share of the pixel
    /// centred at `p` (layout pixels) that the shape covers, within the
    /// layout rectangle `lo`..`hi`.
    fn paint(&mut self, lo: Vec2, hi: Vec2, mut cover: impl FnMut(Vec2) -> Option<(f32, Vec3)>) {
        let x0 = ((lo.x * DENSITY).floor().max(0.0) as u32).min(self.width);
        let y0 = ((lo.y * DENSITY).floor().max(0.0) as u32).min(self.height);
        let x1 = ((hi.x * DENSITY).ceil().max(0.0) as u32).min(self.width);
        let y1 = ((hi.y * DENSITY).ceil().max(0.0) as u32).min(self.height);
        for y in y0..y1 {
            for x in x0..x1 {
                let p = (Vec2::new(x as f32, y as f32) + 0.5) / DENSITY;
                if let Some((alpha, colour)) = cover(p) {
                    let i = (y * self.width + x) as usize;
                    self.pixels[i] = self.pixels[i].lerp(colour, alpha.clamp(0.0, 1.0));
                }
            }
        }
    }

    /// A line from `a` to `b`, `width` thick, its ends squared off half a
    /// width beyond them.
    pub(crate) fn line(&mut self, a: Vec2, b: Vec2, width: f32, colour: Color) {
        let colour = linear(colour);
        let along = (b - a).normalize_or_zero();
        let (mid, half) = (
            (a + b) / 2.0,
            Vec2::new((b - a).length() + width, width) / 2.0,
        );
        let reach = Vec2::splat(width + 1.0);
        self.paint(a.min(b) - reach, a.max(b) + reach, |p| {
            let d = p - mid;
            let local = Vec2::new(d.dot(along), d.perp_dot(along)).abs() - half;
            // How far outside the bar, in image pixels: edges a pixel wide.
            let outside = local.max_element() * DENSITY;
            (outside < 0.5).then(|| ((0.5 - outside).min(1.0), colour))
        });
    }

    /// The lines of a board of `columns` × `rows` squares, `spacing` apart.
    pub(crate) fn grid(&mut self, columns: i32, rows: i32, spacing: f32, ink: Color) {
        let size = Vec2::new(columns as f32, rows as f32) * spacing;
        for i in 0..=columns {
            let x = i as f32 * spacing;
            self.line(Vec2::new(x, 0.0), Vec2::new(x, size.y), 1.0, ink);
        }
        for i in 0..=rows {
            let y = i as f32 * spacing;
            self.line(Vec2::new(0.0, y), Vec2::new(size.x, y), 1.0, ink);
        }
    }

    /// A piece: a disc of `colour`, ringed in ink.
    pub(crate) fn piece(&mut self, at: Vec2, diameter: f32, colour: Color) {
        let (fill, ink) = (linear(colour), linear(palette::INK));
        let r = diameter / 2.0;
        let reach = Vec2::splat(r + 1.0);
        self.paint(at - reach, at + reach, |p| {
            let from_edge = (p.distance(at) - r) * DENSITY;
            if from_edge >= 0.5 {
                return None;
            }
            // Ink for the outer layout pixel, the colour inside it.
            let inside = ((p.distance(at) - (r - 1.0)) * DENSITY).clamp(-0.5, 0.5);
            let colour = fill.lerp(ink, inside + 0.5);
            Some(((0.5 - from_edge).min(1.0), colour))
        });
    }

    /// The finished miniature: the image in its frame of the board's line
    /// colour.
    pub(crate) fn framed(self, images: &mut Assets<Image>, wood: &Wood) -> impl Bundle {
        let size = Vec2::new(self.width as f32, self.height as f32) / DENSITY;
        let bytes = self
            .pixels
            .iter()
            .flat_map(|c| {
                let [r, g, b, a] = Color::linear_rgb(c.x, c.y, c.z).to_srgba().to_u8_array();
                [r, g, b, a]
            })
            .collect();
        let image = Image::new(
            Extent3d {
                width: self.width,
                height: self.height,
                depth_or_array_layers: 1,
            },
            TextureDimension::D2,
            bytes,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::RENDER_WORLD,
        );
        (
            Node {
                // The image fills the inside of the border.
                width: px(size.x + 2.0 * BORDER),
                height: px(size.y + 2.0 * BORDER),
                border: UiRect::all(px(BORDER)),
                ..default()
            },
            ImageNode::new(images.add(image)),
            BorderColor::all(wood.colors.line),
        )
    }
}

fn linear(colour: Color) -> Vec3 {
    let c = colour.to_linear();
    Vec3::new(c.red, c.green, c.blue)
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
    mut images: ResMut<Assets<Image>>,
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
        let mut canvas = Canvas::on_wood(mini.size, &wood);
        let (w, h) = graph.extent();
        if G::SQUARES {
            canvas.grid(w, h, mini.spacing, ink);
        } else {
            for p in 0..graph.len() {
                let a = graph.point(p);
                for link in graph.links(p).iter().filter(|l| l.to > p) {
                    let c = graph.point(link.to);
                    canvas.line(mini.at(a.x, a.y), mini.at(c.x, c.y), 1.5, ink);
                }
            }
        }
        for p in 0..graph.len() {
            if let Some(side) = game.piece_at(&start, p) {
                let pt = graph.point(p);
                canvas.piece(mini.at(pt.x, pt.y), mini.spacing * 0.78, side_colour(side));
            }
        }
        let picture = canvas.framed(&mut images, &wood);
        commands.entity(entity).with_child(picture);
    }
}
