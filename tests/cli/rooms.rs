//! The room server over loopback: a real server (`--features server`) and
//! devices that connect as the app does, in one process. Games played to
//! their end, every refusal, devices dropped at each phase of a move, a
//! server restarted mid-game, and 中将棋's 通信切れ.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use yorimichi::net::link::{Link, LinkEvent};
use yorimichi::net::protocol::{
    ClientMessage, Event, MAX_MESSAGE_BYTES, MAX_QUOTE_BYTES, MAX_RULES_BYTES, PROTOCOL_VERSION,
    Refusal, RoomCode, RoomPlan, STAMP_BURST, STAMP_INTERVAL_MS, SeatKind, SeatName, SeatPlan,
    SeatToken, ServerMessage, Stamp,
};
use yorimichi::net::room::replay;
use yorimichi::net::table::{MawariTableRules, Table, hand_text, open_table};
use yorimichi::rules::chu::game::ChuRules;
use yorimichi::rules::data::{GameId, Strength};
use yorimichi::rules::game::EndReason;
use yorimichi::rules::hasami::HasamiRules;
use yorimichi::rules::mawari::race::MawariRules;
use yorimichi::server::{Running, ServeOptions, start};

const WAIT: Duration = Duration::from_secs(20);

/// A fresh database file for one test.
fn database(test: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("yorimichi-{}-{test}.sqlite3", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    path
}

fn serve(db: &Path, joins_per_minute: u32) -> Running {
    start(ServeOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        db: db.to_path_buf(),
        web: None,
        joins_per_minute,
        print_address: false,
    })
    .expect("the server starts")
}

fn name(text: &str) -> SeatName {
    SeatName::new(text).unwrap()
}

fn plan(game: GameId, grace_seconds: u32) -> RoomPlan {
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
    }
}

/// A device as the app is one: a connection, the room's events it has,
/// and its own table that replays them through the rules.
struct Device {
    link: Link,
    inbox: VecDeque<ServerMessage>,
    room: Option<RoomCode>,
    token: Option<SeatToken>,
    seats: Vec<u8>,
    events: Vec<Event>,
    table: Option<Box<dyn Table>>,
    /// The game's clock as the server last told it.
    clock: Option<(u64, bool)>,
}

