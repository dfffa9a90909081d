//! The command line: plain parsing into a [`Command`], so it is tested
//! without starting anything. Bad arguments give a message and the usage.

use crate::rules::data::{GameId, Strength};
use crate::rules::game::Side;

pub const USAGE: &str = "\
usage:
  yorimichi                       start the game
  yorimichi --game <id> [--position <text>]
                                  start with a game's setup screen open (and
                                  the next game from that position: musashi,
                                  chushogi: an SFEN or a USI game, mawari:
                                  e.g. \"rules=basic hisha@6 fu@14 turn=0\")
  yorimichi selfplay <id> --games N --a LEVEL --b LEVEL [--preset P] [--seed S] [--a-side first|second] [--a-null-move on|off] [--moves]
                                  CPU against CPU, alternating sides; the last
                                  line is `score A: NN.N%`
  yorimichi solve musashi [--board 33|25] [--max-ko N] [--mirror] [--csv]
                                  solve every 十六むさし position with up to N
                                  子 (default 6) exactly and print the table
  yorimichi solve musashi --position <text>
                                  the exact value and a best line of one
                                  position, e.g. \"KKKKK-./K...K../K.O.K../K...K../KKKKK-. oya\"
  yorimichi perft chushogi --depth N [--sfen S] [--profile jcsa|lishogi] [--divide]
                                  count the 中将棋 move tree (pseudo-legal moves)
  yorimichi problems chushogi [--count N] [--lion N] [--king N] [--seed S]
                                  find N 中将棋 problems in CPU games (a third
                                  each of 3 levels), and lion and king-capture
                                  problems in set-up skirmishes; print them as RON
  yorimichi engine                the 中将棋 CPU as an XBoard/CECP engine (variant chu)
  yorimichi match chushogi --opponent \"<command>\" [--games N] [--st S] [--max-plies P] [--seed S] [--profile jcsa|lishogi] [--check-boards] [--null-move on|off] [--no-repeats]
                                  referee games against another CECP engine (e.g. hachu)
  yorimichi bench <id> [--positions N] [--preset P] [--seed S]
                                  the CPU's move time at each level over N
                                  positions from CPU games (median and worst)
  yorimichi dice [--throws N] [--seed S] [--csv]
                                  throw the まわり将棋 koma-dice N times (default
                                  10000) in the simulation and print how often
                                  each pose and each result came up
  yorimichi screenshot <scene> <out.png>
                                  render a scene and exit
  yorimichi frames <scene> [--seconds S]
                                  run a scene for S seconds (default 5) and print
                                  its frame times (median, 99th percentile, longest)
                                  and the time to the first title frame
game ids: hasami, musashi, foxgeese, chushogi, mawari (playable; chushogi also engine,
          selfplay, perft, problems)
levels:   easy, normal, strong
scenes:   title, list, hasami, hasami-symbol, hasami-capture, hasami-setup, hasami-tutorial,
          hasami-rules, foxgeese, foxgeese-symbol, foxgeese-jump, foxgeese-setup,
          foxgeese-tutorial, musashi, musashi-capture, musashi-setup, musashi-tutorial,
          chushogi, chushogi-lion, chushogi-tutorial, chushogi-learn, chushogi-lesson,
          chushogi-problem, chushogi-phone, chushogi-setup, mawari, mawari-throw, mawari-setup,
          mawari-tutorial, mawari-phone, chushogi-cpu";

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `yorimichi engine`: the 中将棋 CPU speaking CECP.
    Engine,
    Match(MatchArgs),
    Play {
        game: Option<GameId>,
        /// Start the next game from this position (the game's text).
        position: Option<String>,
    },
    Selfplay(SelfplayArgs),
    Screenshot {
        scene: crate::scenes::Scene,
        out: String,
    },
    /// `yorimichi frames <scene> [--seconds S]`.
    Frames {
        scene: crate::scenes::Scene,
        seconds: f32,
    },
    Solve(SolveArgs),
    Perft(PerftArgs),
    Problems {
        wanted: crate::problems_cmd::Wanted,
        seed: u64,
    },
    Dice(DiceArgs),
    Bench(BenchArgs),
    Help,
}

