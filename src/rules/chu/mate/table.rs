//! The mate solver's two memories: the transposition table of proof and
//! disproof numbers, and the cache of each node's moves.

use crate::rules::chu::moves::ChuMove;

/// One table entry: a position's proof and disproof numbers, the nodes
/// spent on it (what the replacement keeps), and for a proved position the
/// plies to the royals' capture.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) pn: u32,
    pub(super) dn: u32,
    /// Nodes spent below this position; 0 marks an empty slot.
    pub(super) work: u32,
    pub(super) length: u16,
    /// The table's age when stored: older entries are empty.
    pub(super) age: u16,
}

/// Entries in a bucket: a new position replaces the one with the least
/// work among them.
const WAYS: usize = 4;

pub(super) struct Table {
    entries: Vec<Entry>,
    buckets: usize,
    /// Entries of another age are empty: clearing the table is a count.
    age: u16,
}

impl Table {
    pub(super) fn new(entries: usize) -> Table {
        let buckets = (entries / WAYS).max(1).next_power_of_two();
        Table {
            entries: vec![Entry::default(); buckets * WAYS],
            buckets,
            age: 1,
        }
    }

    /// Empties the table.
    pub(super) fn clear(&mut self) {
        self.age = self.age.wrapping_add(1);
        if self.age == 0 {
            self.entries.fill(Entry::default());
            self.age = 1;
        }
    }

    fn live(&self, e: &Entry) -> bool {
        e.work > 0 && e.age == self.age
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        // The low bits pick the bucket; the full key is compared.
        let start = (key as usize & (self.buckets - 1)) * WAYS;
        start..start + WAYS
    }

    pub(super) fn get(&self, key: u64) -> Option<Entry> {
        self.entries[self.bucket(key)]
            .iter()
            .find(|e| self.live(e) && e.key == key)
            .copied()
    }

    pub(super) fn put(&mut self, entry: Entry) {
        let range = self.bucket(entry.key);
        let age = self.age;
        let live = |e: &Entry| e.work > 0 && e.age == age;
        let slots = &mut self.entries[range];
        let index = slots
            .iter()
            .position(|e| live(e) && e.key == entry.key)
            .or_else(|| slots.iter().position(|e| !live(e)))
            .unwrap_or_else(|| {
                // Finished proofs are worth more than unfinished work.
                let keep = |e: &Entry| {
                    let settled = e.pn == 0 || e.dn == 0;
                    u64::from(e.work) * if settled { 4 } else { 1 }
                };
                (0..WAYS).min_by_key(|&i| keep(&slots[i])).unwrap_or(0)
            });
        slots[index] = Entry { age, ..entry };
    }
}

/// The moves a node reads (checks, or the replies that do not lose the
/// royal at once), kept for the next time df-pn comes back to it: finding
/// the checks among every move is most of the work.
pub(super) struct MoveCache {
    slots: Vec<CachedMoves>,
    age: u16,
}

#[derive(Clone, Default)]
struct CachedMoves {
    key: u64,
    age: u16,
    lost_at_once: bool,
    moves: Vec<ChuMove>,
}

/// Positions whose moves are kept.
const CACHED_POSITIONS: usize = 1 << 16;

impl MoveCache {
    pub(super) fn new() -> MoveCache {
        MoveCache {
            slots: vec![CachedMoves::default(); CACHED_POSITIONS],
            age: 1,
        }
    }

    pub(super) fn clear(&mut self) {
        self.age = self.age.wrapping_add(1);
        if self.age == 0 {
            self.slots.fill(CachedMoves::default());
            self.age = 1;
        }
    }

    pub(super) fn get(&self, key: u64) -> Option<(&[ChuMove], bool)> {
        let slot = &self.slots[key as usize % CACHED_POSITIONS];
        (slot.age == self.age && slot.key == key).then_some((&slot.moves[..], slot.lost_at_once))
    }

    pub(super) fn put(&mut self, key: u64, moves: &[ChuMove], lost_at_once: bool) {
        let age = self.age;
        let slot = &mut self.slots[key as usize % CACHED_POSITIONS];
        slot.key = key;
        slot.age = age;
        slot.lost_at_once = lost_at_once;
        slot.moves.clear();
        slot.moves.extend_from_slice(moves);
    }
}
