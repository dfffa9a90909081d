//! Every seed sentence reaches the player: the よくある質問 questions, the
//! tip (コツ) headings, the variant notes and the CPU strengths of the five
//! seed documents (`/work/shared/seeds/`), each found in its game's 遊び方
//! text (`levels/rules/<game>.ron`) in Japanese, with its English
//! translation. A phrase is quoted as the seed writes it, shortened to its
//! distinctive part where the app adapts the sentence (to what this app
//! does, or to kana where the UI font subset lacks the seed's kanji), so
//! the test fails if the sentence is removed.

use yorimichi::rules::data::{self, GameId};

/// (the Japanese phrase as it must appear, an English phrase that must
/// appear in the translation).
type Phrases = &'static [(&'static str, &'static str)];

/// 十六むさし (seed 000).
const MUSASHI: Phrases = &[
    // よくある質問
    (
        "親と子、どちらが有利？",
        "Which side has the advantage, the oya or the ko?",
    ),
    ("子のほうが有利と言われています", "The ko, it is said"),
    (
        "両方がいちばん良い手を指し続けると子が勝つ",
        "if both sides keep playing the best moves, the ko win",
    ),
    (
        "慣れている人が親を持つとつり合いやすくなります",
        "let the more experienced one take the oya",
    ),
    (
        "子が親をはさんだら、親を取れる？",
        "If the ko sandwich the oya, is it taken?",
    ),
    (
        "十六むさしで駒を取れるのは親だけです",
        "only the oya captures",
    ),
    (
        "一度に何個まで取れるの？",
        "How many ko can be taken at once?",
    ),
    (
        "親が来た方の点は空いているので、4組は並びません",
        "four pairs never line up",
    ),
    (
        "親は取らずに、すき間の点へ入ることもできる？",
        "Can the oya step into a gap without taking?",
    ),
    (
        "すき間の点は、親から見ればいつでも入れる「取れる場所」です",
        "a place to take from",
    ),
    (
        "CPUの強さはどれを選べばいい？",
        "Which CPU strength should I choose?",
    ),
    (
        "待ったやヒント、続きからは使える？",
        "Are undo, hints and resuming available?",
    ),
    (
        "十六むさしってどんな遊び？",
        "What kind of game is Juroku Musashi?",
    ),
    // CPUの強さ
    (
        "はじめてなら「やさしい」がおすすめです",
        "Easy, for a first game",
    ),
    (
        "子のCPUはすき間をよく作り、親のCPUは雪隠や角へうっかり入ってきます",
        "the oya CPU wanders into the setchin and the corners",
    ),
    (
        "「ふつう」は、すき間を作らないように気をつけてきますが、ときどき見落とします",
        "Normal takes care not to leave gaps, but sometimes misses one",
    ),
    (
        "「つよい」は数手先まで読んで",
        "Strong reads several moves ahead",
    ),
    (
        "親なら2組を同時にねらい、子ならすき間を作らずに囲んできます",
        "as the oya it aims at two gaps at once, and as the ko it closes in without leaving gaps",
    ),
    // 待った・ヒント・続きから
    (
        "設定で「待った あり」にすると",
        "With Undo set to On in the settings",
    ),
    ("CPUの手もいっしょに戻ります", "and the CPU's move with it"),
    ("青い点線", "blue dotted line"),
    ("同じ端末・同じブラウザ", "on the same device and browser"),
    ("「続きから」で再開できます", "'Continue' resumes it"),
    ("音ははじめは出ない設定です", "Sound starts off"),
    // 十六むさしってどんな遊び?
    (
        "十六むさしがいつから遊ばれていたかは、はっきりしていません",
        "No one knows for sure since when it has been played",
    ),
    ("「八道行成（やさすかり）」", "yasasukari (八道行成)"),
    (
        "同じ遊びだったかどうかは分かっていないようです",
        "whether they were the same game seems unknown",
    ),
    (
        "江戸時代にはさかんに遊ばれ",
        "widely played in the Edo period",
    ),
    ("「十六さすがり」", "juroku sasugari"),
    ("新年のきご", "a word of the New Year"),
    (
        "「キツネとガチョウ」という、よく似た遊びがあります",
        "Europe has a very similar game, Fox and Geese",
    ),
    // コツ
    ("すき間を作らない", "Leave no gaps"),
    (
        "印を出す設定にしていれば、危ない行き先に×が付きます",
        "risky destinations get a ×",
    ),
    ("輪を少しずつせばめる", "Close the ring slowly"),
    (
        "1つだけ飛び出すと、そのまわりにすき間ができやすくなります",
        "A ko that runs ahead alone easily leaves gaps",
    ),
    ("親を雪隠へ追いこむ", "Drive the oya into the setchin"),
    (
        "入ったら、入口をふさいでしまいましょう",
        "close the entrance",
    ),
    ("広い所にいる", "Stay in the open"),
    ("2組を同時にねらう", "Aim at two gaps at once"),
    ("あわてて雪隠に入らない", "Do not rush into the setchin"),
    (
        "入るのは、中で子を取れるときだけにしましょう",
        "Go in only to take ko there",
    ),
    // ルールの違い
    (
        "呼び名も決まりも少しずつちがいます",
        "its names and rules vary a little",
    ),
    (
        "いちばんふさぎやすい角でも子が3つ要るので、子が親を追いつめるのが少し難しくなります",
        "even the easiest corner takes three ko to close",
    ),
    (
        "コンピューターで十六むさしの勝ち負けがすべて調べられたときに使われた決まりです",
        "the rule used when the game was solved completely by computer",
    ),
    (
        "「4個以下」「5〜6個」などいろいろです",
        "'4 or fewer', '5 or 6'",
    ),
    (
        "盤の形・先に動かす側・親の勝ちになる子の数を1つずつ組み合わせられます",
        "Custom combines the board",
    ),
    // 遊び方の本文
    (
        "2人が同じ駒を持つ将棋",
        "where both players have the same pieces",
    ),
    (
        "親が先に動くルールでは、はじめに2つ取られるのはよくあることです",
        "losing two ko at once at the start is common",
    ),
    (
        "親が取られることはないので、子は取られないように気をつけながら、親を追いつめていきます",
        "The oya is never taken",
    ),
    (
        "親にとっては入ったら出にくい、危ない場所です",
        "easy to enter and hard to leave",
    ),
    (
        "子が少なくなっても、親が雪隠にいれば子に勝ち目があります",
        "they still have a chance while the oya is in the setchin",
    ),
    (
        "子が親を追いつめられなかった、ということです",
        "the ko have failed to corner it",
    ),
    // 子は2個ずつ取られる: what the thresholds do in this app
    ("子はいつも2個ずつ", "Ko are always taken two at a time"),
    (
        "「4個以下」は「5個以下」とまったく同じ",
        "'4 or fewer' therefore plays exactly as '5 or fewer'",
    ),
    (
        "子が1個になることはなく、子が全部取られる",
        "never stops at one ko",
    ),
];

