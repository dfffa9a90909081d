//! The review screen drawn: the board with the position shown (the last
//! move marked, a step forward animated, the better move's dotted arrow
//! before a mistake), and the panel: the result, the position's move and
//! evaluation, the reading's progress, the graph, the buttons and the
//! move list.

use crate::shell::widgets::type_scale as ty;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::game::{Review, ReviewButton, ReviewCommand, ReviewThink, exact_words};
use crate::games::art::{self, Art, Highlight};
use crate::games::board_place::{
    board_view, changed_layout, despawn_screen, layout_for, piece_rotation, window_reshaped,
};
use crate::games::board_view::BoardView;
use crate::games::kit::game_title_with;
use crate::games::session::Playable;
use crate::rules::board::PointId;
use crate::rules::game::Side;
use crate::rules::review::Slip;
use crate::shell::Screen;
use crate::shell::anim::{Lifetime, Tween};
use crate::shell::i18n::{Lang, T};
use crate::shell::layout::{Layout, panel_node};
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, FollowEntry, Fonts, ListEntry, palette};

/// A piece on the review board.
/// The review's panel (a room's review adds its row to it).
#[derive(Component)]
pub struct ReviewPanel;

#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewPiece {
    pub point: PointId,
    pub side: Side,
}

/// The last move's marks and the better move's arrow (redrawn with the
/// position).
#[derive(Component, Clone)]
pub(super) struct ReviewMarker;

/// A dot of the better move's dotted arrow (tests look for it).
#[derive(Component, Clone)]
pub struct ReviewArrow;

/// A column of the graph: the position after this many moves.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewGraphBar(pub usize);

/// A move of the move list: the position after it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewMoveEntry(pub usize);

#[derive(Component)]
pub(super) struct ResultText;
#[derive(Component)]
pub(super) struct PlyText;
#[derive(Component)]
pub(super) struct StatusText;
#[derive(Component)]
pub(super) struct EvalText;
/// The evaluation bar's fill: the player's share of the bar, from 0
/// (lost) through 50 (even) to 100 (won), as a percentage of its width.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct ReviewEvalFill(pub f32);
#[derive(Component)]
pub(super) struct MistakeText;
#[derive(Component)]
pub(super) struct ProgressBox;
#[derive(Component)]
pub(super) struct ProgressFill;
#[derive(Component)]
pub(super) struct ProgressText;
/// Where 共有 wrote the game.
#[derive(Component)]
pub(super) struct ShareText;
#[derive(Component)]
pub(super) struct Graph;
#[derive(Component)]
pub(super) struct MoveList;

/// What is drawn now, so that each part is redrawn only when it changes.
#[derive(Resource, Default)]
pub(super) struct Shown {
    /// The position drawn, and whether the judgement (its arrow) was in.
    position: Option<(usize, bool)>,
    graph: Option<(u64, usize)>,
    list: Option<(bool, Lang)>,
}

const PANEL_WIDTH: f32 = 330.0;
const GRAPH_WIDTH: f32 = 300.0;
const GRAPH_HEIGHT: f32 = 110.0;
/// Seconds a piece takes to slide one move, and per hop of a jump.
const SLIDE: f32 = 0.22;
const HOP: f32 = 0.32;

const AHEAD: Color = Color::srgb(0.22, 0.42, 0.72);
const BEHIND: Color = palette::VERMILION;
const DUBIOUS: Color = Color::srgb(0.85, 0.55, 0.05);
const BAD: Color = Color::srgb(0.80, 0.08, 0.08);

fn slip_color(slip: Slip) -> Color {
    match slip {
        Slip::Dubious => DUBIOUS,
        Slip::Bad => BAD,
    }
}

fn slip_text(slip: Slip) -> T {
    match slip {
        Slip::Dubious => T::ReviewDubious,
        Slip::Bad => T::ReviewBad,
    }
}

pub(super) fn enter<G: Playable>(
    mut commands: Commands,
    review: Res<Review<G>>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    mut think: ResMut<ReviewThink<G>>,
    mut shown: ResMut<Shown>,
    windows: Query<&Window, With<PrimaryWindow>>,
) {
    think.0 = None;
    *shown = Shown::default();
    let layout = layout_for(&review.game, windows.single().ok());
    spawn_view(&mut commands, &review, &fonts, &settings, layout);
}

