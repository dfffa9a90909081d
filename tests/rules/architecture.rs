//! The code's layout holds: the rules never name Bevy (so they run in the
//! engine, the command line and the tests alike), the shell never names
//! the games (so it can be read and changed without them), and the games'
//! modules import one another in floors, never in a circle.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
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

// The games' modules lie in floors: a module imports only the floors below
// it, so that the room code, the play screen and the review can each be
// read and changed apart. A module is a file, or a folder's `mod.rs`; it
// imports another where its code names a path into it (`use`, or a path
// written in place) from `crate::`, `super::`, `self::` or, in a `mod.rs`,
// one of its own children. A folder's `mod.rs` is its top: it puts its
// children together, so they share what they need through a module below,
// never through it.

/// Each module's imports among the modules under `src/<folder>`, by the
/// module's path from `src` (`games/play/mod.rs`).
type Imports = BTreeMap<String, BTreeSet<String>>;

/// The module a file is: its path of names from `src` (a `mod.rs` is its
/// folder).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut names: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if names.last().is_some_and(|n| n == "mod") {
        names.pop();
    }
    names
}

/// `text` with its comments gone and each string and character literal
/// emptied, so that only code is read.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && (i == 0
                || !is_ident(chars[i - 1])
                || (chars[i - 1] == 'b' && (i < 2 || !is_ident(chars[i - 2]))))
            && matches!(next, Some('"' | '#'))
            && chars[i + 1..].iter().find(|&&c| c != '#') == Some(&'"')
        {
            // A raw string: r"…", r#"…"#, as many hashes to close as open.
            let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
            i += 2 + hashes;
            let closing: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            while i < chars.len() && !chars[i..].starts_with(&closing) {
                i += 1;
            }
            i += closing.len();
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && next == Some('\\') {
            // An escaped character: '\n', '\'', '\u{…}'.
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push_str("' '");
        } else {
            // A lifetime's quote, or any other character.
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The words and marks of `code`: names, `::`, and single characters.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            found.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            found.push("::".to_string());
            i += 2;
        } else {
            if !c.is_whitespace() {
                found.push(c.to_string());
            }
            i += 1;
        }
    }
    found
}

/// The paths a path at `tokens[i]` names, after `prefix` (a `use` group's
/// `{a, b::{c, self}}` names several); returns where the path ends.
fn read_path(
    tokens: &[String],
    mut i: usize,
    prefix: &[String],
    paths: &mut Vec<Vec<String>>,
) -> usize {
    let mut path = prefix.to_vec();
    while let Some(t) = tokens.get(i) {
        match t.as_str() {
            "{" => {
                i += 1;
                while let Some(t) = tokens.get(i) {
                    match t.as_str() {
                        "}" => return i + 1,
                        "," => i += 1,
                        "self" | "*" => {
                            paths.push(path.clone());
                            i += 1;
                        }
                        "as" => i += 2,
                        _ => i = read_path(tokens, i, &path, paths),
                    }
                }
                return i;
            }
            "*" => {
                paths.push(path);
                return i + 1;
            }
            word if word.starts_with(|c: char| c.is_alphabetic() || c == '_') => {
                path.push(word.to_string());
                i += 1;
                if tokens.get(i).is_some_and(|t| t == "::") {
                    i += 1;
                } else {
                    paths.push(path);
                    return i;
                }
            }
            _ => {
                paths.push(path);
                return i;
            }
        }
    }
    paths.push(path);
    i
}

