//! 駒問題集: what makes a 中将棋 position a problem, judged by the
//! engine. A position is a problem when the side to move has one best move
//! that wins clearly — every other move (every move ending in a different
//! position) scores at least [`MARGIN`] less — and it gains material over
//! the position as it stands (or takes the king). The same judgement finds
//! problems in self-play (`yorimichi problems chushogi`) and checks every
//! problem of `levels/problems/chushogi.ron` in the tests.

use super::end::{self, ChuEnd};
use super::exchange::worth;
use super::game::{Chu, japanese_move};
use super::moves::ChuMove;
use super::notation::record_name;
use super::pieces::Piece;
use super::position::ChuPosition;
use crate::rules::game::{Game, Side};
use crate::rules::search::{SearchPlan, Searcher, WIN, mate_plies};

/// How much worse (hundredths of a pawn) every other move must be.
pub const MARGIN: i32 = 300;
/// How much the best move must gain on the position's static value.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) const GAIN: i32 = 250;
/// Node budget of one judging search.
pub(crate) const NODES: u64 = 400_000;

/// The search depth that judges a problem of `level` (1 easy … 3 hard):
/// 1, the move itself (and the captures that follow: quiescence); 2, the
/// opponent's reply too; 3, a combination of two own moves.
pub fn depth_for(level: u8) -> u8 {
    level.clamp(1, 3)
}

/// What kind of win the finder looks for, told by the best move alone
/// (the problem's wording comes from its whole line: [`Line::theme`]).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sought {
    /// The king is taken by force.
    King,
    /// The 獅子 (or a lion-powered piece) makes the winning move.
    Lion,
    /// The winning move promotes.
    Promotion,
    /// The move wins material.
    Material,
}

/// The engine's judgement of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub best: ChuMove,
    pub score: i32,
    /// The best score of every move that does not end where `best` does.
    pub others: i32,
    /// The position's static value for the side to move.
    pub before: i32,
}

impl Verdict {
    /// Whether the position is a problem with `best` as its answer.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn is_problem(&self) -> bool {
        self.score - self.others >= MARGIN
            && (self.score - self.before >= GAIN || self.score >= WIN / 2)
    }
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn sought(&self, pos: &ChuPosition) -> Sought {
        if self.score >= WIN / 2 {
            Sought::King
        } else if is_lion_move(pos, self.best) {
            Sought::Lion
        } else if self.best.promote {
            Sought::Promotion
        } else {
            Sought::Material
        }
    }
}

fn plan(depth: u8) -> SearchPlan {
    SearchPlan {
        seed: 0,
        ..SearchPlan::fixed(depth, NODES)
    }
}

/// The best score of the moves `keep` accepts, searched to `depth`.
pub fn best_of(
    game: &Chu,
    pos: &ChuPosition,
    depth: u8,
    keep: impl Fn(ChuMove) -> bool,
) -> Option<(ChuMove, i32)> {
    let key = game.hash(pos);
    let result = Searcher::new(game, pos.clone(), &[key], plan(depth))
        .restrict_root(keep)
        .run(game)?;
    Some((result.best, result.score))
}

/// Judges `pos` at `depth`: the best move, its score, and the best score
/// of every move that ends elsewhere.
pub fn judge(game: &Chu, pos: &ChuPosition, depth: u8) -> Option<Verdict> {
    let (best, score) = best_of(game, pos, depth, |_| true)?;
    let ends = |mv: ChuMove| game.hash(&game.play(pos, mv));
    let best_end = ends(best);
    let others = best_of(game, pos, depth, |mv| ends(mv) != best_end).map_or(-WIN, |(_, s)| s);
    Some(Verdict {
        best,
        score,
        others,
        before: game.evaluate(pos),
    })
}

/// Whether `mv` is a lion move: the 獅子 (or a 麒麟 promoted to one)
/// moves, or a piece uses lion power (two steps: 飛鷲, 角鷹).
pub fn is_lion_move(pos: &ChuPosition, mv: ChuMove) -> bool {
    pos.at(mv.from).is_some_and(|(_, p)| p.is_lion()) || mv.mid.is_some()
}

/// Net captures (hundredths of a pawn) a line must win to be a material
/// win: a 歩兵's worth.
pub const WON_AT_LEAST: i32 = 100;
/// Captures read on past the searched line, each side taking while the
/// engine's next move is a capture, so that an exchange the line leaves
/// half done is counted to its end.
const SETTLE_PLIES: usize = 6;

