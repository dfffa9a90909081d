//! The race of まわり将棋: 2–4 pieces round the 32 edge squares
//! of a shogi board, climbing a rank each time one lands exactly on a
//! corner, with the source page's special rules as settings (the page is
//! listed in docs/README.md; the rules as implemented, docs/rules/mawari.md).
//!
//! Long because: every special rule acts inside one move's resolution, in
//! the order listed below, so they are read (and changed) together.
//!
//! Where the source page leaves a detail open, this module decides (and the
//! rules page, `levels/rules/mawari.ron`, says the same):
//! - The track's squares are numbered 0–31 in the direction of travel; the
//!   corners are 0, 8, 16 and 24, and the players start on corners 0, 16
//!   (two players), 0, 8, 16 (three) or all four. Any corner promotes.
//! - "Opposite" (死神, 戦争) is the square 16 along the track: the one
//!   mirrored through the board's centre.
//! - Passing (殺し, 復活) means moving over a square without stopping on
//!   it, forwards; a move that goes over a square twice (a throw of 40)
//!   acts on it twice. Only a living piece kills or revives.
//! - A dead piece sits inside its square, one step in, or two after やいと
//!   (at most two). Each pass of a higher piece brings it one step out;
//!   死神 brings it one step out too.
//! - What happens where a piece stops is checked in this order: the corner
//!   (promotion), なかよしこよし (a living piece on that square), やいと (a
//!   dead one there), then the first of 死神 (a dead piece opposite), 戦争 (a
//!   living one opposite) and ぷっすんきゅう (a living piece on the next
//!   square ahead). The moves a rule makes (なかよしこよし's seven squares,
//!   ぷっすんきゅう's step) kill and revive what they pass and promote on a
//!   corner, but start no rule of their own, so a chain always ends.
//! - 戦争 is fought at once, by the two alone, throw for throw (the one that
//!   stopped first): each throw counts as usual (桂馬 double, ばば nothing,
//!   せんこ立ち a whole lap), the pieces stay where they are, and the first
//!   to make up 32 squares wins.
//! - A piece that moves back onto a corner (ぷっすんきゅう, ばば's local rule)
//!   loses a rank there. Below 歩, with 歩の降格 on, come と, 横向き, 縦向き and
//!   せんこ立ち; one more loss puts the player out. With it off, 歩 is the
//!   lowest and a loss there does nothing.
//! - おんぶ: a player who becomes 王将 takes a 歩 on its back and must then go
//!   once more round the board (32 squares); the first to do so wins. Losing
//!   a rank meanwhile drops the 歩 (back to 飛車).
//! - If every piece in the game is dead, all of them come one step out (the
//!   source page does not say; the game would otherwise stop, nobody able
//!   to throw): each comes exactly one step, so one twice dead is still one
//!   step in and sits out. The tutorial's みんな死んだら says so.

use serde::{Deserialize, Serialize};

use super::dice::ThrowValue;

pub const TRACK: u8 = 32;
pub(crate) const SIDE: u8 = 8;
/// Squares a なかよしこよし pair advances.
pub(crate) const NAKAYOSHI: u8 = 7;
/// The longest a dead piece sits inside the board.
pub(crate) const MAX_DEPTH: u8 = 2;

/// A piece's standing, lowest first: the four states below 歩 (歩の降格),
/// then the ladder from 歩 to 王将.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Rank {
    /// せんこ立ち: the last state before being out.
    SenkoStand,
    /// The 歩 standing upright (縦向き).
    Upright,
    /// The 歩 on its side (横向き).
    Sideways,
    /// と: a 歩 turned over.
    Tokin,
    Fu,
    Kyosha,
    Keima,
    Ginsho,
    /// 成銀, standing in for the 金将 that are the dice.
    Narigin,
    Kakugyo,
    Hisha,
    Osho,
}

