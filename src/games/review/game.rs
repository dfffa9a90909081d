//! The game under review, at the bottom of the review's folder: the
//! finished game as it is kept, the review's commands, the game with what
//! the CPU has read of each position, the reading in the background that
//! fills it, and the exact verdict where the game knows one. The screen
//! (`view`) and the folder's `mod.rs` build on it.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::games::session::{GameSave, Match, MatchSetup, Playable, Presets};
use crate::rules::game::{Exact, Outcome, Side};
use crate::rules::record::GameRecord;
use crate::rules::review::{self, Judged, Mistake, Reading};
use crate::shell::Screen;
use crate::shell::cpu::{SearchPace, Thinker, ThinkingSlices};
use crate::shell::i18n::T;

/// A finished game as it is kept for 振り返り: the game and how it ended
/// (a resignation is not in the moves).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinishedGame<R, M> {
    pub game: GameSave<R, M>,
    pub outcome: Outcome,
}

/// A review-screen command (buttons, keys, the move list and the graph).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewCommand {
    First,
    Previous,
    Next,
    Last,
    /// Show the position after this many moves.
    GoTo(usize),
    /// 検討 from the position shown.
    Analyse,
    /// 共有: the game as text (and, on the web, a link that opens this
    /// review).
    Share,
    /// Leave the review.
    Back,
}

/// Tags a review button with its command (tests find buttons by it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewButton(pub ReviewCommand);

/// The game being reviewed and what the CPU has read of it.
#[derive(Resource)]
pub struct Review<G: Playable> {
    /// The game's rules (十六むさし: with its exact tables once solved).
    pub game: G,
    pub record: GameRecord<G>,
    pub setup: MatchSetup<G::Rules>,
    pub outcome: Option<Outcome>,
    /// The position shown: after this many moves.
    pub ply: usize,
    /// What the CPU has read of each position so far.
    pub readings: Vec<Option<Reading<G::Move>>>,
    /// The game judged, once every position is read.
    pub judged: Option<Judged<G::Move>>,
    /// The reading waits for knowledge still being built (十六むさし's
    /// exact tables), so that every position is read with it.
    pub exact_pending: bool,
    /// The exact tables' verdict on each position, once the game has
    /// them (十六むさし).
    pub exact: Option<Vec<Option<Exact>>>,
    /// Where やめる goes back to.
    pub back_to: Screen,
    /// Where 共有 wrote the game (or why it could not).
    pub message: Option<String>,
    /// Bumped whenever a reading or the judgement changes (the graph and
    /// the move list redraw then).
    pub(super) version: u64,
}

impl<G: Playable> Review<G> {
    pub fn new(
        game: G,
        record: GameRecord<G>,
        setup: MatchSetup<G::Rules>,
        outcome: Option<Outcome>,
        back_to: Screen,
    ) -> Self {
        let positions = record.positions().len();
        Review {
            game,
            record,
            setup,
            outcome,
            ply: 0,
            readings: vec![None; positions],
            judged: None,
            exact_pending: false,
            exact: None,
            back_to,
            message: None,
            version: 0,
        }
    }

    /// The review of the game `m` (finished, or as far as it went).
    pub fn of_match(m: &Match<G>, back_to: Screen) -> Self {
        Self::new(
            m.game.clone(),
            m.record.clone(),
            m.setup.clone(),
            m.record.outcome(&m.game),
            back_to,
        )
    }

    /// The side whose view the evaluation takes: the player's against the
    /// CPU, the bottom one between two players.
    pub fn player(&self) -> Side {
        self.setup.bottom_side()
    }

    pub fn moves(&self) -> usize {
        self.record.moves().len()
    }

    /// Positions read so far.
    pub fn read_count(&self) -> usize {
        self.readings.iter().filter(|r| r.is_some()).count()
    }

    /// Every position is read and judged.
    pub fn finished(&self) -> bool {
        self.judged.is_some() && !self.exact_pending
    }

    /// The mistake the move played in position `ply` is, if it is one.
    pub fn mistake_at(&self, ply: usize) -> Option<Mistake<G::Move>> {
        self.judged.as_ref()?.mistakes.get(ply).copied().flatten()
    }

    /// The better move shown on the board now (the next move played was
    /// a mistake).
    pub fn suggestion(&self) -> Option<G::Move> {
        self.mistake_at(self.ply).map(|m| m.better)
    }

    /// Reads every position again (the game's knowledge changed: the
    /// exact tables came).
    pub fn read_again(&mut self) {
        self.readings.iter_mut().for_each(|r| *r = None);
        self.judged = None;
        self.version += 1;
    }

    /// Reads every position at once with `plan` and judges the game (the
    /// screenshots, which cannot wait for the background).
    pub fn read_all_now(&mut self, plan: crate::rules::search::SearchPlan) {
        for i in 0..self.readings.len() {
            let reading = review::read(
                &self.game,
                self.record.positions(),
                self.record.moves(),
                self.record.hashes(),
                self.outcome,
                i,
                plan.clone(),
            );
            self.store(i, reading);
        }
    }

