//! The room screen's scene: a room made for real, on a room server
//! started for the picture (in a build with the server; without it the
//! screen says the server cannot be reached).

use bevy::prelude::*;

use crate::games::remote::room_plan;
use crate::games::session::{GRACE_SECONDS, MatchSetup, Opponent};
use crate::rules::game::Side;
use crate::rules::hasami::{Hasami, HasamiRules};
use crate::shell::Screen;
use crate::shell::i18n::Lang;
use crate::shell::rooms::{RoomConnection, RoomLink};

/// The server the scene's room is on: kept running while the app does.
#[cfg(feature = "server")]
#[derive(Resource)]
struct SceneServer(#[allow(dead_code)] crate::server::Running);

pub(super) fn make_room(commands: &mut Commands, next: &mut NextState<Screen>) {
    let setup = MatchSetup::new(
        Opponent::Remote,
        Side::First,
        "standard",
        HasamiRules::STANDARD,
    );
    let Ok(plan) = room_plan::<Hasami>(&setup, GRACE_SECONDS, true, None, Lang::Ja) else {
        return;
    };
    let url =
        scene_server(commands).unwrap_or_else(|| crate::net::link::DEFAULT_SERVER.to_string());
    commands.insert_resource(RoomLink(Some(RoomConnection::create(url, plan))));
    next.set(Screen::Lobby);
}

#[cfg(feature = "server")]
fn scene_server(commands: &mut Commands) -> Option<String> {
    let db = std::env::temp_dir().join(format!("yorimichi-scene-{}.sqlite3", std::process::id()));
    let running = crate::server::start(crate::server::ServeOptions {
        listen: "127.0.0.1:0".parse().ok()?,
        db,
        web: None,
        joins_per_minute: 60,
        print_address: false,
        lan: false,
        // As a home's server started with `serve --lan` tells its devices
        // (the room screen then shows its join link as a QR code); the
        // picture's server listens on the loopback alone.
        announce: Some(std::net::Ipv4Addr::new(192, 168, 1, 23).into()),
        any_clock: false,
    })
    .ok()?;
    let url = running.url();
    commands.insert_resource(SceneServer(running));
    Some(url)
}

#[cfg(not(feature = "server"))]
fn scene_server(_commands: &mut Commands) -> Option<String> {
    None
}
