//! The bundled assets: the subset fonts cover every character the game can
//! show, and the sounds are small Ogg Vorbis files.

use std::collections::BTreeSet;
use std::path::Path;

use yorimichi::rules::data;
use yorimichi::rules::game::Side;
use yorimichi::shell::i18n::T;

fn font_has_char(font: &[u8], c: char) -> bool {
    yorimichi::shell::font_cover::font_covers(font, c)
}

#[test]
fn malformed_font_bytes_cover_nothing() {
    for bytes in [
        &b""[..],
        b"\0\x01\0\0\0\x01",
        b"OTTO\0\x01\0\0\0\0\0\0cmap\xff\xff\xff\xff",
    ] {
        assert!(!font_has_char(bytes, 'a'));
    }
}

#[test]
fn the_ui_font_covers_every_text() {
    let font =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/fonts/ipaexg-subset.ttf"))
            .unwrap();
    let mut chars: BTreeSet<char> = BTreeSet::new();
    for &t in T::ALL {
        let (ja, en) = t.texts();
        chars.extend(ja.chars().chain(en.chars()));
    }
    // Every kana, for the names players type.
    chars.extend(('\u{3041}'..='\u{3096}').chain('\u{30A1}'..='\u{30FC}'));
    for f in [
        data::HASAMI_TUTORIAL,
        data::HASAMI_RULES_TEXT,
        data::HASAMI_PRESETS,
        data::FOXGEESE_RULES_TEXT,
        data::FOXGEESE_PRESETS,
        data::FOXGEESE_TUTORIAL,
        data::MUSASHI_RULES_TEXT,
        data::MUSASHI_PRESETS,
        data::MUSASHI_TUTORIAL,
        data::CHUSHOGI_PRESETS,
        data::CHUSHOGI_TUTORIAL,
        data::CHUSHOGI_RULES_TEXT,
        data::CHUSHOGI_PIECE_LESSONS,
        data::CHUSHOGI_LION_LESSONS,
        data::CHUSHOGI_PROBLEMS,
        data::CHUSHOGI_TSUME,
        data::MAWARI_RULES_TEXT,
        data::MAWARI_PRESETS,
        data::MAWARI_TUTORIAL,
    ] {
        chars.extend(f.text.chars());
    }
    let missing: String = chars
        .into_iter()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .filter(|&c| !font_has_char(&font, c))
        .collect();
    assert!(
        missing.is_empty(),
        "missing from the font subset (run `make assets`): {missing}"
    );
}

#[test]
fn the_piece_font_has_the_piece_faces() {
    let font =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/fonts/ipaexm-subset.ttf"))
            .unwrap();
    for c in ['歩', 'と', '親', '子', '玉'] {
        assert!(font_has_char(&font, c), "{c}");
    }
    // Every 中将棋 piece's name, promoted ones included.
    for kind in yorimichi::rules::chu::pieces::Kind::ALL {
        for c in kind.names().0.chars() {
            assert!(font_has_char(&font, c), "{c} of {kind:?}");
        }
    }
    // The one-kanji set, both kings included.
    for kind in yorimichi::rules::chu::pieces::Kind::ALL {
        for side in [Side::First, Side::Second] {
            let c = yorimichi::games::chushogi::koma::one_kanji(kind, side);
            assert!(font_has_char(&font, c), "{c}: one kanji of {kind:?}");
        }
    }
    // The subset really is a subset: a character the game never shows is
    // not in it (so the lookup above can fail).
    assert!(!font_has_char(&font, '鬱'));
}

