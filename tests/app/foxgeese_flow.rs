//! きつねとがちょう through the whole app, headless: the list and setup
//! screens, a multi-jump made tap by tap with 跳ぶのをやめる, forced capture,
//! the CPU on either side, 待った, saves and 続きから, the tutorial's
//! multi-jump, and a storm of random input. At every settled frame the
//! pieces on screen are exactly the rules state.

use crate::common;

use bevy::prelude::*;
use bevy_pkv::PkvStore;
use common::{assert_view_matches_rules, card, screen, settle, temp_store};
use yorimichi::games::play::{BoardTap, CommandButton, LastResult, PlayCommand, PlayUi};
use yorimichi::games::session::{Match, MatchSetup, Opponent, SetupDraft};
use yorimichi::headless::{self, click, find};
use yorimichi::rules::data::{self, GameId, Strength};
use yorimichi::rules::foxgeese::{FOX, FoxGeese, FoxGeeseRules, GEESE};
use yorimichi::rules::game::{EndReason, Game, Side};
use yorimichi::rules::record::GameRecord;
use yorimichi::shell::save::Store;
use yorimichi::shell::screens::{CardButton, TitleStart};
use yorimichi::shell::{ChosenGame, Screen};

type FoxMatch = Match<FoxGeese>;

fn settle_fox(app: &mut App) {
    settle::<FoxGeese>(app)
}

fn point(app: &App, x: i32, y: i32) -> usize {
    let m = app.world().resource::<FoxMatch>();
    m.game.board().at(x, y).expect("a point of the cross")
}

/// Geese left on the board.
fn geese(app: &App) -> u32 {
    app.world()
        .resource::<FoxMatch>()
        .record
        .current()
        .goose_count()
}

fn ply(app: &App) -> usize {
    app.world().resource::<FoxMatch>().record.ply()
}

fn tap(app: &mut App, x: i32, y: i32) {
    let p = point(app, x, y);
    app.world_mut().write_message(BoardTap(p));
    app.update();
}

/// Title → list → きつねとがちょう → setup (with `draft`) → play.
fn start_from_title(app: &mut App, draft: SetupDraft<FoxGeese>) {
    app.insert_resource(draft);
    let start = find::<TitleStart>(app).expect("title has a start button");
    click(app, start);
    app.update();
    let new = card(app, CardButton::New(GameId::FoxGeese)).expect("a きつねとがちょう card");
    click(app, new);
    app.update();
    assert_eq!(screen(app), Screen::Setup);
    assert_eq!(app.world().resource::<ChosenGame>().0, GameId::FoxGeese);
    let begin = find::<yorimichi::games::setup::BeginButton>(app).expect("a begin button");
    click(app, begin);
    app.update();
    assert_eq!(screen(app), Screen::Play);
    settle_fox(app);
}

fn draft(edit: impl FnOnce(&mut SetupDraft<FoxGeese>)) -> SetupDraft<FoxGeese> {
    let presets = data::foxgeese_presets().unwrap();
    let mut d = SetupDraft::new(&presets);
    edit(&mut d);
    d
}

/// Two players on one device, in a position where the fox on d7 can take
/// d6 and d4 in one turn (12 geese).
fn double_jump_app(rules: FoxGeeseRules) -> App {
    let mut app = headless::app(Store::new(None));
    app.update();
    let setup = MatchSetup::new(Opponent::Human, Side::First, "custom", rules);
    let mut m = FoxMatch::new(setup).unwrap();
    let rows = [
        "  .F.  ", "  .G.  ", ".......", "...G...", "GG...GG", "  GGG  ", "  GGG  ",
    ];
    let pos = m.game.position_from_rows(&rows, FOX).unwrap();
    m.record = GameRecord::from_position(&m.game, pos);
    common::open_play(&mut app, m);
    settle_fox(&mut app);
    app
}

fn stop_button_shown(app: &mut App) -> bool {
    let mut q = app.world_mut().query::<(&CommandButton, &Node)>();
    q.iter(app.world())
        .find(|(c, _)| c.0 == PlayCommand::StopJump)
        .map(|(_, n)| n.display != Display::None)
        .expect("the play screen has a 跳ぶのをやめる button")
}

