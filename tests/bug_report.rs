//! The bug report: it carries the version, platform and the current
//! position, and the export button writes it where the player can copy it.
//! (A test binary of its own: it points HOME at a temporary folder.)

use bevy::prelude::*;
use yorimichi::app::headless::{self, click, find};
use yorimichi::app::save::Store;
use yorimichi::app::screens::ExportButton;
use yorimichi::app::{BugContext, Screen};
use yorimichi::games::play::BoardTap;

#[test]
fn the_report_names_the_position_and_is_written_to_a_file() {
    let home = std::env::temp_dir().join(format!("yorimichi-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    // SAFETY: this test binary has one test, so no other thread reads the
    // environment while it changes.
    unsafe { std::env::set_var("HOME", &home) };

    let mut app = headless::app(Store::new(None));
    app.update();
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Setup);
    app.update();
    let begin = find::<yorimichi::games::setup::BeginButton>(&mut app).unwrap();
    click(&mut app, begin);
    app.update();
    for _ in 0..5 {
        app.update();
    }
    // 5九 → 5五.
    app.world_mut().write_message(BoardTap(76));
    app.update();
    app.world_mut().write_message(BoardTap(40));
    app.update();
    let context = app.world().resource::<BugContext>().0.clone();
    assert!(
        context.contains("game: hasami") && context.contains("moves: 1"),
        "{context}"
    );
    assert!(
        context.contains("....F...."),
        "the position diagram is in the report: {context}"
    );

    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::BugReport);
    app.update();
    let export = find::<ExportButton>(&mut app).expect("an export button");
    click(&mut app, export);
    let written =
        std::fs::read_to_string(home.join("yorimichi-bug-report.txt")).expect("the report file");
    assert!(written.starts_with("Yorimichi ver "), "{written}");
    assert!(
        written.contains("platform: ") && written.contains("game: hasami"),
        "{written}"
    );
    let _ = std::fs::remove_dir_all(&home);
}