impl Rank {
    pub(crate) const LADDER: [Rank; 12] = [
        Rank::SenkoStand,
        Rank::Upright,
        Rank::Sideways,
        Rank::Tokin,
        Rank::Fu,
        Rank::Kyosha,
        Rank::Keima,
        Rank::Ginsho,
        Rank::Narigin,
        Rank::Kakugyo,
        Rank::Hisha,
        Rank::Osho,
    ];
    fn index(self) -> usize {
        self as usize
    }
    pub fn up(self) -> Rank {
        Rank::LADDER[(self.index() + 1).min(Rank::LADDER.len() - 1)]
    }
    /// One rank lower, or `None` past the bottom (out of the game).
    pub fn down(self) -> Option<Rank> {
        self.index().checked_sub(1).map(|i| Rank::LADDER[i])
    }
    /// The name written on the koma (or its state), in Japanese.
    pub fn name_ja(self) -> &'static str {
        match self {
            Rank::SenkoStand => "せんこ立ち",
            Rank::Upright => "縦向き",
            Rank::Sideways => "横向き",
            Rank::Tokin => "と",
            Rank::Fu => "歩",
            Rank::Kyosha => "香車",
            Rank::Keima => "桂馬",
            Rank::Ginsho => "銀将",
            Rank::Narigin => "成銀",
            Rank::Kakugyo => "角行",
            Rank::Hisha => "飛車",
            Rank::Osho => "王将",
        }
    }
    pub(crate) fn name_en(self) -> &'static str {
        match self {
            Rank::SenkoStand => "senko-dachi",
            Rank::Upright => "upright",
            Rank::Sideways => "sideways",
            Rank::Tokin => "tokin",
            Rank::Fu => "pawn",
            Rank::Kyosha => "lance",
            Rank::Keima => "knight",
            Rank::Ginsho => "silver",
            Rank::Narigin => "promoted silver",
            Rank::Kakugyo => "bishop",
            Rank::Hisha => "rook",
            Rank::Osho => "king",
        }
    }
    /// The kanji on the koma's face (one or two), for drawing it.
    pub(crate) fn kanji(self) -> &'static str {
        match self {
            Rank::SenkoStand | Rank::Upright | Rank::Sideways | Rank::Fu => "歩",
            Rank::Tokin => "と",
            Rank::Kyosha => "香",
            Rank::Keima => "桂",
            Rank::Ginsho => "銀",
            Rank::Narigin => "全",
            Rank::Kakugyo => "角",
            Rank::Hisha => "飛",
            Rank::Osho => "王",
        }
    }
}

/// ぷっすんきゅう's local rules for a 桂馬 (the source page: some places move it
/// an even number, some one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum KeimaPush {
    /// A 桂馬 steps one, like every piece.
    One,
    /// A 桂馬 steps two (it always moves double).
    Two,
}

/// ばば (a koma lying on another): the throw counts nothing, or (local
/// rule) the piece goes back as many squares as the other koma count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BabaRule {
    Zero,
    Back,
}

/// A koma that fell off the board (the board has no rim): the throw is
/// thrown again (投げ直し), or counts nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OffBoardRule {
    #[default]
    Rethrow,
    Zero,
}

/// What 金斜 (せんこ立ち) does: the source page's いきなり王将, or, as this
/// game's settings allow, one rank up (1段出世) or the throw thrown again
/// (投げ直し).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SenkoRule {
    #[default]
    Osho,
    OneUp,
    Rethrow,
}

/// The settings of a game: each special rule on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MawariRules {
    pub korosu: bool,
    pub keima_double: bool,
    pub yaito: bool,
    pub shinigami: bool,
    pub nakayoshi: bool,
    pub senso: bool,
    pub pussun: bool,
    pub keima_push: KeimaPush,
    pub onbu: bool,
    pub fu_demotion: bool,
    pub baba: BabaRule,
    #[serde(default)]
    pub off_board: OffBoardRule,
    #[serde(default)]
    pub senko: SenkoRule,
}

impl SenkoRule {
    pub const ALL: [SenkoRule; 3] = [SenkoRule::Osho, SenkoRule::OneUp, SenkoRule::Rethrow];
    /// The name on the command line.
    pub fn id(self) -> &'static str {
        match self {
            SenkoRule::Osho => "osho",
            SenkoRule::OneUp => "one-up",
            SenkoRule::Rethrow => "rethrow",
        }
    }
}

impl MawariRules {
    /// 基本: the race alone.
    pub const BASIC: MawariRules = MawariRules {
        korosu: false,
        keima_double: false,
        yaito: false,
        shinigami: false,
        nakayoshi: false,
        senso: false,
        pussun: false,
        keima_push: KeimaPush::One,
        onbu: false,
        fu_demotion: false,
        baba: BabaRule::Zero,
        off_board: OffBoardRule::Rethrow,
        senko: SenkoRule::Osho,
    };
    /// 全部: every special rule.
    pub const ALL: MawariRules = MawariRules {
        korosu: true,
        keima_double: true,
        yaito: true,
        shinigami: true,
        nakayoshi: true,
        senso: true,
        pussun: true,
        keima_push: KeimaPush::Two,
        onbu: true,
        fu_demotion: true,
        baba: BabaRule::Zero,
        off_board: OffBoardRule::Rethrow,
        senko: SenkoRule::Osho,
    };
}

