//! How はさみ将棋 looks: the 9×9 board and the two piece designs (wooden
//! koma with 歩 / と, or 記号 discs with four arrows: a rook's moves).

use bevy::prelude::*;

use crate::games::art::{self, Art, CELL};
use crate::games::board_view::BoardView;
use crate::rules::game::Side;
use crate::rules::hasami::SIZE;
use crate::shell::settings::PieceStyle;
use crate::shell::widgets::{Fonts, palette};

/// A piece's look: its side and whether it faces up the screen.
pub(crate) fn piece_children(
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
            parent.spawn(art::piece_shadow(art, true));
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
pub(crate) fn spawn_board(
    commands: &mut Commands,
    view: &BoardView,
    fonts: &Fonts,
    scope: impl Bundle + Clone,
) {
    art::spawn_grid_board(
        commands,
        view,
        fonts,
        scope,
        SIZE,
        3,
        None,
        &art::GridLabels::japanese(SIZE),
    );
}
