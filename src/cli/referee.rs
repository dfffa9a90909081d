//! `yorimichi match chushogi --opponent "<command>" --games N --st S`:
//! referees games between this engine and another CECP engine (e.g.
//! HaChu) under one rule profile (`--profile`: JCSA by default; lishogi's
//! strict 先獅子 is HaChu's), sides alternating, and prints the score.
//!
//! Each game opens with two random pawn moves a side (seeded, so openings
//! vary and a match can be replayed). A game ends by the rules; by a
//! resignation; with no score when the engines disagree on a move's
//! legality (HaChu's rules are not quite the JCSA's: the position and move
//! are printed); as a draw on the fourth occurrence of a
//! position; by adjudication when one side has kept a lead of 20 points
//! (the seed's table; a lion is 19.1) for 20 plies; or, at the move cap, by
//! the seed's points, as the 60-minute cutoff would score it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use clap::Args;
use rand::{RngExt, SeedableRng, rngs::StdRng};

use super::Outcome;
use super::engine::{Style, think};
use crate::rules::chu::Profile;
use crate::rules::chu::end::{cutoff_points, cutoff_winner, outcome_in};
use crate::rules::chu::game::{Chu, ChuRules};
use crate::rules::chu::moves::{ChuMove, legal_moves, play};
use crate::rules::chu::pieces::Base;
use crate::rules::chu::position::{ChuPosition, Square};
use crate::rules::chu::xboard;
use crate::rules::data::GameId;
use crate::rules::game::Side;

/// `yorimichi match chushogi --opponent "<command>" …`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct MatchArgs {
    /// The game: chushogi.
    #[arg(value_name = "ID", value_parser = super::only(GameId::ChuShogi))]
    pub game: GameId,
    /// The shell command that starts the other CECP engine.
    #[arg(long, value_name = "COMMAND", value_parser = command)]
    pub opponent: String,
    /// How many games, sides alternating.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = super::whole::<usize>(1, None))]
    pub games: usize,
    /// Seconds a move, for both engines.
    #[arg(long, value_name = "S", default_value_t = 1.0, value_parser = seconds)]
    pub st: f64,
    /// Plies before the game is scored by the seed's points.
    #[arg(long, value_name = "P", default_value_t = 300, value_parser = super::whole::<usize>(1, None))]
    pub max_plies: usize,
    /// Seeds the openings.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 1,
        value_parser = super::whole::<u64>(1, None)
    )]
    pub seed: u64,
    /// The rules the referee applies (HaChu's are closest to lishogi's:
    /// its 先獅子 is strict).
    #[arg(long, value_name = "P", default_value = "jcsa", value_parser = super::profile())]
    pub profile: Profile,
    /// After each of the opponent's moves, compare its board (HaChu's `p`
    /// debug command) with the referee's.
    #[arg(long)]
    pub check_boards: bool,
    /// How this engine plays.
    #[command(flatten)]
    pub style: Style,
}

fn seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0 && s.is_finite())
        .ok_or_else(|| "needs a positive number of seconds".to_string())
}

fn command(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("needs the command that starts the engine".into())
    } else {
        Ok(text.to_string())
    }
}

/// A lead this large (tenths of the seed's points), kept this many plies,
/// decides a game.
const DECISIVE_LEAD: i32 = 200;
const LEAD_PLIES: usize = 20;

