//! The play screen's scene, shared with the tutorial: the board and its
//! track, the pieces, the dice and the banner; what the screen is doing
//! ([`Phase`]) and showing ([`Shown`]); entering and leaving it.

use std::collections::VecDeque;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::dice_view;
use super::look::{BOARD_CENTRE, CELL, colour_of, mark_of};
use super::session::MawariMatch;
use crate::games::art::{self, Art};
use crate::rules::mawari::dice::{KomaDice, Throw};
use crate::rules::mawari::order::FirstThrow;
use crate::rules::mawari::race::{Event, Piece, RaceText, Rank, TRACK, War};
use crate::rules::mawari::track::Track;
use crate::shell::i18n::T;
use crate::shell::layout::Layout;
use crate::shell::settings::Settings;
use crate::shell::widgets::{Fonts, palette};
use crate::shell::{BugContext, GameProgress, Screen};

/// What the play screen is doing.
#[derive(Resource, Debug, Default)]
pub enum Phase {
    /// Waiting for the thrower (a CPU throws after a moment).
    #[default]
    Waiting,
    /// The koma are in the air: frame `t` seconds in. `events` is what
    /// the throw did in the race, played once the koma are read.
    Throwing {
        throw: Throw,
        events: Vec<Event>,
        /// Who threw.
        by: usize,
        t: f32,
    },
    /// The koma lie still, their values written beside them.
    Reading {
        throw: Throw,
        events: Vec<Event>,
        by: usize,
        t: f32,
    },
    /// The events of the throw play one by one.
    Moving { events: VecDeque<Event>, t: f32 },
    /// The game is over and the result is shown.
    Over,
}

impl Phase {
    pub fn is_waiting(&self) -> bool {
        matches!(self, Phase::Waiting)
    }
}

/// The pieces as the screen shows them: they follow the rules state event
/// by event while a throw plays out.
#[derive(Resource, Clone, Debug, Default)]
pub struct Shown {
    pub pieces: Vec<Piece>,
    pub banner: Option<(String, f32)>,
    /// Seconds the current phase has waited (a CPU's pause).
    pub waited: f32,
    /// The war as far as it has been shown.
    pub war: Option<War>,
    /// The draw for who throws first, as far as it has been shown.
    pub draw: Option<FirstThrow>,
    /// The places of those through, as far as they have been shown.
    pub finished: Vec<usize>,
    /// The throws of the log whose outcome has been shown.
    pub logged: usize,
}

impl Shown {
    /// The screen showing `m` as it stands.
    pub(crate) fn of(m: &MawariMatch) -> Shown {
        Shown {
            pieces: m.race.pieces.clone(),
            banner: None,
            waited: 0.0,
            war: m.race.war,
            draw: m.draw.clone(),
            finished: m.race.finished.clone(),
            logged: m.log.len(),
        }
    }
}

/// The one kind of koma dice there is (made once: its inertia is
/// integrated when it is built).
#[derive(Resource, Clone, Debug)]
pub(crate) struct Dice(pub KomaDice);

/// A piece on the track.
#[derive(Component, Clone, Copy, Debug)]
pub struct RacePiece(pub usize);

/// What a piece's koma shows, to redraw it only when it changes.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub(crate) struct PieceLook {
    pub rank: Rank,
    pub onbu: bool,
}

/// The banner over the board (what a throw did).
#[derive(Component)]
pub(crate) struct BannerText;

/// The screen's board: where it is, the scope of its entities, and where
/// each track square lies on it (from the shogi board's graph, walked round
/// its edge by [`Track`]).
#[derive(Resource, Clone, Debug)]
pub(crate) struct BoardPlace {
    pub centre: Vec2,
    pub screen: Screen,
    /// Where the panel starts in a portrait window (a share of its
    /// height, the board above it); `None`: beside the board.
    pub panel_top: Option<f32>,
    /// The layout the board was placed by (the panel's place and size).
    pub layout: Layout,
    /// Each track square's cell, counted from the board's bottom-left.
    pub cells: Vec<(i32, i32)>,
}