/// What a problem's answer line does: the answer, then the engine's
/// expected line at the reading depth (re-searched ply by ply to the end
/// when it reads a forced win beyond the line, and read on while the
/// engine's next move is a capture).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Each move with the position before it, the answer first.
    pub moves: Vec<(ChuPosition, ChuMove)>,
    /// How the game ends in the solver's favour, and on which ply
    /// (1: the answer itself), if the line ends it.
    pub end: Option<(u8, ChuEnd)>,
}

/// What a problem teaches, read from its answer line ([`Line::theme`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// The king is taken on the solver's `moves`-th move (1: the king
    /// stands en prise and the answer takes it).
    King { moves: u8 },
    /// The line leaves the opponent a bare king (駒枯れ), a win, on the
    /// solver's `moves`-th move.
    BareKing { moves: u8 },
    /// The answer is a lion move and the line wins material.
    Lion,
    /// The answer promotes.
    Promotion,
    /// The line wins material (at least [`WON_AT_LEAST`] net).
    Material,
    /// The line wins no material, but the solver's `moves`-th move
    /// promotes: the answer prepares it.
    PreparesPromotion { moves: u8 },
    /// None of these: the line takes nothing, promotes nothing, ends
    /// nothing.
    Unclear,
}

impl Line {
    /// The side that solves the problem.
    pub fn solver(&self) -> Side {
        self.moves[0].0.to_move()
    }

    /// The pieces taken along the line by `side` (a royal taken is the
    /// game's end, not material).
    pub fn taken_by(&self, side: Side) -> Vec<Piece> {
        self.moves
            .iter()
            .filter(|(pos, _)| pos.to_move() == side)
            .flat_map(|(pos, mv)| mv.taken(pos).map(|(_, p)| p).collect::<Vec<_>>())
            .filter(|p| !end::is_royal(*p))
            .collect()
    }

    /// What the solver's captures are worth less what it loses.
    pub fn net(&self) -> i32 {
        let sum = |side: Side| self.taken_by(side).into_iter().map(worth).sum::<i32>();
        sum(self.solver()) - sum(self.solver().opponent())
    }

    /// The solver's first move of the line that promotes: 1 for the
    /// answer, 2 for its next move…
    pub fn promotes_on(&self) -> Option<u8> {
        self.moves
            .iter()
            .step_by(2)
            .position(|(_, mv)| mv.promote)
            .map(|i| i as u8 + 1)
    }

    /// What the line teaches: a win of the game first (the king taken, a
    /// bare king), then a lion move that wins, a promoting answer, a
    /// material win, a promotion the answer prepares.
    pub fn theme(&self) -> Theme {
        let own = |ply: u8| ply.div_ceil(2);
        match self.end {
            Some((ply, ChuEnd::BareKing)) => return Theme::BareKing { moves: own(ply) },
            Some((ply, _)) => return Theme::King { moves: own(ply) },
            None => {}
        }
        let (pos, answer) = &self.moves[0];
        let won = self.net() >= WON_AT_LEAST;
        if won && is_lion_move(pos, *answer) {
            Theme::Lion
        } else if answer.promote {
            Theme::Promotion
        } else if won {
            Theme::Material
        } else if let Some(moves) = self.promotes_on() {
            Theme::PreparesPromotion { moves }
        } else {
            Theme::Unclear
        }
    }

    /// The line as the record writes it, and what it does, for messages:
    /// `☗9五麒麟(←9七) ☖… ☗8四麒麟成(←9五): takes nothing, loses nothing; promotes on ply 3`.
    pub fn describe(&self) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(pos, mv)| japanese_move(pos, *mv))
            .collect();
        let names = |side: Side| {
            let pieces = self.taken_by(side);
            if pieces.is_empty() {
                "nothing".to_string()
            } else {
                pieces
                    .iter()
                    .map(|&p| record_name(p, Side::First))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let solver = self.solver();
        let mut does = match self.end {
            Some((ply, why)) => format!("wins the game on ply {ply} ({why:?}); "),
            None => String::new(),
        };
        does.push_str(&format!(
            "takes {}, loses {} (net {})",
            names(solver),
            names(solver.opponent()),
            self.net()
        ));
        if let Some(m) = self.promotes_on() {
            does.push_str(&format!("; promotes on ply {}", 2 * m - 1));
        }
        format!("{}: {does}", moves.join(" "))
    }
}

