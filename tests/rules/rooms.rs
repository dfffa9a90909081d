//! Rooms without a network: the server's authority (who may move, in
//! which order, what is refused), a room stored and rebuilt, and the
//! 通信切れ grace period, driven with made-up times.
//!
//! Long because: the room's every rule is tested on the same made-up
//! rooms and times (the plans, `full_room`, the mirror tables), the
//! series, 待った and watchers among them.

use yorimichi::net::protocol::{
    ClientMessage, EVENTS_PER_MESSAGE, Event, MAX_MESSAGE_BYTES, MAX_NAME_CHARS, MAX_PAGE_BYTES,
    MAX_QUOTE_BYTES, MAX_RULES_BYTES, MAX_STAMPS_PER_SEAT, PROTOCOL_VERSION, Quote, Refusal,
    RoomClock, RoomCode, RoomPlan, STAMP_BURST, STAMP_INTERVAL_MS, SeatKind, SeatName, SeatPlan,
    SeatToken, ServerMessage, Stamp, decode, encode, events_messages,
};
use yorimichi::net::room::{Clocks, Room, replay};
use yorimichi::net::table::{MawariTableRules, Table, open_table};
use yorimichi::rules::chu::game::ChuRules;
use yorimichi::rules::data::{GameId, Strength};
use yorimichi::rules::foxgeese::FoxGeeseRules;
use yorimichi::rules::game::EndReason;
use yorimichi::rules::hasami::HasamiRules;
use yorimichi::rules::mawari::race::MawariRules;
use yorimichi::rules::musashi::MusashiRules;

fn name(text: &str) -> SeatName {
    SeatName::new(text).unwrap()
}

fn rules_of(game: GameId) -> String {
    match game {
        GameId::Hasami => ron::to_string(&HasamiRules::STANDARD),
        GameId::FoxGeese => ron::to_string(&FoxGeeseRules::STANDARD),
        GameId::Musashi => ron::to_string(&MusashiRules::STANDARD),
        GameId::ChuShogi => ron::to_string(&ChuRules::JCSA),
        GameId::Mawari => panic!("not a two-player game"),
    }
    .unwrap()
}

fn plan(game: GameId) -> RoomPlan {
    RoomPlan {
        game,
        rules: rules_of(game),
        seats: vec![
            SeatPlan {
                kind: SeatKind::Host,
                name: name("はな"),
            },
            SeatPlan {
                kind: SeatKind::Remote,
                name: name("?"),
            },
        ],
        draw_seats: false,
        grace_seconds: 60,
        takebacks: true,
        clock: None,
    }
}

const HOST: u128 = 1;
const GUEST: u128 = 2;

fn token(bits: u128) -> SeatToken {
    SeatToken::from_bits(bits)
}

/// A room of `game` with both seats taken (host first, guest second).
fn full_room(game: GameId) -> Room {
    let code = RoomCode::from_bits(0x12_3456_789a);
    let mut room = Room::create(code, plan(game), token(HOST), 0, 1_000).unwrap();
    assert!(!room.is_started());
    assert_eq!(room.join(token(GUEST), name("たろう"), 1_000), Ok(1));
    assert!(room.is_started());
    room
}

/// The side to move's first legal move on a device's own table.
fn first_legal(table: &dyn Table) -> String {
    table
        .legal_texts()
        .into_iter()
        .next()
        .expect("a legal move")
}

#[test]
fn room_codes_have_forty_random_bits_and_read_as_people_write_them() {
    let code = RoomCode::from_bits(0xAB_CDEF_0123);
    assert_eq!(code.as_str().len(), 8);
    // Every one of the 40 bits changes the code.
    for bit in 0..40 {
        assert_ne!(
            RoomCode::from_bits(0xAB_CDEF_0123 ^ (1 << bit)),
            code,
            "bit {bit}"
        );
    }
    let shown = code.display();
    assert_eq!(RoomCode::parse(&shown.to_lowercase()), Ok(code.clone()));
    assert_eq!(RoomCode::parse(&format!(" {shown} ")), Ok(code));
    // O and I/L read as 0 and 1; U is no letter of a code.
    assert_eq!(RoomCode::parse("OOOO-IIII").unwrap().as_str(), "00001111");
    assert!(RoomCode::parse("UUUU-0000").is_err());
    assert!(RoomCode::parse("ABC").is_err());
    assert!(RoomCode::parse("ABCD-EFGH-J").is_err());
}

#[test]
fn seat_names_are_short_plain_words() {
    assert!(SeatName::new("おばあちゃん").is_ok());
    assert!(SeatName::new("   ").is_err());
    assert!(SeatName::new("とてもながいなまえですよねほんとうに").is_err());
    assert!(SeatName::new("a\u{7}b").is_err());
    // A message carrying a bad name is malformed as a whole.
    let text = encode(&ClientMessage::Join {
        version: PROTOCOL_VERSION,
        room: RoomCode::from_bits(5),
        name: name("x"),
    })
    .replace("\"x\"", "\"\"");
    assert!(matches!(
        decode::<ClientMessage>(&text),
        Err(Refusal::Malformed(_))
    ));
}

#[test]
fn messages_travel_as_text_and_broken_or_long_ones_are_refused() {
    let messages = [
        ClientMessage::Create {
            version: PROTOCOL_VERSION,
            plan: plan(GameId::ChuShogi),
        },
        ClientMessage::Move {
            after: 7,
            text: "9八→9五".to_string(),
        },
        ClientMessage::Stamp {
            seat: 1,
            stamp: Stamp::Thanks,
        },
    ];
    for message in messages {
        assert_eq!(decode::<ClientMessage>(&encode(&message)), Ok(message));
    }
    let welcome = ServerMessage::Refused {
        refusal: Refusal::OutOfStep { events: 3 },
    };
    assert_eq!(decode::<ServerMessage>(&encode(&welcome)), Ok(welcome));
    assert!(matches!(
        decode::<ClientMessage>("Move(after: -1)"),
        Err(Refusal::Malformed(_))
    ));
    assert!(matches!(
        decode::<ClientMessage>("Launch"),
        Err(Refusal::Malformed(_))
    ));
    let long = format!(
        "Move(after: 1, text: \"{}\")",
        "a".repeat(MAX_MESSAGE_BYTES)
    );
    assert_eq!(decode::<ClientMessage>(&long), Err(Refusal::TooLong));
}

