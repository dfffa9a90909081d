//! 十六むさし (Juroku Musashi): one 親 against sixteen 子 on the 5×5 board with
//! its diagonals and diamond, and (usually) the 雪隠 triangle. Both move one
//! step along a line. 親 captures by stepping into the gap between two 子 on
//! one straight line through its new point, every such pair at once; 子 win
//! by leaving 親 no move.

pub mod solve;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::rules::board::{BoardGraph, PointId};
use crate::rules::game::{EndReason, Exact, Game, Outcome, Side, zobrist};
use solve::{Tables, Value};

/// 親 is `Side::First` and the 16 子 are `Side::Second`, whoever moves first.
pub const OYA: Side = Side::First;
pub const KO: Side = Side::Second;
/// 親 wins when this many plies have been played.
pub(crate) const MOVE_LIMIT: u16 = 300;

/// The rule options (a preset, or 自分で決める).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MusashiRules {
    /// The 雪隠 triangle is part of the board (33 points, else 25).
    pub setchin: bool,
    /// 子が先手: the 子 move first.
    pub ko_first: bool,
    /// 親 wins when this many 子 or fewer are left: 5 (ふつう), 4, 6, or 1
    /// (全部取られるまで: 子 are taken in pairs, so play goes on until none
    /// is left).
    pub oya_wins_at: u8,
}

impl MusashiRules {
    pub const STANDARD: MusashiRules = MusashiRules {
        setchin: true,
        ko_first: false,
        oya_wins_at: 5,
    };

    pub fn validate(&self) -> Result<(), String> {
        if ![1, 4, 5, 6].contains(&self.oya_wins_at) {
            return Err(format!(
                "oya_wins_at must be 5, 4, 6 or 1, not {}",
                self.oya_wins_at
            ));
        }
        Ok(())
    }

    /// The board file these rules are played on.
    pub fn board_name(&self) -> &'static str {
        if self.setchin {
            "musashi33"
        } else {
            "musashi25"
        }
    }
}

/// A move: one step along a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MusashiMove {
    pub from: u8,
    pub to: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MusashiPos {
    /// One bit per point.
    ko: u64,
    oya: u8,
    to_move: Side,
    ply: u16,
    hash: u64,
}

impl MusashiPos {
    pub fn oya(&self) -> PointId {
        self.oya as PointId
    }
    pub(crate) fn has_ko(&self, p: PointId) -> bool {
        self.ko & (1 << p) != 0
    }
    pub fn ko(&self) -> impl Iterator<Item = PointId> + '_ {
        bit_points(self.ko)
    }
    /// The 子 as bits, one per point ([`MusashiPos::from_bits`]' form).
    pub fn ko_bits(&self) -> u64 {
        self.ko
    }
    pub fn ko_count(&self) -> u32 {
        self.ko.count_ones()
    }
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    pub fn ply(&self) -> u16 {
        self.ply
    }
    /// A position from the 子 as bits (the solver's tables); the ply
    /// count starts at 0.
    pub fn from_bits(ko: u64, oya: u8, to_move: Side) -> Self {
        let mut pos = MusashiPos {
            ko,
            oya,
            to_move,
            ply: 0,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }
    fn is_empty(&self, p: PointId) -> bool {
        !self.has_ko(p) && self.oya as PointId != p
    }
    fn compute_hash(&self) -> u64 {
        let mut h = if self.to_move == KO { zobrist(0) } else { 0 };
        for k in self.ko() {
            h ^= zobrist(100 + k as u64);
        }
        h ^ zobrist(200 + self.oya as u64)
    }
}

/// What a player looks at when judging a position.
#[derive(Clone, Copy, Debug)]
struct View {
    /// Whether the pairs 親 could take next (and the gaps that may become
    /// such pairs) count: a player who does not look for them leaves gaps.
    see_threats: bool,
    /// Whether 親's traps count (a point of the 雪隠, a corner, little room
    /// left): a player who does not look for them walks into them.
    see_traps: bool,
    /// The worth of one empty point 親 can reach (its room to live).
    room: i32,
    /// The worth of one empty point next to 親 (its next steps).
    mobility: i32,
    /// The worth of one 子 within two steps of 親: a beginner's 親 runs
    /// from the 子 it sees near it, to the empty places (the 雪隠 and the
    /// corners look like escapes), and a beginner's 子 simply go at 親.
    crowd: i32,
}

