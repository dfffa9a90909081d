//! Throwing the koma-dice: the person's drag across the board (or a tap),
//! the CPU's throw after a moment, the throw simulated and played into the
//! race (and saved), then shown in the air and read.
//!
//! In a room's race the person's throw is not played here: the room
//! (`room`, a floor above) sends it and writes back the room's throws as
//! [`RoomThrow`]s, which are played here as any throw.

use bevy::prelude::*;

use super::dice_view::DiceSprites;
use super::finished::keep_finished;
use super::look::CELL;
use super::scene::{BoardPlace, Dice, Phase, Shown};
use super::session::{MawariMatch, Seat};
use crate::games::resume;
use crate::rules::mawari::dice::{Pose, ThrowValue, Toss};
use crate::rules::mawari::physics::{IMPACT_MIN, Impact};
use crate::rules::mawari::race::RaceText;
use crate::shell::audio::{Clack, Sfx};
use crate::shell::i18n::{Lang, T};
use crate::shell::keys::ButtonFocus;
use crate::shell::layout::PointerInput;
use crate::shell::save::Store;
use crate::shell::settings::Settings;
use crate::shell::{GameProgress, Screen};

/// A throw asked for: by the person's drag, the 投げる button, or a test.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct ThrowRequest(pub Toss);

/// A throw the room made, to be simulated and played here.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct RoomThrow(pub Toss);

/// A natural throw for the person whose turn it is, when the board waits
/// for one (the 投げる button and the keyboard).
pub(crate) fn ask_for_throw(
    m: &mut MawariMatch,
    phase: &Phase,
    requests: &mut MessageWriter<ThrowRequest>,
) {
    if phase.is_waiting() && m.person_to_throw() {
        let seed = m.next_seed();
        requests.write(ThrowRequest(Toss::natural(seed)));
    }
}

/// Space or Enter throws, as the 投げる button does.
pub(crate) fn throw_key(
    keys: Res<ButtonInput<KeyCode>>,
    mut m: ResMut<MawariMatch>,
    phase: Res<Phase>,
    mut requests: MessageWriter<ThrowRequest>,
    focus: ButtonFocus,
) {
    if keys.any_just_pressed([KeyCode::Space, KeyCode::Enter]) && focus.focused().is_none() {
        ask_for_throw(&mut m, &phase, &mut requests);
    }
}

/// The person's throw: a drag across the board sets the toss's direction
/// and speed (a tap throws gently straight ahead).
pub(crate) fn throw_gesture(
    pointer: PointerInput,
    time: Res<Time<Real>>,
    place: Option<Res<BoardPlace>>,
    mut m: ResMut<MawariMatch>,
    phase: Res<Phase>,
    mut start: Local<Option<(Vec2, f64)>>,
    mut requests: MessageWriter<ThrowRequest>,
) {
    let Some(place) = place else { return };
    let Some(frame) = pointer.frame() else { return };
    let world = |s: Vec2| frame.world(s);
    let on_board = |w: Vec2| (w - place.centre).abs().max_element() < CELL * 4.5;
    if let Some(w) = frame.pressed.and_then(world) {
        *start = on_board(w).then_some((w, time.elapsed_secs_f64()));
    }
    if let Some(w) = frame.released.and_then(world)
        && let Some((from, at)) = start.take()
        && phase.is_waiting()
        && m.person_to_throw()
    {
        let drag = w - from;
        let seconds = (time.elapsed_secs_f64() - at).max(0.03);
        let speed = f64::from(drag.length()) / seconds;
        let seed = m.next_seed();
        let toss = if drag.length() < 12.0 {
            Toss::natural(seed)
        } else {
            Toss {
                dir_x: f64::from(drag.x),
                dir_y: f64::from(drag.y),
                // Screen pixels a second to the hand's cm a second.
                speed: speed / 9.0,
                seed,
            }
        };
        requests.write(ThrowRequest(toss));
    }
}

