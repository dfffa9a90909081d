//! Saves and settings through `bevy_pkv` (native: a file in the user's data
//! folder; web: localStorage). Each game has its own key, so a corrupt save
//! of one game never touches another. Everything is stored as RON text with
//! a format version; anything unreadable is reported and discarded.

use bevy::prelude::*;
use bevy_pkv::PkvStore;
use serde::{Serialize, de::DeserializeOwned};

/// The version of the save format. Saves of other versions are discarded.
pub(crate) const SAVE_VERSION: u32 = 1;

/// The largest stored text read or written (1 MiB). The longest real save —
/// a 中将棋 game at its 300-move cap with the start and settings — is about
/// 10 KiB; anything far larger was not written by this game (a damaged
/// file, an edited store) and is refused before it is parsed, so that it
/// cannot stall the start of a game. localStorage holds about 5 MiB for
/// the whole page.
pub const MAX_SAVE_BYTES: usize = 1 << 20;

#[derive(serde::Serialize, serde::Deserialize)]
struct Envelope {
    version: u32,
    kind: String,
    body: String,
}

/// Why a save could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    Missing,
    Corrupt(String),
}

/// The key/value store, or none (saves off) when it could not be opened.
#[derive(Resource, Default)]
pub struct Store {
    pkv: Option<PkvStore>,
    /// A write was refused (the browser's storage full, the disk full):
    /// saves are off for the rest of the run, and the screen says so.
    refused: bool,
}

impl Store {
    pub fn new(pkv: Option<PkvStore>) -> Self {
        Store {
            pkv,
            refused: false,
        }
    }

    pub(crate) fn is_available(&self) -> bool {
        self.pkv.is_some()
    }

    /// Whether what is played is being kept: the store opened and has
    /// taken every write so far.
    pub fn saves_work(&self) -> bool {
        self.is_available() && !self.refused
    }

    /// Writes `value` under `key`; a failure is logged and turns saves off
    /// (shown on screen), never fatal.
    pub fn put<V: Serialize>(&mut self, key: &str, value: &V) {
        let Some(pkv) = self.pkv.as_mut() else { return };
        match encode(key, value) {
            Ok(text) if text.len() > MAX_SAVE_BYTES => {
                warn!("{key}: {} bytes is over the save limit", text.len());
                self.refused = true;
            }
            Ok(text) => {
                if let Err(e) = pkv.set_string(key, &text) {
                    warn!("could not save {key}: {e}; saves are off");
                    self.refused = true;
                }
            }
            Err(e) => warn!("could not encode {key}: {e}"),
        }
    }

    pub fn get<V: DeserializeOwned>(&self, key: &str) -> Result<V, LoadError> {
        let Some(pkv) = self.pkv.as_ref() else {
            return Err(LoadError::Missing);
        };
        let Ok(text) = pkv.get::<String>(key) else {
            return Err(LoadError::Missing);
        };
        decode(key, &text)
    }

    pub fn has(&self, key: &str) -> bool {
        self.pkv
            .as_ref()
            .is_some_and(|p| p.get::<String>(key).is_ok())
    }

    pub fn remove(&mut self, key: &str) {
        if let Some(pkv) = self.pkv.as_mut() {
            let _ = pkv.remove(key);
        }
    }

    /// Moves what is stored under `key` aside, unread, to `key` +
    /// `.unreadable` (the player's data is never thrown away for being
    /// unreadable here: a later version, or a person, may read it).
    pub fn set_aside(&mut self, key: &str) {
        let Some(pkv) = self.pkv.as_mut() else { return };
        if let Ok(text) = pkv.get::<String>(key) {
            let _ = pkv.set_string(format!("{key}.unreadable"), &text);
            let _ = pkv.remove(key);
        }
    }

    /// Raw access for tests of corrupt saves.
    pub fn get_raw(&self, key: &str) -> Option<String> {
        self.pkv.as_ref()?.get::<String>(key).ok()
    }

    /// Raw access for tests of corrupt saves.
    pub fn put_raw(&mut self, key: &str, text: &str) {
        if let Some(pkv) = self.pkv.as_mut() {
            let _ = pkv.set_string(key, text);
        }
    }
}

/// The stored text of `value` under `key`: RON in a versioned envelope.
pub fn encode<V: Serialize>(key: &str, value: &V) -> Result<String, ron::Error> {
    let env = Envelope {
        version: SAVE_VERSION,
        kind: key.to_string(),
        body: ron::to_string(value)?,
    };
    ron::to_string(&env)
}

/// Decodes a stored text: checks its size, then the envelope's version and
/// kind.
pub fn decode<V: DeserializeOwned>(key: &str, text: &str) -> Result<V, LoadError> {
    if text.len() > MAX_SAVE_BYTES {
        return Err(LoadError::Corrupt(format!(
            "{key}: {} bytes is far larger than any save (at most {MAX_SAVE_BYTES})",
            text.len()
        )));
    }
    let env: Envelope =
        ron::from_str(text).map_err(|e| LoadError::Corrupt(format!("{key}: {e}")))?;
    if env.version != SAVE_VERSION {
        return Err(LoadError::Corrupt(format!(
            "{key}: save format version {} is not {SAVE_VERSION}",
            env.version
        )));
    }
    if env.kind != key {
        return Err(LoadError::Corrupt(format!(
            "{key}: the save belongs to \"{}\"",
            env.kind
        )));
    }
    ron::from_str(&env.body).map_err(|e| LoadError::Corrupt(format!("{key}: {e}")))
}

/// Opens the platform's store. On failure the game still plays, without saves.
pub(crate) fn open_store() -> Store {
    #[cfg(target_arch = "wasm32")]
    {
        // localStorage may be missing (private mode) or blocked: probe it.
        let ok = web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .is_some();
        Store::new(ok.then(|| PkvStore::new("Yorimichi", "yorimichi")))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let store = std::panic::catch_unwind(|| PkvStore::new("Yorimichi", "yorimichi"));
        match store {
            Ok(s) => Store::new(Some(s)),
            Err(_) => {
                warn!("could not open the save store; saves are off");
                Store::new(None)
            }
        }
    }
}
