//! The koma-dice as the player sees them: each 金将 drawn from above from
//! the simulation's pose, its visible faces shaded by how they face the
//! light, the 金 written on the front face (foreshortened with it), and a
//! shadow that falls further off the higher the koma flies; and the
//! resting bodies of a picture of four poses, laid side by side (the
//! tutorial's pictures, a replayed throw whose toss was not kept).

use bevy::asset::RenderAssetUsages;
use bevy::ecs::system::SystemParam;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use crate::rules::mawari::dice::{Pose, lying_on};
use crate::rules::mawari::physics::{Face, KomaShape, Quat as PQuat, V3};
use crate::shell::widgets::Fonts;

/// Pixels for one centimetre of the board.
pub const PX_PER_CM: f32 = 16.0;
/// Where the light comes from (upper left, above).
const LIGHT: V3 = V3::new(-0.35, 0.45, 0.82);

/// One of the four thrown koma.
#[derive(Component, Clone, Copy, Debug)]
pub struct DiceKoma(pub usize);

/// The 金 on a thrown koma's front face.
#[derive(Component, Clone, Copy, Debug)]
pub struct DiceFaceText(pub usize);

/// The shadow under a thrown koma.
#[derive(Component, Clone, Copy, Debug)]
pub struct DiceShadow(pub usize);

/// The value label beside a koma at rest.
#[derive(Component, Clone, Copy, Debug)]
pub struct DiceLabel(pub usize);

/// The mesh of each koma (rebuilt as it turns).
#[derive(Resource, Clone, Debug)]
pub struct DiceMeshes {
    pub koma: Vec<Handle<Mesh>>,
    pub shape: KomaShape,
}

/// Spawns the four koma (hidden until a throw), centred on `origin`.
pub fn spawn_dice(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<ColorMaterial>,
    fonts: &Fonts,
    shape: &KomaShape,
    scope: impl Bundle + Clone,
) -> DiceMeshes {
    let material = materials.add(ColorMaterial::default());
    let shadow_mesh = meshes.add(Ellipse::new(1.5 * PX_PER_CM, 1.3 * PX_PER_CM));
    let shadow_material = materials.add(Color::srgba(0.1, 0.05, 0.0, 0.28));
    let mut handles = Vec::new();
    for i in 0..4 {
        let mesh = meshes.add(koma_mesh(shape, PQuat::IDENTITY));
        handles.push(mesh.clone());
        commands.spawn((
            scope.clone(),
            DiceShadow(i),
            Mesh2d(shadow_mesh.clone()),
            MeshMaterial2d(shadow_material.clone()),
            Transform::from_xyz(0.0, 0.0, 30.0),
            Visibility::Hidden,
        ));
        commands.spawn((
            scope.clone(),
            DiceKoma(i),
            Mesh2d(mesh),
            MeshMaterial2d(material.clone()),
            Transform::from_xyz(0.0, 0.0, 40.0),
            Visibility::Hidden,
        ));
        commands.spawn((
            scope.clone(),
            DiceFaceText(i),
            Text2d::new("金"),
            TextFont {
                font: fonts.koma.clone().into(),
                font_size: FontSize::Px(1.45 * PX_PER_CM),
                ..default()
            },
            TextColor(Color::srgb(0.12, 0.08, 0.05)),
            Transform::from_xyz(0.0, 0.0, 60.0),
            Visibility::Hidden,
        ));
        commands.spawn((
            scope.clone(),
            DiceLabel(i),
            Text2d::new(""),
            TextFont {
                font: fonts.ui.clone().into(),
                font_size: FontSize::Px(22.0),
                ..default()
            },
            TextColor(Color::srgb(0.78, 0.1, 0.08)),
            Transform::from_xyz(0.0, 0.0, 90.0),
            Visibility::Hidden,
        ));
    }
    DiceMeshes {
        koma: handles,
        shape: shape.clone(),
    }
}

fn wood(face: Face) -> [f32; 3] {
    match face {
        // The front and back are planed boxwood; the edges show end grain.
        Face::Front | Face::Back => [0.95, 0.82, 0.55],
        _ => [0.80, 0.62, 0.36],
    }
}

