//! `yorimichi selfplay`: plays CPU against CPU and prints a line per game
//! and the score.

use std::io::Write;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;

use super::{Failure, Outcome, Switch};
use crate::rules::chu::game::Chu;
use crate::rules::data::{self, CpuLevels, GameId, Strength};
use crate::rules::foxgeese::FoxGeese;
use crate::rules::game::{Game, Side};
use crate::rules::hasami::Hasami;
use crate::rules::mawari::race::SenkoRule;
use crate::rules::musashi::Musashi;
use crate::rules::musashi::solve::{self, Solver};
use crate::rules::rulebook::Rulebook;
use crate::rules::selfplay;
use crate::rules::selfplay::MoveStats;

/// `yorimichi selfplay <id> --games N --a LEVEL --b LEVEL …`, or
/// `yorimichi selfplay mawari --games N --players 2|3|4`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct SelfplayArgs {
    /// The game: hasami, musashi, foxgeese, chushogi or mawari.
    #[arg(value_name = "ID", value_parser = selfplay_game)]
    pub game: GameId,
    /// How many games to play.
    #[arg(long, value_name = "N", value_parser = super::whole::<usize>(1, None))]
    pub games: usize,
    /// Player A's level.
    #[arg(long = "a", value_name = "LEVEL", value_parser = level(),
          required_unless_present = "players", conflicts_with = "players")]
    pub a: Option<Strength>,
    /// Player B's level.
    #[arg(long = "b", value_name = "LEVEL", value_parser = level(),
          required_unless_present = "players", conflicts_with = "players")]
    pub b: Option<Strength>,
    /// まわり将棋 only (it has no CPU levels: a throw leaves no choice to
    /// make): how many players race, 2 to 4.
    #[arg(long, value_name = "N", value_parser = super::whole::<usize>(2, Some(4)))]
    pub players: Option<usize>,
    /// まわり将棋 only: what 金斜 does, in place of the preset's setting
    /// (osho: いきなり王将, one-up: 1段出世, rethrow: 投げ直し).
    #[arg(long, value_name = "RULE", value_parser = super::one_of(SenkoRule::ALL, SenkoRule::id))]
    pub senko: Option<SenkoRule>,
    /// The game's preset (its standard one if not given).
    #[arg(long, value_name = "P")]
    pub preset: Option<String>,
    /// Seeds the CPUs' random choices.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = super::seed())]
    pub seed: u64,
    /// Print every game's moves.
    #[arg(long)]
    pub moves: bool,
    /// The side A plays in every game (both sides in turn if not given).
    #[arg(long, value_name = "SIDE", value_parser = side())]
    pub a_side: Option<Side>,
    /// A's level with the null move on or off (an engine experiment: the
    /// same level against itself with and without it).
    #[arg(long, value_name = "ON|OFF")]
    pub a_null_move: Option<Switch>,
    /// Print, per level and side, the share of its moves that leave a
    /// piece takeable at once (or, for 親 and the fox, step into a trap).
    #[arg(long)]
    pub stats: bool,
}

/// A game `selfplay` plays: one with CPU levels, or まわり将棋's race.
fn selfplay_game(id: &str) -> Result<GameId, String> {
    match GameId::from_id(id) {
        Some(GameId::Mawari) => Ok(GameId::Mawari),
        _ => super::with_engine(id),
    }
}

/// A CPU level: easy, normal or strong.
fn level() -> impl clap::builder::TypedValueParser<Value = Strength> {
    super::one_of(Strength::ALL, Strength::id)
}

fn side() -> impl clap::builder::TypedValueParser<Value = Side> {
    super::one_of([Side::First, Side::Second], |side| match side {
        Side::First => "first",
        Side::Second => "second",
    })
}

/// What to do with a game once it is built from its preset: the
/// commands that play CPU against CPU (`selfplay`, `bench`) visit it, so
/// the games are built in one place. The report goes to `out`.
pub(crate) trait GameVisitor {
    fn visit<G: Rulebook>(
        self,
        game: &G,
        preset_id: &str,
        cpu: &CpuLevels,
        out: &mut dyn Write,
    ) -> Outcome;
}

