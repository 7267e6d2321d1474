//! Learning Go move knowledge from a teacher: reading and replaying the teacher's games
//! ([`teacher`]) and fitting the move model of [`crate::go::search::move_model`] to them
//! ([`fit`]), with the prediction measurements quoted in `models/README.md`. Used by the
//! `ishi-train` tool, never by the engine while it plays. Knows the rules core, the playout
//! board and the features; nothing of the tree or GTP.

pub mod fit;
pub mod teacher;
