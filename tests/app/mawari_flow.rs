//! まわり将棋 in the headless app: from the list to a four-player game
//! (one person, three CPUs) played to its end, 続きから, a corrupt save, a
//! start position, the tutorial's staged examples, its pictures of real
//! throws and its practice throw, and a storm of input while throws play
//! out.

use crate::common;

use bevy::prelude::*;
use common::{card, screen, temp_store};
use yorimichi::games::mawari::lesson::{
    LessonState, PracticeResult, PracticeThrows, StagedThrows, TryButton,
};
use yorimichi::games::mawari::{
    MawariBegin, MawariDraft, MawariMatch, Phase, RacePiece, Shown, ThrowButton, ThrowRequest,
};
use yorimichi::headless::{app, click, find};
use yorimichi::rules::data::GameId;
use yorimichi::rules::mawari::dice::{ThrowValue, Toss};
use yorimichi::rules::mawari::levels::{presets, throw_in_turn};
use yorimichi::rules::mawari::race::RaceText;
use yorimichi::shell::save::Store;
use yorimichi::shell::screens::{CardButton, TitleStart};
use yorimichi::shell::settings::Settings;
use yorimichi::shell::{ChosenGame, Notice, PendingPosition, Screen};

/// まわり将棋's save key: the same text as ever, so that players' saves
/// still load.
pub(crate) fn save_key() -> String {
    let key = GameId::Mawari.save_key();
    assert_eq!(key, "save.mawari");
    key
}

pub(crate) fn open_setup(app: &mut App) {
    app.update();
    let start = find::<TitleStart>(app).expect("a start button");
    click(app, start);
    app.update();
    let new = card(app, CardButton::New(GameId::Mawari)).expect("the まわり将棋 card");
    click(app, new);
    app.update();
    assert_eq!(screen(app), Screen::Setup);
}

/// The setup screen's rules set to a preset, quick throws, then はじめる.
pub(crate) fn begin(app: &mut App, preset: &str, quick: bool) {
    let rules = presets()
        .expect("presets")
        .rules(preset)
        .expect("the preset");
    {
        let mut d = app.world_mut().resource_mut::<MawariDraft>();
        d.preset = Some(preset.into());
        d.rules = rules;
        d.quick = quick;
    }
    app.update();
    let b = find::<MawariBegin>(app).expect("はじめる");
    click(app, b);
    app.update();
    assert_eq!(screen(app), Screen::Play);
    // Each test throws the same throws every run (a game's seed is random).
    app.world_mut().resource_mut::<MawariMatch>().rng = 20261201;
}

pub(crate) fn phase_waiting(app: &App) -> bool {
    app.world().resource::<Phase>().is_waiting()
}

/// The screen's pieces are the race's (checked between throws).
pub(crate) fn assert_view_matches_race(app: &mut App) {
    let race_pieces = app.world().resource::<MawariMatch>().race.pieces.clone();
    let shown = app.world().resource::<Shown>().pieces.clone();
    assert_eq!(shown, race_pieces, "the screen and the race disagree");
    let mut q = app.world_mut().query::<&RacePiece>();
    assert_eq!(q.iter(app.world()).count(), race_pieces.len());
}

/// Plays on: the person throws with the 投げる button whenever it is their
/// turn; the CPUs throw by themselves. Stops after `throws` more throws or
/// at the end of the game. Returns the frames run.
pub(crate) fn play_throws(app: &mut App, throws: usize) -> usize {
    let start = app.world().resource::<MawariMatch>().log.len();
    for frame in 0..400_000 {
        let (over, person, done) = {
            let m = app.world().resource::<MawariMatch>();
            (
                m.race.is_over(),
                m.person_to_throw(),
                m.log.len() - start >= throws,
            )
        };
        let waiting = phase_waiting(app);
        if (done || over) && (waiting || matches!(*app.world().resource::<Phase>(), Phase::Over)) {
            return frame;
        }
        if waiting {
            assert_view_matches_race(app);
            if person {
                let b = find::<ThrowButton>(app).expect("投げる");
                click(app, b);
            }
        }
        app.update();
    }
    panic!("the game did not move on");
}

