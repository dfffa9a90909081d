//! What a throw did, played out on the board: each event moves the shown
//! pieces on, the named ones with a banner, a sound and the capture marks;
//! the pieces hop to where they are shown.

use bevy::prelude::*;

use super::look::{CELL, colour_of, mark_of};
use super::scene::{
    BannerText, BoardPlace, Phase, PieceLook, RacePiece, Shown, piece_position, piece_rotation,
    spawn_piece_koma,
};
use super::session::MawariMatch;
use crate::games::art::{self, Art};
use crate::rules::mawari::race::{BabaRule, Event, Rank, TRACK, War};
use crate::shell::anim::{Lifetime, Tween};
use crate::shell::audio::Sfx;
use crate::shell::i18n::{Lang, T};
use crate::shell::settings::Settings;
use crate::shell::widgets::{Fonts, palette};
use bevy::sprite::Anchor;

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
        Event::WarEnd { winner, loser } => {
            T::MawariWarWon.fill(lang, &[&name(winner), &name(loser)])
        }
        Event::Pussun { .. } => T::MawariPussun.get(lang).into(),
        Event::Senko { .. } => T::MawariSenkoKing.get(lang).into(),
        Event::Baba { .. } if m.race.rules.baba == BabaRule::Back => {
            T::MawariBabaGoesBack.get(lang).into()
        }
        Event::Baba { .. } => T::MawariBabaStill.get(lang).into(),
        Event::OffBoard { .. } => T::MawariFellOff.get(lang).into(),
        Event::Rethrow { piece } => with_name(T::MawariRethrow, piece),
        Event::Onbu { piece } => with_name(T::MawariOnbu, piece),
        Event::Out { piece } => with_name(T::MawariIsOut, piece),
        Event::Skip { piece } => with_name(T::MawariSitsOut, piece),
        Event::Win { piece } => with_name(T::MawariWins, piece),
        Event::Finish { piece, place } => T::MawariFinish.fill(lang, &[&name(piece), &place]),
        Event::GoesFirst { piece } => with_name(T::MawariGoesFirst, piece),
        Event::DrawAgain { tied } => {
            let names: Vec<String> = (0..4).filter(|&i| tied[i]).map(name).collect();
            T::MawariDrawAgain.fill(lang, &[&names.join("・")])
        }
    })
}

