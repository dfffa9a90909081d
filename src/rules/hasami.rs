//! はさみ将棋 (Hasami Shogi): every piece moves like a rook; a move captures the
//! enemy pieces it sandwiches (in a row, in several directions at once),
//! and pieces at the corner or edge (or, by option, anywhere) are captured
//! by enclosing them.

use serde::{Deserialize, Serialize};

use super::board::{BoardGraph, DirClass, PointId};
use super::game::{EndReason, Game, Outcome, Side, zobrist};

pub(crate) const SIZE: usize = 9;
pub(crate) const CELLS: usize = SIZE * SIZE;
pub(crate) const PIECES_PER_SIDE: u8 = 9;

/// Which pieces can be taken by closing every way out (囲んで取れる駒).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Enclosure {
    /// 隅の1枚だけ: only a single piece in a corner.
    Corner,
    /// 盤の端の駒: a piece or connected group touching the edge.
    Edge,
    /// 盤のどこでも: any piece or connected group.
    Anywhere,
}

/// The rule options (a preset, or 自分で決める).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HasamiRules {
    /// Captures needed to win: 4, 5, 7, or 8 (= the opponent down to 1).
    pub capture_target: u8,
    /// Win by keeping this lead through the opponent's turn (差をつけたら勝ち).
    pub lead: Option<u8>,
    pub enclosure: Enclosure,
    /// ななめにはさんでも取れる.
    pub diagonal: bool,
    /// Draw after this many plies in total (300), if set.
    pub move_limit: Option<u16>,
}

impl HasamiRules {
    /// The 標準 rules of the source page (docs/rules/hasami.md).
    pub const STANDARD: HasamiRules = HasamiRules {
        capture_target: 5,
        lead: Some(3),
        enclosure: Enclosure::Edge,
        diagonal: false,
        move_limit: Some(300),
    };

