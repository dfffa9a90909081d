//! `yorimichi match chushogi --opponent "<command>" --games N --tc 40/120`:
//! referees games between this engine and another engine that speaks CECP
//! (e.g. HaChu) or USI (`--protocol usi`, e.g. `yorimichi usi`) under one
//! rule profile (`--profile`: JCSA by default; lishogi's strict 先獅子 is
//! HaChu's), sides alternating, and prints the score.
//!
//! With `--tc MOVES/SECONDS` the referee keeps both clocks as a tournament
//! does: each side has SECONDS for every MOVES of its moves, the opponent is
//! told its clock and its opponent's before each move it makes (`time` and
//! `otim` in centiseconds, or USI's `btime`/`wtime`), and a side whose clock
//! runs out loses. `--st S` instead gives each move S seconds (only for
//! engines that honour it: HaChu, told no clock, answers at once).
//! `--log FILE` appends every game (its moves in USI, how it ended) so that
//! a disputed or illegal move can be replayed.
//!
//! Each game opens with two random pawn moves a side (seeded, so openings
//! vary and a match can be replayed), or with the moves `--opening` gives
//! (a set opening, or a position to play on from). A game ends by the rules; by a
//! resignation; with no score when the engines disagree on a move's
//! legality (HaChu's rules are not quite the JCSA's: the position and move
//! are printed); as a draw on the fourth occurrence of a
//! position; by adjudication when one side has kept a lead of 20 points
//! (the JCSA table; a lion is 19.1) for 20 plies; or, at the move cap, by
//! the JCSA points, as the 60-minute cutoff would score it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use clap::Args;
use rand::{RngExt, SeedableRng, rngs::StdRng};

use super::Outcome;
use super::engine::{MoveTime, Style, think};
use crate::rules::chu::Profile;
use crate::rules::chu::end::{cutoff_points, cutoff_winner, is_mated, outcome_in};
use crate::rules::chu::game::{Chu, ChuRules};
use crate::rules::chu::moves::{ChuMove, legal_moves, parse_usi_in, play};
use crate::rules::chu::pieces::Base;
use crate::rules::chu::position::{ChuPosition, Square};
use crate::rules::chu::xboard;
use crate::rules::data::GameId;
use crate::rules::game::{Game, Side};
use crate::rules::record::GameRecord;

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
    /// Begin at this game of the seeded series (its opening and sides as
    /// in a match begun at game 1): a stopped match goes on where it was.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = super::whole::<usize>(1, None))]
    pub first_game: usize,
    /// The opponent's protocol.
    #[arg(long, value_name = "P", default_value = "cecp", value_parser = protocol())]
    pub protocol: Protocol,
    /// Seconds a move, for both engines (without `--tc`).
    #[arg(long, value_name = "S", default_value_t = 1.0, value_parser = seconds)]
    pub st: f64,
    /// Real clocks: SECONDS for every MOVES moves of each side (`40/120`).
    #[arg(long, value_name = "MOVES/SECONDS", value_parser = time_control)]
    pub tc: Option<TimeControl>,
    /// Append each game's moves (USI) and its end to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<std::path::PathBuf>,
    /// Plies before the game is scored by the JCSA points.
    #[arg(long, value_name = "P", default_value_t = 300, value_parser = super::whole::<usize>(1, None))]
    pub max_plies: usize,
    /// Open every game with these moves (USI, from the start position,
    /// both sides' moves) instead of the seeded pawn steps.
    #[arg(long, value_name = "MOVES")]
    pub opening: Option<String>,
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

/// How the opponent is spoken to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Cecp,
    Usi,
}

impl Protocol {
    pub const ALL: [Protocol; 2] = [Protocol::Cecp, Protocol::Usi];
    pub fn id(self) -> &'static str {
        match self {
            Protocol::Cecp => "cecp",
            Protocol::Usi => "usi",
        }
    }
}

fn protocol() -> impl clap::builder::TypedValueParser<Value = Protocol> {
    super::one_of(Protocol::ALL, Protocol::id)
}

/// A classical time control: `seconds` for every `moves` moves of a side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    pub moves: u32,
    pub seconds: f64,
}

fn time_control(text: &str) -> Result<TimeControl, String> {
    let bad = || format!("\"{text}\": expected MOVES/SECONDS, e.g. 40/120");
    let (moves, secs) = text.split_once('/').ok_or_else(bad)?;
    let moves: u32 = moves.parse().ok().filter(|&m| m > 0).ok_or_else(bad)?;
    let seconds = seconds(secs).map_err(|_| bad())?;
    Ok(TimeControl { moves, seconds })
}

