//! Moves shown: a piece slides or hops along its path, captures get their
//! gold frames and red rings and fly to the 駒台, then the board is rebuilt
//! from the rules and the marks redrawn.

use bevy::prelude::*;

use super::analysis::{Analysis, draw_line_arrows};
use super::state::{
    Animating, HOP, LastResult, Marker, PieceView, PlayMove, PlayUi, SLIDE, ShownFace,
    StandContent, stand_center,
};
use crate::games::art::{self, Art, Highlight};
use crate::games::board_place::piece_rotation;
use crate::games::board_view::BoardView;
use crate::games::resume;
use crate::games::session::{Match, PieceFace, Playable};
use crate::rules::board::PointId;
use crate::rules::game::Side;
use crate::rules::taps;
use crate::shell::anim::{Lifetime, Tween};
use crate::shell::audio::Sfx;
use crate::shell::layout::Layout;
use crate::shell::save::Store;
use crate::shell::settings::Settings;
use crate::shell::widgets::{Fonts, palette};
use crate::shell::{BugContext, GameProgress, Screen};

/// How much a moving piece grows mid-way: lifted off the board, its
/// shadow falling further, and set down again.
const PIECE_LIFT: f32 = 0.08;

pub(super) fn apply_moves<G: Playable>(
    mut moves: MessageReader<PlayMove<G>>,
    mut m: ResMut<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    view: Res<BoardView>,
    mut store: ResMut<Store>,
    mut bug: ResMut<BugContext>,
    mut commands: Commands,
    art: Res<Art>,
    mut pieces_q: Query<(Entity, &mut PieceView, &Transform)>,
    mut sfx: MessageWriter<Sfx>,
) {
    for &PlayMove(mv) in moves.read() {
        let m = &mut *m;
        let before = m.record.current().clone();
        let mover = m.game.side_to_move(&before);
        let report = m.game.capture_view(&before, mv);
        let played = match m.record.play(&m.game, mv) {
            Ok(p) => p,
            Err(e) => {
                warn!("refused move: {e}");
                sfx.write(Sfx::Illegal);
                continue;
            }
        };
        let graph = m.game.graph();
        let to_world = |p: PointId| view.world(graph, p);
        let path = m.game.move_path(mv);
        let hops = path.len().saturating_sub(1).max(1);
        // A jump is shown hop by hop, a step as one slide.
        let (duration, arc) = if report.captured.is_empty() || G::SQUARES {
            (SLIDE, 0.0)
        } else {
            (HOP * hops as f32, 30.0)
        };
        let stand = stand_center(&view, mover, m.setup.bottom_side());
        let (start, end) = (path[0], path[path.len() - 1]);
        for (entity, mut piece, transform) in &mut pieces_q {
            if piece.point == start {
                let z = transform.translation.z;
                // From wherever the piece is now (it may be mid-path).
                let mut stops = vec![transform.translation];
                let already = ui.path_shown(graph, &view, transform.translation, &path);
                stops.extend(path[already..].iter().map(|&p| to_world(p).extend(z)));
                commands.entity(entity).insert(
                    Tween::hops(&stops, duration, arc)
                        .lifted(PIECE_LIFT)
                        .landing(Sfx::Koma),
                );
                piece.point = end;
            } else if let Some(i) = report.captured.iter().position(|&c| c == piece.point) {
                // Each taken piece leaves when the mover has passed it.
                let delay = if report.captured.len() > 1 {
                    duration * (i + 1) as f32 / report.captured.len() as f32
                } else {
                    duration
                } + 0.5;
                commands
                    .entity(entity)
                    .remove::<PieceView>()
                    .insert(Tween::flight(
                        transform.translation,
                        stand.extend(3.0),
                        delay,
                        0.5,
                        60.0,
                        0.55,
                    ));
            }
        }
        let linger = duration + 0.75;
        // Gold frames on the capturing pieces, red rings on the captured.
        for &p in &report.capturers {
            art::spawn_gold_frame(
                &mut commands,
                DespawnOnExit(Screen::Play),
                to_world(p),
                linger,
            );
        }
        for &p in &report.captured {
            commands.spawn((
                DespawnOnExit(Screen::Play),
                Mesh2d(art.red_ring.clone()),
                MeshMaterial2d(art.red.clone()),
                Transform::from_translation(to_world(p).extend(4.0)),
                Lifetime(linger),
            ));
        }
        // The 駒音 is heard when the piece is set down (its tween); a
        // capture sounds as it is made.
        if !report.captured.is_empty() {
            sfx.write(Sfx::Capture);
        }
        // A piece being inspected is followed; one taken is gone.
        ui.inspected = ui.inspected.and_then(|p| match p {
            _ if report.captured.contains(&p) => None,
            _ if p == start => Some(end),
            _ if p == end => None,
            p => Some(p),
        });
        ui.last_move = Some(mv);
        ui.path.clear();
        ui.choice.clear();
        ui.hint = None;
        ui.dirty = true;
        ui.pending_sync = true;
        ui.notice = m.game.record_notice(&m.record);
        ui.message = None;
        if played.outcome.is_some() {
            resume::forget(&mut store, &*m);
        } else {
            resume::keep(&mut store, &*m);
        }
        bug.0 = m.bug_text();
    }
}

