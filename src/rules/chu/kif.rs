//! 中将棋 games as KIF, the text record Japanese shogi programs exchange,
//! in the form lishogi and the Chu Shogi Renmei's online records use.
//!
//! Written: `#KIF version=2.0 encoding=UTF-8`, 開始日時 when known, the
//! start (`手合割：中将棋`, or the 12-column board diagram with 先手番 or
//! 後手番, and 先獅子 when the side to move's lion was just taken), 先手
//! and 後手, then one numbered line a move as lishogi numbers them
//! (`   1   7八歩兵 （←7九）`): the destination, the piece's full name,
//! `仝` for the previous move's square, `成` or `不成` where the piece
//! could promote, and a two-step move (獅子, or a 飛鷲's or 角鷹's lion
//! line) as two lines, `一歩目` and `二歩目`, the second marked
//! `（居食い）` or `(じっと)` when the piece returns. Last, how the game
//! ended (`投了`, `まで64手で先手の勝ち`, the points at a time cutoff).
//!
//! Read: that, and what other writers produce — the Renmei's numbering
//! (`57手目一歩目 ▲6六獅子 （←7七）`), Kakinoki's columns
//! (`  12 ７八歩兵（←７九）`), full- and half-width figures, short piece
//! names, 同 for 仝, lishogi's `仝` on a first step whose second lands on
//! the previous move's square, and lishogi's own `(じっと)`, which its
//! reader refuses. Every move is checked against the rules; a malformed
//! record is refused with the line and what is wrong.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use super::Profile;
use super::end::{cutoff_points, outcome_in};
use super::moves::{ChuMove, legal_moves_in, play};
use super::notation::{MoveWords, Promotion, RANK_KANJI, TwoStep, square_kanji};
use super::pieces::{Base, Kind, Piece};
use super::position::{ChuPosition, FILES, RANKS, START_SFEN, Square};
use super::record::ChuGameText;
use crate::rules::game::{EndReason, Outcome, Side};

/// A 中将棋 game as a KIF holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChuKif {
    pub game: ChuGameText,
    /// 開始日時, as written (`2024/05/01 10:00:00`).
    pub started: Option<String>,
    /// 先手's and 後手's names, in [`Side`] order.
    pub players: [Option<String>; 2],
    /// How the game ended; `None` while it goes on (or was stopped, 中断).
    pub end: Option<KifEnd>,
}

/// How a game ended, as a KIF's last lines can say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KifEnd {
    /// Decided on the board by the last move (a royal taken, 駒枯れ, no
    /// move left): `まで64手で先手の勝ち`.
    Won(Side),
    /// Drawn with nothing more said (lishogi: only the royals left):
    /// `まで64手で引き分け`.
    Drawn,
    /// `投了`.
    Resigned { winner: Side },
    /// `詰み`.
    Mated { winner: Side },
    /// `千日手`: a draw, or under lishogi's rules lost by the side that
    /// kept attacking.
    Repetition { winner: Option<Side> },
    /// Time: the 60-minute cutoff, decided by the points on the board
    /// (tenths, 先手's then 後手's) when the record gives them, or a side
    /// out of time (`切れ負け`).
    TimeUp {
        winner: Option<Side>,
        points: Option<[i32; 2]>,
    },
    /// `反則勝ち` or `反則負け` (lishogi's word for a lost 千日手).
    Foul { winner: Side },
}

/// Why a KIF could not be read: the line (from 1) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KifError {
    pub line: usize,
    pub problem: String,
}

impl KifError {
    fn new(line: usize, problem: impl Into<String>) -> KifError {
        KifError {
            line,
            problem: problem.into(),
        }
    }
}

impl fmt::Display for KifError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for KifError {}

impl KifEnd {
    /// What a finished game's outcome says in KIF; a time cutoff gives the
    /// points on `end`, the final board.
    pub fn from_outcome(outcome: Outcome, end: &ChuPosition) -> KifEnd {
        let winner = outcome.winner;
        match (outcome.reason, winner) {
            (EndReason::Resignation, Some(winner)) => KifEnd::Resigned { winner },
            (EndReason::Repetition, _) => KifEnd::Repetition { winner },
            (EndReason::TimeUp, _) => KifEnd::TimeUp {
                winner,
                points: Some(cutoff_points(end)),
            },
            (_, Some(winner)) => KifEnd::Won(winner),
            (_, None) => KifEnd::Drawn,
        }
    }

    /// The end the board itself decides under `profile`, if the game is
    /// over there.
    pub fn on_board(profile: Profile, end: &ChuPosition) -> Option<KifEnd> {
        outcome_in(profile, end).map(|(winner, _)| winner.map_or(KifEnd::Drawn, KifEnd::Won))
    }

    /// The game's outcome (a win on the board counts as the royals taken).
    pub fn outcome(self) -> Outcome {
        match self {
            KifEnd::Won(winner) => Outcome::win(winner, EndReason::CaptureTarget),
            KifEnd::Drawn => Outcome::draw(EndReason::CaptureTarget),
            KifEnd::Resigned { winner } => Outcome::win(winner, EndReason::Resignation),
            KifEnd::Mated { winner } => Outcome::win(winner, EndReason::NoMoves),
            KifEnd::Repetition { winner } => Outcome {
                winner,
                reason: EndReason::Repetition,
            },
            KifEnd::TimeUp { winner, .. } => Outcome {
                winner,
                reason: EndReason::TimeUp,
            },
            // lishogi's only foul in 中将棋 is the lost 千日手.
            KifEnd::Foul { winner } => Outcome::win(winner, EndReason::Repetition),
        }
    }
}

// ---------------------------------------------------------------------
// Writing

/// The header line that ends the header (Kakinoki's, as lishogi writes it).
const MOVES_HEADER: &str = "手数----指手---------消費時間--";

/// The file numbers over a diagram, as lishogi writes them.
const DIAGRAM_FILES: &str = " １２ １１ １０ ９  ８  ７  ６  ５  ４  ３  ２  １";