impl BoardPlace {
    /// The board of `screen` at `centre`, from `levels/boards/shogi9.ron`.
    pub(crate) fn new(layout: Layout, screen: Screen) -> Result<BoardPlace, String> {
        let board = crate::rules::data::board("shogi9").map_err(|e| e.to_string())?;
        let track = Track::around(&board)?;
        let (_, h) = board.extent();
        let cells = (0..TRACK)
            .map(|sq| {
                let p = board.point(track.point(sq));
                // The graph counts rows from the top; the screen from the bottom.
                (p.x, h - 1 - p.y)
            })
            .collect();
        Ok(BoardPlace {
            centre: if layout.panel_top.is_some() || layout.compact {
                layout.board_center
            } else {
                BOARD_CENTRE
            },
            screen,
            panel_top: layout.panel_top,
            layout,
            cells,
        })
    }

    /// Where track square `sq` is, in cells from the board's bottom-left.
    pub(crate) fn cell(&self, sq: u8) -> (i32, i32) {
        self.cells
            .get(usize::from(sq) % self.cells.len().max(1))
            .copied()
            .unwrap_or((0, 0))
    }

    /// One step towards the centre from square `sq` (a dead piece sits there).
    fn inward(&self, sq: u8) -> (i32, i32) {
        let (c, r) = self.cell(sq);
        ((4 - c).signum(), (4 - r).signum())
    }

    fn at(&self, cell: (i32, i32)) -> Vec2 {
        cell_centre(self.centre, cell)
    }
}

fn cell_centre(centre: Vec2, cell: (i32, i32)) -> Vec2 {
    centre + Vec2::new((cell.0 - 4) as f32 * CELL, (cell.1 - 4) as f32 * CELL)
}

/// Where piece `i` stands on screen (pieces sharing a square stand apart).
pub(crate) fn piece_position(place: &BoardPlace, pieces: &[Piece], i: usize) -> Vec2 {
    let p = pieces[i];
    let (c, r) = place.cell(p.square);
    let (dx, dy) = place.inward(p.square);
    let depth = p.depth as i32;
    let mut at = place.at((c + dx * depth, r + dy * depth));
    let sharing: Vec<usize> = (0..pieces.len())
        .filter(|&q| pieces[q].square == p.square && pieces[q].depth == p.depth && !pieces[q].out)
        .collect();
    if sharing.len() > 1 {
        let k = sharing.iter().position(|&q| q == i).unwrap_or(0) as f32;
        let n = sharing.len() as f32;
        at += Vec2::new((k - (n - 1.0) / 2.0) * 14.0, (k - (n - 1.0) / 2.0) * -6.0);
    }
    at
}

fn spawn_board(
    commands: &mut Commands,
    fonts: &Fonts,
    place: &BoardPlace,
    scope: impl Bundle + Clone,
) {
    let centre = place.centre;
    let size = CELL * 9.0;
    commands.spawn((
        scope.clone(),
        Sprite::from_color(Color::srgb(0.55, 0.38, 0.18), Vec2::splat(size + 28.0)),
        Transform::from_translation(centre.extend(-2.0)),
    ));
    commands.spawn((
        scope.clone(),
        art::board_wood(Vec2::splat(size)),
        Transform::from_translation(centre.extend(-1.9)),
    ));
    // The track: the 32 edge squares, the corners marked.
    for sq in 0..TRACK {
        let at = place.at(place.cell(sq));
        let corner = sq % 8 == 0;
        let tint = if corner {
            Color::srgba(0.78, 0.27, 0.18, 0.30)
        } else {
            Color::srgba(1.0, 0.95, 0.8, 0.28)
        };
        commands.spawn((
            scope.clone(),
            Sprite::from_color(tint, Vec2::splat(CELL - 3.0)),
            Transform::from_translation(at.extend(-1.5)),
        ));
        if corner {
            commands.spawn((
                scope.clone(),
                Text2d::new("角"),
                TextFont {
                    font: fonts.koma.clone().into(),
                    font_size: FontSize::Px(15.0),
                    ..default()
                },
                TextColor(Color::srgba(0.6, 0.15, 0.1, 0.8)),
                Transform::from_translation((at + Vec2::new(-22.0, 22.0)).extend(-1.4)),
            ));
        }
    }
    for k in 0..=9 {
        let off = (k as f32 - 4.5) * CELL;
        for (pos, dims) in [
            (Vec2::new(off, 0.0), Vec2::new(1.5, size)),
            (Vec2::new(0.0, off), Vec2::new(size, 1.5)),
        ] {
            commands.spawn((
                scope.clone(),
                art::BoardInk,
                Sprite::from_color(palette::BOARD_LINE, dims),
                Transform::from_translation((centre + pos).extend(-1.0)),
            ));
        }
    }
    // Arrows along the way round.
    for (sq, glyph) in [(4u8, "→"), (12, "↑"), (20, "←"), (28, "↓")] {
        let (c, r) = place.cell(sq);
        let (dx, dy) = place.inward(sq);
        commands.spawn((
            scope.clone(),
            Text2d::new(glyph),
            TextFont {
                font: fonts.ui.clone().into(),
                font_size: FontSize::Px(26.0),
                ..default()
            },
            TextColor(Color::srgba(0.25, 0.17, 0.08, 0.45)),
            Transform::from_translation(place.at((c + dx, r + dy)).extend(-1.2)),
        ));
    }
}

