//! まわり将棋 as a family plays it, in the headless app: names typed and
//! colours chosen, kept with the last setup across a restart; house rules
//! saved under a name and offered again; an unreadable setup set aside; a
//! dead player's turn passed without a throw; a war played out on screen;
//! nothing said of a throw before the board has shown it; playing on for
//! places; and a whole four-player family game with a drawn turn order.

use bevy::input::keyboard::Key;
use bevy::prelude::*;
use bevy::window::Ime;

use crate::common::temp_store;
use crate::mawari_flow::{begin, open_setup, play_throws};
use yorimichi::games::mawari::{
    BoardMark, HOUSE_KEY, HouseRules, MawariBegin, MawariDraft, MawariMatch, Phase, ResultPanel,
    SETUP_KEY, SaveRulesButton, Seat, SetupField, Shown, TextFocus, ThrowRequest, TurnOrder,
};
use yorimichi::headless::{app, click, find};
use yorimichi::rules::data::GameId;
use yorimichi::rules::mawari::dice::Toss;
use yorimichi::rules::mawari::race::{Event, MawariRules, Piece, Race, Rank, War};
use yorimichi::shell::i18n::{Lang, T};
use yorimichi::shell::save::Store;
use yorimichi::shell::settings::Settings;
use yorimichi::shell::{ChosenGame, PendingPosition, Screen};

/// The field `which` of the setup screen.
fn field(app: &mut App, which: TextFocus) -> Entity {
    let mut q = app.world_mut().query::<(Entity, &SetupField)>();
    q.iter(app.world())
        .find(|(_, f)| f.0 == which)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("the field {which:?}"))
}

fn key(app: &mut App, logical: Key, text: Option<&str>) {
    let key_code = match logical {
        Key::Enter => KeyCode::Enter,
        Key::Backspace => KeyCode::Backspace,
        _ => KeyCode::KeyA,
    };
    crate::common::taps_in_one_frame(app, key_code, logical, 1, text);
}

/// Clicks the field and types `latin` key by key, then `ime` as an input
/// method commits it, then Enter.
fn type_name(app: &mut App, which: TextFocus, latin: &str, ime: &str) {
    let f = field(app, which);
    click(app, f);
    app.update();
    assert_eq!(*app.world().resource::<TextFocus>(), which);
    for c in latin.chars() {
        let s = c.to_string();
        key(app, Key::Character(s.as_str().into()), Some(&s));
    }
    if !ime.is_empty() {
        app.world_mut().write_message(Ime::Commit {
            window: Entity::PLACEHOLDER,
            value: ime.to_string(),
        });
        app.update();
    }
    key(app, Key::Enter, None);
    assert_eq!(*app.world().resource::<TextFocus>(), TextFocus::None);
    app.update();
    assert_eq!(
        common_screen(app),
        Screen::Setup,
        "Enter ends the typing, not the setup"
    );
}

/// Every text on screen (the UI's and the board's).
fn texts(app: &mut App) -> Vec<String> {
    let mut ui = app.world_mut().query::<&Text>();
    let mut out: Vec<String> = ui.iter(app.world()).map(|t| t.0.clone()).collect();
    let mut board = app.world_mut().query::<&Text2d>();
    out.extend(board.iter(app.world()).map(|t| t.0.clone()));
    out
}

fn shows(app: &mut App, s: &str) -> bool {
    texts(app).iter().any(|t| t.contains(s))
}

fn reopen(dir: &std::path::Path) -> App {
    let store = Store::new(Some(bevy_pkv::PkvStore::new_in_dir(dir)));
    app(store)
}

