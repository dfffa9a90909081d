//! How はさみ将棋 looks: the 9×9 board and the two piece designs (wooden
//! koma with 歩 / と, or 記号 discs with four arrows: a rook's moves).

use bevy::prelude::*;

use crate::app::settings::PieceStyle;
use crate::app::widgets::{Fonts, palette};
use crate::games::art::{self, Art, CELL};
use crate::games::board_view::BoardView;
use crate::rules::game::Side;
use crate::rules::hasami::SIZE;

/// A piece's look: its side and whether it faces up the screen.
pub fn piece_children(
    parent: &mut ChildSpawnerCommands,
    art: &Art,
    fonts: &Fonts,
    style: PieceStyle,
    side: Side,
) {
    match style {
        PieceStyle::Koma => {
            let (glyph, color) = match side {
                Side::First => ("歩", palette::INK),
                Side::Second => ("と", Color::srgb(0.70, 0.12, 0.08)),
            };
            art::koma(parent, art, fonts, glyph, color);
        }
        PieceStyle::Symbol => {
            let body = match side {
                Side::First => art.ink.clone(),
                Side::Second => art.vermilion.clone(),
            };
            parent.spawn((
                Mesh2d(art.disc.clone()),
                MeshMaterial2d(body),
                Transform::from_xyz(0.0, 0.0, 0.1),
            ));
            if side == Side::Second {
                parent.spawn((
                    Mesh2d(art.ring.clone()),
                    MeshMaterial2d(art.white.clone()),
                    Transform::from_xyz(0.0, 0.0, 0.2),
                ));
            }
            // Four arrows: any distance up, down, left, right.
            for k in 0..4 {
                let angle = k as f32 * std::f32::consts::FRAC_PI_2;
                let dir = Vec2::from_angle(angle + std::f32::consts::FRAC_PI_2);
                parent.spawn((
                    Mesh2d(art.arrow.clone()),
                    MeshMaterial2d(art.white.clone()),
                    Transform::from_translation((dir * CELL * 0.18).extend(0.3))
                        .with_rotation(Quat::from_rotation_z(angle)),
                ));
            }
        }
    }
}

/// The board: wood, the 9×9 grid, the four star points, and the file and
/// rank numbers.
pub fn spawn_board(
    commands: &mut Commands,
    view: &BoardView,
    fonts: &Fonts,
    scope: impl Bundle + Clone,
) {
    let half = view.half_size();
    let size = SIZE as f32;
    art::spawn_wood(commands, view, scope.clone());
    for i in 0..=SIZE {
        let offset = (i as f32 - size / 2.0) * view.cell;
        let width = if i == 0 || i == SIZE { 3.0 } else { 1.5 };
        commands.spawn((
            scope.clone(),
            Sprite::from_color(palette::BOARD_LINE, Vec2::new(width, half.y * 2.0 + width)),
            Transform::from_translation((view.center + Vec2::new(offset, 0.0)).extend(-1.9)),
        ));
        commands.spawn((
            scope.clone(),
            Sprite::from_color(palette::BOARD_LINE, Vec2::new(half.x * 2.0 + width, width)),
            Transform::from_translation((view.center + Vec2::new(0.0, offset)).extend(-1.9)),
        ));
    }
    for (x, y) in [(3.0, 3.0), (6.0, 3.0), (3.0, 6.0), (6.0, 6.0)] {
        let p = view.center + Vec2::new((x - size / 2.0) * view.cell, (size / 2.0 - y) * view.cell);
        commands.spawn((
            scope.clone(),
            Sprite::from_color(palette::BOARD_LINE, Vec2::splat(7.0)),
            Transform::from_translation(p.extend(-1.8))
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
        ));
    }
    // Coordinates as the bottom player sees them: files 9…1, ranks 一…九.
    const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
    for i in 0..SIZE {
        let (file, rank) = if view.flipped {
            (i + 1, RANKS[SIZE - 1 - i])
        } else {
            (SIZE - i, RANKS[i])
        };
        let x = view.center.x + (i as f32 - (size - 1.0) / 2.0) * view.cell;
        let y = view.center.y + ((size - 1.0) / 2.0 - i as f32) * view.cell;
        for (s, at) in [
            (
                file.to_string(),
                Vec2::new(x, view.center.y + half.y + 20.0),
            ),
            (
                rank.to_string(),
                Vec2::new(view.center.x + half.x + 20.0, y),
            ),
        ] {
            commands.spawn((
                scope.clone(),
                Text2d::new(s),
                TextFont {
                    font: fonts.ui.clone().into(),
                    font_size: FontSize::Px(16.0),
                    ..default()
                },
                TextColor(palette::INK_SOFT),
                Transform::from_translation(at.extend(-1.0)),
            ));
        }
    }
}
