//! きつねとがちょう (Fox and Geese): one fox against 13, 15 or 17 geese on the
//! 33-point cross. The geese move first, one step along a line (standard:
//! forward or sideways only); the fox steps in any direction or jumps a
//! goose onto the empty point beyond, possibly several times in one turn. A
//! whole multi-jump is one move; every point where the fox may stop is a
//! separate move.

use serde::{Deserialize, Serialize};

use super::board::{BoardGraph, PointId};
use super::game::{EndReason, Game, Outcome, Side, zobrist};

/// The geese are `Side::First` (they move first), the fox `Side::Second`.
pub const GEESE: Side = Side::First;
pub const FOX: Side = Side::Second;

/// The longest jump path a move can hold (more than the geese there are).
pub(crate) const MAX_JUMPS: usize = 17;

/// The rule options (a preset, or 自分で決める).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FoxGeeseRules {
    /// 13, 15 or 17.
    pub geese: u8,
    /// Diagonal lines on the board (x + y even).
    pub diagonals: bool,
    /// Geese may also step back (towards their own side).
    pub geese_back: bool,
    /// 連続跳び: the fox may jump again from where it lands.
    pub multi_jump: bool,
    /// 跳べるときは必ず取る: the fox must jump when it can, and go on
    /// jumping while it can.
    pub forced_capture: bool,
    /// The fox wins when this many geese or fewer are left (6, 4 or 3).
    pub fox_wins_at: u8,
}

impl FoxGeeseRules {
    pub const STANDARD: FoxGeeseRules = FoxGeeseRules {
        geese: 13,
        diagonals: false,
        geese_back: false,
        multi_jump: true,
        forced_capture: false,
        fox_wins_at: 6,
    };

    pub fn validate(&self) -> Result<(), String> {
        if ![13, 15, 17].contains(&self.geese) {
            return Err(format!("geese must be 13, 15 or 17, not {}", self.geese));
        }
        if ![3, 4, 6].contains(&self.fox_wins_at) {
            return Err(format!(
                "fox_wins_at must be 6, 4 or 3, not {}",
                self.fox_wins_at
            ));
        }
        Ok(())
    }

    /// The board file these rules are played on.
    pub fn board_name(&self) -> &'static str {
        if self.diagonals {
            "cross33_diagonal"
        } else {
            "cross33"
        }
    }
}

/// A move: a goose's step, the fox's step, or the fox's jump path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FoxGeeseMove {
    pub from: u8,
    /// Landing points in order: one for a step, one per jump otherwise.
    pub path: [u8; MAX_JUMPS],
    pub len: u8,
    pub jump: bool,
}

impl FoxGeeseMove {
    pub fn step(from: PointId, to: PointId) -> Self {
        let mut path = [0; MAX_JUMPS];
        path[0] = to as u8;
        FoxGeeseMove {
            from: from as u8,
            path,
            len: 1,
            jump: false,
        }
    }

    pub fn jumps(from: PointId, landings: &[PointId]) -> Self {
        let mut path = [0; MAX_JUMPS];
        for (i, &p) in landings.iter().take(MAX_JUMPS).enumerate() {
            path[i] = p as u8;
        }
        FoxGeeseMove {
            from: from as u8,
            path,
            len: landings.len().min(MAX_JUMPS) as u8,
            jump: true,
        }
    }

    pub fn landings(&self) -> &[u8] {
        &self.path[..self.len as usize]
    }

