//! 続きから for every game: a match that is saved after each move or
//! throw and resumed from the list ([`Resumable`]: the two-player matches
//! and まわり将棋's race), stored under its game's key, and the run
//! condition that picks the game chosen on the list.

use bevy::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::rules::data::GameId;
use crate::shell::i18n::T;
use crate::shell::save::{LoadError, Store};
use crate::shell::screens::ResumeRequest;
use crate::shell::{ChosenGame, Notice, Screen};

/// A game in progress that 続きから brings back.
pub(crate) trait Resumable: Resource + Sized {
    /// The game it is a match of (its save key and its card on the list).
    const GAME: GameId;
    /// What is read back from the store.
    type Save: DeserializeOwned;

    /// What is written to the store (read back as [`Resumable::Save`]).
    fn save(&self) -> impl Serialize + '_;
    /// Rebuilds the match from what was stored; the message says what is
    /// wrong with a save that cannot be played.
    fn resume(save: Self::Save) -> Result<Self, String>;
    /// Whether 続きから is to bring this match back (検討 is not: it must
    /// leave the game saved before it untouched).
    fn kept(&self) -> bool {
        true
    }
}

/// Run condition: `game` is the one chosen on the list.
pub(crate) fn chosen(game: GameId) -> impl FnMut(Res<ChosenGame>) -> bool + Clone {
    move |chosen: Res<ChosenGame>| chosen.0 == game
}

/// Stores `m` for 続きから.
pub(crate) fn keep<R: Resumable>(store: &mut Store, m: &R) {
    if m.kept() {
        store.put(&R::GAME.save_key(), &m.save());
    }
}

/// Drops the save (`m` is over).
pub(crate) fn forget<R: Resumable>(store: &mut Store, m: &R) {
    if m.kept() {
        store.remove(&R::GAME.save_key());
    }
}

/// Loads the save of `R`'s game. A corrupt or foreign save is removed and
/// reported; the caller starts a fresh game instead.
pub(crate) fn load<R: Resumable>(store: &mut Store) -> Result<R, LoadError> {
    let key = R::GAME.save_key();
    let result = store
        .get::<R::Save>(&key)
        .and_then(|s| R::resume(s).map_err(LoadError::Corrupt));
    if let Err(LoadError::Corrupt(why)) = &result {
        warn!("discarding the {} save: {why}", R::GAME.id());
        store.remove(&key);
    }
    result
}

/// 続きから on `R`'s card: the saved match on the play screen, the setup
/// screen when there is none, or the list again (saying so) when the save
/// could not be read.
pub(crate) fn handle_resume<R: Resumable>(
    mut requests: MessageReader<ResumeRequest>,
    mut store: ResMut<Store>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut notice: ResMut<Notice>,
) {
    for r in requests.read() {
        if r.0 != R::GAME {
            continue;
        }
        match load::<R>(&mut store) {
            Ok(m) => {
                commands.insert_resource(m);
                next.set(Screen::Play);
            }
            Err(LoadError::Missing) => next.set(Screen::Setup),
            Err(LoadError::Corrupt(_)) => {
                notice.0 = Some(T::SaveDiscarded);
                next.set(Screen::GameList);
            }
        }
    }
}
