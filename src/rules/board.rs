//! The board graph shared by all five games.
//!
//! A board is a set of named points with 2D coordinates, joined by straight
//! *lines* (ordered point sequences). A square grid is just many lines. From
//! the lines we derive the neighbours of every point, the direction of each
//! link, and "the next point along the same line", which sandwich, jump and
//! capture rules need.
//!
//! Boards are data (`levels/boards/*.ron`) and are validated when loaded: a
//! malformed file gives a [`LevelError`] that names the file, the place and the
//! problem.

use std::collections::HashMap;

use serde::Deserialize;

use super::levels::LevelError;

/// Index of a point on a [`BoardGraph`].
pub(crate) type PointId = usize;

/// Whether a link runs along a row/column or diagonally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DirClass {
    Orthogonal,
    Diagonal,
}

impl DirClass {
    fn of(dx: i32, dy: i32) -> Self {
        if dx == 0 || dy == 0 {
            DirClass::Orthogonal
        } else {
            DirClass::Diagonal
        }
    }
}

/// A point of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub name: String,
    pub x: i32,
    pub y: i32,
}

/// One step from a point to a neighbour along one of the board's lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub to: PointId,
    /// Index of the line this link belongs to.
    pub line: usize,
    /// Direction of the step, reduced so that it is the same for every step
    /// that goes the same way (e.g. `(1, 0)` or `(1, -1)`).
    pub dir: (i32, i32),
    pub class: DirClass,
}

/// The shape of a board as written in a level file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Shape {
    /// A `width` × `height` grid of points; rows and columns are lines, and
    /// with `diagonals` every diagonal is a line too.
    Grid {
        width: u32,
        height: u32,
        #[serde(default)]
        diagonals: bool,
        #[serde(default)]
        naming: Naming,
    },
    /// Explicit points `(name, x, y)` and lines (lists of point names).
    Points {
        points: Vec<(String, i32, i32)>,
        lines: Vec<Vec<String>>,
    },
}

/// How grid points are named.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
pub enum Naming {
    /// Shogi style from the bottom player's view: files numbered right to
    /// left (`9` … `1`), ranks top to bottom (`一` … ), e.g. `7六`.
    #[default]
    Shogi,
    /// Chess-like: columns `a`, `b`, … left to right, rows `1`, `2`, …
    /// bottom to top, e.g. `c4`.
    Algebraic,
}

/// A board level file: `levels/boards/<name>.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    pub name: String,
    pub shape: Shape,
}

/// A validated board.
#[derive(Clone, Debug)]
pub struct BoardGraph {
    name: String,
    points: Vec<Point>,
    lines: Vec<Vec<PointId>>,
    links: Vec<Vec<Link>>,
    by_name: HashMap<String, PointId>,
    by_coord: HashMap<(i32, i32), PointId>,
    width: i32,
    height: i32,
}

const KANJI_RANKS: [&str; 12] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
];

fn grid_point_name(naming: Naming, x: u32, y: u32, width: u32, height: u32) -> String {
    match naming {
        Naming::Shogi => {
            let file = width - x;
            let rank = KANJI_RANKS
                .get(y as usize)
                .map(|s| s.to_string())
                .unwrap_or_else(|| (y + 1).to_string());
            format!("{file}{rank}")
        }
        Naming::Algebraic => {
            let column = char::from(b'a' + (x as u8 % 26));
            format!("{column}{}", height - y)
        }
    }
}

impl BoardGraph {
    /// Parses and validates a board file. `file` is only used in messages.
    pub fn from_ron(file: &str, text: &str) -> Result<Self, LevelError> {
        let spec: BoardSpec = ron::from_str(text).map_err(|e| LevelError::parse(file, &e))?;
        Self::from_spec(file, &spec)
    }

    /// A plain grid (rows and columns as lines), named in shogi style.
    pub fn grid(width: u32, height: u32) -> Self {
        let spec = BoardSpec {
            name: format!("grid{width}x{height}"),
            shape: Shape::Grid {
                width,
                height,
                diagonals: false,
                naming: Naming::Shogi,
            },
        };
        Self::from_spec("<built-in grid>", &spec).expect("a plain grid is always valid")
    }

