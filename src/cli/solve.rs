//! `yorimichi solve musashi`: the exact 十六むさし tables, as a
//! table for people or CSV, or the value and best line of one position.

use std::io::Write;
use std::time::Instant;

use clap::Args;

use super::Outcome;
use crate::rules::data::{self, GameId};
use crate::rules::game::Side;
use crate::rules::musashi::Musashi;
use crate::rules::musashi::solve::{self, LayerStats, MAX_KO, Solver};

/// `yorimichi solve musashi [--board 33|25] [--max-ko N] [--mirror] [--csv]`,
/// or `--position <text>`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct SolveArgs {
    /// The game: musashi.
    #[arg(value_name = "ID", value_parser = super::only(GameId::Musashi))]
    pub game: GameId,
    /// 33 points (with the 雪隠) or 25.
    #[arg(long, value_name = "33|25", default_value = "33", value_parser = board())]
    pub board: u8,
    /// Solve every position with up to N 子.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 6,
        value_parser = super::whole::<u8>(0, Some(u64::from(MAX_KO)))
    )]
    pub max_ko: u8,
    /// Count a position and its mirror image once.
    #[arg(long)]
    pub mirror: bool,
    /// Print CSV instead of a table.
    #[arg(long)]
    pub csv: bool,
    /// Solve this one position instead (the game's position text, e.g.
    /// "KKKKK-./K...K../K.O.K../K...K../KKKKK-. oya"): its exact value and
    /// a best line.
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
}

fn board() -> impl clap::builder::TypedValueParser<Value = u8> {
    super::one_of([33, 25], |points| if points == 33 { "33" } else { "25" })
}

pub(crate) fn run(args: &SolveArgs, out: &mut dyn Write) -> Outcome {
    match &args.position {
        Some(text) => solve_position(text, out),
        None => solve_table(args, out),
    }
}

fn solve_position(text: &str, out: &mut dyn Write) -> Outcome {
    // The row width tells the board.
    let (game, pos) = data::musashi_position(text)?;
    let ko = pos.ko_count() as u8;
    if ko > solve::MAX_KO {
        return Err(format!(
            "the position has {ko} 子; the solver takes at most {}",
            solve::MAX_KO
        )
        .into());
    }
    let start = Instant::now();
    let tables = solve::solve(&game, ko)?;
    writeln!(out, "board: {} points, 子: {ko}", game.board().len())?;
    writeln!(out, "position: {}", game.to_text(&pos))?;
    for row in game.to_rows(&pos) {
        writeln!(out, "  {row}")?;
    }
    write!(out, "{}", solve::describe(&tables, &game, &pos)?)?;
    writeln!(out, "solved in {:.1} s", start.elapsed().as_secs_f64())?;
    Ok(())
}

fn solve_table(args: &SolveArgs, out: &mut dyn Write) -> Outcome {
    // The solver's own rules ignore the threshold, repetition and the move
    // limit; the game supplies the board and the moves.
    let game = data::musashi_standard(args.board == 33)?;
    let positions = Solver::positions(&game, args.max_ko);
    eprintln!(
        "solving {} points, up to {} 子: {positions} positions ({} MiB of tables)",
        game.board().len(),
        args.max_ko,
        positions * 2 / (1 << 20)
    );
    let start = Instant::now();
    let tables = solve::solve(&game, args.max_ko)?;
    let solved = start.elapsed().as_secs_f64();
    let mut rows: Vec<LayerStats> = Vec::new();
    for ko in 0..=args.max_ko {
        for side in [Side::First, Side::Second] {
            rows.push(tables.stats(ko, side, args.mirror));
        }
    }
    if args.csv {
        write!(out, "{}", csv(&rows))?;
    } else {
        write!(out, "{}", table(&game, &rows, args.mirror))?;
    }
    eprintln!(
        "solved in {solved:.1} s, counted in {:.1} s",
        start.elapsed().as_secs_f64() - solved
    );
    Ok(())
}

fn side_name(side: Side) -> &'static str {
    if side == Side::First { "oya" } else { "ko" }
}

/// `ko,side,positions,ko_wins,non_wins,h0,h1,…`: every row has as many
/// histogram columns as the longest win needs.
fn csv(rows: &[LayerStats]) -> String {
    let width = rows.iter().map(|r| r.histogram.len()).max().unwrap_or(0);
    let mut out = String::from("ko,side,positions,ko_wins,non_wins");
    for n in 0..width {
        out.push_str(&format!(",h{n}"));
    }
    out.push('\n');
    for r in rows {
        out.push_str(&format!(
            "{},{},{},{},{}",
            r.ko,
            side_name(r.side),
            r.positions,
            r.ko_wins,
            r.non_wins
        ));
        for n in 0..width {
            out.push_str(&format!(",{}", r.histogram.get(n).copied().unwrap_or(0)));
        }
        out.push('\n');
    }
    out
}

/// The table for people: a line per 子 count and side to move, then the
/// plies histogram and the longest win with a position that needs it.
fn table(game: &Musashi, rows: &[LayerStats], mirror: bool) -> String {
    let mut out = format!(
        "十六むさし, {} points, pure rules{}\n",
        game.board().len(),
        if mirror {
            ", a position and its mirror image counted once"
        } else {
            ""
        }
    );
    out.push_str(&format!(
        "{:>3} {:>4} {:>12} {:>12} {:>12}  longest\n",
        "子", "move", "positions", "子 wins", "not"
    ));
    for r in rows {
        let longest = match &r.longest {
            Some((plies, pos)) => format!("{plies} plies: {}", game.to_text(pos)),
            None => "-".to_string(),
        };
        out.push_str(&format!(
            "{:>3} {:>4} {:>12} {:>12} {:>12}  {longest}\n",
            r.ko,
            side_name(r.side),
            r.positions,
            r.ko_wins,
            r.non_wins
        ));
        if r.ko_wins > 0 {
            let hist: Vec<String> = r
                .histogram
                .iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(|(n, c)| format!("{n}:{c}"))
                .collect();
            out.push_str(&format!("         plies to win  {}\n", hist.join(" ")));
        }
    }
    out
}
