//! The play screen's panel: turn and score, the clock, the buttons, the
//! record, and the selected piece's help with its movement diagram.

use bevy::prelude::*;

use super::analysis::AnalysisText;
use super::state::{
    ClockText, CommandButton, CpuThink, MoveCell, MovesText, NoticeText, PieceInfoBox,
    PieceInfoDetails, PieceInfoName, PlayCommand, PlayUi, RecordBox, RecordHeading, ScoreText,
    SoundButton, TurnText,
};
use crate::games::kit::{game_title, game_title_with};
use crate::games::session::{Match, MoveMark, Opponent, Playable};
use crate::rules::taps;
use crate::shell::Screen;
use crate::shell::i18n::{Lang, Localized, T};
use crate::shell::layout::{Layout, panel_node};
use crate::shell::rooms::{stamp_row, takeback_row};
use crate::shell::screens::open_from;
use crate::shell::settings::Settings;
use crate::shell::widgets::type_scale as ty;
use crate::shell::widgets::{self, Fonts, palette};

/// The 跳ぶのをやめる button (shown only mid-jump).
#[derive(Component)]
pub(super) struct StopJumpButton;

pub(super) fn spawn_hud<G: Playable>(
    commands: &mut Commands,
    fonts: &Fonts,
    lang: Lang,
    m: &Match<G>,
    layout: Layout,
    analysis_back_to: Option<Screen>,
) {
    let analysing = m.setup.analysing();
    // A game through a room is the room's: no hint or 検討 from one side,
    // no position read in over it.
    let remote = m.setup.opponent == Opponent::Remote;
    let mut buttons: Vec<(T, PlayCommand)> = Vec::new();
    if G::MULTI_STEP {
        buttons.push((G::STOP_BUTTON, PlayCommand::StopJump));
    }
    // In a room 待った is asked of the other side (its own row).
    if m.setup.undo_allowed && !remote {
        buttons.push((T::Undo, PlayCommand::Undo));
    }
    if !analysing && !remote {
        buttons.push((T::Hint, PlayCommand::Hint));
    }
    if m.game.position_code(m.record.current()).is_some() {
        buttons.push((T::ExportPosition, PlayCommand::ExportPosition));
        if !remote {
            buttons.push((T::ImportPosition, PlayCommand::ImportPosition));
        }
    }
    if analysing {
        let back = if analysis_back_to == Some(Screen::Review) {
            T::AnalysisBackToReview
        } else {
            T::AnalysisBackToGame
        };
        buttons.push((back, PlayCommand::LeaveAnalysis));
    } else {
        // A watcher holds no side to give up.
        if !m.setup.watching {
            buttons.push((T::Resign, PlayCommand::Resign));
        }
        buttons.push((T::Quit, PlayCommand::Quit));
        // Last, so that the buttons above keep their places.
        if !remote {
            buttons.push((T::Analyse, PlayCommand::Analyse));
        }
    }
    let status = |panel: &mut ChildSpawnerCommands| {
        spawn_status::<G>(panel, fonts, lang, analysing);
    };
    let extras = |panel: &mut ChildSpawnerCommands| {
        if m.setup.watching {
            panel.spawn(widgets::label(
                fonts,
                lang,
                T::RoomWatching,
                ty::BODY,
                palette::INK_SOFT,
            ));
        }
        if remote {
            stamp_row(panel, fonts, lang);
            if m.setup.undo_allowed {
                takeback_row(panel, fonts, lang);
            }
        }
        if analysing {
            panel.spawn((
                widgets::text(fonts, "", ty::CAPTION, palette::INK),
                AnalysisText,
                Node {
                    max_width: px(260),
                    margin: UiRect::vertical(px(6)),
                    ..default()
                },
            ));
        }
        spawn_piece_info(panel, fonts);
    };
    let mut panel = commands.spawn((
        DespawnOnExit(Screen::Play),
        panel_node(layout, 270.0),
        widgets::ScrollColumn,
    ));
    if !layout.compact {
        panel.with_children(|panel| {
            status(panel);
            panel.spawn(button_grid()).with_children(|grid| {
                for (key, cmd) in buttons {
                    spawn_command(grid, fonts, lang, key, cmd);
                }
                spawn_sound_and_settings(grid, fonts, lang);
            });
            extras(panel);
            spawn_record(panel, fonts);
        });
        return;
    }
    // On a phone the actions played from (待った, ヒント, 投了, やめる) stay
    // in view at the panel's foot, where a thumb reaches; the rarer ones
    // wait behind メニュー and the record behind 棋譜, each shown above the
    // bar; what is left over them scrolls.
    let (kept, behind): (Vec<_>, Vec<_>) = buttons.into_iter().partition(|&(_, cmd)| {
        !matches!(
            cmd,
            PlayCommand::ExportPosition | PlayCommand::ImportPosition | PlayCommand::Analyse
        )
    });
    panel.with_children(|panel| {
        panel.spawn(widgets::scroll_column()).with_children(|body| {
            status(body);
            extras(body);
        });
        panel
            .spawn((PhoneRecord, shown_later(Node::default())))
            .with_children(|record| spawn_record(record, fonts));
        panel
            .spawn((PhoneMenu, shown_later(button_grid())))
            .with_children(|menu| {
                for (key, cmd) in behind {
                    spawn_command(menu, fonts, lang, key, cmd);
                }
                spawn_sound_and_settings(menu, fonts, lang);
            });
        panel.spawn(button_grid()).with_children(|bar| {
            for (key, cmd) in kept {
                spawn_command(bar, fonts, lang, key, cmd);
            }
            bar.spawn(toggle_button(fonts, lang, T::Menu))
                .observe(show_or_hide::<PhoneMenu>);
            bar.spawn(toggle_button(fonts, lang, T::MovesSoFar))
                .observe(show_or_hide::<PhoneRecord>);
        });
    });
}

