//! Web page glue: reports the app's loading to the page's loading bar and
//! hides it when the fonts and sounds are in, and mirrors
//! the current screen and move count into `<body data-screen=… data-ply=…>`
//! (and whether saves work: `data-saves`) so that the browser test (and page
//! scripts) can tell where the player is.

use bevy::asset::LoadState;
use bevy::prelude::*;

use super::audio::SoundBank;
use super::widgets::Fonts;
use super::{GameProgress, Screen, StartOptions};
use crate::rules::data::GameId;

/// The page's `<body>`, where the app leaves its `data-*` marks.
pub(crate) fn page_body() -> Option<web_sys::HtmlElement> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, dice_fingerprint).add_systems(
        Update,
        (
            report_loading,
            mirror_screen,
            mirror_progress,
            mirror_saves,
            mirror_slices,
            mirror_room,
            mirror_controls,
        ),
    );
}

/// The app's share of the page's loading bar: `data-load="loaded/total"`
/// over the fonts and sounds (the level files are compiled in), and
/// `data-load-failed` with the path of one that could not be loaded. The
/// page hides its loading box when all are in: the first screen is then
/// drawn with its letters.
fn report_loading(
    assets: Res<AssetServer>,
    fonts: Res<Fonts>,
    sounds: Option<Res<SoundBank>>,
    mut reported: Local<Option<(usize, usize)>>,
) {
    // Once everything is in, there is nothing more to report.
    let Some(sounds) = sounds.filter(|_| !reported.is_some_and(|(l, t)| l == t)) else {
        return;
    };
    let ids: Vec<_> = [fonts.ui.id().untyped(), fonts.koma.id().untyped()]
        .into_iter()
        .chain(sounds.ids())
        .collect();
    let mut loaded = 0;
    for id in &ids {
        match assets.get_load_state(*id) {
            Some(LoadState::Loaded) => loaded += 1,
            Some(LoadState::Failed(_)) => {
                if let Some(body) = page_body() {
                    let path = assets
                        .get_path(*id)
                        .map_or_else(|| "a file".to_string(), |p| format!("assets/{p}"));
                    let _ = body.set_attribute("data-load-failed", &path);
                }
                return;
            }
            _ => {}
        }
    }
    let now = (loaded, ids.len());
    if *reported == Some(now) {
        return;
    }
    *reported = Some(now);
    if let Some(body) = page_body() {
        let _ = body.set_attribute("data-load", &format!("{loaded}/{}", ids.len()));
    }
}

/// `data-search-slice`: the longest slice of thinking a frame has held so
/// far, in milliseconds (the search must yield to the page);
/// `data-search-total` all the thinking so far, and `data-search-slices`
/// how many frames it was spread over.
fn mirror_slices(slices: Res<super::cpu::ThinkingSlices>) {
    if !slices.is_changed() {
        return;
    }
    if let Some(body) = page_body() {
        let _ = body.set_attribute("data-search-slice", &format!("{:.1}", slices.longest_ms));
        let _ = body.set_attribute("data-search-total", &format!("{:.1}", slices.total_ms));
        let _ = body.set_attribute("data-search-slices", &slices.slices.to_string());
    }
}

/// `data-saves="on"` or `"off"`: whether the page's storage keeps the games
/// (off when localStorage is missing, blocked or full).
fn mirror_saves(store: Res<super::save::Store>) {
    if !store.is_changed() {
        return;
    }
    if let Some(body) = page_body() {
        let state = if store.saves_work() { "on" } else { "off" };
        let _ = body.set_attribute("data-saves", state);
    }
}

/// With `?dice=1`, the page gets `data-dice`: six fixed throws of the
/// まわり将棋 koma-dice simulated here, so the browser test can check the
/// web build throws exactly as the native one does.
fn dice_fingerprint() {
    let Some(body) = page_body() else {
        return;
    };
    if body.get_attribute("data-dice-check").is_some() {
        let _ = body.set_attribute("data-dice", &crate::rules::mawari::dice::fingerprint());
    }
}

