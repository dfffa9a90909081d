//! The 中将棋 board and SFEN (lishogi-compatible): 12×12 squares
//! named by USI (files 12…1 from 先手's left, ranks a…l from the top), the
//! pieces, the side to move and the 先獅子 square.

use serde::{Deserialize, Serialize};

use super::pieces::{Base, Piece};
use crate::rules::game::Side;

pub const FILES: usize = 12;
pub const RANKS: usize = 12;
pub const SQUARES: usize = FILES * RANKS;

/// The start position.
pub const START_SFEN: &str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";

/// A square: `row * 12 + column`, row 0 the top rank (a), column 0 the
/// left file (12) as 先手 sees the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square(pub u8);

impl Square {
    /// The square on `row`, `column` counted from the top left, if on the board.
    pub fn new(row: usize, column: usize) -> Option<Square> {
        Square::at(i32::try_from(row).ok()?, i32::try_from(column).ok()?)
    }
    /// The square `rows` down and `columns` right of `self`, if on the
    /// board (the walk every step, slide and ray of the rules makes).
    pub fn shifted(self, rows: i32, columns: i32) -> Option<Square> {
        Square::at(self.row() as i32 + rows, self.column() as i32 + columns)
    }
    /// The square on `row`, `column`, if both are on the board.
    pub fn at(row: i32, column: i32) -> Option<Square> {
        ((0..RANKS as i32).contains(&row) && (0..FILES as i32).contains(&column))
            .then(|| Square((row as usize * FILES + column as usize) as u8))
    }
    pub fn row(self) -> usize {
        self.0 as usize / FILES
    }
    pub fn column(self) -> usize {
        self.0 as usize % FILES
    }
    /// How many king steps apart `self` and `other` are.
    pub fn king_steps(self, other: Square) -> usize {
        self.row()
            .abs_diff(other.row())
            .max(self.column().abs_diff(other.column()))
    }
    /// The USI file number, 1…12.
    pub fn file(self) -> usize {
        FILES - self.column()
    }
    /// The USI rank letter, a…l.
    pub fn rank(self) -> char {
        (b'a' + self.row() as u8) as char
    }
    /// The USI name, e.g. `7i`.
    pub fn name(self) -> String {
        format!("{}{}", self.file(), self.rank())
    }
    /// Reads a USI square name.
    pub fn parse(text: &str) -> Result<Square, String> {
        let bad = || format!("\"{text}\" is not a square (files 1–12, ranks a–l, e.g. 7i)");
        let rank = text.chars().last().ok_or_else(bad)?;
        let file: usize = text[..text.len() - rank.len_utf8()]
            .parse()
            .map_err(|_| bad())?;
        if !(1..=FILES).contains(&file) || !('a'..='l').contains(&rank) {
            return Err(bad());
        }
        Square::new(rank as usize - 'a' as usize, FILES - file).ok_or_else(bad)
    }
}

/// A 中将棋 position. (Serialized whole for a web page's search worker.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChuPosition {
    #[serde(with = "crate::rules::fixed_array")]
    board: [Option<(Side, Piece)>; SQUARES],
    to_move: Side,
    /// 先獅子: where the side to move's lion was just taken by a non-lion.
    lion_taken_at: Option<Square>,
    /// SFEN's last field, as lishogi (shogiops) counts it: 1 at the start,
    /// one more after every move of either side.
    move_number: u32,
    /// [`ChuPosition::key`], kept up to date move by move.
    key: u64,
    /// A mate problem's attacker: the side that plays without a king or
    /// 太子 and so cannot lose by having none ([`ChuPosition::attacker`]).
    attacker: Option<Side>,
}

/// The Zobrist number of `piece` of `side` standing on `sq`.
fn piece_key(sq: usize, side: Side, piece: Piece) -> u64 {
    use crate::rules::game::zobrist;
    // One number per square, side, kind and promotion.
    let code = (piece.base as u64) * 4 + side.index() as u64 * 2 + piece.promoted as u64;
    zobrist(1000 + sq as u64 * 128 + code)
}