/// The game's name, whose turn, the score, the clock and the notice.
fn spawn_status<G: Playable>(
    panel: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    analysing: bool,
) {
    if analysing {
        game_title_with(panel, fonts, lang, G::ID, T::AnalysisTitle, ty::HEADING);
        panel.spawn(widgets::label(
            fonts,
            lang,
            T::AnalysisHelp,
            ty::CAPTION,
            palette::INK_SOFT,
        ));
    } else {
        panel.spawn(game_title(fonts, lang, G::ID, ty::HEADING));
    }
    panel.spawn((widgets::text(fonts, "", ty::LEAD, palette::INK), TurnText));
    panel.spawn((
        widgets::text(fonts, "", ty::BODY, palette::INK_SOFT),
        ScoreText,
    ));
    if G::TIME_LIMIT.is_some() && !analysing {
        panel.spawn((
            widgets::text(fonts, "", ty::BODY, palette::INK_SOFT),
            ClockText,
        ));
    }
    panel.spawn((
        widgets::text(fonts, "", ty::BODY, palette::VERMILION),
        NoticeText,
        Node {
            min_height: px(44),
            ..default()
        },
    ));
}

/// The rarer actions of a phone's play screen (shown by メニュー).
#[derive(Component)]
struct PhoneMenu;

/// The record on a phone's play screen (shown by 棋譜).
#[derive(Component)]
struct PhoneRecord;

/// メニュー or 棋譜 on a phone's bar, off until tapped.
fn toggle_button(fonts: &Fonts, lang: Lang, key: T) -> impl Bundle {
    widgets::key_button_with(fonts, lang, key, widgets::ButtonLook::Toggle { on: false })
}

/// A part of the panel hidden until its button shows it.
fn shown_later(node: Node) -> Node {
    Node {
        display: Display::None,
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        ..node
    }
}

/// メニュー and 棋譜: each shows its part of the panel, or hides it again.
fn show_or_hide<M: Component>(
    click: On<Pointer<Click>>,
    mut looks: Query<&mut widgets::ButtonLook>,
    mut parts: Query<&mut Node, With<M>>,
) {
    let Ok(mut look) = looks.get_mut(click.entity) else {
        return;
    };
    let on = !look.is_chosen();
    *look = widgets::ButtonLook::Toggle { on };
    for mut node in &mut parts {
        node.display = if on { Display::Flex } else { Display::None };
    }
}

