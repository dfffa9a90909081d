//! What the analysis page asks of the rules (`src/rules/chu/analysis.rs`,
//! reached through the engine's wasm module): a game read from a KIF the
//! game wrote, a USI game, a bare move list or an SFEN, written as the
//! record writes it; the rules of the other profile where the asked one
//! refuses; bad input refused with what is wrong; a position as a diagram;
//! an engine's line in Japanese notation from the position it was read in;
//! and the JSON the page parses.

use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::analysis::{self, json_string};
use yorimichi::rules::chu::kif::ChuKif;
use yorimichi::rules::chu::moves::play;
use yorimichi::rules::chu::notation::{Coords, screen_move};
use yorimichi::rules::chu::record::ChuGameText;
use yorimichi::rules::game::Side;

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/kif")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_kif_the_game_wrote_reads_as_its_moves_in_the_records_words() {
    let text = fixture("match_opening.kif");
    let game = analysis::read_game(Profile::Jcsa, &text).expect("the KIF reads");
    assert_eq!(game.profile, Profile::Jcsa);
    assert_eq!(game.start, "position startpos");
    assert_eq!(game.moves.len(), 60);
    // The words are the play screen's record, move by move, as the KIF's
    // own reader reads the moves.
    let kif = ChuKif::read(Profile::Jcsa, &text).expect("the KIF reads");
    let mut pos = kif.game.start.clone();
    let mut last_to = None;
    for (i, &mv) in kif.game.moves.iter().enumerate() {
        let words = screen_move(&pos, mv, last_to, Coords::Japanese);
        assert_eq!(game.moves[i], (mv.usi(), words), "move {}", i + 1);
        last_to = Some(mv.to);
        pos = play(&pos, mv);
    }
    assert_eq!(
        game.moves[0],
        ("1i1h".to_string(), "☗1八歩兵(←1九)".to_string())
    );
    assert_eq!(game.moves[59].1, "☖仝龍王(←9三)");
    assert_eq!(game.players, [None, None], "empty names are no names");
    assert_eq!(game.end, None, "a record without an end goes on");
}

#[test]
fn a_records_players_and_end_come_in_both_languages() {
    let game = analysis::read_game(Profile::Jcsa, &fixture("every_move.kif")).expect("reads");
    assert!(game.start.starts_with("position sfen "), "{}", game.start);
    assert_eq!(
        game.players,
        [Some("よりみち".to_string()), Some("lishogi AI".to_string())]
    );
    assert_eq!(
        game.end,
        Some((
            "まで13手で先手の勝ち".to_string(),
            "Sente wins by resignation after 13 moves".to_string()
        ))
    );
    // 居食い, じっと, 不成, 仝 and an eagle's two steps, as the record writes them.
    let words: Vec<&str> = game.moves.iter().map(|(_, w)| w.as_str()).collect();
    assert_eq!(words[0], "☗6五獅子居食い(←6六)");
    assert_eq!(words[4], "☗6六獅子じっと");
    assert_eq!(words[2], "☗3四歩兵不成(←3五)");
    assert_eq!(words[6], "☗仝獅子(←6六)");
}

#[test]
fn usi_games_bare_move_lists_and_sfens_read_too() {
    let from_usi =
        analysis::read_game(Profile::Jcsa, "position startpos moves 7i7h 6d6e 7j7i6h").unwrap();
    let bare = analysis::read_game(Profile::Jcsa, "  7i7h 6d6e\n7j7i6h ").unwrap();
    assert_eq!(from_usi, bare);
    assert_eq!(
        bare.moves
            .iter()
            .map(|(_, w)| w.as_str())
            .collect::<Vec<_>>(),
        ["☗7八歩兵(←7九)", "☖6五歩兵(←6四)", "☗6八獅子(←7十)"]
    );
    let sfen = "5ex1+Pc2/6okt3/3s4X2+H/2+D9/3p+v1+Dpt3/12/12/2+a6q2/12/12/12/12 b - 1";
    let problem = analysis::read_game(Profile::Jcsa, sfen).unwrap();
    assert_eq!(problem.start, format!("position sfen {sfen}"));
    assert!(problem.moves.is_empty());
    // A KIF of moves alone begins with a move number, not a USI move.
    let kif_lines = "   1   7八歩兵 （←7九）\n   2   6五歩兵 （←6四）\n";
    let kif = analysis::read_game(Profile::Jcsa, kif_lines).unwrap();
    assert_eq!(kif.moves.len(), 2);
}

