//! What a step takes as right beyond its one asked move, and what its
//! words say happened before its diagram.

use super::{Played, Pos, StepCheck};
use crate::rules::board::PointId;
use crate::rules::content::stages::Staged;
use crate::rules::data::NamedMove;
use crate::rules::game::Game;

/// The verbs with which a step's text tells of a move already made (the
/// opponent's last move, 「親がe3からf4に入りました」).
const MOVED: [&str; 7] = [
    "入りました",
    "進みました",
    "動きました",
    "来ました",
    "逃げました",
    "出ました",
    "戻りました",
];

impl<S: Staged> StepCheck<'_, S> {
    /// The moves a step names beside its answer (`also`, `worse`), each
    /// legal in the diagram: `also` is then held by `claims` and the
    /// engine to what `expect` is held to, `worse` to being worse.
    pub(super) fn named(&mut self, pos: &Pos<S>, list: &[NamedMove], what: &str) -> Vec<Played<S>> {
        if !list.is_empty() && self.step.expect.is_none() {
            self.report(
                what,
                "the step names moves beside its answer, but asks for no move (expect)",
            );
            return Vec::new();
        }
        let mut played = Vec::new();
        for m in list {
            let Some(spec) = self.spec(std::slice::from_ref(m), what) else {
                continue;
            };
            if let Some(moves) = self.legal(pos, &spec, what, "in the diagram") {
                played.push(Played {
                    before: pos.clone(),
                    moves,
                    text: spec.text,
                });
            }
        }
        played
    }

    /// 十六むさし: every move that takes as many as the asked one is taken
    /// as right too (in `expect` or `also`), or declared `worse` (which the
    /// engine then holds it to, and the `wrong` text explains): a player
    /// who finds another double capture is not told to look again without
    /// a reason. A `worse` move takes as many.
    pub(super) fn equal_takes(
        &mut self,
        pos: &Pos<S>,
        asked: &Played<S>,
        also: &[Played<S>],
        worse: &[Played<S>],
    ) {
        let stage = self.stage;
        if !stage.accepts_equal_takes() {
            return;
        }
        let game = stage.game();
        let foe = game.side_to_move(pos).opponent();
        let taken = |mv| {
            stage
                .count(pos, foe)
                .saturating_sub(stage.count(&game.play(pos, mv), foe))
        };
        let Some(most) = asked.moves.iter().map(|&mv| taken(mv)).max() else {
            return;
        };
        if most == 0 {
            return;
        }
        for w in worse {
            for &mv in &w.moves {
                if taken(mv) < most {
                    self.report(
                        "worse",
                        format!(
                            "{} takes {}, less than the answer ({most}): `worse` names only moves that take as many",
                            w.text,
                            taken(mv)
                        ),
                    );
                }
            }
        }
        // The moves the step already names, as they were read from it.
        let named: Vec<_> = [asked]
            .into_iter()
            .chain(also)
            .chain(worse)
            .flat_map(|p| p.moves.iter().copied())
            .collect();
        let accepted = |mv| named.contains(&mv);
        for mv in self.moves_in(pos) {
            if taken(mv) >= most && !accepted(mv) {
                self.report(
                    "also",
                    format!(
                        "{} takes {} as the answer does ({most}): name it in `also` so that a player who finds it is told it is right, or in `worse` with the reason in the `wrong` text",
                        game.move_text(pos, mv),
                        taken(mv)
                    ),
                );
            }
        }
    }

    /// A text that tells of a move already made (「親がe3からf4に入りました」)
    /// shows the position that move leads to under the rules: the move is
    /// the last of the step's `history`, played from the diagram, so what
    /// it takes is taken.
    pub(super) fn last_move_named(&mut self) {
        let step = self.step;
        for sentence in step.text.ja.split(['。', '！', '？']) {
            if !MOVED.iter().any(|v| sentence.contains(v)) {
                continue;
            }
            let named = self.points_in(sentence);
            let Some(&to) = named.last() else {
                continue;
            };
            let from = (named.len() > 1).then(|| named[0]);
            let last = step.history.last().map(|m| {
                (
                    self.stage.graph().find(&m.from),
                    self.stage.graph().find(&m.to),
                )
            });
            let fits = match last {
                Some((f, Some(t))) => t == to && from.is_none_or(|from| f == Some(from)),
                _ => false,
            };
            if !fits {
                let said = match from {
                    Some(from) => format!("{}→{}", self.name(from), self.name(to)),
                    None => format!("to {}", self.name(to)),
                };
                self.report(
                    "history",
                    format!(
                        "the text tells of a move already made ({said}, 「{}」): show the position before it and play it as the last move of `history`, so the board is what that move leads to",
                        sentence.trim()
                    ),
                );
            }
        }
    }

    /// The points a text names, in order (the longest name at each place).
    fn points_in(&self, text: &str) -> Vec<PointId> {
        let graph = self.stage.graph();
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let mut found = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let hit = (2..=3).rev().find_map(|len| {
                let end = chars.get(i + len).map_or(text.len(), |&(b, _)| b);
                (i + len <= chars.len())
                    .then(|| graph.find(&text[chars[i].0..end]))
                    .flatten()
                    .map(|p| (p, len))
            });
            match hit {
                Some((p, len)) => {
                    found.push(p);
                    i += len;
                }
                None => i += 1,
            }
        }
        found
    }
}
