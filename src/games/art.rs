//! The look every game shares: meshes and materials made once (koma
//! outlines, discs, rings, highlight shapes), the wooden koma with a glyph,
//! the point-and-line board of the European and 十六むさし boards, the blue
//! dotted hint arrow, and the gold capture frame.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use super::board_view::BoardView;
use super::wood::{WOOD_TEXELS, Wood};
use crate::rules::board::BoardGraph;
use crate::shell::anim::Lifetime;
use crate::shell::settings::Settings;
use crate::shell::widgets::{Fonts, palette};

/// The size the meshes are made for (a shogi board's cell).
pub(crate) const CELL: f32 = 64.0;

/// Meshes and materials made once and shared by every piece and marker.
#[derive(Resource, Clone)]
pub struct Art {
    /// A koma's top face and bevel (textured with the koma wood), lit for
    /// a koma turned 0, 1, 2 or 3 quarters.
    pub koma_bodies: [Handle<Mesh>; 4],
    pub koma_shadow: Handle<Mesh>,
    /// A koma's shadow without the middle its own body hides: all that
    /// shows of a settled koma's shadow, at half the pixels to blend.
    pub koma_shadow_rim: Handle<Mesh>,
    pub disc_shadow: Handle<Mesh>,
    pub disc: Handle<Mesh>,
    pub ring: Handle<Mesh>,
    pub arrow: Handle<Mesh>,
    pub ear: Handle<Mesh>,
    pub dot: Handle<Mesh>,
    pub red_ring: Handle<Mesh>,
    /// A round highlight under a piece on a point board.
    pub spot: Handle<Mesh>,
    /// The marks of 中将棋's mnemonic koma: a step's dot, a jump's ring,
    /// the 獅子's circle.
    pub mark_dot: Handle<Mesh>,
    pub mark_ring: Handle<Mesh>,
    pub lion_ring: Handle<Mesh>,
    /// The koma wood (its texture follows the board theme).
    pub wood: Handle<ColorMaterial>,
    /// Black, for shadows whose meshes carry their alpha.
    pub shadow: Handle<ColorMaterial>,
    pub ink: Handle<ColorMaterial>,
    pub vermilion: Handle<ColorMaterial>,
    pub white: Handle<ColorMaterial>,
    pub fox: Handle<ColorMaterial>,
    pub blue: Handle<ColorMaterial>,
    pub red: Handle<ColorMaterial>,
    pub last_move: Handle<ColorMaterial>,
    pub selected: Handle<ColorMaterial>,
    /// The keyboard's cursor.
    pub cursor: Handle<ColorMaterial>,
}

/// The shared look: made at start-up, repainted when the board theme
/// changes, the light kept where it is however a piece turns.
pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_art).add_systems(
        PostUpdate,
        (follow_board_theme, paint_boards, light_pieces)
            .chain()
            .before(bevy::transform::TransformSystems::Propagate),
    );
}

/// The koma's outline, counter-clockwise from the tip.
fn pentagon_points(w: f32, h: f32) -> [Vec2; 5] {
    [
        Vec2::new(0.0, h * 0.5),
        Vec2::new(-w * 0.40, h * 0.30),
        Vec2::new(-w * 0.5, -h * 0.5),
        Vec2::new(w * 0.5, -h * 0.5),
        Vec2::new(w * 0.40, h * 0.30),
    ]
}

/// Where the light comes from: the upper left.
const LIGHT: Vec2 = Vec2::new(-0.45, 0.89);

