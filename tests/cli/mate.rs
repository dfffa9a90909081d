//! 詰め中将棋 at the command line: USI `go mate` (a mate, none, a
//! timeout, `stop`), `solve chushogi` for one SFEN and for a collection,
//! and mate problems read by `usi`, `perft`, `convert` and `--position`.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::process::yorimichi;
use crate::usi::Engine;
use yorimichi::cli::usi::run_script;
use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::end::outcome_in;
use yorimichi::rules::chu::mate::check_line;
use yorimichi::rules::chu::moves::{ChuMove, legal_moves_in, parse_usi_in, play};
use yorimichi::rules::chu::position::ChuPosition;

const KINUBURUI: &str = include_str!("../data/chu-tsume/kinuburui.tsv");

/// The SFEN of a problem of the collection.
fn sfen(id: &str) -> &'static str {
    KINUBURUI
        .lines()
        .find(|l| l.starts_with(&format!("{id}\t")))
        .and_then(|l| l.split('\t').nth(2))
        .unwrap_or_else(|| panic!("no problem {id}"))
}

/// A lone gold against a king in the open: no mate.
const NO_MATE: &str = "12/12/12/12/5k6/12/5G6/12/12/12/12/12 b - 1";

/// A bare king (後手's, to move, cannot take the gold): the game is over.
const BARE: &str = "k11/12/12/12/12/12/12/12/12/12/5G6/11K w - 1";

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Reads a line of USI moves from `start` under `profile`.
fn moves(profile: Profile, start: &ChuPosition, text: &str) -> Vec<ChuMove> {
    let mut pos = start.clone();
    text.split_whitespace()
        .map(|m| {
            let mv = parse_usi_in(profile, &pos, m).unwrap_or_else(|e| panic!("{m}: {e}"));
            pos = play(&pos, mv);
            mv
        })
        .collect()
}

/// The `checkmate` answer of a script's output.
fn checkmate(out: &str) -> &str {
    out.lines()
        .find_map(|l| l.strip_prefix("checkmate "))
        .unwrap_or_else(|| panic!("no checkmate in:\n{out}"))
}

#[test]
fn go_mate_answers_the_mating_line() {
    let problem = sfen("kinu01");
    let out = run_script(&format!("position sfen {problem}\ngo mate 20000\n"));
    let line = checkmate(&out);
    let start = ChuPosition::from_sfen_start(problem).unwrap();
    // The USI engine plays lishogi's rules; the line holds under both.
    let line = moves(Profile::Lishogi, &start, line);
    assert_eq!(line.len(), 9, "{out}");
    for profile in Profile::ALL {
        check_line(profile, &start, &line).unwrap_or_else(|e| panic!("{profile:?}: {e}"));
    }
    assert!(out.lines().any(|l| l.starts_with("info time")), "{out}");
    // Under the JCSA profile too.
    let out = run_script(&format!(
        "setoption name Profile value jcsa\nposition sfen {problem}\ngo mate 20000\n"
    ));
    let line = moves(Profile::Jcsa, &start, checkmate(&out));
    check_line(Profile::Jcsa, &start, &line).unwrap();
}

#[test]
fn go_mate_says_nomate_and_timeout() {
    let out = run_script(&format!("position sfen {NO_MATE}\ngo mate 20000\n"));
    assert_eq!(checkmate(&out), "nomate", "{out}");
    // A long problem with a tenth of a second.
    let begun = Instant::now();
    let out = run_script(&format!("position sfen {}\ngo mate 100\n", sfen("kinu57")));
    assert_eq!(checkmate(&out), "timeout", "{out}");
    assert!(
        begun.elapsed() < Duration::from_secs(3),
        "{:?}",
        begun.elapsed()
    );
    // `stop` (already waiting) ends `go mate infinite` with what it has.
    let out = run_script(&format!(
        "position sfen {}\ngo mate infinite\nstop\n",
        sfen("kinu57")
    ));
    assert_eq!(checkmate(&out), "timeout", "{out}");
    // A bad time is named.
    let out = run_script("go mate soon\n");
    assert!(
        out.contains("info string go mate needs a time in milliseconds or infinite"),
        "{out}"
    );
    assert!(!out.contains("checkmate"), "{out}");
}

