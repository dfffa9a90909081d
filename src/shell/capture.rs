//! `yorimichi screenshot` and `yorimichi frames`: the shell's half of a
//! scene. It steps time a fixed 1/60 s per frame (so that animations are
//! caught at the same moment every run), counts frames, and at the job's
//! frame saves a picture or starts timing the frames. What the scene shows
//! is staged by systems in `CaptureSet::Stage` (the scenes module), which
//! run between the count and the shot. Scenes never touch the player's
//! saves.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy::text::TextLayoutInfo;
use bevy::time::TimeUpdateStrategy;
use bevy::ui::CalculatedClip;
use bevy::window::PrimaryWindow;

use super::Screen;
use super::save::Store;
use super::screens::GameCard;
use super::widgets::{ButtonLook, ColourKey, Fonts};

/// The order of a captured frame: count it, stage the scene, then shoot.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum CaptureSet {
    Count,
    Stage,
    Shoot,
}

/// Frames to wait for fonts and the first layout before a scene acts.
pub(crate) const SETTLE_FRAMES: u32 = 40;

/// One scene to picture or time.
#[derive(Resource, Clone, Debug)]
pub struct ScreenshotJob {
    pub scene: String,
    pub path: PathBuf,
    /// Frames drawn so far.
    pub frame: u32,
    /// The frame the picture is taken at (timing starts 20 frames before).
    pub shoot_at: u32,
    requested_at: Option<u32>,
    /// Where to list the picture's buttons and colour keys, with their
    /// states and places (`screenshot --controls`), for the check that a
    /// chosen option reads without its colour.
    pub controls: Option<PathBuf>,
    /// The window's size in logical pixels and its pixels per logical pixel
    /// (`screenshot --size`); `None`: the scene's own.
    pub size: Option<(Vec2, f32)>,
    /// `yorimichi frames`: instead of a picture, time this many seconds of
    /// frames from the moment the picture would be taken.
    measure: Option<f32>,
}

impl ScreenshotJob {
    /// The window a sized job opens (`None`: the app's own).
    pub(crate) fn window_resolution(&self) -> Option<bevy::window::WindowResolution> {
        let (size, scale) = self.size?;
        let physical = (size * scale).round();
        Some(
            bevy::window::WindowResolution::new(physical.x as u32, physical.y as u32)
                .with_scale_factor_override(scale),
        )
    }

    /// A picture of `scene`, saved to `path`, taken `extra_frames` after
    /// the scene has settled.
    pub fn new(scene: &str, path: impl Into<PathBuf>, extra_frames: u32) -> Self {
        ScreenshotJob {
            scene: scene.to_string(),
            path: path.into(),
            frame: 0,
            shoot_at: SETTLE_FRAMES + extra_frames,
            requested_at: None,
            controls: None,
            size: None,
            measure: None,
        }
    }

    /// A job that times `seconds` of the scene's frames (`yorimichi frames`).
    pub(crate) fn measure(scene: &str, seconds: f32, extra_frames: u32) -> Self {
        ScreenshotJob {
            measure: Some(seconds),
            ..ScreenshotJob::new(scene, "", extra_frames)
        }
    }

    /// A picture is wanted (not frame times).
    pub(crate) fn is_picture(&self) -> bool {
        self.measure.is_none()
    }
}

/// Frame times of `yorimichi frames`: the wall-clock time between frames
/// while the scene runs (animations still step 1/60 s a frame, so the same
/// scene does the same work every run).
#[derive(Resource, Debug)]
struct FrameClock {
    since: Instant,
    last: Instant,
    /// (seconds since the scene began, frame time in ms)
    samples: Vec<(f64, f64)>,
    seconds: f32,
}

/// When the program started (for the time to the first frame).
#[derive(Resource, Clone, Copy, Debug)]
pub(crate) struct LaunchedAt(pub Instant);

pub(crate) fn install(app: &mut App, job: ScreenshotJob) {
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )))
    // A fresh store in a temporary folder: the scenes look as they do for a
    // player with saves on, and never touch the player's saves.
    .insert_resource(scratch_store())
    .insert_resource(job)
    .configure_sets(
        Update,
        (CaptureSet::Count, CaptureSet::Stage, CaptureSet::Shoot).chain(),
    )
    .add_systems(Update, count_frame.in_set(CaptureSet::Count))
    .add_systems(
        Update,
        (shoot, report_first_frame, measure_frames)
            .chain()
            .in_set(CaptureSet::Shoot),
    );
}

fn count_frame(mut job: ResMut<ScreenshotJob>) {
    job.frame += 1;
}