/// A player who sits the turn out (dead) is not asked to throw: the turn
/// passes with a banner (and is saved, as a throw is).
pub(crate) fn skip_dead_turns(
    mut m: ResMut<MawariMatch>,
    mut phase: ResMut<Phase>,
    place: Res<BoardPlace>,
    mut store: ResMut<Store>,
) {
    if place.screen != Screen::Play
        || !phase.is_waiting()
        || m.drawing()
        || m.race.is_over()
        || !m.race.sits_out()
    {
        return;
    }
    let events = m.race.skip_turn();
    resume::keep(&mut store, &*m);
    *phase = Phase::Moving {
        events: events.into(),
        t: 0.0,
    };
}

pub(crate) fn cpu_throws(
    time: Res<Time>,
    mut m: ResMut<MawariMatch>,
    phase: Res<Phase>,
    mut shown: ResMut<Shown>,
    place: Res<BoardPlace>,
    mut requests: MessageWriter<ThrowRequest>,
) {
    if place.screen != Screen::Play || !phase.is_waiting() || m.race.is_over() {
        shown.waited = 0.0;
        return;
    }
    let computer = m
        .thrower()
        .is_some_and(|p| m.seats.get(p) == Some(&Seat::Cpu));
    if !computer || (m.race.sits_out() && !m.drawing()) {
        return;
    }
    shown.waited += time.delta_secs();
    if shown.waited > 0.7 {
        shown.waited = 0.0;
        let seed = m.next_seed();
        requests.write(ThrowRequest(Toss::natural(seed)));
    }
}

/// Simulates a requested throw and plays it into the race (saved at once:
/// the animation only shows what has happened). In a room's game the
/// throws asked for here are the room's to send (`room::send_throws`), and
/// the room's throws are played.
pub(crate) fn start_throw(
    mut requests: MessageReader<ThrowRequest>,
    mut from_room: MessageReader<RoomThrow>,
    mut m: ResMut<MawariMatch>,
    mut phase: ResMut<Phase>,
    dice: Res<Dice>,
    place: Res<BoardPlace>,
    mut store: ResMut<Store>,
    mut progress: ResMut<GameProgress>,
    mut sfx: MessageWriter<Sfx>,
) {
    let in_room = m.room_events.is_some();
    let mut tosses: Vec<Toss> = requests
        .read()
        .filter(|_| !in_room)
        .map(|request| request.0)
        .collect();
    tosses.extend(from_room.read().map(|t| t.0));
    for toss in &tosses {
        if !phase.is_waiting() || m.race.is_over() || place.screen != Screen::Play {
            continue;
        }
        let Some(by) = m.thrower() else { continue };
        let throw = dice.0.throw(*toss, !m.quick);
        let events = m.play(&throw);
        progress.ply = m.log.len();
        progress.position = Some(RaceText::of(&m.race).write());
        progress.players = Some(m.players_text());
        if m.race.is_over() {
            resume::forget(&mut store, &*m);
            keep_finished(&mut store, &m);
        } else {
            resume::keep(&mut store, &*m);
        }
        // A quick throw is heard as one knock; a shown one sounds each
        // contact as the board shows it (`play_throw`).
        if m.quick {
            sfx.write(Sfx::Place);
        }
        *phase = if m.quick {
            Phase::Reading {
                throw,
                events,
                by,
                t: 0.0,
            }
        } else {
            Phase::Throwing {
                throw,
                events,
                by,
                t: 0.0,
            }
        };
    }
}

/// The value written beside a koma lying in pose `p`.
pub(crate) fn pose_label(p: Pose, lang: Lang) -> &'static str {
    match p {
        Pose::FaceUp => "1",
        Pose::FaceDown => "0",
        Pose::Side => T::MawariSide.get(lang),
        Pose::Upright => T::MawariUpright.get(lang),
        Pose::Leaning => T::MawariLeaning.get(lang),
        Pose::Stacked => T::MawariStacked.get(lang),
        Pose::OffBoard => T::MawariOffBoard.get(lang),
    }
}

