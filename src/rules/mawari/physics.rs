//! A small rigid-body simulation for the koma-dice of まわり将棋: four 金将
//! tossed onto a shogi board: a flat board of finite size, with no rim, so
//! a koma that slides past its edge falls off.
//!
//! Why not a general physics crate: the throw is part of the rules (its
//! resting poses *are* the dice roll), so it lives beside them with no Bevy
//! in it, runs ten thousand throws in seconds for `yorimichi dice`, and must
//! give bit-identical results on the desktop and in the browser. Everything
//! here is `f64` arithmetic with `+ - * /` and `sqrt` only (all exactly
//! rounded by IEEE 754, which native and wasm32 both follow; Rust never fuses
//! or reorders them), stepped at a fixed rate with a fixed order of work, and
//! randomness comes from [`SplitMix64`]: the same seed and toss give the
//! same throw everywhere.
//!
//! Units: centimetres, grams, seconds. World axes: x across the board, y
//! away from the thrower, z up; the board's surface is z = 0.
//!
//! The method is the usual one for games: semi-implicit Euler, contacts
//! found each step (hull vertices against the board, surface samples of one
//! koma inside another's hull), and sequential impulses with Coulomb
//! friction, restitution and a gentle push out of penetration. Sequential
//! impulses favour whichever contact is solved last, so the contacts are
//! solved in a fresh seeded random order every step: a fixed order (the
//! front face's corners before the back's) made koma land face up more
//! often than face down. Restitution is applied after the contacts are
//! solved (as Box2D v3 does), to every contact that closed faster than
//! `BOUNCE_THRESHOLD` and took an impulse, speculative ones included: given
//! as a target speed to touching contacts only, it was lost whenever a
//! corner came within `MARGIN` of the board a step before it struck (the
//! speculative contact slowed it to the gap's speed first), so a koma
//! tipping slowly onto an edge mostly stopped dead on it instead of
//! rocking off.
//!
//! A koma sleeps (holds still until something touches it) only when it has
//! been slow in both speed and spin for a while *and* is in static
//! equilibrium: resting on the board alone, its centre of mass must lie
//! over the polygon its corners on the board make; one that touches
//! another koma is woken whenever that koma moves. So no koma is frozen
//! while it is still tipping, and a pose is read only from koma at rest.
//!
//! Long because: the step loop, the contact search
//! and the impulse solver share the bodies' private state and its fixed order
//! of work (which keeps the throw bit-identical on every platform); apart,
//! each would need the others' internals.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A vector in the world or in a koma's own frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl V3 {
    pub(crate) const ZERO: V3 = V3::new(0.0, 0.0, 0.0);
    pub(crate) const UP: V3 = V3::new(0.0, 0.0, 1.0);
    pub const fn new(x: f64, y: f64, z: f64) -> Self {
        V3 { x, y, z }
    }
    pub fn dot(self, o: V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    pub fn cross(self, o: V3) -> V3 {
        V3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }
    pub fn length(self) -> f64 {
        self.dot(self).sqrt()
    }
    pub fn normalized(self) -> V3 {
        let l = self.length();
        if l > 0.0 { self * (1.0 / l) } else { self }
    }
}

impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        V3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}
impl AddAssign for V3 {
    fn add_assign(&mut self, o: V3) {
        *self = *self + o;
    }
}
impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}
impl SubAssign for V3 {
    fn sub_assign(&mut self, o: V3) {
        *self = *self - o;
    }
}
impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, s: f64) -> V3 {
        V3::new(self.x * s, self.y * s, self.z * s)
    }
}
impl Neg for V3 {
    type Output = V3;
    fn neg(self) -> V3 {
        V3::new(-self.x, -self.y, -self.z)
    }
}

