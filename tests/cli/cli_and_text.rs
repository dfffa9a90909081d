//! Command-line parsing and the UI texts.

use yorimichi::cli::bench::BenchArgs;
use yorimichi::cli::dice::DiceArgs;
use yorimichi::cli::perft::PerftArgs;
use yorimichi::cli::problems::ProblemsArgs;
use yorimichi::cli::screenshot::{FramesArgs, ScreenshotArgs, WindowSize};
use yorimichi::cli::selfplay::SelfplayArgs;
use yorimichi::cli::solve::SolveArgs;
use yorimichi::cli::{Cli, Command, Switch, parse};
use yorimichi::rules::chu::Profile;
use yorimichi::rules::data::{GameId, Strength};
use yorimichi::rules::game::Side;
use yorimichi::scenes::Scene;
use yorimichi::shell::i18n::{Lang, T};

/// Parses `yorimichi` followed by `args`, one argument a word.
fn words(args: &str) -> Result<Cli, clap::Error> {
    parse(std::iter::once("yorimichi").chain(args.split_whitespace()))
}

/// Parses `yorimichi` followed by `args` as they are.
fn exact(args: &[&str]) -> Result<Cli, clap::Error> {
    parse(std::iter::once(&"yorimichi").chain(args))
}

/// What `args` (one argument a word) parse into.
fn cli(args: &str) -> Cli {
    words(args).unwrap_or_else(|e| panic!("{args}: {e}"))
}

/// What `args` (as they are) parse into.
fn cli_exact(args: &[&str]) -> Cli {
    exact(args).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// The command `args` asks for.
fn command(args: &str) -> Command {
    match words(args) {
        Ok(Cli {
            command: Some(c), ..
        }) => c,
        other => panic!("{args}: {other:?}"),
    }
}

fn play(game: Option<GameId>, position: Option<&str>) -> Cli {
    Cli {
        game,
        position: position.map(String::from),
        review: None,
        join: None,
        watch: None,
        server: None,
        command: None,
    }
}

#[test]
fn the_command_line_is_consistent() {
    use clap::CommandFactory;
    Cli::command().debug_assert();
}

/// docs/command-line.md is the program's own help, every command in it
/// with its options; `make command-line-doc` writes it
/// (`YORIMICHI_WRITE_DOCS=1` on this test).
#[test]
fn the_command_line_page_is_the_programs_help() {
    let page = yorimichi::cli::help_page::command_line_page();
    for part in [
        "## `yorimichi solve`",
        "--tsv <FILE>",
        "--seconds <N>",
        "## `yorimichi match`",
        "--mate-probes",
        "--join <CODE>",
        "--server <URL>",
        "## `yorimichi screenshot`",
        "--controls",
        "## `yorimichi bench-rooms`",
    ] {
        assert!(page.contains(part), "the page lacks {part}");
    }
    assert!(!page.contains("## `yorimichi help`"));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/command-line.md");
    if std::env::var_os("YORIMICHI_WRITE_DOCS").is_some() {
        std::fs::write(path, &page).expect("docs/command-line.md is writable");
        return;
    }
    let file = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        file == page,
        "docs/command-line.md is not the program's help: run `make command-line-doc`"
    );
}