/// With `?controls=1`, the page gets `data-controls`: what
/// `screenshot --controls` lists (every button and text with its box in
/// device pixels), renewed a few times a second, so that the browser test
/// taps a button by its words and reads what a screen says.
fn mirror_controls(
    listing: super::capture::Listing,
    mut checked: Local<Option<bool>>,
    mut frame: Local<u32>,
) {
    let asked = *checked.get_or_insert_with(|| {
        page_body().is_some_and(|b| b.get_attribute("data-controls-check").is_some())
    });
    if !asked {
        return;
    }
    *frame += 1;
    if frame.is_multiple_of(10)
        && let Some(body) = page_body()
    {
        let _ = body.set_attribute("data-controls", &listing.write());
    }
}

/// The page's start request: `index.html` copies `?game=` and
/// `?position=` into `<body data-start-game data-start-position>`. An
/// unknown game is ignored (the title opens); a bad position is reported
/// when the game starts.
pub(crate) fn start_options(mut options: StartOptions) -> StartOptions {
    let Some(body) = page_body() else {
        return options;
    };
    if let Some(game) = body
        .get_attribute("data-start-game")
        .and_then(|id| GameId::from_id(&id))
        .filter(|g| g.is_playable())
    {
        options.game = Some(game);
        options.position = body.get_attribute("data-start-position");
        options.review = body.get_attribute("data-start-review");
    }
    options.join = body.get_attribute("data-start-room");
    options.watch = body.get_attribute("data-start-watch");
    options
}

/// The room server of this page: `?server=` if given, else the server
/// that serves the page (`yorimichi serve --web`), on the same host.
pub(crate) fn page_room_server() -> Option<String> {
    if let Some(server) = page_body().and_then(|b| b.get_attribute("data-room-server")) {
        return Some(server);
    }
    let location = web_sys::window()?.location();
    let host = location.host().ok()?;
    let scheme = if location.protocol().ok()? == "https:" {
        "wss"
    } else {
        "ws"
    };
    Some(format!("{scheme}://{host}/ws"))
}

/// The page's address without its query or fragment, for a room's link
/// (a link that also named a game would open that game's setup).
pub(crate) fn page_address() -> Option<String> {
    let location = web_sys::window()?.location();
    Some(format!(
        "{}{}",
        location.origin().ok()?,
        location.pathname().ok()?
    ))
}

fn mirror_screen(screen: Res<State<Screen>>, mut shown: Local<Option<Screen>>) {
    let now = *screen.get();
    if *shown == Some(now) {
        return;
    }
    *shown = Some(now);
    if let Some(body) = page_body() {
        let _ = body.set_attribute("data-screen", &format!("{now:?}"));
    }
}

fn mirror_progress(progress: Res<GameProgress>) {
    if !progress.is_changed() {
        return;
    }
    if let Some(body) = page_body() {
        let _ = body.set_attribute("data-ply", &progress.ply.to_string());
        for (name, value) in [
            ("data-position", &progress.position),
            ("data-players", &progress.players),
        ] {
            let _ = match value {
                Some(text) => body.set_attribute(name, text),
                None => body.remove_attribute(name),
            };
        }
    }
}

/// The room this page is in: `data-room` (its code) and `data-room-events`
/// (how many of its events the page has), for the browser test and page
/// scripts.
fn mirror_room(room: Res<super::rooms::RoomLink>, mut shown: Local<Option<(String, usize)>>) {
    if !room.is_changed() {
        return;
    }
    let now = room
        .0
        .as_ref()
        .and_then(|c| Some((c.view.as_ref()?.room.as_str().to_string(), c.events.len())));
    if *shown == now {
        return;
    }
    *shown = now.clone();
    if let Some(body) = page_body() {
        match now {
            Some((code, events)) => {
                let _ = body.set_attribute("data-room", &code);
                let _ = body.set_attribute("data-room-events", &events.to_string());
            }
            None => {
                let _ = body.remove_attribute("data-room");
                let _ = body.remove_attribute("data-room-events");
            }
        }
    }
}