/// A step of a two-step move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    First,
    Second,
}

impl Step {
    fn word(self) -> &'static str {
        match self {
            Step::First => "一歩目",
            Step::Second => "二歩目",
        }
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "先手",
        Side::Second => "後手",
    }
}

/// Whether `pos` is the usual start (its move number aside).
fn is_usual_start(pos: &ChuPosition) -> bool {
    let without_number = |sfen: &str| sfen.rsplit_once(' ').map(|(head, _)| head.to_string());
    without_number(&pos.to_sfen()) == without_number(START_SFEN)
}

impl ChuKif {
    /// A game of which nothing is known but the moves.
    pub fn new(game: ChuGameText) -> ChuKif {
        ChuKif {
            game,
            started: None,
            players: [None, None],
            end: None,
        }
    }

    /// The KIF text.
    pub fn write(&self) -> String {
        let mut out = String::from("#KIF version=2.0 encoding=UTF-8\n");
        if let Some(started) = &self.started {
            out.push_str(&format!("開始日時：{}\n", one_line(started)));
        }
        let start = &self.game.start;
        if is_usual_start(start) {
            out.push_str("手合割：中将棋\n");
        } else {
            out.push_str(&diagram(start));
        }
        for side in Side::BOTH {
            let name = self.players[side.index()].as_deref().unwrap_or("");
            out.push_str(&format!("{}：{}\n", side_name(side), one_line(name)));
        }
        out.push_str(MOVES_HEADER);
        out.push('\n');
        let mut pos = start.clone();
        let mut last_to = None;
        for (i, &mv) in self.game.moves.iter().enumerate() {
            for (step, text) in move_lines(&pos, mv, last_to) {
                let lead = step.map_or("   ", Step::word);
                let space = if step.is_some() { " " } else { "" };
                out.push_str(&format!("{:>4}{lead}{space}{text}\n", i + 1));
            }
            last_to = Some(mv.to);
            pos = play(&pos, mv);
        }
        if let Some(end) = self.end {
            let moves = self.game.moves.len();
            if let Some(word) = end_word(end, pos.to_move()) {
                out.push_str(&format!("{:>4}   {word}\n", moves + 1));
            }
            out.push_str(&format!("まで{moves}手で{}\n", result_text(end)));
        }
        out
    }
}

/// A header's value on its one line: line breaks and other control
/// characters become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// The board diagram, 先手番 or 後手番, and the 先獅子 square if set.
fn diagram(pos: &ChuPosition) -> String {
    let rule = format!("+{}+", "-".repeat(FILES * 4));
    let mut out = format!("{DIAGRAM_FILES}\n{rule}\n");
    for (row, rank) in RANK_KANJI.iter().enumerate() {
        out.push('|');
        for column in 0..FILES {
            let cell = Square::new(row, column).and_then(|sq| pos.at(sq)).map_or(
                "・".to_string(),
                |(side, piece)| {
                    let mark = if side == Side::Second { "v" } else { "" };
                    format!("{mark}{}", diagram_name(piece))
                },
            );
            // Three characters a square, as lishogi pads them.
            out.push_str(&format!("{cell:>3}"));
        }
        out.push_str(&format!("|{rank}\n"));
    }
    out.push_str(&format!("{rule}\n{}番\n", side_name(pos.to_move())));
    if let Some(sq) = pos.lion_taken_at() {
        out.push_str(&format!("先獅子：{}\n", square_kanji(sq)));
    }
    out
}

/// A piece on a diagram: its one kanji, with 成 before a promoted piece
/// that moves as a piece of the starting array does (成飛, a promoted 金将).
fn diagram_name(piece: Piece) -> String {
    let kind = piece.kind();
    if piece.promoted && kind.base().is_some() {
        format!("成{}", kind.short_name())
    } else {
        kind.short_name().to_string()
    }
}

/// The line or two lines of `mv` (without the number): one for a one-leg
/// move, `一歩目` and `二歩目` for a two-step move.
fn move_lines(
    pos: &ChuPosition,
    mv: ChuMove,
    last_to: Option<Square>,
) -> Vec<(Option<Step>, String)> {
    let words = MoveWords::new(pos, mv, last_to);
    // lishogi's names: a promoted piece by the name it moves as.
    let name = words.piece.japanese_name(words.side);
    let from = square_kanji(mv.from);
    let Some((mid, two_step)) = words.two_step else {
        let to = if words.is_last_square(mv.to) {
            "仝".to_string()
        } else {
            square_kanji(mv.to)
        };
        let promotion = match words.promotion {
            Promotion::Promotes => "成",
            Promotion::Declines => "不成",
            Promotion::None => "",
        };
        return vec![(None, format!("{to}{name}{promotion} （←{from}）"))];
    };
    // The steps always name their squares: lishogi's server reads 仝 on a
    // second step as the first step's square, and shogiops refuses 仝 on
    // either step.
    let returns = match two_step {
        TwoStep::Igui => "（居食い）",
        TwoStep::Jitto => "(じっと)",
        TwoStep::TakesTwo | TwoStep::TakesThenMoves | TwoStep::Leap => "",
    };
    let mid_name = square_kanji(mid);
    vec![
        (Some(Step::First), format!("{mid_name}{name} （←{from}）")),
        (
            Some(Step::Second),
            format!("{}{name}{returns} （←{mid_name}）", square_kanji(mv.to)),
        ),
    ]
}

/// The word on the line after the last move, numbered as the next move.
fn end_word(end: KifEnd, to_move: Side) -> Option<&'static str> {
    match end {
        KifEnd::Won(_) | KifEnd::Drawn => None,
        KifEnd::Resigned { .. } => Some("投了"),
        KifEnd::Mated { .. } => Some("詰み"),
        KifEnd::Repetition { .. } => Some("千日手"),
        // A cutoff is no one's flag falling.
        KifEnd::TimeUp {
            winner: Some(_),
            points: None,
        } => Some("切れ負け"),
        KifEnd::TimeUp { .. } => None,
        KifEnd::Foul { winner } if winner == to_move => Some("反則勝ち"),
        KifEnd::Foul { .. } => Some("反則負け"),
    }
}

