//! まわり将棋's setup screen: how many play, each place's name (typed),
//! colour and thrower (a person or the CPU), the turn order (as listed, or
//! drawn by a first throw), the rules (a preset, a saved house rule, or
//! each special rule 自分で決める, which can be saved under a name),
//! 早投げ, playing on for places; and the match its はじめる starts. The
//! last setup and the house rules are kept for the next time.

use crate::shell::widgets::type_scale as ty;
use bevy::ecs::system::SystemParam;
use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;
use bevy::window::{Ime, PrimaryWindow};
use serde::{Deserialize, Serialize};

use super::look::seat_patch;
use super::room::make_room;
use super::scene::StartNotice;
use super::session::{
    COLOUR_NAMES, MAX_NAME, MawariDraft, MawariMatch, Seat, TurnOrder, seat_name,
};
use crate::games::kit::{
    SetupRoot, Typed, add_text, choice_group, clear_if_changed, heading, option, setup_screen,
    text_field, type_into,
};
use crate::games::resume;
use crate::rules::data::GameId;
use crate::rules::mawari::order::FirstThrow;
use crate::rules::mawari::race::{BabaRule, KeimaPush, MawariRules, OffBoardRule, SenkoRule};
use crate::shell::audio::Sfx;
use crate::shell::font_cover::font_covers;
use crate::shell::i18n::{Lang, T};
use crate::shell::keys::ButtonFocus;
use crate::shell::save::LoadError;
use crate::shell::save::Store;
use crate::shell::screens::go_to;
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, ButtonLook, Fonts, palette};
use crate::shell::{PendingPosition, Screen};

/// The most house rules kept (the oldest goes first).
const MAX_HOUSE_RULES: usize = 8;
/// Where the last used setup is kept.
pub const SETUP_KEY: &str = "mawari.setup";
/// Where the saved house rules are kept.
pub const HOUSE_KEY: &str = "mawari.house";

/// A set of rules saved under a name (自分で決める, kept for next time).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HouseRule {
    pub name: String,
    pub rules: MawariRules,
}

/// The saved house rules.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct HouseRules(pub Vec<HouseRule>);

/// Which text field the keyboard types into.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextFocus {
    #[default]
    None,
    /// A place's name.
    Name(usize),
    /// The name the rules are saved under.
    RuleName,
}

/// A text field of the setup screen (tests click it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupField(pub TextFocus);

/// The button that saves the rules under their name (tests click it).
#[derive(Component)]
pub struct SaveRulesButton;

/// What the setup screen has to say: a save that could not be read, the
/// rules saved.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct SetupNotes(pub Vec<String>);

/// The setup screen's start button (tests click it).
#[derive(Component)]
pub struct MawariBegin;

/// Each special rule's setting: its name and how it is read and set.
type RuleFlag = (T, fn(&MawariRules) -> bool, fn(&mut MawariRules, bool));
const RULE_FLAGS: [RuleFlag; 14] = [
    (T::MawariKorosu, |r| r.korosu, |r, v| r.korosu = v),
    (
        T::MawariKeimaDouble,
        |r| r.keima_double,
        |r, v| r.keima_double = v,
    ),
    (T::MawariYaitoRule, |r| r.yaito, |r, v| r.yaito = v),
    (
        T::MawariShinigamiRule,
        |r| r.shinigami,
        |r, v| r.shinigami = v,
    ),
    (
        T::MawariNakayoshiRule,
        |r| r.nakayoshi,
        |r, v| r.nakayoshi = v,
    ),
    (T::MawariSensoRule, |r| r.senso, |r, v| r.senso = v),
    (T::MawariPussunRule, |r| r.pussun, |r, v| r.pussun = v),
    (T::MawariOnbuRule, |r| r.onbu, |r, v| r.onbu = v),
    (
        T::MawariFuDemotion,
        |r| r.fu_demotion,
        |r, v| r.fu_demotion = v,
    ),
    // The local rules.
    (
        T::MawariKeimaPushTwo,
        |r| r.keima_push == KeimaPush::Two,
        |r, v| r.keima_push = if v { KeimaPush::Two } else { KeimaPush::One },
    ),
    (
        T::MawariBabaBack,
        |r| r.baba == BabaRule::Back,
        |r, v| r.baba = if v { BabaRule::Back } else { BabaRule::Zero },
    ),
    // How families take 金斜 (the source page: いきなり王将, both off) and a koma
    // that falls off the board (thrown again unless this is on).
    (
        T::MawariSenkoOneUp,
        |r| r.senko == SenkoRule::OneUp,
        |r, v| r.senko = if v { SenkoRule::OneUp } else { SenkoRule::Osho },
    ),
    (
        T::MawariSenkoRethrow,
        |r| r.senko == SenkoRule::Rethrow,
        |r, v| {
            r.senko = if v {
                SenkoRule::Rethrow
            } else {
                SenkoRule::Osho
            }
        },
    ),
    (
        T::MawariOffBoardZero,
        |r| r.off_board == OffBoardRule::Zero,
        |r, v| {
            r.off_board = if v {
                OffBoardRule::Zero
            } else {
                OffBoardRule::Rethrow
            }
        },
    ),
];

