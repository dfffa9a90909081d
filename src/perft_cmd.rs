//! `yorimichi perft chushogi`: counts the 中将棋 move tree from a position
//! and prints the count and the speed (a benchmark, not a test).

use std::time::Instant;

use crate::cli::PerftArgs;
use crate::rules::chu::moves::{legal_moves_in, perft_in, play};
use crate::rules::chu::position::ChuPosition;

pub fn run(args: &PerftArgs) {
    // The CLI has checked the SFEN already.
    let pos = args
        .sfen
        .as_deref()
        .and_then(|s| ChuPosition::from_sfen(s).ok())
        .unwrap_or_else(ChuPosition::start);
    let start = Instant::now();
    let nodes = if args.divide {
        let mut moves = Vec::new();
        legal_moves_in(args.profile, &pos, &mut moves);
        let mut total = 0;
        for m in moves {
            let n = perft_in(args.profile, &play(&pos, m), args.depth - 1);
            println!("{} {n}", m.usi());
            total += n;
        }
        total
    } else {
        perft_in(args.profile, &pos, args.depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    println!("depth {} nodes {nodes}", args.depth);
    println!(
        "{seconds:.3} s, {:.1} million nodes/s",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
}
