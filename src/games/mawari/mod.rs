//! まわり将棋 on screen: a setup screen (2–4 seats, each a person or the
//! CPU; 基本, 全部 or 自分で決める rules; 早投げ), the play screen (the board
//! with its 32-square track, the pieces, each player's rank ladder, the
//! koma-dice thrown with a drag and simulated, moves square by square with
//! named banners for the special rules, a throw log, 続きから), and a
//! tutorial of staged examples. The race and the dice are
//! `crate::rules::mawari`; this module only presents them.

pub mod dice_view;
pub mod lesson;

use std::collections::VecDeque;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use serde::{Deserialize, Serialize};

use super::art::{self, Art};
use crate::rules::data::GameId;
use crate::rules::mawari::dice::{KomaDice, Pose, Throw, ThrowValue, Toss};
use crate::rules::mawari::physics::SplitMix64;
use crate::rules::mawari::race::{
    BabaRule, Event, KeimaPush, MawariRules, Piece, Race, RaceText, Rank, TRACK,
};
use crate::rules::mawari::track::Track;
use crate::shell::anim::{Lifetime, Tween};
use crate::shell::audio::Sfx;
use crate::shell::i18n::{Lang, T};
use crate::shell::layout::{Layout, panel_node};
use crate::shell::save::{LoadError, Store};
use crate::shell::screens::{ResumeRequest, go_to};
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, Fonts, palette};
use crate::shell::{ChosenGame, GameProgress, Notice, PendingPosition, Screen};
use dice_view::DiceSprites;

/// Side of one square on the play screen.
pub const CELL: f32 = 64.0;
/// The board's centre on a landscape screen.
pub const BOARD_CENTRE: Vec2 = Vec2::new(-215.0, -22.0);
/// The players' colours: 赤, 青, 緑, 紫.
pub const COLOURS: [Color; 4] = [
    Color::srgb(0.80, 0.18, 0.14),
    Color::srgb(0.16, 0.36, 0.78),
    Color::srgb(0.14, 0.56, 0.28),
    Color::srgb(0.52, 0.24, 0.64),
];

pub fn plugin(app: &mut App) {
    app.add_message::<ThrowRequest>()
        .init_resource::<StartNotice>()
        .add_systems(OnEnter(Screen::Setup), spawn_setup.run_if(chosen))
        .add_systems(
            Update,
            (rebuild_setup, begin_on_enter)
                .run_if(in_state(Screen::Setup))
                .run_if(chosen),
        )
        .add_systems(OnEnter(Screen::Play), enter_play.run_if(chosen))
        .add_systems(OnEnter(Screen::Tutorial), lesson::enter.run_if(chosen))
        .add_systems(
            Update,
            (
                throw_gesture,
                cpu_throws,
                start_throw,
                play_throw,
                play_events,
                place_pieces,
                refresh_panel,
                show_result,
                quit_on_escape,
            )
                .chain()
                .run_if(in_state(Screen::Play).or_else(in_state(Screen::Tutorial)))
                .run_if(chosen)
                .run_if(resource_exists::<MawariMatch>),
        )
        .add_systems(
            Update,
            lesson::draw_step
                .run_if(in_state(Screen::Tutorial))
                .run_if(chosen)
                .run_if(resource_exists::<lesson::LessonState>),
        )
        .add_systems(OnExit(Screen::Play), leave)
        .add_systems(OnExit(Screen::Tutorial), leave)
        .add_systems(Update, handle_resume);
}

pub fn chosen(chosen: Res<ChosenGame>) -> bool {
    chosen.0 == GameId::Mawari
}

// --- the match ---------------------------------------------------------------

/// Who sits at a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    Person,
    Cpu,
}

/// One throw in the log: who threw, what came up, and what it did (the
/// square-by-square steps left out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    pub player: usize,
    pub poses: [Pose; 4],
    pub value: ThrowValue,
    pub events: Vec<Event>,
}

/// A game of まわり将棋 in progress (what 続きから restores).
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MawariMatch {
    pub race: Race,
    pub seats: Vec<Seat>,
    pub log: Vec<LogEntry>,
    /// The seed source of the next throw.
    pub rng: u64,
    /// 早投げ: the throw is simulated but not shown.
    pub quick: bool,
    /// The setup it came from (for もう一度).
    pub preset: Option<String>,
}

pub const SAVE_KEY: &str = "save.mawari";

impl MawariMatch {
    pub fn new(
        seats: Vec<Seat>,
        rules: MawariRules,
        quick: bool,
        preset: Option<String>,
        seed: u64,
    ) -> Result<Self, String> {
        let race = Race::new(seats.len(), rules).map_err(|e| e.0)?;
        Ok(MawariMatch {
            race,
            seats,
            log: Vec::new(),
            rng: seed,
            quick,
            preset,
        })
    }

    /// The seed of the next throw (and the source moves on).
    pub fn next_seed(&mut self) -> u64 {
        let mut r = SplitMix64(self.rng);
        let s = r.next_u64();
        self.rng = r.0;
        s
    }

    pub fn person_to_throw(&self) -> bool {
        self.race
            .thrower()
            .is_some_and(|p| self.seats.get(p) == Some(&Seat::Person))
    }

    /// A player's name: あなた when one person plays, else numbered.
    pub fn name(&self, player: usize, lang: Lang) -> String {
        let people = self.seats.iter().filter(|s| **s == Seat::Person).count();
        let colour = [
            ("赤", "Red"),
            ("青", "Blue"),
            ("緑", "Green"),
            ("紫", "Purple"),
        ][player.min(3)];
        match self.seats.get(player) {
            Some(Seat::Person) if people == 1 => lang.pick("あなた", "You").to_string(),
            Some(Seat::Cpu) => format!("CPU({})", lang.pick(colour.0, colour.1)),
            _ => format!(
                "{}{}",
                lang.pick("プレイヤー", "Player "),
                lang.pick(colour.0, colour.1)
            ),
        }
    }

