//! The rooms on disk: one SQLite database, a row per room and a row per
//! event, written in one transaction per change, so a server stopped at
//! any moment restarts with every game at its last move.

use std::path::Path;

use rusqlite::{Connection, params};

use crate::net::protocol::Event;
use crate::net::room::{Room, StoredRoom};

pub struct Store {
    db: Connection,
}

/// How long a finished room is kept (a day), and an idle unfinished one
/// (30 days), in milliseconds.
pub const FINISHED_KEPT_MS: u64 = 24 * 60 * 60 * 1000;
pub const IDLE_KEPT_MS: u64 = 30 * 24 * 60 * 60 * 1000;

fn text<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

impl Store {
    /// Opens (or makes) the database at `path`.
    pub fn open(path: &Path) -> Result<Store, String> {
        let db = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        db.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = NORMAL;
             CREATE TABLE IF NOT EXISTS rooms (
                 code TEXT PRIMARY KEY,
                 body TEXT NOT NULL,
                 touched_ms INTEGER NOT NULL,
                 finished INTEGER NOT NULL
             );
             CREATE TABLE IF NOT EXISTS events (
                 code TEXT NOT NULL,
                 seq INTEGER NOT NULL,
                 body TEXT NOT NULL,
                 PRIMARY KEY (code, seq)
             );
             CREATE TABLE IF NOT EXISTS alive (
                 id INTEGER PRIMARY KEY CHECK (id = 0),
                 ms INTEGER NOT NULL
             );",
        )
        .map_err(text)?;
        Ok(Store { db })
    }

    /// Notes that the server runs at `now_ms` (once a second): after a
    /// restart the rooms' clocks are charged up to the last note, so the
    /// time the server was down is charged to nobody.
    pub fn beat(&mut self, now_ms: u64) -> Result<(), String> {
        self.db
            .execute(
                "INSERT INTO alive (id, ms) VALUES (0, ?1) ON CONFLICT(id) DO UPDATE SET ms = ?1",
                params![now_ms as i64],
            )
            .map(|_| ())
            .map_err(text)
    }

    /// When the server last noted it ran, if ever.
    pub fn alive_ms(&self) -> Option<u64> {
        self.db
            .query_row("SELECT ms FROM alive WHERE id = 0", [], |row| {
                row.get::<_, i64>(0)
            })
            .ok()
            .and_then(|ms| u64::try_from(ms).ok())
    }

    /// Writes `room`: its header, and its events from number `from` (1 for
    /// all) on.
    pub fn save(&mut self, room: &Room, from: u64) -> Result<(), String> {
        let mut stored = room.stored();
        let events = std::mem::take(&mut stored.events);
        let body = ron::to_string(&stored).map_err(text)?;
        let code = room.code().as_str();
        let tx = self.db.transaction().map_err(text)?;
        tx.execute(
            "INSERT INTO rooms (code, body, touched_ms, finished) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(code) DO UPDATE SET body = ?2, touched_ms = ?3, finished = ?4",
            params![code, body, room.touched_ms() as i64, room.is_finished()],
        )
        .map_err(text)?;
        for (i, event) in events
            .iter()
            .enumerate()
            .skip(from.saturating_sub(1) as usize)
        {
            let body = ron::to_string(event).map_err(text)?;
            tx.execute(
                "INSERT OR REPLACE INTO events (code, seq, body) VALUES (?1, ?2, ?3)",
                params![code, i as i64 + 1, body],
            )
            .map_err(text)?;
        }
        tx.commit().map_err(text)
    }

    /// Every room kept; a room that no longer reads is reported and left
    /// on disk, never deleted.
    pub fn load(&self) -> Result<(Vec<Room>, Vec<String>), String> {
        let mut rooms = Vec::new();
        let mut problems = Vec::new();
        let mut by_room = self
            .db
            .prepare("SELECT code, body FROM rooms ORDER BY code")
            .map_err(text)?;
        let headers: Vec<(String, String)> = by_room
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .map_err(text)?
            .collect::<Result<_, _>>()
            .map_err(text)?;
        let mut by_event = self
            .db
            .prepare("SELECT seq, body FROM events WHERE code = ?1 ORDER BY seq")
            .map_err(text)?;
        for (code, body) in headers {
            let events: Vec<(i64, String)> = by_event
                .query_map([&code], |row| Ok((row.get(0)?, row.get(1)?)))
                .map_err(text)?
                .collect::<Result<_, _>>()
                .map_err(text)?;
            match restore(&body, &events) {
                Ok(room) => rooms.push(room),
                Err(why) => problems.push(format!("room {code}: {why}")),
            }
        }
        Ok((rooms, problems))
    }

    /// Deletes the rooms past their time: finished ones after a day, idle
    /// ones after 30 days. Returns how many.
    pub fn expire(&mut self, now_ms: u64) -> Result<Vec<String>, String> {
        let finished_before = now_ms.saturating_sub(FINISHED_KEPT_MS) as i64;
        let idle_before = now_ms.saturating_sub(IDLE_KEPT_MS) as i64;
        let tx = self.db.transaction().map_err(text)?;
        let codes: Vec<String> = {
            let mut old = tx
                .prepare(
                    "SELECT code FROM rooms WHERE (finished AND touched_ms < ?1) OR touched_ms < ?2",
                )
                .map_err(text)?;
            old.query_map(params![finished_before, idle_before], |row| row.get(0))
                .map_err(text)?
                .collect::<Result<_, _>>()
                .map_err(text)?
        };
        for code in &codes {
            tx.execute("DELETE FROM events WHERE code = ?1", [code])
                .map_err(text)?;
            tx.execute("DELETE FROM rooms WHERE code = ?1", [code])
                .map_err(text)?;
        }
        tx.commit().map_err(text)?;
        Ok(codes)
    }
}

fn restore(body: &str, events: &[(i64, String)]) -> Result<Room, String> {
    let mut stored: StoredRoom = ron::from_str(body).map_err(text)?;
    for (i, (seq, body)) in events.iter().enumerate() {
        if *seq != i as i64 + 1 {
            return Err(format!("event {} is missing", i + 1));
        }
        let event: Event = ron::from_str(body).map_err(|e| format!("event {seq}: {e}"))?;
        stored.events.push(event);
    }
    Room::restore(stored)
}
