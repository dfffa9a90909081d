//! まわり将棋's koma-dice: the simulated 金将 (their shape), how a resting
//! throw is read from the poses, and the simulation kept deterministic.

use yorimichi::rules::mawari::dice::{
    KomaDice, Pose, ThrowValue, Toss, classify, fingerprint, lying_on,
};
use yorimichi::rules::mawari::physics::{Board, Body, Face, KomaShape, KomaSize, Quat, V3, World};
use yorimichi::rules::mawari::race::TRACK;

#[test]
fn the_koma_is_a_pentagon_thinner_at_the_tip() {
    let shape = KomaShape::new(KomaSize::GOLD);
    // The slab's seven faces, then a chamfer (面取り) along each of its
    // fifteen edges.
    let faces: Vec<Face> = shape.planes.iter().map(|p| p.face).collect();
    assert_eq!(
        faces[..7],
        [
            Face::Front,
            Face::Back,
            Face::Base,
            Face::Side,
            Face::Side,
            Face::Shoulder,
            Face::Shoulder
        ]
    );
    assert_eq!(faces.len(), 7 + 15);
    assert!(faces[7..].iter().all(|&f| f == Face::Bevel));
    // How thick the koma is across its corners within 1 mm of a height.
    let thickness = |y: f64| {
        let (lo, hi) = shape
            .vertices
            .iter()
            .filter(|v| (v.y - y).abs() < 0.1)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v.z), hi.max(v.z))
            });
        hi - lo
    };
    let tip = shape
        .vertices
        .iter()
        .map(|v| v.y)
        .fold(f64::NEG_INFINITY, f64::max);
    let base = shape
        .vertices
        .iter()
        .map(|v| v.y)
        .fold(f64::INFINITY, f64::min);
    assert!(
        thickness(tip) < thickness(base),
        "the tip is thinner than the base"
    );
    // 2.6 × 2.95 cm of boxwood weighs a few grams.
    assert!(shape.mass > 3.0 && shape.mass < 6.0, "mass {}", shape.mass);
    // The centre of mass is the origin: the vertices' mean lies near it
    // only across (x, z), and is pulled towards the heavy base along y.
    let ys: f64 = shape.vertices.iter().map(|v| v.y).sum::<f64>() / shape.vertices.len() as f64;
    assert!(
        ys > 0.0,
        "the outline's corners lie above the centre of mass"
    );
    // Every vertex is on or inside every face plane.
    for v in &shape.vertices {
        for p in &shape.planes {
            assert!(p.normal.dot(*v) <= p.offset + 1e-9);
        }
    }
}

fn resting(shape: &KomaShape, bodies: Vec<Body>) -> [Pose; 4] {
    classify(&World::new(shape.clone(), Board::SHOGI, bodies, 0))
}

#[test]
fn the_classifier_reads_hand_placed_poses() {
    let shape = KomaShape::new(KomaSize::GOLD);
    let bodies = vec![
        lying_on(&shape, Face::Back, -8.0, 0.0),
        lying_on(&shape, Face::Front, -3.0, 0.0),
        lying_on(&shape, Face::Side, 3.0, 0.0),
        lying_on(&shape, Face::Base, 8.0, 0.0),
    ];
    assert_eq!(
        resting(&shape, bodies),
        [Pose::FaceUp, Pose::FaceDown, Pose::Side, Pose::Upright]
    );
    // On the shoulder edge by the tip: 金斜.
    let bodies = vec![
        lying_on(&shape, Face::Shoulder, -8.0, 0.0),
        lying_on(&shape, Face::Back, -3.0, 5.0),
        lying_on(&shape, Face::Back, 3.0, 5.0),
        lying_on(&shape, Face::Back, 8.0, 5.0),
    ];
    assert_eq!(resting(&shape, bodies)[0], Pose::Leaning);
}

#[test]
fn the_classifier_sees_a_koma_lying_on_another() {
    let shape = KomaShape::new(KomaSize::GOLD);
    let below = lying_on(&shape, Face::Back, 0.0, 0.0);
    let mut above = lying_on(&shape, Face::Front, 0.5, 0.3);
    // Its lowest point on the top face of the one below.
    let top = shape
        .vertices
        .iter()
        .map(|&v| below.to_world(v).z)
        .fold(f64::NEG_INFINITY, f64::max);
    above.position.z += top - 0.01;
    let bodies = vec![
        below,
        above,
        lying_on(&shape, Face::Back, 8.0, 8.0),
        lying_on(&shape, Face::Back, -8.0, 8.0),
    ];
    let poses = resting(&shape, bodies);
    assert_eq!(poses[1], Pose::Stacked);
    // The one underneath still lies face up: only the upper one is on another.
    assert_eq!(poses[0], Pose::FaceUp);
    assert!(matches!(ThrowValue::of(&poses), ThrowValue::Baba { .. }));
}

