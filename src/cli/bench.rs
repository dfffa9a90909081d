//! `yorimichi bench <game>`: how long the CPU takes to choose a move at
//! each level, over positions from CPU games (median and worst), with a
//! reference measured in the same run: a fixed two-ply search from the
//! start, so figures from different machines can be compared as ratios.
//! Each level's time for a move (`time_ms` in its level file) is kept by
//! the same clock as in play, and checked: the command fails when a level's
//! worst move overran it.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use rand::{SeedableRng, rngs::StdRng};

use super::Outcome;
use super::selfplay::{GameVisitor, with_game};
use crate::rules::data::{CpuLevels, GameId, Strength};
use crate::rules::game::Game;
use crate::rules::record::GameRecord;
use crate::rules::rulebook::Rulebook;
use crate::rules::search::{CpuLevel, SearchPlan, Searcher};
use crate::rules::search_service::{
    Reply, SearchAnswer, SearchRequest, SearchService, read_reply, search_message,
};

/// `yorimichi bench <id> [--positions N] [--preset P] [--seed S]`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct BenchArgs {
    /// The game: hasami, musashi, foxgeese or chushogi.
    #[arg(value_name = "ID", value_parser = super::with_engine)]
    pub game: GameId,
    /// How many positions to time each level on: 1 to 10000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 100,
        value_parser = super::whole::<usize>(1, Some(10_000))
    )]
    pub positions: usize,
    /// The game's preset (its standard one if not given).
    #[arg(long, value_name = "P")]
    pub preset: Option<String>,
    /// Seeds the games the positions come from.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = super::seed())]
    pub seed: u64,
    /// Instead of timing the levels, write つよい's searches of the
    /// positions to FILE as the web page's search worker reads them, each
    /// twice (with the level's time for a move, and without it, to its node
    /// budget), with what they read here through the same messages: the
    /// browser test posts them to the worker and compares.
    #[arg(long, value_name = "FILE")]
    pub worker: Option<std::path::PathBuf>,
}

pub(crate) fn run(args: &BenchArgs, out: &mut dyn Write) -> Outcome {
    with_game(args.game, args.preset.as_deref(), true, out, Bench(args))
}

struct Bench<'a>(&'a BenchArgs);