/// The modules `file` (module `me`) imports among `modules`.
fn imports_of(
    me: &[String],
    is_folder: bool,
    text: &str,
    modules: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let tokens = tokens(&code_only(text));
    let children: BTreeSet<&str> = modules
        .iter()
        .filter(|m| m.len() == me.len() + 1 && m.starts_with(me))
        .map(|m| m[me.len()].as_str())
        .collect();
    let mut found = BTreeSet::new();
    // The brace depth at which each inline module (`mod tests { … }`) of
    // the file opened: `super` leaves those first, and what lies in one is
    // the file's own.
    let mut inline: Vec<usize> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i].as_str();
        let next = tokens.get(i + 1).map(String::as_str);
        let after = tokens.get(i + 2).map(String::as_str);
        if t == "{" {
            depth += 1;
        } else if t == "}" {
            depth -= 1;
            if inline.last() == Some(&depth) {
                inline.pop();
            }
        } else if t == "mod" && after == Some("{") {
            inline.push(depth);
            depth += 1;
            i += 3;
            continue;
        } else if t == "mod" && after == Some(";") {
            // A child declared is the tree, not an import.
            i += 3;
            continue;
        }
        let starts_path = next == Some("::")
            && (i == 0 || tokens[i - 1] != "::")
            && (matches!(t, "crate" | "super" | "self")
                || (is_folder && inline.is_empty() && children.contains(t)));
        if !starts_path {
            i += 1;
            continue;
        }
        let mut paths = Vec::new();
        i = read_path(&tokens, i, &[], &mut paths);
        for path in paths {
            let mut here: Vec<Option<&str>> = me.iter().map(|n| Some(n.as_str())).collect();
            here.extend(inline.iter().map(|_| None));
            let mut rest = path.as_slice();
            if rest.first().is_some_and(|w| w == "crate") {
                here.clear();
                rest = &rest[1..];
            } else {
                while let Some(word) = rest.first().filter(|w| *w == "super" || *w == "self") {
                    if word == "super" {
                        here.pop();
                    }
                    rest = &rest[1..];
                }
            }
            // Still inside an inline module: the file's own items.
            let Some(here) = here.into_iter().collect::<Option<Vec<&str>>>() else {
                continue;
            };
            let full: Vec<String> = here
                .into_iter()
                .map(str::to_string)
                .chain(rest.iter().cloned())
                .collect();
            let target = (1..=full.len())
                .rev()
                .map(|k| full[..k].to_vec())
                .find(|prefix| modules.contains(prefix));
            if let Some(target) = target.filter(|t| t.as_slice() != me) {
                found.insert(target);
            }
        }
    }
    found
}

/// Each module under `src/<folder>` and the modules there it imports.
fn module_imports(src: &Path, folder: &str) -> Imports {
    let files = rust_files(&src.join(folder));
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_of(src, f), f.clone()))
        .collect();
    let known: BTreeSet<Vec<String>> = modules.keys().cloned().collect();
    let name = |m: &Vec<String>| {
        modules[m]
            .strip_prefix(src)
            .unwrap_or(&modules[m])
            .to_string_lossy()
            .replace('\\', "/")
    };
    modules
        .iter()
        .map(|(module, file)| {
            let text =
                std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let is_folder = file.file_name().is_some_and(|n| n == "mod.rs");
            let imported = imports_of(module, is_folder, &text, &known);
            (name(module), imported.iter().map(name).collect())
        })
        .collect()
}

/// Every circle of imports, one line each: the modules that import one
/// another (a strongly connected set) and one cycle through them.
fn import_cycles(imports: &Imports) -> Vec<String> {
    // Tarjan's strongly connected components.
    struct Walk<'a> {
        imports: &'a Imports,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        sets: Vec<Vec<&'a str>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.imports.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    set.push(w);
                    if w == v {
                        break;
                    }
                }
                self.sets.push(set);
            }
        }
    }
    let mut walk = Walk {
        imports,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        sets: Vec::new(),
    };
    for module in imports.keys() {
        if !walk.index.contains_key(module.as_str()) {
            walk.visit(module);
        }
    }
    let mut circles = Vec::new();
    for mut set in walk.sets.into_iter().filter(|s| s.len() > 1) {
        set.sort_unstable();
        let members: BTreeSet<&str> = set.iter().copied().collect();
        // The shortest way round from the first module, within the set.
        let start = set[0];
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        'search: while let Some(v) = queue.pop_front() {
            for w in imports.get(v).into_iter().flatten().map(String::as_str) {
                if !members.contains(w) || came_from.contains_key(w) {
                    continue;
                }
                came_from.insert(w, v);
                if w == start {
                    break 'search;
                }
                queue.push_back(w);
            }
        }
        let mut cycle = vec![start];
        let mut at = came_from.get(start).copied();
        while let Some(v) = at.filter(|&v| v != start) {
            cycle.push(v);
            at = came_from.get(v).copied();
        }
        cycle.push(start);
        cycle.reverse();
        circles.push(format!(
            "{} import one another: {}",
            set.join(", "),
            cycle.join(" → ")
        ));
    }
    circles
}