impl View {
    /// A beginner's view: what a move takes and how close the 子 crowd
    /// 親, nothing about the gaps left behind or the traps ahead.
    const PLAIN: View = View {
        see_threats: false,
        see_traps: false,
        room: 0,
        mobility: 0,
        crowd: 50,
    };
    const ORDINARY: View = View {
        see_threats: true,
        see_traps: true,
        room: 12,
        mobility: 25,
        crowd: 0,
    };
    /// The ordinary view in a moment's inattention: the pairs 親 could
    /// take next and its traps go unseen (ふつう's oversights: a gap left,
    /// a step towards the setchin), everything else as ordinary.
    const OVERSIGHT: View = View {
        see_threats: false,
        see_traps: false,
        ..View::ORDINARY
    };
    /// The master's view: the game is a fight over 親's room. 親 lives as
    /// long as it has space and the 子 win by taking it away, so two points
    /// of room outweigh a pair of 子 (a capture that leads into a corner is
    /// a bad one). つよい judges so; the ordinary view, whose
    /// 子 squeeze less hard and whose 親 chases captures, is ふつう's (the
    /// matches that chose the weights are in docs/strength.md).
    const EXPERT: View = View {
        see_threats: true,
        see_traps: true,
        room: 150,
        mobility: 25,
        crowd: 0,
    };
}

/// The points whose bits are set, lowest first.
fn bit_points(mut bits: u64) -> impl Iterator<Item = PointId> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let p = bits.trailing_zeros() as PointId;
            bits &= bits - 1;
            p
        })
    })
}

/// The game: board and rule options.
#[derive(Clone, Debug)]
pub struct Musashi {
    board: BoardGraph,
    rules: MusashiRules,
    /// For each point: its neighbours.
    steps: Vec<Vec<u8>>,
    /// For each point: the pairs of points on either side of it on one
    /// straight line (親 entering the point takes both when both are 子),
    /// both points of a pair in one mask: the masks of point `p` are `pair_masks[pair_start[p]..pair_start[p + 1]]`
    /// (the evaluation asks for them at every leaf of the search).
    pair_masks: Vec<u64>,
    pair_start: Vec<usize>,
    /// For each point: its neighbours as bits.
    neighbour_bits: Vec<u64>,
    /// For each point: the other points at most two steps away, as bits.
    near_bits: Vec<u64>,
    /// Every point of the board as bits.
    all_points: u64,
    centre: PointId,
    /// The 16 points of the square's edge (the 子's start).
    perimeter: u64,
    /// The points of the 雪隠 (x ≥ 5).
    setchin: u64,
    /// Exact tables for the endgame under these rules, once built.
    endgame: Option<Endgame>,
}

/// Shared exact tables (cheap to clone into a CPU thread).
#[derive(Clone)]
pub(crate) struct Endgame(Arc<Tables>);

impl std::fmt::Debug for Endgame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Endgame({} to {} 子)",
            self.0.floor() + 1,
            self.0.max_ko()
        )
    }
}

