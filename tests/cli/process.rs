//! The built `yorimichi` binary as a shell runs it: exit codes, the usage
//! on bad arguments, output into a pipe that closes early, the scene lists.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

use yorimichi::scenes::Scene;

/// The binary run with `args` and no input.
pub(crate) fn yorimichi(args: &[&str]) -> Output {
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
        "selfplay", "solve", "perft", "problems", "engine", "match", "bench", "dice", "check",
        "convert",
    ] {
        assert!(help.contains(command), "{command}: {help}");
    }
    assert!(help.contains("--game <ID>") && help.contains("--position <TEXT>"));
}

#[test]
fn screenshot_list_prints_the_handbook_scenes() {
    let names = |wanted: fn(&Scene) -> bool| -> String {
        Scene::ALL
            .iter()
            .filter(|s| wanted(s))
            .map(|s| format!("{}\n", s.name()))
            .collect()
    };
    let out = yorimichi(&["screenshot", "--list"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), names(|s| s.in_gallery()));
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

/// A copy of `levels/` in a fresh folder under the system's temporary one.
fn levels_copy(name: &str) -> std::path::PathBuf {
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let to = std::env::temp_dir().join(format!("yorimichi-check-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&to);
    for entry in walk(&from) {
        let target = to.join(entry.strip_prefix(&from).unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &target).unwrap();
    }
    to
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn check_passes_the_level_files_and_exits_0() {
    let levels = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    for args in [
        vec!["check".to_string()],
        vec![
            "check".to_string(),
            "--levels".to_string(),
            levels.display().to_string(),
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_yorimichi"))
            .args(&args)
            .output()
            .unwrap();
        let said = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {said}{}",
            text(&out.stderr)
        );
        let line = said.trim();
        assert!(
            line.starts_with("checked 25 files, ") && line.ends_with(" items"),
            "{line}"
        );
    }
}

#[test]
fn check_prints_each_problem_and_exits_1() {
    let dir = levels_copy("broken");
    // The lion and the free king swapped back in the first start diagram;
    // an arrow through a piece (which also leaves the step's highlight
    // marking no move); a file the program does not read.
    let chu = dir.join("tutorials/chushogi.ron");
    let text_of = std::fs::read_to_string(&chu).unwrap();
    std::fs::write(
        &chu,
        text_of.replacen("\"MVRHDNQDHRVM\"", "\"MVRHDQNDHRVM\"", 1),
    )
    .unwrap();
    let hasami = dir.join("tutorials/hasami.ron");
    let text_of = std::fs::read_to_string(&hasami).unwrap();
    let broken = text_of.replacen(
        "arrows: [(from: \"8九\", to: \"8一\")],",
        "arrows: [(from: \"8九\", to: \"7一\")],",
        1,
    );
    assert_ne!(broken, text_of, "the file changed");
    std::fs::write(&hasami, broken).unwrap();
    std::fs::write(dir.join("tutorials/notes.txt"), "a note").unwrap();
    let shown = dir.display().to_string();
    let out = yorimichi(&["check", "--levels", &shown]);
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let lines: Vec<&str> = said.lines().collect();
    let want = [
        format!(
            "{shown}/tutorials/chushogi.ron: steps[0].board: the diagram is shown as the start position but is not: 7十 has ☗奔王 where the start has ☗獅子; 6十 has ☗獅子 where the start has ☗奔王 (step 「中将棋とは」)"
        ),
        format!(
            "{shown}/tutorials/hasami.ron: steps[16].highlights: 8一 is empty and no move of the step goes there: a highlight marks a piece or where the step's move goes (step 「コツ4 端や隅に追いこむ」)"
        ),
        format!(
            "{shown}/tutorials/hasami.ron: steps[16].arrows[0]: 8九→7一 is not a legal move in the diagram (step 「コツ4 端や隅に追いこむ」)"
        ),
        format!(
            "{shown}/tutorials/notes.txt: file: not a level file the program reads (no check knows it)"
        ),
    ];
    assert_eq!(lines.len(), want.len(), "{said}");
    for w in &want {
        assert!(lines.contains(&w.as_str()), "{w}\nnot in\n{said}");
    }
    // A file the program reads, missing.
    std::fs::remove_file(dir.join("boards/chu12.ron")).unwrap();
    let out = yorimichi(&["check", "--levels", &shown]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains(&format!(
            "{shown}/boards/chu12.ron: file: missing: the program reads this file"
        )),
        "{}",
        text(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
    // A folder that is not there is an error (status 1), not a report.
    let out = yorimichi(&["check", "--levels", "/no/such/levels"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot read /no/such/levels"));
}

#[test]
fn selfplay_mawari_prints_how_the_games_ended() {
    let out = yorimichi(&[
        "selfplay",
        "mawari",
        "--games",
        "6",
        "--players",
        "2",
        "--seed",
        "3",
    ]);
    let printed = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        printed.contains("preset=basic senko=osho players=2 games=6"),
        "{printed}"
    );
    // One line per ending; the games add up to those played.
    let mut games = 0;
    for ending in ["race", "senko", "war", "last_one_left", "unfinished"] {
        let line = printed
            .lines()
            .find(|l| l.split_whitespace().next() == Some(ending))
            .unwrap_or_else(|| panic!("no {ending} line: {printed}"));
        games += line
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse::<u32>().ok())
            .expect("a count");
    }
    assert_eq!(games, 6, "{printed}");
    assert!(printed.contains("throws per game: mean"), "{printed}");
    // The same seed plays the same games.
    let again = yorimichi(&[
        "selfplay",
        "mawari",
        "--games",
        "6",
        "--players",
        "2",
        "--seed",
        "3",
    ]);
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("simulated in"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&printed), strip(&text(&again.stdout)));
    // Without --players mawari asks for what is missing; --players is for
    // mawari only.
    let out = yorimichi(&["selfplay", "mawari", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("required"));
    let out = yorimichi(&["selfplay", "hasami", "--games", "2", "--players", "2"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `selfplay --stats` prints one line per level and side, each counting
/// the moves that left something to take and, of those, the ones where
/// every move would have (no choice left): never more than all of them,
/// and やさしい's 子 leave gaps they could have avoided.
#[test]
fn selfplay_stats_count_the_moves_with_no_other_choice() {
    let out = yorimichi(&[
        "selfplay", "musashi", "--games", "6", "--a", "easy", "--b", "normal", "--stats",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let mut rows = 0;
    for line in stdout.lines().filter(|l| l.starts_with("stats ")) {
        // stats easy 子 takeable 43.0% (263 of 612 moves; 12 with no other move)
        let numbers: Vec<usize> = line
            .split(['(', ')', ' ', ';'])
            .filter_map(|w| w.parse().ok())
            .collect();
        let [hits, judged, forced] = numbers[..] else {
            panic!("{line}");
        };
        assert!(forced <= hits && hits <= judged, "{line}");
        if line.starts_with("stats easy 子") {
            assert!(hits > forced, "{line}");
        }
        rows += 1;
    }
    assert_eq!(rows, 4, "{stdout}");
}