#[test]
fn the_games_lie_in_floors_without_a_circle_of_imports() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let imports = module_imports(&src, "games");
    let circles = import_cycles(&imports);
    assert!(
        circles.is_empty(),
        "modules of src/games import one another in a circle; move what they share to a floor below both, or let the lower one say what happened (a message, an event, a resource it owns) instead of calling up (docs/architecture.md):\n{}",
        circles.join("\n")
    );
    // The same reading sees the imports that are there: the play screen's
    // parts on its state, room play on the play screen, まわり将棋's room
    // on its panel.
    let imports_of = |m: &str| imports.get(m).unwrap_or_else(|| panic!("no module {m}"));
    assert!(imports_of("games/play/input.rs").contains("games/play/state.rs"));
    assert!(imports_of("games/remote.rs").contains("games/play/mod.rs"));
    assert!(imports_of("games/mawari/room.rs").contains("games/mawari/panel.rs"));
    assert!(imports_of("games/mawari/mod.rs").contains("games/mawari/room.rs"));
}

#[test]
fn the_floor_check_finds_a_circle() {
    let names =
        |list: &[&str]| -> BTreeSet<String> { list.iter().map(|n| n.to_string()).collect() };
    // Made-up imports: a → b → c → a is a circle, d beside it is not.
    let edges = |list: &[(&str, &[&str])]| -> Imports {
        list.iter()
            .map(|(m, to)| (m.to_string(), names(to)))
            .collect()
    };
    let circle = edges(&[("a", &["b"]), ("b", &["c", "d"]), ("c", &["a"]), ("d", &[])]);
    assert_eq!(
        import_cycles(&circle),
        ["a, b, c import one another: a → b → c → a"]
    );
    let floors = edges(&[("a", &["b", "c"]), ("b", &["c"]), ("c", &[])]);
    assert!(import_cycles(&floors).is_empty());

    // A made-up folder read from its files: `lower` calls up into `upper`,
    // which reaches `room/state` through `room/mod.rs`, which imports
    // `lower`. Comments, strings, a declared child and a test module's
    // `use super::*` are no imports; a path out of the folder is none of
    // its.
    let dir = std::env::temp_dir().join(format!("yorimichi-floors-{}", std::process::id()));
    let games = dir.join("games");
    std::fs::create_dir_all(games.join("room")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(games.join(name), text).unwrap();
    write(
        "mod.rs",
        "mod lower;\nmod room;\nmod upper;\n\
         pub fn plugin() { upper::plugin(); room::plugin(); }\n",
    );
    write(
        "lower.rs",
        "// use super::upper; in a comment\n\
         const NOTE: &str = \"super::room::X\";\n\
         pub struct Thing;\n\
         pub fn f() { super::upper::shown(); }\n\
         #[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
    );
    write(
        "upper.rs",
        "use super::room::{self, Plan as _};\nuse crate::shell::Screen;\n\
         pub fn plugin() {}\npub fn shown() {}\n",
    );
    write(
        "room/mod.rs",
        "mod state;\npub fn plugin() { state::f(); }\n",
    );
    write(
        "room/state.rs",
        "use crate::games::{lower::Thing, upper as _};\npub fn f() {}\n",
    );
    let imports = module_imports(&dir, "games");
    let circles = import_cycles(&imports);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        imports["games/mod.rs"],
        names(&["games/room/mod.rs", "games/upper.rs"])
    );
    assert_eq!(imports["games/lower.rs"], names(&["games/upper.rs"]));
    assert_eq!(imports["games/upper.rs"], names(&["games/room/mod.rs"]));
    assert_eq!(
        imports["games/room/mod.rs"],
        names(&["games/room/state.rs"])
    );
    assert_eq!(
        imports["games/room/state.rs"],
        names(&["games/lower.rs", "games/upper.rs"])
    );
    assert_eq!(
        circles,
        [concat!(
            "games/lower.rs, games/room/mod.rs, games/room/state.rs, games/upper.rs ",
            "import one another: games/lower.rs → games/upper.rs → games/room/mod.rs ",
            "→ games/room/state.rs → games/lower.rs"
        )]
    );
}
