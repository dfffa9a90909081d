//! Two headless apps and a room server in one process: one makes a room
//! on the setup screen (離れた人 → 部屋を作る), the other types the code on
//! the room screen's pad, and they play はさみ将棋 to its end by tapping
//! the board, each seeing the other's moves; a greeting reaches the other
//! side.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use yorimichi::games::mawari::{
    MawariBegin, MawariDraft, MawariMatch, Phase, Seat, Shown, ThrowButton, TurnOrder,
};
use yorimichi::games::play::BoardTap;
use yorimichi::games::play::{LastResult, PlayCommand};
use yorimichi::games::session::{Match, Opponent, Playable, SetupDraft, SideChoice};
use yorimichi::headless::{click, find};
use yorimichi::net::protocol::{CLOCK_CHOICES, Event, Stamp};
use yorimichi::rules::chu::game::Chu;
use yorimichi::rules::data::GameId;
use yorimichi::rules::foxgeese::FoxGeese;
use yorimichi::rules::game::{EndReason, Game, Side};
use yorimichi::rules::hasami::Hasami;
use yorimichi::rules::musashi::Musashi;
use yorimichi::server::{Running, ServeOptions, start};
use yorimichi::shell::Screen;
use yorimichi::shell::i18n::Lang;
use yorimichi::shell::rooms::StampButton;
use yorimichi::shell::rooms::{CodeKey, JoinButton, RoomLink, RoomRulesText};
use yorimichi::shell::screens::CardButton;
use yorimichi::shell::settings::Settings;

use super::common::{card, screen, temp_store};

fn serve(test: &str) -> (Running, std::path::PathBuf) {
    let db = std::env::temp_dir().join(format!(
        "yorimichi-app-{}-{test}.sqlite3",
        std::process::id()
    ));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let server = start(ServeOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        db: db.clone(),
        web: None,
        joins_per_minute: 60,
        print_address: false,
        lan: false,
        announce: None,
        any_clock: false,
    })
    .expect("a server");
    (server, db)
}

/// A headless app on the game list that uses the room server at `url`.
fn device(store: yorimichi::shell::save::Store, url: &str) -> App {
    let mut app = yorimichi::headless::app(store);
    app.insert_resource(Settings {
        server: Some(url.to_string()),
        ..Settings::default()
    });
    app.update();
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::GameList);
    app.update();
    app
}

