//! 中将棋 through the whole app, headless: the 獅子's two-step moves made by
//! tapping each step (二枚取り, 居食い), じっと and 成る / 成らない offered as a
//! choice, a game against the CPU from the list, and an input storm.

use crate::common;

use bevy::prelude::*;
use common::{assert_view_matches_rules, screen, settle};
use yorimichi::games::play::{BoardTap, ChoiceButton, ChoicePick, PlayCommand, PlayUi};
use yorimichi::games::session::{Match, MatchSetup, Opponent, SetupDraft, SideChoice};
use yorimichi::headless::{self, click, find};
use yorimichi::rules::chu::game::{Chu, ChuRules};
use yorimichi::rules::chu::moves::ChuMove;
use yorimichi::rules::chu::pieces::Kind;
use yorimichi::rules::chu::position::{ChuPosition, Square};
use yorimichi::rules::data::{self, Strength};
use yorimichi::rules::game::{Game, Side};
use yorimichi::rules::record::GameRecord;
use yorimichi::shell::Screen;
use yorimichi::shell::save::Store;

type ChuMatch = Match<Chu>;

/// A square by its Japanese name (`6七`), which is also its board point.
fn sq(app: &App, name: &str) -> Square {
    let m = app.world().resource::<ChuMatch>();
    use yorimichi::games::session::Playable;
    Square(m.game.graph().find(name).expect("a square") as u8)
}

fn tap(app: &mut App, name: &str) {
    let p = sq(app, name).0 as usize;
    app.world_mut().write_message(BoardTap(p));
    app.update();
}

fn ply(app: &App) -> usize {
    app.world().resource::<ChuMatch>().record.ply()
}

fn current(app: &App) -> ChuPosition {
    app.world().resource::<ChuMatch>().record.current().clone()
}

fn last_move(app: &App) -> Option<ChuMove> {
    app.world()
        .resource::<ChuMatch>()
        .record
        .moves()
        .last()
        .copied()
}

fn choice(app: &App) -> Vec<ChuMove> {
    app.world().resource::<PlayUi<Chu>>().choice.clone()
}

/// Two players on one device, from a diagram (SFEN ranks, rank 一 first).
fn two_players(rows: &[&str]) -> App {
    let mut app = headless::app(Store::new(None));
    app.update();
    let setup = MatchSetup::new(Opponent::Human, Side::First, "jcsa", ChuRules::JCSA);
    let mut m = ChuMatch::new(setup).unwrap();
    let pos = ChuPosition::from_rows(rows, Side::First).unwrap();
    m.record = GameRecord::from_position(&m.game, pos);
    common::open_play(&mut app, m);
    settle::<Chu>(&mut app);
    app
}

/// Kings on 7十二 and 6一, and ranks 五 to 八 as given (SFEN).
fn lion_diagram(rank5: &str, rank6: &str, rank7: &str, rank8: &str) -> Vec<String> {
    let mut rows = vec![
        "6k4g", "12", "12", "12", rank5, rank6, rank7, rank8, "12", "12", "12",
    ];
    rows.push("5K6");
    rows.into_iter().map(str::to_string).collect()
}

fn app_for(rows: &[String]) -> App {
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    two_players(&rows)
}

#[test]
fn a_lion_takes_two_by_tapping_each_step() {
    // 後手 歩兵 on 6五 and 6六, the 獅子 on 6七.
    let mut app = app_for(&lion_diagram("6p5", "6p5", "6N5", "12"));
    tap(&mut app, "6七");
    tap(&mut app, "6六");
    assert_eq!(ply(&app), 0, "the first step waits for the second");
    assert_eq!(
        app.world().resource::<PlayUi<Chu>>().path.len(),
        2,
        "the path has the start and the first step"
    );
    tap(&mut app, "6五");
    settle::<Chu>(&mut app);
    assert_eq!(ply(&app), 1);
    let mv = last_move(&app).unwrap();
    assert_eq!(
        (mv.from, mv.mid, mv.to),
        (sq(&app, "6七"), Some(sq(&app, "6六")), sq(&app, "6五"))
    );
    let pos = current(&app);
    assert!(pos.at(sq(&app, "6六")).is_none(), "the first pawn is taken");
    let (side, piece) = pos.at(sq(&app, "6五")).unwrap();
    assert_eq!((side, piece.kind()), (Side::First, Kind::Lion));
    assert_eq!(
        pos.pieces().filter(|&(_, s, _)| s == Side::Second).count(),
        2,
        "only the king and the gold are left"
    );
    assert_view_matches_rules::<Chu>(&mut app);
}

