//! `yorimichi check`: checks every level file against the rules engines
//! (see [`crate::rules::content`]) and prints `checked N files, M items`,
//! or one `file: item: reason` line per problem (and exits 1).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::{Failure, Outcome};
use crate::rules::content;

/// `yorimichi check [--levels DIR] [--deep]`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct CheckArgs {
    /// The levels folder to check (e.g. `levels`); without it, the level
    /// files compiled into the program.
    #[arg(long, value_name = "DIR")]
    pub levels: Option<PathBuf>,
    /// Read every asked move deeper, with ten times the nodes (中将棋: 8
    /// plies): minutes, not seconds; `make soak` runs it.
    #[arg(long)]
    pub deep: bool,
}

/// Runs the check; `Ok(false)` when it found problems.
pub(crate) fn run(args: &CheckArgs, out: &mut dyn Write) -> Result<bool, Failure> {
    let depth = if args.deep {
        content::Depth::Deep
    } else {
        content::Depth::Quick
    };
    let report = match &args.levels {
        Some(dir) => content::check_dir(dir, depth)?,
        None => content::check_compiled(depth),
    };
    for line in report.lines() {
        writeln!(out, "{line}")?;
    }
    Ok(report.problems.is_empty())
}

/// [`run`] as a command: problems are a failure.
pub(crate) fn command(args: &CheckArgs, out: &mut dyn Write) -> Outcome {
    if run(args, out)? {
        Ok(())
    } else {
        Err(Failure::Problems)
    }
}
