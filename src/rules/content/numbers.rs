//! Numbers a step's text states about its diagram: how many pieces a move
//! takes, a lead, a side's points, the pieces a side has taken or has left.
//! Each is read from the Japanese text by the words around it, worked out
//! on the diagram by the rules engine, and compared; the English text must
//! state the same number.
//!
//! What is read: every sentence of a `right` text (it speaks of the
//! position after the move), and the sentences of a `text` from the first
//! that points at the diagram (この図, いまは, ここで) on — the sentences
//! before it state the rules (「5枚取ったら勝ち」), which name no position,
//! and are left alone. A clause of
//! what would have happened (「飛車を取っていたら」) may speak of any move
//! the position allows.

use crate::rules::game::Side;

/// Words that make a sentence of a `text` speak of the diagram.
const POINTING: [&str; 6] = ["この図", "いまは", "いまの", "今は", "今の", "ここで"];

/// Words of a clause that speaks of another move than the one played.
const WOULD_HAVE: [&str; 1] = ["ていたら"];

/// Words after a count that make it a rule's threshold, not a fact.
const THRESHOLD: [&str; 6] = ["以下", "以上", "ずつ", "になったら", "になると", "まで"];

/// Units of a count of pieces.
const UNITS: [char; 4] = ['枚', '羽', 'つ', '個'];

/// Words between a count and 取 that still make it what a move takes.
const TAKING: [&str; 8] = [
    "取",
    "まとめて取",
    "いっぺんに取",
    "続けて取",
    "とも取",
    "が取",
    "を取",
    "同時に取",
];

/// What a number in a text says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    /// The move takes this many pieces.
    Taken,
    /// A side leads by this much (the named side, or either).
    Lead(Option<Side>),
    /// A side's points on the board (中将棋).
    Points(Side),
    /// The pieces a side has taken so far (はさみ将棋's counts).
    Captured(Side),
    /// The pieces a side has on the board.
    Left(Side),
}

/// A number stated in a text, in tenths (`18.5` is 185, `3` is 30).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stated {
    pub claim: Claim,
    pub tenths: i32,
    /// The number as written.
    pub written: String,
    /// Whether its clause speaks of another move than the one played.
    pub would_have: bool,
}

/// What a text may state about one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// The pieces each side has taken so far (First, Second), where the
    /// game counts them.
    pub captured: Option<[u32; 2]>,
    /// Each side's points on the board in tenths, where the game has them.
    pub points: Option<[i32; 2]>,
    /// Each side's pieces on the board.
    pub on_board: [u32; 2],
}

impl Tally {
    /// The value `claim` has here, in tenths; `None` where the game does
    /// not keep it (a lead where nothing is counted), or for what a move
    /// does ([`Claim::Taken`]).
    pub(crate) fn value(&self, claim: Claim) -> Option<Vec<i32>> {
        let by = |counts: [i32; 2], side: Option<Side>| match side {
            Some(s) => vec![counts[s.index()] - counts[s.opponent().index()]],
            None => vec![(counts[0] - counts[1]).abs()],
        };
        match claim {
            Claim::Taken => None,
            Claim::Lead(side) => match (self.points, self.captured) {
                (Some(points), _) => Some(by(points, side)),
                (None, Some([a, b])) => Some(by([a as i32 * 10, b as i32 * 10], side)),
                (None, None) => None,
            },
            Claim::Points(side) => self.points.map(|p| vec![p[side.index()]]),
            Claim::Captured(side) => self.captured.map(|c| vec![c[side.index()] as i32 * 10]),
            Claim::Left(side) => Some(vec![self.on_board[side.index()] as i32 * 10]),
        }
    }
}

/// The numbers `ja` states about a position. `every_sentence`: a `right`
/// text (each sentence speaks of the position after the move); otherwise
/// only the sentences that point at the diagram count. `sides`: the words
/// that name a side's pieces (`歩`, `「と」`, `がちょう`, `子`, `☗`).
pub(crate) fn stated(ja: &str, every_sentence: bool, sides: &[(&str, Side)]) -> Vec<Stated> {
    let mut found = Vec::new();
    let mut pointed = every_sentence;
    for sentence in ja.split(['。', '!', '！']) {
        pointed |= POINTING.iter().any(|w| sentence.contains(w));
        if !pointed {
            continue;
        }
        for clause in sentence.split(['(', ')', '（', '）']) {
            let would_have = WOULD_HAVE.iter().any(|w| clause.contains(w));
            found.extend(numbers_in(clause).into_iter().filter_map(|(at, written)| {
                let claim = claim_of(clause, at, &written, sides)?;
                Some(Stated {
                    claim,
                    tenths: tenths(&written)?,
                    written,
                    would_have,
                })
            }));
        }
    }
    found
}