#[test]
fn igui_returns_to_the_lions_square_and_a_second_tap_stops_after_one_capture() {
    let mut app = app_for(&lion_diagram("12", "6p5", "6N5", "12"));
    tap(&mut app, "6七");
    tap(&mut app, "6六");
    tap(&mut app, "6七");
    settle::<Chu>(&mut app);
    let mv = last_move(&app).unwrap();
    assert_eq!((mv.mid, mv.to), (Some(sq(&app, "6六")), sq(&app, "6七")));
    let pos = current(&app);
    assert!(pos.at(sq(&app, "6六")).is_none(), "居食い took the pawn");
    assert!(pos.at(sq(&app, "6七")).is_some(), "the lion stayed");
    assert_view_matches_rules::<Chu>(&mut app);

    // The same capture, stopping on the pawn's square: tap it twice.
    let mut app = app_for(&lion_diagram("12", "6p5", "6N5", "12"));
    tap(&mut app, "6七");
    tap(&mut app, "6六");
    tap(&mut app, "6六");
    settle::<Chu>(&mut app);
    let mv = last_move(&app).unwrap();
    assert_eq!((mv.mid, mv.to), (None, sq(&app, "6六")));
    assert!(current(&app).at(sq(&app, "6七")).is_none());
}

#[test]
fn a_single_step_to_an_empty_square_is_one_tap_and_jitto_is_offered_on_the_lion() {
    let mut app = app_for(&lion_diagram("12", "12", "6N5", "12"));
    // An empty neighbour: a route through it would end as the leap does, so
    // one tap makes the move.
    tap(&mut app, "6七");
    tap(&mut app, "5六");
    settle::<Chu>(&mut app);
    assert_eq!(ply(&app), 1);
    assert_eq!(last_move(&app).unwrap().mid, None);

    let mut app = app_for(&lion_diagram("12", "12", "6N5", "12"));
    tap(&mut app, "6七");
    tap(&mut app, "6七");
    let offered = choice(&app);
    assert_eq!(offered.len(), 1, "じっと is offered, not played");
    assert_eq!(ply(&app), 0);
    // やめる: nothing is played and the lion is put down.
    app.world_mut().write_message(ChoicePick(None));
    app.update();
    assert!(choice(&app).is_empty());
    assert!(app.world().resource::<PlayUi<Chu>>().path.is_empty());
    assert_eq!(ply(&app), 0);
    // Again, and this time pass.
    tap(&mut app, "6七");
    tap(&mut app, "6七");
    let before = current(&app);
    app.world_mut().write_message(ChoicePick(Some(0)));
    settle::<Chu>(&mut app);
    assert_eq!(ply(&app), 1);
    let after = current(&app);
    assert_eq!(after.to_move(), Side::Second);
    assert!(before.pieces().eq(after.pieces()), "じっと moves nothing");
}

#[test]
fn entering_the_zone_offers_promotion_and_the_button_plays_it() {
    let mut app = app_for(&lion_diagram("6P5", "12", "12", "11G"));
    tap(&mut app, "6五");
    tap(&mut app, "6四");
    let offered = choice(&app);
    assert_eq!(offered.len(), 2);
    assert!(offered.iter().any(|m| m.promote) && offered.iter().any(|m| !m.promote));
    let promote = offered.iter().position(|m| m.promote).unwrap();
    let button = {
        let mut q = app.world_mut().query::<(Entity, &ChoiceButton)>();
        q.iter(app.world())
            .find(|(_, b)| b.0 == Some(promote))
            .map(|(e, _)| e)
            .expect("a button for each choice")
    };
    click(&mut app, button);
    settle::<Chu>(&mut app);
    let (_, piece) = current(&app).at(sq(&app, "6四")).unwrap();
    assert_eq!(piece.kind(), Kind::Tokin);
    assert!(
        find::<ChoiceButton>(&mut app).is_none(),
        "the choice is gone"
    );

    // A tap on the board instead of an answer takes none.
    let mut app = app_for(&lion_diagram("6P5", "12", "12", "11G"));
    tap(&mut app, "6五");
    tap(&mut app, "6四");
    assert_eq!(choice(&app).len(), 2);
    tap(&mut app, "2二");
    assert!(choice(&app).is_empty());
    assert_eq!(ply(&app), 0);
}