/// A phone turned during a review, or a window given another shape: the
/// board and the panel are laid out again for it and drawn anew at the
/// move shown; the reading goes on.
#[allow(clippy::too_many_arguments)]
pub(super) fn relayout<G: Playable>(
    mut commands: Commands,
    windows: Query<&Window, With<PrimaryWindow>>,
    review: Res<Review<G>>,
    layout: Res<Layout>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    mut shown: ResMut<Shown>,
    scoped: Query<(Entity, &DespawnOnExit<Screen>)>,
    mut seen: Local<Option<Vec2>>,
) {
    if !window_reshaped(&windows, &mut seen) {
        return;
    }
    let Some(fresh) = changed_layout(&review.game, &windows, &layout) else {
        return;
    };
    despawn_screen(&mut commands, &scoped, Screen::Review);
    spawn_view(&mut commands, &review, &fonts, &settings, fresh);
    *shown = Shown::default();
}

/// The board and the panel for `layout`, with the resources that say where
/// they stand; the position, the graph and the list fill in as `Shown`
/// asks.
fn spawn_view<G: Playable>(
    commands: &mut Commands,
    review: &Review<G>,
    fonts: &Fonts,
    settings: &Settings,
    layout: Layout,
) {
    let lang = settings.lang;
    commands.insert_resource(crate::shell::layout::CameraArea(layout.shown));
    let flipped = G::TURN_BOARD && review.setup.bottom_side() == Side::Second;
    let view = board_view(&review.game, flipped, layout);
    review.game.spawn_board(
        commands,
        &view,
        fonts,
        settings,
        DespawnOnExit(Screen::Review),
    );
    commands.insert_resource(view);
    commands.insert_resource(layout);
    commands
        .spawn((
            DespawnOnExit(Screen::Review),
            panel_node(layout, PANEL_WIDTH),
            crate::shell::widgets::ScrollColumn,
            ReviewPanel,
        ))
        .with_children(|panel| {
            game_title_with(panel, fonts, lang, G::ID, T::ReviewTitle, ty::SUBTITLE);
            panel.spawn((
                widgets::text(fonts, "", ty::SMALL, palette::INK_SOFT),
                ResultText,
            ));
            panel.spawn((widgets::text(fonts, "", ty::BODY, palette::INK), PlyText));
            panel.spawn((
                widgets::text(fonts, "", ty::CAPTION, palette::INK_SOFT),
                StatusText,
            ));
            panel.spawn((widgets::text(fonts, "", ty::BODY, palette::INK), EvalText));
            // The evaluation of the position shown as a bar: the player's
            // share in blue, the opponent's in vermilion.
            panel
                .spawn((
                    Node {
                        width: px(GRAPH_WIDTH),
                        height: px(10),
                        margin: UiRect::vertical(px(3)),
                        // A panel too short for everything scrolls; the
                        // bar keeps its height rather than shrink away.
                        flex_shrink: 0.0,
                        ..default()
                    },
                    BackgroundColor(BEHIND),
                ))
                .with_children(|bar| {
                    bar.spawn((
                        ReviewEvalFill(50.0),
                        Node {
                            width: percent(50),
                            height: percent(100),
                            ..default()
                        },
                        BackgroundColor(AHEAD),
                    ));
                });
            panel.spawn((
                widgets::text(fonts, "", ty::SMALL, BAD),
                MistakeText,
                Node {
                    min_height: px(40),
                    max_width: px(GRAPH_WIDTH),
                    ..default()
                },
            ));
            panel
                .spawn((
                    ProgressBox,
                    Node {
                        flex_direction: FlexDirection::Column,
                        align_items: AlignItems::Center,
                        ..default()
                    },
                ))
                .with_children(|progress| {
                    progress.spawn((
                        widgets::text(fonts, "", ty::CAPTION, palette::INK_SOFT),
                        ProgressText,
                    ));
                    progress
                        .spawn((
                            Node {
                                width: px(GRAPH_WIDTH),
                                height: px(8),
                                flex_shrink: 0.0,
                                ..default()
                            },
                            BackgroundColor(palette::CARD),
                        ))
                        .with_children(|bar| {
                            bar.spawn((
                                ProgressFill,
                                Node {
                                    width: percent(0),
                                    height: percent(100),
                                    ..default()
                                },
                                BackgroundColor(AHEAD),
                            ));
                        });
                });
            panel.spawn((
                Graph,
                Node {
                    width: px(GRAPH_WIDTH),
                    height: px(GRAPH_HEIGHT),
                    flex_shrink: 0.0,
                    ..default()
                },
                BackgroundColor(palette::CARD),
            ));
            button_row(
                panel,
                fonts,
                lang,
                &[
                    (T::ReviewFirst, ReviewCommand::First),
                    (T::ReviewPrevious, ReviewCommand::Previous),
                    (T::ReviewNext, ReviewCommand::Next),
                    (T::ReviewLast, ReviewCommand::Last),
                ],
            );
            panel.spawn((
                MoveList,
                FollowEntry {
                    current: review.ply,
                    above: 3,
                },
                Node {
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Start,
                    width: px(GRAPH_WIDTH),
                    max_height: px(200),
                    flex_shrink: 1.0,
                    min_height: px(0),
                    overflow: Overflow::scroll_y(),
                    ..default()
                },
            ));
            button_row(
                panel,
                fonts,
                lang,
                &[
                    (T::Analyse, ReviewCommand::Analyse),
                    (T::ReviewShare, ReviewCommand::Share),
                    (T::ReviewBack, ReviewCommand::Back),
                ],
            );
            panel.spawn((
                widgets::text(fonts, "", ty::CAPTION, palette::INK_SOFT),
                ShareText,
                Node {
                    max_width: px(GRAPH_WIDTH),
                    ..default()
                },
            ));
        });
}

