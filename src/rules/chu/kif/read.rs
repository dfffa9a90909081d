//! Reading KIF: the lines of a record one by one (numbering styles,
//! full- and half-width figures, short names, 同/仝, the end), each move
//! checked against the rules; a malformed record is refused with the line
//! and what is wrong.

use super::*;

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
        ChuPosition::from_sfen_start(&format!("{board} {side} {lion} 1"))
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