/// What a throw came to: a number of squares, せんこ立ち or ばば.
pub(crate) fn value_text(v: ThrowValue, lang: Lang) -> String {
    match v {
        ThrowValue::Move(n) => T::MawariSquares.fill(lang, &[&n]),
        ThrowValue::Senko => T::MawariSenko.get(lang).into(),
        ThrowValue::Baba { .. } => T::MawariBaba.get(lang).into(),
        ThrowValue::OffBoard => T::MawariFellOff.get(lang).into(),
    }
}

/// More contacts than this in one frame are heard as these.
const MAX_CLACKS_AT_ONCE: usize = 3;

/// How a contact sounds: louder and a little higher the harder it struck
/// (loudness on a log scale from the weakest heard impact to thirty times
/// it), a koma on a koma higher than a koma on the board, and the sample
/// varied by koma and frame.
pub(crate) fn clack_of(impact: &Impact) -> Clack {
    let strength = (impact.impulse / IMPACT_MIN).max(1.0).ln() / 30f64.ln();
    let loudness = (10.0 + 90.0 * strength).clamp(10.0, 100.0) as u8;
    Clack {
        on_koma: impact.other.is_some(),
        variant: ((impact.body + impact.frame) % 6) as u8,
        loudness,
        pitch_percent: 92 + loudness / 8,
    }
}

pub(crate) fn play_throw(
    time: Res<Time>,
    mut phase: ResMut<Phase>,
    m: Res<MawariMatch>,
    settings: Res<Settings>,
    place: Res<BoardPlace>,
    mut shown: ResMut<Shown>,
    mut dice: DiceSprites,
    mut sfx: MessageWriter<Sfx>,
) {
    let dt = time.delta_secs();
    let lang = settings.lang;
    // As in `play_events`: only a new phase is a change.
    let next = match phase.bypass_change_detection() {
        Phase::Throwing {
            throw,
            events,
            by,
            t,
        } => {
            // The frames shown before this one have sounded already.
            let first_new = if *t == 0.0 {
                0
            } else {
                (*t * 60.0) as usize + 1
            };
            if *t == 0.0 {
                // The last throw's values go as this one leaves the hand.
                dice.hide_labels();
            }
            *t += dt;
            let frame = ((*t * 60.0) as usize).min(throw.frames.len().saturating_sub(1));
            throw
                .impacts
                .iter()
                .filter(|i| (first_new..=frame).contains(&i.frame))
                .take(MAX_CLACKS_AT_ONCE)
                .for_each(|i| {
                    sfx.write(Sfx::Clack(clack_of(i)));
                });
            if let Some(f) = throw.frames.get(frame) {
                dice.show(f, place.centre);
            }
            (frame + 1 >= throw.frames.len()).then(|| Phase::Reading {
                throw: throw.clone(),
                events: std::mem::take(events),
                by: *by,
                t: 0.0,
            })
        }
        Phase::Reading {
            throw,
            events,
            by,
            t,
        } => {
            if *t == 0.0 {
                // The koma at rest (also after a quick throw), each labelled.
                if let Some(f) = throw.frames.last() {
                    dice.show(f, place.centre);
                    dice.labels(&throw.poses.map(|p| pose_label(p, lang)), f, place.centre);
                }
                let value = value_text(throw.value, lang);
                // A practice throw (the tutorial) is nobody's turn.
                let text = if place.screen != Screen::Tutorial {
                    format!("{} {value}", m.name(*by, lang))
                } else {
                    value
                };
                shown.banner = Some((text, 1.2));
                sfx.write(Sfx::Place);
            }
            *t += dt;
            let hold = if m.quick || settings.reduced_motion {
                0.7
            } else {
                1.3
            };
            (*t > hold).then(|| Phase::Moving {
                events: std::mem::take(events).into(),
                t: 0.0,
            })
        }
        _ => None,
    };
    if let Some(n) = next {
        // A practice throw's values stay beside the koma until the next.
        if matches!(n, Phase::Moving { .. }) && place.screen != Screen::Tutorial {
            dice.hide_labels();
        }
        *phase = n;
    }
}
