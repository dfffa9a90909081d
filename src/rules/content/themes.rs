//! 中将棋 problems say what their answer does: the answer's line is read
//! by the engine ([`problems::read_line`], at the depth `yorimichi check`
//! reads every asked move), its theme is taken from what the line does
//! (the king taken, and on which move; a bare king; a lion move that wins;
//! a promotion, made or prepared; material won), and the problem's title,
//! task and wrong-move text must be the words of that theme
//! ([`problems::wording`]; the table is in docs/rules-to-tutorials.md).

use crate::rules::chu::game::Chu;
use crate::rules::chu::moves::ChuMove;
use crate::rules::chu::position::ChuPosition;
use crate::rules::chu::problems::{self, Theme, WON_AT_LEAST};
use crate::rules::data::{Text, TutorialStep};

/// The numbers written before 手 (not 手目): `3手で` is 3.
fn counts_of_moves(text: &str) -> Vec<u32> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        if c != '手' || chars.get(i + 1) == Some(&'目') {
            continue;
        }
        let digits: String = chars[..i]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if let Ok(n) = digits.parse() {
            found.push(n);
        }
    }
    found
}

/// Why the Japanese words `said` do not fit `theme`, where a word of
/// theirs names something the line does not do.
fn misfits(said: &str, theme: Theme, net: i32) -> Vec<String> {
    let mut why = Vec::new();
    if said.contains("駒得") && theme != Theme::Material {
        why.push(format!(
            "「駒得」, but the line is not a material win (net {net}, {WON_AT_LEAST} needed, or another theme comes first)"
        ));
    }
    if said.contains("手順")
        && !matches!(theme, Theme::King { moves } | Theme::BareKing { moves } if moves > 1)
    {
        why.push(match theme {
            Theme::King { moves: 1 } => {
                "「手順」, but the king stands en prise: the answer itself takes it".to_string()
            }
            _ => "「手順」, but the line wins no game by a sequence of moves".to_string(),
        });
    }
    let plies = match theme {
        Theme::King { moves } | Theme::BareKing { moves } => Some(2 * u32::from(moves) - 1),
        _ => None,
    };
    for n in counts_of_moves(said) {
        match plies {
            Some(p) if p != n => why.push(format!("「{n}手」, but the line wins in {p}")),
            None => why.push(format!("「{n}手」, but the line wins no game")),
            _ => {}
        }
    }
    if said.contains("王を取") && !matches!(theme, Theme::King { .. }) {
        why.push("「王を取る」, but the line does not take the king".to_string());
    }
    if said.contains("獅子") && theme != Theme::Lion {
        why.push("「獅子」, but the answer is not a lion move that wins".to_string());
    }
    why
}

/// Each field of problem `step` (the `index`-th) whose words do not fit
/// its answer's line, and why. Read at `depth`: the quick reading holds
/// the words to the line; the deep one only asks that the answer's line
/// lose no material that a deeper reading finds (its words describe the
/// short line a player sees, and a deeper line may win more, or the
/// same later).
#[allow(clippy::too_many_arguments)]
pub(super) fn problem_words(
    game: &Chu,
    depth: super::Depth,
    step: &TutorialStep,
    index: usize,
    pos: &ChuPosition,
    history: &[u64],
    answers: &[ChuMove],
    mate: Option<&[ChuMove]>,
) -> Vec<(&'static str, String)> {
    let Some(level) = step.level else {
        return Vec::new();
    };
    let reading = super::engine::CHUSHOGI.at(depth);
    // A mating answer's line is the mate solver's, which sees further
    // than the engine's reading.
    let line = match mate {
        Some(mate) => problems::line_of(game, pos, mate),
        None => {
            let Some(line) =
                problems::read_line(game, pos, history, answers, reading.depth, reading.nodes)
            else {
                return Vec::new();
            };
            line
        }
    };
    let theme = line.theme();
    let does = line.describe();
    if depth == super::Depth::Deep {
        let wins_game = matches!(theme, Theme::King { .. } | Theme::BareKing { .. });
        return if line.net() < 0 && !wins_game {
            vec![(
                "expect",
                format!(
                    "read {} plies deep, the answer's line loses material: {does}",
                    reading.depth
                ),
            )]
        } else {
            Vec::new()
        };
    }
    let Some(words) = problems::wording(theme, index + 1, level) else {
        return vec![(
            "expect",
            format!(
                "the answer's line neither wins the game, nor wins material ({WON_AT_LEAST} net), nor promotes, so no problem's words fit it: {does}"
            ),
        )];
    };
    let net = line.net();
    let mut found = Vec::new();
    let fields: [(&'static str, Option<&Text>, &(String, String)); 3] = [
        ("title", Some(&step.title), &words.title),
        ("text", Some(&step.text), &words.text),
        ("wrong", step.wrong.as_ref(), &words.wrong),
    ];
    for (what, said, want) in fields {
        if said.is_some_and(|t| t.ja == want.0 && t.en == want.1) {
            continue;
        }
        let said_ja = said.map_or("", |t| t.ja.as_str());
        let mut why = misfits(said_ja, theme, net);
        if why.is_empty() {
            why.push("not the words of its theme".to_string());
        }
        found.push((
            what,
            format!(
                "「{said_ja}」 does not fit the answer's line ({}): {does}. It should read 「{}」 / \"{}\"",
                why.join("; "),
                want.0,
                want.1
            ),
        ));
    }
    found
}
