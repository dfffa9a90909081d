//! まわり将棋's 振り返り: a game played to its end (早投げ) opened from the
//! result, every throw simulated again and landing as logged, the board
//! after each throw the race replayed, the rank chart one line a player
//! with a point a throw, stepping back and forth by buttons, keys and the
//! log, Esc back to the result; then again from the card, and an older
//! save's throws shown by their logged poses.

use bevy::input::keyboard::Key;
use bevy::prelude::*;
use yorimichi::games::mawari::{
    CHART_PAD, Landing, MawariMatch, MawariReplay, Phase, RacePiece, RankChart, RankLabel,
    RankLine, RankPoint, ReplayLogEntry, ResultPanel, Shown,
};
use yorimichi::games::play::OpenReviewButton;
use yorimichi::games::review::{ReviewButton, ReviewCommand};
use yorimichi::headless::{app, click, find};
use yorimichi::rules::data::GameId;
use yorimichi::rules::mawari::dice::KomaDice;
use yorimichi::shell::Screen;
use yorimichi::shell::save::Store;
use yorimichi::shell::screens::CardButton;
use yorimichi::shell::settings::{Settings, TextSize};

use crate::common::{card, screen, tap_key, temp_store};
use crate::mawari_flow::{begin, open_setup, play_throws};

fn send(app: &mut App, cmd: ReviewCommand) {
    app.world_mut().write_message(cmd);
    app.update();
}

fn at(app: &App) -> usize {
    app.world().resource::<MawariReplay>().at
}

/// The ranks written up the chart's side stay at least a label apart,
/// however large they are drawn: at the design size, with the largest text
/// setting, and on a phone's scale (where the readable floor draws them at
/// twice their size).
fn ranks_written_apart(app: &mut App) {
    for (scale, text) in [
        (1.0, TextSize::Standard),
        (1.0, TextSize::Larger),
        (0.45, TextSize::Standard),
    ] {
        app.world_mut().resource_mut::<UiScale>().0 = scale;
        app.world_mut().resource_mut::<Settings>().text_size = text;
        app.update();
        // Each label hangs from a node placed a share of the plot down.
        let mut labels = app
            .world_mut()
            .query_filtered::<(&TextFont, &ChildOf), With<RankLabel>>();
        let hung: Vec<(f32, Entity)> = labels
            .iter(app.world())
            .map(|(f, c)| match f.font_size {
                FontSize::Px(px) => (px, c.parent()),
                other => panic!("a label sized {other:?}"),
            })
            .collect();
        assert!(hung.len() >= 8, "歩 to 王 written up the side");
        let label = hung.iter().map(|h| h.0).fold(0.0, f32::max);
        let mut tops: Vec<f32> = hung
            .iter()
            .map(
                |(_, at)| match app.world().get::<Node>(*at).map(|n| n.top) {
                    Some(Val::Percent(p)) => p,
                    other => panic!("a label placed at {other:?}"),
                },
            )
            .collect();
        tops.sort_by(f32::total_cmp);
        let nearest = tops.windows(2).map(|w| w[1] - w[0]).fold(100.0, f32::min);
        let mut chart = app.world_mut().query_filtered::<&Node, With<RankChart>>();
        let Val::Px(height) = chart.single(app.world()).expect("one chart").height else {
            panic!("the chart's height is not in pixels");
        };
        let apart = nearest / 100.0 * (height - 2.0 * CHART_PAD);
        assert!(
            apart >= label * 1.1,
            "at scale {scale} with {text:?}: labels {label} px high, {apart} px apart"
        );
    }
    app.world_mut().resource_mut::<UiScale>().0 = 1.0;
    app.world_mut().resource_mut::<Settings>().text_size = TextSize::Standard;
    app.update();
}

/// Runs until the throw shown has landed and played out.
fn until_still(app: &mut App) {
    for _ in 0..5000 {
        if matches!(
            *app.world().resource::<Phase>(),
            Phase::Waiting | Phase::Over
        ) {
            return;
        }
        app.update();
    }
    panic!("the throw did not play out");
}

/// The board shows the race replayed after the throws shown, and so does
/// the match behind it.
fn assert_board(app: &mut App) {
    let r = app.world().resource::<MawariReplay>();
    let race = r.replayed.races[r.at].clone();
    assert_eq!(app.world().resource::<MawariMatch>().race, race);
    assert_eq!(
        app.world().resource::<Shown>().pieces,
        race.pieces,
        "the board after {} throws",
        r.at
    );
    let mut q = app.world_mut().query::<&RacePiece>();
    assert_eq!(q.iter(app.world()).count(), race.pieces.len());
}