impl<G: Playable> PlayUi<G> {
    /// How many points of `path` the piece has already been moved along
    /// by the player's taps (it stands on the last of them).
    fn path_shown(
        &self,
        graph: &crate::rules::board::BoardGraph,
        view: &BoardView,
        at: Vec3,
        path: &[PointId],
    ) -> usize {
        (1..path.len())
            .rev()
            .find(|&i| view.world(graph, path[i]).distance(at.truncate()) < 1.0)
            .map_or(1, |i| i + 1)
    }
}

/// Once the animation has played, rebuild the pieces from the rules (so the
/// view can never drift from them), then celebrate and end a finished game.
pub(super) fn settle<G: Playable>(
    mut commands: Commands,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    view: Res<BoardView>,
    art: Res<Art>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    time: Res<Time>,
    animating: Animating,
    mut pieces_q: Query<(Entity, &PieceView, &ShownFace, &mut Transform)>,
    stands: Query<Entity, With<StandContent>>,
    layout: Res<Layout>,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
    mut progress: ResMut<GameProgress>,
) {
    // Read before writing: `PlayUi` then only counts as changed when it is.
    if let Some(left) = ui.end_timer {
        let left = left - time.delta_secs();
        if left > 0.0 || !animating.is_empty() {
            ui.end_timer = Some(left);
            return;
        }
        ui.end_timer = None;
        let pos = m.record.current();
        if let Some(outcome) = m.record.outcome(&m.game) {
            commands.insert_resource(LastResult::<G> {
                outcome,
                reason: m.game.record_reason_text(&m.record, outcome.reason),
                setup: m.setup.clone(),
                plies: m.record.ply(),
                detail: m.game.result_detail(pos, outcome, settings.lang),
            });
        }
        next.set(Screen::Result);
        return;
    }
    if !ui.pending_sync || !animating.is_empty() {
        return;
    }
    ui.pending_sync = false;
    progress.ply = m.record.ply();
    progress.position = m.game.position_code(m.record.current());
    progress.players = None;
    for e in &stands {
        commands.entity(e).despawn();
    }
    let pos = m.record.current();
    let graph = m.game.graph();
    let bottom = m.setup.bottom_side();
    let placed = |p: PointId, side: Side| {
        Transform::from_translation(view.world(graph, p).extend(1.0))
            .with_rotation(piece_rotation::<G>(side, bottom))
    };
    // The rules' pieces, point by point. A piece already shown there as
    // itself keeps its entity (set exactly in place); every other one is
    // drawn anew — a move redraws a few koma, not all 92 of 中将棋.
    let mut wanted: Vec<Option<(Side, Option<PieceFace>)>> = (0..graph.len())
        .map(|p| {
            m.game
                .piece_at(pos, p)
                .map(|s| (s, m.game.piece_face(pos, p)))
        })
        .collect();
    for (e, piece, face, mut transform) in &mut pieces_q {
        let shown = (piece.side, face.0);
        match wanted.get_mut(piece.point) {
            Some(w) if *w == Some(shown) => {
                *w = None;
                *transform = placed(piece.point, piece.side);
            }
            _ => commands.entity(e).despawn(),
        }
    }
    for (p, want) in wanted.into_iter().enumerate() {
        if let Some((side, face)) = want {
            commands
                .spawn((
                    DespawnOnExit(Screen::Play),
                    PieceView { point: p, side },
                    ShownFace(face),
                    placed(p, side),
                    Visibility::default(),
                ))
                .with_children(|c| G::piece_children(c, &art, &fonts, &settings, side, face));
        }
    }
    for side in Side::BOTH {
        let Some(taken) = m.game.taken_by(pos, side) else {
            continue;
        };
        if !layout.has_stands() {
            continue;
        }
        let center = stand_center(&view, side, bottom);
        let victim = side.opponent();
        for i in 0..(taken as usize).min(10) {
            let (cx, cy) = ((i % 5) as f32, (i / 5) as f32);
            let at = center + Vec2::new((cx - 2.0) * 26.0, 18.0 - cy * 34.0);
            commands
                .spawn((
                    DespawnOnExit(Screen::Play),
                    StandContent,
                    Transform::from_translation(at.extend(0.5))
                        .with_scale(Vec3::splat(0.5))
                        .with_rotation(piece_rotation::<G>(victim, bottom.opponent())),
                    Visibility::default(),
                ))
                .with_children(|c| G::piece_children(c, &art, &fonts, &settings, victim, None));
        }
        commands.spawn((
            DespawnOnExit(Screen::Play),
            StandContent,
            Text2d::new(format!("×{taken}")),
            TextFont {
                font: fonts.ui.clone().into(),
                font_size: FontSize::Px(22.0),
                ..default()
            },
            TextColor(palette::INK),
            Transform::from_translation((center + Vec2::new(55.0, -42.0)).extend(0.6)),
        ));
    }
    ui.dirty = true;
    // 検討 goes on past the end of a game: no celebration, no result.
    if let Some(outcome) = m.record.outcome(&m.game).filter(|_| !m.setup.analysing()) {
        let human_won = match (m.setup.own_side(), outcome.winner) {
            (Some(own), Some(w)) => Some(w == own),
            _ => None,
        };
        sfx.write(if human_won == Some(false) {
            Sfx::Lose
        } else {
            Sfx::Win
        });
        if outcome.winner.is_some() && human_won != Some(false) {
            celebrate(&mut commands, view.center);
        }
        ui.end_timer = Some(if settings.reduced_motion { 0.3 } else { 1.6 });
    }
}