#[test]
fn a_game_the_asked_rules_refuse_is_read_under_the_others() {
    // 後手's rook takes 先手's lion on 8j (tests/rules/chu_profiles.rs):
    // the JCSA let 先手's bishop take 後手's unprotected lion next, lishogi
    // does not; a 麒麟 taking and promoting leaves a protected lion on the
    // capture square, which lishogi lets the bishop take and the JCSA not.
    let sfen = "12/12/12/12/12/4r7/12/12/5o3n2/4N7/12/6B5 w - 1";
    for (moves, only) in [
        ("8f8j 6l3i", Profile::Jcsa),
        ("7i8j+ 6l8j", Profile::Lishogi),
    ] {
        let text = format!("position sfen {sfen} moves {moves}");
        for asked in Profile::ALL {
            let game = analysis::read_game(asked, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(game.profile, only, "{text}, asked {asked:?}");
            assert_eq!(game.moves.len(), 2);
        }
    }
    // Refused by both: the asked rules' reason.
    let problem = analysis::read_game(
        Profile::Jcsa,
        &format!("position sfen {sfen} moves 8f8j 1a1b"),
    )
    .unwrap_err();
    assert!(problem.contains("move 2"), "{problem}");
}

#[test]
fn bad_input_is_refused_with_what_is_wrong() {
    let kif =
        fixture("match_opening.kif").replace("   7   5八歩兵 （←5九）", "   7   5七歩兵 （←5九）");
    let refused = analysis::read_game(Profile::Jcsa, &kif).unwrap_err();
    assert!(refused.starts_with("KIF line 12:"), "{refused}");
    for (text, says) in [
        ("", "empty"),
        ("これは棋譜ではありません", "KIF line 1"),
        ("position startpos moves 7i7h 7i7h", "move 2"),
        ("7i7h 1a1a", "move 2"),
        ("lfcsgekgscfl/12 b - 1", "row"),
    ] {
        let problem = analysis::read_game(Profile::Jcsa, text).unwrap_err();
        assert!(problem.contains(says), "{text:?}: {problem}");
    }
    assert!(analysis::board(Profile::Jcsa, "position startpos moves 1a1b").is_err());
    assert!(analysis::line(Profile::Jcsa, "position sfen nonsense", "7i7h").is_err());
}

#[test]
fn a_position_is_a_diagram_with_its_side_to_move_and_end() {
    let start = analysis::board(Profile::Jcsa, "position startpos").unwrap();
    assert_eq!(start.cells.len(), 144);
    assert_eq!(start.to_move, Side::First);
    assert_eq!(start.over, None);
    // The top left is 後手's 香車 on 12一; 先手's king on 7十二.
    let top_left = start.cells[0].expect("a piece");
    assert_eq!(
        (top_left.side, top_left.kanji, top_left.name.0),
        (Side::Second, '香', "香車")
    );
    let king = start.cells[11 * 12 + 5].expect("a piece");
    assert_eq!(
        (king.side, king.kanji, king.name),
        (Side::First, '玉', ("王将", "King"))
    );
    assert_eq!(start.cells.iter().flatten().count(), 92);
    // A promoted pawn is と, marked promoted.
    let tokin = analysis::board(
        Profile::Jcsa,
        "position sfen 5k6/12/12/12/12/12/12/12/12/12/+P11/6K5 w - 1",
    )
    .unwrap();
    let cell = tokin.cells[10 * 12].expect("the tokin");
    assert!(cell.promoted && cell.kanji == 'と', "{cell:?}");
    assert_eq!(tokin.to_move, Side::Second);
    // A mate problem's last royal taken: the game is over on the board.
    let problem = "position sfen 5k6/5G6/12/12/12/12/12/12/12/12/12/12 b - 1";
    assert_eq!(analysis::board(Profile::Jcsa, problem).unwrap().over, None);
    let taken = analysis::board(Profile::Jcsa, &format!("{problem} moves 7b7a")).unwrap();
    assert_eq!(taken.over, Some(Some(Side::First)));
    // After a lion is taken by a non-lion, its square is said (先獅子).
    let lion_taken = analysis::board(
        Profile::Jcsa,
        "position sfen 12/12/12/12/12/4r7/12/12/5o3n2/4N7/12/6B5 w - 1 moves 8f8j",
    )
    .unwrap();
    assert_eq!(lion_taken.lion_taken_at.as_deref(), Some("8十"));
}

#[test]
fn an_engines_line_is_written_from_the_position_it_was_read_in() {
    // 仝 for the square the game's last move landed on.
    let after = "position startpos moves 7i7h 6d6e 7h7g 6e6f";
    let line = analysis::line(Profile::Jcsa, after, "7g7f 6f6g").unwrap();
    assert_eq!(line.words, ["☗7六歩兵(←7七)", "☖6七歩兵(←6六)"]);
    assert!(line.unread.is_empty() && line.problem.is_none());
    // A lion's leap through an empty square, and its じっと.
    let line = analysis::line(
        Profile::Lishogi,
        "position startpos moves 7i7h 6d6e",
        "7j7i6h 6e6f 6h6g6h",
    )
    .unwrap();
    assert_eq!(
        line.words,
        ["☗6八獅子(←7十)", "☖6六歩兵(←6五)", "☗6八獅子じっと"]
    );
    // A move the rules refuse ends the words; the rest is kept as written.
    let refused = analysis::line(Profile::Jcsa, "position startpos", "7i7h 1a1b 6d6e").unwrap();
    assert_eq!(refused.words, ["☗7八歩兵(←7九)"]);
    assert_eq!(refused.unread, ["1a1b", "6d6e"]);
    assert!(refused.problem.is_some_and(|p| p.starts_with("1a1b: ")));
    // The words are the record's: the same as the game's own text writes.
    let game = ChuGameText::parse("position startpos moves 7i7h 6d6e 7j7i6h").unwrap();
    let written = analysis::line(Profile::Jcsa, "position startpos", "7i7h 6d6e 7j7i6h").unwrap();
    let japanese: Vec<String> = game
        .japanese()
        .lines()
        .skip(1)
        .map(|l| {
            l.split_once(' ')
                .map_or(String::new(), |(_, w)| w.to_string())
        })
        .collect();
    assert_eq!(written.words, japanese);
}

#[test]
fn the_page_reads_json() {
    assert_eq!(json_string("a\"b\\c\n\u{1}☗"), "\"a\\\"b\\\\c\\n\\u0001☗\"");
    let game = analysis::read_game(Profile::Jcsa, &fixture("every_move.kif")).unwrap();
    let json = game.json();
    assert!(
        json.starts_with("{\"profile\":\"jcsa\",\"start\":\"position sfen "),
        "{json}"
    );
    assert!(
        json.contains("[\"6f6e6f\",\"☗6五獅子居食い(←6六)\"]"),
        "{json}"
    );
    assert!(
        json.contains("\"players\":[\"よりみち\",\"lishogi AI\"]"),
        "{json}"
    );
    assert!(
        json.ends_with(
            "\"end\":[\"まで13手で先手の勝ち\",\"Sente wins by resignation after 13 moves\"]}"
        ),
        "{json}"
    );
    let board = analysis::board(Profile::Jcsa, "position startpos")
        .unwrap()
        .json();
    assert!(board.contains("\"toMove\":\"b\""), "{board}");
    assert!(
        board.contains("[\"w\",\"香\",false,\"香車\",\"Lance\"]"),
        "{board}"
    );
    assert!(
        board.ends_with("\"lionTaken\":null,\"over\":null}"),
        "{board}"
    );
    let line = analysis::line(Profile::Jcsa, "position startpos", "7i7h 1a1b")
        .unwrap()
        .json();
    assert!(
        line.starts_with(
            "{\"words\":[\"☗7八歩兵(←7九)\"],\"unread\":[\"1a1b\"],\"problem\":\"1a1b: "
        ),
        "{line}"
    );
}
