//! Sound effects through bevy_kira_audio. Sound is off until the player
//! turns it on (音:オフ → 音:オン); the browser also waits for a first
//! gesture, which web/index.html handles.

use bevy::prelude::*;
use bevy_kira_audio::prelude::*;
use serde::Deserialize;

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

/// Where each sound starts and ends in the one sheet they share
/// (assets/sounds/effects.ron, written with the sheet by
/// tools/make_assets.py): seconds from the sheet's start.
#[derive(Deserialize, Clone, Debug, PartialEq)]
struct SoundSheet {
    place: Cue,
    koma: Cue,
    capture: Cue,
    illegal: Cue,
    win: Cue,
    lose: Cue,
    button: Cue,
    throw: Cue,
    clack_board: Vec<Cue>,
    clack_koma: Vec<Cue>,
}

type Cue = (f64, f64);

const SHEET_CUES: &str = include_str!("../../assets/sounds/effects.ron");

/// Every cue of the sheet in the order the table gives them, or why the
/// table does not read.
pub fn sheet_cues() -> Result<Vec<(f64, f64)>, String> {
    let cues: SoundSheet = ron::from_str(SHEET_CUES).map_err(|e| format!("effects.ron: {e}"))?;
    let mut all = vec![
        cues.place,
        cues.koma,
        cues.capture,
        cues.illegal,
        cues.win,
        cues.lose,
        cues.button,
        cues.throw,
    ];
    all.extend(cues.clack_board);
    all.extend(cues.clack_koma);
    Ok(all)
}

/// The sheet as loaded, and each sound cut from it once it is in.
#[derive(Resource)]
pub struct SoundBank {
    sheet: Handle<AudioSource>,
    cues: SoundSheet,
    sounds: Option<Sounds>,
}

struct Sounds {
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
pub fn plugin(app: &mut App) {
    app.add_plugins(AudioPlugin)
        .add_systems(Startup, load_sounds)
        .add_systems(Update, (cut_sheet, play_sounds).chain());
}

impl SoundBank {
    /// Each sound's length in seconds as cut from the loaded sheet, in the
    /// order of [`sheet_cues`]; `None` until the sheet is in.
    pub fn cut_lengths(&self, sources: &Assets<AudioSource>) -> Option<Vec<f64>> {
        let sounds = self.sounds.as_ref()?;
        [
            &sounds.place,
            &sounds.koma,
            &sounds.capture,
            &sounds.illegal,
            &sounds.win,
            &sounds.lose,
            &sounds.button,
            &sounds.throw,
        ]
        .into_iter()
        .chain(&sounds.clack_board)
        .chain(&sounds.clack_koma)
        .map(|h| sources.get(h).map(|s| s.sound.duration().as_secs_f64()))
        .collect()
    }

    /// The sounds' file, for the web page's loading bar.
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn ids(&self) -> Vec<bevy::asset::UntypedAssetId> {
        vec![self.sheet.id().untyped()]
    }
}

fn load_sounds(mut commands: Commands, assets: Res<AssetServer>) {
    // The table is compiled in and checked by a test; were it ever
    // unreadable, the game goes on silent rather than stopping.
    match ron::from_str::<SoundSheet>(SHEET_CUES) {
        Ok(cues) => commands.insert_resource(SoundBank {
            sheet: assets.load("sounds/effects.ogg"),
            cues,
            sounds: None,
        }),
        Err(error) => error!("assets/sounds/effects.ron: {error}"),
    }
}

/// Once the sheet is loaded, makes each sound a slice of it (a cheap view
/// of the same samples).
fn cut_sheet(bank: Option<ResMut<SoundBank>>, mut sources: ResMut<Assets<AudioSource>>) {
    let Some(mut bank) = bank.filter(|bank| bank.sounds.is_none()) else {
        return;
    };
    let Some(sheet) = sources.get(&bank.sheet).map(|source| source.sound.clone()) else {
        return;
    };
    let mut cut = |&(start, end): &Cue| {
        sources.add(AudioSource {
            sound: sheet.slice(start..end),
        })
    };
    let cues = &bank.cues;
    let sounds = Sounds {
        place: cut(&cues.place),
        koma: cut(&cues.koma),
        capture: cut(&cues.capture),
        illegal: cut(&cues.illegal),
        win: cut(&cues.win),
        lose: cut(&cues.lose),
        button: cut(&cues.button),
        throw: cut(&cues.throw),
        clack_board: cues.clack_board.iter().map(&mut cut).collect(),
        clack_koma: cues.clack_koma.iter().map(&mut cut).collect(),
    };
    bank.sounds = Some(sounds);
}

fn play_sounds(
    mut sfx: MessageReader<Sfx>,
    settings: Res<Settings>,
    bank: Option<Res<SoundBank>>,
    audio: Res<Audio>,
) {
    // Until the sheet is in, a sound is dropped rather than kept for later.
    let Some(bank) = bank.as_ref().and_then(|bank| bank.sounds.as_ref()) else {
        sfx.clear();
        return;
    };
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
