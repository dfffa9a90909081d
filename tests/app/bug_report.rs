//! The bug report: it carries the version, platform and the current
//! position, and the export button writes it where the player can copy it.
//! (HOME points at a temporary folder: `common::test_home`.)

use bevy::prelude::*;
use yorimichi::games::play::BoardTap;
use yorimichi::headless::{self, click, find};
use yorimichi::shell::save::Store;
use yorimichi::shell::screens::ExportButton;
use yorimichi::shell::{BugContext, Screen};

#[test]
fn the_report_names_the_position_and_is_written_to_a_file() {
    let (_turn, home) = crate::common::test_home();

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
    let _ = std::fs::remove_file(home.join("yorimichi-bug-report.txt"));
}
