//! The look and the hands: the board theme's woods, the light kept where it
//! is however a koma is turned, a lifted piece's shadow, the fade between
//! screens, and whole games played from the keyboard alone.

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use yorimichi::games::art::{Art, BoardInk, BoardWood, KomaBody, PieceShadow};
use yorimichi::games::board_view::BoardView;
use yorimichi::games::mawari::{MawariMatch, Phase};
use yorimichi::games::play::{PieceView, PlayUi};
use yorimichi::games::session::{Match, Playable};
use yorimichi::games::wood::Wood;
use yorimichi::headless::{self, click, find};
use yorimichi::rules::chu::game::Chu;
use yorimichi::rules::data::GameId;
use yorimichi::rules::foxgeese::FoxGeese;
use yorimichi::rules::game::Game;
use yorimichi::rules::hasami::Hasami;
use yorimichi::shell::Screen;
use yorimichi::shell::screens::{CardButton, TitleStart};
use yorimichi::shell::settings::{BoardTheme, Settings};
use yorimichi::shell::transition::Fade;

use crate::common::{self, card, screen, temp_store};
use crate::mawari_flow::{begin, open_setup};

fn tap_key(app: &mut App, key_code: KeyCode) {
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput {
            key_code,
            logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
            state,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
        app.update();
    }
}

/// From the title to a new game of `game` against the CPU (the person
/// moves first).
fn start<G: Playable>(app: &mut App, game: GameId) {
    app.update();
    let start = find::<TitleStart>(app).expect("a start button");
    click(app, start);
    app.update();
    let new = card(app, CardButton::New(game)).expect("the game's card");
    click(app, new);
    app.update();
    let begin = find::<yorimichi::games::setup::BeginButton>(app).expect("はじめる");
    click(app, begin);
    app.update();
    assert_eq!(screen(app), Screen::Play);
    common::settle::<G>(app);
}

/// Walks the keyboard's cursor to `target` with the arrow keys only.
fn cursor_to<G: Playable>(app: &mut App, target: usize) {
    for _ in 0..60 {
        let (here, there) = {
            let view = app.world().resource::<BoardView>();
            let m = app.world().resource::<Match<G>>();
            let graph = m.game.graph();
            let Some(cursor) = app.world().resource::<PlayUi<G>>().cursor else {
                tap_key(app, KeyCode::ArrowUp);
                continue;
            };
            if cursor == target {
                return;
            }
            (view.world(graph, cursor), view.world(graph, target))
        };
        let d = there - here;
        let key = if d.x.abs() > d.y.abs() {
            if d.x > 0.0 {
                KeyCode::ArrowRight
            } else {
                KeyCode::ArrowLeft
            }
        } else if d.y > 0.0 {
            KeyCode::ArrowUp
        } else {
            KeyCode::ArrowDown
        };
        tap_key(app, key);
    }
    panic!("the arrow keys never reached point {target}");
}

/// Plays `moves` person's moves from the keyboard: to the piece, Enter,
/// to each point of its path, Space; the CPU answers in between.
fn play_by_keys<G: Playable>(app: &mut App, moves: usize) {
    for _ in 0..moves {
        let (path, ply) = {
            let m = app.world().resource::<Match<G>>();
            if m.record.outcome(&m.game).is_some() {
                return;
            }
            let legal = m.record.legal_moves(&m.game);
            let mv = *legal.first().expect("a legal move");
            (m.game.move_path(mv), m.record.ply())
        };
        cursor_to::<G>(app, path[0]);
        tap_key(app, KeyCode::Enter);
        for &p in &path[1..] {
            cursor_to::<G>(app, p);
            tap_key(app, KeyCode::Space);
        }
        common::settle::<G>(app);
        let m = app.world().resource::<Match<G>>();
        assert!(m.record.ply() > ply, "the move made by keys was not played");
        common::assert_view_matches_rules::<G>(app);
    }
}

#[test]
fn hasami_and_fox_and_geese_are_played_from_the_keyboard_alone() {
    let (store, _dir) = temp_store("keys-hasami");
    let mut app = headless::app(store);
    start::<Hasami>(&mut app, GameId::Hasami);
    play_by_keys::<Hasami>(&mut app, 4);
    assert!(app.world().resource::<Match<Hasami>>().record.ply() >= 8);

    // A board of lines: the cursor follows the lines, diagonals included.
    let (store, _dir) = temp_store("keys-fox");
    let mut app = headless::app(store);
    start::<FoxGeese>(&mut app, GameId::FoxGeese);
    play_by_keys::<FoxGeese>(&mut app, 4);
}

