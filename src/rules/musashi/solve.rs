//! The exact 十六むさし endgame solver: retrograde analysis of the
//! pure rules — no threshold, no repetition, no move limit.
//!
//! A position is a 子 win when the 子 can force 親 into having no move on
//! its turn; its value is then the number of plies to that end with best
//! play (the 子 hurry, 親 holds out). Every other position is not a 子 win:
//! 親 survives for ever. A 子 side that cannot move at all has not won.
//!
//! Positions are solved layer by layer, one layer per 子 count, fewest
//! first: 子 moves keep the count, and 親's captures lead into a layer
//! already solved. Inside a layer the solver works backwards from the
//! positions where 親 is stuck, in order of distance (a bucket queue), so
//! each 子 position gets the shortest win and each 親 position the longest
//! resistance.
//!
//! The work is *resumable* ([`Solver::work`] does a slice and returns), so
//! the game builds its tables a little per frame on the single-threaded web
//! build as well as natively.
//!
//! A layer of k 子 holds, for each side to move, every placement of 親 on
//! one of the n points and the k 子 on k of the other n − 1: its index is
//! 親's point × C(n−1, k) + the colex rank of the 子 set among the other
//! points (the combinatorial number system).

use super::{KO, Musashi, MusashiMove, MusashiPos, OYA};
use crate::rules::game::{Game, Side};

/// How many positions the game solves in the background natively and in
/// the web page's search worker (two bytes each, and about a second per
/// two million natively).
pub const NATIVE_BUDGET: u64 = 64_000_000;
/// The same on a web page that must solve them a slice a frame.
pub const WEB_BUDGET: u64 = 17_000_000;

/// Which tables a game reads: its board's size and its threshold (the
/// first mover changes no position's value).
pub type TablesKey = (usize, u8);

pub fn tables_key(game: &Musashi) -> TablesKey {
    (game.board().len(), game.rules().oya_wins_at)
}

/// The value stored for a position that is not a 子 win.
const NOT_WIN: u16 = u16::MAX;
/// A 親-to-move position with a capture into a non-win: never a 子 win.
const ESCAPES: u8 = u8::MAX;
/// The most 子 the solver takes (memory: two bytes a position; 8 子 on the
/// 33-point board are 2 × 348 million positions).
pub const MAX_KO: u8 = 8;

/// The side to move, as the solver stores it.
fn side_slot(side: Side) -> usize {
    if side == OYA { 0 } else { 1 }
}

/// The value of a position under the pure rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The 子 force 親 into having no move in this many plies.
    KoWin(u16),
    /// 親 survives for ever.
    NotKoWin,
}

/// The board as the solver sees it: bit masks.
#[derive(Clone, Debug)]
struct Geometry {
    points: usize,
    /// For each point: its neighbours.
    steps: Vec<Vec<u8>>,
    /// For each point: the pairs (both bits) that 親 takes by entering it.
    pairs: Vec<Vec<u64>>,
    /// The point's mirror image in the row y = 2.
    mirror: Vec<u8>,
}

impl Geometry {
    fn new(game: &Musashi) -> Self {
        let board = game.board();
        let points = board.len();
        let steps = (0..points).map(|p| game.neighbours(p).to_vec()).collect();
        let pairs = (0..points)
            .map(|p| game.pair_masks_of(p).to_vec())
            .collect();
        let mirror = (0..points)
            .map(|p| {
                let pt = board.point(p);
                board.at(pt.x, 4 - pt.y).unwrap_or(p) as u8
            })
            .collect();
        Geometry {
            points,
            steps,
            pairs,
            mirror,
        }
    }

    fn captured(&self, ko: u64, to: usize) -> u64 {
        self.pairs[to]
            .iter()
            .filter(|&&m| ko & m == m)
            .fold(0, |acc, &m| acc | m)
    }

