//! Player settings: language, sound, reduced motion, piece design. They are
//! saved whenever they change.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::i18n::Lang;
use super::save::Store;

/// Which piece design is drawn (駒のデザイン).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PieceStyle {
    #[default]
    Koma,
    Symbol,
}

#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub lang: Lang,
    /// Sound starts off, as in the seeds.
    pub sound: bool,
    pub reduced_motion: bool,
    pub piece_style: PieceStyle,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lang: Lang::Ja,
            sound: false,
            reduced_motion: false,
            piece_style: PieceStyle::Koma,
        }
    }
}

pub(crate) const SETTINGS_KEY: &str = "settings";

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, save_settings);
}

/// Loads the settings; unreadable settings fall back to the defaults.
pub fn load(store: &Store) -> Settings {
    store.get(SETTINGS_KEY).unwrap_or_default()
}

fn save_settings(settings: Res<Settings>, mut store: ResMut<Store>) {
    if settings.is_changed() && !settings.is_added() {
        store.put(SETTINGS_KEY, &*settings);
    }
}
