//! Shared, data-driven animation: tweens that move an entity along a
//! straight line or an arc with easing, and short-lived markers (gold
//! frames, red rings). With reduced motion every tween ends at once. Time
//! comes from Bevy's `Time`, so tests can step it manually.

use bevy::prelude::*;

use super::audio::Sfx;
use super::settings::Settings;

/// Moves the entity's translation from `from` to `to`.
#[derive(Component, Clone, Debug)]
pub struct Tween {
    pub from: Vec3,
    pub to: Vec3,
    /// Seconds to wait before moving.
    pub delay: f32,
    pub duration: f32,
    pub elapsed: f32,
    /// Height of an arc above the straight path (a flight), 0 for a slide.
    pub arc: f32,
    /// Scale at the end (1 keeps the size).
    pub end_scale: f32,
    /// Despawn the entity when the tween ends.
    pub despawn_at_end: bool,
    /// Points passed on the way from `from` to `to` (a multi-jump): the
    /// move is split into equal hops, each with its own arc.
    pub via: Vec<Vec3>,
    /// How much bigger the entity grows mid-way, as if lifted off the
    /// board and set down again (0 for none).
    pub lift: f32,
    /// Heard when the entity comes to rest (a koma set down).
    pub landing: Option<Sfx>,
}

impl Tween {
    pub(crate) fn slide(from: Vec3, to: Vec3, duration: f32) -> Self {
        Tween {
            from,
            to,
            delay: 0.0,
            duration,
            elapsed: 0.0,
            arc: 0.0,
            end_scale: 1.0,
            despawn_at_end: false,
            via: Vec::new(),
            lift: 0.0,
            landing: None,
        }
    }
    /// Hops along `points` (at least two), `arc` high each.
    pub(crate) fn hops(points: &[Vec3], duration: f32, arc: f32) -> Self {
        let from = points.first().copied().unwrap_or_default();
        let to = points.last().copied().unwrap_or(from);
        let via = if points.len() > 2 {
            points[1..points.len() - 1].to_vec()
        } else {
            Vec::new()
        };
        Tween {
            arc,
            via,
            ..Tween::slide(from, to, duration)
        }
    }
    /// The same move, the entity lifted by `lift` mid-way.
    pub(crate) fn lifted(self, lift: f32) -> Self {
        Tween { lift, ..self }
    }
    /// The same move, `sound` heard when it ends.
    pub(crate) fn landing(self, sound: Sfx) -> Self {
        Tween {
            landing: Some(sound),
            ..self
        }
    }
    pub(crate) fn flight(
        from: Vec3,
        to: Vec3,
        delay: f32,
        duration: f32,
        arc: f32,
        end_scale: f32,
    ) -> Self {
        Tween {
            from,
            to,
            delay,
            duration,
            elapsed: 0.0,
            arc,
            end_scale,
            despawn_at_end: true,
            via: Vec::new(),
            lift: 0.0,
            landing: None,
        }
    }
}

/// Despawns the entity after `0` seconds (markers such as gold frames).
#[derive(Component, Clone, Debug)]
pub struct Lifetime(pub f32);

/// Smooth start and end.
pub(crate) fn ease_in_out(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, (run_tweens, run_lifetimes));
}

fn run_tweens(
    time: Res<Time>,
    settings: Res<Settings>,
    mut commands: Commands,
    mut tweens: Query<(Entity, &mut Tween, &mut Transform)>,
    mut sfx: MessageWriter<Sfx>,
) {
    let dt = time.delta_secs();
    for (entity, mut tween, mut transform) in &mut tweens {
        tween.elapsed += dt;
        let t = if settings.reduced_motion || tween.duration <= 0.0 {
            1.0
        } else {
            ((tween.elapsed - tween.delay) / tween.duration).clamp(0.0, 1.0)
        };
        let e = ease_in_out(t);
        let mut p = if tween.via.is_empty() {
            let mut p = tween.from.lerp(tween.to, e);
            p.y += tween.arc * (std::f32::consts::PI * t).sin();
            p
        } else {
            // Equal time per hop, eased within each hop.
            let stops: Vec<Vec3> = std::iter::once(tween.from)
                .chain(tween.via.iter().copied())
                .chain(std::iter::once(tween.to))
                .collect();
            let hops = (stops.len() - 1) as f32;
            let s = (t * hops).min(hops - 1e-4);
            let i = s.floor() as usize;
            let local = s - i as f32;
            let mut p = stops[i].lerp(stops[i + 1], ease_in_out(local));
            p.y += tween.arc * (std::f32::consts::PI * local).sin();
            if t >= 1.0 {
                p = tween.to;
            }
            p
        };
        // Fly above everything else while moving.
        if t > 0.0 && t < 1.0 {
            p.z = tween.from.z.max(tween.to.z) + 5.0;
        }
        transform.translation = p;
        let lift = 1.0 + tween.lift * (std::f32::consts::PI * t).sin();
        transform.scale = Vec3::splat((1.0 + (tween.end_scale - 1.0) * e) * lift);
        if t >= 1.0 {
            if let Some(sound) = tween.landing {
                sfx.write(sound);
            }
            if tween.despawn_at_end {
                commands.entity(entity).despawn();
            } else {
                commands.entity(entity).remove::<Tween>();
            }
        }
    }
}

fn run_lifetimes(
    time: Res<Time>,
    settings: Res<Settings>,
    mut commands: Commands,
    mut markers: Query<(Entity, &mut Lifetime)>,
) {
    for (entity, mut life) in &mut markers {
        life.0 -= if settings.reduced_motion {
            f32::INFINITY
        } else {
            time.delta_secs()
        };
        if life.0 <= 0.0 {
            commands.entity(entity).despawn();
        }
    }
}