/// A row of review buttons, each sending its command (the review and the
/// まわり将棋 replay).
pub(crate) fn button_row(
    parent: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: crate::shell::i18n::Lang,
    buttons: &[(T, ReviewCommand)],
) {
    parent.spawn(widgets::row()).with_children(|row| {
        for &(key, cmd) in buttons {
            row.spawn((
                widgets::key_button(fonts, lang, key, false),
                ReviewButton(cmd),
            ))
            .observe(send(cmd));
        }
    });
}

/// An observer that sends `cmd`.
pub(crate) fn send(
    cmd: ReviewCommand,
) -> impl Fn(On<Pointer<Click>>, MessageWriter<ReviewCommand>) {
    move |_, mut w| {
        w.write(cmd);
    }
}

/// Draws the position shown when it changes: the pieces (the moving one
/// sliding or hopping there after a step forward, back along its path
/// after a step back), the last move's marks and, before a mistake, the
/// better move's arrow.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_position<G: Playable>(
    mut commands: Commands,
    review: Res<Review<G>>,
    mut shown: ResMut<Shown>,
    view: Res<BoardView>,
    art: Res<Art>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    old: Query<Entity, Or<(With<ReviewPiece>, With<ReviewMarker>)>>,
) {
    let ply = review.ply;
    let key = (ply, review.judged.is_some());
    if shown.position == Some(key) {
        return;
    }
    let stepped_forward = shown.position.is_some_and(|(before, _)| before + 1 == ply);
    let stepped_back = shown.position.is_some_and(|(before, _)| before == ply + 1);
    shown.position = Some(key);
    let game = &review.game;
    let graph = game.graph();
    let at = |p: PointId| view.world(graph, p);
    let scope = (DespawnOnExit(Screen::Review), ReviewMarker);
    for e in &old {
        commands.entity(e).despawn();
    }
    let positions = review.record.positions();
    let moves = review.record.moves();
    let pos = &positions[ply];
    let bottom = review.setup.bottom_side();
    // The move that led here: its piece comes along its path.
    let arriving = (ply > 0 && stepped_forward && !settings.reduced_motion).then(|| moves[ply - 1]);
    // A step back: the move taken back goes back along its path (the
    // pieces it took stand again where they were).
    let returning = (stepped_back && !settings.reduced_motion)
        .then(|| moves.get(ply).copied())
        .flatten();
    let (path, moved_ply) = match (arriving, returning) {
        (Some(mv), _) => (Some(game.move_path(mv)), ply),
        (None, Some(mv)) => {
            let mut back = game.move_path(mv);
            back.reverse();
            (Some(back), ply + 1)
        }
        (None, None) => (None, ply),
    };
    for p in 0..graph.len() {
        let Some(side) = game.piece_at(pos, p) else {
            continue;
        };
        let face = game.piece_face(pos, p);
        let placed = at(p).extend(1.0);
        let mut piece = commands.spawn((
            DespawnOnExit(Screen::Review),
            ReviewPiece { point: p, side },
            Transform::from_translation(placed).with_rotation(piece_rotation::<G>(side, bottom)),
            Visibility::default(),
        ));
        piece.with_children(|c| G::piece_children(c, &art, &fonts, &settings, side, face));
        if let Some(path) = &path
            && path.last() == Some(&p)
        {
            let stops: Vec<Vec3> = path.iter().map(|&q| at(q).extend(1.5)).collect();
            let hops = path.len().saturating_sub(1).max(1);
            let (duration, arc) = if hops > 1 || (!G::SQUARES && is_capture(&review, moved_ply)) {
                (HOP * hops as f32, 30.0)
            } else {
                (SLIDE, 0.0)
            };
            piece.insert((
                Transform::from_translation(stops[0])
                    .with_rotation(piece_rotation::<G>(side, bottom)),
                Tween::hops(&stops, duration, arc),
            ));
        }
    }
    if let Some(mv) = arriving {
        // Red rings where the move took pieces.
        for p in game.capture_view(&positions[ply - 1], mv).captured {
            commands.spawn((
                scope.clone(),
                Mesh2d(art.red_ring.clone()),
                MeshMaterial2d(art.red.clone()),
                Transform::from_translation(at(p).extend(4.0)),
                Lifetime(0.9),
            ));
        }
    }
    if ply > 0 {
        for p in game.move_path(moves[ply - 1]) {
            art::spawn_highlight(
                &mut commands,
                scope.clone(),
                &art,
                G::SQUARES,
                at(p),
                Highlight::LastMove,
            );
        }
    }
    if let Some(better) = review.suggestion() {
        let points: Vec<Vec2> = game.move_path(better).into_iter().map(at).collect();
        art::spawn_path_arrows(
            &mut commands,
            (DespawnOnExit(Screen::Review), ReviewMarker, ReviewArrow),
            &points,
        );
    }
}

