//! The shell's own screens: title, game list, settings, about, bug report.
//! Game screens (setup, play, result, tutorial) come from the games' own plugins.

use super::widgets::type_scale as ty;
use bevy::prelude::*;

use super::i18n::{Lang, T};
use super::keys::ButtonFocus;
use super::save::Store;
use super::settings::{
    BoardTheme, ChuPieceSet, Coords, PieceStyle, Settings, TextSize, coords_text,
};
use super::widgets::{self, ButtonLook, Fonts, palette};
use super::{BugContext, ChosenGame, ChosenTutorial, Notice, ReturnTo, Screen};
use crate::rules::data::GameId;

/// Version and change history shown on the about screen (like the はさみ将棋
/// source page's "ver 1.0.0 · 更新履歴"; docs/README.md lists the pages).
pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");
pub(crate) const CHANGES: &[(&str, &str, &str)] = &[
    (
        "0.5.0",
        "詰め中将棋(中将棊絹篩の56問)、振り返りと検討、離れた人と遊ぶ部屋を追加しました。振り返りは評価のグラフと疑問手・悪手付き。部屋ではべつの端末の人と対局でき、まわり将棋は2〜4人で遊べます。",
        "Chu Shogi mate problems (56 from Kinuburui), review and analysis, and rooms to play from afar. Review with the evaluation graph, dubious moves and mistakes. In a room, players on other devices play each other, Mawari Shogi with 2 to 4 seats.",
    ),
    (
        "0.4.0",
        "中将棋とまわり将棋を公開しました。中将棋は日本中将棋連盟のルール、獅子の2回動き、学ぶ(駒ごとのレッスンと駒問題集)付き。まわり将棋は2〜4人、金将4枚を本当に投げて数え、特別ルールはすべて設定で選べます。",
        "Chu Shogi and Mawari Shogi released. Chu Shogi with the Japan Chu Shogi Association's rules, the lion's two steps, and lessons for every piece and problems. Mawari Shogi for 2 to 4 players, the four golds thrown for real and read as they lie, every special rule a setting.",
    ),
    (
        "0.3.0",
        "十六むさしを公開しました。3つのルールと自分で決める、印を出す、雪隠詰め、チュートリアル、局面の書き出し・読み込み付き。つよいは終盤を完全に読み切った表で指します。",
        "Juroku Musashi released: three rule sets and custom rules, danger marks, setchin-zume, a tutorial, and position export and import. The strong CPU plays the endgame from exact solved tables.",
    ),
    (
        "0.2.0",
        "きつねとがちょうを公開しました。3つのルールと自分で決める、連続跳び、印を出す、チュートリアル付き。",
        "Fox and Geese released: three rule sets and custom rules, multiple jumps, danger marks and a tutorial.",
    ),
    (
        "0.1.0",
        "はさみ将棋を公開しました。設定・待った・ヒント・続きから・チュートリアル付き。",
        "Hasami Shogi released, with settings, undo, hints, resume and a tutorial.",
    ),
];

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<ResumeRequest>()
        .add_message::<ReviewRequest>()
        .add_systems(OnEnter(Screen::Title), spawn_title)
        .add_systems(OnEnter(Screen::GameList), spawn_game_list)
        .add_systems(Update, fit_game_grid.run_if(in_state(Screen::GameList)))
        .add_systems(OnEnter(Screen::Settings), spawn_settings)
        .add_systems(OnEnter(Screen::About), spawn_about)
        .add_systems(OnEnter(Screen::BugReport), spawn_bug_report)
        .add_systems(OnEnter(Screen::Rules), enter_rules)
        .add_systems(Update, draw_rules_page.run_if(in_state(Screen::Rules)))
        .add_systems(
            Update,
            respawn_settings_on_change.run_if(in_state(Screen::Settings)),
        )
        .add_systems(Update, enter_key_on_menus)
        .add_systems(Startup, spawn_saves_off_badge)
        .add_systems(Update, show_saves_off_badge);
}

