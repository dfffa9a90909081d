//! 振り返り: a finished game stepped through move by move (the keys ← and
//! →, the buttons, the move list, the graph), while the CPU reads every
//! position in the background (a thread natively, a slice a frame on the
//! web: the play screen's thinker) and the graph of its evaluation fills.
//! Moves after which the mover's evaluation fell by the game's margin are
//! marked 疑問手 or 悪手, and the position before one shows the search's
//! move as a dotted arrow. The last finished game of each game is kept, so
//! that its card on the list opens the review again.

mod view;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::play::begin_analysis;
use super::resume::chosen;
use super::session::{GameSave, Match, MatchSetup, Playable, Presets};
use crate::rules::game::{Outcome, Side};
use crate::rules::record::GameRecord;
use crate::rules::review::{self, Judged, Mistake, Reading};
use crate::shell::cpu::{SearchPace, Thinker, ThinkingSlices};
use crate::shell::files::{self, Exported};
use crate::shell::i18n::T;
use crate::shell::save::{LoadError, Store};
use crate::shell::screens::{ReviewRequest, quit_key};
use crate::shell::settings::Settings;
use crate::shell::{ChosenGame, Notice, PendingReview, Screen};

pub use view::{
    ReviewArrow, ReviewEvalFill, ReviewGraphBar, ReviewMoveEntry, ReviewPiece, eval_share,
};
pub(crate) use view::{button_row, send};

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

