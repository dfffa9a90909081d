//! `yorimichi selfplay`: plays CPU against CPU and prints a line per game
//! and the score.

use std::time::Instant;

use crate::cli::SelfplayArgs;
use crate::rules::data::{self, GameId};
use crate::rules::game::Side;
use crate::rules::hasami::Hasami;
use crate::rules::selfplay;

pub fn run(args: &SelfplayArgs) -> Result<(), String> {
    match args.game {
        GameId::Hasami => {
            let presets = data::hasami_presets().map_err(|e| e.to_string())?;
            let preset_id = args.preset.as_deref().unwrap_or("standard");
            let preset = presets
                .preset(preset_id)
                .ok_or_else(|| format!("unknown preset \"{preset_id}\""))?;
            let game = Hasami::new(
                data::board(&presets.board).map_err(|e| e.to_string())?,
                preset.rules,
            )?;
            let (a, b) = (presets.cpu.get(args.a), presets.cpu.get(args.b));
            println!(
                "hasami preset={preset_id} A={} B={} games={} seed={}",
                args.a.id(),
                args.b.id(),
                args.games,
                args.seed
            );
            let start = Instant::now();
            let mut slowest = 0f64;
            let summary = selfplay::play_match(&game, a, b, args.games, args.seed, |g| {
                let result = match g.outcome.winner {
                    None => "draw".to_string(),
                    Some(w) if w == g.a_side => "A wins".to_string(),
                    Some(_) => "B wins".to_string(),
                };
                let side = if g.a_side == Side::First {
                    "A=先手"
                } else {
                    "A=後手"
                };
                println!(
                    "game {:>3} {side} {result:<6} by {:?} after {} plies (longest move A {:.0} ms / {} nodes, B {:.0} ms / {} nodes)",
                    g.index + 1,
                    g.outcome.reason,
                    g.plies,
                    g.max_ms[0],
                    g.max_nodes[0],
                    g.max_ms[1],
                    g.max_nodes[1]
                );
                slowest = slowest.max(g.max_ms[0]).max(g.max_ms[1]);
            });
            println!(
                "A won {} · B won {} · draws {} · {:.1} s · longest move {:.0} ms",
                summary.a_wins,
                summary.b_wins,
                summary.draws,
                start.elapsed().as_secs_f64(),
                slowest
            );
            println!("score A: {:.1}%", summary.a_percent());
            Ok(())
        }
        other => Err(format!("{} is not built yet", other.id())),
    }
}
