//! `yorimichi solve musashi`: the exact 十六むさし tables, as a
//! table for people or CSV, or the value and best line of one position.
//! `yorimichi solve chushogi`: a 中将棋 mate (詰め中将棋) by the mate
//! solver, for one SFEN or for every problem of a collection (a benchmark:
//! each line checked under both rule profiles, the count proved, the
//! median and the longest time).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::Outcome;
use crate::rules::chu::Profile;
use crate::rules::chu::mate::{Mate, MateSearch, check_line};
use crate::rules::chu::position::ChuPosition;
use crate::rules::data::{self, GameId};
use crate::rules::game::Side;
use crate::rules::musashi::Musashi;
use crate::rules::musashi::solve::{self, LayerStats, MAX_KO, Solver};

/// `yorimichi solve musashi [--board 33|25] [--max-ko N] [--mirror] [--csv]`,
/// or `--position <text>`; `yorimichi solve chushogi --sfen <SFEN> |
/// --tsv <FILE> [--seconds N] [--profile P]`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct SolveArgs {
    /// The game: musashi (exact tables) or chushogi (mates).
    #[arg(value_name = "ID", value_parser = solvable)]
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
    /// chushogi: the position to mate in (an SFEN; a side without royals
    /// is a mate problem's attacker). The side to move attacks.
    #[arg(
        long,
        value_name = "SFEN",
        value_parser = chu_sfen,
        conflicts_with_all = ["position", "mirror", "csv", "tsv"]
    )]
    pub sfen: Option<String>,
    /// chushogi: solve every problem of a collection (TSV: id, title,
    /// sfen, solution_usi, plies, a header line first) and print how many
    /// were proved, the median and the longest time.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "mirror", "csv"])]
    pub tsv: Option<PathBuf>,
    /// chushogi: the time for each position, in seconds.
    #[arg(long, value_name = "N", default_value_t = 10.0, value_parser = seconds)]
    pub seconds: f64,
    /// chushogi: the rules' profile the solver reads by (with --tsv, each
    /// line found is checked under both).
    #[arg(long, value_name = "P", default_value = "jcsa", value_parser = super::profile())]
    pub profile: Profile,
}

/// The games `solve` knows.
fn solvable(id: &str) -> Result<GameId, String> {
    match id {
        "musashi" => Ok(GameId::Musashi),
        "chushogi" => Ok(GameId::ChuShogi),
        _ => Err(format!(
            "the command knows only musashi (exact tables) and chushogi (mates), not \"{id}\""
        )),
    }
}

/// An SFEN the position reader takes.
fn chu_sfen(text: &str) -> Result<String, String> {
    ChuPosition::from_sfen_start(text)
        .map(|_| text.to_string())
        .map_err(|e| format!("--sfen: {e}"))
}

/// A time in seconds: above zero, at most a day.
fn seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
        .ok_or_else(|| format!("needs a number of seconds above 0 (at most 86400), not \"{text}\""))
}

fn board() -> impl clap::builder::TypedValueParser<Value = u8> {
    super::one_of([33, 25], |points| if points == 33 { "33" } else { "25" })
}

pub(crate) fn run(args: &SolveArgs, out: &mut dyn Write) -> Outcome {
    if args.game == GameId::ChuShogi {
        return match (&args.sfen, &args.tsv) {
            (Some(sfen), _) => solve_chu(args, sfen, out),
            (None, Some(file)) => solve_collection(args, file, out),
            (None, None) => Err("solve chushogi needs --sfen <SFEN> or --tsv <FILE>".into()),
        };
    }
    if args.sfen.is_some() || args.tsv.is_some() {
        return Err("--sfen and --tsv are for solve chushogi".into());
    }
    match &args.position {
        Some(text) => solve_position(text, out),
        None => solve_table(args, out),
    }
}

/// A mate for one SFEN: the line, its length, the nodes and the time.
fn solve_chu(args: &SolveArgs, sfen: &str, out: &mut dyn Write) -> Outcome {
    let pos = ChuPosition::from_sfen_start(sfen).map_err(|e| format!("--sfen: {e}"))?;
    let mut search = MateSearch::new(args.profile);
    let start = Instant::now();
    let limit = std::time::Duration::from_secs_f64(args.seconds);
    let mut stop = || start.elapsed() >= limit;
    let answer = search.solve(&pos, &mut stop);
    let proved_in = start.elapsed().as_secs_f64();
    let answer = match answer {
        // The time left goes to a shorter line.
        Mate::Proved(line) => Mate::Proved(search.shorten(&pos, line, &mut stop)),
        other => other,
    };
    let seconds = start.elapsed().as_secs_f64();
    match &answer {
        Mate::Proved(line) => {
            let moves: Vec<String> = line.iter().map(|m| m.usi()).collect();
            writeln!(out, "mate: {}", moves.join(" "))?;
            writeln!(out, "plies: {}", line.len())?;
            writeln!(out, "proved in: {proved_in:.3} s")?;
        }
        Mate::NoMate => writeln!(out, "no mate")?,
        Mate::Unknown => writeln!(out, "not solved within {} s", args.seconds)?,
    }
    writeln!(out, "nodes: {}", search.nodes())?;
    writeln!(out, "time: {seconds:.3} s")?;
    Ok(())
}

