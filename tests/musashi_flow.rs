//! 十六むさし through the whole app, headless: from the list against the
//! CPU 親 (which moves first), the first-move capture by taps, and a
//! 雪隠詰め named on the result screen.

mod common;

use bevy::prelude::*;
use common::{assert_view_matches_rules, card, screen, settle};
use yorimichi::app::headless::{self, click, find};
use yorimichi::app::i18n::T;
use yorimichi::app::save::Store;
use yorimichi::app::screens::{CardButton, TitleStart};
use yorimichi::app::{ChosenGame, Screen};
use yorimichi::games::play::{BoardTap, LastResult, PlayCommand};
use yorimichi::games::session::{Match, MatchSetup, Opponent, SetupDraft, SideChoice};
use yorimichi::rules::data::{self, GameId, Strength};
use yorimichi::rules::game::{EndReason, Game, Side};
use yorimichi::rules::musashi::{KO, Musashi, MusashiRules};
use yorimichi::rules::record::GameRecord;

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
    app.insert_resource(m);
    app.insert_resource(ChosenGame(GameId::Musashi));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Play);
    app.update();
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
    app.insert_resource(draft);
    app.update();
    let start = find::<TitleStart>(&mut app).unwrap();
    click(&mut app, start);
    app.update();
    let new = card(&mut app, CardButton::New(GameId::Musashi)).expect("a 十六むさし card");
    click(&mut app, new);
    app.update();
    assert_eq!(screen(&app), Screen::Setup);
    let begin = find::<yorimichi::games::setup::BeginButton>(&mut app).unwrap();
    click(&mut app, begin);
    app.update();
    settle::<Musashi>(&mut app);
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
