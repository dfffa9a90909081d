//! The shell: the window, screens and states and the fades between them,
//! widgets, settings, saves, sound, animation, layout and the CPU runner. It knows no game: each game
//! plugs its own screens in (composed in the crate's `plugin`), and the
//! shell serves them whichever is chosen.

pub mod anim;
pub mod audio;
pub mod capture;
pub mod cpu;
pub mod files;
pub mod font_cover;
pub mod i18n;
pub mod keys;
pub mod layout;
pub mod qr;
pub mod rooms;
pub mod save;
pub mod screens;
pub mod settings;
pub mod transition;
pub mod tutorial;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod widgets;

use bevy::prelude::*;

use crate::rules::data::GameId;

/// Which screen is shown. Entities spawned for a screen carry
/// `DespawnOnExit(screen)` and go away with it.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Title,
    GameList,
    Settings,
    About,
    BugReport,
    Setup,
    Play,
    Result,
    Tutorial,
    /// 遊び方: the chosen game's rules text.
    Rules,
    /// A game's lessons to choose from (中将棋を学ぶ).
    Lessons,
    /// 振り返り: a finished game stepped through, with the CPU's judgement.
    Review,
    /// 部屋: a room's code and who is in it, or the code of a room to join.
    Lobby,
}

/// The game chosen on the list (or on the command line).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChosenGame(pub GameId);

/// The lesson chosen among the game's tutorials (0 for a game with one).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChosenTutorial(pub usize);

/// Where the settings and bug-report screens return to.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReturnTo(pub Screen);

/// A line of text for the bug report: the current game and position.
#[derive(Resource, Clone, Debug, Default)]
pub struct BugContext(pub String);

/// How many moves the game on the play screen has (for the web page's
/// `data-ply`, which the browser test reads).
#[derive(Resource, Clone, Debug, Default)]
pub(crate) struct GameProgress {
    pub ply: usize,
    /// The position text, for games that have one.
    pub position: Option<String>,
    /// Who plays and how, for games whose players have names (まわり将棋):
    /// the names in seat order, the rules, and the draw for the first
    /// throw.
    pub players: Option<String>,
}

/// A short message shown on the next screen (e.g. a discarded save).
#[derive(Resource, Clone, Debug, Default)]
pub struct Notice(pub Option<i18n::T>);

/// A position text the next new game starts from (`--position`, or the
/// web page's `?position=`); taken by the first game that starts.
#[derive(Resource, Clone, Debug, Default)]
pub struct PendingPosition(pub Option<String>);

/// A finished game to open in the review at start (the web page's
/// `#review=`, a shared link), as its game's kept text; taken by that
/// game's review.
#[derive(Resource, Clone, Debug, Default)]
pub struct PendingReview(pub Option<String>);

/// How the app starts (from the command line).
#[derive(Clone, Debug, Default)]
pub struct StartOptions {
    pub game: Option<GameId>,
    pub position: Option<String>,
    /// A finished game of `game` to review ([`PendingReview`]).
    pub review: Option<String>,
    /// A scene to picture or time instead of playing.
    pub capture: Option<capture::ScreenshotJob>,
    /// The code of a room to join (`--join`, a page's `#room=`).
    pub join: Option<String>,
    /// The code of a room to watch (`--watch`, a page's `#watch=`).
    pub watch: Option<String>,
    /// The room server to use from now on (`--server`).
    pub server: Option<String>,
}

/// The shell without windowing, rendering and audio: used by the real app
/// and by headless tests, which add `MinimalPlugins` and the state/asset
/// plugins.
pub(crate) fn core_plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_resource::<BugContext>()
        .init_resource::<Notice>()
        .init_resource::<PendingPosition>()
        .init_resource::<PendingReview>()
        .init_resource::<GameProgress>()
        .init_resource::<Phone>()
        .init_resource::<layout::CameraArea>()
        .add_systems(OnExit(Screen::Play), camera_to_design_area)
        .add_systems(OnExit(Screen::Tutorial), camera_to_design_area)
        .add_systems(OnExit(Screen::Review), camera_to_design_area)
        .insert_resource(ChosenGame(GameId::Hasami))
        .init_resource::<ChosenTutorial>()
        .init_resource::<cpu::SearchPace>()
        .init_resource::<cpu::ThinkingSlices>()
        .insert_resource(ReturnTo(Screen::Title))
        .add_plugins((
            i18n::plugin,
            widgets::plugin,
            anim::plugin,
            settings::plugin,
            audio::messages_plugin,
            screens::plugin,
            tutorial::plugin,
            transition::plugin,
            keys::plugin,
            rooms::plugin,
        ));
}

