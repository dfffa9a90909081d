//! How はさみ将棋 looks: the board, the two piece designs (wooden koma with
//! 歩 / と in ink, or 記号 discs with four arrows), and the piece stands.

use bevy::prelude::*;

use crate::app::settings::PieceStyle;
use crate::app::widgets::{Fonts, palette};
use crate::games::board_view::BoardView;
use crate::rules::game::Side;
use crate::rules::hasami::SIZE;

/// Meshes and materials made once and shared by every piece.
#[derive(Resource, Clone)]
pub struct Art {
    koma_face: Handle<Mesh>,
    koma_edge: Handle<Mesh>,
    disc: Handle<Mesh>,
    ring: Handle<Mesh>,
    arrow: Handle<Mesh>,
    pub dot: Handle<Mesh>,
    pub red_ring: Handle<Mesh>,
    wood: Handle<ColorMaterial>,
    wood_edge: Handle<ColorMaterial>,
    ink: Handle<ColorMaterial>,
    vermilion: Handle<ColorMaterial>,
    white: Handle<ColorMaterial>,
    pub blue: Handle<ColorMaterial>,
    pub red: Handle<ColorMaterial>,
}

/// The cell size the meshes are made for (the play screen's board).
pub const CELL: f32 = 64.0;

fn pentagon(w: f32, h: f32) -> ConvexPolygon {
    ConvexPolygon::new([
        Vec2::new(0.0, h * 0.5),
        Vec2::new(-w * 0.40, h * 0.30),
        Vec2::new(-w * 0.5, -h * 0.5),
        Vec2::new(w * 0.5, -h * 0.5),
        Vec2::new(w * 0.40, h * 0.30),
    ])
    .expect("the koma outline is convex")
}

pub fn make_art(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let r = CELL * 0.40;
    commands.insert_resource(Art {
        koma_face: meshes.add(pentagon(CELL * 0.72, CELL * 0.84)),
        koma_edge: meshes.add(pentagon(CELL * 0.78, CELL * 0.90)),
        disc: meshes.add(Circle::new(r)),
        ring: meshes.add(Annulus::new(r * 0.80, r * 0.92)),
        arrow: meshes.add(Triangle2d::new(
            Vec2::new(0.0, 6.0),
            Vec2::new(-5.0, -2.0),
            Vec2::new(5.0, -2.0),
        )),
        dot: meshes.add(Circle::new(CELL * 0.12)),
        red_ring: meshes.add(Annulus::new(CELL * 0.40, CELL * 0.48)),
        wood: materials.add(Color::srgb(0.96, 0.86, 0.62)),
        wood_edge: materials.add(Color::srgb(0.55, 0.38, 0.18)),
        ink: materials.add(palette::INK),
        vermilion: materials.add(palette::VERMILION),
        white: materials.add(Color::srgb(0.98, 0.96, 0.90)),
        blue: materials.add(palette::DEST_DOT),
        red: materials.add(palette::RED_RING),
    });
}

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
            parent.spawn((
                Mesh2d(art.koma_edge.clone()),
                MeshMaterial2d(art.wood_edge.clone()),
                Transform::from_xyz(0.0, 0.0, 0.0),
            ));
            parent.spawn((
                Mesh2d(art.koma_face.clone()),
                MeshMaterial2d(art.wood.clone()),
                Transform::from_xyz(0.0, 0.0, 0.1),
            ));
            let (glyph, color) = match side {
                Side::First => ("歩", palette::INK),
                Side::Second => ("と", Color::srgb(0.70, 0.12, 0.08)),
            };
            parent.spawn((
                Text2d::new(glyph),
                TextFont {
                    font: fonts.koma.clone().into(),
                    font_size: FontSize::Px(CELL * 0.50),
                    ..default()
                },
                TextColor(color),
                Transform::from_xyz(0.0, -CELL * 0.05, 0.2),
            ));
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

/// Rotation of a piece: the top player's pieces face down the screen.
pub fn facing(upright: bool) -> Quat {
    if upright {
        Quat::IDENTITY
    } else {
        Quat::from_rotation_z(std::f32::consts::PI)
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
    commands.spawn((
        scope.clone(),
        Sprite::from_color(palette::BOARD_LINE, half * 2.0 + Vec2::splat(18.0)),
        Transform::from_translation(view.center.extend(-2.1)),
    ));
    commands.spawn((
        scope.clone(),
        Sprite::from_color(palette::BOARD, half * 2.0 + Vec2::splat(12.0)),
        Transform::from_translation(view.center.extend(-2.0)),
    ));
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

/// A blue dotted arrow from `a` to `b` (hints and tutorial arrows).
pub fn spawn_dotted_arrow(commands: &mut Commands, scope: impl Bundle + Clone, a: Vec2, b: Vec2) {
    let len = a.distance(b);
    let dir = (b - a).normalize_or_zero();
    let mut d = CELL * 0.3;
    while d < len - CELL * 0.25 {
        commands.spawn((
            scope.clone(),
            Sprite::from_color(palette::HINT_BLUE, Vec2::splat(7.0)),
            Transform::from_translation((a + dir * d).extend(6.0)),
        ));
        d += 13.0;
    }
    let angle = dir.to_angle() - std::f32::consts::FRAC_PI_2;
    commands.spawn((
        scope,
        Sprite::from_color(palette::HINT_BLUE, Vec2::new(18.0, 18.0)),
        Transform::from_translation((b - dir * CELL * 0.2).extend(6.0))
            .with_rotation(Quat::from_rotation_z(angle + std::f32::consts::FRAC_PI_4)),
    ));
}