/// A koma turned `half_cos`/`half_sin` of half an angle about x, resting
/// on the board where its lowest corner touches it.
pub(crate) fn tilted(
    shape: &KomaShape,
    face: Face,
    x: f64,
    y: f64,
    half_cos: f64,
    half_sin: f64,
) -> Body {
    let mut body = lying_on(shape, face, x, y);
    let tilt = Quat::from_axis_half(V3::new(1.0, 0.0, 0.0), half_cos, half_sin);
    body.rotation = (tilt * body.rotation).normalized();
    let lowest = shape
        .vertices
        .iter()
        .map(|&v| body.rotation.rotate(v).z)
        .fold(f64::INFINITY, f64::min);
    body.position.z = -lowest;
    body
}

#[test]
fn a_koma_propped_up_at_one_end_reads_as_the_face_that_looks_up() {
    let shape = KomaShape::new(KomaSize::GOLD);
    // 20° off lying on its back: still face up; 60° off: standing at a slant.
    let (c20, s20) = (0.984_807_753, 0.173_648_178);
    let (c60, s60) = (0.866_025_404, 0.5);
    let koma = |body| yorimichi::rules::mawari::dice::resting_face(&shape, &body);
    assert_eq!(
        koma(tilted(&shape, Face::Back, 0.0, 0.0, c20, s20)),
        Pose::FaceUp
    );
    assert_eq!(
        koma(tilted(&shape, Face::Front, 0.0, 0.0, c20, s20)),
        Pose::FaceDown
    );
    assert_eq!(
        koma(tilted(&shape, Face::Back, 0.0, 0.0, c60, s60)),
        Pose::Leaning
    );
}

#[test]
fn a_throw_is_the_same_for_the_same_seed_and_toss() {
    let dice = KomaDice::new();
    let toss = Toss {
        dir_x: 0.2,
        dir_y: 1.0,
        speed: 90.0,
        seed: 42,
    };
    let a = dice.throw(toss, true);
    let b = dice.throw(toss, true);
    assert_eq!(a.poses, b.poses);
    assert_eq!(a.frames.len(), b.frames.len());
    for (fa, fb) in a.frames.iter().zip(&b.frames) {
        for k in 0..4 {
            assert_eq!(fa[k].0.x.to_bits(), fb[k].0.x.to_bits());
            assert_eq!(fa[k].1.w.to_bits(), fb[k].1.w.to_bits());
        }
    }
    // The frames are the motion: the koma start in the air and end at rest
    // on the board, and without frames the result is the same.
    assert!(a.frames[0].iter().all(|(p, _)| p.z > 3.0));
    assert!(
        a.frames
            .last()
            .is_some_and(|f| f.iter().all(|(p, _)| p.z < 2.0))
    );
    assert_eq!(dice.throw(toss, false).poses, a.poses);
    // The value is read from the poses, and another seed throws otherwise.
    assert_eq!(a.value, ThrowValue::of(&a.poses));
    let others: Vec<[Pose; 4]> = (0..8)
        .map(|s| dice.throw(Toss { seed: s, ..toss }, false).poses)
        .collect();
    assert!(others.iter().any(|p| *p != a.poses));
}

#[test]
fn throws_come_to_rest_on_the_board_or_fall_off_it() {
    let dice = KomaDice::new();
    for seed in 0..40 {
        let t = dice.throw(Toss::natural(seed), true);
        assert!(t.settled, "seed {seed}: not at rest");
        let last = t.frames.last().expect("frames");
        for ((p, _), pose) in last.iter().zip(t.poses) {
            let over = Board::SHOGI.covers(p.x, p.y);
            if pose == Pose::OffBoard {
                assert!(p.z < 0.0, "seed {seed}: off the board yet on it");
            } else {
                assert!(over && p.z > 0.0 && p.z < 3.5, "seed {seed}: {p:?}");
            }
        }
    }
}

/// A golden value: the poses of a few fixed throws. It pins the
/// simulation down exactly, so a change to it (or a platform that computes
/// differently) shows here; the web build's test compares the page's
/// `data-dice` (the same throws, simulated in the browser) with the same
/// file.
#[test]
fn fixed_throws_give_their_recorded_poses() {
    let golden = include_str!("../data/dice_golden.txt").trim();
    assert_eq!(fingerprint(), golden, "the simulation changed");
}

#[test]
fn the_track_is_the_shogi_boards_edge_walked_round() {
    use yorimichi::rules::mawari::track::Track;
    let board = yorimichi::rules::data::board("shogi9").expect("the shogi board");
    let track = Track::around(&board).expect("a track");
    assert_eq!(track.points.len(), TRACK as usize);
    for sq in 0..TRACK {
        let (a, b) = (track.point(sq), track.point(sq + 1));
        assert!(board.is_edge(a));
        assert!(
            board.link(a, b).is_some(),
            "square {sq} and the next are neighbours"
        );
        let corner = board.orthogonal_neighbours(a).count() == 2;
        assert_eq!(corner, sq % 8 == 0, "square {sq}");
    }
    let (_, h) = board.extent();
    assert_eq!(track.point(0), board.at(0, h - 1).expect("corner"));
    assert_eq!(track.point(8), board.at(8, h - 1).expect("corner"));
    // A board that is not 9×9 has no 32-square track.
    let small = yorimichi::rules::board::BoardGraph::grid(5, 5);
    assert!(Track::around(&small).unwrap_err().contains("16 squares"));
}