/// A rotation (unit quaternion).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quat {
    pub w: f64,
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl Quat {
    pub(crate) const IDENTITY: Quat = Quat {
        w: 1.0,
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };
    pub fn normalized(self) -> Quat {
        let l = (self.w * self.w + self.x * self.x + self.y * self.y + self.z * self.z).sqrt();
        Quat {
            w: self.w / l,
            x: self.x / l,
            y: self.y / l,
            z: self.z / l,
        }
    }
    fn conjugate(self) -> Quat {
        Quat {
            w: self.w,
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }
    /// Turns `v` from the body frame into the world.
    pub fn rotate(self, v: V3) -> V3 {
        let u = V3::new(self.x, self.y, self.z);
        let t = u.cross(v) * 2.0;
        v + t * self.w + u.cross(t)
    }
    /// Turns `v` from the world into the body frame.
    pub(crate) fn unrotate(self, v: V3) -> V3 {
        self.conjugate().rotate(v)
    }
    /// A rotation by `half_sin`/`half_cos` of half the angle about `axis`
    /// (a unit vector): built without trigonometry, so callers pass exact
    /// values (e.g. from a rotation between two vectors).
    pub fn from_axis_half(axis: V3, half_cos: f64, half_sin: f64) -> Quat {
        Quat {
            w: half_cos,
            x: axis.x * half_sin,
            y: axis.y * half_sin,
            z: axis.z * half_sin,
        }
    }
    /// The shortest rotation that turns unit vector `from` onto unit `to`.
    pub fn between(from: V3, to: V3) -> Quat {
        let c = from.dot(to);
        if c < -0.999_999 {
            // Opposite: half a turn about any axis across `from`.
            let axis = if from.x.abs() < 0.9 {
                from.cross(V3::new(1.0, 0.0, 0.0))
            } else {
                from.cross(V3::new(0.0, 1.0, 0.0))
            }
            .normalized();
            return Quat::from_axis_half(axis, 0.0, 1.0);
        }
        let axis = from.cross(to);
        Quat {
            w: 1.0 + c,
            x: axis.x,
            y: axis.y,
            z: axis.z,
        }
        .normalized()
    }
    /// This rotation advanced by angular velocity `w` (world) for `dt`.
    fn integrate(self, w: V3, dt: f64) -> Quat {
        let spin = Quat {
            w: 0.0,
            x: w.x,
            y: w.y,
            z: w.z,
        } * self;
        Quat {
            w: self.w + 0.5 * dt * spin.w,
            x: self.x + 0.5 * dt * spin.x,
            y: self.y + 0.5 * dt * spin.y,
            z: self.z + 0.5 * dt * spin.z,
        }
        .normalized()
    }
}

/// The rotation `o` first, then `self`.
impl Mul<Quat> for Quat {
    type Output = Quat;
    fn mul(self, o: Quat) -> Quat {
        Quat {
            w: self.w * o.w - self.x * o.x - self.y * o.y - self.z * o.z,
            x: self.w * o.x + self.x * o.w + self.y * o.z - self.z * o.y,
            y: self.w * o.y - self.x * o.z + self.y * o.w + self.z * o.x,
            z: self.w * o.z + self.x * o.y - self.y * o.x + self.z * o.w,
        }
    }
}

/// A seeded pseudo-random source (SplitMix64): the same numbers on every
/// platform, so a throw is replayed exactly from its seed.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// Uniform in [lo, hi).
    pub(crate) fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    /// A uniformly random rotation (a point on the unit 4-sphere, found by
    /// rejection so that no trigonometry is needed).
    pub fn rotation(&mut self) -> Quat {
        loop {
            let q = Quat {
                w: self.range(-1.0, 1.0),
                x: self.range(-1.0, 1.0),
                y: self.range(-1.0, 1.0),
                z: self.range(-1.0, 1.0),
            };
            let n = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
            if n > 0.01 && n <= 1.0 {
                return q.normalized();
            }
        }
    }
    /// A random vector inside the unit ball.
    pub(crate) fn in_ball(&mut self) -> V3 {
        loop {
            let v = V3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            if v.dot(v) <= 1.0 {
                return v;
            }
        }
    }
}

/// Which face of the koma a plane of its hull is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    /// The written side (金).
    Front,
    /// The blank back (a 金将 has nothing on it).
    Back,
    /// The wide bottom edge: resting on it, the koma stands upright (縦).
    Base,
    /// A long side edge: resting on it, the koma stands on its side (横).
    Side,
    /// A short edge either side of the tip.
    Shoulder,
    /// The chamfer (面取り) along an edge: too narrow to rest on.
    Bevel,
}

/// One plane of the hull: outward `normal`, inside where `normal·p <= offset`.
#[derive(Clone, Copy, Debug)]
pub struct Plane {
    pub normal: V3,
    pub offset: f64,
    pub face: Face,
}

/// The shape and mass of one koma, in its own frame: x across, y from the
/// base towards the tip, z out of the written face; the origin at the
/// centre of mass.
#[derive(Clone, Debug)]
pub struct KomaShape {
    /// The corners: those of the pentagonal slab (base, shoulders, tip;
    /// front and back) cut back by the chamfer along every edge.
    pub vertices: Vec<V3>,
    /// The seven faces of the slab, then the chamfers ([`Face::Bevel`]).
    pub planes: Vec<Plane>,
    /// The faces as vertex loops (outward winding), for drawing.
    pub faces: Vec<(Face, Vec<usize>)>,
    /// Points spread over the surface, tested against other koma's hulls.
    pub samples: Vec<V3>,
    pub mass: f64,
    /// The principal moments' inverses (the axes are the frame's, by the
    /// koma's two mirror symmetries).
    pub inv_inertia: V3,
    /// Farthest vertex from the centre (for quick pair tests).
    pub radius: f64,
    /// The hull's edges, as pairs of vertex indices.
    pub edges: Vec<(usize, usize)>,
}

/// A koma's measurements in centimetres, and its wood's density.
#[derive(Clone, Copy, Debug)]
pub struct KomaSize {
    pub base_width: f64,
    pub shoulder_width: f64,
    pub shoulder_height: f64,
    pub height: f64,
    pub base_thickness: f64,
    pub tip_thickness: f64,
    /// g/cm³ (boxwood, 黄楊: about 0.9).
    pub density: f64,
    /// The chamfer (面取り) along every edge: how far back (cm) it cuts
    /// each of the two faces that meet there.
    pub chamfer: f64,
}

impl KomaSize {
    /// A 金将 of an ordinary set: 2.6 cm across the base, 2.95 cm from base
    /// to tip, 0.8 cm thick at the base and 0.55 cm at the tip, its edges
    /// eased by a chamfer of 0.5 mm (a koma's edges are planed off,
    /// not left sharp).
    pub const GOLD: KomaSize = KomaSize {
        base_width: 2.6,
        shoulder_width: 2.3,
        shoulder_height: 2.15,
        height: 2.95,
        base_thickness: 0.8,
        tip_thickness: 0.55,
        density: 0.9,
        chamfer: CHAMFER_CM,
    };
}

