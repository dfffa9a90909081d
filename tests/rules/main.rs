//! Rules, search and content, without the app: one test binary (each
//! binary links all of Bevy, so there are few of them).

mod architecture;
mod assets;
mod board_graph;
mod chu_analysis;
mod chu_exchange;
mod chu_game;
mod chu_kif;
mod chu_mate;
mod chu_pieces;
mod chu_profiles;
mod chu_record;
mod chu_repetition;
mod content_check;
mod content_choices;
mod foxgeese_rules;
mod hasami_rules;
mod level_typos;
mod mawari_dice;
mod mawari_family;
mod mawari_physics;
mod mawari_replay;
mod mawari_rules;
mod move_stats;
mod musashi_rules;
mod musashi_solver;
mod playouts;
mod rooms;
mod rules_texts;
mod search_and_saves;
mod search_service;
mod seed_sentences;
mod text_fuzz;
