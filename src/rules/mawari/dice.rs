//! The koma-dice: four 金将 thrown onto the board, simulated by
//! [`super::physics`], and read from the poses they come to rest in.
//!
//! The value of a throw (the source page, 遊び方 6): each 金 face up counts
//! 1, face down 0, a koma standing on its long side (横) 5, standing upright
//! on its base (縦) 10; all four face down count 10, not 0. A koma leaning at
//! a slant (金斜, せんこ立ち) makes the thrower 王将 at once; a koma lying on another
//! (ばば) makes the throw count nothing. The board has no rim: a koma that
//! slides off it is off the board, and the rules say whether that throw is
//! thrown again or counts nothing.

use serde::{Deserialize, Serialize};

use super::physics::{
    Board, Body, Face, Impact, KomaShape, KomaSize, MAX_TIME, Quat, STEPS_PER_FRAME, SplitMix64,
    V3, World,
};

/// How one koma came to rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pose {
    /// The 金 face up: 1.
    FaceUp,
    /// The blank back up: 0.
    FaceDown,
    /// Standing on a long side (横): 5.
    Side,
    /// Standing upright on its base (縦): 10.
    Upright,
    /// Standing by itself on a shoulder edge by the tip, at a slant (金斜,
    /// せんこ立ち).
    Leaning,
    /// Lying or leaning on another koma (ばば).
    Stacked,
    /// Fell past the board's edge.
    OffBoard,
}

impl Pose {
    pub const ALL: [Pose; 7] = [
        Pose::FaceUp,
        Pose::FaceDown,
        Pose::Side,
        Pose::Upright,
        Pose::Leaning,
        Pose::Stacked,
        Pose::OffBoard,
    ];
    /// The name `yorimichi dice` prints.
    pub fn id(self) -> &'static str {
        match self {
            Pose::FaceUp => "face_up",
            Pose::FaceDown => "face_down",
            Pose::Side => "side",
            Pose::Upright => "upright",
            Pose::Leaning => "leaning",
            Pose::Stacked => "stacked",
            Pose::OffBoard => "off_board",
        }
    }
    /// What the koma counts, where it counts a number.
    pub fn count(self) -> Option<u8> {
        match self {
            Pose::FaceUp => Some(1),
            Pose::FaceDown => Some(0),
            Pose::Side => Some(5),
            Pose::Upright => Some(10),
            Pose::Leaning | Pose::Stacked | Pose::OffBoard => None,
        }
    }
}

/// What a throw of the four koma means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ThrowValue {
    /// Move this many squares.
    Move(u8),
    /// せんこ立ち: the thrower becomes 王将 without moving.
    Senko,
    /// ばば: a koma on another. `counted` is what the koma that are not on
    /// another would have counted (for the local rule that moves back
    /// that many).
    Baba { counted: u8 },
    /// A koma fell off the board: thrown again, or nothing (the rules'
    /// `off_board`).
    OffBoard,
}

