//! What a throw did, played out on the board: each event moves the shown
//! pieces on, the named ones with a banner, a sound and the capture marks;
//! the pieces hop to where they are shown.

use bevy::prelude::*;

use super::scene::{
    BannerText, BoardPlace, Phase, PieceLook, RacePiece, Shown, piece_position, piece_rotation,
    spawn_piece_koma,
};
use super::session::MawariMatch;
use crate::games::art::{self, Art};
use crate::rules::mawari::race::{Event, Rank, TRACK};
use crate::shell::anim::{Lifetime, Tween};
use crate::shell::audio::Sfx;
use crate::shell::i18n::{Lang, T};
use crate::shell::settings::Settings;
use crate::shell::widgets::Fonts;

/// The banner for a named event.
pub(crate) fn event_banner(e: &Event, m: &MawariMatch, lang: Lang) -> Option<String> {
    let name = |p: usize| m.name(p, lang);
    let rank = |r: Rank| lang.pick(r.name_ja(), r.name_en()).to_string();
    let with_name = |key: T, p: usize| key.fill(lang, &[&name(p)]);
    Some(match *e {
        Event::Step { .. } => return None,
        Event::Promote { piece, to } => T::MawariPromote.fill(lang, &[&name(piece), &rank(to)]),
        Event::Demote { piece, to } => T::MawariDemote.fill(lang, &[&name(piece), &rank(to)]),
        Event::Kill { victim, .. } => with_name(T::MawariKill, victim),
        Event::Revive {
            piece, depth: 0, ..
        } => with_name(T::MawariRevive, piece),
        Event::Revive { piece, .. } => with_name(T::MawariStepOut, piece),
        Event::Yaito { victim, .. } => with_name(T::MawariYaito, victim),
        Event::Shinigami { stopper, .. } => with_name(T::MawariShinigami, stopper),
        Event::Nakayoshi { .. } => T::MawariNakayoshi.get(lang).into(),
        Event::WarStart { .. } => T::MawariWarStart.get(lang).into(),
        Event::WarThrow { piece, made } => {
            T::MawariWarThrow.fill(lang, &[&name(piece), &made, &TRACK])
        }
        Event::WarEnd { winner, .. } => with_name(T::MawariWarWon, winner),
        Event::Pussun { .. } => T::MawariPussun.get(lang).into(),
        Event::Senko { .. } => T::MawariSenkoKing.get(lang).into(),
        Event::Baba { .. } => T::MawariBabaStill.get(lang).into(),
        Event::OffBoard { .. } => T::MawariFellOff.get(lang).into(),
        Event::Rethrow { piece } => with_name(T::MawariRethrow, piece),
        Event::Onbu { piece } => with_name(T::MawariOnbu, piece),
        Event::Out { piece } => with_name(T::MawariIsOut, piece),
        Event::Skip { piece } => with_name(T::MawariSitsOut, piece),
        Event::Win { piece } => with_name(T::MawariWins, piece),
    })
}

fn apply_shown(shown: &mut Shown, e: &Event) {
    let p = &mut shown.pieces;
    match *e {
        Event::Step { piece, to } => p[piece].square = to,
        Event::Promote { piece, to } | Event::Demote { piece, to } => {
            p[piece].rank = to;
            if to != Rank::Osho {
                p[piece].onbu_left = None;
            }
        }
        Event::Kill { victim, .. } => p[victim].depth = 1,
        Event::Revive { piece, depth, .. } => p[piece].depth = depth,
        Event::Yaito { victim, .. } => p[victim].depth = (p[victim].depth + 1).min(2),
        Event::Shinigami { stopper, freed } => {
            p[stopper].depth = 1;
            p[freed].depth = p[freed].depth.saturating_sub(1);
        }
        Event::Onbu { piece } => p[piece].onbu_left = Some(TRACK),
        Event::Out { piece } => p[piece].out = true,
        _ => {}
    }
}

