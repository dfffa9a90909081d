//! Command-line parsing and the UI texts.

use yorimichi::cli::{Command, PerftArgs, SelfplayArgs, SolveArgs, parse};
use yorimichi::rules::chu::Profile;
use yorimichi::rules::data::{GameId, Strength};
use yorimichi::rules::game::Side;
use yorimichi::shell::i18n::{Lang, T};

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn commands_parse() {
    assert_eq!(
        parse(&[]),
        Ok(Command::Play {
            game: None,
            position: None
        })
    );
    assert_eq!(
        parse(&args("--game hasami")),
        Ok(Command::Play {
            game: Some(GameId::Hasami),
            position: None
        })
    );
    assert_eq!(
        parse(&args("--game mawari")),
        Ok(Command::Play {
            game: Some(GameId::Mawari),
            position: None
        })
    );
    assert_eq!(
        parse(&args("frames chushogi --seconds 3")),
        Ok(Command::Frames {
            scene: yorimichi::scenes::Scene::Chushogi,
            seconds: 3.0
        })
    );
    assert_eq!(
        parse(&args("bench chushogi --positions 20 --seed 4")),
        Ok(Command::Bench(yorimichi::cli::BenchArgs {
            game: GameId::ChuShogi,
            positions: 20,
            preset: None,
            seed: 4
        }))
    );
    assert_eq!(
        parse(&args("dice --throws 500 --seed 3 --csv")),
        Ok(Command::Dice(yorimichi::cli::DiceArgs {
            throws: 500,
            seed: 3,
            csv: true
        }))
    );
    assert!(matches!(
        parse(&[
            "--game".into(),
            "mawari".into(),
            "--position".into(),
            "rules=basic hisha@6 fu@14 turn=1".into()
        ]),
        Ok(Command::Play {
            game: Some(GameId::Mawari),
            position: Some(_)
        })
    ));
    assert_eq!(
        parse(&args(
            "selfplay hasami --games 20 --a strong --b normal --seed 9"
        )),
        Ok(Command::Selfplay(SelfplayArgs {
            game: GameId::Hasami,
            games: 20,
            a: Strength::Strong,
            b: Strength::Normal,
            preset: None,
            seed: 9,
            moves: false,
            a_side: None,
            a_null_move: None,
        }))
    );
    assert!(matches!(
        parse(&args(
            "selfplay chushogi --games 2 --a strong --b strong --a-null-move on"
        )),
        Ok(Command::Selfplay(SelfplayArgs {
            a_null_move: Some(true),
            ..
        }))
    ));
    assert!(
        parse(&args(
            "selfplay chushogi --games 2 --a strong --b strong --a-null-move yes"
        ))
        .is_err()
    );
    assert!(matches!(
        parse(&args(
            "selfplay musashi --games 4 --a strong --b normal --a-side second"
        )),
        Ok(Command::Selfplay(SelfplayArgs {
            a_side: Some(Side::Second),
            ..
        }))
    ));
    assert!(matches!(
        parse(&args(
            "selfplay foxgeese --games 2 --a easy --b easy --preset old"
        )),
        Ok(Command::Selfplay(SelfplayArgs {
            game: GameId::FoxGeese,
            ..
        }))
    ));
    assert_eq!(
        parse(&args("--game foxgeese")),
        Ok(Command::Play {
            game: Some(GameId::FoxGeese),
            position: None
        })
    );
    let text = "K...K-./......./..O.K../......./K....-. ko";
    assert_eq!(
        parse(&[
            "--game".into(),
            "musashi".into(),
            "--position".into(),
            text.into()
        ]),
        Ok(Command::Play {
            game: Some(GameId::Musashi),
            position: Some(text.into())
        })
    );
    // 中将棋 takes an SFEN or a USI game.
    let game = "position startpos moves 7j7h 7d7e";
    assert_eq!(
        parse(&[
            "--game".into(),
            "chushogi".into(),
            "--position".into(),
            game.into()
        ]),
        Ok(Command::Play {
            game: Some(GameId::ChuShogi),
            position: Some(game.into())
        })
    );
    assert!(matches!(
        parse(&args("solve musashi --board 25 --max-ko 5 --mirror --csv")),
        Ok(Command::Solve(SolveArgs {
            board: 25,
            max_ko: 5,
            mirror: true,
            csv: true,
            position: None
        }))
    ));
    assert_eq!(
        parse(&args("perft chushogi --depth 3 --divide")),
        Ok(Command::Perft(PerftArgs {
            depth: 3,
            sfen: None,
            divide: true,
            profile: Profile::Jcsa,
        }))
    );
    assert!(matches!(
        parse(&args("perft chushogi --depth 2 --profile lishogi")),
        Ok(Command::Perft(PerftArgs {
            profile: Profile::Lishogi,
            ..
        }))
    ));
    assert_eq!(
        parse(&args("screenshot title out.png")),
        Ok(Command::Screenshot {
            scene: yorimichi::scenes::Scene::Title,
            out: "out.png".into()
        })
    );
}

