//! What the 遊び方 pages and the presets tell a player, checked against the
//! rules engines where the claim is mechanical: 中将棋's bare king, point
//! tables and profiles; the FAQ of きつねとがちょう against its presets.

use std::collections::HashMap;

use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::end::{ChuEnd, outcome_in};
use yorimichi::rules::chu::moves::legal_moves_in;
use yorimichi::rules::chu::pieces::{Base, Piece};
use yorimichi::rules::chu::position::ChuPosition;
use yorimichi::rules::data::{self, GameId, RulesText};
use yorimichi::rules::game::Side;

fn rules(game: GameId) -> RulesText {
    data::rules_text(game).unwrap().unwrap()
}

/// The page titled `title` (Japanese), in both languages.
fn page(text: &RulesText, title: &str) -> (String, String) {
    let s = text
        .sections
        .iter()
        .find(|s| s.title.ja == title)
        .unwrap_or_else(|| panic!("no page 「{title}」"));
    (s.body.ja.clone(), s.body.en.clone())
}

/// Every `name number` pair in `text` (the name: the kanji before a space
/// and a number with one decimal).
fn points_in(text: &str) -> Vec<(String, f32)> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || "、,".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter_map(|w| {
            let number: f32 = w[1].parse().ok()?;
            w[1].contains('.').then(|| (w[0].to_string(), number))
        })
        .collect()
}

/// The seed's names in the point tables: a promoted piece that moves as a
/// piece of the starting array is 成 + its name (成角行: a promoted 猛豹).
fn table_name(piece: Piece) -> String {
    let kind = piece.kind();
    let starts_so = Base::ALL.iter().any(|b| b.kind() == kind);
    if piece.promoted && starts_so {
        format!("成{}", kind.names().0)
    } else {
        kind.names().0.to_string()
    }
}

#[test]
fn the_chu_point_tables_are_the_engines() {
    let text = rules(GameId::ChuShogi);
    let mut expected: HashMap<String, f32> = HashMap::new();
    for base in Base::ALL {
        if base == Base::King {
            continue;
        }
        let plain = Piece::new(base);
        expected.insert(table_name(plain), plain.points());
        if plain.can_promote() {
            let promoted = Piece {
                base,
                promoted: true,
            };
            expected.insert(table_name(promoted), promoted.points());
        }
    }
    assert_eq!(expected.len(), 20 + 18);
    let (mut ja, mut en) = (Vec::new(), Vec::new());
    for title in ["駒の点数(成る前)", "駒の点数(成った駒)"] {
        let (j, e) = page(&text, title);
        ja.extend(points_in(&j));
        en.extend(points_in(&e));
    }
    for (lang, found) in [("ja", ja), ("en", en)] {
        let table: HashMap<String, f32> = found.iter().cloned().collect();
        assert_eq!(table.len(), found.len(), "{lang}: a piece listed twice");
        assert_eq!(table, expected, "{lang}");
    }
    // The cutoff page says what counts.
    let (ja, en) = page(&text, "打ち切りと駒の点数");
    for says in [
        "60分",
        "動けない駒も数えます",
        "王は数えません",
        "引き分けの申し込みはありません",
    ] {
        assert!(ja.contains(says), "{says}");
    }
    assert!(en.contains("immovable pieces count") && en.contains("no draw offers"));
}

#[test]
fn the_chu_bare_king_is_one_counting_piece_against_none() {
    // The text says so…
    let text = rules(GameId::ChuShogi);
    let (ja, en) = page(&text, "勝ち負け");
    assert!(!ja.contains("1枚以上"), "{ja}");
    assert!(
        ja.contains(
            "互いの王(太子を含む)が1枚ずつで、ほかに数える駒が片方に1枚、もう片方に0枚なら"
        )
    );
    assert!(en.contains("exactly one piece that counts"));
    // …and so does the engine: one gold against nothing wins, two golds
    // against nothing decide nothing (the kings far apart, 後手 to move).
    let one = ChuPosition::from_sfen("6k5/12/12/12/12/12/12/12/12/G11/12/6K5 w - 1").unwrap();
    assert_eq!(
        outcome_in(Profile::Jcsa, &one),
        Some((Some(Side::First), ChuEnd::BareKing))
    );
    let two = ChuPosition::from_sfen("6k5/12/12/12/12/12/12/12/12/G10G/12/6K5 w - 1").unwrap();
    assert_eq!(outcome_in(Profile::Jcsa, &two), None);
}