/// A burst of paper confetti for a win.
pub(super) fn celebrate(commands: &mut Commands, center: Vec2) {
    let colors = [
        palette::GOLD,
        palette::VERMILION,
        Color::srgb(0.2, 0.5, 0.8),
        Color::srgb(0.3, 0.7, 0.3),
    ];
    for i in 0..40 {
        let a = i as f32 * 2.399;
        let r = 80.0 + (i % 7) as f32 * 40.0;
        let to = center + Vec2::new(a.cos() * r, a.sin() * r);
        commands.spawn((
            DespawnOnExit(Screen::Play),
            Sprite::from_color(colors[i % colors.len()], Vec2::new(10.0, 6.0)),
            Transform::from_translation(center.extend(8.0)).with_rotation(Quat::from_rotation_z(a)),
            Tween::flight(
                center.extend(8.0),
                to.extend(8.0),
                (i % 5) as f32 * 0.05,
                0.9,
                120.0,
                1.2,
            ),
        ));
    }
}

pub(super) fn redraw_markers<G: Playable>(
    mut commands: Commands,
    m: Res<Match<G>>,
    mut ui: ResMut<PlayUi<G>>,
    view: Res<BoardView>,
    art: Res<Art>,
    fonts: Res<Fonts>,
    analysis: Option<Res<Analysis<G>>>,
    markers: Query<Entity, With<Marker>>,
) {
    if !ui.dirty {
        return;
    }
    ui.dirty = false;
    for e in &markers {
        commands.entity(e).despawn();
    }
    let graph = m.game.graph();
    let scope = (DespawnOnExit(Screen::Play), Marker);
    let at = |p: PointId| view.world(graph, p);
    if let Some(mv) = ui.last_move {
        for p in m.game.move_path(mv) {
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
    if !ui.path.is_empty() {
        let pos = m.record.current();
        // Enemy pieces the path so far passes over are taken if the move
        // goes on: red rings.
        let mover = m.game.side_to_move(pos);
        for &p in ui.path.iter().skip(1) {
            if m.game.piece_at(pos, p).is_some_and(|s| s != mover) {
                commands.spawn((
                    scope.clone(),
                    Mesh2d(art.red_ring.clone()),
                    MeshMaterial2d(art.red.clone()),
                    Transform::from_translation(at(p).extend(6.0)),
                ));
            }
        }
        for &p in &ui.path {
            art::spawn_highlight(
                &mut commands,
                scope.clone(),
                &art,
                G::SQUARES,
                at(p),
                Highlight::Selected,
            );
        }
        let marks = m.setup.marks && G::HAS_MARKS;
        let legal = m.record.legal_moves(&m.game);
        for to in taps::next_points_in(&m.game, pos, &legal, &ui.path) {
            commands.spawn((
                scope.clone(),
                Mesh2d(art.dot.clone()),
                MeshMaterial2d(art.blue.clone()),
                Transform::from_translation(at(to).extend(2.0)),
            ));
            let mut path = ui.path.clone();
            path.push(to);
            if marks
                && taps::move_along_in(&m.game, pos, &legal, &path)
                    .is_some_and(|mv| m.game.dangerous(pos, mv))
            {
                art::spawn_cross(&mut commands, scope.clone(), at(to));
            }
        }
    }
    if let Some(c) = ui.cursor {
        art::spawn_cursor(&mut commands, scope.clone(), &art, G::SQUARES, at(c));
    }
    if let Some(a) = analysis.filter(|_| m.setup.analysing()) {
        draw_line_arrows(&mut commands, &m, &a, &view, &fonts);
    }
    if let Some(h) = ui.hint {
        // Blue dotted arrows along the whole move.
        let points: Vec<Vec2> = m.game.move_path(h).into_iter().map(at).collect();
        art::spawn_path_arrows(&mut commands, scope.clone(), &points);
    }
}