fn is_capture<G: Playable>(review: &Review<G>, ply: usize) -> bool {
    let positions = review.record.positions();
    review
        .game
        .is_capture(&positions[ply - 1], review.record.moves()[ply - 1])
}

/// The move list's text of move `i` (0-based): the game's own record.
fn move_words<G: Playable>(review: &Review<G>, i: usize, settings: &Settings) -> String {
    let moves = review.record.moves();
    let last = i.checked_sub(1).map(|j| moves[j]);
    review
        .game
        .record_move_text(&review.record.positions()[i], moves[i], last, settings)
}

/// Redraws the graph (when a reading came in or the position changed) and
/// the move list (when the judgement came or the language changed), and
/// marks the move shown in the list.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_graph<G: Playable>(
    mut commands: Commands,
    review: Res<Review<G>>,
    mut shown: ResMut<Shown>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    graph: Query<Entity, With<Graph>>,
    list: Query<Entity, With<MoveList>>,
    mut entries: Query<(&ReviewMoveEntry, &mut BackgroundColor, &mut BorderColor)>,
    mut follow: Query<&mut FollowEntry, With<MoveList>>,
) {
    let key = (review.version, review.ply);
    if shown.graph != Some(key) {
        shown.graph = Some(key);
        if let Ok(g) = graph.single() {
            commands.entity(g).despawn_children();
            commands
                .entity(g)
                .with_children(|g| spawn_graph(g, &review));
        }
        for (entry, mut bg, mut edge) in &mut entries {
            bg.0 = entry_background(entry.0 == review.ply);
            *edge = entry_edge(entry.0 == review.ply);
        }
        for mut f in &mut follow {
            f.current = review.ply;
        }
    }
    let list_key = (review.judged.is_some(), settings.lang);
    if shown.list != Some(list_key) {
        shown.list = Some(list_key);
        if let Ok(l) = list.single() {
            commands.entity(l).despawn_children();
            commands.entity(l).with_children(|l| {
                for i in 0..review.moves() {
                    let slip = review.mistake_at(i).map(|m| m.slip);
                    let mark = match slip {
                        Some(Slip::Dubious) => " ?",
                        Some(Slip::Bad) => " ??",
                        None => "",
                    };
                    let words = format!("{}. {}{mark}", i + 1, move_words(&review, i, &settings));
                    let color = slip.map_or(palette::INK, slip_color);
                    let target = i + 1;
                    l.spawn((
                        ReviewMoveEntry(target),
                        ListEntry(target),
                        Node {
                            width: percent(100),
                            padding: UiRect::axes(px(3), px(1)),
                            border: UiRect::left(px(3)),
                            ..default()
                        },
                        BackgroundColor(entry_background(target == review.ply)),
                        entry_edge(target == review.ply),
                        children![widgets::text(&fonts, words, ty::CAPTION, color)],
                    ))
                    .observe(send(ReviewCommand::GoTo(target)));
                }
            });
        }
    }
}