    pub fn go_to(&mut self, ply: usize) {
        self.ply = ply.min(self.moves());
    }

    /// Stores the reading of position `i`, and judges the game once the
    /// last one is in.
    fn store(&mut self, i: usize, reading: Reading<G::Move>) {
        self.readings[i] = Some(reading);
        self.version += 1;
        let all: Option<Vec<Reading<G::Move>>> = self.readings.iter().copied().collect();
        if let Some(all) = all {
            self.judged = Some(review::judge(
                &self.game,
                self.record.positions(),
                self.record.moves(),
                &all,
                self.player(),
                G::REVIEW_MARGINS,
            ));
        }
    }
}

/// The reading under way on one position: first its best move, then the
/// move played there (by the same plan, for a fair comparison).
pub struct PositionReading<G: Playable> {
    index: usize,
    /// The first search's score and move, once it has answered.
    best: Option<(i32, G::Move)>,
    thinker: Thinker<G>,
}

#[derive(Resource)]
pub struct ReviewThink<G: Playable>(pub(super) Option<PositionReading<G>>);

/// The plan every position is read with.
fn plan<G: Playable>(presets: &Presets<G>) -> crate::rules::search::SearchPlan {
    review::review_plan(&presets.0.cpu.strong, G::REVIEW_NODES)
}

impl<G: Playable> Default for ReviewThink<G> {
    fn default() -> Self {
        ReviewThink(None)
    }
}

/// Reads the positions one after another: those the rules settle at once,
/// then a search for each of the others, one at a time.
pub(super) fn read_positions<G: Playable>(
    mut review: ResMut<Review<G>>,
    mut think: ResMut<ReviewThink<G>>,
    presets: Res<Presets<G>>,
    pace: Res<SearchPace>,
    mut slices: ResMut<ThinkingSlices>,
) {
    if review.judged.is_some() || review.exact_pending {
        think.0 = None;
        return;
    }
    // Only what changes the review touches it mutably: the screen redraws
    // on change.
    if let Some(reading) = think.0.as_mut() {
        let Some(answer) = reading.thinker.poll(&review.game, &mut slices) else {
            return;
        };
        let i = reading.index;
        let Some(r) = answer else {
            think.0 = None;
            review.store(i, Reading::Over { score: 0 });
            return;
        };
        match reading.best {
            // The best move found: if another was played, read that one.
            None => {
                let played = review.record.moves().get(i).copied();
                match played.filter(|&mv| mv != r.best) {
                    Some(mv) => {
                        let pos = &review.record.positions()[i];
                        reading.best = Some((r.score, r.best));
                        reading.thinker = Thinker::start(
                            &review.game,
                            pos.clone(),
                            &review.record.hashes()[..=i],
                            plan::<G>(&presets),
                            review::all_but(&review.game, pos, mv),
                            *pace,
                            true,
                        );
                        return;
                    }
                    None => {
                        think.0 = None;
                        review.store(
                            i,
                            Reading::Searched {
                                score: r.score,
                                best: r.best,
                                played: None,
                            },
                        );
                    }
                }
            }
            Some((score, best)) => {
                think.0 = None;
                review.store(
                    i,
                    Reading::Searched {
                        score,
                        best,
                        played: Some(r.score),
                    },
                );
            }
        }
    }
    let r = review.into_inner();
    while let Some(i) = r.readings.iter().position(Option::is_none) {
        let (positions, moves) = (r.record.positions(), r.record.moves());
        if let Some(reading) = review::settled(&r.game, positions, moves, r.outcome, i) {
            r.store(i, reading);
            continue;
        }
        let forbidden = review::forbidden_at(&r.game, positions, moves, i);
        think.0 = Some(PositionReading {
            index: i,
            best: None,
            thinker: Thinker::start(
                &r.game,
                positions[i].clone(),
                &r.record.hashes()[..=i],
                plan::<G>(&presets),
                forbidden,
                *pace,
                false,
            ),
        });
        break;
    }
}

/// The exact verdict on position `ply` for the player, as words, where the
/// game has exact knowledge of it (十六むさし's tables).
pub(crate) fn exact_words<G: Playable>(
    review: &Review<G>,
    ply: usize,
    lang: crate::shell::i18n::Lang,
) -> Option<String> {
    let player = review.player();
    Some(match review.exact.as_ref()?.get(ply).copied().flatten()? {
        Exact::WinIn { winner, plies } => {
            let key = if winner == player {
                T::ReviewWinIn
            } else {
                T::ReviewLossIn
            };
            key.get(lang).replace("{}", &plies.to_string())
        }
        Exact::Won { winner } if winner == player => T::ReviewWon.get(lang).to_string(),
        Exact::Won { .. } => T::ReviewLost.get(lang).to_string(),
    })
}