    fn mirror_bits(&self, bits: u64) -> u64 {
        let mut out = 0;
        let mut b = bits;
        while b != 0 {
            let p = b.trailing_zeros() as usize;
            out |= 1 << self.mirror[p];
            b &= b - 1;
        }
        out
    }
}

/// Binomial coefficients C(n, k) for n ≤ 64.
#[derive(Clone, Debug)]
struct Binomials(Vec<[u64; 65]>);

impl Binomials {
    fn new() -> Self {
        let mut c = vec![[0u64; 65]; 65];
        for n in 0..65 {
            c[n][0] = 1;
            for k in 1..=n {
                c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            }
        }
        Binomials(c)
    }
    fn get(&self, n: usize, k: usize) -> u64 {
        if k > n { 0 } else { self.0[n][k] }
    }
    /// Positions with `k` 子 on `points` points, both sides to move.
    fn layer_positions(&self, points: usize, k: usize) -> u64 {
        2 * points as u64 * self.get(points - 1, k)
    }
}

/// One layer: every position with a given number of 子, for each side to
/// move, with its value (plies to a 子 win, or [`NOT_WIN`]).
#[derive(Clone, Debug)]
struct Layer {
    /// Placements of the 子 for one point of 親: C(n − 1, k).
    per_oya: u64,
    values: [Vec<u16>; 2],
}

/// The solved layers 0..=max_ko.
#[derive(Clone, Debug)]
pub struct Tables {
    /// Layers with this many 子 or fewer are not solved: 親 has won there
    /// (the game's threshold; 0 for the pure rules).
    floor: u8,
    geo: Geometry,
    binom: Binomials,
    layers: Vec<Layer>,
}

/// Counts for one 子 count and side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerStats {
    pub ko: u8,
    pub side: Side,
    pub positions: u64,
    pub ko_wins: u64,
    pub non_wins: u64,
    /// `histogram[n]`: 子 wins in exactly n plies.
    pub histogram: Vec<u64>,
    /// The longest win and one position that needs it (the first in index
    /// order).
    pub longest: Option<(u16, MusashiPos)>,
}

impl Tables {
    /// The number of 子 the tables cover.
    pub fn max_ko(&self) -> u8 {
        self.layers.len() as u8 - 1
    }

    /// 親 has won at this many 子 or fewer (0 for the pure rules).
    pub fn floor(&self) -> u8 {
        self.floor
    }

    /// The number of points of the board solved.
    pub fn points(&self) -> usize {
        self.geo.points
    }

    fn compress(ko: u64, oya: usize) -> u64 {
        let low = ko & ((1u64 << oya) - 1);
        let high = (ko >> (oya + 1)) << oya;
        low | high
    }

    fn expand(mask: u64, oya: usize) -> u64 {
        let low = mask & ((1u64 << oya) - 1);
        let high = (mask >> oya) << (oya + 1);
        low | high
    }

