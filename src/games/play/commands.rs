//! The play screen's commands (待った, ヒント, 投了, やめる, sound, export and
//! import) and the choice offered when taps leave one (成る / 成らない).

use bevy::prelude::*;

use super::input::busy;
use super::state::{
    Animating, ChoiceButton, ChoicePanel, ChoicePick, CpuThink, ExportButton, ExportPanel,
    ExportPick, HintThink, PlayCommand, PlayMove, PlayUi,
};
use crate::games::resume;
use crate::games::session::{Match, Opponent, Playable, Presets};
use crate::rules::data::GameId;
use crate::rules::taps;
use crate::shell::Screen;
use crate::shell::audio::Sfx;
use crate::shell::cpu::{SearchPace, Thinker};
use crate::shell::files::{self, Exported, Imported};
use crate::shell::i18n::{Lang, T};
use crate::shell::save::Store;
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, Fonts};

pub(super) fn handle_commands<G: Playable>(
    mut commands_in: MessageReader<PlayCommand>,
    mut m: ResMut<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut cpu: ResMut<CpuThink<G>>,
    mut hint: ResMut<HintThink<G>>,
    pace: Res<SearchPace>,
    mut store: ResMut<Store>,
    mut settings: ResMut<Settings>,
    presets: Res<Presets<G>>,
    animating: Animating,
    mut next: ResMut<NextState<Screen>>,
    mut moves: MessageWriter<PlayMove<G>>,
    mut sfx: MessageWriter<Sfx>,
) {
    for cmd in commands_in.read() {
        match cmd {
            PlayCommand::ToggleSound => {
                settings.sound = !settings.sound;
                sfx.write(Sfx::Button);
            }
            // 検討 has its own way out, no hint (it reads all the time)
            // and no resignation (`analysis.rs`).
            PlayCommand::Analyse | PlayCommand::LeaveAnalysis => {}
            PlayCommand::Quit | PlayCommand::Hint | PlayCommand::Resign if m.setup.analysing() => {}
            PlayCommand::Quit => {
                cpu.0 = None;
                hint.0 = None;
                sfx.write(Sfx::Button);
                next.set(Screen::GameList);
            }
            PlayCommand::StopJump => {
                if busy(&m, &ui, &animating) || ui.path.len() < 2 {
                    continue;
                }
                let legal = m.record.legal_moves(&m.game);
                let stops = taps::moves_along_in(&m.game, m.record.current(), &legal, &ui.path);
                match stops[..] {
                    [] => {
                        sfx.write(Sfx::Illegal);
                    }
                    [mv] => {
                        ui.path.clear();
                        ui.dirty = true;
                        moves.write(PlayMove(mv));
                    }
                    _ => {
                        ui.path.clear();
                        ui.choice = stops;
                        ui.dirty = true;
                    }
                }
            }
            PlayCommand::Undo => {
                if !m.setup.undo_allowed || !animating.is_empty() || ui.is_settling() {
                    continue;
                }
                if m.undo_for_player() {
                    cpu.0 = None;
                    hint.0 = None;
                    ui.record_replaced(m.record.moves().last().copied());
                    resume::keep(&mut store, &*m);
                    sfx.write(Sfx::Button);
                } else {
                    sfx.write(Sfx::Illegal);
                }
            }
            PlayCommand::Hint => {
                if busy(&m, &ui, &animating) || hint.0.is_some() {
                    continue;
                }
                let plan = presets.0.cpu.strong.hint_plan();
                hint.0 = Some(Thinker::start(
                    &m.game,
                    m.record.current().clone(),
                    m.record.hashes(),
                    plan,
                    m.record.forbidden_moves(&m.game),
                    *pace,
                    false,
                ));
            }
            PlayCommand::ExportPosition => {
                if m.game.export_forms().is_empty() {
                    let Some(code) = m.game.game_code(&m.record) else {
                        continue;
                    };
                    sfx.write(Sfx::Button);
                    ui.message = Some(export(&code, G::ID, settings.lang));
                } else {
                    sfx.write(Sfx::Button);
                    ui.choosing_export = true;
                }
            }
            PlayCommand::ImportPosition => {
                if !animating.is_empty() || ui.is_settling() {
                    continue;
                }
                let lang = settings.lang;
                sfx.write(Sfx::Button);
                // A game text copied from elsewhere comes first; else the
                // file (which the player may have edited).
                let pasted = files::pasted_text().is_some_and(|t| m.restart_from(&t).is_ok());
                let imported = if pasted {
                    Ok(true)
                } else {
                    files::import_text("position", G::ID).and_then(|found| match found {
                        Imported::Text(text) => m.restart_from(&text).map(|()| true),
                        Imported::OnPage => Ok(false),
                    })
                };
                ui.message = Some(match imported {
                    Ok(true) => {
                        cpu.0 = None;
                        hint.0 = None;
                        ui.record_replaced(None);
                        resume::keep(&mut store, &*m);
                        let key = if pasted {
                            T::PositionPasted
                        } else {
                            T::PositionImported
                        };
                        key.get(lang).to_string()
                    }
                    Ok(false) => T::PositionImportOnPage.get(lang).to_string(),
                    Err(e) => format!("{}: {e}", T::PositionUnreadable.get(lang)),
                });
            }
            PlayCommand::Resign => {
                if m.record.outcome(&m.game).is_some() || !animating.is_empty() || ui.is_settling()
                {
                    continue;
                }
                let side = match m.setup.opponent {
                    Opponent::Cpu(_) | Opponent::Remote => m.setup.human_side,
                    Opponent::Human | Opponent::Analysis => m.game.side_to_move(m.record.current()),
                };
                cpu.0 = None;
                hint.0 = None;
                ui.clear_selection();
                m.record.resign(side);
                ui.pending_sync = true;
            }
        }
    }
}