#[test]
fn a_plan_the_game_cannot_play_is_refused() {
    let code = RoomCode::from_bits(1);
    let make = |plan: RoomPlan| Room::create(code.clone(), plan, token(HOST), 0, 0).map(|_| ());
    let mut no_remote = plan(GameId::Hasami);
    no_remote.seats[1].kind = SeatKind::Host;
    assert!(matches!(make(no_remote), Err(Refusal::BadPlan(_))));
    let mut three = plan(GameId::Hasami);
    three.seats.push(three.seats[1].clone());
    assert!(matches!(make(three), Err(Refusal::BadPlan(_))));
    let mut cpu = plan(GameId::Hasami);
    cpu.seats[0].kind = SeatKind::Cpu(Strength::Normal);
    assert!(matches!(make(cpu), Err(Refusal::BadPlan(_))));
    let mut bad_rules = plan(GameId::Hasami);
    bad_rules.rules = "(capture_target: 6)".to_string();
    assert!(matches!(make(bad_rules), Err(Refusal::BadPlan(_))));
    let mut wrong_game = plan(GameId::FoxGeese);
    wrong_game.rules = rules_of(GameId::Hasami);
    assert!(matches!(make(wrong_game), Err(Refusal::BadPlan(_))));
    let mut no_grace = plan(GameId::ChuShogi);
    no_grace.grace_seconds = 0;
    assert!(matches!(make(no_grace), Err(Refusal::BadPlan(_))));
    assert!(make(plan(GameId::Hasami)).is_ok());
}

#[test]
fn a_drawn_room_puts_the_host_on_either_side() {
    let mut sides = [0, 0];
    for lot in 0..40 {
        let mut p = plan(GameId::Hasami);
        p.draw_seats = true;
        let room = Room::create(RoomCode::from_bits(lot), p, token(HOST), lot, 0).unwrap();
        let host_seat = room.seats_of(&token(HOST)).unwrap()[0];
        sides[host_seat as usize] += 1;
    }
    assert!(sides[0] > 5 && sides[1] > 5, "{sides:?}");
}

#[test]
fn only_the_seat_to_move_moves_and_only_legal_moves_in_step() {
    let mut room = full_room(GameId::Hasami);
    let mut mirror = open_table(GameId::Hasami, &rules_of(GameId::Hasami)).unwrap();
    let after = room.event_count();
    let first = first_legal(mirror.as_ref());
    // The guest holds seat 1: not its turn.
    assert_eq!(
        room.play(&token(GUEST), after, &first, 2_000),
        Err(Refusal::NotYourSeat)
    );
    // A stranger holds nothing.
    assert_eq!(
        room.play(&token(9), after, &first, 2_000),
        Err(Refusal::BadToken)
    );
    // Illegal, and not a move at all.
    assert_eq!(
        room.play(&token(HOST), after, "9九→1一", 2_000),
        Err(Refusal::Illegal("9九→1一".into()))
    );
    assert_eq!(
        room.play(&token(HOST), after, "", 2_000),
        Err(Refusal::Illegal("".into()))
    );
    // Out of step: made on a state the server is not in.
    assert_eq!(
        room.play(&token(HOST), after + 1, &first, 2_000),
        Err(Refusal::OutOfStep { events: after })
    );
    assert_eq!(room.event_count(), after, "refusals change nothing");
    assert_eq!(room.play(&token(HOST), after, &first, 2_000), Ok(()));
    // The same message again (a resend after a dropped connection) is
    // out of step: applied once only.
    assert_eq!(
        room.play(&token(HOST), after, &first, 2_000),
        Err(Refusal::OutOfStep { events: after + 1 })
    );
    replay(mirror.as_mut(), &room.events()[after as usize..]).unwrap();
    assert_eq!(mirror.ply(), 1);
    // A seat the guest does not hold, for a stamp or 投了.
    assert_eq!(
        room.stamp(&token(GUEST), 0, Stamp::Hello, 2_000),
        Err(Refusal::NotYourSeat)
    );
    assert_eq!(
        room.resign(&token(GUEST), 0, 2_000),
        Err(Refusal::NotYourSeat)
    );
    assert_eq!(room.stamp(&token(GUEST), 1, Stamp::Hello, 2_000), Ok(()));
    // A move made while that greeting was on its way still stands.
    let before_stamp = room.event_count() - 1;
    let reply = mirror.legal_texts()[0].clone();
    assert_eq!(
        room.play(&token(GUEST), before_stamp, &reply, 2_000),
        Ok(())
    );
    // But not one made before the last move was seen.
    let stale = room.event_count() - 2;
    let next = mirror.legal_texts()[0].clone();
    assert_eq!(
        room.play(&token(HOST), stale, &next, 2_000),
        Err(Refusal::OutOfStep {
            events: room.event_count()
        })
    );
}

#[test]
fn nobody_moves_before_every_seat_is_taken_and_a_full_room_takes_nobody() {
    let code = RoomCode::from_bits(77);
    let mut room = Room::create(code, plan(GameId::Hasami), token(HOST), 0, 0).unwrap();
    let table = open_table(GameId::Hasami, &rules_of(GameId::Hasami)).unwrap();
    let first = first_legal(table.as_ref());
    assert_eq!(
        room.play(&token(HOST), 0, &first, 0),
        Err(Refusal::NotStarted)
    );
    room.join(token(GUEST), name("じろう"), 0).unwrap();
    assert_eq!(
        room.join(token(3), name("さぶろう"), 0),
        Err(Refusal::RoomFull)
    );
    assert_eq!(
        room.events(),
        &[
            Event::Seated {
                seat: 1,
                name: name("じろう")
            },
            Event::Started
        ]
    );
    assert_eq!(room.view().seats[1].name, name("じろう"));
}

/// Plays the first legal move for whoever is to move until the game ends
/// or `plies` moves are made, every device's table following.
fn play_out(room: &mut Room, mirror: &mut dyn Table, plies: usize) {
    for _ in 0..plies {
        let Some(seat) = mirror.seat_to_move() else {
            return;
        };
        let who = if seat == 0 { token(HOST) } else { token(GUEST) };
        let legal = mirror.legal_texts();
        // Vary the moves so the game goes somewhere.
        let text = &legal[(mirror.ply() * 7 + 3) % legal.len()];
        let had = room.event_count();
        room.play(&who, had, text, 3_000).unwrap();
        replay(mirror, &room.events()[had as usize..]).unwrap();
    }
}