/// はさみ将棋 (seed 004).
const HASAMI: Phrases = &[
    // the game list's card
    ("先に5枚取ったら勝ち", "the first to capture 5 wins"),
    // よくある質問
    (
        "将棋のルールを知らなくても遊べる?",
        "Can I play without knowing the rules of shogi?",
    ),
    (
        "「縦か横にまっすぐ動かす」「2枚ではさむと取れる」の2つを覚えれば、すぐに遊べます",
        "you can play at once",
    ),
    (
        "ななめにはさんだら取れる?",
        "Does a diagonal sandwich capture?",
    ),
    (
        "「自分で決める」の「ななめにはさんでも取れる」を選んでください",
        "choose 'Diagonal sandwiches capture' under Custom",
    ),
    (
        "駒の動きは縦横のままです",
        "the pieces still move only straight",
    ),
    ("CPUの強さはどう違う?", "How do the CPU strengths differ?"),
    (
        "ともだちや家ぞくと遊べる?",
        "Can I play with friends or family on one device?",
    ),
    (
        "下の人と上の人で、自分の駒を動かしてください",
        "the player at the bottom and the player at the top",
    ),
    (
        "途中でやめても続きから遊べる?",
        "If I stop midway, can I continue later?",
    ),
    (
        "同じ端末・同じブラウザで開けば",
        "on the same device and browser",
    ),
    (
        "「音:オフ」を押すと鳴るようになります",
        "press 'Sound: off' to turn it on",
    ),
    (
        "はさみ将棋ってどんな遊び?",
        "What kind of game is Hasami Shogi?",
    ),
    (
        "日本将棋連盟も、将棋の入り口になる遊びとして遊び方を紹介しています",
        "The Japan Shogi Association also introduces it",
    ),
    ("古代ローマの盤上遊び", "a board game of ancient Rome"),
    ("タイの「マークイェーク」", "mak yek"),
    (
        "「うちでは5枚だった」「全部取るまでだった」",
        "'at our house it was 5'",
    ),
    // CPUの強さ
    (
        "はじめての人は「やさしい」から",
        "If you are new, start with Easy",
    ),
    (
        "自分の駒をはさまれる所へうっかり動かすことがよくあります",
        "often moves a piece carelessly",
    ),
    (
        "「ふつう」はそのうっかりが少なくなり",
        "Normal makes that slip less often",
    ),
    (
        "「つよい」は取られそうな駒をほとんど逃がしてきます(それでもたまに見落とします)",
        "though it still misses one now and then",
    ),
    (
        "どの強さでも、相手の駒が動いた直後に、はさめる形になっていないかを見るのが勝つコツです",
        "At every strength, the way to win is to look, right after the opponent moves",
    ),
    // 勝つためのコツ
    (
        "動かす前に「次にはさまれないか」を見る",
        "Before you move, check that the piece cannot be sandwiched next move",
    ),
    (
        "1マスあけて並んだ相手の駒の間は、特に危ない場所です",
        "especially dangerous",
    ),
    ("駒をばらばらにしない", "Keep your pieces together"),
    (
        "「わざと取らせて取り返す」を覚える",
        "Learn to give one piece and take one back",
    ),
    (
        "相手の駒を端や隅に追いこむ",
        "Drive enemy pieces to the edges and corners",
    ),
    (
        "自分の駒は、なるべく隅に入れないようにしましょう",
        "Keep your own pieces out of the corners",
    ),
    (
        "一列に並んだ相手の駒をねらう",
        "Aim at enemy pieces standing in a line",
    ),
    (
        "3枚差がついたら、取り返しをふせぐ",
        "With a 3-piece lead, make sure nothing can be captured back",
    ),
    // ルールの違い
    (
        "勝ち負けの決め方がさまざまです",
        "How hasami shogi is won differs",
    ),
    (
        "いちばんよく紹介されている形。1局10分ほど",
        "The form most often described; a game takes about 10 minutes",
    ),
    (
        "はじめての人や子ども、休み時間の短い対局に",
        "for short games in a break",
    ),
    (
        "じっくり長く遊びたいときに。1枚になると、もうはさめないので終わり",
        "one piece alone can no longer sandwich anything",
    ),
    (
        "家で遊んでいたルールに近づけてみてください",
        "the rules you played at home",
    ),
    // 遊び方の本文
    (
        "このゲームでは、はさんだ2枚を金色の枠で、取られる駒を赤い輪で示してから",
        "a gold frame and the captured piece with a red ring",
    ),
];

