//! The look and the hands: the board theme's woods, the light kept where it
//! is however a koma is turned, a lifted piece's shadow, the fade between
//! screens, whole games played from the keyboard alone, the sounds of the
//! buttons and the koma, the text's sizes, and the まわり将棋 seats' marks.

use bevy::input::keyboard::Key;
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
use yorimichi::shell::audio::Sfx;
use yorimichi::shell::screens::{CardButton, TitleStart};
use yorimichi::shell::settings::{BoardTheme, Settings, TextSize};
use yorimichi::shell::transition::Fade;
use yorimichi::shell::widgets::{
    ButtonLook, PHONE_LARGEST_PX, PHONE_READABLE_PX, PHONE_TARGET_PX, READABLE_PX, TypeSize,
    palette,
};

use crate::common::{self, TempDir, card, screen, temp_store};
use crate::mawari_flow::{begin, open_setup};

fn tap_key(app: &mut App, key_code: KeyCode) {
    let unnamed = Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified);
    common::tap_key(app, key_code, unnamed);
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

/// Walks a keyboard cursor with the arrow keys only, until it stands on
/// its target. `read` gives where the cursor stands (none before the
/// first arrow) and where the target is, in the board's world.
fn arrows_to(app: &mut App, read: impl Fn(&App) -> (Option<Vec2>, Vec2)) {
    for _ in 0..60 {
        let (here, there) = read(app);
        let Some(here) = here else {
            tap_key(app, KeyCode::ArrowUp);
            continue;
        };
        let d = there - here;
        if d.length() < 0.5 {
            return;
        }
        let key = match (d.x.abs() > d.y.abs(), d.x > 0.0, d.y > 0.0) {
            (true, true, _) => KeyCode::ArrowRight,
            (true, false, _) => KeyCode::ArrowLeft,
            (false, _, true) => KeyCode::ArrowUp,
            (false, _, false) => KeyCode::ArrowDown,
        };
        tap_key(app, key);
    }
    panic!("the arrow keys never reached the target");
}