/// A koma seen from above: its top face with the wood's grain, and a bevel
/// round it shaded by the light (the edges facing the light lighter, those
/// turned away darker). `outline` is counter-clockwise; the face is
/// `inset` inside it; `light` is where the light comes from in the koma's
/// own frame. The grain runs over face and bevel alike.
fn beveled(outline: &[Vec2], inset: f32, light: Vec2) -> Mesh {
    let n = outline.len();
    let (lo, hi) = outline.iter().fold((Vec2::MAX, Vec2::MIN), |(lo, hi), p| {
        (lo.min(*p), hi.max(*p))
    });
    let size = hi - lo;
    let uv = |p: Vec2| [(p.x - lo.x) / size.x, (hi.y - p.y) / size.y];
    let centre = outline.iter().copied().sum::<Vec2>() / n as f32;
    let inner: Vec<Vec2> = outline
        .iter()
        .map(|&p| p + (centre - p).normalize_or_zero() * inset)
        .collect();
    let (mut positions, mut uvs, mut colors, mut indices) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut vertex = |p: Vec2, color: [f32; 4]| {
        positions.push([p.x, p.y, 0.0]);
        uvs.push(uv(p));
        colors.push(color);
        positions.len() as u32 - 1
    };
    let white = [1.0, 1.0, 1.0, 1.0];
    let c = vertex(centre, white);
    let face: Vec<u32> = inner.iter().map(|&p| vertex(p, white)).collect();
    for i in 0..n {
        indices.extend([c, face[i], face[(i + 1) % n]]);
    }
    for i in 0..n {
        let (a, b) = (outline[i], outline[(i + 1) % n]);
        let d = b - a;
        let normal = Vec2::new(d.y, -d.x).normalize_or_zero();
        let s = 0.80 + 0.22 * normal.dot(light);
        let shade = [s * 0.96, s * 0.90, s * 0.82, 1.0];
        let quad = [
            vertex(a, shade),
            vertex(b, shade),
            vertex(inner[(i + 1) % n], shade),
            vertex(inner[i], shade),
        ];
        indices.extend([quad[0], quad[1], quad[2], quad[0], quad[2], quad[3]]);
    }
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colors)
    .with_inserted_indices(Indices::U32(indices))
}

/// A soft shadow of `outline` (counter-clockwise): solid inside, fading to
/// nothing `feather` beyond it (the material gives the colour, the vertices
/// the alpha). With `hole`, the middle is left out: the shadow starts `hole`
/// inside the outline.
fn soft_shadow(outline: &[Vec2], feather: f32, alpha: f32, hole: Option<f32>) -> Mesh {
    let n = outline.len();
    let centre = outline.iter().copied().sum::<Vec2>() / n as f32;
    let mut positions = Vec::new();
    let mut colors = Vec::new();
    let mut ring = |points: &mut dyn Iterator<Item = Vec2>, a: f32| {
        for p in points {
            positions.push([p.x, p.y, 0.0]);
            colors.push([1.0, 1.0, 1.0, a]);
        }
    };
    // Ring 0 is the inner edge (or the centre, repeated), ring 1 the
    // outline, ring 2 the feather's outer edge.
    match hole {
        Some(depth) => ring(&mut inset(outline, depth).into_iter(), alpha),
        None => ring(&mut std::iter::repeat_n(centre, n), alpha),
    }
    ring(&mut outline.iter().copied(), alpha);
    ring(
        &mut outline
            .iter()
            .map(|&p| p + (p - centre).normalize_or_zero() * feather),
        0.0,
    );
    let mut indices = Vec::new();
    let n = n as u32;
    for band in 0..2 {
        let (inner, outer) = (band * n, (band + 1) * n);
        for i in 0..n {
            let j = (i + 1) % n;
            indices.extend([
                inner + i,
                outer + i,
                outer + j,
                inner + i,
                outer + j,
                inner + j,
            ]);
        }
    }
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colors)
    .with_inserted_indices(Indices::U32(indices))
}

/// `outline` (convex, counter-clockwise) with every edge moved `depth`
/// inwards.
fn inset(outline: &[Vec2], depth: f32) -> Vec<Vec2> {
    let n = outline.len();
    (0..n)
        .map(|i| {
            let (before, p, after) = (outline[(i + n - 1) % n], outline[i], outline[(i + 1) % n]);
            // The inward normals of the edges in and out of `p` (interior
            // on the left), and the mitred corner where both have moved.
            let a = (p - before).normalize_or_zero().perp();
            let b = (after - p).normalize_or_zero().perp();
            p + (a + b) * (depth / (1.0 + a.dot(b)).max(0.1))
        })
        .collect()
}

/// Points round a circle, counter-clockwise.
fn circle_points(r: f32, sides: usize) -> Vec<Vec2> {
    (0..sides)
        .map(|i| Vec2::from_angle(std::f32::consts::TAU * i as f32 / sides as f32) * r)
        .collect()
}

/// Where a piece's shadow falls when the piece lies on the board; a lifted
/// piece (scaled up) casts it further.
const SHADOW_OFFSET: Vec2 = Vec2::new(2.5, -3.5);

/// How far inside a koma's outline its rim shadow starts: a shadow moved
/// less than this under its koma shows nothing of its middle.
const RIM_DEPTH: f32 = 9.0;

/// A piece's shadow: it falls further off while the piece is lifted.
#[derive(Component, Clone, Copy, Debug)]
pub struct PieceShadow {
    /// Under a koma (whose shadow may leave out its middle), not a disc.
    koma: bool,
}

