//! まわり将棋's koma-dice simulation: honest resting poses (equilibrium,
//! the board's edge), no bias between face up and face down, mirrored
//! throws, and the impacts reported for sound.

use crate::mawari_dice::tilted;
use yorimichi::rules::mawari::dice::{KomaDice, Pose, Toss, classify, lying_on};
use yorimichi::rules::mawari::physics::{
    Board, Body, Face, Impact, KomaShape, KomaSize, Quat, V3, World,
};

/// Steps `world` until every koma rests (or 8 simulated seconds).
fn settle(world: &mut World) {
    while !world.settled() && world.time < 8.0 {
        world.step();
    }
}

/// One koma alone on the board, simulated until it rests: its pose.
fn alone(body: Body, seed: u64) -> Pose {
    let shape = KomaShape::new(KomaSize::GOLD);
    let mut world = World::new(shape, Board::SHOGI, vec![body], seed);
    settle(&mut world);
    assert!(world.settled(), "a lone koma comes to rest");
    classify(&world)[0]
}

#[test]
fn a_koma_on_its_shoulder_edge_is_balanced_and_stays_leaning() {
    let shape = KomaShape::new(KomaSize::GOLD);
    let body = lying_on(&shape, Face::Shoulder, 0.0, 0.0);
    let world = World::new(shape.clone(), Board::SHOGI, vec![body], 1);
    assert!(world.balanced_on_board(0));
    assert_eq!(alone(body, 1), Pose::Leaning);
}

#[test]
fn a_koma_tipping_over_is_never_frozen_mid_fall() {
    let shape = KomaShape::new(KomaSize::GOLD);
    // Upright on its base, tilted 30° (half angle 15°): its centre of mass
    // is past the base's edge, so it stands on one edge only and falls.
    let (c, s) = (0.965_925_826, 0.258_819_045);
    let body = tilted(&shape, Face::Base, 0.0, 0.0, c, s);
    let world = World::new(shape.clone(), Board::SHOGI, vec![body], 1);
    assert!(!world.balanced_on_board(0), "on an edge is no equilibrium");
    // It starts at rest, slower than any sleep threshold: only the
    // equilibrium test keeps it from sleeping where it is.
    let pose = alone(body, 1);
    assert!(
        matches!(pose, Pose::FaceUp | Pose::FaceDown),
        "it falls flat, not {pose:?}"
    );
    // On the shoulder edge tilted 25°, past where it balances (about 12°
    // across the koma's thickness, 20° along the edge): it falls off it.
    let (c, s) = (0.976_296_007, 0.216_439_614);
    let side = tilted(&shape, Face::Shoulder, 0.0, 0.0, c, s);
    assert_ne!(alone(side, 2), Pose::Leaning);
}

#[test]
fn a_koma_past_the_boards_edge_falls_off_and_one_over_it_stays() {
    let shape = KomaShape::new(KomaSize::GOLD);
    let edge = Board::SHOGI.half_x;
    // Face up with its centre 0.8 cm past the edge: nothing holds it.
    let mut past = lying_on(&shape, Face::Back, edge + 0.8, 0.0);
    past.position.z += 0.01;
    assert_eq!(alone(past, 1), Pose::OffBoard);
    // Face up hanging 0.6 cm over the edge, its centre on the board: the
    // edge holds it, and it rests.
    let over = lying_on(&shape, Face::Back, edge - 0.7, 0.0);
    let world = World::new(shape.clone(), Board::SHOGI, vec![over], 1);
    assert!(world.balanced_on_board(0));
    assert_eq!(alone(over, 1), Pose::FaceUp);
}

/// The mirror image of a koma in flight: the world reflected x → −x and
/// the koma turned over inside (front ↔ back), which maps the koma's shape
/// onto itself and a koma face up onto one face down.
fn mirrored(shape: &KomaShape, b: &Body) -> Body {
    let q = b.rotation;
    // M·R·M′ with M = diag(−1, 1, 1) and M′ = diag(1, 1, −1), as a
    // quaternion (a half turn about x before, about z after, up to sign).
    let rotation = Quat {
        w: q.y,
        x: q.z,
        y: q.w,
        z: q.x,
    };
    let m = |v: V3| V3::new(-v.x, v.y, v.z);
    // Every corner of the mirrored koma is the mirror of a corner.
    for v in &shape.vertices {
        let flipped = V3::new(v.x, v.y, -v.z);
        let a = m(b.rotation.rotate(*v));
        let c = rotation.rotate(flipped);
        assert!((a - c).length() < 1e-9, "the mirror rotation is wrong");
    }
    Body {
        position: m(b.position),
        rotation,
        velocity: m(b.velocity),
        // A spin is an axial vector: it flips with the reflection.
        spin: V3::new(b.spin.x, -b.spin.y, -b.spin.z),
    }
}

