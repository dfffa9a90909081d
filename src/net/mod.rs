//! Playing from several devices: the protocol the devices and the room
//! server speak, the room the server keeps, the game on each table, and
//! the connection a device opens. Nothing here imports Bevy: the server
//! and the tests use it as the app does.

pub mod link;
pub mod protocol;
pub mod room;
pub mod table;