/// What follows `まで64手で`.
fn result_text(end: KifEnd) -> String {
    let wins = |side: Side| format!("{}の勝ち", side_name(side));
    match end {
        KifEnd::Won(w) | KifEnd::Resigned { winner: w } | KifEnd::Mated { winner: w } => wins(w),
        KifEnd::Drawn => "引き分け".to_string(),
        KifEnd::Repetition { winner: None } => "千日手".to_string(),
        KifEnd::Repetition { winner: Some(w) } => format!("千日手により{}", wins(w)),
        KifEnd::TimeUp { winner, points } => {
            let points = points.map_or(String::new(), |[first, second]| {
                format!("（先手 {}点、後手 {}点）", tenths(first), tenths(second))
            });
            let verdict = winner.map_or("引き分け".to_string(), wins);
            format!("時間切れ{points}により{verdict}")
        }
        KifEnd::Foul { winner } => format!("{}の反則勝ち", side_name(winner)),
    }
}

/// Tenths as a decimal (`123.4`).
fn tenths(n: i32) -> String {
    let sign = if n < 0 { "-" } else { "" };
    format!("{sign}{}.{}", n.abs() / 10, n.abs() % 10)
}

// ---------------------------------------------------------------------
// Reading

/// A figure, half- or full-width.
fn figure(c: char) -> Option<u32> {
    match c {
        '0'..='9' => c.to_digit(10),
        '０'..='９' => Some(c as u32 - '０' as u32),
        _ => None,
    }
}

/// What is left of a line to read.
struct Cursor<'a> {
    rest: &'a str,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor { rest: text }
    }

    /// Half- and full-width spaces.
    fn skip_space(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, word: &str) -> bool {
        match self.rest.strip_prefix(word) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn eat_any(&mut self, words: &[&'static str]) -> Option<&'static str> {
        let word = words.iter().copied().find(|w| self.rest.starts_with(w))?;
        self.rest = &self.rest[word.len()..];
        Some(word)
    }

    fn peek(&self) -> Option<char> {
        self.rest.chars().next()
    }

    /// A whole number in figures (none: `None`, the cursor unmoved).
    fn number(&mut self) -> Option<usize> {
        let digits: Vec<u32> = self.rest.chars().map_while(figure).collect();
        if digits.is_empty() {
            return None;
        }
        let len: usize = self
            .rest
            .chars()
            .take(digits.len())
            .map(char::len_utf8)
            .sum();
        self.rest = &self.rest[len..];
        Some(digits.iter().fold(0usize, |n, &d| {
            n.saturating_mul(10).saturating_add(d as usize)
        }))
    }

    /// A square: the file in figures (1–12), the rank in kanji (一–十二).
    /// `None` if no figure starts here.
    fn square(&mut self) -> Option<Result<Square, String>> {
        let before = self.rest;
        let file = self.number()?;
        // 十二 before 十 before 一: the longest name first.
        let rank = (0..RANKS).rev().find(|&r| self.eat(RANK_KANJI[r]));
        let written: String = before[..before.len() - self.rest.len()].to_string();
        Some(match rank {
            Some(row) if (1..=FILES).contains(&file) => {
                Square::new(row, FILES - file).ok_or_else(|| bad_square(&written))
            }
            Some(_) => Err(bad_square(&written)),
            // Show what stands where the rank should be.
            None => Err(bad_square(&format!(
                "{written}{}",
                self.rest.chars().next().unwrap_or(' ')
            ))),
        })
    }

    /// `（` or `(`.
    fn open(&mut self) -> bool {
        self.eat_any(&["（", "("]).is_some()
    }

    /// `）` or `)`.
    fn close(&mut self) -> bool {
        self.eat_any(&["）", ")"]).is_some()
    }
}

fn bad_square(written: &str) -> String {
    format!(
        "\"{}\" is not a square (the file in figures 1–12, the rank in kanji 一–十二, e.g. 7八)",
        written.trim()
    )
}

/// The destination of a move line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dest {
    Square(Square),
    /// 仝 or 同: the previous move's square.
    Same,
}

/// What a second step says of its return to the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Return {
    /// 居食い: took on the first step and came back.
    Igui,
    /// じっと: out to an empty square and back.
    Jitto,
}

/// A move line as written, before the rules are asked.
#[derive(Clone, Debug)]
struct MoveLine {
    number: Option<usize>,
    step: Option<Step>,
    mark: Option<Side>,
    dest: Dest,
    name: &'static str,
    /// 成 (`true`) or 不成 (`false`), if written.
    promotion: Option<bool>,
    returns: Option<Return>,
    origin: Square,
}

/// How a game's end is written on a line of its own.
const END_WORDS: [&str; 12] = [
    "投了",
    "千日手",
    "詰み",
    "切れ負け",
    "時間切れ",
    "中断",
    "持将棋",
    "反則勝ち",
    "反則負け",
    "引き分け",
    "Time-up",
    "不詰",
];

