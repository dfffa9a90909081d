//! Wood made at start-up: the grain of the board and of the koma drawn from
//! seeded noise into textures, so the look costs nothing to download. A
//! board theme chooses the woods: kaya (golden, the classic board), katsura (paler
//! and cooler), or a high-contrast board without grain for low vision.

use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use crate::shell::settings::BoardTheme;

/// The colours of one theme: each wood as its light (early wood) and dark
/// (late wood) tone, the lines drawn on the board, and how strong the grain
/// is (0 draws a flat colour).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WoodColors {
    pub board_light: [f32; 3],
    pub board_dark: [f32; 3],
    pub koma_light: [f32; 3],
    pub koma_dark: [f32; 3],
    pub line: Color,
    pub grain: f32,
}

impl WoodColors {
    pub fn of(theme: BoardTheme) -> WoodColors {
        match theme {
            BoardTheme::Kaya => WoodColors {
                board_light: [0.93, 0.76, 0.47],
                board_dark: [0.76, 0.55, 0.28],
                koma_light: [0.98, 0.89, 0.66],
                koma_dark: [0.86, 0.71, 0.45],
                line: Color::srgb(0.22, 0.14, 0.06),
                grain: 1.0,
            },
            BoardTheme::Katsura => WoodColors {
                board_light: [0.91, 0.80, 0.62],
                board_dark: [0.77, 0.63, 0.44],
                koma_light: [0.97, 0.91, 0.74],
                koma_dark: [0.87, 0.76, 0.55],
                line: Color::srgb(0.20, 0.15, 0.10),
                grain: 0.75,
            },
            BoardTheme::Contrast => WoodColors {
                board_light: [1.0, 0.97, 0.86],
                board_dark: [1.0, 0.97, 0.86],
                koma_light: [1.0, 1.0, 1.0],
                koma_dark: [1.0, 1.0, 1.0],
                line: Color::BLACK,
                grain: 0.0,
            },
        }
    }
}

/// A hash of a lattice point, in 0..1.
fn lattice(x: i32, y: i32, seed: u32) -> f32 {
    let mut h = (x as u32).wrapping_mul(0x8da6_b343)
        ^ (y as u32).wrapping_mul(0xd816_3841)
        ^ seed.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 13;
    h = h.wrapping_mul(0x5bd1_e995);
    h ^= h >> 15;
    (h & 0x00ff_ffff) as f32 / 16_777_216.0
}

/// Smooth value noise in 0..1.
fn noise(x: f32, y: f32, seed: u32) -> f32 {
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let (sx, sy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
    let (ix, iy) = (x0 as i32, y0 as i32);
    let top = lattice(ix, iy, seed) * (1.0 - sx) + lattice(ix + 1, iy, seed) * sx;
    let bottom = lattice(ix, iy + 1, seed) * (1.0 - sx) + lattice(ix + 1, iy + 1, seed) * sx;
    top * (1.0 - sy) + bottom * sy
}

/// Noise summed over a few octaves, in about 0..1.
fn fbm(x: f32, y: f32, seed: u32) -> f32 {
    let (mut sum, mut amp, mut freq, mut norm) = (0.0, 0.5, 1.0, 0.0);
    for octave in 0..4 {
        sum += amp * noise(x * freq, y * freq, seed.wrapping_add(octave));
        norm += amp;
        amp *= 0.5;
        freq *= 2.0;
    }
    sum / norm
}

/// Straight grain (masame), as on a good board and on koma: late-wood lines
/// running along the height, wavering a little, with fine fibres and a
/// slow change of tone. `lines` is how many cross the width. Returns RGBA8.
pub fn grain_pixels(
    width: u32,
    height: u32,
    light: [f32; 3],
    dark: [f32; 3],
    lines: f32,
    strength: f32,
    seed: u32,
) -> Vec<u8> {
    let mut data = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            let u = x as f32 / width as f32;
            let v = y as f32 / height as f32;
            let wave = (fbm(u * 2.0, v * 1.2, seed) - 0.5) * 2.5 / lines;
            let ring = ((u + wave) * lines).fract();
            // Late wood: a sharp dark edge fading back into the light.
            let late = if ring > 0.78 {
                ((ring - 0.78) / 0.22).powf(0.6)
            } else {
                (1.0 - ring / 0.78).powf(6.0) * 0.6
            };
            let fibre = noise(u * width as f32 * 0.45, v * 6.0, seed ^ 0x55) - 0.5;
            let tone = fbm(u * 1.5, v * 1.5, seed ^ 0xa7) - 0.5;
            let t = (late * 0.55 + fibre * 0.22 + tone * 0.5).clamp(0.0, 1.0) * strength;
            for c in 0..3 {
                let value = light[c] + (dark[c] - light[c]) * t;
                data.push((value.clamp(0.0, 1.0) * 255.0).round() as u8);
            }
            data.push(255);
        }
    }
    data
}

/// The board's wood texture's side, in texels.
pub const WOOD_TEXELS: f32 = 384.0;

/// The textures of the board theme in use.
#[derive(Resource, Clone, Debug)]
pub struct Wood {
    pub theme: BoardTheme,
    pub colors: WoodColors,
    pub board: Handle<Image>,
    pub koma: Handle<Image>,
}

fn image(width: u32, height: u32, data: Vec<u8>) -> Image {
    Image::new(
        Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD,
    )
}

impl Wood {
    /// Draws the woods of `theme`.
    pub(crate) fn make(theme: BoardTheme, images: &mut Assets<Image>) -> Wood {
        let colors = WoodColors::of(theme);
        let board = grain_pixels(
            WOOD_TEXELS as u32,
            WOOD_TEXELS as u32,
            colors.board_light,
            colors.board_dark,
            26.0,
            colors.grain,
            7,
        );
        let koma = grain_pixels(
            96,
            96,
            colors.koma_light,
            colors.koma_dark,
            9.0,
            colors.grain * 0.7,
            11,
        );
        Wood {
            theme,
            colors,
            board: images.add(image(WOOD_TEXELS as u32, WOOD_TEXELS as u32, board)),
            koma: images.add(image(96, 96, koma)),
        }
    }
}