    /// Where the piece ends up.
    pub fn to(&self) -> PointId {
        self.path[self.len as usize - 1] as PointId
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoxGeesePos {
    /// One bit per point.
    geese: u64,
    fox: u8,
    to_move: Side,
    ply: u16,
    hash: u64,
}

impl FoxGeesePos {
    pub fn fox(&self) -> PointId {
        self.fox as PointId
    }
    pub fn has_goose(&self, p: PointId) -> bool {
        self.geese & (1 << p) != 0
    }
    pub fn geese(&self) -> impl Iterator<Item = PointId> + '_ {
        (0..64).filter(move |&p| self.has_goose(p))
    }
    pub fn goose_count(&self) -> u32 {
        self.geese.count_ones()
    }
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    pub fn ply(&self) -> u16 {
        self.ply
    }
    fn is_empty(&self, p: PointId) -> bool {
        !self.has_goose(p) && self.fox as PointId != p
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.to_move == FOX { zobrist(0) } else { 0 };
        for g in self.geese() {
            h ^= zobrist(100 + g as u64);
        }
        h ^ zobrist(200 + self.fox as u64)
    }
}

/// The game: board and rule options.
#[derive(Clone, Debug)]
pub struct FoxGeese {
    board: BoardGraph,
    rules: FoxGeeseRules,
    /// For each point: (neighbour, the point beyond it on the same line).
    steps: Vec<Vec<(u8, Option<u8>)>>,
    /// For each point: the neighbours a goose may step to.
    goose_steps: Vec<Vec<u8>>,
    centre: PointId,
}

impl FoxGeese {
    /// `board` must be the cross board the rules name (`cross33` or
    /// `cross33_diagonal`).
    pub fn new(board: BoardGraph, rules: FoxGeeseRules) -> Result<Self, String> {
        rules.validate()?;
        if board.len() > 64 {
            return Err(format!(
                "board \"{}\" has more than 64 points",
                board.name()
            ));
        }
        let need = [(3, 3), (2, 5), (3, 6), (0, 2), (6, 2), (0, 3), (6, 3)];
        if need.iter().any(|&(x, y)| board.at(x, y).is_none()) {
            return Err(format!(
                "board \"{}\" is not the 33-point cross",
                board.name()
            ));
        }
        let steps = (0..board.len())
            .map(|p| {
                board
                    .links(p)
                    .iter()
                    .map(|l| (l.to as u8, board.next_along(p, l.to).map(|q| q as u8)))
                    .collect()
            })
            .collect();
        let goose_steps = (0..board.len())
            .map(|p| {
                board
                    .links(p)
                    .iter()
                    // Up the screen is towards y = 0: forward for the geese.
                    .filter(|l| rules.geese_back || l.dir.1 <= 0)
                    .map(|l| l.to as u8)
                    .collect()
            })
            .collect();
        let centre = board.at(3, 3).unwrap_or(0);
        Ok(FoxGeese {
            board,
            rules,
            steps,
            goose_steps,
            centre,
        })
    }

    pub fn board(&self) -> &BoardGraph {
        &self.board
    }
    pub fn rules(&self) -> &FoxGeeseRules {
        &self.rules
    }

    /// The start: fox in the centre, geese on the bottom arm and the row
    /// above it (13), plus the ends of the next rows up (15, 17).
    fn start_geese(&self) -> u64 {
        let mut cells: Vec<(i32, i32)> = Vec::new();
        for y in 5..=6 {
            for x in 2..=4 {
                cells.push((x, y));
            }
        }
        cells.extend((0..=6).map(|x| (x, 4)));
        if self.rules.geese >= 15 {
            cells.extend([(0, 3), (6, 3)]);
        }
        if self.rules.geese >= 17 {
            cells.extend([(0, 2), (6, 2)]);
        }
        cells
            .into_iter()
            .filter_map(|(x, y)| self.board.at(x, y))
            .fold(0, |bits, p| bits | (1 << p))
    }

