//! `yorimichi dice`: throws the まわり将棋 koma-dice many times in the
//! simulation and prints how often each pose and each result came up.

use std::io::Write;
use std::time::Instant;

use clap::Args;

use super::Outcome;
use crate::rules::mawari::dice::dice_table;
use crate::rules::mawari::physics::MAX_TIME;

/// `yorimichi dice [--throws N] [--seed S] [--csv]`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct DiceArgs {
    /// How many throws of the four koma: 1 to 10000000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10_000,
        value_parser = super::whole::<u32>(1, Some(10_000_000))
    )]
    pub throws: u32,
    /// Seeds the throws.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = super::seed())]
    pub seed: u64,
    /// Print CSV instead of a table.
    #[arg(long)]
    pub csv: bool,
}

pub(crate) fn run(args: &DiceArgs, out: &mut dyn Write) -> Outcome {
    let started = Instant::now();
    let table = dice_table(args.throws, args.seed);
    let seconds = started.elapsed().as_secs_f64();
    let koma = f64::from(table.throws) * 4.0;
    let throws = f64::from(table.throws);
    if args.csv {
        writeln!(out, "kind,name,count,percent")?;
        for (pose, n) in &table.poses {
            writeln!(
                out,
                "pose,{},{n},{:.3}",
                pose.id(),
                100.0 * f64::from(*n) / koma
            )?;
        }
        for (name, n) in &table.results {
            writeln!(
                out,
                "throw,{name},{n},{:.3}",
                100.0 * f64::from(*n) / throws
            )?;
        }
        return Ok(());
    }
    writeln!(
        out,
        "{} throws of four 金将 (seed {}), simulated in {seconds:.1} s; the longest came to rest after {:.2} s; {} not at rest after {} s",
        table.throws, args.seed, table.longest, table.unsettled, MAX_TIME
    )?;
    writeln!(out, "\npose of each koma        count   percent")?;
    for (pose, n) in &table.poses {
        writeln!(
            out,
            "  {:<20} {n:>9} {:>8.3}%",
            pose.id(),
            100.0 * f64::from(*n) / koma
        )?;
    }
    writeln!(out, "\nthrow result             count   percent")?;
    for (name, n) in &table.results {
        writeln!(
            out,
            "  {:<20} {n:>9} {:>8.3}%",
            name,
            100.0 * f64::from(*n) / throws
        )?;
    }
    Ok(())
}
