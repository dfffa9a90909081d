//! Helpers the app-level tests share: screens, settling the play screen,
//! and comparing the pieces on screen with the rules position.

use std::time::Duration;

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use bevy_pkv::PkvStore;
use rand::{RngExt, SeedableRng, rngs::StdRng};
use yorimichi::games::play::{BoardTap, PieceView, PlayCommand, PlayUi};
use yorimichi::games::session::{Match, Playable};
use yorimichi::rules::game::Side;
use yorimichi::shell::Screen;
use yorimichi::shell::save::Store;
use yorimichi::shell::screens::CardButton;

pub fn temp_store(name: &str) -> (Store, TempDir) {
    let dir = std::env::temp_dir().join(format!("yorimichi-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    (Store::new(Some(PkvStore::new_in_dir(&dir))), TempDir(dir))
}

/// A test's own folder, removed with everything in it when the test is
/// done with it (declared before the app that writes there, it outlives
/// the app).
pub struct TempDir(std::path::PathBuf);

impl std::ops::Deref for TempDir {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for TempDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A key's press or release as the window reports it.
pub fn key_event(
    key_code: KeyCode,
    logical_key: Key,
    state: ButtonState,
    text: Option<&str>,
) -> KeyboardInput {
    KeyboardInput {
        key_code,
        logical_key,
        state,
        text: text.map(Into::into),
        repeat: false,
        window: Entity::PLACEHOLDER,
    }
}

/// Presses and releases a key, the app updating after each.
pub fn tap_key(app: &mut App, key_code: KeyCode, logical_key: Key) {
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut()
            .write_message(key_event(key_code, logical_key.clone(), state, None));
        app.update();
    }
}

/// Presses and releases a key `times` times within one frame (a slow
/// phone's, or one key typing `text`), then updates once.
pub fn taps_in_one_frame(
    app: &mut App,
    key_code: KeyCode,
    logical_key: Key,
    times: usize,
    text: Option<&str>,
) {
    for _ in 0..times {
        for state in [ButtonState::Pressed, ButtonState::Released] {
            app.world_mut()
                .write_message(key_event(key_code, logical_key.clone(), state, text));
        }
    }
    app.update();
}

pub fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

pub fn card(app: &mut App, which: CardButton) -> Option<Entity> {
    let mut q = app.world_mut().query::<(Entity, &CardButton)>();
    q.iter(app.world())
        .find(|(_, c)| **c == which)
        .map(|(e, _)| e)
}

/// Opens the play screen on the match `m` and runs one frame.
pub fn open_play<G: Playable>(app: &mut App, m: Match<G>) {
    app.insert_resource(m);
    app.insert_resource(yorimichi::shell::ChosenGame(G::ID));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Play);
    app.update();
}

/// From the title through the list to `G`'s setup screen (with `draft`
/// chosen) and into the game: はじめる, the card's はじめから, はじめる.
pub fn begin_from_list<G: Playable>(
    app: &mut App,
    draft: yorimichi::games::session::SetupDraft<G>,
) {
    use yorimichi::headless::{click, find};
    app.insert_resource(draft);
    app.update();
    let start = find::<yorimichi::shell::screens::TitleStart>(app).expect("a start button");
    click(app, start);
    app.update();
    let new = card(app, CardButton::New(G::ID)).expect("the game's card");
    click(app, new);
    app.update();
    assert_eq!(screen(app), Screen::Setup);
    let begin = find::<yorimichi::games::setup::BeginButton>(app).expect("はじめる");
    click(app, begin);
    app.update();
    settle::<G>(app);
}

/// Opens `game`'s tutorial (its first, or its only one).
pub fn open_tutorial(app: &mut App, game: yorimichi::rules::data::GameId) {
    app.insert_resource(yorimichi::shell::ChosenGame(game));
    app.update();
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Tutorial);
    app.update();
    app.update();
}