/// Builds `id`'s game from `preset` (or its standard one) and hands it to
/// `visitor`. A 十六むさし whose levels use the endgame tables gets them
/// first (as the game builds them in the background).
pub(crate) fn with_game(
    id: GameId,
    preset: Option<&str>,
    tables: bool,
    out: &mut dyn Write,
    visitor: impl GameVisitor,
) -> Outcome {
    let preset_id = preset.unwrap_or("standard");
    match id {
        GameId::Hasami => {
            let presets = data::hasami_presets().map_err(|e| e.to_string())?;
            let preset = presets.require(preset_id)?;
            let board = data::board(&presets.board).map_err(|e| e.to_string())?;
            let game = Hasami::new(board, preset.rules)?;
            visitor.visit(&game, preset_id, &presets.cpu, out)
        }
        GameId::FoxGeese => {
            let presets = data::foxgeese_presets().map_err(|e| e.to_string())?;
            let preset = presets.require(preset_id)?;
            let board = data::board(preset.rules.board_name()).map_err(|e| e.to_string())?;
            let game = FoxGeese::new(board, preset.rules)?;
            visitor.visit(&game, preset_id, &presets.cpu, out)
        }
        GameId::Musashi => {
            let presets = data::musashi_presets().map_err(|e| e.to_string())?;
            let preset = presets.require(preset_id)?;
            let board = data::board(preset.rules.board_name()).map_err(|e| e.to_string())?;
            let mut game = Musashi::new(board, preset.rules)?;
            if tables && let Some(solver) = Solver::for_game(&game, solve::NATIVE_BUDGET) {
                // What the game builds in the background, built first here.
                let start = Instant::now();
                game.set_endgame(Arc::new(solver.finish()))?;
                writeln!(
                    out,
                    "endgame tables to {} 子 in {:.1} s",
                    game.endgame_reach(),
                    start.elapsed().as_secs_f64()
                )?;
            }
            visitor.visit(&game, preset_id, &presets.cpu, out)
        }
        GameId::ChuShogi => {
            let presets = data::chushogi_presets().map_err(|e| e.to_string())?;
            let preset = presets.require(preset.unwrap_or("jcsa"))?;
            let game = Chu::new(preset.rules);
            visitor.visit(&game, &preset.id, &presets.cpu, out)
        }
        other => Err(format!("{} is not built yet", other.id()).into()),
    }
}

struct Selfplay<'a>(&'a SelfplayArgs, Strength, Strength);

impl GameVisitor for Selfplay<'_> {
    fn visit<G: Rulebook>(
        self,
        game: &G,
        preset_id: &str,
        cpu: &CpuLevels,
        out: &mut dyn Write,
    ) -> Outcome {
        play(self.0, (self.1, self.2), preset_id, game, cpu, out)
    }
}

pub(crate) fn run(args: &SelfplayArgs, out: &mut dyn Write) -> Outcome {
    let (a, b) = match (args.game, args.players, args.a, args.b) {
        (GameId::Mawari, Some(players), _, _) => {
            return super::mawari_games::run(args, players, out);
        }
        (GameId::Mawari, None, _, _) => {
            return Err("mawari has no CPU levels to compare (a throw of the koma-dice leaves no choice to make): give --players 2, 3 or 4 instead of --a and --b".into());
        }
        (_, None, Some(a), Some(b)) if args.senko.is_none() => (a, b),
        _ => return Err("--players and --senko are for mawari only: give --a and --b".into()),
    };
    let tables = match args.game {
        GameId::Musashi => {
            let presets = data::musashi_presets().map_err(|e| e.to_string())?;
            [presets.cpu.get(a), presets.cpu.get(b)]
                .iter()
                .any(|l| l.endgame_tables)
        }
        _ => false,
    };
    with_game(
        args.game,
        args.preset.as_deref(),
        tables,
        out,
        Selfplay(args, a, b),
    )
}