#[test]
fn the_chu_text_lists_what_shogi_homura_decides() {
    let text = rules(GameId::ChuShogi);
    let (ja, _) = page(&text, "将棋 -焔- で決めていること");
    for point in [
        "先手を王将、後手を玉将",
        "香車も、歩兵と同じく動けない駒として残る",
        "麒麟が成りながら獅子を取ったときと、飛鷲・角鷹の居食いでも、先獅子の決まりがかかる",
        "指せる手が無い側の負け",
        "同じ局面の4回目で引き分け",
        "60分で打ち切り",
    ] {
        assert!(ja.contains(point), "{point}");
    }
}

#[test]
fn lance_promotion_is_the_same_under_both_chu_profiles() {
    // A 先手 lance already in the zone steps to the last rank without
    // taking: both profiles offer the promotion (lishogi's rules promote a
    // pawn or lance on the last rank, as the JCSA's do).
    let pos = ChuPosition::from_sfen("6k5/12/L11/12/12/12/12/12/12/12/12/6K5 b - 1").unwrap();
    for profile in Profile::ALL {
        let mut moves = Vec::new();
        legal_moves_in(profile, &pos, &mut moves);
        let usi: Vec<String> = moves.iter().map(|m| m.usi()).collect();
        assert!(usi.contains(&"12c12a+".to_string()), "{profile:?}");
        assert!(!usi.contains(&"12c12b+".to_string()), "{profile:?}");
    }
    // So the presets do not say they differ there.
    let presets = data::chushogi_presets().unwrap();
    let lishogi = presets.preset("lishogi").unwrap();
    assert!(!lishogi.about.ja.contains("香車"), "{}", lishogi.about.ja);
    assert!(!lishogi.about.en.contains("lance"), "{}", lishogi.about.en);
}

#[test]
fn the_fox_and_geese_questions_are_answered_as_the_presets_play() {
    let text = rules(GameId::FoxGeese);
    let faq: String = text
        .sections
        .iter()
        .filter(|s| s.title.ja.starts_with("よくある質問"))
        .map(|s| s.body.ja.as_str())
        .collect();
    for question in [
        "きつねとがちょう、どちらが有利?",
        "きつねは必ずがちょうを取らないといけない?",
        "がちょうは何羽まで減ったら負け?",
        "十六むさしとは何がちがうの?",
        "CPUの強さはどれを選べばいい?",
        "待ったやヒント、続きからは使える?",
        "きつねとがちょうってどんな遊び?",
    ] {
        assert!(faq.contains(question), "{question}");
    }
    // What the answers say of the standard rules is what it plays.
    let presets = data::foxgeese_presets().unwrap();
    let standard = &presets.preset("standard").unwrap().rules;
    assert!(!standard.forced_capture);
    assert!(faq.contains("標準のルールでは、取っても取らなくてもかまいません"));
    assert_eq!(standard.fox_wins_at, 6);
    assert!(faq.contains("このゲームの標準は「6羽以下」"));
    let seventeen = &presets.preset("seventeen").unwrap().rules;
    assert_eq!((standard.geese, seventeen.geese), (13, 17));
}

#[test]
fn the_mawari_page_lists_the_throws_the_dice_give_and_every_special_rule() {
    use yorimichi::rules::mawari::dice::ThrowValue;
    let text = rules(GameId::Mawari);
    let (ja, _) = page(&text, "金将の数え方");
    let list = ja
        .split("出る数は")
        .nth(1)
        .and_then(|rest| rest.split('。').next())
        .expect("the list of moves");
    let mut listed = Vec::new();
    for item in list.split(',').map(str::trim) {
        match item.split_once('〜') {
            Some((a, b)) => listed.extend(a.parse::<u8>().unwrap()..=b.parse::<u8>().unwrap()),
            None => listed.push(item.parse::<u8>().unwrap()),
        }
    }
    assert_eq!(listed, ThrowValue::possible_moves());
    // Each special rule of the seed is described, 桂馬の倍飛び included.
    let all: String = text.sections.iter().map(|s| s.body.ja.as_str()).collect();
    for rule in [
        "殺し",
        "復活",
        "ばば",
        "桂馬の倍飛び",
        "やいと",
        "死神",
        "なかよしこよし",
        "戦争",
        "ぷっすんきゅう",
        "おんぶ",
        "歩の降格",
    ] {
        assert!(all.contains(rule), "{rule}");
    }
}