#[test]
fn bad_arguments_are_explained() {
    for (input, says) in [
        ("--game chess", "unknown game id"),
        ("--game mawari --position hisha@40 fu@0", "0 to 31"),
        (
            "--game mawari --position rules=odd fu@3 fu@0",
            "no such preset",
        ),
        ("selfplay mawari --games 2 --a easy --b easy", "no choice"),
        ("dice --throws 0", "from 1 to"),
        ("bench mawari", "no choice"),
        ("frames moon", "unknown scene"),
        ("frames title --seconds 0", "0.5 to 600"),
        ("frames title --fast", "unexpected argument"),
        ("bench hasami --positions 0", "from 1 to 10000"),
        ("bench hasami --fast 1", "unknown option"),
        ("dice --seed x", "needs a number"),
        ("dice --fast", "unknown option"),
        (
            "selfplay hasami --games 0 --a easy --b easy",
            "positive number",
        ),
        (
            "selfplay hasami --games 5 --a hard --b easy",
            "unknown level",
        ),
        ("selfplay hasami --a easy --b easy", "needs --games"),
        (
            "selfplay hasami --games 2 --a easy --b easy --a-side both",
            "--a-side needs first or second",
        ),
        ("screenshot moon out.png", "unknown scene"),
        ("screenshot title out.jpg", ".png"),
        ("fly", "unknown command"),
        ("--game hasami extra", "unexpected argument"),
        ("--game hasami --position x", "no position text"),
        ("--game musashi --position KKK", "cannot read the position"),
        ("--game musashi --position", "needs a position text"),
        ("--game chushogi --position 12/12", "SFEN"),
        ("solve hasami", "only musashi"),
        ("perft chess --depth 2", "only chushogi"),
        ("perft chushogi", "needs --depth"),
        ("perft chushogi --depth 9", "from 1 to 8"),
        ("perft chushogi --depth 2 --sfen 12/12", "--sfen"),
        (
            "perft chushogi --depth 2 --profile hachu",
            "--profile needs jcsa or lishogi",
        ),
        ("solve musashi --board 30", "33 or 25"),
        ("solve musashi --max-ko 9", "from 0 to 8"),
        ("solve musashi --max-ko", "needs a number"),
        ("solve musashi --fast", "unknown option"),
    ] {
        let e = parse(&args(input)).expect_err(input);
        assert!(e.contains(says), "{input}: {e}");
    }
}

#[test]
fn every_text_exists_in_both_languages() {
    for &t in T::ALL {
        let (ja, en) = t.texts();
        assert!(!ja.trim().is_empty(), "{t:?} has no Japanese text");
        assert!(!en.trim().is_empty(), "{t:?} has no English text");
        assert!(
            en.is_ascii()
                || en.contains('歩')
                || en.contains('と')
                || en.contains('…')
                || en.contains('×')
                || en.contains('☗')
                || en.contains('☖')
                || en.contains("ことば"),
            "{t:?}: English text looks untranslated: {en}"
        );
    }
    assert_eq!(T::YouWin.get(Lang::Ja), "あなたの勝ち!");
    assert_eq!(T::YouWin.get(Lang::En), "You win!");
}