#[test]
fn every_game_plays_to_its_end_through_a_room_and_rebuilds_from_storage() {
    for game in [
        GameId::Hasami,
        GameId::FoxGeese,
        GameId::Musashi,
        GameId::ChuShogi,
    ] {
        let mut room = full_room(game);
        let mut mirror = open_table(game, &rules_of(game)).unwrap();
        replay(mirror.as_mut(), room.events()).unwrap();
        play_out(&mut room, mirror.as_mut(), 40);
        // Stored mid-game and rebuilt: the same events, the same turn.
        let stored = room.stored();
        let text = ron::to_string(&stored).unwrap();
        let rebuilt = Room::restore(ron::from_str(&text).unwrap()).unwrap();
        assert_eq!(rebuilt.stored(), stored, "{game:?}");
        assert_eq!(rebuilt.is_finished(), room.is_finished());
        // A room kept before watch codes has none until the server draws
        // one; its watchers then see the room by that code alone.
        let before_watch_codes = text.replace(",watch:None", "");
        assert!(!before_watch_codes.contains("watch:"), "{text}");
        let mut watched = Room::restore(ron::from_str(&before_watch_codes).unwrap()).unwrap();
        assert_eq!(watched.watch_code(), None);
        assert_eq!(watched.watcher_view().room, *room.code());
        let watch = RoomCode::from_bits(0x77);
        watched.set_watch_code(watch.clone());
        assert_eq!(watched.watcher_view().room, watch);
        let kept =
            Room::restore(ron::from_str(&ron::to_string(&watched.stored()).unwrap()).unwrap())
                .unwrap();
        assert_eq!(kept.watch_code(), Some(&watch));
        // A stored game whose moves the rules refuse is not rebuilt.
        let mut forged = stored.clone();
        forged.events.push(Event::Moved {
            seat: 0,
            text: "nonsense".to_string(),
        });
        assert!(Room::restore(forged).is_err(), "{game:?}");
        if game != GameId::ChuShogi {
            play_out(&mut room, mirror.as_mut(), 2_000);
            assert!(room.is_finished(), "{game:?} did not end");
            assert!(matches!(room.events().last(), Some(Event::Ended { .. })));
            assert_eq!(mirror.result().map(|r| r.winner), room_winner(&room));
        }
    }
}

fn room_winner(room: &Room) -> Option<Option<u8>> {
    room.events().iter().find_map(|e| match e {
        Event::Ended { winner, .. } => Some(*winner),
        _ => None,
    })
}

#[test]
fn a_resignation_ends_the_game_for_every_device() {
    let mut room = full_room(GameId::FoxGeese);
    let mut mirror = open_table(GameId::FoxGeese, &rules_of(GameId::FoxGeese)).unwrap();
    let had = room.event_count();
    assert_eq!(room.resign(&token(GUEST), 1, 5_000), Ok(()));
    assert_eq!(room.resign(&token(HOST), 0, 5_000), Err(Refusal::Finished));
    replay(mirror.as_mut(), room.events()).unwrap();
    let result = mirror.result().unwrap();
    assert_eq!(result.reason, EndReason::Resignation);
    assert_eq!(result.winner, Some(0));
    assert_eq!(room.event_count(), had + 2, "Resigned, then Ended");
    let after = room.event_count();
    assert_eq!(
        room.play(&token(HOST), after, "x", 5_000),
        Err(Refusal::Finished)
    );
}

#[test]
fn in_chu_shogi_a_player_away_past_the_grace_period_loses() {
    let mut room = full_room(GameId::ChuShogi);
    let (host, guest) = (token(HOST), token(GUEST));
    room.connected(&host, 0);
    room.connected(&guest, 0);
    // The guest's only connection drops at t = 10 s; 60 s of grace.
    let away = room.disconnected(&guest, 10_000);
    assert_eq!(away.len(), 1);
    assert_eq!(away[0].seconds_left, Some(60));
    assert_eq!(room.seconds_left(1, 40_000), Some(30));
    assert!(!room.tick(69_999));
    // Back in time: the clock stops.
    room.connected(&guest, 50_000);
    assert!(!room.tick(200_000));
    // Away again, not back: the game is lost at the deadline.
    room.disconnected(&guest, 300_000);
    assert!(!room.tick(359_999));
    assert!(room.tick(360_000));
    assert_eq!(
        room.events().last(),
        Some(&Event::Ended {
            winner: Some(0),
            reason: EndReason::Disconnected
        })
    );
    // Every device's table ends the same way.
    let mut mirror = open_table(GameId::ChuShogi, &rules_of(GameId::ChuShogi)).unwrap();
    replay(mirror.as_mut(), room.events()).unwrap();
    assert_eq!(mirror.result().unwrap().reason, EndReason::Disconnected);
}

#[test]
fn nobody_wins_by_absence_while_both_are_away_and_other_games_wait() {
    let mut room = full_room(GameId::ChuShogi);
    let (host, guest) = (token(HOST), token(GUEST));
    room.connected(&host, 0);
    room.connected(&guest, 0);
    room.disconnected(&guest, 0);
    room.disconnected(&host, 1_000);
    assert!(!room.tick(120_000), "nobody is here to claim the win");
    // The host comes back after its own deadline: the guest's ran out
    // first, and the host is here now.
    room.connected(&host, 120_000);
    assert!(room.tick(120_000));
    assert!(matches!(
        room.events().last(),
        Some(Event::Ended {
            winner: Some(0),
            ..
        })
    ));

    let mut family = full_room(GameId::Hasami);
    family.connected(&host, 0);
    family.connected(&guest, 0);
    let away = family.disconnected(&guest, 0);
    assert_eq!(away[0].seconds_left, None);
    assert!(!family.tick(10_000_000_000));
    assert!(!family.is_finished());
}

#[test]
fn a_device_with_two_connections_is_away_only_when_both_close() {
    let mut room = full_room(GameId::ChuShogi);
    let guest = token(GUEST);
    room.connected(&token(HOST), 0);
    room.connected(&guest, 0);
    room.connected(&guest, 0);
    assert!(room.disconnected(&guest, 0).is_empty());
    assert_eq!(room.disconnected(&guest, 0).len(), 1);
}

#[test]
fn a_restarted_server_gives_every_player_of_a_running_chu_game_its_grace() {
    let mut room = full_room(GameId::ChuShogi);
    let mut rebuilt = Room::restore(room.stored()).unwrap();
    rebuilt.restarted(1_000_000, None);
    assert_eq!(rebuilt.next_deadline(), Some(1_060_000));
    // The host returns, the guest does not.
    rebuilt.connected(&token(HOST), 0);
    assert!(!rebuilt.tick(1_059_999));
    assert!(rebuilt.tick(1_060_000));
    // A deadline already running before the stop is kept.
    room.connected(&token(HOST), 0);
    room.connected(&token(GUEST), 0);
    room.disconnected(&token(GUEST), 500_000);
    let mut kept = Room::restore(room.stored()).unwrap();
    kept.restarted(520_000, None);
    assert_eq!(kept.next_deadline(), Some(560_000));
}

