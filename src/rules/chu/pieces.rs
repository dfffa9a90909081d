//! The 中将棋 pieces: the 21 kinds of the starting
//! array, what each promotes to, how each of the 30 named pieces moves, the
//! SFEN letters lishogi uses, and the JCSA tournament point values.

use serde::{Deserialize, Serialize};

use crate::rules::game::Side;

/// A piece as it stands in the starting array; a promoted piece is its
/// original kind plus [`Piece::promoted`] (成角行, a promoted 猛豹, is not a
/// 角行: it cannot promote again and is worth less).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Base {
    Pawn,
    GoBetween,
    Lance,
    ReverseChariot,
    Leopard,
    Copper,
    Silver,
    Gold,
    BlindTiger,
    DrunkElephant,
    Kirin,
    Phoenix,
    SideMover,
    VerticalMover,
    Bishop,
    Rook,
    DragonHorse,
    DragonKing,
    FreeKing,
    Lion,
    King,
}

impl Base {
    pub const ALL: [Base; 21] = [
        Base::Pawn,
        Base::GoBetween,
        Base::Lance,
        Base::ReverseChariot,
        Base::Leopard,
        Base::Copper,
        Base::Silver,
        Base::Gold,
        Base::BlindTiger,
        Base::DrunkElephant,
        Base::Kirin,
        Base::Phoenix,
        Base::SideMover,
        Base::VerticalMover,
        Base::Bishop,
        Base::Rook,
        Base::DragonHorse,
        Base::DragonKing,
        Base::FreeKing,
        Base::Lion,
        Base::King,
    ];

    /// The named piece it moves as, unpromoted.
    pub fn kind(self) -> Kind {
        match self {
            Base::Pawn => Kind::Pawn,
            Base::GoBetween => Kind::GoBetween,
            Base::Lance => Kind::Lance,
            Base::ReverseChariot => Kind::ReverseChariot,
            Base::Leopard => Kind::Leopard,
            Base::Copper => Kind::Copper,
            Base::Silver => Kind::Silver,
            Base::Gold => Kind::Gold,
            Base::BlindTiger => Kind::BlindTiger,
            Base::DrunkElephant => Kind::DrunkElephant,
            Base::Kirin => Kind::Kirin,
            Base::Phoenix => Kind::Phoenix,
            Base::SideMover => Kind::SideMover,
            Base::VerticalMover => Kind::VerticalMover,
            Base::Bishop => Kind::Bishop,
            Base::Rook => Kind::Rook,
            Base::DragonHorse => Kind::DragonHorse,
            Base::DragonKing => Kind::DragonKing,
            Base::FreeKing => Kind::FreeKing,
            Base::Lion => Kind::Lion,
            Base::King => Kind::King,
        }
    }

    /// What it becomes on promotion; `None` for 王, 獅子 and 奔王, which
    /// never promote.
    pub fn promotes_to(self) -> Option<Kind> {
        Some(match self {
            Base::Pawn => Kind::Tokin,
            Base::GoBetween => Kind::DrunkElephant,
            Base::Lance => Kind::WhiteHorse,
            Base::ReverseChariot => Kind::Whale,
            Base::Leopard => Kind::Bishop,
            Base::Copper => Kind::SideMover,
            Base::Silver => Kind::VerticalMover,
            Base::Gold => Kind::Rook,
            Base::BlindTiger => Kind::FlyingStag,
            Base::DrunkElephant => Kind::Prince,
            Base::Kirin => Kind::Lion,
            Base::Phoenix => Kind::FreeKing,
            Base::SideMover => Kind::FreeBoar,
            Base::VerticalMover => Kind::FlyingOx,
            Base::Bishop => Kind::DragonHorse,
            Base::Rook => Kind::DragonKing,
            Base::DragonHorse => Kind::HornedFalcon,
            Base::DragonKing => Kind::SoaringEagle,
            Base::FreeKing | Base::Lion | Base::King => return None,
        })
    }