pub(crate) fn make_art(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut images: ResMut<Assets<Image>>,
    settings: Res<Settings>,
) {
    let r = CELL * 0.40;
    let wood = Wood::make(settings.board_theme, &mut images);
    let outline = pentagon_points(CELL * 0.80, CELL * 0.92);
    commands.insert_resource(Art {
        koma_bodies: [0, 1, 2, 3].map(|quarter| {
            // Turned a quarter `quarter` times, the koma sees the light
            // coming from as far the other way.
            let light =
                Vec2::from_angle(-std::f32::consts::FRAC_PI_2 * quarter as f32).rotate(LIGHT);
            meshes.add(beveled(&outline, CELL * 0.06, light))
        }),
        koma_shadow: meshes.add(soft_shadow(&outline, 3.0, 0.30, None)),
        koma_shadow_rim: meshes.add(soft_shadow(&outline, 3.0, 0.30, Some(RIM_DEPTH))),
        disc_shadow: meshes.add(soft_shadow(&circle_points(r, 32), 3.0, 0.30, None)),
        disc: meshes.add(Circle::new(r)),
        ring: meshes.add(Annulus::new(r * 0.80, r * 0.92)),
        arrow: meshes.add(Triangle2d::new(
            Vec2::new(0.0, 6.0),
            Vec2::new(-5.0, -2.0),
            Vec2::new(5.0, -2.0),
        )),
        ear: meshes.add(Triangle2d::new(
            Vec2::new(0.0, 13.0),
            Vec2::new(-8.0, -4.0),
            Vec2::new(8.0, -4.0),
        )),
        dot: meshes.add(Circle::new(CELL * 0.12)),
        red_ring: meshes.add(Annulus::new(CELL * 0.40, CELL * 0.48)),
        spot: meshes.add(Circle::new(CELL * 0.47)),
        mark_dot: meshes.add(Circle::new(CELL * 0.058)),
        mark_ring: meshes.add(Annulus::new(CELL * 0.028, CELL * 0.054)),
        lion_ring: meshes.add(Annulus::new(CELL * 0.25, CELL * 0.29)),
        wood: materials.add(koma_wood(&wood)),
        shadow: materials.add(ColorMaterial {
            color: Color::BLACK,
            alpha_mode: bevy::sprite_render::AlphaMode2d::Blend,
            ..default()
        }),
        ink: materials.add(palette::INK),
        vermilion: materials.add(palette::VERMILION),
        white: materials.add(Color::srgb(0.98, 0.96, 0.90)),
        fox: materials.add(Color::srgb(0.89, 0.50, 0.16)),
        blue: materials.add(palette::DEST_DOT),
        red: materials.add(palette::RED_RING),
        last_move: materials.add(palette::LAST_MOVE),
        selected: materials.add(palette::SELECTED),
        cursor: materials.add(palette::HINT_BLUE),
    });
    commands.insert_resource(wood);
}

/// The koma's material: the koma wood's grain, opaque.
fn koma_wood(wood: &Wood) -> ColorMaterial {
    ColorMaterial {
        color: Color::WHITE,
        texture: Some(wood.koma.clone()),
        alpha_mode: bevy::sprite_render::AlphaMode2d::Opaque,
        ..default()
    }
}

/// A new board theme draws new woods; the koma already on screen take the
/// new grain with their shared material.
pub(crate) fn follow_board_theme(
    settings: Res<Settings>,
    mut wood: ResMut<Wood>,
    art: Option<Res<Art>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let Some(art) = art else { return };
    if !settings.is_changed() || wood.theme == settings.board_theme {
        return;
    }
    images.remove(&wood.board);
    images.remove(&wood.koma);
    *wood = Wood::make(settings.board_theme, &mut images);
    if let Some(mut material) = materials.get_mut(&art.wood) {
        *material = koma_wood(&wood);
    }
}

/// A koma's body: its bevel is lit for the way its piece is turned.
#[derive(Component, Clone, Copy, Debug)]
pub struct KomaBody;