#[test]
fn a_double_jump_tap_by_tap_and_stopping_half_way() {
    let mut app = double_jump_app(FoxGeeseRules::STANDARD);
    assert_view_matches_rules::<FoxGeese>(&mut app);
    assert!(!stop_button_shown(&mut app));
    tap(&mut app, 3, 0);
    tap(&mut app, 3, 2);
    settle_fox(&mut app);
    assert_eq!(ply(&app), 0, "mid-jump: no move made yet");
    assert_eq!(app.world().resource::<PlayUi<FoxGeese>>().path.len(), 2);
    assert!(stop_button_shown(&mut app));
    // 跳ぶのをやめる: the fox stays on d5 with one goose taken.
    app.world_mut().write_message(PlayCommand::StopJump);
    app.update();
    settle_fox(&mut app);
    assert_eq!(ply(&app), 1);
    {
        let m = app.world().resource::<FoxMatch>();
        let pos = m.record.current();
        assert_eq!(pos.fox(), m.game.board().at(3, 2).unwrap());
        assert_eq!(pos.goose_count(), 11);
        assert_eq!(pos.to_move(), GEESE);
    }
    assert!(!stop_button_shown(&mut app));
    assert_view_matches_rules::<FoxGeese>(&mut app);

    // 待った (two players: one move), then the whole double jump.
    app.world_mut().write_message(PlayCommand::Undo);
    settle_fox(&mut app);
    assert_eq!(ply(&app), 0);
    assert_view_matches_rules::<FoxGeese>(&mut app);
    tap(&mut app, 3, 0);
    tap(&mut app, 3, 2);
    settle_fox(&mut app);
    tap(&mut app, 3, 4);
    settle_fox(&mut app);
    assert_eq!(ply(&app), 1);
    assert_eq!(geese(&app), 10);
    assert_view_matches_rules::<FoxGeese>(&mut app);

    // Clicking the fox mid-jump also stops it.
    app.world_mut().write_message(PlayCommand::Undo);
    settle_fox(&mut app);
    tap(&mut app, 3, 0);
    tap(&mut app, 3, 2);
    settle_fox(&mut app);
    tap(&mut app, 3, 2);
    settle_fox(&mut app);
    assert_eq!(ply(&app), 1);
    assert_eq!(geese(&app), 11);
    assert_view_matches_rules::<FoxGeese>(&mut app);
}

#[test]
fn forced_capture_keeps_the_fox_jumping() {
    let mut app = double_jump_app(FoxGeeseRules {
        forced_capture: true,
        ..FoxGeeseRules::STANDARD
    });
    tap(&mut app, 3, 0);
    tap(&mut app, 3, 2);
    settle_fox(&mut app);
    assert!(!stop_button_shown(&mut app), "no stopping half way");
    app.world_mut().write_message(PlayCommand::StopJump);
    app.update();
    tap(&mut app, 3, 2);
    settle_fox(&mut app);
    assert_eq!(ply(&app), 0, "neither the button nor the fox stops it");
    tap(&mut app, 3, 4);
    settle_fox(&mut app);
    assert_eq!(ply(&app), 1);
    assert_eq!(geese(&app), 10);
    assert_view_matches_rules::<FoxGeese>(&mut app);
}