/// Both sides' clocks under a [`TimeControl`].
#[derive(Clone, Debug)]
struct Clocks {
    tc: TimeControl,
    /// Seconds left, 先手's then 後手's.
    left: [f64; 2],
    /// Moves each side has made.
    made: [u32; 2],
}

impl Clocks {
    fn new(tc: TimeControl) -> Clocks {
        Clocks {
            tc,
            left: [tc.seconds; 2],
            made: [0; 2],
        }
    }

    fn index(side: Side) -> usize {
        match side {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// Takes `used` off `side`'s clock; `false` if it ran out. A side that
    /// completes a period of moves gets the next period's time.
    fn spend(&mut self, side: Side, used: Duration) -> bool {
        let i = Self::index(side);
        self.left[i] -= used.as_secs_f64();
        if self.left[i] <= 0.0 {
            return false;
        }
        self.made[i] += 1;
        if self.made[i].is_multiple_of(self.tc.moves) {
            self.left[i] += self.tc.seconds;
        }
        true
    }

    /// Moves `side` has left to make before its next period.
    fn moves_to_go(&self, side: Side) -> u32 {
        self.tc.moves - self.made[Self::index(side)] % self.tc.moves
    }

    fn left(&self, side: Side) -> f64 {
        self.left[Self::index(side)]
    }

    /// This engine's time for its move: its clock shared over the moves
    /// still to make in the period (and a little kept back).
    fn share(&self, side: Side) -> f64 {
        let left = self.left(side);
        (left / (self.moves_to_go(side) as f64 + 1.0)).min(left * 0.5) * 0.95
    }
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

/// A lead this large (tenths of the JCSA points), kept this many plies,
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

    /// The next line that answers a move: `move …`, `resign`, a claimed
    /// result, or a complaint about ours.
    fn answer(&mut self, wait: Duration) -> Result<String, String> {
        self.wait_for(wait, "move", |line| {
            line.starts_with("move ")
                || line == "resign"
                || claimed_winner(line).is_some()
                || line.starts_with("Illegal move")
                || line.starts_with("Error")
        })
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

    /// Waits for the end of the feature list; returns the whole list.
    fn handshake(&mut self) -> Result<String, String> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let mut features = String::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(10))
                .map_err(|_| "the opponent sent no features".to_string())?;
            features.push_str(&line);
            features.push('\n');
            if line.contains("done=1") {
                return Ok(features);
            }
        }
    }

    /// Reads lines until one `is_it`; returns it.
    fn wait_for(
        &mut self,
        wait: Duration,
        what: &str,
        is_it: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        loop {
            let line = self.lines.recv_timeout(wait).map_err(|e| match e {
                RecvTimeoutError::Timeout => format!("the opponent sent no {what} in time"),
                RecvTimeoutError::Disconnected => "the opponent's process ended".to_string(),
            })?;
            let line = line.trim().to_string();
            if std::env::var_os("YORIMICHI_MATCH_LOG").is_some() {
                eprintln!("< {line}");
            }
            if is_it(&line) {
                return Ok(line);
            }
        }
    }

    /// USI: `usi`, the rules' profile, `isready`, `usinewgame`.
    fn usi_handshake(&mut self, profile: Profile) -> Result<(), String> {
        let wait = Duration::from_secs(10);
        self.send("usi")?;
        self.wait_for(wait, "usiok", |l| l == "usiok")?;
        self.send(&format!("setoption name Profile value {}", profile.id()))?;
        self.send("isready")?;
        self.wait_for(wait, "readyok", |l| l == "readyok")?;
        self.send("usinewgame")
    }

    /// Tells a CECP engine both clocks before it thinks.
    fn send_clocks(&mut self, clocks: Option<&Clocks>, theirs: Side) -> Result<(), String> {
        if let Some(c) = clocks {
            let cs = |side| (c.left(side) * 100.0).max(1.0) as u64;
            self.send(&format!("time {}", cs(theirs)))?;
            self.send(&format!("otim {}", cs(theirs.opponent())))?;
        }
        Ok(())
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
    /// Every move of the game in USI, the opening's included.
    moves: Vec<String>,
}

impl GameResult {
    fn decided(winner: Option<Side>, why: &str, plies: usize) -> Self {
        GameResult {
            winner,
            disputed: false,
            why: why.to_string(),
            plies,
            moves: Vec::new(),
        }
    }