/// Keeps the light where it is on screen however a piece is turned: its
/// shadow falls down and to the right, its bevel is lit from the upper
/// left. A lifted piece (scaled above its size: dragged, or on its way)
/// casts its shadow further off, and it settles back as the piece comes
/// down.
pub(crate) fn light_pieces(
    art: Res<Art>,
    parents: Query<&ChildOf>,
    transforms: Query<&Transform, (Without<PieceShadow>, Without<KomaBody>)>,
    mut shadows: Query<(&ChildOf, &PieceShadow, &mut Transform, &mut Mesh2d), Without<KomaBody>>,
    mut bodies: Query<(&ChildOf, &mut Mesh2d), (With<KomaBody>, Without<PieceShadow>)>,
    moved: Query<(), (Changed<Transform>, Without<PieceShadow>)>,
    new: Query<(), Or<(Added<PieceShadow>, Added<KomaBody>)>>,
) {
    // A stance changes only when some transform above a shadow or a bevel
    // does, or when a piece is drawn anew.
    if moved.is_empty() && new.is_empty() {
        return;
    }
    // How the piece holding `entity` stands on screen: its turn and scale
    // through every level, and how far the piece itself (the top level,
    // set on the board) is lifted.
    let stance = |entity: Entity| {
        let (mut turn, mut scale, mut lift) = (Quat::IDENTITY, 1.0, 0.0);
        let mut at = Some(entity);
        while let Some(e) = at {
            if let Ok(t) = transforms.get(e) {
                turn = t.rotation * turn;
                scale *= t.scale.x;
                lift = (t.scale.x - 1.0).max(0.0);
            }
            at = parents.get(e).ok().map(|c| c.parent());
        }
        (turn, scale, lift)
    };
    for (child_of, kind, mut shadow, mut mesh) in &mut shadows {
        let (turn, scale, lift) = stance(child_of.parent());
        let on_screen = SHADOW_OFFSET * (1.0 + lift * 30.0);
        let local = turn.inverse() * (on_screen / scale.max(0.01)).extend(0.0);
        let want = local.truncate().extend(shadow.translation.z);
        if shadow.translation.distance_squared(want) > 1e-4 {
            shadow.translation = want;
        }
        // A koma hides its shadow's middle unless the shadow has moved
        // far out from under it (lifted, or a small koma on a big screen).
        if kind.koma {
            let body = if local.length() + 1.0 < RIM_DEPTH {
                &art.koma_shadow_rim
            } else {
                &art.koma_shadow
            };
            if mesh.0 != *body {
                mesh.0 = body.clone();
            }
        }
    }
    for (child_of, mut mesh) in &mut bodies {
        let (turn, _, _) = stance(child_of.parent());
        let angle = (turn * Vec3::X).truncate().to_angle();
        let quarter = (angle / std::f32::consts::FRAC_PI_2)
            .round()
            .rem_euclid(4.0) as usize;
        let body = &art.koma_bodies[quarter.min(3)];
        if mesh.0 != *body {
            mesh.0 = body.clone();
        }
    }
}

/// A piece's shadow under a koma (`disc` false) or a round piece.
pub(crate) fn piece_shadow(art: &Art, disc: bool) -> impl Bundle {
    (
        PieceShadow { koma: !disc },
        Mesh2d(if disc {
            art.disc_shadow.clone()
        } else {
            art.koma_shadow.clone()
        }),
        MeshMaterial2d(art.shadow.clone()),
        Transform::from_translation(SHADOW_OFFSET.extend(-0.3)),
    )
}

