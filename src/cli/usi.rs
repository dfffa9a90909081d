//! `yorimichi usi`: the 中将棋 CPU as a USI engine in lishogi's dialect, so
//! that a USI GUI or a lishogi-style bot can run it.
//!
//! Positions are lishogi's SFEN (its third field the 先獅子 square, or `-`)
//! or `startpos`, moves lishogi's USI: `7i7h`, `7i7h+`, a lion's two steps
//! as three squares (`6f5e6d`; 居食い `6i5h6i`, じっと `6f6g6f`). The rules
//! are lishogi's unless `setoption name Profile value jcsa` asks for the
//! JCSA's. Standard input is read on a thread of its own, so `stop`,
//! `ponderhit`, `isready` and `quit` are answered while the engine thinks.
//! A malformed or illegal command gets an `info string` that names the
//! problem and changes nothing. `go mate <ms>|infinite` runs the mate solver
//! instead ([`crate::rules::chu::mate`]) and answers `checkmate <moves>`,
//! `checkmate nomate` or `checkmate timeout`. A position where one side has
//! no royal is a mate problem, that side the attacker.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

use super::engine::{MoveTime, Style};
use crate::rules::chu::Profile;
use crate::rules::chu::game::{Chu, ChuRules};
use crate::rules::chu::mate::{Mate, MateSearch};
use crate::rules::chu::moves::{ChuMove, parse_usi_in};
use crate::rules::chu::position::ChuPosition;
use crate::rules::chu::repetition::ChuHistory;
use crate::rules::game::Side;
use crate::rules::record::GameRecord;
use crate::rules::search::{SearchPlan, Searcher, Step, mate_plies};

/// The longest principal variation an `info` line shows.
const PV_LIMIT: usize = 16;
/// Kept back from every time budget for the pipe and the GUI.
const MARGIN_MS: u64 = 30;
/// The mate solver's table entries a megabyte of `USI_Hash` holds.
const MATE_ENTRIES_PER_MB: usize = (1 << 20) / 24;

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq)]
struct Limits {
    btime: Option<u64>,
    wtime: Option<u64>,
    binc: u64,
    winc: u64,
    byoyomi: u64,
    movetime: Option<u64>,
    depth: Option<u8>,
    nodes: Option<u64>,
    infinite: bool,
    ponder: bool,
    /// `searchmoves`: only these root moves are read (as written; checked
    /// against the position when the search starts).
    search_moves: Vec<String>,
    /// `mate <ms>` or `mate infinite` (`Some(None)`): a mate search instead
    /// of a move, answered with `checkmate`.
    mate: Option<Option<u64>>,
}

impl Limits {
    fn parse(words: &[&str]) -> Result<Limits, String> {
        let mut limits = Limits::default();
        let mut i = 0;
        while i < words.len() {
            let word = words[i];
            if word == "mate" && words.get(i + 1) == Some(&"infinite") {
                limits.mate = Some(None);
                i += 2;
                continue;
            }
            let mut number = || -> Result<u64, String> {
                i += 1;
                let text = words
                    .get(i)
                    .ok_or_else(|| format!("go {word} needs a number"))?;
                text.parse::<u64>()
                    .map_err(|_| format!("go {word}: \"{text}\" is not a whole number"))
            };
            match word {
                "btime" => limits.btime = Some(number()?),
                "wtime" => limits.wtime = Some(number()?),
                "binc" => limits.binc = number()?,
                "winc" => limits.winc = number()?,
                "byoyomi" => limits.byoyomi = number()?,
                "movetime" => limits.movetime = Some(number()?),
                "depth" => limits.depth = Some(number()?.clamp(1, 60) as u8),
                "nodes" => limits.nodes = Some(number()?.max(1)),
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                // The moves run to the end of the line, as USI puts them.
                "searchmoves" => {
                    limits.search_moves = words[i + 1..].iter().map(|w| w.to_string()).collect();
                    if limits.search_moves.is_empty() {
                        return Err("go searchmoves needs at least one move".to_string());
                    }
                    break;
                }
                "mate" => {
                    let ms = number().map_err(|_| {
                        "go mate needs a time in milliseconds or infinite".to_string()
                    })?;
                    limits.mate = Some(Some(ms));
                }
                other => return Err(format!("go: unknown parameter \"{other}\"")),
            }
            i += 1;
        }
        Ok(limits)
    }

