//! 中将棋 games as KIF: a thousand seeded random games written and read
//! back as the same game, the fixtures in `tests/data/kif/` (this
//! program's own record of every kind of move; the same games as lishogi's
//! writer, shogiops 0.18.0, wrote them; the Renmei's numbering; Kakinoki's
//! columns with full-width figures and times), and malformed records, each
//! refused with its line. `tools/shogiops/kif.mjs` checks both ways against
//! lishogi's own reader and writer.

use rand::{Rng, RngExt, SeedableRng, rngs::StdRng};
use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::kif::{ChuKif, KifEnd, KifError};
use yorimichi::rules::chu::moves::{ChuMove, legal_moves_in, play, promotion_possible};
use yorimichi::rules::chu::pieces::Kind;
use yorimichi::rules::chu::position::{ChuPosition, Square};
use yorimichi::rules::chu::record::ChuGameText;
use yorimichi::rules::game::{EndReason, Outcome, Side};

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/kif")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn game(text: &str) -> ChuGameText {
    ChuGameText::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn read(text: &str) -> ChuKif {
    ChuKif::read(Profile::Jcsa, text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The fixtures' games.
const EVERY_MOVE: &str = "position sfen 5k6/12/12/6g5/6p1sPS1/6N5/12/12/3+D8/12/12/6K5 b - 1 moves 6f6e6f 7a7b 3e3d 4e4f 6f6g6f 4f5e 6f5e 6d5e 2e2d+ 5e6f 9i8h7g 7b7a 7g6f7g";
const LION_SAME_SQUARE: &str = "position sfen k11/12/6n5/12/6P5/12/12/12/12/12/12/S10K b - 1 moves 6e6d 6c7d6d 1l1k 6d6e6d 1k1l 6d7d6d";
const FROM_THE_START: &str =
    "position startpos moves 7i7h 6d6e 7j7i6h 6e6f 6h6g6h 6f6g 6h6g6h 10d10e 10i10h";

#[test]
fn this_programs_record_of_every_kind_of_move_reads_and_writes_back_exactly() {
    // 居食い, じっと, 不成, 仝 (the lion taken back), 成, an eagle's two
    // steps and its 居食い; from a diagram; resigned.
    let text = fixture("every_move.kif");
    let kif = read(&text);
    assert_eq!(kif.game, game(EVERY_MOVE));
    assert_eq!(kif.started.as_deref(), Some("2024/05/01 10:00:00"));
    assert_eq!(
        kif.players,
        [Some("よりみち".to_string()), Some("lishogi AI".to_string())]
    );
    assert_eq!(
        kif.end,
        Some(KifEnd::Resigned {
            winner: Side::First
        })
    );
    assert_eq!(kif.write(), text);
    for line in [
        "   1一歩目 6五獅子 （←6六）",
        "   1二歩目 6六獅子（居食い） （←6五）",
        "   3   3四歩兵不成 （←3五）",
        "   5二歩目 6六獅子(じっと) （←6七）",
        "   7   仝獅子 （←6六）",
        "   9   2四銀将成 （←2五）",
        "  11一歩目 8八飛鷲 （←9九）",
        "  13二歩目 7七飛鷲（居食い） （←6六）",
        "  14   投了",
        "まで13手で先手の勝ち",
        "|  ・  ・  ・  ・  ・ v玉  ・  ・  ・  ・  ・  ・|一",
        "先手番",
    ] {
        assert!(text.lines().any(|l| l == line), "{line}");
    }

    // A lion's steps name their squares, even the previous move's.
    let text = fixture("lion_same_square.kif");
    let kif = read(&text);
    assert_eq!(kif.game, game(LION_SAME_SQUARE));
    assert_eq!(kif.write(), text);
    assert!(text.contains("   2一歩目 7四獅子 （←6三）\n   2二歩目 6四獅子 （←7四）\n"));
}

#[test]
fn lishogis_records_read_as_the_same_games() {
    // As shogiops writes them: no 不成, 玉将 for both kings, no 手番 line
    // for 先手, and 仝 on both steps of a lion move whose second step lands
    // on the previous move's square (the first went elsewhere: 7四).
    let kif = read(&fixture("every_move_lishogi.kif"));
    assert_eq!(kif.game, game(EVERY_MOVE));
    assert_eq!(kif.end, None);
    let text = fixture("lion_same_square_lishogi.kif");
    assert!(text.contains("   2一歩目 仝獅子 （←6三）\n   2二歩目 仝獅子 （←7四）\n"));
    assert_eq!(read(&text).game, game(LION_SAME_SQUARE));
}

#[test]
fn the_renmeis_numbering_and_kakinokis_columns_read_as_the_same_game() {
    for name in ["renmei.kif", "kakinoki.kif"] {
        let kif = read(&fixture(name));
        assert_eq!(kif.game, game(FROM_THE_START), "{name}");
        assert_eq!(
            kif.end,
            Some(KifEnd::Resigned {
                winner: Side::First
            }),
            "{name}"
        );
        assert_eq!(kif.started.as_deref().map(|s| &s[..10]), Some("2024/05/01"));
    }
    let written = read(&fixture("renmei.kif")).write();
    assert!(
        written.contains("手合割：中将棋\n先手：甲\n後手：乙\n"),
        "{written}"
    );
    assert!(
        written.contains("   7一歩目 6七獅子 （←6八）\n"),
        "{written}"
    );
    assert!(written.contains("   9   10八歩兵 （←10九）\n"), "{written}");
}

#[test]
fn every_piece_on_a_diagram_comes_back() {
    // Each of the 21 pieces of the array, unpromoted and promoted, for
    // both sides, with 後手 to move and a 先獅子 square.
    let mut cells: Vec<String> = Vec::new();
    for letter in "pilafcsgtexomvbrhdqnk".chars() {
        cells.push(letter.to_string());
        cells.push(letter.to_ascii_uppercase().to_string());
        if !"qnk".contains(letter) {
            cells.push(format!("+{letter}"));
            cells.push(format!("+{}", letter.to_ascii_uppercase()));
        }
    }
    assert_eq!(cells.len(), 78);
    // One kanji a kind, none twice.
    let mut short: Vec<char> = Kind::ALL.iter().map(|k| k.short_name()).collect();
    short.sort();
    short.dedup();
    assert_eq!(short.len(), Kind::ALL.len());
    let rows: Vec<String> = cells
        .chunks(12)
        .map(|row| {
            let mut text = row.concat();
            if row.len() < 12 {
                text.push_str(&(12 - row.len()).to_string());
            }
            text
        })
        .collect();
    let mut board = rows.join("/");
    for _ in rows.len()..12 {
        board.push_str("/12");
    }
    let start = ChuPosition::from_sfen(&format!("{board} w 6e 1")).unwrap();
    let kif = ChuKif::new(ChuGameText {
        start: start.clone(),
        moves: Vec::new(),
    });
    let text = kif.write();
    assert!(text.contains("後手番\n先獅子：6五\n"), "{text}");
    // lishogi's names for the promoted pieces that move as pieces of the
    // array: 成飛 is a promoted 金将, 成獅 a promoted 麒麟.
    for cell in ["v成飛", " 成獅", "  と", "v駒", " 鷲", " 成象"] {
        assert!(text.contains(cell), "{cell}\n{text}");
    }
    assert_eq!(read(&text).game.start, start);
}

#[test]
fn kif_ends_read_back_and_agree_with_outcomes() {
    let end = ChuPosition::start();
    let cases = [
        (KifEnd::Won(Side::Second), None, "まで0手で後手の勝ち"),
        (KifEnd::Drawn, None, "まで0手で引き分け"),
        (
            KifEnd::Resigned {
                winner: Side::Second,
            },
            Some("投了"),
            "まで0手で後手の勝ち",
        ),
        (
            KifEnd::Mated {
                winner: Side::Second,
            },
            Some("詰み"),
            "まで0手で後手の勝ち",
        ),
        (
            KifEnd::Repetition { winner: None },
            Some("千日手"),
            "まで0手で千日手",
        ),
        (
            KifEnd::Repetition {
                winner: Some(Side::First),
            },
            Some("千日手"),
            "まで0手で千日手により先手の勝ち",
        ),
        (
            KifEnd::TimeUp {
                winner: Some(Side::First),
                points: Some([1234, 980]),
            },
            None,
            "まで0手で時間切れ（先手 123.4点、後手 98.0点）により先手の勝ち",
        ),
        (
            KifEnd::TimeUp {
                winner: None,
                points: Some([1000, 1000]),
            },
            None,
            "まで0手で時間切れ（先手 100.0点、後手 100.0点）により引き分け",
        ),
        (
            KifEnd::TimeUp {
                winner: Some(Side::Second),
                points: None,
            },
            Some("切れ負け"),
            "まで0手で時間切れにより後手の勝ち",
        ),
        (
            KifEnd::Foul {
                winner: Side::First,
            },
            Some("反則勝ち"),
            "まで0手で先手の反則勝ち",
        ),
        (
            KifEnd::Foul {
                winner: Side::Second,
            },
            Some("反則負け"),
            "まで0手で後手の反則勝ち",
        ),
    ];
    for (kif_end, word, result) in cases {
        let kif = ChuKif {
            end: Some(kif_end),
            ..ChuKif::new(game("startpos"))
        };
        let text = kif.write();
        let tail: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("手数"))
            .skip(1)
            .collect();
        let want: Vec<String> = word
            .map(|w| format!("   1   {w}"))
            .into_iter()
            .chain([result.to_string()])
            .collect();
        assert_eq!(tail, want, "{kif_end:?}");
        assert_eq!(read(&text), kif, "{text}");
    }
    // The end of a game played here, in KIF and back.
    let cutoff = Outcome::win(Side::First, EndReason::TimeUp);
    assert_eq!(
        KifEnd::from_outcome(cutoff, &end),
        KifEnd::TimeUp {
            winner: Some(Side::First),
            points: Some(yorimichi::rules::chu::end::cutoff_points(&end)),
        }
    );
    for outcome in [
        Outcome::win(Side::Second, EndReason::Resignation),
        Outcome::draw(EndReason::Repetition),
        Outcome::win(Side::First, EndReason::CaptureTarget),
        cutoff,
    ] {
        assert_eq!(KifEnd::from_outcome(outcome, &end).outcome(), outcome);
    }
    // Only the word, or wordings this writer does not use.
    for (text, want) in [
        (
            "   1 投了\n",
            Some(KifEnd::Resigned {
                winner: Side::Second,
            }),
        ),
        ("   1 中断\nまで0手で中断\n", None),
        ("   1 持将棋\n", Some(KifEnd::Drawn)),
        ("まで0手で先手の負け\n", Some(KifEnd::Won(Side::Second))),
        (
            "   1 切れ負け\nまで0手で後手の勝ち\n",
            Some(KifEnd::TimeUp {
                winner: Some(Side::Second),
                points: None,
            }),
        ),
    ] {
        assert_eq!(read(text).end, want, "{text}");
    }
}

/// What the random games covered.
#[derive(Debug, Default)]
struct Seen {
    moves: usize,
    promotions: usize,
    declined: usize,
    same_square: usize,
    lion_doubles: usize,
    other_doubles: usize,
    igui: usize,
    jitto: usize,
    from_diagram: usize,
    with_lion_square: usize,
    ends: usize,
}

/// A random legal move: a promotion, a declined promotion or a two-step
/// move more often than their share, else a capture or any move.
fn random_move(profile: Profile, pos: &ChuPosition, rng: &mut impl Rng) -> Option<ChuMove> {
    let mut moves = Vec::new();
    legal_moves_in(profile, pos, &mut moves);
    let promotions: Vec<ChuMove> = moves.iter().copied().filter(|m| m.promote).collect();
    let declined: Vec<ChuMove> = moves
        .iter()
        .copied()
        .filter(|&m| !m.promote && promotion_possible(pos, m))
        .collect();
    let doubles: Vec<ChuMove> = moves.iter().copied().filter(|m| m.mid.is_some()).collect();
    let captures: Vec<ChuMove> = moves
        .iter()
        .copied()
        .filter(|m| m.taken(pos).next().is_some())
        .collect();
    let roll = rng.random::<f64>();
    let pool = [
        (0.15, &promotions),
        (0.25, &declined),
        (0.45, &doubles),
        (0.75, &captures),
    ]
    .into_iter()
    .find(|(below, pool)| roll < *below && !pool.is_empty())
    .map_or(&moves, |(_, pool)| pool);
    (!pool.is_empty()).then(|| pool[rng.random_range(0..pool.len())])
}

/// A position some random moves into a game, its move number reset (KIF
/// starts counting again), sometimes with a 先獅子 square.
fn random_start(profile: Profile, rng: &mut impl Rng) -> ChuPosition {
    let mut pos = ChuPosition::start();
    for _ in 0..rng.random_range(4..60) {
        match random_move(profile, &pos, rng) {
            Some(mv) => pos = play(&pos, mv),
            None => break,
        }
    }
    let sfen = pos.to_sfen();
    let fields: Vec<&str> = sfen.split(' ').collect();
    let lion = if rng.random_range(0..4) == 0 {
        // Any square will do: the rules only ask where it is.
        format!(
            "{}{}",
            rng.random_range(1..=12),
            (b'a' + rng.random_range(0..12u8)) as char
        )
    } else {
        fields[2].to_string()
    };
    // Read as a game's start, as a KIF's diagram is: a side whose royals
    // the random moves took is a mate problem's attacker.
    ChuPosition::from_sfen_start(&format!("{} {} {lion} 1", fields[0], fields[1])).unwrap()
}

fn random_end(pos: &ChuPosition, rng: &mut impl Rng) -> Option<KifEnd> {
    let side = if rng.random::<bool>() {
        Side::First
    } else {
        Side::Second
    };
    let winner = [None, Some(side)][rng.random_range(0..2)];
    match rng.random_range(0..9) {
        0 => None,
        1 => Some(KifEnd::Resigned { winner: side }),
        2 => Some(KifEnd::Repetition { winner }),
        3 => Some(KifEnd::TimeUp {
            winner,
            points: Some(yorimichi::rules::chu::end::cutoff_points(pos)),
        }),
        4 => Some(KifEnd::TimeUp {
            winner: Some(pos.to_move().opponent()),
            points: None,
        }),
        5 => Some(KifEnd::Mated { winner: side }),
        6 => Some(KifEnd::Foul { winner: side }),
        7 => Some(KifEnd::Drawn),
        _ => Some(KifEnd::Won(side)),
    }
}

#[test]
fn a_thousand_random_games_read_back_as_the_same_games() {
    let mut rng = StdRng::seed_from_u64(41);
    let mut seen = Seen::default();
    let games = std::env::var("YORIMICHI_KIF_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    for g in 0..games {
        let profile = Profile::ALL[g % 2];
        let start = if g % 5 == 4 {
            seen.from_diagram += 1;
            random_start(profile, &mut rng)
        } else {
            ChuPosition::start()
        };
        seen.with_lion_square += usize::from(start.lion_taken_at().is_some());
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let mut positions = vec![pos.clone()];
        for _ in 0..rng.random_range(10..120) {
            if KifEnd::on_board(profile, &pos).is_some() {
                break;
            }
            let Some(mv) = random_move(profile, &pos, &mut rng) else {
                break;
            };
            seen.moves += 1;
            seen.promotions += usize::from(mv.promote);
            seen.declined += usize::from(!mv.promote && promotion_possible(&pos, mv));
            seen.same_square += usize::from(
                mv.mid.is_none() && moves.last().is_some_and(|m: &ChuMove| m.to == mv.to),
            );
            if let Some(mid) = mv.mid {
                let lion = pos.at(mv.from).is_some_and(|(_, p)| p.is_lion());
                seen.lion_doubles += usize::from(lion);
                seen.other_doubles += usize::from(!lion);
                seen.igui += usize::from(mv.to == mv.from && pos.at(mid).is_some());
                seen.jitto += usize::from(mv.to == mv.from && pos.at(mid).is_none());
            }
            moves.push(mv);
            pos = play(&pos, mv);
            positions.push(pos.clone());
        }
        let end = KifEnd::on_board(profile, &pos).or_else(|| random_end(&pos, &mut rng));
        seen.ends += usize::from(end.is_some());
        let kif = ChuKif {
            game: ChuGameText { start, moves },
            started: (g % 3 == 0).then(|| format!("2024/05/{:02} 10:00:00", g % 28 + 1)),
            players: [
                (g % 2 == 0).then(|| format!("先手{g}")),
                (g % 3 != 1).then(|| format!("player {g}")),
            ],
            end,
        };
        let text = kif.write();
        let back = ChuKif::read(profile, &text).unwrap_or_else(|e| panic!("game {g}: {e}\n{text}"));
        assert_eq!(back, kif, "game {g}\n{text}");
        // The same positions, one by one.
        let mut replayed = back.game.start.clone();
        for (i, &mv) in back.game.moves.iter().enumerate() {
            assert_eq!(replayed, positions[i], "game {g}, move {}", i + 1);
            replayed = play(&replayed, mv);
        }
        assert_eq!(&replayed, positions.last().unwrap(), "game {g}");
    }
    println!("{games} games: {seen:?}");
    if games >= 1000 {
        for (what, count) in [
            ("promotions", seen.promotions),
            ("declined promotions", seen.declined),
            ("moves to the previous move's square", seen.same_square),
            ("lion two-step moves", seen.lion_doubles),
            ("eagle or falcon two-step moves", seen.other_doubles),
            ("居食い", seen.igui),
            ("じっと", seen.jitto),
            ("games from a diagram", seen.from_diagram),
            ("starts with a 先獅子 square", seen.with_lion_square),
        ] {
            assert!(count >= 20, "only {count} {what}: {seen:?}");
        }
    }
}

/// A square as KIF writes it (`7八`).
fn kanji(sq: Square) -> String {
    const RANKS: [&str; 12] = [
        "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
    ];
    format!("{}{}", sq.file(), RANKS[sq.row()])
}

/// A record that must be refused on `line` with `says` in the message.
fn refused(text: &str, line: usize, says: &str) {
    match ChuKif::read(Profile::Jcsa, text) {
        Ok(kif) => panic!("read {text:?} as {kif:?}"),
        Err(KifError { line: at, problem }) => {
            assert_eq!(at, line, "{text:?}: line {at}: {problem}");
            assert!(problem.contains(says), "{text:?}: {problem}");
        }
    }
}

#[test]
fn malformed_records_are_refused_with_their_line() {
    let head = "手合割：中将棋\n手数----指手---------消費時間--\n";
    let moves = |lines: &str| format!("{head}{lines}");
    refused("", 1, "empty");
    refused(" \n\n", 1, "empty");
    refused(
        "先手：A\nhello\n",
        2,
        "neither a KIF header line nor a move",
    );
    refused(
        "手合割：香落ち\n   1   7八歩兵 （←7九）\n",
        1,
        "not 中将棋's start",
    );
    refused("先手の持駒：歩二\n", 1, "no pieces in hand");
    refused("手番：中手\n", 1, "手番 is 先手 or 後手");
    refused("先獅子：6z\n   1   7八歩兵 （←7九）\n", 1, "先獅子");
    // Diagrams.
    let row = "|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|";
    let diagram = |rows: &[String]| format!("{}\n手数----\n", rows.join("\n"));
    let mut rows: Vec<String> = (0..12).map(|_| row.to_string()).collect();
    rows[0] = "|  ・  ・  ・  ・  ・ v玉  ・  ・  ・  ・  ・  ・|一".to_string();
    rows[11] = "|  ・  ・  ・  ・  ・  玉  ・  ・  ・  ・  ・  ・|十二".to_string();
    assert_eq!(read(&diagram(&rows)).game.start.pieces().count(), 2);
    refused(&diagram(&rows[1..]), 11, "the board has 11 rows, not 12");
    let mut short = rows.clone();
    short[4] = "|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|".to_string();
    refused(&diagram(&short), 5, "11 squares, not 12");
    let mut unknown = rows.clone();
    unknown[4] = "|  ・  ・  ・  ・  ・  桂  ・  ・  ・  ・  ・  ・|".to_string();
    refused(
        &diagram(&unknown),
        5,
        "\"桂\" on the board is not a 中将棋 piece",
    );
    let mut open = rows.clone();
    open[4] = "|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・".to_string();
    refused(&diagram(&open), 5, "does not end with |");
    // Moves.
    refused(
        &moves("   1   13八歩兵 （←7九）\n"),
        3,
        "\"13八\" is not a square",
    );
    refused(&moves("   1   7八歩 （←7z）\n"), 3, "is not a square");
    refused(
        &moves("   1   7八桂馬 （←7九）\n"),
        3,
        "\"桂馬\" is not a 中将棋 piece name",
    );
    refused(
        &moves("   1   7八歩兵\n"),
        3,
        "no square the piece comes from",
    );
    refused(&moves("   1   7八歩兵 （←7九\n"), 3, "not closed");
    refused(&moves("   1   7七歩兵 （←7八）\n"), 3, "7八 is empty");
    refused(
        &moves("   1   7五歩兵 （←7四）\n"),
        3,
        "holds 後手's 歩兵, but 先手 is to move",
    );
    refused(
        &moves("   1   7八香車 （←7九）\n"),
        3,
        "7九 holds 歩兵, not 香車",
    );
    refused(
        &moves("   1   7七歩兵 （←7九）\n"),
        3,
        "7九→7七 is not a legal move here",
    );
    refused(&moves("   1   7八歩兵成 （←7九）\n"), 3, "cannot promote");
    refused(
        &moves("   1   7八歩兵 （←7九）\n   3   7五歩兵 （←7四）\n"),
        4,
        "numbered 3, but 2 comes next",
    );
    refused(
        &moves("1手目 △7八歩兵 （←7九）\n"),
        3,
        "△ is 後手's mark, but 先手 is to move",
    );
    refused(&moves("   1   仝歩兵 （←7九）\n"), 3, "no previous move");
    refused(&moves("   1   7八 （←7九）\n"), 3, "no piece name");
    refused(&moves("   1一歩目 7九獅子 （←7十）\n"), 3, "has no 二歩目");
    refused(
        &moves("   1一歩目 7九獅子 （←7十）\n   1   7八歩兵 （←7九）\n"),
        4,
        "the 一歩目 of line 3 has no 二歩目",
    );
    refused(
        &moves("   1二歩目 6八獅子 （←7九）\n"),
        3,
        "without its 一歩目",
    );
    refused(
        &moves(
            "   1   7八歩兵 （←7九）\n   2   7五歩兵 （←7四）\n   3一歩目 7九獅子 （←7十）\n   3二歩目 6八獅子 （←8九）\n",
        ),
        6,
        "starts from 8九, but the first went to 7九",
    );
    refused(
        &moves(
            "   1   7八歩兵 （←7九）\n   2   7五歩兵 （←7四）\n   3一歩目 7九獅子 （←7十）\n   3二歩目 7十獅子（居食い） （←7九）\n",
        ),
        6,
        "not 居食い",
    );
    refused(
        &moves(
            "   1   7八歩兵 （←7九）\n   2   7五歩兵 （←7四）\n   3一歩目 7九獅子 （←7十）\n   4二歩目 6八獅子 （←7九）\n",
        ),
        6,
        "numbered 4, but 3 comes next",
    );
    refused(
        &moves("   1   7八歩兵(じっと) （←7九）\n"),
        3,
        "written on a 二歩目 line",
    );
    refused(
        &moves("   1   7八歩兵 （←7九）\n   2   投了\n   3   7五歩兵 （←7四）\n"),
        5,
        "after the game's end",
    );
    refused(
        &moves("   1   7八歩兵 （←7九）\n   2   投了\nまで2手で先手の勝ち\n"),
        5,
        "まで2手, but the record has 1 moves",
    );
    refused(
        &moves("   1   7八歩兵 （←7九）\nまで1手で先手の勝ち\n   2   7五歩兵 （←7四）\n"),
        5,
        "after the game's end (the まで line)",
    );
    refused(
        &moves("   1   7八歩兵 （←7九）\n   2   hello\n"),
        4,
        "\"2   hello\"",
    );
    // A variation after the main line is not read.
    let with_variation = moves("   1   7八歩兵 （←7九）\n\n変化：1手\n   1   6八歩兵 （←6九）\n");
    assert_eq!(read(&with_variation).game, game("startpos moves 7i7h"));
}

#[test]
fn lenient_forms_read_as_the_same_moves() {
    let head = "手数----指手---------消費時間--\n";
    for text in [
        // No header and no numbers; half- and full-width figures, brackets
        // of either width or none, short names, marks, times, a BOM, CRLF,
        // lone CRs.
        "7八歩兵 （←7九）\n7五歩兵 （←7四）\n".to_string(),
        format!("\u{feff}{head}   1 ７八歩（←７九）\r\n   2 ７五歩(7四)   ( 0:01/00:00:01)\r\n"),
        format!("{head}1手目 ▲7八歩兵 (←7九)\r2手目 ☖7五歩兵 ←7四\r"),
        format!("{head}1. 7八歩兵 （←7九）\n2. 7五歩 （←7四）\n"),
    ] {
        let kif = read(&text);
        assert_eq!(kif.game, game("startpos moves 7i7h 7d7e"), "{text}");
    }
    // 同 for the previous move's square, as Kakinoki writes it.
    let kif = read(&format!(
        "{head}   1 7八歩兵（←7九）\n   2 7五歩兵（←7四）\n   3 7七歩兵（←7八）\n   4 7六歩兵（←7五）\n   5 同　歩兵（←7七）\n"
    ));
    assert_eq!(kif.game, game("startpos moves 7i7h 7d7e 7h7g 7e7f 7g7f"));
    // A promoted 金将 by lishogi's names; a と金 as 金将, と, 成歩.
    let start = "k11/12/12/12/12/12/12/12/12/5+G6/12/11K b - 1";
    for name in ["金飛車", "金飛", "成飛", "飛車"] {
        let kif = read(&format!(
            "{}{head}   1   7十一{name} （←7十）\n",
            ChuKif::new(game(&format!("sfen {start}")))
                .write()
                .replace(head, "")
        ));
        assert_eq!(
            kif.game,
            game(&format!("sfen {start} moves 7j7k")),
            "{name}"
        );
    }
    // Lines a KIF may hold anywhere: comments, bookmarks, notes.
    let kif = read(&format!(
        "#KIF version=2.0\n棋戦：例会\n場所：東京\n持ち時間：60分\n先手の持駒：なし\n{head}*一手目\n&しおり\n   1 7八歩兵 （←7九）\n"
    ));
    assert_eq!(kif.game, game("startpos moves 7i7h"));
}

#[test]
fn every_legal_move_of_random_positions_writes_and_reads_back() {
    // Each move alone, after a previous move to any square (so that 仝 and
    // the lishogi 仝 on a step line come up wherever they can).
    let mut rng = StdRng::seed_from_u64(7);
    let mut lishogi_same_square = 0;
    for profile in Profile::ALL {
        for _ in 0..6 {
            let start = random_start(profile, &mut rng);
            let Some(first) = random_move(profile, &start, &mut rng) else {
                continue;
            };
            let pos = play(&start, first);
            let mut moves = Vec::new();
            legal_moves_in(profile, &pos, &mut moves);
            for mv in moves {
                let kif = ChuKif::new(ChuGameText {
                    start: start.clone(),
                    moves: vec![first, mv],
                });
                let text = kif.write();
                assert_eq!(ChuKif::read(profile, &text), Ok(kif.clone()), "{text}");
                // lishogi's way: 仝 on both step lines when the move ends on
                // the previous move's square.
                if let Some(mid) = mv.mid
                    && mv.to == first.to
                {
                    let lishogi = text
                        .replacen(&format!("   2一歩目 {}", kanji(mid)), "   2一歩目 仝", 1)
                        .replacen(&format!("   2二歩目 {}", kanji(mv.to)), "   2二歩目 仝", 1);
                    assert_ne!(lishogi, text);
                    lishogi_same_square += 1;
                    assert_eq!(ChuKif::read(profile, &lishogi), Ok(kif), "{lishogi}");
                }
            }
        }
    }
    assert!(lishogi_same_square > 0);
}