/// A wooden koma with `glyph` written on it in `color`.
pub fn koma(
    parent: &mut ChildSpawnerCommands,
    art: &Art,
    fonts: &Fonts,
    glyph: &str,
    color: Color,
) {
    parent.spawn(piece_shadow(art, false));
    parent.spawn((
        KomaBody,
        Mesh2d(art.koma_bodies[0].clone()),
        MeshMaterial2d(art.wood.clone()),
        Transform::from_xyz(0.0, 0.0, 0.0),
    ));
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

/// A wooden koma with a two-kanji name written top to bottom (中将棋), or
/// one kanji as [`koma`] writes it.
pub(crate) fn koma_named(
    parent: &mut ChildSpawnerCommands,
    art: &Art,
    fonts: &Fonts,
    name: &str,
    color: Color,
) {
    let glyphs: Vec<char> = name.chars().collect();
    if glyphs.len() != 2 {
        return koma(parent, art, fonts, name, color);
    }
    koma(parent, art, fonts, "", color);
    for (i, glyph) in glyphs.into_iter().enumerate() {
        parent.spawn((
            Text2d::new(glyph.to_string()),
            TextFont {
                font: fonts.koma.clone().into(),
                font_size: FontSize::Px(CELL * 0.34),
                ..default()
            },
            TextColor(color),
            Transform::from_xyz(0.0, CELL * (0.10 - 0.30 * i as f32), 0.2),
        ));
    }
}

/// Rotation of a piece: the top player's shogi pieces face down the screen.
pub(crate) fn facing(upright: bool) -> Quat {
    if upright {
        Quat::IDENTITY
    } else {
        Quat::from_rotation_z(std::f32::consts::PI)
    }
}

/// A straight bar from `a` to `b` (board lines).
fn bar(a: Vec2, b: Vec2, width: f32, color: Color, z: f32) -> impl Bundle {
    let d = b - a;
    (
        BoardInk,
        Sprite::from_color(color, Vec2::new(d.length() + width, width)),
        Transform::from_translation(((a + b) / 2.0).extend(z))
            .with_rotation(Quat::from_rotation_z(d.to_angle())),
    )
}

/// A coordinate beside a board (a file or rank number, a column letter).
fn coordinate(fonts: &Fonts, s: String, at: Vec2) -> impl Bundle {
    (
        Text2d::new(s),
        TextFont {
            font: fonts.ui.clone().into(),
            font_size: FontSize::Px(16.0),
            ..default()
        },
        TextColor(palette::INK_SOFT),
        Transform::from_translation(at.extend(-1.0)),
    )
}

/// Kanji rank names as a shogi board writes them, top to bottom.
const RANK_KANJI: [&str; 12] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
];

/// The labels on a grid board's edges: one a column, left to right, and
/// one a row, top to bottom, as the first player sees the board.
pub(crate) struct GridLabels {
    pub files: Vec<String>,
    pub ranks: Vec<String>,
}

impl GridLabels {
    /// A shogi board's: files `size`…1, ranks 一….
    pub(crate) fn japanese(size: usize) -> GridLabels {
        GridLabels {
            files: (0..size).map(|c| (size - c).to_string()).collect(),
            ranks: RANK_KANJI
                .iter()
                .take(size)
                .map(|r| r.to_string())
                .collect(),
        }
    }
}

/// A shogi board of `size`×`size` squares: wood, the grid, the four star
/// points `star` lines in from each side (which on a 中将棋 board also mark
/// the promotion zones), the zones' wood stained by `zone_stain`, and the
/// `labels` along the top and right edges as the bottom player sees them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn spawn_grid_board(
    commands: &mut Commands,
    view: &BoardView,
    fonts: &Fonts,
    scope: impl Bundle + Clone,
    size: usize,
    star: usize,
    zone_stain: Option<Color>,
    labels: &GridLabels,
) {
    let half = view.half_size();
    let n = size as f32;
    spawn_zoned_wood(
        commands,
        view,
        scope.clone(),
        zone_stain.map(|stain| (star as f32 * view.cell, stain)),
    );
    for i in 0..=size {
        let offset = (i as f32 - n / 2.0) * view.cell;
        let width = if i == 0 || i == size { 3.0 } else { 1.5 };
        commands.spawn((
            scope.clone(),
            BoardInk,
            Sprite::from_color(palette::BOARD_LINE, Vec2::new(width, half.y * 2.0 + width)),
            Transform::from_translation((view.center + Vec2::new(offset, 0.0)).extend(-1.9)),
        ));
        commands.spawn((
            scope.clone(),
            BoardInk,
            Sprite::from_color(palette::BOARD_LINE, Vec2::new(half.x * 2.0 + width, width)),
            Transform::from_translation((view.center + Vec2::new(0.0, offset)).extend(-1.9)),
        ));
    }
    let far = (size - star) as f32;
    let near = star as f32;
    for (x, y) in [(near, near), (far, near), (near, far), (far, far)] {
        let p = view.center + Vec2::new((x - n / 2.0) * view.cell, (n / 2.0 - y) * view.cell);
        commands.spawn((
            scope.clone(),
            BoardInk,
            Sprite::from_color(palette::BOARD_LINE, Vec2::splat(7.0)),
            Transform::from_translation(p.extend(-1.8))
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
        ));
    }
    // Coordinates as the bottom player sees them: turned round with the
    // board.
    for i in 0..size {
        let at = |i: usize| if view.flipped { size - 1 - i } else { i };
        let (Some(file), Some(rank)) = (labels.files.get(at(i)), labels.ranks.get(at(i))) else {
            continue;
        };
        let x = view.center.x + (i as f32 - (n - 1.0) / 2.0) * view.cell;
        let y = view.center.y + ((n - 1.0) / 2.0 - i as f32) * view.cell;
        for (s, at) in [
            (file.clone(), Vec2::new(x, view.center.y + half.y + 20.0)),
            (
                rank.clone(),
                // Two-character ranks (十一, 12) stand a little further out.
                Vec2::new(
                    view.center.x + half.x + 12.0 + 8.0 * rank.chars().count() as f32,
                    y,
                ),
            ),
        ] {
            commands.spawn((scope.clone(), coordinate(fonts, s, at)));
        }
    }
}