/// The move shown is marked by a bar on its left as well as its colour.
fn entry_edge(current: bool) -> BorderColor {
    BorderColor::all(if current { palette::INK } else { Color::NONE })
}

fn entry_background(current: bool) -> Color {
    if current {
        palette::LAST_MOVE
    } else {
        Color::NONE
    }
}

/// The graph's columns: one per position, its bar up while the player is
/// ahead and down while behind, the position shown in gold, each mistake
/// marked over the position it led to.
fn spawn_graph<G: Playable>(g: &mut ChildSpawnerCommands, review: &Review<G>) {
    let n = review.readings.len().max(1);
    let w = GRAPH_WIDTH / n as f32;
    let mid = GRAPH_HEIGHT / 2.0;
    g.spawn((
        Node {
            position_type: PositionType::Absolute,
            top: px(mid),
            width: percent(100),
            height: px(1),
            ..default()
        },
        BackgroundColor(palette::INK_SOFT),
    ));
    let cap = G::REVIEW_MARGINS.cap.max(1) as f32;
    let values = review.judged.as_ref().map(|j| &j.values);
    for i in 0..n {
        let current = i == review.ply;
        let mut column = g.spawn((
            ReviewGraphBar(i),
            Node {
                position_type: PositionType::Absolute,
                left: px(i as f32 * w),
                top: px(0),
                width: px(w.max(1.0)),
                height: percent(100),
                ..default()
            },
            BackgroundColor(if current {
                palette::GOLD.with_alpha(0.45)
            } else {
                Color::NONE
            }),
        ));
        column.observe(send(ReviewCommand::GoTo(i)));
        let value = values.and_then(|v| v.get(i)).copied();
        let mistake = i.checked_sub(1).and_then(|m| review.mistake_at(m));
        column.with_children(|c| {
            if let Some(v) = value {
                let h = (v as f32 / cap).clamp(-1.0, 1.0) * (mid - 8.0);
                c.spawn((
                    Node {
                        position_type: PositionType::Absolute,
                        left: px(0),
                        width: percent(100),
                        top: px(if h >= 0.0 { mid - h } else { mid }),
                        height: px(h.abs().max(1.0)),
                        ..default()
                    },
                    BackgroundColor(if h >= 0.0 { AHEAD } else { BEHIND }),
                ));
            }
            if let Some(m) = mistake {
                c.spawn((
                    Node {
                        position_type: PositionType::Absolute,
                        top: px(1),
                        left: px(w / 2.0 - 3.0),
                        width: px(6),
                        height: px(6),
                        ..default()
                    },
                    BackgroundColor(slip_color(m.slip)),
                ));
            }
        });
    }
}