    pub(crate) fn from_spec(file: &str, spec: &BoardSpec) -> Result<Self, LevelError> {
        match &spec.shape {
            Shape::Grid {
                width,
                height,
                diagonals,
                naming,
            } => {
                if *width == 0 || *height == 0 || *width > 26 || *height > 26 {
                    return Err(LevelError::new(
                        file,
                        "shape",
                        format!(
                            "a grid must be 1 to 26 points wide and high, not {width}×{height}"
                        ),
                    ));
                }
                let (w, h) = (*width as i32, *height as i32);
                let mut points = Vec::new();
                for y in 0..*height {
                    for x in 0..*width {
                        let name = grid_point_name(*naming, x, y, *width, *height);
                        points.push((name, x as i32, y as i32));
                    }
                }
                let name_at = |x: i32, y: i32| points[(y * w + x) as usize].0.clone();
                let mut lines: Vec<Vec<String>> = Vec::new();
                for y in 0..h {
                    lines.push((0..w).map(|x| name_at(x, y)).collect());
                }
                for x in 0..w {
                    lines.push((0..h).map(|y| name_at(x, y)).collect());
                }
                if *diagonals {
                    for (dx, starts) in [
                        (1, diagonal_starts(w, h, 1)),
                        (-1, diagonal_starts(w, h, -1)),
                    ] {
                        for (sx, sy) in starts {
                            let mut line = Vec::new();
                            let (mut x, mut y) = (sx, sy);
                            while x >= 0 && x < w && y < h {
                                line.push(name_at(x, y));
                                x += dx;
                                y += 1;
                            }
                            if line.len() >= 2 {
                                lines.push(line);
                            }
                        }
                    }
                }
                Self::build(file, &spec.name, &points, &lines)
            }
            Shape::Points { points, lines } => Self::build(file, &spec.name, points, lines),
        }
    }