/// Reads the line of the answer `answers` (one move, perhaps by several
/// routes) in `pos`, the game so far `history` (hashes, `pos` last):
/// the engine's expected line at `depth` with the answer at the root.
/// The line of `moves` from `pos` (a mate the solver proved), ending
/// where the game ends in the first mover's favour.
pub fn line_of(game: &Chu, pos: &ChuPosition, moves: &[ChuMove]) -> Line {
    let mut line = Line {
        moves: Vec::new(),
        end: None,
    };
    let solver = pos.to_move();
    let mut at = pos.clone();
    for &mv in moves {
        if game.outcome(&at).is_some() {
            break;
        }
        let next = game.play(&at, mv);
        line.moves.push((at.clone(), mv));
        at = next;
        if let Some((winner, why)) = end::outcome(&at)
            && winner == solver
        {
            line.end = Some((line.moves.len() as u8, why));
        }
    }
    line
}

pub fn read_line(
    game: &Chu,
    pos: &ChuPosition,
    history: &[u64],
    answers: &[ChuMove],
    depth: u8,
    nodes: u64,
) -> Option<Line> {
    let plan = |depth: u8| SearchPlan {
        seed: 0,
        ..SearchPlan::fixed(depth, nodes)
    };
    let first = Searcher::new(game, pos.clone(), history, plan(depth))
        .with_table_megabytes(16)
        .restrict_root(|m| answers.contains(&m))
        .scoring_a_single_move()
        .run(game)?;
    let forced = mate_plies(first.score).filter(|&p| p > 0);
    let mut line = Line {
        moves: Vec::new(),
        end: None,
    };
    let mut at = pos.clone();
    let solver = pos.to_move();
    let play = |line: &mut Line, at: &mut ChuPosition, mv: ChuMove| {
        let next = game.play(at, mv);
        line.moves.push((at.clone(), mv));
        *at = next;
        if let Some((winner, why)) = end::outcome(at)
            && winner == solver
        {
            line.end = Some((line.moves.len() as u8, why));
        }
    };
    for &mv in first.pv.iter().take(depth as usize) {
        if game.outcome(&at).is_some() {
            break;
        }
        play(&mut line, &mut at, mv);
    }
    if line.moves.is_empty() {
        play(&mut line, &mut at, first.best);
    }
    let mut settled = 0;
    while game.outcome(&at).is_none() {
        let win_ahead = forced.is_some_and(|p| line.moves.len() < p as usize);
        if !win_ahead && settled >= SETTLE_PLIES {
            break;
        }
        let history: Vec<u64> = history
            .iter()
            .copied()
            .chain(line.moves.iter().skip(1).map(|(p, _)| game.hash(p)))
            .chain([game.hash(&at)])
            .collect();
        let reading = if win_ahead { depth } else { 1 };
        let Some(next) = Searcher::new(game, at.clone(), &history, plan(reading))
            .with_table_megabytes(16)
            .run(game)
        else {
            break;
        };
        if !win_ahead && !game.is_capture(&at, next.best) {
            break;
        }
        if !win_ahead {
            settled += 1;
        }
        play(&mut line, &mut at, next.best);
        if win_ahead && line.moves.len() > 2 * depth as usize + 2 {
            break;
        }
    }
    Some(line)
}

/// The words of a problem, derived from its theme: title, task and the
/// text shown for a wrong move, each `(ja, en)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wording {
    pub title: (String, String),
    pub text: (String, String),
    pub wrong: (String, String),
}

/// The words of a problem's level, 1 to 3.
pub fn level_words(level: u8) -> Option<(&'static str, &'static str)> {
    match level {
        1 => Some(("初級", "Easy")),
        2 => Some(("中級", "Medium")),
        3 => Some(("上級", "Hard")),
        _ => None,
    }
}

fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

const WRONG: (&str, &str) = (
    "もっと得をする手があります。駒の利きをよく見ましょう。",
    "There is a better move. Look at what each piece attacks.",
);
const KING_NOTE: (&str, &str) = (
    "(王手をかけなくても、王を取れば勝ちです)",
    " (taking the king wins; no check needs to be announced)",
);