/// The panel's words: how the game ended, the position shown and its
/// move, the evaluation (or the exact verdict), the next move's mistake,
/// and the reading's progress.
#[allow(clippy::type_complexity)]
pub(super) fn update_panel<G: Playable>(
    review: Res<Review<G>>,
    settings: Res<Settings>,
    mut texts: ParamSet<(
        Query<&mut Text, With<ResultText>>,
        Query<&mut Text, With<PlyText>>,
        Query<&mut Text, With<StatusText>>,
        Query<&mut Text, With<EvalText>>,
        Query<&mut Text, With<MistakeText>>,
        Query<&mut Text, With<ProgressText>>,
        Query<&mut Text, With<ShareText>>,
    )>,
    mut progress: Query<&mut Node, (With<ProgressBox>, Without<ProgressFill>)>,
    mut fill: Query<&mut Node, (With<ProgressFill>, Without<ProgressBox>)>,
    mut eval_bar: Query<
        (&mut Node, &mut ReviewEvalFill),
        (Without<ProgressFill>, Without<ProgressBox>),
    >,
) {
    if !review.is_changed() && !settings.is_changed() {
        return;
    }
    let lang = settings.lang;
    let ply = review.ply;
    let game = &review.game;
    let pos = &review.record.positions()[ply];
    let mut result = match review.outcome {
        Some(o) => {
            let head = match o.winner {
                Some(w) => G::wins_text(w),
                None => T::Draw,
            };
            let reason = game.record_reason_text(&review.record, o.reason);
            format!("{} — {}", head.get(lang), reason.get(lang))
        }
        None => String::new(),
    };
    if let Some(j) = &review.judged {
        let count = |s: Slip| j.mistakes.iter().flatten().filter(|m| m.slip == s).count();
        let (dubious, bad) = (count(Slip::Dubious), count(Slip::Bad));
        let summary = if dubious + bad == 0 {
            T::ReviewNoMistakes.get(lang).to_string()
        } else {
            T::ReviewMistakeCount
                .get(lang)
                .replacen("{}", &dubious.to_string(), 1)
                .replacen("{}", &bad.to_string(), 1)
        };
        result = format!("{result}\n{summary}");
    }
    set(&mut texts.p0(), result);
    let ply_words = if ply == 0 {
        T::ReviewStart.get(lang).to_string()
    } else {
        format!(
            "{} {}",
            T::ReviewPly.get(lang).replace("{}", &ply.to_string()),
            move_words(&review, ply - 1, &settings)
        )
    };
    set(&mut texts.p1(), ply_words);
    set(&mut texts.p2(), game.status_line(pos, lang));
    let value = review
        .judged
        .as_ref()
        .and_then(|j| j.values.get(ply))
        .copied();
    let eval = match (exact_words(&review, ply, lang), value) {
        (Some(exact), _) => format!("{} {exact}", T::ReviewEvaluation.get(lang)),
        (None, Some(v)) => format!("{} {v:+}", T::ReviewEvaluation.get(lang)),
        (None, None) => String::new(),
    };
    set(&mut texts.p3(), eval);
    let share = eval_share(value, G::REVIEW_MARGINS.cap);
    for (mut node, mut fill) in &mut eval_bar {
        if fill.0 != share {
            fill.0 = share;
            node.width = percent(share);
        }
    }
    let mistake = review
        .mistake_at(ply)
        .map(|m| {
            format!(
                "{} {}: {}\n{} {}",
                T::ReviewNextMove.get(lang),
                move_words(&review, ply, &settings),
                slip_text(m.slip).get(lang),
                T::ReviewBetter.get(lang),
                game.record_move_text(
                    pos,
                    m.better,
                    ply.checked_sub(1).map(|j| review.record.moves()[j]),
                    &settings
                )
            )
        })
        .unwrap_or_default();
    set(&mut texts.p4(), mistake);
    let total = review.readings.len();
    let read = review.read_count();
    let progress_words = if review.exact_pending {
        T::ReviewTables.get(lang).to_string()
    } else {
        format!("{} {read}/{total}", T::ReviewReading.get(lang))
    };
    set(&mut texts.p5(), progress_words);
    set(&mut texts.p6(), review.message.clone().unwrap_or_default());
    for mut node in &mut progress {
        node.display = if review.finished() {
            Display::None
        } else {
            Display::Flex
        };
    }
    for mut node in &mut fill {
        node.width = percent(read as f32 * 100.0 / total.max(1) as f32);
    }
}

/// The player's share of the evaluation bar for `value` (even while the
/// position is unread): a won position fills it.
pub fn eval_share(value: Option<i32>, cap: i32) -> f32 {
    let v = value.unwrap_or(0).clamp(-cap, cap) as f32;
    50.0 + 50.0 * v / cap.max(1) as f32
}

fn set<F: bevy::ecs::query::QueryFilter>(q: &mut Query<&mut Text, F>, words: String) {
    for mut t in q.iter_mut() {
        if t.0 != words {
            t.0 = words.clone();
        }
    }
}
