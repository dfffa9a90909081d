//! 十六むさし through the whole app, headless: from the list against the
//! CPU 親 (which moves first), the first-move capture by taps, and a
//! 雪隠詰め named on the result screen.

use crate::common;

use bevy::prelude::*;
use common::{assert_view_matches_rules, screen, settle};
use yorimichi::games::play::{BoardTap, LastResult, PlayCommand};
use yorimichi::games::session::{Match, MatchSetup, Opponent, SetupDraft, SideChoice};
use yorimichi::headless;
use yorimichi::rules::data::{self, Strength};
use yorimichi::rules::game::{EndReason, Game, Side};
use yorimichi::rules::musashi::{KO, Musashi, MusashiRules};
use yorimichi::rules::record::GameRecord;
use yorimichi::shell::Screen;
use yorimichi::shell::i18n::T;
use yorimichi::shell::save::Store;

type MusashiMatch = Match<Musashi>;

fn tap(app: &mut App, name: &str) {
    let p = app
        .world()
        .resource::<MusashiMatch>()
        .game
        .board()
        .find(name)
        .expect("a point of the board");
    app.world_mut().write_message(BoardTap(p));
    app.update();
}

fn ply(app: &App) -> usize {
    app.world().resource::<MusashiMatch>().record.ply()
}

fn two_players(rows: Option<(&[&str], Side)>) -> App {
    let mut app = headless::app(Store::new(None));
    app.update();
    let setup = MatchSetup::new(
        Opponent::Human,
        Side::First,
        "standard",
        MusashiRules::STANDARD,
    );
    let mut m = MusashiMatch::new(setup).unwrap();
    if let Some((rows, to_move)) = rows {
        let pos = m.game.position_from_rows(rows, to_move).unwrap();
        m.record = GameRecord::from_position(&m.game, pos);
    }
    common::open_play(&mut app, m);
    settle::<Musashi>(&mut app);
    app
}

#[test]
fn from_the_list_the_cpu_oya_moves_first_and_the_ko_answer() {
    let mut app = headless::app(Store::new(None));
    let presets = data::musashi_presets().unwrap();
    let mut draft = SetupDraft::<Musashi>::new(&presets);
    draft.side = SideChoice::Second;
    draft.strength = Strength::Normal;
    common::begin_from_list::<Musashi>(&mut app, draft);
    assert_eq!(ply(&app), 1, "the CPU 親 moved first");
    assert_eq!(app.world().resource::<MusashiMatch>().setup.human_side, KO);
    assert_view_matches_rules::<Musashi>(&mut app);
    // A 子 move by taps; the CPU answers.
    let (from, to) = {
        let m = app.world().resource::<MusashiMatch>();
        let mut moves = Vec::new();
        m.game.legal_moves(m.record.current(), &mut moves);
        let (a, b) = m.game.move_ends(moves[0]);
        (
            m.game.board().point(a).name.clone(),
            m.game.board().point(b).name.clone(),
        )
    };
    tap(&mut app, &from);
    tap(&mut app, &to);
    settle::<Musashi>(&mut app);
    assert_eq!(ply(&app), 3);
    assert_view_matches_rules::<Musashi>(&mut app);
    // 待った takes back the 子's move and the 親's reply.
    app.world_mut().write_message(PlayCommand::Undo);
    settle::<Musashi>(&mut app);
    assert_eq!(ply(&app), 1);
    assert_view_matches_rules::<Musashi>(&mut app);
}

#[test]
fn the_first_move_into_the_diamond_takes_two() {
    let mut app = two_players(None);
    tap(&mut app, "c3");
    tap(&mut app, "b4");
    settle::<Musashi>(&mut app);
    assert_eq!(ply(&app), 1);
    assert_eq!(
        app.world()
            .resource::<MusashiMatch>()
            .record
            .current()
            .ko_count(),
        14
    );
    assert_view_matches_rules::<Musashi>(&mut app);
}

#[test]
fn setchin_zume_is_named_on_the_result() {
    let rows: [&str; 5] = ["K.... O", "K.....K", "....K..", "K......", "KK... ."];
    let mut app = two_players(Some((&rows, KO)));
    tap(&mut app, "e3");
    tap(&mut app, "f4");
    for _ in 0..300 {
        app.update();
    }
    assert_eq!(screen(&app), Screen::Result);
    let result = app.world().resource::<LastResult<Musashi>>();
    assert_eq!(result.outcome.winner, Some(KO));
    assert_eq!(result.outcome.reason, EndReason::NoMoves);
    assert_eq!(result.reason, T::ReasonSetchinZume);
}