/// Takes the picture at the job's frame and exits once it is written, or
/// starts the frame clock there.
fn shoot(
    mut job: ResMut<ScreenshotJob>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
    listing: Listing,
) {
    let f = job.frame;
    if let Some(seconds) = job.measure {
        // Timing starts where the picture would be taken: the moment the
        // scene shows what it is for (a capture's rings, a throw in flight).
        if f == job.shoot_at.saturating_sub(20) {
            let now = Instant::now();
            commands.insert_resource(FrameClock {
                since: now,
                last: now,
                samples: Vec::new(),
                seconds,
            });
        }
        return;
    }
    if f == job.shoot_at {
        let path = job.path.clone();
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path));
        job.requested_at = Some(f);
        if let Some(list) = &job.controls
            && let Err(e) = std::fs::write(list, listing.write())
        {
            error!("{}: {e}", list.display());
            exit.write(AppExit::error());
        }
    }
    if let Some(at) = job.requested_at {
        if job.path.exists() && f > at + 2 {
            exit.write(AppExit::Success);
        } else if f > at + 600 {
            error!("the screenshot was not written");
            exit.write(AppExit::error());
        }
    }
}

/// What the controls list reads of a button, a colour key or a card.
type ControlOnScreen = (
    Entity,
    Option<&'static ButtonLook>,
    Option<&'static ColourKey>,
    Has<GameCard>,
    Option<&'static ChildOf>,
    Placed,
);

/// What the controls list reads of a text.
type TextOnScreen = (
    Entity,
    &'static Text,
    &'static TextFont,
    &'static TextLayoutInfo,
    Option<&'static ChildOf>,
    Placed,
);

/// Where a node lies on the screen and whether it shows.
type Placed = (
    &'static ComputedNode,
    &'static UiGlobalTransform,
    &'static InheritedVisibility,
    Option<&'static CalculatedClip>,
);

/// Everything `screenshot --controls` lists (and the web page's
/// `data-controls`).
#[derive(SystemParam)]
pub(crate) struct Listing<'w, 's> {
    controls: Query<'w, 's, ControlOnScreen>,
    texts: Query<'w, 's, TextOnScreen>,
    children: Query<'w, 's, &'static Children>,
    inside_control: Query<'w, 's, (), Or<(With<ButtonLook>, With<ColourKey>)>>,
    parents: Query<'w, 's, &'static ChildOf>,
    windows: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
    ui_scale: Res<'w, UiScale>,
}

/// A node's box in the picture's pixels, cut to what its scrolling or
/// clipping ancestors show, and whether they cut it; `None` when nothing
/// of it shows.
fn shown_box(
    (node, transform, visible, clip): (
        &ComputedNode,
        &UiGlobalTransform,
        &InheritedVisibility,
        Option<&CalculatedClip>,
    ),
) -> Option<(Rect, bool)> {
    let size = node.size();
    if !visible.get() || size.x < 1.0 || size.y < 1.0 {
        return None;
    }
    let whole = Rect::from_center_size(transform.translation, size);
    let rect = clip.map_or(whole, |c| whole.intersect(c.clip));
    let cut = rect.width() < whole.width() - 0.5 || rect.height() < whole.height() - 0.5;
    (rect.width() >= 1.0 && rect.height() >= 1.0).then_some((rect, cut))
}

impl Listing<'_, '_> {
    /// The first text at or under `entity`.
    fn text_under(&self, entity: Entity) -> Option<Entity> {
        if self.texts.contains(entity) {
            return Some(entity);
        }
        let children = self.children.get(entity).ok()?;
        children.iter().find_map(|c| self.text_under(c))
    }

    /// A text that is a button's caption or a colour key's mark (listed
    /// with its control).
    fn in_control(&self, mut entity: Entity) -> bool {
        while let Ok(parent) = self.parents.get(entity) {
            entity = parent.parent();
            if self.inside_control.contains(entity) {
                return true;
            }
        }
        false
    }

    /// The font size, the laid-out text's width and height (logical
    /// pixels) and the text itself of the text `entity`.
    fn text_columns(&self, entity: Option<Entity>) -> String {
        let Some((_, text, font, layout, _, _)) = entity.and_then(|e| self.texts.get(e).ok())
        else {
            return "0\t0\t0\t".into();
        };
        let font_px = match font.font_size {
            FontSize::Px(px) => px * self.ui_scale.0,
            _ => 0.0,
        };
        // Laid out in the UI's own pixels, before the UI scale.
        let laid = layout.size * self.ui_scale.0;
        let words: String = text
            .0
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        format!("{font_px:.1}\t{:.1}\t{:.1}\t{words}", laid.x, laid.y)
    }

