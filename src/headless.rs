//! The app without window, renderer or audio, for tests and soak runs:
//! time advances a fixed step per update, and clicks are delivered to the
//! same observers a real pointer reaches.

use std::time::Duration;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;

use crate::shell::keys::click_on;

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
    .init_asset::<Image>()
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
    app.world_mut().trigger(click_on(entity));
    app.update();
}

/// The one entity with component `C`.
pub fn find<C: Component>(app: &mut App) -> Option<Entity> {
    let mut q = app.world_mut().query_filtered::<Entity, With<C>>();
    q.iter(app.world()).next()
}