    fn rank(&self, mask: u64) -> u64 {
        let mut r = 0;
        let mut m = mask;
        let mut i = 1;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            r += self.binom.get(c, i);
            i += 1;
            m &= m - 1;
        }
        r
    }

    fn unrank(&self, mut r: u64, k: usize) -> u64 {
        let mut mask = 0;
        let mut c = self.geo.points - 1;
        for i in (1..=k).rev() {
            // The largest c with C(c, i) ≤ r.
            while self.binom.get(c, i) > r {
                c -= 1;
            }
            mask |= 1 << c;
            r -= self.binom.get(c, i);
            c = c.saturating_sub(1);
        }
        mask
    }

    fn index(&self, oya: usize, ko: u64) -> usize {
        let k = ko.count_ones() as usize;
        (oya as u64 * self.layers[k].per_oya + self.rank(Self::compress(ko, oya))) as usize
    }

    fn placement(&self, k: usize, index: usize) -> (usize, u64) {
        let per_oya = self.layers[k].per_oya;
        let oya = (index as u64 / per_oya) as usize;
        let ko = Self::expand(self.unrank(index as u64 % per_oya, k), oya);
        (oya, ko)
    }

    fn raw(&self, slot: usize, oya: usize, ko: u64) -> u16 {
        let k = ko.count_ones() as usize;
        let values = &self.layers[k].values[slot];
        if values.is_empty() {
            // Below the floor: 親 has won.
            return NOT_WIN;
        }
        values[self.index(oya, ko)]
    }

    /// The value of `pos` under the pure rules, if the tables reach it.
    pub fn value(&self, pos: &MusashiPos) -> Option<Value> {
        let k = pos.ko_count() as usize;
        if k >= self.layers.len() || pos.oya() >= self.geo.points {
            return None;
        }
        let bits = pos.ko_bits();
        Some(match self.raw(side_slot(pos.to_move()), pos.oya(), bits) {
            NOT_WIN => Value::NotKoWin,
            n => Value::KoWin(n),
        })
    }

    /// The moves of perfect play in `pos`: for a 子 win, the 子's fastest
    /// wins or 親's longest resistances; otherwise 親's moves that stay out
    /// of a 子 win (every 子 move, since none wins). `None` when the tables
    /// do not reach the position or it has no move.
    pub fn perfect_moves(&self, game: &Musashi, pos: &MusashiPos) -> Option<Vec<MusashiMove>> {
        let value = self.value(pos)?;
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        let scored: Vec<(MusashiMove, Value)> = moves
            .into_iter()
            .map(|m| Some((m, self.value(&game.play(pos, m))?)))
            .collect::<Option<_>>()?;
        let plies = |v: &Value| match v {
            Value::KoWin(n) => Some(*n),
            Value::NotKoWin => None,
        };
        let best: Option<Value> = match (value, pos.to_move() == KO) {
            (Value::KoWin(_), true) => scored
                .iter()
                .filter_map(|(_, v)| plies(v))
                .min()
                .map(Value::KoWin),
            (Value::KoWin(_), false) => scored
                .iter()
                .filter_map(|(_, v)| plies(v))
                .max()
                .map(Value::KoWin),
            (Value::NotKoWin, _) => Some(Value::NotKoWin),
        };
        let best = best?;
        let chosen: Vec<MusashiMove> = scored
            .into_iter()
            .filter(|(_, v)| *v == best)
            .map(|(m, _)| m)
            .collect();
        (!chosen.is_empty()).then_some(chosen)
    }

    /// A best line from `pos`: to 親's last stand for a 子 win, or
    /// `max_plies` plies of 親 staying out of one.
    pub fn best_line(
        &self,
        game: &Musashi,
        pos: &MusashiPos,
        max_plies: usize,
    ) -> Vec<MusashiMove> {
        let mut line = Vec::new();
        let mut cur = *pos;
        while line.len() < max_plies {
            let Some(moves) = self.perfect_moves(game, &cur) else {
                break;
            };
            let Some(&mv) = moves.first() else { break };
            line.push(mv);
            cur = game.play(&cur, mv);
        }
        line
    }

    /// The counts for `ko` 子 with `side` to move; with `mirror`, a position
    /// and its mirror image in the row y = 2 count once.
    pub fn stats(&self, ko: u8, side: Side, mirror: bool) -> LayerStats {
        let k = ko as usize;
        let slot = side_slot(side);
        let values = &self.layers[k].values[slot];
        let mut stats = LayerStats {
            ko,
            side,
            positions: 0,
            ko_wins: 0,
            non_wins: 0,
            histogram: Vec::new(),
            longest: None,
        };
        let mut longest: Option<(u16, usize)> = None;
        for (i, &v) in values.iter().enumerate() {
            if mirror {
                let (oya, bits) = self.placement(k, i);
                let image = self.index(self.geo.mirror[oya] as usize, self.geo.mirror_bits(bits));
                if image < i {
                    continue;
                }
            }
            stats.positions += 1;
            if v == NOT_WIN {
                stats.non_wins += 1;
                continue;
            }
            stats.ko_wins += 1;
            let n = v as usize;
            if stats.histogram.len() <= n {
                stats.histogram.resize(n + 1, 0);
            }
            stats.histogram[n] += 1;
            if longest.is_none_or(|(best, _)| v > best) {
                longest = Some((v, i));
            }
        }
        stats.longest = longest.map(|(v, i)| (v, self.position_at(k, slot, i)));
        stats
    }

    fn position_at(&self, k: usize, slot: usize, index: usize) -> MusashiPos {
        let (oya, bits) = self.placement(k, index);
        let to_move = if slot == 0 { OYA } else { KO };
        MusashiPos::from_bits(bits, oya as u8, to_move)
    }
}