/// きつねとがちょう (seed 002).
const FOX_GEESE: Phrases = &[
    // よくある質問
    (
        "きつねとがちょう、どちらが有利？",
        "Which side has the advantage?",
    ),
    (
        "13羽のルールはきつね、17羽のルールはがちょうが有利と言われていて",
        "With 13 geese the fox is said to be stronger, with 17 the geese",
    ),
    (
        "「上手にやれば、がちょうが必ず勝つ」",
        "with good play the geese always win",
    ),
    (
        "1局ごとに役を交代し、勝った回数で比べるのがおすすめです",
        "swap sides after each game",
    ),
    (
        "きつねは必ずがちょうを取らないといけない？",
        "Must the fox capture?",
    ),
    ("設定の「跳べるときは必ず取る」で遊べます", "Forced capture"),
    ("がちょうは何羽まで減ったら負け？", "How few geese lose?"),
    (
        "きつねを跳べないように囲むには、少なくとも4羽が要ります",
        "at least 4 geese",
    ),
    (
        "十六むさしとは何がちがうの？",
        "How is it different from Juroku Musashi?",
    ),
    (
        "CPUの強さはどれを選べばいい？",
        "Which CPU strength should I choose?",
    ),
    (
        "待ったやヒント、続きからは使える？",
        "Are undo, hints and resuming available?",
    ),
    (
        "きつねとがちょうってどんな遊び？",
        "What kind of game is Fox and Geese?",
    ),
    ("『グレティルのサガ』", "Grettis saga"),
    ("エドワード4世", "Edward IV"),
    ("ヴィクトリア女王", "Queen Victoria"),
    (
        "「バグ・チャール（虎とやぎ）」",
        "bagh-chal (tigers and goats)",
    ),
    // CPUの強さ
    (
        "はじめてなら「やさしい」がおすすめです",
        "Easy, for a first game",
    ),
    (
        "がちょうのCPUはすき間をよく作り、きつねのCPUは取れるがちょうばかり見て、気づくと囲まれています",
        "soon finds itself surrounded",
    ),
    (
        "「ふつう」はすき間に気をつけてきますが、ときどき見落とします",
        "Normal watches for gaps but sometimes misses one",
    ),
    (
        "「つよい」は数手先まで読んで、すき間のないかべで迫ってきたり、2羽を同時にねらったりします",
        "Strong reads several moves ahead",
    ),
    ("CPUの手もいっしょに戻ります", "and the CPU's with it"),
    ("青い点線", "blue dotted line"),
    // 勝つためのコツ
    ("2列でかためて進む", "Advance as a double wall"),
    (
        "印を出す設定なら、動くと跳ばれてしまう行き先に×が付きます",
        "destinations where a goose would be jumped get a ×",
    ),
    (
        "はしから寄せて、きつねを上の腕へ追いこむ",
        "drive the fox up the top arm",
    ),
    ("あせって前に出すぎない", "Do not rush forward"),
    (
        "横の動きで時間をかせぐのも大切です",
        "sideways moves to gain time matter too",
    ),
    ("まん中の広い所にいる", "Stay in the open middle"),
    ("2羽を同時にねらう", "Threaten two geese at once"),
    ("連続跳びの道すじを読む", "Read the multi-jump paths"),
    // ルールの違い
    (
        "がちょうの数や動き方が本や地方によってちがいます",
        "differ from book to book and region to region",
    ),
    ("1801年", "Strutt's book of 1801"),
    (
        "13羽で前後左右に動けるルールは、きつねのほうが勝ちやすいと言われています",
        "the fox is said to win more easily",
    ),
    (
        "がちょうを増やしたり、がちょうの動きを前と横だけにしたりする形は、勝ちやすさのつり合いを取るために生まれたと考えられています",
        "are thought to have arisen to even the odds",
    ),
    (
        "きつねが跳べる向きが増えるので、がちょうはすき間をふさぐのがむずかしくなります",
        "the fox has more directions to jump in",
    ),
    // 遊び方の本文
    (
        "昔はその盤を使って遊ばれていました",
        "whose board it was once played on",
    ),
    (
        "一度前に出たがちょうは戻れないので、どこへ進めるかをよく考えましょう",
        "think well where to advance",
    ),
    (
        "チェッカー（西洋のゲーム）の取り方と同じです",
        "the capture of checkers",
    ),
    (
        "となりのがちょうの後ろにもう1羽をつけて、跳べないようにふさぐのがこつです",
        "put a second goose behind the one next to the fox",
    ),
    (
        "何羽まで減ったらきつねの勝ちにするかは、本によってちがいます",
        "Books differ on how few geese that is",
    ),
    (
        "前へ進みすぎると動ける所がなくなることがあります",
        "geese that advance too far can run out of moves",
    ),
];

