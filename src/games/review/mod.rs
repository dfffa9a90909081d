//! 振り返り: a finished game stepped through move by move (the keys ← and
//! →, the buttons, the move list, the graph), while the CPU reads every
//! position in the background (a thread natively, a slice a frame on the
//! web: the play screen's thinker) and the graph of its evaluation fills.
//! Moves after which the mover's evaluation fell by the game's margin are
//! marked 疑問手 or 悪手, and the position before one shows the search's
//! move as a dotted arrow. The last finished game of each game is kept, so
//! that its card on the list opens the review again.
//!
//! The review stands on the play screen (検討 from a position is the play
//! screen's); the result screen asks for it by an event (`ReviewAsked`).
//! In this folder `game` is the bottom, `view` draws on it, and this file
//! puts them together.

mod game;
mod view;

use bevy::input::ButtonState;
use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;

use super::play::{ReviewAsked, begin_analysis};
use super::resume::chosen;
use super::session::{Match, Playable};
use crate::shell::files::{self, Exported};
use crate::shell::i18n::T;
use crate::shell::save::{LoadError, Store};
use crate::shell::screens::{ReviewRequest, quit_key};
use crate::shell::settings::Settings;
use crate::shell::{ChosenGame, Notice, PendingReview, Screen};

pub use view::{
    ReviewArrow, ReviewEvalFill, ReviewGraphBar, ReviewMoveEntry, ReviewPanel, ReviewPiece,
    eval_share,
};
pub(crate) use view::{button_row, send};

use game::read_positions;
pub use game::{FinishedGame, PositionReading, Review, ReviewButton, ReviewCommand, ReviewThink};

/// What the review screens need once, whatever the game.
pub fn shared_plugin(app: &mut App) {
    app.add_message::<ReviewCommand>()
        .init_resource::<view::Shown>()
        .add_systems(Update, review_keys.run_if(in_state(Screen::Review)));
}

pub fn plugin<G: Playable>(app: &mut App) {
    app.init_resource::<ReviewThink<G>>()
        .add_observer(open_from_result::<G>)
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
                view::relayout::<G>,
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
fn open_from_result<G: Playable>(
    _: On<ReviewAsked<G>>,
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

/// Each press of a stepping key is a step: the keyboard's messages, not
/// the keys' state, so that two presses within one slow frame are two
/// (and a held key repeats).
fn review_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut presses: MessageReader<KeyboardInput>,
    mut out: MessageWriter<ReviewCommand>,
) {
    for press in presses.read().filter(|k| k.state == ButtonState::Pressed) {
        let cmd = match press.key_code {
            KeyCode::ArrowLeft => ReviewCommand::Previous,
            KeyCode::ArrowRight => ReviewCommand::Next,
            KeyCode::Home => ReviewCommand::First,
            KeyCode::End => ReviewCommand::Last,
            _ => continue,
        };
        out.write(cmd);
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
