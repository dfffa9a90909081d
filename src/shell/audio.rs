//! Sound effects through bevy_kira_audio. Sound is off until the player
//! turns it on (音:オフ → 音:オン); the browser also waits for a first
//! gesture, which web/index.html handles.

use bevy::prelude::*;
use bevy_kira_audio::prelude::*;

use super::settings::Settings;

/// A sound to play. Any system may write one; it is dropped when sound is off.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sfx {
    /// A piece put on a point: a tap that moves nothing yet, a stone or a
    /// まわり将棋 piece stepping on.
    Place,
    /// The 駒音: a moved piece set down on the board at the end of its move.
    Koma,
    Capture,
    Illegal,
    Win,
    Lose,
    Button,
    /// まわり将棋's koma-dice clattering onto the board (a quick throw,
    /// whose koma are not shown falling).
    Throw,
    /// One koma striking the board or another koma.
    Clack(Clack),
}

/// A koma's contact as a sound: which sample, how loud (0–100) and how
/// high (percent of the sample's own pitch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clack {
    pub on_koma: bool,
    /// Picks one of the samples, so that four koma do not sound as one.
    pub variant: u8,
    pub loudness: u8,
    pub pitch_percent: u8,
}

#[derive(Resource)]
pub(crate) struct SoundBank {
    place: Handle<AudioSource>,
    koma: Handle<AudioSource>,
    capture: Handle<AudioSource>,
    illegal: Handle<AudioSource>,
    win: Handle<AudioSource>,
    lose: Handle<AudioSource>,
    button: Handle<AudioSource>,
    throw: Handle<AudioSource>,
    clack_board: Vec<Handle<AudioSource>>,
    clack_koma: Vec<Handle<AudioSource>>,
}

/// The message only: for headless apps and tests, which have no audio.
pub(crate) fn messages_plugin(app: &mut App) {
    app.add_message::<Sfx>();
}

/// Loads the sounds and plays them.
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(AudioPlugin)
        .add_systems(Startup, load_sounds)
        .add_systems(Update, play_sounds);
}

impl SoundBank {
    /// Every sound, for the web page's loading bar.
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn ids(&self) -> Vec<bevy::asset::UntypedAssetId> {
        [
            &self.place,
            &self.koma,
            &self.capture,
            &self.illegal,
            &self.win,
            &self.lose,
            &self.button,
            &self.throw,
        ]
        .into_iter()
        .chain(&self.clack_board)
        .chain(&self.clack_koma)
        .map(|h| h.id().untyped())
        .collect()
    }
}

fn load_sounds(mut commands: Commands, assets: Res<AssetServer>) {
    commands.insert_resource(SoundBank {
        place: assets.load("sounds/place.ogg"),
        koma: assets.load("sounds/koma.ogg"),
        capture: assets.load("sounds/capture.ogg"),
        illegal: assets.load("sounds/illegal.ogg"),
        win: assets.load("sounds/win.ogg"),
        lose: assets.load("sounds/lose.ogg"),
        button: assets.load("sounds/button.ogg"),
        throw: assets.load("sounds/throw.ogg"),
        clack_board: (1..=3)
            .map(|i| assets.load(format!("sounds/clack_board{i}.ogg")))
            .collect(),
        clack_koma: (1..=2)
            .map(|i| assets.load(format!("sounds/clack_koma{i}.ogg")))
            .collect(),
    });
}

fn play_sounds(
    mut sfx: MessageReader<Sfx>,
    settings: Res<Settings>,
    bank: Res<SoundBank>,
    audio: Res<Audio>,
) {
    // A sound written twice in one frame (a button's click and the
    // command it gives) is heard once; koma-dice contacts all sound.
    let mut heard = Vec::new();
    for s in sfx.read() {
        if !settings.sound || heard.contains(s) {
            continue;
        }
        if !matches!(s, Sfx::Clack(_)) {
            heard.push(*s);
        }
        if let Sfx::Clack(clack) = s {
            let samples = if clack.on_koma {
                &bank.clack_koma
            } else {
                &bank.clack_board
            };
            if let Some(sample) = samples.get(clack.variant as usize % samples.len().max(1)) {
                // Loudness is heard on a log scale: 100 is the sample as
                // recorded, 10 about 30 dB down.
                let decibels = 30.0 * (f32::from(clack.loudness.max(1)) / 100.0).log10();
                audio
                    .play(sample.clone())
                    .with_volume(decibels.max(-40.0))
                    .with_playback_rate(f64::from(clack.pitch_percent) / 100.0);
            }
            continue;
        }
        let handle = match s {
            Sfx::Place => &bank.place,
            Sfx::Koma => &bank.koma,
            Sfx::Capture => &bank.capture,
            Sfx::Illegal => &bank.illegal,
            Sfx::Win => &bank.win,
            Sfx::Lose => &bank.lose,
            Sfx::Button => &bank.button,
            Sfx::Throw => &bank.throw,
            Sfx::Clack(_) => continue,
        };
        audio.play(handle.clone());
    }
}