/// Plays the match and prints a line per game, the score per side, and the
/// score as the last line.
fn play<G: Game>(
    args: &SelfplayArgs,
    (level_a, level_b): (Strength, Strength),
    preset_id: &str,
    game: &G,
    cpu: &CpuLevels,
    out: &mut dyn Write,
) -> Outcome {
    let mut a = cpu.get(level_a).clone();
    if let Some(switch) = args.a_null_move {
        a.null_move = switch.is_on();
    }
    let (a, b) = (&a, cpu.get(level_b));
    writeln!(
        out,
        "{} preset={preset_id} A={}{} B={} games={} seed={}",
        args.game.id(),
        level_a.id(),
        match args.a_null_move {
            Some(Switch::On) => " (null move on)",
            Some(Switch::Off) => " (null move off)",
            None => "",
        },
        level_b.id(),
        args.games,
        args.seed
    )?;
    let start = Instant::now();
    let mut slowest = 0f64;
    // Points A scored and games A played, as 先手 (index 0) and as 後手.
    let mut by_side = [(0f64, 0usize); 2];
    // `--stats`: counted and judged moves of A and B, by the side played.
    let mut stats = [[MoveStats::default(); 2]; 2];
    // The first failed write stops the match.
    let mut written = Ok(());
    let summary = selfplay::play_match(game, (a, b), args.a_side, args.games, args.seed, |g| {
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
        written = writeln!(
            out,
            "game {:>3} {side} {result:<6} by {:?} after {} plies (longest move A {:.0} ms / {} nodes, B {:.0} ms / {} nodes)",
            g.index + 1,
            g.outcome.reason,
            g.plies,
            g.max_ms[0],
            g.max_nodes[0],
            g.max_ms[1],
            g.max_nodes[1]
        );
        if args.moves && written.is_ok() {
            written = writeln!(out, "  moves: {}", g.moves.join(" "));
        }
        slowest = slowest.max(g.max_ms[0]).max(g.max_ms[1]);
        for (who, side) in [(0, g.a_side), (1, g.a_side.opponent())] {
            stats[who][side.index()] += g.stats[who];
        }
        let s = &mut by_side[g.a_side.index()];
        s.0 += g.a_points;
        s.1 += 1;
        if written.is_ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    written.map_err(Failure::from)?;
    let pct = |(points, games): (f64, usize)| {
        if games == 0 {
            0.0
        } else {
            100.0 * points / games as f64
        }
    };
    writeln!(
        out,
        "A won {} · B won {} · draws {} · {:.1} s · longest move {:.0} ms",
        summary.a_wins,
        summary.b_wins,
        summary.draws,
        start.elapsed().as_secs_f64(),
        slowest
    )?;
    writeln!(
        out,
        "A as 先手 (first side): {:.1}% · A as 後手 (second side): {:.1}%",
        pct(by_side[0]),
        pct(by_side[1])
    )?;
    if args.stats {
        write_stats(out, game, [level_a, level_b], &stats)?;
    }
    writeln!(out, "score A: {:.1}%", summary.a_percent())?;
    Ok(())
}

/// `--stats`: one line per level and side it played, e.g.
/// `stats easy 子 takeable 12.5% (40 of 320 moves; 3 with no other move)`;
/// a level both players have is counted once, over both.
fn write_stats<G: Game>(
    out: &mut dyn Write,
    game: &G,
    levels: [Strength; 2],
    stats: &[[MoveStats; 2]; 2],
) -> Outcome {
    let mut rows: Vec<(Strength, Side, MoveStats)> = Vec::new();
    for (who, level) in levels.into_iter().enumerate() {
        for side in Side::BOTH {
            let s = stats[who][side.index()];
            if s.judged == 0 {
                continue;
            }
            match rows.iter_mut().find(|r| r.0 == level && r.1 == side) {
                Some(r) => r.2 += s,
                None => rows.push((level, side, s)),
            }
        }
    }
    for (level, side, s) in rows {
        let (name, what) = game.stat_label(side);
        writeln!(
            out,
            "stats {} {name} {what} {:.1}% ({} of {} moves; {} with no other move)",
            level.id(),
            100.0 * s.hits as f64 / s.judged as f64,
            s.hits,
            s.judged,
            s.forced
        )?;
    }
    Ok(())
}
