//! 中将棋's koma in the three piece sets players choose between: the
//! two-kanji names of real koma, the one-kanji abbreviations (獅, 奔, 龍,
//! 馬), and a mnemonic set that draws each piece's moves on its koma.
//! Promoted pieces are written and drawn in red in every set.

use bevy::prelude::*;

use super::super::art::{self, Art, CELL};
use super::super::session::PieceFace;
use crate::rules::chu::pieces::{DIRECTIONS, Kind, Reach};
use crate::rules::game::Side;
use crate::shell::settings::ChuPieceSet;
use crate::shell::widgets::{Fonts, palette};

/// The kind a koma's face names (`name` as [`Kind::name_for`] gives it).
fn kind_named(name: &str, side: Side) -> Kind {
    Kind::ALL
        .into_iter()
        .find(|k| k.name_for(side).0 == name)
        .unwrap_or(Kind::King)
}

/// The one kanji of the one-kanji set: the traditional abbreviation
/// (lishogi's set and the Japanese books write the same), 王 for 先手's
/// king and 玉 for 後手's.
pub fn one_kanji(kind: Kind, side: Side) -> char {
    match (kind, side) {
        (Kind::King, Side::First) => '王',
        _ => kind.short_name(),
    }
}

/// Draws a koma of `side` with `face` (the king when none is given) as
/// `set` writes it, sized for a board of `cell`-wide squares.
pub(super) fn koma_children(
    parent: &mut ChildSpawnerCommands,
    art: &Art,
    fonts: &Fonts,
    set: ChuPieceSet,
    side: Side,
    face: Option<PieceFace>,
    cell: f32,
) {
    let face = face.unwrap_or(PieceFace {
        name: Kind::King.name_for(side).0,
        promoted: false,
        size: 1.0,
    });
    let kind = kind_named(face.name, side);
    let scale = cell / CELL * face.size;
    let promoted = face.promoted;
    let color = if promoted {
        palette::VERMILION
    } else {
        palette::INK
    };
    parent
        .spawn((
            Transform::from_scale(Vec3::splat(scale)),
            Visibility::default(),
        ))
        .with_children(|koma| match set {
            ChuPieceSet::TwoKanji => art::koma_named(koma, art, fonts, face.name, color),
            ChuPieceSet::OneKanji => {
                art::koma(koma, art, fonts, &one_kanji(kind, side).to_string(), color)
            }
            ChuPieceSet::Mnemonic => mnemonic(koma, art, fonts, kind, side, promoted),
        });
}

/// Where the marks radiate from: a little below the koma's middle, where
/// it is widest.
const HUB: Vec2 = Vec2::new(0.0, -CELL * 0.03);
/// A step's dot, from the hub.
const STEP_AT: f32 = CELL * 0.215;
/// A slide's line, from the hub.
const SLIDE_FROM: f32 = CELL * 0.15;
const SLIDE_TO: f32 = CELL * 0.30;
/// A jump's ring, from the hub (beyond the step).
const JUMP_AT: f32 = CELL * 0.285;
/// Thickness of a slide's line.
const LINE: f32 = CELL * 0.062;

/// The mnemonic koma: one small kanji in the middle and the moves round
/// it, each direction as the piece's owner sees it (forward is up on the
/// koma): a dot for a step, a line for a slide, a ring two squares out for
/// a jump, a dot and a ring for a lion line (飛鷲, 角鷹), and a circle all
/// round for the 獅子's lion power.
fn mnemonic(
    koma: &mut ChildSpawnerCommands,
    art: &Art,
    fonts: &Fonts,
    kind: Kind,
    side: Side,
    promoted: bool,
) {
    let (color, material) = if promoted {
        (palette::VERMILION, art.vermilion.clone())
    } else {
        (palette::INK, art.ink.clone())
    };
    art::koma(koma, art, fonts, "", color);
    koma.spawn((
        Text2d::new(one_kanji(kind, side).to_string()),
        TextFont {
            font: fonts.koma.clone().into(),
            font_size: FontSize::Px(CELL * 0.22),
            ..default()
        },
        TextColor(color),
        Transform::from_translation(HUB.extend(0.2)),
    ));
    let dot = |koma: &mut ChildSpawnerCommands, at: Vec2| {
        koma.spawn((
            Mesh2d(art.mark_dot.clone()),
            MeshMaterial2d(material.clone()),
            Transform::from_translation((HUB + at).extend(0.25)),
        ));
    };
    let ring = |koma: &mut ChildSpawnerCommands, at: Vec2| {
        koma.spawn((
            Mesh2d(art.mark_ring.clone()),
            MeshMaterial2d(material.clone()),
            Transform::from_translation((HUB + at).extend(0.25)),
        ));
    };
    let movement = kind.movement();
    if movement.lion {
        koma.spawn((
            Mesh2d(art.lion_ring.clone()),
            MeshMaterial2d(material.clone()),
            Transform::from_translation(HUB.extend(0.25)),
        ));
    }
    for (i, dir) in DIRECTIONS.iter().enumerate() {
        let (right, forward) = dir.delta();
        let unit = Vec2::new(right as f32, forward as f32).normalize();
        match movement.reach[i] {
            Reach::No => {}
            Reach::Step => dot(koma, unit * STEP_AT),
            Reach::Slide => {
                let middle = unit * (SLIDE_FROM + SLIDE_TO) / 2.0;
                koma.spawn((
                    Sprite::from_color(color, Vec2::new(SLIDE_TO - SLIDE_FROM, LINE)),
                    Transform::from_translation((HUB + middle).extend(0.25))
                        .with_rotation(Quat::from_rotation_z(unit.to_angle())),
                ));
            }
            Reach::Jump => ring(koma, unit * JUMP_AT),
            Reach::LionLine => {
                dot(koma, unit * STEP_AT);
                ring(koma, unit * JUMP_AT);
            }
        }
    }
}