/// The line that tells, on every screen, that nothing played is kept: the
/// store could not be opened, or it refused a write (a full browser
/// storage). The game goes on without saves.
#[derive(Component)]
pub struct SavesOffBadge;

fn spawn_saves_off_badge(mut commands: Commands, fonts: Res<Fonts>, settings: Res<Settings>) {
    commands
        .spawn((
            SavesOffBadge,
            Node {
                position_type: PositionType::Absolute,
                left: px(8),
                bottom: px(6),
                padding: UiRect::axes(px(10), px(4)),
                border_radius: BorderRadius::all(px(6)),
                ..default()
            },
            BackgroundColor(palette::CARD),
            GlobalZIndex(50),
            Visibility::Hidden,
        ))
        .with_child(widgets::label(
            &fonts,
            settings.lang,
            T::SavesOff,
            ty::SMALL,
            palette::VERMILION,
        ));
}

fn show_saves_off_badge(store: Res<Store>, mut badge: Query<&mut Visibility, With<SavesOffBadge>>) {
    if !store.is_changed() {
        return;
    }
    let shown = if store.saves_work() {
        Visibility::Hidden
    } else {
        Visibility::Inherited
    };
    for mut v in &mut badge {
        v.set_if_neq(shown);
    }
}

/// Whether the key that leaves a game for the list (Esc) was just pressed.
pub fn quit_key(keys: &ButtonInput<KeyCode>) -> bool {
    keys.just_pressed(KeyCode::Escape)
}

/// A system: the quit key goes back to the list of games.
pub fn quit_on_key(keys: Res<ButtonInput<KeyCode>>, mut next: ResMut<NextState<Screen>>) {
    if quit_key(&keys) {
        next.set(Screen::GameList);
    }
}

/// An observer that goes to `screen` (every button clicks: `widgets`).
pub(crate) fn go_to(screen: Screen) -> impl Fn(On<Pointer<Click>>, ResMut<NextState<Screen>>) {
    move |_, mut next| {
        next.set(screen);
    }
}

/// An observer that remembers where to come back to, then opens `screen`.
pub(crate) fn open_from(
    screen: Screen,
    back: Screen,
) -> impl Fn(On<Pointer<Click>>, ResMut<NextState<Screen>>, ResMut<ReturnTo>) {
    move |_, mut next, mut ret| {
        ret.0 = back;
        next.set(screen);
    }
}

fn go_back(_: On<Pointer<Click>>, mut next: ResMut<NextState<Screen>>, ret: Res<ReturnTo>) {
    next.set(ret.0);
}

fn spawn_title(mut commands: Commands, fonts: Res<Fonts>, settings: Res<Settings>) {
    let lang = settings.lang;
    commands
        // See-through, as every screen: the games stage their koma
        // behind the title.
        .spawn((DespawnOnExit(Screen::Title), widgets::screen_root()))
        .with_children(|root| {
            // A vermilion seal (落款) beside the name, as on a game box.
            root.spawn(Node {
                flex_direction: FlexDirection::Row,
                flex_wrap: FlexWrap::Wrap,
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                column_gap: px(18),
                max_width: percent(100),
                ..default()
            })
            .with_children(|row| {
                row.spawn(widgets::label(
                    &fonts,
                    lang,
                    T::AppTitle,
                    ty::HERO,
                    palette::INK,
                ));
                row.spawn((
                    Node {
                        width: px(64),
                        height: px(64),
                        justify_content: JustifyContent::Center,
                        align_items: AlignItems::Center,
                        border_radius: BorderRadius::all(px(8)),
                        ..default()
                    },
                    BackgroundColor(palette::VERMILION),
                    children![widgets::text(&fonts, "遊", ty::DISPLAY, palette::PAPER)],
                ));
            });
            root.spawn(widgets::label(
                &fonts,
                lang,
                T::AppSubtitle,
                ty::SUBTITLE,
                palette::INK_SOFT,
            ));
            root.spawn(Node {
                height: px(30),
                ..default()
            });
            root.spawn((
                widgets::key_button(&fonts, lang, T::Start, true),
                TitleStart,
            ))
            .observe(go_to(Screen::GameList));
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn(widgets::key_button(&fonts, lang, T::Settings, false))
                    .observe(open_from(Screen::Settings, Screen::Title));
                row.spawn(widgets::key_button(&fonts, lang, T::About, false))
                    .observe(go_to(Screen::About));
            });
        });
}