struct Opponent {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Opponent {
    fn start(command: &str) -> Result<Opponent, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start \"{command}\": {e}"))?;
        let input = child.stdin.take().ok_or("no stdin for the opponent")?;
        let output = child.stdout.take().ok_or("no stdout for the opponent")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Opponent {
            child,
            input,
            lines,
        })
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        if std::env::var_os("YORIMICHI_MATCH_LOG").is_some() {
            eprintln!("> {text}");
        }
        writeln!(self.input, "{text}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("the opponent stopped listening: {e}"))
    }

    /// The next line that answers a move: `move …`, `resign`, or a
    /// complaint about ours.
    fn answer(&mut self, wait: Duration) -> Result<String, String> {
        loop {
            let line = self.lines.recv_timeout(wait).map_err(|e| match e {
                RecvTimeoutError::Timeout => "the opponent did not answer in time",
                RecvTimeoutError::Disconnected => "the opponent's process ended",
            })?;
            let line = line.trim().to_string();
            if std::env::var_os("YORIMICHI_MATCH_LOG").is_some() {
                eprintln!("< {line}");
            }
            if line.starts_with("move ")
                || line == "resign"
                || line.starts_with("Illegal move")
                || line.starts_with("Error")
            {
                return Ok(line);
            }
        }
    }

    /// HaChu's debug board (`p`): 12 rows from rank 12, a number per
    /// square, 0 for empty, odd for 先手's pieces, even for 後手's.
    fn hachu_board(&mut self) -> Result<Vec<Option<Side>>, String> {
        self.send("p")?;
        let mut squares = Vec::with_capacity(144);
        while squares.len() < 144 {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(10))
                .map_err(|_| "no board from the opponent".to_string())?;
            // "#" + three 4-wide pads, 12 fields 4 wide, three pads.
            let Some(fields) = line.get(13..61) else {
                continue;
            };
            let row: Option<Vec<u32>> = (0..12)
                .map(|i| fields[i * 4..i * 4 + 4].trim().parse().ok())
                .collect();
            // The padding rows above and below the board are all 2048.
            if let Some(row) = row.filter(|r| !r.contains(&2048)) {
                squares.extend(row.into_iter().map(|n| match n {
                    0 => None,
                    n if n % 2 == 1 => Some(Side::First),
                    _ => Some(Side::Second),
                }));
            }
        }
        Ok(squares)
    }

    /// Waits for the end of the feature list.
    fn handshake(&mut self) -> Result<(), String> {
        self.send("xboard")?;
        self.send("protover 2")?;
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(10))
                .map_err(|_| "the opponent sent no features".to_string())?;
            if line.contains("done=1") {
                return Ok(());
            }
        }
    }

    fn quit(mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(100));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How one game ended.
#[derive(Debug)]
struct GameResult {
    /// `None` for a draw.
    winner: Option<Side>,
    /// The engines disagreed about the rules (a move one of them calls
    /// illegal), or the opponent stopped answering: the game is reported,
    /// not scored.
    disputed: bool,
    why: String,
    plies: usize,
}

impl GameResult {
    fn decided(winner: Option<Side>, why: &str, plies: usize) -> Self {
        GameResult {
            winner,
            disputed: false,
            why: why.to_string(),
            plies,
        }
    }

    fn unscored(why: &str, plies: usize) -> Self {
        GameResult {
            disputed: true,
            ..Self::decided(None, why, plies)
        }
    }
}

/// Two random pawn steps for each side.
fn opening(rng: &mut StdRng) -> Vec<ChuMove> {
    let mut pos = ChuPosition::start();
    let mut moves = Vec::new();
    for _ in 0..4 {
        let mut legal = Vec::new();
        legal_moves(&pos, &mut legal);
        legal.retain(|m| {
            pos.at(m.from)
                .is_some_and(|(_, p)| p.base == Base::Pawn && m.mid.is_none())
                && pos.at(m.to).is_none()
        });
        let Some(&mv) = legal.get(rng.random_range(0..legal.len().max(1))) else {
            break;
        };
        moves.push(mv);
        pos = play(&pos, mv);
    }
    moves
}

