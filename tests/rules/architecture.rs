//! The code's layout holds: the rules never name Bevy (so they run in the
//! engine, the command line and the tests alike), and the shell never names
//! the games (so it can be read and changed without them).

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    assert!(!found.is_empty(), "no Rust files under {}", dir.display());
    found
}

/// Every line of the files under `src/<folder>` that contains one of `words`.
fn lines_naming(folder: &str, words: &[&str]) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(folder);
    let mut hits = Vec::new();
    for file in rust_files(&dir) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            if words.iter().any(|w| line.contains(w)) {
                hits.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    hits
}

#[test]
fn the_rules_never_name_bevy() {
    let hits = lines_naming("rules", &["bevy"]);
    assert!(hits.is_empty(), "the rules name Bevy:\n{}", hits.join("\n"));
}

#[test]
fn the_rooms_and_their_server_never_name_bevy_or_the_screens() {
    for folder in ["net", "server"] {
        let hits = lines_naming(folder, &["bevy", "crate::games", "crate::shell"]);
        assert!(
            hits.is_empty(),
            "src/{folder} names Bevy or the screens:\n{}",
            hits.join("\n")
        );
    }
}

#[test]
fn the_shell_never_names_the_games() {
    let hits = lines_naming("shell", &["crate::games", "games::", "crate::scenes"]);
    assert!(
        hits.is_empty(),
        "the shell names the games:\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_checks_see_what_they_look_for() {
    // The same search finds the games where they are named.
    assert!(!lines_naming("scenes", &["crate::games"]).is_empty());
    assert!(!lines_naming("games", &["bevy"]).is_empty());
}