#[test]
fn from_the_list_a_game_against_the_cpu_begins_and_the_cpu_answers() {
    let mut app = headless::app(Store::new(None));
    let presets = data::chushogi_presets().unwrap();
    let mut draft = SetupDraft::<Chu>::new(&presets);
    draft.side = SideChoice::First;
    draft.strength = Strength::Easy;
    common::begin_from_list::<Chu>(&mut app, draft);
    assert_eq!(ply(&app), 0, "the player is 先手");
    assert_view_matches_rules::<Chu>(&mut app);
    // 歩兵 6九 → 6八, and the CPU answers.
    tap(&mut app, "6九");
    tap(&mut app, "6八");
    settle::<Chu>(&mut app);
    assert_eq!(ply(&app), 2);
    assert_view_matches_rules::<Chu>(&mut app);
    // 待った takes back both.
    app.world_mut().write_message(PlayCommand::Undo);
    settle::<Chu>(&mut app);
    assert_eq!(ply(&app), 0);
    assert_view_matches_rules::<Chu>(&mut app);
}

#[test]
fn every_piece_on_the_start_board_shows_its_name() {
    use yorimichi::games::session::Playable;
    let chu = Chu::default();
    let pos = chu.start();
    let mut names = std::collections::BTreeSet::new();
    for p in 0..chu.graph().len() {
        match (chu.piece_at(&pos, p), chu.piece_face(&pos, p)) {
            (Some(_), Some(face)) => {
                assert_eq!(face.name.chars().count(), 2, "{}", face.name);
                assert!(!face.promoted);
                names.insert(face.name);
            }
            (None, None) => {}
            other => panic!("point {p}: {other:?}"),
        }
    }
    // 21 kinds, and the two kings named 王将 and 玉将.
    assert_eq!(names.len(), 22, "{names:?}");
    assert!(names.contains("王将") && names.contains("玉将"));
}

#[test]
fn the_tutorial_loads_and_an_input_storm_keeps_view_and_rules_together() {
    let tutorial = data::chushogi_tutorial().unwrap();
    assert!(tutorial.steps.iter().filter(|s| s.expect.is_some()).count() >= 4);

    let mut app = headless::app(Store::new(None));
    app.update();
    let setup = MatchSetup::new(Opponent::Human, Side::First, "jcsa", ChuRules::JCSA);
    common::open_play(&mut app, ChuMatch::new(setup).unwrap());
    settle::<Chu>(&mut app);
    common::input_storm::<Chu>(
        &mut app,
        7,
        600,
        &[(PlayCommand::Undo, 3), (PlayCommand::StopJump, 3)],
        20,
    );
    settle::<Chu>(&mut app);
    assert!(ply(&app) > 0, "the storm played moves");
    assert_view_matches_rules::<Chu>(&mut app);
}