/// One player's piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    pub square: u8,
    pub rank: Rank,
    /// 0 alive; 1 dead (turned inward); 2 after やいと.
    pub depth: u8,
    /// Out of the game (lost below せんこ立ち).
    pub out: bool,
    /// With おんぶ: squares still to go with the 歩 on its back.
    pub onbu_left: Option<u8>,
}

impl Piece {
    pub fn alive(&self) -> bool {
        self.depth == 0 && !self.out
    }
    pub fn dead(&self) -> bool {
        self.depth > 0 && !self.out
    }
}

/// A war in progress (戦争): the two pieces and the squares each has made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct War {
    pub first: usize,
    pub second: usize,
    pub made: [u8; 2],
    /// Whose throw is next: 0 for `first`, 1 for `second`.
    pub next: u8,
}

/// Something that happened, in order, for the animation, banners and log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A piece moved one square (forward, or back).
    Step {
        piece: usize,
        to: u8,
    },
    Promote {
        piece: usize,
        to: Rank,
    },
    Demote {
        piece: usize,
        to: Rank,
    },
    /// 殺し: `by` passed `victim`.
    Kill {
        victim: usize,
        by: usize,
    },
    /// 復活 (or one step out of two): `by` passed it (`None`: 死神 or the
    /// rule that everyone dead comes out).
    Revive {
        piece: usize,
        by: Option<usize>,
        depth: u8,
    },
    Yaito {
        victim: usize,
        by: usize,
    },
    Shinigami {
        stopper: usize,
        freed: usize,
    },
    Nakayoshi {
        mover: usize,
        other: usize,
    },
    WarStart {
        first: usize,
        second: usize,
    },
    WarThrow {
        piece: usize,
        made: u8,
    },
    WarEnd {
        winner: usize,
        loser: usize,
    },
    Pussun {
        front: usize,
        back: usize,
    },
    /// せんこ立ち: straight to 王将.
    Senko {
        piece: usize,
    },
    Baba {
        piece: usize,
    },
    /// A koma fell off the board.
    OffBoard {
        piece: usize,
    },
    /// The same player throws again (投げ直し).
    Rethrow {
        piece: usize,
    },
    /// おんぶ: a 歩 on the 王将's back.
    Onbu {
        piece: usize,
    },
    /// Below the bottom of the ladder: out of the game.
    Out {
        piece: usize,
    },
    /// Dead: the turn passes.
    Skip {
        piece: usize,
    },
    Win {
        piece: usize,
    },
    /// Playing on for places: `piece` is through, in `place` (1 first).
    Finish {
        piece: usize,
        place: u8,
    },
    /// Deciding who goes first: the highest throw goes first.
    GoesFirst {
        piece: usize,
    },
    /// Deciding who goes first: those tied for the highest throw again.
    DrawAgain {
        tied: [bool; 4],
    },
}

impl Event {
    /// The event's kind, as the tutorial file names what a staged example
    /// must show.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Step { .. } => "Step",
            Event::Promote { .. } => "Promote",
            Event::Demote { .. } => "Demote",
            Event::Kill { .. } => "Kill",
            Event::Revive { .. } => "Revive",
            Event::Yaito { .. } => "Yaito",
            Event::Shinigami { .. } => "Shinigami",
            Event::Nakayoshi { .. } => "Nakayoshi",
            Event::WarStart { .. } => "WarStart",
            Event::WarThrow { .. } => "WarThrow",
            Event::WarEnd { .. } => "WarEnd",
            Event::Pussun { .. } => "Pussun",
            Event::Senko { .. } => "Senko",
            Event::Baba { .. } => "Baba",
            Event::OffBoard { .. } => "OffBoard",
            Event::Rethrow { .. } => "Rethrow",
            Event::Onbu { .. } => "Onbu",
            Event::Out { .. } => "Out",
            Event::Skip { .. } => "Skip",
            Event::Win { .. } => "Win",
            Event::Finish { .. } => "Finish",
            Event::GoesFirst { .. } => "GoesFirst",
            Event::DrawAgain { .. } => "DrawAgain",
        }
    }
}

