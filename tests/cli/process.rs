//! The built `yorimichi` binary as a shell runs it: exit codes, the usage
//! on bad arguments, output into a pipe that closes early, the scene lists.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

use yorimichi::scenes::Scene;

fn yorimichi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yorimichi"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_bad_argument_exits_2_with_the_usage() {
    for args in [
        &[
            "selfplay", "hasami", "--games", "0.5", "--a", "easy", "--b", "easy",
        ][..],
        &[
            "selfplay", "hasami", "--games", "-1", "--a", "easy", "--b", "easy",
        ],
        &["screenshot", "moon", "out.png"],
        &["fly"],
        &["--game", "musashi", "--position", "KKK"],
    ] {
        let out = yorimichi(args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("error:"), "{args:?}: {err}");
        assert!(err.contains("Usage: yorimichi"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_exits_0() {
    for args in [
        &["--help"][..],
        &["help"],
        &["selfplay", "--help"],
        &["help", "match"],
    ] {
        let out = yorimichi(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let help = text(&out.stdout);
        assert!(help.contains("Usage: yorimichi"), "{args:?}: {help}");
    }
    let help = text(&yorimichi(&["--help"]).stdout);
    for command in [
        "selfplay", "solve", "perft", "problems", "engine", "match", "bench", "dice",
    ] {
        assert!(help.contains(command), "{command}: {help}");
    }
    assert!(help.contains("--game <ID>") && help.contains("--position <TEXT>"));
}

#[test]
fn screenshot_list_prints_the_readme_scenes() {
    let names = |wanted: fn(&Scene) -> bool| -> String {
        Scene::ALL
            .iter()
            .filter(|s| wanted(s))
            .map(|s| format!("{}\n", s.name()))
            .collect()
    };
    let out = yorimichi(&["screenshot", "--list"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), names(|s| s.in_readme()));
    let out = yorimichi(&["screenshot", "--list", "--smoke"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), names(|s| s.is_smoke_test()));
    assert!(text(&out.stdout).starts_with("title\n"));
}

/// No panic message, no panic's exit code (101).
fn quiet(args: &[&str], out: &Output) {
    let err = text(&out.stderr);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
    assert_ne!(out.status.code(), Some(101), "{args:?}: {err}");
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    // As `yorimichi perft chushogi --depth 3 --divide | head -2` does: read
    // two lines, then close the pipe while the command still prints.
    let args = ["perft", "chushogi", "--depth", "3", "--divide"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_yorimichi"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    for _ in 0..2 {
        let line = lines.next().expect("a line").expect("text");
        assert!(line.split(' ').count() == 2, "{line}");
    }
    drop(lines);
    let out = child.wait_with_output().expect("the command ends");
    quiet(&args, &out);

    // A pipe whose reader is gone before the first line: every printing
    // command stops at once, with success.
    for args in [
        &["perft", "chushogi", "--depth", "3", "--divide"][..],
        &["dice", "--throws", "20"],
        &["dice", "--throws", "20", "--csv"],
        &["solve", "musashi", "--max-ko", "1"],
        &["solve", "musashi", "--max-ko", "1", "--csv"],
        &["screenshot", "--list"],
        &["--help"],
    ] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_yorimichi"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("the binary runs");
        quiet(args, &out);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
    }
}