/// The title screen's start button (tests click it).
#[derive(Component)]
pub struct TitleStart;

/// One game card's buttons (tests click them).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardButton {
    New(GameId),
    Continue(GameId),
    /// 振り返る: the last finished game.
    Review(GameId),
    Tutorial(GameId),
    Rules(GameId),
}

fn game_name(game: GameId) -> (&'static str, &'static str) {
    match game {
        GameId::Hasami => ("はさみ将棋", "Hasami Shogi"),
        GameId::Musashi => ("十六むさし", "Juroku Musashi"),
        GameId::FoxGeese => ("きつねとがちょう", "Fox and Geese"),
        GameId::ChuShogi => ("中将棋", "Chu Shogi"),
        GameId::Mawari => ("まわり将棋", "Mawari Shogi"),
    }
}

fn game_blurb(game: GameId) -> (&'static str, &'static str) {
    match game {
        GameId::Hasami => (
            "「歩」と「と」を縦か横に動かして、相手の駒をはさんで取る。先に5枚取ったら勝ち。",
            "Move your pieces like rooks and capture by sandwiching. The first to capture 5 wins.",
        ),
        GameId::Musashi => (
            "親1枚と子16枚の追いかけっこ。",
            "One oya against sixteen ko.",
        ),
        GameId::FoxGeese => (
            "きつね1匹とがちょうの群れ。",
            "One fox against a flock of geese.",
        ),
        GameId::ChuShogi => ("12×12の大きな将棋。", "Shogi on a 12×12 board."),
        GameId::Mawari => (
            "金将をさいころにして盤のまわりを競争。",
            "Race round the board with gold generals as dice.",
        ),
    }
}

pub(crate) fn localized_game_name(game: GameId, lang: Lang) -> &'static str {
    let (ja, en) = game_name(game);
    lang.pick(ja, en)
}

/// Where a game's card shows its board in miniature (the game draws it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
#[require(Node)]
pub struct CardPicture(pub GameId);

fn spawn_game_list(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    store: Res<Store>,
    mut notice: ResMut<Notice>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
) {
    let lang = settings.lang;
    let portrait = windows.single().is_ok_and(super::is_portrait);
    let phone = windows.single().is_ok_and(super::is_phone);
    commands
        .spawn((DespawnOnExit(Screen::GameList), widgets::screen_root()))
        .with_children(|root| {
            root.spawn(widgets::label(
                &fonts,
                lang,
                T::ChooseGame,
                ty::TITLE,
                palette::INK,
            ));
            if let Some(n) = notice.0.take() {
                root.spawn(widgets::label(
                    &fonts,
                    lang,
                    n,
                    ty::LEAD,
                    palette::VERMILION,
                ));
            }
            // One card a game, all of one size, in a regular grid: two
            // columns on a wide window, one on a phone held upright.
            let columns = if portrait { 1 } else { 2 };
            root.spawn(game_grid(columns, phone)).with_children(|grid| {
                for game in GameId::PLAYABLE {
                    let (ja, en) = game_blurb(game);
                    grid.spawn(game_card(phone)).with_children(|card| {
                        // The game's board in miniature beside its name,
                        // words and buttons.
                        card.spawn(CardPicture(game));
                        card.spawn(Node {
                            flex_direction: FlexDirection::Column,
                            align_items: AlignItems::Center,
                            flex_grow: 1.0,
                            flex_basis: px(0),
                            row_gap: px(6),
                            ..default()
                        })
                        .with_children(|card| {
                            card.spawn(widgets::text(
                                &fonts,
                                localized_game_name(game, lang),
                                ty::HEADING,
                                palette::INK,
                            ));
                            card.spawn(widgets::text(
                                &fonts,
                                lang.pick(ja, en),
                                ty::BODY,
                                palette::INK_SOFT,
                            ));
                            if !phone {
                                card.spawn(widgets::row()).with_children(|buttons| {
                                    card_buttons(buttons, &fonts, lang, game, &store);
                                });
                            }
                        });
                        if phone {
                            card.spawn(Node {
                                width: percent(100),
                                ..widgets::row_node()
                            })
                            .with_children(|buttons| {
                                card_buttons(buttons, &fonts, lang, game, &store);
                            });
                        }
                    });
                }
            });
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn(widgets::key_button(&fonts, lang, T::Back, false))
                    .observe(go_to(Screen::Title));
                row.spawn(widgets::key_button(&fonts, lang, T::Settings, false))
                    .observe(open_from(Screen::Settings, Screen::GameList));
                row.spawn((
                    widgets::key_button(&fonts, lang, T::JoinRoom, false),
                    JoinRoomButton,
                ))
                .observe(open_join);
            });
        });
}