#[test]
fn a_chu_shogi_room_keeps_the_clock_stops_it_while_a_player_is_away_and_cuts_off_at_sixty_minutes()
{
    let mut room = full_room(GameId::ChuShogi);
    let (host, guest) = (token(HOST), token(GUEST));
    // Until both are here the clock stands.
    assert_eq!(room.clock(0), Some((0, false)));
    room.connected(&host, 0);
    room.connected(&guest, 1_000);
    assert_eq!(room.clock(11_000), Some((10_000, true)));
    // Away: it stands at what was played.
    room.disconnected(&guest, 21_000);
    assert_eq!(room.clock(50_000), Some((20_000, false)));
    room.connected(&guest, 50_000);
    // Stored and rebuilt, it reads the same.
    let rebuilt = Room::restore(room.stored()).unwrap();
    assert_eq!(rebuilt.clock(60_000), room.clock(60_000));
    // Sixty minutes of play: the board's points decide (even at the start).
    let end = 50_000 + 3_600_000 - 20_000;
    assert_eq!(room.next_deadline(), Some(end));
    assert!(!room.tick(end - 1));
    assert!(room.tick(end));
    assert_eq!(
        room.events().last(),
        Some(&Event::Ended {
            winner: None,
            reason: EndReason::TimeUp
        })
    );
    assert_eq!(room.clock(end + 5_000), Some((3_600_000, false)));
    // The other games have no clock.
    assert_eq!(full_room(GameId::Hasami).clock(0), None);
}

fn mawari_rules(players: usize) -> String {
    ron::to_string(&MawariTableRules {
        players,
        rules: MawariRules::ALL,
        draw_order: true,
        places: false,
        colours: (0..players as u8).rev().collect(),
        start: None,
        first: 0,
    })
    .unwrap()
}

fn mawari_plan(kinds: &[SeatKind]) -> RoomPlan {
    let names = ["あか", "あお", "みどり", "むらさき"];
    RoomPlan {
        game: GameId::Mawari,
        rules: mawari_rules(kinds.len()),
        seats: kinds
            .iter()
            .zip(names)
            .map(|(&kind, n)| SeatPlan {
                kind,
                name: name(n),
            })
            .collect(),
        draw_seats: false,
        grace_seconds: 60,
        takebacks: false,
        clock: None,
    }
}

#[test]
fn a_mawari_plan_must_match_its_rules() {
    let code = RoomCode::from_bits(7);
    let make = |plan: RoomPlan| Room::create(code.clone(), plan, token(HOST), 0, 0).map(|_| ());
    let kinds = [
        SeatKind::Host,
        SeatKind::Remote,
        SeatKind::Cpu(Strength::Normal),
    ];
    assert!(make(mawari_plan(&kinds)).is_ok());
    let mut four_for_three = mawari_plan(&kinds);
    four_for_three.rules = mawari_rules(4);
    assert!(matches!(make(four_for_three), Err(Refusal::BadPlan(_))));
    let mut same_colour = mawari_plan(&kinds);
    same_colour.rules = same_colour
        .rules
        .replace("colours:[2,1,0]", "colours:[1,1,0]");
    assert_ne!(same_colour.rules, mawari_plan(&kinds).rules);
    assert!(matches!(make(same_colour), Err(Refusal::BadPlan(_))));
    let five = [
        SeatKind::Host,
        SeatKind::Remote,
        SeatKind::Remote,
        SeatKind::Remote,
        SeatKind::Remote,
    ];
    assert!(matches!(make(mawari_plan(&five)), Err(Refusal::BadPlan(_))));
    let nobody_far = [SeatKind::Host, SeatKind::Cpu(Strength::Normal)];
    assert!(matches!(
        make(mawari_plan(&nobody_far)),
        Err(Refusal::BadPlan(_))
    ));
    // A start position must have a piece for every seat.
    let from = |start: &str| {
        let mut plan = mawari_plan(&kinds);
        let mut rules: MawariTableRules = ron::from_str(&plan.rules).unwrap();
        rules.start = Some(start.to_string());
        plan.rules = ron::to_string(&rules).unwrap();
        plan
    };
    assert!(matches!(
        make(from("fu@0 fu@8 fu@16 fu@24")),
        Err(Refusal::BadPlan(_))
    ));
    assert!(matches!(
        make(from("fu@0 fu@8 nonsense")),
        Err(Refusal::BadPlan(_))
    ));
    let near_the_end = from("hisha@6 hisha@14 hisha@22 turn=1");
    assert!(make(near_the_end.clone()).is_ok());
    let table = open_table(GameId::Mawari, &near_the_end.rules).unwrap();
    // The plan's draw still comes first, from the position.
    assert_eq!(table.seat_to_move(), Some(0));
}

/// A three-seat まわり将棋 room (a person on the host's device, one far
/// away, the computer) played to its end: the people throw with a
/// gesture, the room adds the seed, the server throws for the computer,
/// and a device's own table follows every throw to the same end.
#[test]
fn a_mawari_room_throws_for_its_people_and_its_computer_to_the_end() {
    let kinds = [
        SeatKind::Host,
        SeatKind::Remote,
        SeatKind::Cpu(Strength::Normal),
    ];
    let plan = mawari_plan(&kinds);
    let mut room = Room::create(RoomCode::from_bits(9), plan.clone(), token(HOST), 5, 0).unwrap();
    assert_eq!(room.join(token(GUEST), name("たろう"), 10), Ok(1));
    assert!(room.is_started());
    // The seats keep the names the host gave them.
    assert_eq!(room.view().seats[1].name, name("あお"));
    let mut mirror = open_table(GameId::Mawari, &plan.rules).unwrap();
    replay(mirror.as_mut(), room.events()).unwrap();
    assert_eq!(mirror.seat_to_move(), Some(0), "the draw begins at seat 0");

    let after = room.event_count();
    // A device may not choose the seed, nor send what is not a gesture.
    for bad in [
        "toss 0 1 30 7",
        "hand NaN 1 30",
        "hand 0 1",
        "hand 0 1 inf",
        "hand 0 1 1e300",
    ] {
        assert_eq!(
            room.play(&token(HOST), after, bad, 20),
            Err(Refusal::Illegal(bad.into())),
            "{bad}"
        );
    }
    assert_eq!(
        room.play(&token(GUEST), after, "hand 0 1 30", 20),
        Err(Refusal::NotYourSeat)
    );
    assert_eq!(
        room.event_count(),
        after,
        "nothing refused changed the room"
    );
    assert_eq!(
        room.resign(&token(HOST), 0, 20),
        Err(Refusal::Illegal("resign".into()))
    );

    let mut throws = 0;
    while let Some(seat) = mirror.seat_to_move() {
        assert!(seat < 2, "the computer's seat is thrown by the server");
        let who = if seat == 0 { token(HOST) } else { token(GUEST) };
        let had = room.event_count();
        let hand = format!("hand {} 1 {}", throws % 5, 20 + throws % 40);
        room.play(&who, had, &hand, 30).unwrap();
        let new = &room.events()[had as usize..];
        assert!(
            matches!(&new[0], Event::Moved { seat: s, text }
                if *s == seat && text.starts_with(&format!("toss {} 1 {} ", throws % 5, 20 + throws % 40))),
            "{:?}",
            new[0]
        );
        replay(mirror.as_mut(), new).unwrap();
        throws += 1;
        assert!(throws < 3_000, "the race did not end");
        if throws == 20 {
            let stored = room.stored();
            let rebuilt = Room::restore(ron::from_str(&ron::to_string(&stored).unwrap()).unwrap());
            assert_eq!(rebuilt.unwrap().stored(), stored);
        }
    }
    assert!(room.is_finished());
    let moved_by = |s: u8| {
        room.events()
            .iter()
            .filter(|e| matches!(e, Event::Moved { seat, .. } if *seat == s))
            .count()
    };
    assert!(moved_by(2) > 0, "the computer threw");
    assert!(moved_by(0) > 0 && moved_by(1) > 0);
    // Every throw had its own seed.
    let mut seeds: Vec<&str> = room
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Moved { text, .. } => text.split(' ').nth(4),
            _ => None,
        })
        .collect();
    let all = seeds.len();
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), all);
    let result = mirror.result().unwrap();
    assert_eq!(result.reason, EndReason::RaceWon);
    assert!(matches!(
        room.events().last(),
        Some(Event::Ended { winner, reason: EndReason::RaceWon }) if *winner == result.winner
    ));
}

