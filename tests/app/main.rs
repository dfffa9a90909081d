//! The whole app, headless (no window, renderer or audio): screens,
//! input, animation, saves and the CPU, driven as a player would.

mod app_flow;
mod bug_report;
mod chu_flow;
mod chu_lessons;
mod chu_tsume;
#[allow(dead_code)]
mod common;
mod foxgeese_flow;
mod look;
mod mawari_family;
mod mawari_flow;
mod mawari_review;
mod musashi_flow;
mod musashi_positions;
mod review;
#[cfg(feature = "server")]
mod rooms;