impl KomaShape {
    pub fn new(size: KomaSize) -> KomaShape {
        let s = size;
        let thickness =
            |y: f64| s.base_thickness + (s.tip_thickness - s.base_thickness) * y / s.height;
        let outline = [
            (s.base_width / 2.0, 0.0),
            (s.shoulder_width / 2.0, s.shoulder_height),
            (0.0, s.height),
            (-s.shoulder_width / 2.0, s.shoulder_height),
            (-s.base_width / 2.0, 0.0),
        ];
        let mut raw: Vec<V3> = Vec::with_capacity(10);
        for sign in [1.0, -1.0] {
            for &(x, y) in &outline {
                raw.push(V3::new(x, y, sign * thickness(y) / 2.0));
            }
        }
        // Faces as loops of vertex indices, wound outward.
        let slab: Vec<(Face, Vec<usize>)> = vec![
            (Face::Front, vec![0, 1, 2, 3, 4]),
            (Face::Back, vec![9, 8, 7, 6, 5]),
            (Face::Base, vec![4, 9, 5, 0]),
            (Face::Side, vec![0, 5, 6, 1]),
            (Face::Side, vec![3, 8, 9, 4]),
            (Face::Shoulder, vec![1, 6, 7, 2]),
            (Face::Shoulder, vec![2, 7, 8, 3]),
        ];
        let (raw, faces, planes_raw) = chamfered(&raw, &slab, s.chamfer);
        // Centre of mass and inertia by integrating over a fine grid (done
        // once; the grid is fixed, so the figures are the same everywhere).
        let inside = |p: V3| planes_raw.iter().all(|pl| pl.normal.dot(p) <= pl.offset);
        let n = 48;
        let (lo, hi) = (
            V3::new(-s.base_width / 2.0, 0.0, -s.base_thickness / 2.0),
            V3::new(s.base_width / 2.0, s.height, s.base_thickness / 2.0),
        );
        let cell = V3::new(
            (hi.x - lo.x) / n as f64,
            (hi.y - lo.y) / n as f64,
            (hi.z - lo.z) / n as f64,
        );
        let dv = cell.x * cell.y * cell.z;
        let mut points = Vec::new();
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    let p = V3::new(
                        lo.x + (i as f64 + 0.5) * cell.x,
                        lo.y + (j as f64 + 0.5) * cell.y,
                        lo.z + (k as f64 + 0.5) * cell.z,
                    );
                    if inside(p) {
                        points.push(p);
                    }
                }
            }
        }
        let volume = points.len() as f64 * dv;
        let mut centre = V3::ZERO;
        for &p in &points {
            centre += p;
        }
        centre = centre * (1.0 / points.len() as f64);
        let density = s.density;
        let mut inertia = V3::ZERO;
        for &p in &points {
            let d = p - centre;
            inertia += V3::new(
                d.y * d.y + d.z * d.z,
                d.x * d.x + d.z * d.z,
                d.x * d.x + d.y * d.y,
            ) * (density * dv);
        }
        let vertices: Vec<V3> = raw.iter().map(|&v| v - centre).collect();
        let planes: Vec<Plane> = planes_raw
            .iter()
            .map(|pl| Plane {
                normal: pl.normal,
                offset: pl.offset - pl.normal.dot(centre),
                face: pl.face,
            })
            .collect();
        let samples = surface_samples(&vertices, &faces);
        let edges = edges_of(&faces);
        let radius = vertices.iter().map(|v| v.length()).fold(0.0, f64::max);
        KomaShape {
            vertices,
            planes,
            faces,
            samples,
            mass: volume * density,
            inv_inertia: V3::new(1.0 / inertia.x, 1.0 / inertia.y, 1.0 / inertia.z),
            radius,
            edges,
        }
    }

    /// How far `p` (body frame) is outside the hull: the largest signed
    /// distance to a face plane (negative inside), and that plane.
    pub(crate) fn deepest_face(&self, p: V3) -> (f64, &Plane) {
        let mut best = (f64::NEG_INFINITY, &self.planes[0]);
        for pl in &self.planes {
            let d = pl.normal.dot(p) - pl.offset;
            if d > best.0 {
                best = (d, pl);
            }
        }
        best
    }
}