/// The setup screen, with the last used setup and the saved house rules
/// read back the first time (what cannot be read is set aside, said, and
/// the usual setup chosen).
pub(super) fn spawn(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    draft: Option<Res<MawariDraft>>,
    house: Option<Res<HouseRules>>,
    mut store: ResMut<Store>,
    mut notes: ResMut<SetupNotes>,
    mut focus: ResMut<TextFocus>,
) {
    let lang = settings.lang;
    *focus = TextFocus::None;
    let house = match house {
        Some(h) => h.clone(),
        None => {
            let list = match store.get::<Vec<HouseRule>>(HOUSE_KEY) {
                Ok(list) => list,
                Err(LoadError::Missing) => Vec::new(),
                Err(LoadError::Corrupt(why)) => {
                    warn!("{why}");
                    store.set_aside(HOUSE_KEY);
                    notes.0.push(T::MawariHouseUnreadable.get(lang).into());
                    Vec::new()
                }
            };
            commands.insert_resource(HouseRules(list.clone()));
            HouseRules(list)
        }
    };
    let draft = match draft {
        Some(d) => d.clone(),
        None => {
            let d = match store.get::<MawariDraft>(SETUP_KEY) {
                Ok(d) => d.sound(),
                Err(LoadError::Missing) => MawariDraft::default(),
                Err(LoadError::Corrupt(why)) => {
                    warn!("{why}");
                    store.set_aside(SETUP_KEY);
                    notes.0.push(T::MawariSetupUnreadable.get(lang).into());
                    MawariDraft::default()
                }
            };
            commands.insert_resource(d.clone());
            d
        }
    };
    spawn_setup_ui(&mut commands, &fonts, lang, &draft, &house, &notes, *focus);
}

/// The name a place goes by when none is typed (as the match names it).
fn default_name(d: &MawariDraft, i: usize, lang: Lang) -> String {
    let colour = d.colours.get(i).map_or(i, |&c| usize::from(c));
    seat_name(&d.seats, "", colour, i, lang)
}