#[test]
fn the_piece_help_names_the_piece_and_draws_its_moves() {
    use yorimichi::games::chushogi::{move_diagram, piece_info};
    use yorimichi::games::session::MoveMark::{self, *};
    use yorimichi::rules::chu::pieces::{Base, Piece};
    use yorimichi::shell::i18n::Lang;
    let marks = |kind: Kind, mark: MoveMark| {
        move_diagram(kind)
            .iter()
            .flatten()
            .filter(|&&m| m == mark)
            .count()
    };
    let pawn = move_diagram(Kind::Pawn);
    assert_eq!((pawn[2][2], pawn[1][2]), (MoveMark::Piece, Step));
    assert_eq!(marks(Kind::Pawn, Empty), 23);
    // 麒麟: leaps two squares straight, one step diagonally.
    let kirin = move_diagram(Kind::Kirin);
    for (r, c) in [(0, 2), (4, 2), (2, 0), (2, 4)] {
        assert_eq!(kirin[r][c], Jump, "{r},{c}");
    }
    assert_eq!(marks(Kind::Kirin, Step), 4);
    assert_eq!(marks(Kind::Lion, Lion), 24);
    // 角鷹: lion power straight ahead, slides everywhere else.
    let falcon = move_diagram(Kind::HornedFalcon);
    assert_eq!((falcon[1][2], falcon[0][2]), (Lion, Lion));
    assert_eq!(falcon[4][2], Slide);
    assert_eq!(marks(Kind::HornedFalcon, Slide), 14);

    let lion = piece_info(Piece::new(Base::Lion), Side::First, Lang::Ja);
    assert_eq!(lion.name, "獅子(しし)");
    assert!(lion.details.contains("成らない"), "{}", lion.details);
    let elephant = piece_info(Piece::new(Base::DrunkElephant), Side::First, Lang::Ja);
    assert!(
        elephant.details.contains("成ると太子"),
        "{}",
        elephant.details
    );
    let king = piece_info(Piece::new(Base::King), Side::Second, Lang::En);
    assert!(king.name.contains("玉将"), "{}", king.name);
    // The readings shown are the standard ones.
    let chariot = piece_info(Piece::new(Base::ReverseChariot), Side::First, Lang::Ja);
    assert_eq!(chariot.name, "反車(へんしゃ)");
    let eagle = Piece {
        base: Base::DragonKing,
        promoted: true,
    };
    assert_eq!(
        piece_info(eagle, Side::Second, Lang::Ja).name,
        "飛鷲(ひじゅう)"
    );
    let king = piece_info(Piece::new(Base::King), Side::Second, Lang::Ja);
    assert_eq!(king.name, "玉将(ぎょくしょう)");
}

#[test]
fn at_sixty_minutes_the_game_is_cut_off_and_the_points_decide() {
    use yorimichi::games::play::LastResult;
    use yorimichi::rules::game::EndReason;
    // 先手 has a gold more than 後手: more points.
    let rows: Vec<&str> = vec![
        "6k4g", "12", "12", "12", "12", "12", "12", "12", "12", "12", "11G", "G4K6",
    ];
    let mut app = headless::app(Store::new(None));
    app.update();
    let setup = MatchSetup::new(Opponent::Human, Side::First, "jcsa", ChuRules::JCSA);
    let mut m = ChuMatch::new(setup).unwrap();
    let pos = ChuPosition::from_rows(&rows, Side::First).unwrap();
    m.record = GameRecord::from_position(&m.game, pos);
    // A save keeps the time played.
    m.elapsed = 3599.0;
    let m = ChuMatch::from_save(m.to_save()).unwrap();
    assert_eq!(m.elapsed, 3599.0);
    common::open_play(&mut app, m);
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(ply(&app), 0);
    assert!(
        app.world()
            .resource::<ChuMatch>()
            .record
            .outcome(&Chu::default())
            .is_none()
    );
    for _ in 0..400 {
        app.update();
        if screen(&app) == Screen::Result {
            break;
        }
    }
    assert_eq!(screen(&app), Screen::Result, "the game ended at the cutoff");
    let result = app.world().resource::<LastResult<Chu>>();
    assert_eq!(result.outcome.reason, EndReason::TimeUp);
    assert_eq!(result.outcome.winner, Some(Side::First));
    let detail = result.detail.clone().unwrap();
    assert!(detail.contains("8.8") && detail.contains("4.4"), "{detail}");
}

