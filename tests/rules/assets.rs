//! The bundled assets: the subset fonts cover every character the game can
//! show, and the sounds are small Ogg Vorbis files.

use std::collections::BTreeSet;
use std::path::Path;

use yorimichi::rules::data;
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
    // The subset really is a subset: a character the game never shows is
    // not in it (so the lookup above can fail).
    assert!(!font_has_char(&font, '鬱'));
}

#[test]
fn the_sounds_are_small_ogg_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sounds");
    for name in ["place", "capture", "illegal", "win", "lose", "button"] {
        let bytes = std::fs::read(dir.join(format!("{name}.ogg"))).unwrap();
        assert_eq!(&bytes[..4], b"OggS", "{name}.ogg is an Ogg file");
        assert!(
            bytes.windows(6).any(|w| w == b"vorbis"),
            "{name}.ogg holds Vorbis"
        );
        assert!(bytes.len() < 20_000, "{name}.ogg is small");
    }
}
