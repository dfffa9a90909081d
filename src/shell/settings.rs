//! Player settings: language, sound, reduced motion, piece design, the
//! board's wood, the text's size, and 中将棋's piece set and coordinates.
//! They are saved whenever they change.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::i18n::{Lang, T};
use super::save::Store;
pub use crate::rules::chu::notation::Coords;

/// Which piece design is drawn (駒のデザイン).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PieceStyle {
    #[default]
    Koma,
    Symbol,
}

/// The woods of the board and the koma (盤と駒の色).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BoardTheme {
    /// Kaya: the golden wood of the classic board.
    #[default]
    Kaya,
    /// Katsura: paler and cooler.
    Katsura,
    /// No grain, black lines on a pale board: for low vision.
    Contrast,
}

impl BoardTheme {
    pub const ALL: [BoardTheme; 3] = [BoardTheme::Kaya, BoardTheme::Katsura, BoardTheme::Contrast];

    /// Its name on the settings screen.
    pub fn text(self) -> T {
        match self {
            BoardTheme::Kaya => T::ThemeKaya,
            BoardTheme::Katsura => T::ThemeKatsura,
            BoardTheme::Contrast => T::ThemeContrast,
        }
    }
}

/// How big the UI's text is drawn (文字の大きさ), over the type scale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TextSize {
    #[default]
    Standard,
    Large,
    Larger,
}

impl TextSize {
    pub const ALL: [TextSize; 3] = [TextSize::Standard, TextSize::Large, TextSize::Larger];

    /// Its name on the settings screen.
    pub fn text(self) -> T {
        match self {
            TextSize::Standard => T::TextStandard,
            TextSize::Large => T::TextLarge,
            TextSize::Larger => T::TextLarger,
        }
    }

    /// How much bigger than the type scale.
    pub fn factor(self) -> f32 {
        match self {
            TextSize::Standard => 1.0,
            TextSize::Large => 1.2,
            TextSize::Larger => 1.4,
        }
    }
}

/// How 中将棋's koma are written (駒の字).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChuPieceSet {
    /// The full two-kanji names (獅子, 奔王), as on real koma.
    #[default]
    TwoKanji,
    /// One kanji, the traditional abbreviations (獅, 奔, 龍, 馬).
    OneKanji,
    /// Each koma's moves drawn on it around one kanji.
    Mnemonic,
}

impl ChuPieceSet {
    pub const ALL: [ChuPieceSet; 3] = [
        ChuPieceSet::TwoKanji,
        ChuPieceSet::OneKanji,
        ChuPieceSet::Mnemonic,
    ];

    /// Its name on the setup and settings screens.
    pub fn text(self) -> T {
        match self {
            ChuPieceSet::TwoKanji => T::ChuPiecesTwoKanji,
            ChuPieceSet::OneKanji => T::ChuPiecesOneKanji,
            ChuPieceSet::Mnemonic => T::ChuPiecesMnemonic,
        }
    }
}

/// The coordinates' name on the setup and settings screens.
pub fn coords_text(coords: Coords) -> T {
    match coords {
        Coords::Japanese => T::ChuCoordsJapanese,
        Coords::Lishogi => T::ChuCoordsLishogi,
        Coords::Western => T::ChuCoordsWestern,
    }
}

/// Settings saved before a field existed read it as its default.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub lang: Lang,
    /// Sound starts off, as on the source pages (the はさみ将棋 page says so).
    pub sound: bool,
    pub reduced_motion: bool,
    pub piece_style: PieceStyle,
    pub chu_pieces: ChuPieceSet,
    /// How 中将棋's squares are named: on the board, in the record and the
    /// hints.
    pub chu_coords: Coords,
    pub board_theme: BoardTheme,
    pub text_size: TextSize,
    /// The room server's address (`ws://…/ws` or `wss://…/ws`); none: the
    /// web page's own server, or one on this computer.
    pub server: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lang: Lang::Ja,
            sound: false,
            reduced_motion: false,
            piece_style: PieceStyle::Koma,
            chu_pieces: ChuPieceSet::TwoKanji,
            chu_coords: Coords::Japanese,
            board_theme: BoardTheme::Kaya,
            text_size: TextSize::Standard,
            server: None,
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
