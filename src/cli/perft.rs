//! `yorimichi perft chushogi`: counts the 中将棋 move tree from a position
//! and prints the count and the speed (a benchmark, not a test).

use std::io::Write;
use std::time::Instant;

use clap::Args;

use super::Outcome;
use crate::rules::chu::Profile;
use crate::rules::chu::end::is_over;
use crate::rules::chu::moves::{legal_moves_in, perft_in, play};
use crate::rules::chu::position::ChuPosition;
use crate::rules::data::GameId;

/// `yorimichi perft chushogi --depth N [--sfen S] [--profile P] [--divide]`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct PerftArgs {
    /// The game: chushogi.
    #[arg(value_name = "ID", value_parser = super::only(GameId::ChuShogi))]
    pub game: GameId,
    /// Plies to count: 1 to 8.
    #[arg(long, value_name = "N", value_parser = super::whole::<u32>(1, Some(8)))]
    pub depth: u32,
    /// The position to count from (an SFEN; the start if not given).
    #[arg(long, value_name = "S", value_parser = sfen)]
    pub sfen: Option<String>,
    /// The rules' profile.
    #[arg(long, value_name = "P", default_value = "jcsa", value_parser = super::profile())]
    pub profile: Profile,
    /// Print the count under each first move.
    #[arg(long)]
    pub divide: bool,
}

/// An SFEN the position reader takes.
fn sfen(text: &str) -> Result<String, String> {
    ChuPosition::from_sfen_start(text)
        .map(|_| text.to_string())
        .map_err(|e| format!("--sfen: {e}"))
}

pub(crate) fn run(args: &PerftArgs, out: &mut dyn Write) -> Outcome {
    // The command line has checked the SFEN already. Read as a game's
    // start: a side without royals is a mate problem's attacker.
    let pos = args
        .sfen
        .as_deref()
        .and_then(|s| ChuPosition::from_sfen_start(s).ok())
        .unwrap_or_else(ChuPosition::start);
    let start = Instant::now();
    let nodes = if args.divide {
        // Nothing moves once the game is over, at the root too.
        let mut moves = Vec::new();
        if !is_over(args.profile, &pos) {
            legal_moves_in(args.profile, &pos, &mut moves);
        }
        let mut total = 0;
        for m in moves {
            let n = perft_in(args.profile, &play(&pos, m), args.depth - 1);
            writeln!(out, "{} {n}", m.usi())?;
            total += n;
        }
        total
    } else {
        perft_in(args.profile, &pos, args.depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    writeln!(out, "depth {} nodes {nodes}", args.depth)?;
    writeln!(
        out,
        "{seconds:.3} s, {:.1} million nodes/s",
        nodes as f64 / seconds.max(1e-9) / 1e6
    )?;
    Ok(())
}
