//! Reading one line of a KIF record: numbering styles, full- and
//! half-width figures, squares, piece names (short, long and lishogi's),
//! 同/仝, 居食い and じっと, the words that end a game, the board diagram's
//! rows. What the lines mean together is [`super::read`]'s.

use super::*;

/// A figure, half- or full-width.
pub(super) fn figure(c: char) -> Option<u32> {
    match c {
        '0'..='9' => c.to_digit(10),
        '０'..='９' => Some(c as u32 - '０' as u32),
        _ => None,
    }
}

/// What is left of a line to read.
pub(super) struct Cursor<'a> {
    pub(super) rest: &'a str,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Cursor { rest: text }
    }

    /// Half- and full-width spaces.
    pub(super) fn skip_space(&mut self) {
        self.rest = self.rest.trim_start();
    }

    pub(super) fn eat(&mut self, word: &str) -> bool {
        match self.rest.strip_prefix(word) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    pub(super) fn eat_any(&mut self, words: &[&'static str]) -> Option<&'static str> {
        let word = words.iter().copied().find(|w| self.rest.starts_with(w))?;
        self.rest = &self.rest[word.len()..];
        Some(word)
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.rest.chars().next()
    }

    /// A whole number in figures (none: `None`, the cursor unmoved).
    pub(super) fn number(&mut self) -> Option<usize> {
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
    pub(super) fn square(&mut self) -> Option<Result<Square, String>> {
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
    pub(super) fn open(&mut self) -> bool {
        self.eat_any(&["（", "("]).is_some()
    }

    /// `）` or `)`.
    pub(super) fn close(&mut self) -> bool {
        self.eat_any(&["）", ")"]).is_some()
    }
}

pub(super) fn bad_square(written: &str) -> String {
    format!(
        "\"{}\" is not a square (the file in figures 1–12, the rank in kanji 一–十二, e.g. 7八)",
        written.trim()
    )
}

/// The destination of a move line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dest {
    Square(Square),
    /// 仝 or 同: the previous move's square.
    Same,
}

/// What a second step says of its return to the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Return {
    /// 居食い: took on the first step and came back.
    Igui,
    /// じっと: out to an empty square and back.
    Jitto,
}

/// A move line as written, before the rules are asked.
#[derive(Clone, Debug)]
pub(super) struct MoveLine {
    pub(super) number: Option<usize>,
    pub(super) step: Option<Step>,
    pub(super) mark: Option<Side>,
    pub(super) dest: Dest,
    pub(super) name: &'static str,
    /// 成 (`true`) or 不成 (`false`), if written.
    pub(super) promotion: Option<bool>,
    pub(super) returns: Option<Return>,
    pub(super) origin: Square,
}

/// How a game's end is written on a line of its own.
pub(super) const END_WORDS: [&str; 12] = [
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
pub(super) enum Line {
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
pub(super) fn mark_side(mark: &str) -> Side {
    if matches!(mark, "▲" | "☗") {
        Side::First
    } else {
        Side::Second
    }
}

/// Every piece a name in a move line may stand for, and the names longest
/// first (so that `金飛車` is not read as `金`).
pub(super) struct Names {
    pub(super) pieces: HashMap<String, Vec<Piece>>,
    pub(super) longest_first: Vec<String>,
}

pub(super) fn every_piece() -> impl Iterator<Item = Piece> {
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
pub(super) fn names_of(piece: Piece) -> Vec<String> {
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

pub(super) fn names() -> &'static Names {
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
pub(super) fn diagram_piece(promoted: bool, c: char) -> Option<Piece> {
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
pub(super) fn read_line(text: &str) -> Result<Line, String> {
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
pub(super) fn read_return(cur: &mut Cursor) -> Option<Return> {
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

/// `先手番` / `後手番` (also 下手番, 上手番).
pub(super) fn turn_line(text: &str) -> Option<Side> {
    match text.trim() {
        "先手番" | "下手番" => Some(Side::First),
        "後手番" | "上手番" => Some(Side::Second),
        _ => None,
    }
}

/// A diagram row (`|  ・ v獅 成飛 …|一`) as SFEN's row.
pub(super) fn diagram_row(text: &str) -> Result<String, String> {
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
pub(super) fn end_from_word(word: &str, to_move: Side) -> Option<KifEnd> {
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
pub(super) fn end_from_result(
    rest: &str,
    word: Option<(&str, Side)>,
    to_move: Side,
) -> Option<KifEnd> {
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
pub(super) fn read_points(text: &str) -> Option<[i32; 2]> {
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