/// Where the solver is in its work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Scoring 親-to-move positions of the current layer from their moves,
    /// from this index on.
    Start {
        next: usize,
    },
    /// Working back from the wins in `plies`, from this entry of its bucket.
    Back {
        plies: usize,
        next: usize,
    },
    Done,
}

/// Builds [`Tables`] a slice at a time.
#[derive(Clone, Debug)]
pub struct Solver {
    tables: Tables,
    max_ko: u8,
    phase: Phase,
    /// For each 親-to-move position of the layer being solved: its moves
    /// not yet known to lose, or [`ESCAPES`].
    open_moves: Vec<u8>,
    /// Positions (slot 0 or 1 in the top bit) won in n plies, not yet
    /// worked back from.
    buckets: Vec<Vec<u32>>,
}

impl Solver {
    /// A solver for every position of `game`'s board with up to `max_ko` 子
    /// under the pure rules.
    pub fn new(game: &Musashi, max_ko: u8) -> Result<Self, String> {
        Self::with_floor(game, 0, max_ko)
    }

    /// A solver for the game's own rules, where 親 wins as soon as `floor`
    /// 子 or fewer are left, for as many 子 as `budget` positions allow
    /// (`None` if not even one layer above the floor fits).
    pub fn for_game(game: &Musashi, budget: u64) -> Option<Self> {
        let floor = game.rules().oya_wins_at;
        let n = game.board().len();
        let binom = Binomials::new();
        let mut used = 0;
        let mut max_ko = floor;
        for k in floor + 1..=MAX_KO {
            used += binom.layer_positions(n, k as usize);
            if used > budget {
                break;
            }
            max_ko = k;
        }
        (max_ko > floor)
            .then(|| Self::with_floor(game, floor, max_ko).ok())
            .flatten()
    }

    fn with_floor(game: &Musashi, floor: u8, max_ko: u8) -> Result<Self, String> {
        if max_ko > MAX_KO {
            return Err(format!("--max-ko may be at most {MAX_KO}, not {max_ko}"));
        }
        let geo = Geometry::new(game);
        let tables = Tables {
            floor,
            binom: Binomials::new(),
            geo,
            layers: Vec::new(),
        };
        let mut solver = Solver {
            tables,
            max_ko,
            phase: Phase::Done,
            open_moves: Vec::new(),
            buckets: Vec::new(),
        };
        solver.open_layer(0);
        Ok(solver)
    }

    /// Total positions the solver will store (both sides to move).
    pub fn positions(game: &Musashi, max_ko: u8) -> u64 {
        let n = game.board().len();
        let binom = Binomials::new();
        (0..=max_ko as usize)
            .map(|k| binom.layer_positions(n, k))
            .sum()
    }

    fn open_layer(&mut self, k: usize) {
        let n = self.tables.geo.points;
        let per_oya = self.tables.binom.get(n - 1, k);
        // Pure rules (floor 0) still list the 子-less layer in the table.
        let size = if self.tables.floor > 0 && k <= self.tables.floor as usize {
            0
        } else {
            n * per_oya as usize
        };
        self.tables.layers.push(Layer {
            per_oya,
            values: [vec![NOT_WIN; size], vec![NOT_WIN; size]],
        });
        self.open_moves = vec![0; size];
        self.buckets.clear();
        self.phase = Phase::Start { next: 0 };
    }