#[test]
fn stop_answers_go_mate_infinite_at_once() {
    let mut engine = Engine::start();
    engine.send(&format!("position sfen {}", sfen("kinu57")));
    engine.send("go mate infinite");
    engine.send("isready");
    assert_eq!(
        engine.wait_for(""),
        "readyok",
        "isready is answered while solving"
    );
    std::thread::sleep(Duration::from_millis(300));
    let stopped = Instant::now();
    engine.send("stop");
    let answer = engine.wait_for("checkmate ");
    assert_eq!(answer, "checkmate timeout");
    assert!(
        stopped.elapsed() < Duration::from_secs(2),
        "{:?}",
        stopped.elapsed()
    );
    engine.send("quit");
    assert!(engine.child.wait().unwrap().success());
}

#[test]
fn a_mate_problem_is_played_not_resigned() {
    let problem = sfen("kinu01");
    let out = run_script(&format!("position sfen {problem}\ngo depth 2\n"));
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in\n{out}"));
    assert_ne!(best, "resign", "{out}");
    let start = ChuPosition::from_sfen_start(problem).unwrap();
    assert!(
        parse_usi_in(Profile::Lishogi, &start, best).is_ok(),
        "{best}"
    );
    // Moves after it are read too, and the game ends with the king taken.
    let line = "10d7d 8e7d 4c6a+ 5b6a 6e8c 7d8c 1c6c";
    let out = run_script(&format!(
        "position sfen {problem} moves {line}\ngo depth 1\n"
    ));
    assert!(!out.contains("info string"), "{out}");
}

