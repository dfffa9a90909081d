//! `yorimichi bench-rooms`: the room server under load. It starts
//! `yorimichi serve` as a child process on a free loopback port with a
//! fresh database, opens rooms of はさみ将棋 (standard rules) between two
//! devices each, plays their moves (each a legal move of the mover's own
//! table, as the app's would be) and prints the time from each move sent
//! to its arrival on the other device (and on each room's watchers, with
//! `--watchers`), the server's peak memory and CPU
//! time, and the wall time (docs/rooms.md). Traffic goes to 127.0.0.1
//! only; the run gives up after `--timeout` seconds, and the server is
//! killed at the end whatever happened.

use std::io::Write;

use clap::Args;

use super::{Failure, Outcome};

/// `yorimichi bench-rooms [--rooms N] [--moves N] [--at-once N]
/// [--watchers N] [--read-timeout-ms MS] [--think-ms MS] [--timeout S]`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct BenchRoomsArgs {
    /// Rooms to open, two devices each: 1 to 1000.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 200,
        value_parser = super::whole::<usize>(1, Some(1000))
    )]
    pub rooms: usize,
    /// Moves to play in each room: 1 to 1000 (where a game ends first,
    /// its devices open another room and play on there).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 100,
        value_parser = super::whole::<usize>(1, Some(1000))
    )]
    pub moves: usize,
    /// Rooms played at the same time, the others opened as those finish:
    /// 1 to 1000 (default: every room at once).
    #[arg(long, value_name = "N", value_parser = super::whole::<usize>(1, Some(1000)))]
    pub at_once: Option<usize>,
    /// Devices that watch each room, joining once it is made: 0 to 8.
    /// Each move's time to them is measured too.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        value_parser = super::whole::<usize>(0, Some(8))
    )]
    pub watchers: usize,
    /// How long each device's connection thread waits on its socket
    /// before it looks for a message to send (ewebsock's read timeout,
    /// 10 ms in the app): a move waits up to this long before it leaves,
    /// rounded up to the kernel's clock ticks.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 10,
        value_parser = super::whole::<u64>(1, Some(1000))
    )]
    pub read_timeout_ms: u64,
    /// How long a device waits after the move it answers arrived, as a
    /// person would think: 0 to 60000 ms on average, each wait drawn from
    /// half to one and a half times it. Its connection's thread is then
    /// waiting on its socket when the move is sent, as in play.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 0,
        value_parser = super::whole::<u64>(0, Some(60_000))
    )]
    pub think_ms: u64,
    /// Give up after this many seconds: 1 to 3600.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 600,
        value_parser = super::whole::<u64>(1, Some(3600))
    )]
    pub timeout: u64,
}

#[cfg(feature = "server")]
pub(crate) fn run(args: &BenchRoomsArgs, out: &mut dyn Write) -> Outcome {
    let report = load::bench(args).map_err(Failure::Message)?;
    report.write(out)
}

#[cfg(not(feature = "server"))]
pub(crate) fn run(_args: &BenchRoomsArgs, _out: &mut dyn Write) -> Outcome {
    Err(Failure::Message(
        "this build has no room server to measure: build it with `cargo build --release --features server`"
            .to_string(),
    ))
}

#[cfg(feature = "server")]
mod load {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    use std::io::{BufRead, BufReader, Write};
    use std::path::{Path, PathBuf};
    use std::process::{Child, Command, Stdio};
    use std::sync::{Arc, Condvar, Mutex, MutexGuard, mpsc};
    use std::time::{Duration, Instant};

    use super::BenchRoomsArgs;
    use crate::cli::Outcome;
    use crate::net::link::{Link, LinkEvent};
    use crate::net::protocol::{
        ClientMessage, Event, PROTOCOL_VERSION, RoomCode, RoomPlan, SeatKind, SeatName, SeatPlan,
        ServerMessage,
    };
    use crate::net::room::replay;
    use crate::net::table::{Table, open_table};
    use crate::rules::data::GameId;
    use crate::rules::hasami::HasamiRules;