    pub(crate) fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Does about `budget` positions' worth of work; true when all is done.
    pub fn work(&mut self, budget: usize) -> bool {
        let mut left = budget;
        while left > 0 {
            match self.phase {
                Phase::Done => return true,
                Phase::Start { next } => {
                    let k = self.tables.layers.len() - 1;
                    let size = self.open_moves.len();
                    let end = (next + left).min(size);
                    for i in next..end {
                        self.score_oya_position(k, i);
                    }
                    left -= end - next;
                    self.phase = if end == size {
                        Phase::Back { plies: 0, next: 0 }
                    } else {
                        Phase::Start { next: end }
                    };
                }
                Phase::Back { plies, next } => {
                    if plies >= self.buckets.len() {
                        let k = self.tables.layers.len() - 1;
                        self.open_moves = Vec::new();
                        if k < self.max_ko as usize {
                            self.open_layer(k + 1);
                        } else {
                            self.phase = Phase::Done;
                        }
                        continue;
                    }
                    let len = self.buckets[plies].len();
                    let end = (next + left).min(len);
                    for j in next..end {
                        let entry = self.buckets[plies][j];
                        self.work_back(plies, entry);
                    }
                    left -= (end - next).max(1);
                    self.phase = if end == len {
                        self.buckets[plies] = Vec::new();
                        Phase::Back {
                            plies: plies + 1,
                            next: 0,
                        }
                    } else {
                        Phase::Back { plies, next: end }
                    };
                }
            }
        }
        self.phase == Phase::Done
    }

    /// Runs to the end.
    pub fn finish(mut self) -> Tables {
        while !self.work(1 << 20) {}
        self.tables
    }

    /// The tables, once [`Solver::work`] has returned true.
    pub fn into_tables(self) -> Option<Tables> {
        self.is_done().then_some(self.tables)
    }

    fn push(&mut self, plies: usize, slot: usize, index: usize) {
        if self.buckets.len() <= plies {
            self.buckets.resize_with(plies + 1, Vec::new);
        }
        self.buckets[plies].push(index as u32 | ((slot as u32) << 31));
    }

    /// 親 to move at `index`: stuck (a 子 win now), escaping by a capture
    /// into a non-win, or waiting on its plain moves.
    fn score_oya_position(&mut self, k: usize, index: usize) {
        let t = &self.tables;
        let (oya, ko) = t.placement(k, index);
        let occupied = ko | (1 << oya);
        let mut plain = 0u8;
        let mut any = false;
        let mut longest_capture: Option<u16> = None;
        for &to in &t.geo.steps[oya] {
            let to = to as usize;
            if occupied & (1 << to) != 0 {
                continue;
            }
            any = true;
            let taken = t.geo.captured(ko, to);
            if taken == 0 {
                plain += 1;
                continue;
            }
            match t.raw(1, to, ko & !taken) {
                NOT_WIN => {
                    self.open_moves[index] = ESCAPES;
                    return;
                }
                n => longest_capture = Some(longest_capture.map_or(n, |m| m.max(n))),
            }
        }
        if !any {
            self.tables.layers[k].values[0][index] = 0;
            self.push(0, 0, index);
        } else if plain == 0 {
            let plies = longest_capture.map_or(0, |n| n as usize + 1);
            self.tables.layers[k].values[0][index] = plies as u16;
            self.push(plies, 0, index);
        } else {
            self.open_moves[index] = plain;
        }
    }

