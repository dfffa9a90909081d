//! Which characters a font can draw, read from its `cmap` table: the game
//! ships fonts cut down to the characters it shows, so a name typed with
//! another character would be drawn as nothing.

/// Whether `font` (TrueType/OpenType bytes) maps `c` to a glyph, by its
/// format 4 or format 12 `cmap` subtables. Malformed bytes map nothing.
pub fn font_covers(font: &[u8], c: char) -> bool {
    covers(font, c as u32).unwrap_or(false)
}

fn covers(font: &[u8], code: u32) -> Option<bool> {
    let u16_at = |o: usize| -> Option<u32> {
        let b = font.get(o..o + 2)?;
        Some(u16::from_be_bytes([b[0], b[1]]) as u32)
    };
    let u32_at = |o: usize| -> Option<u32> {
        let b = font.get(o..o + 4)?;
        Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    let tables = u16_at(4)? as usize;
    let cmap = (0..tables)
        .map(|i| 12 + 16 * i)
        .find(|&rec| font.get(rec..rec + 4) == Some(b"cmap"))
        .and_then(|rec| u32_at(rec + 8))? as usize;
    for i in 0..u16_at(cmap + 2)? as usize {
        let sub = cmap + u32_at(cmap + 4 + 8 * i + 4)? as usize;
        match u16_at(sub)? {
            4 => {
                let segments = (u16_at(sub + 6)? / 2) as usize;
                let ends = sub + 14;
                let starts = ends + 2 * segments + 2;
                for s in 0..segments {
                    if code <= u16_at(ends + 2 * s)? && code >= u16_at(starts + 2 * s)? {
                        return Some(true);
                    }
                }
            }
            12 => {
                for g in 0..u32_at(sub + 12)? as usize {
                    let at = sub + 16 + 12 * g;
                    if code >= u32_at(at)? && code <= u32_at(at + 4)? {
                        return Some(true);
                    }
                }
            }
            _ => {}
        }
    }
    Some(false)
}