/// A board's wood: its grain is painted in by `paint_boards`.
#[derive(Component, Clone, Copy, Debug)]
pub struct BoardWood;

/// A band of a board's wood stained by this colour (multiplied: 中将棋's
/// promotion zones), instead of a tint laid over it: on a software
/// renderer a blended layer over two thirds of the board costs frame time.
#[derive(Component, Clone, Copy, Debug)]
pub struct WoodStain(pub Color);

/// A line drawn on a board: its colour follows the board theme.
#[derive(Component, Clone, Copy, Debug)]
pub struct BoardInk;

/// A board's wood of `size`, in the theme in use once painted.
pub(crate) fn board_wood(size: Vec2) -> impl Bundle {
    (BoardWood, Sprite::from_color(palette::BOARD, size))
}

/// Gives new boards the theme's wood and new lines its ink (and all of
/// them, when the theme changes).
pub(crate) fn paint_boards(
    wood: Res<Wood>,
    mut boards: Query<(&mut Sprite, Ref<BoardWood>, Option<&WoodStain>), Without<BoardInk>>,
    mut lines: Query<(&mut Sprite, Ref<BoardInk>), Without<BoardWood>>,
) {
    let all = wood.is_changed();
    for (mut sprite, mark, stain) in &mut boards {
        if all || mark.is_added() {
            sprite.image = wood.board.clone();
            sprite.color = stain.map_or(Color::WHITE, |s| s.0);
        }
    }
    for (mut sprite, mark) in &mut lines {
        if all || mark.is_added() {
            sprite.color = wood.colors.line;
        }
    }
}

/// The wooden board with its dark rim, under the board's extent. The rim
/// is four strips around the wood, not a dark board under it: on a
/// software renderer every pixel drawn twice costs frame time.
pub(crate) fn spawn_wood(commands: &mut Commands, view: &BoardView, scope: impl Bundle + Clone) {
    spawn_zoned_wood(commands, view, scope, None);
}

/// [`spawn_wood`], with a band `depth` deep along the top and the bottom
/// edges stained by `stain` (`zones`).
pub(crate) fn spawn_zoned_wood(
    commands: &mut Commands,
    view: &BoardView,
    scope: impl Bundle + Clone,
    zones: Option<(f32, Color)>,
) {
    const MARGIN: f32 = 6.0;
    const RIM: f32 = 3.0;
    let half = view.half_size();
    let wood = half + Vec2::splat(MARGIN);
    match zones {
        None => {
            commands.spawn((
                scope.clone(),
                board_wood(wood * 2.0),
                Transform::from_translation(view.center.extend(-2.0)),
            ));
        }
        Some((depth, stain)) => {
            // Three bands of one piece of wood: each shows its own part of
            // the grain's texture, so the grain runs on across them.
            let height = wood.y * 2.0;
            let band = (MARGIN + depth).min(height / 2.0);
            let texture = WOOD_TEXELS;
            for (top, bottom, stained) in [
                (0.0, band, true),
                (band, height - band, false),
                (height - band, height, true),
            ] {
                let mut sprite =
                    Sprite::from_color(palette::BOARD, Vec2::new(wood.x * 2.0, bottom - top));
                sprite.rect = Some(Rect::new(
                    0.0,
                    texture * top / height,
                    texture,
                    texture * bottom / height,
                ));
                let centre_y = view.center.y + wood.y - (top + bottom) / 2.0;
                let mut band = commands.spawn((
                    scope.clone(),
                    BoardWood,
                    sprite,
                    Transform::from_translation(Vec2::new(view.center.x, centre_y).extend(-2.0)),
                ));
                if stained {
                    band.insert(WoodStain(stain));
                }
            }
        }
    }
    let out = wood + Vec2::splat(RIM / 2.0);
    for (at, size) in [
        (
            Vec2::new(0.0, out.y),
            Vec2::new(wood.x * 2.0 + RIM * 2.0, RIM),
        ),
        (
            Vec2::new(0.0, -out.y),
            Vec2::new(wood.x * 2.0 + RIM * 2.0, RIM),
        ),
        (Vec2::new(out.x, 0.0), Vec2::new(RIM, wood.y * 2.0)),
        (Vec2::new(-out.x, 0.0), Vec2::new(RIM, wood.y * 2.0)),
    ] {
        commands.spawn((
            scope.clone(),
            BoardInk,
            Sprite::from_color(palette::BOARD_LINE, size),
            Transform::from_translation((view.center + at).extend(-2.1)),
        ));
    }
}

