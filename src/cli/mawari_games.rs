//! `yorimichi selfplay mawari --games N --players 2|3|4`: plays whole
//! まわり将棋 games with simulated throws and prints how they ended.

use std::io::Write;
use std::thread;
use std::time::Instant;

use super::Outcome;
use super::selfplay::SelfplayArgs;
use crate::rules::mawari::dice::KomaDice;
use crate::rules::mawari::games::{self, Ending, GameRecord};
use crate::rules::mawari::levels;
use crate::rules::mawari::physics::SplitMix64;

pub(crate) fn run(args: &SelfplayArgs, players: usize, out: &mut dyn Write) -> Outcome {
    let presets = levels::presets().map_err(|e| e.to_string())?;
    let preset = args.preset.as_deref().unwrap_or("basic");
    let mut rules = presets.rules(preset).ok_or_else(|| {
        let known: Vec<&str> = presets.presets.iter().map(|p| p.id.as_str()).collect();
        format!(
            "mawari has no preset \"{preset}\" (it has {})",
            known.join(", ")
        )
    })?;
    if let Some(senko) = args.senko {
        rules.senko = senko;
    }
    let mut rng = SplitMix64(args.seed);
    let seeds: Vec<u64> = (0..args.games).map(|_| rng.next_u64()).collect();
    let start = Instant::now();
    let dice = KomaDice::new();
    // The games are independent: shared out over the cores, each played
    // from its own seed, so the table does not depend on how many.
    let workers = thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = seeds.len().div_ceil(workers).max(1);
    let records: Vec<GameRecord> = thread::scope(|s| {
        let handles: Vec<_> = seeds
            .chunks(chunk)
            .map(|part| {
                let dice = &dice;
                s.spawn(move || {
                    part.iter()
                        .map(|&seed| games::play(dice, players, rules, seed))
                        .collect::<Result<Vec<_>, _>>()
                })
            })
            .collect();
        let mut all = Vec::new();
        for h in handles {
            match h.join() {
                Ok(Ok(part)) => all.extend(part),
                Ok(Err(e)) => return Err(e.0),
                Err(_) => return Err("a game's thread panicked".to_string()),
            }
        }
        Ok(all)
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let n = records.len() as f64;
    let throws: u64 = records.iter().map(|r| u64::from(r.throws)).sum();
    writeln!(
        out,
        "mawari preset={preset} senko={} players={players} games={} seed={}: simulated in {seconds:.1} s",
        rules.senko.id(),
        args.games,
        args.seed
    )?;
    writeln!(out, "how the game ended      games   percent")?;
    for ending in Ending::ALL {
        let k = records.iter().filter(|r| r.ending == ending).count();
        writeln!(
            out,
            "  {:<20} {k:>7} {:>8.1}%",
            ending.id(),
            100.0 * k as f64 / n
        )?;
    }
    writeln!(
        out,
        "throws per game: mean {:.1}, longest {}",
        throws as f64 / n,
        records.iter().map(|r| r.throws).max().unwrap_or(0)
    )?;
    Ok(())
}