impl Musashi {
    /// `board` must be the board the rules name (`musashi33` or `musashi25`).
    pub fn new(board: BoardGraph, rules: MusashiRules) -> Result<Self, String> {
        rules.validate()?;
        if board.len() > 64 {
            return Err(format!(
                "board \"{}\" has more than 64 points",
                board.name()
            ));
        }
        let expected = if rules.setchin { 33 } else { 25 };
        if board.len() != expected || (0..5).any(|i| board.at(i, i).is_none()) {
            return Err(format!(
                "board \"{}\" is not the {expected}-point 十六むさし board",
                board.name()
            ));
        }
        let steps: Vec<Vec<u8>> = (0..board.len())
            .map(|p| board.links(p).iter().map(|l| l.to as u8).collect())
            .collect();
        let pairs: Vec<Vec<(u8, u8)>> = (0..board.len())
            .map(|p| {
                let mut v: Vec<(u8, u8)> = board
                    .links(p)
                    .iter()
                    .filter_map(|l| {
                        let beyond = board.next_along(l.to, p)?;
                        (l.to < beyond).then_some((l.to as u8, beyond as u8))
                    })
                    .collect();
                v.sort_unstable();
                v
            })
            .collect();
        let mut pair_masks = Vec::new();
        let mut pair_start = vec![0];
        for point_pairs in &pairs {
            pair_masks.extend(point_pairs.iter().map(|&(a, b)| (1u64 << a) | (1u64 << b)));
            pair_start.push(pair_masks.len());
        }
        let neighbour_bits: Vec<u64> = steps
            .iter()
            .map(|ns| ns.iter().fold(0u64, |bits, &q| bits | 1 << q))
            .collect();
        let near_bits = (0..board.len())
            .map(|p| {
                let two = bit_points(neighbour_bits[p])
                    .fold(neighbour_bits[p], |bits, q| bits | neighbour_bits[q]);
                two & !(1u64 << p)
            })
            .collect();
        let all_points = if board.len() == 64 {
            u64::MAX
        } else {
            (1u64 << board.len()) - 1
        };
        let mut perimeter = 0u64;
        let mut setchin = 0u64;
        for p in 0..board.len() {
            let pt = board.point(p);
            if pt.x >= 5 {
                setchin |= 1 << p;
            } else if pt.x == 0 || pt.x == 4 || pt.y == 0 || pt.y == 4 {
                perimeter |= 1 << p;
            }
        }
        let centre = board.at(2, 2).unwrap_or(0);
        Ok(Musashi {
            board,
            rules,
            steps,
            pair_masks,
            pair_start,
            neighbour_bits,
            near_bits,
            all_points,
            centre,
            perimeter,
            setchin,
            endgame: None,
        })
    }

    pub fn board(&self) -> &BoardGraph {
        &self.board
    }

    /// Gives the game exact endgame tables; they must be solved for this
    /// board and this threshold ([`solve::Solver::for_game`]).
    pub fn set_endgame(&mut self, tables: Arc<Tables>) -> Result<(), String> {
        if tables.points() != self.board.len() || tables.floor() != self.rules.oya_wins_at {
            return Err("the endgame tables were solved for other rules".into());
        }
        self.endgame = Some(Endgame(tables));
        Ok(())
    }

    /// The most 子 the endgame tables reach (0 without tables).
    pub fn endgame_reach(&self) -> u8 {
        self.endgame.as_ref().map_or(0, |e| e.0.max_ko())
    }
    pub fn rules(&self) -> &MusashiRules {
        &self.rules
    }

    /// Whether `p` is one of the square's four corners.
    pub fn is_corner(&self, p: PointId) -> bool {
        let pt = self.board.point(p);
        (pt.x == 0 || pt.x == 4) && (pt.y == 0 || pt.y == 4)
    }

    /// Whether 親 stands in the 雪隠 (雪隠詰め when it is trapped there).
    pub fn in_setchin(&self, pos: &MusashiPos) -> bool {
        self.setchin & (1 << pos.oya) != 0
    }