    /// A position from a list of geese and the fox's point (tutorials, tests).
    pub fn position(
        &self,
        geese: &[PointId],
        fox: PointId,
        to_move: Side,
    ) -> Result<FoxGeesePos, String> {
        if fox >= self.board.len() {
            return Err(format!("the fox's point {fox} is not on the board"));
        }
        let mut bits = 0u64;
        for &g in geese {
            if g >= self.board.len() || g == fox {
                return Err(format!("a goose cannot stand on point {g}"));
            }
            bits |= 1 << g;
        }
        let mut pos = FoxGeesePos {
            geese: bits,
            fox: fox as u8,
            to_move,
            ply: 0,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// A position from a diagram: one row per y (top first), one character
    /// per x: ` ` off the board, `.` an empty point, `G` a goose, `F` the fox
    /// (exactly one). Used by tutorials and tests.
    /// How many moves (steps and jumps) the fox would have in `pos` if it
    /// were its turn.
    pub fn fox_moves_from(&self, pos: &FoxGeesePos) -> usize {
        let mut turned = *pos;
        turned.to_move = FOX;
        let mut moves = Vec::new();
        self.jump_moves(&turned, &mut moves);
        let f = turned.fox as PointId;
        moves.len()
            + self.steps[f]
                .iter()
                .filter(|&&(n, _)| turned.is_empty(n as PointId))
                .count()
    }

    pub fn position_from_rows(&self, rows: &[&str], to_move: Side) -> Result<FoxGeesePos, String> {
        let mut geese = Vec::new();
        let mut fox = None;
        for (p, mark) in self.board.read_diagram(rows, "GF")? {
            match mark {
                'G' => geese.push(p),
                _ if fox.is_some() => {
                    return Err(format!("a second fox on {}", self.board.point(p).name));
                }
                _ => fox = Some(p),
            }
        }
        let fox = fox.ok_or("the diagram has no fox (F)")?;
        self.position(&geese, fox, to_move)
    }

    /// The diagram of a position (the format of
    /// [`FoxGeese::position_from_rows`]).
    pub fn to_rows(&self, pos: &FoxGeesePos) -> Vec<String> {
        self.board.write_diagram(|p| match p {
            p if pos.fox() == p => 'F',
            p if pos.has_goose(p) => 'G',
            _ => '.',
        })
    }

    /// Every jump sequence from the fox's point: the fox may stop after any
    /// jump (unless captures are forced), or make one jump only (without
    /// multiple jumps).
    fn jump_moves(&self, pos: &FoxGeesePos, out: &mut Vec<FoxGeeseMove>) {
        let mut path = Vec::with_capacity(MAX_JUMPS);
        let start = pos.fox as PointId;
        // The fox's own point is empty once it has left.
        self.extend_jumps(pos.geese, start, start, &mut path, out);
    }

    fn extend_jumps(
        &self,
        geese: u64,
        start: PointId,
        at: PointId,
        path: &mut Vec<PointId>,
        out: &mut Vec<FoxGeeseMove>,
    ) {
        for &(over, beyond) in &self.steps[at] {
            let Some(land) = beyond else { continue };
            let (over, land) = (over as PointId, land as PointId);
            // A goose not yet taken this turn, and an empty point beyond it
            // (the fox's starting point is empty once it has left).
            if geese & (1 << over) == 0 || geese & (1 << land) != 0 {
                continue;
            }
            path.push(land);
            let before = out.len();
            if self.rules.multi_jump && path.len() < MAX_JUMPS {
                self.extend_jumps(geese & !(1 << over), start, land, path, out);
            }
            let went_on = out.len() > before;
            // The fox may stop here, unless captures are forced and it can
            // jump on.
            if !(self.rules.forced_capture && went_on) {
                out.push(FoxGeeseMove::jumps(start, path));
            }
            path.pop();
        }
    }

    /// The geese a move takes (the points jumped over), in order.
    pub fn captured(&self, mv: FoxGeeseMove) -> Vec<PointId> {
        if !mv.jump {
            return Vec::new();
        }
        let mut at = mv.from as PointId;
        let mut out = Vec::new();
        for &land in mv.landings() {
            let land = land as PointId;
            if let Some(&(over, _)) = self.steps[at]
                .iter()
                .find(|&&(_, beyond)| beyond == Some(land as u8))
            {
                out.push(over as PointId);
            }
            at = land;
        }
        out
    }

    fn fox_can_move(&self, pos: &FoxGeesePos) -> bool {
        let f = pos.fox as PointId;
        self.steps[f].iter().any(|&(n, beyond)| {
            pos.is_empty(n as PointId)
                || (pos.has_goose(n as PointId)
                    && beyond.is_some_and(|b| pos.is_empty(b as PointId)))
        })
    }

    fn geese_can_move(&self, pos: &FoxGeesePos) -> bool {
        pos.geese().any(|g| {
            self.goose_steps[g]
                .iter()
                .any(|&q| pos.is_empty(q as PointId))
        })
    }

    /// The static value for the side to move. `see_threats`: whether the
    /// geese the fox could jump next count; a player who does not look for
    /// them leaves geese hanging.
    fn judge(&self, pos: &FoxGeesePos, see_threats: bool) -> i32 {
        // From the geese's point of view, then turned to the side to move.
        let geese = pos.goose_count() as i32;
        let mobility = self.fox_mobility(pos);
        let mut shape = 0;
        for g in pos.geese() {
            let pt = self.board.point(g);
            // Advancing closes the net; a goose with a goose behind it
            // cannot be jumped from the front.
            shape += 6 - pt.y;
            if self
                .board
                .at(pt.x, pt.y + 1)
                .is_some_and(|b| pos.has_goose(b))
            {
                shape += 3;
            }
        }
        let fox_pt = self.board.point(pos.fox as PointId);
        let centrality = 6 - ((fox_pt.x - 3).abs() + (fox_pt.y - 3).abs());
        let room = self.fox_room(pos);
        // A fox with little room left is close to being trapped.
        let cornered = match room {
            0..=2 => 120,
            3..=5 => 50,
            _ => 0,
        };
        let mut score =
            100 * geese - 12 * mobility - 4 * room + 3 * shape - 4 * centrality + cornered;
        if see_threats {
            let threats = self.jumpable(pos) as i32;
            score -= 30 * threats;
            if pos.to_move == FOX && threats > 0 {
                // The fox to move will take one.
                score -= 60;
            }
        }
        if pos.to_move == GEESE { score } else { -score }
    }

    /// Geese the fox could jump right now (threats), counted once each.
    fn jumpable(&self, pos: &FoxGeesePos) -> u32 {
        self.jumpable_geese(pos).count_ones()
    }

    /// The geese the fox could take with its next jump (one bit per point).
    pub fn jumpable_geese(&self, pos: &FoxGeesePos) -> u64 {
        let f = pos.fox as PointId;
        let mut bits = 0u64;
        for &(n, beyond) in &self.steps[f] {
            if pos.has_goose(n as PointId) && beyond.is_some_and(|b| pos.is_empty(b as PointId)) {
                bits |= 1 << n;
            }
        }
        bits
    }

    /// 印を出す: whether a goose's move lets the fox jump a goose it could
    /// not jump before (the moved goose itself, or one whose back it leaves
    /// open). False for the fox's moves.
    pub fn move_exposes(&self, pos: &FoxGeesePos, mv: FoxGeeseMove) -> bool {
        if pos.to_move != GEESE {
            return false;
        }
        let before = self.jumpable_geese(pos) & !(1 << mv.from);
        let after = self.jumpable_geese(&self.play(pos, mv));
        after & !before != 0
    }

    /// How many empty points the fox can reach by stepping (its room to
    /// live): the geese win by shrinking it to nothing.
    fn fox_room(&self, pos: &FoxGeesePos) -> i32 {
        let mut seen = 1u64 << pos.fox;
        let mut stack = vec![pos.fox as PointId];
        while let Some(p) = stack.pop() {
            for &(n, _) in &self.steps[p] {
                let n = n as PointId;
                if seen & (1 << n) == 0 && pos.is_empty(n) {
                    seen |= 1 << n;
                    stack.push(n);
                }
            }
        }
        seen.count_ones() as i32 - 1
    }

    fn fox_mobility(&self, pos: &FoxGeesePos) -> i32 {
        let f = pos.fox as PointId;
        self.steps[f]
            .iter()
            .filter(|&&(n, _)| pos.is_empty(n as PointId))
            .count() as i32
    }
}

impl Game for FoxGeese {
    type Pos = FoxGeesePos;
    type Move = FoxGeeseMove;

    fn start(&self) -> FoxGeesePos {
        let mut pos = FoxGeesePos {
            geese: self.start_geese(),
            fox: self.centre as u8,
            to_move: GEESE,
            ply: 0,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    fn side_to_move(&self, pos: &FoxGeesePos) -> Side {
        pos.to_move
    }

    fn legal_moves(&self, pos: &FoxGeesePos, out: &mut Vec<FoxGeeseMove>) {
        if pos.to_move == GEESE {
            for g in pos.geese() {
                for &q in &self.goose_steps[g] {
                    if pos.is_empty(q as PointId) {
                        out.push(FoxGeeseMove::step(g, q as PointId));
                    }
                }
            }
            return;
        }
        let before = out.len();
        self.jump_moves(pos, out);
        if self.rules.forced_capture && out.len() > before {
            return;
        }
        let f = pos.fox as PointId;
        for &(n, _) in &self.steps[f] {
            if pos.is_empty(n as PointId) {
                out.push(FoxGeeseMove::step(f, n as PointId));
            }
        }
    }

    fn play(&self, pos: &FoxGeesePos, mv: FoxGeeseMove) -> FoxGeesePos {
        let mut next = *pos;
        let to = mv.to();
        if pos.to_move == GEESE {
            next.geese = (next.geese & !(1 << mv.from)) | (1 << to);
            next.hash ^= zobrist(100 + mv.from as u64) ^ zobrist(100 + to as u64);
        } else {
            for g in self.captured(mv) {
                next.geese &= !(1 << g);
                next.hash ^= zobrist(100 + g as u64);
            }
            next.hash ^= zobrist(200 + pos.fox as u64) ^ zobrist(200 + to as u64);
            next.fox = to as u8;
        }
        next.to_move = pos.to_move.opponent();
        next.hash ^= zobrist(0);
        next.ply += 1;
        next
    }

    fn outcome(&self, pos: &FoxGeesePos) -> Option<Outcome> {
        if pos.goose_count() <= self.rules.fox_wins_at as u32 {
            return Some(Outcome::win(FOX, EndReason::CaptureTarget));
        }
        if pos.to_move == FOX && !self.fox_can_move(pos) {
            return Some(Outcome::win(GEESE, EndReason::NoMoves));
        }
        if pos.to_move == GEESE && !self.geese_can_move(pos) {
            return Some(Outcome::win(FOX, EndReason::NoMoves));
        }
        if pos.ply >= 300 {
            return Some(Outcome::win(FOX, EndReason::MoveLimit));
        }
        None
    }

    fn repetition_outcome(&self, _pos: &FoxGeesePos, count: u32) -> Option<Outcome> {
        (count >= 3).then_some(Outcome::win(FOX, EndReason::Repetition))
    }

    fn hash(&self, pos: &FoxGeesePos) -> u64 {
        pos.hash
    }

    fn evaluate(&self, pos: &FoxGeesePos) -> i32 {
        self.judge(pos, true)
    }

    fn evaluate_plain(&self, pos: &FoxGeesePos) -> i32 {
        self.judge(pos, false)
    }

    fn is_capture(&self, _pos: &FoxGeesePos, mv: FoxGeeseMove) -> bool {
        mv.jump
    }

    fn stat_label(&self, side: Side) -> (&'static str, &'static str) {
        if side == GEESE {
            ("geese", "takeable")
        } else {
            ("fox", "trap")
        }
    }

    /// A goose move after which the fox can jump a goose at once; a fox
    /// move onto a point from which it has at most one move of its own
    /// (steps and jumps, counted as if it were the fox's turn there).
    fn move_stat(
        &self,
        before: &FoxGeesePos,
        _mv: FoxGeeseMove,
        after: &FoxGeesePos,
    ) -> Option<bool> {
        if before.to_move == GEESE {
            return Some(crate::rules::game::capture_open(self, after));
        }
        Some(self.fox_moves_from(after) <= 1)
    }

    fn move_index(&self, mv: FoxGeeseMove) -> usize {
        mv.from as usize * 64 + mv.to()
    }

    fn move_index_bound(&self) -> usize {
        64 * 64
    }

    fn move_ends(&self, mv: FoxGeeseMove) -> (PointId, PointId) {
        (mv.from as PointId, mv.to())
    }

    fn move_path(&self, mv: FoxGeeseMove) -> Vec<PointId> {
        std::iter::once(mv.from as PointId)
            .chain(mv.landings().iter().map(|&p| p as PointId))
            .collect()
    }

    fn move_text(&self, _pos: &FoxGeesePos, mv: FoxGeeseMove) -> String {
        let name = |p: u8| self.board.point(p as PointId).name.clone();
        let mut s = name(mv.from);
        let sep = if mv.jump { "×" } else { "-" };
        for &p in mv.landings() {
            s.push_str(sep);
            s.push_str(&name(p));
        }
        s
    }
}