/// Walks the play screen's cursor to `target`.
fn cursor_to<G: Playable>(app: &mut App, target: usize) {
    arrows_to(app, |app| {
        let view = app.world().resource::<BoardView>();
        let graph = app.world().resource::<Match<G>>().game.graph();
        let cursor = app.world().resource::<PlayUi<G>>().cursor;
        (
            cursor.map(|c| view.world(graph, c)),
            view.world(graph, target),
        )
    });
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

/// Two presses within one slow frame (a phone's) are two steps of the
/// cursor, not one.
#[test]
fn two_arrow_presses_in_one_frame_step_twice() {
    let (store, _dir) = temp_store("keys-two");
    let mut app = headless::app(store);
    start::<Hasami>(&mut app, GameId::Hasami);
    // The first press puts the cursor in the middle.
    tap_key(&mut app, KeyCode::ArrowUp);
    let cursor = |app: &App| app.world().resource::<PlayUi<Hasami>>().cursor;
    let from = cursor(&app).expect("a cursor");
    common::taps_in_one_frame(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft, 2, None);
    let view = app.world().resource::<BoardView>().clone();
    let graph = app.world().resource::<Match<Hasami>>().game.graph();
    let once = view
        .step_from(graph, from, Vec2::NEG_X)
        .expect("a point left");
    let twice = view
        .step_from(graph, once, Vec2::NEG_X)
        .expect("two points left");
    assert_eq!(cursor(&app), Some(twice), "two steps left of {from}");
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

/// The sounds the app asked for, in order.
#[derive(Resource, Default)]
struct Heard(Vec<Sfx>);

fn listen(mut sfx: MessageReader<Sfx>, mut heard: ResMut<Heard>) {
    heard.0.extend(sfx.read().copied());
}

fn heard(app: &mut App) -> Vec<Sfx> {
    std::mem::take(&mut app.world_mut().resource_mut::<Heard>().0)
}

/// The buttons on screen, top to bottom and left to right.
fn buttons_in_reading_order(app: &mut App) -> Vec<Entity> {
    let mut q = app
        .world_mut()
        .query_filtered::<(Entity, &bevy::ui::UiGlobalTransform), With<Button>>();
    let mut found: Vec<(Entity, Vec2)> = q
        .iter(app.world())
        .map(|(e, t)| (e, t.translation))
        .collect();
    found.sort_by(|a, b| {
        (a.1.y, a.1.x)
            .partial_cmp(&(b.1.y, b.1.x))
            .expect("positions")
    });
    found.into_iter().map(|(e, _)| e).collect()
}

#[test]
fn every_button_on_the_settings_screen_clicks_once() {
    let (store, _dir) = temp_store("click-sound");
    let mut app = headless::app(store);
    app.init_resource::<Heard>().add_systems(PostUpdate, listen);
    let open_settings = |app: &mut App| {
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Settings);
        for _ in 0..3 {
            app.update();
        }
    };
    open_settings(&mut app);
    let count = buttons_in_reading_order(&mut app).len();
    assert!(
        count >= 10,
        "the settings screen has its toggles ({count} buttons)"
    );
    for i in 0..count {
        if screen(&app) != Screen::Settings {
            open_settings(&mut app);
        }
        let Some(&button) = buttons_in_reading_order(&mut app).get(i) else {
            panic!("button {i} of {count} is gone");
        };
        heard(&mut app);
        click(&mut app, button);
        app.update();
        let clicks = heard(&mut app)
            .into_iter()
            .filter(|s| *s == Sfx::Button)
            .count();
        assert_eq!(
            clicks, 1,
            "button {i} of the settings screen clicked {clicks} times"
        );
    }
}

#[test]
fn a_moved_koma_is_heard_when_it_is_set_down() {
    let (store, _dir) = temp_store("koma-sound");
    let mut app = headless::app(store);
    app.init_resource::<Heard>().add_systems(PostUpdate, listen);
    start::<Hasami>(&mut app, GameId::Hasami);
    let mv = {
        let m = app.world().resource::<Match<Hasami>>();
        *m.record.legal_moves(&m.game).first().expect("a legal move")
    };
    heard(&mut app);
    app.world_mut()
        .write_message(yorimichi::games::play::PlayMove::<Hasami>(mv));
    app.update();
    app.update();
    assert!(
        !heard(&mut app).contains(&Sfx::Koma),
        "the 駒音 waits for the koma to come down"
    );
    // Until the person's piece has come down (the CPU then replies).
    for _ in 0..2000 {
        if app
            .world_mut()
            .query::<&yorimichi::shell::anim::Tween>()
            .iter(app.world())
            .next()
            .is_none()
        {
            break;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let sounds = heard(&mut app);
    assert_eq!(
        sounds.iter().filter(|s| **s == Sfx::Koma).count(),
        1,
        "one 駒音 as the koma lands: {sounds:?}"
    );
    assert!(
        !sounds.contains(&Sfx::Place),
        "no second sound for the move: {sounds:?}"
    );
}

/// Every UI text's drawn size and its size on the type scale.
fn text_sizes(app: &mut App) -> Vec<(f32, f32)> {
    let mut q = app.world_mut().query::<(&TypeSize, &TextFont)>();
    q.iter(app.world())
        .map(|(size, font)| match font.font_size {
            bevy::text::FontSize::Px(px) => (size.0, px),
            other => panic!("a UI text sized {other:?}"),
        })
        .collect()
}

#[test]
fn text_follows_the_size_setting_and_is_never_too_small_to_read() {
    let (store, _dir) = temp_store("text-size");
    let mut app = headless::app(store);
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Settings);
    for _ in 0..3 {
        app.update();
    }
    let sizes = text_sizes(&mut app);
    assert!(
        sizes.len() > 20,
        "the settings screen's texts ({})",
        sizes.len()
    );
    assert!(
        sizes.iter().all(|(scale, drawn)| scale == drawn),
        "{sizes:?}"
    );
    // 大きい, chosen on the screen itself.
    let large = buttons_in_reading_order(&mut app)
        .into_iter()
        .find(|&b| {
            let caption = app
                .world()
                .get::<Children>(b)
                .and_then(|c| c.iter().find_map(|t| app.world().get::<Text>(t)))
                .map(|t| t.0.clone());
            caption.as_deref() == Some("大きい")
        })
        .expect("the 大きい button");
    click(&mut app, large);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<Settings>().text_size,
        TextSize::Large
    );
    for (scale, drawn) in text_sizes(&mut app) {
        assert!((drawn - scale * 1.2).abs() < 0.01, "{scale} drawn {drawn}");
    }
    // A window that shows the design area at half its size (a phone held
    // upright): no text is drawn under the readable size.
    app.world_mut().resource_mut::<UiScale>().0 = 0.5;
    app.update();
    for (scale, drawn) in text_sizes(&mut app) {
        assert!(
            drawn * 0.5 >= READABLE_PX - 0.01,
            "{scale} drawn at {} px",
            drawn * 0.5
        );
        assert!(drawn >= scale * 1.2 - 0.01, "{scale} drawn {drawn}");
    }
    // A phone: the UI at the CSS pixel's size, no text under 14 px nor over
    // 40 px, and every button at least 44 px a side.
    app.world_mut().resource_mut::<yorimichi::shell::Phone>().0 = true;
    app.world_mut().resource_mut::<UiScale>().0 = 1.0;
    app.update();
    for (scale, drawn) in text_sizes(&mut app) {
        assert!(
            (PHONE_READABLE_PX - 0.01..=PHONE_LARGEST_PX + 0.01).contains(&drawn),
            "{scale} drawn at {drawn} px on a phone"
        );
    }
    let mut buttons = app.world_mut().query_filtered::<&Node, With<ButtonLook>>();
    for node in buttons.iter(app.world()) {
        assert_eq!(node.min_height, px(PHONE_TARGET_PX));
        assert_eq!(node.min_width, px(PHONE_TARGET_PX));
    }
}

#[test]
fn each_mawari_seat_has_its_own_mark_beside_its_colour() {
    let (store, _dir) = temp_store("seat-marks");
    let mut app = headless::app(store);
    open_setup(&mut app);
    begin(&mut app, "basic", false);
    let seats = app.world().resource::<MawariMatch>().race.pieces.len();
    assert!(seats >= 2);
    let marks = ["●", "▲", "■", "◆", "★", "◎"];
    let mut in_panel = app.world_mut().query::<&Text>();
    let panel: std::collections::BTreeSet<String> = in_panel
        .iter(app.world())
        .filter(|t| marks.contains(&t.0.as_str()))
        .map(|t| t.0.clone())
        .collect();
    assert_eq!(
        panel.len(),
        seats,
        "one mark a seat in the panel: {panel:?}"
    );
    let mut on_board = app.world_mut().query::<&Text2d>();
    let mut board: Vec<String> = on_board
        .iter(app.world())
        .filter(|t| marks.contains(&t.0.as_str()))
        .map(|t| t.0.clone())
        .collect();
    board.sort();
    board.dedup();
    assert_eq!(
        board.len(),
        seats,
        "one mark a seat on the board's koma: {board:?}"
    );
    assert_eq!(
        board.into_iter().collect::<std::collections::BTreeSet<_>>(),
        panel
    );
}

/// Walks the tutorial's cursor to the point named `target`.
fn tutorial_cursor_to(app: &mut App, target: &str) {
    use yorimichi::games::tutorial_board::TutorialBoard;
    arrows_to(app, |app| {
        let view = app.world().resource::<BoardView>();
        let board = app.world().resource::<TutorialBoard<Hasami>>();
        let graph = board.game.graph();
        let target = graph.find(target).expect("a point of the board");
        (
            board.cursor.map(|c| view.world(graph, c)),
            view.world(graph, target),
        )
    });
}

#[test]
fn every_move_of_the_hasami_tutorial_is_played_from_the_keyboard() {
    use yorimichi::shell::tutorial::TutorialProgress;
    let (store, _dir) = temp_store("keys-tutorial");
    let mut app = headless::app(store);
    common::open_tutorial(&mut app, GameId::Hasami);
    let steps = app
        .world()
        .resource::<TutorialProgress>()
        .tutorial
        .steps
        .clone();
    let mut played = 0;
    for (i, step) in steps.iter().enumerate() {
        let Some(expect) = &step.expect else { continue };
        {
            let mut progress = app.world_mut().resource_mut::<TutorialProgress>();
            let here = progress.step as i32;
            progress.turn(i as i32 - here);
        }
        app.update();
        tutorial_cursor_to(&mut app, &expect.from);
        tap_key(&mut app, KeyCode::Enter);
        if let Some(via) = &expect.via {
            tutorial_cursor_to(&mut app, via);
            tap_key(&mut app, KeyCode::Space);
        }
        tutorial_cursor_to(&mut app, &expect.to);
        tap_key(&mut app, KeyCode::Space);
        assert_eq!(
            app.world().resource::<TutorialProgress>().feedback,
            Some(true),
            "step {i}: {} → {} played by keys",
            expect.from,
            expect.to
        );
        played += 1;
    }
    assert!(played >= 2, "the tutorial asks for moves ({played})");
}

/// From the title to the game list by its start button.
fn to_list(app: &mut App, reduced_motion: bool) {
    app.world_mut().resource_mut::<Settings>().reduced_motion = reduced_motion;
    app.update();
    let start = find::<TitleStart>(app).expect("a start button");
    click(app, start);
    app.update();
}

/// From the title to a はさみ将棋 game, resigned by the side to move; the
/// result screen once it shows, with the folder its saves go to.
/// `cpu`: against the CPU (the person resigns), or two people (the one to
/// move resigns, the other wins).
fn resigned_hasami(cpu: bool, reduced_motion: bool) -> (TempDir, App) {
    use yorimichi::games::play::PlayCommand;
    use yorimichi::games::session::SetupDraft;
    let (store, dir) = temp_store(if cpu { "result-loss" } else { "result-win" });
    let mut app = headless::app(store);
    to_list(&mut app, reduced_motion);
    let new = card(&mut app, CardButton::New(GameId::Hasami)).expect("the card");
    click(&mut app, new);
    app.update();
    app.world_mut()
        .resource_mut::<SetupDraft<Hasami>>()
        .opponent_is_cpu = cpu;
    let begin = find::<yorimichi::games::setup::BeginButton>(&mut app).expect("はじめる");
    click(&mut app, begin);
    app.update();
    common::settle::<Hasami>(&mut app);
    app.world_mut().write_message(PlayCommand::Resign);
    for _ in 0..400 {
        app.update();
        if screen(&app) == Screen::Result {
            app.update();
            return (dir, app);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("no result screen after resigning");
}

fn shown_texts(app: &mut App) -> Vec<String> {
    let mut q = app.world_mut().query::<&Text>();
    q.iter(app.world()).map(|t| t.0.clone()).collect()
}

#[test]
fn a_win_is_celebrated_with_falling_confetti_and_a_loss_is_told_calmly() {
    use yorimichi::games::play::Confetto;
    // Two people: the one to move resigns, the other has won.
    let (_dir, mut app) = resigned_hasami(false, false);
    let scraps = |app: &mut App| {
        let mut q = app
            .world_mut()
            .query_filtered::<&UiTransform, With<Confetto>>();
        q.iter(app.world())
            .map(|t| t.translation)
            .collect::<Vec<_>>()
    };
    let first = scraps(&mut app);
    assert!(first.len() >= 20, "confetti on a win ({})", first.len());
    for _ in 0..20 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_ne!(scraps(&mut app), first, "the confetti falls");
    assert!(!shown_texts(&mut app).contains(&"おしかった! もう一度やってみよう".to_string()));
    // Their time is up: gone, the screen left as it was.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !scraps(&mut app).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the confetti never ends"
        );
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(screen(&app), Screen::Result);

    // Reduced motion: the win without the confetti.
    let (_still_dir, mut still) = resigned_hasami(false, true);
    assert!(scraps(&mut still).is_empty());

    // A loss to the CPU: no confetti, the headline in ink and a comfort.
    let (_lost_dir, mut lost) = resigned_hasami(true, false);
    assert!(scraps(&mut lost).is_empty());
    let texts = shown_texts(&mut lost);
    assert!(texts.contains(&"あなたの負け".to_string()), "{texts:?}");
    assert!(
        texts.contains(&"おしかった! もう一度やってみよう".to_string()),
        "{texts:?}"
    );
}

/// The colour of pixel (x, y) of `image`, as sRGB bytes.
fn pixel(image: &Image, x: u32, y: u32) -> [u8; 3] {
    let width = image.width();
    let data = image.data.as_ref().expect("the picture's pixels");
    let i = ((y * width + x) * 4) as usize;
    [data[i], data[i + 1], data[i + 2]]
}

fn near(a: [u8; 3], colour: Color) -> bool {
    let b = colour.to_srgba().to_u8_array();
    (0..3).all(|c| a[c].abs_diff(b[c]) <= 12)
}

#[test]
fn each_card_on_the_list_shows_its_board_in_miniature() {
    let (store, _dir) = temp_store("miniatures");
    let mut app = headless::app(store);
    to_list(&mut app, true);
    app.update();
    let mut cards = app
        .world_mut()
        .query::<(&yorimichi::shell::screens::CardPicture, &Children)>();
    let pictures: Vec<(GameId, Entity)> = cards
        .iter(app.world())
        .map(|(c, children)| (c.0, children[0]))
        .collect();
    assert_eq!(pictures.len(), 5, "a picture on every card");
    for (game, picture) in pictures {
        let node = app
            .world()
            .get::<ImageNode>(picture)
            .unwrap_or_else(|| panic!("{game:?}'s miniature is one image"));
        let images = app.world().resource::<Assets<Image>>();
        let image = images.get(&node.image).expect("the miniature's image");
        assert!(image.width() >= 96 && image.height() >= 48, "{game:?}");
        if game != GameId::Hasami {
            continue;
        }
        // はさみ将棋 from the start: the second player's nine on the top
        // row in vermilion, the first's on the bottom in ink, the middle
        // row bare wood.
        let cell = image.width() as f32 / 9.0;
        let centre = |x: u32, y: u32| {
            let at = |i: u32| ((i as f32 + 0.5) * cell) as u32;
            pixel(image, at(x), at(y))
        };
        for x in 0..9 {
            assert!(
                near(centre(x, 0), palette::VERMILION),
                "top {x}: {:?}",
                centre(x, 0)
            );
            assert!(
                near(centre(x, 8), palette::INK),
                "bottom {x}: {:?}",
                centre(x, 8)
            );
            let bare = centre(x, 4);
            assert!(
                !near(bare, palette::INK) && !near(bare, palette::VERMILION),
                "middle {x}: {bare:?}"
            );
        }
    }
}

/// The pieces shown on the board, by point, and how many times the panel's
/// ヒント button is there.
fn shown_board(app: &mut App) -> (Vec<usize>, usize) {
    let mut points: Vec<usize> = app
        .world_mut()
        .query::<&PieceView>()
        .iter(app.world())
        .map(|p| p.point)
        .collect();
    points.sort_unstable();
    let hints = app
        .world_mut()
        .query::<&yorimichi::games::play::CommandButton>()
        .iter(app.world())
        .filter(|b| b.0 == yorimichi::games::play::PlayCommand::Hint)
        .count();
    (points, hints)
}

/// A phone turned mid-game: the play screen is laid out again for the new
/// shape (the board on top of the panel upright, beside it on its side),
/// each piece drawn once where the new board puts it, one panel, and the
/// game where it was.
#[test]
fn a_phone_turned_mid_game_lays_the_play_screen_out_again() {
    let (store, _dir) = temp_store("turned");
    let mut app = headless::app(store);
    start::<Hasami>(&mut app, GameId::Hasami);
    play_by_keys::<Hasami>(&mut app, 1);
    let ply = app.world().resource::<Match<Hasami>>().record.ply();
    assert!(ply >= 1, "a move was played");
    let before = shown_board(&mut app);
    assert_eq!(before.1, 1);
    for (width, height, upright) in common::PHONE_TURNS {
        common::shape_window(&mut app, width, height);
        common::settle::<Hasami>(&mut app);
        common::assert_phone_layout(&app, upright);
        assert_eq!(
            shown_board(&mut app),
            before,
            "every piece once and one panel at {width}x{height}"
        );
        let view = app.world().resource::<BoardView>().clone();
        let m = app.world().resource::<Match<Hasami>>();
        assert_eq!(m.record.ply(), ply, "the game is where it was");
        let graph = m.game.graph().clone();
        let placed: Vec<(usize, Vec3)> = app
            .world_mut()
            .query::<(&PieceView, &Transform)>()
            .iter(app.world())
            .map(|(p, t)| (p.point, t.translation))
            .collect();
        common::assert_pieces_placed(&view, &graph, &placed);
    }
}

/// A phone turned during a lesson: the tutorial's board and panel are laid
/// out for the new shape, the step kept.
#[test]
fn a_phone_turned_during_a_lesson_lays_the_tutorial_out_again() {
    let (store, _dir) = temp_store("turned-lesson");
    let mut app = headless::app(store);
    common::open_tutorial(&mut app, GameId::Hasami);
    assert_eq!(screen(&app), Screen::Tutorial);
    // The panel is the screen's one scrolling column.
    let panels = |app: &mut App| {
        app.world_mut()
            .query::<&yorimichi::shell::widgets::ScrollColumn>()
            .iter(app.world())
            .count()
    };
    let step = |app: &App| {
        app.world()
            .resource::<yorimichi::shell::tutorial::TutorialProgress>()
            .step
    };
    let shown_step = step(&app);
    assert_eq!(panels(&mut app), 1);
    for (width, height, upright) in common::PHONE_TURNS {
        common::shape_window(&mut app, width, height);
        app.update();
        app.update();
        common::assert_phone_layout(&app, upright);
        assert_eq!(panels(&mut app), 1, "one panel at {width}x{height}");
        assert_eq!(step(&app), shown_step, "the step is kept");
    }
}