/// The whole state of a race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Race {
    pub rules: MawariRules,
    pub pieces: Vec<Piece>,
    /// Whose turn it is (outside a war).
    pub turn: usize,
    pub war: Option<War>,
    pub winner: Option<usize>,
    /// Throws made so far.
    pub throws: u32,
    /// Play on for places after the first is through: each one through
    /// leaves the board, and the game ends when one is left.
    #[serde(default)]
    pub play_on: bool,
    /// Those through, in order (playing on for places; the last one left
    /// is put last).
    #[serde(default)]
    pub finished: Vec<usize>,
    /// Those put out of the game (歩の降格), in order.
    #[serde(default)]
    pub dropped: Vec<usize>,
}

/// What went wrong with a request (the UI never makes one; a save might).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceError(pub String);

impl Race {
    /// A race for 2–4 players, each on its own corner with a 歩.
    pub fn new(players: usize, rules: MawariRules) -> Result<Race, RaceError> {
        let corners: &[u8] = match players {
            2 => &[0, 16],
            3 => &[0, 8, 16],
            4 => &[0, 8, 16, 24],
            n => {
                return Err(RaceError(format!(
                    "まわり将棋 needs 2 to 4 players, not {n}"
                )));
            }
        };
        Ok(Race::on_corners(corners, rules))
    }

    /// Two pawns on opposite corners (the smallest race there is).
    pub(crate) fn two_pawns(rules: MawariRules) -> Race {
        Race::on_corners(&[0, 16], rules)
    }

    fn on_corners(corners: &[u8], rules: MawariRules) -> Race {
        Race {
            rules,
            pieces: corners
                .iter()
                .map(|&square| Piece {
                    square,
                    rank: Rank::Fu,
                    depth: 0,
                    out: false,
                    onbu_left: None,
                })
                .collect(),
            turn: 0,
            war: None,
            winner: None,
            throws: 0,
            play_on: false,
            finished: Vec::new(),
            dropped: Vec::new(),
        }
    }

    /// The same race, played on for places after the first is through.
    pub fn playing_for_places(mut self) -> Race {
        self.play_on = true;
        self
    }

    /// Every player from first to last once the game is over: those
    /// through in order, then those put out, the last to go out first.
    pub fn standings(&self) -> Vec<usize> {
        let mut order = self.finished.clone();
        if order.is_empty()
            && let Some(w) = self.winner
        {
            order.push(w);
        }
        for p in self.dropped.iter().rev() {
            if !order.contains(p) {
                order.push(*p);
            }
        }
        for p in 0..self.pieces.len() {
            if !order.contains(&p) {
                order.push(p);
            }
        }
        order
    }

    /// Whether the player whose turn it is sits this turn out (dead,
    /// outside a war): the turn passes without a throw.
    pub fn sits_out(&self) -> bool {
        self.war.is_none()
            && self
                .thrower()
                .is_some_and(|p| self.pieces.get(p).is_some_and(|q| q.dead()))
    }

    /// Passes the turn of a player who sits out (see [`Race::sits_out`]);
    /// nothing happens otherwise.
    pub fn skip_turn(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        if let (true, Some(p)) = (self.sits_out(), self.thrower()) {
            ev.push(Event::Skip { piece: p });
            self.next_turn();
        }
        ev
    }

    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// Who throws next: the player whose turn it is, or in a war the one
    /// whose war throw is next. `None` when the game is over.
    pub fn thrower(&self) -> Option<usize> {
        if self.winner.is_some() {
            return None;
        }
        Some(match self.war {
            Some(w) if w.next == 0 => w.first,
            Some(w) => w.second,
            None => self.turn,
        })
    }

    /// How many squares a throw moves `piece` (桂馬 doubles it).
    fn squares_for(&self, piece: usize, n: u8) -> u8 {
        if self.rules.keima_double && self.pieces[piece].rank == Rank::Keima {
            n.saturating_mul(2)
        } else {
            n
        }
    }