/// Runs frames until animations are over and no CPU is to move.
pub fn settle<G: Playable>(app: &mut App) {
    for _ in 0..2000 {
        app.update();
        let busy = {
            let ui = app.world().resource::<PlayUi<G>>();
            let m = app.world().resource::<Match<G>>();
            let cpu_to_move = m.setup.is_cpu(m.game.side_to_move(m.record.current()))
                && m.record.outcome(&m.game).is_none();
            ui.is_settling() || cpu_to_move
        } || !still(app);
        if !busy || screen(app) != Screen::Play {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("the play screen did not settle");
}

/// Whether no animation (tween or short-lived marker) is running.
pub fn still(app: &mut App) -> bool {
    use yorimichi::shell::anim::{Lifetime, Tween};
    let mut q = app
        .world_mut()
        .query_filtered::<(), Or<(With<Tween>, With<Lifetime>)>>();
    q.iter(app.world()).next().is_none()
}

/// The pieces on screen are exactly the pieces of the rules position.
pub fn assert_view_matches_rules<G: Playable>(app: &mut App) {
    let mut q = app.world_mut().query::<&PieceView>();
    let mut shown: Vec<(usize, Side)> = q.iter(app.world()).map(|p| (p.point, p.side)).collect();
    shown.sort_by_key(|(p, _)| *p);
    let m = app.world().resource::<Match<G>>();
    let pos = m.record.current();
    let expected: Vec<(usize, Side)> = (0..m.game.graph().len())
        .filter_map(|p| m.game.piece_at(pos, p).map(|s| (p, s)))
        .collect();
    assert_eq!(
        shown,
        expected,
        "view and rules disagree at ply {}",
        m.record.ply()
    );
}

/// A storm of input on the play screen: each step is, by its share in
/// percent, one of `commands`, a tap on a random point (`random_taps`), or
/// else a tap a player would make (a piece of the side to move, or a next
/// point of the path tapped so far). Every fifth settled frame the view must
/// match the rules. Stops when the play screen is left.
pub fn input_storm<G: Playable>(
    app: &mut App,
    seed: u64,
    steps: usize,
    commands: &[(PlayCommand, u32)],
    random_taps: u32,
) {
    let mut rng = StdRng::seed_from_u64(seed);
    let points = app.world().resource::<Match<G>>().game.graph().len();
    for step in 0..steps {
        let mut roll = rng.random_range(0..100u32);
        let command = commands.iter().find_map(|&(c, share)| {
            if roll < share {
                Some(c)
            } else {
                roll -= share;
                None
            }
        });
        if let Some(c) = command {
            app.world_mut().write_message(c);
        } else if roll < random_taps {
            let p = rng.random_range(0..points);
            app.world_mut().write_message(BoardTap(p));
        } else {
            let m = app.world().resource::<Match<G>>();
            let path = &app.world().resource::<PlayUi<G>>().path;
            let pos = m.record.current();
            let targets: Vec<usize> = if path.is_empty() {
                let mut moves = Vec::new();
                m.game.legal_moves(pos, &mut moves);
                moves.iter().map(|&mv| m.game.move_path(mv)[0]).collect()
            } else {
                yorimichi::rules::taps::next_points(&m.game, pos, path)
            };
            if !targets.is_empty() {
                let p = targets[rng.random_range(0..targets.len())];
                app.world_mut().write_message(BoardTap(p));
            }
        }
        app.update();
        if screen(app) != Screen::Play {
            break;
        }
        // Mid-jump the piece stands on its path, not where the rules have it.
        let ui = app.world().resource::<PlayUi<G>>();
        let settled = !ui.is_settling() && ui.path.len() < 2 && still(app);
        if settled && step % 5 == 0 {
            assert_view_matches_rules::<G>(app);
        }
    }
}

/// Resident memory of this process in KiB (Linux), for the soaks' figures.
pub fn resident_kib() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4)
}