/// `yorimichi bench <id> …`.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchArgs {
    pub game: GameId,
    pub positions: usize,
    pub preset: Option<String>,
    pub seed: u64,
}

/// `yorimichi dice …`.
#[derive(Clone, Debug, PartialEq)]
pub struct DiceArgs {
    pub throws: u32,
    pub seed: u64,
    pub csv: bool,
}

/// `yorimichi perft chushogi …`.
#[derive(Clone, Debug, PartialEq)]
pub struct PerftArgs {
    pub depth: u32,
    /// The start position when `None`.
    pub sfen: Option<String>,
    /// Counts per first move.
    pub divide: bool,
    pub profile: crate::rules::chu::Profile,
}

/// `yorimichi match chushogi …`.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchArgs {
    /// The shell command that starts the other CECP engine.
    pub opponent: String,
    pub games: usize,
    /// Seconds a move, for both engines.
    pub st: f64,
    /// Plies before the game is scored by the seed's points.
    pub max_plies: usize,
    /// Seeds the openings.
    pub seed: u64,
    /// The rules the referee applies (HaChu's are closest to lishogi's:
    /// its 先獅子 is strict).
    pub profile: crate::rules::chu::Profile,
    /// After each of the opponent's moves, compare its board (HaChu's `p`
    /// debug command) with the referee's.
    pub check_boards: bool,
    /// How this engine plays: `--null-move on|off`, and `--no-repeats`
    /// (never repeat a position while another move is left: HaChu refuses
    /// such moves).
    pub style: crate::engine_cmd::Style,
}

/// `yorimichi solve musashi …`.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveArgs {
    /// 33 (with the 雪隠) or 25 points.
    pub board: u8,
    pub max_ko: u8,
    pub mirror: bool,
    pub csv: bool,
    /// Solve one position (in the game's position text) instead.
    pub position: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SelfplayArgs {
    pub game: GameId,
    pub games: usize,
    pub a: Strength,
    pub b: Strength,
    pub preset: Option<String>,
    pub seed: u64,
    /// Print every game's moves.
    pub moves: bool,
    /// The side A plays in every game (both sides in turn if `None`).
    pub a_side: Option<Side>,
    /// A's level with the null move on or off (an engine experiment:
    /// the same level against itself with and without it).
    pub a_null_move: Option<bool>,
}

fn playable(id: &str) -> Result<GameId, String> {
    match GameId::from_id(id) {
        Some(g) if g.is_playable() => Ok(g),
        Some(g) => Err(format!("{} is not built yet", g.id())),
        None => Err(format!("unknown game id \"{id}\"")),
    }
}

fn with_engine(id: &str) -> Result<GameId, String> {
    match GameId::from_id(id) {
        Some(g) if g.has_engine() => Ok(g),
        Some(GameId::Mawari) => Err(
            "mawari has no CPU levels to compare: a throw of the koma-dice leaves no choice to make"
                .into(),
        ),
        Some(g) => Err(format!("{} is not built yet", g.id())),
        None => Err(format!("unknown game id \"{id}\"")),
    }
}