/// A line of the moves section.
enum Line {
    Move(MoveLine),
    /// One of [`END_WORDS`], and its number if written.
    End(Option<usize>, &'static str),
    /// `まで…`: the rest after `まで`.
    Result(String),
    /// Nothing to read (blank, a comment).
    Nothing,
    /// `変化：`: a variation; the main line is over.
    Variation,
    /// Nothing a move or an end begins with.
    Other,
}

/// Marks for the side that moves.
fn mark_side(mark: &str) -> Side {
    if matches!(mark, "▲" | "☗") {
        Side::First
    } else {
        Side::Second
    }
}

/// Every piece a name in a move line may stand for, and the names longest
/// first (so that `金飛車` is not read as `金`).
struct Names {
    pieces: HashMap<String, Vec<Piece>>,
    longest_first: Vec<String>,
}

fn every_piece() -> impl Iterator<Item = Piece> {
    Base::ALL.into_iter().flat_map(|base| {
        let promoted = base.promotes_to().map(|_| Piece {
            base,
            promoted: true,
        });
        std::iter::once(Piece::new(base)).chain(promoted)
    })
}

/// The names a move line may give `piece`: its full and short names (王 or
/// 玉 for either king, 竜 for 龍, 酔 for 醉), and for a promoted piece
/// 成 before the name it moves as or the name it had (成飛, 成金, 成角行), and
/// lishogi's own names (金将 for a と金, 金飛車, 小角).
fn names_of(piece: Piece) -> Vec<String> {
    let kind = piece.kind();
    let mut names = vec![kind.names().0.to_string(), kind.short_name().to_string()];
    if kind == Kind::King {
        names.extend(["王将", "玉将", "王", "玉"].map(String::from));
    }
    if piece.promoted {
        names.push(format!("成{}", kind.short_name()));
        // As the play screen's record writes it (成角行).
        names.push(format!("成{}", kind.names().0));
        names.push(format!("成{}", piece.base.kind().short_name()));
        let lishogi: &[&str] = match piece.base {
            Base::Pawn => &["金将", "金", "杏", "成兵"],
            Base::Gold => &["金飛車", "金飛"],
            Base::Leopard => &["小角"],
            _ => &[],
        };
        names.extend(lishogi.iter().map(|s| s.to_string()));
    }
    let variants: Vec<String> = names
        .iter()
        .map(|n| n.replace('龍', "竜").replace('醉', "酔"))
        .collect();
    names.extend(variants);
    names.sort();
    names.dedup();
    names
}

fn names() -> &'static Names {
    static NAMES: OnceLock<Names> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut pieces: HashMap<String, Vec<Piece>> = HashMap::new();
        for piece in every_piece() {
            for name in names_of(piece) {
                pieces.entry(name).or_default().push(piece);
            }
        }
        let mut longest_first: Vec<String> = pieces.keys().cloned().collect();
        longest_first.sort_by_key(|n| std::cmp::Reverse(n.chars().count()));
        Names {
            pieces,
            longest_first,
        }
    })
}

/// A piece on a diagram from its kanji, `成` written before it or not
/// (lishogi's 成飛 is a promoted 金将; 成歩 a と金). Also read: 王, 竜,
/// 酔, 師, and 杏 for a と金 (lishogi's server writes it).
fn diagram_piece(promoted: bool, c: char) -> Option<Piece> {
    let c = match c {
        '王' => '玉',
        '竜' => '龍',
        '酔' => '象',
        '師' => '獅',
        '杏' => 'と',
        c => c,
    };
    let kind = Kind::ALL.into_iter().find(|k| k.short_name() == c)?;
    let promoted_from = || {
        Base::ALL
            .into_iter()
            .find(|b| b.promotes_to() == Some(kind))
            .map(|base| Piece {
                base,
                promoted: true,
            })
    };
    match (promoted, kind.base()) {
        (false, Some(base)) => Some(Piece::new(base)),
        (false, None) => promoted_from(),
        (true, base) => promoted_from().or_else(|| {
            base.filter(|b| b.promotes_to().is_some())
                .map(|base| Piece {
                    base,
                    promoted: true,
                })
        }),
    }
}

/// Reads one line of the moves section.
fn read_line(text: &str) -> Result<Line, String> {
    if text.is_empty() || text.starts_with(['*', '＊', '#', '&']) {
        return Ok(Line::Nothing);
    }
    if text.starts_with("変化") {
        return Ok(Line::Variation);
    }
    if let Some(rest) = text.strip_prefix("まで") {
        return Ok(Line::Result(rest.to_string()));
    }
    let mut cur = Cursor::new(text);
    let mut number = cur.number();
    // A move number stands apart from what follows (`  12 7八…`), or is
    // the Renmei's `57手目`, or lishogi's `   3一歩目`; otherwise the
    // figures were the destination's file (`7八歩兵 （←7九）`).
    let apart = cur.eat_any(&["手目", ".", "。", "．"]).is_some()
        || cur.rest.starts_with("一歩目")
        || cur.rest.starts_with("二歩目")
        || cur.peek().is_none_or(char::is_whitespace);
    if !apart {
        cur = Cursor::new(text);
        number = None;
    }
    cur.skip_space();
    let marks = ["▲", "△", "☗", "☖"];
    // The Renmei marks the side before the end's word too (`△投了`).
    let mut mark = cur.eat_any(&marks).map(mark_side);
    cur.skip_space();
    if let Some(word) = cur.eat_any(&END_WORDS) {
        return Ok(Line::End(number, word));
    }
    let step = if cur.eat("一歩目") {
        Some(Step::First)
    } else if cur.eat("二歩目") {
        Some(Step::Second)
    } else {
        None
    };
    cur.skip_space();
    if mark.is_none() {
        mark = cur.eat_any(&marks).map(mark_side);
        cur.skip_space();
    }
    let dest = if cur.eat_any(&["仝", "同"]).is_some() {
        cur.skip_space();
        Dest::Same
    } else {
        match cur.square() {
            Some(sq) => Dest::Square(sq?),
            None if number.is_none() && step.is_none() && mark.is_none() => {
                return Ok(Line::Other);
            }
            None => {
                return Err(format!(
                    "\"{text}\": no square where the move goes (e.g. 7八, or 仝)"
                ));
            }
        }
    };
    cur.skip_space();
    let Some(name) = names()
        .longest_first
        .iter()
        .map(String::as_str)
        .find(|n| cur.rest.starts_with(n))
    else {
        let written: String = cur
            .rest
            .chars()
            .take_while(|c| !c.is_whitespace() && !"(（←".contains(*c))
            .collect();
        return Err(if written.is_empty() {
            format!("\"{text}\": no piece name after the square")
        } else {
            format!("\"{written}\" is not a 中将棋 piece name")
        });
    };
    cur.eat(name);
    let promotion = match cur.eat_any(&["不成", "成", "生"]) {
        Some("成") => Some(true),
        Some(_) => Some(false),
        None => None,
    };
    cur.skip_space();
    let returns = read_return(&mut cur);
    cur.skip_space();
    let opened = cur.open();
    cur.eat("←");
    let origin = match cur.square() {
        Some(sq) => sq?,
        None => {
            return Err(format!(
                "\"{text}\": no square the piece comes from (written （←7九）)"
            ));
        }
    };
    if opened && !cur.close() {
        return Err(format!(
            "\"{text}\": the bracket after the origin is not closed"
        ));
    }
    // What follows (the time taken, a comment) is not the rules' business.
    Ok(Line::Move(MoveLine {
        number,
        step,
        mark,
        dest,
        name,
        promotion,
        returns,
        origin,
    }))
}