/// 中将棋 (seed 001: no FAQ, tips or CPU strengths; its own notes).
const CHU: Phrases = &[
    (
        "覚えることは多く見えますが",
        "There may seem to be a lot to learn",
    ),
    (
        "持駒で受けたり攻めたりできないぶん",
        "With no pieces in hand",
    ),
    (
        "居食い(いぐい): 隣の駒を取って、元のマスに戻る手",
        "igui: take an adjacent piece and return to its square",
    ),
    (
        "じっと: 隣の空いたマスへ出て戻る手",
        "jitto: step to an empty neighbour and back",
    ),
    (
        "本将棋と違って、敵陣の中を動くだけでは成れません",
        "moving inside the zone does not promote",
    ),
    ("王手と言う必要はない", "Check need not be announced"),
    (
        "互いの王(太子を含む)が1枚ずつで、ほかに数える駒が片方に1枚、もう片方に0枚なら、1枚の側の勝ち",
        "exactly one piece that counts",
    ),
    ("引き分けの申し込みはありません", "there are no draw offers"),
    (
        "将棋 -焔- で決めていること",
        "As 将棋 -焔- (Shogi Homura) decides",
    ),
    (
        "一番奥で成らなかった香車も、歩兵と同じく動けない駒として残る(連盟は通信対局だけ)",
        "the JCSA does this in correspondence games only",
    ),
    ("はじめての方は", "If you are new to chu shogi"),
    (
        "駒の動かし方・駒問題集・獅子の動かし方もあります",
        "lessons on how the pieces move, problems, and how the lion moves",
    ),
    ("慣れてきたら練習対局へ", "go on to a practice game"),
    ("動きを覚えながら指せます", "so you learn them as you play"),
];