/// The buttons, two to a row where they fit, so that the piece help below
/// has room.
fn button_grid() -> Node {
    Node {
        flex_direction: FlexDirection::Row,
        flex_wrap: FlexWrap::Wrap,
        justify_content: JustifyContent::Center,
        width: percent(100),
        ..default()
    }
}

fn spawn_command(
    grid: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    key: T,
    cmd: PlayCommand,
) {
    let mut button = grid.spawn((
        widgets::key_button(fonts, lang, key, cmd == PlayCommand::StopJump),
        CommandButton(cmd),
    ));
    button.observe(
        move |_: On<Pointer<Click>>, mut w: MessageWriter<PlayCommand>| {
            w.write(cmd);
        },
    );
    if cmd == PlayCommand::StopJump {
        button.insert(StopJumpButton);
    }
}

fn spawn_sound_and_settings(grid: &mut ChildSpawnerCommands, fonts: &Fonts, lang: Lang) {
    grid.spawn((
        widgets::key_button_with(
            fonts,
            lang,
            T::SoundOff,
            widgets::ButtonLook::Toggle { on: false },
        ),
        SoundButton,
    ))
    .observe(|_: On<Pointer<Click>>, mut w: MessageWriter<PlayCommand>| {
        w.write(PlayCommand::ToggleSound);
    });
    grid.spawn(widgets::key_button(fonts, lang, T::Settings, false))
        .observe(open_from(Screen::Settings, Screen::Play));
}

/// The record (棋譜) under the heading, every move, in a box that scrolls
/// (the wheel, or a drag) back to the first; it follows the last move.
fn spawn_record(panel: &mut ChildSpawnerCommands, fonts: &Fonts) {
    panel.spawn((
        widgets::text(fonts, "", ty::CAPTION, palette::INK_SOFT),
        RecordHeading,
    ));
    panel
        .spawn((
            RecordBox,
            ScrollPosition::default(),
            Node {
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                max_height: px(RECORD_HEIGHT),
                flex_shrink: 1.0,
                min_height: px(0),
                overflow: Overflow::scroll_y(),
                ..default()
            },
        ))
        .with_children(|record| {
            record.spawn((
                widgets::text(fonts, "", ty::CAPTION, palette::INK_SOFT),
                MovesText,
            ));
        })
        .observe(scroll_record_by_wheel)
        .observe(scroll_record_by_drag);
}

/// The record box's greatest height.
const RECORD_HEIGHT: f32 = 220.0;

/// How far the record box can scroll, in logical pixels.
fn record_scroll_range(node: &ComputedNode) -> f32 {
    ((node.content_size().y - node.size().y) * node.inverse_scale_factor()).max(0.0)
}

fn scroll_by(position: &mut ScrollPosition, node: &ComputedNode, dy: f32) {
    let range = record_scroll_range(node);
    position.0.y = (position.0.y.min(range) + dy).clamp(0.0, range);
}

fn scroll_record_by_wheel(
    scroll: On<Pointer<Scroll>>,
    mut boxes: Query<(&mut ScrollPosition, &ComputedNode), With<RecordBox>>,
) {
    let lines = match scroll.unit {
        bevy::input::mouse::MouseScrollUnit::Line => 18.0,
        bevy::input::mouse::MouseScrollUnit::Pixel => 1.0,
    };
    for (mut position, node) in &mut boxes {
        scroll_by(&mut position, node, -scroll.y * lines);
    }
}

fn scroll_record_by_drag(
    drag: On<Pointer<Drag>>,
    mut boxes: Query<(&mut ScrollPosition, &ComputedNode), With<RecordBox>>,
) {
    for (mut position, node) in &mut boxes {
        scroll_by(&mut position, node, -drag.delta.y);
    }
}

