//! 中将棋 rooms on a clock (持ち時間 and 秒読み), over loopback against
//! the real server: the server charges each move the time it measured,
//! 秒読み starts afresh each move, a side that does not move loses on time
//! (時間切れ) by the server's own timer, the clocks survive the server's
//! process killed mid-game, and clocks the setup screen does not offer are
//! refused. Short clocks need a server started with `--any-clock`.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use yorimichi::net::protocol::{
    CLOCK_CHOICES, ClientMessage, Event, PROTOCOL_VERSION, Refusal, RoomClock, RoomPlan,
    ServerMessage,
};
use yorimichi::rules::data::GameId;
use yorimichi::rules::game::EndReason;

use crate::rooms::{Device, database, name, plan, serve, serve_with};

fn clocked(main_seconds: u32, byoyomi_seconds: u32) -> RoomPlan {
    RoomPlan {
        clock: Some(RoomClock {
            main_seconds,
            byoyomi_seconds,
        }),
        ..plan(GameId::ChuShogi, 60)
    }
}

/// A room of `plan` made by `host` and joined by `guest`, both with the
/// start and the clocks running.
fn open_clocked(url: &str, plan: RoomPlan) -> (Device, Device) {
    let mut host = Device::connect(url);
    host.send(ClientMessage::Create {
        version: PROTOCOL_VERSION,
        plan,
    });
    host.wait_for("welcome", |m| matches!(m, ServerMessage::Welcome { .. }));
    let mut guest = Device::connect(url);
    guest.send(ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room: host.room.clone().unwrap(),
        name: name("まご"),
    });
    guest.wait_for("welcome", |m| matches!(m, ServerMessage::Welcome { .. }));
    host.wait_events(2);
    guest.wait_events(2);
    wait_clocks(&mut host, |(_, _, running)| *running);
    (host, guest)
}

