//! Reading KIF: the record's lines read one by one ([`super::line`]) and
//! put together — the header, the board diagram, the moves (two-step
//! moves, numbering, the end) — each move checked against the rules; a
//! malformed record is refused with the line and what is wrong.

use super::line::*;
use super::*;

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
    /// The start, and the game from it (the position now last), once the
    /// moves begin.
    start: Option<ChuPosition>,
    history: Option<ChuHistory>,
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
            let end = KifEnd::on_board(profile, &game.end()).or_else(|| {
                ChuHistory::from_game(profile, &game.positions(), &game.moves)
                    .is_repetition_draw()
                    .then_some(KifEnd::Repetition { winner: None })
            });
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
            history: None,
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
        self.history = Some(ChuHistory::new_in(self.profile, start));
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
        self.history
            .as_ref()
            .expect("the moves section starts with a position")
            .current()
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
        self.history
            .as_mut()
            .expect("the moves section starts with a position")
            .play_unless_refused(mv)
            .map_err(|why| KifError::new(n, why))?;
        self.moves.push(mv);
        self.last_to = Some(mv.to);
        Ok(())
    }

    fn finish(mut self, last_line: usize) -> Result<ChuKif, KifError> {
        if self.section == Section::Header {
            self.begin_moves(last_line)?;
        }
        self.pending_step_done(last_line)?;
        // A record that stops at a 千日手 (JCSA) says nothing more.
        let end = self.end()?.or_else(|| {
            self.history
                .as_ref()
                .is_some_and(ChuHistory::is_repetition_draw)
                .then_some(KifEnd::Repetition { winner: None })
        });
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