fn spawn_setup_ui(
    commands: &mut Commands,
    fonts: &Fonts,
    lang: Lang,
    d: &MawariDraft,
    house: &HouseRules,
    notes: &SetupNotes,
    focus: TextFocus,
) {
    setup_screen(commands, fonts, lang, GameId::Mawari, |root| {
        heading(root, fonts, lang, T::MawariPlayers);
        root.spawn(widgets::row()).with_children(|r| {
            for n in 2..=4usize {
                option::<MawariDraft>(
                    r,
                    fonts,
                    &T::MawariPlayerCount.fill(lang, &[&n]),
                    ButtonLook::Choice {
                        chosen: d.seats.len() == n,
                    },
                    move |d| {
                        d.seats.resize(n, Seat::Cpu);
                    },
                );
            }
        });
        heading(root, fonts, lang, T::MawariNames);
        // One place a row, the rows lined up on the left.
        let mut places = root.spawn(Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::FlexStart,
            ..default()
        });
        for (i, seat) in d.seats.iter().enumerate() {
            places.with_children(|column| {
                column.spawn(widgets::row()).with_children(|r| {
                    let colour = d.colours.get(i).map_or(i, |&c| usize::from(c));
                    // ↑ first, so that the rows line up (a gap where there is none).
                    if i > 0 && d.order == TurnOrder::Seated {
                        option::<MawariDraft>(
                            r,
                            fonts,
                            T::MawariMoveUp.get(lang),
                            ButtonLook::Action,
                            move |d| d.swap(i, i - 1),
                        );
                    } else {
                        r.spawn(Node {
                            width: px(60),
                            ..default()
                        });
                    }

                    r.spawn(seat_patch(fonts, colour, 22.0, 34.0));
                    let name = d.names.get(i).cloned().unwrap_or_default();
                    let field = TextFocus::Name(i);
                    r.spawn((
                        text_field(
                            fonts,
                            &name,
                            &default_name(d, i, lang),
                            focus == field,
                            220.0,
                        ),
                        SetupField(field),
                    ))
                    .observe(focus_on(field));
                    option::<MawariDraft>(
                        r,
                        fonts,
                        COLOUR_NAMES[colour.min(COLOUR_NAMES.len() - 1)].get(lang),
                        ButtonLook::Action,
                        move |d| d.next_colour(i),
                    );
                    let who = match seat {
                        Seat::Person => T::MawariPerson,
                        Seat::Cpu => T::OpponentCpu,
                        Seat::Remote => T::MawariRemote,
                    };
                    option::<MawariDraft>(r, fonts, who.get(lang), ButtonLook::Action, move |d| {
                        if let Some(s) = d.seats.get_mut(i) {
                            *s = match *s {
                                Seat::Person => Seat::Cpu,
                                Seat::Cpu => Seat::Remote,
                                Seat::Remote => Seat::Person,
                            };
                        }
                    });
                });
            });
        }
        choice_group::<MawariDraft, TurnOrder>(
            root,
            fonts,
            lang,
            T::MawariOrder,
            &[
                (TurnOrder::Seated, T::MawariOrderSeated),
                (TurnOrder::Draw, T::MawariOrderDraw),
            ],
            d.order,
            |d, v| d.order = v,
        );
        heading(root, fonts, lang, T::Rules);
        root.spawn(widgets::row()).with_children(|r| {
            match crate::rules::mawari::levels::presets() {
                Ok(presets) => {
                    for p in presets.presets {
                        let rules = p.rules;
                        let id = p.id.clone();
                        option::<MawariDraft>(
                            r,
                            fonts,
                            lang.text(&p.name),
                            ButtonLook::Choice {
                                chosen: d.preset.as_deref() == Some(&p.id),
                            },
                            move |d| {
                                d.preset = Some(id.clone());
                                d.house = None;
                                d.rules = rules;
                            },
                        );
                    }
                }
                Err(e) => error!("{e}"),
            }
            for h in &house.0 {
                let (name, rules) = (h.name.clone(), h.rules);
                option::<MawariDraft>(
                    r,
                    fonts,
                    &h.name,
                    ButtonLook::Choice {
                        chosen: d.preset.is_none() && d.house.as_deref() == Some(&h.name),
                    },
                    move |d| {
                        d.preset = None;
                        d.house = Some(name.clone());
                        d.rule_name = name.clone();
                        d.rules = rules;
                    },
                );
            }
            option::<MawariDraft>(
                r,
                fonts,
                T::CustomRules.get(lang),
                ButtonLook::Choice {
                    chosen: d.preset.is_none() && d.house.is_none(),
                },
                |d| {
                    d.preset = None;
                    d.house = None;
                },
            );
        });
        if d.preset.is_none() {
            root.spawn(widgets::row()).with_children(|r| {
                for (name, get, set) in RULE_FLAGS {
                    let on = get(&d.rules);
                    option::<MawariDraft>(
                        r,
                        fonts,
                        name.get(lang),
                        ButtonLook::Toggle { on },
                        move |d| set(&mut d.rules, !on),
                    );
                }
            });
            root.spawn(widgets::row()).with_children(|r| {
                r.spawn(widgets::label(
                    fonts,
                    lang,
                    T::MawariRuleName,
                    ty::LEAD,
                    palette::INK,
                ));
                let field = TextFocus::RuleName;
                r.spawn((
                    text_field(
                        fonts,
                        &d.rule_name,
                        T::MawariDefaultRuleName.get(lang),
                        focus == field,
                        240.0,
                    ),
                    SetupField(field),
                ))
                .observe(focus_on(field));
                r.spawn((
                    widgets::key_button(fonts, lang, T::MawariSaveRules, false),
                    SaveRulesButton,
                ))
                .observe(save_rules);
            });
        }
        root.spawn(widgets::row()).with_children(|r| {
            let quick = d.quick;
            option::<MawariDraft>(
                r,
                fonts,
                T::MawariQuickOption.get(lang),
                ButtonLook::Toggle { on: quick },
                move |d| d.quick = !quick,
            );
            let places = d.places;
            option::<MawariDraft>(
                r,
                fonts,
                T::MawariPlacesOption.get(lang),
                ButtonLook::Toggle { on: places },
                move |d| d.places = !places,
            );
        });
        for note in &notes.0 {
            root.spawn(widgets::text(
                fonts,
                note.clone(),
                ty::BODY,
                palette::VERMILION,
            ));
        }
        root.spawn(widgets::row()).with_children(|r| {
            // With someone far away, the game begins in a room.
            let start = if d.seats.contains(&Seat::Remote) {
                T::CreateRoom
            } else {
                T::Start
            };
            r.spawn((widgets::key_button(fonts, lang, start, true), MawariBegin))
                .observe(begin);
            r.spawn(widgets::key_button(fonts, lang, T::Back, false))
                .observe(go_to(Screen::GameList));
        });
    });
}