pub(crate) fn spawn_piece_koma(
    parent: &mut ChildSpawnerCommands,
    art: &Art,
    fonts: &Fonts,
    (colour, mark): (Color, &str),
    look: PieceLook,
) {
    parent.spawn((
        Sprite::from_color(colour, Vec2::new(CELL * 0.82, CELL * 0.2)),
        Transform::from_xyz(0.0, -CELL * 0.40, -0.1),
    ));
    // The seat's mark on a patch of its colour, at the koma's foot.
    parent.spawn((
        Sprite::from_color(colour, Vec2::splat(CELL * 0.26)),
        Transform::from_xyz(CELL * 0.27, -CELL * 0.30, 0.6),
        children![(
            Text2d::new(mark),
            TextFont {
                font: fonts.ui.clone().into(),
                font_size: FontSize::Px(CELL * 0.2),
                ..default()
            },
            TextColor(Color::WHITE),
            Transform::from_xyz(0.0, 0.0, 0.1),
        )],
    ));
    let red = look.rank == Rank::Tokin;
    art::koma(
        parent,
        art,
        fonts,
        look.rank.kanji(),
        if red {
            palette::VERMILION
        } else {
            palette::INK
        },
    );
    if look.onbu {
        // The 歩 carried on its back (おんぶ).
        parent
            .spawn((
                Transform::from_xyz(14.0, 16.0, 0.5).with_scale(Vec3::splat(0.5)),
                Visibility::Inherited,
            ))
            .with_children(|c| art::koma(c, art, fonts, "歩", palette::INK));
    }
}

/// How a piece's koma is turned: dead pieces face the centre; the states
/// below 歩 lie sideways, stand up, or lean.
pub(crate) fn piece_rotation(p: &Piece) -> Quat {
    let base = match p.rank {
        Rank::Sideways => Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        Rank::SenkoStand => Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
        _ => Quat::IDENTITY,
    };
    if p.dead() {
        Quat::from_rotation_z(std::f32::consts::PI) * base
    } else {
        base
    }
}

pub(crate) fn spawn_pieces(
    commands: &mut Commands,
    art: &Art,
    fonts: &Fonts,
    place: &BoardPlace,
    m: &MawariMatch,
    scope: impl Bundle + Clone,
) {
    let pieces = &m.race.pieces;
    for (i, p) in pieces.iter().enumerate() {
        let look = PieceLook {
            rank: p.rank,
            onbu: p.onbu_left.is_some(),
        };
        commands
            .spawn((
                scope.clone(),
                RacePiece(i),
                look,
                Transform::from_translation(
                    piece_position(place, pieces, i).extend(5.0 + i as f32),
                ),
                Visibility::Inherited,
            ))
            .with_children(|c| {
                spawn_piece_koma(c, art, fonts, (colour_of(m, i), mark_of(m, i)), look)
            });
    }
}

/// A message for the play screen about how the game started (a position
/// from the command line or the page, or why it could not be used).
#[derive(Resource, Clone, Debug, Default)]
pub(crate) struct StartNotice(pub Option<String>);

