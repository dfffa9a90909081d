//! `yorimichi problems chushogi`: finds 中将棋 problems in games between two
//! やさしい CPUs (which leave pieces hanging and kings open), and lion and
//! king-capture problems in skirmishes set up at random around a lion or an
//! exposed king, and prints them as the steps of
//! `levels/problems/chushogi.ron`. A position becomes a
//! problem of the lowest level whose judging depth finds its answer
//! ([`problems::judge`]); the tests judge every problem again.

use std::io::Write;

use clap::Args;
use rand::SeedableRng;
use rand::rngs::StdRng;

use super::Outcome;

use crate::rules::chu::game::{Chu, ChuRules, japanese_move};
use crate::rules::chu::moves::ChuMove;
use crate::rules::chu::notation::square_kanji;
use crate::rules::chu::position::ChuPosition;
use crate::rules::chu::problems::{self, Sought, Verdict, Wording};
use crate::rules::data::{self, GameId};
use crate::rules::game::{Game, Side};
use crate::rules::search::Searcher;

/// Plies before positions are looked at (the opening is all alike).
const FIRST_PLY: usize = 16;
/// Plies between two problems taken from one game.
const SPACING: usize = 8;
/// A game is given up after this many plies.
const MAX_PLIES: usize = 300;
/// Games after which plain material wins may fill a level's places kept
/// for the rarer themes (king, lion, promotion).
const VARIETY_GAMES: usize = 150;

/// `yorimichi problems chushogi [--count N] [--lion N] [--king N] [--seed S]`:
/// which problems to find, `count` from CPU games, and `lion` and `king`
/// more from skirmishes set up around a lion or an exposed king.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct ProblemsArgs {
    /// The game: chushogi.
    #[arg(value_name = "ID", value_parser = super::only(GameId::ChuShogi))]
    pub game: GameId,
    /// Problems from CPU games: 1 to 600.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 60,
        value_parser = super::whole::<usize>(1, Some(600))
    )]
    pub count: usize,
    /// Lion problems from skirmishes: at most 100.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        value_parser = super::whole::<usize>(0, Some(100))
    )]
    pub lion: usize,
    /// King-capture problems from skirmishes: at most 100.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        value_parser = super::whole::<usize>(0, Some(100))
    )]
    pub king: usize,
    /// Seeds the CPU games and the skirmishes.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = super::seed())]
    pub seed: u64,
}

pub(crate) fn run(args: &ProblemsArgs, out: &mut dyn Write) -> Outcome {
    let ProblemsArgs {
        count,
        lion,
        king,
        seed,
        ..
    } = *args;
    let presets = data::chushogi_presets().map_err(|e| e.to_string())?;
    let easy = presets.cpu.easy.clone();
    let game = Chu::new(ChuRules::JCSA);
    let per_level = count.div_ceil(3);
    let mut found: [Vec<(ChuPosition, Verdict)>; 3] = Default::default();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut games = 0;
    while found.iter().map(Vec::len).sum::<usize>() < count && games < 2000 {
        games += 1;
        let mut pos = game.start();
        let mut history = vec![game.hash(&pos)];
        let mut last_taken = 0;
        for ply in 0..MAX_PLIES {
            if game.outcome(&pos).is_some() {
                break;
            }
            if ply >= FIRST_PLY
                && ply >= last_taken + SPACING
                && pos.to_move() == Side::First
                && let Some((level, verdict)) = classify(&game, &pos)
                && has_room(&found[level - 1], verdict.sought(&pos), per_level, games)
            {
                eprintln!(
                    "game {games} ply {ply}: level {level} {:?} {}",
                    verdict.sought(&pos),
                    japanese_move(&pos, verdict.best)
                );
                found[level - 1].push((pos.clone(), verdict));
                last_taken = ply;
            }
            let plan = easy.plan(&mut rng);
            let Some(result) = Searcher::new(&game, pos.clone(), &history, plan).run(&game) else {
                break;
            };
            pos = game.play(&pos, result.best);
            history.push(game.hash(&pos));
        }
    }
    let total: usize = found.iter().map(Vec::len).sum();
    eprintln!("{total} problems from {games} games");
    for (theme, n) in [(Sought::Lion, lion), (Sought::King, king)] {
        let mut tries = 0;
        let mut got = 0;
        while got < n && tries < 200_000 {
            tries += 1;
            let Some(pos) = skirmish(theme, &mut rng) else {
                continue;
            };
            if game.outcome(&pos).is_some() {
                continue;
            }
            if let Some((level, verdict)) = classify(&game, &pos)
                && verdict.sought(&pos) == theme
            {
                eprintln!(
                    "skirmish {tries}: level {level} {theme:?} {}",
                    japanese_move(&pos, verdict.best)
                );
                found[level - 1].push((pos, verdict));
                got += 1;
            }
        }
        eprintln!("{got} {theme:?} problems from {tries} skirmishes");
    }
    write!(out, "{}", render(&found))?;
    Ok(())
}

