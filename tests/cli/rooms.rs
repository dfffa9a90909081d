//! The room server over loopback: a real server (`--features server`) and
//! devices that connect as the app does, in one process. Games played to
//! their end, every refusal, devices dropped at each phase of a move, a
//! server restarted mid-game, and 中将棋's 通信切れ.
//!
//! Long because: every test here shares the one device of the app that
//! the server is driven with (`Device`), and the series, 待った and watchers
//! are played through it as the games are.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use yorimichi::net::link::{Link, LinkEvent};
use yorimichi::net::protocol::{
    ClientMessage, Event, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, Refusal, RoomCode, RoomPlan,
    SeatKind, SeatName, SeatPlan, SeatToken, ServerMessage, Stamp,
};
use yorimichi::net::room::{replay, replay_series};
use yorimichi::net::table::{MawariTableRules, Table, hand_text, open_table};
use yorimichi::rules::chu::game::ChuRules;
use yorimichi::rules::data::{GameId, Strength};
use yorimichi::rules::game::EndReason;
use yorimichi::rules::hasami::HasamiRules;
use yorimichi::rules::mawari::race::MawariRules;
use yorimichi::server::{Running, ServeOptions, start};

pub(crate) const WAIT: Duration = Duration::from_secs(20);

/// A fresh database file for one test.
pub(crate) fn database(test: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("yorimichi-{}-{test}.sqlite3", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    path
}

pub(crate) fn serve(db: &Path, joins_per_minute: u32) -> Running {
    serve_with(db, joins_per_minute, false)
}

/// [`serve`], taking a clock of any length where `any_clock`.
pub(crate) fn serve_with(db: &Path, joins_per_minute: u32, any_clock: bool) -> Running {
    start(ServeOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        db: db.to_path_buf(),
        web: None,
        joins_per_minute,
        print_address: false,
        lan: false,
        announce: None,
        any_clock,
    })
    .expect("the server starts")
}

pub(crate) fn name(text: &str) -> SeatName {
    SeatName::new(text).unwrap()
}

pub(crate) fn plan(game: GameId, grace_seconds: u32) -> RoomPlan {
    RoomPlan {
        takebacks: false,
        ..plan_with(game, grace_seconds)
    }
}

/// [`plan`] with 待った by consent.
fn plan_with(game: GameId, grace_seconds: u32) -> RoomPlan {
    let rules = match game {
        GameId::Hasami => ron::to_string(&HasamiRules::STANDARD),
        GameId::ChuShogi => ron::to_string(&ChuRules::default()),
        _ => panic!("not used here"),
    }
    .unwrap();
    RoomPlan {
        game,
        rules,
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
        grace_seconds,
        takebacks: true,
        clock: None,
    }
}

/// A device as the app is one: a connection, the room's events it has,
/// and its own table that replays them through the rules.
pub(crate) struct Device {
    pub(crate) link: Link,
    pub(crate) inbox: VecDeque<ServerMessage>,
    pub(crate) room: Option<RoomCode>,
    /// The room's watch code, from a player's welcome.
    pub(crate) watch: Option<RoomCode>,
    pub(crate) token: Option<SeatToken>,
    pub(crate) seats: Vec<u8>,
    pub(crate) events: Vec<Event>,
    pub(crate) table: Option<Box<dyn Table>>,
    /// The game's clock as the server last told it.
    pub(crate) clock: Option<(u64, bool)>,
    /// A 中将棋 room's clocks as the server last told them: each seat's
    /// 持ち時間 left, the 秒読み left to the seat to move, whether it runs.
    pub(crate) clocks: Option<(Vec<u64>, u64, bool)>,
}

impl Device {
    pub(crate) fn connect(url: &str) -> Device {
        let mut link = Link::open(url).expect("a connection");
        let deadline = Instant::now() + WAIT;
        loop {
            if link.poll().contains(&LinkEvent::Opened) {
                break;
            }
            assert!(Instant::now() < deadline, "the connection did not open");
            std::thread::sleep(Duration::from_millis(5));
        }
        Device {
            link,
            inbox: VecDeque::new(),
            room: None,
            watch: None,
            token: None,
            seats: Vec::new(),
            events: Vec::new(),
            table: None,
            clock: None,
            clocks: None,
        }
    }

    /// The same device on a new connection (after a drop), keeping what it
    /// had: its token, its events and its table.
    pub(crate) fn reconnect(self, url: &str) -> Device {
        let fresh = Device::connect(url);
        Device {
            link: fresh.link,
            inbox: VecDeque::new(),
            ..self
        }
    }

    pub(crate) fn send(&mut self, message: ClientMessage) {
        self.link.send(&message);
    }

    /// Reads what arrived; events go onto the device's table, in order.
    pub(crate) fn pump(&mut self) {
        for event in self.link.poll() {
            match event {
                LinkEvent::Message(message) => {
                    self.take(&message);
                    self.inbox.push_back(message);
                }
                LinkEvent::Unreadable(why) => panic!("unreadable from the server: {why}"),
                LinkEvent::Opened | LinkEvent::Closed(_) => {}
            }
        }
    }