/// The stamps of `seat` the room holds.
fn stamps_of(room: &Room, seat: u8) -> usize {
    room.events()
        .iter()
        .filter(|e| matches!(e, Event::Stamp { seat: s, .. } if *s == seat))
        .count()
}

#[test]
fn stamps_come_a_burst_at_once_then_one_an_interval_and_a_few_hundred_a_game() {
    let mut room = full_room(GameId::Hasami);
    let guest = token(GUEST);
    let events = room.event_count();
    let t = 10_000;
    // A burst: the first few are taken, the rest refused with the wait.
    let answers: Vec<_> = (0..10)
        .map(|_| room.stamp(&guest, 1, Stamp::Again, t))
        .collect();
    let burst = STAMP_BURST as usize;
    assert!(answers[..burst].iter().all(Result::is_ok), "{answers:?}");
    for answer in &answers[burst..] {
        assert_eq!(
            *answer,
            Err(Refusal::StampTooSoon {
                wait_ms: STAMP_INTERVAL_MS as u32
            })
        );
    }
    assert_eq!(
        room.event_count(),
        events + burst as u64,
        "refused: not kept"
    );
    // Each seat has its own: the host greets all the same.
    assert_eq!(room.stamp(&token(HOST), 0, Stamp::Hello, t), Ok(()));
    // Half an interval later, still too soon; a whole one later, one more.
    let half = STAMP_INTERVAL_MS / 2;
    assert_eq!(
        room.stamp(&guest, 1, Stamp::Again, t + half),
        Err(Refusal::StampTooSoon {
            wait_ms: (STAMP_INTERVAL_MS - half) as u32
        })
    );
    assert_eq!(
        room.stamp(&guest, 1, Stamp::Again, t + STAMP_INTERVAL_MS),
        Ok(())
    );
    assert!(
        room.stamp(&guest, 1, Stamp::Again, t + STAMP_INTERVAL_MS)
            .is_err()
    );

    // A slow stream, one an interval, is taken whole, up to the game's cap.
    let mut now = t + STAMP_INTERVAL_MS;
    while stamps_of(&room, 1) < MAX_STAMPS_PER_SEAT {
        now += STAMP_INTERVAL_MS;
        assert_eq!(room.stamp(&guest, 1, Stamp::Thanks, now), Ok(()));
    }
    now += 60 * STAMP_INTERVAL_MS;
    assert_eq!(
        room.stamp(&guest, 1, Stamp::Thanks, now),
        Err(Refusal::NoStampsLeft)
    );
    assert_eq!(stamps_of(&room, 1), MAX_STAMPS_PER_SEAT);
    // The cap is the game's: a restarted server counts what it kept.
    let mut rebuilt = Room::restore(room.stored()).unwrap();
    assert_eq!(
        rebuilt.stamp(&guest, 1, Stamp::Thanks, now),
        Err(Refusal::NoStampsLeft)
    );
    assert_eq!(rebuilt.stamp(&token(HOST), 0, Stamp::Thanks, now), Ok(()));
    // The game goes on: stamps never stand in a move's way.
    let mirror = open_table(GameId::Hasami, &rules_of(GameId::Hasami)).unwrap();
    let first = first_legal(mirror.as_ref());
    assert_eq!(room.play(&token(HOST), 2, &first, now), Ok(()));
}

#[test]
fn a_refusal_quotes_a_little_of_what_was_sent_cut_between_characters() {
    assert_eq!(Quote::new("9九→1一").as_str(), "9九→1一");
    for text in [
        "x".repeat(5_000),
        "将".repeat(5_000),
        format!("x{}", "将".repeat(5_000)),
    ] {
        let quote = Quote::new(&text);
        assert!(quote.as_str().len() <= MAX_QUOTE_BYTES, "{quote}");
        assert!(quote.as_str().ends_with('…'));
        assert!(text.starts_with(quote.as_str().trim_end_matches('…')));
        // A quote read from the wire is cut as well.
        let read: Quote = ron::from_str(&ron::to_string(&text).unwrap()).unwrap();
        assert_eq!(read, quote);
    }
    let mut room = full_room(GameId::Hasami);
    let events = room.event_count();
    let huge = "将".repeat(MAX_MESSAGE_BYTES / 3);
    let Err(Refusal::Illegal(quoted)) = room.play(&token(HOST), events, &huge, 2_000) else {
        panic!("a huge move is illegal");
    };
    assert_eq!(quoted, Quote::new(&huge));
    assert_eq!(room.event_count(), events);
    let refused = encode(&ServerMessage::Refused {
        refusal: Refusal::Illegal(quoted),
    });
    assert!(refused.len() < 2 * MAX_QUOTE_BYTES, "{refused}");
    // What the reader says of a long message is cut too.
    let Err(Refusal::Malformed(why)) = decode::<ClientMessage>(&"Q".repeat(MAX_MESSAGE_BYTES))
    else {
        panic!("not a message");
    };
    assert!(why.as_str().len() <= MAX_QUOTE_BYTES, "{why}");
}