/// The koma's visible faces, from above, as a mesh around its centre.
pub fn koma_mesh(shape: &KomaShape, rotation: PQuat) -> Mesh {
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut colors: Vec<[f32; 4]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    let light = LIGHT.normalized();
    // Faces that look up, lowest first, so overlaps draw right.
    let mut faces: Vec<(f64, &(Face, Vec<usize>), V3)> = shape
        .faces
        .iter()
        .zip(&shape.planes)
        .map(|(f, p)| (0.0, f, rotation.rotate(p.normal)))
        .filter(|(_, _, n)| n.z > 0.0)
        .map(|(_, f, n)| {
            let mut height = 0.0;
            for &i in &f.1 {
                height += rotation.rotate(shape.vertices[i]).z;
            }
            (height, f, n)
        })
        .collect();
    faces.sort_by(|a, b| a.0.total_cmp(&b.0));
    // A dark rim first: the outline of the whole koma, a little larger, so
    // a pale koma stands out on the pale board.
    let outline = silhouette(shape, rotation);
    if outline.len() >= 3 {
        let base = positions.len() as u32;
        let n = outline.len() as f32;
        let mid = outline.iter().fold(Vec2::ZERO, |a, p| a + *p) / n;
        for p in &outline {
            let q = mid + (*p - mid) * 1.0 + (*p - mid).normalize_or_zero() * 1.6;
            positions.push([q.x, q.y, -0.5]);
            colors.push([0.30, 0.20, 0.10, 1.0]);
        }
        for k in 1..outline.len() as u32 - 1 {
            indices.extend([base, base + k, base + k + 1]);
        }
    }
    for (_, (face, loop_), normal) in faces {
        let shade = (0.55 + 0.45 * normal.dot(light).max(0.0)) as f32;
        let [r, g, b] = wood(*face);
        let color = [r * shade, g * shade, b * shade, 1.0];
        let base = positions.len() as u32;
        for &i in loop_ {
            let v = rotation.rotate(shape.vertices[i]);
            positions.push([
                v.x as f32 * PX_PER_CM,
                v.y as f32 * PX_PER_CM,
                v.z as f32 * 0.1,
            ]);
            colors.push(color);
        }
        for k in 1..loop_.len() as u32 - 1 {
            indices.extend([base, base + k, base + k + 1]);
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

/// The koma's outline from above (convex hull of its projected corners,
/// anticlockwise), in pixels.
fn silhouette(shape: &KomaShape, rotation: PQuat) -> Vec<Vec2> {
    let mut pts: Vec<Vec2> = shape
        .vertices
        .iter()
        .map(|&v| {
            let w = rotation.rotate(v);
            Vec2::new(w.x as f32, w.y as f32) * PX_PER_CM
        })
        .collect();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    // Andrew's monotone chain: the lower hull, then the upper.
    let mut hull: Vec<Vec2> = Vec::new();
    for &p in &pts {
        while hull.len() >= 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    let lower = hull.len() + 1;
    for &p in pts.iter().rev().skip(1) {
        while hull.len() >= lower && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    hull.pop();
    hull
}

fn to_bevy(q: PQuat) -> Quat {
    Quat::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32)
}

/// Everything that draws the four koma: their meshes, 金, shadows and
/// labels. The play screen's throw and the tutorial's pictures both draw
/// through it.
#[derive(SystemParam)]
pub struct DiceSprites<'w, 's> {
    dice: Option<Res<'w, DiceMeshes>>,
    meshes: ResMut<'w, Assets<Mesh>>,
    koma: Query<
        'w,
        's,
        (
            &'static DiceKoma,
            &'static mut Transform,
            &'static mut Visibility,
        ),
        (
            Without<DiceFaceText>,
            Without<DiceShadow>,
            Without<DiceLabel>,
        ),
    >,
    texts: Query<
        'w,
        's,
        (
            &'static DiceFaceText,
            &'static mut Transform,
            &'static mut Visibility,
        ),
        (Without<DiceKoma>, Without<DiceShadow>, Without<DiceLabel>),
    >,
    shadows: Query<
        'w,
        's,
        (
            &'static DiceShadow,
            &'static mut Transform,
            &'static mut Visibility,
        ),
        (Without<DiceKoma>, Without<DiceFaceText>, Without<DiceLabel>),
    >,
    labels: Query<
        'w,
        's,
        (
            &'static DiceLabel,
            &'static mut Transform,
            &'static mut Visibility,
            &'static mut Text2d,
        ),
        (
            Without<DiceKoma>,
            Without<DiceFaceText>,
            Without<DiceShadow>,
        ),
    >,
}

impl DiceSprites<'_, '_> {
    pub fn shape(&self) -> Option<&KomaShape> {
        self.dice.as_ref().map(|d| &d.shape)
    }

    /// Draws the four koma as one frame of the simulation has them
    /// (`origin` is the board's centre on screen).
    pub fn show(&mut self, frame: &[(V3, PQuat)], origin: Vec2) {
        for (i, (p, q)) in frame.iter().enumerate() {
            self.place(i, *p, *q, origin);
        }
    }

    /// Writes each koma's text above it (`frame` has the koma where they
    /// lie); a label that would cover another goes higher, so that koma
    /// lying close together (one on another) keep each value readable.
    pub fn labels(&mut self, texts: &[&str], frame: &[(V3, PQuat)], origin: Vec2) {
        // A label's box, roughly: wide enough for 重なり at 22 px.
        const LABEL: Vec2 = Vec2::new(70.0, 24.0);
        let mut placed: Vec<Vec2> = Vec::new();
        for (i, (text, (position, _))) in texts.iter().zip(frame).enumerate() {
            let mut at = origin
                + Vec2::new(position.x as f32, position.y as f32) * PX_PER_CM
                + Vec2::new(0.0, 36.0);
            while placed
                .iter()
                .any(|p| (p.x - at.x).abs() < LABEL.x && (p.y - at.y).abs() < LABEL.y)
            {
                at.y += LABEL.y;
            }
            placed.push(at);
            for (l, mut t, mut v, mut shown) in &mut self.labels {
                if l.0 == i {
                    shown.0 = text.to_string();
                    t.translation = at.extend(90.0);
                    *v = Visibility::Inherited;
                }
            }
        }
    }

    pub fn hide_labels(&mut self) {
        for (_, _, mut v, _) in &mut self.labels {
            *v = Visibility::Hidden;
        }
    }

    /// No koma on the board.
    pub fn hide(&mut self) {
        self.hide_labels();
        for (_, _, mut v) in &mut self.koma {
            *v = Visibility::Hidden;
        }
        for (_, _, mut v) in &mut self.texts {
            *v = Visibility::Hidden;
        }
        for (_, _, mut v) in &mut self.shadows {
            *v = Visibility::Hidden;
        }
    }

    /// Puts koma `i` where the simulation has it: its mesh, its 金, its
    /// shadow.
    fn place(&mut self, i: usize, position: V3, rotation: PQuat, origin: Vec2) {
        let Some(dice) = self.dice.as_ref() else {
            return;
        };
        let at = origin + Vec2::new(position.x as f32, position.y as f32) * PX_PER_CM;
        // Higher koma are drawn over lower ones, each with its 金 just
        // above it (so a koma lying on another covers the other's 金), and
        // all under the labels (z 90).
        let z = (40.0 + position.z as f32 * 8.0).min(85.0);
        if let Some(handle) = dice.koma.get(i)
            && let Some(mut mesh) = self.meshes.get_mut(handle)
        {
            *mesh = koma_mesh(&dice.shape, rotation);
        }
        for (k, mut t, mut v) in &mut self.koma {
            if k.0 == i {
                t.translation = at.extend(z);
                *v = Visibility::Inherited;
            }
        }
        for (s, mut t, mut v) in &mut self.shadows {
            if s.0 == i {
                let lift = position.z as f32 * PX_PER_CM * 0.35;
                t.translation = (at + Vec2::new(lift, -lift)).extend(30.0);
                *v = Visibility::Inherited;
            }
        }
        // The 金, on the front face where the front looks up.
        let front = dice
            .shape
            .planes
            .iter()
            .find(|p| p.face == Face::Front)
            .map(|p| p.normal)
            .unwrap_or(V3::new(0.0, 0.0, 1.0));
        let up = rotation.rotate(front);
        // The face's middle, a little towards the base where the 金 is written.
        let centre = rotation.rotate(V3::new(0.0, -0.1, 0.36));
        for (f, mut t, mut v) in &mut self.texts {
            if f.0 == i {
                let p = at + Vec2::new(centre.x as f32, centre.y as f32) * PX_PER_CM;
                t.translation = p.extend(z + 1.0);
                t.rotation = to_bevy(rotation);
                *v = if up.z > 0.15 {
                    Visibility::Inherited
                } else {
                    Visibility::Hidden
                };
            }
        }
    }
}

/// Where the koma of a picture lie (cm from the board's centre).
const PICTURE_X: [f64; 4] = [-7.5, -2.5, 2.5, 7.5];

/// Resting bodies for a picture of four poses, side by side.
pub fn picture_bodies(shape: &KomaShape, poses: &[Pose; 4]) -> Vec<(V3, PQuat)> {
    poses
        .iter()
        .zip(PICTURE_X)
        .map(|(pose, x)| {
            let face = match pose {
                Pose::FaceUp => Face::Back,
                // A koma on another or off the board is never placed by
                // hand (the loader refuses it): a thrown picture shows it.
                Pose::FaceDown | Pose::Stacked | Pose::OffBoard => Face::Front,
                Pose::Side => Face::Side,
                Pose::Upright => Face::Base,
                Pose::Leaning => Face::Shoulder,
            };
            let body = lying_on(shape, face, x, 2.0);
            (body.position, body.rotation)
        })
        .collect()
}
