//! Helpers the app-level tests share: screens, settling the play screen,
//! and comparing the pieces on screen with the rules position.
#![allow(dead_code)]

use std::time::Duration;

use bevy::prelude::*;
use bevy_pkv::PkvStore;
use yorimichi::app::Screen;
use yorimichi::app::save::Store;
use yorimichi::app::screens::CardButton;
use yorimichi::games::play::{PieceView, PlayUi};
use yorimichi::games::session::{Match, Playable};
use yorimichi::rules::game::Side;

pub fn temp_store(name: &str) -> (Store, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("yorimichi-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    (Store::new(Some(PkvStore::new_in_dir(&dir))), dir)
}

pub fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

pub fn card(app: &mut App, which: CardButton) -> Option<Entity> {
    let mut q = app.world_mut().query::<(Entity, &CardButton)>();
    q.iter(app.world())
        .find(|(_, c)| **c == which)
        .map(|(e, _)| e)
}

/// Runs frames until animations are over and no CPU is to move.
pub fn settle<G: Playable>(app: &mut App) {
    for _ in 0..2000 {
        app.update();
        let busy = {
            let ui = app.world().resource::<PlayUi<G>>();
            let m = app.world().resource::<Match<G>>();
            let cpu_to_move = m.setup.is_cpu(m.game.side_to_move(m.record.current()))
                && m.record.outcome(&m.game).is_none();
            ui.is_settling() || cpu_to_move
        } || !still(app);
        if !busy || screen(app) != Screen::Play {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("the play screen did not settle");
}

/// Whether no animation (tween or short-lived marker) is running.
pub fn still(app: &mut App) -> bool {
    use yorimichi::app::anim::{Lifetime, Tween};
    let mut q = app
        .world_mut()
        .query_filtered::<(), Or<(With<Tween>, With<Lifetime>)>>();
    q.iter(app.world()).next().is_none()
}

/// The pieces on screen are exactly the pieces of the rules position.
pub fn assert_view_matches_rules<G: Playable>(app: &mut App) {
    let mut q = app.world_mut().query::<&PieceView>();
    let mut shown: Vec<(usize, Side)> = q.iter(app.world()).map(|p| (p.point, p.side)).collect();
    shown.sort_by_key(|(p, _)| *p);
    let m = app.world().resource::<Match<G>>();
    let pos = m.record.current();
    let expected: Vec<(usize, Side)> = (0..m.game.graph().len())
        .filter_map(|p| m.game.piece_at(pos, p).map(|s| (p, s)))
        .collect();
    assert_eq!(
        shown,
        expected,
        "view and rules disagree at ply {}",
        m.record.ply()
    );
}