/// The game list's 部屋に入る: the room screen's code pad.
#[derive(Component)]
pub struct JoinRoomButton;

fn open_join(
    _: On<Pointer<Click>>,
    mut room: ResMut<super::rooms::RoomLink>,
    mut draft: ResMut<super::rooms::JoinDraft>,
    mut next: ResMut<NextState<Screen>>,
) {
    // A room this device is still in stays kept for 続きから.
    room.0 = None;
    draft.code.clear();
    next.set(Screen::Lobby);
}

/// The game list's grid of cards.
#[derive(Component)]
struct GameGrid;

/// The game list's grid: `columns` columns of equal width, every row as
/// tall as the tallest card.
fn game_grid(columns: u16, phone: bool) -> impl Bundle {
    let mut node = Node {
        display: Display::Grid,
        grid_auto_rows: vec![GridTrack::flex(1.0)],
        column_gap: px(14),
        row_gap: px(14),
        margin: UiRect::vertical(px(8)),
        ..default()
    };
    set_grid_columns(&mut node, columns, phone);
    (GameGrid, node)
}

/// On a phone the cards take the screen's width.
fn set_grid_columns(node: &mut Node, columns: u16, phone: bool) {
    node.grid_template_columns = RepeatedGridTrack::flex(columns, 1.0);
    let width = if columns == 1 { 700.0 } else { 1060.0 };
    if phone {
        node.width = percent(100);
        node.max_width = px(width);
    } else {
        node.width = px(width);
        node.max_width = Val::Auto;
    }
}

/// A window turned between landscape and portrait lays the list out again.
fn fit_game_grid(
    windows: Query<&Window, (With<bevy::window::PrimaryWindow>, Changed<Window>)>,
    phone: Res<super::Phone>,
    mut grids: Query<&mut Node, With<GameGrid>>,
) {
    let Ok(window) = windows.single() else { return };
    let columns = if super::is_portrait(window) { 1 } else { 2 };
    for mut node in &mut grids {
        if node.grid_template_columns != RepeatedGridTrack::flex::<Vec<_>>(columns, 1.0)
            || phone.is_changed()
        {
            set_grid_columns(&mut node, columns, phone.0);
        }
    }
}

/// A game's card in the list (the picture check finds the grid by it).
#[derive(Component, Clone, Copy, Debug)]
pub struct GameCard;

/// One game's card in the list: its picture on the left, its words and
/// buttons on the right, filling its cell of the grid.
/// On a phone the buttons take a line of their own under the picture and
/// the words, as wide as the card.
fn game_card(phone: bool) -> impl Bundle {
    let (node, background, border) = widgets::card();
    (
        GameCard,
        Node {
            flex_direction: FlexDirection::Row,
            flex_wrap: if phone {
                FlexWrap::Wrap
            } else {
                FlexWrap::NoWrap
            },
            align_items: AlignItems::Center,
            justify_content: if phone {
                JustifyContent::Center
            } else {
                JustifyContent::Default
            },
            column_gap: px(14),
            margin: UiRect::ZERO,
            padding: UiRect::all(px(12)),
            ..node
        },
        background,
        border,
    )
}