#[test]
fn a_four_player_game_plays_from_the_list_to_its_end() {
    let (store, _dir) = temp_store("mawari-full");
    let mut app = app(store);
    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    open_setup(&mut app);
    begin(&mut app, "basic", true);
    {
        let m = app.world().resource::<MawariMatch>();
        assert_eq!(m.seats.len(), 4);
        assert_eq!(m.race.pieces.len(), 4);
        assert!(m.person_to_throw(), "the person throws first");
    }
    let frames = play_throws(&mut app, usize::MAX);
    let m = app.world().resource::<MawariMatch>().clone();
    println!("the game took {} throws, {frames} frames", m.log.len());
    let winner = m.race.winner.expect("a winner");
    assert_eq!(
        m.race.pieces[winner].rank,
        yorimichi::rules::mawari::race::Rank::Osho
    );
    assert!(!m.log.is_empty());
    // Every throw of the log is one of the four players', in turn; a throw
    // thrown again (a koma off the board) is the same player's once more.
    assert_eq!(m.log[0].player, 0);
    for (k, pair) in m.log.windows(2).enumerate() {
        let again = pair[0]
            .events
            .iter()
            .any(|e| matches!(e, yorimichi::rules::mawari::race::Event::Rethrow { .. }));
        let next = if again {
            pair[0].player
        } else {
            (pair[0].player + 1) % 4
        };
        assert_eq!(pair[1].player, next, "throw {}", k + 1);
    }
    // The game is over: no save, the result shown, no more throws taken.
    assert!(!app.world().resource::<Store>().has(&save_key()));
    for _ in 0..5 {
        app.update();
    }
    app.world_mut()
        .write_message(ThrowRequest(Toss::natural(1)));
    app.update();
    assert_eq!(app.world().resource::<MawariMatch>().log.len(), m.log.len());
    assert!(matches!(*app.world().resource::<Phase>(), Phase::Over));
}

#[test]
fn every_throw_is_saved_and_continue_resumes_it_exactly() {
    let (store, dir) = temp_store("mawari-resume");
    let mut app = app(store);
    open_setup(&mut app);
    begin(&mut app, "all", false);
    play_throws(&mut app, 9);
    let before = app.world().resource::<MawariMatch>().clone();
    let saved: MawariMatch = app
        .world()
        .resource::<Store>()
        .get(&save_key())
        .expect("a save");
    assert_eq!(saved, before);
    drop(app);
    // A new run: 続きから on the card brings back the same game.
    let store = Store::new(Some(bevy_pkv::PkvStore::new_in_dir(&dir)));
    let mut app = yorimichi::headless::app(store);
    app.update();
    let start = find::<TitleStart>(&mut app).expect("start");
    click(&mut app, start);
    app.update();
    let cont = card(&mut app, CardButton::Continue(GameId::Mawari)).expect("続きから");
    click(&mut app, cont);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Play);
    assert_eq!(*app.world().resource::<MawariMatch>(), before);
    assert_view_matches_race(&mut app);
    // And it plays on from there.
    play_throws(&mut app, 3);
    assert!(app.world().resource::<MawariMatch>().log.len() >= before.log.len() + 3);
}

#[test]
fn a_corrupt_save_is_reported_and_touches_nothing_else() {
    let (mut store, _dir) = temp_store("mawari-corrupt");
    store.put_raw(
        &save_key(),
        "(version: 1, kind: \"save.mawari\", body: \"(race: oops\")",
    );
    store.put_raw("save.hasami", "kept");
    let mut app = app(store);
    app.update();
    app.insert_resource(ChosenGame(GameId::Mawari));
    app.world_mut()
        .write_message(yorimichi::shell::screens::ResumeRequest(GameId::Mawari));
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::GameList);
    let store = app.world().resource::<Store>();
    assert!(!store.has(&save_key()));
    assert!(store.has("save.hasami"));
    // The list said so (the notice is taken when the list is drawn).
    assert!(app.world().resource::<Notice>().0.is_none());
}

#[test]
fn a_start_position_is_taken_and_a_bad_one_is_explained() {
    let (store, _dir) = temp_store("mawari-position");
    let mut app = app(store);
    app.insert_resource(PendingPosition(Some(
        "rules=basic hisha@6 fu@14 fu@22 turn=0".into(),
    )));
    open_setup(&mut app);
    begin(&mut app, "all", true);
    {
        let m = app.world().resource::<MawariMatch>();
        assert_eq!(m.seats.len(), 3);
        assert_eq!(RaceText::of(&m.race).write(), "hisha@6 fu@14 fu@22 turn=0");
        assert!(!m.race.rules.korosu, "rules=basic");
    }
    // A 2 wins it at once; throw until someone wins.
    play_throws(&mut app, usize::MAX);
    assert!(app.world().resource::<MawariMatch>().race.is_over());

    let (store, _dir) = temp_store("mawari-bad-position");
    let mut app = yorimichi::headless::app(store);
    app.insert_resource(PendingPosition(Some("hisha@99 fu@0".into())));
    open_setup(&mut app);
    begin(&mut app, "basic", true);
    let m = app.world().resource::<MawariMatch>();
    assert_eq!(m.race.pieces.len(), 4, "the usual start");
    let banner = app.world().resource::<Shown>().banner.clone();
    assert!(
        banner
            .as_ref()
            .is_some_and(|(text, _)| text.contains("0 to 31")),
        "the reason is shown: {banner:?}"
    );
}