fn apply_shown(shown: &mut Shown, e: &Event) {
    match *e {
        Event::WarStart { first, second } => {
            shown.war = Some(War {
                first,
                second,
                made: [0, 0],
                next: 0,
            });
        }
        Event::WarThrow { piece, made } => {
            if let Some(w) = &mut shown.war {
                let side = usize::from(piece != w.first);
                w.made[side] = made;
            }
        }
        Event::WarEnd { .. } => shown.war = None,
        Event::Finish { piece, .. } => shown.finished.push(piece),
        _ => {}
    }
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
    // Counting down inside a phase is no change of phase: the panel, which
    // is rebuilt on a change, would otherwise be rebuilt every frame (and a
    // button pressed in one frame would be gone before it is released).
    if let Phase::Moving { events, t } = phase.bypass_change_detection() {
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
                    // The war's count so far, by the piece (see
                    // `show_marks`) and in the banner.
                    if let Some(text) = event_banner(&e, &m, settings.lang) {
                        shown.banner = Some((text, 1.0));
                    }
                    *t += 0.9;
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
            let banner = shown.banner.take();
            *shown = Shown {
                banner,
                ..Shown::of(&m)
            };
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
    m: Res<MawariMatch>,
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
            commands.entity(entity).with_children(|c| {
                spawn_piece_koma(
                    c,
                    &art,
                    &fonts,
                    (colour_of(&m, piece.0), mark_of(&m, piece.0)),
                    want,
                )
            });
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
        // At war the two turn to face each other across the board.
        let at_war = shown
            .war
            .is_some_and(|w| w.first == piece.0 || w.second == piece.0);
        t.rotation = if at_war {
            facing_centre(&place, p.square)
        } else {
            piece_rotation(p)
        };
        // One through (playing on for places) stays on its square.
        let faded = if p.out && !shown.finished.contains(&piece.0) {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        if *vis != faded {
            *vis = faded;
        }
    }
}

/// The way from edge square `sq` into the board: x and y each -1, 0 or 1.
fn into_board(place: &BoardPlace, sq: u8) -> Vec2 {
    let (c, r) = place.cell(sq);
    let away = |k: i32| match k {
        0 => 1.0,
        8 => -1.0,
        _ => 0.0,
    };
    Vec2::new(away(c), away(r))
}

/// A koma on edge square `sq` turned to point at the board's centre.
fn facing_centre(place: &BoardPlace, sq: u8) -> Quat {
    let d = into_board(place, sq);
    Quat::from_rotation_z(d.y.atan2(d.x) - std::f32::consts::FRAC_PI_2)
}

/// A word on the board beside a piece or a square: the war's count by
/// each side, the square where an おんぶ lap ends and how far it is, the
/// place of one through.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardMark(pub u8);

/// Keeps the board's marks ([`BoardMark`]) to what is shown.
pub(crate) fn show_marks(
    mut commands: Commands,
    shown: Res<Shown>,
    m: Res<MawariMatch>,
    place: Res<BoardPlace>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    mut marks: Query<(
        Entity,
        &BoardMark,
        &mut Text2d,
        &mut Transform,
        &mut TextColor,
        &mut Anchor,
    )>,
) {
    let lang = settings.lang;
    let at = |i: usize| piece_position(&place, &shown.pieces, i);
    // Marks stand inside the board from the piece (the edge squares have
    // no room outside), a 王将's lap count a little further in.
    let inward = |i: usize, far: f32| {
        let dir = into_board(&place, shown.pieces[i].square);
        // Beside the piece, the text leaning away from it.
        let lean = Vec2::new(-dir.x * 0.5, -dir.y * 0.5);
        (at(i) + dir.normalize_or_zero() * CELL * far * 0.55, lean)
    };
    let mut want: Vec<(u8, String, (Vec2, Vec2), Color)> = Vec::new();
    if let Some(w) = shown.war {
        for (side, piece) in [w.first, w.second].into_iter().enumerate() {
            if piece < shown.pieces.len() {
                want.push((
                    side as u8,
                    T::MawariWarMark.fill(lang, &[&w.made[side], &TRACK]),
                    inward(piece, 1.0),
                    palette::VERMILION,
                ));
            }
        }
    }
    for (i, p) in shown.pieces.iter().enumerate() {
        let colour = colour_of(&m, i);
        if let Some(left) = p.onbu_left
            && !p.out
        {
            // The goal's mark stands a square inward of the goal, clear of
            // a koma standing on it and of the lap count beside the 王将.
            let goal = (p.square + left) % TRACK;
            let (c, r) = place.cell(goal);
            let centre = place.centre + Vec2::new((c - 4) as f32 * CELL, (r - 4) as f32 * CELL);
            let dir = into_board(&place, goal);
            want.push((
                10 + i as u8,
                T::MawariOnbuGoal.get(lang).to_string(),
                (
                    centre + dir.normalize_or_zero() * CELL * 0.95,
                    Vec2::new(-dir.x * 0.5, -dir.y * 0.5),
                ),
                colour,
            ));
            let far = if shown.war.is_some_and(|w| w.first == i || w.second == i) {
                2.2
            } else {
                0.7
            };
            want.push((
                20 + i as u8,
                T::MawariOnbuLeft.fill(lang, &[&left]),
                inward(i, far),
                colour,
            ));
        }
        if let Some(k) = shown.finished.iter().position(|&q| q == i) {
            want.push((
                30 + i as u8,
                T::MawariPlace.fill(lang, &[&(k + 1)]),
                inward(i, 0.7),
                colour,
            ));
        }
    }
    let mut have = Vec::new();
    for (entity, mark, mut text, mut t, mut colour, mut anchor) in &mut marks {
        match want.iter().find(|w| w.0 == mark.0) {
            Some((_, s, (pos, lean), c)) => {
                if anchor.0 != *lean {
                    anchor.0 = *lean;
                }
                if text.0 != *s {
                    text.0 = s.clone();
                }
                let to = pos.extend(30.0);
                if t.translation != to {
                    t.translation = to;
                }
                if colour.0 != *c {
                    colour.0 = *c;
                }
                have.push(mark.0);
            }
            None => commands.entity(entity).despawn(),
        }
    }
    for (key, s, (pos, lean), c) in want {
        if have.contains(&key) {
            continue;
        }
        commands.spawn((
            DespawnOnExit(place.screen),
            BoardMark(key),
            Text2d::new(s),
            TextFont {
                font: fonts.ui.clone().into(),
                font_size: FontSize::Px(17.0),
                ..default()
            },
            TextColor(c),
            Anchor(lean),
            Transform::from_translation(pos.extend(30.0)),
        ));
    }
}