/// Waits until the device's clocks, as the server last told them, pass
/// `wanted`; returns them.
fn wait_clocks(
    device: &mut Device,
    wanted: impl Fn(&(Vec<u64>, u64, bool)) -> bool,
) -> (Vec<u64>, u64, bool) {
    let deadline = Instant::now() + crate::rooms::WAIT;
    loop {
        device.pump();
        device.inbox.clear();
        if let Some(clocks) = device.clocks.as_ref().filter(|c| wanted(c)) {
            return clocks.clone();
        }
        assert!(
            Instant::now() < deadline,
            "the clocks never came: {:?}",
            device.clocks
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// `mover` plays after `think`; both devices see the move and the clocks
/// after it.
fn move_after(mover: &mut Device, other: &mut Device, think: Duration) -> (Vec<u64>, u64, bool) {
    std::thread::sleep(think);
    let count = mover.events.len();
    let text = mover.pick();
    // The clocks come after the move's events.
    other.clocks = None;
    mover.play(text);
    mover.wait_events(count + 1);
    other.wait_events(count + 1);
    wait_clocks(other, |_| true)
}

fn assert_out_of_time(device: &mut Device, winner: u8) {
    let ended = Event::Ended {
        winner: Some(winner),
        reason: EndReason::OutOfTime,
    };
    let deadline = Instant::now() + crate::rooms::WAIT;
    while device.events.last() != Some(&ended) {
        device.pump();
        device.inbox.clear();
        assert!(
            Instant::now() < deadline,
            "no 時間切れ: {:?}",
            device.events.last()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        device.table().result().map(|o| o.reason),
        Some(EndReason::OutOfTime)
    );
}

#[test]
fn rooms_a_chu_clock_charges_the_servers_time_resets_byoyomi_and_a_side_that_does_not_move_loses() {
    let db = database("clock-flag");
    let server = serve_with(&db, 60, true);
    // 1 s of 持ち時間, then 4 s a move.
    let (mut host, mut guest) = open_clocked(&server.url(), clocked(1, 4));
    let (left, byoyomi, _) = host.clocks.clone().unwrap();
    assert!(
        left[0] > 900 && left[1] == 1_000 && byoyomi == 4_000,
        "{left:?}"
    );
    // The host thinks 0.3 s: the server charges at least that, measured
    // on its own clock from the start (the device sends no time).
    let started = Instant::now();
    let (left, byoyomi, running) = move_after(&mut host, &mut guest, Duration::from_millis(300));
    let spent = 1_000 - left[0];
    assert!(
        (300..=started.elapsed().as_millis() as u64 + 300).contains(&spent),
        "{left:?}"
    );
    // The guest's clock runs from the move's arrival.
    assert!(left[1] > 900 && byoyomi == 4_000 && running, "{left:?}");
    // The guest uses its whole 持ち時間 and 1.5 s of 秒読み.
    let (left, byoyomi, _) = move_after(&mut guest, &mut host, Duration::from_millis(2_500));
    assert_eq!((left[1], byoyomi), (0, 4_000), "{left:?}");
    let (left, byoyomi, _) = move_after(&mut host, &mut guest, Duration::from_millis(100));
    // The guest's 秒読み is whole again for its next move ...
    assert!(left[1] == 0 && byoyomi > 3_900, "{left:?} {byoyomi}");
    // ... so it may think 3 s, which the 1.5 s spent before would not leave.
    move_after(&mut guest, &mut host, Duration::from_millis(3_000));
    assert!(guest.table().result().is_none());
    // Now the host does not move: the server ends the game, lost on time.
    assert_out_of_time(&mut host, 1);
    assert_out_of_time(&mut guest, 1);
    // A move too late changes nothing.
    let count = host.events.len();
    let after = count as u64;
    host.send(ClientMessage::Move {
        after,
        text: "x".to_string(),
    });
    assert_eq!(host.refusal(), Refusal::Finished);
    assert_eq!(host.events.len(), count);
}

/// `yorimichi serve --any-clock` on a free port with `db`, and its
/// address.
fn serve_process(db: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yorimichi"))
        .args(["serve", "--listen", "127.0.0.1:0", "--print-address"])
        .args(["--any-clock", "--db"])
        .arg(db)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the address");
    (child, line.trim().to_string())
}

#[test]
fn rooms_a_chu_clock_survives_the_server_process_killed_and_still_ends_the_game_on_time() {
    let db = database("clock-restart");
    let (mut server, url) = serve_process(&db);
    // 4 s of 持ち時間, then 1 s a move.
    let (mut host, mut guest) = open_clocked(&url, clocked(4, 1));
    move_after(&mut host, &mut guest, Duration::from_millis(100));
    // The guest thinks 1.5 s; then the server dies (SIGKILL) and stays
    // down for 5 s, longer than the guest's whole clock.
    std::thread::sleep(Duration::from_millis(1_500));
    server.kill().expect("the server is killed");
    server.wait().expect("the server ends");
    std::thread::sleep(Duration::from_secs(5));
    let (mut server, url) = serve_process(&db);
    let mut host = host.reconnect(&url);
    let mut guest = guest.reconnect(&url);
    host.clocks = None;
    host.resume();
    guest.resume();
    // The guest's 持ち時間 kept: charged to the server's last beat (once a
    // second) before it died, not for the time it was down.
    let (left, byoyomi, _) = wait_clocks(&mut host, |(_, _, running)| *running);
    // (1.5 s thought and the messages' way: a busy machine may add some
    // hundred milliseconds; the 5 s down would have left nothing.)
    assert!((1_500..=3_900).contains(&left[1]), "{left:?}");
    assert!(left[0] >= 3_000, "{left:?}");
    assert_eq!(byoyomi, 1_000);
    // Still the guest does not move: lost on time, once the rest ran out.
    let back = Instant::now();
    assert_out_of_time(&mut host, 0);
    assert_out_of_time(&mut guest, 0);
    assert!(back.elapsed() >= Duration::from_millis(left[1] + 1_000 - 300));
    server.kill().expect("the server is killed");
    server.wait().expect("the server ends");
}

#[test]
fn rooms_only_the_offered_chu_clocks_are_taken_and_they_stand_while_a_player_is_away() {
    let db = database("clock-choices");
    let server = serve(&db, 60);
    let url = server.url();
    for (plan, why) in [
        (clocked(5, 1), "a clock is 10 min + 30 s"),
        (
            RoomPlan {
                clock: Some(CLOCK_CHOICES[0]),
                ..plan(GameId::Hasami, 60)
            },
            "a clock is for 中将棋 rooms",
        ),
    ] {
        let mut device = Device::connect(&url);
        device.send(ClientMessage::Create {
            version: PROTOCOL_VERSION,
            plan,
        });
        match device.refusal() {
            Refusal::BadPlan(quote) => assert!(quote.as_str().contains(why), "{quote}"),
            other => panic!("{other:?}"),
        }
    }
    // Past every server's limits, even one that takes any clock.
    let any = serve_with(&database("clock-limits"), 60, true);
    for plan in [clocked(0, 0), clocked(3_601, 30), clocked(600, 601)] {
        let mut device = Device::connect(&any.url());
        device.send(ClientMessage::Create {
            version: PROTOCOL_VERSION,
            plan,
        });
        assert!(matches!(device.refusal(), Refusal::BadPlan(_)));
    }
    // An offered clock: every device is told it, and the clocks stand
    // while a player is away.
    let (mut host, mut guest) = open_clocked(&url, clocked(600, 30));
    let (left, byoyomi, _) = host.clocks.clone().unwrap();
    assert!(left[0] > 599_000 && left[1] == 600_000 && byoyomi == 30_000);
    wait_clocks(&mut guest, |(_, _, running)| *running);
    guest.link.close();
    let (left, _, running) = wait_clocks(&mut host, |(_, _, running)| !running);
    assert!(!running && left[0] <= 600_000 && left[1] == 600_000);
}