    /// Checks that the options are among those the game offers.
    pub fn validate(&self) -> Result<(), String> {
        if ![4, 5, 7, 8].contains(&self.capture_target) {
            return Err(format!(
                "capture_target must be 4, 5, 7 or 8 (down to 1), not {}",
                self.capture_target
            ));
        }
        if let Some(l) = self.lead
            && !(2..=3).contains(&l)
        {
            return Err(format!(
                "lead must be None, Some(2) or Some(3), not Some({l})"
            ));
        }
        if let Some(m) = self.move_limit
            && m == 0
        {
            return Err("move_limit must be positive".into());
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HasamiMove {
    pub from: u8,
    pub to: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HasamiPos {
    #[serde(with = "crate::rules::fixed_array")]
    cells: [Option<Side>; CELLS],
    /// Pieces each side has captured.
    captured: [u8; 2],
    to_move: Side,
    ply: u16,
    hash: u64,
}

impl HasamiPos {
    pub fn at(&self, p: PointId) -> Option<Side> {
        self.cells[p]
    }
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    pub fn captured_by(&self, side: Side) -> u8 {
        self.captured[side.index()]
    }
    pub fn ply(&self) -> u16 {
        self.ply
    }
    pub fn pieces(&self, side: Side) -> impl Iterator<Item = PointId> + '_ {
        (0..CELLS).filter(move |&p| self.cells[p] == Some(side))
    }
    pub fn count(&self, side: Side) -> usize {
        self.pieces(side).count()
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.to_move == Side::Second {
            zobrist(0)
        } else {
            0
        };
        for (p, c) in self.cells.iter().enumerate() {
            if let Some(s) = c {
                h ^= piece_key(p, *s);
            }
        }
        h ^ zobrist(1000 + self.captured[0] as u64) ^ zobrist(2000 + self.captured[1] as u64)
    }

    /// A position from a diagram: `SIZE` rows, top first, of `.` (empty),
    /// `F` (先手 / 歩) and `S` (後手 / と). Used by tutorials and tests.
    pub fn from_rows(rows: &[&str], to_move: Side, captured: [u8; 2]) -> Result<Self, String> {
        if rows.len() != SIZE {
            return Err(format!("a diagram needs {SIZE} rows, found {}", rows.len()));
        }
        let mut cells = [None; CELLS];
        for (y, row) in rows.iter().enumerate() {
            let chars: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if chars.len() != SIZE {
                return Err(format!(
                    "row {} needs {SIZE} squares, found {}",
                    y + 1,
                    chars.len()
                ));
            }
            for (x, ch) in chars.iter().enumerate() {
                cells[y * SIZE + x] = match ch {
                    '.' => None,
                    'F' | '歩' => Some(Side::First),
                    'S' | 'と' => Some(Side::Second),
                    other => {
                        return Err(format!(
                            "row {}, square {}: unknown mark '{other}' (use . F S)",
                            y + 1,
                            x + 1
                        ));
                    }
                };
            }
        }
        for side in Side::BOTH {
            let on_board = cells.iter().filter(|c| **c == Some(side)).count() as u8;
            let taken = captured[side.opponent().index()];
            if on_board + taken > PIECES_PER_SIDE {
                return Err(format!(
                    "{side:?} has {on_board} pieces on the board and {taken} captured: more than {PIECES_PER_SIDE}"
                ));
            }
        }
        let mut pos = HasamiPos {
            cells,
            captured,
            to_move,
            ply: 0,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The diagram of this position (see [`HasamiPos::from_rows`]), followed
    /// by the side to move and the capture counts: the text the bug report
    /// and tests show.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for y in 0..SIZE {
            for x in 0..SIZE {
                s.push(match self.cells[y * SIZE + x] {
                    None => '.',
                    Some(Side::First) => 'F',
                    Some(Side::Second) => 'S',
                });
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "to_move={:?} captured_first={} captured_second={} ply={}",
            self.to_move, self.captured[0], self.captured[1], self.ply
        ));
        s
    }
}

fn piece_key(p: PointId, s: Side) -> u64 {
    zobrist(10 + (p as u64) * 2 + s.index() as u64)
}

/// What a move takes, and which pieces take part (for the gold frames and
/// red rings of the capture animation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureReport {
    /// Captured enemy pieces, sorted.
    pub captured: Vec<PointId>,
    /// The mover's pieces that closed the sandwich or enclosure, sorted.
    pub capturers: Vec<PointId>,
}

/// Directions: the first four orthogonal, the last four diagonal.
const DIRS: [(i32, i32); 8] = [
    (0, -1),
    (0, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// The game: board geometry and rule options.
#[derive(Clone, Debug)]
pub struct Hasami {
    board: BoardGraph,
    rules: HasamiRules,
    /// For each point and direction, the points along it to the edge.
    rays: Vec<[Vec<u8>; 8]>,
    orthogonal: Vec<Vec<u8>>,
    edge: Vec<bool>,
    corner: Vec<bool>,
}

impl Hasami {
    /// `board` must be a 9×9 grid (`levels/boards/shogi9.ron`).
    pub fn new(board: BoardGraph, rules: HasamiRules) -> Result<Self, String> {
        rules.validate()?;
        if board.len() != CELLS || board.extent() != (SIZE as i32, SIZE as i32) {
            return Err(format!(
                "はさみ将棋 needs a {SIZE}×{SIZE} board, not \"{}\"",
                board.name()
            ));
        }
        for y in 0..SIZE as i32 {
            for x in 0..SIZE as i32 {
                if board.at(x, y) != Some((y as usize) * SIZE + x as usize) {
                    return Err(format!(
                        "board \"{}\" is not a row-major grid",
                        board.name()
                    ));
                }
            }
        }
        let mut rays = Vec::with_capacity(CELLS);
        for p in 0..CELLS {
            let mut dirs: [Vec<u8>; 8] = Default::default();
            // Orthogonal rays follow the board's own lines; diagonal ones
            // (used only for the diagonal-sandwich option) follow geometry.
            for link in board.links(p) {
                if link.class == DirClass::Orthogonal
                    && let Some(d) = DIRS.iter().position(|&d| d == link.dir)
                {
                    dirs[d] = board.ray(p, link).into_iter().map(|q| q as u8).collect();
                }
            }
            for (d, &(dx, dy)) in DIRS.iter().enumerate().skip(4) {
                let mut cur = p;
                while let Some(next) = board.offset(cur, dx, dy) {
                    dirs[d].push(next as u8);
                    cur = next;
                }
            }
            rays.push(dirs);
        }
        let orthogonal: Vec<Vec<u8>> = (0..CELLS)
            .map(|p| board.orthogonal_neighbours(p).map(|q| q as u8).collect())
            .collect();
        let edge = (0..CELLS).map(|p| board.is_edge(p)).collect();
        let corner = orthogonal.iter().map(|n| n.len() == 2).collect();
        Ok(Hasami {
            board,
            rules,
            rays,
            orthogonal,
            edge,
            corner,
        })
    }

    pub fn board(&self) -> &BoardGraph {
        &self.board
    }
    pub fn rules(&self) -> &HasamiRules {
        &self.rules
    }

    /// What `mv` would capture from `pos` (the move must be legal).
    pub fn captures(&self, pos: &HasamiPos, mv: HasamiMove) -> CaptureReport {
        let mover = pos.to_move;
        let mut cells = pos.cells;
        cells[mv.from as usize] = None;
        cells[mv.to as usize] = Some(mover);
        self.captures_on(&cells, mover, mv.to as usize)
    }

    fn captures_on(
        &self,
        cells: &[Option<Side>; CELLS],
        mover: Side,
        to: PointId,
    ) -> CaptureReport {
        let enemy = mover.opponent();
        let mut report = CaptureReport::default();
        let dirs = if self.rules.diagonal { 8 } else { 4 };
        for ray in &self.rays[to][..dirs] {
            let run = ray
                .iter()
                .take_while(|&&q| cells[q as usize] == Some(enemy))
                .count();
            if run > 0
                && let Some(&end) = ray.get(run)
                && cells[end as usize] == Some(mover)
            {
                report
                    .captured
                    .extend(ray[..run].iter().map(|&q| q as PointId));
                report.capturers.push(to);
                report.capturers.push(end as PointId);
            }
        }
        // Enclosure: every enemy group next to the moved piece whose way out
        // is closed on all sides by the mover.
        let mut seen = [false; CELLS];
        for &n in &self.orthogonal[to] {
            let n = n as usize;
            if cells[n] != Some(enemy) || seen[n] {
                continue;
            }
            let mut group = vec![n];
            let mut border = Vec::new();
            let mut open = false;
            seen[n] = true;
            let mut i = 0;
            while i < group.len() {
                let g = group[i];
                i += 1;
                for &q in &self.orthogonal[g] {
                    let q = q as usize;
                    match cells[q] {
                        Some(s) if s == enemy => {
                            if !seen[q] {
                                seen[q] = true;
                                group.push(q);
                            }
                        }
                        Some(_) => border.push(q),
                        None => open = true,
                    }
                }
            }
            if open {
                continue;
            }
            let in_scope = match self.rules.enclosure {
                Enclosure::Corner => group.len() == 1 && self.corner[group[0]],
                Enclosure::Edge => group.iter().any(|&g| self.edge[g]),
                Enclosure::Anywhere => true,
            };
            if in_scope {
                report.captured.extend(group);
                report.capturers.extend(border);
            }
        }
        report.captured.sort_unstable();
        report.captured.dedup();
        report.capturers.sort_unstable();
        report.capturers.dedup();
        report
    }

    fn has_move(&self, pos: &HasamiPos, side: Side) -> bool {
        pos.pieces(side).any(|p| {
            self.rays[p][..4]
                .iter()
                .any(|r| r.first().is_some_and(|&q| pos.cells[q as usize].is_none()))
        })
    }

    /// How many squares `side`'s pieces can reach (mobility).
    fn reach(&self, pos: &HasamiPos, side: Side) -> i32 {
        let mut n = 0;
        for p in pos.pieces(side) {
            for r in &self.rays[p][..4] {
                n += r
                    .iter()
                    .take_while(|&&q| pos.cells[q as usize].is_none())
                    .count() as i32;
            }
        }
        n
    }

    /// Structure for one side: friendly neighbours help (tip 2), corners and
    /// edge pieces pressed by the enemy are in danger (tip 4).
    fn structure(&self, pos: &HasamiPos, side: Side) -> i32 {
        let mut score = 0;
        for p in pos.pieces(side) {
            let mut friends = 0;
            let mut enemies = 0;
            for &q in &self.orthogonal[p] {
                match pos.cells[q as usize] {
                    Some(s) if s == side => friends += 1,
                    Some(_) => enemies += 1,
                    None => {}
                }
            }
            score += 4 * friends.min(2);
            if self.corner[p] {
                score -= 12 + 10 * enemies;
            } else if self.edge[p] && enemies > 0 {
                score -= 5 * enemies;
            }
        }
        score
    }
}

impl Game for Hasami {
    type Pos = HasamiPos;
    type Move = HasamiMove;

    fn start(&self) -> HasamiPos {
        let mut cells = [None; CELLS];
        for x in 0..SIZE {
            cells[x] = Some(Side::Second);
            cells[(SIZE - 1) * SIZE + x] = Some(Side::First);
        }
        let mut pos = HasamiPos {
            cells,
            captured: [0, 0],
            to_move: Side::First,
            ply: 0,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    fn side_to_move(&self, pos: &HasamiPos) -> Side {
        pos.to_move
    }

    fn legal_moves(&self, pos: &HasamiPos, out: &mut Vec<HasamiMove>) {
        for p in pos.pieces(pos.to_move) {
            for ray in &self.rays[p][..4] {
                for &q in ray {
                    if pos.cells[q as usize].is_some() {
                        break;
                    }
                    out.push(HasamiMove {
                        from: p as u8,
                        to: q,
                    });
                }
            }
        }
    }

    fn play(&self, pos: &HasamiPos, mv: HasamiMove) -> HasamiPos {
        let mover = pos.to_move;
        let mut next = *pos;
        next.cells[mv.from as usize] = None;
        next.cells[mv.to as usize] = Some(mover);
        next.hash ^= piece_key(mv.from as usize, mover) ^ piece_key(mv.to as usize, mover);
        let report = self.captures_on(&next.cells, mover, mv.to as usize);
        for &c in &report.captured {
            next.cells[c] = None;
            next.hash ^= piece_key(c, mover.opponent());
        }
        let i = mover.index();
        next.hash ^= zobrist(1000 * (i as u64 + 1) + next.captured[i] as u64);
        next.captured[i] += report.captured.len() as u8;
        next.hash ^= zobrist(1000 * (i as u64 + 1) + next.captured[i] as u64);
        next.to_move = mover.opponent();
        next.hash ^= zobrist(0);
        next.ply += 1;
        next
    }

    fn outcome(&self, pos: &HasamiPos) -> Option<Outcome> {
        let stm = pos.to_move;
        let mover = stm.opponent();
        let target = self.rules.capture_target;
        if pos.captured_by(mover) >= target {
            return Some(Outcome::win(mover, EndReason::CaptureTarget));
        }
        if pos.captured_by(stm) >= target {
            return Some(Outcome::win(stm, EndReason::CaptureTarget));
        }
        if let Some(lead) = self.rules.lead
            && pos.captured_by(stm) >= pos.captured_by(mover) + lead
        {
            // The lead was made by the side to move's own capture and has
            // survived the opponent's reply: the leader's turn has come.
            return Some(Outcome::win(stm, EndReason::Lead));
        }
        if !self.has_move(pos, stm) {
            return Some(Outcome::win(mover, EndReason::NoMoves));
        }
        if let Some(limit) = self.rules.move_limit
            && pos.ply >= limit
        {
            return Some(Outcome::draw(EndReason::MoveLimit));
        }
        None
    }

    fn repetition_outcome(&self, _pos: &HasamiPos, count: u32) -> Option<Outcome> {
        (count >= 4).then_some(Outcome::draw(EndReason::Repetition))
    }

    fn hash(&self, pos: &HasamiPos) -> u64 {
        pos.hash
    }

    fn evaluate(&self, pos: &HasamiPos) -> i32 {
        let me = pos.to_move;
        let them = me.opponent();
        let (mine, theirs) = (pos.captured_by(me) as i32, pos.captured_by(them) as i32);
        let target = self.rules.capture_target as i32;
        // A capture is worth more the closer it brings a side to the target.
        let progress = |n: i32| n * 100 + n * n * 40 / target;
        let mut score = progress(mine) - progress(theirs);
        if let Some(lead) = self.rules.lead {
            let lead = lead as i32;
            let diff = mine - theirs;
            if diff == lead - 1 {
                score += 40;
            } else if -diff == lead - 1 {
                score -= 40;
            }
        }
        score += 2 * (self.reach(pos, me) - self.reach(pos, them));
        score += self.structure(pos, me) - self.structure(pos, them);
        score
    }

    fn is_capture(&self, pos: &HasamiPos, mv: HasamiMove) -> bool {
        !self.captures(pos, mv).captured.is_empty()
    }

    /// A move after which the opponent can sandwich (or, by the preset's
    /// rules, otherwise take) one of the mover's pieces at once.
    fn move_stat(&self, _before: &HasamiPos, _mv: HasamiMove, after: &HasamiPos) -> Option<bool> {
        Some(crate::rules::game::capture_open(self, after))
    }

    fn move_index(&self, mv: HasamiMove) -> usize {
        mv.from as usize * CELLS + mv.to as usize
    }

    fn move_index_bound(&self) -> usize {
        CELLS * CELLS
    }

    fn move_ends(&self, mv: HasamiMove) -> (PointId, PointId) {
        (mv.from as PointId, mv.to as PointId)
    }

    fn move_text(&self, pos: &HasamiPos, mv: HasamiMove) -> String {
        let from = &self.board.point(mv.from as usize).name;
        let to = &self.board.point(mv.to as usize).name;
        let taken = self.captures(pos, mv).captured.len();
        if taken > 0 {
            format!("{from}→{to} ×{taken}")
        } else {
            format!("{from}→{to}")
        }
    }
}