/// An observer: a click on a text field types into it.
fn focus_on(field: TextFocus) -> impl Fn(On<Pointer<Click>>, ResMut<TextFocus>) {
    move |_: On<Pointer<Click>>, mut focus: ResMut<TextFocus>| {
        *focus = field;
    }
}

/// 保存: the rules kept under their name (replacing rules of that name)
/// for the next time, and chosen.
fn save_rules(
    _: On<Pointer<Click>>,
    mut draft: ResMut<MawariDraft>,
    mut house: ResMut<HouseRules>,
    mut store: ResMut<Store>,
    mut notes: ResMut<SetupNotes>,
    mut focus: ResMut<TextFocus>,
    settings: Res<Settings>,
    mut sfx: MessageWriter<Sfx>,
) {
    sfx.write(Sfx::Button);
    let lang = settings.lang;
    let typed = draft.rule_name.trim().to_string();
    let name = if typed.is_empty() {
        T::MawariDefaultRuleName.get(lang).to_string()
    } else {
        typed
    };
    house.0.retain(|h| h.name != name);
    house.0.push(HouseRule {
        name: name.clone(),
        rules: draft.rules,
    });
    if house.0.len() > MAX_HOUSE_RULES {
        house.0.remove(0);
    }
    store.put(HOUSE_KEY, &house.0);
    notes.0 = vec![T::MawariRulesSaved.fill(lang, &[&name])];
    *focus = TextFocus::None;
    draft.preset = None;
    draft.house = Some(name.clone());
    draft.rule_name = name;
}

/// The keyboard types into the focused field (an input method's text
/// too); Enter, Tab or Esc ends the typing. The window takes an input
/// method's text while a field is focused.
pub(super) fn type_text(
    mut keys: MessageReader<KeyboardInput>,
    mut ime: MessageReader<Ime>,
    mut focus: ResMut<TextFocus>,
    draft: Option<ResMut<MawariDraft>>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
    fonts: Res<Fonts>,
    font_assets: Res<Assets<Font>>,
    mut notes: ResMut<SetupNotes>,
    settings: Res<Settings>,
) {
    let Some(mut draft) = draft else { return };
    let want_ime = *focus != TextFocus::None;
    for mut w in &mut windows {
        if w.ime_enabled != want_ime {
            w.ime_enabled = want_ime;
        }
    }
    let field = *focus;
    if field == TextFocus::None {
        keys.clear();
        ime.clear();
        return;
    }
    let mut text = match field {
        TextFocus::Name(i) => draft.names.get(i).cloned().unwrap_or_default(),
        TextFocus::RuleName => draft.rule_name.clone(),
        TextFocus::None => return,
    };
    let max = match field {
        TextFocus::RuleName => MAX_NAME * 2,
        _ => MAX_NAME,
    };
    let mut edited = false;
    for input in keys.read() {
        match type_into(&mut text, input, max) {
            Typed::Edited => edited = true,
            Typed::Done => {
                *focus = TextFocus::None;
                break;
            }
            Typed::Nothing => {}
        }
    }
    for e in ime.read() {
        if let Ime::Commit { value, .. } = e
            && add_text(&mut text, value, max) == Typed::Edited
        {
            edited = true;
        }
    }
    // The fonts hold only the characters the game can show: a character
    // outside them would be drawn as nothing, so it is left out, and said.
    if edited && let Some(font) = font_assets.get(&fonts.ui) {
        let missing: String = text
            .chars()
            .filter(|&c| !c.is_whitespace() && !font_covers(font.data.data(), c))
            .collect();
        if !missing.is_empty() {
            text.retain(|c| !missing.contains(c));
            notes.0 = vec![T::MawariNameCharMissing.fill(settings.lang, &[&missing])];
        }
    }
    if edited {
        match field {
            TextFocus::Name(i) => {
                if let Some(n) = draft.names.get_mut(i) {
                    *n = text;
                }
            }
            TextFocus::RuleName => draft.rule_name = text,
            TextFocus::None => {}
        }
    }
}

