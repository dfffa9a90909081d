//! The 中将棋 engine's USI session in lishogi's dialect: one implementation
//! for the native `yorimichi usi` (standard input read on a thread of its
//! own) and the web worker (input arriving between slices of thinking).
//!
//! Positions are lishogi's SFEN (its third field the 先獅子 square, or `-`)
//! or `startpos`, moves lishogi's USI: `7i7h`, `7i7h+`, a lion's two steps
//! as three squares (`6f5e6d`; 居食い `6i5h6i`, じっと `6f6g6f`). The rules
//! are lishogi's unless `setoption name Profile value jcsa` asks for the
//! JCSA's. While the engine thinks, `stop`, `ponderhit`, `isready` and
//! `quit` are answered at once and any other line waits for the answer. A
//! malformed or illegal command gets an `info string` that names the
//! problem and changes nothing. `go mate <ms>|infinite` runs the mate
//! solver instead ([`crate::rules::chu::mate`]) and answers `checkmate
//! <moves>`, `checkmate nomate` or `checkmate timeout`. A position where
//! one side has no royal is a mate problem, that side the attacker.
//!
//! The session never waits and knows no time of its own (the web has no
//! `std::time` and one thread): [`UsiSession::input`] takes a line,
//! [`UsiSession::think`] thinks until the caller's slice is over, and the
//! caller's clock says what time it is.

use std::collections::VecDeque;
use std::io::Write;

use super::Profile;
use super::game::{Chu, ChuRules};
use super::mate::{Mate, MateReading, MateSearch, MateSlice};
use super::moves::{ChuMove, parse_usi_in};
use super::position::ChuPosition;
use super::repetition::ChuHistory;
use super::time::MoveTime;
use crate::rules::game::Side;
use crate::rules::record::GameRecord;
use crate::rules::search::{SearchPlan, Searcher, Step, mate_plies};

/// The longest principal variation an `info` line shows.
const PV_LIMIT: usize = 16;
/// Kept back from every time budget for the pipe and the GUI.
const MARGIN_MS: u64 = 30;
/// The mate solver's table entries a megabyte of `USI_Hash` holds.
const MATE_ENTRIES_PER_MB: usize = (1 << 20) / 24;
/// How many of the search's stop checks (one every few hundred nodes)
/// go by between two looks at the input.
const POLL_EVERY: u32 = 8;

/// The caller's clock: milliseconds since a fixed moment, never going back.
pub type Clock = Box<dyn Fn() -> f64>;

/// What the caller's input holds when the session looks while thinking.
pub enum Polled {
    Line(String),
    /// Nothing yet.
    Nothing,
    /// The input has ended: a search that only `stop` would end stops.
    Ended,
}

/// The game the engine plays: valued as `yorimichi engine`'s default style
/// values it (king safety after HaChu's terms; `Style::ENGINE` in the
/// command line, which a test holds to this).
pub fn engine_game(profile: Profile) -> Chu {
    Chu {
        king_shelter: true,
        ..Chu::new(ChuRules { profile })
    }
}

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

/// A `go` being read.
struct SearchJob {
    searcher: Searcher<Chu>,
    infinite: bool,
    /// When `go` came (milliseconds on the session's clock).
    start: f64,
    budget: Option<MoveTime>,
    /// The clock runs from the start, or from `ponderhit`.
    clock_from: f64,
    deadline: Option<f64>,
    pondering: bool,
    /// The deepest iteration an `info` line has told.
    reported: u8,
    events: Interrupts,
    /// The move once the reading is over (`None`: resign).
    answer: Option<Option<ChuMove>>,
    /// An infinite or pondering search read to its end holds its answer
    /// until `stop` (or `ponderhit`); one stopped early does not.
    held: bool,
}

/// A `go mate` being read.
struct MateJob {
    search: MateSearch,
    reading: MateReading,
    start: f64,
    deadline: Option<f64>,
    /// `go mate infinite`: only `stop` ends it.
    infinite: bool,
    events: Interrupts,
    answer: Option<Mate>,
}

