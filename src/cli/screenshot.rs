//! `yorimichi screenshot` and `yorimichi frames`: a [`Scene`] pictured
//! into a PNG file or its frames timed (the shell does both), and the
//! scene lists the Makefile loops over.

use std::io::Write;

use bevy::math::Vec2;
use clap::Args;

use super::Outcome;
use crate::scenes::Scene;
use crate::shell::capture::ScreenshotJob;

/// `yorimichi screenshot <scene> <out.png>`, or `--list [--smoke]`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct ScreenshotArgs {
    /// The scene to render.
    #[arg(value_parser = scene(), hide_possible_values = true, required_unless_present = "list")]
    pub scene: Option<Scene>,
    /// The picture to write (a .png file).
    #[arg(value_name = "OUT.png", value_parser = png, required_unless_present = "list")]
    pub out: Option<String>,
    /// Print the handbook's scenes, one a line, instead of rendering.
    #[arg(long, conflicts_with_all = ["scene", "out"])]
    pub list: bool,
    /// With --list: only the title and each game's board (what
    /// `make screenshot-test` renders).
    #[arg(long, requires = "list")]
    pub smoke: bool,
    /// Also list the picture's buttons and colour keys, with their states
    /// and places, into this file (tab-separated).
    #[arg(long, value_name = "OUT.tsv", conflicts_with = "list")]
    pub controls: Option<String>,
    /// The window's size in logical (CSS) pixels, WIDTHxHEIGHT, optionally
    /// with the device's pixels per logical pixel: 390x844@3 is a phone held
    /// upright (under 1 draws a smaller picture of the same layout). Without it: the scene's own (1100x800, a phone scene's 390x844).
    #[arg(long, value_name = "WxH[@S]", value_parser = window_size, conflicts_with = "list")]
    pub size: Option<WindowSize>,
}

/// A window's size in logical pixels and its scale factor (`--size`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowSize {
    pub width: u32,
    pub height: u32,
    pub scale: f32,
}

impl ScreenshotArgs {
    /// The job that pictures the scene (`None` with `--list`).
    pub(crate) fn picture(&self) -> Option<ScreenshotJob> {
        let mut job = self.scene?.picture(self.out.as_deref()?);
        job.controls = self.controls.as_ref().map(Into::into);
        job.size = self
            .size
            .map(|s| (Vec2::new(s.width as f32, s.height as f32), s.scale));
        Some(job)
    }
}

/// `yorimichi frames <scene> [--seconds S]`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct FramesArgs {
    /// The scene to run.
    #[arg(value_parser = scene(), hide_possible_values = true)]
    pub scene: Scene,
    /// How long to run it: 0.5 to 600 seconds.
    #[arg(long, value_name = "S", default_value_t = 5.0, value_parser = seconds)]
    pub seconds: f32,
}

impl FramesArgs {
    pub(crate) fn timing(&self) -> ScreenshotJob {
        self.scene.timing(self.seconds)
    }
}

/// The help's list of every scene.
pub(crate) fn scene_help() -> String {
    format!("Scenes: {}", Scene::names())
}

/// Prints the handbook's scenes, or with `smoke` the smoke test's, one a line.
pub(crate) fn list(smoke: bool, out: &mut dyn Write) -> Outcome {
    let wanted = |s: &Scene| {
        if smoke {
            s.is_smoke_test()
        } else {
            s.in_gallery()
        }
    };
    for scene in Scene::ALL.iter().filter(|s| wanted(s)) {
        writeln!(out, "{}", scene.name())?;
    }
    Ok(())
}

fn scene() -> impl clap::builder::TypedValueParser<Value = Scene> {
    super::one_of(Scene::ALL, Scene::name)
}

fn png(path: &str) -> Result<String, String> {
    if path.ends_with(".png") {
        Ok(path.to_string())
    } else {
        Err("the output file must end in .png".into())
    }
}

fn seconds(text: &str) -> Result<f32, String> {
    text.parse::<f32>()
        .ok()
        .filter(|s| (0.5..=600.0).contains(s))
        .ok_or_else(|| format!("--seconds needs 0.5 to 600, not \"{text}\""))
}

fn window_size(text: &str) -> Result<WindowSize, String> {
    let bad = || {
        format!("--size needs WIDTHxHEIGHT or WIDTHxHEIGHT@SCALE, e.g. 390x844@3, not \"{text}\"")
    };
    let (dims, scale) = text.split_once('@').unwrap_or((text, "1"));
    let (w, h) = dims.split_once('x').ok_or_else(bad)?;
    let size = WindowSize {
        width: w.parse().map_err(|_| bad())?,
        height: h.parse().map_err(|_| bad())?,
        scale: scale.parse().map_err(|_| bad())?,
    };
    let fits = (200..=4000).contains(&size.width)
        && (200..=4000).contains(&size.height)
        && (0.25..=4.0).contains(&size.scale);
    if fits { Ok(size) } else { Err(bad()) }
}