fn button(app: &mut App, cmd: ReviewCommand) -> Entity {
    let mut q = app.world_mut().query::<(Entity, &ReviewButton)>();
    q.iter(app.world())
        .find(|(_, b)| b.0 == cmd)
        .map(|(e, _)| e)
        .expect("the button")
}

#[test]
fn a_finished_game_is_replayed_throw_by_throw_with_its_rank_chart() {
    let (store, dir) = temp_store("mawari-review");
    let mut app = app(store);
    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    open_setup(&mut app);
    begin(&mut app, "all", true);
    play_throws(&mut app, usize::MAX);
    for _ in 0..3 {
        app.update();
    }
    let m = app.world().resource::<MawariMatch>().clone();
    let n = m.log.len();
    assert!(m.race.is_over() && n > 0);
    assert!(m.start.is_some(), "the race's start is kept");
    assert!(m.log.iter().all(|e| e.toss.is_some()), "every toss is kept");
    assert!(
        app.world()
            .resource::<Store>()
            .has(&GameId::Mawari.finished_key()),
        "the finished game is kept for the card"
    );

    // 振り返る on the result.
    assert!(find::<ResultPanel>(&mut app).is_some());
    let open = find::<OpenReviewButton>(&mut app).expect("振り返る on the result");
    click(&mut app, open);
    app.update();
    assert_eq!(screen(&app), Screen::Review);
    {
        let r = app.world().resource::<MawariReplay>();
        assert_eq!(r.at, 0);
        assert_eq!(r.replayed.throws(), n, "every throw replays as logged");
        assert_eq!(r.replayed.races[n], m.race, "the replay ends as the game");
    }
    assert_board(&mut app);

    // The chart: a line a player, a point a throw on each.
    let mut lines = app.world_mut().query::<&RankLine>();
    let mut lines: Vec<usize> = lines.iter(app.world()).map(|l| l.0).collect();
    lines.sort();
    assert_eq!(lines, (0..m.seats.len()).collect::<Vec<_>>());
    let mut points = app.world_mut().query::<&RankPoint>();
    let points: Vec<RankPoint> = points.iter(app.world()).copied().collect();
    for p in 0..m.seats.len() {
        let mut throws: Vec<usize> = points
            .iter()
            .filter(|q| q.player == p)
            .map(|q| q.throw)
            .collect();
        throws.sort();
        assert_eq!(throws, (1..=n).collect::<Vec<_>>(), "player {p}'s points");
    }
    ranks_written_apart(&mut app);

    // Every throw, jumped to, is simulated again and lies as logged.
    for k in (1..=n).rev() {
        send(&mut app, ReviewCommand::GoTo(k));
        assert_eq!(at(&app), k);
        let r = app.world().resource::<MawariReplay>();
        let shown = r.throws[k - 1].as_ref().expect("the throw simulated");
        assert_eq!(shown.landing, Landing::Simulated, "throw {k}");
        assert_eq!(shown.throw.poses, m.log[k - 1].poses, "throw {k}'s poses");
        assert_eq!(shown.throw.value, m.log[k - 1].value);
        assert_board(&mut app);
    }
    until_still(&mut app);

    // A step forward lands the koma again, then plays what it did.
    let k = n / 2;
    send(&mut app, ReviewCommand::GoTo(k - 1));
    until_still(&mut app);
    assert_board(&mut app);
    send(&mut app, ReviewCommand::Next);
    assert_eq!(at(&app), k);
    assert!(
        matches!(*app.world().resource::<Phase>(), Phase::Throwing { .. }),
        "the koma fly again"
    );
    {
        let before = app.world().resource::<MawariReplay>().replayed.races[k - 1].clone();
        assert_eq!(
            app.world().resource::<Shown>().pieces,
            before.pieces,
            "the pieces wait for the throw to land"
        );
    }
    until_still(&mut app);
    assert_board(&mut app);
    // A step back shows the race before at once.
    send(&mut app, ReviewCommand::Previous);
    assert_eq!(at(&app), k - 1);
    assert_board(&mut app);
    until_still(&mut app);
    assert_board(&mut app);

    // The keys, the buttons and the log.
    tap_key(&mut app, KeyCode::ArrowRight, Key::ArrowRight);
    assert_eq!(at(&app), k, "→ steps forward");
    tap_key(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    assert_eq!(at(&app), k - 1, "← steps back");
    tap_key(&mut app, KeyCode::End, Key::End);
    assert_eq!(at(&app), n);
    send(&mut app, ReviewCommand::Next);
    assert_eq!(at(&app), n, "no step past the end");
    tap_key(&mut app, KeyCode::Home, Key::Home);
    assert_eq!(at(&app), 0);
    assert_board(&mut app);
    let entry = {
        let mut q = app.world_mut().query::<(Entity, &ReplayLogEntry)>();
        q.iter(app.world())
            .find(|(_, e)| e.0 == 3.min(n))
            .map(|(e, _)| e)
            .expect("a log line")
    };
    click(&mut app, entry);
    app.update();
    assert_eq!(at(&app), 3.min(n), "a log line goes to its throw");
    let last = button(&mut app, ReviewCommand::Last);
    click(&mut app, last);
    app.update();
    assert_eq!(at(&app), n);
    until_still(&mut app);
    assert_board(&mut app);

    // Esc: back to the result.
    tap_key(&mut app, KeyCode::Escape, Key::Escape);
    app.update();
    assert_eq!(screen(&app), Screen::Play);
    app.update();
    assert_eq!(app.world().resource::<MawariMatch>().log.len(), n);
    assert!(find::<ResultPanel>(&mut app).is_some(), "the result again");
    assert!(app.world().get_resource::<MawariReplay>().is_none());

    // The card on the list opens the same game.
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::GameList);
    app.update();
    app.update();
    let c = card(&mut app, CardButton::Review(GameId::Mawari)).expect("振り返る on the card");
    click(&mut app, c);
    app.update();
    assert_eq!(screen(&app), Screen::Review);
    assert_eq!(app.world().resource::<MawariReplay>().len(), n);
    assert_board(&mut app);
    send(&mut app, ReviewCommand::Back);
    app.update();
    assert_eq!(screen(&app), Screen::GameList);
    assert!(app.world().get_resource::<MawariMatch>().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game saved before tosses were kept: its log still replays the race,
/// each throw shown by its logged poses (and said so).
#[test]
fn an_older_save_replays_its_logged_poses() {
    let (store, dir) = temp_store("mawari-review-old");
    let mut app = app(store);
    app.world_mut().resource_mut::<Settings>().reduced_motion = true;
    open_setup(&mut app);
    begin(&mut app, "basic", true);
    play_throws(&mut app, usize::MAX);
    let m = app.world().resource::<MawariMatch>().clone();
    // The save as it was written before: no toss, no start.
    let text = ron::to_string(&m).expect("ron");
    let cut = text
        .rfind(",start:Some(")
        .expect("the start, the last field");
    let mut text = format!("{})", &text[..cut]);
    while let Some(i) = text.find(",toss:Some((") {
        let j = i + text[i..].find("))").expect("the toss's end") + 2;
        text.replace_range(i..j, "");
    }
    let old: MawariMatch = ron::from_str(&text).expect("an older save loads");
    assert!(old.start.is_none() && old.log.iter().all(|e| e.toss.is_none()));
    let mut r = MawariReplay::new(old, Screen::GameList);
    assert_eq!(r.replayed.throws(), m.log.len(), "the race replays");
    let dice = KomaDice::new();
    let shown = r.landing(&dice, 1).expect("throw 1").clone();
    assert_eq!(shown.landing, Landing::Logged);
    assert_eq!(shown.throw.poses, m.log[0].poses);
    // A toss that lands otherwise is not passed off as the throw.
    let mut changed = m.clone();
    if let Some(t) = changed.log[0].toss.as_mut() {
        t.seed = t.seed.wrapping_add(1);
        t.speed += 11.0;
    }
    let mut r = MawariReplay::new(changed, Screen::GameList);
    let shown = r.landing(&dice, 1).expect("throw 1").clone();
    assert_eq!(shown.throw.poses, m.log[0].poses, "the logged poses shown");
    assert!(matches!(
        shown.landing,
        Landing::Differs | Landing::Simulated
    ));
    let _ = std::fs::remove_dir_all(&dir);
}