/// Writes `code` where the player can take it, and says where.
fn export(code: &str, game: GameId, lang: Lang) -> String {
    match files::export_text("position", code, Some(files::Share::Position(game))) {
        Ok(Exported::File { file, copied }) => {
            let key = if copied {
                T::PositionCopied
            } else {
                T::PositionExported
            };
            format!("{} {file}", key.get(lang))
        }
        Ok(Exported::OnPage) => T::PositionShownOnPage.get(lang).to_string(),
        Err(e) => format!("{}: {e}", T::PositionExportFailed.get(lang)),
    }
}

/// The form picked for 局面を書き出す: the game written in it, or nothing.
pub(super) fn handle_export_pick<G: Playable>(
    mut picks: MessageReader<ExportPick>,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    settings: Res<Settings>,
    mut sfx: MessageWriter<Sfx>,
) {
    for &ExportPick(pick) in picks.read() {
        if !ui.choosing_export {
            continue;
        }
        ui.choosing_export = false;
        sfx.write(Sfx::Button);
        if let Some(code) = pick.and_then(|form| m.game.game_code_as(&m.record, form)) {
            ui.message = Some(export(&code, G::ID, settings.lang));
        }
    }
}

/// Offers the export forms over the board: a button for each, and やめる.
pub(super) fn show_export_choice<G: Playable>(
    mut commands: Commands,
    m: Res<Match<G>>,
    ui: Res<PlayUi<G>>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    shown: Query<Entity, With<ExportPanel>>,
) {
    if !rebuild_panel(&mut commands, &ui, &settings, ui.choosing_export, &shown) {
        return;
    }
    let lang = settings.lang;
    let forms = m.game.export_forms().iter().enumerate();
    let offered = forms.map(|(i, label)| (Some(i), label.get(lang).to_string()));
    spawn_choice_panel(
        &mut commands,
        &fonts,
        ExportPanel,
        offered.chain(cancel(lang)),
        ExportButton,
        ExportPick,
    );
}

/// Whether a choice panel is to be built now: it is `wanted` and not shown,
/// or the language changed under it. A panel no longer wanted, or to be
/// built again, is removed.
fn rebuild_panel<G: Playable, P: Component>(
    commands: &mut Commands,
    ui: &Res<PlayUi<G>>,
    settings: &Res<Settings>,
    wanted: bool,
    shown: &Query<Entity, With<P>>,
) -> bool {
    if !ui.is_changed() && !settings.is_changed() {
        return false;
    }
    if wanted != shown.is_empty() && !settings.is_changed() {
        return false;
    }
    for e in shown {
        commands.entity(e).despawn();
    }
    wanted
}

/// The last button of a choice: やめる.
fn cancel(lang: Lang) -> std::iter::Once<(Option<usize>, String)> {
    std::iter::once((None, T::Cancel.get(lang).to_string()))
}

/// A panel over the board (tagged `panel`) with a button for each of
/// `entries` (the first stands out); a click sends `message` of the
/// entry's pick.
fn spawn_choice_panel<B: Component, E: Message>(
    commands: &mut Commands,
    fonts: &Fonts,
    panel: impl Component,
    entries: impl Iterator<Item = (Option<usize>, String)>,
    button: fn(Option<usize>) -> B,
    message: fn(Option<usize>) -> E,
) {
    commands
        .spawn((DespawnOnExit(Screen::Play), panel, widgets::choice_panel()))
        .with_children(|panel| {
            for (pick, caption) in entries {
                panel
                    .spawn((
                        widgets::button(fonts, caption, pick == Some(0)),
                        button(pick),
                    ))
                    .observe(move |_: On<Pointer<Click>>, mut w: MessageWriter<E>| {
                        w.write(message(pick));
                    });
            }
        });
}

/// The answer to a choice: play the move picked, or put the piece down.
pub(super) fn handle_choice<G: Playable>(
    mut picks: MessageReader<ChoicePick>,
    mut ui: ResMut<PlayUi<G>>,
    mut moves: MessageWriter<PlayMove<G>>,
    mut sfx: MessageWriter<Sfx>,
) {
    for &ChoicePick(pick) in picks.read() {
        if ui.choice.is_empty() {
            continue;
        }
        match pick.and_then(|i| ui.choice.get(i).copied()) {
            Some(mv) => {
                ui.choice.clear();
                ui.dirty = true;
                moves.write(PlayMove(mv));
            }
            None => {
                ui.clear_selection();
                sfx.write(Sfx::Button);
            }
        }
    }
}

/// Offers the choice over the board: a button for each move, and やめる.
pub(super) fn show_choice<G: Playable>(
    mut commands: Commands,
    m: Res<Match<G>>,
    ui: Res<PlayUi<G>>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    shown: Query<Entity, With<ChoicePanel>>,
) {
    if !rebuild_panel(&mut commands, &ui, &settings, !ui.choice.is_empty(), &shown) {
        return;
    }
    let lang = settings.lang;
    let pos = m.record.current();
    let offered = ui
        .choice
        .iter()
        .enumerate()
        .map(|(i, &mv)| (Some(i), m.game.choice_text(pos, mv, lang)));
    spawn_choice_panel(
        &mut commands,
        &fonts,
        ChoicePanel,
        offered.chain(cancel(lang)),
        ChoiceButton,
        ChoicePick,
    );
}