enum Job {
    Search(Box<SearchJob>),
    Mate(Box<MateJob>),
}

impl Job {
    fn events(&mut self) -> &mut Interrupts {
        match self {
            Job::Search(job) => &mut job.events,
            Job::Mate(job) => &mut job.events,
        }
    }
}

/// The engine between commands, and its thinking.
pub struct UsiSession {
    game: Chu,
    /// The game so far, the current position last (千日手 looks back over
    /// all of it).
    record: GameRecord<Chu>,
    hash_megabytes: Option<usize>,
    /// Lines read while thinking that are not for the search.
    waiting: VecDeque<String>,
    job: Option<Job>,
    quit: bool,
    now: Clock,
    /// The caller ends [`UsiSession::think`] by its own slices
    /// ([`UsiSession::in_slices`]).
    sliced: bool,
}

impl UsiSession {
    /// A fresh engine (lishogi's rules, the start position) telling time
    /// by `now`.
    pub fn new(now: Clock) -> UsiSession {
        let game = engine_game(Profile::Lishogi);
        UsiSession {
            record: GameRecord::new(&game),
            game,
            hash_megabytes: None,
            waiting: VecDeque::new(),
            job: None,
            quit: false,
            now,
            sliced: false,
        }
    }

    /// For a caller that ends [`UsiSession::think`] every few
    /// milliseconds (a web worker): each slice of a search goes on where
    /// the last one stopped ([`Searcher::resuming_slices`]), so that the
    /// search reads what it would in one piece.
    pub fn in_slices(mut self) -> UsiSession {
        self.sliced = true;
        self
    }

    /// Whether `quit` has come: the session takes no more input.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Whether there is reading to do: [`UsiSession::think`] is due. A
    /// finished infinite search waiting for `stop` has none.
    pub fn busy(&self) -> bool {
        match &self.job {
            Some(Job::Search(job)) => job.answer.is_none(),
            Some(Job::Mate(job)) => job.answer.is_none(),
            None => false,
        }
    }

    /// Whether nothing is being read or held: input runs as commands.
    pub fn idle(&self) -> bool {
        self.job.is_none()
    }

    /// One line of input. Idle, it is a command (a `go` starts thinking);
    /// while thinking, `stop`, `ponderhit`, `quit` and `isready` act now
    /// and any other line waits for the answer.
    pub fn input(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<()> {
        if self.quit {
            return Ok(());
        }
        match self.job.as_mut() {
            Some(job) => {
                handle_line(line.to_string(), &mut self.waiting, job.events(), out);
                self.settle(out)
            }
            None => self.command(line.trim(), out),
        }
    }

    /// The input has ended: a search that only `stop` would end stops.
    pub fn input_ended(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(job) = self.job.as_mut() {
            let events = job.events();
            events.closed = true;
            // A search held for `stop` will never hear it.
            if let Job::Search(search) = job
                && search.held
            {
                search.events.stop = true;
            }
        }
        self.settle(out)
    }

    /// Thinks until the answer, a command from `input` that ends the
    /// thinking (asked every few thousand nodes), or `slice_over`; prints
    /// each finished iteration's `info` and the answer.
    pub fn think(
        &mut self,
        input: &mut dyn FnMut() -> Polled,
        slice_over: &mut dyn FnMut() -> bool,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        match self.job.take() {
            Some(Job::Search(mut job)) => {
                if job.answer.is_none() {
                    self.think_search(&mut job, input, slice_over, out)?;
                }
                self.job = Some(Job::Search(job));
            }
            Some(Job::Mate(mut job)) => {
                if job.answer.is_none() {
                    self.think_mate(&mut job, input, slice_over, out);
                }
                self.job = Some(Job::Mate(job));
            }
            None => {}
        }
        self.settle(out)
    }

    /// Handles one command while idle.
    fn command(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<()> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = words.split_first() else {
            return Ok(());
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
                    let job = match limits.mate {
                        Some(ms) => self.start_mate(ms),
                        None => self.start_search(&limits, out)?,
                    };
                    self.job = Some(job);
                }
                Err(e) => writeln!(out, "info string {e}")?,
            },
            "quit" => self.quit = true,
            // Outside a search there is nothing to stop.
            "stop" | "ponderhit" | "gameover" => {}
            _ => writeln!(out, "info string unknown command \"{line}\"")?,
        }
        Ok(())
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

