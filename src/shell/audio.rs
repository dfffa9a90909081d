//! Sound effects through bevy_kira_audio. Sound is off until the player
//! turns it on (音:オフ → 音:オン); the browser also waits for a first
//! gesture, which web/index.html handles.

use bevy::prelude::*;
use bevy_kira_audio::prelude::*;

use super::settings::Settings;

/// A sound to play. Any system may write one; it is dropped when sound is off.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sfx {
    Place,
    Capture,
    Illegal,
    Win,
    Lose,
    Button,
    /// まわり将棋's koma-dice clattering onto the board.
    Throw,
}

#[derive(Resource)]
struct SoundBank {
    place: Handle<AudioSource>,
    capture: Handle<AudioSource>,
    illegal: Handle<AudioSource>,
    win: Handle<AudioSource>,
    lose: Handle<AudioSource>,
    button: Handle<AudioSource>,
    throw: Handle<AudioSource>,
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

fn load_sounds(mut commands: Commands, assets: Res<AssetServer>) {
    commands.insert_resource(SoundBank {
        place: assets.load("sounds/place.ogg"),
        capture: assets.load("sounds/capture.ogg"),
        illegal: assets.load("sounds/illegal.ogg"),
        win: assets.load("sounds/win.ogg"),
        lose: assets.load("sounds/lose.ogg"),
        button: assets.load("sounds/button.ogg"),
        throw: assets.load("sounds/throw.ogg"),
    });
}

fn play_sounds(
    mut sfx: MessageReader<Sfx>,
    settings: Res<Settings>,
    bank: Res<SoundBank>,
    audio: Res<Audio>,
) {
    for s in sfx.read() {
        if !settings.sound {
            continue;
        }
        let handle = match s {
            Sfx::Place => &bank.place,
            Sfx::Capture => &bank.capture,
            Sfx::Illegal => &bank.illegal,
            Sfx::Win => &bank.win,
            Sfx::Lose => &bank.lose,
            Sfx::Button => &bank.button,
            Sfx::Throw => &bank.throw,
        };
        audio.play(handle.clone());
    }
}
