//! The game-independent Monte-Carlo tree search: the [`domain::SearchGame`] trait a game
//! implements, RAVE/UCT selection formulas, the lock-free tree, the worker loop (select,
//! expand, play out, back up), and every search constant in one [`SearchParams`]. Knows no
//! game: Go's knowledge and driver live in [`crate::go::search`], Margo's and Abalone's in
//! their folders.
//!
//! Read in order: `params`, `random`, `domain` (the trait and its value types), `select`
//! (formulas), `tree` (nodes and arena), `worker` (one iteration, generic over the game).

pub mod domain;
pub mod driver;
pub mod params;
pub mod random;
pub mod select;
pub mod tree;
pub mod worker;

pub use params::{PlayoutPolicy, SearchParams};