#[test]
fn a_game_exports_as_usi_and_japanese_and_imports_back_as_usi_or_kif() {
    use yorimichi::games::session::Playable;
    let setup = MatchSetup::new(Opponent::Human, Side::First, "jcsa", ChuRules::JCSA);
    let mut m = ChuMatch::new(setup.clone()).unwrap();
    for usi in ["7j7h", "7d7e", "7h7f"] {
        let mv = yorimichi::rules::chu::moves::parse_usi(m.record.current(), usi).unwrap();
        m.record.play(&m.game, mv).unwrap();
    }
    let text = m.game.game_code(&m.record).unwrap();
    assert!(
        text.starts_with("position startpos moves 7j7h 7d7e 7h7f\n"),
        "{text}"
    );
    assert!(text.contains("1 ☗7八獅子"), "{text}");

    let mut other = ChuMatch::new(setup).unwrap();
    other.restart_from(&text).unwrap();
    assert_eq!(other.record.moves(), m.record.moves());
    assert_eq!(other.record.current(), m.record.current());

    // A bad move is named, and the match is untouched.
    let e = other
        .restart_from("position startpos moves 7j7h 7j7i")
        .unwrap_err();
    assert!(e.contains("move 2"), "{e}");
    assert_eq!(other.record.ply(), 3);
    // A bare SFEN still starts a position.
    other
        .restart_from("6k4g/12/12/12/12/12/12/12/12/12/11G/G4K6 w - 1")
        .unwrap();
    assert_eq!(other.record.ply(), 0);
    assert_eq!(other.record.current().to_move(), Side::Second);
    // A KIF record (as lishogi and the Renmei write them) imports too.
    let kif = yorimichi::rules::chu::kif::ChuKif::new(yorimichi::rules::chu::record::ChuGameText {
        start: m.record.positions()[0].clone(),
        moves: m.record.moves().to_vec(),
    })
    .write();
    assert!(kif.contains("手合割：中将棋"), "{kif}");
    other.restart_from(&kif).unwrap();
    assert_eq!(other.record.moves(), m.record.moves());
    // A malformed one names its line and leaves the game as it was.
    let broken = kif.replacen("7八獅子", "7七獅子", 1);
    assert_ne!(broken, kif);
    let e = other.restart_from(&broken).unwrap_err();
    assert!(e.contains("line"), "{e}");
    assert_eq!(other.record.moves(), m.record.moves());
}

#[test]
fn the_result_names_the_king_or_the_prince_taken_last() {
    use yorimichi::games::session::Playable;
    use yorimichi::rules::game::EndReason;
    use yorimichi::shell::i18n::T;
    let chu = Chu::default();
    // 先手's rook on 8九 takes the king on 8一; with a 後手 prince (+e) on
    // 12一 the game goes on until the rook takes the prince too.
    let finish = |rows: &[&str], moves: &[&str]| {
        let pos = ChuPosition::from_rows(rows, Side::First).unwrap();
        let mut record = GameRecord::from_position(&chu, pos);
        for usi in moves {
            let mv = yorimichi::rules::chu::moves::parse_usi(record.current(), usi).unwrap();
            record.play(&chu, mv).unwrap();
        }
        let outcome = record.outcome(&chu).expect("over");
        assert_eq!(outcome.reason, EndReason::CaptureTarget);
        chu.record_reason_text(&record, outcome.reason)
    };
    let king_only = [
        "4k6g", "12", "12", "12", "12", "12", "12", "12", "4R7", "12", "11G", "5K6",
    ];
    assert_eq!(finish(&king_only, &["8i8a"]), T::ReasonKingTaken);
    let with_prince = [
        "+e3k6g", "12", "12", "12", "12", "12", "12", "12", "4R3R3", "12", "11G", "5K6",
    ];
    assert_eq!(
        finish(&with_prince, &["8i8a", "1a1b", "8a12a"]),
        T::ReasonPrinceTaken
    );
}

/// ふつう CPU against the player's side played at やさしい, game after game
/// in the headless app: the entity count stays flat (2 games in `make
/// test`; `YORIMICHI_SOAK_GAMES=200` in `make soak`, figures printed).
#[test]
fn cpu_games_one_after_another_keep_the_entity_count_flat() {
    common::soak_from_list::<Chu>(
        "chushogi-soak",
        &yorimichi::rules::data::chushogi_presets().unwrap(),
        2,
        4,
    );
}