    /// The time this move may take, for `side` to move; `None` when only
    /// depth, nodes or `stop` end the search.
    fn budget(&self, side: Side) -> Option<MoveTime> {
        if self.infinite {
            return None;
        }
        if let Some(ms) = self.movetime {
            return Some(MoveTime::fixed(seconds_within(ms)));
        }
        let (clock, inc) = match side {
            Side::First => (self.btime, self.binc),
            Side::Second => (self.wtime, self.winc),
        };
        if clock.is_none() && self.byoyomi == 0 {
            return None;
        }
        Some(clock_time(clock.unwrap_or(0), inc, self.byoyomi))
    }
}

/// `ms` milliseconds, less the margin for answering, in seconds.
fn seconds_within(ms: u64) -> f64 {
    ms.saturating_sub(MARGIN_MS).max(1) as f64 / 1000.0
}

/// How long to think with `clock` milliseconds left, `inc` added after
/// each move and `byoyomi` a move once the clock is spent.
pub fn clock_time(clock: u64, inc: u64, byoyomi: u64) -> MoveTime {
    // A thirtieth of the clock and most of what each move adds back;
    // never more than half the clock beyond the byoyomi.
    let share = clock / 30 + inc * 4 / 5 + byoyomi * 9 / 10;
    let ceiling = clock / 2 + byoyomi * 9 / 10 + inc / 2;
    if clock == 0 {
        // Byoyomi alone: what a move leaves unused is lost, so all of it is
        // read.
        return MoveTime::fixed(seconds_within(share.min(ceiling)));
    }
    // As `match` plays.
    MoveTime::within(seconds_within(share), seconds_within(ceiling))
}

/// The engine's state between commands.
struct Usi {
    game: Chu,
    /// The game so far, the current position last (千日手 looks back over
    /// all of it).
    record: GameRecord<Chu>,
    hash_megabytes: Option<usize>,
    /// Lines read while thinking that are not for the search.
    waiting: VecDeque<String>,
}

/// Why 千日手 forbids `mv` after the game `so_far` (one of its forbidden
/// moves).
fn refusal(so_far: &GameRecord<Chu>, mv: ChuMove) -> String {
    ChuHistory::from_game(Profile::Jcsa, so_far.positions(), so_far.moves())
        .refusal(mv)
        .unwrap_or_else(|| "千日手 forbids it".to_string())
}

/// What the input did while the engine thought.
#[derive(Default)]
struct Interrupts {
    stop: bool,
    quit: bool,
    ponderhit: bool,
    /// The input has ended: a search that only `stop` would end stops.
    closed: bool,
}

impl Usi {
    fn new() -> Usi {
        let game = Style::ENGINE.game(ChuRules {
            profile: Profile::Lishogi,
        });
        Usi {
            record: GameRecord::new(&game),
            game,
            hash_megabytes: None,
            waiting: VecDeque::new(),
        }
    }

    /// Serves commands from `input` until `quit` or its end.
    fn serve(&mut self, input: &Receiver<String>, out: &mut dyn Write) -> std::io::Result<()> {
        loop {
            let line = match self.waiting.pop_front() {
                Some(line) => line,
                None => match input.recv() {
                    Ok(line) => line,
                    Err(_) => return Ok(()),
                },
            };
            let go_on = self.command(line.trim(), input, out)?;
            out.flush()?;
            if !go_on {
                return Ok(());
            }
        }
    }