impl ThrowValue {
    /// The value of four resting poses.
    pub fn of(poses: &[Pose; 4]) -> ThrowValue {
        if poses.contains(&Pose::OffBoard) {
            return ThrowValue::OffBoard;
        }
        if poses.contains(&Pose::Stacked) {
            let counted = poses.iter().filter_map(|p| p.count()).sum();
            return ThrowValue::Baba { counted };
        }
        if poses.contains(&Pose::Leaning) {
            return ThrowValue::Senko;
        }
        if poses.iter().all(|&p| p == Pose::FaceDown) {
            return ThrowValue::Move(10);
        }
        ThrowValue::Move(poses.iter().filter_map(|p| p.count()).sum())
    }
    /// Every move count a throw can give (the source page lists them: 1–8,
    /// 10–13, 15–17, 20–22, 25, 26, 30, 31, 35, 40).
    pub fn possible_moves() -> Vec<u8> {
        let counted = [Pose::FaceUp, Pose::FaceDown, Pose::Side, Pose::Upright];
        let mut out = Vec::new();
        for a in counted {
            for b in counted {
                for c in counted {
                    for d in counted {
                        if let ThrowValue::Move(n) = ThrowValue::of(&[a, b, c, d]) {
                            out.push(n);
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// How the thrower tosses the koma: the direction and speed of the hand
/// over the board (from a drag, or a CPU's natural impulse) and a seed for
/// everything a hand does not control (how the koma leave it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Toss {
    /// Direction across the board, x and y (need not be unit length; a zero
    /// vector throws straight away from the thrower).
    pub dir_x: f64,
    pub dir_y: f64,
    /// Speed of the hand across the board, cm/s (clamped to 10–80: the
    /// koma are let fall from a hand over the board, not flung at it).
    pub speed: f64,
    pub seed: u64,
}

impl Toss {
    pub(crate) const MIN_SPEED: f64 = 10.0;
    pub(crate) const MAX_SPEED: f64 = 80.0;
    /// A natural toss away from the thrower, as a CPU makes it: a little
    /// to either side, at an ordinary speed.
    pub fn natural(seed: u64) -> Toss {
        let mut rng = SplitMix64(seed ^ 0x5EED_C0DE);
        Toss {
            dir_x: rng.range(-0.35, 0.35),
            dir_y: 1.0,
            speed: rng.range(15.0, 50.0),
            seed,
        }
    }
}

/// How high (cm) the hand opens over the board: the lowest and highest.
pub const HAND_HEIGHT: (f64, f64) = (10.0, 18.0);
/// Centre to centre (cm) of two koma side by side in the hand: a koma's
/// farthest corner is 1.9 cm from its centre.
const KOMA_GAP: f64 = 4.4;

/// A throw: the four koma's motion, frame by frame, and how they lie.
#[derive(Clone, Debug)]
pub struct Throw {
    pub toss: Toss,
    /// Each 60 Hz frame: the four koma's position and rotation.
    pub frames: Vec<[(V3, Quat); 4]>,
    pub poses: [Pose; 4],
    pub value: ThrowValue,
    /// Seconds until the koma came to rest.
    pub seconds: f64,
    /// Whether every koma came to rest before `MAX_TIME` (if not, the
    /// poses are read where the koma were then).
    pub settled: bool,
    /// The contacts hard enough to be heard, in order (kept with the
    /// frames: what the animation sounds).
    pub impacts: Vec<Impact>,
}

/// The four koma, the board, and the simulation.
#[derive(Clone, Debug)]
pub struct KomaDice {
    pub shape: KomaShape,
    pub board: Board,
}

impl Default for KomaDice {
    fn default() -> Self {
        KomaDice::new()
    }
}

impl KomaDice {
    pub fn new() -> KomaDice {
        KomaDice {
            shape: KomaShape::new(KomaSize::GOLD),
            board: Board::SHOGI,
        }
    }

    /// The koma as they leave the hand. Players shake the four 金 in a
    /// cupped hand held over the board and open it, so the koma fall from
    /// `HAND_HEIGHT` (10–18 cm) with the hand's speed across the board, a
    /// little spread, and the tumble they had in the hand (a few turns a
    /// second). The hand opens where the koma will land near the middle of
    /// the board, but never beyond the thrower's edge.
    pub fn release(&self, toss: &Toss) -> Vec<Body> {
        let mut rng = SplitMix64(toss.seed);
        let d = V3::new(toss.dir_x, toss.dir_y, 0.0);
        let dir = if d.length() > 1e-9 {
            d.normalized()
        } else {
            V3::new(0.0, 1.0, 0.0)
        };
        let speed = toss.speed.clamp(Toss::MIN_SPEED, Toss::MAX_SPEED);
        let height = rng.range(HAND_HEIGHT.0, HAND_HEIGHT.1);
        // Time to fall `height` from rest: sqrt(2h/g).
        let fall = (2.0 * height / 981.0).sqrt();
        let reach = (speed * fall).min(10.0);
        let hand = V3::new(-dir.x * reach, -dir.y * reach, height);
        let across = V3::new(-dir.y, dir.x, 0.0);
        (0..4)
            .map(|i| {
                // Two by two in the hand, far enough apart that no two
                // overlap however they are turned, one a little above
                // another.
                let (col, row) = ((i % 2) as f64 - 0.5, (i / 2) as f64 - 0.5);
                let offset = across * (col * KOMA_GAP)
                    + dir * (row * KOMA_GAP)
                    + V3::new(0.0, 0.0, i as f64 * 0.5)
                    + rng.in_ball() * 0.2;
                // The opening hand scatters them outwards a little.
                let out = V3::new(offset.x, offset.y, 0.0).normalized();
                let spread = out * rng.range(5.0, 15.0) + rng.in_ball() * 5.0;
                Body {
                    position: hand + offset,
                    rotation: rng.rotation(),
                    velocity: dir * speed + spread + V3::new(0.0, 0.0, rng.range(0.0, 25.0)),
                    spin: rng.in_ball() * rng.range(4.0, 16.0),
                }
            })
            .collect()
    }

    /// The world at the moment of release.
    pub fn world(&self, toss: &Toss) -> World {
        World::new(
            self.shape.clone(),
            self.board,
            self.release(toss),
            toss.seed,
        )
    }

    /// Simulates `toss` until the koma rest (or `MAX_TIME`), keeping every
    /// animation frame when `keep_frames`.
    pub fn throw(&self, toss: Toss, keep_frames: bool) -> Throw {
        let mut world = self.world(&toss);
        let mut frames = Vec::new();
        let snapshot = |w: &World| -> [(V3, Quat); 4] {
            let mut f = [(V3::ZERO, Quat::IDENTITY); 4];
            for (slot, b) in f.iter_mut().zip(&w.bodies) {
                *slot = (b.position, b.rotation);
            }
            f
        };
        if keep_frames {
            frames.push(snapshot(&world));
        }
        let mut steps = 0usize;
        let mut impacts = Vec::new();
        while !world.settled() && world.time < MAX_TIME {
            world.step();
            if keep_frames {
                impacts.extend(world.take_impacts());
            }
            steps += 1;
            if keep_frames && steps.is_multiple_of(STEPS_PER_FRAME) {
                frames.push(snapshot(&world));
            }
        }
        if keep_frames {
            frames.push(snapshot(&world));
        }
        let poses = classify(&world);
        Throw {
            toss,
            frames,
            poses,
            value: ThrowValue::of(&poses),
            seconds: world.time,
            settled: world.settled(),
            impacts,
        }
    }
}

/// How far (the cosine) a koma may be off lying flat on a face and still
/// count as lying on it.
const FLAT: f64 = 0.985;
/// A koma lying on its front or back tilted less than this (the cosine:
/// 45°) is read by that face rather than as leaning.
const PROPPED: f64 = 0.707;
/// A contact from another koma that holds a koma up this much (the
/// normal's upward part) means it lies on that koma.
const HELD_UP: f64 = 0.35;

/// Reads the four resting poses of a finished simulation.
pub fn classify(world: &World) -> [Pose; 4] {
    let contacts = world.contacts();
    let mut poses = [Pose::FaceDown; 4];
    for (i, pose) in poses.iter_mut().enumerate().take(world.bodies.len()) {
        // The push each koma-to-koma contact gives koma `i`, and whether
        // the other koma lies lower (only the upper one of two lies on the
        // other).
        let z = world.bodies[i].position.z;
        let pushes: Vec<(V3, bool)> = contacts
            .iter()
            .filter_map(|c| match c.b {
                Some(b) if c.a == i => Some((c.normal, world.bodies[b].position.z < z)),
                Some(b) if b == i => Some((-c.normal, world.bodies[c.a].position.z < z)),
                _ => None,
            })
            .collect();
        let held_up = pushes.iter().any(|(n, below)| *below && n.z > HELD_UP);
        let touching = !pushes.is_empty();
        let face = resting_face(&world.shape, &world.bodies[i]);
        *pose = if world.off_board[i] {
            Pose::OffBoard
        } else if held_up || (face == Pose::Leaning && touching) {
            // Held up by another koma, or tilted against one: it lies on
            // it. 金斜 is a koma standing at a slant by itself.
            Pose::Stacked
        } else {
            face
        };
    }
    poses
}

/// The pose of a koma that lies on nothing but the board (or leans on a
/// neighbour): which face is down, or leaning.
pub fn resting_face(shape: &KomaShape, body: &Body) -> Pose {
    let (best, face) = nearest_face(shape, body);
    if best < FLAT {
        // Propped up at one end (on another koma) but still lying on its
        // front or back: it reads as the face that looks up. Anything else
        // tilted stands at a slant.
        return match face {
            Face::Back if best > PROPPED => Pose::FaceUp,
            Face::Front if best > PROPPED => Pose::FaceDown,
            _ => Pose::Leaning,
        };
    }
    face_pose(face)
}

/// The face that looks most nearly down, and how nearly (the cosine): one
/// of the slab's seven, never a chamfer between two of them.
fn nearest_face(shape: &KomaShape, body: &Body) -> (f64, Face) {
    let down = body.rotation.unrotate(V3::new(0.0, 0.0, -1.0));
    shape
        .planes
        .iter()
        .filter(|p| p.face != Face::Bevel)
        .map(|p| (p.normal.dot(down), p.face))
        .fold((f64::NEG_INFINITY, Face::Front), |a, b| {
            if b.0 > a.0 { b } else { a }
        })
}

/// The pose of a koma resting on `face`.
fn face_pose(face: Face) -> Pose {
    match face {
        Face::Back => Pose::FaceUp,
        Face::Front => Pose::FaceDown,
        Face::Side => Pose::Side,
        Face::Base => Pose::Upright,
        // Standing on an edge by the tip: 金斜, the slanted stand (a
        // chamfer is never the face nearest down: `nearest_face` skips them).
        Face::Shoulder | Face::Bevel => Pose::Leaning,
    }
}

/// A body at rest on `face` of `shape`, centred at (x, y) on the board:
/// for tests and the tutorial's pictures of each pose.
pub fn lying_on(shape: &KomaShape, face: Face, x: f64, y: f64) -> Body {
    let plane = shape
        .planes
        .iter()
        .find(|p| p.face == face)
        .copied()
        .unwrap_or(shape.planes[0]);
    // Turn the face's outward normal to point straight down.
    let rotation = Quat::between(plane.normal, V3::new(0.0, 0.0, -1.0));
    let lowest = shape
        .vertices
        .iter()
        .map(|&v| rotation.rotate(v).z)
        .fold(f64::INFINITY, f64::min);
    Body {
        position: V3::new(x, y, -lowest),
        rotation,
        velocity: V3::ZERO,
        spin: V3::ZERO,
    }
}

/// Frequencies of poses and throw results over many throws.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Debug, Default)]
pub(crate) struct DiceTable {
    pub throws: u32,
    pub poses: Vec<(Pose, u32)>,
    /// Each result's name (`"1"` … `"40"`, `all_down`, `senko`, `baba`,
    /// `off_board`)
    /// and count, in a fixed order.
    pub results: Vec<(String, u32)>,
    /// The longest simulated throw, in seconds.
    pub longest: f64,
    /// Throws whose koma had not all come to rest by `MAX_TIME`.
    pub unsettled: u32,
}

/// The name of a throw's result in the dice table: its total, or
/// `all_down` (four backs: 10), `senko`, `baba`, `off_board`.
pub fn result_name(poses: &[Pose; 4]) -> String {
    match ThrowValue::of(poses) {
        ThrowValue::Senko => "senko".into(),
        ThrowValue::Baba { .. } => "baba".into(),
        ThrowValue::OffBoard => "off_board".into(),
        ThrowValue::Move(_) if poses.iter().all(|&p| p == Pose::FaceDown) => "all_down".into(),
        ThrowValue::Move(n) => n.to_string(),
    }
}

/// Throws `count` natural tosses from `seed` and counts what came up.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn dice_table(count: u32, seed: u64) -> DiceTable {
    let dice = KomaDice::new();
    let mut rng = SplitMix64(seed);
    let mut poses: Vec<(Pose, u32)> = Pose::ALL.iter().map(|&p| (p, 0)).collect();
    let mut results: Vec<(String, u32)> = ThrowValue::possible_moves()
        .into_iter()
        .map(|n| (n.to_string(), 0))
        .chain(["all_down", "senko", "baba", "off_board"].map(|s| (s.to_string(), 0)))
        .collect();
    let mut longest: f64 = 0.0;
    let mut unsettled = 0;
    for _ in 0..count {
        let t = dice.throw(Toss::natural(rng.next_u64()), false);
        longest = longest.max(t.seconds);
        unsettled += u32::from(!t.settled);
        for p in t.poses {
            if let Some(slot) = poses.iter_mut().find(|(q, _)| *q == p) {
                slot.1 += 1;
            }
        }
        let name = result_name(&t.poses);
        if let Some(slot) = results.iter_mut().find(|(n, _)| *n == name) {
            slot.1 += 1;
        }
    }
    DiceTable {
        throws: count,
        poses,
        results,
        longest,
        unsettled,
    }
}

/// The poses of six fixed throws, as one line: a fingerprint of the whole
/// simulation, compared between the native build (the tests) and the web
/// build (the page's `data-dice`, asked for by `?dice=1`).
pub fn fingerprint() -> String {
    let dice = KomaDice::new();
    (100..106)
        .map(|s| {
            dice.throw(Toss::natural(s), false)
                .poses
                .iter()
                .map(|p| p.id())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" | ")
}