impl GameVisitor for Bench<'_> {
    fn visit<G: Rulebook>(
        self,
        game: &G,
        preset_id: &str,
        cpu: &CpuLevels,
        out: &mut dyn Write,
    ) -> Outcome {
        let args = self.0;
        let positions = sample_positions(game, cpu, args.positions, args.seed);
        if let Some(file) = &args.worker {
            return worker_searches(
                game,
                cpu.get(Strength::Strong),
                &positions,
                args.seed,
                file,
                out,
            );
        }
        writeln!(
            out,
            "{} preset={preset_id}: {} positions from やさしい-vs-ふつう games (seed {})",
            args.game.id(),
            positions.len(),
            args.seed
        )?;
        let reference = reference_ms(game);
        writeln!(
            out,
            "reference (a plain 2-ply search from the start): {reference:.3} ms"
        )?;
        writeln!(
            out,
            "level      median ms   worst ms   median/ref   nodes/s   time for a move"
        )?;
        let mut rng = StdRng::seed_from_u64(args.seed);
        let mut over = Vec::new();
        for s in Strength::ALL {
            let level = cpu.get(s);
            let mut nodes = 0u64;
            let mut times: Vec<f64> = positions
                .iter()
                .map(|(pos, history)| {
                    let plan = level.plan(&mut rng);
                    let started = Instant::now();
                    // The level's clock, as in play.
                    let clock = plan.time_ms.map(Duration::from_millis);
                    let mut searcher = Searcher::new(game, pos.clone(), history, plan);
                    if let Some(limit) = clock {
                        searcher =
                            searcher.with_clock(Box::new(move || started.elapsed() >= limit));
                    }
                    let _ = searcher.run(game);
                    nodes += searcher.nodes();
                    started.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            let per_second = nodes as f64 / (times.iter().sum::<f64>() / 1000.0).max(1e-9);
            times.sort_by(f64::total_cmp);
            let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
            let worst = times.last().copied().unwrap_or(0.0);
            // A move may overrun its time by the poll interval and the
            // move it is in the middle of: 5% and 20 ms are allowed.
            let verdict = match level.time_ms {
                Some(ms) if worst <= ms as f64 * 1.05 + 20.0 => format!("{ms} ms: kept"),
                Some(ms) => {
                    over.push(s.id());
                    format!("{ms} ms: OVER")
                }
                None => "none (nodes only)".into(),
            };
            writeln!(
                out,
                "{:<9} {median:>10.1} {worst:>10.1} {:>12.1} {:>9.0}k   {verdict}",
                s.id(),
                median / reference.max(1e-6),
                per_second / 1000.0
            )?;
        }
        if over.is_empty() {
            Ok(())
        } else {
            Err(format!("over the time for a move: {}", over.join(", ")).into())
        }
    }
}

/// Writes つよい's searches of `positions` for the search worker to
/// `file`, each block a line `native <depth> <nodes> <ms> <pv>` (what the
/// search read here through the same messages) and the message's lines,
/// blocks ended by a line `%%`; prints the native figures.
fn worker_searches<G: Rulebook>(
    game: &G,
    level: &CpuLevel,
    positions: &[(G::Pos, Vec<u64>)],
    seed: u64,
    file: &std::path::Path,
    out: &mut dyn Write,
) -> Outcome {
    fn now_ms() -> f64 {
        use std::sync::OnceLock;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut text = String::new();
    writeln!(out, "search  clock      depth      nodes        ms")?;
    let mut id = 0;
    for (pos, history) in positions {
        // Both readings of a position have the same plan (the same roll
        // of the level's dice) but for the clock.
        let plan = level.plan(&mut rng);
        for clock in [plan.time_ms, None] {
            id += 1;
            let request = SearchRequest::<G> {
                rules: game.rules().clone(),
                pos: pos.clone(),
                history: history.clone(),
                plan: SearchPlan {
                    time_ms: clock,
                    ..plan.clone()
                },
                forbidden: Vec::new(),
                score_single: false,
            };
            let message = search_message(id, &request)?;
            let mut service = SearchService::new(now_ms);
            if let Some(refused) = service.input(&message) {
                return Err(refused.into());
            }
            let reply = service
                .think(&mut || false)
                .ok_or("the search gave no answer")?;
            let Ok((_, Reply::Answer(Some(answer)))) =
                read_reply::<Option<SearchAnswer<G::Move>>>(&reply)
            else {
                return Err(format!("search {id}: {reply}").into());
            };
            let clock = clock.map_or("nodes".to_string(), |ms| format!("{ms} ms"));
            writeln!(
                out,
                "{id:>6}  {clock:<8} {:>7} {:>10} {:>9.0}",
                answer.depth, answer.nodes, answer.elapsed_ms
            )?;
            text.push_str(&format!(
                "native {} {} {:.1} {}\n{message}\n%%\n",
                answer.depth,
                answer.nodes,
                answer.elapsed_ms,
                ron::to_string(&answer.pv).map_err(|e| e.to_string())?
            ));
        }
    }
    std::fs::write(file, text).map_err(|e| format!("{}: {e}", file.display()))?;
    writeln!(out, "wrote {id} searches to {}", file.display())?;
    Ok(())
}

/// Positions (with the keys of the game before them, for repetition) from
/// games of やさしい against ふつう, every few plies, until `count`.
fn sample_positions<G: Game>(
    game: &G,
    cpu: &CpuLevels,
    count: usize,
    seed: u64,
) -> Vec<(G::Pos, Vec<u64>)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut games = 0;
    while out.len() < count && games < count * 4 {
        games += 1;
        let mut record = GameRecord::new(game);
        let mut ply = 0usize;
        while record.outcome(game).is_none() && out.len() < count {
            let level = cpu.get(if ply.is_multiple_of(2) {
                Strength::Easy
            } else {
                Strength::Normal
            });
            if ply % 3 == 1 {
                out.push((record.current().clone(), record.hashes().to_vec()));
            }
            let plan = level.plan(&mut rng);
            let mut searcher = Searcher::new(game, record.current().clone(), record.hashes(), plan);
            let Some(result) = searcher.run(game) else {
                break;
            };
            if record.play(game, result.best).is_err() {
                break;
            }
            ply += 1;
        }
    }
    out
}

/// A fixed amount of work: a two-ply search from the start without
/// quiescence, timed as the best of five.
fn reference_ms<G: Game>(game: &G) -> f64 {
    let plan = SearchPlan {
        quiescence: false,
        ..SearchPlan::fixed(2, u64::MAX)
    };
    (0..5)
        .map(|_| {
            let started = Instant::now();
            let mut searcher = Searcher::new(game, game.start(), &[], plan.clone());
            let _ = searcher.run(game);
            started.elapsed().as_secs_f64() * 1000.0
        })
        .fold(f64::INFINITY, f64::min)
}
