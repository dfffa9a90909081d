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

/// The words that, in a file's opening doc comment, say why it is longer
/// than [`LONGEST`] lines.
const LONG_BECAUSE: &str = "Long because:";

/// A source file longer than this is split where it has parts, or says at
/// its top why it is one piece.
const LONGEST: usize = 1000;

/// The files under `src/` and `tests/` longer than [`LONGEST`] lines whose
/// opening doc comment does not say why (`//! Long because: …`).
fn long_files_without_a_reason(files: &[PathBuf]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let lines = text.lines().count();
        let says_why = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .any(|l| l.contains(LONG_BECAUSE));
        if lines > LONGEST && !says_why {
            found.push(format!("{} ({lines} lines)", file.display()));
        }
    }
    found
}

#[test]
fn no_file_is_long_without_a_reason() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = rust_files(&root.join("src"));
    files.extend(rust_files(&root.join("tests")));
    let long = long_files_without_a_reason(&files);
    assert!(
        long.is_empty(),
        "split these files where they have parts, or say at the top why not (`//! {LONG_BECAUSE} …`):\n{}",
        long.join("\n")
    );
    // The same check finds a long file that says nothing, and passes one
    // that says why.
    let dir = std::env::temp_dir().join(format!("yorimichi-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let body = "fn f() {}\n".repeat(LONGEST);
    let silent = dir.join("silent.rs");
    let reasoned = dir.join("reasoned.rs");
    std::fs::write(&silent, format!("//! A file.\n{body}")).unwrap();
    std::fs::write(
        &reasoned,
        format!("//! A file.\n//! {LONG_BECAUSE} one table.\n{body}"),
    )
    .unwrap();
    let found = long_files_without_a_reason(&[silent.clone(), reasoned]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(found.len(), 1);
    assert!(found[0].contains("silent.rs"));
}