    /// Plays a throw by [`Race::thrower`] and returns what happened.
    pub fn apply(&mut self, value: ThrowValue) -> Vec<Event> {
        let mut ev = Vec::new();
        let Some(p) = self.thrower() else {
            return ev;
        };
        self.throws += 1;
        if value == ThrowValue::OffBoard {
            ev.push(Event::OffBoard { piece: p });
        }
        let rethrow = match value {
            ThrowValue::OffBoard => self.rules.off_board == OffBoardRule::Rethrow,
            ThrowValue::Senko => self.rules.senko == SenkoRule::Rethrow,
            _ => false,
        };
        if rethrow {
            if value == ThrowValue::Senko {
                ev.push(Event::Senko { piece: p });
            }
            // Nothing moves and the thrower (or the war's) throws again.
            ev.push(Event::Rethrow { piece: p });
            return ev;
        }
        if let Some(war) = self.war {
            self.war_throw(war, value, &mut ev);
            return ev;
        }
        if !self.pieces[p].alive() {
            ev.push(Event::Skip { piece: p });
            self.next_turn();
            return ev;
        }
        match value {
            ThrowValue::Senko if self.rules.senko == SenkoRule::OneUp => {
                ev.push(Event::Senko { piece: p });
                self.promote(p, &mut ev);
            }
            ThrowValue::Senko => {
                ev.push(Event::Senko { piece: p });
                if self.pieces[p].rank == Rank::Osho && self.pieces[p].onbu_left.is_some() {
                    self.pieces[p].onbu_left = Some(0);
                    self.check_onbu_done(p, &mut ev);
                } else {
                    self.pieces[p].rank = Rank::Osho;
                    ev.push(Event::Promote {
                        piece: p,
                        to: Rank::Osho,
                    });
                    self.reached_osho(p, &mut ev);
                }
            }
            // Off the board, counting nothing (the other setting threw
            // again above).
            ThrowValue::OffBoard => {}
            ThrowValue::Baba { counted } => {
                ev.push(Event::Baba { piece: p });
                if self.rules.baba == BabaRule::Back && counted > 0 {
                    let back = self.squares_for(p, counted);
                    self.move_back(p, back, &mut ev);
                }
            }
            ThrowValue::Move(n) => {
                let n = self.squares_for(p, n);
                let landed = self.move_forward(p, n, &mut ev);
                if landed && self.pieces[p].alive() && self.winner.is_none() {
                    self.stop_rules(p, &mut ev);
                }
            }
        }
        self.revive_if_all_dead(&mut ev);
        if self.war.is_none() && self.winner.is_none() {
            self.next_turn();
        }
        ev
    }

    fn next_turn(&mut self) {
        let n = self.pieces.len();
        for k in 1..=n {
            let i = (self.turn + k) % n;
            if !self.pieces[i].out {
                self.turn = i;
                return;
            }
        }
    }

    /// Moves `p` forward `n` squares one by one, killing and reviving what
    /// it passes, and promoting it if it stops on a corner. Returns false
    /// if the piece did not end the move standing (it won on the way).
    fn move_forward(&mut self, p: usize, n: u8, ev: &mut Vec<Event>) -> bool {
        for k in 1..=n {
            let sq = (self.pieces[p].square + 1) % TRACK;
            self.pieces[p].square = sq;
            ev.push(Event::Step { piece: p, to: sq });
            if let Some(left) = self.pieces[p].onbu_left {
                let left = left.saturating_sub(1);
                self.pieces[p].onbu_left = Some(left);
                if left == 0 {
                    self.check_onbu_done(p, ev);
                    return false;
                }
            }
            if k < n && self.rules.korosu {
                self.pass_over(p, sq, ev);
            }
        }
        if self.pieces[p].square.is_multiple_of(SIDE) {
            self.promote(p, ev);
        }
        self.winner.is_none()
    }

    /// Moves `p` back `n` squares; a corner it stops on costs a rank.
    fn move_back(&mut self, p: usize, n: u8, ev: &mut Vec<Event>) {
        for _ in 0..n {
            let sq = (self.pieces[p].square + TRACK - 1) % TRACK;
            self.pieces[p].square = sq;
            ev.push(Event::Step { piece: p, to: sq });
            if let Some(left) = self.pieces[p].onbu_left {
                self.pieces[p].onbu_left = Some(left.saturating_add(1).min(TRACK));
            }
        }
        if n > 0 && self.pieces[p].square.is_multiple_of(SIDE) {
            self.demote(p, ev);
        }
    }

    /// 殺し and 復活 for every other piece on square `sq` that `p` passes.
    fn pass_over(&mut self, p: usize, sq: u8, ev: &mut Vec<Event>) {
        let rank = self.pieces[p].rank;
        for q in 0..self.pieces.len() {
            let other = self.pieces[q];
            if q == p || other.out || other.square != sq || other.rank >= rank {
                continue;
            }
            if other.alive() {
                self.pieces[q].depth = 1;
                ev.push(Event::Kill { victim: q, by: p });
            } else {
                self.pieces[q].depth -= 1;
                ev.push(Event::Revive {
                    piece: q,
                    by: Some(p),
                    depth: self.pieces[q].depth,
                });
            }
        }
    }

