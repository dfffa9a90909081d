//! The play screen's panel: turn and score, the clock, the buttons, the
//! record, and the selected piece's help with its movement diagram.

use super::*;

/// The 跳ぶのをやめる button (shown only mid-jump).
#[derive(Component)]
pub(super) struct StopJumpButton;

pub(super) fn spawn_hud<G: Playable>(
    commands: &mut Commands,
    fonts: &Fonts,
    lang: Lang,
    m: &Match<G>,
    layout: Layout,
) {
    commands
        .spawn((DespawnOnExit(Screen::Play), panel_node(layout, 270.0)))
        .with_children(|panel| {
            panel.spawn(game_title(fonts, lang, G::ID, 28.0));
            panel.spawn((widgets::text(fonts, "", 18.0, palette::INK), TurnText));
            panel.spawn((widgets::text(fonts, "", 16.0, palette::INK_SOFT), ScoreText));
            if G::TIME_LIMIT.is_some() {
                panel.spawn((widgets::text(fonts, "", 16.0, palette::INK_SOFT), ClockText));
            }
            panel.spawn((
                widgets::text(fonts, "", 16.0, palette::VERMILION),
                NoticeText,
                Node {
                    min_height: px(44),
                    ..default()
                },
            ));
            let mut buttons: Vec<(T, PlayCommand)> = Vec::new();
            if G::MULTI_STEP {
                buttons.push((G::STOP_BUTTON, PlayCommand::StopJump));
            }
            if m.setup.undo_allowed {
                buttons.push((T::Undo, PlayCommand::Undo));
            }
            buttons.push((T::Hint, PlayCommand::Hint));
            if m.game.position_code(m.record.current()).is_some() {
                buttons.push((T::ExportPosition, PlayCommand::ExportPosition));
                buttons.push((T::ImportPosition, PlayCommand::ImportPosition));
            }
            buttons.push((T::Resign, PlayCommand::Resign));
            buttons.push((T::Quit, PlayCommand::Quit));
            // The buttons two to a row where they fit, so that the piece
            // help below has room.
            panel
                .spawn(Node {
                    flex_direction: FlexDirection::Row,
                    flex_wrap: FlexWrap::Wrap,
                    justify_content: JustifyContent::Center,
                    width: percent(100),
                    ..default()
                })
                .with_children(|grid| {
                    for (key, cmd) in buttons {
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
                    grid.spawn((
                        widgets::key_button(fonts, lang, T::SoundOff, false),
                        SoundButton,
                    ))
                    .observe(
                        |_: On<Pointer<Click>>, mut w: MessageWriter<PlayCommand>| {
                            w.write(PlayCommand::ToggleSound);
                        },
                    );
                    grid.spawn(widgets::key_button(fonts, lang, T::Settings, false))
                        .observe(open_from(Screen::Settings, Screen::Play));
                });
            spawn_piece_info(panel, fonts);
            panel.spawn((widgets::text(fonts, "", 14.0, palette::INK_SOFT), MovesText));
        });
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
            info.spawn((widgets::text(fonts, "", 18.0, palette::INK), PieceInfoName));
            info.spawn((
                widgets::text(fonts, "", 14.0, palette::INK_SOFT),
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
                            widgets::text(fonts, "", 15.0, palette::INK),
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
    )>,
    sound_buttons: Query<&Children, With<SoundButton>>,
    mut looks: Query<&mut widgets::ButtonLook, With<SoundButton>>,
    mut stop_buttons: Query<&mut Node, With<StopJumpButton>>,
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
    } else if matches!(m.setup.opponent, Opponent::Cpu(_)) && stm == m.setup.human_side {
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
    let moves = recent_moves(&m, lang);
    for mut t in &mut texts.p4() {
        if t.0 != moves {
            t.0 = moves.clone();
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
    for mut look in &mut looks {
        if look.selected != settings.sound {
            look.selected = settings.sound;
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

/// The last few moves of the record, numbered, one a line (棋譜).
pub(super) fn recent_moves<G: Playable>(m: &Match<G>, lang: Lang) -> String {
    const SHOWN: usize = 4;
    let moves = m.record.moves();
    if moves.is_empty() {
        return String::new();
    }
    let positions = m.record.positions();
    let first = moves.len().saturating_sub(SHOWN);
    let lines = (first..moves.len())
        .map(|i| format!("{} {}", i + 1, m.game.move_text(&positions[i], moves[i])));
    std::iter::once(T::MovesSoFar.get(lang).to_string())
        .chain(lines)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Shows the selected piece's help, or hides it.
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
        .selected()
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