    /// Plays a throw: the race moves on and the log grows. Returns the
    /// events for the animation.
    pub fn play(&mut self, throw: &Throw) -> Vec<Event> {
        let Some(player) = self.race.thrower() else {
            return Vec::new();
        };
        let events = self.race.apply(throw.value);
        self.log.push(LogEntry {
            player,
            poses: throw.poses,
            value: throw.value,
            events: events
                .iter()
                .filter(|e| !matches!(e, Event::Step { .. }))
                .copied()
                .collect(),
        });
        events
    }
}

/// A throw asked for: by the person's drag, the 投げる button, or a test.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct ThrowRequest(pub Toss);

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
        t: f32,
    },
    /// The koma lie still, their values written beside them.
    Reading {
        throw: Throw,
        events: Vec<Event>,
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
}

/// The one kind of koma dice there is (made once: its inertia is
/// integrated when it is built).
#[derive(Resource, Clone, Debug)]
pub struct Dice(pub KomaDice);

// --- setup -------------------------------------------------------------------

/// The setup screen's choices.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct MawariDraft {
    pub seats: Vec<Seat>,
    /// `None`: 自分で決める.
    pub preset: Option<String>,
    pub rules: MawariRules,
    pub quick: bool,
}

impl Default for MawariDraft {
    fn default() -> Self {
        MawariDraft {
            seats: vec![Seat::Person, Seat::Cpu, Seat::Cpu, Seat::Cpu],
            preset: Some("all".into()),
            rules: MawariRules::ALL,
            quick: false,
        }
    }
}

#[derive(Component)]
struct SetupRoot;

/// The setup screen's start button (tests click it).
#[derive(Component)]
pub struct MawariBegin;

fn option(
    parent: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    caption: &str,
    selected: bool,
    edit: impl Fn(&mut MawariDraft) + Send + Sync + 'static,
) {
    parent
        .spawn(widgets::button(fonts, caption, selected))
        .observe(
            move |_: On<Pointer<Click>>,
                  mut draft: ResMut<MawariDraft>,
                  mut sfx: MessageWriter<Sfx>| {
                sfx.write(Sfx::Button);
                edit(&mut draft);
            },
        );
}

fn heading(parent: &mut ChildSpawnerCommands, fonts: &Fonts, text: &str) {
    parent.spawn(widgets::text(fonts, text, 18.0, palette::INK));
}

/// Each special rule's setting: its name and how it is read and set.
type RuleFlag = (
    &'static str,
    &'static str,
    fn(&MawariRules) -> bool,
    fn(&mut MawariRules, bool),
);
const RULE_FLAGS: [RuleFlag; 11] = [
    (
        "殺し・復活",
        "Kill & revive",
        |r| r.korosu,
        |r, v| r.korosu = v,
    ),
    (
        "桂馬の倍飛び",
        "Knight doubles",
        |r| r.keima_double,
        |r, v| r.keima_double = v,
    ),
    ("やいと", "Yaito", |r| r.yaito, |r, v| r.yaito = v),
    ("死神", "Shinigami", |r| r.shinigami, |r, v| r.shinigami = v),
    (
        "なかよしこよし",
        "Nakayoshi",
        |r| r.nakayoshi,
        |r, v| r.nakayoshi = v,
    ),
    ("戦争", "War", |r| r.senso, |r, v| r.senso = v),
    (
        "ぷっすんきゅう",
        "Pussunkyu",
        |r| r.pussun,
        |r, v| r.pussun = v,
    ),
    ("おんぶ", "Onbu", |r| r.onbu, |r, v| r.onbu = v),
    (
        "歩の降格",
        "Pawn demotion",
        |r| r.fu_demotion,
        |r, v| r.fu_demotion = v,
    ),
    // The local rules.
    (
        "ぷっすんきゅうで桂馬は2つ",
        "Knight pushes two",
        |r| r.keima_push == KeimaPush::Two,
        |r, v| r.keima_push = if v { KeimaPush::Two } else { KeimaPush::One },
    ),
    (
        "ばばで戻る",
        "Baba goes back",
        |r| r.baba == BabaRule::Back,
        |r, v| r.baba = if v { BabaRule::Back } else { BabaRule::Zero },
    ),
];

fn spawn_setup(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    draft: Option<Res<MawariDraft>>,
) {
    let draft = match draft {
        Some(d) => d.clone(),
        None => {
            commands.insert_resource(MawariDraft::default());
            MawariDraft::default()
        }
    };
    spawn_setup_ui(&mut commands, &fonts, settings.lang, &draft);
}