    fn promote(&mut self, p: usize, ev: &mut Vec<Event>) {
        let piece = self.pieces[p];
        if piece.rank == Rank::Osho {
            // A 王将 goes on only with おんぶ: the corner that follows puts
            // nothing more on it.
            return;
        }
        let to = piece.rank.up();
        self.pieces[p].rank = to;
        ev.push(Event::Promote { piece: p, to });
        if to == Rank::Osho {
            self.reached_osho(p, ev);
        }
    }

    fn reached_osho(&mut self, p: usize, ev: &mut Vec<Event>) {
        if self.rules.onbu {
            self.pieces[p].onbu_left = Some(TRACK);
            ev.push(Event::Onbu { piece: p });
        } else {
            self.win(p, ev);
        }
    }

    fn check_onbu_done(&mut self, p: usize, ev: &mut Vec<Event>) {
        if self.pieces[p].onbu_left == Some(0) {
            self.win(p, ev);
        }
    }

    fn win(&mut self, p: usize, ev: &mut Vec<Event>) {
        if self.play_on {
            self.finish(p, ev);
            return;
        }
        self.winner = Some(p);
        self.war = None;
        ev.push(Event::Win { piece: p });
    }

    /// Playing on for places: `p` is through and leaves the board (as one
    /// out does, so that nothing acts on it); when one player is left, it
    /// takes the last place and the game is over, won by the first.
    fn finish(&mut self, p: usize, ev: &mut Vec<Event>) {
        if self.finished.contains(&p) {
            return;
        }
        self.finished.push(p);
        self.pieces[p].out = true;
        if self.war.is_some_and(|w| w.first == p || w.second == p) {
            self.war = None;
        }
        ev.push(Event::Finish {
            piece: p,
            place: self.finished.len() as u8,
        });
        let left: Vec<usize> = (0..self.pieces.len())
            .filter(|&i| !self.pieces[i].out)
            .collect();
        if left.len() <= 1 {
            for q in left {
                self.finished.push(q);
                ev.push(Event::Finish {
                    piece: q,
                    place: self.finished.len() as u8,
                });
            }
            let first = self.finished[0];
            self.winner = Some(first);
            self.war = None;
            ev.push(Event::Win { piece: first });
        }
    }

    /// One rank down; below the bottom the player is out.
    fn demote(&mut self, p: usize, ev: &mut Vec<Event>) {
        let piece = self.pieces[p];
        if piece.onbu_left.is_some() {
            // The 歩 on its back falls off: back to 飛車.
            self.pieces[p].onbu_left = None;
        }
        let lowest = if self.rules.fu_demotion {
            Rank::SenkoStand
        } else {
            Rank::Fu
        };
        if piece.rank == lowest {
            if self.rules.fu_demotion {
                self.pieces[p].out = true;
                self.dropped.push(p);
                ev.push(Event::Out { piece: p });
                self.last_one_standing(ev);
            }
            return;
        }
        if let Some(to) = piece.rank.down() {
            self.pieces[p].rank = to;
            ev.push(Event::Demote { piece: p, to });
        }
    }

    fn last_one_standing(&mut self, ev: &mut Vec<Event>) {
        let left: Vec<usize> = (0..self.pieces.len())
            .filter(|&i| !self.pieces[i].out)
            .collect();
        if left.len() == 1 && self.winner.is_none() {
            self.win(left[0], ev);
        }
    }

    /// The pieces other than `p` on square `sq`, alive or dead.
    fn others_at(&self, p: usize, sq: u8, alive: bool) -> Vec<usize> {
        (0..self.pieces.len())
            .filter(|&q| {
                let o = &self.pieces[q];
                q != p && !o.out && o.square == sq && o.alive() == alive
            })
            .collect()
    }