    fn unscored(why: &str, plies: usize) -> Self {
        GameResult {
            disputed: true,
            ..Self::decided(None, why, plies)
        }
    }
}

/// The moves of `--opening`, each legal where it is played.
fn given_opening(profile: Profile, text: &str) -> Result<Vec<ChuMove>, String> {
    let mut pos = ChuPosition::start();
    let mut moves = Vec::new();
    for (i, word) in text.split_whitespace().enumerate() {
        let mv = parse_usi_in(profile, &pos, word)
            .map_err(|e| format!("--opening: move {} ({word}): {e}", i + 1))?;
        moves.push(mv);
        pos = play(&pos, mv);
    }
    Ok(moves)
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

/// The lone lion's premium (hundredths of a pawn) with `left` plies to the
/// cap: whole until the last hundred, then fading to nothing twenty before
/// it, where the JCSA points alone decide.
pub fn lion_alone_now(pawns: u32, left: usize) -> i32 {
    let whole = pawns as i32 * 100;
    let fade = (left.saturating_sub(20)).min(80) as i32;
    whole * fade / 80
}

fn play_game(args: &MatchArgs, ours: Side, opening: &[ChuMove]) -> Result<GameResult, String> {
    let game = Chu::new(ChuRules {
        profile: args.profile,
    });
    let mut them = Opponent::start(&args.opponent)?;
    let mut clocks = args.tc.map(Clocks::new);
    match args.protocol {
        Protocol::Cecp => {
            let features = them.handshake()?;
            // HaChu 0.21 crashes on `go` without a `memory` command first.
            let timing = match args.tc {
                Some(tc) => {
                    let whole = tc.seconds.round() as u64;
                    format!("level {} {}:{:02} 0", tc.moves, whole / 60, whole % 60)
                }
                None => format!("st {}", args.st),
            };
            for cmd in ["memory 64", "new", "variant chu", &timing, "force"] {
                them.send(cmd)?;
            }
            // An engine that offers the rules' profile (this one's `engine`)
            // plays the referee's.
            if features.contains("option=\"Profile") {
                them.send(&format!("option Profile={}", args.profile.id()))?;
            }
        }
        Protocol::Usi => them.usi_handshake(args.profile)?,
    }
    let mut pos = ChuPosition::start();
    // The game so far: 千日手 looks back over all of it.
    let mut so_far = GameRecord::from_position(&game, pos.clone());
    let mut record: Vec<String> = Vec::new();
    for &mv in opening {
        if args.protocol == Protocol::Cecp {
            them.send(&format!("usermove {}", xboard::move_text(&pos, mv)))?;
        }
        record.push(mv.usi());
        so_far
            .play(&game, mv)
            .map_err(|e| format!("the opening's move {}: {e}", mv.usi()))?;
        pos = so_far.current().clone();
    }
    let mut started = false;
    let mut last_sent = String::new();
    let mut lead_since: Option<(Side, usize)> = None;
    let result = GameResult::decided;
    // When the opponent was last asked to move.
    let mut asked = Instant::now();
    let outcome = loop {
        let plies = so_far.ply();
        if let Some((winner, why)) = outcome_in(game.rules.profile, &pos) {
            break result(winner, &format!("{why:?}"), plies);
        }
        let occurrences = so_far.occurrences_of_current();
        if let Some(ended) = game.history_outcome(so_far.positions(), so_far.moves(), occurrences) {
            let why = if occurrences >= 4 {
                "千日手 (4th occurrence)"
            } else {
                "千日手 (the side that must change its moves has no other move)"
            };
            break result(ended.winner, why, plies);
        }
        let forbidden = so_far.forbidden_moves(&game);
        if plies >= args.max_plies {
            break result(cutoff_winner(&pos), "move cap: the JCSA points", plies);
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
        // Real clocks decide only by the rules and the clock.
        if args.tc.is_none()
            && let Some((side, since)) = lead_since
            && plies - since >= LEAD_PLIES
        {
            break result(Some(side), "adjudicated: a decisive lead", plies);
        }
        let mv = if pos.to_move() == ours {
            let time = clocks.as_ref().map_or(MoveTime::fixed(args.st), |c| {
                MoveTime::from_clock(c.share(ours), c.left(ours))
            });
            let thinking = Instant::now();
            let valued = Chu {
                lion_alone: lion_alone_now(
                    args.style.lion_alone,
                    args.max_plies.saturating_sub(plies),
                ),
                // `pos` has been played from the start, so its move number
                // counts the plies as `plies` does.
                move_cap: u32::try_from(args.max_plies)
                    .ok()
                    .filter(|_| args.style.knows_cap.is_on()),
                ..args.style.game(game.rules)
            };
            let Some(mv) = think(&valued, so_far.hashes(), &pos, &forbidden, time, args.style)
            else {
                break result(Some(ours.opponent()), "Yorimichi has no move", plies);
            };
            if let Some(c) = clocks.as_mut()
                && !c.spend(ours, thinking.elapsed())
            {
                break result(Some(ours.opponent()), "Yorimichi's clock ran out", plies);
            }
            if args.protocol == Protocol::Cecp {
                last_sent = xboard::move_text(&pos, mv);
                if started {
                    them.send_clocks(clocks.as_ref(), ours.opponent())?;
                }
                them.send(&format!("usermove {last_sent}"))?;
                asked = Instant::now();
            }
            mv
        } else {
            let theirs = ours.opponent();
            let wait = Duration::from_secs_f64(
                clocks.as_ref().map_or(args.st * 20.0, |c| c.left(theirs)) + 10.0,
            );
            let answer = match args.protocol {
                Protocol::Cecp => {
                    if !started {
                        // From here on the opponent plays its side by itself.
                        them.send_clocks(clocks.as_ref(), theirs)?;
                        them.send("go")?;
                        asked = Instant::now();
                        started = true;
                    }
                    cecp_move(&mut them, &game, &pos, &last_sent, wait, args.check_boards)
                }
                Protocol::Usi => {
                    them.send(&format!("position startpos moves {}", record.join(" ")))?;
                    let go = match clocks.as_ref() {
                        Some(c) => format!(
                            "go btime {} wtime {} binc 0 winc 0",
                            (c.left(Side::First) * 1000.0) as u64,
                            (c.left(Side::Second) * 1000.0) as u64
                        ),
                        None => format!("go movetime {}", (args.st * 1000.0) as u64),
                    };
                    them.send(&go)?;
                    asked = Instant::now();
                    usi_move(&mut them, &game, &pos, wait)
                }
            };
            let mv = match answer {
                // An opponent that is mated may stop moving (HaChu does):
                // every move it has loses its king, so the game is scored.
                Err(e) if is_mated(game.rules.profile, &pos) => {
                    let why = format!("the opponent is mated and sent no move ({e})");
                    break result(Some(ours), &why, plies);
                }
                // Any other that stops answering spoils only this game: it
                // is reported with its moves so far, not scored.
                Err(e) => {
                    let why = format!("no result: {e} at ply {plies}, in {}", pos.to_sfen());
                    break GameResult::unscored(&why, plies);
                }
                Ok(Answer::Move(mv)) if forbidden.contains(&mv) => {
                    let why = format!(
                        "the opponent played {}, a fourth occurrence that 千日手 forbids it",
                        mv.usi()
                    );
                    break result(Some(ours), &why, plies);
                }
                Ok(Answer::Move(mv)) => mv,
                Ok(Answer::Resign) => break result(Some(ours), "the opponent resigned", plies),
                Ok(Answer::Unscored(why)) => break GameResult::unscored(&why, plies),
            };
            if let Some(c) = clocks.as_mut()
                && !c.spend(theirs, asked.elapsed())
            {
                break result(Some(ours), "the opponent's clock ran out", plies);
            }
            mv
        };
        record.push(mv.usi());
        if let Err(e) = so_far.play(&game, mv) {
            break GameResult::unscored(&format!("{} was not playable: {e}", mv.usi()), plies);
        }
        pos = so_far.current().clone();
    };
    them.quit();
    Ok(GameResult {
        moves: record,
        ..outcome
    })
}

/// What the opponent answered on its turn.
enum Answer {
    Move(ChuMove),
    Resign,
    /// The engines disagree on the rules (or the boards differ): the game
    /// is reported, not scored.
    Unscored(String),
}

/// The winner a CECP result line claims (`1-0 {…}`: 先手, XBoard's
/// white; `0-1`: 後手; `1/2-1/2`: a draw), if the line is one.
fn claimed_winner(line: &str) -> Option<Option<Side>> {
    let result = line.split_whitespace().next()?;
    match result {
        "1-0" => Some(Some(Side::First)),
        "0-1" => Some(Some(Side::Second)),
        "1/2-1/2" => Some(None),
        _ => None,
    }
}

/// Reads a CECP engine's move (two legs come as two `move` lines).
fn cecp_move(
    them: &mut Opponent,
    game: &Chu,
    pos: &ChuPosition,
    last_sent: &str,
    wait: Duration,
    check_boards: bool,
) -> Result<Answer, String> {
    let line = them.answer(wait)?;
    if line == "resign" {
        return Ok(Answer::Resign);
    }
    // A result claimed instead of a move: conceding is resigning; a claim
    // of a win or a draw the referee has not seen is a dispute.
    if let Some(winner) = claimed_winner(&line) {
        let theirs = pos.to_move();
        if winner == Some(theirs.opponent()) {
            return Ok(Answer::Resign);
        }
        return Ok(Answer::Unscored(format!(
            "the opponent claimed {line} (in {})",
            pos.to_sfen()
        )));
    }
    let mut line = line;
    // A move of two legs comes as two `move` lines, the first ending
    // with a comma.
    while line.starts_with("move ") && line.ends_with(',') {
        let rest = them.answer(wait)?;
        let Some(leg) = rest.strip_prefix("move ") else {
            line = rest;
            break;
        };
        line.push_str(leg);
    }
    let Some(text) = line.strip_prefix("move ") else {
        return Ok(Answer::Unscored(format!(
            "rules differ: the opponent refused {last_sent}: {line} (in {})",
            pos.to_sfen()
        )));
    };
    let mv = match xboard::parse_move(game.rules.profile, pos, text) {
        Ok(mv) => mv,
        Err(e) => {
            return Ok(Answer::Unscored(format!(
                "rules differ: the opponent's move {e} (in {})",
                pos.to_sfen()
            )));
        }
    };
    if check_boards {
        // Both boards must show the same pieces on the same squares.
        let next = play(pos, mv);
        let theirs = them.hachu_board()?;
        let ours: Vec<Option<Side>> = (0..144u8)
            .map(|i| next.at(Square(i)).map(|(side, _)| side))
            .collect();
        if theirs != ours {
            return Ok(Answer::Unscored(format!(
                "the boards differ after {text} (ours: {})",
                next.to_sfen()
            )));
        }
    }
    Ok(Answer::Move(mv))
}

/// Reads a USI engine's `bestmove`.
fn usi_move(
    them: &mut Opponent,
    game: &Chu,
    pos: &ChuPosition,
    wait: Duration,
) -> Result<Answer, String> {
    let line = them.wait_for(wait, "bestmove", |l| l.starts_with("bestmove "))?;
    let text = line
        .trim_start_matches("bestmove ")
        .split_whitespace()
        .next()
        .unwrap_or("");
    if text == "resign" {
        return Ok(Answer::Resign);
    }
    Ok(match parse_usi_in(game.rules.profile, pos, text) {
        Ok(mv) => Answer::Move(mv),
        Err(e) => Answer::Unscored(format!(
            "an illegal move from the opponent: {e} (in {})",
            pos.to_sfen()
        )),
    })
}

pub(crate) fn run(args: &MatchArgs, out: &mut dyn Write) -> Outcome {
    let given = match &args.opening {
        Some(text) => Some(given_opening(args.profile, text)?),
        None => None,
    };
    let mut rng = StdRng::seed_from_u64(args.seed);
    let (mut points, mut wins, mut losses, mut draws, mut disputed) = (0.0, 0, 0, 0, 0);
    let skipped = args.first_game - 1;
    for _ in 0..skipped {
        opening(&mut rng);
    }
    for i in skipped..skipped + args.games {
        let ours = if i % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let seeded = opening(&mut rng);
        let line = given.as_deref().unwrap_or(&seeded);
        let r = match play_game(args, ours, line) {
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
        if let Some(path) = &args.log {
            log_game(path, args, i + 1, side, verdict, &r)?;
        }
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

/// Appends one game to the match log: who played what, how it ended, and
/// its moves in USI (from the start position).
fn log_game(
    path: &std::path::Path,
    args: &MatchArgs,
    number: usize,
    side: &str,
    verdict: &str,
    r: &GameResult,
) -> Outcome {
    let timing = match args.tc {
        Some(tc) => format!("tc {}/{}", tc.moves, tc.seconds),
        None => format!("st {}", args.st),
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("--log {}: {e}", path.display()))?;
    writeln!(
        file,
        "game {number} Yorimichi={side} opponent=\"{}\" protocol={} profile={} {timing} seed={}\nend: {verdict} ({}) after {} plies\nmoves: {}\n",
        args.opponent,
        args.protocol.id(),
        args.profile.id(),
        args.seed,
        r.why,
        r.plies,
        r.moves.join(" ")
    )
    .map_err(|e| format!("--log {}: {e}", path.display()))?;
    Ok(())
}
