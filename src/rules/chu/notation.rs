//! How a 中将棋 move is told: what kind of move it is (the one description
//! both the KIF writer and the record on the play screen write from), the
//! three ways of naming squares players use, and the record's line
//! (`☗7八獅子(←7九)`, `☖仝銀将成(←4六)`, `☗6五獅子居食い(←6六)`).

use serde::{Deserialize, Serialize};

use super::moves::{ChuMove, promotion_possible};
use super::pieces::Piece;
use super::position::{ChuPosition, FILES, RANKS, Square};
use crate::rules::game::Side;

/// The Japanese names of the ranks, 一 … 十二 (rank a is 一).
pub const RANK_KANJI: [&str; RANKS] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
];

/// A square as a Japanese record writes it: the file in Arabic figures,
/// the rank in kanji (`7八`).
pub fn square_kanji(sq: Square) -> String {
    format!("{}{}", sq.file(), RANK_KANJI[sq.row()])
}

/// How squares are named on the board's edges, in the record and in the
/// hints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Coords {
    /// Files 12…1 from 先手's left, ranks 一…十二 from the top (`7八`).
    #[default]
    Japanese,
    /// lishogi's, as its USI writes them: files 12…1, ranks a…l (`7h`).
    Lishogi,
    /// Western, as XBoard writes them: files a…l from 先手's left, ranks
    /// 1…12 from 先手's side (`f5`).
    Western,
}

impl Coords {
    pub const ALL: [Coords; 3] = [Coords::Japanese, Coords::Lishogi, Coords::Western];

    /// The name of `sq`.
    pub fn square(self, sq: Square) -> String {
        match self {
            Coords::Japanese => square_kanji(sq),
            Coords::Lishogi => sq.name(),
            Coords::Western => super::xboard::square(sq),
        }
    }

    /// The label of the board's `column` (0: the left edge as 先手 sees
    /// it).
    pub fn file_label(self, column: usize) -> String {
        match self {
            Coords::Japanese | Coords::Lishogi => (FILES - column).to_string(),
            Coords::Western => ((b'a' + column as u8) as char).to_string(),
        }
    }

    /// The label of the board's `row` (0: the top edge as 先手 sees it).
    pub fn rank_label(self, row: usize) -> String {
        match self {
            Coords::Japanese => RANK_KANJI[row].to_string(),
            Coords::Lishogi => ((b'a' + row as u8) as char).to_string(),
            Coords::Western => (RANKS - row).to_string(),
        }
    }
}

/// What a move does about promotion, as a record says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// The piece could not promote with this move.
    None,
    /// 成.
    Promotes,
    /// 不成: it could have, and did not.
    Declines,
}

/// What a two-step move (獅子, or a 飛鷲's or 角鷹's lion line) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwoStep {
    /// 居食い: takes on the first step and returns.
    Igui,
    /// じっと: steps to an empty square and back, a pass.
    Jitto,
    /// 二枚取り: takes on both steps.
    TakesTwo,
    /// Takes on the first step and goes on to an empty square.
    TakesThenMoves,
    /// Through an empty square to another: the same as the leap.
    Leap,
}

/// A move described as a record tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveWords {
    pub side: Side,
    pub piece: Piece,
    pub from: Square,
    pub to: Square,
    /// The first step's square and what the two steps do.
    pub two_step: Option<(Square, TwoStep)>,
    /// Where the previous move landed (written 仝).
    pub last_to: Option<Square>,
    pub promotion: Promotion,
}

impl MoveWords {
    /// `mv`, legal in `pos`; `last_to` is where the previous move landed.
    pub fn new(pos: &ChuPosition, mv: ChuMove, last_to: Option<Square>) -> MoveWords {
        // A legal move has its piece; anything else is written as the
        // side to move's king rather than failing.
        let (side, piece) = pos
            .at(mv.from)
            .unwrap_or((pos.to_move(), Piece::new(super::pieces::Base::King)));
        let promotion = match (mv.promote, mv.mid.is_none() && promotion_possible(pos, mv)) {
            (true, _) => Promotion::Promotes,
            (false, true) => Promotion::Declines,
            (false, false) => Promotion::None,
        };
        let two_step = mv.mid.map(|mid| {
            let took_first = pos.at(mid).is_some();
            let kind = match (mv.to == mv.from, took_first, pos.at(mv.to).is_some()) {
                (true, true, _) => TwoStep::Igui,
                (true, false, _) => TwoStep::Jitto,
                (false, true, true) => TwoStep::TakesTwo,
                (false, true, false) => TwoStep::TakesThenMoves,
                (false, false, _) => TwoStep::Leap,
            };
            (mid, kind)
        });
        MoveWords {
            side,
            piece,
            from: mv.from,
            to: mv.to,
            two_step,
            last_to,
            promotion,
        }
    }

    /// The piece's name in the record: its two kanji (先手's king 王将,
    /// 後手's 玉将), and 成 before a promoted piece that bears the name of
    /// a piece of the starting array (a promoted 猛豹 is 成角行, not 角行).
    pub fn piece_name(&self) -> String {
        record_name(self.piece, self.side)
    }

    /// The line of the record on the play screen, squares named by
    /// `coords`.
    pub fn screen_text(&self, coords: Coords) -> String {
        let mark = match self.side {
            Side::First => "☗",
            Side::Second => "☖",
        };
        let name = self.piece_name();
        let square = |sq: Square| coords.square(sq);
        let to = |sq: Square| {
            if self.is_last_square(sq) {
                "仝".to_string()
            } else {
                square(sq)
            }
        };
        let promotion = match self.promotion {
            Promotion::None => "",
            Promotion::Promotes => "成",
            Promotion::Declines => "不成",
        };
        match self.two_step {
            None | Some((_, TwoStep::Leap)) => format!(
                "{mark}{}{name}{promotion}(←{})",
                to(self.to),
                square(self.from)
            ),
            Some((mid, TwoStep::Igui)) => {
                // Where it ate, and where it stays.
                format!("{mark}{}{name}居食い(←{})", to(mid), square(self.from))
            }
            Some((_, TwoStep::Jitto)) => format!("{mark}{}{name}じっと", square(self.from)),
            Some((mid, TwoStep::TakesTwo)) => format!(
                "{mark}{}{name}二枚取り(←{}←{})",
                to(self.to),
                square(mid),
                square(self.from)
            ),
            Some((mid, TwoStep::TakesThenMoves)) => format!(
                "{mark}{}{name}(←{}←{})",
                to(self.to),
                square(mid),
                square(self.from)
            ),
        }
    }

    /// Whether `sq` is where the previous move landed (仝).
    pub fn is_last_square(&self, sq: Square) -> bool {
        self.last_to == Some(sq)
    }
}

/// A piece's name as the record writes it (see [`MoveWords::piece_name`]).
pub fn record_name(piece: Piece, side: Side) -> String {
    let name = piece.japanese_name(side);
    if piece.promoted && piece.kind().base().is_some() {
        format!("成{name}")
    } else {
        name.to_string()
    }
}

/// The record's line for `mv`, played in `pos` after a move that landed
/// on `last_to`.
pub fn screen_move(
    pos: &ChuPosition,
    mv: ChuMove,
    last_to: Option<Square>,
    coords: Coords,
) -> String {
    MoveWords::new(pos, mv, last_to).screen_text(coords)
}