pub(crate) fn enter_play(
    mut scene: SceneMaker,
    m: Res<MawariMatch>,
    mut progress: ResMut<GameProgress>,
    mut start_notice: ResMut<StartNotice>,
    settings: Res<Settings>,
    mut bug: ResMut<BugContext>,
) {
    let text = RaceText::of(&m.race).write();
    progress.ply = m.log.len();
    progress.position = Some(text.clone());
    progress.players = Some(m.players_text());
    bug.0 = format!("mawari {text}");
    if !scene.open(&m, Screen::Play) {
        return;
    }
    let lang = settings.lang;
    if let Some(n) = start_notice.0.take() {
        let text = if n == "position" {
            T::PositionImported.get(lang).to_string()
        } else {
            format!("{}: {n}", T::PositionUnreadable.get(lang))
        };
        scene.commands.insert_resource(Shown {
            banner: Some((text, 4.0)),
            ..Shown::of(&m)
        });
    }
}

/// What building the board's scene needs (the play screen and the
/// tutorial both build it).
#[derive(SystemParam)]
pub(crate) struct SceneMaker<'w, 's> {
    pub commands: Commands<'w, 's>,
    fonts: Res<'w, Fonts>,
    art: Res<'w, Art>,
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: ResMut<'w, Assets<ColorMaterial>>,
    next: ResMut<'w, NextState<Screen>>,
    windows: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
}

impl SceneMaker<'_, '_> {
    /// Builds `m`'s board, pieces, dice and banner for `screen`; if the
    /// board cannot be built, says why and goes back to the list.
    pub(crate) fn open(&mut self, m: &MawariMatch, screen: Screen) -> bool {
        let window = self.windows.single().ok();
        match setup_scene(
            &mut self.commands,
            m,
            &self.fonts,
            &self.art,
            &mut self.meshes,
            &mut self.materials,
            screen,
            window,
        ) {
            Ok(()) => true,
            Err(e) => {
                self.back_to_list(e);
                false
            }
        }
    }

    /// Says what went wrong and shows the list again.
    pub(crate) fn back_to_list(&mut self, why: impl std::fmt::Display) {
        error!("{why}");
        self.next.set(Screen::GameList);
    }
}

/// The board, the pieces, the dice and the panel for `screen`.
fn setup_scene(
    commands: &mut Commands,
    m: &MawariMatch,
    fonts: &Fonts,
    art: &Art,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<ColorMaterial>,
    screen: Screen,
    window: Option<&Window>,
) -> Result<(), String> {
    let scope = DespawnOnExit(screen);
    let layout = Layout::for_window(window, Vec2::splat(CELL * 4.5 + 14.0), false);
    let place = BoardPlace::new(layout, screen)?;
    let centre = place.centre;
    // The banner above the board, or below it where the board is at the
    // top of a portrait window.
    let banner_y = if place.panel_top.is_some() {
        -(CELL * 4.5 + 40.0)
    } else {
        CELL * 4.5 + 42.0
    };
    spawn_board(commands, fonts, &place, scope.clone());
    spawn_pieces(commands, art, fonts, &place, m, scope.clone());
    let dice = KomaDice::new();
    let meshes_res = dice_view::spawn_dice(
        commands,
        meshes,
        materials,
        fonts,
        &dice.shape,
        scope.clone(),
    );
    commands.insert_resource(meshes_res);
    commands.insert_resource(Dice(dice));
    commands.insert_resource(place);
    commands.insert_resource(Shown::of(m));
    commands.insert_resource(if m.race.is_over() {
        Phase::Over
    } else {
        Phase::Waiting
    });
    commands.spawn((
        scope,
        BannerText,
        Text2d::new(""),
        TextFont {
            font: fonts.ui.clone().into(),
            font_size: FontSize::Px(38.0),
            ..default()
        },
        TextColor(palette::VERMILION),
        Transform::from_translation((centre + Vec2::new(0.0, banner_y)).extend(95.0)),
    ));
    Ok(())
}

pub(crate) fn leave(mut commands: Commands) {
    commands.remove_resource::<Phase>();
    commands.remove_resource::<Shown>();
    commands.remove_resource::<MawariMatch>();
}