fn side_key(side: Side) -> u64 {
    match side {
        Side::First => 0,
        Side::Second => crate::rules::game::zobrist(1),
    }
}

fn lion_key(sq: Option<Square>) -> u64 {
    sq.map_or(0, |sq| crate::rules::game::zobrist(100 + sq.0 as u64))
}

impl ChuPosition {
    pub fn start() -> Self {
        // The start text is a constant checked by the tests.
        Self::from_sfen(START_SFEN).unwrap_or_else(|e| panic!("START_SFEN: {e}"))
    }

    pub fn at(&self, sq: Square) -> Option<(Side, Piece)> {
        self.board[sq.0 as usize]
    }

    /// Each side and kind of which this position holds more pieces than
    /// the start (a piece counted by what it was before it promoted): with
    /// no drops, no game reaches it. Side, kind, pieces here, at the start.
    pub fn beyond_start(&self) -> Vec<(Side, Base, usize, usize)> {
        let start = Self::start();
        let count = |p: &Self, side: Side, base: Base| {
            p.pieces()
                .filter(|&(_, s, piece)| s == side && piece.base == base)
                .count()
        };
        Side::BOTH
            .into_iter()
            .flat_map(|side| Base::ALL.into_iter().map(move |base| (side, base)))
            .filter_map(|(side, base)| {
                let (here, most) = (count(self, side, base), count(&start, side, base));
                (here > most).then_some((side, base, here, most))
            })
            .collect()
    }
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    pub fn lion_taken_at(&self) -> Option<Square> {
        self.lion_taken_at
    }
    pub fn set_lion_taken_at(&mut self, sq: Option<Square>) {
        self.key ^= lion_key(self.lion_taken_at) ^ lion_key(sq);
        self.lion_taken_at = sq;
    }
    /// The same board with `side` to move and no 先獅子 square: for asking
    /// what a side attacks.
    pub fn with_side_to_move(&self, side: Side) -> Self {
        let mut p = self.clone();
        p.key ^= side_key(p.to_move) ^ side_key(side) ^ lion_key(p.lion_taken_at);
        p.to_move = side;
        p.lion_taken_at = None;
        p
    }
    pub fn move_number(&self) -> u32 {
        self.move_number
    }
    /// The attacker of a mate problem (詰め中将棋): the side that plays
    /// without a king or 太子. It cannot lose by having none; the game ends
    /// when the other side's royals are taken or cannot escape. `None` in
    /// an ordinary game. Set by [`ChuPosition::read_start`] and kept by
    /// every move.
    pub fn attacker(&self) -> Option<Side> {
        self.attacker
    }
    /// Whether `side` has a king or 太子 on the board.
    pub fn has_royal(&self, side: Side) -> bool {
        self.pieces()
            .any(|(_, s, p)| s == side && super::end::is_royal(p))
    }
    /// The position as the start of a game or of a mate problem: where one
    /// side has a king or 太子 and the other none, the side without is a
    /// mate problem's attacker ([`ChuPosition::attacker`]). A position read
    /// to be played from (USI `position`, a record's start, an import)
    /// is read so: a game whose royals are all taken has ended and is never
    /// a start, and a problem is always one.
    pub fn read_start(mut self) -> ChuPosition {
        self.attacker = match Side::BOTH.map(|side| self.has_royal(side)) {
            [false, true] => Some(Side::First),
            [true, false] => Some(Side::Second),
            _ => None,
        };
        self
    }
    /// [`ChuPosition::from_sfen`], read as a start ([`ChuPosition::read_start`]).
    pub fn from_sfen_start(text: &str) -> Result<ChuPosition, String> {
        Self::from_sfen(text).map(ChuPosition::read_start)
    }
    /// Every occupied square with its piece.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Side, Piece)> + '_ {
        self.board
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|(s, p)| (Square(i as u8), s, p)))
    }

    /// The position after a piece moves `from` → (`mid` →) `to`, taking
    /// what stands on `mid` and `to`, promoting if asked. The 先獅子 square
    /// is left to the rules engine (cleared here).
    pub fn after(&self, from: Square, mid: Option<Square>, to: Square, promote: bool) -> Self {
        let mut next = self.clone();
        let mut key = self.key;
        let moving = next.board[from.0 as usize].take();
        if let Some((side, piece)) = moving {
            key ^= piece_key(from.0 as usize, side, piece);
        }
        if let Some(m) = mid
            && let Some((side, piece)) = next.board[m.0 as usize].take()
        {
            key ^= piece_key(m.0 as usize, side, piece);
        }
        if let Some((side, piece)) = next.board[to.0 as usize] {
            key ^= piece_key(to.0 as usize, side, piece);
        }
        next.board[to.0 as usize] = moving.map(|(side, mut piece)| {
            if promote {
                piece.promoted = true;
            }
            key ^= piece_key(to.0 as usize, side, piece);
            (side, piece)
        });
        next.to_move = self.to_move.opponent();
        key ^= side_key(self.to_move) ^ side_key(next.to_move);
        key ^= lion_key(self.lion_taken_at);
        next.lion_taken_at = None;
        next.key = key;
        // Counted as lishogi counts it: every move, either side's.
        next.move_number += 1;
        next
    }

    /// The position's identity for 千日手: the pieces, the side to move and
    /// the 先獅子 square (Zobrist; not the move number). Kept up to date
    /// by each move; equal to [`ChuPosition::computed_key`].
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The position seen from the other side of the board: turned half a
    /// circle, each piece changing sides, the other side to move (the
    /// evaluation must judge both alike).
    pub fn mirrored(&self) -> ChuPosition {
        let mut board = [None; SQUARES];
        for (i, cell) in self.board.iter().enumerate() {
            board[SQUARES - 1 - i] = cell.map(|(side, piece)| (side.opponent(), piece));
        }
        let turned = |sq: Square| Square(SQUARES as u8 - 1 - sq.0);
        let mut p = ChuPosition {
            board,
            to_move: self.to_move.opponent(),
            lion_taken_at: self.lion_taken_at.map(turned),
            move_number: self.move_number,
            key: 0,
            attacker: self.attacker.map(Side::opponent),
        };
        p.key = p.computed_key();
        p
    }

    /// The same board with the other side to move and no 先獅子 square: a
    /// pass, which the search uses for its null-move test (a real pass is
    /// the lion's じっと, a move like any other).
    pub fn passed(&self) -> ChuPosition {
        let mut p = self.clone();
        p.key ^= side_key(p.to_move) ^ lion_key(p.lion_taken_at);
        p.to_move = p.to_move.opponent();
        p.lion_taken_at = None;
        p.key ^= side_key(p.to_move);
        p
    }

    /// [`ChuPosition::key`] computed from the whole position.
    pub fn computed_key(&self) -> u64 {
        let mut key = side_key(self.to_move) ^ lion_key(self.lion_taken_at);
        for (i, cell) in self.board.iter().enumerate() {
            if let Some((side, piece)) = cell {
                key ^= piece_key(i, *side, *piece);
            }
        }
        key
    }

    /// A tutorial or problem diagram: the 12 ranks as SFEN writes them
    /// (rank a first; `12` for an empty rank), and the side to move. A
    /// 13th row is SFEN's 先獅子 field: the square where the side to move
    /// just lost its lion to a non-lion (`6e`), or `-`.
    pub fn from_rows(rows: &[&str], to_move: Side) -> Result<ChuPosition, String> {
        let side = match to_move {
            Side::First => "b",
            Side::Second => "w",
        };
        let (board, lion) = match rows {
            [board @ .., lion] if rows.len() == RANKS + 1 => (board, *lion),
            board => (board, "-"),
        };
        ChuPosition::from_sfen(&format!("{} {side} {lion} 1", board.join("/")))
    }

    /// Reads SFEN: the board (rows from rank a, `/` between, digits for
    /// runs of empty squares, capitals for 先手, `+` before a promoted
    /// piece), the side to move (`b` 先手, `w` 後手), the 先獅子 square or
    /// `-`, and the move number. The message names the row and column. The
    /// board alone, as lishogi reads it: a side without royals has lost
    /// ([`ChuPosition::from_sfen_start`] reads it as a mate problem).
    pub fn from_sfen(text: &str) -> Result<ChuPosition, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side, lion, number] = fields[..] else {
            return Err(format!(
                "SFEN has 4 fields (board, side, 先獅子 square or -, move number), found {}",
                fields.len()
            ));
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != RANKS {
            return Err(format!(
                "the board needs {RANKS} rows, found {}",
                rows.len()
            ));
        }
        let mut cells = [None; SQUARES];
        for (row, text) in rows.iter().enumerate() {
            let place = |column: usize| {
                format!(
                    "row {} ({}), column {}",
                    row + 1,
                    (b'a' + row as u8) as char,
                    column + 1
                )
            };
            let mut column = 0usize;
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut run = d as usize;
                    if let Some(next) = chars.peek().and_then(|n| n.to_digit(10)) {
                        chars.next();
                        run = run * 10 + next as usize;
                    }
                    if run == 0 {
                        return Err(format!("{}: an empty run of 0", place(column)));
                    }
                    column += run;
                    if column > FILES {
                        return Err(format!(
                            "{}: the row is longer than {FILES}",
                            place(column - run)
                        ));
                    }
                    continue;
                }
                let promoted = c == '+';
                let letter = if promoted {
                    chars
                        .next()
                        .ok_or_else(|| format!("{}: '+' without a piece", place(column)))?
                } else {
                    c
                };
                let base = Base::from_letter(letter)
                    .ok_or_else(|| format!("{}: unknown piece letter '{letter}'", place(column)))?;
                if promoted && base.promotes_to().is_none() {
                    return Err(format!("{}: '{letter}' does not promote", place(column)));
                }
                if column >= FILES {
                    return Err(format!("{}: the row is longer than {FILES}", place(column)));
                }
                let side = if letter.is_ascii_uppercase() {
                    Side::First
                } else {
                    Side::Second
                };
                cells[row * FILES + column] = Some((side, Piece { base, promoted }));
                column += 1;
            }
            if column != FILES {
                return Err(format!(
                    "{}: the row has {column} squares, not {FILES}",
                    place(column)
                ));
            }
        }
        let to_move = match side {
            "b" => Side::First,
            "w" => Side::Second,
            other => return Err(format!("the side to move is b or w, not \"{other}\"")),
        };
        let lion_taken_at = match lion {
            "-" => None,
            sq => Some(Square::parse(sq).map_err(|e| format!("先獅子 square: {e}"))?),
        };
        let move_number = number
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                format!("the move number must be a positive number, not \"{number}\"")
            })?;
        let mut pos = ChuPosition {
            board: cells,
            to_move,
            lion_taken_at,
            move_number,
            key: 0,
            attacker: None,
        };
        pos.key = pos.computed_key();
        Ok(pos)
    }

    /// Writes SFEN in the form [`ChuPosition::from_sfen`] reads.
    pub fn to_sfen(&self) -> String {
        let mut rows = Vec::with_capacity(RANKS);
        for row in 0..RANKS {
            let mut out = String::new();
            let mut empty = 0;
            for column in 0..FILES {
                match self.board[row * FILES + column] {
                    None => empty += 1,
                    Some((side, piece)) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if piece.promoted {
                            out.push('+');
                        }
                        let letter = piece.base.letter();
                        out.push(if side == Side::First {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            rows.push(out);
        }
        format!(
            "{} {} {} {}",
            rows.join("/"),
            if self.to_move == Side::First {
                "b"
            } else {
                "w"
            },
            self.lion_taken_at.map_or("-".to_string(), |s| s.name()),
            self.move_number
        )
    }
}