/// Runs frames of every app until `done` holds for the first.
fn run_until(apps: &mut [&mut App], what: &str, done: impl Fn(&mut App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        for app in apps.iter_mut() {
            app.update();
        }
        if done(apps[0]) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn room_code(app: &App) -> Option<String> {
    let room = app.world().resource::<RoomLink>();
    Some(room.0.as_ref()?.view.as_ref()?.room.as_str().to_string())
}

fn room_events(app: &App) -> Vec<Event> {
    let room = app.world().resource::<RoomLink>();
    room.0
        .as_ref()
        .map(|c| c.events.clone())
        .unwrap_or_default()
}

/// The host makes a room from the setup screen (playing 先手); the guest
/// types its code on the pad. Both end on the play screen.
fn open_room(host: &mut App, guest: &mut App) {
    open_room_of::<Hasami>(host, guest)
}

fn open_room_of<G: Playable>(host: &mut App, guest: &mut App) {
    host.insert_resource(SetupDraft::<G> {
        remote: true,
        side: SideChoice::First,
        grace_seconds: 30,
        ..host.world().resource::<SetupDraft<G>>().clone()
    });
    let new = card(host, CardButton::New(G::ID)).expect("the card");
    click(host, new);
    host.update();
    assert_eq!(screen(host), Screen::Setup);
    // 中将棋's room is played on a clock, chosen by its button.
    if G::ID == GameId::ChuShogi {
        let button = {
            let mut q = host.world_mut().query::<(&Text, &ChildOf)>();
            q.iter(host.world())
                .find(|(t, _)| t.0 == "10分+秒読み30秒")
                .map(|(_, c)| c.parent())
                .expect("the clock's button")
        };
        click(host, button);
        host.update();
        let chosen = host.world().resource::<SetupDraft<G>>().room_clock;
        assert_eq!(chosen, Some(CLOCK_CHOICES[0]));
    }
    let begin = find::<yorimichi::games::setup::BeginButton>(host).expect("部屋を作る");
    click(host, begin);
    host.update();
    assert_eq!(screen(host), Screen::Lobby);
    run_until(&mut [host], "the room's code", |app| {
        room_code(app).is_some()
    });
    let code = room_code(host).unwrap();
    // The room screen names the rules: the setup's preset.
    let preset = {
        let d = host.world().resource::<SetupDraft<G>>();
        let presets = host
            .world()
            .resource::<yorimichi::games::session::Presets<G>>();
        presets
            .0
            .preset(&d.preset)
            .map(|p| p.name.ja.clone())
            .expect("the setup's preset")
    };
    run_until(&mut [host], "the room's rules in words", |app| {
        let mut q = app
            .world_mut()
            .query_filtered::<&Text, With<RoomRulesText>>();
        q.iter(app.world()).any(|t| t.0.contains(&preset))
    });
    join_with_pad(guest, &code);
    run_until(&mut [host, guest], "the host's game", |app| {
        screen(app) == Screen::Play
    });
    run_until(&mut [guest, host], "the guest's game", |app| {
        screen(app) == Screen::Play
    });
    // The room has the setup's grace period, on both devices.
    for app in [&*host, &*guest] {
        let room = app.world().resource::<RoomLink>();
        let view = room
            .0
            .as_ref()
            .and_then(|c| c.view.as_ref())
            .expect("the room");
        assert_eq!(view.grace_seconds, 30);
        let clock = (G::ID == GameId::ChuShogi).then_some(CLOCK_CHOICES[0]);
        assert_eq!(view.clock, clock);
    }
    // Both devices show both clocks, as the server keeps them: the guest's
    // stands while the host is to move.
    if G::ID == GameId::ChuShogi {
        for app in [&mut *host, &mut *guest] {
            run_until(&mut [app], "the clocks on the play screen", |app| {
                let mut q = app.world_mut().query::<&Text>();
                q.iter(app.world()).any(|t| {
                    t.0.contains("残り時間") && t.0.contains("☗ ") && t.0.contains("☖ 10:00")
                })
            });
        }
    }
    for (app, side) in [(&*host, Side::First), (&*guest, Side::Second)] {
        let m = app.world().resource::<Match<G>>();
        assert_eq!(m.setup.opponent, Opponent::Remote);
        assert_eq!(m.setup.human_side, side);
        // 待った is asked of the other side where the room allows it: at
        // first everywhere but in 中将棋.
        assert_eq!(m.setup.undo_allowed, G::ID != GameId::ChuShogi);
    }
}

/// The guest opens the room screen and types `code` on its pad, then
/// 入る.
fn join_with_pad(guest: &mut App, code: &str) {
    guest
        .world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Lobby);
    guest.update();
    guest.update();
    for c in code.chars() {
        let key = {
            let mut q = guest.world_mut().query::<(Entity, &CodeKey)>();
            q.iter(guest.world())
                .find(|(_, k)| k.0 == c)
                .map(|(e, _)| e)
                .expect("a key for every letter")
        };
        click(guest, key);
        guest.update();
    }
    let join = find::<JoinButton>(guest).expect("入る");
    click(guest, join);
}

/// The player to move taps a legal move (varied with the ply) on their
/// own board; both apps then show it.
fn tap_a_move(host: &mut App, guest: &mut App) {
    let ply = host.world().resource::<Match<Hasami>>().record.ply();
    let mover_is_host = {
        let m = host.world().resource::<Match<Hasami>>();
        m.game.side_to_move(m.record.current()) == m.setup.human_side
    };
    let (mover, other) = if mover_is_host {
        (host, guest)
    } else {
        (guest, host)
    };
    // Taps during an animation are dropped, as on a real screen.
    super::common::settle::<Hasami>(mover);
    super::common::settle::<Hasami>(other);
    let mv = {
        let m = mover.world().resource::<Match<Hasami>>();
        let mut moves = Vec::new();
        m.game.legal_moves(m.record.current(), &mut moves);
        moves[(ply * 7 + 3) % moves.len()]
    };
    // The other side may not move for the mover.
    {
        let before = other.world().resource::<Match<Hasami>>().record.ply();
        other.world_mut().write_message(BoardTap(mv.from as usize));
        other.update();
        other.world_mut().write_message(BoardTap(mv.to as usize));
        other.update();
        assert_eq!(
            other.world().resource::<Match<Hasami>>().record.ply(),
            before
        );
    }
    mover.world_mut().write_message(BoardTap(mv.from as usize));
    mover.update();
    mover.world_mut().write_message(BoardTap(mv.to as usize));
    mover.update();
    run_until(&mut [other, mover], "the move on the other device", |app| {
        app.world().resource::<Match<Hasami>>().record.ply() == ply + 1
    });
    run_until(&mut [mover, other], "the move confirmed", |app| {
        room_events(app)
            .iter()
            .filter(|e| matches!(e, Event::Moved { .. }))
            .count()
            == ply + 1
    });
}

#[test]
fn two_apps_play_hasami_shogi_through_a_room_to_its_end() {
    let (server, _db) = serve("two-apps");
    let (host_store, _h) = temp_store("room-host");
    let (guest_store, _g) = temp_store("room-guest");
    let mut host = device(host_store, &server.url());
    let mut guest = device(guest_store, &server.url());
    open_room(&mut host, &mut guest);

    // よろしく from the guest reaches the host's play screen.
    let hello = {
        let mut q = guest.world_mut().query::<(Entity, &StampButton)>();
        q.iter(guest.world())
            .find(|(_, s)| s.0 == Stamp::Hello)
            .map(|(e, _)| e)
            .expect("the stamps")
    };
    click(&mut guest, hello);
    run_until(&mut [&mut host, &mut guest], "the greeting", |app| {
        room_events(app).iter().any(|e| {
            matches!(
                e,
                Event::Stamp {
                    stamp: Stamp::Hello,
                    ..
                }
            )
        })
    });

    // 待った: each device shows only the buttons that mean something now.
    let shown = |app: &mut App| {
        let mut q = app
            .world_mut()
            .query::<(&yorimichi::shell::rooms::TakebackButton, &Node)>();
        let mut on: Vec<_> = q
            .iter(app.world())
            .filter(|(_, n)| n.display != Display::None)
            .map(|(b, _)| *b)
            .collect();
        on.sort_by_key(|b| *b as u8);
        on
    };
    use yorimichi::shell::rooms::TakebackButton::{Accept, Ask, Decline};
    assert_eq!(shown(&mut guest), [Ask]);
    tap_a_move(&mut host, &mut guest);
    if let Some(c) = host.world_mut().resource_mut::<RoomLink>().0.as_mut() {
        c.ask_takeback();
    }
    run_until(
        &mut [&mut guest, &mut host],
        "the request on the guest's screen",
        |app| shown(app) == [Accept, Decline],
    );
    assert!(
        shown(&mut host).is_empty(),
        "the asker waits for the answer"
    );
    if let Some(c) = guest.world_mut().resource_mut::<RoomLink>().0.as_mut() {
        c.answer_takeback(false);
    }
    run_until(
        &mut [&mut guest, &mut host],
        "the request answered",
        |app| shown(app) == [Ask],
    );
    run_until(
        &mut [&mut host, &mut guest],
        "the answer on the host's",
        |app| shown(app) == [Ask],
    );

    for _ in 0..600 {
        let over = {
            let m = host.world().resource::<Match<Hasami>>();
            m.record.outcome(&m.game).is_some()
        };
        if over || screen(&host) != Screen::Play {
            break;
        }
        tap_a_move(&mut host, &mut guest);
    }
    let events = room_events(&host);
    run_until(&mut [&mut host, &mut guest], "the host's result", |app| {
        screen(app) == Screen::Result
    });
    run_until(&mut [&mut guest, &mut host], "the guest's result", |app| {
        screen(app) == Screen::Result
    });
    // The same game on both devices, every move the room's.
    let [h, g] = [&host, &guest].map(|app| {
        let m = app.world().resource::<Match<Hasami>>();
        (m.record.moves().to_vec(), m.record.outcome(&m.game))
    });
    assert_eq!(h, g);
    let moved = events
        .iter()
        .filter(|e| matches!(e, Event::Moved { .. }))
        .count();
    assert_eq!(moved, h.0.len());
    assert!(h.1.is_some() && moved > 10);
    // The finished room stays while the result is shown: もう一度 offers
    // the next game on the room screen, and when both have agreed both
    // devices go straight to it, sides swapped, the score kept.
    for app in [&host, &guest] {
        assert!(app.world().resource::<RoomLink>().0.is_some());
    }
    let before = host.world().resource::<Match<Hasami>>().setup.human_side;
    // The guest's もう一度 is told on the host's result screen.
    let offer = |app: &mut App| {
        let mut q = app
            .world_mut()
            .query_filtered::<&Text, With<yorimichi::games::play::RematchOfferText>>();
        q.iter(app.world()).map(|t| t.0.clone()).collect::<Vec<_>>()
    };
    assert_eq!(offer(&mut host), [""]);
    let again = find::<yorimichi::games::play::PlayAgainButton>(&mut guest).expect("もう一度");
    click(&mut guest, again);
    guest.update();
    run_until(
        &mut [&mut host, &mut guest],
        "the guest's offer on the host's result",
        |app| {
            offer(app)
                .first()
                .is_some_and(|t| t.contains("もう一回 しませんか"))
        },
    );
    let again = find::<yorimichi::games::play::PlayAgainButton>(&mut host).expect("もう一度");
    click(&mut host, again);
    host.update();
    let fresh = |app: &mut App| {
        screen(app) == Screen::Play && {
            let m = app.world().resource::<Match<Hasami>>();
            m.record.ply() == 0 && m.record.outcome(&m.game).is_none()
        }
    };
    run_until(&mut [&mut host, &mut guest], "the host's next game", fresh);
    run_until(&mut [&mut guest, &mut host], "the guest's next game", fresh);
    let after = host.world().resource::<Match<Hasami>>().setup.human_side;
    assert_eq!(after, before.opponent(), "sides swapped");
    let room = host.world().resource::<RoomLink>().0.as_ref().unwrap();
    assert_eq!(room.game_number(), 1);
    let score = yorimichi::net::room::series(&room.events, 2);
    assert_eq!(score.wins.iter().sum::<u32>() + score.draws, 1);
    assert!(!room.game_over());
}

#[test]
fn a_device_whose_app_closed_mid_game_comes_back_with_continue() {
    let (server, _db) = serve("continue");
    let (host_store, _h) = temp_store("room-host-continue");
    let guest_dir =
        std::env::temp_dir().join(format!("yorimichi-room-guest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&guest_dir);
    std::fs::create_dir_all(&guest_dir).unwrap();
    let guest_store =
        || yorimichi::shell::save::Store::new(Some(bevy_pkv::PkvStore::new_in_dir(&guest_dir)));
    let mut host = device(host_store, &server.url());
    let mut guest = device(guest_store(), &server.url());
    open_room(&mut host, &mut guest);
    for _ in 0..4 {
        tap_a_move(&mut host, &mut guest);
    }
    // The guest's app closes; the host moves meanwhile and sees the guest
    // away.
    drop(guest);
    let ply = host.world().resource::<Match<Hasami>>().record.ply();
    super::common::settle::<Hasami>(&mut host);
    let mv = {
        let m = host.world().resource::<Match<Hasami>>();
        let mut moves = Vec::new();
        m.game.legal_moves(m.record.current(), &mut moves);
        moves[0]
    };
    host.world_mut().write_message(BoardTap(mv.from as usize));
    host.update();
    host.world_mut().write_message(BoardTap(mv.to as usize));
    run_until(
        &mut [&mut host],
        "the move sent with the guest away",
        |app| {
            room_events(app)
                .iter()
                .filter(|e| matches!(e, Event::Moved { .. }))
                .count()
                == ply + 1
        },
    );
    run_until(&mut [&mut host], "the guest seen away", |app| {
        let room = app.world().resource::<RoomLink>();
        room.0.as_ref().is_some_and(|c| !c.away.is_empty())
    });
    // The guest opens the app again: 続きから on the card.
    let mut guest = device(guest_store(), &server.url());
    let resume = card(
        &mut guest,
        CardButton::Continue(yorimichi::rules::data::GameId::Hasami),
    )
    .expect("続きから on the card");
    click(&mut guest, resume);
    run_until(&mut [&mut guest, &mut host], "the guest's game", |app| {
        screen(app) == Screen::Play
            && app.world().resource::<Match<Hasami>>().record.ply() == ply + 1
    });
    run_until(&mut [&mut host, &mut guest], "the guest seen back", |app| {
        let room = app.world().resource::<RoomLink>();
        room.0.as_ref().is_some_and(|c| c.away.is_empty())
    });
    // And the game goes on from there.
    tap_a_move(&mut host, &mut guest);
    tap_a_move(&mut host, &mut guest);
    let [h, g] = [&host, &guest].map(|app| {
        app.world()
            .resource::<Match<Hasami>>()
            .record
            .moves()
            .to_vec()
    });
    assert_eq!(h, g);
    assert_eq!(h.len(), ply + 3);
    let _ = std::fs::remove_dir_all(&guest_dir);
}

/// The legal moves of `m` that taps alone make, each with its taps: no
/// other move has the same taps or goes on from them (a longer jump).
fn tappable<G: Playable>(m: &Match<G>) -> Vec<Vec<usize>> {
    let pos = m.record.current();
    let paths: Vec<Option<Vec<usize>>> = m
        .record
        .legal_moves(&m.game)
        .into_iter()
        .map(|mv| m.game.input_path(pos, mv))
        .collect();
    paths
        .iter()
        .flatten()
        .filter(|taps| {
            paths
                .iter()
                .flatten()
                .filter(|other| other.starts_with(taps))
                .count()
                == 1
        })
        .cloned()
        .collect()
}

/// The player to move taps a move on their own board; both apps show it.
fn tap_any_move<G: Playable>(host: &mut App, guest: &mut App) {
    let ply = host.world().resource::<Match<G>>().record.ply();
    let host_moves = {
        let m = host.world().resource::<Match<G>>();
        m.game.side_to_move(m.record.current()) == m.setup.human_side
    };
    let (mover, other) = if host_moves {
        (host, guest)
    } else {
        (guest, host)
    };
    super::common::settle::<G>(mover);
    super::common::settle::<G>(other);
    let taps = {
        let m = mover.world().resource::<Match<G>>();
        let moves = tappable(m);
        moves[(ply * 7 + 3) % moves.len()].clone()
    };
    for p in taps {
        mover.world_mut().write_message(BoardTap(p));
        mover.update();
    }
    run_until(&mut [other, mover], "the move on the other device", |app| {
        app.world().resource::<Match<G>>().record.ply() == ply + 1
    });
}

/// Every two-player game plays through a room: a few moves each way, then
/// the guest's 投了 ends it on both devices.
fn plays_through_a_room<G: Playable>(name: &str) {
    let (server, _db) = serve(name);
    let (host_store, _h) = temp_store(&format!("room-host-{name}"));
    let (guest_store, _g) = temp_store(&format!("room-guest-{name}"));
    let mut host = device(host_store, &server.url());
    let mut guest = device(guest_store, &server.url());
    open_room_of::<G>(&mut host, &mut guest);
    for _ in 0..6 {
        tap_any_move::<G>(&mut host, &mut guest);
    }
    super::common::settle::<G>(&mut guest);
    guest.world_mut().write_message(PlayCommand::Resign);
    run_until(&mut [&mut host, &mut guest], "the host's result", |app| {
        screen(app) == Screen::Result
    });
    run_until(&mut [&mut guest, &mut host], "the guest's result", |app| {
        screen(app) == Screen::Result
    });
    for app in [&host, &guest] {
        let result = app.world().resource::<LastResult<G>>();
        assert_eq!(result.outcome.winner, Some(Side::First), "{name}");
        assert_eq!(result.outcome.reason, EndReason::Resignation, "{name}");
    }
    let [h, g] =
        [&host, &guest].map(|app| app.world().resource::<Match<G>>().record.moves().to_vec());
    assert_eq!(h, g, "{name}");
    assert_eq!(h.len(), 6, "{name}");
}

#[test]
fn fox_and_geese_plays_through_a_room() {
    plays_through_a_room::<FoxGeese>("foxgeese");
}

#[test]
fn juroku_musashi_plays_through_a_room() {
    plays_through_a_room::<Musashi>("musashi");
}

#[test]
fn chu_shogi_plays_through_a_room() {
    plays_through_a_room::<Chu>("chushogi");
}

/// まわり将棋 through a room from two apps: the host's setup seats a
/// person here, someone far away and the CPU (部屋を作る), the guest types
/// the code. Each throws with 投げる when it is their turn, the server
/// throws for the CPU, and both apps play the same throws: the draw for
/// the first throw, then the race, with a greeting on the way.
#[test]
fn mawari_shogi_plays_through_a_room_with_someone_far_away_and_the_cpu() {
    let (server, _db) = serve("mawari");
    let (host_store, _h) = temp_store("room-mawari-host");
    let (guest_store, _g) = temp_store("room-mawari-guest");
    let mut host = device(host_store, &server.url());
    let mut guest = device(guest_store, &server.url());
    for app in [&mut host, &mut guest] {
        app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    }
    let new = card(&mut host, CardButton::New(GameId::Mawari)).expect("the card");
    click(&mut host, new);
    host.update();
    assert_eq!(screen(&host), Screen::Setup);
    {
        let mut d = host.world_mut().resource_mut::<MawariDraft>();
        d.seats = vec![Seat::Person, Seat::Remote, Seat::Cpu];
        d.names = vec!["はな".into(), String::new(), String::new(), String::new()];
        d.order = TurnOrder::Draw;
        d.quick = true;
    }
    host.update();
    let begin = find::<MawariBegin>(&mut host).expect("部屋を作る");
    click(&mut host, begin);
    host.update();
    assert_eq!(screen(&host), Screen::Lobby);
    run_until(&mut [&mut host], "the room's code", |app| {
        room_code(app).is_some()
    });
    let code = room_code(&host).unwrap();
    // The room screen says the rules every device will play.
    run_until(&mut [&mut host], "the room's rules in words", |app| {
        let mut q = app
            .world_mut()
            .query_filtered::<&Text, With<RoomRulesText>>();
        q.iter(app.world())
            .any(|t| t.0.contains("全部") && t.0.contains("振り順"))
    });
    join_with_pad(&mut guest, &code);
    run_until(&mut [&mut host, &mut guest], "the host's race", |app| {
        screen(app) == Screen::Play
    });
    run_until(&mut [&mut guest, &mut host], "the guest's race", |app| {
        screen(app) == Screen::Play
    });
    let seats = |app: &App| app.world().resource::<MawariMatch>().seats.clone();
    assert_eq!(seats(&host), vec![Seat::Person, Seat::Remote, Seat::Remote]);
    assert_eq!(
        seats(&guest),
        vec![Seat::Remote, Seat::Person, Seat::Remote]
    );
    let names = |app: &App| {
        let m = app.world().resource::<MawariMatch>();
        (0..3).map(|p| m.name(p, Lang::Ja)).collect::<Vec<_>>()
    };
    assert_eq!(names(&host), names(&guest));
    assert_eq!(names(&host)[0], "はな");
    assert!(names(&host)[2].starts_with("CPU"), "{:?}", names(&host));

    let stamp = find::<StampButton>(&mut guest).expect("the greetings");
    click(&mut guest, stamp);
    let wanted = 24;
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut greeted = false;
    loop {
        for app in [&mut host, &mut guest] {
            let (person, waiting) = (
                app.world().resource::<MawariMatch>().person_to_throw(),
                app.world().resource::<Phase>().is_waiting(),
            );
            if person
                && waiting
                && let Some(b) = find::<ThrowButton>(app)
            {
                click(app, b);
            }
            app.update();
        }
        // The greeting reaches the host's room (its banner may give way to
        // a throw's within the frame it comes in, so the banner alone
        // could be missed between two looks).
        greeted |= host
            .world()
            .resource::<Shown>()
            .banner
            .as_ref()
            .is_some_and(|(text, _)| text.contains("よろしく"))
            || room_events(&host).iter().any(|e| {
                matches!(
                    e,
                    Event::Stamp {
                        seat: 1,
                        stamp: Stamp::Hello
                    }
                )
            });
        let logged = |app: &App| app.world().resource::<MawariMatch>().log.len();
        let settled = |app: &App| {
            let m = app.world().resource::<MawariMatch>();
            m.race.is_over() || app.world().resource::<Phase>().is_waiting()
        };
        let over = host.world().resource::<MawariMatch>().race.is_over();
        // A war or a seat sitting out may keep a seat from throwing for a
        // while: play on until every seat has thrown.
        let all_threw = {
            let m = host.world().resource::<MawariMatch>();
            (0..3).all(|p| m.log.iter().any(|e| e.player == p))
        };
        // A turn can pass without a throw (a seat sitting out): the two
        // devices agree once both have taken every event, so the loop
        // waits for that as well (the deadline fails a race that never
        // agrees).
        let same_race = host.world().resource::<MawariMatch>().race
            == guest.world().resource::<MawariMatch>().race;
        if ((logged(&host) >= wanted && all_threw) || over)
            && logged(&guest) == logged(&host)
            && settled(&host)
            && settled(&guest)
            && same_race
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the race stalled at {} throws (the two devices' races agree: {same_race})",
            logged(&host)
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(greeted, "the guest's greeting reached the host");
    let (h, g) = (
        host.world().resource::<MawariMatch>().clone(),
        guest.world().resource::<MawariMatch>().clone(),
    );
    assert_eq!(
        h.race, g.race,
        "both devices are at the same place in the race"
    );
    assert_eq!(h.draw, g.draw);
    let throws = |m: &MawariMatch| {
        m.log
            .iter()
            .map(|e| (e.player, e.poses, e.value, e.toss))
            .collect::<Vec<_>>()
    };
    assert_eq!(throws(&h), throws(&g));
    assert!(h.draw.as_ref().is_some_and(|d| d.first.is_some()));
    for player in 0..3 {
        assert!(
            h.log.iter().any(|e| e.player == player),
            "seat {player} never threw"
        );
    }
    assert_eq!(h.room_events, Some(room_events(&host).len()));
}

/// The position a device's review shows, if it is on its review.
fn review_ply(app: &App) -> Option<usize> {
    (screen(app) == Screen::Review).then(|| {
        app.world()
            .resource::<yorimichi::games::review::Review<Hasami>>()
            .ply
    })
}

/// After a room game, 振り返る on one device opens the review on the other
/// too; the leader's steps move both, the other may lead in turn, and a
/// device that looks alone stays where it is.
#[test]
fn a_review_opened_on_one_device_is_followed_on_the_other_until_it_looks_alone() {
    use yorimichi::games::play::OpenReviewButton;
    use yorimichi::games::review::ReviewCommand;
    use yorimichi::games::room_review::{AloneButton, Together, TogetherText};
    let (server, _db) = serve("review-together");
    let (host_store, _h) = temp_store("review-host");
    let (guest_store, _g) = temp_store("review-guest");
    let mut host = device(host_store, &server.url());
    let mut guest = device(guest_store, &server.url());
    open_room(&mut host, &mut guest);
    for _ in 0..4 {
        tap_a_move(&mut host, &mut guest);
    }
    // 投了 waits for the board to settle, as a tap does.
    super::common::settle::<Hasami>(&mut guest);
    guest.world_mut().write_message(PlayCommand::Resign);
    run_until(&mut [&mut guest, &mut host], "the guest's result", |app| {
        screen(app) == Screen::Result
    });
    run_until(&mut [&mut host, &mut guest], "the host's result", |app| {
        screen(app) == Screen::Result
    });
    let open = find::<OpenReviewButton>(&mut host).expect("振り返る on the result screen");
    click(&mut host, open);
    run_until(&mut [&mut guest, &mut host], "the guest follows", |app| {
        review_ply(app).is_some()
    });
    let opened_at = review_ply(&host);
    run_until(
        &mut [&mut guest, &mut host],
        "the guest at the host's ply",
        |app| review_ply(app) == opened_at,
    );
    let line = |app: &mut App| {
        let mut q = app
            .world_mut()
            .query_filtered::<&Text, With<TogetherText>>();
        q.iter(app.world()).map(|t| t.0.clone()).collect::<Vec<_>>()
    };
    let said = line(&mut guest);
    assert!(
        said.len() == 1 && said[0].contains("が動かしています"),
        "{said:?}"
    );
    // The host steps to the end and back twice: the guest's review goes
    // with it.
    host.world_mut().write_message(ReviewCommand::Last);
    host.update();
    for _ in 0..2 {
        host.world_mut().write_message(ReviewCommand::Previous);
        host.update();
    }
    let shown = review_ply(&host);
    assert_eq!(shown, Some(2));
    run_until(
        &mut [&mut guest, &mut host],
        "the guest at the host's ply",
        |app| review_ply(app) == Some(2),
    );
    // The guest leads in turn.
    guest.world_mut().write_message(ReviewCommand::First);
    guest.update();
    run_until(
        &mut [&mut host, &mut guest],
        "the host at the start",
        |app| review_ply(app) == Some(0),
    );
    // Alone, the guest stays where it is while the host moves on.
    let alone = find::<AloneButton>(&mut guest).expect("ひとりで見る on the room's review");
    click(&mut guest, alone);
    guest.update();
    assert!(guest.world().resource::<Together>().alone);
    let said = line(&mut guest);
    assert!(said == ["ひとりで見ています"], "{said:?}");
    host.world_mut().write_message(ReviewCommand::Last);
    host.update();
    for _ in 0..60 {
        host.update();
        guest.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    let lead = |app: &App| {
        let c = app.world().resource::<RoomLink>();
        c.0.as_ref().map(|c| (c.review_lead, c.review_leads))
    };
    assert_eq!(
        review_ply(&host),
        Some(4),
        "host {:?} guest {:?}",
        lead(&host),
        lead(&guest)
    );
    assert_eq!(review_ply(&guest), Some(0), "guest on {:?}", screen(&guest));
    // Both back to the result and on to the next game: when it ends, the
    // review the first game left behind leads nothing, and both devices
    // stay on the result.
    for app in [&mut host, &mut guest] {
        app.world_mut().write_message(ReviewCommand::Back);
        app.update();
    }
    for app in [&mut guest, &mut host] {
        run_until(&mut [app], "back on the result", |app| {
            screen(app) == Screen::Result
        });
        let again = find::<yorimichi::games::play::PlayAgainButton>(app).expect("もう一度");
        click(app, again);
        app.update();
    }
    let fresh = |app: &mut App| {
        screen(app) == Screen::Play && app.world().resource::<Match<Hasami>>().record.ply() == 0
    };
    run_until(&mut [&mut host, &mut guest], "the host's next game", fresh);
    run_until(&mut [&mut guest, &mut host], "the guest's next game", fresh);
    super::common::settle::<Hasami>(&mut host);
    host.world_mut().write_message(PlayCommand::Resign);
    for _ in 0..2 {
        run_until(&mut [&mut host, &mut guest], "both results", |app| {
            screen(app) == Screen::Result
        });
        std::mem::swap(&mut host, &mut guest);
    }
    for _ in 0..60 {
        host.update();
        guest.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        (screen(&host), screen(&guest)),
        (Screen::Result, Screen::Result),
        "leads {:?} {:?}",
        lead(&host),
        lead(&guest)
    );
}