/// `（居食い）` or `(じっと)` (either brackets, or none), if written here.
fn read_return(cur: &mut Cursor) -> Option<Return> {
    let saved = cur.rest;
    let opened = cur.open();
    let returns = match cur.eat_any(&["居食い", "じっと"]) {
        Some("居食い") => Return::Igui,
        Some(_) => Return::Jitto,
        None => {
            cur.rest = saved;
            return None;
        }
    };
    if opened {
        cur.close();
    }
    Some(returns)
}

/// The first step of a two-step move, waiting for its second.
struct FirstStep {
    line: usize,
    number: Option<usize>,
    from: Square,
    dest: Dest,
}

/// Where the reader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    Header,
    Moves,
    /// After the end's word or the `まで` line.
    Over,
}

/// The reader's state, line by line.
struct Reader {
    profile: Profile,
    section: Section,
    started: Option<String>,
    players: [Option<String>; 2],
    handicap: Option<(usize, String)>,
    side: Option<Side>,
    lion: Option<(usize, String)>,
    board: Vec<(usize, String)>,
    /// The start and the position now, once the moves begin.
    start: Option<ChuPosition>,
    pos: Option<ChuPosition>,
    moves: Vec<ChuMove>,
    last_to: Option<Square>,
    first_step: Option<FirstStep>,
    /// The written number of the first move, less one.
    numbering: Option<usize>,
    end_word: Option<(usize, &'static str, Side)>,
    result: Option<(usize, String)>,
}

impl ChuKif {
    /// Reads a game in any of the forms: a text whose first word is
    /// `position`, `startpos` or `sfen`, or an SFEN's board (it has `/`),
    /// is a USI game (its first line: what follows is for people); anything
    /// else a KIF. A game read from USI or SFEN ends as the board decides,
    /// if it is over there.
    pub fn read_any(profile: Profile, text: &str) -> Result<ChuKif, String> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let first = text.split_whitespace().next().unwrap_or_default();
        let usi = matches!(first, "position" | "startpos" | "sfen") || first.contains('/');
        if usi {
            let line = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or_default();
            let game = ChuGameText::parse_in(profile, line)?;
            let end = KifEnd::on_board(profile, &game.end());
            Ok(ChuKif {
                end,
                ..ChuKif::new(game)
            })
        } else {
            ChuKif::read(profile, text).map_err(|e| format!("KIF {e}"))
        }
    }

    /// Reads a KIF under `profile`'s rules (see the module's notes).
    pub fn read(profile: Profile, text: &str) -> Result<ChuKif, KifError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // Old Mac files end their lines with a lone CR.
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        if text.trim().is_empty() {
            return Err(KifError::new(1, "the KIF is empty"));
        }
        let mut reader = Reader {
            profile,
            section: Section::Header,
            started: None,
            players: [None, None],
            handicap: None,
            side: None,
            lion: None,
            board: Vec::new(),
            start: None,
            pos: None,
            moves: Vec::new(),
            last_to: None,
            first_step: None,
            numbering: None,
            end_word: None,
            result: None,
        };
        let mut last_line = 1;
        for (i, line) in text.lines().enumerate() {
            last_line = i + 1;
            if !reader.line(i + 1, line.trim())? {
                break;
            }
        }
        reader.finish(last_line)
    }
}

impl Reader {
    /// Reads one line; `false` when the main line is over (a variation).
    fn line(&mut self, n: usize, text: &str) -> Result<bool, KifError> {
        match self.section {
            Section::Header => self.header_line(n, text),
            Section::Moves | Section::Over => self.moves_line(n, text),
        }
    }

    fn header_line(&mut self, n: usize, text: &str) -> Result<bool, KifError> {
        if text.is_empty() || text.starts_with(['#', '*', '＊', '&']) {
            return Ok(true);
        }
        if text.starts_with('|') || text.starts_with('｜') {
            self.board.push((n, text.to_string()));
            return Ok(true);
        }
        let rule = |c: char| c == '-' || c == '+' || c == '－' || c == '＋';
        let figures_only = |c: char| figure(c).is_some() || c.is_whitespace();
        if text.chars().all(rule) || text.chars().all(figures_only) {
            return Ok(true);
        }
        if text.starts_with("手数") {
            // `手数----指手--…` starts the moves; BOD's `手数＝75` is a note.
            if text.contains('-') {
                self.begin_moves(n)?;
            }
            return Ok(true);
        }
        if text.starts_with("変化") {
            return Ok(false);
        }
        if let Some(side) = turn_line(text) {
            self.side = Some(side);
            return Ok(true);
        }
        // No `手数----` line: the moves begin with the first move (whose
        // time may hold a colon).
        match read_line(text) {
            Ok(Line::Move(_) | Line::End(..) | Line::Result(_)) => {
                self.begin_moves(n)?;
                return self.moves_line(n, text);
            }
            // A malformed move, not a header line.
            Err(problem) if !text.contains(['：', ':']) => return Err(KifError::new(n, problem)),
            _ => {}
        }
        if let Some((key, value)) = text.split_once(['：', ':']) {
            let value = value.trim();
            let named = Some(one_line(value)).filter(|v| !v.is_empty());
            match key.trim() {
                "開始日時" => self.started = named,
                "先手" | "下手" => self.players[0] = named,
                "後手" | "上手" => self.players[1] = named,
                "手合割" => self.handicap = Some((n, value.to_string())),
                "先獅子" => self.lion = Some((n, value.to_string())),
                "手番" => {
                    self.side = turn_line(&format!("{value}番"));
                    if self.side.is_none() {
                        return Err(KifError::new(
                            n,
                            format!("手番 is 先手 or 後手, not \"{value}\""),
                        ));
                    }
                }
                key if key.ends_with("の持駒")
                    && !(value.is_empty() || value.starts_with("なし")) =>
                {
                    return Err(KifError::new(
                        n,
                        format!("{key} \"{value}\": 中将棋 has no pieces in hand"),
                    ));
                }
                // Other headers (棋戦, 場所, 持ち時間, …) say nothing the
                // rules need.
                _ => {}
            }
            return Ok(true);
        }
        Err(KifError::new(
            n,
            format!("\"{text}\" is neither a KIF header line nor a move"),
        ))
    }

