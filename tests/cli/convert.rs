//! `yorimichi convert chushogi`: a game on standard input (KIF, a USI game
//! or a bare SFEN) written as KIF, USI or the final SFEN; bad input refused
//! with the line and a non-zero status; a closed output pipe ends quietly.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use yorimichi::cli::convert::{ConvertArgs, Form};
use yorimichi::cli::{Cli, Command as CliCommand, parse};
use yorimichi::rules::chu::Profile;
use yorimichi::rules::data::GameId;

/// Runs `yorimichi convert chushogi <args>` with `input` on standard input.
fn convert(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yorimichi"))
        .args(["convert", "chushogi"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).expect("the input is taken");
    drop(stdin);
    child.wait_with_output().expect("the command ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The output of a conversion that must succeed.
fn converted(args: &[&str], input: &str) -> String {
    let out = convert(args, input.as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?} {input}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/kif")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const GAME: &str = "position sfen 5k6/12/12/6g5/6p1sPS1/6N5/12/12/3+D8/12/12/6K5 b - 1 moves 6f6e6f 7a7b 3e3d 4e4f 6f6g6f 4f5e 6f5e 6d5e 2e2d+ 5e6f 9i8h7g 7b7a 7g6f7g";

#[test]
fn convert_parses_its_arguments() {
    let parsed = |args: &str| -> Result<Cli, clap::Error> {
        parse(std::iter::once("yorimichi").chain(args.split_whitespace()))
    };
    assert_eq!(
        parsed("convert chushogi --to kif").unwrap().command,
        Some(CliCommand::Convert(ConvertArgs {
            game: GameId::ChuShogi,
            to: Form::Kif,
            profile: Profile::Jcsa,
        }))
    );
    assert_eq!(
        parsed("convert chushogi --to sfen --profile lishogi")
            .unwrap()
            .command,
        Some(CliCommand::Convert(ConvertArgs {
            game: GameId::ChuShogi,
            to: Form::Sfen,
            profile: Profile::Lishogi,
        }))
    );
    for (args, says) in [
        ("convert chushogi", "--to <FORM>"),
        ("convert chushogi --to csa", "invalid value 'csa'"),
        ("convert hasami --to kif", "knows only chushogi"),
    ] {
        let e = parsed(args).unwrap_err().to_string();
        assert!(e.contains(says), "{args}: {e}");
    }
    // As the shell runs it: usage and status 2.
    let out = convert(&["--to", "csa"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Usage: yorimichi convert"));
}

#[test]
fn a_usi_game_becomes_kif_and_comes_back() {
    let kif = converted(&["--to", "kif"], GAME);
    // This program's record of the game, as the fixture has it (less what
    // the fixture adds: the date, the players, the resignation).
    let fixture = fixture("every_move.kif")
        .replace("開始日時：2024/05/01 10:00:00\n", "")
        .replace("先手：よりみち\n後手：lishogi AI\n", "先手：\n後手：\n")
        .replace("  14   投了\nまで13手で先手の勝ち\n", "");
    assert_eq!(kif, fixture);
    assert_eq!(converted(&["--to", "usi"], &kif), format!("{GAME}\n"));
    // The final position, from either form: 13 moves from move 1 is move
    // 14, as lishogi counts.
    let end = "5k6/12/12/9P+S1/12/12/5+D6/12/12/12/12/6K5 w - 14\n";
    assert_eq!(converted(&["--to", "sfen"], GAME), end);
    assert_eq!(converted(&["--to", "sfen"], &kif), end);
    // The usual start is written `startpos` and 手合割：中将棋; a bare SFEN
    // is a game without moves.
    let start = converted(&["--to", "kif"], "startpos moves 7i7h");
    assert!(start.contains("手合割：中将棋\n"), "{start}");
    assert!(start.ends_with("   1   7八歩兵 （←7九）\n"), "{start}");
    assert_eq!(
        converted(&["--to", "usi"], &start),
        "position startpos moves 7i7h\n"
    );
    let sfen = "k11/12/12/12/12/12/12/12/12/12/12/11K w - 1";
    assert_eq!(
        converted(&["--to", "usi"], sfen),
        format!("position sfen {sfen}\n")
    );
}

#[test]
fn lishogis_and_the_renmeis_records_convert() {
    assert_eq!(
        converted(
            &["--to", "usi", "--profile", "lishogi"],
            &fixture("lion_same_square_lishogi.kif")
        ),
        "position sfen k11/12/6n5/12/6P5/12/12/12/12/12/12/S10K b - 1 moves 6e6d 6c7d6d 1l1k 6d6e6d 1k1l 6d7d6d\n"
    );
    let renmei = converted(&["--to", "kif"], &fixture("renmei.kif"));
    assert!(renmei.contains("先手：甲\n"), "{renmei}");
    assert!(
        renmei.ends_with("  10   投了\nまで9手で先手の勝ち\n"),
        "{renmei}"
    );
    // A game over on the board gets its result line.
    let bare = "position sfen k11/12/6n5/12/6P5/12/12/12/12/12/12/11K b - 1 moves 6e6d 6c7d6d";
    assert!(converted(&["--to", "kif"], bare).ends_with("まで2手で後手の勝ち\n"));
}

#[test]
fn bad_input_is_refused_with_where_and_why() {
    let kif = fixture("every_move.kif").replace("   4   4六銀将", "   4   4七銀将");
    for (input, says) in [
        (
            kif.as_bytes(),
            "yorimichi: KIF line 26: 4五→4七 is not a legal move here",
        ),
        (b"".as_slice(), "KIF line 1: the KIF is empty"),
        (
            "   1   7八桂馬 (7九)\n".as_bytes(),
            "KIF line 1: \"桂馬\" is not a 中将棋 piece name",
        ),
        (
            b"position startpos moves 7i7h 7i7h".as_slice(),
            "yorimichi: move 2: 7i7h is not a legal move here",
        ),
        (b"\xff\xfe".as_slice(), "not UTF-8"),
    ] {
        let out = convert(&["--to", "usi"], input);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
        assert!(
            err.lines().count() == 1 && err.contains(says),
            "{says}: {err}"
        );
    }
}

#[test]
fn a_closed_output_pipe_ends_convert_quietly() {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_yorimichi"))
        .args(["convert", "chushogi", "--to", "kif"])
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(GAME.as_bytes())
        .expect("the input is taken");
    drop(stdin);
    let out = child.wait_with_output().expect("the command ends");
    let err = text(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

#[test]
fn the_points_are_counted_as_the_cutoff_counts_them() {
    // The seed's table: each side's 46 pieces at the start are 223.8.
    assert_eq!(
        converted(&["--to", "points"], "startpos moves"),
        "先手 223.8 後手 223.8\n"
    );
    // The final position of GAME: 先手's 歩兵, 成銀 (5.4) and 龍王 promoted
    // (14.8) against 後手's lone king.
    assert_eq!(converted(&["--to", "points"], GAME), "先手 21.2 後手 0.0\n");
    // A 太子 (17.6) counts only while its king lives.
    let with_king = "k+e9r/12/12/6p5/6g5/12/12/12/12/6R5/12/K8S2 b - 1";
    assert_eq!(
        converted(&["--to", "points"], with_king),
        "先手 12.9 後手 32.5\n"
    );
    let without = "1+e9r/12/12/6p5/6g5/12/12/12/12/6R5/12/K8S2 b - 1";
    assert_eq!(
        converted(&["--to", "points"], without),
        "先手 12.9 後手 14.9\n"
    );
}
