//! ishi: a Monte-Carlo tree search Go engine that speaks GTP.
//!
//! Only the time module lives on this branch; the lead merges the full crate map.

pub mod time;
