//! The room protocol's limits from the outside: a device of another make
//! (one that keeps every message as sent and skips nothing) is sent each
//! event once, no reply passes the message limit, and stamps are cut to
//! their rate.

use std::path::Path;
use std::time::{Duration, Instant};

use yorimichi::net::protocol::{
    ClientMessage, Event, MAX_MESSAGE_BYTES, MAX_QUOTE_BYTES, MAX_RULES_BYTES, PROTOCOL_VERSION,
    Refusal, RoomCode, RoomPlan, STAMP_BURST, STAMP_INTERVAL_MS, SeatToken, ServerMessage, Stamp,
};
use yorimichi::rules::data::GameId;

use super::rooms::{Device, WAIT, database, name, open_room, plan, serve};

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