    /// The rules of the square where `p` stopped after a throw.
    fn stop_rules(&mut self, p: usize, ev: &mut Vec<Event>) {
        let sq = self.pieces[p].square;
        if self.rules.nakayoshi
            && let Some(&q) = self.others_at(p, sq, true).first()
        {
            ev.push(Event::Nakayoshi { mover: p, other: q });
            for piece in [p, q] {
                if self.winner.is_none() && self.pieces[piece].alive() {
                    self.move_forward(piece, NAKAYOSHI, ev);
                }
            }
            return;
        }
        if self.rules.yaito {
            let rank = self.pieces[p].rank;
            for q in self.others_at(p, sq, false) {
                if self.pieces[q].rank < rank && self.pieces[q].depth < MAX_DEPTH {
                    self.pieces[q].depth += 1;
                    ev.push(Event::Yaito { victim: q, by: p });
                }
            }
        }
        let opposite = (sq + TRACK / 2) % TRACK;
        if self.rules.shinigami
            && let Some(&q) = self.others_at(p, opposite, false).first()
        {
            self.pieces[p].depth = 1;
            self.pieces[q].depth -= 1;
            ev.push(Event::Shinigami {
                stopper: p,
                freed: q,
            });
            return;
        }
        if self.rules.senso
            && let Some(&q) = self.others_at(p, opposite, true).first()
        {
            self.war = Some(War {
                first: p,
                second: q,
                made: [0, 0],
                next: 0,
            });
            ev.push(Event::WarStart {
                first: p,
                second: q,
            });
            return;
        }
        let ahead = (sq + 1) % TRACK;
        if self.rules.pussun
            && let Some(&q) = self.others_at(p, ahead, true).first()
        {
            ev.push(Event::Pussun { front: q, back: p });
            let step = |race: &Race, piece: usize| {
                if race.rules.keima_push == KeimaPush::Two && race.pieces[piece].rank == Rank::Keima
                {
                    2
                } else {
                    1
                }
            };
            let (front_step, back_step) = (step(self, q), step(self, p));
            self.move_forward(q, front_step, ev);
            if self.winner.is_none() {
                self.move_back(p, back_step, ev);
            }
        }
    }

    fn war_throw(&mut self, mut war: War, value: ThrowValue, ev: &mut Vec<Event>) {
        let side = war.next as usize;
        let piece = if side == 0 { war.first } else { war.second };
        let gained = match value {
            ThrowValue::Senko => TRACK,
            ThrowValue::Baba { .. } | ThrowValue::OffBoard => 0,
            ThrowValue::Move(n) => self.squares_for(piece, n),
        };
        war.made[side] = war.made[side].saturating_add(gained).min(TRACK);
        ev.push(Event::WarThrow {
            piece,
            made: war.made[side],
        });
        if war.made[side] >= TRACK {
            let loser = if side == 0 { war.second } else { war.first };
            self.war = None;
            ev.push(Event::WarEnd {
                winner: piece,
                loser,
            });
            self.demote(loser, ev);
            if self.winner.is_none() {
                self.promote(piece, ev);
            }
            if self.winner.is_none() {
                // The turn goes on from the one who started the war.
                self.turn = war.first;
                self.next_turn();
            }
            return;
        }
        war.next = 1 - war.next;
        self.war = Some(war);
    }

    fn revive_if_all_dead(&mut self, ev: &mut Vec<Event>) {
        if self.winner.is_some() || self.pieces.iter().any(|p| p.alive()) {
            return;
        }
        for q in 0..self.pieces.len() {
            if self.pieces[q].dead() {
                self.pieces[q].depth -= 1;
                ev.push(Event::Revive {
                    piece: q,
                    by: None,
                    depth: self.pieces[q].depth,
                });
            }
        }
    }
}

impl Rank {
    /// The position text's name of the rank (ASCII, for command lines and
    /// web addresses).
    pub fn id(self) -> &'static str {
        match self {
            Rank::SenkoStand => "senko",
            Rank::Upright => "upright",
            Rank::Sideways => "sideways",
            Rank::Tokin => "tokin",
            Rank::Fu => "fu",
            Rank::Kyosha => "kyosha",
            Rank::Keima => "keima",
            Rank::Ginsho => "gin",
            Rank::Narigin => "narigin",
            Rank::Kakugyo => "kaku",
            Rank::Hisha => "hisha",
            Rank::Osho => "osho",
        }
    }
    pub(crate) fn from_id(id: &str) -> Option<Rank> {
        Rank::LADDER.into_iter().find(|r| r.id() == id)
    }
}

/// A race written as one line: each player's piece as `rank@square`, then
/// `/depth` when dead, `+n` while carrying a 歩 with n squares to go, `!`
/// when out; then `turn=N` and, once decided, `winner=N`. For example
/// `hisha@6 fu@14/1 tokin@22 osho@30+12 turn=2`. A war under way is not
/// written (a text is taken between throws, and a war is fought at once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceText {
    pub pieces: Vec<Piece>,
    pub turn: usize,
    pub winner: Option<usize>,
}