fn play_game(args: &MatchArgs, ours: Side, opening: &[ChuMove]) -> Result<GameResult, String> {
    let game = Chu {
        rules: ChuRules {
            profile: args.profile,
        },
    };
    let mut them = Opponent::start(&args.opponent)?;
    them.handshake()?;
    // HaChu 0.21 crashes on `go` without a `memory` command first.
    for cmd in [
        "memory 64",
        "new",
        "variant chu",
        &format!("st {}", args.st),
        "force",
    ] {
        them.send(cmd)?;
    }
    let mut pos = ChuPosition::start();
    let mut history = vec![pos.key()];
    for &mv in opening {
        them.send(&format!("usermove {}", xboard::move_text(&pos, mv)))?;
        pos = play(&pos, mv);
        history.push(pos.key());
    }
    let wait = Duration::from_secs_f64(args.st * 20.0 + 10.0);
    let mut started = false;
    let mut last_sent = String::new();
    let mut lead_since: Option<(Side, usize)> = None;
    let result = GameResult::decided;
    let outcome = loop {
        let plies = history.len() - 1;
        if let Some((winner, why)) = outcome_in(game.rules.profile, &pos) {
            break result(winner, &format!("{why:?}"), plies);
        }
        if history.iter().filter(|&&k| k == pos.key()).count() >= 4 {
            break result(None, "千日手 (4th occurrence)", plies);
        }
        if plies >= args.max_plies {
            break result(cutoff_winner(&pos), "move cap: the seed's points", plies);
        }
        let [first, second] = cutoff_points(&pos);
        let leader = match first - second {
            d if d >= DECISIVE_LEAD => Some(Side::First),
            d if d <= -DECISIVE_LEAD => Some(Side::Second),
            _ => None,
        };
        lead_since = match (leader, lead_since) {
            (Some(s), Some((t, since))) if s == t => Some((t, since)),
            (Some(s), _) => Some((s, plies)),
            (None, _) => None,
        };
        if let Some((side, since)) = lead_since
            && plies - since >= LEAD_PLIES
        {
            break result(Some(side), "adjudicated: a decisive lead", plies);
        }
        let mv = if pos.to_move() == ours {
            let Some(mv) = think(&game, &history, &pos, args.st, args.style) else {
                break result(Some(ours.opponent()), "Yorimichi has no move", plies);
            };
            last_sent = xboard::move_text(&pos, mv);
            them.send(&format!("usermove {last_sent}"))?;
            mv
        } else {
            if !started {
                // From here on the opponent plays its side by itself.
                them.send("go")?;
                started = true;
            }
            let line = them
                .answer(wait)
                .map_err(|e| format!("{e} at ply {plies}, in {}", pos.to_sfen()))?;
            if line == "resign" {
                break result(Some(ours), "the opponent resigned", plies);
            }
            let mut line = line;
            // A move of two legs comes as two `move` lines, the first
            // ending with a comma.
            while line.starts_with("move ") && line.ends_with(',') {
                let rest = them.answer(wait)?;
                let Some(leg) = rest.strip_prefix("move ") else {
                    line = rest;
                    break;
                };
                line.push_str(leg);
            }
            let Some(text) = line.strip_prefix("move ") else {
                break GameResult::unscored(
                    &format!(
                        "rules differ: the opponent refused {last_sent}: {line} (in {})",
                        pos.to_sfen()
                    ),
                    plies,
                );
            };
            match xboard::parse_move(game.rules.profile, &pos, text) {
                Ok(mv) if args.check_boards => {
                    // Both boards must show the same pieces on the same squares.
                    let next = play(&pos, mv);
                    let theirs = them.hachu_board()?;
                    let ours: Vec<Option<Side>> = (0..144u8)
                        .map(|i| next.at(Square(i)).map(|(side, _)| side))
                        .collect();
                    if theirs != ours {
                        break GameResult::unscored(
                            &format!("the boards differ after {text} (ours: {})", next.to_sfen()),
                            plies,
                        );
                    }
                    mv
                }
                Ok(mv) => mv,
                Err(e) => {
                    break GameResult::unscored(
                        &format!(
                            "rules differ: the opponent's move {e} (in {})",
                            pos.to_sfen()
                        ),
                        plies,
                    );
                }
            }
        };
        pos = play(&pos, mv);
        history.push(pos.key());
    };
    them.quit();
    Ok(outcome)
}

pub(crate) fn run(args: &MatchArgs, out: &mut dyn Write) -> Outcome {
    let mut rng = StdRng::seed_from_u64(args.seed);
    let (mut points, mut wins, mut losses, mut draws, mut disputed) = (0.0, 0, 0, 0, 0);
    for i in 0..args.games {
        let ours = if i % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let line = opening(&mut rng);
        let r = match play_game(args, ours, &line) {
            Ok(r) => r,
            // An engine that cannot be started stops the match; one that
            // stops answering spoils only its game.
            Err(e) if e.starts_with("cannot start") => return Err(e.into()),
            Err(e) => GameResult::unscored(&format!("no result: {e}"), 0),
        };
        let verdict = match r.winner {
            _ if r.disputed => {
                disputed += 1;
                "not scored"
            }
            None => {
                draws += 1;
                points += 0.5;
                "draw"
            }
            Some(w) if w == ours => {
                wins += 1;
                points += 1.0;
                "Yorimichi wins"
            }
            Some(_) => {
                losses += 1;
                "the opponent wins"
            }
        };
        let side = if ours == Side::First {
            "先手"
        } else {
            "後手"
        };
        writeln!(
            out,
            "game {:>3} Yorimichi={side} {verdict} ({}) after {} plies",
            i + 1,
            r.why,
            r.plies
        )?;
    }
    writeln!(
        out,
        "Yorimichi won {wins} · lost {losses} · draws {draws} · not scored {disputed}"
    )?;
    let scored = args.games - disputed;
    writeln!(
        out,
        "score Yorimichi: {:.1}% of {scored} scored games",
        100.0 * points / scored.max(1) as f64
    )?;
    Ok(())
}