    /// Sets up the search `go` asks for (the `searchmoves` it cannot read
    /// are said now).
    fn start_search(&self, limits: &Limits, out: &mut dyn Write) -> std::io::Result<Job> {
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
        if self.sliced {
            searcher = searcher.resuming_slices();
        }
        if !limits.search_moves.is_empty() {
            let mut only = Vec::new();
            for text in &limits.search_moves {
                match parse_usi_in(self.game.rules.profile, self.record.current(), text) {
                    Ok(mv) if forbidden.contains(&mv) => {
                        let why = refusal(&self.record, mv);
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
        let start = (self.now)();
        let budget = limits.budget(side);
        let deadline = (!limits.ponder)
            .then(|| budget.map(|b| start + b.most * 1000.0))
            .flatten();
        Ok(Job::Search(Box::new(SearchJob {
            searcher,
            infinite: limits.infinite,
            start,
            budget,
            clock_from: start,
            deadline,
            pondering: limits.ponder,
            reported: 0,
            events: Interrupts::default(),
            answer: None,
            held: false,
        })))
    }

    /// One slice of a `go`: the search runs until an iteration ends, the
    /// input or the clock stops it, or the slice is over.
    fn think_search(
        &mut self,
        job: &mut SearchJob,
        input: &mut dyn FnMut() -> Polled,
        slice_over: &mut dyn FnMut() -> bool,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let now = &self.now;
        let depth_before = job.searcher.depth_done();
        let step = {
            let waiting = &mut self.waiting;
            let events = &mut job.events;
            let held_for_stop = job.infinite || job.pondering;
            let deadline = job.deadline;
            let out = &mut *out;
            let mut polled = 0u32;
            let mut should_stop = || {
                polled += 1;
                if polled.is_multiple_of(POLL_EVERY) {
                    poll(input, waiting, events, out);
                }
                events.stop
                    || (events.closed && held_for_stop)
                    || deadline.is_some_and(|d| now() >= d)
                    || slice_over()
            };
            job.searcher.step(&self.game, &mut should_stop)
        };
        if job.events.ponderhit && job.pondering {
            job.pondering = false;
            job.clock_from = now();
            job.deadline = job.budget.map(|b| job.clock_from + b.most * 1000.0);
        }
        let time = now();
        let out_of_time = job.deadline.is_some_and(|d| time >= d);
        // The aim only keeps a new iteration from being begun: a slice that
        // ends inside one does not end the move.
        let iteration_ended = job.searcher.depth_done() > depth_before;
        let aim_passed = iteration_ended
            && !job.pondering
            && job
                .budget
                .is_some_and(|b| time >= job.clock_from + b.aim * 1000.0);
        match step {
            Step::NoMove => job.answer = Some(None),
            Step::Done(result) => {
                if job.searcher.depth_done() > job.reported {
                    self.info(job, result.score, out)?;
                }
                job.answer = Some(Some(result.best));
                job.held = job.infinite || job.pondering;
            }
            Step::Pending => {
                if job.searcher.depth_done() > job.reported {
                    job.reported = job.searcher.depth_done();
                    if let Some(r) = job.searcher.best_so_far() {
                        self.info(job, r.score, out)?;
                    }
                }
                let abandoned = job.events.closed && (job.infinite || job.pondering);
                if job.events.stop || out_of_time || aim_passed || abandoned {
                    job.answer = Some(job.searcher.best_so_far().map(|r| r.best));
                }
            }
        }
        Ok(())
    }

    fn start_mate(&self, ms: Option<u64>) -> Job {
        let start = (self.now)();
        let mut search = match self.hash_megabytes {
            Some(mb) => MateSearch::with_entries(self.game.rules.profile, mb * MATE_ENTRIES_PER_MB),
            None => MateSearch::new(self.game.rules.profile),
        };
        let reading = search.begin(self.record.current());
        Job::Mate(Box::new(MateJob {
            search,
            reading,
            start,
            deadline: ms.map(|ms| start + ms.saturating_sub(MARGIN_MS) as f64),
            infinite: ms.is_none(),
            events: Interrupts::default(),
            answer: None,
        }))
    }

    /// One slice of a `go mate`.
    fn think_mate(
        &mut self,
        job: &mut MateJob,
        input: &mut dyn FnMut() -> Polled,
        slice_over: &mut dyn FnMut() -> bool,
        out: &mut dyn Write,
    ) {
        let now = &self.now;
        let waiting = &mut self.waiting;
        let events = &mut job.events;
        let infinite = job.infinite;
        let deadline = job.deadline;
        let mut told_to_stop = || {
            poll(input, waiting, events, out);
            // Input that has ended can never say `stop`.
            events.stop || (events.closed && infinite) || deadline.is_some_and(|d| now() >= d)
        };
        let mut slice_ended = false;
        let slice = {
            let mut stop = || {
                told_to_stop() || {
                    slice_ended = slice_over();
                    slice_ended
                }
            };
            job.search.read_on(&mut job.reading, &mut stop)
        };
        job.answer = match slice {
            MateSlice::Done(mate) => Some(mate),
            // A slice's end alone is taken up again; `stop` or the time
            // ends the reading with what it has.
            MateSlice::Stopped(_) if slice_ended && !told_to_stop() => None,
            MateSlice::Stopped(so_far) => Some(so_far),
        };
    }

    /// Answers a job whose reading is over (unless it is held for
    /// `stop`), then runs the lines that waited for it.
    fn settle(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        loop {
            match self.job.as_mut() {
                None => return Ok(()),
                Some(Job::Search(job)) => {
                    let Some(best) = job.answer else {
                        return Ok(());
                    };
                    if job.held {
                        if job.events.ponderhit {
                            job.pondering = false;
                        }
                        if (job.infinite || job.pondering) && !job.events.stop {
                            return Ok(());
                        }
                    }
                    match best {
                        Some(mv) => writeln!(out, "bestmove {}", mv.usi())?,
                        None => writeln!(out, "bestmove resign")?,
                    }
                    self.quit |= job.events.quit;
                }
                Some(Job::Mate(job)) => {
                    let Some(answer) = job.answer.take() else {
                        return Ok(());
                    };
                    let ms_spent = (((self.now)() - job.start) as u64).max(1);
                    let nodes = job.search.nodes();
                    writeln!(
                        out,
                        "info time {ms_spent} nodes {nodes} nps {}",
                        nodes * 1000 / ms_spent
                    )?;
                    match answer {
                        Mate::Proved(line) => {
                            let moves: Vec<String> = line.iter().map(|m| m.usi()).collect();
                            writeln!(out, "checkmate {}", moves.join(" "))?;
                        }
                        Mate::NoMate => writeln!(out, "checkmate nomate")?,
                        Mate::Unknown => writeln!(out, "checkmate timeout")?,
                    }
                    self.quit |= job.events.quit;
                }
            }
            self.job = None;
            // What came while thinking, in order, until one starts
            // thinking again.
            while self.job.is_none() && !self.quit {
                let Some(line) = self.waiting.pop_front() else {
                    return Ok(());
                };
                self.command(line.trim(), out)?;
            }
            if self.quit {
                return Ok(());
            }
        }
    }

    fn info(&self, job: &SearchJob, score: i32, out: &mut dyn Write) -> std::io::Result<()> {
        let ms = (((self.now)() - job.start) as u64).max(1);
        let searcher = &job.searcher;
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
    input: &mut dyn FnMut() -> Polled,
    waiting: &mut VecDeque<String>,
    events: &mut Interrupts,
    out: &mut dyn Write,
) {
    loop {
        match input() {
            Polled::Line(line) => handle_line(line, waiting, events, out),
            Polled::Nothing => return,
            Polled::Ended => {
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