fn spawn_setup_ui(commands: &mut Commands, fonts: &Fonts, lang: Lang, d: &MawariDraft) {
    commands
        .spawn((
            DespawnOnExit(Screen::Setup),
            SetupRoot,
            widgets::screen_root(),
        ))
        .with_children(|root| {
            root.spawn(widgets::text(
                fonts,
                lang.pick("まわり将棋", "Mawari Shogi"),
                34.0,
                palette::INK,
            ));
            heading(root, fonts, lang.pick("人数", "Players"));
            root.spawn(widgets::row()).with_children(|r| {
                for n in 2..=4usize {
                    option(
                        r,
                        fonts,
                        &format!("{n}{}", lang.pick("人", "")),
                        d.seats.len() == n,
                        move |d| {
                            d.seats.resize(n, Seat::Cpu);
                        },
                    );
                }
            });
            heading(root, fonts, lang.pick("だれが投げる?", "Who throws?"));
            root.spawn(widgets::row()).with_children(|r| {
                for (i, seat) in d.seats.iter().enumerate() {
                    let caption = format!(
                        "{}: {}",
                        [
                            lang.pick("赤", "Red"),
                            lang.pick("青", "Blue"),
                            lang.pick("緑", "Green"),
                            lang.pick("紫", "Purple")
                        ][i],
                        match seat {
                            Seat::Person => lang.pick("人", "Person"),
                            Seat::Cpu => "CPU",
                        }
                    );
                    option(r, fonts, &caption, *seat == Seat::Person, move |d| {
                        if let Some(s) = d.seats.get_mut(i) {
                            *s = if *s == Seat::Person {
                                Seat::Cpu
                            } else {
                                Seat::Person
                            };
                        }
                    });
                }
            });
            heading(root, fonts, lang.pick("ルール", "Rules"));
            root.spawn(widgets::row()).with_children(|r| {
                match crate::rules::mawari::levels::presets() {
                    Ok(presets) => {
                        for p in presets.presets {
                            let rules = p.rules;
                            let id = p.id.clone();
                            option(
                                r,
                                fonts,
                                lang.text(&p.name),
                                d.preset.as_deref() == Some(&p.id),
                                move |d| {
                                    d.preset = Some(id.clone());
                                    d.rules = rules;
                                },
                            );
                        }
                    }
                    Err(e) => error!("{e}"),
                }
                option(
                    r,
                    fonts,
                    lang.pick("自分で決める", "Custom"),
                    d.preset.is_none(),
                    |d| {
                        d.preset = None;
                    },
                );
            });
            if d.preset.is_none() {
                root.spawn(widgets::row()).with_children(|r| {
                    for (ja, en, get, set) in RULE_FLAGS {
                        let on = get(&d.rules);
                        option(r, fonts, lang.pick(ja, en), on, move |d| {
                            set(&mut d.rules, !on)
                        });
                    }
                });
            }
            root.spawn(widgets::row()).with_children(|r| {
                let quick = d.quick;
                option(
                    r,
                    fonts,
                    lang.pick(
                        "早投げ(投げる様子を省く)",
                        "Quick throw (skip the animation)",
                    ),
                    quick,
                    move |d| d.quick = !quick,
                );
            });
            root.spawn(widgets::row()).with_children(|r| {
                r.spawn((
                    widgets::key_button(fonts, lang, T::Start, true),
                    MawariBegin,
                ))
                .observe(begin);
                r.spawn(widgets::key_button(fonts, lang, T::Back, false))
                    .observe(go_to(Screen::GameList));
            });
        });
}

fn rebuild_setup(
    mut commands: Commands,
    draft: Option<Res<MawariDraft>>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    roots: Query<Entity, With<SetupRoot>>,
) {
    let Some(draft) = draft else { return };
    if !draft.is_changed() && !settings.is_changed() {
        return;
    }
    if draft.is_added() {
        return;
    }
    for e in &roots {
        commands.entity(e).despawn();
    }
    spawn_setup_ui(&mut commands, &fonts, settings.lang, &draft);
}

fn begin(
    _: On<Pointer<Click>>,
    mut commands: Commands,
    draft: Res<MawariDraft>,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
    mut store: ResMut<Store>,
    mut pending: ResMut<PendingPosition>,
    mut notice: ResMut<StartNotice>,
) {
    sfx.write(Sfx::Button);
    start_match(
        &mut commands,
        &draft,
        &mut next,
        &mut store,
        &mut pending,
        &mut notice,
    );
}

fn begin_on_enter(
    keys: Res<ButtonInput<KeyCode>>,
    mut commands: Commands,
    draft: Option<Res<MawariDraft>>,
    mut next: ResMut<NextState<Screen>>,
    mut store: ResMut<Store>,
    mut pending: ResMut<PendingPosition>,
    mut notice: ResMut<StartNotice>,
) {
    if let Some(draft) = draft
        && keys.just_pressed(KeyCode::Enter)
    {
        start_match(
            &mut commands,
            &draft,
            &mut next,
            &mut store,
            &mut pending,
            &mut notice,
        );
    }
}

/// A message for the play screen about how the game started (a position
/// from the command line or the page, or why it could not be used).
#[derive(Resource, Clone, Debug, Default)]
pub struct StartNotice(pub Option<String>);

/// The match a draft starts: from the start, or from a pending position
/// (the seats follow its number of pieces: the draft's first, then CPUs).
pub fn new_match(
    draft: &MawariDraft,
    position: Option<&str>,
    seed: u64,
) -> Result<MawariMatch, String> {
    let mut m = MawariMatch::new(
        draft.seats.clone(),
        draft.rules,
        draft.quick,
        draft.preset.clone(),
        seed,
    )?;
    if let Some(text) = position {
        let (rules, start) = crate::rules::mawari::levels::start_text(text)?;
        let mut seats = draft.seats.clone();
        seats.resize(start.pieces.len(), Seat::Cpu);
        m.race = start.race(rules.unwrap_or(draft.rules));
        m.seats = seats;
    }
    Ok(m)
}

fn start_match(
    commands: &mut Commands,
    draft: &MawariDraft,
    next: &mut NextState<Screen>,
    store: &mut Store,
    pending: &mut PendingPosition,
    notice: &mut StartNotice,
) {
    let seed = rand::random::<u64>();
    let position = pending.0.take();
    let made = match new_match(draft, position.as_deref(), seed) {
        Ok(m) => {
            notice.0 = position.map(|_| "position".into());
            Ok(m)
        }
        Err(e) => {
            // A bad position is explained; the game starts as usual.
            notice.0 = Some(e);
            new_match(draft, None, seed)
        }
    };
    match made {
        Ok(m) => {
            store.put(SAVE_KEY, &m);
            commands.insert_resource(m);
            next.set(Screen::Play);
        }
        Err(e) => error!("{e}"),
    }
}

