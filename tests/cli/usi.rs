//! `yorimichi usi`: the 中将棋 engine in lishogi's USI dialect, driven by
//! scripted sessions, in process and as the built binary a GUI runs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng, rngs::StdRng};
use yorimichi::cli::usi::run_script;
use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::game::{Chu, ChuRules};
use yorimichi::rules::chu::moves::{ChuMove, parse_usi_in, play};
use yorimichi::rules::chu::position::ChuPosition;
use yorimichi::rules::game::Game;

fn lishogi() -> Chu {
    Chu::new(ChuRules {
        profile: Profile::Lishogi,
    })
}

/// The move of the last `bestmove` line.
fn bestmove(out: &str) -> &str {
    out.lines()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in:\n{out}"))
}

#[test]
fn the_handshake_names_the_engine_and_its_options() {
    let out = run_script("usi\nisready\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("id name Yorimichi"), "{out}");
    assert!(
        lines.contains(&"id author the Yorimichi developers"),
        "{out}"
    );
    assert!(
        lines.contains(&"option name Profile type combo default lishogi var lishogi var jcsa"),
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name USI_Hash type spin")),
        "{out}"
    );
    let usiok = lines.iter().position(|&l| l == "usiok").expect("usiok");
    let readyok = lines.iter().position(|&l| l == "readyok").expect("readyok");
    assert!(usiok < readyok);
}

#[test]
fn go_answers_a_legal_move_with_info_lines() {
    let out = run_script("position startpos moves 7i7h 6d6e\ngo depth 3\n");
    let mut pos = ChuPosition::start();
    for m in ["7i7h", "6d6e"] {
        pos = play(&pos, parse_usi_in(Profile::Lishogi, &pos, m).unwrap());
    }
    let best = bestmove(&out);
    assert!(
        parse_usi_in(Profile::Lishogi, &pos, best).is_ok(),
        "{best} in\n{out}"
    );
    let infos: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "one info line a depth:\n{out}");
    for (i, info) in infos.iter().enumerate() {
        let words: Vec<&str> = info.split_whitespace().collect();
        assert_eq!(words[2], (i + 1).to_string(), "{info}");
        for key in ["seldepth", "score", "nodes", "nps", "time", "pv"] {
            assert!(words.contains(&key), "{key} missing: {info}");
        }
        assert!(words.contains(&"cp") || words.contains(&"mate"), "{info}");
    }
    // The deepest line's principal variation starts with the move played.
    let pv = infos[2].split(" pv ").nth(1).expect("a pv");
    assert_eq!(pv.split_whitespace().next(), Some(best), "{out}");
}

#[test]
fn a_lion_s_two_steps_igui_and_jitto_are_read_as_lishogi_writes_them() {
    // A 先手 lion on 6f, a 後手 pawn next to it on 6e (and a gold, so
    // that taking the pawn leaves 後手 more than a bare king).
    let sfen = "k11/g11/12/12/6p5/6N5/12/12/12/12/12/11K b - 1";
    let game = lishogi();
    let pos = ChuPosition::from_sfen(sfen).unwrap();
    for (moves, wanted) in [
        ("6f6e6d", "a capture then a step"),
        ("6f6e6f", "居食い"),
        ("6f6g6f", "じっと"),
        ("6f7g8h", "two steps through an empty square"),
    ] {
        let mv = parse_usi_in(Profile::Lishogi, &pos, moves).unwrap();
        let after = play(&pos, mv);
        let out = run_script(&format!("position sfen {sfen} moves {moves}\ngo depth 1\n"));
        assert!(!out.contains("info string"), "{wanted}: {out}");
        let reply = bestmove(&out);
        let mut legal = Vec::new();
        game.legal_moves(&after, &mut legal);
        assert!(
            legal.iter().any(|m: &ChuMove| m.usi() == reply),
            "{wanted}: {reply} is not legal after {moves}"
        );
    }
}