/// The characters of a Rust file's string and char literals, read as
/// tools/make_assets.py reads them: comments skipped, a plain string to its
/// closing quote (an escape's character kept), a raw string to its end, a
/// char literal with or without an escape; a lifetime is not a literal.
fn literal_chars(text: &str) -> BTreeSet<char> {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let mut out = BTreeSet::new();
    let mut i = 0;
    let at = |i: usize, s: &str| {
        s.chars()
            .enumerate()
            .all(|(k, c)| chars.get(i + k) == Some(&c))
    };
    while i < n {
        let word_before = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if at(i, "//") {
            while i < n && chars[i] != '\n' {
                i += 1;
            }
        } else if at(i, "/*") {
            while i < n && !at(i, "*/") {
                i += 1;
            }
            i += 2;
        } else if chars[i] == 'r' && !word_before && matches!(chars.get(i + 1), Some('"' | '#')) {
            let hashes = chars[i + 1..].iter().take_while(|&&c| c == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                i += 1;
                continue;
            }
            let close: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let mut j = i + 2 + hashes;
            while j < n && !at(j, &close) {
                out.insert(chars[j]);
                j += 1;
            }
            i = j + 1 + hashes;
        } else if chars[i] == '"' {
            i += 1;
            while i < n && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if let Some(&c) = chars.get(i) {
                    out.insert(c);
                }
                i += 1;
            }
            i += 1;
        } else if chars[i] == '\'' && chars.get(i + 1) == Some(&'\\') {
            if let Some(&c) = chars.get(i + 2) {
                out.insert(c);
            }
            i += 3;
            while i < n && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if chars[i] == '\'' && chars.get(i + 2) == Some(&'\'') {
            out.insert(chars[i + 1]);
            i += 3;
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn literal_chars_skip_comments_and_read_strings_and_chars() {
    let text = "// 飛 in a comment\nlet a = \"角\\\"行\"; /* 龍 */ let b = '馬'; let c = b'x'; \
                let d = '\\''; let e = '\\u{41}'; let f = r#\"金\"将\"#; \
                fn g<'a>(x: &'a str) {} let h = \"銀\";";
    let got: String = literal_chars(text).into_iter().collect();
    // As tools/make_assets.py reads the same text.
    assert_eq!(got, "\"'ux将行角金銀馬");
}

/// The koma font is subset to the characters of the files koma letters are
/// written from (tools/make_assets.py, `KOMA_SOURCES`): every Japanese
/// character of those files' literals must be in it, so a glyph added there without `make assets`
/// fails here rather than showing an empty koma.
#[test]
fn the_piece_font_covers_the_files_koma_letters_come_from() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let font = std::fs::read(root.join("assets/fonts/ipaexm-subset.ttf")).unwrap();
    fn rust_files(dir: &Path, recurse: bool, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && recurse {
                rust_files(&path, true, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    rust_files(&root.join("src/games"), true, &mut files);
    rust_files(&root.join("src/rules/mawari"), false, &mut files);
    rust_files(&root.join("src/rules/musashi"), false, &mut files);
    for file in [
        "src/rules/chu/pieces.rs",
        "src/rules/hasami.rs",
        "src/rules/foxgeese.rs",
    ] {
        files.push(root.join(file));
    }
    assert!(files.len() > 20, "the sources were found ({})", files.len());
    let mut missing = BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        // Koma carry kana, kanji and full-width forms, written in the
        // files' string and char literals (their comments are never drawn).
        missing.extend(
            literal_chars(&text)
                .into_iter()
                .filter(|c| {
                    ('\u{3000}'..='\u{9FFF}').contains(c) || ('\u{FF00}'..='\u{FFEF}').contains(c)
                })
                .filter(|c| !c.is_whitespace())
                .filter(|&c| !font_has_char(&font, c)),
        );
    }
    let missing: String = missing.into_iter().collect();
    assert!(
        missing.is_empty(),
        "missing from the koma font (run `python3 tools/make_assets.py fonts`): {missing}"
    );
}

#[test]
fn the_sound_sheet_is_a_small_ogg_vorbis_file() {
    // One sheet holds every effect (the app tests check its cue table).
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sounds/effects.ogg");
    let bytes = std::fs::read(&path).expect("assets/sounds/effects.ogg");
    assert_eq!(&bytes[..4], b"OggS", "the sheet is an Ogg file");
    assert!(
        bytes.windows(6).any(|w| w == b"vorbis"),
        "the sheet holds Vorbis"
    );
    assert!(
        bytes.len() < 40_000,
        "the sheet is small ({} bytes)",
        bytes.len()
    );
}