fn handle_resume(
    mut requests: MessageReader<ResumeRequest>,
    mut store: ResMut<Store>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut notice: ResMut<Notice>,
) {
    for r in requests.read() {
        if r.0 != GameId::Mawari {
            continue;
        }
        match store.get::<MawariMatch>(SAVE_KEY) {
            Ok(m) if m.race.pieces.len() == m.seats.len() && (2..=4).contains(&m.seats.len()) => {
                commands.insert_resource(m);
                next.set(Screen::Play);
            }
            Err(LoadError::Missing) => next.set(Screen::Setup),
            Ok(_) | Err(LoadError::Corrupt(_)) => {
                store.remove(SAVE_KEY);
                notice.0 = Some(T::SaveDiscarded);
                next.set(Screen::GameList);
            }
        }
    }
}

// --- the play screen -----------------------------------------------------------

/// A piece on the track.
#[derive(Component, Clone, Copy, Debug)]
pub struct RacePiece(pub usize);

/// What a piece's koma shows, to redraw it only when it changes.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct PieceLook {
    rank: Rank,
    onbu: bool,
}

#[derive(Component)]
struct PanelRoot;

#[derive(Component)]
struct BannerText;

/// The 投げる button (tests click it).
#[derive(Component)]
pub struct ThrowButton;

/// The screen's board: where it is, the scope of its entities, and where
/// each track square lies on it (from the shogi board's graph, walked round
/// its edge by [`Track`]).
#[derive(Resource, Clone, Debug)]
pub struct BoardPlace {
    pub centre: Vec2,
    pub screen: Screen,
    /// Where the panel starts in a portrait window (a share of its
    /// height, the board above it); `None`: beside the board.
    pub panel_top: Option<f32>,
    /// Each track square's cell, counted from the board's bottom-left.
    pub cells: Vec<(i32, i32)>,
}

