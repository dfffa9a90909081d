//! The shared board graph: grids, lines, neighbours, "next along a line",
//! and every validation error of a board file.

use yorimichi::rules::board::{BoardGraph, DirClass};
use yorimichi::rules::data;

#[test]
fn shogi9_is_a_named_9x9_grid() {
    let b = data::board("shogi9").expect("shogi9 loads");
    assert_eq!(b.len(), 81);
    assert_eq!(b.lines().len(), 18);
    assert_eq!(b.point(0).name, "9一");
    assert_eq!(b.point(80).name, "1九");
    assert_eq!(b.find("5五"), b.at(4, 4));
    // A corner has two neighbours, an edge point three, an inner point four.
    assert_eq!(b.neighbours(0).count(), 2);
    assert_eq!(b.neighbours(4).count(), 3);
    assert_eq!(b.neighbours(40).count(), 4);
    assert!(b.is_edge(4) && !b.is_edge(40));
    assert!(b.links(40).iter().all(|l| l.class == DirClass::Orthogonal));
}

#[test]
fn next_along_continues_straight_and_stops_at_the_end() {
    let b = BoardGraph::grid(9, 9);
    let p = |x, y| b.at(x, y).unwrap();
    assert_eq!(b.next_along(p(2, 2), p(3, 2)), Some(p(4, 2)));
    assert_eq!(b.next_along(p(3, 2), p(2, 2)), Some(p(1, 2)));
    assert_eq!(
        b.next_along(p(4, 1), p(4, 0)),
        None,
        "the line ends at the edge"
    );
    assert_eq!(b.next_along(p(0, 0), p(2, 2)), None, "not neighbours");
    let link = *b.link(p(4, 4), p(4, 3)).unwrap();
    assert_eq!(
        b.ray(p(4, 4), &link),
        vec![p(4, 3), p(4, 2), p(4, 1), p(4, 0)]
    );
}

#[test]
fn grid_diagonals_are_lines_when_asked_for() {
    let spec = r#"BoardSpec(name: "d", shape: Grid(width: 3, height: 3, diagonals: true, naming: Algebraic))"#;
    let b = BoardGraph::from_ron("d.ron", spec).unwrap();
    let c = b.find("b2").unwrap();
    assert_eq!(b.neighbours(c).count(), 8);
    assert_eq!(b.next_along(b.find("a3").unwrap(), c), b.find("c1"));
    assert_eq!(
        b.link(c, b.find("c3").unwrap()).unwrap().class,
        DirClass::Diagonal
    );
}

fn error_of(text: &str) -> String {
    BoardGraph::from_ron("levels/boards/bad.ron", text)
        .expect_err("the board must be refused")
        .to_string()
}

#[test]
fn unknown_point_in_a_line_is_named() {
    let e = error_of(
        r#"BoardSpec(name: "x", shape: Points(points: [("a", 0, 0), ("b", 1, 0)], lines: [["a", "c"]]))"#,
    );
    assert!(e.starts_with("levels/boards/bad.ron: lines[0][1]"), "{e}");
    assert!(e.contains("unknown point \"c\""), "{e}");
}

#[test]
fn duplicate_names_are_refused() {
    let e = error_of(
        r#"BoardSpec(name: "x", shape: Points(points: [("a", 0, 0), ("a", 1, 0)], lines: [["a", "a"]]))"#,
    );
    assert!(
        e.contains("points[1] \"a\"") && e.contains("duplicate point name"),
        "{e}"
    );
}

#[test]
fn a_bending_line_is_refused() {
    let e = error_of(
        r#"BoardSpec(name: "x", shape: Points(points: [("a", 0, 0), ("b", 1, 0), ("c", 1, 1)], lines: [["a", "b", "c"]]))"#,
    );
    assert!(
        e.contains("lines[0]") && e.contains("bends at \"b\""),
        "{e}"
    );
}

#[test]
fn a_disconnected_point_is_refused() {
    let e = error_of(
        r#"BoardSpec(name: "x", shape: Points(points: [("a", 0, 0), ("b", 1, 0), ("z", 5, 5)], lines: [["a", "b"]]))"#,
    );
    assert!(
        e.contains("points[2] \"z\"") && e.contains("not connected"),
        "{e}"
    );
}

#[test]
fn syntax_errors_give_line_and_column() {
    let e = error_of("BoardSpec(name: \"x\",\n  shape: Grid(width: nine))");
    assert!(
        e.starts_with("levels/boards/bad.ron: line 2, column"),
        "{e}"
    );
}

#[test]
fn every_board_file_loads() {
    for f in data::BOARD_FILES {
        BoardGraph::from_ron(f.path, f.text).unwrap_or_else(|e| panic!("{e}"));
    }
}