/// The window and fonts, then the core, then `content`: the games (and the
/// scenes, which may stage the capture job installed before them).
pub fn run(options: StartOptions, content: impl FnOnce(&mut App)) -> AppExit {
    #[cfg(target_arch = "wasm32")]
    let options = web::start_options(options);
    let mut app = App::new();
    #[cfg(not(target_arch = "wasm32"))]
    app.insert_resource(capture::LaunchedAt(std::time::Instant::now()));
    let window = Window {
        title: "よりみち盤遊び Yorimichi".into(),
        resolution: options
            .capture
            .as_ref()
            .and_then(capture::ScreenshotJob::window_resolution)
            .unwrap_or_else(|| (1100u32, 800u32).into()),
        canvas: Some("#yorimichi".into()),
        fit_canvas_to_parent: true,
        prevent_default_event_handling: true,
        ..default()
    };
    let plugins = DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(window),
            ..default()
        })
        .set(AssetPlugin {
            file_path: asset_folder(),
            meta_check: bevy::asset::AssetMetaCheck::Never,
            ..default()
        });
    app.add_plugins((
        plugins,
        bevy::input_focus::tab_navigation::TabNavigationPlugin,
    ));
    let store = save::open_store();
    let mut loaded = settings::load(&store);
    if let Some(server) = options.server.clone() {
        loaded.server = Some(server);
    }
    app.insert_resource(store).insert_resource(loaded);
    app.insert_resource(ClearColor(widgets::palette::PAPER));
    // Loaded now, not in a startup system: the first screen is entered
    // before the startup schedules run.
    let fonts = load_fonts(app.world().resource::<AssetServer>());
    app.insert_resource(fonts);
    app.add_systems(PreStartup, spawn_camera)
        .add_systems(Update, (fit_to_window, fit_to_adapter));
    app.add_plugins((core_plugin, audio::plugin));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(web::plugin);
    if let Some(game) = options.game {
        app.insert_resource(ChosenGame(game));
        // A shared review opens from the list (where its もどる goes).
        app.insert_state(if options.review.is_some() {
            Screen::GameList
        } else {
            Screen::Setup
        });
    }
    if let Some(code) = options.join.as_deref() {
        match crate::net::protocol::RoomCode::parse(code) {
            Ok(code) => {
                let settings = app.world().resource::<settings::Settings>().clone();
                // The link of a room this device has a seat in takes it
                // back rather than asking for another.
                let kept = app
                    .world()
                    .resource::<save::Store>()
                    .get::<rooms::RoomTicket>(rooms::TICKET_KEY)
                    .ok()
                    .filter(|t| t.room == code);
                let room = match kept {
                    Some(ticket) => rooms::RoomLink(Some(rooms::RoomConnection::resume(ticket))),
                    None => rooms::join_now(code, &settings),
                };
                app.insert_resource(room);
                app.insert_state(Screen::Lobby);
            }
            Err(e) => warn!("not a room code: {e}"),
        }
    }
    if let Some(code) = options.watch.as_deref() {
        match crate::net::protocol::RoomCode::parse(code) {
            Ok(code) => {
                let settings = app.world().resource::<settings::Settings>().clone();
                app.insert_resource(rooms::watch_now(code, &settings));
                app.insert_state(Screen::Lobby);
            }
            Err(e) => warn!("not a room code: {e}"),
        }
    }
    app.insert_resource(PendingPosition(options.position));
    app.insert_resource(PendingReview(options.review));
    if let Some(job) = options.capture {
        capture::install(&mut app, job);
    }
    content(&mut app);
    app.run()
}

/// Where the assets are: beside the executable (an installed or copied
/// build), in the working folder, or in this source tree (`cargo run`).
fn asset_folder() -> String {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let candidates = [
            std::env::current_exe()
                .ok()
                .and_then(|e| e.parent().map(|p| p.join("assets"))),
            std::env::current_dir().ok().map(|d| d.join("assets")),
            Some(std::path::PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets"
            ))),
        ];
        for dir in candidates.into_iter().flatten() {
            if dir.join("fonts").is_dir() {
                return dir.to_string_lossy().into_owned();
            }
        }
    }
    "assets".to_string()
}

fn load_fonts(assets: &AssetServer) -> widgets::Fonts {
    widgets::Fonts {
        ui: assets.load("fonts/ipaexg-subset.ttf"),
        koma: assets.load("fonts/ipaexm-subset.ttf"),
    }
}

/// The area the camera always shows, in world units: 1100×800 in a
/// landscape window; in a portrait one (a phone) a narrower, taller area
/// with the board on top and the buttons below it.
pub(crate) fn design_area(window: Option<&Window>) -> Vec2 {
    match window {
        Some(w) if is_portrait(w) => Vec2::new(760.0, 1300.0),
        _ => Vec2::new(1100.0, 800.0),
    }
}

pub(crate) fn is_portrait(window: &Window) -> bool {
    window.height() > window.width() * 1.05
}