/// The app on the まわり将棋 tutorial's first step.
fn open_tutorial(app: &mut App) {
    app.update();
    app.insert_resource(ChosenGame(GameId::Mawari));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Tutorial);
    app.update();
    app.update();
}

/// Runs the app until the staged throws have all played out.
fn until_the_stage_has_played(app: &mut App) {
    for _ in 0..4000 {
        app.update();
        let idle = matches!(
            *app.world().resource::<Phase>(),
            Phase::Waiting | Phase::Over
        );
        if idle && app.world().resource::<StagedThrows>().0.is_empty() {
            return;
        }
    }
    panic!("the staged throws did not play out");
}

#[test]
fn the_tutorial_shows_every_step_and_plays_every_staged_example() {
    use yorimichi::games::mawari::dice_view::{DiceKoma, PX_PER_CM};
    let (store, _dir) = temp_store("mawari-tutorial");
    let mut app = app(store);
    open_tutorial(&mut app);
    let steps = app.world().resource::<LessonState>().lesson.steps.len();
    assert!(steps >= 12);
    let (mut staged, mut thrown, mut several) = (0, 0, 0);
    for step in 0..steps {
        app.world_mut().resource_mut::<LessonState>().step = step;
        app.update();
        app.update();
        let state = app.world().resource::<LessonState>().clone();
        // A picture of a real throw: each koma drawn where it came to rest.
        if let Some(resting) = state.lesson.steps[step].resting {
            thrown += 1;
            let mut q = app
                .world_mut()
                .query::<(&DiceKoma, &Transform, &Visibility)>();
            let drawn: Vec<(usize, Vec2, Visibility)> = q
                .iter(app.world())
                .map(|(k, t, v)| (k.0, t.translation.truncate(), *v))
                .collect();
            assert_eq!(drawn.len(), 4, "step {step}");
            let (first, at, _) = drawn[0];
            let origin =
                at - Vec2::new(resting[first].0.x as f32, resting[first].0.y as f32) * PX_PER_CM;
            for (i, at, vis) in drawn {
                let want =
                    origin + Vec2::new(resting[i].0.x as f32, resting[i].0.y as f32) * PX_PER_CM;
                assert!(at.distance(want) < 0.01, "step {step}: koma {i}");
                assert_ne!(vis, Visibility::Hidden, "step {step}: koma {i}");
            }
        }
        let Some(stage) = state.lesson.steps[step].stage.clone() else {
            assert!(find::<TryButton>(&mut app).is_none());
            continue;
        };
        staged += 1;
        several += usize::from(stage.throws.len() > 1);
        let start = state.race();
        assert_eq!(app.world().resource::<MawariMatch>().race, start);
        // A koma on the board for each piece of the stage.
        let mut q = app.world_mut().query::<&RacePiece>();
        assert_eq!(
            q.iter(app.world()).count(),
            start.pieces.len(),
            "step {step}"
        );
        let b = find::<TryButton>(&mut app).expect("やってみる");
        click(&mut app, b);
        until_the_stage_has_played(&mut app);
        let mut expected = start.clone();
        for &value in &stage.throws {
            throw_in_turn(&mut expected, value);
        }
        assert_eq!(
            app.world().resource::<MawariMatch>().race,
            expected,
            "step {step}"
        );
        assert_eq!(
            app.world().resource::<Shown>().pieces,
            expected.pieces,
            "step {step}"
        );
    }
    assert!(staged >= 9);
    assert!(thrown >= 1, "no picture of a real throw");
    assert!(several >= 2, "no staged example of several throws");
}