    /// Handles one command; `false` on `quit`.
    fn command(
        &mut self,
        line: &str,
        input: &Receiver<String>,
        out: &mut dyn Write,
    ) -> std::io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = words.split_first() else {
            return Ok(true);
        };
        match cmd {
            "usi" => {
                writeln!(out, "id name Yorimichi {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the Yorimichi developers")?;
                writeln!(
                    out,
                    "option name USI_Hash type spin default 4 min 1 max 4096"
                )?;
                writeln!(out, "option name USI_Ponder type check default false")?;
                writeln!(
                    out,
                    "option name Profile type combo default lishogi var lishogi var jcsa"
                )?;
                writeln!(out, "usiok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "usinewgame" => {
                self.record = GameRecord::new(&self.game);
            }
            "setoption" => {
                if let Err(e) = self.set_option(rest) {
                    writeln!(out, "info string {e}")?;
                }
            }
            "position" => match self.position(rest) {
                Ok(record) => self.record = record,
                Err(e) => writeln!(out, "info string {e}; the position is unchanged")?,
            },
            "go" => match Limits::parse(rest) {
                Ok(limits) => {
                    let go_on = match limits.mate {
                        Some(ms) => self.go_mate(ms, input, out)?,
                        None => self.go(&limits, input, out)?,
                    };
                    if !go_on {
                        return Ok(false);
                    }
                }
                Err(e) => writeln!(out, "info string {e}")?,
            },
            "quit" => return Ok(false),
            // Outside a search there is nothing to stop.
            "stop" | "ponderhit" | "gameover" => {}
            _ => writeln!(out, "info string unknown command \"{line}\"")?,
        }
        Ok(true)
    }

    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        let text = words.join(" ");
        let usage = || format!("\"setoption {text}\": expected setoption name <id> [value <x>]");
        let rest = text.strip_prefix("name ").ok_or_else(usage)?;
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        match name {
            "Profile" => {
                let profile = Profile::ALL
                    .into_iter()
                    .find(|p| p.id() == value)
                    .ok_or_else(|| format!("Profile: \"{value}\" is not lishogi or jcsa"))?;
                self.game.rules.profile = profile;
                // The game so far is judged again under the new rules.
                let start = self.record.positions()[0].clone();
                match GameRecord::replay_from(&self.game, start.clone(), self.record.moves()) {
                    Ok(record) => self.record = record,
                    Err((i, e)) => {
                        self.record = GameRecord::from_position(&self.game, start);
                        return Err(format!(
                            "Profile {value}: move {} of the game so far is not allowed there ({e}); the position is the game's start",
                            i + 1
                        ));
                    }
                }
            }
            "USI_Hash" => {
                let mb: usize = value
                    .parse()
                    .map_err(|_| format!("USI_Hash: \"{value}\" is not a number of megabytes"))?;
                self.hash_megabytes = Some(mb.clamp(1, 4096));
            }
            "USI_Ponder" => {}
            other => return Err(format!("unknown option \"{other}\"")),
        }
        Ok(())
    }

    /// Reads `startpos|sfen <sfen> [moves …]` into a game, every move
    /// checked by the rules (千日手's included).
    fn position(&self, words: &[&str]) -> Result<GameRecord<Chu>, String> {
        let split = words.iter().position(|&w| w == "moves");
        let (setup, moves) = match split {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let start = match setup {
            ["startpos"] => ChuPosition::start(),
            ["sfen", sfen @ ..] if !sfen.is_empty() => {
                ChuPosition::from_sfen_start(&sfen.join(" ")).map_err(|e| format!("sfen: {e}"))?
            }
            _ => return Err("expected position startpos|sfen <sfen> [moves …]".to_string()),
        };
        let mut record = GameRecord::from_position(&self.game, start);
        for (i, text) in moves.iter().enumerate() {
            if record.outcome(&self.game).is_some() {
                return Err(format!("move {} ({text}): the game is already over", i + 1));
            }
            let mv = parse_usi_in(self.game.rules.profile, record.current(), text)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            if record.forbidden_moves(&self.game).contains(&mv) {
                return Err(format!("move {} ({text}): {}", i + 1, refusal(&record, mv)));
            }
            record
                .play(&self.game, mv)
                .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        }
        Ok(record)
    }

    /// Why 千日手 forbids `mv` in the current position.
    fn refusal(&self, mv: ChuMove) -> String {
        refusal(&self.record, mv)
    }

    /// Thinks and answers `bestmove`; `false` if `quit` came meanwhile.
    fn go(
        &mut self,
        limits: &Limits,
        input: &Receiver<String>,
        out: &mut dyn Write,
    ) -> std::io::Result<bool> {
        let side = self.record.current().to_move();
        let plan = SearchPlan {
            depth: limits.depth.unwrap_or(60),
            nodes: limits.nodes.unwrap_or(u64::MAX),
            null_move: true,
            reductions: true,
            futility: true,
            contempt: true,
            seed: self.record.hashes().len() as u64,
            ..SearchPlan::fixed(60, u64::MAX)
        };
        // A move 千日手 forbids is never played (JCSA).
        let forbidden = self.record.forbidden_moves(&self.game);
        let mut searcher = Searcher::new(
            &self.game,
            self.record.current().clone(),
            self.record.hashes(),
            plan,
        )
        .pausing_each_iteration()
        .restrict_root(|mv| !forbidden.contains(&mv));
        if let Some(mb) = self.hash_megabytes {
            searcher = searcher.with_table_megabytes(mb);
        }
        if !limits.search_moves.is_empty() {
            let mut only = Vec::new();
            for text in &limits.search_moves {
                match parse_usi_in(self.game.rules.profile, self.record.current(), text) {
                    Ok(mv) if forbidden.contains(&mv) => {
                        let why = self.refusal(mv);
                        writeln!(out, "info string searchmoves {text}: {why}; left out")?
                    }
                    Ok(mv) => only.push(mv),
                    Err(e) => writeln!(out, "info string searchmoves {text}: {e}; left out")?,
                }
            }
            if only.is_empty() {
                writeln!(
                    out,
                    "info string searchmoves: no legal move named; all are read"
                )?;
            } else {
                searcher = searcher.restrict_root(|mv| only.contains(&mv));
            }
        }
        let start = Instant::now();
        let budget = limits.budget(side);
        let until = |from: Instant, seconds: f64| from + Duration::from_secs_f64(seconds);
        // The clock runs from the start, or from `ponderhit`.
        let mut clock_from = start;
        let mut deadline = (!limits.ponder)
            .then(|| budget.map(|b| until(start, b.most)))
            .flatten();
        let mut pondering = limits.ponder;
        let mut events = Interrupts::default();
        let mut reported = 0;
        let best = loop {
            let step = {
                let waiting = &mut self.waiting;
                let events = &mut events;
                let mut polled = 0u32;
                let mut should_stop = || {
                    polled += 1;
                    if polled.is_multiple_of(8) {
                        poll(input, waiting, events, out);
                    }
                    events.stop
                        || (events.closed && (limits.infinite || pondering))
                        || deadline.is_some_and(|d| Instant::now() >= d)
                };
                searcher.step(&self.game, &mut should_stop)
            };
            if events.ponderhit && pondering {
                pondering = false;
                clock_from = Instant::now();
                deadline = budget.map(|b| until(clock_from, b.most));
            }
            let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
            let aim_passed =
                !pondering && budget.is_some_and(|b| Instant::now() >= until(clock_from, b.aim));
            match step {
                Step::NoMove => break None,
                Step::Done(result) => {
                    if searcher.depth_done() > reported {
                        self.info(&searcher, result.score, start, out)?;
                    }
                    // In infinite or ponder mode the answer waits for
                    // `stop` (or `ponderhit`).
                    while (limits.infinite || pondering) && !events.stop {
                        match input.recv() {
                            Ok(line) => handle_line(line, &mut self.waiting, &mut events, out),
                            Err(_) => events.stop = true,
                        }
                        if events.ponderhit {
                            pondering = false;
                        }
                    }
                    break Some(result.best);
                }
                Step::Pending => {
                    if searcher.depth_done() > reported {
                        reported = searcher.depth_done();
                        if let Some(r) = searcher.best_so_far() {
                            self.info(&searcher, r.score, start, out)?;
                        }
                    }
                    let abandoned = events.closed && (limits.infinite || pondering);
                    if events.stop || out_of_time || aim_passed || abandoned {
                        break searcher.best_so_far().map(|r| r.best);
                    }
                }
            }
        };
        match best {
            Some(mv) => writeln!(out, "bestmove {}", mv.usi())?,
            None => writeln!(out, "bestmove resign")?,
        }
        Ok(!events.quit)
    }

    /// `go mate <ms>|infinite`: the mate solver on the position, answered
    /// with `checkmate <moves>` (the line to the royals taken),
    /// `checkmate nomate` or `checkmate timeout` (the time spent, or `stop`
    /// or `quit` before it was known); `false` if `quit` came meanwhile.
    fn go_mate(
        &mut self,
        ms: Option<u64>,
        input: &Receiver<String>,
        out: &mut dyn Write,
    ) -> std::io::Result<bool> {
        let start = Instant::now();
        let deadline = ms.map(|ms| start + Duration::from_millis(ms.saturating_sub(MARGIN_MS)));
        let mut search = match self.hash_megabytes {
            Some(mb) => MateSearch::with_entries(self.game.rules.profile, mb * MATE_ENTRIES_PER_MB),
            None => MateSearch::new(self.game.rules.profile),
        };
        let mut events = Interrupts::default();
        let answer = {
            let waiting = &mut self.waiting;
            let events = &mut events;
            let out = &mut *out;
            let mut stop = || {
                poll(input, waiting, events, out);
                // Input that has ended can never say `stop`.
                events.stop
                    || (events.closed && ms.is_none())
                    || deadline.is_some_and(|d| Instant::now() >= d)
            };
            match search.solve(self.record.current(), &mut stop) {
                // The time left (or until `stop`) goes to a shorter line.
                Mate::Proved(line) => {
                    Mate::Proved(search.shorten(self.record.current(), line, &mut stop))
                }
                other => other,
            }
        };
        let ms_spent = start.elapsed().as_millis().max(1) as u64;
        writeln!(
            out,
            "info time {ms_spent} nodes {} nps {}",
            search.nodes(),
            search.nodes() * 1000 / ms_spent
        )?;
        match answer {
            Mate::Proved(line) => {
                let moves: Vec<String> = line.iter().map(|m| m.usi()).collect();
                writeln!(out, "checkmate {}", moves.join(" "))?;
            }
            Mate::NoMate => writeln!(out, "checkmate nomate")?,
            Mate::Unknown => writeln!(out, "checkmate timeout")?,
        }
        Ok(!events.quit)
    }

    fn info(
        &self,
        searcher: &Searcher<Chu>,
        score: i32,
        start: Instant,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let elapsed = start.elapsed();
        let ms = elapsed.as_millis().max(1) as u64;
        let nodes = searcher.nodes();
        let score = match mate_plies(score) {
            Some(plies) => format!("mate {plies}"),
            None => format!("cp {score}"),
        };
        let pv: Vec<String> = searcher
            .principal_variation(&self.game, PV_LIMIT)
            .into_iter()
            .map(|m| m.usi())
            .collect();
        writeln!(
            out,
            "info depth {} seldepth {} score {score} nodes {nodes} nps {} time {ms} pv {}",
            searcher.depth_done(),
            searcher.seldepth().max(searcher.depth_done() as usize),
            nodes * 1000 / ms,
            pv.join(" ")
        )
    }
}