pub(crate) fn play_events(
    mut commands: Commands,
    time: Res<Time>,
    mut phase: ResMut<Phase>,
    m: Res<MawariMatch>,
    settings: Res<Settings>,
    mut shown: ResMut<Shown>,
    mut sfx: MessageWriter<Sfx>,
    mut banners: Query<&mut Text2d, With<BannerText>>,
    place: Res<BoardPlace>,
    art: Res<Art>,
) {
    let dt = time.delta_secs();
    if let Some((_, left)) = &mut shown.banner {
        *left -= dt;
        if *left <= 0.0 {
            shown.banner = None;
        }
    }
    if let Phase::Moving { events, t } = &mut *phase {
        *t -= dt;
        while *t <= 0.0 {
            let Some(e) = events.pop_front() else { break };
            apply_shown(&mut shown, &e);
            let step = if settings.reduced_motion { 0.04 } else { 0.13 };
            match e {
                Event::Step { .. } => {
                    *t += step;
                    sfx.write(Sfx::Place);
                }
                Event::WarThrow { .. } => {
                    *t += 0.6;
                }
                _ => {
                    if let Some(text) = event_banner(&e, &m, settings.lang) {
                        shown.banner = Some((text, 1.1));
                    }
                    mark_event(&mut commands, &art, &place, &shown, &e);
                    sfx.write(match e {
                        Event::Win { .. } => Sfx::Win,
                        Event::Kill { .. }
                        | Event::Shinigami { .. }
                        | Event::WarStart { .. }
                        | Event::Yaito { .. } => Sfx::Capture,
                        _ => Sfx::Button,
                    });
                    *t += 1.0;
                }
            }
        }
        if events.is_empty() && *t <= 0.0 {
            // The screen now shows exactly the rules' state.
            shown.pieces = m.race.pieces.clone();
            *phase = if m.race.is_over() {
                Phase::Over
            } else {
                Phase::Waiting
            };
        }
    }
    let text = shown
        .banner
        .as_ref()
        .map(|b| b.0.clone())
        .unwrap_or_default();
    for mut b in &mut banners {
        if b.0 != text {
            b.0 = text.clone();
        }
    }
}

/// The shared capture marks for the rules that strike a piece: a gold
/// frame round the piece that does it, a red ring on the one struck.
fn mark_event(commands: &mut Commands, art: &Art, place: &BoardPlace, shown: &Shown, e: &Event) {
    let (by, struck) = match *e {
        Event::Kill { victim, by } | Event::Yaito { victim, by } => (Some(by), victim),
        Event::Shinigami { stopper, .. } => (None, stopper),
        Event::WarEnd { winner, loser } => (Some(winner), loser),
        Event::Pussun { front, back } => (Some(front), back),
        _ => return,
    };
    let at = |i: usize| piece_position(place, &shown.pieces, i);
    if let Some(by) = by {
        art::spawn_gold_frame(commands, DespawnOnExit(place.screen), at(by), 0.9);
    }
    commands.spawn((
        DespawnOnExit(place.screen),
        Mesh2d(art.red_ring.clone()),
        MeshMaterial2d(art.red.clone()),
        Transform::from_translation(at(struck).extend(12.0)),
        Lifetime(0.9),
    ));
}

pub(crate) fn place_pieces(
    mut commands: Commands,
    shown: Res<Shown>,
    place: Res<BoardPlace>,
    art: Res<Art>,
    fonts: Res<Fonts>,
    mut pieces: Query<(
        Entity,
        &RacePiece,
        &mut PieceLook,
        &mut Transform,
        &mut Visibility,
        Has<Tween>,
    )>,
) {
    for (entity, piece, mut look, mut t, mut vis, moving) in &mut pieces {
        let Some(p) = shown.pieces.get(piece.0) else {
            continue;
        };
        let want = PieceLook {
            rank: p.rank,
            onbu: p.onbu_left.is_some(),
        };
        if *look != want {
            *look = want;
            commands.entity(entity).despawn_children();
            commands
                .entity(entity)
                .with_children(|c| spawn_piece_koma(c, &art, &fonts, piece.0, want));
        }
        // A hop to the square the piece has reached (one square a beat
        // while a throw plays out; the shared tween, so reduced motion
        // puts it there at once).
        let z = 5.0 + piece.0 as f32;
        let target = piece_position(&place, &shown.pieces, piece.0).extend(z);
        if !moving && t.translation.truncate().distance(target.truncate()) > 0.5 {
            commands.entity(entity).insert(Tween::hops(
                &[t.translation.with_z(z), target],
                0.11,
                10.0,
            ));
        }
        t.rotation = piece_rotation(p);
        let faded = if p.out {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        if *vis != faded {
            *vis = faded;
        }
    }
}