impl BoardPlace {
    /// The board of `screen` at `centre`, from `levels/boards/shogi9.ron`.
    pub fn new(layout: Layout, screen: Screen) -> Result<BoardPlace, String> {
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
            centre: if layout.panel_top.is_some() {
                layout.board_center
            } else {
                BOARD_CENTRE
            },
            screen,
            panel_top: layout.panel_top,
            cells,
        })
    }

    /// Where track square `sq` is, in cells from the board's bottom-left.
    pub fn cell(&self, sq: u8) -> (i32, i32) {
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
pub fn piece_position(place: &BoardPlace, pieces: &[Piece], i: usize) -> Vec2 {
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

pub fn spawn_board(
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
        Sprite::from_color(palette::BOARD, Vec2::splat(size)),
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

fn spawn_piece_koma(
    parent: &mut ChildSpawnerCommands,
    art: &Art,
    fonts: &Fonts,
    player: usize,
    look: PieceLook,
) {
    parent.spawn((
        Sprite::from_color(COLOURS[player.min(3)], Vec2::new(CELL * 0.82, CELL * 0.2)),
        Transform::from_xyz(0.0, -CELL * 0.40, -0.1),
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
fn piece_rotation(p: &Piece) -> Quat {
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

pub fn spawn_pieces(
    commands: &mut Commands,
    art: &Art,
    fonts: &Fonts,
    place: &BoardPlace,
    pieces: &[Piece],
    scope: impl Bundle + Clone,
) {
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
            .with_children(|c| spawn_piece_koma(c, art, fonts, i, look));
    }
}

fn enter_play(
    mut scene: SceneMaker,
    m: Res<MawariMatch>,
    mut progress: ResMut<GameProgress>,
    mut start_notice: ResMut<StartNotice>,
    settings: Res<Settings>,
    mut bug: ResMut<crate::shell::BugContext>,
) {
    let text = RaceText::of(&m.race).write();
    progress.ply = m.log.len();
    progress.position = Some(text.clone());
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
            pieces: m.race.pieces.clone(),
            banner: Some((text, 4.0)),
            waited: 0.0,
        });
    }
}

/// What building the board's scene needs (the play screen and the
/// tutorial both build it).
#[derive(SystemParam)]
pub struct SceneMaker<'w, 's> {
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
    pub fn open(&mut self, m: &MawariMatch, screen: Screen) -> bool {
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
    pub fn back_to_list(&mut self, why: impl std::fmt::Display) {
        error!("{why}");
        self.next.set(Screen::GameList);
    }
}

/// The board, the pieces, the dice and the panel for `screen`.
pub fn setup_scene(
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
    let layout = Layout::for_window(window, Vec2::splat(CELL * 4.5 + 14.0));
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
    spawn_pieces(commands, art, fonts, &place, &m.race.pieces, scope.clone());
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
    commands.insert_resource(Shown {
        pieces: m.race.pieces.clone(),
        banner: None,
        waited: 0.0,
    });
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

fn leave(mut commands: Commands) {
    commands.remove_resource::<Phase>();
    commands.remove_resource::<Shown>();
    commands.remove_resource::<lesson::LessonState>();
    commands.remove_resource::<MawariMatch>();
}

/// The person's throw: a drag across the board sets the toss's direction
/// and speed (a tap throws gently straight ahead).
fn throw_gesture(
    buttons: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    time: Res<Time<Real>>,
    place: Option<Res<BoardPlace>>,
    mut m: ResMut<MawariMatch>,
    phase: Res<Phase>,
    mut start: Local<Option<(Vec2, f64)>>,
    mut requests: MessageWriter<ThrowRequest>,
) {
    let Some(place) = place else { return };
    let Ok(window) = windows.single() else { return };
    let Ok((camera, cam_t)) = cameras.single() else {
        return;
    };
    let world = |s: Vec2| camera.viewport_to_world_2d(cam_t, s).ok();
    let pressed = buttons
        .just_pressed(MouseButton::Left)
        .then(|| window.cursor_position())
        .flatten()
        .or_else(|| touches.iter_just_pressed().next().map(|t| t.position()));
    let released = buttons
        .just_released(MouseButton::Left)
        .then(|| window.cursor_position())
        .flatten()
        .or_else(|| touches.iter_just_released().next().map(|t| t.position()));
    let on_board = |w: Vec2| (w - place.centre).abs().max_element() < CELL * 4.5;
    if let Some(w) = pressed.and_then(world) {
        *start = on_board(w).then_some((w, time.elapsed_secs_f64()));
    }
    if let Some(w) = released.and_then(world)
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

fn cpu_throws(
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
    if m.person_to_throw() {
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
/// the animation only shows what has happened).
fn start_throw(
    mut requests: MessageReader<ThrowRequest>,
    mut m: ResMut<MawariMatch>,
    mut phase: ResMut<Phase>,
    dice: Res<Dice>,
    place: Res<BoardPlace>,
    mut store: ResMut<Store>,
    mut progress: ResMut<GameProgress>,
    mut sfx: MessageWriter<Sfx>,
) {
    for ThrowRequest(toss) in requests.read() {
        if !phase.is_waiting() || m.race.is_over() || place.screen != Screen::Play {
            continue;
        }
        let throw = dice.0.throw(*toss, !m.quick);
        let events = m.play(&throw);
        progress.ply = m.log.len();
        progress.position = Some(RaceText::of(&m.race).write());
        if m.race.is_over() {
            store.remove(SAVE_KEY);
        } else {
            store.put(SAVE_KEY, &*m);
        }
        sfx.write(if m.quick { Sfx::Place } else { Sfx::Throw });
        *phase = if m.quick {
            Phase::Reading {
                throw,
                events,
                t: 0.0,
            }
        } else {
            Phase::Throwing {
                throw,
                events,
                t: 0.0,
            }
        };
    }
}

fn pose_label(p: Pose, lang: Lang) -> &'static str {
    match p {
        Pose::FaceUp => "1",
        Pose::FaceDown => "0",
        Pose::Side => lang.pick("横 5", "side 5"),
        Pose::Upright => lang.pick("縦 10", "up 10"),
        Pose::Leaning => lang.pick("斜め!", "leaning!"),
        Pose::Stacked => lang.pick("重なり", "stacked"),
    }
}

pub fn value_text(v: ThrowValue, lang: Lang) -> String {
    match v {
        ThrowValue::Move(n) => format!("{n}{}", lang.pick("マス", " squares")),
        ThrowValue::Senko => lang.pick("せんこ立ち!", "Senko-dachi!").into(),
        ThrowValue::Baba { .. } => lang.pick("ばば!", "Baba!").into(),
    }
}

fn play_throw(
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
    let next = match &mut *phase {
        Phase::Throwing { throw, events, t } => {
            *t += dt;
            let frame = ((*t * 60.0) as usize).min(throw.frames.len().saturating_sub(1));
            if let Some(f) = throw.frames.get(frame) {
                dice.show(f, place.centre);
            }
            (frame + 1 >= throw.frames.len()).then(|| Phase::Reading {
                throw: throw.clone(),
                events: std::mem::take(events),
                t: 0.0,
            })
        }
        Phase::Reading { throw, events, t } => {
            if *t == 0.0 {
                // The koma at rest (also after a quick throw), each labelled.
                if let Some(f) = throw.frames.last() {
                    dice.show(f, place.centre);
                    for (i, pose) in throw.poses.iter().enumerate() {
                        dice.label(i, pose_label(*pose, lang), f[i].0, place.centre);
                    }
                }
                let thrower = m.log.last().map(|e| e.player).unwrap_or(0);
                shown.banner = Some((
                    format!(
                        "{} {}",
                        m.name(thrower, lang),
                        value_text(throw.value, lang)
                    ),
                    1.2,
                ));
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
        if matches!(n, Phase::Moving { .. }) {
            dice.hide_labels();
        }
        *phase = n;
    }
}

/// The banner for a named event.
pub fn event_banner(e: &Event, m: &MawariMatch, lang: Lang) -> Option<String> {
    let name = |p: usize| m.name(p, lang);
    let rank = |r: Rank| lang.pick(r.name_ja(), r.name_en()).to_string();
    Some(match *e {
        Event::Step { .. } => return None,
        Event::Promote { piece, to } => format!(
            "{} {} {}",
            name(piece),
            lang.pick("出世!", "up to"),
            rank(to)
        ),
        Event::Demote { piece, to } => format!(
            "{} {} {}",
            name(piece),
            lang.pick("降格", "down to"),
            rank(to)
        ),
        Event::Kill { victim, .. } => format!("{} {}", lang.pick("殺し!", "Killed!"), name(victim)),
        Event::Revive {
            piece, depth: 0, ..
        } => format!("{} {}", lang.pick("復活!", "Revived!"), name(piece)),
        Event::Revive { piece, .. } => {
            format!("{} {}", name(piece), lang.pick("1つ外へ", "one step out"))
        }
        Event::Yaito { victim, .. } => {
            format!("{} {}", lang.pick("やいと!", "Yaito!"), name(victim))
        }
        Event::Shinigami { stopper, .. } => {
            format!("{} {}", lang.pick("死神!", "Shinigami!"), name(stopper))
        }
        Event::Nakayoshi { .. } => lang.pick("なかよしこよし!", "Nakayoshi-koyoshi!").into(),
        Event::WarStart { .. } => lang.pick("戦争!", "War!").into(),
        Event::WarThrow { piece, made } => {
            format!(
                "{} {} {made}/{TRACK}",
                name(piece),
                lang.pick("戦争", "war")
            )
        }
        Event::WarEnd { winner, .. } => format!(
            "{} {}",
            name(winner),
            lang.pick("戦争に勝った!", "wins the war!")
        ),
        Event::Pussun { .. } => lang.pick("ぷっすんきゅう!", "Pussunkyu!").into(),
        Event::Senko { .. } => lang
            .pick("せんこ立ち! いきなり王将", "Senko-dachi! Straight to king")
            .into(),
        Event::Baba { .. } => lang.pick("ばば! 0マス", "Baba! No move").into(),
        Event::Onbu { piece } => format!(
            "{} {}",
            name(piece),
            lang.pick(
                "おんぶ! 歩を背負ってもう一周",
                "carries a pawn one more lap"
            )
        ),
        Event::Out { piece } => format!("{} {}", name(piece), lang.pick("脱落", "is out")),
        Event::Skip { piece } => format!("{} {}", name(piece), lang.pick("は休み", "sits out")),
        Event::Win { piece } => format!("{} {}", name(piece), lang.pick("の勝ち!", "wins!")),
    })
}

fn apply_shown(shown: &mut Shown, e: &Event) {
    let p = &mut shown.pieces;
    match *e {
        Event::Step { piece, to } => p[piece].square = to,
        Event::Promote { piece, to } | Event::Demote { piece, to } => {
            p[piece].rank = to;
            if to != Rank::Osho {
                p[piece].onbu_left = None;
            }
        }
        Event::Kill { victim, .. } => p[victim].depth = 1,
        Event::Revive { piece, depth, .. } => p[piece].depth = depth,
        Event::Yaito { victim, .. } => p[victim].depth = (p[victim].depth + 1).min(2),
        Event::Shinigami { stopper, freed } => {
            p[stopper].depth = 1;
            p[freed].depth = p[freed].depth.saturating_sub(1);
        }
        Event::Onbu { piece } => p[piece].onbu_left = Some(TRACK),
        Event::Out { piece } => p[piece].out = true,
        _ => {}
    }
}

fn play_events(
    mut commands: Commands,
    time: Res<Time>,
    mut phase: ResMut<Phase>,
    m: Res<MawariMatch>,
    settings: Res<Settings>,
    mut shown: ResMut<Shown>,
    mut sfx: MessageWriter<Sfx>,
    mut banners: Query<&mut Text2d, With<BannerText>>,
    place: Res<BoardPlace>,
    art: Res<Art>,
) {
    let dt = time.delta_secs();
    if let Some((_, left)) = &mut shown.banner {
        *left -= dt;
        if *left <= 0.0 {
            shown.banner = None;
        }
    }
    if let Phase::Moving { events, t } = &mut *phase {
        *t -= dt;
        while *t <= 0.0 {
            let Some(e) = events.pop_front() else { break };
            apply_shown(&mut shown, &e);
            let step = if settings.reduced_motion { 0.04 } else { 0.13 };
            match e {
                Event::Step { .. } => {
                    *t += step;
                    sfx.write(Sfx::Place);
                }
                Event::WarThrow { .. } => {
                    *t += 0.6;
                }
                _ => {
                    if let Some(text) = event_banner(&e, &m, settings.lang) {
                        shown.banner = Some((text, 1.1));
                    }
                    mark_event(&mut commands, &art, &place, &shown, &e);
                    sfx.write(match e {
                        Event::Win { .. } => Sfx::Win,
                        Event::Kill { .. }
                        | Event::Shinigami { .. }
                        | Event::WarStart { .. }
                        | Event::Yaito { .. } => Sfx::Capture,
                        _ => Sfx::Button,
                    });
                    *t += 1.0;
                }
            }
        }
        if events.is_empty() && *t <= 0.0 {
            // The screen now shows exactly the rules' state.
            shown.pieces = m.race.pieces.clone();
            *phase = if m.race.is_over() {
                Phase::Over
            } else {
                Phase::Waiting
            };
        }
    }
    let text = shown
        .banner
        .as_ref()
        .map(|b| b.0.clone())
        .unwrap_or_default();
    for mut b in &mut banners {
        if b.0 != text {
            b.0 = text.clone();
        }
    }
}

/// The shared capture marks for the rules that strike a piece: a gold
/// frame round the piece that does it, a red ring on the one struck.
fn mark_event(commands: &mut Commands, art: &Art, place: &BoardPlace, shown: &Shown, e: &Event) {
    let (by, struck) = match *e {
        Event::Kill { victim, by } | Event::Yaito { victim, by } => (Some(by), victim),
        Event::Shinigami { stopper, .. } => (None, stopper),
        Event::WarEnd { winner, loser } => (Some(winner), loser),
        Event::Pussun { front, back } => (Some(front), back),
        _ => return,
    };
    let at = |i: usize| piece_position(place, &shown.pieces, i);
    if let Some(by) = by {
        art::spawn_gold_frame(commands, DespawnOnExit(place.screen), at(by), 0.9);
    }
    commands.spawn((
        DespawnOnExit(place.screen),
        Mesh2d(art.red_ring.clone()),
        MeshMaterial2d(art.red.clone()),
        Transform::from_translation(at(struck).extend(12.0)),
        Lifetime(0.9),
    ));
}

fn place_pieces(
    mut commands: Commands,
    shown: Res<Shown>,
    place: Res<BoardPlace>,
    art: Res<Art>,
    fonts: Res<Fonts>,
    mut pieces: Query<(
        Entity,
        &RacePiece,
        &mut PieceLook,
        &mut Transform,
        &mut Visibility,
        Has<Tween>,
    )>,
) {
    for (entity, piece, mut look, mut t, mut vis, moving) in &mut pieces {
        let Some(p) = shown.pieces.get(piece.0) else {
            continue;
        };
        let want = PieceLook {
            rank: p.rank,
            onbu: p.onbu_left.is_some(),
        };
        if *look != want {
            *look = want;
            commands.entity(entity).despawn_children();
            commands
                .entity(entity)
                .with_children(|c| spawn_piece_koma(c, &art, &fonts, piece.0, want));
        }
        // A hop to the square the piece has reached (one square a beat
        // while a throw plays out; the shared tween, so reduced motion
        // puts it there at once).
        let z = 5.0 + piece.0 as f32;
        let target = piece_position(&place, &shown.pieces, piece.0).extend(z);
        if !moving && t.translation.truncate().distance(target.truncate()) > 0.5 {
            commands.entity(entity).insert(Tween::hops(
                &[t.translation.with_z(z), target],
                0.11,
                10.0,
            ));
        }
        t.rotation = piece_rotation(p);
        let faded = if p.out {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        if *vis != faded {
            *vis = faded;
        }
    }
}

/// The panel: each player's name, colour and ladder, the throw log, and
/// the buttons; rebuilt when the match or the phase changes.
fn refresh_panel(
    mut commands: Commands,
    m: Res<MawariMatch>,
    phase: Res<Phase>,
    shown: Res<Shown>,
    settings: Res<Settings>,
    fonts: Res<Fonts>,
    place: Res<BoardPlace>,
    roots: Query<Entity, With<PanelRoot>>,
    lesson_state: Option<Res<lesson::LessonState>>,
) {
    let fresh = roots.is_empty();
    // Not on `Shown`: its banner counts down every frame. The pieces it
    // shows change while a throw plays out, whose end changes the phase.
    let changed = m.is_changed() || phase.is_changed() || settings.is_changed();
    if !fresh && !changed && !lesson_state.as_ref().is_some_and(|l| l.is_changed()) {
        return;
    }
    if matches!(*phase, Phase::Moving { .. } | Phase::Throwing { .. }) && !fresh && !m.is_changed()
    {
        return;
    }
    for e in &roots {
        commands.entity(e).despawn();
    }
    let lang = settings.lang;
    commands
        .spawn((
            DespawnOnExit(place.screen),
            PanelRoot,
            Node {
                align_items: AlignItems::Stretch,
                row_gap: px(6),
                ..panel_node(
                    Layout {
                        board_center: place.centre,
                        panel_top: place.panel_top,
                    },
                    400.0,
                )
            },
        ))
        .with_children(|panel| {
            if let Some(l) = &lesson_state {
                lesson::panel(panel, &fonts, lang, l);
                return;
            }
            panel.spawn(widgets::text(
                &fonts,
                lang.pick("まわり将棋", "Mawari Shogi"),
                26.0,
                palette::INK,
            ));
            for (i, p) in shown.pieces.iter().enumerate() {
                let to_throw = m.race.thrower() == Some(i) && phase.is_waiting();
                player_row(panel, &fonts, lang, &m, i, p, to_throw);
            }
            let status = match (&*phase, m.race.winner) {
                (_, Some(w)) => format!("{} {}", m.name(w, lang), lang.pick("の勝ち!", "wins!")),
                (Phase::Waiting, _) => match m.race.thrower() {
                    Some(p) if m.person_to_throw() => format!(
                        "{}{}",
                        m.name(p, lang),
                        lang.pick(
                            ": 盤の上でドラッグして金将を投げてください",
                            ": drag across the board to throw the golds"
                        )
                    ),
                    Some(p) => format!(
                        "{}{}",
                        m.name(p, lang),
                        lang.pick(" が投げます…", " is throwing…")
                    ),
                    None => String::new(),
                },
                _ => String::new(),
            };
            if let Some(w) = m.race.war {
                panel.spawn(widgets::text(
                    &fonts,
                    format!(
                        "{} {} {}/{TRACK} · {} {}/{TRACK}",
                        lang.pick("戦争中:", "War:"),
                        m.name(w.first, lang),
                        w.made[0],
                        m.name(w.second, lang),
                        w.made[1]
                    ),
                    15.0,
                    palette::VERMILION,
                ));
            }
            panel.spawn(widgets::text(&fonts, status, 16.0, palette::INK_SOFT));
            panel.spawn(widgets::row()).with_children(|row| {
                row.spawn((
                    widgets::button(
                        &fonts,
                        lang.pick("投げる", "Throw"),
                        m.person_to_throw() && phase.is_waiting(),
                    ),
                    ThrowButton,
                ))
                .observe(
                    |_: On<Pointer<Click>>,
                     mut m: ResMut<MawariMatch>,
                     phase: Res<Phase>,
                     mut w: MessageWriter<ThrowRequest>| {
                        if phase.is_waiting() && m.person_to_throw() {
                            let seed = m.next_seed();
                            w.write(ThrowRequest(Toss::natural(seed)));
                        }
                    },
                );
                row.spawn(widgets::button(
                    &fonts,
                    lang.pick("早投げ", "Quick throw"),
                    m.quick,
                ))
                .observe(
                    |_: On<Pointer<Click>>,
                     mut m: ResMut<MawariMatch>,
                     mut store: ResMut<Store>| {
                        m.quick = !m.quick;
                        if !m.race.is_over() {
                            store.put(SAVE_KEY, &*m);
                        }
                    },
                );
                let sound = if settings.sound {
                    T::SoundOn
                } else {
                    T::SoundOff
                };
                row.spawn(widgets::key_button(&fonts, lang, sound, settings.sound))
                    .observe(|_: On<Pointer<Click>>, mut s: ResMut<Settings>| s.sound = !s.sound);
                row.spawn(widgets::key_button(&fonts, lang, T::Quit, false))
                    .observe(go_to(Screen::GameList));
            });
            panel.spawn(widgets::text(
                &fonts,
                lang.pick("投げた記録", "Throws"),
                16.0,
                palette::INK,
            ));
            // The throw under way is logged once it has played out.
            let playing = matches!(
                *phase,
                Phase::Throwing { .. } | Phase::Reading { .. } | Phase::Moving { .. }
            );
            for entry in m.log.iter().rev().skip(usize::from(playing)).take(6) {
                let named: Vec<String> = entry
                    .events
                    .iter()
                    .filter_map(|e| event_banner(e, &m, lang))
                    .collect();
                panel.spawn(widgets::text(
                    &fonts,
                    format!(
                        "{}: {} {}",
                        m.name(entry.player, lang),
                        value_text(entry.value, lang),
                        named.join(" · ")
                    ),
                    13.0,
                    palette::INK_SOFT,
                ));
            }
        });
}

fn player_row(
    panel: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    m: &MawariMatch,
    i: usize,
    p: &Piece,
    to_throw: bool,
) {
    panel
        .spawn((
            Node {
                flex_direction: FlexDirection::Row,
                align_items: AlignItems::Center,
                column_gap: px(4),
                padding: UiRect::all(px(3)),
                border: UiRect::all(px(2)),
                border_radius: BorderRadius::all(px(6)),
                ..default()
            },
            BackgroundColor(if to_throw {
                Color::srgba(1.0, 0.9, 0.6, 0.8)
            } else {
                palette::CARD
            }),
            BorderColor::all(COLOURS[i.min(3)]),
        ))
        .with_children(|row| {
            row.spawn((
                Node {
                    width: px(12),
                    height: px(30),
                    ..default()
                },
                BackgroundColor(COLOURS[i.min(3)]),
            ));
            row.spawn((
                Node {
                    width: px(112),
                    ..default()
                },
                children![widgets::text(fonts, m.name(i, lang), 15.0, palette::INK)],
            ));
            // The ladder: the rank reached in vermilion.
            for r in Rank::LADDER.iter().filter(|r| **r >= Rank::Fu) {
                let reached = *r == p.rank;
                row.spawn(widgets::text(
                    fonts,
                    r.kanji(),
                    if reached { 20.0 } else { 14.0 },
                    if reached {
                        palette::VERMILION
                    } else if *r < p.rank {
                        palette::INK
                    } else {
                        Color::srgb(0.7, 0.65, 0.58)
                    },
                ));
            }
            let state = if p.out {
                lang.pick("脱落", "out").to_string()
            } else if p.rank < Rank::Fu {
                lang.pick(p.rank.name_ja(), p.rank.name_en()).to_string()
            } else if p.depth > 0 {
                format!(
                    "{}{}",
                    lang.pick("死", "dead"),
                    if p.depth > 1 { "×2" } else { "" }
                )
            } else if let Some(left) = p.onbu_left {
                format!("{} {left}", lang.pick("おんぶ", "onbu"))
            } else {
                String::new()
            };
            row.spawn(widgets::text(fonts, state, 13.0, palette::VERMILION));
        });
}

#[derive(Component)]
struct ResultPanel;

fn show_result(
    mut commands: Commands,
    phase: Res<Phase>,
    m: Res<MawariMatch>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    place: Res<BoardPlace>,
    existing: Query<(), With<ResultPanel>>,
) {
    if !matches!(*phase, Phase::Over) || !existing.is_empty() || place.screen != Screen::Play {
        return;
    }
    let Some(w) = m.race.winner else { return };
    let lang = settings.lang;
    commands
        .spawn((
            DespawnOnExit(Screen::Play),
            ResultPanel,
            Node {
                position_type: PositionType::Absolute,
                left: if place.panel_top.is_some() {
                    percent(12)
                } else {
                    px(180)
                },
                top: if place.panel_top.is_some() {
                    percent(20)
                } else {
                    px(300)
                },
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                padding: UiRect::all(px(20)),
                row_gap: px(8),
                border: UiRect::all(px(3)),
                border_radius: BorderRadius::all(px(12)),
                ..default()
            },
            BackgroundColor(palette::CARD),
            BorderColor::all(COLOURS[w.min(3)]),
        ))
        .with_children(|p| {
            p.spawn(widgets::text(
                &fonts,
                format!("{} {}", m.name(w, lang), lang.pick("の勝ち!", "wins!")),
                34.0,
                palette::VERMILION,
            ));
            p.spawn(widgets::text(
                &fonts,
                format!("{} {}", m.log.len(), lang.pick("回投げました", "throws")),
                18.0,
                palette::INK_SOFT,
            ));
            p.spawn(widgets::row()).with_children(|r| {
                r.spawn(widgets::button(
                    &fonts,
                    lang.pick("もう一度", "Play again"),
                    true,
                ))
                .observe(go_to(Screen::Setup));
                r.spawn(widgets::key_button(&fonts, lang, T::BackToList, false))
                    .observe(go_to(Screen::GameList));
            });
        });
}

fn quit_on_escape(keys: Res<ButtonInput<KeyCode>>, mut next: ResMut<NextState<Screen>>) {
    if keys.just_pressed(KeyCode::Escape) {
        next.set(Screen::GameList);
    }
}