impl RaceText {
    pub fn of(race: &Race) -> RaceText {
        RaceText {
            pieces: race.pieces.clone(),
            turn: race.turn,
            winner: race.winner,
        }
    }

    pub fn write(&self) -> String {
        let mut parts: Vec<String> = self
            .pieces
            .iter()
            .map(|p| {
                let mut s = format!("{}@{}", p.rank.id(), p.square);
                if p.depth > 0 {
                    s += &format!("/{}", p.depth);
                }
                if let Some(left) = p.onbu_left {
                    s += &format!("+{left}");
                }
                if p.out {
                    s.push('!');
                }
                s
            })
            .collect();
        parts.push(format!("turn={}", self.turn));
        if let Some(w) = self.winner {
            parts.push(format!("winner={w}"));
        }
        parts.join(" ")
    }

    /// Reads a text; the message names the word that is wrong.
    pub fn parse(text: &str) -> Result<RaceText, String> {
        let mut pieces = Vec::new();
        let (mut turn, mut winner) = (0usize, None);
        for word in text.split_whitespace() {
            let number = |v: &str, what: &str| {
                v.parse::<usize>()
                    .map_err(|_| format!("\"{word}\": {what} needs a number"))
            };
            if let Some(v) = word.strip_prefix("turn=") {
                turn = number(v, "turn")?;
                continue;
            }
            if let Some(v) = word.strip_prefix("winner=") {
                winner = Some(number(v, "winner")?);
                continue;
            }
            let (rank, rest) = word
                .split_once('@')
                .ok_or_else(|| format!("\"{word}\": a piece is written rank@square"))?;
            let rank = Rank::from_id(rank).ok_or_else(|| {
                let names: Vec<&str> = Rank::LADDER.iter().map(|r| r.id()).collect();
                format!("\"{word}\": no rank \"{rank}\" ({})", names.join(", "))
            })?;
            let (rest, out) = match rest.strip_suffix('!') {
                Some(r) => (r, true),
                None => (rest, false),
            };
            let (rest, onbu_left) = match rest.split_once('+') {
                Some((r, n)) => {
                    let n = n
                        .parse::<u8>()
                        .ok()
                        .filter(|n| (1..=TRACK).contains(n))
                        .ok_or_else(|| format!("\"{word}\": +n needs 1 to {TRACK}"))?;
                    if rank != Rank::Osho {
                        return Err(format!("\"{word}\": only a 王将 (osho) carries a 歩"));
                    }
                    (r, Some(n))
                }
                None => (rest, None),
            };
            let (square, depth) = match rest.split_once('/') {
                Some((s, d)) => (
                    s,
                    d.parse::<u8>()
                        .ok()
                        .filter(|d| (1..=MAX_DEPTH).contains(d))
                        .ok_or_else(|| format!("\"{word}\": /depth needs 1 or {MAX_DEPTH}"))?,
                ),
                None => (rest, 0),
            };
            let square = square
                .parse::<u8>()
                .ok()
                .filter(|s| *s < TRACK)
                .ok_or_else(|| format!("\"{word}\": the square needs 0 to {}", TRACK - 1))?;
            pieces.push(Piece {
                square,
                rank,
                depth,
                out,
                onbu_left,
            });
        }
        if !(2..=4).contains(&pieces.len()) {
            return Err(format!("a race has 2 to 4 pieces, not {}", pieces.len()));
        }
        if turn >= pieces.len() || pieces[turn].out {
            return Err(format!("turn={turn}: no such player in the race"));
        }
        if let Some(w) = winner
            && (w >= pieces.len() || pieces[w].out)
        {
            return Err(format!("winner={w}: no such player in the race"));
        }
        if pieces.iter().all(|p| p.out) {
            return Err("every player is out".into());
        }
        Ok(RaceText {
            pieces,
            turn,
            winner,
        })
    }

    /// A race in this position under `rules`.
    pub fn race(&self, rules: MawariRules) -> Race {
        Race {
            rules,
            pieces: self.pieces.clone(),
            turn: self.turn,
            war: None,
            winner: self.winner,
            throws: 0,
            play_on: false,
            finished: Vec::new(),
            dropped: Vec::new(),
        }
    }
}