/// A game card's buttons: a new game, 続きから where a game is saved,
/// 振り返る where one has ended, the rules and the tutorial or lessons.
fn card_buttons(
    buttons: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    game: GameId,
    store: &Store,
) {
    buttons
        .spawn((
            widgets::key_button(fonts, lang, T::NewGame, true),
            CardButton::New(game),
        ))
        .observe(choose(game, Screen::Setup));
    if store.has(&game.save_key()) {
        buttons
            .spawn((
                widgets::key_button(fonts, lang, T::Continue, false),
                CardButton::Continue(game),
            ))
            .observe(resume(game));
    }
    if store.has(&game.finished_key()) {
        buttons
            .spawn((
                widgets::key_button(fonts, lang, T::Review, false),
                CardButton::Review(game),
            ))
            .observe(review(game));
    }
    buttons
        .spawn((
            widgets::key_button(fonts, lang, T::HowToPlay, false),
            CardButton::Rules(game),
        ))
        .observe(choose(game, Screen::Rules));
    // A game with several lessons opens their menu.
    let (key, screen) = if game.has_lessons() {
        (T::Learn, Screen::Lessons)
    } else {
        (T::Tutorial, Screen::Tutorial)
    };
    buttons
        .spawn((
            widgets::key_button(fonts, lang, key, false),
            CardButton::Tutorial(game),
        ))
        .observe(choose(game, screen));
}

fn choose(
    game: GameId,
    screen: Screen,
) -> impl Fn(On<Pointer<Click>>, ResMut<NextState<Screen>>, ResMut<ChosenGame>) {
    move |_, mut next, mut chosen| {
        chosen.0 = game;
        next.set(screen);
    }
}

/// Opens lesson `index` of the chosen game.
pub(crate) fn open_lesson(
    index: usize,
) -> impl Fn(On<Pointer<Click>>, ResMut<NextState<Screen>>, ResMut<ChosenTutorial>) {
    move |_, mut next, mut chosen| {
        chosen.0 = index;
        next.set(Screen::Tutorial);
    }
}

/// Asks the game's plugin to load its save; the plugin opens the play
/// screen (or reports a bad save).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResumeRequest(pub GameId);

fn resume(
    game: GameId,
) -> impl Fn(On<Pointer<Click>>, ResMut<ChosenGame>, MessageWriter<ResumeRequest>) {
    move |_, mut chosen, mut req| {
        chosen.0 = game;
        req.write(ResumeRequest(game));
    }
}

/// Asks the game's plugin to open the review of its last finished game.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewRequest(pub GameId);

fn review(
    game: GameId,
) -> impl Fn(On<Pointer<Click>>, ResMut<ChosenGame>, MessageWriter<ReviewRequest>) {
    move |_, mut chosen, mut req| {
        chosen.0 = game;
        req.write(ReviewRequest(game));
    }
}

#[derive(Component)]
struct SettingsRoot;

