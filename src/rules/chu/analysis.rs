//! What the analysis page (`web/analysis.html`) asks of the rules beside
//! the USI engine: a game read from a KIF, a USI move list or an SFEN, its
//! moves written as the play screen's record writes them (`☗7八歩兵(←7九)`,
//! [`screen_move`] in Japanese squares, the words the KIF writer uses), a
//! position as a board diagram, and an engine's line (a principal
//! variation, a mate) written the same way from the position it was read
//! in. The page reaches these through the engine's wasm module
//! (`src/engine_web.rs`), which answers in JSON ([`GameView::json`],
//! [`BoardView::json`], [`LineView::json`]) so that the module needs no
//! bindings beyond strings.

use super::Profile;
use super::end::outcome_in;
use super::kif::{ChuKif, KifEnd, result_text};
use super::moves::{parse_usi_in, play};
use super::notation::{Coords, screen_move};
use super::position::{ChuPosition, FILES, RANKS, START_SFEN, Square};
use super::record::ChuGameText;
use crate::rules::game::Side;

/// A game read for the page.
#[derive(Clone, Debug, PartialEq)]
pub struct GameView {
    /// The rules it was read under (the other profile's, when the one asked
    /// for refuses a move that the other allows).
    pub profile: Profile,
    /// `position startpos` or `position sfen <SFEN>`.
    pub start: String,
    /// Each move: its USI and its record line.
    pub moves: Vec<(String, String)>,
    /// 先手's and 後手's names, where the record gives them.
    pub players: [Option<String>; 2],
    /// How the record says the game ended: the `まで` line's words in
    /// Japanese, and in English.
    pub end: Option<(String, String)>,
}

/// A position as a board diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardView {
    pub sfen: String,
    pub to_move: Side,
    /// Rows from the top (rank 一), each from file 12 to file 1.
    pub cells: Vec<Option<Cell>>,
    /// The 先獅子 square: the side to move may not take a lion back there.
    pub lion_taken_at: Option<String>,
    /// Who has won on the board, if the game is over there (`Some(None)`:
    /// a draw).
    pub over: Option<Option<Side>>,
}

/// One piece on a diagram.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    pub side: Side,
    /// The one kanji a KIF diagram shows (that of the piece it moves as).
    pub kanji: char,
    pub promoted: bool,
    /// Its full name as its side's koma shows it, and in English.
    pub name: (&'static str, &'static str),
}

/// An engine's line written out from the position it was read in.
#[derive(Clone, Debug, PartialEq)]
pub struct LineView {
    /// The record line of each move read.
    pub words: Vec<String>,
    /// The moves from the first one the rules refuse on (written as they
    /// came), and why it was refused.
    pub unread: Vec<String>,
    pub problem: Option<String>,
}

/// Reads a KIF, a USI game (`position startpos moves …`, a bare move list
/// from the start) or an SFEN under `profile`'s rules, or, where those
/// refuse it and the other profile's allow it, under those.
pub fn read_game(profile: Profile, text: &str) -> Result<GameView, String> {
    let text = bare_moves_from_start(text);
    let other = match profile {
        Profile::Jcsa => Profile::Lishogi,
        Profile::Lishogi => Profile::Jcsa,
    };
    match ChuKif::read_any(profile, &text) {
        Ok(kif) => Ok(GameView::new(profile, &kif)),
        // The asked rules' reason is the one to give.
        Err(problem) => ChuKif::read_any(other, &text)
            .map(|kif| GameView::new(other, &kif))
            .map_err(|_| problem),
    }
}

/// A list of USI moves alone (`7i7h 6d6e …`, as a GUI copies one) is a game
/// from the start.
fn bare_moves_from_start(text: &str) -> String {
    let first = text.split_whitespace().next().unwrap_or_default();
    if looks_like_usi_move(first) {
        format!(
            "position startpos moves {}",
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        )
    } else {
        text.to_string()
    }
}