/// A 駒台: a small wooden stand with a rim, its shadow on the table.
pub(crate) fn spawn_stand(
    commands: &mut Commands,
    scope: impl Bundle + Clone,
    centre: Vec2,
    size: Vec2,
) {
    const RIM: f32 = 4.0;
    commands.spawn((
        scope.clone(),
        Sprite::from_color(
            Color::srgba(0.0, 0.0, 0.0, 0.22),
            size + Vec2::splat(RIM * 2.0),
        ),
        Transform::from_translation((centre + Vec2::new(5.0, -7.0)).extend(-2.3)),
    ));
    commands.spawn((
        scope.clone(),
        BoardInk,
        Sprite::from_color(palette::BOARD_LINE, size + Vec2::splat(RIM * 2.0)),
        Transform::from_translation(centre.extend(-2.2)),
    ));
    commands.spawn((
        scope,
        board_wood(size),
        Transform::from_translation(centre.extend(-2.0)),
    ));
}

/// A point-and-line board: wood under the points, every link drawn as a
/// line, a small dot on every point, and the point names' letters (a… from
/// the left, below) and numbers (from the bottom, on the left), as the
/// tutorials name points. Works for any board graph.
pub(crate) fn spawn_line_board(
    commands: &mut Commands,
    view: &BoardView,
    graph: &BoardGraph,
    fonts: &Fonts,
    scope: impl Bundle + Clone,
) {
    let half = view.half_size();
    spawn_wood(commands, view, scope.clone());
    for p in 0..graph.len() {
        let a = view.world(graph, p);
        for link in graph.links(p) {
            if link.to > p {
                let b = view.world(graph, link.to);
                commands.spawn((scope.clone(), bar(a, b, 3.0, palette::BOARD_LINE, -1.9)));
            }
        }
        commands.spawn((
            scope.clone(),
            BoardInk,
            Sprite::from_color(palette::BOARD_LINE, Vec2::splat(10.0)),
            Transform::from_translation(a.extend(-1.8))
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
        ));
    }
    let (w, h) = graph.extent();
    let label = |s: String, at: Vec2| (scope.clone(), coordinate(fonts, s, at));
    for x in 0..w {
        let at = Vec2::new(
            view.world_of(x as f32, 0.0).x,
            view.center.y - half.y - 20.0,
        );
        commands.spawn(label(char::from(b'a' + x as u8).to_string(), at));
    }
    for y in 0..h {
        let at = Vec2::new(
            view.center.x - half.x - 20.0,
            view.world_of(0.0, y as f32).y,
        );
        commands.spawn(label((h - y).to_string(), at));
    }
}

/// What a highlight under a point marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Highlight {
    LastMove,
    Selected,
}

/// A highlight under a point: a square on a shogi board, a disc on a point
/// board.
pub(crate) fn spawn_highlight(
    commands: &mut Commands,
    scope: impl Bundle,
    art: &Art,
    squares: bool,
    at: Vec2,
    kind: Highlight,
) {
    let (color, material, z) = match kind {
        Highlight::LastMove => (palette::LAST_MOVE, &art.last_move, -1.5),
        Highlight::Selected => (palette::SELECTED, &art.selected, -1.4),
    };
    let place = Transform::from_translation(at.extend(z));
    if squares {
        commands.spawn((
            scope,
            Sprite::from_color(color, Vec2::splat(CELL - 2.0)),
            place,
        ));
    } else {
        commands.spawn((
            scope,
            Mesh2d(art.spot.clone()),
            MeshMaterial2d(material.clone()),
            place,
        ));
    }
}

/// A blue dotted arrow from `a` to `b` (hints and tutorial arrows).
pub(crate) fn spawn_dotted_arrow(
    commands: &mut Commands,
    scope: impl Bundle + Clone,
    a: Vec2,
    b: Vec2,
) {
    spawn_dotted_arrow_in(commands, scope, a, b, palette::HINT_BLUE);
}