/// The slab `raw` (corners and faces) with every edge chamfered: cut by a
/// plane halfway between the two faces' that takes `chamfer` off each.
/// Returns the new corners, the faces as loops wound outward (the slab's
/// seven first, then the chamfers) and their planes. Done once, with
/// `+ - * /` and `sqrt` only: the corners are where three planes meet
/// inside all the others, each face's corners sorted around it.
fn chamfered(
    raw: &[V3],
    slab: &[(Face, Vec<usize>)],
    chamfer: f64,
) -> (Vec<V3>, Vec<(Face, Vec<usize>)>, Vec<Plane>) {
    let base = planes_of(raw, slab);
    if chamfer <= 0.0 {
        return (raw.to_vec(), slab.to_vec(), base);
    }
    let mut planes = base.clone();
    for (a, b) in edges_of(slab) {
        let on: Vec<usize> = (0..slab.len())
            .filter(|&f| slab[f].1.contains(&a) && slab[f].1.contains(&b))
            .collect();
        let (n1, n2) = (base[on[0]].normal, base[on[1]].normal);
        let normal = (n1 + n2).normalized();
        // Into face 1, square to the edge, away from face 2.
        let mut inward = n1.cross((raw[b] - raw[a]).normalized()).normalized();
        if inward.dot(n2) > 0.0 {
            inward = -inward;
        }
        planes.push(Plane {
            normal,
            offset: normal.dot(raw[a] + inward * chamfer),
            face: Face::Bevel,
        });
    }
    let mut corners: Vec<V3> = Vec::new();
    let n = planes.len();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let (a, b, c) = (planes[i], planes[j], planes[k]);
                let bc = b.normal.cross(c.normal);
                let det = a.normal.dot(bc);
                if det.abs() < 1e-9 {
                    continue;
                }
                let p = (bc * a.offset
                    + c.normal.cross(a.normal) * b.offset
                    + a.normal.cross(b.normal) * c.offset)
                    * (1.0 / det);
                let outside = planes.iter().any(|pl| pl.normal.dot(p) > pl.offset + 1e-9);
                if !outside && !corners.iter().any(|&v| (v - p).length() < 1e-7) {
                    corners.push(p);
                }
            }
        }
    }
    let mut faces = Vec::new();
    let mut kept = Vec::new();
    for pl in &planes {
        let mut on: Vec<usize> = (0..corners.len())
            .filter(|&v| (pl.normal.dot(corners[v]) - pl.offset).abs() < 1e-7)
            .collect();
        if on.len() < 3 {
            continue;
        }
        let mut centre = V3::ZERO;
        for &v in &on {
            centre += corners[v];
        }
        centre = centre * (1.0 / on.len() as f64);
        // Anticlockwise seen from outside: by half-turn, then by the turn
        // from one corner to the next.
        let r = corners[on[0]] - centre;
        let s = pl.normal.cross(r);
        let key = |v: usize| {
            let q = corners[v] - centre;
            let (x, y) = (r.dot(q), s.dot(q));
            (u8::from(!(y > 0.0 || (y == 0.0 && x > 0.0))), x, y)
        };
        on.sort_by(|&u, &v| {
            let (hu, xu, yu) = key(u);
            let (hv, xv, yv) = key(v);
            hu.cmp(&hv).then_with(|| {
                let turn = xu * yv - yu * xv;
                0.0f64
                    .partial_cmp(&turn)
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
        });
        faces.push((pl.face, on));
        kept.push(*pl);
    }
    (corners, faces, kept)
}

fn planes_of(vertices: &[V3], faces: &[(Face, Vec<usize>)]) -> Vec<Plane> {
    faces
        .iter()
        .map(|(face, loop_)| {
            let a = vertices[loop_[0]];
            let b = vertices[loop_[1]];
            let c = vertices[loop_[2]];
            let normal = (b - a).cross(c - a).normalized();
            Plane {
                normal,
                offset: normal.dot(a),
                face: *face,
            }
        })
        .collect()
}

fn edges_of(faces: &[(Face, Vec<usize>)]) -> Vec<(usize, usize)> {
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (_, l) in faces {
        for i in 0..l.len() {
            let (a, b) = (l[i], l[(i + 1) % l.len()]);
            if !edges.contains(&(a, b)) && !edges.contains(&(b, a)) {
                edges.push((a, b));
            }
        }
    }
    edges
}

/// The corners, points along every edge, and points over the two large
/// faces: enough that a koma lying across another one is felt.
fn surface_samples(vertices: &[V3], faces: &[(Face, Vec<usize>)]) -> Vec<V3> {
    let mut out: Vec<V3> = vertices.to_vec();
    for (a, b) in edges_of(faces) {
        // The chamfers' short edges at the corners add nothing.
        if (vertices[a] - vertices[b]).length() < 0.3 {
            continue;
        }
        for t in [0.25, 0.5, 0.75] {
            out.push(vertices[a] * (1.0 - t) + vertices[b] * t);
        }
    }
    for (face, l) in faces {
        if !matches!(face, Face::Front | Face::Back) {
            continue;
        }
        let mut centre = V3::ZERO;
        for &i in l {
            centre += vertices[i];
        }
        centre = centre * (1.0 / l.len() as f64);
        out.push(centre);
        for &i in l {
            out.push(centre * 0.5 + vertices[i] * 0.5);
        }
    }
    out
}

/// One koma in flight or at rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    pub position: V3,
    pub rotation: Quat,
    pub velocity: V3,
    pub spin: V3,
}

impl Body {
    pub fn to_world(&self, p: V3) -> V3 {
        self.position + self.rotation.rotate(p)
    }
}

/// The board the koma land on: a flat top of finite size and nothing
/// around it.
#[derive(Clone, Copy, Debug)]
pub struct Board {
    /// Half the width (x) and depth (y), in cm.
    pub half_x: f64,
    pub half_y: f64,
    /// Koma against the board.
    pub friction: f64,
    pub restitution: f64,
    /// Koma against koma.
    pub koma_friction: f64,
    pub koma_restitution: f64,
}