/// One problem of a collection.
struct Problem {
    id: String,
    sfen: String,
    plies: Option<usize>,
}

/// Reads a collection: a header line, then id, title, sfen, solution,
/// plies separated by tabs.
fn read_collection(text: &str) -> Result<Vec<Problem>, String> {
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [id, _title, sfen, _solution, plies, ..] = fields[..] else {
            return Err(format!(
                "line {}: expected 5 tab-separated fields (id, title, sfen, solution_usi, plies), found {}",
                i + 1,
                fields.len()
            ));
        };
        problems.push(Problem {
            id: id.to_string(),
            sfen: sfen.to_string(),
            plies: plies.trim().parse().ok(),
        });
    }
    if problems.is_empty() {
        return Err("the collection has no problems".to_string());
    }
    Ok(problems)
}

/// Solves every problem of a collection within the time each, checks
/// each line found under both profiles, and prints a line a problem and
/// the summary: how many proved, the median and the longest time.
fn solve_collection(args: &SolveArgs, file: &std::path::Path, out: &mut dyn Write) -> Outcome {
    let text =
        std::fs::read_to_string(file).map_err(|e| format!("--tsv {}: {e}", file.display()))?;
    let problems = read_collection(&text).map_err(|e| format!("--tsv {}: {e}", file.display()))?;
    let mut search = MateSearch::new(args.profile);
    let limit = std::time::Duration::from_secs_f64(args.seconds);
    let mut times = Vec::new();
    let mut proved = 0;
    let mut longest: Option<(f64, String)> = None;
    for problem in &problems {
        let pos = match ChuPosition::from_sfen_start(&problem.sfen) {
            Ok(pos) => pos,
            Err(e) => {
                writeln!(out, "{}\tunreadable: {e}", problem.id)?;
                times.push(args.seconds);
                continue;
            }
        };
        let start = Instant::now();
        let mut stop = || start.elapsed() >= limit;
        let answer = search.solve(&pos, &mut stop);
        // Proved within the limit is what counts; the time left shortens
        // the line.
        let seconds = start.elapsed().as_secs_f64();
        let answer = match answer {
            Mate::Proved(line) => Mate::Proved(search.shorten(&pos, line, &mut stop)),
            other => other,
        };
        let theirs = problem.plies.map_or("?".to_string(), |p| p.to_string());
        let verdict = match &answer {
            Mate::Proved(line) => {
                let faults: Vec<String> = Profile::ALL
                    .into_iter()
                    .filter_map(|p| {
                        check_line(p, &pos, line)
                            .err()
                            .map(|e| format!("{}: {e}", p.id()))
                    })
                    .collect();
                if faults.is_empty() {
                    proved += 1;
                    if longest.as_ref().is_none_or(|(t, _)| seconds > *t) {
                        longest = Some((seconds, problem.id.clone()));
                    }
                    // The collection counts to the mate; the line goes on
                    // to the royal's capture (a reply and the capture).
                    format!(
                        "proved\tplies {} (mate {}, collection {theirs})",
                        line.len(),
                        line.len().saturating_sub(2)
                    )
                } else {
                    format!("line refused\t{}", faults.join("; "))
                }
            }
            Mate::NoMate => "no mate found".to_string(),
            Mate::Unknown => "not proved in time".to_string(),
        };
        let counted = if matches!(answer, Mate::Proved(_)) && verdict.starts_with("proved") {
            seconds
        } else {
            seconds.max(args.seconds)
        };
        times.push(counted);
        writeln!(
            out,
            "{}\t{verdict}\tnodes {}\t{seconds:.2} s",
            problem.id,
            search.nodes()
        )?;
    }
    times.sort_by(f64::total_cmp);
    let median = if times.len() % 2 == 1 {
        times[times.len() / 2]
    } else {
        (times[times.len() / 2 - 1] + times[times.len() / 2]) / 2.0
    };
    writeln!(
        out,
        "proved {proved}/{} within {} s each ({:.0}%), profile {}; median {median:.2} s (unproved counted at the limit), longest proved {}",
        problems.len(),
        args.seconds,
        100.0 * proved as f64 / problems.len() as f64,
        args.profile.id(),
        longest.map_or("-".to_string(), |(t, id)| format!("{t:.2} s ({id})"))
    )?;
    Ok(())
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