    fn build(
        file: &str,
        name: &str,
        point_specs: &[(String, i32, i32)],
        line_specs: &[Vec<String>],
    ) -> Result<Self, LevelError> {
        if point_specs.is_empty() {
            return Err(LevelError::new(file, "points", "the board has no points"));
        }
        let mut by_name = HashMap::new();
        let mut by_coord = HashMap::new();
        let mut points = Vec::with_capacity(point_specs.len());
        for (i, (pname, x, y)) in point_specs.iter().enumerate() {
            let place = format!("points[{i}] \"{pname}\"");
            if pname.is_empty() {
                return Err(LevelError::new(file, &place, "a point needs a name"));
            }
            if by_name.insert(pname.clone(), i).is_some() {
                return Err(LevelError::new(file, &place, "duplicate point name"));
            }
            if let Some(other) = by_coord.insert((*x, *y), i) {
                return Err(LevelError::new(
                    file,
                    &place,
                    format!(
                        "is at ({x}, {y}), where \"{}\" already is",
                        point_specs[other].0
                    ),
                ));
            }
            points.push(Point {
                name: pname.clone(),
                x: *x,
                y: *y,
            });
        }

        let mut lines = Vec::with_capacity(line_specs.len());
        let mut links: Vec<Vec<Link>> = vec![Vec::new(); points.len()];
        for (li, line) in line_specs.iter().enumerate() {
            let place = format!("lines[{li}]");
            if line.len() < 2 {
                return Err(LevelError::new(
                    file,
                    &place,
                    "a line needs at least two points",
                ));
            }
            let mut ids = Vec::with_capacity(line.len());
            for (pi, pname) in line.iter().enumerate() {
                match by_name.get(pname) {
                    Some(&id) => {
                        if ids.contains(&id) {
                            return Err(LevelError::new(
                                file,
                                &format!("{place}[{pi}]"),
                                format!("\"{pname}\" appears twice in the same line"),
                            ));
                        }
                        ids.push(id)
                    }
                    None => {
                        return Err(LevelError::new(
                            file,
                            &format!("{place}[{pi}]"),
                            format!("unknown point \"{pname}\""),
                        ));
                    }
                }
            }
            let first_dir = reduced(
                points[ids[1]].x - points[ids[0]].x,
                points[ids[1]].y - points[ids[0]].y,
            );
            if first_dir == (0, 0) {
                return Err(LevelError::new(
                    file,
                    &place,
                    "two points of the line coincide",
                ));
            }
            for w in ids.windows(2) {
                let d = reduced(
                    points[w[1]].x - points[w[0]].x,
                    points[w[1]].y - points[w[0]].y,
                );
                if d != first_dir {
                    return Err(LevelError::new(
                        file,
                        &place,
                        format!(
                            "the line bends at \"{}\": a line must run straight",
                            points[w[0]].name
                        ),
                    ));
                }
            }
            for w in ids.windows(2) {
                let (a, b) = (w[0], w[1]);
                let d = first_dir;
                if links[a].iter().any(|l| l.to == b) {
                    return Err(LevelError::new(
                        file,
                        &place,
                        format!(
                            "the link \"{}\"–\"{}\" is already part of another line",
                            points[a].name, points[b].name
                        ),
                    ));
                }
                links[a].push(Link {
                    to: b,
                    line: li,
                    dir: d,
                    class: DirClass::of(d.0, d.1),
                });
                links[b].push(Link {
                    to: a,
                    line: li,
                    dir: (-d.0, -d.1),
                    class: DirClass::of(d.0, d.1),
                });
            }
            lines.push(ids);
        }

        // Every point must be reachable from every other one.
        if points.len() > 1 {
            let mut seen = vec![false; points.len()];
            let mut stack = vec![0];
            seen[0] = true;
            while let Some(p) = stack.pop() {
                for l in &links[p] {
                    if !seen[l.to] {
                        seen[l.to] = true;
                        stack.push(l.to);
                    }
                }
            }
            if let Some(lost) = seen.iter().position(|s| !s) {
                return Err(LevelError::new(
                    file,
                    &format!("points[{lost}] \"{}\"", points[lost].name),
                    "the point is not connected to the rest of the board",
                ));
            }
        }

        let width = points.iter().map(|p| p.x).max().unwrap_or(0) + 1;
        let height = points.iter().map(|p| p.y).max().unwrap_or(0) + 1;
        Ok(BoardGraph {
            name: name.to_string(),
            points,
            lines,
            links,
            by_name,
            by_coord,
            width,
            height,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn len(&self) -> usize {
        self.points.len()
    }
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
    pub fn point(&self, id: PointId) -> &Point {
        &self.points[id]
    }
    pub fn points(&self) -> &[Point] {
        &self.points
    }
    pub fn lines(&self) -> &[Vec<PointId>] {
        &self.lines
    }
    /// Bounding box size in coordinate units (max + 1).
    pub fn extent(&self) -> (i32, i32) {
        (self.width, self.height)
    }
    pub fn find(&self, name: &str) -> Option<PointId> {
        self.by_name.get(name).copied()
    }
    pub fn at(&self, x: i32, y: i32) -> Option<PointId> {
        self.by_coord.get(&(x, y)).copied()
    }
    /// The point one coordinate step away, whether or not a line joins them
    /// (used by rules that look along geometric directions, like diagonal
    /// sandwiches on a square board).
    pub fn offset(&self, p: PointId, dx: i32, dy: i32) -> Option<PointId> {
        let pt = &self.points[p];
        self.at(pt.x + dx, pt.y + dy)
    }
    /// The links leaving `p`.
    pub fn links(&self, p: PointId) -> &[Link] {
        &self.links[p]
    }
    pub fn neighbours(&self, p: PointId) -> impl Iterator<Item = PointId> + '_ {
        self.links[p].iter().map(|l| l.to)
    }
    pub fn orthogonal_neighbours(&self, p: PointId) -> impl Iterator<Item = PointId> + '_ {
        self.links[p]
            .iter()
            .filter(|l| l.class == DirClass::Orthogonal)
            .map(|l| l.to)
    }
    /// The link from `from` to `to`, if they are neighbours.
    pub fn link(&self, from: PointId, to: PointId) -> Option<&Link> {
        self.links[from].iter().find(|l| l.to == to)
    }
    /// Continuing straight from `from` through `via`: the next point on the
    /// same line, if the line goes on.
    pub fn next_along(&self, from: PointId, via: PointId) -> Option<PointId> {
        let link = self.link(from, via)?;
        self.links[via]
            .iter()
            .find(|l| l.line == link.line && l.dir == link.dir)
            .map(|l| l.to)
    }
    /// All points from `from` (exclusive) along the line through the link
    /// `first`, until the line ends.
    pub fn ray(&self, from: PointId, first: &Link) -> Vec<PointId> {
        let mut out = vec![first.to];
        let mut prev = from;
        let mut cur = first.to;
        while let Some(next) = self.next_along(prev, cur) {
            out.push(next);
            prev = cur;
            cur = next;
        }
        out
    }
    /// Reads a diagram of the board (tutorials, tests, bug reports): one row
    /// per y, top first, one character per x: ` ` where there is no point,
    /// `.` for an empty point, or one of `marks`. Returns every marked point
    /// with its mark, in reading order.
    pub(crate) fn read_diagram(
        &self,
        rows: &[&str],
        marks: &str,
    ) -> Result<Vec<(PointId, char)>, String> {
        let (w, h) = self.extent();
        if rows.len() != h as usize {
            return Err(format!("a diagram needs {h} rows, found {}", rows.len()));
        }
        let mut out = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != w as usize {
                return Err(format!(
                    "row {} needs {w} characters, found {}",
                    y + 1,
                    cells.len()
                ));
            }
            for (x, &c) in cells.iter().enumerate() {
                let place = format!("row {}, column {}", y + 1, x + 1);
                match (c, self.at(x as i32, y as i32)) {
                    (' ', None) => {}
                    (' ', Some(_)) => {
                        return Err(format!("{place}: a point of the board is left blank"));
                    }
                    (_, None) => return Err(format!("{place}: '{c}' is off the board")),
                    ('.', Some(_)) => {}
                    (m, Some(p)) if marks.contains(m) => out.push((p, m)),
                    (other, Some(_)) => {
                        let known: Vec<String> = std::iter::once('.')
                            .chain(marks.chars())
                            .map(String::from)
                            .collect();
                        return Err(format!(
                            "{place}: unknown mark '{other}' (use {})",
                            known.join(" ")
                        ));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Writes a diagram in the form [`BoardGraph::read_diagram`] reads;
    /// `mark` gives each point's character.
    pub(crate) fn write_diagram(&self, mark: impl Fn(PointId) -> char) -> Vec<String> {
        let (w, h) = self.extent();
        (0..h)
            .map(|y| (0..w).map(|x| self.at(x, y).map_or(' ', &mark)).collect())
            .collect()
    }

    /// Whether the point lies on the outer edge of a grid-like board: it has
    /// fewer orthogonal neighbours than an inner point (4).
    pub fn is_edge(&self, p: PointId) -> bool {
        self.orthogonal_neighbours(p).count() < 4
    }
}

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

fn reduced(dx: i32, dy: i32) -> (i32, i32) {
    let g = gcd(dx, dy);
    if g == 0 { (0, 0) } else { (dx / g, dy / g) }
}

/// Starting points of the diagonals of a grid that run with step `(dx, 1)`.
fn diagonal_starts(w: i32, h: i32, dx: i32) -> Vec<(i32, i32)> {
    let mut starts: Vec<(i32, i32)> = (0..w).map(|x| (x, 0)).collect();
    let side_x = if dx > 0 { 0 } else { w - 1 };
    starts.extend((1..h).map(|y| (side_x, y)));
    starts
}