    /// A position from a list of 子 and 親's point (tests, tutorials).
    pub fn position(
        &self,
        ko: &[PointId],
        oya: PointId,
        to_move: Side,
    ) -> Result<MusashiPos, String> {
        if oya >= self.board.len() {
            return Err(format!("親's point {oya} is not on the board"));
        }
        let mut bits = 0u64;
        for &k in ko {
            if k >= self.board.len() || k == oya {
                return Err(format!("a 子 cannot stand on point {k}"));
            }
            bits |= 1 << k;
        }
        let mut pos = MusashiPos {
            ko: bits,
            oya: oya as u8,
            to_move,
            ply: 0,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// A position from a diagram: one row per y (top first), one character
    /// per x: ` ` off the board, `.` an empty point, `K` a 子, `O` 親
    /// (exactly one).
    pub fn position_from_rows(&self, rows: &[&str], to_move: Side) -> Result<MusashiPos, String> {
        let mut ko = Vec::new();
        let mut oya = None;
        for (p, mark) in self.board.read_diagram(rows, "KO")? {
            match mark {
                'K' => ko.push(p),
                _ if oya.is_some() => {
                    return Err(format!("a second 親 on {}", self.board.point(p).name));
                }
                _ => oya = Some(p),
            }
        }
        let oya = oya.ok_or("the diagram has no 親 (O)")?;
        self.position(&ko, oya, to_move)
    }

    /// The diagram of a position (the format
    /// [`Musashi::position_from_rows`] reads), one row per line.
    pub fn to_rows(&self, pos: &MusashiPos) -> Vec<String> {
        self.board.write_diagram(|p| match p {
            p if pos.oya() == p => 'O',
            p if pos.has_ko(p) => 'K',
            _ => '.',
        })
    }

    /// The position text: the diagram's rows top first, joined by `/`, with
    /// `-` where the board has no point, then the side to move (`oya` or
    /// `ko`). The standard start on the 33-point board is
    /// `KKKKK-./K...K../K.O.K../K...K../KKKKK-. oya`. The game exports it
    /// and `yorimichi solve musashi --position` reads it.
    pub fn to_text(&self, pos: &MusashiPos) -> String {
        let rows: Vec<String> = self
            .to_rows(pos)
            .iter()
            .map(|r| r.replace(' ', "-"))
            .collect();
        let side = if pos.to_move == OYA { "oya" } else { "ko" };
        format!("{} {side}", rows.join("/"))
    }

    /// Reads [`Musashi::to_text`]'s format (the side may also be written
    /// 親 or 子); the message says what is wrong.
    pub fn position_from_text(&self, text: &str) -> Result<MusashiPos, String> {
        let mut words = text.split_whitespace();
        let (Some(diagram), Some(side), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!(
                "a position is the rows joined by '/' and the side to move (oya or ko), e.g. \"{}\"",
                self.to_text(&self.start())
            ));
        };
        let to_move = match side {
            "oya" | "親" => OYA,
            "ko" | "子" => KO,
            other => return Err(format!("unknown side to move \"{other}\" (oya or ko)")),
        };
        let rows: Vec<String> = diagram.split('/').map(|r| r.replace('-', " ")).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        self.position_from_rows(&rows, to_move)
    }

    /// The points next to `p`.
    pub fn neighbours(&self, p: PointId) -> &[u8] {
        &self.steps[p]
    }

    /// The 子 that 親 takes by entering `to` (both of every pair), as bits.
    pub(crate) fn captured_bits(&self, pos: &MusashiPos, to: PointId) -> u64 {
        self.pair_masks_of(to)
            .iter()
            .filter(|&&m| pos.ko & m == m)
            .fold(0, |bits, &m| bits | m)
    }

    /// The pairs 親 takes by entering `p`, each as one mask of both points.
    pub(crate) fn pair_masks_of(&self, p: PointId) -> &[u64] {
        &self.pair_masks[self.pair_start[p]..self.pair_start[p + 1]]
    }

    /// Whether 親 entering `p` would take a pair (`p` is a gap in the net).
    fn is_gap(&self, ko: u64, p: PointId) -> bool {
        self.pair_masks_of(p).iter().any(|&m| m & !ko == 0)
    }

    /// The gaps in the net: every empty point where the 親 stepping in
    /// would take a pair, wherever the 親 stands now.
    pub(crate) fn gap_points(&self, pos: &MusashiPos) -> Vec<PointId> {
        bit_points(self.empty_bits(pos))
            .filter(|&p| self.is_gap(pos.ko, p))
            .collect()
    }

    /// The 子 a move takes, in point order.
    pub fn captured(&self, pos: &MusashiPos, mv: MusashiMove) -> Vec<PointId> {
        if pos.to_move != OYA {
            return Vec::new();
        }
        bit_points(self.captured_bits(pos, mv.to as PointId)).collect()
    }

    /// The empty points as bits.
    fn empty_bits(&self, pos: &MusashiPos) -> u64 {
        self.all_points & !pos.ko & !(1u64 << pos.oya)
    }

    fn can_move(&self, pos: &MusashiPos, p: PointId) -> bool {
        self.neighbour_bits[p] & self.empty_bits(pos) != 0
    }

    /// The static value for the side to move, as `view` sees it.
    fn judge(&self, pos: &MusashiPos, view: View) -> i32 {
        // From the 子's point of view, then turned to the side to move.
        let ko = pos.ko_count() as i32;
        let o = pos.oya as PointId;
        let empty = self.empty_bits(pos);
        let mobility = (self.neighbour_bits[o] & empty).count_ones() as i32;
        let room = self.oya_room(pos);
        // 子 side by side cannot be split; a closing ring wins.
        let touching: i32 = bit_points(pos.ko)
            .map(|k| (self.neighbour_bits[k] & pos.ko).count_ones() as i32)
            .sum();
        let cornered = match room {
            _ if !view.see_traps => 0,
            0..=2 => 200,
            3..=5 => 80,
            _ => 0,
        };
        let setchin = if view.see_traps && self.in_setchin(pos) {
            80
        } else {
            0
        };
        let crowd = (self.near_bits[o] & pos.ko).count_ones() as i32;
        let mut score = 100 * ko - view.mobility * mobility - view.room * room
            + view.crowd * crowd
            + 2 * touching
            + cornered
            + setchin;
        if view.see_threats {
            let threats = self.threats(pos) as i32;
            let gaps = self.gaps(pos) as i32;
            score -= 35 * threats + 8 * gaps;
            if pos.to_move == OYA && threats > 0 {
                // 親 to move takes a pair.
                score -= 150;
            }
        }
        if pos.to_move == KO { score } else { -score }
    }

    /// Empty points next to which 親 could enter and capture right now.
    fn threats(&self, pos: &MusashiPos) -> u32 {
        let next_to_oya = self.neighbour_bits[pos.oya as PointId] & self.empty_bits(pos);
        bit_points(next_to_oya)
            .filter(|&q| self.is_gap(pos.ko, q))
            .count() as u32
    }

    /// Gaps in the 子's net: empty points between two 子 on a line.
    fn gaps(&self, pos: &MusashiPos) -> u32 {
        bit_points(self.empty_bits(pos))
            .filter(|&p| self.is_gap(pos.ko, p))
            .count() as u32
    }

    /// Empty points 親 can reach by stepping (its room to live).
    fn oya_room(&self, pos: &MusashiPos) -> i32 {
        let empty = self.empty_bits(pos);
        let mut reached = 0u64;
        let mut frontier = 1u64 << pos.oya;
        while frontier != 0 {
            let next = bit_points(frontier).fold(0, |bits, p| bits | self.neighbour_bits[p]);
            frontier = next & empty & !reached;
            reached |= frontier;
        }
        reached.count_ones() as i32
    }

    /// 印を出す: whether a 子's move lets 親 capture at once where it could
    /// not before. False for 親's moves.
    pub fn move_exposes(&self, pos: &MusashiPos, mv: MusashiMove) -> bool {
        if pos.to_move != KO {
            return false;
        }
        let after = self.play(pos, mv);
        let o = pos.oya as PointId;
        self.steps[o].iter().any(|&q| {
            let q = q as PointId;
            after.is_empty(q) && {
                let now = self.captured_bits(&after, q);
                let before = if pos.is_empty(q) {
                    self.captured_bits(pos, q)
                } else {
                    0
                };
                now & !before != 0
            }
        })
    }
}

impl Game for Musashi {
    type Pos = MusashiPos;
    type Move = MusashiMove;