#[test]
fn bad_input_is_named_and_changes_nothing() {
    let script = "\
position startpos moves 7i7h 7i7h
position sfen this is not chu
position
go depth x
go sideways
setoption name Profile value hachu
setoption name Colour value red
setoption
flip the board
go depth 1
";
    let out = run_script(script);
    let strings: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(strings.len(), 9, "{out}");
    assert!(
        strings[0].contains("move 2") && strings[0].contains("7i7h"),
        "{}",
        strings[0]
    );
    assert!(
        strings[0].ends_with("the position is unchanged"),
        "{}",
        strings[0]
    );
    assert!(strings[3].contains("\"x\""), "{}", strings[3]);
    assert!(strings[5].contains("hachu"), "{}", strings[5]);
    assert!(strings[8].contains("flip the board"), "{}", strings[8]);
    // The position is still the start: the answer is legal there.
    let best = bestmove(&out);
    assert!(
        parse_usi_in(Profile::Lishogi, &ChuPosition::start(), best).is_ok(),
        "{best}"
    );
}

#[test]
fn the_profile_option_switches_the_rules() {
    // 後手's rook on 6e has just taken 先手's lion (the 先獅子 square);
    // 後手's lion on 3c stands unprotected before 先手's rook. The seed's
    // rules forbid a non-lion only a protected lion now, lishogi's any lion.
    let sfen = "k11/12/9n2/12/6r5/12/12/12/9R2/12/12/11K b 6e 1";
    let take = format!("position sfen {sfen} moves 3i3c\nisready\n");
    let jcsa = run_script(&format!("setoption name Profile value jcsa\n{take}"));
    assert!(!jcsa.contains("info string"), "{jcsa}");
    let lishogi = run_script(&take);
    assert!(lishogi.contains("info string move 1: 3i3c"), "{lishogi}");
    let back = run_script(&format!(
        "setoption name Profile value jcsa\nsetoption name Profile value lishogi\n{take}"
    ));
    assert!(back.contains("info string move 1: 3i3c"), "{back}");
}

#[test]
fn go_infinite_thinks_until_stop_and_a_finished_game_resigns() {
    let out = run_script("position startpos\ngo infinite\nisready\nstop\n");
    let ready = out
        .lines()
        .position(|l| l == "readyok")
        .expect("readyok while thinking");
    let best = out
        .lines()
        .position(|l| l.starts_with("bestmove"))
        .expect("bestmove");
    assert!(
        ready < best,
        "readyok is answered during the search:\n{out}"
    );
    assert!(parse_usi_in(Profile::Lishogi, &ChuPosition::start(), bestmove(&out)).is_ok());
    // Only the 後手 king is left to take.
    let over = run_script(
        "position sfen k11/1G10/12/12/12/12/12/12/12/12/12/11K b - 1 moves 11b12a\ngo depth 2\n",
    );
    assert_eq!(bestmove(&over), "resign", "{over}");
}

#[test]
fn go_searchmoves_reads_only_the_moves_named() {
    // 先手's rook can take an unguarded gold: the search takes it unless
    // told to read only two quiet king steps.
    let sfen = "k11/12/12/12/12/5g6/12/12/12/5R6/12/11K b - 1";
    let free = run_script(&format!("position sfen {sfen}\ngo depth 3\n"));
    assert_eq!(bestmove(&free), "7j7f", "{free}");
    let only = run_script(&format!(
        "position sfen {sfen}\ngo depth 3 searchmoves 1l1k 1l2l\n"
    ));
    assert!(["1l1k", "1l2l"].contains(&bestmove(&only)), "{only}");
    // A move that is not legal here is named and left out.
    let bad = run_script(&format!(
        "position sfen {sfen}\ngo depth 2 searchmoves 1l1k 7j7a+ zz\n"
    ));
    assert!(bad.contains("info string searchmoves 7j7a+"), "{bad}");
    assert!(bad.contains("info string searchmoves zz"), "{bad}");
    assert_eq!(bestmove(&bad), "1l1k", "{bad}");
    let empty = run_script(&format!("position sfen {sfen}\ngo searchmoves\n"));
    assert!(
        empty.contains("info string go searchmoves needs"),
        "{empty}"
    );
}