    /// A position won in `plies`: its predecessors in this layer learn it.
    fn work_back(&mut self, plies: usize, entry: u32) {
        let k = self.tables.layers.len() - 1;
        let slot = (entry >> 31) as usize;
        let index = (entry & 0x7fff_ffff) as usize;
        let (oya, ko) = self.tables.placement(k, index);
        let occupied = ko | (1 << oya);
        let next = plies + 1;
        if slot == 0 {
            // The 子 just moved: a 子 stepped here from an empty neighbour.
            let mut bits = ko;
            while bits != 0 {
                let p = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for s in 0..self.tables.geo.steps[p].len() {
                    let from = self.tables.geo.steps[p][s] as usize;
                    if occupied & (1 << from) != 0 {
                        continue;
                    }
                    let before = (ko & !(1 << p)) | (1 << from);
                    let i = self.tables.index(oya, before);
                    if self.tables.layers[k].values[1][i] == NOT_WIN {
                        self.tables.layers[k].values[1][i] = next as u16;
                        self.push(next, 1, i);
                    }
                }
            }
        } else {
            // 親 just moved here without taking: impossible if the point
            // sits between two 子 (entering it would have taken them).
            if self.tables.geo.captured(ko, oya) != 0 {
                return;
            }
            for s in 0..self.tables.geo.steps[oya].len() {
                let from = self.tables.geo.steps[oya][s] as usize;
                if occupied & (1 << from) != 0 {
                    continue;
                }
                let i = self.tables.index(from, ko);
                let open = self.open_moves[i];
                if open == ESCAPES || open == 0 {
                    continue;
                }
                self.open_moves[i] = open - 1;
                if open == 1 {
                    let plies = next.max(self.longest_capture(k, i).map_or(0, |n| n as usize + 1));
                    self.tables.layers[k].values[0][i] = plies as u16;
                    self.push(plies, 0, i);
                }
            }
        }
    }

    /// The longest of 親's captures from a position whose captures all
    /// lead to 子 wins.
    fn longest_capture(&self, k: usize, index: usize) -> Option<u16> {
        let t = &self.tables;
        let (oya, ko) = t.placement(k, index);
        let occupied = ko | (1 << oya);
        t.geo.steps[oya]
            .iter()
            .map(|&to| to as usize)
            .filter(|&to| occupied & (1 << to) == 0)
            .filter_map(|to| {
                let taken = t.geo.captured(ko, to);
                (taken != 0).then(|| t.raw(1, to, ko & !taken))
            })
            .max()
    }
}

/// Solves every position of `game`'s board with up to `max_ko` 子.
pub fn solve(game: &Musashi, max_ko: u8) -> Result<Tables, String> {
    Ok(Solver::new(game, max_ko)?.finish())
}

/// The values of a position and its moves, for the `solve --position` text.
pub fn describe(tables: &Tables, game: &Musashi, pos: &MusashiPos) -> Result<String, String> {
    let value = tables
        .value(pos)
        .ok_or_else(|| format!("the tables reach {} 子 at most", tables.max_ko()))?;
    let mut out = String::new();
    out.push_str(&match value {
        Value::KoWin(n) => format!("value: 子 win in {n} plies\n"),
        Value::NotKoWin => "value: not a 子 win — 親 survives (not a ko win)\n".to_string(),
    });
    let line = tables.best_line(game, pos, 40);
    let mut cur = *pos;
    let mut words = Vec::new();
    for mv in &line {
        let who = if cur.to_move() == OYA { "親" } else { "子" };
        words.push(format!("{who} {}", game.move_text(&cur, *mv)));
        cur = game.play(&cur, *mv);
    }
    match value {
        Value::KoWin(_) => out.push_str(&format!("best line: {}\n", words.join(", "))),
        Value::NotKoWin if words.is_empty() => out.push_str("best line: (no move)\n"),
        Value::NotKoWin => out.push_str(&format!(
            "a line where 親 stays out of a 子 win: {}\n",
            words.join(", ")
        )),
    }
    out.push_str(&format!("final position: {}\n", game.to_text(&cur)));
    Ok(out)
}