/// The wording of problem `number` of `level` whose line teaches `theme`
/// (the table is in docs/rules-to-tutorials.md); `None` for a theme no
/// problem may have ([`Theme::Unclear`]) or a level out of 1–3.
pub fn wording(theme: Theme, number: usize, level: u8) -> Option<Wording> {
    let (level_ja, level_en) = level_words(level)?;
    let s = |t: (&str, &str)| (t.0.to_string(), t.1.to_string());
    let (theme_words, task, wrong): ((String, String), (String, String), (String, String)) =
        match theme {
            Theme::King { moves: 1 } => (
                s(("王を取る", "Take the king")),
                (
                    format!(
                        "相手の王が取れます。王を取る手を見つけましょう{}。",
                        KING_NOTE.0
                    ),
                    format!(
                        "The enemy king can be taken now: find the move that takes it{}.",
                        KING_NOTE.1
                    ),
                ),
                s((
                    "その手では王を取れません。相手の王に利いている駒を見つけましょう。",
                    "That move does not take the king. Find the piece that attacks it.",
                )),
            ),
            Theme::King { moves } => {
                let plies = 2 * moves - 1;
                (
                    (
                        format!("{plies}手で王を取る"),
                        format!("Take the king on your {} move", ordinal(moves)),
                    ),
                    (
                        format!(
                            "{plies}手(こちらの{moves}手目)で相手の王を取れる手順があります。その1手目を見つけましょう{}。",
                            KING_NOTE.0
                        ),
                        format!(
                            "You can take the enemy king by force on your {} move ({plies} moves, the replies counted). Find the first move{}.",
                            ordinal(moves),
                            KING_NOTE.1
                        ),
                    ),
                    s((
                        "その手では王を取りきれません。相手の王の逃げ道をよく見ましょう。",
                        "After that move the king gets away. Look at where it can go.",
                    )),
                )
            }
            Theme::BareKing { moves } => {
                let plies = 2 * moves - 1;
                (
                    s(("駒枯れで勝つ", "Win by bare king")),
                    (
                        format!(
                            "{plies}手で相手の王を裸(駒枯れ)にして勝てます。その1手目を見つけましょう。"
                        ),
                        format!(
                            "You can leave the enemy king bare and win in {plies} moves, the replies counted. Find the first move."
                        ),
                    ),
                    s(WRONG),
                )
            }
            Theme::Lion => (
                s(("獅子の一手", "A lion move")),
                s((
                    "獅子の動きを生かして、いちばん得をする手を見つけましょう。",
                    "Use the lion's powers: find the move that wins the most.",
                )),
                s(WRONG),
            ),
            Theme::Promotion => (
                s(("成って得をする", "Promote and win")),
                s((
                    "成りを使って、いちばん得をする手を見つけましょう。",
                    "Find the move that wins the most, using promotion.",
                )),
                s(WRONG),
            ),
            Theme::Material => (
                s(("駒得", "Win material")),
                s((
                    "相手の駒をいちばん多く得する手を見つけましょう。",
                    "Find the move that wins the most material.",
                )),
                s(WRONG),
            ),
            Theme::PreparesPromotion { moves } => {
                let when = if moves == 2 {
                    ("次の手".to_string(), "your next move".to_string())
                } else {
                    (
                        format!("こちらの{moves}手目"),
                        format!("your {} move", ordinal(moves)),
                    )
                };
                (
                    s(("成りをねらう", "Prepare a promotion")),
                    (
                        format!(
                            "{}で成れるようにする手を見つけましょう(前へ進む手とは限りません)。",
                            when.0
                        ),
                        format!(
                            "Find the move that makes a promotion possible on {} (it need not go forward).",
                            when.1
                        ),
                    ),
                    s((
                        "その手では成れません。敵陣に入れる駒をよく見ましょう。",
                        "That move does not make a promotion ready. Look at which piece can enter the zone.",
                    )),
                )
            }
            Theme::Unclear => return None,
        };
    Some(Wording {
        title: (
            format!("{number}. {level_ja}・{}", theme_words.0),
            format!("{number}. {level_en}: {}", theme_words.1),
        ),
        text: (
            format!("☗の番です。{}", task.0),
            format!("Sente (☗) to move. {}", task.1),
        ),
        wrong,
    })
}