    /// The SFEN letter (lower case; 先手's pieces are written in capitals).
    pub fn letter(self) -> char {
        match self {
            Base::Pawn => 'p',
            Base::GoBetween => 'i',
            Base::Lance => 'l',
            Base::ReverseChariot => 'a',
            Base::Leopard => 'f',
            Base::Copper => 'c',
            Base::Silver => 's',
            Base::Gold => 'g',
            Base::BlindTiger => 't',
            Base::DrunkElephant => 'e',
            Base::Kirin => 'o',
            Base::Phoenix => 'x',
            Base::SideMover => 'm',
            Base::VerticalMover => 'v',
            Base::Bishop => 'b',
            Base::Rook => 'r',
            Base::DragonHorse => 'h',
            Base::DragonKing => 'd',
            Base::FreeKing => 'q',
            Base::Lion => 'n',
            Base::King => 'k',
        }
    }

    pub(crate) fn from_letter(c: char) -> Option<Base> {
        let lower = c.to_ascii_lowercase();
        Base::ALL.into_iter().find(|b| b.letter() == lower)
    }

    /// JCSA tournament points (the source page's table), unpromoted.
    pub fn points(self) -> f32 {
        match self {
            Base::Pawn => 1.0,
            Base::GoBetween => 1.6,
            Base::Lance => 3.5,
            Base::ReverseChariot => 4.9,
            Base::Leopard => 4.0,
            Base::Copper => 3.0,
            Base::Silver => 3.4,
            Base::Gold => 4.4,
            Base::BlindTiger => 4.7,
            Base::DrunkElephant => 5.9,
            Base::Kirin => 6.4,
            Base::Phoenix => 5.7,
            Base::SideMover => 6.4,
            Base::VerticalMover => 6.4,
            Base::Bishop => 6.7,
            Base::Rook => 9.5,
            Base::DragonHorse => 9.7,
            Base::DragonKing => 12.1,
            Base::FreeKing => 14.1,
            Base::Lion => 19.1,
            // Kings are not counted.
            Base::King => 0.0,
        }
    }

    /// JCSA tournament points once promoted (the source page's second table).
    pub fn promoted_points(self) -> Option<f32> {
        Some(match self {
            Base::Pawn => 3.5,
            Base::GoBetween => 4.0,
            Base::Lance => 7.0,
            Base::ReverseChariot => 7.0,
            Base::Leopard => 5.7,
            Base::Copper => 5.4,
            Base::Silver => 5.4,
            Base::Gold => 8.4,
            Base::BlindTiger => 7.6,
            Base::DrunkElephant => 17.6,
            Base::Kirin => 19.1,
            Base::Phoenix => 14.1,
            Base::SideMover => 9.9,
            Base::VerticalMover => 9.9,
            Base::Bishop => 8.1,
            Base::Rook => 10.6,
            Base::DragonHorse => 14.0,
            Base::DragonKing => 14.8,
            Base::FreeKing | Base::Lion | Base::King => return None,
        })
    }
}

/// The 30 named pieces: how a piece moves and what it is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Pawn,
    GoBetween,
    Lance,
    ReverseChariot,
    Leopard,
    Copper,
    Silver,
    Gold,
    BlindTiger,
    DrunkElephant,
    Kirin,
    Phoenix,
    SideMover,
    VerticalMover,
    Bishop,
    Rook,
    DragonHorse,
    DragonKing,
    FreeKing,
    Lion,
    King,
    Tokin,
    Prince,
    FlyingStag,
    WhiteHorse,
    Whale,
    FlyingOx,
    FreeBoar,
    SoaringEagle,
    HornedFalcon,
}

/// How far a piece reaches in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    No,
    /// One square.
    Step,
    /// Any distance, stopping at the first piece (taking it if an enemy).
    Slide,
    /// Exactly two squares, leaping over whatever is between (麒麟, 鳳凰).
    Jump,
    /// Lion power on this line only (飛鷲, 角鷹): one or two squares
    /// (leaping), or two single steps along it (居食い, じっと, taking twice).
    LionLine,
}

