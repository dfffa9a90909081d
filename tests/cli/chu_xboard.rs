//! 中将棋 in XBoard's notation and the CECP engine (issue 6).

use yorimichi::cli::engine::{Style, run_script};
use yorimichi::cli::referee::{MatchArgs, Protocol, TimeControl, lion_alone_now};
use yorimichi::cli::{Cli, Command, Switch, parse};
use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::moves::{parse_usi, play};
use yorimichi::rules::chu::position::{ChuPosition, Square};
use yorimichi::rules::chu::xboard::{engine_lines, move_text, parse_move, parse_square, square};
use yorimichi::rules::data::GameId;

fn sq(usi: &str) -> Square {
    Square::parse(usi).unwrap()
}

#[test]
fn squares_map_between_usi_and_xboard() {
    for (usi, xb) in [("7i", "f4"), ("1a", "l12"), ("12l", "a1"), ("5e", "h8")] {
        assert_eq!(square(sq(usi)), xb, "{usi}");
        assert_eq!(parse_square(xb), Some(sq(usi)), "{xb}");
    }
    for bad in ["m1", "a0", "a13", "", "11", "A1"] {
        assert_eq!(parse_square(bad), None, "{bad}");
    }
}

#[test]
fn moves_are_written_as_hachu_reads_them() {
    let start = ChuPosition::start();
    // 先手's first pawn step.
    let pawn = parse_usi(&start, "7i7h").unwrap();
    assert_eq!(move_text(&start, pawn), "f4f5");
    assert_eq!(parse_move(Profile::Jcsa, &start, "f4f5"), Ok(pawn));

    // A lone lion in the middle: a leap, a route through an empty square
    // (written as the leap), and じっと (XBoard's null move, which HaChu
    // matches to the one pass it lists; read as two legs or one square too).
    let pos = ChuPosition::from_sfen("k11/12/12/12/12/6N5/12/12/12/12/12/11K b - 1").unwrap();
    let leap = parse_usi(&pos, "6f6d").unwrap();
    assert_eq!(move_text(&pos, leap), "g7g9");
    let route = parse_usi(&pos, "6f6e6d").unwrap();
    assert_eq!(move_text(&pos, route), "g7g9");
    let jitto = parse_usi(&pos, "6f6e6f").unwrap();
    assert_eq!(move_text(&pos, jitto), "@@@@");
    assert_eq!(parse_move(Profile::Jcsa, &pos, "g7g8,g8g7"), Ok(jitto));
    let pass = parse_move(Profile::Jcsa, &pos, "g7g7").unwrap();
    assert_eq!(play(&pos, pass).to_sfen(), play(&pos, jitto).to_sfen());
    // HaChu's null move names no piece: any じっと, the same position.
    let null = parse_move(Profile::Lishogi, &pos, "@@@@").unwrap();
    assert_eq!(play(&pos, null).to_sfen(), play(&pos, jitto).to_sfen());
    // Without a piece that can pass, it is refused.
    let e = parse_move(Profile::Lishogi, &ChuPosition::start(), "@@@@").unwrap_err();
    assert!(e.contains("no piece can pass"), "{e}");
    // 居食い keeps its two legs.
    let igui_pos = ChuPosition::from_sfen("k11/12/12/12/6p5/6N5/12/12/12/12/12/11K b - 1").unwrap();
    let igui = parse_usi(&igui_pos, "6f6e6f").unwrap();
    assert_eq!(move_text(&igui_pos, igui), "g7g8,g8g7");
    // An engine sends the legs in two lines; the first alone is not a move.
    assert!(
        parse_move(Profile::Jcsa, &pos, "g7g8,")
            .unwrap_err()
            .contains("still to come")
    );
    assert_eq!(
        engine_lines("g7g8,g8g7"),
        vec!["move g7g8,".to_string(), "move g8g7".to_string()]
    );
    assert_eq!(engine_lines("f4f5"), vec!["move f4f5".to_string()]);
    // Two legs through an empty square read as that route.
    assert_eq!(parse_move(Profile::Jcsa, &pos, "g7g8,g8g9"), Ok(route));

    // A pawn entering the zone may promote: `+` if it does, `=` if not.
    let pos = ChuPosition::from_sfen("k11/12/12/12/6P5/12/12/12/12/12/12/11K b - 1").unwrap();
    let up = parse_usi(&pos, "6e6d+").unwrap();
    let stay = parse_usi(&pos, "6e6d").unwrap();
    assert_eq!(move_text(&pos, up), "g8g9+");
    assert_eq!(move_text(&pos, stay), "g8g9=");
    assert_eq!(parse_move(Profile::Jcsa, &pos, "g8g9="), Ok(stay));
    assert_eq!(parse_move(Profile::Jcsa, &pos, "g8g9+"), Ok(up));

    for (bad, says) in [
        ("g8", "not an XBoard move"),
        ("z1z2", "not an XBoard move"),
        ("g7g8,g9g8", "must start where the first ends"),
        ("a1a2", "not a legal move"),
    ] {
        let e = parse_move(Profile::Jcsa, &ChuPosition::start(), bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn the_engine_speaks_cecp() {
    let out = run_script(
        "xboard\nprotover 2\nping 7\nnew\nvariant chu\nst 0.2\nforce\nusermove f4f5\nusermove z9z9\ngo\n",
    );
    assert!(out.contains("feature") && out.contains("variants=\"chu\"") && out.contains("done=1"));
    assert!(out.contains("pong 7"));
    assert!(out.contains("Illegal move: z9z9"));
    // After `go` the engine answers 先手's pawn step as 後手.
    let reply = out
        .lines()
        .find_map(|l| l.strip_prefix("move "))
        .expect("a move");
    let after = parse_usi(&ChuPosition::start(), "7i7h").unwrap();
    let pos = play(&ChuPosition::start(), after);
    assert!(parse_move(Profile::Jcsa, &pos, reply).is_ok(), "{reply}");
    let out = run_script("variant shogi\nfoo\nsetboard nonsense\n");
    assert!(out.contains("Error (only variant chu)"));
    assert!(out.contains("Error (unknown command): foo"));
    assert!(out.contains("Illegal position"));
    // The rules' profile is an option the GUI (or `match`) sets.
    let out =
        run_script("protover 2\noption Profile=lishogi\noption Profile=hachu\noption Colour=red\n");
    assert!(
        out.contains("option=\"Profile -combo *jcsa /// lishogi\""),
        "{out}"
    );
    assert!(
        out.contains("Error (Profile is jcsa or lishogi): option Profile=hachu"),
        "{out}"
    );
    assert!(
        out.contains("Error (unknown option): option Colour=red"),
        "{out}"
    );
    assert_eq!(out.matches("Error").count(), 2, "{out}");
    // After losing its lion to a rook, 先手 takes an unprotected lion with
    // its own rook: the seed's rules allow it, lishogi's do not.
    let take = "force\nsetboard k11/12/9n2/12/6r5/12/12/12/9R2/12/12/11K b 6e 1\nusermove j4j10\n";
    assert!(!run_script(take).contains("Illegal move"));
    let out = run_script(&format!("option Profile=lishogi\n{take}"));
    assert!(out.contains("Illegal move: j4j10"), "{out}");
    // `quit` ends the session: nothing after it is read.
    assert_eq!(run_script("quit\nping 1\n"), "");
}

#[test]
fn engine_and_match_commands_parse() {
    let args = |s: &str| {
        std::iter::once("yorimichi")
            .chain(s.split_whitespace())
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let command = |v: &[String]| parse(v).map(|cli| cli.command).map_err(|e| e.to_string());
    assert_eq!(command(&args("engine")), Ok(Some(Command::Engine)));
    assert!(parse(args("engine now")).is_err());
    let mut v = args("match chushogi --games 4 --st 0.5 --seed 3 --opponent");
    v.push("/usr/games/hachu -x".into());
    assert_eq!(
        command(&v),
        Ok(Some(Command::Match(MatchArgs {
            game: GameId::ChuShogi,
            opponent: "/usr/games/hachu -x".into(),
            games: 4,
            first_game: 1,
            protocol: Protocol::Cecp,
            st: 0.5,
            tc: None,
            log: None,
            max_plies: 300,
            opening: None,
            seed: 3,
            profile: Profile::Jcsa,
            check_boards: false,
            style: Style::ENGINE,
        })))
    );
    assert!(matches!(
        command(&args(
            "match chushogi --opponent x --max-plies 40 --profile lishogi --check-boards \
             --first-game 2"
        )),
        Ok(Some(Command::Match(MatchArgs {
            games: 2,
            first_game: 2,
            st: 1.0,
            max_plies: 40,
            seed: 1,
            profile: Profile::Lishogi,
            check_boards: true,
            ..
        })))
    ));
    assert!(matches!(
        command(&args(
            "match chushogi --opponent x --protocol usi --tc 40/120"
        )),
        Ok(Some(Command::Match(MatchArgs {
            protocol: Protocol::Usi,
            tc: Some(TimeControl {
                moves: 40,
                seconds: 120.0
            }),
            ..
        })))
    ));
    for bad in [
        "--tc 40",
        "--tc 0/120",
        "--tc 40/-1",
        "--protocol uci",
        "--lion-alone 101",
        "--lion-alone -1",
    ] {
        assert!(
            command(&args(&format!("match chushogi --opponent x {bad}"))).is_err(),
            "{bad}"
        );
    }
    let style = |v: &[String]| match parse(v) {
        Ok(Cli {
            command: Some(Command::Match(MatchArgs { style, .. })),
            ..
        }) => style,
        other => panic!("{other:?}"),
    };
    let mut v = args("match chushogi --null-move off --opponent x");
    assert_eq!(
        style(&v),
        Style {
            null_move: Switch::Off,
            reductions: Switch::On,
            futility: Switch::On,
            contempt: Switch::On,
            no_repeats: false,
            hachu_promotions: false,
            knows_cap: Switch::Off,
            lion_alone: 0,
            king_shelter: Switch::On,
            unsettled_time: Switch::On,
            mate_search: Switch::Off,
            mate_probes: Switch::Off,
            // A match's own side claims the bare king: the referee judges it.
            plays_out_bare_king: false,
        }
    );
    v[4] = "on".into();
    v.push("--no-repeats".into());
    v.push("--hachu-promotions".into());
    v.extend(
        [
            "--reductions",
            "off",
            "--futility",
            "off",
            "--contempt",
            "off",
            "--lion-alone",
            "10",
            "--knows-cap",
            "on",
            "--king-shelter",
            "off",
            "--unsettled-time",
            "off",
            "--mate-search",
            "on",
            "--mate-probes",
            "on",
        ]
        .map(String::from),
    );
    assert_eq!(
        style(&v),
        Style {
            null_move: Switch::On,
            reductions: Switch::Off,
            futility: Switch::Off,
            contempt: Switch::Off,
            no_repeats: true,
            hachu_promotions: true,
            knows_cap: Switch::On,
            lion_alone: 10,
            king_shelter: Switch::Off,
            unsettled_time: Switch::Off,
            mate_search: Switch::On,
            mate_probes: Switch::On,
            plays_out_bare_king: false,
        }
    );
    v[4] = "maybe".into();
    let e = parse(&v).unwrap_err().to_string();
    assert!(
        e.contains("invalid value 'maybe' for '--null-move <ON|OFF>'"),
        "{e}"
    );
    for (input, says) in [
        ("match chushogi --games 2", "--opponent <COMMAND>"),
        ("match hasami --opponent x", "only chushogi"),
        ("match chushogi --opponent x --st 0", "positive number"),
        ("match chushogi --opponent x --st x", "positive number"),
        (
            "match chushogi --opponent x --games 0",
            "positive whole number",
        ),
        (
            "match chushogi --opponent x --max-plies 0",
            "positive whole number",
        ),
        (
            "match chushogi --opponent x --seed 0",
            "positive whole number",
        ),
    ] {
        let e = parse(args(input)).unwrap_err().to_string();
        assert!(e.contains(says), "{input}: {e}");
    }
    // A negative number is not read as a value.
    assert!(parse(args("match chushogi --opponent x --st -1")).is_err());
    // The command that starts the opponent must say something.
    let mut v = args("match chushogi --opponent");
    v.push("  ".into());
    let e = parse(&v).unwrap_err().to_string();
    assert!(e.contains("needs the command"), "{e}");
}

#[test]
fn the_engine_can_be_told_never_to_repeat_a_position() {
    use yorimichi::cli::engine::{MoveTime, think};
    use yorimichi::rules::chu::game::Chu;
    use yorimichi::rules::game::Game;
    let chu = Chu::default();
    // 先手's rook can take 後手's lion on 7f: the one good move.
    let pos = ChuPosition::from_sfen("k11/12/12/12/12/5n6/12/12/12/5R6/12/11K b - 1").unwrap();
    let style = Style {
        no_repeats: false,
        ..Style::ENGINE
    };
    let best = think(&chu, &[pos.key()], &pos, &[], MoveTime::fixed(0.2), style).expect("a move");
    assert_eq!(best.usi(), "7j7f");
    // Had the game already seen the position it makes, the engine told not
    // to repeat plays another move, which makes a position not seen yet.
    let seen = [chu.play(&pos, best).key(), pos.key()];
    let other = think(
        &chu,
        &seen,
        &pos,
        &[],
        MoveTime::fixed(0.2),
        Style {
            no_repeats: true,
            ..style
        },
    )
    .expect("a move");
    assert_ne!(other, best);
    assert!(!seen.contains(&chu.play(&pos, other).key()));
}

#[test]
fn the_lone_lion_premium_fades_out_before_the_move_cap() {
    // Whole until a hundred plies are left, nothing in the last twenty,
    // where the seed's points alone decide.
    assert_eq!(lion_alone_now(10, 400), 1000);
    assert_eq!(lion_alone_now(10, 100), 1000);
    assert_eq!(lion_alone_now(10, 60), 500);
    assert_eq!(lion_alone_now(10, 20), 0);
    assert_eq!(lion_alone_now(10, 0), 0);
    assert_eq!(lion_alone_now(0, 400), 0);
}

#[test]
fn an_unsettled_move_may_begin_a_new_iteration_later() {
    use yorimichi::cli::engine::MoveTime;
    let time = MoveTime::within(10.0, 100.0);
    let start = ChuPosition::start();
    let (a, b) = (
        parse_usi(&start, "7i7h").expect("a move"),
        parse_usi(&start, "6i6h").expect("a move"),
    );
    let settled = time.aim;
    assert_eq!(settled, 6.0);
    // The first iteration has nothing to be compared with.
    assert_eq!(time.aim_after(None, Some((a, 50))), settled);
    // The same move, its value level, risen or fallen by no more than 0.3
    // pawn: settled.
    assert_eq!(time.aim_after(Some((a, 50)), Some((a, 50))), settled);
    assert_eq!(time.aim_after(Some((a, 50)), Some((a, 400))), settled);
    assert_eq!(time.aim_after(Some((a, 50)), Some((a, 20))), settled);
    // Another move, or the value fallen further: twice the aim.
    assert_eq!(time.aim_after(Some((a, 50)), Some((b, 50))), 12.0);
    assert_eq!(time.aim_after(Some((a, 50)), Some((a, 19))), 12.0);
    // Never past the most the move may take.
    let short = MoveTime::within(10.0, 9.0);
    assert_eq!(short.aim_after(Some((a, 50)), Some((b, 50))), 9.0);
    // A fixed time per move is the aim and the most at once.
    let fixed = MoveTime::fixed(2.0);
    assert_eq!(fixed.aim_after(Some((a, 50)), Some((b, 50))), 2.0);
}

/// The engine's move in `sfen`, reading a cap at `cap` plies if given.
fn move_with_cap(sfen: &str, cap: Option<u32>) -> String {
    use yorimichi::cli::engine::{MoveTime, think};
    use yorimichi::rules::chu::game::Chu;
    let pos = ChuPosition::from_sfen(sfen).expect("a position");
    let chu = Chu {
        move_cap: cap,
        ..Chu::default()
    };
    let time = MoveTime::fixed(0.3);
    think(&chu, &[pos.key()], &pos, &[], time, Style::ENGINE)
        .expect("a move")
        .usi()
}

#[test]
fn an_engine_that_knows_the_move_cap_takes_what_no_reply_can_win_back() {
    // The last move before a cap at 400 plies: 先手's 飛車 and 銀将 (12.9
    // points) against 後手's 飛車, 金将 and 歩兵 (14.9). Taking the 金将, which
    // the 歩兵 guards, loses the 飛車 in a game that goes on, and wins the
    // game on points at the cap.
    let board = "k10r/12/12/6p5/6g5/12/12/12/12/6R5/12/K8S2 b -";
    let last = format!("{board} 400");
    assert_eq!(move_with_cap(&last, Some(400)), "6j6e");
    assert_ne!(move_with_cap(&last, None), "6j6e");
    // A ply earlier the 歩兵 has its reply before the cap.
    assert_ne!(move_with_cap(&format!("{board} 399"), Some(400)), "6j6e");
}

#[test]
fn an_engine_that_knows_the_move_cap_still_plays_for_the_larger_lead() {
    // The last move before the cap, 先手 ahead whatever it plays (27.0
    // points to 15.9): the 歩兵 on 3k is free, the 金将 the 歩兵 on 6d
    // guards is worth more, and no reply comes.
    let last = "k10r/12/12/6p5/6g5/12/12/12/12/6R5/9p2/K8SQ1 b - 400";
    assert_eq!(move_with_cap(last, Some(400)), "6j6e");
}

#[test]
fn the_engine_offers_what_match_knows_as_cecp_options() {
    // Every switch with its default, and the lone lion's premium.
    let out = run_script("protover 2\n");
    for option in [
        "Profile -combo *jcsa /// lishogi",
        "No repeats -check 0",
        "HaChu promotions -check 0",
        "King shelter -check 1",
        "Unsettled time -check 1",
        "Mate search -check 0",
        "Mate probes -check 0",
        "Play out bare king -check 1",
        "Contempt -check 1",
        "Null move -check 1",
        "Reductions -check 1",
        "Futility -check 1",
        "Lion alone -spin 0 0 100",
    ] {
        assert!(
            out.contains(&format!("option=\"{option}\"")),
            "{option}: {out}"
        );
    }
    // XBoard is asked to name the opponent.
    assert!(out.contains(" name=1 "), "{out}");
    // Set by the GUI, and offered again with the values set.
    let out = run_script(
        "option No repeats=1\noption King shelter=0\noption Lion alone=12\noption Profile=lishogi\nprotover 2\n",
    );
    for option in [
        "Profile -combo jcsa /// *lishogi",
        "No repeats -check 1",
        "King shelter -check 0",
        "Lion alone -spin 12 0 100",
    ] {
        assert!(
            out.contains(&format!("option=\"{option}\"")),
            "{option}: {out}"
        );
    }
    // Values out of range or not a switch are refused, and change nothing.
    let out = run_script("option Lion alone=101\noption Futility=maybe\nprotover 2\n");
    assert!(
        out.contains("Error (Lion alone is 0 to 100 pawns): option Lion alone=101"),
        "{out}"
    );
    assert!(
        out.contains("Error (Futility is 1 or 0): option Futility=maybe"),
        "{out}"
    );
    assert!(out.contains("option=\"Lion alone -spin 0 0 100\""), "{out}");
    assert!(out.contains("option=\"Futility -check 1\""), "{out}");
}

#[test]
fn against_hachu_the_engine_turns_on_what_suits_it_unless_the_gui_said_otherwise() {
    // XBoard names the opponent: against HaChu no repeats and HaChu's
    // promotions, said in a comment line.
    let out = run_script("name HaChu 0.21\nprotover 2\n");
    assert!(
        out.contains("# against HaChu 0.21: No repeats, HaChu promotions on"),
        "{out}"
    );
    assert!(out.contains("option=\"No repeats -check 1\""), "{out}");
    assert!(
        out.contains("option=\"HaChu promotions -check 1\""),
        "{out}"
    );
    // An option the GUI set stays as it set it.
    let out = run_script("option No repeats=0\nname hachu\nprotover 2\n");
    assert!(
        out.contains("# against hachu: HaChu promotions on"),
        "{out}"
    );
    assert!(out.contains("option=\"No repeats -check 0\""), "{out}");
    // The next game against another engine plays as by default; `new`
    // keeps what the GUI set.
    let out = run_script("name HaChu\nnew\nname Fairy-Max\nprotover 2\n");
    assert!(out.contains("option=\"No repeats -check 0\""), "{out}");
    assert!(
        out.contains("option=\"HaChu promotions -check 0\""),
        "{out}"
    );
    let out = run_script("option HaChu promotions=1\nnew\nname Fairy-Max\nprotover 2\n");
    assert!(
        out.contains("option=\"HaChu promotions -check 1\""),
        "{out}"
    );
    // Against HaChu the engine keeps to the promotions HaChu reads: a 歩兵
    // that entered the zone unpromoted does not promote by a quiet step.
    // Here that promotion wins at once (a と金 against a bare king), so by
    // default the engine plays it; against HaChu it cannot.
    let sfen = "k11/5P6/12/12/12/12/12/12/12/12/12/11K b - 1";
    let start = ChuPosition::from_sfen(sfen).expect("a position");
    let promotion = parse_usi(&start, "7b7a+").expect("a move");
    let sent = format!("move {}", move_text(&start, promotion));
    let script = |name: &str| {
        // (A bare king played out, the promotion would not end the game.)
        format!(
            "name {name}
option Play out bare king=0
force
setboard {sfen}
st 0.2
go
"
        )
    };
    let by_default = run_script(&script("Fairy-Max"));
    let against_hachu = run_script(&script("HaChu"));
    assert!(by_default.contains(&sent), "{sent}: {by_default}");
    assert!(against_hachu.contains("move "), "{against_hachu}");
    assert!(!against_hachu.contains(&sent), "{sent}: {against_hachu}");
}

#[test]
fn under_xboards_clock_the_engine_shares_its_time_over_the_moves_to_go() {
    use yorimichi::cli::engine::Timing;
    let level = |words: &str| Timing::from_level(&words.split(' ').collect::<Vec<_>>());
    assert_eq!(level("40 2"), None);
    assert_eq!(level("40 x 0"), None);
    assert_eq!(level("40 0 0"), None);
    // 40 moves in 2 minutes, again and again: a whole period in which
    // every move takes the most it may still leaves time on the clock, and
    // the clock is filled again for the next.
    let timing = level("40 2 0").expect("a level");
    let mut left = 120.0;
    for made in 0..80 {
        if made % 40 == 0 && made > 0 {
            left += 120.0;
        }
        let time = timing.move_time(Some(left), made);
        assert!(
            time.aim <= time.most && time.most < left * 0.51,
            "{made}: {time:?} of {left}"
        );
        left -= time.most;
    }
    assert!(left > 0.0, "{left}");
    // Late in a period with little left, a move takes little; the first
    // move of the next period has the new time to share.
    let late = timing.move_time(Some(1.0), 38);
    assert!(late.most <= 0.5, "{late:?}");
    let next = timing.move_time(Some(121.0), 40);
    assert!(next.most > 2.0, "{next:?}");
    // Without XBoard's clock, the level's average; `st` exactly.
    assert_eq!(timing.move_time(None, 0).most, 3.0);
    assert_eq!(Timing::PerMove(0.5).move_time(Some(100.0), 3).most, 0.5);
    // The whole game on one clock with an increment (0:30 + 1 s a move):
    // most of the increment is spent.
    let sudden = level("0 0:30 1").expect("a level");
    let time = sudden.move_time(Some(30.0), 10);
    assert!(time.most < 15.0 && time.aim > 0.5, "{time:?}");
    // Two minutes for the whole game, no increment: a game of 200 moves a
    // side, each taking the most it may, ends with time on the clock and
    // a second or more still left for a move in its last ten.
    let sudden = level("0 2 0").expect("a level");
    let mut left = 120.0;
    for made in 0..200 {
        let time = sudden.move_time(Some(left), made);
        if made >= 190 {
            assert!(left > 1.0, "{made}: {left}");
        }
        left -= time.most;
    }
    assert!(left > 0.5, "{left}");
}

#[test]
fn the_engine_told_to_search_for_mates_plays_a_mate_its_search_does_not_see() {
    use yorimichi::cli::engine::{MoveTime, think};
    use yorimichi::rules::chu::Profile;
    use yorimichi::rules::chu::game::Chu;
    use yorimichi::rules::chu::mate::{Mate, MateSearch, check_line};
    // 中将棊絹篩's first problem with a 先手 king far away: a mate in 7 by
    // checks, beyond what a short reading sees.
    let sfen = "5ex1+Pc2/6okt3/3s4X2+H/2+D9/3p+v1+Dpt3/12/12/2+a6q2/12/12/12/K11 b - 1";
    let pos = ChuPosition::from_sfen(sfen).unwrap();
    let chu = Chu::default();
    let mut solver = MateSearch::new(chu.rules.profile);
    let Mate::Proved(line) = solver.solve(&pos, &mut || false) else {
        panic!("the position is a mate");
    };
    let time = MoveTime::fixed(1.0);
    let with = Style {
        mate_search: Switch::On,
        ..Style::ENGINE
    };
    let mate = think(&chu, &[pos.key()], &pos, &[], time, with).expect("a move");
    // The move played begins a mate: from it, every reply is mated.
    let after = yorimichi::rules::chu::moves::play(&pos, mate);
    match solver.defend(&after, &mut || false) {
        yorimichi::rules::chu::mate::Defence::Mated(rest) => {
            let mut whole = vec![mate];
            whole.extend(rest);
            check_line(Profile::Jcsa, &pos, &whole).unwrap();
        }
        other => panic!("{} then {other:?}", mate.usi()),
    }
    assert_eq!(line.len() % 2, 1);
    // Without it, a reading at depth 3 plays another first move.
    let plain = think(
        &chu,
        &[pos.key()],
        &pos,
        &[],
        MoveTime::fixed(0.05),
        Style::ENGINE,
    )
    .expect("a move");
    let after = yorimichi::rules::chu::moves::play(&pos, plain);
    assert!(
        !matches!(
            solver.defend(&after, &mut || false),
            yorimichi::rules::chu::mate::Defence::Mated(_)
        ),
        "the plain search found the mate too ({}): no test of the option",
        plain.usi()
    );
}

#[test]
fn under_a_gui_the_engine_plays_on_after_a_bare_king_to_take_the_royals() {
    // 後手 has only its king and a 金将 that 先手's 龍王 takes for free.
    let gold = "k11/12/12/12/12/6g5/12/12/12/12/12/6+R4K b - 1";
    let script = |claims: bool| {
        let option = if claims {
            "option Play out bare king=0\n"
        } else {
            ""
        };
        format!("{option}force\nsetboard {gold}\nst 0.2\ngo\n")
    };
    // Told to claim it (as lishogi's and the JCSA's rules have it), the
    // engine ends the game on the bare king; by default it claims nothing
    // (XBoard would judge the claim false), whatever move it chose.
    let claiming = run_script(&script(true));
    assert!(
        claiming.contains("move ") && claiming.contains("1-0 {BareKing}"),
        "{claiming}"
    );
    let playing_on = run_script(&script(false));
    assert!(
        playing_on.contains("move ") && !playing_on.contains("BareKing"),
        "{playing_on}"
    );
    // With the king already bare, it still moves by default, and does not
    // when it reads the game as over.
    let bare = "k11/12/12/12/12/12/12/12/12/12/12/6+R4K b - 1";
    let go = |options: &str| run_script(&format!("{options}force\nsetboard {bare}\nst 0.2\ngo\n"));
    assert!(go("").contains("move "));
    assert!(!go("option Play out bare king=0\n").contains("move "));
    // Playing both sides from there, it drives the lone king to the edge
    // and takes it (without the hunt it shuffled its 龍王 back and forth).
    let both_sides = format!(
        "force\nsetboard {bare}\nst 0.1\n{}quit\n",
        "go\n".repeat(80)
    );
    let out = run_script(&both_sides);
    assert!(out.contains("1-0 {RoyalsTaken}"), "{out}");
}