#[test]
fn the_cpu_plays_the_geese_first_and_the_game_resumes() {
    let (store, dir) = temp_store("foxgeese-resume");
    let mut app = headless::app(store);
    app.update();
    start_from_title(
        &mut app,
        draft(|d| {
            d.side = yorimichi::games::session::SideChoice::Second;
            d.strength = Strength::Normal;
        }),
    );
    {
        let m = app.world().resource::<FoxMatch>();
        assert_eq!(m.setup.human_side, FOX);
        assert_eq!(m.setup.opponent, Opponent::Cpu(Strength::Normal));
    }
    assert_eq!(ply(&app), 1, "the geese (CPU) moved first");
    assert_view_matches_rules::<FoxGeese>(&mut app);
    // The player's fox steps; the CPU answers.
    let (fox, to) = {
        let m = app.world().resource::<FoxMatch>();
        let mut moves = Vec::new();
        m.game.legal_moves(m.record.current(), &mut moves);
        let mv = moves[0];
        let path = m.game.move_path(mv);
        (path[0], path[path.len() - 1])
    };
    app.world_mut().write_message(BoardTap(fox));
    app.update();
    app.world_mut().write_message(BoardTap(to));
    app.update();
    settle_fox(&mut app);
    assert_eq!(ply(&app), 3);
    assert_view_matches_rules::<FoxGeese>(&mut app);
    let moves = app.world().resource::<FoxMatch>().record.moves().to_vec();

    // 続きから in a new session restores the same game.
    drop(app);
    let mut again = headless::app(Store::new(Some(PkvStore::new_in_dir(&dir))));
    again.update();
    let start = find::<TitleStart>(&mut again).unwrap();
    click(&mut again, start);
    again.update();
    let cont = card(&mut again, CardButton::Continue(GameId::FoxGeese)).expect("続きから");
    click(&mut again, cont);
    again.update();
    again.update();
    assert_eq!(screen(&again), Screen::Play);
    settle_fox(&mut again);
    assert_eq!(
        again.world().resource::<FoxMatch>().record.moves(),
        moves.as_slice()
    );
    assert_view_matches_rules::<FoxGeese>(&mut again);

    // Resigning ends the game; the result names the winner.
    again.world_mut().write_message(PlayCommand::Resign);
    for _ in 0..300 {
        again.update();
    }
    assert_eq!(screen(&again), Screen::Result);
    let result = again.world().resource::<LastResult<FoxGeese>>();
    assert_eq!(result.outcome.winner, Some(GEESE));
    assert_eq!(result.outcome.reason, EndReason::Resignation);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_tutorial_takes_a_multi_jump_tap_by_tap() {
    use yorimichi::games::tutorial_board::{TutorialBoard, tap_diagram};
    use yorimichi::shell::tutorial::TutorialProgress;
    let mut app = headless::app(Store::new(None));
    crate::common::open_tutorial(&mut app, GameId::FoxGeese);
    // The step "続けて跳べる": the fox on d7 takes d6 and d4.
    let step = {
        let progress = app.world().resource::<TutorialProgress>();
        progress
            .tutorial
            .steps
            .iter()
            .position(|s| {
                s.expect
                    .as_ref()
                    .is_some_and(|e| e.from == "d7" && e.to == "d3")
            })
            .expect("the multi-jump step")
    };
    app.world_mut()
        .resource_mut::<TutorialProgress>()
        .turn(step as i32);
    app.update();
    let world = app.world_mut();
    let p = |board: &TutorialBoard<FoxGeese>, name: &str| board.game.board().find(name).unwrap();
    world.resource_scope(|world, mut board: Mut<TutorialBoard<FoxGeese>>| {
        let mut progress = world.resource_mut::<TutorialProgress>();
        let (d7, d5, d3) = (p(&board, "d7"), p(&board, "d5"), p(&board, "d3"));
        let geese = board.pos.goose_count();
        assert!(tap_diagram(&mut board, &mut progress, d7).is_none());
        tap_diagram(&mut board, &mut progress, d5);
        assert_eq!(progress.feedback, None, "half way: not judged yet");
        tap_diagram(&mut board, &mut progress, d3);
        assert_eq!(progress.feedback, Some(true));
        assert_eq!(board.pos.goose_count(), geese - 2, "two geese were taken");
    });
}

#[test]
fn random_input_never_splits_view_and_rules() {
    let mut app = headless::app(Store::new(None));
    app.update();
    start_from_title(
        &mut app,
        draft(|d| {
            d.opponent_is_cpu = false;
            d.marks = true;
            d.preset = "old".into();
        }),
    );
    common::input_storm::<FoxGeese>(
        &mut app,
        11,
        2500,
        &[
            (PlayCommand::Undo, 1),
            (PlayCommand::Hint, 1),
            (PlayCommand::StopJump, 5),
        ],
        34,
    );
    let m = app.world().resource::<FoxMatch>();
    assert!(m.record.ply() > 10, "some moves were made");
}

/// ふつう CPU against the player's side played at やさしい, game after game
/// in the headless app: the entity count stays flat (2 games in `make
/// test`; `YORIMICHI_SOAK_GAMES=200` in `make soak`, figures printed).
#[test]
fn cpu_games_one_after_another_keep_the_entity_count_flat() {
    common::soak_from_list::<FoxGeese>(
        "foxgeese-soak",
        &yorimichi::rules::data::foxgeese_presets().unwrap(),
        2,
        2,
    );
}