#[test]
fn a_practice_throw_is_thrown_shown_and_read_and_moves_no_piece() {
    use yorimichi::games::mawari::dice_view::DiceLabel;
    let (store, _dir) = temp_store("mawari-practice");
    let mut app = app(store);
    open_tutorial(&mut app);
    let step = app
        .world()
        .resource::<LessonState>()
        .lesson
        .steps
        .iter()
        .position(|s| s.practice)
        .expect("a practice step");
    app.world_mut().resource_mut::<LessonState>().step = step;
    app.update();
    app.update();
    let race = app.world().resource::<MawariMatch>().race.clone();
    // The first throw by 投げる, the second as a drag's toss (a drag to
    // the upper right, quickly).
    for (k, by_button) in [(1, true), (2, false)] {
        if by_button {
            let b = find::<ThrowButton>(&mut app).expect("投げる");
            click(&mut app, b);
        } else {
            app.world_mut().write_message(ThrowRequest(Toss {
                dir_x: 0.4,
                dir_y: 1.0,
                speed: 60.0,
                seed: 77,
            }));
        }
        let mut flew = false;
        for _ in 0..2000 {
            app.update();
            flew |= matches!(*app.world().resource::<Phase>(), Phase::Throwing { .. });
            if phase_waiting(&app) && app.world().resource::<PracticeThrows>().count == k {
                break;
            }
        }
        assert!(flew, "throw {k} is shown in the air");
        assert!(phase_waiting(&app), "throw {k} has come to rest");
        let (poses, value) = app
            .world()
            .resource::<PracticeThrows>()
            .last
            .expect("a practice throw");
        // Its value is in the panel and beside each koma.
        app.update();
        let mut q = app
            .world_mut()
            .query_filtered::<&Text, With<PracticeResult>>();
        let said: Vec<String> = q.iter(app.world()).map(|t| t.0.clone()).collect();
        let want = match value {
            ThrowValue::Move(n) => format!("{n}マス"),
            ThrowValue::Senko => "せんこ立ち".into(),
            ThrowValue::Baba { .. } => "ばば".into(),
            ThrowValue::OffBoard => "盤から落ちた".into(),
        };
        assert!(
            said.len() == 1 && said[0].contains(&want),
            "throw {k} ({poses:?}, {value:?}): the panel says {said:?}"
        );
        let mut q = app
            .world_mut()
            .query::<(&DiceLabel, &Visibility, &Text2d)>();
        let labels = q
            .iter(app.world())
            .filter(|(_, v, t)| **v != Visibility::Hidden && !t.0.is_empty())
            .count();
        assert_eq!(labels, 4, "throw {k}: each koma labelled");
        // Practice only: no piece moved, no throw logged.
        let m = app.world().resource::<MawariMatch>();
        assert_eq!(m.race, race);
        assert!(m.log.is_empty());
    }
}

#[test]
fn a_storm_of_input_while_throws_play_out_breaks_nothing() {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let (store, _dir) = temp_store("mawari-storm");
    let mut app = app(store);
    open_setup(&mut app);
    {
        let mut d = app.world_mut().resource_mut::<MawariDraft>();
        d.seats = vec![
            yorimichi::games::mawari::Seat::Person,
            yorimichi::games::mawari::Seat::Person,
            yorimichi::games::mawari::Seat::Cpu,
        ];
    }
    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    begin(&mut app, "all", false);
    let entities_at_start = app.world().entities().count_spawned();
    let mut rng = StdRng::seed_from_u64(9);
    let mut max_entities = 0;
    for step in 0..9000 {
        match rng.random_range(0..100) {
            // Throws asked for at any moment (only a person's waiting turn
            // takes one).
            0..=14 => {
                app.world_mut()
                    .write_message(ThrowRequest(Toss::natural(rng.random::<u64>())));
            }
            15..=19 => {
                if let Some(b) = find::<ThrowButton>(&mut app) {
                    click(&mut app, b);
                }
            }
            20..=22 => {
                let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
                keys.release_all();
                keys.press(KeyCode::Enter);
            }
            _ => {}
        }
        app.update();
        if phase_waiting(&app) && step % 7 == 0 {
            assert_view_matches_race(&mut app);
        }
        max_entities = max_entities.max(app.world().entities().count_spawned());
        if app.world().resource::<MawariMatch>().race.is_over() {
            break;
        }
    }
    let m = app.world().resource::<MawariMatch>();
    assert!(m.log.len() > 10, "{} throws", m.log.len());
    // The panel is rebuilt, not piled up: the entity count stays bounded.
    assert!(
        max_entities < entities_at_start + 400,
        "{entities_at_start} entities at the start, {max_entities} at most"
    );
}

