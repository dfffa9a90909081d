//! Screens flow into each other: the new screen comes up out of the paper
//! in a short fade. Skipped with reduced motion, and in a captured scene
//! (its picture is of the screen, not of the fade).

use bevy::prelude::*;

use super::Screen;
use super::capture::ScreenshotJob;
use super::settings::Settings;
use super::widgets::palette;

/// Seconds the fade takes.
const FADE: f32 = 0.25;

/// The paper over a screen that has just come, fading away.
#[derive(Component, Clone, Copy, Debug)]
pub struct Fade {
    pub left: f32,
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        StateTransition,
        start_fade.after(bevy::state::state::StateTransitionSystems::EnterSchedules),
    )
    .add_systems(Update, run_fades);
}

fn start_fade(
    mut commands: Commands,
    mut transitions: MessageReader<StateTransitionEvent<Screen>>,
    settings: Res<Settings>,
    job: Option<Res<ScreenshotJob>>,
    mut fades: Query<&mut Fade>,
) {
    let changed = transitions
        .read()
        .any(|t| t.exited.is_some() && t.exited != t.entered);
    if !changed || settings.reduced_motion || job.is_some() {
        return;
    }
    // A fade under way starts again (only `run_fades` despawns one).
    if let Some(mut fade) = fades.iter_mut().next() {
        fade.left = FADE;
        return;
    }
    commands.spawn((
        Fade { left: FADE },
        Node {
            position_type: PositionType::Absolute,
            width: percent(100),
            height: percent(100),
            ..default()
        },
        BackgroundColor(palette::PAPER),
        GlobalZIndex(i32::MAX - 1),
        Pickable::IGNORE,
    ));
}

fn run_fades(
    time: Res<Time>,
    mut commands: Commands,
    mut fades: Query<(Entity, &mut Fade, &mut BackgroundColor)>,
) {
    for (entity, mut fade, mut colour) in &mut fades {
        fade.left -= time.delta_secs();
        if fade.left <= 0.0 {
            commands.entity(entity).despawn();
            continue;
        }
        let t = fade.left / FADE;
        colour.0 = palette::PAPER.with_alpha(t * t);
    }
}
