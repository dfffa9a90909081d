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
use super::repetition::ChuHistory;
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
            // A side's flag fell: 切れ負け, no points.
            (EndReason::OutOfTime, Some(winner)) => KifEnd::TimeUp {
                winner: Some(winner),
                points: None,
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
pub(crate) fn result_text(end: KifEnd) -> String {
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

mod line;
mod read;