#[test]
fn names_colours_and_the_setup_are_kept_across_a_restart() {
    let (store, dir) = temp_store("mawari-names");
    let mut app = app(store);
    open_setup(&mut app);
    type_name(&mut app, TextFocus::Name(0), "Hana", "");
    // A name typed through the input method, and a typo taken back.
    type_name(&mut app, TextFocus::Name(1), "x", "");
    let f = field(&mut app, TextFocus::Name(1));
    click(&mut app, f);
    key(&mut app, Key::Backspace, None);
    type_name(&mut app, TextFocus::Name(1), "", "おばあちゃん");
    {
        let mut d = app.world_mut().resource_mut::<MawariDraft>();
        d.seats = vec![Seat::Person, Seat::Person, Seat::Cpu];
        d.colours = vec![4, 1, 5, 3];
        d.order = TurnOrder::Draw;
    }
    app.update();
    assert!(shows(&mut app, "Hana"), "the name is on the setup screen");
    let kept = app.world().resource::<MawariDraft>().clone();
    assert_eq!(kept.names[0], "Hana");
    assert_eq!(kept.names[1], "おばあちゃん");
    drop(app);

    let mut app = reopen(&dir);
    open_setup(&mut app);
    assert_eq!(*app.world().resource::<MawariDraft>(), kept);
    assert!(shows(&mut app, "おばあちゃん"));
    let b = find::<MawariBegin>(&mut app).expect("はじめる");
    click(&mut app, b);
    app.update();
    assert_eq!(common_screen(&app), Screen::Play);
    let m = app.world().resource::<MawariMatch>().clone();
    assert_eq!(m.name(0, Lang::Ja), "Hana");
    assert_eq!(m.name(1, Lang::Ja), "おばあちゃん");
    assert_eq!(m.colours, vec![4, 1, 5]);
    assert!(m.drawing(), "the turn order is drawn");
    assert!(shows(&mut app, "Hana"), "the panel names the players");
    assert!(shows(&mut app, T::MawariDrawTitle.get(Lang::Ja)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A name typed with a character the game's font cannot draw: the
/// character is left out and the setup says why (the kana stay).
#[test]
fn a_name_character_the_font_lacks_is_left_out_and_said() {
    use yorimichi::shell::widgets::Fonts;
    let (store, dir) = temp_store("mawari-kanji");
    let mut app = app(store);
    open_setup(&mut app);
    // The headless app loads no files: the game's UI font is put in place
    // as the window's asset loader would.
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/fonts/ipaexg-subset.ttf"),
    )
    .expect("the UI font");
    let handle = app
        .world_mut()
        .resource_mut::<Assets<Font>>()
        .add(Font::from_bytes(bytes));
    app.world_mut().resource_mut::<Fonts>().ui = handle;
    type_name(&mut app, TextFocus::Name(0), "", "はな鬱");
    let d = app.world().resource::<MawariDraft>().clone();
    assert_eq!(
        d.names[0], "はな",
        "the character the font lacks is left out"
    );
    assert!(
        shows(&mut app, &T::MawariNameCharMissing.fill(Lang::Ja, &[&"鬱"])),
        "the setup says which character and why: {:?}",
        texts(&mut app)
    );
    // A character the font has (a kanji of the rules texts) is kept.
    type_name(&mut app, TextFocus::Name(1), "", "金太");
    assert_eq!(app.world().resource::<MawariDraft>().names[1], "金太");
    let _ = std::fs::remove_dir_all(&dir);
}

fn common_screen(app: &App) -> Screen {
    crate::common::screen(app)
}

#[test]
fn a_saved_house_rule_is_offered_and_chosen_again() {
    let (store, dir) = temp_store("mawari-house");
    let mut app = app(store);
    open_setup(&mut app);
    let mut mine = MawariRules::BASIC;
    mine.senso = true;
    mine.nakayoshi = true;
    {
        let mut d = app.world_mut().resource_mut::<MawariDraft>();
        d.preset = None;
        d.rules = mine;
    }
    app.update();
    type_name(&mut app, TextFocus::RuleName, "", "うちのルール");
    let save = find::<SaveRulesButton>(&mut app).expect("保存");
    click(&mut app, save);
    app.update();
    assert!(shows(&mut app, "「うちのルール」"), "the save is confirmed");
    // Another preset chosen last: the house rule is still offered.
    {
        let mut d = app.world_mut().resource_mut::<MawariDraft>();
        d.preset = Some("all".into());
        d.house = None;
        d.rules = MawariRules::ALL;
    }
    app.update();
    drop(app);

    let mut app = reopen(&dir);
    open_setup(&mut app);
    let house = app.world().resource::<HouseRules>().clone();
    assert_eq!(house.0.len(), 1);
    assert_eq!(house.0[0].name, "うちのルール");
    assert_eq!(house.0[0].rules, mine);
    assert!(
        shows(&mut app, "うちのルール"),
        "offered on the setup screen"
    );
    assert_eq!(
        app.world().resource::<MawariDraft>().rules,
        MawariRules::ALL,
        "the last setup is preselected"
    );
    // Chosen by its button.
    let button = {
        let mut q = app.world_mut().query::<(&Text, &ChildOf)>();
        q.iter(app.world())
            .find(|(t, _)| t.0 == "うちのルール")
            .map(|(_, c)| c.parent())
            .expect("the house rule's button")
    };
    click(&mut app, button);
    app.update();
    let d = app.world().resource::<MawariDraft>().clone();
    assert_eq!(d.rules, mine);
    assert_eq!(d.house.as_deref(), Some("うちのルール"));
    let b = find::<MawariBegin>(&mut app).expect("はじめる");
    click(&mut app, b);
    app.update();
    assert_eq!(app.world().resource::<MawariMatch>().race.rules, mine);
    drop(app);
    // And the house rule chosen is what the next setup preselects.
    let mut app = reopen(&dir);
    open_setup(&mut app);
    assert_eq!(
        app.world().resource::<MawariDraft>().house.as_deref(),
        Some("うちのルール")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreadable_setup_is_set_aside_said_and_nothing_else_is_touched() {
    let (mut store, dir) = temp_store("mawari-setup-corrupt");
    store.put_raw(
        SETUP_KEY,
        "(version: 1, kind: \"mawari.setup\", body: \"(seats: [\")",
    );
    store.put_raw(HOUSE_KEY, "not ron at all");
    store.put_raw("save.hasami", "kept");
    let mut app = app(store);
    open_setup(&mut app);
    assert_eq!(
        *app.world().resource::<MawariDraft>(),
        MawariDraft::default()
    );
    assert!(app.world().resource::<HouseRules>().0.is_empty());
    assert!(shows(&mut app, T::MawariSetupUnreadable.get(Lang::Ja)));
    assert!(shows(&mut app, T::MawariHouseUnreadable.get(Lang::Ja)));
    let store = app.world().resource::<Store>();
    assert_eq!(
        store.get_raw(&format!("{HOUSE_KEY}.unreadable")).as_deref(),
        Some("not ron at all"),
        "kept aside, not lost"
    );
    assert!(store.get_raw(&format!("{SETUP_KEY}.unreadable")).is_some());
    assert_eq!(store.get_raw("save.hasami").as_deref(), Some("kept"));
    // The game starts as usual.
    let b = find::<MawariBegin>(&mut app).expect("はじめる");
    click(&mut app, b);
    app.update();
    assert_eq!(common_screen(&app), Screen::Play);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_dead_players_turn_is_passed_with_a_banner_and_no_throw_asked() {
    let (store, _dir) = temp_store("mawari-skip");
    let mut app = app(store);
    app.insert_resource(PendingPosition(Some("fu@3/1 fu@14 turn=0".into())));
    open_setup(&mut app);
    app.world_mut().resource_mut::<MawariDraft>().seats = vec![Seat::Person, Seat::Person];
    {
        let mut d = app.world_mut().resource_mut::<MawariDraft>();
        d.names = vec!["Taro".into(), "Jiro".into(), String::new(), String::new()];
    }
    begin(&mut app, "all", false);
    let sits_out = T::MawariSitsOut.fill(Lang::Ja, &[&"Taro"]);
    let mut banner_seen = false;
    for _ in 0..200 {
        // Nothing the dead player asks for is taken.
        app.world_mut()
            .write_message(ThrowRequest(Toss::natural(5)));
        let m = app.world().resource::<MawariMatch>();
        if m.race.turn == 0 {
            assert!(
                !m.person_to_throw(),
                "the dead player is not asked to throw"
            );
        }
        banner_seen |= app
            .world()
            .resource::<Shown>()
            .banner
            .as_ref()
            .is_some_and(|b| b.0 == sits_out);
        assert!(
            !shows(&mut app, &T::MawariDragToThrow.fill(Lang::Ja, &[&"Taro"])),
            "no throw asked of the dead player"
        );
        app.update();
        if !app.world().resource::<MawariMatch>().log.is_empty() {
            break;
        }
    }
    assert!(banner_seen, "the banner says the turn is passed");
    let m = app.world().resource::<MawariMatch>();
    assert_eq!(m.log.len(), 1, "the living player threw");
    assert_eq!(m.log[0].player, 1);
    assert_eq!(m.race.throws, 1, "the dead player made no throw");
}

/// A two-CPU match in the middle of a war: each has gone 31 squares of
/// the 32, the first to throw next.
fn war_match() -> MawariMatch {
    let mut race = Race::new(2, MawariRules::ALL).expect("two players");
    race.pieces = vec![
        Piece {
            square: 3,
            rank: Rank::Kyosha,
            depth: 0,
            out: false,
            onbu_left: None,
        },
        Piece {
            square: 19,
            rank: Rank::Kyosha,
            depth: 0,
            out: false,
            onbu_left: None,
        },
    ];
    race.war = Some(War {
        first: 0,
        second: 1,
        made: [31, 31],
        next: 0,
    });
    MawariMatch {
        race,
        seats: vec![Seat::Cpu, Seat::Cpu],
        log: Vec::new(),
        rng: 3,
        quick: false,
        preset: None,
        names: vec!["Aki".into(), "Fuyu".into()],
        colours: vec![0, 1],
        draw: None,
        start: None,
        room_events: None,
        room_code: None,
    }
}

#[test]
fn a_war_is_played_out_on_screen_to_its_outcome() {
    let (store, _dir) = temp_store("mawari-war");
    let mut app = app(store);
    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    app.update();
    app.insert_resource(war_match());
    app.insert_resource(ChosenGame(GameId::Mawari));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Play);
    app.update();
    app.update();
    // Both pieces carry their count while the war is on.
    let marks = |app: &mut App| {
        let mut q = app.world_mut().query::<&BoardMark>();
        q.iter(app.world()).filter(|m| m.0 < 2).count()
    };
    assert_eq!(marks(&mut app), 2, "both pieces at war are marked");
    // The one across the board turns to face the other.
    let turned = |app: &mut App| {
        let mut q = app
            .world_mut()
            .query::<(&yorimichi::games::mawari::RacePiece, &Transform)>();
        q.iter(app.world())
            .find(|(p, _)| p.0 == 1)
            .map(|(_, t)| t.rotation.angle_between(Quat::IDENTITY))
            .expect("the second piece")
    };
    assert!((turned(&mut app) - std::f32::consts::PI).abs() < 0.01);
    assert!(shows(&mut app, "31/32"));
    let mut banners = Vec::new();
    for _ in 0..3000 {
        app.update();
        if let Some((b, _)) = &app.world().resource::<Shown>().banner
            && banners.last() != Some(b)
        {
            banners.push(b.clone());
        }
        let m = app.world().resource::<MawariMatch>();
        if m.race.war.is_none() && app.world().resource::<Phase>().is_waiting() {
            break;
        }
    }
    let m = app.world().resource::<MawariMatch>().clone();
    let end = m
        .log
        .iter()
        .flat_map(|e| e.events.iter())
        .find_map(|e| match e {
            Event::WarEnd { winner, loser } => Some((*winner, *loser)),
            _ => None,
        })
        .expect("the war ended");
    let (w, l) = end;
    let won = T::MawariWarWon.fill(Lang::Ja, &[&m.name(w, Lang::Ja), &m.name(l, Lang::Ja)]);
    assert!(banners.contains(&won), "who got back first: {banners:?}");
    let up = T::MawariPromote.fill(Lang::Ja, &[&m.name(w, Lang::Ja), &"桂馬"]);
    let down = T::MawariDemote.fill(Lang::Ja, &[&m.name(l, Lang::Ja), &"歩"]);
    assert!(banners.contains(&up), "the winner's new rank: {banners:?}");
    assert!(banners.contains(&down), "the loser's new rank: {banners:?}");
    assert!(
        banners
            .iter()
            .any(|b| b.contains(&format!("{} 戦争 32/32", m.name(w, Lang::Ja)))),
        "the winning count: {banners:?}"
    );
    assert_eq!(m.race.pieces[w].rank, Rank::Keima);
    assert_eq!(m.race.pieces[l].rank, Rank::Fu);
    assert_eq!(marks(&mut app), 0, "the war's marks are gone");
    assert!(turned(&mut app) < 0.01, "back as it was");
}

#[test]
fn nothing_tells_a_throws_outcome_before_the_board_has_shown_it() {
    let (store, _dir) = temp_store("mawari-gate");
    let mut app = app(store);
    // Any throw that moves wins: the 王将 has one square left of its lap.
    app.insert_resource(PendingPosition(Some(
        "rules=basic osho@5+1 fu@14 turn=0".into(),
    )));
    open_setup(&mut app);
    {
        let mut d = app.world_mut().resource_mut::<MawariDraft>();
        d.seats = vec![Seat::Cpu, Seat::Cpu];
        d.names = vec!["Mei".into(), "Sora".into(), String::new(), String::new()];
    }
    begin(&mut app, "basic", false);
    let wins = T::MawariWins.fill(Lang::Ja, &[&"Mei"]);
    let mut decided_while_playing = false;
    for _ in 0..20_000 {
        app.update();
        let over = app.world().resource::<MawariMatch>().race.is_over();
        let phase_unshown = matches!(
            *app.world().resource::<Phase>(),
            Phase::Throwing { .. } | Phase::Reading { .. }
        );
        if over && phase_unshown {
            decided_while_playing = true;
            assert!(
                !shows(&mut app, &wins),
                "the winner is announced while the throw plays out"
            );
            assert!(find::<ResultPanel>(&mut app).is_none());
            let banner = app.world().resource::<Shown>().banner.clone();
            assert!(banner.is_none_or(|b| !b.0.contains(&wins)));
        }
        if matches!(*app.world().resource::<Phase>(), Phase::Over) {
            break;
        }
    }
    assert!(
        decided_while_playing,
        "the race was decided before it was shown"
    );
    app.update();
    assert!(shows(&mut app, &wins), "announced once shown");
    assert!(find::<ResultPanel>(&mut app).is_some());
}

#[test]
fn playing_on_for_places_shows_every_place_at_the_end() {
    let (store, _dir) = temp_store("mawari-places");
    let mut app = app(store);
    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    app.insert_resource(PendingPosition(Some(
        "rules=basic hisha@6 hisha@14 hisha@22 turn=0".into(),
    )));
    open_setup(&mut app);
    {
        let mut d = app.world_mut().resource_mut::<MawariDraft>();
        d.seats = vec![Seat::Cpu; 3];
        d.places = true;
        d.names = vec!["Ume".into(), "Sakura".into(), "Kiku".into(), String::new()];
    }
    begin(&mut app, "basic", true);
    assert!(app.world().resource::<MawariMatch>().race.play_on);
    play_throws(&mut app, usize::MAX);
    let m = app.world().resource::<MawariMatch>().clone();
    assert!(m.race.is_over());
    assert_eq!(m.race.finished.len(), 3);
    let first = m.race.finished[0];
    // The game went on after the first was through.
    let first_at = m
        .log
        .iter()
        .position(|e| {
            e.events.contains(&Event::Finish {
                piece: first,
                place: 1,
            })
        })
        .expect("the first through");
    assert!(m.log.len() > first_at + 1, "played on after the first");
    assert_eq!(m.race.winner, Some(first));
    app.update();
    app.update();
    assert!(find::<ResultPanel>(&mut app).is_some());
    for (k, p) in m.race.standings().into_iter().enumerate() {
        let line = format!(
            "{} {}",
            T::MawariPlace.fill(Lang::Ja, &[&(k + 1)]),
            m.name(p, Lang::Ja)
        );
        assert!(shows(&mut app, &line), "{line}");
    }
}

#[test]
fn a_four_player_family_game_with_names_house_rules_and_a_drawn_order() {
    let (store, dir) = temp_store("mawari-family");
    let mut app = app(store);
    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    open_setup(&mut app);
    for (i, name) in ["Papa", "Mama", "Ken", "Yui"].into_iter().enumerate() {
        type_name(&mut app, TextFocus::Name(i), name, "");
    }
    let mut house = MawariRules::ALL;
    house.onbu = false;
    house.fu_demotion = false;
    {
        let mut d = app.world_mut().resource_mut::<MawariDraft>();
        d.seats = vec![Seat::Cpu; 4];
        d.preset = None;
        d.rules = house;
        d.order = TurnOrder::Draw;
        d.quick = true;
    }
    app.update();
    let save = find::<SaveRulesButton>(&mut app).expect("保存");
    click(&mut app, save);
    app.update();
    assert_eq!(
        app.world().resource::<MawariDraft>().house.as_deref(),
        Some(T::MawariDefaultRuleName.get(Lang::Ja))
    );
    drop(app);
    // Next time: everything as it was left.
    let mut app = reopen(&dir);
    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    open_setup(&mut app);
    let b = find::<MawariBegin>(&mut app).expect("はじめる");
    click(&mut app, b);
    app.update();
    app.world_mut().resource_mut::<MawariMatch>().rng = 424242;
    {
        let m = app.world().resource::<MawariMatch>();
        assert!(m.drawing());
        assert_eq!(m.race.rules, house);
        assert_eq!(m.name(2, Lang::Ja), "Ken");
    }
    let mut goes_first_seen = false;
    let mut draw_panel_seen = false;
    while app.world().resource::<MawariMatch>().drawing()
        || !app.world().resource::<Phase>().is_waiting()
    {
        app.update();
        draw_panel_seen |= shows(&mut app, T::MawariDrawTitle.get(Lang::Ja));
        goes_first_seen |= app
            .world()
            .resource::<Shown>()
            .banner
            .as_ref()
            .is_some_and(|b| {
                b.0.ends_with(T::MawariGoesFirst.fill(Lang::Ja, &[&""]).trim())
            });
    }
    assert!(draw_panel_seen, "the draw is shown");
    assert!(goes_first_seen, "who goes first is said");
    let first = app
        .world()
        .resource::<MawariMatch>()
        .draw
        .as_ref()
        .and_then(|d| d.first)
        .expect("decided");
    let told = app.world().resource::<MawariMatch>().players_text();
    assert!(
        told.starts_with("Papa|Mama|Ken|Yui rules=(")
            && told.contains("onbu:false")
            && told.contains(" draw=0:")
            && told.ends_with(&format!(" first={first}")),
        "{told}"
    );
    play_throws(&mut app, usize::MAX);
    let m = app.world().resource::<MawariMatch>().clone();
    assert_eq!(m.log[0].player, first, "the draw's winner threw first");
    let winner = m.race.winner.expect("a winner");
    assert!(["Papa", "Mama", "Ken", "Yui"].contains(&m.name(winner, Lang::Ja).as_str()));
    app.update();
    app.update();
    assert!(shows(
        &mut app,
        &T::MawariWins.fill(Lang::Ja, &[&m.name(winner, Lang::Ja)])
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where the board's mark `key` stands, and what it says.
fn mark(app: &mut App, key: u8) -> Option<(Vec2, String)> {
    let mut q = app.world_mut().query::<(&BoardMark, &Transform, &Text2d)>();
    q.iter(app.world())
        .find(|(m, _, _)| m.0 == key)
        .map(|(_, t, s)| (t.translation.truncate(), s.0.clone()))
}

#[test]
fn an_onbu_lap_is_marked_and_its_count_goes_with_the_carrier() {
    use yorimichi::games::mawari::RacePiece;
    use yorimichi::rules::mawari::race::RaceText;
    let (store, _dir) = temp_store("mawari-onbu");
    let mut app = app(store);
    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    app.update();
    let mut rules = MawariRules::BASIC;
    rules.onbu = true;
    let mut m = war_match();
    m.race = RaceText::parse("osho@5+20 fu@14 turn=0")
        .expect("a position")
        .race(rules);
    app.insert_resource(m);
    app.insert_resource(ChosenGame(GameId::Mawari));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Play);
    app.update();
    app.update();
    let carrier = |app: &mut App| {
        let mut q = app.world_mut().query::<(&RacePiece, &Transform)>();
        q.iter(app.world())
            .find(|(p, _)| p.0 == 0)
            .map(|(_, t)| t.translation.truncate())
            .expect("the carrier")
    };
    let (goal_at, goal) = mark(&mut app, 10).expect("the lap's end is marked");
    assert_eq!(goal, T::MawariOnbuGoal.get(Lang::Ja));
    let (count_at, count) = mark(&mut app, 20).expect("the squares left are shown");
    assert_eq!(count, T::MawariOnbuLeft.fill(Lang::Ja, &[&20]));
    assert!(count_at.distance(carrier(&mut app)) < 48.0);
    // The carrier throws until it has moved.
    for _ in 0..5000 {
        app.update();
        let m = app.world().resource::<MawariMatch>();
        let left = m.race.pieces[0].onbu_left;
        if left != Some(20) && app.world().resource::<Phase>().is_waiting() {
            break;
        }
        if m.race.is_over() {
            break;
        }
    }
    let m = app.world().resource::<MawariMatch>().clone();
    let Some(left) = m.race.pieces[0].onbu_left else {
        panic!("the lap went on: {:?}", m.race.pieces[0]);
    };
    assert!(left < 20, "the carrier moved");
    for _ in 0..60 {
        app.update();
    }
    let (new_at, count) = mark(&mut app, 20).expect("still shown");
    assert_eq!(count, T::MawariOnbuLeft.fill(Lang::Ja, &[&left]));
    let moved = carrier(&mut app);
    // Beside the carrier wherever it is (on its side of the board).
    assert!(
        new_at.distance(moved) < 48.0 && new_at.distance(moved) > 20.0,
        "the count went with the carrier: {new_at} by {moved}"
    );
    assert_eq!(
        mark(&mut app, 10).expect("the goal").0,
        goal_at,
        "the goal stays"
    );
}

/// Starts a four-CPU game from `position` with the order drawn.
fn start_drawn_from(position: &str) -> MawariMatch {
    let (store, dir) = temp_store("mawari-drawn-position");
    let mut app = app(store);
    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    open_setup(&mut app);
    {
        let mut d = app.world_mut().resource_mut::<MawariDraft>();
        d.seats = vec![Seat::Cpu; 4];
        d.order = TurnOrder::Draw;
        d.quick = true;
    }
    app.world_mut().resource_mut::<PendingPosition>().0 = Some(position.into());
    app.update();
    let b = find::<MawariBegin>(&mut app).expect("はじめる");
    click(&mut app, b);
    app.update();
    let m = app.world().resource::<MawariMatch>().clone();
    drop(app);
    let _ = std::fs::remove_dir_all(&dir);
    m
}

#[test]
fn a_position_that_does_not_say_whose_turn_it_is_starts_with_the_draw() {
    let m = start_drawn_from("hisha@6 hisha@14 hisha@22 hisha@30");
    assert!(m.drawing(), "the order is drawn first");
    assert_eq!(m.race.pieces.len(), 4);
    assert!(m.race.pieces.iter().all(|p| p.rank == Rank::Hisha));
    assert!(m.players_text().contains(" draw="), "{}", m.players_text());

    let m = start_drawn_from("hisha@6 hisha@14 hisha@22 hisha@30 turn=2");
    assert!(
        m.draw.is_none(),
        "a position with its turn goes on from there"
    );
    assert_eq!(m.race.turn, 2);
}