    /// Sets up the start from the header, as the moves begin.
    fn begin_moves(&mut self, n: usize) -> Result<(), KifError> {
        let start = self.start_position(n)?;
        self.start = Some(start.clone());
        self.pos = Some(start);
        self.section = Section::Moves;
        Ok(())
    }

    /// The start: the diagram, else 手合割 (which must name 中将棋's usual
    /// start); the side to move and the 先獅子 square from their lines.
    fn start_position(&self, n: usize) -> Result<ChuPosition, KifError> {
        let usual_board = START_SFEN.split(' ').next().unwrap_or_default();
        let board = if self.board.is_empty() {
            if let Some((line, handicap)) = &self.handicap {
                let chu = ["", "中将棋", "平手", "chushogi", "chuushogi", "Chushogi"];
                if !chu.contains(&handicap.as_str()) {
                    return Err(KifError::new(
                        *line,
                        format!(
                            "手合割 \"{handicap}\" is not 中将棋's start (中将棋, 平手, or a board diagram)"
                        ),
                    ));
                }
            }
            usual_board.to_string()
        } else {
            self.diagram_board()?
        };
        let side = match self.side.unwrap_or(Side::First) {
            Side::First => "b",
            Side::Second => "w",
        };
        let lion = match &self.lion {
            None => "-".to_string(),
            Some((line, text)) => {
                let mut cur = Cursor::new(text.trim());
                match cur.square() {
                    Some(Ok(sq)) if cur.rest.trim().is_empty() => sq.name(),
                    Some(Err(e)) => return Err(KifError::new(*line, format!("先獅子: {e}"))),
                    _ => {
                        return Err(KifError::new(
                            *line,
                            format!("先獅子 \"{text}\" is not a square (e.g. 6五)"),
                        ));
                    }
                }
            }
        };
        let at = self.board.first().map_or(n, |(line, _)| *line);
        ChuPosition::from_sfen(&format!("{board} {side} {lion} 1"))
            .map_err(|e| KifError::new(at, format!("the start position: {e}")))
    }

    /// The diagram's rows as SFEN's board field.
    fn diagram_board(&self) -> Result<String, KifError> {
        if self.board.len() != RANKS {
            let (line, _) = self.board[self.board.len() - 1];
            return Err(KifError::new(
                line,
                format!("the board has {} rows, not {RANKS}", self.board.len()),
            ));
        }
        let mut rows = Vec::with_capacity(RANKS);
        for (line, text) in &self.board {
            rows.push(diagram_row(text).map_err(|e| KifError::new(*line, e))?);
        }
        Ok(rows.join("/"))
    }

    fn moves_line(&mut self, n: usize, text: &str) -> Result<bool, KifError> {
        let line = read_line(text).map_err(|e| KifError::new(n, e))?;
        match line {
            Line::Nothing => Ok(true),
            Line::Variation => Ok(false),
            Line::Other => Err(KifError::new(n, format!("\"{text}\" is not a move"))),
            _ if self.result.is_some() => Err(KifError::new(
                n,
                format!("\"{text}\" after the game's end (the まで line)"),
            )),
            Line::Result(rest) => {
                self.pending_step_done(n)?;
                self.result = Some((n, rest));
                self.section = Section::Over;
                Ok(true)
            }
            _ if self.section == Section::Over => {
                Err(KifError::new(n, format!("\"{text}\" after the game's end")))
            }
            Line::End(number, word) => {
                self.pending_step_done(n)?;
                self.check_number(n, number, self.moves.len() + 1)?;
                self.end_word = Some((n, word, self.position().to_move()));
                self.section = Section::Over;
                Ok(true)
            }
            Line::Move(mv) => {
                self.move_line(n, mv)?;
                Ok(true)
            }
        }
    }

    fn position(&self) -> &ChuPosition {
        self.pos
            .as_ref()
            .expect("the moves section starts with a position")
    }

    /// A 一歩目 line must be followed by its 二歩目.
    fn pending_step_done(&self, n: usize) -> Result<(), KifError> {
        match &self.first_step {
            Some(first) => Err(KifError::new(
                n,
                format!("the 一歩目 of line {} has no 二歩目", first.line),
            )),
            None => Ok(()),
        }
    }

    /// A written move number must follow on from the first one.
    fn check_number(
        &mut self,
        n: usize,
        written: Option<usize>,
        ply: usize,
    ) -> Result<(), KifError> {
        let Some(written) = written else {
            return Ok(());
        };
        let offset = *self.numbering.get_or_insert(written.saturating_sub(ply));
        let expected = ply.saturating_add(offset);
        if written != expected {
            return Err(KifError::new(
                n,
                format!("the move is numbered {written}, but {expected} comes next"),
            ));
        }
        Ok(())
    }

