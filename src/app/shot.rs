//! `yorimichi screenshot <scene> <out.png>`: renders one scene with the real
//! renderer, saves it, and exits. Time advances a fixed 1/60 s per frame so
//! that animations are caught at the same moment every run. Screenshots
//! never touch the player's saves.

use std::time::Duration;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::time::TimeUpdateStrategy;

use super::Screen;
use super::save::Store;
use super::settings::{PieceStyle, Settings};
use crate::games::hasami::play::PlayMove;
use crate::games::hasami::{HasamiMatch, MatchSetup, Opponent};
use crate::rules::game::Side;
use crate::rules::hasami::{HasamiMove, HasamiPos, HasamiRules};
use crate::rules::record::GameRecord;

/// The scenes `yorimichi screenshot` knows.
pub const SCENES: [&str; 8] = [
    "title",
    "list",
    "hasami",
    "hasami-symbol",
    "hasami-capture",
    "hasami-setup",
    "hasami-tutorial",
    "hasami-rules",
];

#[derive(Resource, Clone, Debug)]
pub struct ScreenshotJob {
    pub scene: String,
    pub path: std::path::PathBuf,
    frame: u32,
    requested_at: Option<u32>,
}

impl ScreenshotJob {
    pub fn new(scene: &str, path: impl Into<std::path::PathBuf>) -> Self {
        ScreenshotJob {
            scene: scene.to_string(),
            path: path.into(),
            frame: 0,
            requested_at: None,
        }
    }
}

/// Frames to wait for fonts and the first layout before capturing.
const SETTLE_FRAMES: u32 = 40;
/// Frames after the capture move: the gold frames and red rings are shown.
const CAPTURE_FRAMES: u32 = 30;

pub fn install(app: &mut App, job: ScreenshotJob) {
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )))
    // A fresh store in a temporary folder: the scenes look as they do for a
    // player with saves on, and never touch the player's saves.
    .insert_resource(scratch_store())
    .insert_resource(job)
    .add_systems(Update, drive);
}

#[cfg(target_arch = "wasm32")]
fn scratch_store() -> Store {
    Store::new(None)
}

#[cfg(not(target_arch = "wasm32"))]
fn scratch_store() -> Store {
    let dir = std::env::temp_dir().join(format!("yorimichi-screenshot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    match std::fs::create_dir_all(&dir) {
        Ok(()) => Store::new(Some(bevy_pkv::PkvStore::new_in_dir(&dir))),
        Err(_) => Store::new(None),
    }
}

fn sample_match(setup_opponent: Opponent) -> HasamiMatch {
    let setup = MatchSetup {
        opponent: setup_opponent,
        human_side: Side::First,
        preset: "standard".into(),
        rules: HasamiRules::STANDARD,
        undo_allowed: true,
    };
    HasamiMatch::new(setup).unwrap_or_else(|e| panic!("{e}"))
}

fn capture_match() -> HasamiMatch {
    let mut m = sample_match(Opponent::Human);
    let rows = [
        "S.S.S..SS",
        ".........",
        ".S.......",
        "...SSF...",
        ".........",
        "......F..",
        ".F.......",
        ".........",
        "F.FF..F.F",
    ];
    let pos = HasamiPos::from_rows(&rows, Side::First, [1, 1]).unwrap_or_else(|e| panic!("{e}"));
    m.record = GameRecord::from_position(&m.game, pos);
    m
}

fn drive(
    mut job: ResMut<ScreenshotJob>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut settings: ResMut<Settings>,
    mut moves: MessageWriter<PlayMove>,
    mut exit: MessageWriter<AppExit>,
    matches: Option<Res<HasamiMatch>>,
) {
    job.frame += 1;
    let f = job.frame;
    let scene = job.scene.clone();
    if f == 1 {
        settings.piece_style = if scene == "hasami-symbol" {
            PieceStyle::Symbol
        } else {
            PieceStyle::Koma
        };
        match scene.as_str() {
            "title" => {}
            "list" => next.set(Screen::GameList),
            "hasami-setup" => {
                // Show the 自分で決める options too.
                commands.insert_resource(crate::games::hasami::SetupDraft {
                    preset: "custom".into(),
                    ..default()
                });
                next.set(Screen::Setup);
            }
            "hasami-tutorial" => next.set(Screen::Tutorial),
            "hasami-rules" => next.set(Screen::Rules),
            "hasami" | "hasami-symbol" => {
                commands.insert_resource(sample_match(Opponent::Cpu(
                    crate::rules::data::Strength::Normal,
                )));
                next.set(Screen::Play);
            }
            "hasami-capture" => {
                commands.insert_resource(capture_match());
                next.set(Screen::Play);
            }
            other => {
                error!("unknown scene {other}");
                exit.write(AppExit::error());
            }
        }
        return;
    }
    let capture_at = SETTLE_FRAMES;
    if scene == "hasami-capture" && f == capture_at && matches.is_some() {
        // 7九→7四 sandwiches the two と on 6四 and 5四 against 4四.
        moves.write(PlayMove(HasamiMove { from: 74, to: 29 }));
    }
    let shoot_at = if scene == "hasami-capture" {
        capture_at + CAPTURE_FRAMES
    } else {
        SETTLE_FRAMES
    };
    if f == shoot_at {
        let path = job.path.clone();
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path));
        job.requested_at = Some(f);
    }
    if let Some(at) = job.requested_at {
        if job.path.exists() && f > at + 2 {
            exit.write(AppExit::Success);
        } else if f > at + 600 {
            error!("the screenshot was not written");
            exit.write(AppExit::error());
        }
    }
}