/// The setup screen again when a choice, the focus, a note or the saved
/// rules changed; the choices are remembered for next time.
pub(super) fn rebuild(
    mut commands: Commands,
    draft: Option<Res<MawariDraft>>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    roots: Query<Entity, With<SetupRoot>>,
    house: Option<Res<HouseRules>>,
    notes: Res<SetupNotes>,
    focus: Res<TextFocus>,
    mut store: ResMut<Store>,
) {
    let (Some(draft), Some(house)) = (draft, house) else {
        return;
    };
    if draft.is_changed() && !draft.is_added() {
        store.put(SETUP_KEY, &*draft);
    }
    let others = (focus.is_changed() && !focus.is_added())
        || (notes.is_changed() && !notes.is_added())
        || (house.is_changed() && !house.is_added());
    let cleared = clear_if_changed(&mut commands, &draft, &settings, &roots);
    if others && !cleared {
        for r in &roots {
            commands.entity(r).despawn();
        }
    }
    if cleared || others {
        spawn_setup_ui(
            &mut commands,
            &fonts,
            settings.lang,
            &draft,
            &house,
            &notes,
            *focus,
        );
    }
}

fn begin(_: On<Pointer<Click>>, mut starter: MatchStarter, mut sfx: MessageWriter<Sfx>) {
    sfx.write(Sfx::Button);
    starter.start();
}

/// Enter starts the game too (not while a name is typed: it ends the
/// typing).
pub(super) fn begin_on_enter(
    keys: Res<ButtonInput<KeyCode>>,
    focus: Res<TextFocus>,
    button: ButtonFocus,
    mut starter: MatchStarter,
) {
    if keys.just_pressed(KeyCode::Enter) && *focus == TextFocus::None && button.focused().is_none()
    {
        starter.start();
    }
}

/// The match a draft starts: from the start, or from a pending position
/// (the seats follow its number of pieces: the draft's first, then CPUs).
/// A position that says whose turn it is (`turn=`) goes on from there; one
/// that does not starts as the draft orders it (with a draw, if chosen).
fn new_match(
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
    let turn_given = position.is_some_and(|t| t.split_whitespace().any(|w| w.starts_with("turn=")));
    if draft.order == TurnOrder::Draw && !turn_given {
        m.draw = Some(FirstThrow::new(m.seats.len())?);
    }
    if draft.places {
        m.race = m.race.playing_for_places();
    }
    let n = m.seats.len();
    m.names = draft
        .names
        .iter()
        .take(n)
        .map(|s| s.trim().to_string())
        .collect();
    m.colours = draft.colours.iter().take(n).copied().collect();
    Ok(m)
}

/// What starting the draft's match needs (by the button or the Enter
/// key).
#[derive(SystemParam)]
pub(crate) struct MatchStarter<'w, 's> {
    commands: Commands<'w, 's>,
    draft: Option<Res<'w, MawariDraft>>,
    next: ResMut<'w, NextState<Screen>>,
    store: ResMut<'w, Store>,
    pending: ResMut<'w, PendingPosition>,
    notice: ResMut<'w, StartNotice>,
    settings: Res<'w, Settings>,
    notes: ResMut<'w, SetupNotes>,
}

impl MatchStarter<'_, '_> {
    /// Starts the draft's match (from the pending position, if there is
    /// one), saves it and opens the play screen.
    fn start(&mut self) {
        let Some(draft) = &self.draft else { return };
        self.store.put(SETUP_KEY, &**draft);
        if draft.seats.contains(&Seat::Remote) {
            let lang = self.settings.lang;
            let needs_person = T::MawariRoomNeedsPerson.get(lang).to_string();
            if !draft.seats.contains(&Seat::Person) {
                if !self.notes.0.contains(&needs_person) {
                    self.notes.0.push(needs_person);
                }
                return;
            }
            self.notes.0.retain(|n| *n != needs_person);
            let position = self.pending.0.take();
            if let Err(e) = make_room(
                draft,
                position.as_deref(),
                &self.settings,
                &mut self.commands,
                &mut self.next,
            ) {
                // A bad position is said on the setup, where it can be
                // changed.
                self.notes.0.push(e);
            }
            return;
        }
        let seed = rand::random::<u64>();
        let position = self.pending.0.take();
        let made = match new_match(draft, position.as_deref(), seed) {
            Ok(m) => {
                self.notice.0 = position.map(|_| "position".into());
                Ok(m)
            }
            Err(e) => {
                // A bad position is explained; the game starts as usual.
                self.notice.0 = Some(e);
                new_match(draft, None, seed)
            }
        };
        match made {
            Ok(m) => {
                resume::keep(&mut self.store, &m);
                self.commands.insert_resource(m);
                self.next.set(Screen::Play);
            }
            Err(e) => error!("{e}"),
        }
    }
}