#[test]
fn a_plan_whose_rules_are_past_their_bound_is_refused_and_the_welcome_stays_small() {
    let code = RoomCode::from_bits(3);
    let mut long = plan(GameId::Hasami);
    // Blanks the rules' reader would skip: the text itself is what is sent.
    long.rules.push_str(&" ".repeat(MAX_RULES_BYTES));
    assert_eq!(
        Room::create(code.clone(), long, token(HOST), 0, 0).map(|_| ()),
        Err(Refusal::BadPlan(
            format!("the rules are longer than {MAX_RULES_BYTES} bytes").into()
        ))
    );
    let mut padded = plan(GameId::Hasami);
    let pad = MAX_RULES_BYTES - padded.rules.len();
    padded.rules.push_str(&" ".repeat(pad));
    // The longest plan the server takes: its welcome, with the longest
    // names on every seat a room can have, is far within the limit.
    let mut mawari = mawari_plan(&[
        SeatKind::Host,
        SeatKind::Remote,
        SeatKind::Remote,
        SeatKind::Remote,
    ]);
    for seat in &mut mawari.seats {
        seat.name = name(&"ま".repeat(MAX_NAME_CHARS));
    }
    let pad = MAX_RULES_BYTES - mawari.rules.len();
    mawari.rules.push_str(&" ".repeat(pad));
    for plan in [padded, mawari] {
        let room = Room::create(code.clone(), plan, token(HOST), 0, 0).unwrap();
        let welcome = encode(&ServerMessage::Welcome {
            view: room.view().clone(),
            token: token(HOST),
            seats: vec![0],
            page: Some(format!("http://{}/", "9".repeat(MAX_PAGE_BYTES - 8))),
            watch: Some(RoomCode::from_bits(u64::MAX)),
        });
        assert!(welcome.len() < MAX_MESSAGE_BYTES / 4, "{}", welcome.len());
    }
}

#[test]
fn a_room_s_events_travel_in_messages_within_the_limit() {
    // まわり将棋's throws are the longest events: a number of a gesture is
    // written out in full (about 330 digits at the smallest).
    let long = Event::Moved {
        seat: 1,
        text: format!("toss {} 1 30 {}", f64::MIN_POSITIVE, u64::MAX),
    };
    let short = Event::Stamp {
        seat: 0,
        stamp: Stamp::Hello,
    };
    let events: Vec<Event> = (0..1_000)
        .map(|i| {
            if i % 3 == 0 {
                short.clone()
            } else {
                long.clone()
            }
        })
        .collect();
    let messages = events_messages(7, &events);
    let mut next = 7;
    let mut again = Vec::new();
    for message in &messages {
        assert!(encode(message).len() <= MAX_MESSAGE_BYTES);
        let ServerMessage::Events { first, events } = message else {
            panic!("{message:?}");
        };
        assert_eq!(*first, next, "numbered on from the message before");
        assert!(!events.is_empty() && events.len() <= EVENTS_PER_MESSAGE);
        next += events.len() as u64;
        again.extend(events.iter().cloned());
    }
    assert_eq!(again, events, "every event once, in order");
    // Short events still go as many as a message takes.
    let stamps = vec![short; 450];
    let counts: Vec<usize> = events_messages(1, &stamps)
        .iter()
        .map(|m| match m {
            ServerMessage::Events { events, .. } => events.len(),
            _ => 0,
        })
        .collect();
    assert_eq!(counts, vec![EVENTS_PER_MESSAGE, EVENTS_PER_MESSAGE, 50]);
    assert!(events_messages(1, &[]).is_empty());
}

#[test]
fn after_the_end_both_agree_and_the_next_game_begins_with_sides_swapped_and_the_score_kept() {
    use yorimichi::net::protocol::NextGame;
    use yorimichi::net::room::{game_number, rematch_terms, replay_series, series};
    let mut room = full_room(GameId::Hasami);
    let mut mirror = open_table(GameId::Hasami, &rules_of(GameId::Hasami)).unwrap();
    replay_series(&mut mirror, room.events()).unwrap();
    assert_eq!(
        room.rematch(&token(GUEST), None, 2_000),
        Err(Refusal::NotOver)
    );
    // The host (first, seat 0) gives up: the guest wins the first game.
    room.resign(&token(HOST), 0, 2_000).unwrap();
    assert_eq!(
        room.rematch(
            &token(GUEST),
            Some(NextGame {
                game: GameId::Musashi,
                rules: rules_of(GameId::Musashi),
            }),
            2_000
        ),
        Err(Refusal::HostOnly),
        "only the host changes the game"
    );
    let had = room.event_count();
    room.rematch(&token(GUEST), None, 2_000).unwrap();
    assert_eq!(
        room.rematch(&token(GUEST), None, 2_100),
        Err(Refusal::AlreadyAgreed)
    );
    assert_eq!(room.event_count(), had + 1, "an offer waits for the host");
    assert!(room.is_finished());
    let (_, agreed) = rematch_terms(room.events(), room.view());
    assert_eq!(agreed, vec![1]);
    room.rematch(&token(HOST), None, 2_200).unwrap();
    assert!(
        matches!(room.events().last(), Some(Event::NewGame { order, .. }) if *order == vec![1, 0])
    );
    assert_eq!(game_number(room.events()), 1);
    assert!(!room.is_finished(), "a fresh game");
    // Sides swapped: the guest now moves first, with its name.
    assert_eq!(room.seats_of(&token(GUEST)), Some(&[0][..]));
    assert_eq!(room.seats_of(&token(HOST)), Some(&[1][..]));
    assert_eq!(room.view().seats[0].name.as_str(), "たろう");
    replay_series(&mut mirror, &room.events()[had as usize..]).unwrap();
    assert_eq!(mirror.ply(), 0);
    assert_eq!(mirror.result(), None);
    let text = first_legal(mirror.as_ref());
    assert_eq!(
        room.play(&token(HOST), room.event_count(), &text, 2_300),
        Err(Refusal::NotYourSeat)
    );
    let count = room.event_count();
    room.play(&token(GUEST), count, &text, 2_300).unwrap();
    replay_series(&mut mirror, &room.events()[count as usize..]).unwrap();
    assert_eq!(mirror.ply(), 1);
    // Stored and rebuilt mid-way through the second game.
    let stored = room.stored();
    let rebuilt = Room::restore(ron::from_str(&ron::to_string(&stored).unwrap()).unwrap()).unwrap();
    assert_eq!(rebuilt.stored(), stored);
    assert_eq!(rebuilt.seats_of(&token(GUEST)), Some(&[0][..]));
    // The host, now second, gives up again: 2–0 to the guest.
    room.resign(&token(HOST), 1, 2_400).unwrap();
    let score = series(room.events(), 2);
    assert_eq!(score.wins, vec![0, 2], "by the first game's seats");
    assert_eq!(score.first_seats, vec![1, 0]);
    // The host picks まわり将棋 for the same two seats: the guest's offer
    // made before it lapses.
    room.rematch(&token(GUEST), None, 9_000).unwrap();
    let bad = NextGame {
        game: GameId::Mawari,
        rules: mawari_rules(3),
    };
    assert!(matches!(
        room.rematch(&token(HOST), Some(bad), 9_000),
        Err(Refusal::BadPlan(_))
    ));
    let mawari = NextGame {
        game: GameId::Mawari,
        rules: mawari_rules(2),
    };
    room.rematch(&token(HOST), Some(mawari.clone()), 9_100)
        .unwrap();
    let (terms, agreed) = rematch_terms(room.events(), room.view());
    assert_eq!((terms, agreed), (mawari, vec![1]));
    assert_eq!(
        game_number(room.events()),
        1,
        "the guest has not agreed to it"
    );
    room.rematch(&token(GUEST), None, 9_200).unwrap();
    assert_eq!(room.view().game, GameId::Mawari);
    assert!(
        matches!(room.events().last(), Some(Event::NewGame { order, .. }) if *order == vec![0, 1])
    );
    assert_eq!(
        room.seats_of(&token(GUEST)),
        Some(&[0][..]),
        "まわり将棋 keeps the seats"
    );
    // A device that replays the whole series ends on the race's start.
    let mut fresh = open_table(GameId::Hasami, &rules_of(GameId::Hasami)).unwrap();
    replay_series(&mut fresh, room.events()).unwrap();
    assert_eq!((fresh.seats(), fresh.ply()), (2, 0));
}