fn spawn_settings(mut commands: Commands, fonts: Res<Fonts>, settings: Res<Settings>) {
    let lang = settings.lang;
    let s = settings.clone();
    commands
        .spawn((
            DespawnOnExit(Screen::Settings),
            SettingsRoot,
            widgets::screen_root(),
        ))
        .with_children(|root| {
            root.spawn(widgets::label(
                &fonts,
                lang,
                T::Settings,
                ty::TITLE,
                palette::INK,
            ));
            let option_row = |root: &mut ChildSpawnerCommands, title: T| {
                root.spawn(widgets::label(
                    &fonts,
                    lang,
                    title,
                    ty::BUTTON,
                    palette::INK,
                ));
            };
            option_row(root, T::Language);
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn(widgets::button_with(
                    &fonts,
                    "日本語",
                    choice(s.lang == Lang::Ja),
                ))
                .observe(|_: On<Pointer<Click>>, mut s: ResMut<Settings>| s.lang = Lang::Ja);
                row.spawn(widgets::button_with(
                    &fonts,
                    "English",
                    choice(s.lang == Lang::En),
                ))
                .observe(|_: On<Pointer<Click>>, mut s: ResMut<Settings>| s.lang = Lang::En);
            });
            option_row(root, T::PieceDesign);
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn(widgets::key_button_with(
                    &fonts,
                    lang,
                    T::PieceKoma,
                    choice(s.piece_style == PieceStyle::Koma),
                ))
                .observe(|_: On<Pointer<Click>>, mut s: ResMut<Settings>| {
                    s.piece_style = PieceStyle::Koma
                });
                row.spawn(widgets::key_button_with(
                    &fonts,
                    lang,
                    T::PieceSymbol,
                    choice(s.piece_style == PieceStyle::Symbol),
                ))
                .observe(|_: On<Pointer<Click>>, mut s: ResMut<Settings>| {
                    s.piece_style = PieceStyle::Symbol
                });
            });
            option_row(root, T::BoardThemeHeading);
            root.spawn(widgets::row()).with_children(|row| {
                for theme in BoardTheme::ALL {
                    row.spawn(widgets::key_button_with(
                        &fonts,
                        lang,
                        theme.text(),
                        choice(s.board_theme == theme),
                    ))
                    .observe(
                        move |_: On<Pointer<Click>>, mut s: ResMut<Settings>| s.board_theme = theme,
                    );
                }
            });
            option_row(root, T::TextSizeHeading);
            root.spawn(widgets::row()).with_children(|row| {
                for size in TextSize::ALL {
                    row.spawn(widgets::key_button_with(
                        &fonts,
                        lang,
                        size.text(),
                        choice(s.text_size == size),
                    ))
                    .observe(
                        move |_: On<Pointer<Click>>, mut s: ResMut<Settings>| s.text_size = size,
                    );
                }
            });
            option_row(root, T::ChuPieceSetHeading);
            root.spawn(widgets::row()).with_children(|row| {
                for set in ChuPieceSet::ALL {
                    row.spawn(widgets::key_button_with(
                        &fonts,
                        lang,
                        set.text(),
                        choice(s.chu_pieces == set),
                    ))
                    .observe(
                        move |_: On<Pointer<Click>>, mut s: ResMut<Settings>| s.chu_pieces = set,
                    );
                }
            });
            option_row(root, T::ChuCoordsHeading);
            root.spawn(widgets::row()).with_children(|row| {
                for coords in Coords::ALL {
                    row.spawn(widgets::key_button_with(
                        &fonts,
                        lang,
                        coords_text(coords),
                        choice(s.chu_coords == coords),
                    ))
                    .observe(
                        move |_: On<Pointer<Click>>, mut s: ResMut<Settings>| s.chu_coords = coords,
                    );
                }
            });
            root.spawn(widgets::row()).with_children(|row| {
                let sound_key = if s.sound { T::SoundOn } else { T::SoundOff };
                row.spawn(widgets::key_button_with(
                    &fonts,
                    lang,
                    sound_key,
                    ButtonLook::Toggle { on: s.sound },
                ))
                .observe(|_: On<Pointer<Click>>, mut s: ResMut<Settings>| s.sound = !s.sound);
                row.spawn(widgets::key_button_with(
                    &fonts,
                    lang,
                    T::ReducedMotion,
                    ButtonLook::Toggle {
                        on: s.reduced_motion,
                    },
                ))
                .observe(|_: On<Pointer<Click>>, mut s: ResMut<Settings>| {
                    s.reduced_motion = !s.reduced_motion
                });
            });
            root.spawn(widgets::key_button(&fonts, lang, T::Back, false))
                .observe(go_back);
        });
}

/// The settings screen is rebuilt when a setting changes, so every button
/// shows its new state.
fn respawn_settings_on_change(
    mut commands: Commands,
    settings: Res<Settings>,
    fonts: Res<Fonts>,
    roots: Query<Entity, With<SettingsRoot>>,
) {
    if settings.is_changed() && !settings.is_added() {
        for r in &roots {
            commands.entity(r).despawn();
        }
        spawn_settings(commands, fonts, settings);
    }
}