/// Whether a level with `level` found so far takes a problem of `theme`:
/// plain material wins leave a third of the places to the rarer themes
/// until [`VARIETY_GAMES`] games have been looked at.
fn has_room(
    level: &[(ChuPosition, Verdict)],
    theme: Sought,
    per_level: usize,
    games: usize,
) -> bool {
    let material = level
        .iter()
        .filter(|(p, v)| v.sought(p) == Sought::Material)
        .count();
    level.len() < per_level
        && (theme != Sought::Material || games > VARIETY_GAMES || material < per_level * 2 / 3)
}

/// Pieces a skirmish scatters (後手's in lower case; no kings or lions).
const PIECES: [char; 19] = [
    'p', 'i', 'l', 'a', 'f', 'c', 's', 'g', 't', 'e', 'o', 'x', 'm', 'v', 'b', 'r', 'h', 'd', 'q',
];
const PIECES_SENTE: [char; 19] = upper(PIECES);
/// 先手's attackers round an exposed king.
const STRONG_SENTE: [char; 10] = upper(['r', 'd', 'h', 'b', 'q', 'n', 'g', 's', 'o', 'x']);

const fn upper<const N: usize>(mut letters: [char; N]) -> [char; N] {
    let mut i = 0;
    while i < N {
        letters[i] = letters[i].to_ascii_uppercase();
        i += 1;
    }
    letters
}

type Grid = [[Option<char>; 12]; 12];

fn put(grid: &mut Grid, row: usize, col: usize, piece: char) {
    if row < 12 && col < 12 && grid[row][col].is_none() {
        grid[row][col] = Some(piece);
    }
}

/// A square up to `reach` away from (`row`, `col`), kept on the board.
fn near(rng: &mut StdRng, row: usize, col: usize, reach: i32) -> (usize, usize) {
    use rand::RngExt;
    let r = row as i32 + rng.random_range(-reach..=reach);
    let c = col as i32 + rng.random_range(-reach..=reach);
    (r.clamp(0, 11) as usize, c.clamp(0, 11) as usize)
}

/// Puts `n` pieces drawn from `from` on squares `at` chooses (an occupied
/// square keeps its piece).
fn scatter(
    grid: &mut Grid,
    rng: &mut StdRng,
    n: usize,
    from: &[char],
    at: impl Fn(&mut StdRng) -> (usize, usize),
) {
    use rand::RngExt;
    for _ in 0..n {
        let (row, col) = at(rng);
        let piece = from[rng.random_range(0..from.len())];
        put(grid, row, col, piece);
    }
}

/// A random skirmish for `theme`, 先手 to move: a 先手 獅子 among 後手
/// pieces (some of them guarded), or a 後手 king with a few guards under
/// 先手's strong pieces. The kings stand on their back ranks.
fn skirmish(theme: Sought, rng: &mut StdRng) -> Option<ChuPosition> {
    use rand::RngExt;
    let mut grid = [[None::<char>; 12]; 12];
    put(&mut grid, 11, rng.random_range(0..12), 'K');
    match theme {
        Sought::Lion => {
            let (row, col) = (rng.random_range(3..8), rng.random_range(2..10));
            put(&mut grid, 0, rng.random_range(0..12), 'k');
            put(&mut grid, row, col, 'N');
            let n = rng.random_range(3..6);
            scatter(&mut grid, rng, n, &PIECES, |rng| near(rng, row, col, 2));
            let n = rng.random_range(1..4);
            scatter(&mut grid, rng, n, &PIECES, |rng| {
                (rng.random_range(0..5), rng.random_range(0..12))
            });
        }
        _ => {
            let (row, col) = (rng.random_range(0..2), rng.random_range(0..12));
            put(&mut grid, row, col, 'k');
            let n = rng.random_range(1..4);
            scatter(&mut grid, rng, n, &PIECES, |rng| near(rng, row, col, 1));
            let n = rng.random_range(2..4);
            scatter(&mut grid, rng, n, &STRONG_SENTE, |rng| {
                near(rng, row + 2, col, 3)
            });
        }
    }
    // A 先手 helper or two further back.
    let n = rng.random_range(1..3);
    scatter(&mut grid, rng, n, &PIECES_SENTE, |rng| {
        (rng.random_range(8..11), rng.random_range(0..12))
    });
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut text = String::new();
            let mut run = 0;
            for cell in row {
                match cell {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            text.push_str(&run.to_string());
                            run = 0;
                        }
                        text.push(*c);
                    }
                }
            }
            if run > 0 {
                text.push_str(&run.to_string());
            }
            text
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    // No more pieces of a kind than a side starts with (two 獅子 are no
    // game's position), and 後手 not already reduced to a bare king.
    ChuPosition::from_rows(&rows, Side::First)
        .ok()
        .filter(|pos| pos.beyond_start().is_empty() && !bare(pos, Side::Second))
}