/// The eight directions as the mover sees them, forward first, clockwise.
pub const DIRECTIONS: [Dir; 8] = [
    Dir::Forward,
    Dir::ForwardRight,
    Dir::Right,
    Dir::BackRight,
    Dir::Back,
    Dir::BackLeft,
    Dir::Left,
    Dir::ForwardLeft,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Forward,
    ForwardRight,
    Right,
    BackRight,
    Back,
    BackLeft,
    Left,
    ForwardLeft,
}

impl Dir {
    /// (files to the mover's right, ranks forward).
    pub(crate) fn delta(self) -> (i32, i32) {
        match self {
            Dir::Forward => (0, 1),
            Dir::ForwardRight => (1, 1),
            Dir::Right => (1, 0),
            Dir::BackRight => (1, -1),
            Dir::Back => (0, -1),
            Dir::BackLeft => (-1, -1),
            Dir::Left => (-1, 0),
            Dir::ForwardLeft => (-1, 1),
        }
    }
}

/// A piece's moves: a reach in each of the eight directions, and for the
/// 獅子 the full lion power (anywhere within two squares, or two steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movement {
    /// In [`DIRECTIONS`] order.
    pub reach: [Reach; 8],
    pub lion: bool,
}

impl Movement {
    pub fn reach(&self, dir: Dir) -> Reach {
        self.reach[DIRECTIONS.iter().position(|&d| d == dir).unwrap_or(0)]
    }
}

impl Kind {
    /// Every named piece: the 21 that start, then the 9 only promotion makes.
    pub const ALL: [Kind; 30] = [
        Kind::Pawn,
        Kind::GoBetween,
        Kind::Lance,
        Kind::ReverseChariot,
        Kind::Leopard,
        Kind::Copper,
        Kind::Silver,
        Kind::Gold,
        Kind::BlindTiger,
        Kind::DrunkElephant,
        Kind::Kirin,
        Kind::Phoenix,
        Kind::SideMover,
        Kind::VerticalMover,
        Kind::Bishop,
        Kind::Rook,
        Kind::DragonHorse,
        Kind::DragonKing,
        Kind::FreeKing,
        Kind::Lion,
        Kind::King,
        Kind::Tokin,
        Kind::Prince,
        Kind::FlyingStag,
        Kind::WhiteHorse,
        Kind::Whale,
        Kind::FlyingOx,
        Kind::FreeBoar,
        Kind::SoaringEagle,
        Kind::HornedFalcon,
    ];

    /// Its moves, from the source page's tables.
    pub fn movement(self) -> Movement {
        use Reach::{Jump, LionLine, No, Slide, Step};
        // Forward, forward-right, right, back-right, back, back-left, left,
        // forward-left.
        let (reach, lion) = match self {
            Kind::Pawn => ([Step, No, No, No, No, No, No, No], false),
            Kind::GoBetween => ([Step, No, No, No, Step, No, No, No], false),
            Kind::Lance => ([Slide, No, No, No, No, No, No, No], false),
            Kind::ReverseChariot => ([Slide, No, No, No, Slide, No, No, No], false),
            Kind::Leopard => ([Step, Step, No, Step, Step, Step, No, Step], false),
            Kind::Copper => ([Step, Step, No, No, Step, No, No, Step], false),
            Kind::Silver => ([Step, Step, No, Step, No, Step, No, Step], false),
            Kind::Gold | Kind::Tokin => ([Step, Step, Step, No, Step, No, Step, Step], false),
            Kind::BlindTiger => ([No, Step, Step, Step, Step, Step, Step, Step], false),
            Kind::DrunkElephant => ([Step, Step, Step, Step, No, Step, Step, Step], false),
            Kind::Kirin => ([Jump, Step, Jump, Step, Jump, Step, Jump, Step], false),
            Kind::Phoenix => ([Step, Jump, Step, Jump, Step, Jump, Step, Jump], false),
            Kind::SideMover => ([Step, No, Slide, No, Step, No, Slide, No], false),
            Kind::VerticalMover => ([Slide, No, Step, No, Slide, No, Step, No], false),
            Kind::Bishop => ([No, Slide, No, Slide, No, Slide, No, Slide], false),
            Kind::Rook => ([Slide, No, Slide, No, Slide, No, Slide, No], false),
            Kind::DragonHorse => ([Step, Slide, Step, Slide, Step, Slide, Step, Slide], false),
            Kind::DragonKing => ([Slide, Step, Slide, Step, Slide, Step, Slide, Step], false),
            Kind::FreeKing => ([Slide; 8], false),
            Kind::Lion => ([No; 8], true),
            Kind::King | Kind::Prince => ([Step; 8], false),
            Kind::FlyingStag => ([Slide, Step, Step, Step, Slide, Step, Step, Step], false),
            Kind::WhiteHorse => ([Slide, Slide, No, No, Slide, No, No, Slide], false),
            Kind::Whale => ([Slide, No, No, Slide, Slide, Slide, No, No], false),
            Kind::FlyingOx => ([Slide, Slide, No, Slide, Slide, Slide, No, Slide], false),
            Kind::FreeBoar => ([No, Slide, Slide, Slide, No, Slide, Slide, Slide], false),
            Kind::SoaringEagle => (
                [Slide, LionLine, Slide, Slide, Slide, Slide, Slide, LionLine],
                false,
            ),
            Kind::HornedFalcon => (
                [LionLine, Slide, Slide, Slide, Slide, Slide, Slide, Slide],
                false,
            ),
        };
        Movement { reach, lion }
    }