/// A dotted arrow from `a` to `b` in `color`.
pub(crate) fn spawn_dotted_arrow_in(
    commands: &mut Commands,
    scope: impl Bundle + Clone,
    a: Vec2,
    b: Vec2,
    color: Color,
) {
    let len = a.distance(b);
    let dir = (b - a).normalize_or_zero();
    let mut d = CELL * 0.3;
    while d < len - CELL * 0.25 {
        commands.spawn((
            scope.clone(),
            Sprite::from_color(color, Vec2::splat(7.0)),
            Transform::from_translation((a + dir * d).extend(6.0)),
        ));
        d += 13.0;
    }
    let angle = dir.to_angle() - std::f32::consts::FRAC_PI_2;
    commands.spawn((
        scope,
        Sprite::from_color(color, Vec2::new(18.0, 18.0)),
        Transform::from_translation((b - dir * CELL * 0.2).extend(6.0))
            .with_rotation(Quat::from_rotation_z(angle + std::f32::consts::FRAC_PI_4)),
    ));
}

/// Blue dotted arrows along a whole path (a multi-jump hint).
pub(crate) fn spawn_path_arrows(
    commands: &mut Commands,
    scope: impl Bundle + Clone,
    points: &[Vec2],
) {
    spawn_path_arrows_in(commands, scope, points, palette::HINT_BLUE);
}

/// Dotted arrows in `color` along a whole path.
pub(crate) fn spawn_path_arrows_in(
    commands: &mut Commands,
    scope: impl Bundle + Clone,
    points: &[Vec2],
    color: Color,
) {
    for w in points.windows(2) {
        spawn_dotted_arrow_in(commands, scope.clone(), w[0], w[1], color);
    }
}

/// A red × (印を出す: moving here lets the opponent capture).
pub(crate) fn spawn_cross(commands: &mut Commands, scope: impl Bundle + Clone, at: Vec2) {
    for angle in [std::f32::consts::FRAC_PI_4, -std::f32::consts::FRAC_PI_4] {
        commands.spawn((
            scope.clone(),
            Sprite::from_color(palette::RED_RING, Vec2::new(30.0, 6.0)),
            Transform::from_translation(at.extend(2.5)).with_rotation(Quat::from_rotation_z(angle)),
        ));
    }
}

/// The keyboard's cursor: a blue frame round a square, a blue ring round
/// a point.
pub(crate) fn spawn_cursor(
    commands: &mut Commands,
    scope: impl Bundle + Clone,
    art: &Art,
    squares: bool,
    at: Vec2,
) {
    if !squares {
        commands.spawn((
            scope,
            Mesh2d(art.red_ring.clone()),
            MeshMaterial2d(art.cursor.clone()),
            Transform::from_translation(at.extend(6.5)).with_scale(Vec3::splat(1.1)),
        ));
        return;
    }
    let s = CELL * 0.98;
    let t = 4.0;
    for (offset, size) in [
        (Vec2::new(0.0, s / 2.0), Vec2::new(s + t, t)),
        (Vec2::new(0.0, -s / 2.0), Vec2::new(s + t, t)),
        (Vec2::new(s / 2.0, 0.0), Vec2::new(t, s + t)),
        (Vec2::new(-s / 2.0, 0.0), Vec2::new(t, s + t)),
    ] {
        commands.spawn((
            scope.clone(),
            Sprite::from_color(palette::HINT_BLUE, size),
            Transform::from_translation((at + offset).extend(6.5)),
        ));
    }
}

/// The gold frame round a capturing piece.
pub(crate) fn spawn_gold_frame(
    commands: &mut Commands,
    scope: impl Bundle,
    at: Vec2,
    seconds: f32,
) {
    let s = CELL * 0.96;
    let t = 5.0;
    commands
        .spawn((
            scope,
            Transform::from_translation(at.extend(4.5)),
            Visibility::default(),
            Lifetime(seconds),
        ))
        .with_children(|f| {
            for (offset, size) in [
                (Vec2::new(0.0, s / 2.0), Vec2::new(s + t, t)),
                (Vec2::new(0.0, -s / 2.0), Vec2::new(s + t, t)),
                (Vec2::new(s / 2.0, 0.0), Vec2::new(t, s + t)),
                (Vec2::new(-s / 2.0, 0.0), Vec2::new(t, s + t)),
            ] {
                f.spawn((
                    Sprite::from_color(palette::GOLD, size),
                    Transform::from_translation(offset.extend(0.0)),
                ));
            }
        });
}
