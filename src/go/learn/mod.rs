//! Learning Go move knowledge from a teacher: reading and replaying the teacher's games
//! ([`teacher`]), fitting the move model of [`crate::go::search::move_model`] to them
//! ([`fit`]) and the playouts' answer shapes of
//! [`crate::go::search::playout_patterns`] ([`local`]) and the value network ([`value_fit`], its samples also written for trainers outside ishi by [`export`]), with the prediction measurements
//! quoted in `models/README.md`. Used by the
//! `ishi-train` tool, never by the engine while it plays. Knows the rules core, the playout
//! board and the features; nothing of the tree or GTP.

pub mod export;
pub mod fit;
pub mod local;
pub mod packed;
pub mod teacher;
pub mod value_fit;