#[test]
fn a_mawari_series_passes_the_first_throw_on() {
    use yorimichi::net::table::next_game_rules;
    let mut rules: MawariTableRules = ron::from_str(&mawari_rules(3)).unwrap();
    rules.draw_order = false;
    let text = ron::to_string(&rules).unwrap();
    for number in 0..4 {
        let next: MawariTableRules =
            ron::from_str(&next_game_rules(GameId::Mawari, &text, number).unwrap()).unwrap();
        assert_eq!(usize::from(next.first), number % 3);
        assert_eq!(next.race().unwrap().turn, number % 3);
    }
    // Other games' rules are as they were.
    let hasami = rules_of(GameId::Hasami);
    assert_eq!(next_game_rules(GameId::Hasami, &hasami, 1).unwrap(), hasami);
}

#[test]
fn a_takeback_by_consent_takes_the_askers_move_and_the_reply_back_or_is_declined() {
    use yorimichi::net::protocol::{REQUEST_BURST, TAKEBACK_ANSWER_MS};
    use yorimichi::net::room::replay_series;
    let mut room = full_room(GameId::Hasami);
    let mut mirror = open_table(GameId::Hasami, &rules_of(GameId::Hasami)).unwrap();
    replay_series(&mut mirror, room.events()).unwrap();
    let (host, guest) = (token(HOST), token(GUEST));
    assert_eq!(
        room.ask_takeback(&host, 0, 1_000),
        Err(Refusal::NothingToTakeBack)
    );
    assert_eq!(
        room.answer_takeback(&guest, 1, true, 1_000),
        Err(Refusal::NoTakebackAsked)
    );
    let mut now = 1_000;
    let step = |room: &mut Room, mirror: &mut Box<dyn Table>, who: &SeatToken| {
        let had = room.event_count();
        let text = first_legal(mirror.as_ref());
        room.play(who, had, &text, 1_500).unwrap();
        replay_series(mirror, &room.events()[had as usize..]).unwrap();
    };
    // The host moves and asks at once: one move back.
    step(&mut room, &mut mirror, &host);
    let had = room.event_count();
    room.ask_takeback(&host, 0, now).unwrap();
    assert_eq!(
        room.ask_takeback(&host, 0, now),
        Err(Refusal::TakebackPending)
    );
    assert_eq!(
        room.answer_takeback(&host, 0, true, now),
        Err(Refusal::NotYourSeat),
        "the asker does not answer itself"
    );
    room.answer_takeback(&guest, 1, true, now).unwrap();
    assert!(matches!(
        room.events().last(),
        Some(Event::TakenBack { seat: 1, plies: 1 })
    ));
    replay_series(&mut mirror, &room.events()[had as usize..]).unwrap();
    assert_eq!(mirror.ply(), 0);
    // The host moves, the guest replies while the request waits, and the
    // host may not move on: accepted, both moves go back.
    step(&mut room, &mut mirror, &host);
    now += 20_000;
    let had = room.event_count();
    room.ask_takeback(&host, 0, now).unwrap();
    step(&mut room, &mut mirror, &guest);
    let text = first_legal(mirror.as_ref());
    assert_eq!(
        room.play(&host, room.event_count(), &text, now),
        Err(Refusal::TakebackPending)
    );
    room.answer_takeback(&guest, 1, true, now).unwrap();
    assert!(matches!(
        room.events().last(),
        Some(Event::TakenBack { plies: 2, .. })
    ));
    replay_series(&mut mirror, &room.events()[(had + 2) as usize..]).unwrap();
    assert_eq!(mirror.ply(), 0);
    // Declined, the board stays; not answered, the server declines it.
    step(&mut room, &mut mirror, &host);
    now += 20_000;
    room.ask_takeback(&host, 0, now).unwrap();
    room.answer_takeback(&guest, 1, false, now).unwrap();
    assert!(matches!(
        room.events().last(),
        Some(Event::TakebackDeclined {
            seat: 1,
            timed_out: false
        })
    ));
    now += 20_000;
    room.ask_takeback(&host, 0, now).unwrap();
    assert_eq!(room.next_deadline(), Some(now + TAKEBACK_ANSWER_MS));
    // Stored while it waits, the deadline stays.
    let rebuilt = Room::restore(room.stored()).unwrap();
    assert_eq!(rebuilt.next_deadline(), Some(now + TAKEBACK_ANSWER_MS));
    assert!(!room.tick(now + TAKEBACK_ANSWER_MS - 1));
    assert!(room.tick(now + TAKEBACK_ANSWER_MS));
    assert!(matches!(
        room.events().last(),
        Some(Event::TakebackDeclined {
            seat: 1,
            timed_out: true
        })
    ));
    assert_eq!(mirror.ply(), 1);
    // Requests come a burst at once, then one an interval.
    let mut refused = None;
    for _ in 0..=REQUEST_BURST {
        match room.ask_takeback(&host, 0, now + TAKEBACK_ANSWER_MS + 1) {
            Ok(()) => room
                .answer_takeback(&guest, 1, false, now + TAKEBACK_ANSWER_MS + 1)
                .unwrap(),
            Err(refusal) => refused = Some(refusal),
        }
    }
    assert!(
        matches!(refused, Some(Refusal::RequestTooSoon { .. })),
        "{refused:?}"
    );
}

