//! A misspelt field in a level file is an error that names the file, the
//! place and the field, never a silent default (a try-it step whose
//! `expect:` is misspelt would otherwise become a step to read). One test
//! per kind of level data.

use yorimichi::rules::board::BoardGraph;
use yorimichi::rules::data::{self, LevelFile};
use yorimichi::rules::levels::LevelError;
use yorimichi::rules::mawari::levels as mawari_levels;

/// The file's text with the first `field:` spelt `wrong:`.
fn misspelt(text: &str, field: &str, wrong: &str) -> String {
    let at = text
        .find(&format!("{field}:"))
        .unwrap_or_else(|| panic!("no field {field} to misspell"));
    format!("{}{wrong}:{}", &text[..at], &text[at + field.len() + 1..])
}

fn assert_names_typo(result: Result<impl std::fmt::Debug, LevelError>, file: &str, wrong: &str) {
    let err = result.expect_err("a misspelt field must be refused");
    let message = err.to_string();
    assert_eq!(err.file, file, "{message}");
    assert!(message.contains(wrong), "{message}");
    assert!(err.place.starts_with("line "), "{message}");
}

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn a_misspelt_try_it_move_is_refused() {
    let f = data::HASAMI_TUTORIAL;
    let text = misspelt(f.text, "expect", "expct");
    assert_names_typo(data::hasami_tutorial_from(f.path, &text), f.path, "expct");
}

#[test]
fn a_misspelt_move_field_is_refused() {
    let f = data::CHUSHOGI_LION_LESSONS;
    let text = misspelt(f.text, "via", "vai");
    assert_names_typo(data::chushogi_tutorial_from(f.path, &text), f.path, "vai");
}

#[test]
fn a_misspelt_problem_level_is_refused() {
    let f = data::CHUSHOGI_PROBLEMS;
    let text = misspelt(f.text, "level", "levle");
    assert_names_typo(data::chushogi_tutorial_from(f.path, &text), f.path, "levle");
}

#[test]
fn a_misspelt_preset_rule_is_refused() {
    let f = data::HASAMI_PRESETS;
    let text = misspelt(f.text, "diagonal", "diagnoal");
    assert_names_typo(data::hasami_presets_from(f.path, &text), f.path, "diagnoal");
}

#[test]
fn a_misspelt_cpu_level_setting_is_refused() {
    let f: LevelFile = data::FOXGEESE_PRESETS;
    let text = misspelt(f.text, "blunder_rate", "blunder_rat");
    assert_names_typo(
        data::foxgeese_presets_from(f.path, &text),
        f.path,
        "blunder_rat",
    );
}

#[test]
fn a_misspelt_rules_text_field_is_refused() {
    let path = "levels/rules/hasami.ron";
    let text = misspelt(&read(path), "body", "bdy");
    assert_names_typo(data::rules_text_from(path, &text), path, "bdy");
}

#[test]
fn a_misspelt_board_field_is_refused() {
    let f = &data::BOARD_FILES[3];
    let text = misspelt(f.text, "lines", "lnes");
    let err = BoardGraph::from_ron(f.path, &text).expect_err("a misspelt field must be refused");
    assert_eq!(err.file, f.path);
    assert!(err.to_string().contains("lnes"), "{err}");
}

#[test]
fn a_misspelt_mawari_preset_rule_is_refused() {
    let path = "levels/presets/mawari.ron";
    let text = misspelt(&read(path), "nakayoshi", "nakayosi");
    assert_names_typo(mawari_levels::presets_from(path, &text), path, "nakayosi");
}

#[test]
fn a_misspelt_mawari_lesson_field_is_refused() {
    let presets = mawari_levels::presets().expect("the presets load");
    let path = "levels/tutorials/mawari.ron";
    let text = misspelt(&read(path), "poses", "poeses");
    assert_names_typo(
        mawari_levels::lesson_from(path, &text, &presets),
        path,
        "poeses",
    );
}

#[test]
fn a_misspelt_mawari_picture_practice_or_stage_field_is_refused() {
    let presets = mawari_levels::presets().expect("the presets load");
    let path = "levels/tutorials/mawari.ron";
    for (field, wrong) in [
        ("thrown", "thrwn"),
        ("toss", "tos"),
        ("practice", "practise"),
        ("throws", "throw"),
        ("local", "locale"),
        ("keima_push", "keima_pus"),
        ("end", "ending"),
    ] {
        let text = misspelt(&read(path), field, wrong);
        assert_names_typo(
            mawari_levels::lesson_from(path, &text, &presets),
            path,
            wrong,
        );
    }
}

#[test]
fn the_files_as_they_are_load() {
    // The misspelling is what the tests above refuse, not the file.
    assert!(data::hasami_tutorial().is_ok());
    assert!(data::chushogi_lessons().is_ok());
    assert!(data::hasami_presets().is_ok());
    assert!(data::foxgeese_presets().is_ok());
    assert!(mawari_levels::presets().is_ok());
    assert!(mawari_levels::lesson().is_ok());
    for f in data::BOARD_FILES {
        assert!(BoardGraph::from_ron(f.path, f.text).is_ok(), "{}", f.path);
    }
}