/// まわり将棋 (seed 003: no FAQ, tips or CPU strengths; its local rules).
const MAWARI: Phrases = &[
    (
        "ルールは遊ぶ人どうしでいろいろと変えることもあるようです",
        "players seem to change its rules among themselves",
    ),
    ("「ぺこまわし」", "pekomawashi"),
    ("8の倍数", "multiples of 8"),
    (
        "4枚とも裏なら0ではなく10",
        "all four face down count 10, not 0",
    ),
    (
        "「せんこ立ち」で、動かずにいきなり王将",
        "senko-dachi: you become king at once without moving",
    ),
    (
        "「線香立ち」か「千個立ち」",
        "線香立ち ('standing like an incense stick') or 千個立ち",
    ),
    ("その分戻る地方もあり", "some places go back instead"),
    ("桂馬の倍飛び", "Knight doubles"),
    ("2なら4マス、8なら16マス", "4 squares for 2, 16 for 8"),
    (
        "もう一度ぷっすんきゅうで1つずれないと、いつまでも角には入れなくなります",
        "until another pussunkyu shifts it by one",
    ),
    ("おんぶ", "Onbu"),
    ("歩の降格", "Pawn demotion"),
    (
        "と→横向き→縦向き→せんこ立ち",
        "tokin, sideways, upright and senko-dachi",
    ),
];

const GAMES: [(GameId, &str, Phrases); 5] = [
    (GameId::Musashi, "十六むさし", MUSASHI),
    (GameId::Hasami, "はさみ将棋", HASAMI),
    (GameId::FoxGeese, "きつねとがちょう", FOX_GEESE),
    (GameId::ChuShogi, "中将棋", CHU),
    (GameId::Mawari, "まわり将棋", MAWARI),
];

/// `s` as compared: no spaces (ASCII or full-width, nor line breaks),
/// full-width ？！（）： and digits as their ASCII forms, English in lower
/// case.
fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '？' => '?',
            '！' => '!',
            '（' => '(',
            '）' => ')',
            '：' => ':',
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            _ => c,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The 遊び方 text of `game`, every title and body joined, normalised: the
/// Japanese and the English.
fn rules_texts(game: GameId) -> (String, String) {
    let text = data::rules_text(game).unwrap().unwrap();
    let (mut ja, mut en) = (text.title.ja.clone(), text.title.en.clone());
    for s in &text.sections {
        for part in [&s.title.ja, &s.body.ja] {
            ja.push('\n');
            ja.push_str(part);
        }
        for part in [&s.title.en, &s.body.en] {
            en.push('\n');
            en.push_str(part);
        }
    }
    (normalise(&ja), normalise(&en))
}