#[test]
fn a_room_without_takebacks_and_a_race_refuse_them() {
    let code = RoomCode::from_bits(77);
    let mut off = plan(GameId::ChuShogi);
    off.takebacks = false;
    let mut room = Room::create(code.clone(), off, token(HOST), 0, 1_000).unwrap();
    room.join(token(GUEST), name("b"), 1_000).unwrap();
    let mirror = open_table(GameId::ChuShogi, &rules_of(GameId::ChuShogi)).unwrap();
    room.play(
        &token(HOST),
        room.event_count(),
        &first_legal(mirror.as_ref()),
        1_000,
    )
    .unwrap();
    assert_eq!(
        room.ask_takeback(&token(HOST), 0, 1_000),
        Err(Refusal::NoTakebacks)
    );
    let mut race = mawari_plan(&[SeatKind::Host, SeatKind::Remote]);
    race.takebacks = true;
    assert!(matches!(
        Room::create(code, race, token(HOST), 0, 1_000),
        Err(Refusal::BadPlan(_))
    ));
}

#[test]
fn watchers_are_counted_bounded_and_their_stamps_limited() {
    use yorimichi::net::protocol::MAX_WATCHERS;
    let mut room = full_room(GameId::Hasami);
    for n in 1..=MAX_WATCHERS {
        assert_eq!(room.watch(), Ok(n as u32));
    }
    assert_eq!(room.watch(), Err(Refusal::TooManyWatchers));
    assert_eq!(room.unwatch(), MAX_WATCHERS as u32 - 1);
    let had = room.event_count();
    for _ in 0..STAMP_BURST {
        room.cheer(Stamp::Hello, 5_000).unwrap();
    }
    assert!(matches!(
        room.cheer(Stamp::Hello, 5_000),
        Err(Refusal::StampTooSoon { .. })
    ));
    assert_eq!(room.event_count(), had + u64::from(STAMP_BURST));
    assert!(matches!(
        room.events().last(),
        Some(Event::Cheered {
            stamp: Stamp::Hello
        })
    ));
}

/// A 中将棋 room on a clock of `main` seconds then `byoyomi` a move, both
/// devices here from time 0.
fn clocked_room(main: u32, byoyomi: u32) -> Room {
    let clock = RoomClock {
        main_seconds: main,
        byoyomi_seconds: byoyomi,
    };
    let plan = RoomPlan {
        clock: Some(clock),
        ..plan(GameId::ChuShogi)
    };
    let code = RoomCode::from_bits(0x12_3456_789a);
    let mut room = Room::create(code, plan, token(HOST), 0, 0).unwrap();
    room.join(token(GUEST), name("たろう"), 0).unwrap();
    room.connected(&token(HOST), 0);
    room.connected(&token(GUEST), 0);
    room
}

/// The seat to move's first legal move, sent by `who` at `now`.
fn clocked_move(room: &mut Room, who: u128, now: u64) -> Result<(), Refusal> {
    let mut table = open_table(GameId::ChuShogi, &room.view().rules).unwrap();
    replay(table.as_mut(), room.events()).unwrap();
    let text = first_legal(table.as_ref());
    room.play(&token(who), room.event_count(), &text, now)
}

fn clocks(left: [u64; 2], byoyomi_ms: u64, running: bool) -> Option<Clocks> {
    Some(Clocks {
        left_ms: left.to_vec(),
        byoyomi_ms,
        running,
    })
}

#[test]
fn a_chu_room_clock_charges_each_move_resets_byoyomi_stands_and_ends_the_game_on_time() {
    let mut room = clocked_room(10, 5);
    assert_eq!(room.clocks(0), clocks([10_000, 10_000], 5_000, true));
    // Each move is charged the time since the one before, as the server
    // measured it: the 持ち時間 first, then that turn's 秒読み.
    clocked_move(&mut room, HOST, 3_000).unwrap();
    assert_eq!(room.clocks(3_000), clocks([7_000, 10_000], 5_000, true));
    clocked_move(&mut room, GUEST, 15_000).unwrap();
    assert_eq!(room.clocks(15_000), clocks([7_000, 0], 5_000, true));
    clocked_move(&mut room, HOST, 20_000).unwrap();
    // 秒読み starts afresh each move: 4 s now after 2 s the turn before.
    assert_eq!(room.clocks(22_000), clocks([2_000, 0], 3_000, true));
    clocked_move(&mut room, GUEST, 24_000).unwrap();
    assert_eq!(room.clocks(24_000), clocks([2_000, 0], 5_000, true));
    // A player away: both clocks stand (通信切れ's grace decides).
    room.disconnected(&token(HOST), 25_000);
    assert_eq!(room.clocks(50_000), clocks([1_000, 0], 5_000, false));
    assert_eq!(room.next_deadline(), Some(85_000));
    room.connected(&token(HOST), 80_000);
    assert_eq!(room.next_deadline(), Some(86_000));
    // A 待った waiting for its answer stands them too; declined, the
    // clock runs on where it stood.
    room.ask_takeback(&token(GUEST), 1, 80_500).unwrap();
    assert_eq!(room.clocks(89_000), clocks([500, 0], 5_000, false));
    room.answer_takeback(&token(HOST), 0, false, 90_000)
        .unwrap();
    assert_eq!(room.next_deadline(), Some(95_500));
    // A restart: charged up to the server's last beat (92 s), not for the
    // time it was down; the clock runs again once both are back.
    let mut room = Room::restore(room.stored()).unwrap();
    room.restarted(200_000, Some(92_000));
    assert_eq!(room.clocks(200_000), clocks([0, 0], 3_500, false));
    room.connected(&token(HOST), 200_000);
    room.connected(&token(GUEST), 200_000);
    assert_eq!(room.next_deadline(), Some(203_500));
    assert!(!room.tick(203_499));
    // A move after the flag fell is too late, and changes nothing.
    let events = room.event_count();
    assert_eq!(
        clocked_move(&mut room, HOST, 203_500),
        Err(Refusal::Finished)
    );
    assert_eq!(room.event_count(), events);
    assert!(room.tick(203_500));
    assert_eq!(
        room.events().last(),
        Some(&Event::Ended {
            winner: Some(1),
            reason: EndReason::OutOfTime
        })
    );
    assert_eq!(room.clocks(204_000).map(|c| c.running), Some(false));
}

#[test]
fn a_room_clock_is_for_chu_shogi_and_within_its_limits() {
    let code = RoomCode::from_bits(1);
    let with = |game, main, byoyomi| {
        let plan = RoomPlan {
            clock: Some(RoomClock {
                main_seconds: main,
                byoyomi_seconds: byoyomi,
            }),
            ..plan(game)
        };
        Room::create(code.clone(), plan, token(HOST), 0, 0).map(|_| ())
    };
    assert!(with(GameId::ChuShogi, 600, 30).is_ok());
    for (game, main, byoyomi) in [
        (GameId::Hasami, 600, 30),
        (GameId::ChuShogi, 0, 0),
        (GameId::ChuShogi, 3_601, 30),
        (GameId::ChuShogi, 600, 601),
    ] {
        assert!(
            matches!(with(game, main, byoyomi), Err(Refusal::BadPlan(_))),
            "{game:?} {main} {byoyomi}"
        );
    }
}