/// The selected piece's name, details and movement diagram (hidden until
/// a piece with help is selected).
pub(super) fn spawn_piece_info(panel: &mut ChildSpawnerCommands, fonts: &Fonts) {
    panel
        .spawn((
            PieceInfoBox,
            Node {
                display: Display::None,
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                row_gap: px(4),
                ..default()
            },
        ))
        .with_children(|info| {
            info.spawn((
                widgets::text(fonts, "", ty::LEAD, palette::INK),
                PieceInfoName,
            ));
            info.spawn((
                widgets::text(fonts, "", ty::CAPTION, palette::INK_SOFT),
                PieceInfoDetails,
            ));
            info.spawn(Node {
                display: Display::Grid,
                grid_template_columns: RepeatedGridTrack::px(5, 22.0),
                grid_template_rows: RepeatedGridTrack::px(5, 22.0),
                ..default()
            })
            .with_children(|grid| {
                for row in 0..5 {
                    for column in 0..5 {
                        grid.spawn((
                            widgets::text(fonts, "", ty::SMALL, palette::INK),
                            MoveCell(row, column),
                            Node {
                                width: px(21),
                                height: px(21),
                                justify_content: JustifyContent::Center,
                                ..default()
                            },
                            BackgroundColor(palette::CARD),
                        ));
                    }
                }
            });
        });
}

/// The glyph on a square of the movement diagram; slides point along
/// their line.
pub(super) fn move_mark_glyph(mark: MoveMark, row: usize, column: usize) -> &'static str {
    const ARROWS: [[&str; 3]; 3] = [["↖", "↑", "↗"], ["←", "", "→"], ["↙", "↓", "↘"]];
    match mark {
        MoveMark::Empty | MoveMark::Piece => "",
        MoveMark::Step => "●",
        MoveMark::Slide => {
            let line = |i: usize| ((i as i32 - 2).signum() + 1) as usize;
            ARROWS[line(row)][line(column)]
        }
        MoveMark::Jump => "☆",
        MoveMark::Lion => "◎",
    }
}

