//! The CPU's turn and the hint, thought out off the frame (a thread, or
//! slices on the web), and the game clock.

use bevy::prelude::*;

use super::state::{Animating, ClockText, CpuThink, HintThink, PlayMove, PlayUi};
use crate::games::resume;
use crate::games::session::{Match, Opponent, Playable, Presets};
use crate::shell::cpu::{SearchPace, Thinker, ThinkingSlices};
use crate::shell::i18n::T;
use crate::shell::save::Store;
use crate::shell::settings::Settings;

/// Counts the time played, for games with a time limit, and ends the game
/// when it runs out (the clock stops during animations and once the game
/// is over).
#[allow(clippy::too_many_arguments)]
pub(super) fn tick_clock<G: Playable>(
    time: Res<Time>,
    mut m: ResMut<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut cpu: ResMut<CpuThink<G>>,
    mut hint: ResMut<HintThink<G>>,
    mut store: ResMut<Store>,
    settings: Res<Settings>,
    room: Res<crate::shell::rooms::RoomLink>,
    mut clocks: Query<&mut Text, With<ClockText>>,
) {
    let Some(limit) = G::TIME_LIMIT else { return };
    // 検討 has no clock.
    if m.setup.analysing() || m.record.outcome(&m.game).is_some() || ui.is_settling() {
        return;
    }
    // The clock moves every frame; the match only counts as changed (and
    // the HUD is redrawn) when the shown second changes or time is up.
    let before = m.elapsed;
    // A room's game runs on the server's clock, which ends it there.
    let remote = m.setup.opponent == Opponent::Remote;
    let played = if remote {
        room.0
            .as_ref()
            .and_then(|c| c.played_seconds())
            .unwrap_or(before)
    } else {
        before + time.delta_secs()
    };
    m.bypass_change_detection().elapsed = played.min(limit);
    let after = m.elapsed;
    if after >= limit && !remote {
        let outcome = m.game.time_up(m.record.current());
        m.record.end(outcome);
        cpu.0 = None;
        hint.0 = None;
        ui.clear_selection();
        ui.pending_sync = true;
        resume::forget(&mut store, &*m);
    }
    // A room's clocks (持ち時間, 秒読み) tick apart from the cutoff's
    // second, so their line is made every frame and written when it
    // changes.
    let sides = remote
        .then(|| room.0.as_ref().and_then(|c| c.clocks_line(settings.lang)))
        .flatten();
    if before.floor() != after.floor() || sides.is_some() || clocks.iter().any(|t| t.0.is_empty()) {
        let left = (limit - after).max(0.0) as u32;
        let mut text = format!(
            "{} {}:{:02}",
            T::TimeLeft.get(settings.lang),
            left / 60,
            left % 60
        );
        if let Some(sides) = sides {
            text = format!("{text}\n{sides}");
        }
        for mut t in &mut clocks {
            if t.0 != text {
                t.0.clone_from(&text);
            }
        }
    }
}

pub(super) fn cpu_turn<G: Playable>(
    m: Res<Match<G>>,
    ui: Res<PlayUi<G>>,
    presets: Res<Presets<G>>,
    animating: Animating,
    mut cpu: ResMut<CpuThink<G>>,
    pace: Res<SearchPace>,
    mut slices: ResMut<ThinkingSlices>,
    mut moves: MessageWriter<PlayMove<G>>,
) {
    let Opponent::Cpu(strength) = m.setup.opponent else {
        return;
    };
    if m.human_to_move()
        || m.record.outcome(&m.game).is_some()
        || ui.is_settling()
        || !animating.is_empty()
    {
        return;
    }
    match cpu.0.as_mut() {
        None => {
            let plan = presets.0.cpu.get(strength).plan(&mut rand::rng());
            cpu.0 = Some(Thinker::start(
                &m.game,
                m.record.current().clone(),
                m.record.hashes(),
                plan,
                m.record.forbidden_moves(&m.game),
                *pace,
                false,
            ));
        }
        Some(thinker) => {
            if let Some(answer) = thinker.poll(&m.game, &mut slices) {
                cpu.0 = None;
                if let Some(result) = answer {
                    moves.write(PlayMove(result.best));
                }
            }
        }
    }
}

pub(super) fn poll_hint<G: Playable>(
    m: Res<Match<G>>,
    mut hint: ResMut<HintThink<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut slices: ResMut<ThinkingSlices>,
    settings: Res<Settings>,
) {
    let Some(thinker) = hint.0.as_mut() else {
        return;
    };
    if let Some(answer) = thinker.poll(&m.game, &mut slices) {
        hint.0 = None;
        ui.hint = answer.map(|r| r.best);
        ui.dirty = true;
        // Games with a written record say the hint in words too.
        if let Some(best) = ui.hint
            && let Some(words) = m.game.hint_text(&m.record, best, &settings)
        {
            ui.message = Some(format!("{}: {words}", T::Hint.get(settings.lang)));
        }
    }
}