#[test]
fn the_arrow_keys_step_along_the_board() {
    let (store, _dir) = temp_store("keys-step");
    let mut app = headless::app(store);
    start::<Hasami>(&mut app, GameId::Hasami);
    let view = app.world().resource::<BoardView>().clone();
    let m = app.world().resource::<Match<Hasami>>();
    let graph = m.game.graph();
    let centre = view.central_point(graph).expect("a centre");
    let at = |p| view.world(graph, p);
    for dir in [Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::NEG_Y] {
        let next = view.step_from(graph, centre, dir).expect("a neighbour");
        let d = at(next) - at(centre);
        assert!((d.length() - view.cell).abs() < 0.5, "one square away");
        assert!(d.normalize().dot(dir) > 0.99, "in the arrow's direction");
    }
    // At the edge the cursor stays.
    let corner = (0..graph.len())
        .min_by(|&a, &b| (at(a).x + at(a).y).total_cmp(&(at(b).x + at(b).y)))
        .expect("a corner");
    assert_eq!(view.step_from(graph, corner, Vec2::NEG_X), None);
    assert_eq!(view.step_from(graph, corner, Vec2::NEG_Y), None);
}

#[test]
fn a_board_theme_draws_its_woods_and_inks_the_lines() {
    let (store, _dir) = temp_store("theme");
    let mut app = headless::app(store);
    app.update();
    let flat = |app: &App| {
        let wood = app.world().resource::<Wood>();
        let images = app.world().resource::<Assets<Image>>();
        let data = images
            .get(&wood.board)
            .and_then(|i| i.data.clone())
            .expect("the board's wood");
        data.chunks(4).all(|p| p == &data[..4])
    };
    assert_eq!(app.world().resource::<Wood>().theme, BoardTheme::Kaya);
    assert!(!flat(&app), "榧 has a grain");
    app.world_mut().resource_mut::<Settings>().board_theme = BoardTheme::Contrast;
    app.update();
    assert_eq!(app.world().resource::<Wood>().theme, BoardTheme::Contrast);
    assert!(flat(&app), "the high-contrast board has no grain");

    start::<Hasami>(&mut app, GameId::Hasami);
    let board = app.world().resource::<Wood>().board.clone();
    let mut woods = app.world_mut().query_filtered::<&Sprite, With<BoardWood>>();
    let woods: Vec<_> = woods.iter(app.world()).collect();
    assert!(!woods.is_empty());
    assert!(woods.iter().all(|s| s.image == board));
    let mut lines = app.world_mut().query_filtered::<&Sprite, With<BoardInk>>();
    let lines: Vec<_> = lines.iter(app.world()).collect();
    assert!(lines.len() > 18, "the grid's lines");
    assert!(lines.iter().all(|s| s.color == Color::BLACK));
}

/// `entity`'s place in the world, composed through its ancestors (the
/// headless app does not propagate transforms).
fn world_of(app: &mut App, entity: Entity) -> Transform {
    let mut out = Transform::IDENTITY;
    let mut at = Some(entity);
    while let Some(e) = at {
        let local = app.world().get::<Transform>(e).copied().unwrap_or_default();
        out = local.mul_transform(out);
        at = app.world().get::<ChildOf>(e).map(|c| c.parent());
    }
    out
}

/// Where each piece's shadow falls on screen from the koma above it, and
/// how the piece on the board is turned.
fn shadow_offsets(app: &mut App) -> Vec<(Vec2, Quat)> {
    let mut shadows = app
        .world_mut()
        .query_filtered::<(Entity, &ChildOf), With<PieceShadow>>();
    let shadows: Vec<(Entity, Entity)> = shadows
        .iter(app.world())
        .map(|(e, c)| (e, c.parent()))
        .collect();
    let mut out = Vec::new();
    for (shadow, koma) in shadows {
        let mut piece = koma;
        while app.world().get::<PieceView>(piece).is_none() {
            match app.world().get::<ChildOf>(piece) {
                Some(c) => piece = c.parent(),
                None => break,
            }
        }
        if app.world().get::<PieceView>(piece).is_none() {
            continue;
        }
        let offset = world_of(app, shadow).translation - world_of(app, koma).translation;
        let turn = app.world().get::<Transform>(piece).map(|t| t.rotation);
        out.push((offset.truncate(), turn.unwrap_or_default()));
    }
    out
}

