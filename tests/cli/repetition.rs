//! 千日手 under the JCSA rules in every command that takes 中将棋 moves:
//! the side that must change its moves may not make a position's fourth
//! occurrence (`usi`, `convert`, `engine`, `match`), and a fourth
//! occurrence made by the other side ends the game drawn. The positions are
//! the tutorial's 千日手 steps (levels/tutorials/chushogi.ron).

use std::process::{Command, Stdio};

use yorimichi::cli::convert::{ConvertArgs, Form, convert};
use yorimichi::cli::usi::run_script;
use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::kif::ChuKif;
use yorimichi::rules::chu::moves::{parse_usi, play};
use yorimichi::rules::chu::position::ChuPosition;
use yorimichi::rules::chu::record::ChuGameText;
use yorimichi::rules::chu::xboard::move_text;
use yorimichi::rules::data::GameId;

/// The tutorial's step 「千日手」: 先手's free king has checked from 5二 and
/// 後手's king escaped round the same circle three times; 5二→5一 would
/// make the fourth occurrence, and the side giving check must change.
const CHECKING: &str = "7Q3k/12/12/12/7s3g/12/12/12/10G1/12/12/5K6 w - 1";
const CHECKS: &str = "1a1b 5a5b 1b1a 5b5a 1a1b 5a5b 1b1a 5b5a 1a1b 5a5b 1b1a";
const REPEATED_CHECK: &str = "5b5a";

/// The step 「千日手: じっとを続けたとき」: the lions pass in turn, 後手's
/// first; 先手's next pass makes the fourth occurrence, which 先手 may make
/// (後手 began and must change), and the game is drawn.
const PASSING: &str = "11k/12/12/12/5n6/12/12/5N6/12/12/12/K11 w - 1";
const PASSES: &str = "7e7d7e 7h7i7h 7e7d7e 7h7i7h 7e7d7e";
const LAST_PASS: &str = "7h7i7h";

fn jcsa(to: Form) -> ConvertArgs {
    ConvertArgs {
        game: GameId::ChuShogi,
        to,
        profile: Profile::Jcsa,
    }
}

#[test]
fn usi_refuses_the_fourth_occurrence_and_never_plays_it() {
    let setup = "setoption name Profile value jcsa\n";
    let refused = run_script(&format!(
        "{setup}position sfen {CHECKING} moves {CHECKS} {REPEATED_CHECK}\n"
    ));
    assert!(
        refused.contains("info string move 12 (5b5a): 千日手: 先手 must change its moves"),
        "{refused}"
    );
    assert!(refused.contains("the position is unchanged"), "{refused}");
    // Named alone in searchmoves, it is left out and another move is played.
    let out = run_script(&format!(
        "{setup}position sfen {CHECKING} moves {CHECKS}\ngo depth 3 searchmoves {REPEATED_CHECK}\n"
    ));
    assert!(
        out.contains("info string searchmoves 5b5a: 千日手"),
        "{out}"
    );
    let best = out
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in:\n{out}"));
    assert_ne!(best, REPEATED_CHECK, "{out}");
    assert_ne!(best, "resign", "{out}");
    // lishogi's rules ask no side to change: the move is read.
    let lishogi = run_script(&format!(
        "position sfen {CHECKING} moves {CHECKS} {REPEATED_CHECK}\n"
    ));
    assert!(!lishogi.contains("info string"), "{lishogi}");
}

#[test]
fn convert_refuses_the_fourth_occurrence_and_ends_a_drawn_repetition() {
    let text = format!("position sfen {CHECKING} moves {CHECKS} {REPEATED_CHECK}");
    let err = convert(&jcsa(Form::Kif), &text).expect_err("the 12th move is refused");
    assert!(err.contains("move 12 (5b5a): 千日手"), "{err}");
    // The other side's fourth occurrence is a draw, written as 千日手.
    let drawn = format!("position sfen {PASSING} moves {PASSES} {LAST_PASS}");
    let kif = convert(&jcsa(Form::Kif), &drawn).expect("the last pass is allowed");
    assert!(kif.contains("千日手"), "{kif}");
    // Read back, the record keeps its end and refuses nothing.
    let again = convert(&jcsa(Form::Usi), &kif).expect("the KIF reads back");
    assert!(again.trim_end().ends_with(LAST_PASS), "{again}");
    // A KIF that goes on with the forbidden check is refused at its line.
    let start = ChuPosition::from_sfen_start(CHECKING).unwrap();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for word in CHECKS.split(' ').chain([REPEATED_CHECK]) {
        let mv = parse_usi(&pos, word).unwrap();
        moves.push(mv);
        pos = play(&pos, mv);
    }
    let longer = ChuKif::new(ChuGameText { start, moves }).write();
    let err = convert(&jcsa(Form::Usi), &longer).expect_err("the KIF's 12th move is refused");
    assert!(err.contains("千日手"), "{err}");
}

#[test]
fn the_cecp_engine_refuses_the_fourth_occurrence() {
    let mut script = format!("new\nvariant chu\nforce\nsetboard {CHECKING}\n");
    let mut pos = ChuPosition::from_sfen_start(CHECKING).unwrap();
    for word in CHECKS.split(' ').chain([REPEATED_CHECK]) {
        let mv = parse_usi(&pos, word).unwrap();
        script.push_str(&format!("usermove {}\n", move_text(&pos, mv)));
        pos = play(&pos, mv);
    }
    let out = yorimichi::cli::engine::run_script(&script);
    let refused: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Illegal move"))
        .collect();
    assert_eq!(refused.len(), 1, "{out}");
    assert!(
        refused[0].contains("千日手: 先手 must change its moves"),
        "{out}"
    );
}

#[test]
fn match_scores_an_opponent_that_makes_the_forbidden_fourth_occurrence() {
    // Both leopards step out and back: nothing is attacked, so the side
    // whose move would make the fourth occurrence must change (後手 here,
    // at its twelfth ply). The opponent is a stand-in USI engine that
    // always plays that move.
    let dir = std::env::temp_dir().join(format!("yorimichi-sennichite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("stubborn.sh");
    std::fs::write(
        &script,
        "while read -r line; do case \"$line\" in\n\
         usi) echo usiok ;;\n\
         isready) echo readyok ;;\n\
         go*) echo 'bestmove 11b11a' ;;\n\
         quit) exit 0 ;;\n\
         esac; done\n",
    )
    .unwrap();
    let opening = "11l11k 11a11b 11k11l 11b11a 11l11k 11a11b 11k11l 11b11a 11l11k 11a11b 11k11l";
    let out = Command::new(env!("CARGO_BIN_EXE_yorimichi"))
        .args([
            "match",
            "chushogi",
            "--protocol",
            "usi",
            "--profile",
            "jcsa",
        ])
        .args(["--games", "1", "--st", "0.1", "--opening", opening])
        .args(["--opponent", &format!("sh {}", script.display())])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("Yorimichi=先手 Yorimichi wins (the opponent played 11b11a, a fourth occurrence that 千日手 forbids it) after 11 plies"),
        "{text}"
    );
}