/// Each number in `clause` (ASCII digits, one decimal place at most) and
/// the byte at which it starts.
fn numbers_in(clause: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (at, c) in clause.char_indices() {
        let continues = c.is_ascii_digit()
            || (c == '.'
                && current.as_ref().is_some_and(|(_, s)| !s.contains('.'))
                && clause[at + 1..].starts_with(|d: char| d.is_ascii_digit()));
        match (&mut current, continues) {
            (Some((_, s)), true) => s.push(c),
            (None, true) if c.is_ascii_digit() => current = Some((at, c.to_string())),
            (_, false) => found.extend(current.take()),
            _ => {}
        }
    }
    found.extend(current);
    found
}

fn tenths(written: &str) -> Option<i32> {
    let (whole, part) = written.split_once('.').unwrap_or((written, "0"));
    let whole: i32 = whole.parse().ok()?;
    let part: i32 = part.get(..1)?.parse().ok()?;
    Some(whole * 10 + part)
}

/// What the number `written` at byte `at` of `clause` says, by the words
/// around it; `None` for a number that states nothing about the position
/// (a point's name, a rule, a step count).
fn claim_of(clause: &str, at: usize, written: &str, sides: &[(&str, Side)]) -> Option<Claim> {
    let before = &clause[..at];
    let after = &clause[at + written.len()..];
    // The side named just before the number: `☗18.5点`, `歩が3枚`.
    let named = |suffixes: &[&str]| {
        sides.iter().find_map(|&(word, side)| {
            suffixes
                .iter()
                .any(|s| before.ends_with(&format!("{word}{s}")))
                .then_some(side)
        })
    };
    if ["点のリード", "点の差", "点差", "点リード"]
        .iter()
        .any(|w| after.starts_with(w))
    {
        return Some(Claim::Lead(named(&["が", "は", ""])));
    }
    if ["枚差", "枚の差", "羽差"]
        .iter()
        .any(|w| after.starts_with(w))
        || ["差は", "差が"].iter().any(|w| before.ends_with(w))
    {
        return Some(Claim::Lead(None));
    }
    if after.starts_with('点') {
        return named(&["", "は", "が"]).map(Claim::Points);
    }
    let unit = after.chars().next().filter(|c| UNITS.contains(c))?;
    let rest = &after[unit.len_utf8()..];
    if THRESHOLD.iter().any(|w| rest.starts_with(w)) {
        return None;
    }
    let takes = TAKING
        .iter()
        .any(|w| rest.starts_with(w) && !rest[w.len()..].starts_with("られ"));
    if let Some(side) = named(&["が", "は"]) {
        return Some(if takes || clause.contains("取っていて") {
            Claim::Captured(side)
        } else {
            Claim::Left(side)
        });
    }
    (takes || before.ends_with("手で")).then_some(Claim::Taken)
}

/// Whether `en` states the number `written` (as digits, or as a word for
/// a small whole number: `none`, `both` count as 0 and 2).
pub(crate) fn english_states(en: &str, written: &str) -> bool {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    let also = match written {
        "0" => Some("none"),
        "2" => Some("both"),
        _ => None,
    };
    // Digits, not part of a square's name (`4五`).
    let digits = en.match_indices(written).any(|(at, _)| {
        let before = en[..at].chars().next_back();
        let after = en[at + written.len()..].chars().next();
        let apart = |c: Option<char>| {
            c.is_none_or(|c| {
                !(c.is_ascii_digit() || c == '.' || "一二三四五六七八九十".contains(c))
            })
        };
        apart(before)
            && (apart(after)
                || after == Some('.')
                    && !en[at + written.len() + 1..].starts_with(|d: char| d.is_ascii_digit()))
    });
    let word = written
        .parse::<usize>()
        .ok()
        .and_then(|n| WORDS.get(n))
        .is_some_and(|w| {
            en.to_lowercase()
                .split(|c: char| !c.is_ascii_alphabetic())
                .any(|t| t == *w || Some(t) == also)
        });
    digits || word
}