#[test]
fn the_light_stays_put_when_a_koma_is_turned_and_a_lifted_koma_casts_further() {
    let (store, _dir) = temp_store("light");
    let mut app = headless::app(store);
    start::<Chu>(&mut app, GameId::ChuShogi);
    let offsets = shadow_offsets(&mut app);
    assert_eq!(offsets.len(), 92, "every koma has its shadow");
    let first = offsets[0].0;
    assert!(first.x > 0.0 && first.y < 0.0, "down and to the right");
    let mut turned = 0;
    for (offset, rotation) in &offsets {
        assert!(
            offset.distance(first) < 0.01,
            "the same on screen: {offset}"
        );
        turned += usize::from(rotation.angle_between(Quat::IDENTITY) > 1.0);
    }
    assert_eq!(turned, 46, "後手's koma are turned round");
    // The bevels: lit from the upper left on screen, turned or not.
    let art = app.world().resource::<Art>().clone();
    let mut bodies = app
        .world_mut()
        .query_filtered::<(Entity, &Mesh2d), With<KomaBody>>();
    let bodies: Vec<(Entity, Handle<Mesh>)> = bodies
        .iter(app.world())
        .map(|(e, m)| (e, m.0.clone()))
        .collect();
    assert_eq!(bodies.len(), 92);
    for (body, mesh) in bodies {
        let turn = world_of(&mut app, body).rotation;
        let want = if turn.angle_between(Quat::IDENTITY) > 1.0 {
            &art.koma_bodies[2]
        } else {
            &art.koma_bodies[0]
        };
        assert_eq!(&mesh, want);
    }

    // A move: the piece grows mid-way and its shadow falls further off.
    let (from, to) = {
        let m = app.world().resource::<Match<Chu>>();
        let legal = m.record.legal_moves(&m.game);
        let path = m.game.move_path(legal[0]);
        (path[0], path[path.len() - 1])
    };
    app.world_mut()
        .write_message(yorimichi::games::play::BoardTap(from));
    app.update();
    app.world_mut()
        .write_message(yorimichi::games::play::BoardTap(to));
    let mut furthest = 0.0f32;
    for _ in 0..10 {
        app.update();
        for (offset, _) in shadow_offsets(&mut app) {
            furthest = furthest.max(offset.length());
        }
    }
    assert!(
        furthest > first.length() * 1.5,
        "a lifted koma casts its shadow further: {furthest} against {}",
        first.length()
    );
    common::settle::<Chu>(&mut app);
    for (offset, _) in shadow_offsets(&mut app) {
        assert!(offset.distance(first) < 0.01, "set down again");
    }
}

fn fades(app: &mut App) -> usize {
    let mut q = app.world_mut().query_filtered::<(), With<Fade>>();
    q.iter(app.world()).count()
}

#[test]
fn screens_fade_in_unless_motion_is_reduced() {
    let (store, _dir) = temp_store("fade");
    let mut app = headless::app(store);
    app.update();
    let start = find::<TitleStart>(&mut app).expect("a start button");
    click(&mut app, start);
    app.update();
    assert_eq!(screen(&app), Screen::GameList);
    assert_eq!(fades(&mut app), 1, "the list fades in");
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(fades(&mut app), 0, "and the fade is gone");

    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Title);
    assert_eq!(fades(&mut app), 0, "no fade with reduced motion");
}

#[test]
fn a_person_throws_the_koma_dice_with_a_key() {
    let (store, _dir) = temp_store("throw-key");
    let mut app = headless::app(store);
    open_setup(&mut app);
    begin(&mut app, "basic", true);
    // The person's turn comes first in the default setup, or after the
    // CPUs have thrown.
    for _ in 0..3000 {
        let ready = {
            let m = app.world().resource::<MawariMatch>();
            app.world().resource::<Phase>().is_waiting() && m.person_to_throw()
        };
        if ready {
            break;
        }
        app.update();
    }
    let throws = app.world().resource::<MawariMatch>().log.len();
    tap_key(&mut app, KeyCode::Space);
    app.update();
    assert!(
        app.world().resource::<MawariMatch>().log.len() > throws
            || !app.world().resource::<Phase>().is_waiting(),
        "Space threw"
    );
}

#[test]
fn tab_reaches_the_buttons_and_enter_presses_the_focused_one() {
    use bevy::input_focus::tab_navigation::{NavAction, TabNavigation};
    use bevy::input_focus::{FocusCause, InputFocus, InputFocusVisible};
    let (store, _dir) = temp_store("tab");
    let mut app = headless::app(store);
    app.init_resource::<InputFocus>()
        .insert_resource(InputFocusVisible(true));
    app.update();
    app.update();
    let tab = |app: &mut App| {
        let next = app
            .world_mut()
            .run_system_cached(|nav: TabNavigation, focus: Res<InputFocus>| {
                nav.navigate(&focus, NavAction::Next)
            })
            .expect("the system runs")
            .expect("a button to go to");
        app.world_mut()
            .resource_mut::<InputFocus>()
            .set(next, FocusCause::Navigated);
        app.update();
        next
    };
    assert_eq!(
        Some(tab(&mut app)),
        find::<TitleStart>(&mut app),
        "はじめる first"
    );
    let second = tab(&mut app);
    assert!(app.world().get::<Button>(second).is_some());
    let outline = app.world().get::<Outline>(second).expect("an outline");
    assert_ne!(outline.color, Color::NONE, "the focused button is outlined");
    // Enter presses the focused button (設定), not the title's own Enter
    // (which would open the list).
    tap_key(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Settings);
}