    /// What a run measured.
    pub(super) struct Report {
        rooms: usize,
        at_once: usize,
        moves: usize,
        /// Rooms opened again because a game ended before its moves.
        again: usize,
        read_timeout_ms: u64,
        think_ms: u64,
        watchers: usize,
        /// Each move's time from sent to its arrival on the other device,
        /// in order.
        latencies: Vec<Duration>,
        /// Each move's time from sent to its arrival on each watcher.
        watched: Vec<Duration>,
        server: Usage,
        bench: Usage,
        wall: Duration,
    }

    impl Report {
        pub(super) fn write(&self, out: &mut dyn Write) -> Outcome {
            let moves = self.latencies.len();
            writeln!(
                out,
                "rooms: {} ({} at once, {} devices, read timeout {} ms, think {} ms{})",
                self.rooms,
                self.at_once,
                (2 + self.watchers) * self.at_once,
                self.read_timeout_ms,
                self.think_ms,
                match self.watchers {
                    0 => String::new(),
                    n => format!(", {n} watchers a room"),
                }
            )?;
            writeln!(
                out,
                "moves: {moves} ({} a room; {} games ended first, their moves played on in another room)",
                self.moves, self.again
            )?;
            let mut sorted = self.latencies.clone();
            sorted.sort();
            writeln!(
                out,
                "latency: p50 {} ms, p99 {} ms, max {} ms",
                ms(percentile(&sorted, 50)),
                ms(percentile(&sorted, 99)),
                ms(sorted.last().copied().unwrap_or_default())
            )?;
            if self.watchers > 0 {
                let mut watched = self.watched.clone();
                watched.sort();
                writeln!(
                    out,
                    "to watchers: {} arrivals, p50 {} ms, p99 {} ms, max {} ms",
                    watched.len(),
                    ms(percentile(&watched, 50)),
                    ms(percentile(&watched, 99)),
                    ms(watched.last().copied().unwrap_or_default())
                )?;
            }
            let per_move = match self.server.cpu {
                Some(cpu) if moves > 0 => {
                    format!(" = {:.0} µs a move", cpu.as_secs_f64() * 1e6 / moves as f64)
                }
                _ => String::new(),
            };
            writeln!(
                out,
                "server: peak memory {}, CPU {}{per_move}",
                self.server.peak(),
                self.server.cpu()
            )?;
            writeln!(
                out,
                "devices (this process): peak memory {}, CPU {}",
                self.bench.peak(),
                self.bench.cpu()
            )?;
            let wall = self.wall.as_secs_f64();
            writeln!(
                out,
                "wall: {wall:.2} s = {:.0} moves/s",
                moves as f64 / wall.max(1e-9)
            )?;
            Ok(())
        }
    }

    /// The nearest-rank `p`th percentile of `sorted`.
    fn percentile(sorted: &[Duration], p: usize) -> Duration {
        if sorted.is_empty() {
            return Duration::ZERO;
        }
        let rank = (p * sorted.len()).div_ceil(100).max(1);
        sorted[rank - 1]
    }

    fn ms(d: Duration) -> String {
        format!("{:.2}", d.as_secs_f64() * 1000.0)
    }

    /// A process's peak resident memory and CPU time, from /proc (Linux).
    #[derive(Default)]
    struct Usage {
        peak_kib: Option<u64>,
        cpu: Option<Duration>,
    }

    impl Usage {
        /// `/proc/<pid>/status`'s VmHWM and `/proc/<pid>/stat`'s utime +
        /// stime (`pid`: a number or `self`).
        fn of(pid: &str) -> Usage {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status"));
            let peak_kib = status.ok().and_then(|status| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            });
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
            let cpu = stat.ok().and_then(|stat| {
                // The fields after the command's name, which ends at the
                // last ')': state is field 3, utime 14 and stime 15.
                let rest = &stat[stat.rfind(')')? + 1..];
                let fields: Vec<&str> = rest.split_whitespace().collect();
                let utime: u64 = fields.get(11)?.parse().ok()?;
                let stime: u64 = fields.get(12)?.parse().ok()?;
                Some(Duration::from_secs_f64(
                    (utime + stime) as f64 / clock_ticks() as f64,
                ))
            });
            Usage { peak_kib, cpu }
        }

        fn peak(&self) -> String {
            self.peak_kib.map_or("unknown (no /proc)".to_string(), |k| {
                format!("{:.1} MiB (VmHWM)", k as f64 / 1024.0)
            })
        }