    fn move_line(&mut self, n: usize, line: MoveLine) -> Result<(), KifError> {
        let ply = self.moves.len() + 1;
        self.check_number(n, line.number, ply)?;
        let side = self.position().to_move();
        if let Some(mark) = line.mark
            && mark != side
        {
            return Err(KifError::new(
                n,
                format!(
                    "{} is {}'s mark, but {} is to move",
                    if mark == Side::First { "▲" } else { "△" },
                    side_name(mark),
                    side_name(side)
                ),
            ));
        }
        match line.step {
            None => {
                self.pending_step_done(n)?;
                let to = self.destination(n, line.dest)?;
                if line.returns.is_some() {
                    return Err(KifError::new(
                        n,
                        "居食い and じっと are written on a 二歩目 line",
                    ));
                }
                self.check_piece(n, line.origin, line.name)?;
                let mv = ChuMove {
                    from: line.origin,
                    mid: None,
                    to,
                    promote: line.promotion == Some(true),
                };
                self.play(n, mv)
            }
            Some(Step::First) => {
                self.pending_step_done(n)?;
                if line.promotion == Some(true) || line.returns.is_some() {
                    return Err(KifError::new(
                        n,
                        "a first step neither promotes nor returns",
                    ));
                }
                self.check_piece(n, line.origin, line.name)?;
                self.first_step = Some(FirstStep {
                    line: n,
                    number: line.number,
                    from: line.origin,
                    dest: line.dest,
                });
                Ok(())
            }
            Some(Step::Second) => {
                let Some(first) = self.first_step.take() else {
                    return Err(KifError::new(n, "a 二歩目 without its 一歩目"));
                };
                if let (Some(a), Some(b)) = (first.number, line.number)
                    && a != b
                {
                    return Err(KifError::new(
                        n,
                        format!("the two steps are numbered {a} and {b}"),
                    ));
                }
                let mid = line.origin;
                // lishogi writes 仝 on the first step when the second lands
                // on the previous move's square: the second step's origin
                // says where the first went.
                if let Dest::Square(first_to) = first.dest
                    && first_to != mid
                {
                    return Err(KifError::new(
                        n,
                        format!(
                            "the second step starts from {}, but the first went to {}",
                            square_kanji(mid),
                            square_kanji(first_to)
                        ),
                    ));
                }
                // The same piece moves on: the second name must fit it too.
                self.check_piece(n, first.from, line.name)?;
                if line.promotion == Some(true) {
                    return Err(KifError::new(n, "a two-step move does not promote"));
                }
                let to = self.destination(n, line.dest)?;
                let pos = self.position();
                let written = match line.returns {
                    Some(Return::Igui) if to != first.from || pos.at(mid).is_none() => {
                        Some("居食い (taking on the first step and returning)")
                    }
                    Some(Return::Jitto) if to != first.from || pos.at(mid).is_some() => {
                        Some("じっと (out to an empty square and back)")
                    }
                    _ => None,
                };
                if let Some(what) = written {
                    return Err(KifError::new(n, format!("the move is not {what}")));
                }
                let mv = ChuMove {
                    from: first.from,
                    mid: Some(mid),
                    to,
                    promote: false,
                };
                self.play(n, mv)
            }
        }
    }

    /// The square a destination names (仝: the previous move's).
    fn destination(&self, n: usize, dest: Dest) -> Result<Square, KifError> {
        match dest {
            Dest::Square(sq) => Ok(sq),
            Dest::Same => self.last_to.ok_or_else(|| {
                KifError::new(
                    n,
                    "仝 (the previous move's square), but there is no previous move",
                )
            }),
        }
    }

    /// The origin holds a piece of the side to move that the name fits.
    fn check_piece(&self, n: usize, from: Square, name: &str) -> Result<(), KifError> {
        let pos = self.position();
        let from_name = square_kanji(from);
        match pos.at(from) {
            None => Err(KifError::new(n, format!("{from_name} is empty"))),
            Some((side, piece)) if side != pos.to_move() => Err(KifError::new(
                n,
                format!(
                    "{from_name} holds {}'s {}, but {} is to move",
                    side_name(side),
                    piece.japanese_name(side),
                    side_name(pos.to_move())
                ),
            )),
            Some((side, piece)) => {
                let fits = names()
                    .pieces
                    .get(name)
                    .is_some_and(|pieces| pieces.contains(&piece));
                if fits {
                    Ok(())
                } else {
                    Err(KifError::new(
                        n,
                        format!(
                            "{from_name} holds {}, not {name}",
                            piece.japanese_name(side)
                        ),
                    ))
                }
            }
        }
    }

    fn play(&mut self, n: usize, mv: ChuMove) -> Result<(), KifError> {
        let pos = self.position();
        let mut legal = Vec::with_capacity(256);
        legal_moves_in(self.profile, pos, &mut legal);
        if !legal.contains(&mv) {
            let why = if mv.promote
                && legal.contains(&ChuMove {
                    promote: false,
                    ..mv
                }) {
                "the piece cannot promote on this move".to_string()
            } else {
                let route: Vec<String> = std::iter::once(mv.from)
                    .chain(mv.mid)
                    .chain(std::iter::once(mv.to))
                    .map(square_kanji)
                    .collect();
                let promote = if mv.promote { " promoting" } else { "" };
                format!("{}{promote} is not a legal move here", route.join("→"))
            };
            return Err(KifError::new(n, why));
        }
        let next = play(pos, mv);
        self.pos = Some(next);
        self.moves.push(mv);
        self.last_to = Some(mv.to);
        Ok(())
    }

    fn finish(mut self, last_line: usize) -> Result<ChuKif, KifError> {
        if self.section == Section::Header {
            self.begin_moves(last_line)?;
        }
        self.pending_step_done(last_line)?;
        let end = self.end()?;
        let start = self
            .start
            .expect("the moves section starts with a position");
        Ok(ChuKif {
            game: ChuGameText {
                start,
                moves: self.moves,
            },
            started: self.started,
            players: self.players,
            end,
        })
    }

    /// The end from the `まで` line, else from the end's word.
    fn end(&self) -> Result<Option<KifEnd>, KifError> {
        let word = self.end_word.map(|(_, word, to_move)| (word, to_move));
        let Some((n, rest)) = &self.result else {
            return Ok(word.and_then(|(word, to_move)| end_from_word(word, to_move)));
        };
        let mut cur = Cursor::new(rest.trim());
        let count = cur.number();
        if let Some(count) = count
            && count != self.moves.len()
        {
            return Err(KifError::new(
                *n,
                format!(
                    "まで{count}手, but the record has {} moves",
                    self.moves.len()
                ),
            ));
        }
        let to_move = self.position().to_move();
        Ok(end_from_result(cur.rest, word, to_move))
    }
}