/// The 千日手 notices name the side that must change its moves, and the
/// result names whose move made the fourth occurrence.
#[test]
fn repetition_notices_say_who_must_change() {
    use yorimichi::games::session::Playable;
    use yorimichi::rules::chu::moves::parse_usi;
    use yorimichi::rules::game::EndReason;
    use yorimichi::shell::i18n::T;
    let game = Chu::new(ChuRules::JCSA);
    let record_after = |sfen: &str, cycle: &[&str], plies: usize| {
        let start = ChuPosition::from_sfen(sfen).unwrap();
        let mut record = GameRecord::from_position(&game, start);
        let mut notices = Vec::new();
        for i in 0..plies {
            let mv = parse_usi(record.current(), cycle[i % cycle.len()]).unwrap();
            record.play(&game, mv).unwrap();
            notices.push(game.record_notice(&record));
        }
        (record, notices)
    };
    // Shuffling golds: 後手 would make the fourth occurrence, and must
    // change (nobody checks or attacks).
    let golds = "11k/12/11g/12/12/12/12/12/12/G11/12/K11 b - 1";
    let cycle = ["12j11j", "1c2c", "11j12j", "2c1c"];
    let (_, notices) = record_after(golds, &cycle, 11);
    // notices[i] follows ply i + 1: the start recurs after plies 4 and 8.
    assert_eq!(notices[2], None);
    assert_eq!(notices[3], Some(T::Repetition2));
    assert_eq!(notices[7], Some(T::ChuMustChangeGote));
    assert_eq!(
        notices[10],
        Some(T::ChuMustChangeGote),
        "its move is forbidden"
    );
    // The rook's continuous check, begun so that the king's step repeats:
    // 先手 must change, or 後手's step draws.
    let check = "11k/7R4/12/12/3s8/3P8/12/12/12/12/12/K11 b - 1";
    let cycle = ["5b5a", "1a1b", "5a5b", "1b1a"];
    let (record, notices) = record_after(check, &cycle, 12);
    assert_eq!(notices[7], Some(T::ChuDrawUnlessSenteChanges));
    let outcome = record.outcome(&game).expect("the fourth occurrence");
    assert_eq!(outcome.winner, None);
    assert_eq!(
        game.record_reason_text(&record, EndReason::Repetition),
        T::ChuReasonFourthByGote
    );
}

/// 局面を書き出す asks which form (KIF, USI, SFEN, or やめる); the KIF is a
/// game file another program reads, and 局面を読み込む reads it back to
/// the same game.
#[test]
fn export_offers_kif_usi_and_sfen_and_the_kif_reads_back() {
    use yorimichi::games::play::ExportButton;
    let (_turn, home) = common::test_home();
    let file = home.join("yorimichi-position.txt");
    let mut app = headless::app(Store::new(None));
    app.update();
    let setup = MatchSetup::new(Opponent::Human, Side::First, "jcsa", ChuRules::JCSA);
    let mut m = ChuMatch::new(setup).unwrap();
    for usi in ["7j7h", "7d7e", "7h7f"] {
        let mv = yorimichi::rules::chu::moves::parse_usi(m.record.current(), usi).unwrap();
        m.record.play(&m.game, mv).unwrap();
    }
    let moves = m.record.moves().to_vec();
    common::open_play(&mut app, m);
    settle::<Chu>(&mut app);
    let buttons = |app: &mut App| {
        let mut q = app.world_mut().query::<&ExportButton>();
        let mut b: Vec<Option<usize>> = q.iter(app.world()).map(|b| b.0).collect();
        b.sort();
        b
    };
    let _ = std::fs::remove_file(&file);
    app.world_mut().write_message(PlayCommand::ExportPosition);
    app.update();
    app.update();
    assert_eq!(buttons(&mut app), [None, Some(0), Some(1), Some(2)]);
    // やめる writes nothing and closes the panel.
    let button = |app: &mut App, form: Option<usize>| {
        let mut q = app.world_mut().query::<(Entity, &ExportButton)>();
        q.iter(app.world())
            .find(|(_, b)| b.0 == form)
            .map(|(e, _)| e)
            .expect("the button")
    };
    let cancel = button(&mut app, None);
    click(&mut app, cancel);
    app.update();
    assert!(buttons(&mut app).is_empty());
    assert!(!file.exists(), "nothing written");
    // KIF.
    app.world_mut().write_message(PlayCommand::ExportPosition);
    app.update();
    app.update();
    let kif = button(&mut app, Some(0));
    click(&mut app, kif);
    app.update();
    let text = std::fs::read_to_string(&file).expect("the exported file");
    assert!(text.starts_with("#KIF"), "{text}");
    assert!(
        text.contains("手合割：中将棋") && text.contains("獅子"),
        "{text}"
    );
    // Read back into the game started over meanwhile.
    app.world_mut()
        .resource_mut::<ChuMatch>()
        .restart_from("position startpos")
        .unwrap();
    assert_eq!(app.world().resource::<ChuMatch>().record.ply(), 0);
    app.world_mut().write_message(PlayCommand::ImportPosition);
    app.update();
    settle::<Chu>(&mut app);
    let m = app.world().resource::<ChuMatch>();
    assert_eq!(m.record.moves(), &moves[..]);
    let _ = std::fs::remove_file(&file);
}