impl Board {
    /// A shogi board (将棋盤) of about 33 × 36 cm: wood on wood.
    pub const SHOGI: Board = Board {
        half_x: 16.5,
        half_y: 18.0,
        friction: 0.38,
        restitution: 0.35,
        koma_friction: 0.2,
        koma_restitution: 0.5,
    };

    /// Whether (x, y) lies over the board.
    pub fn covers(&self, x: f64, y: f64) -> bool {
        x.abs() <= self.half_x && y.abs() <= self.half_y
    }
}

/// A koma whose centre has dropped this far (cm) below the board's surface
/// has fallen past its edge.
pub const FELL_OFF: f64 = -1.5;

/// A contact that struck hard enough to be heard: for the sound of a throw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// The koma that struck (for two koma, the lower index).
    pub body: usize,
    /// The other koma, or `None` for the board.
    pub other: Option<usize>,
    /// The normal impulse of the step's contacts between the two, g·cm/s.
    pub impulse: f64,
    /// Simulated seconds since the release, and the 60 Hz frame.
    pub time: f64,
    pub frame: usize,
}

/// Smaller normal impulses (g·cm/s) are not impacts: a koma resting on the
/// board takes about 8 a step from gravity; 40 is a koma of 4 g meeting the
/// board at about 8 cm/s.
pub const IMPACT_MIN: f64 = 40.0;

/// A contact found this step: `a` is pushed along `normal` at `point`;
/// `b` (another koma) the other way, or nothing (the board).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Contact {
    pub a: usize,
    pub b: Option<usize>,
    pub point: V3,
    pub normal: V3,
    /// How far the two overlap (negative: still this far apart).
    pub depth: f64,
    pub friction: f64,
    pub restitution: f64,
}

const GRAVITY: f64 = -981.0;
/// 480 steps a second; 8 of them make one 60 Hz animation frame.
pub(crate) const STEP: f64 = 1.0 / 480.0;
pub(crate) const STEPS_PER_FRAME: usize = 8;
const ITERATIONS: usize = 12;
/// Points this close (cm) to touching are contacts already (speculative
/// contacts), so a resting koma's corners do not flicker in and out.
pub const MARGIN: f64 = 0.03;
/// Penetration allowed before it is pushed out, and how hard.
const SLOP: f64 = 0.005;
const PUSH: f64 = 0.2;
/// Below this approach speed a contact does not bounce (such a bounce
/// would not be seen): without it a koma at rest would never stop hopping.
const BOUNCE_THRESHOLD: f64 = 12.0;
/// The chamfer along a koma's edges (cm).
const CHAMFER_CM: f64 = 0.05;
/// Air drag on spin and speed, per second.
const SPIN_DAMPING: f64 = 0.3;
const LINEAR_DAMPING: f64 = 0.05;
/// A koma this still (speed and spin) for `REST_TIME`, and in static
/// equilibrium, goes to sleep; the throw is over when all four sleep.
const REST_SPEED: f64 = 1.5;
const REST_SPIN: f64 = 0.5;
const REST_TIME: f64 = 0.25;
/// How far (cm) inside its support polygon a koma's centre of mass must lie
/// for it to rest on the board by itself.
const BALANCE: f64 = 0.01;
/// The longest throw simulated, in seconds.
pub const MAX_TIME: f64 = 8.0;

/// The simulation of one throw.
#[derive(Clone, Debug)]
pub struct World {
    pub shape: KomaShape,
    pub board: Board,
    pub bodies: Vec<Body>,
    pub time: f64,
    /// Steps taken.
    pub steps: usize,
    /// Koma that fell past the board's edge (they sleep for good).
    pub off_board: Vec<bool>,
    /// Shuffles the order the contacts are solved in, each step.
    order: SplitMix64,
    impacts: Vec<Impact>,
    /// How long each koma has been nearly still.
    still_for: Vec<f64>,
    /// Koma at rest are put to sleep: they hold still (as if fixed) until
    /// something knocks into them. This is what lets a pile come to rest
    /// instead of trembling for ever under the solver's small errors.
    asleep: Vec<bool>,
    /// Per step: each koma's inverse mass and world inverse inertia (rows),
    /// zero while asleep.
    inv_mass: Vec<f64>,
    inv_inertia: Vec<[V3; 3]>,
}

struct Prepared {
    c: Contact,
    ra: V3,
    rb: V3,
    t1: V3,
    t2: V3,
    mass_n: f64,
    mass_t1: f64,
    mass_t2: f64,
    bias: f64,
    /// The normal speed before the contacts were solved (for restitution).
    vn0: f64,
    jn: f64,
    jt1: f64,
    jt2: f64,
}

impl World {
    /// A world of `bodies` on `board`; `order_seed` seeds the order the
    /// contacts are solved in (part of the throw, like the release).
    pub fn new(shape: KomaShape, board: Board, bodies: Vec<Body>, order_seed: u64) -> World {
        let n = bodies.len();
        World {
            shape,
            board,
            bodies,
            time: 0.0,
            steps: 0,
            off_board: vec![false; n],
            order: SplitMix64(order_seed ^ 0x0DE5_0F5E_ED00_0001),
            impacts: Vec::new(),
            still_for: vec![0.0; n],
            asleep: vec![false; n],
            inv_mass: vec![0.0; n],
            inv_inertia: vec![[V3::ZERO; 3]; n],
        }
    }

    /// Every koma has come to rest (or fallen off the board).
    pub fn settled(&self) -> bool {
        self.asleep.iter().all(|&a| a)
    }