fn spawn_about(mut commands: Commands, fonts: Res<Fonts>, settings: Res<Settings>) {
    let lang = settings.lang;
    commands
        .spawn((DespawnOnExit(Screen::About), widgets::screen_root()))
        .with_children(|root| {
            root.spawn(widgets::label(
                &fonts,
                lang,
                T::AppTitle,
                ty::TITLE,
                palette::INK,
            ));
            root.spawn(widgets::text(
                &fonts,
                format!("ver {VERSION}"),
                ty::BUTTON,
                palette::INK_SOFT,
            ));
            root.spawn(widgets::label(
                &fonts,
                lang,
                T::ChangeHistory,
                ty::SUBTITLE,
                palette::INK,
            ));
            for (version, ja, en) in CHANGES {
                root.spawn(widgets::text(
                    &fonts,
                    format!("ver {version} · {}", lang.pick(ja, en)),
                    ty::BODY,
                    palette::INK_SOFT,
                ));
            }
            root.spawn(widgets::text(
                &fonts,
                lang.pick(
                    "フォント: IPAexゴシック・IPAex明朝 (IPAフォントライセンスv1.0)",
                    "Fonts: IPAex Gothic and IPAex Mincho (IPA Font License v1.0)",
                ),
                ty::CAPTION,
                palette::INK_SOFT,
            ));
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn(widgets::key_button(&fonts, lang, T::BugReport, false))
                    .observe(open_from(Screen::BugReport, Screen::About));
                row.spawn(widgets::key_button(&fonts, lang, T::Back, false))
                    .observe(go_to(Screen::Title));
            });
        });
}

/// The report text: version, platform, language and the current position.
pub(crate) fn bug_report_text(context: &str, lang: Lang) -> String {
    let platform = if cfg!(target_arch = "wasm32") {
        "web (wasm32)"
    } else {
        std::env::consts::OS
    };
    format!(
        "Yorimichi ver {VERSION}\nplatform: {platform} {}\nlanguage: {lang:?}\n{context}",
        std::env::consts::ARCH
    )
}

fn spawn_bug_report(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    context: Res<BugContext>,
) {
    let lang = settings.lang;
    let report = bug_report_text(&context.0, lang);
    commands
        .spawn((DespawnOnExit(Screen::BugReport), widgets::screen_root()))
        .with_children(|root| {
            root.spawn(widgets::label(
                &fonts,
                lang,
                T::BugReport,
                ty::HEADING,
                palette::INK,
            ));
            root.spawn(widgets::label(
                &fonts,
                lang,
                T::BugReportHelp,
                ty::BODY,
                palette::INK_SOFT,
            ));
            root.spawn((
                Node {
                    padding: UiRect::all(px(12)),
                    border: UiRect::all(px(1)),
                    ..default()
                },
                BackgroundColor(palette::CARD),
                BorderColor::all(palette::INK_SOFT),
                children![widgets::text(&fonts, report, ty::SMALL, palette::INK)],
            ));
            root.spawn((
                widgets::text(&fonts, "", ty::SMALL, palette::VERMILION),
                ExportStatus,
            ));
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn((
                    widgets::key_button(&fonts, lang, T::BugReportExport, true),
                    ExportButton,
                ))
                .observe(export_report);
                row.spawn(widgets::key_button(&fonts, lang, T::Back, false))
                    .observe(go_back);
            });
        });
}

/// The bug report's export button (tests click it).
#[derive(Component)]
pub struct ExportButton;

/// Where the export of the report went (shown under the report).
#[derive(Component)]
struct ExportStatus;