#[test]
fn commands_parse() {
    assert_eq!(cli(""), play(None, None));
    assert_eq!(cli("--game hasami"), play(Some(GameId::Hasami), None));
    assert_eq!(cli("--game mawari"), play(Some(GameId::Mawari), None));
    assert_eq!(
        command("frames chushogi --seconds 3"),
        Command::Frames(FramesArgs {
            scene: Scene::Chushogi,
            seconds: 3.0
        })
    );
    assert_eq!(
        command("frames title"),
        Command::Frames(FramesArgs {
            scene: Scene::Title,
            seconds: 5.0
        })
    );
    assert_eq!(
        command("bench chushogi --positions 20 --seed 4 --worker s.txt"),
        Command::Bench(BenchArgs {
            game: GameId::ChuShogi,
            positions: 20,
            preset: None,
            seed: 4,
            worker: Some("s.txt".into()),
        })
    );
    assert_eq!(
        command("bench musashi"),
        Command::Bench(BenchArgs {
            game: GameId::Musashi,
            positions: 100,
            preset: None,
            seed: 1,
            worker: None,
        })
    );
    assert_eq!(
        command("dice --throws 500 --seed 3 --csv"),
        Command::Dice(DiceArgs {
            throws: 500,
            seed: 3,
            csv: true
        })
    );
    assert_eq!(
        command("dice"),
        Command::Dice(DiceArgs {
            throws: 10_000,
            seed: 1,
            csv: false
        })
    );
    assert!(matches!(
        exact(&[
            "--game",
            "mawari",
            "--position",
            "rules=basic hisha@6 fu@14 turn=1"
        ]),
        Ok(Cli {
            game: Some(GameId::Mawari),
            position: Some(_),
            review: None,
            command: None,
            ..
        })
    ));
    // A room to join: the code as people write it; a bad one or a server
    // that is not a WebSocket address is refused.
    assert!(matches!(
        exact(&["--join", "7k3m-q9tb"]),
        Ok(Cli { join: Some(code), .. }) if code == "7K3MQ9TB"
    ));
    assert!(exact(&["--join", "7K3M"]).is_err());
    assert!(exact(&["--join", "7K3MQ9TB", "--game", "hasami"]).is_err());
    assert!(matches!(
        exact(&["--server", "wss://example.org/ws"]),
        Ok(Cli {
            server: Some(_),
            ..
        })
    ));
    assert!(exact(&["--server", "http://example.org"]).is_err());
    assert_eq!(
        command("selfplay hasami --games 20 --a strong --b normal --seed 9"),
        Command::Selfplay(SelfplayArgs {
            game: GameId::Hasami,
            games: 20,
            a: Some(Strength::Strong),
            b: Some(Strength::Normal),
            players: None,
            senko: None,
            preset: None,
            seed: 9,
            moves: false,
            a_side: None,
            a_null_move: None,
            stats: false,
        })
    );
    assert_eq!(
        command("selfplay hasami --games 2 --a easy --b easy"),
        Command::Selfplay(SelfplayArgs {
            game: GameId::Hasami,
            games: 2,
            a: Some(Strength::Easy),
            b: Some(Strength::Easy),
            players: None,
            senko: None,
            preset: None,
            seed: 1,
            moves: false,
            a_side: None,
            a_null_move: None,
            stats: false,
        })
    );
    assert!(matches!(
        command("selfplay chushogi --games 2 --a strong --b strong --a-null-move on --moves"),
        Command::Selfplay(SelfplayArgs {
            a_null_move: Some(Switch::On),
            moves: true,
            ..
        })
    ));
    assert!(words("selfplay chushogi --games 2 --a strong --b strong --a-null-move yes").is_err());
    assert!(matches!(
        command("selfplay musashi --games 20 --a easy --b normal --stats"),
        Command::Selfplay(SelfplayArgs {
            game: GameId::Musashi,
            stats: true,
            ..
        })
    ));
    assert!(words("selfplay musashi --games 20 --a easy --b normal --stats yes").is_err());
    assert!(matches!(
        command("selfplay musashi --games 4 --a strong --b normal --a-side second"),
        Command::Selfplay(SelfplayArgs {
            a_side: Some(Side::Second),
            ..
        })
    ));
    assert!(matches!(
        command("selfplay foxgeese --games 2 --a easy --b easy --preset old"),
        Command::Selfplay(SelfplayArgs {
            game: GameId::FoxGeese,
            preset: Some(_),
            ..
        })
    ));
    assert_eq!(cli("--game foxgeese"), play(Some(GameId::FoxGeese), None));
    let text = "K...K-./......./..O.K../......./K....-. ko";
    assert_eq!(
        cli_exact(&["--game", "musashi", "--position", text]),
        play(Some(GameId::Musashi), Some(text))
    );
    // 中将棋 takes an SFEN or a USI game.
    let game = "position startpos moves 7j7h 7d7e";
    assert_eq!(
        cli_exact(&["--game", "chushogi", "--position", game]),
        play(Some(GameId::ChuShogi), Some(game))
    );
    assert_eq!(
        command("solve musashi --board 25 --max-ko 5 --mirror --csv"),
        Command::Solve(SolveArgs {
            game: GameId::Musashi,
            board: 25,
            max_ko: 5,
            mirror: true,
            csv: true,
            position: None,
            sfen: None,
            tsv: None,
            seconds: 10.0,
            profile: Profile::Jcsa,
        })
    );
    assert_eq!(
        command("solve musashi"),
        Command::Solve(SolveArgs {
            game: GameId::Musashi,
            board: 33,
            max_ko: 6,
            mirror: false,
            csv: false,
            position: None,
            sfen: None,
            tsv: None,
            seconds: 10.0,
            profile: Profile::Jcsa,
        })
    );
    assert!(matches!(
        exact(&["solve", "musashi", "--position", text]),
        Ok(Cli {
            command: Some(Command::Solve(SolveArgs {
                position: Some(_),
                ..
            })),
            ..
        })
    ));
    assert_eq!(
        command("perft chushogi --depth 3 --divide"),
        Command::Perft(PerftArgs {
            game: GameId::ChuShogi,
            depth: 3,
            sfen: None,
            divide: true,
            profile: Profile::Jcsa,
        })
    );
    assert!(matches!(
        command("perft chushogi --depth 2 --profile lishogi"),
        Command::Perft(PerftArgs {
            profile: Profile::Lishogi,
            ..
        })
    ));
    assert!(matches!(
        exact(&[
            "perft",
            "chushogi",
            "--depth",
            "1",
            "--sfen",
            "k11/12/12/12/12/6N5/12/12/12/12/12/11K b - 1"
        ]),
        Ok(Cli {
            command: Some(Command::Perft(PerftArgs { sfen: Some(_), .. })),
            ..
        })
    ));
    assert_eq!(
        command("problems chushogi"),
        Command::Problems(ProblemsArgs {
            game: GameId::ChuShogi,
            count: 60,
            lion: 0,
            king: 0,
            seed: 1
        })
    );
    assert_eq!(
        command("problems chushogi --count 600 --lion 100 --king 15 --seed 7"),
        Command::Problems(ProblemsArgs {
            game: GameId::ChuShogi,
            count: 600,
            lion: 100,
            king: 15,
            seed: 7
        })
    );
    assert_eq!(
        command("screenshot title out.png"),
        Command::Screenshot(ScreenshotArgs {
            scene: Some(Scene::Title),
            out: Some("out.png".into()),
            list: false,
            smoke: false,
            controls: None,
            size: None,
        })
    );
    assert_eq!(
        command("screenshot settings out.png --controls out.tsv"),
        Command::Screenshot(ScreenshotArgs {
            scene: Some(Scene::Settings),
            out: Some("out.png".into()),
            list: false,
            smoke: false,
            controls: Some("out.tsv".into()),
            size: None,
        })
    );
    assert_eq!(
        command("screenshot list out.png --size 390x844@3"),
        Command::Screenshot(ScreenshotArgs {
            scene: Some(Scene::List),
            out: Some("out.png".into()),
            list: false,
            smoke: false,
            controls: None,
            size: Some(WindowSize {
                width: 390,
                height: 844,
                scale: 3.0
            }),
        })
    );
    assert!(matches!(
        command("screenshot --list --smoke"),
        Command::Screenshot(ScreenshotArgs {
            scene: None,
            list: true,
            smoke: true,
            ..
        })
    ));
    // Every scene is known by its name.
    for scene in Scene::ALL {
        assert!(matches!(
            command(&format!("frames {}", scene.name())),
            Command::Frames(FramesArgs { scene: s, .. }) if s == scene
        ));
    }
}