    /// The impacts since the last call, in the order they happened.
    pub fn take_impacts(&mut self) -> Vec<Impact> {
        std::mem::take(&mut self.impacts)
    }

    /// The points where koma `i` touches the board or is within `MARGIN`
    /// of it: its corners over the board and, where it hangs over an edge
    /// of the board, the points where its edges cross that edge.
    fn board_points(&self, i: usize) -> Vec<V3> {
        let b = &self.bodies[i];
        let t = &self.board;
        let world: Vec<V3> = self.shape.vertices.iter().map(|&v| b.to_world(v)).collect();
        let mut out: Vec<V3> = world
            .iter()
            .copied()
            .filter(|p| p.z < MARGIN && t.covers(p.x, p.y))
            .collect();
        let r = self.shape.radius;
        if b.position.x.abs() + r < t.half_x && b.position.y.abs() + r < t.half_y {
            return out;
        }
        for &(ia, ib) in &self.shape.edges {
            let (pa, pb) = (world[ia], world[ib]);
            if pa.z >= MARGIN && pb.z >= MARGIN {
                continue;
            }
            for (along, limit) in [
                (0usize, t.half_x),
                (0, -t.half_x),
                (1, t.half_y),
                (1, -t.half_y),
            ] {
                let (ua, ub) = if along == 0 {
                    (pa.x, pb.x)
                } else {
                    (pa.y, pb.y)
                };
                if (ua - limit) * (ub - limit) >= 0.0 {
                    continue;
                }
                let p = pa + (pb - pa) * ((limit - ua) / (ub - ua));
                if p.z < MARGIN && t.covers(p.x, p.y) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Whether koma `i` stands on the board by itself in static
    /// equilibrium: its centre of mass lies inside the polygon of its
    /// corners touching the board (an edge or a single corner is no
    /// polygon: a koma on one tips over).
    pub fn balanced_on_board(&self, i: usize) -> bool {
        let support = self.board_points(i);
        let c = self.bodies[i].position;
        let mut edges = 0;
        for (k, &a) in support.iter().enumerate() {
            for (m, &e) in support.iter().enumerate() {
                let (dx, dy) = (e.x - a.x, e.y - a.y);
                let len = (dx * dx + dy * dy).sqrt();
                if k == m || len < 1e-6 {
                    continue;
                }
                let left = |p: V3| (dx * (p.y - a.y) - dy * (p.x - a.x)) / len;
                // a→e is an edge of the polygon, wound anticlockwise, when
                // every support point lies on its left (or on it).
                if support.iter().all(|&p| left(p) > -1e-9) {
                    edges += 1;
                    if left(c) < BALANCE {
                        return false;
                    }
                }
            }
        }
        edges >= 3
    }

    /// The koma that koma `i` touches (within the contact margin).
    fn touched_by(&self, contacts: &[Contact], i: usize) -> Vec<usize> {
        contacts
            .iter()
            .filter_map(|c| match c.b {
                Some(b) if c.a == i => Some(b),
                Some(b) if b == i => Some(c.a),
                _ => None,
            })
            .collect()
    }

    /// Puts to sleep the koma that have been still long enough and are in
    /// equilibrium: balanced on the board alone, or held by other koma that
    /// are all still too (they go to sleep together, or one would wake the
    /// other at once).
    fn fall_asleep(&mut self) {
        let ready = |w: &World, i: usize| !w.asleep[i] && w.still_for[i] >= REST_TIME;
        if !(0..self.bodies.len()).any(|i| ready(self, i)) {
            return;
        }
        let contacts = self.find_contacts(false);
        for i in 0..self.bodies.len() {
            if !ready(self, i) {
                continue;
            }
            let others = self.touched_by(&contacts, i);
            let rests = if others.is_empty() {
                self.balanced_on_board(i)
            } else {
                others
                    .iter()
                    .all(|&o| self.asleep[o] || self.still_for[o] >= REST_TIME)
            };
            if rests {
                self.asleep[i] = true;
                self.bodies[i].velocity = V3::ZERO;
                self.bodies[i].spin = V3::ZERO;
            }
        }
    }

    /// The contacts of the current poses (all of them, sleeping koma too).
    pub(crate) fn contacts(&self) -> Vec<Contact> {
        self.find_contacts(false)
    }

    /// The contacts the solver needs: none between two sleeping koma, nor
    /// of a sleeping koma with the board.
    fn find_contacts(&self, skip_sleeping: bool) -> Vec<Contact> {
        let mut out = Vec::new();
        let t = self.board;
        for (i, b) in self.bodies.iter().enumerate() {
            if skip_sleeping && self.asleep[i] {
                continue;
            }
            if self.off_board[i] || b.position.z - self.shape.radius > 0.0 {
                continue;
            }
            // Past the edge there is no board to hold a corner up, but the
            // edge itself holds up a koma hanging over it.
            for p in self.board_points(i) {
                out.push(Contact {
                    a: i,
                    b: None,
                    point: p,
                    normal: V3::UP,
                    depth: -p.z,
                    friction: t.friction,
                    restitution: t.restitution,
                });
            }
        }
        for i in 0..self.bodies.len() {
            for j in i + 1..self.bodies.len() {
                if (skip_sleeping && self.asleep[i] && self.asleep[j])
                    || self.off_board[i]
                    || self.off_board[j]
                {
                    continue;
                }
                let (bi, bj) = (&self.bodies[i], &self.bodies[j]);
                let gap = bi.position - bj.position;
                let reach = 2.0 * self.shape.radius;
                if gap.dot(gap) > reach * reach {
                    continue;
                }
                self.pair_contacts(i, j, &mut out);
                self.pair_contacts(j, i, &mut out);
            }
        }
        out
    }

    /// Samples of koma `a` inside koma `b`: `a` is pushed out through the
    /// nearest face of `b`.
    fn pair_contacts(&self, a: usize, b: usize, out: &mut Vec<Contact>) {
        let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
        for &s in &self.shape.samples {
            let p = ba.to_world(s);
            let local = bb.rotation.unrotate(p - bb.position);
            let (d, plane) = self.shape.deepest_face(local);
            if d < MARGIN {
                out.push(Contact {
                    a,
                    b: Some(b),
                    point: p,
                    normal: bb.rotation.rotate(plane.normal),
                    depth: -d,
                    friction: self.board.koma_friction,
                    restitution: self.board.koma_restitution,
                });
            }
        }
    }

    fn inv_inertia_times(&self, body: usize, v: V3) -> V3 {
        let m = &self.inv_inertia[body];
        V3::new(m[0].dot(v), m[1].dot(v), m[2].dot(v))
    }

    /// This step's inverse mass and world inverse inertia of every koma.
    fn prepare_masses(&mut self) {
        for i in 0..self.bodies.len() {
            if self.asleep[i] {
                self.inv_mass[i] = 0.0;
                self.inv_inertia[i] = [V3::ZERO; 3];
                continue;
            }
            let r = self.bodies[i].rotation;
            let axes = [
                r.rotate(V3::new(1.0, 0.0, 0.0)),
                r.rotate(V3::new(0.0, 1.0, 0.0)),
                r.rotate(V3::new(0.0, 0.0, 1.0)),
            ];
            let inv = self.shape.inv_inertia;
            // R · diag(inv) · Rᵀ, row by row.
            let row = |k: usize| {
                let pick = |a: V3| match k {
                    0 => a.x,
                    1 => a.y,
                    _ => a.z,
                };
                axes[0] * (inv.x * pick(axes[0]))
                    + axes[1] * (inv.y * pick(axes[1]))
                    + axes[2] * (inv.z * pick(axes[2]))
            };
            self.inv_inertia[i] = [row(0), row(1), row(2)];
            self.inv_mass[i] = 1.0 / self.shape.mass;
        }
    }

    fn velocity_at(&self, body: usize, r: V3) -> V3 {
        if self.asleep[body] {
            return V3::ZERO;
        }
        let b = &self.bodies[body];
        b.velocity + b.spin.cross(r)
    }

    fn apply_impulse(&mut self, body: usize, r: V3, j: V3) {
        if self.asleep[body] {
            return;
        }
        let dw = self.inv_inertia_times(body, r.cross(j));
        let inv_mass = self.inv_mass[body];
        let b = &mut self.bodies[body];
        b.velocity += j * inv_mass;
        b.spin += dw;
    }

    /// The inverse effective mass of a contact along `dir`.
    fn inverse_mass_along(&self, c: &Contact, ra: V3, rb: V3, dir: V3) -> f64 {
        let mut k =
            self.inv_mass[c.a] + dir.dot(self.inv_inertia_times(c.a, ra.cross(dir)).cross(ra));
        if let Some(b) = c.b {
            k += self.inv_mass[b] + dir.dot(self.inv_inertia_times(b, rb.cross(dir)).cross(rb));
        }
        k
    }

    fn relative_velocity(&self, c: &Contact, ra: V3, rb: V3) -> V3 {
        let va = self.velocity_at(c.a, ra);
        match c.b {
            Some(b) => va - self.velocity_at(b, rb),
            None => va,
        }
    }

    /// Wakes a sleeping koma that an awake one touches: a koma at rest on
    /// another stays at rest only while the other does.
    fn wake_touched(&mut self, contacts: &[Contact]) {
        for c in contacts {
            let Some(b) = c.b else { continue };
            let sleeper = match (self.asleep[c.a], self.asleep[b]) {
                (true, false) => c.a,
                (false, true) => b,
                _ => continue,
            };
            self.asleep[sleeper] = false;
            self.still_for[sleeper] = 0.0;
        }
    }

    /// One step of `STEP` seconds.
    pub fn step(&mut self) {
        let dt = STEP;
        for (b, &asleep) in self.bodies.iter_mut().zip(&self.asleep) {
            if !asleep {
                b.velocity.z += GRAVITY * dt;
            }
        }
        let contacts = self.find_contacts(true);
        self.wake_touched(&contacts);
        self.prepare_masses();
        let mut prepared: Vec<Prepared> = contacts
            .into_iter()
            .map(|c| {
                let ra = c.point - self.bodies[c.a].position;
                let rb = c.b.map_or(V3::ZERO, |b| c.point - self.bodies[b].position);
                let n = c.normal;
                let helper = if n.x.abs() < 0.6 {
                    V3::new(1.0, 0.0, 0.0)
                } else {
                    V3::new(0.0, 1.0, 0.0)
                };
                let t1 = n.cross(helper).normalized();
                let t2 = n.cross(t1);
                let vn = self.relative_velocity(&c, ra, rb).dot(n);
                // A contact still apart by a hair (speculative) lets the
                // koma close the gap this step but no more; one that
                // touches is pushed out of any penetration. Bounces come
                // after (below).
                let bias = if c.depth < 0.0 {
                    c.depth / dt
                } else {
                    (PUSH / dt * (c.depth - SLOP).max(0.0)).min(30.0)
                };
                Prepared {
                    mass_n: 1.0 / self.inverse_mass_along(&c, ra, rb, n),
                    mass_t1: 1.0 / self.inverse_mass_along(&c, ra, rb, t1),
                    mass_t2: 1.0 / self.inverse_mass_along(&c, ra, rb, t2),
                    bias,
                    vn0: vn,
                    c,
                    ra,
                    rb,
                    t1,
                    t2,
                    jn: 0.0,
                    jt1: 0.0,
                    jt2: 0.0,
                }
            })
            .collect();
        // A fresh order every step (Fisher–Yates from the seeded source),
        // so that no contact has the last word more often than another.
        for k in (1..prepared.len()).rev() {
            let m = (self.order.next_u64() % (k as u64 + 1)) as usize;
            prepared.swap(k, m);
        }
        for _ in 0..ITERATIONS {
            for p in &mut prepared {
                let n = p.c.normal;
                let vrel = self.relative_velocity(&p.c, p.ra, p.rb);
                let vn = vrel.dot(n);
                let new_jn = (p.jn + p.mass_n * (p.bias - vn)).max(0.0);
                let dj = new_jn - p.jn;
                p.jn = new_jn;
                self.push_pair(&p.c, p.ra, p.rb, n * dj);
                let limit = p.c.friction * p.jn;
                for (t, mass, acc) in [(p.t1, p.mass_t1, &mut p.jt1), (p.t2, p.mass_t2, &mut p.jt2)]
                {
                    let vt = self.relative_velocity(&p.c, p.ra, p.rb).dot(t);
                    let new_j = (*acc - mass * vt).clamp(-limit, limit);
                    let dj = new_j - *acc;
                    *acc = new_j;
                    self.push_pair(&p.c, p.ra, p.rb, t * dj);
                }
            }
        }
        // Restitution, once the contacts hold: every contact that closed
        // faster than the threshold and took an impulse (so struck this
        // step, touching or a hair apart) leaves at `restitution` times the
        // speed it came in at.
        for p in &mut prepared {
            if p.vn0 > -BOUNCE_THRESHOLD || p.jn <= 0.0 {
                continue;
            }
            let n = p.c.normal;
            let vn = self.relative_velocity(&p.c, p.ra, p.rb).dot(n);
            let new_jn = (p.jn + p.mass_n * (-p.c.restitution * p.vn0 - vn)).max(0.0);
            let dj = new_jn - p.jn;
            p.jn = new_jn;
            self.push_pair(&p.c, p.ra, p.rb, n * dj);
        }
        self.record_impacts(&prepared);
        let (lin_keep, spin_keep) = (1.0 - LINEAR_DAMPING * dt, 1.0 - SPIN_DAMPING * dt);
        for i in 0..self.bodies.len() {
            if self.asleep[i] {
                continue;
            }
            let b = &mut self.bodies[i];
            b.velocity = b.velocity * lin_keep;
            b.spin = b.spin * spin_keep;
            b.position += b.velocity * dt;
            b.rotation = b.rotation.integrate(b.spin, dt);
            if b.position.z < FELL_OFF {
                // Past the edge and falling: off the board for good.
                self.off_board[i] = true;
                self.asleep[i] = true;
                continue;
            }
            if b.velocity.length() > REST_SPEED || b.spin.length() > REST_SPIN {
                self.still_for[i] = 0.0;
            } else {
                self.still_for[i] += dt;
            }
        }
        self.fall_asleep();
        self.time += dt;
        self.steps += 1;
    }

    /// Notes this step's contacts that struck hard: one impact per koma
    /// and board, or per two koma, with their summed normal impulse.
    fn record_impacts(&mut self, prepared: &[Prepared]) {
        let n = self.bodies.len();
        // Slot `a * (n + 1) + n` is koma `a` on the board, `a * (n + 1) + b`
        // koma `a` against koma `b` (a < b).
        let mut sums = vec![0.0; n * (n + 1)];
        for p in prepared {
            let slot = match p.c.b {
                None => p.c.a * (n + 1) + n,
                Some(b) => p.c.a.min(b) * (n + 1) + p.c.a.max(b),
            };
            sums[slot] += p.jn;
        }
        let frame = (self.steps + 1) / STEPS_PER_FRAME;
        for (slot, &impulse) in sums.iter().enumerate() {
            if impulse > IMPACT_MIN {
                let (body, o) = (slot / (n + 1), slot % (n + 1));
                self.impacts.push(Impact {
                    body,
                    other: (o < n).then_some(o),
                    impulse,
                    time: self.time + STEP,
                    frame,
                });
            }
        }
    }

    fn push_pair(&mut self, c: &Contact, ra: V3, rb: V3, j: V3) {
        self.apply_impulse(c.a, ra, j);
        if let Some(b) = c.b {
            self.apply_impulse(b, rb, -j);
        }
    }
}