/// Every text on screen.
fn texts(app: &mut App) -> Vec<String> {
    let mut q = app.world_mut().query::<&Text>();
    q.iter(app.world()).map(|t| t.0.clone()).collect()
}

#[test]
fn a_right_click_on_an_opponent_piece_shows_its_help_without_selecting_it() {
    use yorimichi::games::play::BoardInspect;
    // 先手 to move; 後手's 獅子 on 6五 beside its 玉将.
    let mut app = app_for(&lion_diagram("6n5", "12", "6N5", "12"));
    let theirs = sq(&app, "6五").0 as usize;
    app.world_mut().write_message(BoardInspect(theirs));
    app.update();
    let ui = app.world().resource::<PlayUi<Chu>>();
    assert_eq!(ui.inspected, Some(theirs));
    assert!(ui.path.is_empty(), "nothing selected: {:?}", ui.path);
    assert!(ui.choice.is_empty());
    let shown = texts(&mut app);
    assert!(shown.iter().any(|t| t == "獅子(しし)"), "{shown:?}");
    assert!(shown.iter().any(|t| t.contains("19.1点")), "{shown:?}");
    // The other king, by its own name.
    let king = sq(&app, "6一").0 as usize;
    app.world_mut().write_message(BoardInspect(king));
    app.update();
    assert!(texts(&mut app).iter().any(|t| t == "玉将(ぎょくしょう)"));
    // A tap selects as before, and the selected piece's help shows.
    tap(&mut app, "6七");
    let ui = app.world().resource::<PlayUi<Chu>>();
    assert_eq!(ui.inspected, None);
    assert_eq!(ui.path, vec![sq(&app, "6七").0 as usize]);
    // Inspecting while a piece is selected keeps the selection.
    app.world_mut().write_message(BoardInspect(theirs));
    app.update();
    let ui = app.world().resource::<PlayUi<Chu>>();
    assert_eq!(ui.inspected, Some(theirs));
    assert_eq!(ui.path.len(), 1);
    assert_eq!(ply(&app), 0, "inspecting plays nothing");
}

#[test]
fn the_record_on_screen_follows_the_coordinates_setting() {
    use yorimichi::shell::settings::{Coords, Settings};
    let mut app = app_for(&lion_diagram("6p5", "6p5", "6N5", "12"));
    // 二枚取り, then 後手's king, then the record in each style.
    tap(&mut app, "6七");
    tap(&mut app, "6六");
    tap(&mut app, "6五");
    settle::<Chu>(&mut app);
    tap(&mut app, "6一");
    tap(&mut app, "6二");
    settle::<Chu>(&mut app);
    let record = |app: &mut App| {
        texts(app)
            .into_iter()
            .find(|t| t.starts_with("1 ☗"))
            .unwrap_or_default()
    };
    let text = record(&mut app);
    assert!(text.contains("1 ☗6五獅子二枚取り(←6六←6七)"), "{text}");
    assert!(text.contains("2 ☖6二玉将(←6一)"), "{text}");
    app.world_mut().resource_mut::<Settings>().chu_coords = Coords::Western;
    app.update();
    let text = record(&mut app);
    assert!(text.contains("1 ☗g8獅子二枚取り(←g7←g6)"), "{text}");
    app.world_mut().resource_mut::<Settings>().chu_coords = Coords::Lishogi;
    app.update();
    assert!(record(&mut app).contains("2 ☖6b玉将(←6a)"));
}