#[test]
fn against_the_strong_cpu_the_endgame_tables_are_solved_in_the_background_and_used() {
    // 子が先手 plays on to one 子: the tables reach five 子 natively.
    let rules = MusashiRules {
        ko_first: true,
        oya_wins_at: 1,
        ..MusashiRules::STANDARD
    };
    let mut app = headless::app(Store::new(None));
    app.update();
    let setup = MatchSetup::new(Opponent::Cpu(Strength::Strong), KO, "ko_first", rules);
    common::open_play(&mut app, MusashiMatch::new(setup).unwrap());
    let started = std::time::Instant::now();
    while app.world().resource::<MusashiMatch>().game.endgame_reach() == 0 {
        assert!(
            started.elapsed().as_secs() < 120,
            "the tables never arrived"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
        app.update();
    }
    let m = app.world().resource::<MusashiMatch>();
    assert_eq!(m.game.endgame_reach(), 5);
    assert!(
        app.world()
            .resource::<yorimichi::games::musashi::EndgameTables>()
            .ready_for(&m.game)
    );
    // ふつう does not use them: no tables are built for it.
    let mut app = headless::app(Store::new(None));
    app.update();
    let setup = MatchSetup::new(Opponent::Cpu(Strength::Normal), KO, "ko_first", rules);
    common::open_play(&mut app, MusashiMatch::new(setup).unwrap());
    for _ in 0..20 {
        app.update();
    }
    let m = app.world().resource::<MusashiMatch>();
    assert_eq!(m.game.endgame_reach(), 0);
}

fn start_with_pending(text: &str) -> App {
    let mut app = headless::app(Store::new(None));
    app.update();
    app.world_mut()
        .resource_mut::<yorimichi::shell::PendingPosition>()
        .0 = Some(text.to_string());
    let setup = MatchSetup::new(
        Opponent::Human,
        Side::First,
        "standard",
        MusashiRules::STANDARD,
    );
    common::open_play(&mut app, MusashiMatch::new(setup).unwrap());
    settle::<Musashi>(&mut app);
    app
}

#[test]
fn a_position_from_the_command_line_starts_the_first_game() {
    let text = "KK..K-./K....../..O.K../......./K.K..-. ko";
    let mut app = start_with_pending(text);
    let m = app.world().resource::<MusashiMatch>();
    assert_eq!(m.game.to_text(m.record.current()), text);
    assert!(
        app.world()
            .resource::<yorimichi::shell::PendingPosition>()
            .0
            .is_none(),
        "taken by the first game"
    );
    assert_view_matches_rules::<Musashi>(&mut app);
    // A text for the other board is explained; the usual start is kept.
    let mut app = start_with_pending("K...K/...../..O.K/...../K.... ko");
    let m = app.world().resource::<MusashiMatch>();
    assert_eq!(m.record.current(), &m.game.start());
    let message = app
        .world()
        .resource::<yorimichi::games::play::PlayUi<Musashi>>()
        .message
        .clone()
        .unwrap_or_default();
    assert!(message.contains("7 characters"), "{message}");
    assert_view_matches_rules::<Musashi>(&mut app);
}

#[test]
fn random_input_never_splits_view_and_rules() {
    // Two players on one device, taps everywhere, undo and hint among them.
    let mut app = two_players(None);
    common::input_storm::<Musashi>(
        &mut app,
        13,
        2500,
        &[(PlayCommand::Undo, 2), (PlayCommand::Hint, 2)],
        30,
    );
    assert!(ply(&app) > 10, "some moves were made ({})", ply(&app));
    assert_view_matches_rules::<Musashi>(&mut app);
}

/// ふつう CPU against the player's side played at やさしい, game after game
/// in the headless app: the entity count stays flat (2 games in `make
/// test`; `YORIMICHI_SOAK_GAMES=200` in `make soak`, figures printed).
#[test]
fn cpu_games_one_after_another_keep_the_entity_count_flat() {
    common::soak_from_list::<Musashi>(
        "musashi-soak",
        &yorimichi::rules::data::musashi_presets().unwrap(),
        2,
        3,
    );
}
