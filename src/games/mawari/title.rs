//! The title's life: now and then the four 金将 of まわり将棋 are thrown
//! across the title by the real koma-dice simulation, tumble and come to
//! rest. With reduced motion they lie still where a throw left them. And
//! the game's miniature on the list.

use bevy::prelude::*;

use super::dice_view::{self, DiceSprites};
use super::look::COLOURS;
use crate::games::card_picture;
use crate::games::wood::Wood;
use crate::rules::data::GameId;
use crate::rules::mawari::dice::{KomaDice, Throw, Toss};
use crate::shell::Screen;
use crate::shell::screens::CardPicture;
use crate::shell::settings::Settings;
use crate::shell::widgets::Fonts;

/// Where on the title the koma land: below the buttons, to the right.
const ORIGIN: Vec2 = Vec2::new(300.0, -250.0);
/// Seconds the koma lie still before the next throw.
const REST: f32 = 4.0;
/// The first throw's seed: the same title every run (and in pictures).
const FIRST_SEED: u64 = 3;

/// The throw playing on the title.
#[derive(Resource, Debug)]
pub struct TitleThrow {
    dice: KomaDice,
    throw: Throw,
    seed: u64,
    /// Seconds since the throw began.
    t: f32,
    /// The frame drawn last: the koma are redrawn only when it changes.
    drawn: Option<usize>,
}

pub(super) fn enter_title(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    fonts: Res<Fonts>,
    previous: Option<Res<TitleThrow>>,
) {
    let dice = KomaDice::new();
    let sprites = dice_view::spawn_dice(
        &mut commands,
        &mut meshes,
        &mut materials,
        &fonts,
        &dice.shape,
        DespawnOnExit(Screen::Title),
    );
    commands.insert_resource(sprites);
    // Back on the title, the next throw.
    let seed = previous.map_or(FIRST_SEED, |p| p.seed + 1);
    let throw = dice.throw(Toss::natural(seed), true);
    commands.insert_resource(TitleThrow {
        dice,
        throw,
        seed,
        t: 0.0,
        drawn: None,
    });
}

pub(super) fn play_title_throw(
    time: Res<Time>,
    settings: Res<Settings>,
    mut title: ResMut<TitleThrow>,
    mut sprites: DiceSprites,
) {
    let frames = title.throw.frames.len();
    if frames == 0 {
        return;
    }
    let frame = if settings.reduced_motion {
        frames - 1
    } else {
        title.t += time.delta_secs();
        ((title.t * 60.0) as usize).min(frames - 1)
    };
    if title.drawn != Some(frame) {
        sprites.show(&title.throw.frames[frame], ORIGIN);
        title.drawn = Some(frame);
    }
    if !settings.reduced_motion && title.t > frames as f32 / 60.0 + REST {
        title.seed += 1;
        title.throw = title.dice.throw(Toss::natural(title.seed), true);
        title.t = 0.0;
        title.drawn = None;
    }
}

/// まわり将棋's card on the list: the 9×9 board, its track round the edge
/// and four seats' 歩 on their corners.
pub(super) fn fill_card(
    mut commands: Commands,
    wood: Res<Wood>,
    mut images: ResMut<Assets<Image>>,
    cards: Query<(Entity, &CardPicture), Added<CardPicture>>,
) {
    const SQUARES: i32 = 9;
    let spacing = card_picture::SIZE / SQUARES as f32;
    let size = Vec2::splat(card_picture::SIZE);
    for (entity, card) in &cards {
        if card.0 != GameId::Mawari {
            continue;
        }
        let mut canvas = card_picture::Canvas::on_wood(size, &wood);
        canvas.grid(SQUARES, SQUARES, spacing, wood.colors.line);
        let far = (SQUARES as f32 - 0.5) * spacing;
        let near = 0.5 * spacing;
        for (seat, at) in [(near, far), (far, far), (far, near), (near, near)]
            .into_iter()
            .enumerate()
        {
            canvas.piece(Vec2::new(at.0, at.1), spacing * 0.78, COLOURS[seat]);
        }
        let picture = canvas.framed(&mut images, &wood);
        commands.entity(entity).with_child(picture);
    }
}