/// Makes the report copyable: on the web, as selectable text in the page;
/// on the desktop, as a text file in the home folder.
fn export_report(
    _: On<Pointer<Click>>,
    context: Res<BugContext>,
    settings: Res<Settings>,
    mut status: Query<&mut Text, With<ExportStatus>>,
) {
    let lang = settings.lang;
    let report = bug_report_text(&context.0, lang);
    let message = match super::files::export_text("bug-report", &report, None) {
        Ok(super::files::Exported::File { file, .. }) => {
            format!("{} {file}", T::BugReportExported.get(lang))
        }
        Ok(super::files::Exported::OnPage) => T::BugReportShownOnPage.get(lang).to_string(),
        Err(e) => format!("{}: {e}", T::BugReportExportFailed.get(lang)),
    };
    for mut t in &mut status {
        t.0 = message.clone();
    }
}

/// The page of the rules text being read.
#[derive(Resource)]
pub struct RulesPage {
    pub text: crate::rules::data::RulesText,
    pub page: usize,
}

#[derive(Component)]
struct RulesView;

fn enter_rules(
    mut commands: Commands,
    chosen: Res<ChosenGame>,
    mut next: ResMut<NextState<Screen>>,
) {
    match crate::rules::data::rules_text(chosen.0) {
        Some(Ok(text)) => commands.insert_resource(RulesPage { text, page: 0 }),
        Some(Err(e)) => {
            error!("{e}");
            next.set(Screen::GameList);
        }
        None => next.set(Screen::GameList),
    }
}

fn turn_page(delta: i32) -> impl Fn(On<Pointer<Click>>, ResMut<RulesPage>) {
    move |_, mut page| {
        let last = page.text.sections.len() as i32 - 1;
        page.page = (page.page as i32 + delta).clamp(0, last) as usize;
    }
}

fn draw_rules_page(
    mut commands: Commands,
    page: Option<Res<RulesPage>>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    views: Query<Entity, With<RulesView>>,
) {
    let Some(page) = page else { return };
    if !page.is_changed() && !settings.is_changed() {
        return;
    }
    for v in &views {
        commands.entity(v).despawn();
    }
    let lang = settings.lang;
    let section = &page.text.sections[page.page];
    commands
        .spawn((
            DespawnOnExit(Screen::Rules),
            RulesView,
            widgets::screen_root(),
        ))
        .with_children(|root| {
            root.spawn(widgets::text(
                &fonts,
                lang.text(&page.text.title),
                ty::HEADING,
                palette::INK,
            ));
            root.spawn(widgets::text(
                &fonts,
                format!(
                    "{} / {}  {}",
                    page.page + 1,
                    page.text.sections.len(),
                    lang.text(&section.title)
                ),
                ty::SUBTITLE,
                palette::VERMILION,
            ));
            root.spawn((
                Node {
                    // Within a phone's width too.
                    width: percent(100),
                    max_width: px(760),
                    padding: UiRect::all(px(16)),
                    ..default()
                },
                BackgroundColor(palette::CARD),
                children![widgets::text(
                    &fonts,
                    lang.text(&section.body),
                    ty::LEAD,
                    palette::INK
                )],
            ));
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn(widgets::key_button(&fonts, lang, T::Previous, false))
                    .observe(turn_page(-1));
                row.spawn(widgets::key_button(&fonts, lang, T::Next, true))
                    .observe(turn_page(1));
                row.spawn(widgets::key_button(&fonts, lang, T::BackToList, false))
                    .observe(go_to(Screen::GameList));
            });
        });
}

/// Enter moves on from the title (to the list) and from the list (to the
/// first game's setup), for keyboard players.
fn enter_key_on_menus(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut chosen: ResMut<ChosenGame>,
    focus: ButtonFocus,
) {
    if !keys.just_pressed(KeyCode::Enter) || focus.focused().is_some() {
        return;
    }
    match screen.get() {
        Screen::Title => next.set(Screen::GameList),
        Screen::GameList => {
            chosen.0 = GameId::PLAYABLE[0];
            next.set(Screen::Setup);
        }
        _ => {}
    }
}

/// A settings option, drawn chosen or not.
fn choice(chosen: bool) -> ButtonLook {
    ButtonLook::Choice { chosen }
}