/// How many games a soak plays: `YORIMICHI_SOAK_GAMES` (200 in `make
/// soak`), else `quick` (in `make test`).
pub fn soak_games(quick: usize) -> usize {
    std::env::var("YORIMICHI_SOAK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(quick)
}

/// CPU against CPU in the headless app, game after game, animations on
/// and time stepped: the app's CPU plays its side at the strength of the
/// match on the play screen, and the player's side is played by the
/// game's やさしい level through the same `PlayMove` messages a tap makes.
/// Each game ends on the result screen and the next begins with もう一度.
/// The entity count at the start of every game must stay flat; the
/// figures (entities, memory, plies) are printed. Call with the first game
/// on the play screen.
pub fn cpu_soak<G: Playable>(app: &mut App, games: usize, seed: u64) {
    use yorimichi::games::play::{PlayAgainButton, PlayMove};
    use yorimichi::games::session::Presets;
    use yorimichi::headless::{click, find};
    use yorimichi::rules::search::{Searcher, Step};
    let mut rng = StdRng::seed_from_u64(seed);
    let mut counts = Vec::new();
    let mut plies = 0usize;
    let memory_at_start = resident_kib();
    // The first game warms the caches (fonts, meshes, the allocator):
    // growth after it is what a leak would show.
    let mut memory_after_first = None;
    let started = std::time::Instant::now();
    for game in 0..games {
        assert_eq!(screen(app), Screen::Play, "game {game} began");
        assert_eq!(app.world().resource::<Match<G>>().record.ply(), 0);
        counts.push(app.world().entities().count_spawned());
        if game == 1 {
            memory_after_first = resident_kib();
        }
        loop {
            settle::<G>(app);
            if screen(app) != Screen::Play {
                break;
            }
            let over = {
                let m = app.world().resource::<Match<G>>();
                m.record.outcome(&m.game).is_some()
            };
            if over {
                // The result screen follows the last animation.
                app.update();
                continue;
            }
            assert_view_matches_rules::<G>(app);
            let plan = app
                .world()
                .resource::<Presets<G>>()
                .0
                .cpu
                .easy
                .plan(&mut rng);
            let m = app.world().resource::<Match<G>>();
            let forbidden = m.record.forbidden_moves(&m.game);
            let mut searcher =
                Searcher::new(&m.game, m.record.current().clone(), m.record.hashes(), plan)
                    .restrict_root(|mv| !forbidden.contains(&mv));
            let best = match searcher.step(&m.game, &mut || false) {
                Step::Done(r) => r.best,
                other => panic!("game {game}: the player's side found no move ({other:?})"),
            };
            app.world_mut().write_message(PlayMove::<G>(best));
            app.update();
        }
        assert_eq!(
            screen(app),
            Screen::Result,
            "game {game} ended on the result screen"
        );
        plies += app.world().resource::<Match<G>>().record.ply();
        let again = find::<PlayAgainButton>(app).expect("もう一度");
        click(app, again);
        app.update();
    }
    let first = counts[0];
    let last = *counts.last().expect("a game");
    println!(
        "{}: {games} CPU games ({plies} plies, {:.0} s): {first} entities at the start of the first, {last} at the start of the last; memory {} KiB at the start, {} after the first game, {} KiB at the end",
        G::ID.id(),
        started.elapsed().as_secs_f64(),
        memory_at_start.unwrap_or(0),
        memory_after_first.map_or("—".to_string(), |kib| format!("{kib} KiB")),
        resident_kib().unwrap_or(0)
    );
    assert!(
        counts.iter().all(|&c| c <= first + 20),
        "entities grew: {counts:?}"
    );
}

/// [`cpu_soak`] from the title: `G` against the app's ふつう CPU, with saves
/// on (every move is saved, as in play).
pub fn soak_from_list<G: Playable>(
    name: &str,
    presets: &yorimichi::rules::data::GamePresets<G::Rules>,
    quick: usize,
    seed: u64,
) {
    use yorimichi::games::session::SetupDraft;
    let (store, dir) = temp_store(name);
    let mut app = yorimichi::headless::app(store);
    let draft = SetupDraft::<G> {
        strength: yorimichi::rules::data::Strength::Normal,
        ..SetupDraft::new(presets)
    };
    begin_from_list::<G>(&mut app, draft);
    cpu_soak::<G>(&mut app, soak_games(quick), seed);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A temporary HOME for the tests that write the player's files there (the
/// position export, the bug report). It is set once for the whole test
/// process, before any of them writes, and the guard makes them take turns.
pub fn test_home() -> (std::sync::MutexGuard<'static, ()>, std::path::PathBuf) {
    static HOME: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let guard = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let home = HOME.get_or_init(|| {
        let home = std::env::temp_dir().join(format!("yorimichi-home-{}", std::process::id()));
        std::fs::create_dir_all(&home).unwrap();
        // SAFETY: set once, under the lock; the app tests read the
        // environment only through std, which serialises its own access.
        unsafe { std::env::set_var("HOME", &home) };
        home
    });
    (guard, home.clone())
}

/// The shapes a phone takes when turned: upright, on its side, upright
/// again (CSS pixels, and whether upright).
pub const PHONE_TURNS: [(u32, u32, bool); 3] =
    [(390, 844, true), (844, 390, false), (390, 844, true)];

/// Gives the app a primary window of `width`×`height` (the headless app
/// has none: its screens lay out as on a landscape window), or reshapes
/// the one it has.
pub fn shape_window(app: &mut App, width: u32, height: u32) {
    use bevy::window::{PrimaryWindow, WindowResolution};
    let mut windows = app
        .world_mut()
        .query_filtered::<Entity, With<PrimaryWindow>>();
    match windows.iter(app.world()).next() {
        Some(window) => app
            .world_mut()
            .get_mut::<Window>(window)
            .expect("the window")
            .resolution
            .set(width as f32, height as f32),
        None => {
            app.world_mut().spawn((
                Window {
                    resolution: WindowResolution::new(width, height),
                    ..default()
                },
                PrimaryWindow,
            ));
        }
    }
}

/// Asserts the layout in force is a phone's, upright or on its side.
pub fn assert_phone_layout(app: &App, upright: bool) {
    let layout = *app.world().resource::<yorimichi::shell::layout::Layout>();
    assert!(layout.compact, "a phone's layout");
    assert_eq!(
        layout.panel_top.is_some(),
        upright,
        "the panel below the board when upright"
    );
    assert_eq!(
        layout.panel_left.is_some(),
        !upright,
        "the panel beside the board on its side"
    );
}

/// Asserts each piece (its point and where it is drawn) stands where
/// `view` puts its point on `graph`.
pub fn assert_pieces_placed(
    view: &yorimichi::games::board_view::BoardView,
    graph: &yorimichi::rules::board::BoardGraph,
    placed: &[(usize, Vec3)],
) {
    for &(point, at) in placed {
        assert!(
            (at.truncate() - view.world(graph, point)).length() < 0.5,
            "the piece on point {point} stands where the board puts it"
        );
    }
}