pub(super) fn update_hud<G: Playable>(
    m: Res<Match<G>>,
    ui: Res<PlayUi<G>>,
    settings: Res<Settings>,
    cpu: Res<CpuThink<G>>,
    mut texts: ParamSet<(
        Query<&mut Text, With<TurnText>>,
        Query<&mut Text, With<ScoreText>>,
        Query<&mut Text, With<NoticeText>>,
        Query<(&mut Localized, &mut Text)>,
        Query<&mut Text, With<MovesText>>,
        Query<&mut Text, With<RecordHeading>>,
    )>,
    sound_buttons: Query<&Children, With<SoundButton>>,
    mut looks: Query<&mut widgets::ButtonLook, With<SoundButton>>,
    mut stop_buttons: Query<&mut Node, With<StopJumpButton>>,
    mut record_boxes: Query<&mut ScrollPosition, With<RecordBox>>,
) {
    // The texts only change with the game, the screen state, the settings or
    // the CPU starting or ending its think.
    if !(m.is_changed() || ui.is_changed() || settings.is_changed() || cpu.is_changed()) {
        return;
    }
    let lang = settings.lang;
    let pos = m.record.current();
    let stm = m.game.side_to_move(pos);
    let turn = if cpu.0.is_some() {
        T::CpuThinking
    } else if m.setup.own_side() == Some(stm) {
        T::YourTurn
    } else {
        G::to_move_text(stm)
    };
    let turn = format!(
        "{}\n{} {}",
        turn.get(lang),
        m.record.ply(),
        T::Moves.get(lang)
    );
    for mut t in &mut texts.p0() {
        if t.0 != turn {
            t.0 = turn.clone();
        }
    }
    let score = m.game.status_line(pos, lang);
    for mut t in &mut texts.p1() {
        if t.0 != score {
            t.0 = score.clone();
        }
    }
    let notice = [
        ui.notice.map(|n| n.get(lang).to_string()),
        ui.message.clone(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("\n");
    for mut t in &mut texts.p2() {
        if t.0 != notice {
            t.0 = notice.clone();
        }
    }
    let moves = record_text(&m, &settings);
    let mut grew = false;
    for mut t in &mut texts.p4() {
        if t.0 != moves {
            grew |= moves.len() > t.0.len();
            t.0 = moves.clone();
        }
    }
    let heading = if moves.is_empty() {
        ""
    } else {
        T::MovesSoFar.get(lang)
    };
    for mut t in &mut texts.p5() {
        if t.0 != heading {
            t.0 = heading.to_string();
        }
    }
    if grew {
        // Follow the game: the last move in view (the layout stops the
        // box at its end).
        for mut position in &mut record_boxes {
            position.0.y = f32::MAX;
        }
    }
    let key = if settings.sound {
        T::SoundOn
    } else {
        T::SoundOff
    };
    let mut labels = texts.p3();
    for children in &sound_buttons {
        for child in children.iter() {
            if let Ok((mut loc, mut text)) = labels.get_mut(child)
                && loc.0 != key
            {
                loc.0 = key;
                text.0 = key.get(lang).to_string();
            }
        }
    }
    let sound_look = widgets::ButtonLook::Toggle { on: settings.sound };
    for mut look in &mut looks {
        if *look != sound_look {
            *look = sound_look;
        }
    }
    // 跳ぶのをやめる only while a jump that may stop here is under way.
    let can_stop = ui.path.len() > 1
        && taps::move_along_in(&m.game, pos, &m.record.legal_moves(&m.game), &ui.path).is_some();
    let display = if can_stop {
        Display::Flex
    } else {
        Display::None
    };
    for mut node in &mut stop_buttons {
        if node.display != display {
            node.display = display;
        }
    }
}

/// The whole record (under the 棋譜 heading), numbered, one move a line,
/// as the game writes it with `settings` (中将棋: its coordinates).
pub(super) fn record_text<G: Playable>(m: &Match<G>, settings: &Settings) -> String {
    let moves = m.record.moves();
    let positions = m.record.positions();
    let lines = (0..moves.len()).map(|i| {
        let last = i.checked_sub(1).map(|j| moves[j]);
        let text = m
            .game
            .record_move_text(&positions[i], moves[i], last, settings);
        format!("{} {text}", i + 1)
    });
    lines.collect::<Vec<_>>().join("\n")
}

/// Shows the help of the piece inspected (right click, long press), else
/// of the selected one, or hides it.
pub(super) fn update_piece_info<G: Playable>(
    m: Res<Match<G>>,
    ui: Res<PlayUi<G>>,
    settings: Res<Settings>,
    mut boxes: Query<&mut Node, With<PieceInfoBox>>,
    mut texts: ParamSet<(
        Query<&mut Text, With<PieceInfoName>>,
        Query<&mut Text, With<PieceInfoDetails>>,
        Query<(&MoveCell, &mut Text, &mut BackgroundColor)>,
    )>,
) {
    if !(ui.is_changed() || settings.is_changed() || m.is_changed()) {
        return;
    }
    let info = ui
        .inspected
        .or(ui.selected())
        .and_then(|p| m.game.piece_info(m.record.current(), p, settings.lang));
    let display = if info.is_some() {
        Display::Flex
    } else {
        Display::None
    };
    for mut node in &mut boxes {
        if node.display != display {
            node.display = display;
        }
    }
    let Some(info) = info else { return };
    for mut t in &mut texts.p0() {
        t.0.clone_from(&info.name);
    }
    for mut t in &mut texts.p1() {
        t.0.clone_from(&info.details);
    }
    for (cell, mut text, mut background) in &mut texts.p2() {
        let mark = info.diagram[cell.0][cell.1];
        text.0 = move_mark_glyph(mark, cell.0, cell.1).to_string();
        background.0 = match mark {
            MoveMark::Piece => palette::INK,
            MoveMark::Lion => palette::GOLD.with_alpha(0.5),
            _ => palette::CARD,
        };
    }
}