    pub(crate) fn take(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::Welcome {
                view,
                token,
                seats,
                watch,
                ..
            } => {
                self.room = Some(view.room.clone());
                self.watch = watch.clone();
                self.token = Some(token.clone());
                self.seats = seats.clone();
                if self.table.is_none() {
                    self.table = Some(open_table(view.game, &view.rules).unwrap());
                }
            }
            ServerMessage::Events { first, events } => {
                let have = self.events.len() as u64;
                assert!(*first <= have + 1, "a gap: have {have}, sent from {first}");
                // Events the device has already are skipped, never applied twice.
                let new = &events[(have + 1 - first) as usize..];
                let table = self.table.as_mut().expect("events after the welcome");
                replay_series(table, new).expect("the server's events are legal here too");
                self.events.extend_from_slice(new);
            }
            ServerMessage::Watching { view } => {
                self.room = Some(view.room.clone());
                self.seats.clear();
                if self.table.is_none() {
                    self.table = Some(open_table(view.game, &view.rules).unwrap());
                }
            }
            ServerMessage::Clock { played_ms, running } => {
                self.clock = Some((*played_ms, *running))
            }
            ServerMessage::Clocks {
                left_ms,
                byoyomi_ms,
                running,
            } => self.clocks = Some((left_ms.clone(), *byoyomi_ms, *running)),
            ServerMessage::Presence { .. }
            | ServerMessage::Refused { .. }
            | ServerMessage::Watchers { .. }
            | ServerMessage::ReviewAt { .. } => {}
        }
    }

    /// Waits for the first message `wanted` accepts, dropping the others.
    pub(crate) fn wait_for(
        &mut self,
        what: &str,
        wanted: impl Fn(&ServerMessage) -> bool,
    ) -> ServerMessage {
        let deadline = Instant::now() + WAIT;
        loop {
            self.pump();
            while let Some(message) = self.inbox.pop_front() {
                if wanted(&message) {
                    return message;
                }
            }
            assert!(Instant::now() < deadline, "no {what} came");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    pub(crate) fn refusal(&mut self) -> Refusal {
        match self.wait_for("refusal", |m| matches!(m, ServerMessage::Refused { .. })) {
            ServerMessage::Refused { refusal } => refusal,
            _ => unreachable!(),
        }
    }

    /// Waits until the server has said the game's clock runs (or stands).
    pub(crate) fn wait_clock(&mut self, running: bool) {
        let deadline = Instant::now() + WAIT;
        while self.clock.is_none_or(|(_, r)| r != running) {
            self.pump();
            self.inbox.clear();
            assert!(Instant::now() < deadline, "the clock never ran: {running}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Waits until the device has `count` events.
    pub(crate) fn wait_events(&mut self, count: usize) {
        let deadline = Instant::now() + WAIT;
        while self.events.len() < count {
            self.pump();
            self.inbox.clear();
            assert!(
                Instant::now() < deadline,
                "stuck at {} of {count} events",
                self.events.len()
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    pub(crate) fn table(&self) -> &dyn Table {
        self.table.as_deref().expect("a table")
    }

    pub(crate) fn to_move(&self) -> bool {
        self.table()
            .seat_to_move()
            .is_some_and(|s| self.seats.contains(&s))
    }

    /// A legal move of this device's, varied with the ply.
    pub(crate) fn pick(&self) -> String {
        let legal = self.table().legal_texts();
        legal[(self.table().ply() * 5 + 1) % legal.len()].clone()
    }

    pub(crate) fn play(&mut self, text: String) {
        let after = self.events.len() as u64;
        self.send(ClientMessage::Move { after, text });
    }

    pub(crate) fn resume(&mut self) {
        let message = ClientMessage::Resume {
            version: PROTOCOL_VERSION,
            room: self.room.clone().unwrap(),
            token: self.token.clone().unwrap(),
            have: self.events.len() as u64,
        };
        self.send(message);
        self.wait_for("welcome back", |m| {
            matches!(m, ServerMessage::Welcome { .. })
        });
    }
}

/// A room made by `host` and joined by `guest`, both with the start.
pub(crate) fn open_room(url: &str, game: GameId, grace_seconds: u32) -> (Device, Device) {
    let mut host = Device::connect(url);
    host.send(ClientMessage::Create {
        version: PROTOCOL_VERSION,
        plan: plan(game, grace_seconds),
    });
    host.wait_for("welcome", |m| matches!(m, ServerMessage::Welcome { .. }));
    assert_eq!(host.seats, vec![0]);
    let mut guest = Device::connect(url);
    guest.send(ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room: host.room.clone().unwrap(),
        name: name("まご"),
    });
    guest.wait_for("welcome", |m| matches!(m, ServerMessage::Welcome { .. }));
    assert_eq!(guest.seats, vec![1]);
    guest.wait_events(2);
    host.wait_events(2);
    assert_eq!(host.events[1], Event::Started);
    (host, guest)
}

/// Plays `plies` moves (or to the end), each device moving in turn and
/// both waiting for every move.
fn play_moves(host: &mut Device, guest: &mut Device, plies: usize) {
    for _ in 0..plies {
        if host.table().result().is_some() {
            return;
        }
        let count = host.events.len();
        let mover = if host.to_move() {
            &mut *host
        } else {
            &mut *guest
        };
        let text = mover.pick();
        mover.play(text);
        host.wait_events(count + 1);
        guest.wait_events(count + 1);
    }
}

#[test]
fn two_devices_play_hasami_shogi_to_the_end_through_a_room() {
    let db = database("whole-game");
    let server = serve(&db, 60);
    let (mut host, mut guest) = open_room(&server.url(), GameId::Hasami, 60);
    guest.send(ClientMessage::Stamp {
        seat: 1,
        stamp: Stamp::Hello,
    });
    host.wait_events(3);
    play_moves(&mut host, &mut guest, 3_000);
    let outcome = host.table().result().expect("the game ended");
    host.wait_events(host.events.len());
    guest.wait_events(host.events.len());
    assert_eq!(host.events, guest.events, "both devices saw the same game");
    assert!(
        matches!(host.events.last(), Some(Event::Ended { winner, reason })
            if *reason == outcome.reason && *winner == outcome.winner),
        "{:?}",
        host.events.last()
    );
    assert_eq!(guest.table().result(), Some(outcome));
    assert!(host.table().ply() > 10);
}

#[test]
fn the_server_refuses_every_bad_message_with_a_reason_and_changes_nothing() {
    let db = database("refusals");
    let server = serve(&db, 60);
    let url = server.url();
    let (mut host, mut guest) = open_room(&url, GameId::Hasami, 60);
    let events = host.events.len();

    // Not a message, too long, another version.
    guest.link.send_text("Move(after: ".to_string());
    assert!(matches!(guest.refusal(), Refusal::Malformed(_)));
    guest.link.send_text(format!(
        "Move(after: 2, text: \"{}\")",
        "x".repeat(MAX_MESSAGE_BYTES)
    ));
    assert_eq!(guest.refusal(), Refusal::TooLong);
    let mut stranger = Device::connect(&url);
    stranger.send(ClientMessage::Join {
        version: PROTOCOL_VERSION + 1,
        room: host.room.clone().unwrap(),
        name: name("x"),
    });
    assert_eq!(
        stranger.refusal(),
        Refusal::Version {
            server: PROTOCOL_VERSION
        }
    );
    // A move before being in a room; a room that does not exist; a full
    // room; a token that holds nothing.
    stranger.send(ClientMessage::Move {
        after: 2,
        text: "9七→9五".to_string(),
    });
    assert_eq!(stranger.refusal(), Refusal::NotInRoom);
    stranger.send(ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room: RoomCode::parse("0000-0000").unwrap(),
        name: name("x"),
    });
    assert_eq!(stranger.refusal(), Refusal::NoSuchRoom);
    stranger.send(ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room: host.room.clone().unwrap(),
        name: name("x"),
    });
    assert_eq!(stranger.refusal(), Refusal::RoomFull);
    stranger.send(ClientMessage::Resume {
        version: PROTOCOL_VERSION,
        room: host.room.clone().unwrap(),
        token: SeatToken::from_bits(42),
        have: 0,
    });
    assert_eq!(stranger.refusal(), Refusal::BadToken);
    // Already in a room.
    guest.send(ClientMessage::Create {
        version: PROTOCOL_VERSION,
        plan: plan(GameId::Hasami, 60),
    });
    assert_eq!(guest.refusal(), Refusal::AlreadyInRoom);
    // A plan that cannot be played.
    let mut bad = plan(GameId::Hasami, 60);
    bad.rules = "(".to_string();
    stranger.send(ClientMessage::Create {
        version: PROTOCOL_VERSION,
        plan: bad,
    });
    assert!(matches!(stranger.refusal(), Refusal::BadPlan(_)));
    // Not the guest's turn; a seat it does not hold; an illegal move; a
    // move made on a state the server is past.
    let first = host.pick();
    guest.play(first.clone());
    assert_eq!(guest.refusal(), Refusal::NotYourSeat);
    guest.send(ClientMessage::Resign { seat: 0 });
    assert_eq!(guest.refusal(), Refusal::NotYourSeat);
    host.play("9九→1一".to_string());
    assert_eq!(host.refusal(), Refusal::Illegal("9九→1一".into()));
    host.send(ClientMessage::Move {
        after: 1,
        text: first.clone(),
    });
    assert_eq!(
        host.refusal(),
        Refusal::OutOfStep {
            events: events as u64
        }
    );
    // Nothing changed: the same move is still the first.
    host.play(first.clone());
    host.wait_events(events + 1);
    guest.wait_events(events + 1);
    // The same message again is refused, not applied twice.
    host.send(ClientMessage::Move {
        after: events as u64,
        text: first,
    });
    assert_eq!(
        host.refusal(),
        Refusal::OutOfStep {
            events: events as u64 + 1
        }
    );
    assert_eq!(host.events.len(), events + 1);
    assert_eq!(guest.table().ply(), 1);
}

#[test]
fn joins_from_one_address_are_limited() {
    let db = database("limit");
    let server = serve(&db, 3);
    let mut device = Device::connect(&server.url());
    for _ in 0..3 {
        device.send(ClientMessage::Join {
            version: PROTOCOL_VERSION,
            room: RoomCode::parse("1111-1111").unwrap(),
            name: name("x"),
        });
        assert_eq!(device.refusal(), Refusal::NoSuchRoom);
    }
    device.send(ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room: RoomCode::parse("1111-1111").unwrap(),
        name: name("x"),
    });
    assert_eq!(device.refusal(), Refusal::TooManyTries);
}

#[test]
fn a_device_dropped_at_any_phase_of_a_move_rejoins_with_nothing_lost_or_doubled() {
    let db = database("drops");
    let server = serve(&db, 600);
    let url = server.url();
    let (mut host, mut guest) = open_room(&url, GameId::Hasami, 60);
    play_moves(&mut host, &mut guest, 4);

    // 1. Dropped before sending: the mover comes back and moves.
    let mover_is_host = host.to_move();
    let (mut mover, mut other) = if mover_is_host {
        (host, guest)
    } else {
        (guest, host)
    };
    mover.link.close();
    other.wait_for("away", |m| {
        matches!(m, ServerMessage::Presence { online: false, .. })
    });
    mover = mover.reconnect(&url);
    mover.resume();
    other.wait_for("back", |m| {
        matches!(m, ServerMessage::Presence { online: true, .. })
    });
    let count = mover.events.len();
    let text = mover.pick();
    mover.play(text);
    mover.wait_events(count + 1);
    other.wait_events(count + 1);

    // 2. Dropped after the server applied the move, before the mover saw
    // it: it comes back, is sent its own move, and a resend is refused.
    std::mem::swap(&mut mover, &mut other);
    let count = mover.events.len();
    let text = mover.pick();
    mover.play(text.clone());
    other.wait_events(count + 1);
    mover.link.close();
    mover.events.truncate(count);
    mover.table = None;
    // Rebuild the mover's table from what it had (as a save would).
    let mut mover = mover.reconnect(&url);
    mover.table = Some(
        open_table(
            GameId::Hasami,
            &ron::to_string(&HasamiRules::STANDARD).unwrap(),
        )
        .unwrap(),
    );
    let had = std::mem::take(&mut mover.events);
    replay(mover.table.as_mut().unwrap().as_mut(), &had).unwrap();
    mover.events = had;
    mover.resume();
    mover.wait_events(count + 1);
    mover.send(ClientMessage::Move {
        after: count as u64,
        text,
    });
    assert_eq!(
        mover.refusal(),
        Refusal::OutOfStep {
            events: count as u64 + 1
        }
    );

    // 3. The other side dropped before it drew the move: it comes back and
    // is sent what it missed.
    let (mut mover, mut other) = (other, mover);
    assert!(mover.to_move());
    other.link.close();
    let count = mover.events.len();
    let text = mover.pick();
    mover.play(text);
    mover.wait_events(count + 1);
    let mut other = other.reconnect(&url);
    other.resume();
    other.wait_events(count + 1);
    assert_eq!(other.events, mover.events);
    assert_eq!(other.table().ply(), mover.table().ply());

    // The game goes on to its end from there.
    let (mut host, mut guest) = if mover.seats == vec![0] {
        (mover, other)
    } else {
        (other, mover)
    };
    play_moves(&mut host, &mut guest, 3_000);
    assert!(host.table().result().is_some());
    guest.wait_events(host.events.len());
    assert_eq!(host.events, guest.events);
    let moves = host
        .events
        .iter()
        .filter(|e| matches!(e, Event::Moved { .. }))
        .count();
    assert_eq!(moves, host.table().ply(), "every move applied exactly once");
}

#[test]
fn a_server_restarted_mid_game_resumes_from_its_database() {
    let db = database("restart");
    let server = serve(&db, 60);
    let (mut host, mut guest) = open_room(&server.url(), GameId::Hasami, 60);
    play_moves(&mut host, &mut guest, 6);
    let before = host.events.clone();
    server.stop();
    let server = serve(&db, 60);
    let url = server.url();
    let mut host = host.reconnect(&url);
    let mut guest = guest.reconnect(&url);
    host.resume();
    guest.resume();
    assert_eq!(host.events, before);
    play_moves(&mut host, &mut guest, 6);
    assert_eq!(host.table().ply(), 12);
    guest.wait_events(host.events.len());
    assert_eq!(host.events, guest.events);
    // The watch code is kept too.
    let mut watcher = Device::connect(&url);
    watcher.send(ClientMessage::Watch {
        version: PROTOCOL_VERSION,
        room: host.watch.clone().unwrap(),
    });
    watcher.wait_events(host.events.len());
    assert_eq!(watcher.events, host.events);
    // A device that lost everything is sent the whole game.
    let mut fresh = Device::connect(&url);
    fresh.room = guest.room.clone();
    fresh.token = guest.token.clone();
    fresh.resume();
    fresh.wait_events(host.events.len());
    assert_eq!(fresh.events, host.events);
}

#[test]
fn in_chu_shogi_a_player_not_back_within_the_grace_period_loses() {
    let db = database("grace");
    let server = serve(&db, 60);
    let (mut host, mut guest) = open_room(&server.url(), GameId::ChuShogi, 1);
    // The server keeps the game's clock and says so; it runs while both
    // are here and stands while one is away.
    host.wait_clock(true);
    play_moves(&mut host, &mut guest, 2);
    guest.link.close();
    let away = host.wait_for("away", |m| {
        matches!(m, ServerMessage::Presence { online: false, .. })
    });
    assert_eq!(
        away,
        ServerMessage::Presence {
            seat: 1,
            online: false,
            seconds_left: Some(1)
        }
    ); // The clock stands while the guest is away (it is sent before the
    // presence).
    assert!(matches!(host.clock, Some((_, false))), "{:?}", host.clock);

    let count = host.events.len();
    host.wait_events(count + 1);
    assert_eq!(
        host.events.last(),
        Some(&Event::Ended {
            winner: Some(0),
            reason: EndReason::Disconnected
        })
    );
    assert_eq!(
        host.table().result().map(|o| o.reason),
        Some(EndReason::Disconnected)
    );
    // Coming back after the end: the game is over for that device too.
    let mut guest = guest.reconnect(&server.url());
    guest.resume();
    guest.wait_events(count + 1);
    assert_eq!(
        guest.table().result().map(|o| o.reason),
        Some(EndReason::Disconnected)
    );
}

/// `yorimichi bench-rooms` with its own server child: its report's lines,
/// and its temporary database gone afterwards.
fn bench_rooms(args: &[&str]) -> (std::process::Output, PathBuf) {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_yorimichi"))
        .arg("bench-rooms")
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let db = std::env::temp_dir().join(format!("yorimichi-bench-rooms-{}.sqlite3", child.id()));
    let out = child.wait_with_output().expect("the command ends");
    (out, db)
}

#[test]
fn bench_rooms_plays_every_move_and_reports_its_figures() {
    let (out, db) = bench_rooms(&["--rooms", "2", "--moves", "10", "--timeout", "120"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = said.lines().collect();
    let starts = [
        "rooms: 2 (2 at once, 4 devices, read timeout 10 ms, think 0 ms",
        "moves: 20 (10 a room",
        "latency: p50 ",
        "server: peak memory ",
        "devices (this process): peak memory ",
        "wall: ",
    ];
    assert_eq!(lines.len(), starts.len(), "{said}");
    for (line, start) in lines.iter().zip(starts) {
        assert!(line.starts_with(start), "{line}");
    }
    assert!(
        lines[2].ends_with(" ms") && lines[2].contains(" p99 "),
        "{}",
        lines[2]
    );
    assert!(lines[3].contains(" MiB (VmHWM), CPU "), "{}", lines[3]);
    assert!(!db.exists(), "the temporary database is removed");
}

#[test]
fn bench_rooms_times_each_move_to_every_watcher_too() {
    let (out, db) = bench_rooms(&[
        "--rooms",
        "2",
        "--moves",
        "10",
        "--watchers",
        "2",
        "--timeout",
        "120",
    ]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.starts_with("rooms: 2 (2 at once, 8 devices, ")
            && said.contains(", 2 watchers a room)"),
        "{said}"
    );
    // Every move of every room reaches both of its watchers.
    assert!(said.contains("\nto watchers: 40 arrivals, p50 "), "{said}");
    assert!(!db.exists(), "the temporary database is removed");
}

#[test]
fn bench_rooms_gives_up_after_its_timeout_and_cleans_up() {
    let (out, db) = bench_rooms(&[
        "--rooms",
        "2",
        "--moves",
        "1000",
        "--think-ms",
        "1000",
        "--timeout",
        "1",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("gave up after 1 s"), "{err}");
    assert!(out.stdout.is_empty());
    assert!(!db.exists(), "the temporary database is removed");
}

/// まわり将棋 from three devices' worth of seats: the host's device holds
/// two people (seats 0 and 3), a guest far away one (seat 1), and the
/// server throws for the computer (seat 2). Every throw the people send
/// is a gesture; the race is played to its end and both devices saw the
/// same throws.
#[test]
fn four_play_mawari_shogi_through_a_room_two_at_the_host_one_far_away_and_the_computer() {
    let db = database("mawari");
    let server = serve(&db, 60);
    let url = server.url();
    let rules = MawariTableRules {
        players: 4,
        rules: MawariRules::ALL,
        draw_order: true,
        places: false,
        colours: vec![0, 1, 2, 3],
        start: None,
        first: 0,
    };
    let kinds = [
        SeatKind::Host,
        SeatKind::Remote,
        SeatKind::Cpu(Strength::Normal),
        SeatKind::Host,
    ];
    let plan = RoomPlan {
        game: GameId::Mawari,
        rules: ron::to_string(&rules).unwrap(),
        seats: kinds
            .iter()
            .zip(["ちち", "まご", "CPU(緑)", "はは"])
            .map(|(&kind, n)| SeatPlan {
                kind,
                name: name(n),
            })
            .collect(),
        draw_seats: false,
        grace_seconds: 60,
        takebacks: false,
        clock: None,
    };
    let mut host = Device::connect(&url);
    host.send(ClientMessage::Create {
        version: PROTOCOL_VERSION,
        plan,
    });
    host.wait_for("welcome", |m| matches!(m, ServerMessage::Welcome { .. }));
    assert_eq!(host.seats, vec![0, 3]);
    let mut guest = Device::connect(&url);
    guest.send(ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room: host.room.clone().unwrap(),
        name: name("たろう"),
    });
    guest.wait_for("welcome", |m| matches!(m, ServerMessage::Welcome { .. }));
    assert_eq!(guest.seats, vec![1]);
    host.wait_events(2);

    let mut sent = 0;
    loop {
        let count = host.events.len();
        guest.wait_events(count);
        if host.table().result().is_some() {
            break;
        }
        let mover = if host.to_move() {
            &mut host
        } else if guest.to_move() {
            &mut guest
        } else {
            // The computer's throw is the server's.
            host.wait_events(count + 1);
            continue;
        };
        let hand = hand_text(f64::from(sent % 7) - 3.0, 1.0, f64::from(15 + sent % 50));
        mover.play(hand);
        host.wait_events(count + 1);
        sent += 1;
        assert!(sent < 5_000, "the race did not end");
    }
    guest.wait_events(host.events.len());
    assert_eq!(host.events, guest.events, "both devices saw the same race");
    let result = host.table().result().unwrap();
    assert_eq!(result.reason, EndReason::RaceWon);
    assert_eq!(guest.table().result(), Some(result));
    assert!(matches!(
        host.events.last(),
        Some(Event::Ended {
            reason: EndReason::RaceWon,
            ..
        })
    ));
    for seat in 0..4u8 {
        assert!(
            host.events
                .iter()
                .any(|e| matches!(e, Event::Moved { seat: s, .. } if *s == seat)),
            "seat {seat} never threw"
        );
    }
    // A throw sent after the end changes nothing.
    host.play(hand_text(0.0, 1.0, 30.0));
    assert_eq!(host.refusal(), Refusal::Finished);
    server.stop();
}

/// The desktop reaches a room server behind TLS (`wss://`, as hosting
/// puts it): the link makes a TLS handshake. Against this plain server the
/// handshake fails, as a handshake, and not for want of TLS in the build.
#[test]
fn a_desktop_link_speaks_tls_to_wss_addresses() {
    let db = database("tls");
    let server = serve(&db, 60);
    let url = server.url().replace("ws://", "wss://");
    let mut link = Link::open(&url).expect("a link is made");
    let deadline = Instant::now() + WAIT;
    let why = loop {
        if let Some(why) = link.poll().into_iter().find_map(|e| match e {
            LinkEvent::Closed(why) => Some(why.unwrap_or_default()),
            _ => None,
        }) {
            break why;
        }
        assert!(
            Instant::now() < deadline,
            "the TLS link neither opened nor closed"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    eprintln!("wss:// to a plain server: {why}");
    assert!(!why.is_empty());
    assert!(!why.to_lowercase().contains("not compiled"), "{why}");
    assert!(!why.to_lowercase().contains("tls support"), "{why}");
    server.stop();
}

/// Waits until `device` has been welcomed to the series' game `number`.
fn wait_new_game(device: &mut Device, number: usize) {
    let deadline = Instant::now() + WAIT;
    while yorimichi::net::room::game_number(&device.events) < number {
        device.pump();
        device.inbox.clear();
        assert!(Instant::now() < deadline, "no new game");
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn after_a_game_both_devices_agree_and_play_the_next_with_sides_swapped_even_across_a_restart() {
    let db = database("rematch");
    let server = serve(&db, 60);
    let (mut host, mut guest) = open_room(&server.url(), GameId::Hasami, 60);
    play_moves(&mut host, &mut guest, 4);
    host.send(ClientMessage::Resign { seat: 0 });
    // 投了, then the end.
    let ended = host.events.len() + 2;
    host.wait_events(ended);
    guest.wait_events(ended);
    guest.send(ClientMessage::Rematch { next: None });
    host.wait_events(ended + 1);
    assert!(
        matches!(host.events.last(), Some(Event::Rematch { seats, next: None }) if *seats == vec![1])
    );
    host.send(ClientMessage::Rematch { next: None });
    for device in [&mut host, &mut guest] {
        wait_new_game(device, 1);
        // Welcomed again to the new seats before the new game's events.
        assert_eq!(device.table().ply(), 0);
        assert_eq!(device.table().result(), None);
    }
    assert_eq!(host.seats, vec![1]);
    assert_eq!(guest.seats, vec![0]);
    assert!(guest.to_move(), "the guest moves first now");
    play_moves(&mut host, &mut guest, 3);
    assert_eq!(host.events, guest.events);
    // A restart keeps the series: the same seats, the same game.
    let before = host.events.clone();
    server.stop();
    let server = serve(&db, 60);
    let url = server.url();
    let mut host = host.reconnect(&url);
    let mut guest = guest.reconnect(&url);
    host.resume();
    guest.resume();
    assert_eq!(host.events, before);
    assert_eq!(
        (host.seats.clone(), guest.seats.clone()),
        (vec![1], vec![0])
    );
    play_moves(&mut host, &mut guest, 2);
    assert_eq!(host.table().ply(), 5);
    // Offers before the end are refused.
    host.send(ClientMessage::Rematch { next: None });
    assert_eq!(host.refusal(), Refusal::NotOver);
    let score = yorimichi::net::room::series(&host.events, 2);
    assert_eq!(score.wins, vec![0, 1]);
}

#[test]
fn a_takeback_accepted_goes_back_on_both_devices_and_one_declined_changes_nothing() {
    let db = database("takeback");
    let server = serve(&db, 60);
    let url = server.url();
    let mut host = Device::connect(&url);
    host.send(ClientMessage::Create {
        version: PROTOCOL_VERSION,
        plan: plan_with(GameId::Hasami, 60),
    });
    host.wait_for("welcome", |m| matches!(m, ServerMessage::Welcome { .. }));
    let mut guest = Device::connect(&url);
    guest.send(ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room: host.room.clone().unwrap(),
        name: name("まご"),
    });
    guest.wait_events(2);
    host.wait_events(2);
    play_moves(&mut host, &mut guest, 2);
    // The host asks; the guest answers yes: the host's move and the reply go.
    host.send(ClientMessage::Takeback { seat: 0 });
    guest.wait_events(5);
    assert_eq!(guest.events[4], Event::TakebackAsked { seat: 0 });
    guest.send(ClientMessage::TakebackAnswer {
        seat: 1,
        accept: true,
    });
    host.wait_events(6);
    guest.wait_events(6);
    assert_eq!(host.events[5], Event::TakenBack { seat: 1, plies: 2 });
    assert_eq!((host.table().ply(), guest.table().ply()), (0, 0));
    // Asked again, declined: the board stays.
    play_moves(&mut host, &mut guest, 1);
    host.send(ClientMessage::Takeback { seat: 0 });
    guest.wait_events(8);
    guest.send(ClientMessage::TakebackAnswer {
        seat: 1,
        accept: false,
    });
    host.wait_events(9);
    assert!(matches!(
        host.events[8],
        Event::TakebackDeclined {
            seat: 1,
            timed_out: false
        }
    ));
    assert_eq!(host.table().ply(), 1);
    // Nothing waits now: an answer is refused.
    guest.send(ClientMessage::TakebackAnswer {
        seat: 1,
        accept: true,
    });
    assert_eq!(guest.refusal(), Refusal::NoTakebackAsked);
}

#[test]
fn a_watcher_gets_the_whole_game_then_each_move_and_may_only_send_stamps() {
    let db = database("watch");
    let server = serve(&db, 60);
    let url = server.url();
    let (mut host, mut guest) = open_room(&url, GameId::Hasami, 60);
    play_moves(&mut host, &mut guest, 4);
    // The room has a second code for watchers: it is not the players'
    // code, the players' code does not open the room to watch, and the
    // watch code takes no seat.
    let (room, watch) = (host.room.clone().unwrap(), host.watch.clone().unwrap());
    assert_ne!(room, watch);
    assert_eq!(
        guest.watch.as_ref(),
        Some(&watch),
        "every player is told it"
    );
    let mut wrong = Device::connect(&url);
    wrong.send(ClientMessage::Watch {
        version: PROTOCOL_VERSION,
        room: room.clone(),
    });
    assert_eq!(wrong.refusal(), Refusal::NoSuchRoom);
    let mut seat_taker = Device::connect(&url);
    seat_taker.send(ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room: watch.clone(),
        name: SeatName::new("みる").unwrap(),
    });
    assert_eq!(seat_taker.refusal(), Refusal::NoSuchRoom);
    let mut watcher = Device::connect(&url);
    watcher.send(ClientMessage::Watch {
        version: PROTOCOL_VERSION,
        room: watch.clone(),
    });
    watcher.wait_for("watching", |m| matches!(m, ServerMessage::Watching { .. }));
    watcher.wait_events(host.events.len());
    assert_eq!(watcher.events, host.events, "the whole game so far");
    assert!(watcher.seats.is_empty());
    // The watcher's room is named by the watch code: it never learns the
    // players' code.
    assert_eq!(watcher.room.as_ref(), Some(&watch));
    host.wait_for("the count", |m| {
        matches!(m, ServerMessage::Watchers { count: 1 })
    });
    // No seat, no move, no 投了: only a watcher's stamps.
    let text = host.pick();
    watcher.play(text);
    assert_eq!(watcher.refusal(), Refusal::Watching);
    watcher.send(ClientMessage::Resign { seat: 0 });
    assert_eq!(watcher.refusal(), Refusal::Watching);
    watcher.send(ClientMessage::Stamp {
        seat: 0,
        stamp: Stamp::Hello,
    });
    assert_eq!(watcher.refusal(), Refusal::Watching);
    watcher.send(ClientMessage::Cheer {
        stamp: Stamp::Thanks,
    });
    let count = host.events.len() + 1;
    host.wait_events(count);
    assert_eq!(
        host.events.last(),
        Some(&Event::Cheered {
            stamp: Stamp::Thanks
        })
    );
    // Moves reach the watcher as they come.
    play_moves(&mut host, &mut guest, 2);
    watcher.wait_events(host.events.len());
    assert_eq!(watcher.events, host.events);
    assert_eq!(watcher.table().ply(), host.table().ply());
    // A player's stamp is a seat's, never a watcher's.
    host.send(ClientMessage::Cheer {
        stamp: Stamp::Hello,
    });
    assert_eq!(host.refusal(), Refusal::NotYourSeat);
    watcher.link.close();
    host.wait_for("the count", |m| {
        matches!(m, ServerMessage::Watchers { count: 0 })
    });
}

/// `yorimichi serve --lan` as a home starts it: on every network, the web
/// build served, the page's address on the home network printed and told
/// to every player for its room's join link (here the address is given,
/// 127.0.0.1, so that the page can be fetched from this machine).
#[test]
fn a_home_server_serves_the_page_on_every_network_and_tells_players_its_address() {
    use std::io::{BufRead, BufReader, Read, Write};
    let web = std::env::temp_dir().join(format!("yorimichi-lan-web-{}", std::process::id()));
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), "<title>yorimichi at home</title>").unwrap();
    let db = database("lan");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_yorimichi"))
        .args(["serve", "--lan", "--lan-address", "127.0.0.1"])
        .args(["--listen", "127.0.0.1:0", "--print-address"])
        .arg("--db")
        .arg(&db)
        .arg("--web")
        .arg(&web)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut address = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut address)
        .unwrap();
    // On every network: the printed address is the unspecified one.
    let port = address
        .trim()
        .strip_prefix("ws://0.0.0.0:")
        .and_then(|rest| rest.strip_suffix("/ws"))
        .unwrap_or_else(|| panic!("{address}"))
        .to_string();
    let page = format!("http://127.0.0.1:{port}/");
    let mut said = String::new();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    while !said.contains("open ") {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap() == 0 {
            break;
        }
        said.push_str(&line);
    }
    assert!(
        said.contains(&format!(
            "on the other devices of this home network open {page}"
        )),
        "{said}"
    );
    // The page itself, from the announced address.
    let mut http = std::net::TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    write!(
        http,
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    http.read_to_string(&mut response).unwrap();
    assert!(
        response.starts_with("HTTP/1.1 200") && response.contains("yorimichi at home"),
        "{response}"
    );
    // A player is told the page; a watcher is not (it invites no one).
    let url = format!("ws://127.0.0.1:{port}/ws");
    let mut host = Device::connect(&url);
    host.send(ClientMessage::Create {
        version: PROTOCOL_VERSION,
        plan: plan(GameId::Hasami, 60),
    });
    let welcome = host.wait_for("welcome", |m| matches!(m, ServerMessage::Welcome { .. }));
    assert!(
        matches!(&welcome, ServerMessage::Welcome { page: Some(p), .. } if *p == page),
        "{welcome:?}"
    );
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&web);
}

#[test]
fn a_server_not_asked_for_the_home_network_tells_no_page() {
    let db = database("no-lan");
    let server = serve(&db, 60);
    let mut host = Device::connect(&server.url());
    host.send(ClientMessage::Create {
        version: PROTOCOL_VERSION,
        plan: plan(GameId::Hasami, 60),
    });
    let welcome = host.wait_for("welcome", |m| matches!(m, ServerMessage::Welcome { .. }));
    assert!(
        matches!(welcome, ServerMessage::Welcome { page: None, .. }),
        "{welcome:?}"
    );
}

#[test]
fn a_home_server_without_a_web_build_or_asked_wrongly_says_why() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_yorimichi"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the binary runs")
    };
    let missing = std::env::temp_dir().join(format!("yorimichi-no-web-{}", std::process::id()));
    let out = run(&["serve", "--lan", "--web", missing.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        said.contains("has no index.html") && said.contains("make web-build"),
        "{said}"
    );
    let out = run(&["serve", "--lan-address", "192.168.1.23"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(said.contains("--lan"), "{said}");
}

/// After the end, a player's review leads the room's: every other device
/// hears the position it shows, a watcher who comes in later too; before
/// the end, or from a watcher, a lead is refused.
#[test]
fn a_review_led_by_one_player_reaches_the_other_and_the_watchers() {
    let db = database("review");
    let server = serve(&db, 60);
    let url = server.url();
    let (mut host, mut guest) = open_room(&url, GameId::Hasami, 60);
    play_moves(&mut host, &mut guest, 4);
    host.send(ClientMessage::ReviewAt { ply: 2 });
    assert_eq!(host.refusal(), Refusal::NotOver);
    let mut watcher = Device::connect(&url);
    watcher.send(ClientMessage::Watch {
        version: PROTOCOL_VERSION,
        room: host.watch.clone().unwrap(),
    });
    watcher.wait_for("watching", |m| matches!(m, ServerMessage::Watching { .. }));
    guest.send(ClientMessage::Resign { seat: 1 });
    let ended = host.events.len() + 1;
    for device in [&mut host, &mut guest, &mut watcher] {
        device.wait_events(ended);
    }
    host.send(ClientMessage::ReviewAt { ply: 2 });
    for device in [&mut guest, &mut watcher] {
        device.wait_for("the host's lead", |m| {
            matches!(m, ServerMessage::ReviewAt { seat: 0, ply: 2 })
        });
    }
    // The other player takes the lead; the host follows it.
    guest.send(ClientMessage::ReviewAt { ply: 3 });
    host.wait_for("the guest's lead", |m| {
        matches!(m, ServerMessage::ReviewAt { seat: 1, ply: 3 })
    });
    watcher.wait_for("the guest's lead", |m| {
        matches!(m, ServerMessage::ReviewAt { seat: 1, ply: 3 })
    });
    // A watcher follows and never leads.
    watcher.send(ClientMessage::ReviewAt { ply: 1 });
    assert_eq!(watcher.refusal(), Refusal::Watching);
    // A watcher who comes in now is told where the review stands.
    let mut late = Device::connect(&url);
    late.send(ClientMessage::Watch {
        version: PROTOCOL_VERSION,
        room: host.watch.clone().unwrap(),
    });
    late.wait_for("the review so far", |m| {
        matches!(m, ServerMessage::ReviewAt { seat: 1, ply: 3 })
    });
    // The leading device is not told its own lead back.
    host.send(ClientMessage::Stamp {
        seat: 0,
        stamp: Stamp::Thanks,
    });
    let stamped = host.events.len() + 1;
    host.wait_events(stamped);
    host.pump();
    assert!(
        !host
            .inbox
            .iter()
            .any(|m| matches!(m, ServerMessage::ReviewAt { seat: 0, .. })),
        "{:?}",
        host.inbox
    );
}
