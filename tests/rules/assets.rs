//! The bundled assets: the subset fonts cover every character the game can
//! show, and the sounds are small Ogg Vorbis files.

use std::collections::BTreeSet;
use std::path::Path;

use yorimichi::rules::data;
use yorimichi::shell::i18n::T;

fn font_has_char(font: &[u8], c: char) -> bool {
    // Minimal cmap lookup: find a format 4 or 12 subtable and search it.
    let u16_at = |o: usize| u16::from_be_bytes([font[o], font[o + 1]]) as usize;
    let u32_at =
        |o: usize| u32::from_be_bytes([font[o], font[o + 1], font[o + 2], font[o + 3]]) as usize;
    let tables = u16_at(4);
    let cmap = (0..tables)
        .map(|i| 12 + 16 * i)
        .find(|&rec| &font[rec..rec + 4] == b"cmap")
        .map(|rec| u32_at(rec + 8))
        .expect("a cmap table");
    let code = c as usize;
    for i in 0..u16_at(cmap + 2) {
        let sub = cmap + u32_at(cmap + 4 + 8 * i + 4);
        match u16_at(sub) {
            4 => {
                let segs = u16_at(sub + 6) / 2;
                let ends = sub + 14;
                let starts = ends + 2 * segs + 2;
                for s in 0..segs {
                    if code <= u16_at(ends + 2 * s) && code >= u16_at(starts + 2 * s) {
                        return true;
                    }
                }
            }
            12 => {
                let groups = u32_at(sub + 12);
                for g in 0..groups {
                    let at = sub + 16 + 12 * g;
                    if code >= u32_at(at) && code <= u32_at(at + 4) {
                        return true;
                    }
                }
            }
            _ => {}
        }
    }
    false
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