#[test]
fn bad_arguments_are_explained() {
    for (input, says) in [
        ("--game chess", "unknown game id"),
        ("selfplay mawari --games 2 --players 5", "from 2 to 4"),
        (
            "selfplay mawari --games 2 --players 4 --a easy",
            "cannot be used with",
        ),
        ("dice --throws 0", "from 1 to 10000000"),
        ("dice --throws 10000001", "from 1 to 10000000"),
        ("bench mawari", "no choice"),
        ("frames moon", "invalid value 'moon' for '<SCENE>'"),
        ("frames title --seconds 0", "0.5 to 600"),
        ("frames title --seconds 601", "0.5 to 600"),
        ("frames title --fast", "unexpected argument '--fast'"),
        ("bench hasami --positions 0", "from 1 to 10000"),
        ("bench hasami --positions 10001", "from 1 to 10000"),
        ("bench hasami --fast 1", "unexpected argument '--fast'"),
        (
            "dice --seed x",
            "invalid value 'x' for '--seed <S>': needs a whole number",
        ),
        ("dice --fast", "unexpected argument '--fast'"),
        (
            "selfplay hasami --games 0 --a easy --b easy",
            "positive whole number",
        ),
        (
            "selfplay hasami --games 0.5 --a easy --b easy",
            "invalid value '0.5' for '--games <N>': needs a positive whole number",
        ),
        (
            "selfplay hasami --games -1 --a easy --b easy",
            "unexpected argument '-1'",
        ),
        (
            "selfplay hasami --games 5 --a hard --b easy",
            "invalid value 'hard' for '--a <LEVEL>'",
        ),
        (
            "selfplay hasami --games 5 --a hard --b easy",
            "[possible values: easy, normal, strong]",
        ),
        ("selfplay hasami --a easy --b easy", "--games <N>"),
        ("selfplay hasami --games 2 --a easy", "--b <LEVEL>"),
        (
            "selfplay hasami --games 2 --a easy --b easy --a-side both",
            "[possible values: first, second]",
        ),
        (
            "selfplay hasami --games 2 --a easy --b easy --seed 1.5",
            "'1.5' for '--seed <S>'",
        ),
        (
            "screenshot moon out.png",
            "invalid value 'moon' for '[SCENE]'",
        ),
        ("screenshot title out.jpg", ".png"),
        ("screenshot title", "<OUT.png>"),
        ("screenshot --list title out.png", "cannot be used with"),
        ("screenshot --smoke", "--list"),
        ("screenshot title out.png --size 390", "WIDTHxHEIGHT"),
        ("screenshot title out.png --size 10x10", "WIDTHxHEIGHT"),
        ("fly", "unrecognized subcommand 'fly'"),
        ("--game hasami extra", "'extra'"),
        (
            "--game hasami selfplay hasami --games 2 --a easy --b easy",
            "cannot be used with",
        ),
        ("--position KKK", "--game <ID>"),
        ("--game hasami --position x", "no position text"),
        ("--game musashi --position KKK", "cannot read the position"),
        (
            "--game musashi --position",
            "a value is required for '--position <TEXT>'",
        ),
        ("--game chushogi --position 12/12", "SFEN"),
        ("solve hasami", "only musashi"),
        ("solve chushogi --sfen 12/12", "--sfen"),
        ("solve chushogi --seconds 0", "above 0"),
        ("solve chushogi --seconds x", "above 0"),
        ("perft chess --depth 2", "only chushogi"),
        ("perft chushogi", "--depth <N>"),
        ("perft chushogi --depth 0", "from 1 to 8"),
        ("perft chushogi --depth 9", "from 1 to 8"),
        ("perft chushogi --depth 2.5", "'2.5' for '--depth <N>'"),
        ("perft chushogi --depth 2 --sfen 12/12", "--sfen"),
        (
            "perft chushogi --depth 2 --profile hachu",
            "[possible values: jcsa, lishogi]",
        ),
        ("problems chess", "only chushogi"),
        ("problems chushogi --count 0", "from 1 to 600"),
        ("problems chushogi --count 601", "from 1 to 600"),
        ("problems chushogi --lion 101", "from 0 to 100"),
        ("problems chushogi --king 101", "from 0 to 100"),
        ("problems chushogi --count 1.5", "'1.5' for '--count <N>'"),
        ("solve musashi --board 30", "[possible values: 33, 25]"),
        ("solve musashi --max-ko 9", "from 0 to 8"),
        (
            "solve musashi --max-ko",
            "a value is required for '--max-ko <N>'",
        ),
        ("solve musashi --fast", "unexpected argument '--fast'"),
    ] {
        let e = words(input).expect_err(input).to_string();
        assert!(e.contains(says), "{input}: {e}");
        // Every refusal comes with the usage.
        assert!(e.contains("Usage: yorimichi"), "{input}: {e}");
    }
    // A position text with spaces is one argument.
    for (input, says) in [
        (
            ["--game", "mawari", "--position", "hisha@40 fu@0"],
            "0 to 31",
        ),
        (
            ["--game", "mawari", "--position", "rules=odd fu@3 fu@0"],
            "no such preset",
        ),
    ] {
        let e = exact(&input).expect_err(says).to_string();
        assert!(e.contains(says), "{input:?}: {e}");
    }
}