/// Whether `word` begins as a USI move does: a square (a file 1–12, a
/// rank a–l) and another (a KIF's move number, `1`, and an SFEN's first
/// row, `lfcsgekgscfl/…`, do not).
fn looks_like_usi_move(word: &str) -> bool {
    fn square(text: &str) -> Option<&str> {
        let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let rank = text[digits..].chars().next()?;
        ((1..=2).contains(&digits) && ('a'..='l').contains(&rank)).then(|| &text[digits + 1..])
    }
    square(word).and_then(square).is_some()
}

impl GameView {
    fn new(profile: Profile, kif: &ChuKif) -> GameView {
        let game = &kif.game;
        let start = start_command(&game.start);
        let mut moves = Vec::with_capacity(game.moves.len());
        let mut pos = game.start.clone();
        let mut last_to = None;
        for &mv in &game.moves {
            moves.push((mv.usi(), screen_move(&pos, mv, last_to, Coords::Japanese)));
            last_to = Some(mv.to);
            pos = play(&pos, mv);
        }
        let players = kif
            .players
            .clone()
            .map(|p| p.filter(|name| !name.trim().is_empty()));
        let end = kif.end.map(|end| {
            let count = game.moves.len();
            (
                format!("まで{count}手で{}", result_text(end)),
                english_end(end, count),
            )
        });
        GameView {
            profile,
            start,
            moves,
            players,
            end,
        }
    }

    /// `{"profile":"jcsa","start":"position startpos","moves":[["7i7h","☗…"],…],
    /// "players":[…],"end":["まで…","…"]}`.
    pub fn json(&self) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(usi, words)| format!("[{},{}]", json_string(usi), json_string(words)))
            .collect();
        let players: Vec<String> = self
            .players
            .iter()
            .map(|p| json_option(p.as_deref()))
            .collect();
        let end = self.end.as_ref().map_or("null".to_string(), |(ja, en)| {
            format!("[{},{}]", json_string(ja), json_string(en))
        });
        format!(
            "{{\"profile\":{},\"start\":{},\"moves\":[{}],\"players\":[{}],\"end\":{end}}}",
            json_string(self.profile.id()),
            json_string(&self.start),
            moves.join(","),
            players.join(",")
        )
    }
}

/// The USI command that sets up `start` (`position startpos` for the
/// usual start, whatever its move number).
pub fn start_command(start: &ChuPosition) -> String {
    let without_number = |sfen: &str| sfen.rsplit_once(' ').map(|(head, _)| head.to_string());
    if without_number(&start.to_sfen()) == without_number(START_SFEN) {
        "position startpos".to_string()
    } else {
        format!("position sfen {}", start.to_sfen())
    }
}

/// How a record's end reads in English (`Sente wins by resignation after
/// 64 moves`).
fn english_end(end: KifEnd, moves: usize) -> String {
    let name = |side: Side| match side {
        Side::First => "Sente",
        Side::Second => "Gote",
    };
    let wins = |side: Side, how: &str| format!("{} wins{how} after {moves} moves", name(side));
    match end {
        KifEnd::Won(w) => wins(w, ""),
        KifEnd::Drawn => format!("Drawn after {moves} moves"),
        KifEnd::Resigned { winner } => wins(winner, " by resignation"),
        KifEnd::Mated { winner } => wins(winner, " by mate"),
        KifEnd::Repetition { winner: None } => format!("Drawn by repetition after {moves} moves"),
        KifEnd::Repetition { winner: Some(w) } => wins(w, " by repetition"),
        KifEnd::TimeUp { winner: None, .. } => format!("Drawn on time after {moves} moves"),
        KifEnd::TimeUp {
            winner: Some(w), ..
        } => wins(w, " on time"),
        KifEnd::Foul { winner } => wins(winner, " by a foul"),
    }
}