fn level(s: &str) -> Result<Strength, String> {
    Strength::from_id(s).ok_or_else(|| format!("unknown level \"{s}\" (easy, normal, strong)"))
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut it = args.iter().map(String::as_str);
    match it.next() {
        None => Ok(Command::Play {
            game: None,
            position: None,
        }),
        Some("-h" | "--help" | "help") => Ok(Command::Help),
        Some("--game") => {
            let game = playable(it.next().ok_or("--game needs a game id")?)?;
            let position = match it.next() {
                None => None,
                Some("--position") => {
                    let text = it.next().ok_or("--position needs a position text")?;
                    // Checked now: a bad text is a bad argument.
                    match game {
                        GameId::Musashi => {
                            crate::rules::data::musashi_position(text)?;
                        }
                        GameId::ChuShogi => {
                            crate::rules::chu::record::ChuGameText::parse(text)
                                .map_err(|e| format!("--position: {e}"))?;
                        }
                        GameId::Mawari => {
                            crate::rules::mawari::levels::start_text(text)
                                .map_err(|e| format!("--position: {e}"))?;
                        }
                        _ => return Err(format!("{} has no position text", game.id())),
                    }
                    Some(text.to_string())
                }
                Some(extra) => return Err(format!("unexpected argument \"{extra}\"")),
            };
            if let Some(extra) = it.next() {
                return Err(format!("unexpected argument \"{extra}\""));
            }
            Ok(Command::Play {
                game: Some(game),
                position,
            })
        }
        Some("screenshot") => {
            let scene = it.next().ok_or("screenshot needs a scene")?;
            let out = it.next().ok_or("screenshot needs an output file")?;
            if let Some(extra) = it.next() {
                return Err(format!("unexpected argument \"{extra}\""));
            }
            let scene = crate::scenes::Scene::parse(scene)
                .ok_or_else(|| format!("unknown scene \"{scene}\""))?;
            if !out.ends_with(".png") {
                return Err("the output file must end in .png".into());
            }
            Ok(Command::Screenshot {
                scene,
                out: out.into(),
            })
        }
        Some("frames") => {
            let scene = it.next().ok_or("frames needs a scene")?;
            let scene = crate::scenes::Scene::parse(scene)
                .ok_or_else(|| format!("unknown scene \"{scene}\""))?;
            let seconds = match (it.next(), it.next()) {
                (None, _) => 5.0,
                (Some("--seconds"), Some(v)) => v
                    .parse::<f32>()
                    .ok()
                    .filter(|s| (0.5..=600.0).contains(s))
                    .ok_or_else(|| format!("--seconds needs 0.5 to 600, not \"{v}\""))?,
                (Some(other), _) => return Err(format!("unexpected argument \"{other}\"")),
            };
            if let Some(extra) = it.next() {
                return Err(format!("unexpected argument \"{extra}\""));
            }
            Ok(Command::Frames { scene, seconds })
        }
        Some("selfplay") => {
            let game = with_engine(it.next().ok_or("selfplay needs a game id")?)?;
            let (mut games, mut a, mut b, mut preset, mut seed) = (None, None, None, None, 1u64);
            let mut moves = false;
            let (mut a_side, mut a_null_move) = (None, None);
            while let Some(flag) = it.next() {
                if flag == "--moves" {
                    moves = true;
                    continue;
                }
                let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
                match flag {
                    "--games" => {
                        games = Some(value.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(
                            || format!("--games needs a positive number, not \"{value}\""),
                        )?)
                    }
                    "--a" => a = Some(level(value)?),
                    "--b" => b = Some(level(value)?),
                    "--preset" => preset = Some(value.to_string()),
                    "--a-side" => {
                        a_side = Some(match value {
                            "first" => Side::First,
                            "second" => Side::Second,
                            _ => {
                                return Err(format!(
                                    "--a-side needs first or second, not \"{value}\""
                                ));
                            }
                        })
                    }
                    "--seed" => {
                        seed = value
                            .parse()
                            .map_err(|_| format!("--seed needs a number, not \"{value}\""))?
                    }
                    "--a-null-move" => a_null_move = Some(on_off(flag, value)?),
                    other => return Err(format!("unknown option \"{other}\"")),
                }
            }
            Ok(Command::Selfplay(SelfplayArgs {
                game,
                games: games.ok_or("selfplay needs --games N")?,
                a: a.ok_or("selfplay needs --a LEVEL")?,
                b: b.ok_or("selfplay needs --b LEVEL")?,
                preset,
                seed,
                moves,
                a_side,
                a_null_move,
            }))
        }
        Some("engine") => match it.next() {
            None => Ok(Command::Engine),
            Some(other) => Err(format!("engine takes no arguments, not \"{other}\"")),
        },
        Some("match") => {
            match it.next() {
                Some("chushogi") => {}
                Some(other) => return Err(format!("match knows only chushogi, not \"{other}\"")),
                None => return Err("match needs a game id (chushogi)".into()),
            }
            let mut args = MatchArgs {
                opponent: String::new(),
                games: 2,
                st: 1.0,
                max_plies: 300,
                seed: 1,
                profile: crate::rules::chu::Profile::Jcsa,
                check_boards: false,
                style: crate::engine_cmd::Style::ENGINE,
            };
            while let Some(flag) = it.next() {
                if flag == "--check-boards" {
                    args.check_boards = true;
                    continue;
                }
                if flag == "--no-repeats" {
                    args.style.no_repeats = true;
                    continue;
                }
                let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
                let number = || {
                    value
                        .parse::<f64>()
                        .ok()
                        .filter(|v| *v > 0.0)
                        .ok_or_else(|| format!("{flag} needs a positive number, not \"{value}\""))
                };
                match flag {
                    "--opponent" => args.opponent = value.to_string(),
                    "--games" => args.games = number()? as usize,
                    "--st" => args.st = number()?,
                    "--max-plies" => args.max_plies = number()? as usize,
                    "--seed" => args.seed = number()? as u64,
                    "--null-move" => args.style.null_move = on_off(flag, value)?,
                    "--profile" => {
                        args.profile =
                            crate::rules::chu::Profile::from_id(value).ok_or_else(|| {
                                format!("--profile needs jcsa or lishogi, not \"{value}\"")
                            })?
                    }
                    other => return Err(format!("unknown option \"{other}\"")),
                }
            }
            if args.opponent.trim().is_empty() {
                return Err("match needs --opponent \"<command>\"".into());
            }
            Ok(Command::Match(args))
        }
        Some("perft") => {
            match it.next() {
                Some("chushogi") => {}
                Some(other) => return Err(format!("perft knows only chushogi, not \"{other}\"")),
                None => return Err("perft needs a game id (chushogi)".into()),
            }
            let mut args = PerftArgs {
                depth: 0,
                sfen: None,
                divide: false,
                profile: crate::rules::chu::Profile::Jcsa,
            };
            let mut depth = None;
            while let Some(flag) = it.next() {
                match flag {
                    "--divide" => args.divide = true,
                    "--depth" => {
                        let value = it.next().ok_or("--depth needs a number")?;
                        depth = Some(
                            value
                                .parse::<u32>()
                                .ok()
                                .filter(|d| (1..=8).contains(d))
                                .ok_or_else(|| {
                                    format!("--depth needs a number from 1 to 8, not \"{value}\"")
                                })?,
                        );
                    }
                    "--sfen" => {
                        let text = it.next().ok_or("--sfen needs a position")?;
                        crate::rules::chu::position::ChuPosition::from_sfen(text)
                            .map_err(|e| format!("--sfen: {e}"))?;
                        args.sfen = Some(text.to_string());
                    }
                    "--profile" => {
                        let value = it.next().ok_or("--profile needs jcsa or lishogi")?;
                        args.profile =
                            crate::rules::chu::Profile::from_id(value).ok_or_else(|| {
                                format!("--profile needs jcsa or lishogi, not \"{value}\"")
                            })?;
                    }
                    other => return Err(format!("unknown option \"{other}\"")),
                }
            }
            args.depth = depth.ok_or("perft needs --depth N")?;
            Ok(Command::Perft(args))
        }
        Some("problems") => {
            match it.next() {
                Some("chushogi") => {}
                Some(other) => {
                    return Err(format!("problems knows only chushogi, not \"{other}\""));
                }
                None => return Err("problems needs a game id (chushogi)".into()),
            }
            let (mut count, mut seed) = (60usize, 1u64);
            let (mut lion, mut king) = (0usize, 0usize);
            while let Some(flag) = it.next() {
                let mut number = |what: &str| -> Result<u64, String> {
                    let value = it.next().ok_or(format!("{what} needs a number"))?;
                    value
                        .parse::<u64>()
                        .map_err(|_| format!("{what} needs a number, not \"{value}\""))
                };
                match flag {
                    "--count" => count = number("--count")? as usize,
                    "--lion" => lion = number("--lion")? as usize,
                    "--king" => king = number("--king")? as usize,
                    "--seed" => seed = number("--seed")?,
                    other => return Err(format!("unknown option \"{other}\"")),
                }
            }
            if count == 0 || count > 600 {
                return Err(format!("--count needs a number from 1 to 600, not {count}"));
            }
            if lion > 100 || king > 100 {
                return Err("--lion and --king take at most 100".into());
            }
            Ok(Command::Problems {
                wanted: crate::problems_cmd::Wanted { count, lion, king },
                seed,
            })
        }
        Some("bench") => {
            let game = with_engine(it.next().ok_or("bench needs a game id")?)?;
            let mut args = BenchArgs {
                game,
                positions: 100,
                preset: None,
                seed: 1,
            };
            while let Some(flag) = it.next() {
                let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
                match flag {
                    "--positions" => {
                        args.positions = value
                            .parse::<usize>()
                            .ok()
                            .filter(|n| (1..=10_000).contains(n))
                            .ok_or_else(|| {
                                format!(
                                    "--positions needs a number from 1 to 10000, not \"{value}\""
                                )
                            })?
                    }
                    "--preset" => args.preset = Some(value.to_string()),
                    "--seed" => {
                        args.seed = value
                            .parse()
                            .map_err(|_| format!("--seed needs a number, not \"{value}\""))?
                    }
                    other => return Err(format!("unknown option \"{other}\"")),
                }
            }
            Ok(Command::Bench(args))
        }
        Some("dice") => {
            let mut args = DiceArgs {
                throws: 10_000,
                seed: 1,
                csv: false,
            };
            while let Some(flag) = it.next() {
                match flag {
                    "--csv" => args.csv = true,
                    "--throws" => {
                        let value = it.next().ok_or("--throws needs a number")?;
                        args.throws = value
                            .parse::<u32>()
                            .ok()
                            .filter(|n| (1..=10_000_000).contains(n))
                            .ok_or_else(|| {
                                format!(
                                    "--throws needs a number from 1 to 10000000, not \"{value}\""
                                )
                            })?;
                    }
                    "--seed" => {
                        let value = it.next().ok_or("--seed needs a number")?;
                        args.seed = value
                            .parse()
                            .map_err(|_| format!("--seed needs a number, not \"{value}\""))?;
                    }
                    other => return Err(format!("unknown option \"{other}\"")),
                }
            }
            Ok(Command::Dice(args))
        }
        Some("solve") => {
            match it.next() {
                Some("musashi") => {}
                Some(other) => return Err(format!("solve knows only musashi, not \"{other}\"")),
                None => return Err("solve needs a game id (musashi)".into()),
            }
            let mut args = SolveArgs {
                board: 33,
                max_ko: 6,
                mirror: false,
                csv: false,
                position: None,
            };
            while let Some(flag) = it.next() {
                match flag {
                    "--mirror" => args.mirror = true,
                    "--csv" => args.csv = true,
                    "--board" => {
                        args.board = match it.next() {
                            Some("33") => 33,
                            Some("25") => 25,
                            other => {
                                return Err(format!(
                                    "--board needs 33 or 25, not \"{}\"",
                                    other.unwrap_or("")
                                ));
                            }
                        }
                    }
                    "--max-ko" => {
                        let value = it.next().ok_or("--max-ko needs a number")?;
                        args.max_ko = value
                            .parse::<u8>()
                            .ok()
                            .filter(|&n| n <= crate::rules::musashi::solve::MAX_KO)
                            .ok_or_else(|| {
                                format!(
                                    "--max-ko needs a number from 0 to {}, not \"{value}\"",
                                    crate::rules::musashi::solve::MAX_KO
                                )
                            })?;
                    }
                    "--position" => {
                        args.position = Some(
                            it.next()
                                .ok_or("--position needs a position text")?
                                .to_string(),
                        )
                    }
                    other => return Err(format!("unknown option \"{other}\"")),
                }
            }
            Ok(Command::Solve(args))
        }
        Some(other) => Err(format!("unknown command \"{other}\"")),
    }
}

/// An `on` / `off` option's value.
fn on_off(flag: &str, value: &str) -> Result<bool, String> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{flag} needs on or off, not \"{value}\"")),
    }
}