/// A window narrower than this on its short side, in logical (CSS) pixels,
/// is a phone's, upright or turned.
pub(crate) const PHONE_SHORT_SIDE: f32 = 500.0;

pub(crate) fn is_phone(window: &Window) -> bool {
    window.width().min(window.height()) < PHONE_SHORT_SIDE
}

/// Whether the window is a phone's: then the UI is drawn at the CSS
/// pixel's size (not shrunk with the board), its text never under 14 px
/// and its buttons a thumb's size, and the screens scroll.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Phone(pub bool);

/// The world area a window shows: the design area, widened or heightened
/// to the window's shape.
pub(crate) fn visible_area(window: Option<&Window>) -> Vec2 {
    let design = design_area(window);
    match window {
        Some(w) if w.width() > 0.0 && w.height() > 0.0 => {
            let scale = (design.x / w.width()).max(design.y / w.height());
            Vec2::new(w.width(), w.height()) * scale
        }
        _ => design,
    }
}

fn projection(area: Vec2) -> Projection {
    Projection::Orthographic(OrthographicProjection {
        scaling_mode: bevy::camera::ScalingMode::AutoMin {
            min_width: area.x,
            min_height: area.y,
        },
        ..OrthographicProjection::default_2d()
    })
}

/// One 2D camera that always shows the design area, whatever the window's
/// size (the UI is scaled to match by `UiScale`).
fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, Msaa::Sample4, projection(design_area(None))));
}

/// On a software renderer (llvmpipe, SwiftShader: the GPU is the CPU) 4×
/// multisampling more than doubles the frame time (docs/performance.md), so
/// there the edges are left unsmoothed; a real GPU keeps them smooth. The CPU
/// opponent's search then also leaves the renderer room
/// ([`cpu::SearchPace`]).
fn fit_to_adapter(
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    mut cameras: Query<&mut Msaa, With<Camera2d>>,
    job: Option<Res<capture::ScreenshotJob>>,
    mut pace: ResMut<cpu::SearchPace>,
    mut done: Local<bool>,
) {
    let Some(adapter) = adapter else { return };
    if *done {
        return;
    }
    *done = true;
    // wgpu's DeviceType is not re-exported by Bevy: its name tells. In a
    // browser the adapter is WebGL's, named after the renderer underneath.
    let name = adapter.0.name.to_lowercase();
    let software = format!("{:?}", adapter.0.device_type) == "Cpu"
        || ["swiftshader", "llvmpipe", "softpipe"]
            .iter()
            .any(|s| name.contains(s));
    info!(
        "graphics adapter: {} ({:?}){}",
        adapter.0.name,
        adapter.0.device_type,
        if software {
            ": software, no MSAA, the search paced"
        } else {
            ""
        }
    );
    if software {
        // The renderer needs the cores the CPU opponent thinks on.
        *pace = cpu::SearchPace::ShareWithRenderer;
    }
    // The handbook's pictures are taken smooth, however slowly.
    if job.is_some_and(|j| j.is_picture()) {
        return;
    }
    if software {
        for mut msaa in &mut cameras {
            *msaa = Msaa::Off;
        }
    }
}

/// Leaving a board screen, the camera shows the design area again.
fn camera_to_design_area(mut area: ResMut<layout::CameraArea>) {
    area.set_if_neq(layout::CameraArea(None));
}

/// Turns the camera and the UI scale to the window's shape (on a phone's
/// board screen, the camera to the board: [`layout::CameraArea`]).
fn fit_to_window(
    windows: Query<Ref<Window>, With<bevy::window::PrimaryWindow>>,
    area: Res<layout::CameraArea>,
    mut cameras: Query<&mut Projection, With<Camera2d>>,
    mut scale: ResMut<UiScale>,
    mut phone: ResMut<Phone>,
) {
    for w in &windows {
        if !w.is_changed() && !area.is_changed() {
            continue;
        }
        let w = w.into_inner();
        let on_phone = is_phone(w);
        if phone.0 != on_phone {
            phone.0 = on_phone;
        }
        let ui_design = design_area(Some(w));
        let design = area.0.filter(|_| on_phone).unwrap_or(ui_design);
        for mut p in &mut cameras {
            let shown = match &*p {
                Projection::Orthographic(o) => match o.scaling_mode {
                    bevy::camera::ScalingMode::AutoMin {
                        min_width,
                        min_height,
                    } => Some(Vec2::new(min_width, min_height)),
                    _ => None,
                },
                _ => None,
            };
            if shown != Some(design) {
                *p = projection(design);
            }
        }
        // A phone's UI keeps the CSS pixel's size: shrunk with the design
        // area it would be too small to read or to tap.
        let s = if on_phone {
            1.0
        } else {
            (w.width() / ui_design.x)
                .min(w.height() / ui_design.y)
                .max(0.3)
        };
        if (scale.0 - s).abs() > 0.001 {
            scale.0 = s;
        }
    }
}