#[test]
fn counts_are_whole_numbers() {
    // Counts were once read as real numbers and cut: `--games 0.5` meant
    // no games at all.
    for input in [
        "selfplay hasami --games 0.5 --a easy --b easy",
        "selfplay hasami --games -1 --a easy --b easy",
        "selfplay hasami --games 1e3 --a easy --b easy",
        "match chushogi --opponent x --games 0.5",
        "match chushogi --opponent x --games -1",
        "match chushogi --opponent x --max-plies 10.5",
        "match chushogi --opponent x --seed 2.5",
        "bench hasami --positions 2.5",
        "dice --throws 99.9",
        "dice --seed -3",
        "problems chushogi --lion 2.5",
    ] {
        let e = words(input).expect_err(input);
        assert_eq!(e.exit_code(), 2, "{input}");
    }
}

#[test]
fn the_scene_lists_come_from_the_scenes() {
    let gallery: Vec<&str> = Scene::ALL
        .into_iter()
        .filter(|s| s.in_gallery())
        .map(Scene::name)
        .collect();
    let smoke: Vec<&str> = Scene::ALL
        .into_iter()
        .filter(|s| s.is_smoke_test())
        .map(Scene::name)
        .collect();
    assert!(smoke.len() < gallery.len() && smoke.contains(&"title"));
    assert!(smoke.iter().all(|s| gallery.contains(s)));
    // The help names every scene.
    let help = words("screenshot --help").expect_err("help").to_string();
    for scene in Scene::ALL {
        assert!(help.contains(scene.name()), "{}: {help}", scene.name());
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