impl Device {
    fn connect(url: &str) -> Device {
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
            token: None,
            seats: Vec::new(),
            events: Vec::new(),
            table: None,
            clock: None,
        }
    }

    /// The same device on a new connection (after a drop), keeping what it
    /// had: its token, its events and its table.
    fn reconnect(self, url: &str) -> Device {
        let fresh = Device::connect(url);
        Device {
            link: fresh.link,
            inbox: VecDeque::new(),
            ..self
        }
    }

    fn send(&mut self, message: ClientMessage) {
        self.link.send(&message);
    }

    /// Reads what arrived; events go onto the device's table, in order.
    fn pump(&mut self) {
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

    fn take(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::Welcome { view, token, seats } => {
                self.room = Some(view.room.clone());
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
                replay(table.as_mut(), new).expect("the server's events are legal here too");
                self.events.extend_from_slice(new);
            }
            ServerMessage::Clock { played_ms, running } => {
                self.clock = Some((*played_ms, *running))
            }
            ServerMessage::Presence { .. } | ServerMessage::Refused { .. } => {}
        }
    }

    /// Waits for the first message `wanted` accepts, dropping the others.
    fn wait_for(&mut self, what: &str, wanted: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
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

    fn refusal(&mut self) -> Refusal {
        match self.wait_for("refusal", |m| matches!(m, ServerMessage::Refused { .. })) {
            ServerMessage::Refused { refusal } => refusal,
            _ => unreachable!(),
        }
    }

    /// Waits until the server has said the game's clock runs (or stands).
    fn wait_clock(&mut self, running: bool) {
        let deadline = Instant::now() + WAIT;
        while self.clock.is_none_or(|(_, r)| r != running) {
            self.pump();
            self.inbox.clear();
            assert!(Instant::now() < deadline, "the clock never ran: {running}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Waits until the device has `count` events.
    fn wait_events(&mut self, count: usize) {
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

    fn table(&self) -> &dyn Table {
        self.table.as_deref().expect("a table")
    }

    fn to_move(&self) -> bool {
        self.table()
            .seat_to_move()
            .is_some_and(|s| self.seats.contains(&s))
    }

    /// A legal move of this device's, varied with the ply.
    fn pick(&self) -> String {
        let legal = self.table().legal_texts();
        legal[(self.table().ply() * 5 + 1) % legal.len()].clone()
    }

    fn play(&mut self, text: String) {
        let after = self.events.len() as u64;
        self.send(ClientMessage::Move { after, text });
    }

    fn resume(&mut self) {
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
fn open_room(url: &str, game: GameId, grace_seconds: u32) -> (Device, Device) {
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

/// A device of another make: it keeps every message exactly as the server
/// sent it (the text, whatever its length) and skips nothing, so a repeat
/// or a gap the app's own devices would smooth over shows here.
struct RawDevice {
    sender: ewebsock::WsSender,
    receiver: ewebsock::WsReceiver,
    texts: Vec<String>,
}

impl RawDevice {
    fn connect(url: &str) -> RawDevice {
        let (sender, receiver) =
            ewebsock::connect(url, ewebsock::Options::default()).expect("a connection");
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(ewebsock::WsEvent::Opened) = receiver.try_recv() {
                break;
            }
            assert!(Instant::now() < deadline, "the connection did not open");
            std::thread::sleep(Duration::from_millis(5));
        }
        RawDevice {
            sender,
            receiver,
            texts: Vec::new(),
        }
    }

    fn send(&mut self, message: &ClientMessage) {
        self.send_text(ron::to_string(message).unwrap());
    }

    fn send_text(&mut self, text: String) {
        self.sender.send(ewebsock::WsMessage::Text(text));
    }

    /// Every message so far, read without the protocol's length check.
    fn messages(&self) -> Vec<ServerMessage> {
        self.texts
            .iter()
            .map(|t| ron::from_str(t).expect("a server message"))
            .collect()
    }

    /// Keeps what arrived.
    fn pump(&mut self) {
        while let Some(event) = self.receiver.try_recv() {
            match event {
                ewebsock::WsEvent::Message(ewebsock::WsMessage::Text(text)) => {
                    self.texts.push(text)
                }
                ewebsock::WsEvent::Error(why) => panic!("the connection failed: {why}"),
                ewebsock::WsEvent::Closed => panic!("the connection closed"),
                _ => {}
            }
        }
    }

    /// Reads until `done` holds for the messages so far.
    fn wait_until(&mut self, what: &str, done: impl Fn(&[ServerMessage]) -> bool) {
        let deadline = Instant::now() + WAIT;
        loop {
            self.pump();
            if done(&self.messages()) {
                return;
            }
            assert!(Instant::now() < deadline, "no {what} came");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The events as they came, each with the number the server gave it.
    fn numbered_events(&self) -> Vec<(u64, Event)> {
        self.messages()
            .into_iter()
            .filter_map(|m| match m {
                ServerMessage::Events { first, events } => Some(
                    events
                        .into_iter()
                        .enumerate()
                        .map(move |(i, e)| (first + i as u64, e)),
                ),
                _ => None,
            })
            .flatten()
            .collect()
    }

    fn has_event(&self, wanted: &Event) -> bool {
        self.numbered_events().iter().any(|(_, e)| e == wanted)
    }

    fn welcome(&self) -> Option<(RoomCode, SeatToken)> {
        self.messages().into_iter().find_map(|m| match m {
            ServerMessage::Welcome { view, token, .. } => Some((view.room, token)),
            _ => None,
        })
    }

    fn refusals(&self) -> Vec<Refusal> {
        self.messages()
            .into_iter()
            .filter_map(|m| match m {
                ServerMessage::Refused { refusal } => Some(refusal),
                _ => None,
            })
            .collect()
    }
}

/// Every event exactly once, numbered 1, 2, 3, … in the order they came.
fn assert_each_event_once(device: &str, numbered: &[(u64, Event)]) {
    let numbers: Vec<u64> = numbered.iter().map(|(n, _)| *n).collect();
    let expected: Vec<u64> = (1..=numbers.len() as u64).collect();
    assert_eq!(numbers, expected, "{device}: the event numbers it was sent");
}

#[test]
fn a_device_that_joins_is_sent_each_event_once() {
    let db = database("join-once");
    let server = serve(&db, 60);
    let url = server.url();
    let hello = |seat| ClientMessage::Stamp {
        seat,
        stamp: Stamp::Hello,
    };
    let mut host = RawDevice::connect(&url);
    host.send(&ClientMessage::Create {
        version: PROTOCOL_VERSION,
        plan: plan(GameId::ChuShogi, 60),
    });
    host.wait_until("welcome", |m| {
        m.iter().any(|m| matches!(m, ServerMessage::Welcome { .. }))
    });
    let (room, _) = host.welcome().unwrap();
    // An event before the join: the guest is sent it too, once.
    host.send(&hello(0));
    host.wait_until("the host's stamp", |m| {
        m.iter().any(|m| matches!(m, ServerMessage::Events { .. }))
    });
    let mut guest = RawDevice::connect(&url);
    guest.send(&ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room,
        name: name("まご"),
    });
    guest.wait_until("welcome", |m| {
        m.iter().any(|m| matches!(m, ServerMessage::Welcome { .. }))
    });
    // A last event from each: whatever the join sent has come before it.
    let thanks = |seat| ClientMessage::Stamp {
        seat,
        stamp: Stamp::Thanks,
    };
    host.send(&thanks(0));
    guest.send(&thanks(1));
    let last = [0, 1].map(|seat| Event::Stamp {
        seat,
        stamp: Stamp::Thanks,
    });
    let deadline = Instant::now() + WAIT;
    while !last.iter().all(|e| host.has_event(e) && guest.has_event(e)) {
        host.pump();
        guest.pump();
        assert!(Instant::now() < deadline, "the last stamps never came");
        std::thread::sleep(Duration::from_millis(2));
    }
    let host_events = host.numbered_events();
    let guest_events = guest.numbered_events();
    assert_each_event_once("the host", &host_events);
    assert_each_event_once("the guest", &guest_events);
    assert_eq!(host_events, guest_events, "both were sent the same events");
    assert_eq!(guest_events.len(), 5, "{guest_events:?}");
    assert_eq!(guest_events[2].1, Event::Started);
    // The joining device is told the game's clock runs, as the host is.
    for device in [&host, &guest] {
        assert!(
            device
                .messages()
                .iter()
                .any(|m| matches!(m, ServerMessage::Clock { running: true, .. })),
            "{:?}",
            device.messages()
        );
    }
    // A device that comes back with nothing is sent the whole room once.
    let mut back = RawDevice::connect(&url);
    back.send(&ClientMessage::Resume {
        version: PROTOCOL_VERSION,
        room: guest.welcome().unwrap().0,
        token: guest.welcome().unwrap().1,
        have: 0,
    });
    back.wait_until("the room's events", |m| {
        m.iter()
            .any(|m| matches!(m, ServerMessage::Events { events, .. } if events.contains(&last[1])))
    });
    back.send(&hello(1));
    let again = Event::Stamp {
        seat: 1,
        stamp: Stamp::Hello,
    };
    back.wait_until("its own stamp", |m| {
        m.iter()
            .any(|m| matches!(m, ServerMessage::Events { events, .. } if events.contains(&again)))
    });
    assert_each_event_once("a device come back", &back.numbered_events());
    server.stop();
}

/// The rooms the server has written to its database, as a restart reads them.
fn stored_rooms(db: &Path) -> Vec<yorimichi::net::room::Room> {
    let (rooms, problems) = yorimichi::server::store::Store::open(db)
        .expect("the database opens")
        .load()
        .expect("the database reads");
    assert!(problems.is_empty(), "{problems:?}");
    rooms
}

/// Every message `device` was sent fits the protocol's limit.
fn assert_all_fit(device: &RawDevice) {
    for text in &device.texts {
        assert!(
            text.len() <= MAX_MESSAGE_BYTES,
            "a {}-byte message: {}…",
            text.len(),
            text.chars().take(100).collect::<String>()
        );
    }
}

fn create(plan: RoomPlan) -> ClientMessage {
    ClientMessage::Create {
        version: PROTOCOL_VERSION,
        plan,
    }
}

#[test]
fn a_plan_padded_to_the_limit_is_refused_in_a_reply_within_it_and_makes_no_room() {
    let db = database("padded-plan");
    let server = serve(&db, 60);
    let url = server.url();
    let mut host = RawDevice::connect(&url);

    // A plan padded to just under the limit, with blanks the rules' reader
    // skips: refused, and no room is made.
    let mut padded = plan(GameId::Hasami, 60);
    let bare = ron::to_string(&create(padded.clone())).unwrap().len();
    padded
        .rules
        .push_str(&" ".repeat(MAX_MESSAGE_BYTES - 2 - bare));
    let text = ron::to_string(&create(padded)).unwrap();
    assert_eq!(text.len(), MAX_MESSAGE_BYTES - 2);
    host.send_text(text);
    host.wait_until("an answer", |m| !m.is_empty());
    assert_all_fit(&host);
    assert!(host.welcome().is_none(), "{:?}", host.messages());
    assert_eq!(
        host.refusals(),
        vec![Refusal::BadPlan(
            format!("the rules are longer than {MAX_RULES_BYTES} bytes").into()
        )]
    );
    assert!(stored_rooms(&db).is_empty(), "a refused plan made a room");

    // The same connection makes a room of the plan as the app sends it.
    host.send(&create(plan(GameId::Hasami, 60)));
    host.wait_until("welcome", |m| {
        m.iter().any(|m| matches!(m, ServerMessage::Welcome { .. }))
    });
    assert_all_fit(&host);
    assert_eq!(stored_rooms(&db).len(), 1);
    server.stop();
}

#[test]
fn an_illegal_move_of_the_largest_size_is_refused_in_a_reply_within_the_limit() {
    let db = database("huge-move");
    let server = serve(&db, 60);
    let url = server.url();
    let mut host = RawDevice::connect(&url);
    host.send(&create(plan(GameId::Hasami, 60)));
    host.wait_until("welcome", |m| {
        m.iter().any(|m| matches!(m, ServerMessage::Welcome { .. }))
    });
    let (room, _) = host.welcome().unwrap();
    let mut guest = Device::connect(&url);
    guest.send(ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room,
        name: name("まご"),
    });
    guest.wait_events(2);
    host.wait_until("the start", |m| {
        m.iter().any(
            |m| matches!(m, ServerMessage::Events { events, .. } if events.contains(&Event::Started)),
        )
    });

    // An illegal move of the largest size the server reads, and a message
    // of that size that is no message at all: each refused briefly.
    let head = "Move(after: 2, text: \"";
    let tail = "\")";
    let body_bytes = MAX_MESSAGE_BYTES - head.len() - tail.len();
    let filler = format!(
        "{}{}",
        "将".repeat(body_bytes / 3),
        "x".repeat(body_bytes % 3)
    );
    let huge_move = format!("{head}{filler}{tail}");
    assert_eq!(huge_move.len(), MAX_MESSAGE_BYTES);
    host.send_text(huge_move);
    host.send_text("Q".repeat(MAX_MESSAGE_BYTES));
    host.wait_until("two refusals", |m| {
        m.iter()
            .filter(|m| matches!(m, ServerMessage::Refused { .. }))
            .count()
            == 2
    });
    assert_all_fit(&host);
    let refusals = host.refusals();
    let [Refusal::Illegal(quoted), Refusal::Malformed(why)] = &refusals[..] else {
        panic!("{refusals:?}");
    };
    // The move quoted as far as it fits, cut between two characters.
    assert!(quoted.as_str().len() <= MAX_QUOTE_BYTES, "{quoted}");
    assert!(quoted.as_str().starts_with("将将将"), "{quoted}");
    assert!(quoted.as_str().ends_with("将…"), "{quoted}");
    assert!(why.as_str().len() <= MAX_QUOTE_BYTES, "{why}");

    // Nothing changed: the first move is still to be made, after event 2.
    let first = guest.table().legal_texts()[0].clone();
    host.send(&ClientMessage::Move {
        after: 2,
        text: first.clone(),
    });
    guest.wait_events(3);
    assert_eq!(
        guest.events[2],
        Event::Moved {
            seat: 0,
            text: first.clone()
        }
    );
    let rooms = stored_rooms(&db);
    assert_eq!(rooms.len(), 1);
    assert_eq!(rooms[0].events(), &guest.events[..]);
    assert_all_fit(&host);
    server.stop();
}

#[test]
fn a_burst_of_stamps_from_one_seat_is_cut_to_the_allowed_number_and_the_rest_refused() {
    let db = database("stamps");
    let server = serve(&db, 60);
    let url = server.url();
    let (mut host, mut guest) = open_room(&url, GameId::Hasami, 60);
    let before = guest.events.len();

    const SENT: usize = 20;
    let start = Instant::now();
    for _ in 0..SENT {
        guest.send(ClientMessage::Stamp {
            seat: 1,
            stamp: Stamp::Again,
        });
    }
    let mut refusals = Vec::new();
    let deadline = start + WAIT;
    while guest.events.len() - before + refusals.len() < SENT {
        guest.pump();
        while let Some(message) = guest.inbox.pop_front() {
            if let ServerMessage::Refused { refusal } = message {
                refusals.push(refusal);
            }
        }
        assert!(Instant::now() < deadline, "not every stamp was answered");
        std::thread::sleep(Duration::from_millis(2));
    }
    let elapsed = start.elapsed();
    let accepted = guest.events.len() - before;
    // However slowly the server went through the burst, it let no more
    // through than the burst and one for each interval that passed.
    let burst = STAMP_BURST as usize;
    let refilled = (elapsed.as_millis() / u128::from(STAMP_INTERVAL_MS)) as usize;
    assert!(
        accepted >= burst && accepted <= burst + refilled,
        "{accepted} of {SENT} stamps taken in {elapsed:?}"
    );
    assert_eq!(refusals.len(), SENT - accepted, "{refusals:?}");
    for refusal in &refusals {
        assert!(
            matches!(refusal, Refusal::StampTooSoon { wait_ms } if u64::from(*wait_ms) <= STAMP_INTERVAL_MS),
            "{refusal:?}"
        );
    }

    // The other device was sent only those, and only those were kept.
    let text = host.pick();
    host.play(text);
    host.wait_events(before + accepted + 1);
    guest.wait_events(before + accepted + 1);
    assert_eq!(host.events, guest.events);
    let stamps = |events: &[Event]| {
        events
            .iter()
            .filter(|e| matches!(e, Event::Stamp { .. }))
            .count()
    };
    assert_eq!(stamps(&host.events), accepted);
    let rooms = stored_rooms(&db);
    assert_eq!(stamps(rooms[0].events()), accepted);

    // An interval later the seat may greet again.
    std::thread::sleep(Duration::from_millis(STAMP_INTERVAL_MS + 100));
    let count = guest.events.len();
    guest.send(ClientMessage::Stamp {
        seat: 1,
        stamp: Stamp::Thanks,
    });
    guest.wait_events(count + 1);
    host.wait_events(count + 1);
    assert_eq!(
        host.events.last(),
        Some(&Event::Stamp {
            seat: 1,
            stamp: Stamp::Thanks
        })
    );
    server.stop();
}