/// Single-koma throws: the first koma of each of `count` natural tosses,
/// simulated alone (and the same mirrored when `mirror`).
fn single_throws(count: u64, first_seed: u64, mirror: bool) -> Vec<Pose> {
    let dice = KomaDice::new();
    (first_seed..first_seed + count)
        .map(|seed| {
            let body = dice.release(&Toss::natural(seed))[(seed % 4) as usize];
            let body = if mirror {
                mirrored(&dice.shape, &body)
            } else {
                body
            };
            let mut world = World::new(dice.shape.clone(), dice.board, vec![body], seed);
            settle(&mut world);
            classify(&world)[0]
        })
        .collect()
}

/// Whether two counts out of `n` differ by more than three standard errors
/// of their difference (multinomial: var(a − b) = n(pa + pb − (pa − pb)²)).
fn differ(a: usize, b: usize, n: usize) -> (bool, f64) {
    let (a, b, n) = (a as f64, b as f64, n as f64);
    let se = (a + b - (a - b) * (a - b) / n).sqrt();
    ((a - b).abs() > 3.0 * se, (a - b) / se)
}

fn count(poses: &[Pose], pose: Pose) -> usize {
    poses.iter().filter(|&&p| p == pose).count()
}

#[test]
fn face_up_and_face_down_come_up_equally_often() {
    // 100 000 koma thrown alone, shared out over the cores (each thread
    // its own seeds, so the result does not depend on how many).
    const KOMA: u64 = 100_000;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let part = KOMA.div_ceil(threads);
    let poses: Vec<Pose> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let from = t * part;
                let n = part.min(KOMA.saturating_sub(from));
                s.spawn(move || single_throws(n, 1_000_000 + from, false))
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a thread of throws"))
            .collect()
    });
    assert_eq!(poses.len(), KOMA as usize);
    let (up, down) = (count(&poses, Pose::FaceUp), count(&poses, Pose::FaceDown));
    let (biased, z) = differ(up, down, poses.len());
    assert!(
        !biased,
        "face up {up}, face down {down}: {z:.1} standard errors apart"
    );
}

#[test]
fn a_mirrored_throw_gives_the_mirrored_outcome() {
    // The same tosses mirrored (front ↔ back): what came up face up
    // before must now come up face down as often, and the edges as often
    // as before. A solver that favours one face (say, the contacts of
    // whichever face it solves last) gives both sets the same bias, and the
    // mirrored set's face-down count falls short of the first's face-up.
    let n = 6_000;
    let plain = single_throws(n, 7, false);
    let mirror = single_throws(n, 7, true);
    for (a, b) in [
        (Pose::FaceUp, Pose::FaceDown),
        (Pose::FaceDown, Pose::FaceUp),
        (Pose::Side, Pose::Side),
        (Pose::Upright, Pose::Upright),
    ] {
        let (x, y) = (count(&plain, a), count(&mirror, b));
        // Two independent samples: the variance of the difference is the
        // sum of both counts' (about x + y for small shares).
        let se = ((x + y) as f64).sqrt().max(1.0);
        let z = (x as f64 - y as f64) / se;
        assert!(z.abs() <= 3.0, "{a:?} {x} vs mirrored {b:?} {y}: {z:.1} SE");
    }
    // And a mirrored throw is a different computation, not a relabelling:
    // some throws end otherwise than their mirror (the motion is chaotic).
    let flip = |p: Pose| match p {
        Pose::FaceUp => Pose::FaceDown,
        Pose::FaceDown => Pose::FaceUp,
        other => other,
    };
    let same = plain
        .iter()
        .zip(&mirror)
        .filter(|&(&p, &m)| flip(p) == m)
        .count();
    assert!(same < plain.len(), "every mirrored throw matched exactly");
}

#[test]
fn a_throw_reports_its_impacts_the_same_every_time() {
    let dice = KomaDice::new();
    for seed in [3, 11, 12] {
        let run = || {
            let mut world = dice.world(&Toss::natural(seed));
            let mut impacts: Vec<Impact> = Vec::new();
            while !world.settled() && world.time < 8.0 {
                world.step();
                impacts.extend(world.take_impacts());
            }
            assert!(world.take_impacts().is_empty(), "taken once");
            (impacts, world.off_board.clone())
        };
        let (impacts, off) = run();
        for (k, &fell) in off.iter().enumerate() {
            if !fell {
                assert!(
                    impacts.iter().any(|i| i.body == k && i.other.is_none()),
                    "seed {seed}: koma {k} never struck the board"
                );
            }
        }
        for i in &impacts {
            assert!(i.impulse > yorimichi::rules::mawari::physics::IMPACT_MIN);
            assert!(i.other.is_none_or(|o| o > i.body && o < 4));
            assert_eq!(i.frame, (i.time * 60.0 + 1e-6) as usize);
        }
        assert!(impacts.windows(2).all(|w| w[0].time <= w[1].time));
        // Bit for bit the same the second time.
        let (again, _) = run();
        assert_eq!(impacts.len(), again.len());
        for (a, b) in impacts.iter().zip(&again) {
            assert_eq!((a.body, a.other, a.frame), (b.body, b.other, b.frame));
            assert_eq!(a.impulse.to_bits(), b.impulse.to_bits());
        }
    }
}