#[test]
fn the_piece_set_and_coordinates_are_saved_and_restored() {
    use yorimichi::shell::settings::{self, ChuPieceSet, Coords, Settings};
    let (store, dir) = common::temp_store("chu-settings");
    let mut app = headless::app(store);
    app.update();
    {
        let mut s = app.world_mut().resource_mut::<Settings>();
        s.chu_pieces = ChuPieceSet::Mnemonic;
        s.chu_coords = Coords::Western;
    }
    app.update();
    let store = app.world().resource::<Store>();
    let loaded = settings::load(store);
    assert_eq!(loaded.chu_pieces, ChuPieceSet::Mnemonic);
    assert_eq!(loaded.chu_coords, Coords::Western);
    assert_eq!(&loaded, app.world().resource::<Settings>());
    // Each value comes back.
    let (mut store, dir2) = common::temp_store("chu-settings-each");
    for pieces in ChuPieceSet::ALL {
        for coords in Coords::ALL {
            let s = Settings {
                chu_pieces: pieces,
                chu_coords: coords,
                ..Settings::default()
            };
            store.put("settings", &s);
            assert_eq!(settings::load(&store), s);
        }
    }
    // Settings saved before these existed keep what they had and take
    // the defaults.
    let old = Settings {
        lang: yorimichi::shell::i18n::Lang::En,
        sound: true,
        ..Settings::default()
    };
    store.put("settings", &old);
    let raw = store.get_raw("settings").unwrap();
    let trimmed = raw
        .replace(",chu_pieces:TwoKanji", "")
        .replace(",chu_coords:Japanese", "");
    assert_ne!(trimmed, raw, "the fields were there to take out: {raw}");
    store.put_raw("settings", &trimmed);
    assert_eq!(settings::load(&store), old);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}

#[test]
fn the_hint_is_written_in_the_chosen_coordinates() {
    use yorimichi::shell::settings::{Coords, Settings};
    // A lone 後手 pawn in front of 先手's lion: the hint takes it.
    let mut app = app_for(&lion_diagram("12", "6p5", "6N5", "12"));
    app.world_mut().resource_mut::<Settings>().chu_coords = Coords::Western;
    app.update();
    app.world_mut().write_message(PlayCommand::Hint);
    for _ in 0..4000 {
        app.update();
        if app.world().resource::<PlayUi<Chu>>().hint.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let ui = app.world().resource::<PlayUi<Chu>>();
    let hint = ui.hint.expect("a hint within the time");
    let message = ui.message.clone().unwrap_or_default();
    assert!(message.starts_with("ヒント: ☗"), "{message}");
    // Its squares in XBoard's names, as the record writes them.
    let from = yorimichi::rules::chu::xboard::square(hint.from);
    assert!(
        message.contains(&format!("←{from}")),
        "{message} ({hint:?})"
    );
}

#[test]
fn a_mate_problem_imports_as_a_game_going_on_and_ends_with_the_king_taken() {
    // 中将棊絹篩 第一問: 先手 attacks without a king (局面を読み込む, a save).
    let problem = "5ex1+Pc2/6okt3/3s4X2+H/2+D9/3p+v1+Dpt3/12/12/2+a6q2/12/12/12/12 b - 1";
    let setup = MatchSetup::new(Opponent::Human, Side::First, "jcsa", ChuRules::JCSA);
    let mut m = ChuMatch::new(setup).unwrap();
    m.restart_from(problem).unwrap();
    assert_eq!(m.record.current().attacker(), Some(Side::First));
    assert!(m.record.outcome(&m.game).is_none(), "not a lost game");
    let mut m = ChuMatch::from_save(m.to_save()).unwrap();
    assert!(
        m.record.outcome(&m.game).is_none(),
        "a save reads back as a problem"
    );
    for usi in ["10d7d", "8e7d", "4c6a+", "5b6a", "6e8c", "7d8c", "1c6c"] {
        let mv = yorimichi::rules::chu::moves::parse_usi(m.record.current(), usi).unwrap();
        m.record.play(&m.game, mv).unwrap();
        assert!(m.record.outcome(&m.game).is_none(), "after {usi}");
    }
    // Mated: whatever 後手 plays, the king is taken.
    let mut moves = Vec::new();
    m.game.legal_moves(m.record.current(), &mut moves);
    m.record.play(&m.game, moves[0]).unwrap();
    let mut takes = Vec::new();
    m.game.legal_moves(m.record.current(), &mut takes);
    let take = takes
        .into_iter()
        .find(|&mv| {
            m.game
                .outcome(&m.game.play(m.record.current(), mv))
                .is_some()
        })
        .expect("the king can be taken");
    m.record.play(&m.game, take).unwrap();
    let outcome = m.record.outcome(&m.game).expect("over");
    assert_eq!(outcome.winner, Some(Side::First));
}
