//! The transposition table: what the search read about positions, by
//! their hash, with mate scores stored relative to the node so that a
//! mate found along one path reads right along another.

#[cfg(doc)]
use super::Searcher;
use super::WIN_BOUND;

pub(super) const TT_BITS: u32 = 17;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct TtEntry<M> {
    pub(super) key: u64,
    pub(super) depth: i32,
    pub(super) score: i32,
    pub(super) bound: Bound,
    pub(super) best: Option<M>,
}

/// The transposition table: what readings found about positions, by their
/// hash. A search can be given one and hand it back
/// ([`Searcher::with_table`], [`Searcher::into_table`]), so that a caller
/// may start the next search with what the last one read.
pub struct Table<M> {
    pub(super) entries: Vec<Option<TtEntry<M>>>,
}

impl<M: Copy> Table<M> {
    /// The size a search uses unless given another.
    pub(super) fn standard() -> Self {
        Table::with_bits(TT_BITS)
    }

    pub(super) fn with_bits(bits: u32) -> Self {
        Table {
            entries: vec![None; 1 << bits],
        }
    }

    /// A table of at most `megabytes` (a power of two of entries; at
    /// least the standard size's sixteenth).
    pub fn with_megabytes(megabytes: usize) -> Self {
        let entry = std::mem::size_of::<Option<TtEntry<M>>>().max(1);
        let wanted = (megabytes.max(1) << 20) / entry;
        let bits = (usize::BITS - 1 - wanted.max(1).leading_zeros()).clamp(TT_BITS - 4, 28);
        Table::with_bits(bits)
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.entries.fill(None);
    }

    pub(super) fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    pub(super) fn get(&self, key: u64) -> Option<TtEntry<M>> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    pub(super) fn put(&mut self, entry: TtEntry<M>) {
        let slot = self.slot(entry.key);
        self.entries[slot] = Some(entry);
    }
}

pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}