/// The built binary, spoken to through pipes as a GUI does.
pub(crate) struct Engine {
    pub(crate) child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Engine {
    pub(crate) fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_yorimichi"))
            .arg("usi")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            input,
            output,
        }
    }

    pub(crate) fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`; returns it.
    pub(crate) fn wait_for(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.output.read_line(&mut line).unwrap();
            assert!(n > 0, "the engine closed its output before \"{prefix}\"");
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    }
}

/// With a clock the engine plans as `match` does (no deeper reading begun
/// past 60% of its share, none run past 1.5 shares or half the clock);
/// with byoyomi alone it reads to the end of each move's, since what a
/// move leaves unused is lost.
#[test]
fn the_time_plan_keeps_the_clock_and_spends_the_byoyomi() {
    use yorimichi::cli::usi::clock_time;
    let kept = clock_time(120_000, 0, 0);
    assert!(kept.aim < kept.most, "{kept:?}");
    assert!(kept.most > 5.0 && kept.most < 6.0, "{kept:?}");
    let byoyomi = clock_time(0, 0, 10_000);
    assert_eq!(byoyomi.aim, byoyomi.most);
    assert!(byoyomi.most > 8.5 && byoyomi.most < 10.0, "{byoyomi:?}");
    // A second left and two added a move: 1.5 shares would be 2.4 s, but
    // no more than half the clock and half the increment is read.
    let last_second = clock_time(1_000, 2_000, 0);
    assert!(last_second.most < 1.5, "{last_second:?}");
    assert!(last_second.aim < last_second.most, "{last_second:?}");
}

#[test]
fn a_game_of_200_plies_fed_move_by_move_keeps_the_clock() {
    let game = lishogi();
    let mut engine = Engine::start();
    engine.send("usi");
    engine.wait_for("usiok");
    engine.send("isready");
    engine.wait_for("readyok");
    engine.send("usinewgame");
    // A random game (captures preferred, so that it changes) that does
    // not end within 200 plies; the engine is asked for a move at each.
    let mut rng = StdRng::seed_from_u64(7);
    let mut pos = ChuPosition::start();
    let mut played: Vec<String> = Vec::new();
    // Each side's clock, in milliseconds, and what each move adds.
    let (mut clocks, increment) = ([2000u64, 2000u64], 50u64);
    let mut moves = Vec::new();
    while played.len() < 200 {
        let side = played.len() % 2;
        engine.send(&format!("position startpos moves {}", played.join(" ")));
        let asked = Instant::now();
        engine.send(&format!(
            "go btime {} wtime {} binc {increment} winc {increment}",
            clocks[0], clocks[1]
        ));
        let reply = engine.wait_for("bestmove");
        let used = asked.elapsed();
        let best = reply.trim_start_matches("bestmove ");
        assert!(
            parse_usi_in(Profile::Lishogi, &pos, best).is_ok(),
            "ply {}: {best} is not legal",
            played.len() + 1
        );
        // Its share: well under the clock (the engine plans a thirtieth
        // of it plus most of the increment), with room for a busy machine.
        let share = Duration::from_millis(clocks[side] / 8 + increment + 250);
        assert!(
            used <= share,
            "ply {}: {used:?} with {} ms on the clock",
            played.len() + 1,
            clocks[side]
        );
        clocks[side] = (clocks[side] + increment).saturating_sub(used.as_millis() as u64);
        assert!(
            clocks[side] > 0,
            "ply {}: the clock ran out",
            played.len() + 1
        );
        // The game goes on with a random move that does not end it.
        moves.clear();
        game.legal_moves(&pos, &mut moves);
        let going_on: Vec<ChuMove> = moves
            .iter()
            .copied()
            .filter(|&m| game.outcome(&play(&pos, m)).is_none())
            .collect();
        assert!(!going_on.is_empty(), "the random game is stuck");
        let mv = going_on[rng.random_range(0..going_on.len())];
        pos = play(&pos, mv);
        played.push(mv.usi());
    }
    engine.send("quit");
    let status = engine.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn the_moves_command_answers_each_sfen_with_the_end_and_the_moves() {
    use yorimichi::cli::moves::answer;
    let start = answer(Profile::Lishogi, &ChuPosition::start().to_sfen());
    let (end, moves) = start.split_once('\t').unwrap();
    assert_eq!(end, "ongoing");
    // lishogi's count from the start (its perft 1).
    assert_eq!(moves.split(' ').count(), 36, "{moves}");
    assert!(moves.split(' ').any(|m| m == "7i7h"), "{moves}");
    // 後手's king is taken: 先手 has won and nothing moves.
    let over = answer(
        Profile::Lishogi,
        "G11/p11/12/12/12/12/12/12/12/12/12/11K w - 2",
    );
    assert!(over.starts_with("sente "), "{over}");
    assert!(over.ends_with('\t'), "{over}");
    let bad = answer(Profile::Lishogi, "not a position");
    assert!(bad.starts_with("error\t"), "{bad}");
}

/// `yorimichi match` with the binary itself as the opponent.
fn referee(extra: &[&str], opponent: &str, log: &std::path::Path) -> String {
    let binary = env!("CARGO_BIN_EXE_yorimichi");
    let out = Command::new(binary)
        .args(["match", "chushogi", "--profile", "lishogi", "--log"])
        .arg(log)
        .args(["--opponent", &format!("{binary} {opponent}")])
        .args(extra)
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// Every logged game replays move by move under lishogi's rules.
fn replay_log(log: &std::path::Path, games: usize) {
    let text = std::fs::read_to_string(log).unwrap();
    let mut replayed = 0;
    for line in text.lines() {
        let Some(moves) = line.strip_prefix("moves: ") else {
            continue;
        };
        let mut pos = ChuPosition::start();
        for (i, m) in moves.split_whitespace().enumerate() {
            let mv = parse_usi_in(Profile::Lishogi, &pos, m)
                .unwrap_or_else(|e| panic!("game {}, ply {}: {e}", replayed + 1, i + 1));
            pos = play(&pos, mv);
        }
        replayed += 1;
    }
    assert_eq!(replayed, games, "{text}");
}

#[test]
fn a_match_against_the_usi_engine_completes_with_every_move_legal() {
    let dir = std::env::temp_dir().join(format!("yorimichi-usi-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("games.txt");
    let _ = std::fs::remove_file(&log);
    let out = referee(
        &[
            "--protocol",
            "usi",
            "--games",
            "20",
            "--st",
            "0.02",
            "--max-plies",
            "60",
        ],
        "usi",
        &log,
    );
    assert!(out.contains("not scored 0"), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        20,
        "{out}"
    );
    replay_log(&log, 20);
    // Real clocks: both engines are told them and keep within them.
    let _ = std::fs::remove_file(&log);
    let out = referee(
        &[
            "--protocol",
            "usi",
            "--games",
            "2",
            "--tc",
            "20/3",
            "--max-plies",
            "50",
        ],
        "usi",
        &log,
    );
    assert!(out.contains("not scored 0"), "{out}");
    assert!(!out.contains("clock ran out"), "{out}");
    replay_log(&log, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A USI opponent in `dir` that answers the handshake, then never a `go`.
fn silent_opponent(dir: &std::path::Path) -> std::path::PathBuf {
    let script = dir.join("silent.sh");
    std::fs::write(
        &script,
        "while read line; do case $line in usi) echo usiok;; isready) echo readyok;; esac; done\n",
    )
    .unwrap();
    script
}

/// An opponent that stops answering spoils only its game: it is reported
/// as not scored, and the log keeps the moves played until then, so that
/// the game can be replayed.
#[test]
fn a_game_the_opponent_stops_answering_is_logged_with_its_moves() {
    let dir = std::env::temp_dir().join(format!("yorimichi-silent-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("games.txt");
    let silent = silent_opponent(&dir);
    let binary = env!("CARGO_BIN_EXE_yorimichi");
    let out = Command::new(binary)
        .args(["match", "chushogi", "--profile", "lishogi", "--log"])
        .arg(&log)
        .args(["--opponent", &format!("sh {}", silent.display())])
        .args(["--protocol", "usi", "--games", "1", "--st", "0.02"])
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("not scored 1"), "{text}");
    assert!(text.contains("in time at ply 5"), "{text}");
    let logged = std::fs::read_to_string(&log).unwrap();
    let moves = logged
        .lines()
        .find_map(|l| l.strip_prefix("moves: "))
        .expect("a moves line");
    // The seeded opening's four pawn steps and the engine's first move
    // (its side is 先手 in game 1); the opponent never answered.
    assert_eq!(moves.split_whitespace().count(), 5, "{logged}");
    replay_log(&log, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An opponent that is mated may stop answering (HaChu does): the game is
/// its loss, not a spoiled game. The opening replays HaChu's game 3 of the
/// seed-61 series to the position where it was mated and sent no move.
#[test]
fn a_mated_opponent_that_stops_answering_loses() {
    let dir = std::env::temp_dir().join(format!("yorimichi-mated-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/matches/hachu-40-120-824952f.log"
    );
    let record = std::fs::read_to_string(record).unwrap();
    let mut lines = record.lines().skip_while(|l| !l.starts_with("game 3 "));
    let moves = lines
        .find_map(|l| l.strip_prefix("moves: "))
        .expect("game 3's moves");
    assert_eq!(moves.split_whitespace().count(), 311);
    let silent = silent_opponent(&dir);
    let binary = env!("CARGO_BIN_EXE_yorimichi");
    let run = |opening: &str| {
        Command::new(binary)
            .args(["match", "chushogi", "--profile", "lishogi"])
            .args(["--opponent", &format!("sh {}", silent.display())])
            .args(["--protocol", "usi", "--games", "1", "--st", "0.02"])
            .args(["--max-plies", "400", "--opening", opening])
            .output()
            .expect("the binary runs")
    };
    // Game 1: this engine is 先手, as it was; 後手 is to move, and mated.
    let out = run(moves);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("the opponent is mated and sent no move"),
        "{text}"
    );
    assert!(text.contains("Yorimichi won 1 · lost 0"), "{text}");
    // An illegal opening is refused, naming the move.
    let out = run("7i7h 7i7h");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--opening: move 2 (7i7h)"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A CECP engine may claim a result instead of moving: conceding the game
/// is resigning; claiming a win the referee has not seen is a dispute.
#[test]
fn a_claimed_result_is_read_as_a_resignation_or_a_dispute() {
    let dir = std::env::temp_dir().join(format!("yorimichi-claim-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("games.txt");
    let binary = env!("CARGO_BIN_EXE_yorimichi");
    // In game 1 the opponent is 後手, XBoard's black: "1-0" concedes.
    for (claim, expected) in [
        (
            "1-0 {resign}",
            "Yorimichi won 1 · lost 0 · draws 0 · not scored 0",
        ),
        (
            "0-1 {Black mates}",
            "Yorimichi won 0 · lost 0 · draws 0 · not scored 1",
        ),
        (
            "1/2-1/2 {repetition}",
            "Yorimichi won 0 · lost 0 · draws 0 · not scored 1",
        ),
    ] {
        let script = dir.join("claims.sh");
        std::fs::write(
            &script,
            format!(
                "while read line; do case $line in protover*) echo 'feature done=1';; \
                 go) echo '{claim}';; esac; done\n"
            ),
        )
        .unwrap();
        let out = Command::new(binary)
            .args(["match", "chushogi", "--profile", "lishogi", "--log"])
            .arg(&log)
            .args(["--opponent", &format!("sh {}", script.display())])
            .args(["--games", "1", "--st", "0.02"])
            .output()
            .expect("the binary runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{text}");
        assert!(text.contains(expected), "{claim}: {text}");
        if expected.contains("not scored 1") {
            assert!(text.contains(&format!("claimed {claim}")), "{text}");
        } else {
            assert!(text.contains("the opponent resigned"), "{text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_against_the_cecp_engine_sets_its_profile_and_clock() {
    let dir = std::env::temp_dir().join(format!("yorimichi-cecp-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("games.txt");
    let out = referee(
        &["--games", "2", "--tc", "20/3", "--max-plies", "50"],
        "engine",
        &log,
    );
    assert!(out.contains("not scored 0"), "{out}");
    assert!(!out.contains("clock ran out"), "{out}");
    replay_log(&log, 2);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("protocol=cecp profile=lishogi tc 20/3"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match begun at a later game plays that game as the whole series
/// would: the same seeded opening, the same sides.
#[test]
fn a_match_can_begin_at_a_later_game_of_its_series() {
    let dir = std::env::temp_dir().join(format!("yorimichi-first-game-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = |log: &std::path::Path| -> Vec<(String, String)> {
        let text = std::fs::read_to_string(log).unwrap();
        let heads = text.lines().filter(|l| l.starts_with("game "));
        let moves = text.lines().filter(|l| l.starts_with("moves: "));
        heads
            .zip(moves)
            .map(|(h, m)| {
                let head = h.split(" opponent=").next().unwrap_or(h).to_string();
                (head, m.to_string())
            })
            .collect()
    };
    let plain = [
        "--protocol",
        "usi",
        "--st",
        "0.02",
        "--max-plies",
        "8",
        "--seed",
        "7",
    ];
    let whole = dir.join("whole.txt");
    referee(&[&plain[..], &["--games", "3"]].concat(), "usi", &whole);
    let later = dir.join("later.txt");
    referee(
        &[&plain[..], &["--games", "1", "--first-game", "2"]].concat(),
        "usi",
        &later,
    );
    let (whole, later) = (games(&whole), games(&later));
    assert_eq!(whole.len(), 3);
    assert_eq!(later.len(), 1);
    assert_eq!(later[0].0, "game 2 Yorimichi=後手");
    // The seeded opening (two pawn steps a side) is game 2's.
    let opening = |m: &String| {
        m.split_whitespace()
            .take(5)
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(opening(&later[0].1), opening(&whole[1].1));
    assert_ne!(opening(&whole[0].1), opening(&whole[1].1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The USI session (shared by `yorimichi usi` and the web worker) plays
/// the game as `yorimichi engine`'s default style values it.
#[test]
fn the_usi_session_plays_the_engine_s_style() {
    use yorimichi::cli::engine::Style;
    use yorimichi::rules::chu::usi::engine_game;
    for profile in Profile::ALL {
        assert_eq!(
            format!("{:?}", engine_game(profile)),
            format!("{:?}", Style::ENGINE.game(ChuRules { profile }))
        );
    }
}

/// A session whose clock never moves, its output so far as text.
fn fresh_session() -> (yorimichi::rules::chu::usi::UsiSession, Vec<u8>) {
    use yorimichi::rules::chu::usi::UsiSession;
    (UsiSession::new(Box::new(|| 0.0)), Vec::new())
}

/// `out` without the clock's figures, one line a line.
fn readings(out: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| {
            let mut words: Vec<&str> = l.split(' ').collect();
            for field in ["nps", "time"] {
                if let Some(i) = words.iter().position(|w| *w == field) {
                    words.drain(i..(i + 2).min(words.len()));
                }
            }
            words.join(" ")
        })
        .collect()
}

/// The web worker's way of thinking: a session fed line by line that
/// thinks in slices (here ending at every other stop check) says what one
/// thinking in one piece says, answers `isready` at once while it thinks,
/// and ends `go infinite` on the `stop` that comes between slices.
#[test]
fn a_session_thinking_in_slices_says_what_one_piece_says() {
    use yorimichi::rules::chu::usi::Polled;
    let kinu01 = "5ex1+Pc2/6okt3/3s4X2+H/2+D9/3p+v1+Dpt3/12/12/2+a6q2/12/12/12/12 b - 1";
    let script = [
        "position startpos moves 7i7h 6d6e".to_string(),
        "go depth 5".to_string(),
        format!("position sfen {kinu01}"),
        "go mate infinite".to_string(),
    ];
    let mut answers = Vec::new();
    for sliced in [false, true] {
        let (session, mut out) = fresh_session();
        let mut session = if sliced { session.in_slices() } else { session };
        let mut slices = 0;
        for line in &script {
            session.input(line, &mut out).expect("memory");
            while session.busy() {
                slices += 1;
                let mut checks = 0;
                let mut slice_over = || {
                    checks += 1;
                    sliced && checks % 2 == 0
                };
                session
                    .think(&mut || Polled::Nothing, &mut slice_over, &mut out)
                    .expect("memory");
            }
        }
        assert!(slices > if sliced { 20 } else { 0 }, "{slices} slices");
        answers.push(readings(&out));
    }
    // The mate solver reads a few more positions in slices; its line is
    // the same.
    let without_mate_nodes = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| !l.starts_with("info nodes"))
            .cloned()
            .collect()
    };
    assert_eq!(
        without_mate_nodes(&answers[0]),
        without_mate_nodes(&answers[1])
    );
    assert!(
        answers[1].iter().any(|l| l.starts_with("checkmate 10d7d")),
        "{:?}",
        answers[1]
    );
    assert!(
        answers[1].iter().any(|l| l.starts_with("info depth 5 ")),
        "{:?}",
        answers[1]
    );

    let (session, mut out) = fresh_session();
    let mut session = session.in_slices();
    session.input("go infinite", &mut out).expect("memory");
    for _ in 0..5 {
        session
            .think(&mut || Polled::Nothing, &mut || true, &mut out)
            .expect("memory");
    }
    assert!(session.busy());
    out.clear();
    session.input("isready", &mut out).expect("memory");
    assert_eq!(readings(&out), ["readyok"]);
    session
        .input("position startpos", &mut out)
        .expect("memory");
    session.input("stop", &mut out).expect("memory");
    session
        .think(&mut || Polled::Nothing, &mut || false, &mut out)
        .expect("memory");
    let said = readings(&out);
    assert!(!session.busy() && session.idle(), "{said:?}");
    assert!(
        said.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{said:?}"
    );
}