        fn cpu(&self) -> String {
            self.cpu.map_or("unknown (no /proc)".to_string(), |d| {
                format!("{:.2} s (utime+stime)", d.as_secs_f64())
            })
        }
    }

    /// The clock ticks a second that /proc's CPU times count in.
    fn clock_ticks() -> u64 {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: sysconf reads a constant of the system; it takes no
            // pointer.
            let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
            if ticks > 0 {
                return ticks as u64;
            }
        }
        100
    }

    /// The server, a child process: killed, waited for and its database
    /// removed when this is dropped, whatever happened.
    struct Server {
        child: Child,
        db: PathBuf,
    }

    impl Server {
        /// Starts `yorimichi serve` on a free loopback port and returns it
        /// with the address it says it listens on.
        fn start(deadline: Instant) -> Result<(Server, String), String> {
            let exe = std::env::current_exe()
                .map_err(|e| format!("cannot find this program to start its server: {e}"))?;
            let db = std::env::temp_dir().join(format!(
                "yorimichi-bench-rooms-{}.sqlite3",
                std::process::id()
            ));
            remove_database(&db);
            let mut command = Command::new(exe);
            #[cfg(target_os = "linux")]
            {
                use std::os::unix::process::CommandExt;
                // SAFETY: between fork and exec the closure only calls
                // prctl, which allocates nothing and takes no lock.
                unsafe {
                    // Killed with this process, even if it is killed itself.
                    command.pre_exec(|| {
                        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                        Ok(())
                    });
                }
            }
            let mut child = command
                .args(["serve", "--listen", "127.0.0.1:0", "--print-address"])
                .args(["--joins-per-minute", "1000000", "--db"])
                .arg(&db)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .map_err(|e| format!("cannot start the server: {e}"))?;
            let stdout = child.stdout.take();
            let server = Server { child, db };
            let (said, heard) = mpsc::channel();
            std::thread::spawn(move || {
                let mut line = String::new();
                if let Some(stdout) = stdout {
                    let _ = BufReader::new(stdout).read_line(&mut line);
                }
                let _ = said.send(line);
            });
            let wait = deadline
                .saturating_duration_since(Instant::now())
                .min(Duration::from_secs(30));
            let line = heard.recv_timeout(wait).map_err(|_| {
                format!(
                    "gave up: the server did not say its address within {} s",
                    wait.as_secs()
                )
            })?;
            let url = line.trim();
            if !url.starts_with("ws://127.0.0.1:") {
                return Err(format!("the server did not start (it printed {url:?})"));
            }
            Ok((server, url.to_string()))
        }

        fn usage(&self) -> Usage {
            Usage::of(&self.child.id().to_string())
        }
    }

    impl Drop for Server {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
            remove_database(&self.db);
        }
    }

    fn remove_database(db: &Path) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
    }

    /// Which devices have had something arrive since the last look: each
    /// connection's thread rings it, the bench sleeps until then.
    #[derive(Default)]
    struct Bell {
        rung: Mutex<Vec<usize>>,
        ringing: Condvar,
    }

    impl Bell {
        fn ring(&self, device: usize) {
            lock(&self.rung).push(device);
            self.ringing.notify_one();
        }

        /// The devices rung for, waiting at most `most` for one.
        fn wait(&self, most: Duration) -> Vec<usize> {
            let mut rung = lock(&self.rung);
            if rung.is_empty() {
                rung = self
                    .ringing
                    .wait_timeout(rung, most)
                    .map_or_else(|poisoned| poisoned.into_inner().0, |(rung, _)| rung);
            }
            let mut devices = std::mem::take(&mut *rung);
            drop(rung);
            devices.sort_unstable();
            devices.dedup();
            devices
        }
    }

    fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
        mutex
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A device as the app is one: a connection, the room's events and its
    /// own table that replays them through the rules.
    struct Device {
        link: Link,
        room: Option<RoomCode>,
        /// The room's watch code, from the welcome.
        watch: Option<RoomCode>,
        seats: Vec<u8>,
        events: Vec<Event>,
        table: Option<Box<dyn Table>>,
    }

    impl Device {
        fn open(
            url: &str,
            read_timeout: Duration,
            bell: &Arc<Bell>,
            id: usize,
        ) -> Result<Self, String> {
            let bell = bell.clone();
            let link = Link::open_with(url, read_timeout, move || bell.ring(id))?;
            Ok(Device {
                link,
                room: None,
                watch: None,
                seats: Vec::new(),
                events: Vec::new(),
                table: None,
            })
        }

        /// Reads what arrived; events go onto the table, in order.
        fn pump(&mut self) -> Result<(), String> {
            for event in self.link.poll() {
                match event {
                    LinkEvent::Opened => {}
                    LinkEvent::Message(message) => self.take(message)?,
                    LinkEvent::Unreadable(why) => {
                        return Err(format!("unreadable from the server: {why}"));
                    }
                    LinkEvent::Closed(why) => {
                        return Err(format!(
                            "the connection closed{}",
                            why.map(|w| format!(": {w}")).unwrap_or_default()
                        ));
                    }
                }
            }
            Ok(())
        }

        fn take(&mut self, message: ServerMessage) -> Result<(), String> {
            match message {
                ServerMessage::Welcome {
                    view, seats, watch, ..
                } => {
                    self.table = Some(open_table(view.game, &view.rules)?);
                    self.room = Some(view.room);
                    self.watch = watch;
                    self.seats = seats;
                }
                ServerMessage::Watching { view } => {
                    self.table = Some(open_table(view.game, &view.rules)?);
                    self.room = Some(view.room);
                }
                ServerMessage::Events { first, events } => {
                    let have = self.events.len() as u64;
                    if first > have + 1 {
                        return Err(format!(
                            "a gap in the events: have {have}, sent from {first}"
                        ));
                    }
                    let new = events
                        .get((have + 1 - first) as usize..)
                        .unwrap_or_default();
                    let table = self.table.as_mut().ok_or("events before the welcome")?;
                    replay(table.as_mut(), new).map_err(|(i, e)| {
                        format!("the server's event {:?} is {e:?} here", new[i])
                    })?;
                    self.events.extend_from_slice(new);
                }
                ServerMessage::Presence { .. }
                | ServerMessage::Clock { .. }
                | ServerMessage::Watchers { .. }
                | ServerMessage::Clocks { .. }
                | ServerMessage::ReviewAt { .. } => {}
                ServerMessage::Refused { refusal } => return Err(format!("refused: {refusal}")),
            }
            Ok(())
        }

        fn started(&self) -> bool {
            self.events.contains(&Event::Started)
        }

        fn to_move(&self) -> bool {
            self.table
                .as_ref()
                .and_then(|t| t.seat_to_move())
                .is_some_and(|s| self.seats.contains(&s))
        }

        fn over(&self) -> bool {
            self.table.as_ref().is_some_and(|t| t.result().is_some())
        }
    }

    #[derive(Clone, Copy, PartialEq)]
    enum Phase {
        /// Waiting for the host's connection to open.
        Connecting,
        /// The room asked for; waiting for its code and the guest's
        /// connection.
        Creating,
        /// The guest asked to join; waiting for the game to start on both.
        Joining,
        Playing,
    }

    /// A move on its way: when it was sent, to which device, and how many
    /// events that device has once it is there.
    struct Pending {
        sent: Instant,
        to: usize,
        events: usize,
    }

    /// One room and its devices: the host (0), the guest (1) and its
    /// watchers (2 on).
    struct Slot {
        index: usize,
        /// Rooms this one follows, whose games ended before their moves.
        again: usize,
        devices: Vec<Device>,
        /// Whether the watchers have asked to watch.
        watching: bool,
        /// Per watcher, the moves on their way to it: when each was sent
        /// and how many events the watcher has once it is there.
        to_watchers: Vec<std::collections::VecDeque<(Instant, usize)>>,
        phase: Phase,
        pending: Option<Pending>,
        played: usize,
        /// How long the mover waits before it sends, and when the move it
        /// is waiting to send is due.
        think: Duration,
        due: Option<Instant>,
    }

    /// Where a room stands after [`Slot::advance`].
    enum Step {
        /// Waiting for something to arrive.
        Waiting,
        /// Its next move is due then.
        At(Instant),
        /// Its moves are played, or its game is over.
        Finished,
    }

    fn name(text: &str) -> SeatName {
        SeatName::new(text).expect("a short name")
    }

    fn plan() -> RoomPlan {
        RoomPlan {
            game: GameId::Hasami,
            rules: ron::to_string(&HasamiRules::STANDARD).expect("the rules as RON"),
            seats: vec![
                SeatPlan {
                    kind: SeatKind::Host,
                    name: name("はは"),
                },
                SeatPlan {
                    kind: SeatKind::Remote,
                    name: name("こ"),
                },
            ],
            draw_seats: false,
            grace_seconds: 60,
            takebacks: false,
            clock: None,
        }
    }

    impl Slot {
        /// Room `index`, its devices opening; `again` rooms before it
        /// ended early, having played `played` of its moves.
        fn open(
            index: usize,
            again: usize,
            played: usize,
            url: &str,
            args: &BenchRoomsArgs,
            bell: &Arc<Bell>,
        ) -> Result<Self, String> {
            let read_timeout = Duration::from_millis(args.read_timeout_ms);
            let per_room = 2 + args.watchers;
            let devices = (0..per_room)
                .map(|d| Device::open(url, read_timeout, bell, per_room * index + d))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Slot {
                index,
                again,
                devices,
                watching: false,
                to_watchers: vec![Default::default(); args.watchers],
                phase: Phase::Connecting,
                pending: None,
                played,
                think: Duration::from_millis(args.think_ms),
                due: None,
            })
        }

        /// Takes the room as far as what has arrived and the time allow.
        fn advance(
            &mut self,
            moves: usize,
            latencies: &mut Vec<Duration>,
            watched: &mut Vec<Duration>,
        ) -> Step {
            for (w, waiting) in self.to_watchers.iter_mut().enumerate() {
                let have = self.devices[2 + w].events.len();
                while let Some(&(sent, events)) = waiting.front()
                    && have >= events
                {
                    watched.push(sent.elapsed());
                    waiting.pop_front();
                }
            }
            let (players, watchers) = self.devices.split_at_mut(2);
            let [host, guest] = players else {
                return Step::Waiting;
            };
            if !self.watching
                && let Some(room) = &host.watch
                && watchers.iter().all(|w| w.link.is_open())
            {
                for watcher in watchers.iter_mut() {
                    watcher.link.send(&ClientMessage::Watch {
                        version: PROTOCOL_VERSION,
                        room: room.clone(),
                    });
                }
                self.watching = true;
            }
            if self.phase == Phase::Connecting && host.link.is_open() {
                host.link.send(&ClientMessage::Create {
                    version: PROTOCOL_VERSION,
                    plan: plan(),
                });
                self.phase = Phase::Creating;
            }
            if self.phase == Phase::Creating
                && guest.link.is_open()
                && let Some(room) = &host.room
            {
                guest.link.send(&ClientMessage::Join {
                    version: PROTOCOL_VERSION,
                    room: room.clone(),
                    name: name("まご"),
                });
                self.phase = Phase::Joining;
            }
            if self.phase == Phase::Joining
                && host.started()
                && guest.started()
                && self.watching
                && watchers.iter().all(Device::started)
            {
                self.phase = Phase::Playing;
            }
            if self.phase != Phase::Playing {
                return Step::Waiting;
            }
            if let Some(pending) = &self.pending
                && self.devices[pending.to].events.len() >= pending.events
            {
                latencies.push(pending.sent.elapsed());
                self.played += 1;
                self.pending = None;
            }
            if self.pending.is_some() {
                return Step::Waiting;
            }
            if self.played >= moves || self.devices.iter().any(Device::over) {
                // The watchers see the last move before the room closes.
                if self.to_watchers.iter().any(|w| !w.is_empty()) {
                    return Step::Waiting;
                }
                return Step::Finished;
            }
            if !self.think.is_zero() {
                // Drawn from half to one and a half times the mean, so
                // that moves fall anywhere in the connection's wait.
                let think = self.think;
                let due = *self.due.get_or_insert_with(|| {
                    Instant::now() + think.mul_f64(0.5 + rand::random::<f64>())
                });
                if Instant::now() < due {
                    return Step::At(due);
                }
            }
            if self.next_move() {
                self.due = None;
            }
            Step::Waiting
        }

        /// The device to move sends a legal move of its own table, varied
        /// with the room and the ply; none yet (false) if that device has
        /// not seen every event.
        fn next_move(&mut self) -> bool {
            let have = self
                .devices
                .iter()
                .map(|d| d.events.len())
                .max()
                .unwrap_or(0);
            let Some(mover) = (0..2usize).find(|&d| {
                let device = &self.devices[d];
                device.to_move() && device.events.len() == have
            }) else {
                return false;
            };
            let device = &mut self.devices[mover];
            let Some(table) = device.table.as_ref() else {
                return false;
            };
            let legal = table.legal_texts();
            if legal.is_empty() {
                return false;
            }
            let vary = table.ply() * 5 + 1 + self.index + 7 * self.again;
            let text = legal[vary % legal.len()].clone();
            let sent = Instant::now();
            self.pending = Some(Pending {
                sent,
                to: 1 - mover,
                events: have + 1,
            });
            for waiting in &mut self.to_watchers {
                waiting.push_back((sent, have + 1));
            }
            device.link.send(&ClientMessage::Move {
                after: have as u64,
                text,
            });
            true
        }
    }

    pub(super) fn bench(args: &BenchRoomsArgs) -> Result<Report, String> {
        let begun = Instant::now();
        let deadline = begun + Duration::from_secs(args.timeout);
        let (server, url) = Server::start(deadline)?;
        let at_once = args.at_once.unwrap_or(args.rooms).min(args.rooms);
        let bell = Arc::new(Bell::default());
        let mut slots: Vec<Option<Slot>> = Vec::with_capacity(args.rooms);
        let (mut active, mut finished, mut again) = (0, 0, 0);
        let mut latencies = Vec::with_capacity(args.rooms * args.moves);
        let mut watched = Vec::with_capacity(args.rooms * args.moves * args.watchers);
        let per_room = 2 + args.watchers;
        // The rooms whose next move is due, earliest first.
        let mut timers: BinaryHeap<Reverse<(Instant, usize)>> = BinaryHeap::new();
        while finished < args.rooms {
            while active < at_once && slots.len() < args.rooms {
                let index = slots.len();
                slots.push(Some(Slot::open(index, 0, 0, &url, args, &bell)?));
                active += 1;
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "gave up after {} s: {} of {} rooms finished, {} moves arrived",
                    args.timeout,
                    finished,
                    args.rooms,
                    latencies.len()
                ));
            }
            // Sleep until a device rings or a thought-out move is due.
            let now = Instant::now();
            let most = timers
                .peek()
                .map_or(Duration::from_millis(50), |Reverse((due, _))| {
                    due.saturating_duration_since(now)
                })
                .min(Duration::from_millis(50));
            let mut looks: Vec<(usize, bool)> =
                bell.wait(most).into_iter().map(|id| (id, true)).collect();
            let now = Instant::now();
            while let Some(&Reverse((due, room))) = timers.peek()
                && due <= now
            {
                timers.pop();
                looks.push((per_room * room, false));
            }
            for (id, rung) in looks {
                // A finished room's connections still ring as they close.
                let (room, device) = (id / per_room, id % per_room);
                let Some(slot) = slots.get_mut(room).and_then(Option::as_mut) else {
                    continue;
                };
                if rung {
                    slot.devices[device]
                        .pump()
                        .map_err(|why| format!("room {}, device {device}: {why}", slot.index))?;
                }
                match slot.advance(args.moves, &mut latencies, &mut watched) {
                    Step::Waiting => {}
                    Step::At(due) => timers.push(Reverse((due, room))),
                    Step::Finished => {
                        // The devices leave: their connections close. Where
                        // the game ended first, two new devices play on in a
                        // new room (the old ones' closing may ring them: a
                        // look that finds nothing).
                        let (index, played, before) = (slot.index, slot.played, slot.again);
                        slots[room] = None;
                        if played < args.moves {
                            again += 1;
                            let next = Slot::open(index, before + 1, played, &url, args, &bell)?;
                            slots[room] = Some(next);
                        } else {
                            active -= 1;
                            finished += 1;
                        }
                    }
                }
            }
        }
        let wall = begun.elapsed();
        let server_usage = server.usage();
        drop(server);
        Ok(Report {
            rooms: args.rooms,
            at_once,
            moves: args.moves,
            again,
            read_timeout_ms: args.read_timeout_ms,
            think_ms: args.think_ms,
            watchers: args.watchers,
            latencies,
            watched,
            server: server_usage,
            bench: Usage::of("self"),
            wall,
        })
    }
}