/// `先手番` / `後手番` (also 下手番, 上手番).
fn turn_line(text: &str) -> Option<Side> {
    match text.trim() {
        "先手番" | "下手番" => Some(Side::First),
        "後手番" | "上手番" => Some(Side::Second),
        _ => None,
    }
}

/// A diagram row (`|  ・ v獅 成飛 …|一`) as SFEN's row.
fn diagram_row(text: &str) -> Result<String, String> {
    let inner = text.trim_start_matches(['|', '｜']);
    let Some(end) = inner.rfind(['|', '｜']) else {
        return Err(format!("the board row \"{text}\" does not end with |"));
    };
    let mut squares: Vec<Option<(Side, Piece)>> = Vec::with_capacity(FILES);
    let (mut gote, mut promoted) = (false, false);
    for c in inner[..end].chars() {
        match c {
            c if c.is_whitespace() => {}
            '・' => squares.push(None),
            'v' | 'V' | 'ｖ' => gote = true,
            '成' => promoted = true,
            c => {
                let piece = diagram_piece(promoted, c).ok_or_else(|| {
                    let written = if promoted {
                        format!("成{c}")
                    } else {
                        c.to_string()
                    };
                    format!("\"{written}\" on the board is not a 中将棋 piece")
                })?;
                let side = if gote { Side::Second } else { Side::First };
                squares.push(Some((side, piece)));
                (gote, promoted) = (false, false);
            }
        }
    }
    if squares.len() != FILES {
        return Err(format!(
            "the board row has {} squares, not {FILES}",
            squares.len()
        ));
    }
    let mut row = String::new();
    let mut empty = 0;
    for square in squares {
        match square {
            None => empty += 1,
            Some((side, piece)) => {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                if piece.promoted {
                    row.push('+');
                }
                let letter = piece.base.letter();
                row.push(if side == Side::First {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
    }
    if empty > 0 {
        row.push_str(&empty.to_string());
    }
    Ok(row)
}

/// The end an end's word alone says (the side to move is the one it names
/// as resigning, mated or out of time).
fn end_from_word(word: &str, to_move: Side) -> Option<KifEnd> {
    let other = to_move.opponent();
    Some(match word {
        "投了" => KifEnd::Resigned { winner: other },
        "詰み" => KifEnd::Mated { winner: other },
        "千日手" => KifEnd::Repetition { winner: None },
        "切れ負け" | "Time-up" => KifEnd::TimeUp {
            winner: Some(other),
            points: None,
        },
        "時間切れ" => KifEnd::TimeUp {
            winner: None,
            points: None,
        },
        "持将棋" | "引き分け" => KifEnd::Drawn,
        "反則勝ち" => KifEnd::Foul { winner: to_move },
        "反則負け" => KifEnd::Foul { winner: other },
        // 中断, 不詰: unfinished.
        _ => return None,
    })
}

/// The end the rest of a `まで64手で…` line says, with the end's word
/// before it (if any) for what the line leaves out. A wording not known
/// here falls back on the word.
fn end_from_result(rest: &str, word: Option<(&str, Side)>, to_move: Side) -> Option<KifEnd> {
    let side_before = |suffix: &str| {
        let at = rest.find(suffix)?;
        let before = &rest[..at];
        if before.ends_with("先手") || before.ends_with("下手") {
            Some(Side::First)
        } else if before.ends_with("後手") || before.ends_with("上手") {
            Some(Side::Second)
        } else {
            None
        }
    };
    let winner = side_before("の勝ち")
        .or_else(|| side_before("の反則勝ち"))
        .or_else(|| side_before("の負け").map(Side::opponent))
        .or_else(|| side_before("の反則負け").map(Side::opponent));
    let said = |w: &str| rest.contains(w) || word.is_some_and(|(word, _)| word == w);
    if rest.contains("中断") {
        return None;
    }
    let from_word = || word.and_then(|(word, to_move)| end_from_word(word, to_move));
    Some(if said("千日手") {
        KifEnd::Repetition { winner }
    } else if rest.contains("反則") || said("反則勝ち") || said("反則負け") {
        match winner {
            Some(winner) => KifEnd::Foul { winner },
            None => return from_word(),
        }
    } else if said("時間切れ") || said("切れ負け") || said("Time-up") {
        KifEnd::TimeUp {
            winner: winner.or_else(|| {
                word.filter(|(w, _)| *w == "切れ負け")
                    .map(|_| to_move.opponent())
            }),
            points: read_points(rest),
        }
    } else if said("持将棋") || rest.contains("引き分け") {
        KifEnd::Drawn
    } else if let Some(winner) = winner {
        match word.map(|(w, _)| w) {
            Some("投了") => KifEnd::Resigned { winner },
            Some("詰み") => KifEnd::Mated { winner },
            _ => KifEnd::Won(winner),
        }
    } else {
        return from_word();
    })
}

/// `（先手 123.4点、後手 98.0点）` as tenths, if both are there.
fn read_points(text: &str) -> Option<[i32; 2]> {
    let after = |label: &str| -> Option<i32> {
        let at = text.find(label)? + label.len();
        let mut cur = Cursor::new(&text[at..]);
        cur.skip_space();
        let whole = cur.number()?;
        let tenth = if cur.eat(".") || cur.eat("．") {
            // Tenths: the first figure after the point.
            let tenth = cur.peek().and_then(figure)?;
            cur.number();
            tenth as i32
        } else {
            0
        };
        let points = i32::try_from(whole)
            .ok()?
            .checked_mul(10)?
            .checked_add(tenth)?;
        cur.eat("点").then_some(points)
    };
    Some([after("先手")?, after("後手")?])
}