/// The board after the `position` command `command` (`position startpos
/// moves …`, `position sfen … moves …`, or an SFEN alone).
pub fn board(profile: Profile, command: &str) -> Result<BoardView, String> {
    let pos = ChuGameText::parse_in(profile, command)?.end();
    let cells = (0..RANKS)
        .flat_map(|row| (0..FILES).map(move |column| (row, column)))
        .map(|(row, column)| {
            let (side, piece) = Square::new(row, column).and_then(|sq| pos.at(sq))?;
            let kind = piece.kind();
            Some(Cell {
                side,
                kanji: kind.short_name(),
                promoted: piece.promoted,
                name: (piece.japanese_name(side), kind.names().1),
            })
        })
        .collect();
    Ok(BoardView {
        sfen: pos.to_sfen(),
        to_move: pos.to_move(),
        cells,
        lion_taken_at: pos.lion_taken_at().map(super::notation::square_kanji),
        over: outcome_in(profile, &pos).map(|(winner, _)| winner),
    })
}

impl BoardView {
    /// `{"sfen":…,"toMove":"b"|"w","cells":[null|["b","獅",false,"獅子","Lion"],…],
    /// "lionTaken":"6五"|null,"over":null|"b"|"w"|"draw"}`.
    pub fn json(&self) -> String {
        let cells: Vec<String> = self
            .cells
            .iter()
            .map(|cell| match cell {
                None => "null".to_string(),
                Some(c) => format!(
                    "[{},{},{},{},{}]",
                    json_string(side_letter(c.side)),
                    json_string(&c.kanji.to_string()),
                    c.promoted,
                    json_string(c.name.0),
                    json_string(c.name.1)
                ),
            })
            .collect();
        let over = match self.over {
            None => "null",
            Some(None) => "\"draw\"",
            Some(Some(Side::First)) => "\"b\"",
            Some(Some(Side::Second)) => "\"w\"",
        };
        format!(
            "{{\"sfen\":{},\"toMove\":{},\"cells\":[{}],\"lionTaken\":{},\"over\":{over}}}",
            json_string(&self.sfen),
            json_string(side_letter(self.to_move)),
            cells.join(","),
            json_option(self.lion_taken_at.as_deref())
        )
    }
}

/// SFEN's letter for a side.
fn side_letter(side: Side) -> &'static str {
    match side {
        Side::First => "b",
        Side::Second => "w",
    }
}

/// The engine's line `line` (USI moves, as an `info … pv` or a `checkmate`
/// line gives them) read from the position `command` sets up, each move
/// written as the record writes it (仝 for the square the game's last move
/// landed on). A position the rules refuse is an error; a move they refuse
/// ends the words, and the rest is kept as written.
pub fn line(profile: Profile, command: &str, line: &str) -> Result<LineView, String> {
    let game = ChuGameText::parse_in(profile, command)?;
    let mut pos = game.end();
    let mut last_to = game.moves.last().map(|mv| mv.to);
    let mut words = Vec::new();
    let moves: Vec<&str> = line.split_whitespace().collect();
    for (i, text) in moves.iter().enumerate() {
        let mv = match parse_usi_in(profile, &pos, text) {
            Ok(mv) => mv,
            Err(problem) => {
                return Ok(LineView {
                    words,
                    unread: moves[i..].iter().map(|m| m.to_string()).collect(),
                    problem: Some(format!("{text}: {problem}")),
                });
            }
        };
        words.push(screen_move(&pos, mv, last_to, Coords::Japanese));
        last_to = Some(mv.to);
        pos = play(&pos, mv);
    }
    Ok(LineView {
        words,
        unread: Vec::new(),
        problem: None,
    })
}

impl LineView {
    /// `{"words":["☗…",…],"unread":[…],"problem":null|"…"}`.
    pub fn json(&self) -> String {
        let list = |items: &[String]| {
            items
                .iter()
                .map(|s| json_string(s))
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{{\"words\":[{}],\"unread\":[{}],\"problem\":{}}}",
            list(&self.words),
            list(&self.unread),
            json_option(self.problem.as_deref())
        )
    }
}

/// `text` as a JSON string.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_option(text: Option<&str>) -> String {
    text.map_or("null".to_string(), json_string)
}