/// The result screen's 振り返る button (tests click it).
#[derive(Component)]
pub struct OpenReviewButton;

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
    /// Where やめる goes back to.
    pub back_to: Screen,
    /// Where 共有 wrote the game (or why it could not).
    pub message: Option<String>,
    /// Bumped whenever a reading or the judgement changes (the graph and
    /// the move list redraw then).
    version: u64,
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

    fn go_to(&mut self, ply: usize) {
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
pub struct ReviewThink<G: Playable>(Option<PositionReading<G>>);

/// The plan every position is read with.
fn plan<G: Playable>(presets: &Presets<G>) -> crate::rules::search::SearchPlan {
    review::review_plan(&presets.0.cpu.strong, G::REVIEW_NODES)
}

impl<G: Playable> Default for ReviewThink<G> {
    fn default() -> Self {
        ReviewThink(None)
    }
}

/// What the review screens need once, whatever the game.
pub fn shared_plugin(app: &mut App) {
    app.add_message::<ReviewCommand>()
        .init_resource::<view::Shown>()
        .add_systems(Update, review_keys.run_if(in_state(Screen::Review)));
}

pub fn plugin<G: Playable>(app: &mut App) {
    app.init_resource::<ReviewThink<G>>()
        .add_systems(
            OnEnter(Screen::Result),
            keep_finished::<G>
                .run_if(chosen(G::ID))
                .run_if(resource_exists::<Match<G>>),
        )
        .add_systems(
            Update,
            (
                open_requested::<G>,
                open_shared::<G>.run_if(|p: Res<PendingReview>| p.0.is_some()),
            ),
        )
        .add_systems(
            OnEnter(Screen::Review),
            view::enter::<G>
                .run_if(chosen(G::ID))
                .run_if(resource_exists::<Review<G>>),
        )
        .add_systems(OnExit(Screen::Review), leave::<G>)
        .add_systems(
            Update,
            (
                handle_commands::<G>,
                read_positions::<G>,
                view::draw_position::<G>,
                view::draw_graph::<G>,
                view::update_panel::<G>,
            )
                .chain()
                .after(review_keys)
                .run_if(in_state(Screen::Review))
                .run_if(chosen(G::ID))
                .run_if(resource_exists::<Review<G>>),
        );
}

/// The game just finished is kept for 振り返り from the list.
fn keep_finished<G: Playable>(m: Res<Match<G>>, mut store: ResMut<Store>) {
    if m.setup.analysing() {
        return;
    }
    if let Some(outcome) = m.record.outcome(&m.game) {
        let kept = FinishedGame {
            game: m.to_save(),
            outcome,
        };
        store.put(&G::ID.finished_key(), &kept);
    }
}

/// 振り返る on the result screen: the game just played.
pub(crate) fn open_from_result<G: Playable>(
    _: On<Pointer<Click>>,
    m: Option<Res<Match<G>>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(m) = m {
        commands.insert_resource(Review::of_match(&m, Screen::Result));
        next.set(Screen::Review);
    }
}

/// Rebuilds a kept game; the message says what is wrong with it.
fn load_finished<G: Playable>(store: &Store) -> Result<Review<G>, LoadError> {
    let kept = store.get::<FinishedGame<G::Rules, G::Move>>(&G::ID.finished_key())?;
    rebuild(kept, Screen::GameList).map_err(LoadError::Corrupt)
}

/// The review of a kept game, replayed through the rules.
fn rebuild<G: Playable>(
    kept: FinishedGame<G::Rules, G::Move>,
    back_to: Screen,
) -> Result<Review<G>, String> {
    let mut m = Match::<G>::from_save(kept.game)?;
    if m.record.outcome(&m.game).is_none() {
        m.record.end(kept.outcome);
    }
    Ok(Review::of_match(&m, back_to))
}

/// The text 共有 writes and a shared link carries: the finished game as
/// it is kept (its setup, start, moves and how it ended).
pub fn shared_text<G: Playable>(review: &Review<G>) -> Result<String, String> {
    let m = Match {
        game: review.game.clone(),
        record: review.record.clone(),
        setup: review.setup.clone(),
        elapsed: 0.0,
    };
    let outcome = review.outcome.ok_or("the game is not over")?;
    let kept = FinishedGame {
        game: m.to_save(),
        outcome,
    };
    ron::to_string(&kept).map_err(|e| e.to_string())
}

/// Reads [`shared_text`]; the message says what is wrong with it.
pub fn read_shared<G: Playable>(text: &str, back_to: Screen) -> Result<Review<G>, String> {
    let kept: FinishedGame<G::Rules, G::Move> =
        ron::from_str(text.trim()).map_err(|e| format!("not a kept game: {e}"))?;
    rebuild(kept, back_to)
}

/// A shared link's game (the web page's `#review=`, `--review`): its
/// review, or the list saying it could not be read.
fn open_shared<G: Playable>(
    mut pending: ResMut<PendingReview>,
    chosen_game: Res<ChosenGame>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut notice: ResMut<Notice>,
) {
    if chosen_game.0 != G::ID {
        return;
    }
    let Some(text) = pending.0.take() else {
        return;
    };
    match read_shared::<G>(&text, Screen::GameList) {
        Ok(review) => {
            commands.insert_resource(review);
            next.set(Screen::Review);
        }
        Err(e) => {
            warn!("the shared {} game: {e}", G::ID.id());
            notice.0 = Some(T::ReviewUnreadable);
            next.set(Screen::GameList);
        }
    }
}

/// 振り返る on the game's card: the last finished game, or the list again
/// (saying so) when it cannot be read.
fn open_requested<G: Playable>(
    mut requests: MessageReader<ReviewRequest>,
    mut store: ResMut<Store>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut notice: ResMut<Notice>,
) {
    for r in requests.read() {
        if r.0 != G::ID {
            continue;
        }
        match load_finished::<G>(&store) {
            Ok(review) => {
                commands.insert_resource(review);
                next.set(Screen::Review);
            }
            Err(e) => {
                if let LoadError::Corrupt(why) = &e {
                    warn!("discarding the {} game to review: {why}", G::ID.id());
                }
                store.remove(&G::ID.finished_key());
                notice.0 = Some(T::ReviewUnreadable);
                next.set(Screen::GameList);
            }
        }
    }
}

fn leave<G: Playable>(mut think: ResMut<ReviewThink<G>>) {
    // Dropping the thinker cancels its search.
    think.0 = None;
}

fn review_keys(keys: Res<ButtonInput<KeyCode>>, mut out: MessageWriter<ReviewCommand>) {
    let pressed = [
        (KeyCode::ArrowLeft, ReviewCommand::Previous),
        (KeyCode::ArrowRight, ReviewCommand::Next),
        (KeyCode::Home, ReviewCommand::First),
        (KeyCode::End, ReviewCommand::Last),
    ];
    for (key, cmd) in pressed {
        if keys.just_pressed(key) {
            out.write(cmd);
        }
    }
    if quit_key(&keys) {
        out.write(ReviewCommand::Back);
    }
}

fn handle_commands<G: Playable>(
    mut commands_in: MessageReader<ReviewCommand>,
    mut review: ResMut<Review<G>>,
    mut commands: Commands,
    m: Option<Res<Match<G>>>,
    settings: Res<Settings>,
    mut next: ResMut<NextState<Screen>>,
) {
    for &cmd in commands_in.read() {
        let ply = review.ply;
        match cmd {
            ReviewCommand::Analyse => {
                begin_analysis(
                    &mut commands,
                    &mut next,
                    m.as_deref().cloned(),
                    &review.game,
                    &review.record,
                    ply,
                    &review.setup,
                    Screen::Review,
                );
            }
            ReviewCommand::Share => {
                let lang = settings.lang;
                review.message = Some(match shared_text(&review) {
                    Ok(text) => share(&text, G::ID, lang),
                    Err(e) => format!("{}: {e}", T::ReviewExportFailed.get(lang)),
                });
            }
            ReviewCommand::First => review.go_to(0),
            ReviewCommand::Previous => review.go_to(ply.saturating_sub(1)),
            ReviewCommand::Next => review.go_to(ply + 1),
            ReviewCommand::Last => review.go_to(usize::MAX),
            ReviewCommand::GoTo(p) => review.go_to(p),
            ReviewCommand::Back => next.set(review.back_to),
        }
    }
}

/// Reads the positions one after another: those the rules settle at once,
/// then a search for each of the others, one at a time.
fn read_positions<G: Playable>(
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
        let Some(answer) = slices.time(|| reading.thinker.poll(&review.game)) else {
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

/// Writes the shared text out and says where it went.
fn share(text: &str, game: crate::rules::data::GameId, lang: crate::shell::i18n::Lang) -> String {
    match files::export_text("review", text, Some(files::Share::Review(game))) {
        Ok(Exported::File { file, copied }) => {
            let key = if copied {
                T::ReviewCopied
            } else {
                T::ReviewExported
            };
            format!("{} {file}", key.get(lang))
        }
        Ok(Exported::OnPage) => T::ReviewShownOnPage.get(lang).to_string(),
        Err(e) => format!("{}: {e}", T::ReviewExportFailed.get(lang)),
    }
}

/// The exact verdict on position `ply` for the player, as words, where the
/// game has exact knowledge of it (十六むさし's tables).
pub(crate) fn exact_words<G: Playable>(
    review: &Review<G>,
    ply: usize,
    lang: crate::shell::i18n::Lang,
) -> Option<String> {
    use crate::rules::game::Exact;
    let pos = review.record.positions().get(ply)?;
    let player = review.player();
    Some(match review.game.exact(pos)? {
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