    /// How the Japanese name is read, in kana (先手's king: 後手's 玉将 is
    /// [`Kind::name_for`]'s).
    pub fn reading(self) -> &'static str {
        match self {
            Kind::Pawn => "ふひょう",
            Kind::GoBetween => "ちゅうにん",
            Kind::Lance => "きょうしゃ",
            Kind::ReverseChariot => "へんしゃ",
            Kind::Leopard => "もうひょう",
            Kind::Copper => "どうしょう",
            Kind::Silver => "ぎんしょう",
            Kind::Gold => "きんしょう",
            Kind::BlindTiger => "もうこ",
            Kind::DrunkElephant => "すいぞう",
            Kind::Kirin => "きりん",
            Kind::Phoenix => "ほうおう",
            Kind::SideMover => "おうぎょう",
            Kind::VerticalMover => "じゅぎょう",
            Kind::Bishop => "かくぎょう",
            Kind::Rook => "ひしゃ",
            Kind::DragonHorse => "りゅうま",
            Kind::DragonKing => "りゅうおう",
            Kind::FreeKing => "ほんおう",
            Kind::Lion => "しし",
            Kind::King => "おうしょう",
            Kind::Tokin => "ときん",
            Kind::Prince => "たいし",
            Kind::FlyingStag => "ひろく",
            Kind::WhiteHorse => "はっく",
            Kind::Whale => "げいげい",
            Kind::FlyingOx => "ひぎゅう",
            Kind::FreeBoar => "ほんちょ",
            Kind::SoaringEagle => "ひじゅう",
            Kind::HornedFalcon => "かくおう",
        }
    }

    /// The Japanese name and its reading as `side`'s koma shows them:
    /// 先手's king is 王将 (おうしょう), 後手's 玉将 (ぎょくしょう).
    pub fn name_for(self, side: Side) -> (&'static str, &'static str) {
        match (self, side) {
            (Kind::King, Side::Second) => ("玉将", "ぎょくしょう"),
            (kind, _) => (kind.names().0, kind.reading()),
        }
    }

    /// The one kanji a board diagram (KIF's) shows: 歩, 獅, と, 鷲…; the
    /// king is 玉 on both sides, as KIF writes it.
    pub fn short_name(self) -> char {
        match self {
            Kind::Pawn => '歩',
            Kind::GoBetween => '仲',
            Kind::Lance => '香',
            Kind::ReverseChariot => '反',
            Kind::Leopard => '豹',
            Kind::Copper => '銅',
            Kind::Silver => '銀',
            Kind::Gold => '金',
            Kind::BlindTiger => '虎',
            Kind::DrunkElephant => '象',
            Kind::Kirin => '麒',
            Kind::Phoenix => '鳳',
            Kind::SideMover => '横',
            Kind::VerticalMover => '竪',
            Kind::Bishop => '角',
            Kind::Rook => '飛',
            Kind::DragonHorse => '馬',
            Kind::DragonKing => '龍',
            Kind::FreeKing => '奔',
            Kind::Lion => '獅',
            Kind::King => '玉',
            Kind::Tokin => 'と',
            Kind::Prince => '太',
            Kind::FlyingStag => '鹿',
            Kind::WhiteHorse => '駒',
            Kind::Whale => '鯨',
            Kind::FlyingOx => '牛',
            Kind::FreeBoar => '猪',
            Kind::SoaringEagle => '鷲',
            Kind::HornedFalcon => '鷹',
        }
    }

    /// The piece of the starting array that moves as this kind, if any
    /// (the 9 kinds only promotion makes have none).
    pub fn base(self) -> Option<Base> {
        Base::ALL.into_iter().find(|b| b.kind() == self)
    }

    /// (Japanese name, English name).
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Kind::Pawn => ("歩兵", "Pawn"),
            Kind::GoBetween => ("仲人", "Go-between"),
            Kind::Lance => ("香車", "Lance"),
            Kind::ReverseChariot => ("反車", "Reverse chariot"),
            Kind::Leopard => ("猛豹", "Ferocious leopard"),
            Kind::Copper => ("銅将", "Copper general"),
            Kind::Silver => ("銀将", "Silver general"),
            Kind::Gold => ("金将", "Gold general"),
            Kind::BlindTiger => ("盲虎", "Blind tiger"),
            Kind::DrunkElephant => ("醉象", "Drunk elephant"),
            Kind::Kirin => ("麒麟", "Kirin"),
            Kind::Phoenix => ("鳳凰", "Phoenix"),
            Kind::SideMover => ("横行", "Side mover"),
            Kind::VerticalMover => ("竪行", "Vertical mover"),
            Kind::Bishop => ("角行", "Bishop"),
            Kind::Rook => ("飛車", "Rook"),
            Kind::DragonHorse => ("龍馬", "Dragon horse"),
            Kind::DragonKing => ("龍王", "Dragon king"),
            Kind::FreeKing => ("奔王", "Free king"),
            Kind::Lion => ("獅子", "Lion"),
            Kind::King => ("王将", "King"),
            Kind::Tokin => ("と金", "Tokin"),
            Kind::Prince => ("太子", "Prince"),
            Kind::FlyingStag => ("飛鹿", "Flying stag"),
            Kind::WhiteHorse => ("白駒", "White horse"),
            Kind::Whale => ("鯨鯢", "Whale"),
            Kind::FlyingOx => ("飛牛", "Flying ox"),
            Kind::FreeBoar => ("奔猪", "Free boar"),
            Kind::SoaringEagle => ("飛鷲", "Soaring eagle"),
            Kind::HornedFalcon => ("角鷹", "Horned falcon"),
        }
    }
}

/// A piece on the board (whose it is is kept beside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub base: Base,
    pub promoted: bool,
}

impl Piece {
    pub fn new(base: Base) -> Self {
        Piece {
            base,
            promoted: false,
        }
    }

    /// The named piece it moves as.
    pub fn kind(self) -> Kind {
        if self.promoted {
            self.base.promotes_to().unwrap_or(self.base.kind())
        } else {
            self.base.kind()
        }
    }

    pub fn can_promote(self) -> bool {
        !self.promoted && self.base.promotes_to().is_some()
    }

    /// The JCSA points (kings count nothing).
    pub fn points(self) -> f32 {
        if self.promoted {
            self.base.promoted_points().unwrap_or(self.base.points())
        } else {
            self.base.points()
        }
    }

    /// Its Japanese name as `side`'s koma shows it (後手's king is 玉将).
    pub fn japanese_name(self, side: Side) -> &'static str {
        self.kind().name_for(side).0
    }

    /// Counts as a lion in the lion-trading rules (獅子, or a 麒麟 promoted).
    pub fn is_lion(self) -> bool {
        self.kind() == Kind::Lion
    }
}