/// Each phrase of `phrases` that `ja` (its Japanese) or `en` (its English)
/// lacks, named with `game`.
fn missing(game: &str, ja: &str, en: &str, phrases: &[(&str, &str)]) -> Vec<String> {
    let mut misses = Vec::new();
    for &(j, e) in phrases {
        if !ja.contains(&normalise(j)) {
            misses.push(format!("{game} ja: 「{j}」"));
        }
        if !en.contains(&normalise(e)) {
            misses.push(format!("{game} en: {e:?} (for 「{j}」)"));
        }
    }
    misses
}

#[test]
fn every_seed_sentence_is_in_the_rules_text_and_translated() {
    let mut misses = Vec::new();
    for (game, name, phrases) in GAMES {
        let (ja, en) = rules_texts(game);
        misses.extend(missing(name, &ja, &en, phrases));
    }
    assert!(
        misses.is_empty(),
        "{} seed phrases are missing from levels/rules/:\n{}",
        misses.len(),
        misses.join("\n")
    );
}

#[test]
fn the_checker_reports_what_no_text_says() {
    let (ja, en) = rules_texts(GameId::Hasami);
    let made_up = [("この文はどの種にも書かれていません", "no seed says this")];
    let misses = missing("はさみ将棋", &ja, &en, &made_up);
    assert_eq!(misses.len(), 2, "{misses:?}");
    assert!(
        misses[0].contains("この文はどの種にも書かれていません"),
        "{misses:?}"
    );
    assert!(misses[1].contains("no seed says this"), "{misses:?}");
    // A phrase found in one language only is reported in the other.
    let half = [("先に5枚取ったら勝ち", "no seed says this")];
    assert_eq!(missing("はさみ将棋", &ja, &en, &half).len(), 1);
    // The same phrase in full-width marks and digits, spaced out, is found.
    let wide = [("先に５枚 取ったら勝ち", "The first to capture 5  wins")];
    assert!(missing("はさみ将棋", &ja, &en, &wide).is_empty());
}

#[test]
fn normalise_treats_full_and_half_width_alike() {
    assert_eq!(
        normalise("親と子、どちらが有利？"),
        normalise("親と子、どちらが有利?")
    );
    assert_eq!(normalise("（１２個）！：　x"), "(12個)!:x");
    assert_eq!(normalise("Sound: off"), normalise("sound:off"));
    assert_ne!(normalise("4個以下"), normalise("5個以下"));
}

#[test]
fn every_game_has_its_seed_phrases() {
    for (_, name, phrases) in GAMES {
        assert!(phrases.len() >= 10, "{name}: {} phrases", phrases.len());
        for &(ja, en) in phrases {
            assert!(
                !normalise(ja).is_empty() && !normalise(en).is_empty(),
                "{name}: an empty phrase"
            );
        }
    }
}

#[test]
fn the_wordings_the_issue_found_do_not_come_back() {
    for (file, wrong) in [
        (data::MUSASHI_RULES_TEXT, "1個になるまで"),
        (data::MUSASHI_TUTORIAL, "1個になるまで"),
        (data::MUSASHI_TUTORIAL, "play on to one"),
        (data::MUSASHI_PRESETS, "1個になるまで"),
        (data::MUSASHI_PRESETS, "until one ko is left"),
        (data::MUSASHI_TUTORIAL, "親(むさし)"),
        (data::MUSASHI_RULES_TEXT, "親(むさし)"),
        (data::MAWARI_TUTORIAL, "count nothing;"),
        (data::MAWARI_TUTORIAL, "incense stand"),
        (data::MAWARI_RULES_TEXT, "incense stand"),
        (data::CHUSHOGI_RULES_TEXT, "Points settled"),
        (data::CHUSHOGI_RULES_TEXT, "駒のマスに戻れば居食い"),
        (data::CHUSHOGI_TUTORIAL, "相手を王だけに"),
        (data::HASAMI_TUTORIAL, "はされば"),
    ] {
        assert!(!file.text.contains(wrong), "{}: {wrong:?}", file.path);
    }
}