fn links(b: &BoardGraph) -> usize {
    (0..b.len()).map(|p| b.neighbours(p).count()).sum::<usize>() / 2
}

#[test]
fn musashi33_has_the_setchin_and_its_capture_lines() {
    let b = data::board("musashi33").unwrap();
    assert_eq!(b.len(), 33);
    assert_eq!(links(&b), 72);
    let p = |x, y| b.at(x, y).unwrap();
    // The diamond's sides run straight through the apex (4,2) into the
    // triangle's sides, and the middle row runs on to the base.
    assert_eq!(b.next_along(p(3, 1), p(4, 2)), Some(p(5, 3)));
    assert_eq!(b.next_along(p(4, 2), p(5, 3)), Some(p(6, 4)));
    assert_eq!(b.next_along(p(3, 3), p(4, 2)), Some(p(5, 1)));
    assert_eq!(b.next_along(p(3, 2), p(4, 2)), Some(p(5, 2)));
    assert_eq!(b.next_along(p(4, 2), p(5, 2)), Some(p(6, 2)));
    assert_eq!(b.next_along(p(5, 1), p(5, 2)), Some(p(5, 3)));
    // Two-point segments: nothing beyond.
    assert_eq!(b.next_along(p(5, 1), p(6, 1)), None);
    assert_eq!(b.next_along(p(5, 3), p(6, 2)), None);
    // A bend is not a line: (4,1)→(4,2) does not continue into the triangle.
    assert_eq!(b.next_along(p(4, 1), p(4, 2)), Some(p(4, 3)));
    for (x, y) in [(4, 0), (4, 1), (4, 3), (4, 4)] {
        assert!(
            b.neighbours(p(x, y)).all(|q| b.point(q).x <= 4),
            "({x},{y}) has no link into the 雪隠"
        );
    }
    // Diagonals only where x + y is even.
    assert_eq!(b.neighbours(p(1, 1)).count(), 8);
    assert_eq!(b.neighbours(p(1, 2)).count(), 4);
    assert_eq!(b.neighbours(p(4, 2)).count(), 3 + 2 + 3);
}

#[test]
fn musashi25_is_the_square_alone() {
    let b = data::board("musashi25").unwrap();
    assert_eq!(b.len(), 25);
    assert_eq!(links(&b), 56);
    let p = |x, y| b.at(x, y).unwrap();
    assert_eq!(b.next_along(p(3, 1), p(4, 2)), None);
}

#[test]
fn the_cross_boards() {
    let plain = data::board("cross33").unwrap();
    assert_eq!(plain.len(), 33);
    assert_eq!(links(&plain), 52);
    let p = |b: &BoardGraph, x, y| {
        b.at(x, y)
            .unwrap_or_else(|| panic!("({x},{y}) is not on {}", b.name()))
    };
    assert!(plain.at(0, 0).is_none() && plain.at(1, 5).is_none());
    assert_eq!(plain.neighbours(p(&plain, 3, 3)).count(), 4);
    assert_eq!(
        plain.next_along(p(&plain, 1, 3), p(&plain, 2, 3)),
        Some(p(&plain, 3, 3))
    );
    let diag = data::board("cross33_diagonal").unwrap();
    assert_eq!(diag.len(), 33);
    assert_eq!(
        diag.neighbours(p(&diag, 3, 3)).count(),
        8,
        "x + y even: diagonals"
    );
    assert_eq!(
        diag.neighbours(p(&diag, 3, 2)).count(),
        4,
        "x + y odd: none"
    );
    assert_eq!(
        diag.next_along(p(&diag, 2, 2), p(&diag, 3, 3)),
        Some(p(&diag, 4, 4))
    );
    // (2,4) has three diagonal neighbours: (1,5) is off the board.
    assert!(diag.at(1, 5).is_none());
    assert_eq!(diag.neighbours(p(&diag, 2, 4)).count(), 4 + 3);
}

#[test]
fn the_board_view_maps_points_to_the_screen_and_back() {
    use bevy::math::Vec2;
    use yorimichi::games::board_view::BoardView;
    let b = data::board("shogi9").unwrap();
    for flipped in [false, true] {
        let view = BoardView::new(&b, Vec2::new(-190.0, 0.0), 64.0, flipped);
        for p in 0..b.len() {
            let w = view.world(&b, p);
            assert_eq!(view.point_at(&b, w), Some(p));
            assert_eq!(
                view.point_at(&b, w + Vec2::new(20.0, -20.0)),
                Some(p),
                "a click inside the square"
            );
        }
        // 先手's back rank is at the bottom unless the board is turned round.
        let bottom_left = view.world(&b, b.find("9九").unwrap());
        assert_eq!(bottom_left.y < 0.0, !flipped);
        assert_eq!(
            view.point_at(&b, Vec2::new(400.0, 0.0)),
            None,
            "off the board"
        );
    }
}