/// Reads what has arrived without waiting.
fn poll(
    input: &Receiver<String>,
    waiting: &mut VecDeque<String>,
    events: &mut Interrupts,
    out: &mut dyn Write,
) {
    loop {
        match input.try_recv() {
            Ok(line) => handle_line(line, waiting, events, out),
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => {
                events.closed = true;
                return;
            }
        }
    }
}

/// A line that came while thinking: the search's own commands act now,
/// `isready` is answered now, the rest waits for the search to end.
fn handle_line(
    line: String,
    waiting: &mut VecDeque<String>,
    events: &mut Interrupts,
    out: &mut dyn Write,
) {
    match line.trim() {
        "stop" => events.stop = true,
        "ponderhit" => events.ponderhit = true,
        "quit" => {
            events.stop = true;
            events.quit = true;
        }
        "isready" => {
            // A closed pipe shows at the next `bestmove`.
            let _ = writeln!(out, "readyok").and_then(|()| out.flush());
        }
        _ => waiting.push_back(line),
    }
}

/// Runs the USI loop on standard input, answering on `out`.
pub(crate) fn run(out: &mut dyn Write) -> super::Outcome {
    let (lines, input) = channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    Usi::new().serve(&input, out)?;
    Ok(())
}

/// Feeds `input` (one command a line, all available at once, as a GUI that
/// writes ahead) to a fresh engine and returns what it printed: for tests.
pub fn run_script(input: &str) -> String {
    let (lines, rx) = channel();
    for line in input.lines() {
        let _ = lines.send(line.to_string());
    }
    drop(lines);
    let mut out = Vec::new();
    let _ = Usi::new().serve(&rx, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}