    fn start(&self) -> MusashiPos {
        let mut pos = MusashiPos {
            ko: self.perimeter,
            oya: self.centre as u8,
            to_move: if self.rules.ko_first { KO } else { OYA },
            ply: 0,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    fn side_to_move(&self, pos: &MusashiPos) -> Side {
        pos.to_move
    }

    fn legal_moves(&self, pos: &MusashiPos, out: &mut Vec<MusashiMove>) {
        let empty = self.empty_bits(pos);
        let mut push_from = |p: PointId| {
            for &q in &self.steps[p] {
                if empty & (1 << q) != 0 {
                    out.push(MusashiMove {
                        from: p as u8,
                        to: q,
                    });
                }
            }
        };
        if pos.to_move == OYA {
            push_from(pos.oya as PointId);
        } else {
            for k in pos.ko() {
                push_from(k);
            }
        }
    }

    fn play(&self, pos: &MusashiPos, mv: MusashiMove) -> MusashiPos {
        let mut next = *pos;
        let (from, to) = (mv.from as PointId, mv.to as PointId);
        if pos.to_move == OYA {
            let taken = self.captured_bits(pos, to);
            for k in bit_points(taken) {
                next.hash ^= zobrist(100 + k as u64);
            }
            next.ko &= !taken;
            next.oya = to as u8;
            next.hash ^= zobrist(200 + from as u64) ^ zobrist(200 + to as u64);
        } else {
            next.ko = (next.ko & !(1 << from)) | (1 << to);
            next.hash ^= zobrist(100 + from as u64) ^ zobrist(100 + to as u64);
        }
        next.to_move = pos.to_move.opponent();
        next.hash ^= zobrist(0);
        next.ply += 1;
        next
    }

    fn outcome(&self, pos: &MusashiPos) -> Option<Outcome> {
        if pos.ko_count() <= self.rules.oya_wins_at as u32 {
            return Some(Outcome::win(OYA, EndReason::CaptureTarget));
        }
        if pos.to_move == OYA && !self.can_move(pos, pos.oya as PointId) {
            return Some(Outcome::win(KO, EndReason::NoMoves));
        }
        if pos.to_move == KO && !pos.ko().any(|k| self.can_move(pos, k)) {
            return Some(Outcome::win(OYA, EndReason::NoMoves));
        }
        if pos.ply >= MOVE_LIMIT {
            return Some(Outcome::win(OYA, EndReason::MoveLimit));
        }
        None
    }

    fn repetition_outcome(&self, _pos: &MusashiPos, count: u32) -> Option<Outcome> {
        (count >= 3).then_some(Outcome::win(OYA, EndReason::Repetition))
    }

    fn hash(&self, pos: &MusashiPos) -> u64 {
        pos.hash
    }

    fn evaluate(&self, pos: &MusashiPos) -> i32 {
        self.judge(pos, View::ORDINARY)
    }

    fn evaluate_plain(&self, pos: &MusashiPos) -> i32 {
        self.judge(pos, View::PLAIN)
    }

    fn evaluate_oversight(&self, pos: &MusashiPos) -> i32 {
        self.judge(pos, View::OVERSIGHT)
    }

    fn evaluate_expert(&self, pos: &MusashiPos) -> i32 {
        self.judge(pos, View::EXPERT)
    }

    fn stat_label(&self, side: Side) -> (&'static str, &'static str) {
        if side == KO {
            ("子", "takeable")
        } else {
            ("親", "trap")
        }
    }

    /// A 子 move after which 親 can take a pair at once (a gap left open);
    /// a 親 move into a trap: a point of the 雪隠 or a corner of the square.
    fn move_stat(&self, before: &MusashiPos, _mv: MusashiMove, after: &MusashiPos) -> Option<bool> {
        if before.to_move == KO {
            return Some(crate::rules::game::capture_open(self, after));
        }
        Some(self.in_setchin(after) || self.is_corner(after.oya()))
    }

    fn is_capture(&self, pos: &MusashiPos, mv: MusashiMove) -> bool {
        pos.to_move == OYA && self.captured_bits(pos, mv.to as PointId) != 0
    }

    fn move_index(&self, mv: MusashiMove) -> usize {
        mv.from as usize * 64 + mv.to as usize
    }

    fn move_index_bound(&self) -> usize {
        64 * 64
    }

    fn move_ends(&self, mv: MusashiMove) -> (PointId, PointId) {
        (mv.from as PointId, mv.to as PointId)
    }

    fn exact(&self, pos: &MusashiPos) -> Option<Exact> {
        let tables = &self.endgame.as_ref()?.0;
        let ko = pos.ko_count();
        if ko <= tables.floor() as u32 || ko > tables.max_ko() as u32 {
            return None;
        }
        match tables.value(pos)? {
            // A win that would run past the move limit is not one.
            Value::KoWin(n) if pos.ply as u32 + n as u32 >= MOVE_LIMIT as u32 => None,
            Value::KoWin(n) => Some(Exact::WinIn {
                winner: KO,
                plies: n,
            }),
            Value::NotKoWin => Some(Exact::Won { winner: OYA }),
        }
    }

    fn move_text(&self, pos: &MusashiPos, mv: MusashiMove) -> String {
        let name = |p: u8| self.board.point(p as PointId).name.clone();
        let sep = if self.is_capture(pos, mv) { "×" } else { "-" };
        format!("{}{sep}{}", name(mv.from), name(mv.to))
    }
}