/// Whether `side` has nothing besides its king that counts for 駒枯れ
/// (unpromoted 歩兵 and 仲人 do not).
fn bare(pos: &ChuPosition, side: Side) -> bool {
    use crate::rules::chu::pieces::{Base, Kind};
    pos.pieces()
        .filter(|&(_, s, _)| s == side)
        .all(|(_, _, p)| {
            p.kind() == Kind::King
                || (!p.promoted && matches!(p.base, Base::Pawn | Base::GoBetween))
        })
}

/// The lowest level whose depth finds `pos` a problem.
fn classify(game: &Chu, pos: &ChuPosition) -> Option<(usize, Verdict)> {
    (1..=3u8).find_map(|level| {
        let v = problems::judge(game, pos, problems::depth_for(level))?;
        v.is_problem().then_some((level as usize, v))
    })
}

fn expect(pos: &ChuPosition, mv: ChuMove, promote: &str) -> String {
    // The first step is named when it takes a piece (the route matters).
    let via = mv
        .mid
        .filter(|&m| pos.at(m).is_some())
        .map_or(String::new(), |m| {
            format!(", via: Some(\"{}\")", square_kanji(m))
        });
    format!(
        "(from: \"{}\", to: \"{}\"{via}{promote})",
        square_kanji(mv.from),
        square_kanji(mv.to)
    )
}

/// Whether `mv` wins the game at once in `pos` (takes the last royal).
fn game_won(pos: &ChuPosition, mv: ChuMove) -> bool {
    let game = Chu::new(ChuRules::JCSA);
    game.outcome(&game.play(pos, mv))
        .is_some_and(|o| o.winner == Some(game.side_to_move(pos)))
}

fn render(found: &[Vec<(ChuPosition, Verdict)>; 3]) -> String {
    let mut out = String::from(
        "// 駒問題集: 中将棋 problems found by `yorimichi problems chushogi` in\n\
         // games between two やさしい CPUs and in set-up lion and king\n\
         // skirmishes; the tests check that each answer is the engine's best\n\
         // move by a clear margin at its level's depth.\n\
         // Diagrams are SFEN ranks (rank 一 first); ☗ is to move.\n\
         Tutorial(\n    id: \"problems\",\n    title: (ja: \"駒問題集\", en: \"Problems\"),\n    steps: [\n",
    );
    let game = Chu::new(ChuRules::JCSA);
    let reading = crate::rules::content::CHUSHOGI_READING;
    let mut number = 0;
    for (level, problems) in found.iter().enumerate() {
        for (pos, verdict) in problems {
            // The words come from what the answer's line does, as
            // `yorimichi check` reads it; a line that teaches nothing
            // a problem can name is left out.
            let line = problems::read_line(
                &game,
                pos,
                &[game.hash(pos)],
                &[verdict.best],
                reading.depth,
                reading.nodes,
            );
            let Some(words) = line
                .as_ref()
                .and_then(|line| problems::wording(line.theme(), number + 1, level as u8 + 1))
            else {
                eprintln!(
                    "left out, its line teaches no theme: {}",
                    line.map_or_else(String::new, |l| l.describe())
                );
                continue;
            };
            number += 1;
            let sfen = pos.to_sfen();
            let board = sfen.split_whitespace().next().unwrap_or_default();
            let rows: Vec<String> = board.split('/').map(|r| format!("\"{r}\"")).collect();
            let answer = japanese_move(pos, verdict.best);
            // An answer that takes the king ends the game, and says so.
            let wins = if game_won(pos, verdict.best) {
                "            wins: Some(true),\n"
            } else {
                ""
            };
            let promote = if verdict.best.promote {
                ", promote: Some(true)"
            } else {
                ""
            };
            let Wording { title, text, wrong } = words;
            out.push_str(&format!(
                "        (\n            title: (ja: \"{}\", en: \"{}\"),\n\
                 \x20           text: (ja: \"{}\", en: \"{}\"),\n\
                 \x20           board: [{}],\n\
                 \x20           level: Some({}),\n\
                 \x20           expect: Some({}),\n\
                 {wins}\
                 \x20           wrong: Some((ja: \"{}\", en: \"{}\")),\n\
                 \x20           right: Some((ja: \"正解:{answer}\", en: \"Correct: {answer}\")),\n        ),\n",
                title.0,
                title.1,
                text.0,
                text.1,
                rows.join(", "),
                level + 1,
                expect(pos, verdict.best, promote),
                wrong.0,
                wrong.1,
            ));
        }
    }
    out.push_str("    ],\n)\n");
    out
}