/// Four CPUs play game after game in the headless app (animations on,
/// time stepped), each new game started from the result's もう一度: the
/// entity count stays flat. `make test` plays 2 games (about 20 s);
/// `YORIMICHI_SOAK_GAMES=200` (in `make soak`, about half an hour)
/// plays 200.
#[test]
fn cpu_games_one_after_another_keep_the_entity_count_flat() {
    let games = common::soak_games(2);
    let (store, _dir) = temp_store("mawari-soak");
    let mut app = app(store);
    open_setup(&mut app);
    app.world_mut().resource_mut::<MawariDraft>().seats =
        vec![yorimichi::games::mawari::Seat::Cpu; 4];
    let mut counts = Vec::new();
    let memory_at_start = common::resident_kib();
    for game in 0..games {
        begin(&mut app, "all", true);
        app.world_mut().resource_mut::<MawariMatch>().rng = 1000 + game as u64;
        counts.push(app.world().entities().count_spawned());
        let frames = play_throws(&mut app, usize::MAX);
        assert!(frames > 0);
        let throws = app.world().resource::<MawariMatch>().log.len();
        assert!(
            app.world().resource::<MawariMatch>().race.is_over(),
            "game {game}"
        );
        // Back to the setup screen, as もう一度 does.
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Setup);
        app.update();
        app.update();
        assert_eq!(screen(&app), Screen::Setup, "game {game} ({throws} throws)");
    }
    let first = counts[0];
    let last = *counts.last().expect("a game");
    println!(
        "{games} CPU games: {first} entities at the start of the first, {last} at the start of the last; memory {} KiB → {} KiB",
        memory_at_start.unwrap_or(0),
        common::resident_kib().unwrap_or(0)
    );
    assert!(
        counts.iter().all(|&c| c <= first + 20),
        "entities grew: {counts:?}"
    );
}

/// The sounds the app asked for.
#[derive(Resource, Default)]
struct Heard(Vec<yorimichi::shell::audio::Sfx>);

fn listen(mut sfx: MessageReader<yorimichi::shell::audio::Sfx>, mut heard: ResMut<Heard>) {
    heard.0.extend(sfx.read().copied());
}

#[test]
fn a_shown_throw_sounds_each_contact_as_the_board_shows_it() {
    use yorimichi::shell::audio::Sfx;
    let (store, _dir) = temp_store("mawari-clacks");
    let mut app = app(store);
    app.init_resource::<Heard>().add_systems(Update, listen);
    open_setup(&mut app);
    begin(&mut app, "basic", false);
    app.world_mut().resource_mut::<Heard>().0.clear();
    // Throw once and follow the throw until the board has shown it.
    let mut impacts = None;
    for _ in 0..20_000 {
        if phase_waiting(&app)
            && impacts.is_none()
            && app.world().resource::<MawariMatch>().person_to_throw()
        {
            let b = find::<ThrowButton>(&mut app).expect("投げる");
            click(&mut app, b);
        }
        if let Phase::Throwing { throw, .. } = app.world().resource::<Phase>() {
            impacts.get_or_insert(throw.impacts.len());
        }
        if impacts.is_some() && matches!(*app.world().resource::<Phase>(), Phase::Reading { .. }) {
            break;
        }
        app.update();
    }
    let impacts = impacts.expect("a shown throw");
    let heard = &app.world().resource::<Heard>().0;
    let clacks = heard.iter().filter(|s| matches!(s, Sfx::Clack(_))).count();
    assert!(impacts >= 4, "each koma strikes the board: {impacts}");
    // Every contact is heard, but never more than three at one frame.
    assert!(
        clacks >= impacts.min(4) && clacks <= impacts,
        "{clacks} of {impacts}"
    );
    assert!(
        !heard.contains(&Sfx::Throw),
        "no canned clatter over the contacts"
    );
    // Harder contacts are louder.
    let loud: Vec<u8> = heard
        .iter()
        .filter_map(|s| match s {
            Sfx::Clack(c) => Some(c.loudness),
            _ => None,
        })
        .collect();
    assert!(loud.iter().any(|&l| l > 10), "{loud:?}");
}

/// The panel stands still while nothing changes: a press and a release
/// frames apart (a finger, a slow click) land on the same 投げる button.
/// (Counting down inside a phase once made every frame a change, the panel
/// was rebuilt each frame, and no button could be clicked by a real
/// pointer.)
#[test]
fn the_panel_is_not_rebuilt_while_the_person_is_to_throw() {
    let (store, _dir) = temp_store("mawari-still");
    let mut app = app(store);
    open_setup(&mut app);
    begin(&mut app, "basic", false);
    for _ in 0..3 {
        app.update();
    }
    assert!(app.world().resource::<Phase>().is_waiting());
    assert!(app.world().resource::<MawariMatch>().person_to_throw());
    let button = find::<ThrowButton>(&mut app).expect("投げる");
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(
        find::<ThrowButton>(&mut app),
        Some(button),
        "the same button, frames later"
    );
    click(&mut app, button);
    app.update();
    assert!(
        !app.world().resource::<Phase>().is_waiting(),
        "the click threw"
    );
}