#[test]
fn solve_chushogi_prints_the_line_its_length_nodes_and_time() {
    let out = stdout(&yorimichi(&[
        "solve",
        "chushogi",
        "--sfen",
        sfen("kinu01"),
        "--seconds",
        "20",
    ]));
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("mate: "))
        .unwrap_or_else(|| panic!("{out}"));
    let start = ChuPosition::from_sfen_start(sfen("kinu01")).unwrap();
    let line = moves(Profile::Jcsa, &start, line);
    check_line(Profile::Jcsa, &start, &line).unwrap();
    assert!(out.contains("plies: 9\n"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("nodes: ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("time: ")), "{out}");
    let none = stdout(&yorimichi(&["solve", "chushogi", "--sfen", NO_MATE]));
    assert!(none.starts_with("no mate\n"), "{none}");
    let slow = stdout(&yorimichi(&[
        "solve",
        "chushogi",
        "--sfen",
        sfen("kinu57"),
        "--seconds",
        "0.1",
        "--profile",
        "lishogi",
    ]));
    assert!(slow.starts_with("not solved within 0.1 s\n"), "{slow}");
    // Without a position it says what it needs; musashi's options stay
    // musashi's.
    let bare = yorimichi(&["solve", "chushogi"]);
    assert_eq!(bare.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bare.stderr).contains("--sfen <SFEN> or --tsv <FILE>"),
        "{bare:?}"
    );
    let wrong = yorimichi(&["solve", "musashi", "--sfen", sfen("kinu01")]);
    assert_eq!(wrong.status.code(), Some(2));
}

#[test]
fn solve_chushogi_tsv_counts_a_collection() {
    let dir = std::env::temp_dir().join(format!("yorimichi-mate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("three.tsv");
    let mut text: String = KINUBURUI.lines().next().unwrap().to_string() + "\n";
    for line in KINUBURUI.lines().filter(|l| {
        l.starts_with("kinu01\t") || l.starts_with("kinu32\t") || l.starts_with("kinu57\t")
    }) {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(&file, text).unwrap();
    let out = stdout(&yorimichi(&[
        "solve",
        "chushogi",
        "--tsv",
        file.to_str().unwrap(),
        "--seconds",
        "0.5",
    ]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    // Shortened as far as the time allows.
    assert!(lines[0].starts_with("kinu01\tproved\tplies "), "{out}");
    assert!(lines[0].contains(", collection 7)"), "{out}");
    assert!(lines[1].starts_with("kinu32\tproved"), "{out}");
    assert!(lines[2].starts_with("kinu57\tnot proved in time"), "{out}");
    assert!(
        lines[3].starts_with("proved 2/3 within 0.5 s each"),
        "{out}"
    );
    assert!(lines[3].contains("median"), "{out}");
    assert!(lines[3].contains("longest proved"), "{out}");
    // A file that is no collection is refused with its line.
    std::fs::write(&file, "id\ttitle\nkinu01\tonly two\n").unwrap();
    let bad = yorimichi(&["solve", "chushogi", "--tsv", file.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("line 2: expected 5 tab-separated fields"),
        "{bad:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perft_counts_a_mate_problem_and_nothing_after_the_end() {
    let problem = stdout(&yorimichi(&[
        "perft",
        "chushogi",
        "--sfen",
        sfen("kinu01"),
        "--depth",
        "1",
    ]));
    let count: u64 = problem
        .lines()
        .find_map(|l| l.strip_prefix("depth 1 nodes "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{problem}"));
    assert!(count > 0, "{problem}");
    // A bare king's game is over: not one move at the root, divided or not.
    for profile in ["jcsa", "lishogi"] {
        for divide in [false, true] {
            let mut args = vec![
                "perft",
                "chushogi",
                "--sfen",
                BARE,
                "--depth",
                "1",
                "--profile",
                profile,
            ];
            if divide {
                args.push("--divide");
            }
            let out = stdout(&yorimichi(&args));
            assert!(out.starts_with("depth 1 nodes 0\n"), "{args:?}: {out}");
        }
    }
    // `moves` says who won and lists nothing.
    for profile in Profile::ALL {
        let answer = yorimichi::cli::moves::answer(profile, BARE);
        assert_eq!(answer, "sente BareKing\t", "{profile:?}");
    }
}

#[test]
fn convert_reads_a_mate_problem_as_a_game_still_going() {
    let problem = sfen("kinu01");
    let convert = |to: &str, input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_yorimichi"))
            .args(["convert", "chushogi", "--to", to])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        stdout(&child.wait_with_output().unwrap())
    };
    // Two plies in: nothing has ended.
    let kif = convert(
        "kif",
        &format!("position sfen {problem} moves 10d7d 8e7d\n"),
    );
    assert!(!kif.contains("勝ち"), "{kif}");
    // The collection's mate, a reply and the king taken: 先手 has won.
    let start = ChuPosition::from_sfen_start(problem).unwrap();
    let mut line = moves(
        Profile::Jcsa,
        &start,
        "10d7d 8e7d 4c6a+ 5b6a 6e8c 7d8c 1c6c",
    );
    let mated = line.iter().fold(start.clone(), |p, &m| play(&p, m));
    let mut replies = Vec::new();
    legal_moves_in(Profile::Jcsa, &mated, &mut replies);
    let after = play(&mated, replies[0]);
    let mut captures = Vec::new();
    legal_moves_in(Profile::Jcsa, &after, &mut captures);
    let capture = captures
        .into_iter()
        .find(|&m| outcome_in(Profile::Jcsa, &play(&after, m)).is_some())
        .expect("the king can be taken");
    line.extend([replies[0], capture]);
    check_line(Profile::Jcsa, &start, &line).unwrap();
    let line: Vec<String> = line.iter().map(|m| m.usi()).collect();
    let line = line.join(" ");
    let kif = convert("kif", &format!("position sfen {problem} moves {line}\n"));
    assert!(kif.contains("まで9手で先手の勝ち"), "{kif}");
    // And back: the KIF's diagram is read as the same problem.
    let usi = convert("usi", &kif);
    assert_eq!(usi.trim(), format!("position sfen {problem} moves {line}"));
    // `--position` takes it too.
    let cli = yorimichi::cli::parse([
        "yorimichi",
        "--game",
        "chushogi",
        "--position",
        &format!("position sfen {problem} moves 10d7d"),
    ]);
    assert!(cli.is_ok(), "{cli:?}");
}
