//! `yorimichi solve musashi`: the exact 十六むさし tables (issue 4), as a
//! table for people or CSV, or the value and best line of one position.

use std::time::Instant;

use crate::cli::SolveArgs;
use crate::rules::data;
use crate::rules::game::Side;
use crate::rules::musashi::Musashi;
use crate::rules::musashi::solve::{self, LayerStats, Solver};

pub fn run(args: &SolveArgs) -> Result<(), String> {
    match &args.position {
        Some(text) => solve_position(text),
        None => solve_table(args),
    }
}

fn solve_position(text: &str) -> Result<(), String> {
    // The row width tells the board.
    let (game, pos) = data::musashi_position(text)?;
    let ko = pos.ko_count() as u8;
    if ko > solve::MAX_KO {
        return Err(format!(
            "the position has {ko} 子; the solver takes at most {}",
            solve::MAX_KO
        ));
    }
    let start = Instant::now();
    let tables = solve::solve(&game, ko)?;
    println!("board: {} points, 子: {ko}", game.board().len());
    println!("position: {}", game.to_text(&pos));
    for row in game.to_rows(&pos) {
        println!("  {row}");
    }
    print!("{}", solve::describe(&tables, &game, &pos)?);
    println!("solved in {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn solve_table(args: &SolveArgs) -> Result<(), String> {
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
        print!("{}", csv(&rows));
    } else {
        print!("{}", table(&game, &rows, args.mirror));
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
pub fn csv(rows: &[LayerStats]) -> String {
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