    /// One line a visible button, colour key, game card or text,
    /// tab-separated: what it is (`action`, `primary`, `choice`, `toggle`,
    /// `colour`, `card`: a game list's card, or `text`), whether it is
    /// chosen (a colour key: its colour's number), its group (the parent
    /// entity: the options of one group share it), its box in the
    /// picture's pixels (left, top, right, bottom; what shows of it in a
    /// scrolling list), the picture's pixels per logical pixel, and of its
    /// text (a button's caption): the font size, the laid-out width and
    /// height in logical pixels, and the words.
    pub(crate) fn write(&self) -> String {
        let window_scale = self
            .windows
            .single()
            .map_or(1.0, Window::scale_factor)
            .max(0.1);
        let mut out = String::from(
            "kind\tstate\tgroup\tleft\ttop\tright\tbottom\tscale\tclipped\tfont\ttext_w\ttext_h\tlabel\n",
        );
        let mut line = |kind: &str,
                        state: u32,
                        group: u64,
                        (rect, cut): (Rect, bool),
                        text: String| {
            let _ = writeln!(
                out,
                "{kind}\t{state}\t{group}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t{window_scale}\t{}\t{text}",
                rect.min.x,
                rect.min.y,
                rect.max.x,
                rect.max.y,
                u8::from(cut),
            );
        };
        if let Ok(window) = self.windows.single() {
            let size = Vec2::new(
                window.physical_width() as f32,
                window.physical_height() as f32,
            );
            line(
                "window",
                0,
                0,
                (Rect::from_corners(Vec2::ZERO, size), false),
                "0\t0\t0\t".into(),
            );
        }
        for (entity, look, key, card, parent, placed) in &self.controls {
            let (kind, state) = match (look, key) {
                (Some(ButtonLook::Action), _) => ("action", 0),
                (Some(ButtonLook::Primary), _) => ("primary", 0),
                (Some(ButtonLook::Choice { chosen }), _) => ("choice", u32::from(*chosen)),
                (Some(ButtonLook::Toggle { on }), _) => ("toggle", u32::from(*on)),
                (None, Some(ColourKey(n))) => ("colour", u32::from(*n)),
                (None, None) if card => ("card", 0),
                (None, None) => continue,
            };
            let Some(rect) = shown_box(placed) else {
                continue;
            };
            let caption = look.and_then(|_| self.text_under(entity));
            let group = parent.map_or(entity, ChildOf::parent).to_bits();
            line(kind, state, group, rect, self.text_columns(caption));
        }
        for (entity, _, _, _, parent, placed) in &self.texts {
            if self.in_control(entity) {
                continue;
            }
            let Some(rect) = shown_box(placed) else {
                continue;
            };
            let group = parent.map_or(entity, ChildOf::parent).to_bits();
            line("text", 0, group, rect, self.text_columns(Some(entity)));
        }
        out
    }
}

fn measure_frames(
    clock: Option<ResMut<FrameClock>>,
    job: Res<ScreenshotJob>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(mut clock) = clock else { return };
    let now = Instant::now();
    let dt = now.duration_since(clock.last).as_secs_f64() * 1000.0;
    clock.last = now;
    let since = now.duration_since(clock.since).as_secs_f64();
    clock.samples.push((since, dt));
    if since < f64::from(clock.seconds) {
        return;
    }
    let mut s = clock.samples.clone();
    s.sort_by(|a, b| a.1.total_cmp(&b.1));
    let at = |q: f64| s[((s.len() - 1) as f64 * q).round() as usize].1;
    // When the slowest frames came tells what caused them (a move played,
    // a search starting): printed as "ms@s".
    let slowest: Vec<String> = s
        .iter()
        .rev()
        .take(3)
        .map(|(t, ms)| format!("{ms:.1}@{t:.2}"))
        .collect();
    // A closed pipe (`yorimichi frames … | head`) loses the line, quietly.
    let _ = writeln!(
        std::io::stdout(),
        "{}: {} frames in {:.1} s · median {:.1} ms · 99th percentile {:.1} ms · longest {:.1} ms (slowest ms@s: {})",
        job.scene,
        s.len(),
        clock.seconds,
        at(0.5),
        at(0.99),
        at(1.0),
        slowest.join(" ")
    );
    exit.write(AppExit::Success);
}

/// Prints how long the program took to a title screen that can be drawn
/// whole: the first frame on it once its fonts have loaded.
fn report_first_frame(
    mut commands: Commands,
    launched: Option<Res<LaunchedAt>>,
    screen: Res<State<Screen>>,
    job: Res<ScreenshotJob>,
    fonts: Res<Fonts>,
    assets: Res<AssetServer>,
    mut done: Local<bool>,
) {
    if *done || job.measure.is_none() || job.scene != "title" || *screen.get() != Screen::Title {
        return;
    }
    if !assets.is_loaded_with_dependencies(&fonts.ui)
        || !assets.is_loaded_with_dependencies(&fonts.koma)
    {
        return;
    }
    *done = true;
    // Timed when that frame has been drawn and read back: a screenshot of it.
    let started = launched.map(|l| l.0);
    commands
        .spawn(Screenshot::primary_window())
        .observe(move |_: On<ScreenshotCaptured>| {
            if let Some(t) = started {
                let _ = writeln!(
                    std::io::stdout(),
                    "title screen drawn {:.2} s after the program started",
                    t.elapsed().as_secs_f64()
                );
            }
        });
}

#[cfg(target_arch = "wasm32")]
fn scratch_store() -> Store {
    Store::new(None)
}

#[cfg(not(target_arch = "wasm32"))]
fn scratch_store() -> Store {
    let dir = std::env::temp_dir().join(format!("yorimichi-screenshot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    match std::fs::create_dir_all(&dir) {
        Ok(()) => Store::new(Some(bevy_pkv::PkvStore::new_in_dir(&dir))),
        Err(_) => Store::new(None),
    }
}
