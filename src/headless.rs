//! The app without window, renderer or audio, for tests and soak runs:
//! time advances a fixed step per update, and clicks are delivered to the
//! same observers a real pointer reaches.

use std::time::Duration;

use bevy::camera::NormalizedRenderTarget;
use bevy::picking::backend::HitData;
use bevy::picking::events::{Click, Pointer};
use bevy::picking::pointer::{Location, PointerButton, PointerId};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;

use crate::shell::save::Store;
use crate::shell::settings::Settings;
use crate::shell::widgets::Fonts;

/// A headless app with the shell and every game. `store` decides where saves go.
pub fn app(store: Store) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        AssetPlugin::default(),
        bevy::input::InputPlugin,
    ))
    .init_asset::<Mesh>()
    .init_asset::<ColorMaterial>()
    .init_asset::<Font>()
    .init_resource::<UiScale>()
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )))
    .insert_resource(Fonts::default())
    .insert_resource(Settings::default())
    .insert_resource(store)
    .add_plugins(crate::plugin);
    app
}

/// Delivers a primary-button click to `entity`'s observers.
pub fn click(app: &mut App, entity: Entity) {
    let location = Location {
        target: NormalizedRenderTarget::None {
            width: 1,
            height: 1,
        },
        position: Vec2::ZERO,
    };
    let event = Click {
        button: PointerButton::Primary,
        hit: HitData::new(Entity::PLACEHOLDER, 0.0, None, None),
        duration: Duration::from_millis(80),
        count: 1,
    };
    app.world_mut()
        .trigger(Pointer::new(PointerId::Mouse, location, event, entity));
    app.update();
}

/// The one entity with component `C`.
pub fn find<C: Component>(app: &mut App) -> Option<Entity> {
    let mut q = app.world_mut().query_filtered::<Entity, With<C>>();
    q.iter(app.world()).next()
}
