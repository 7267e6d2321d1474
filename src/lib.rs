//! ishi: a Monte-Carlo tree search Go engine that speaks GTP.
//!
//! The crate is layered; each module uses only those listed before it:
//!
//! 1. [`rules`]: the rules core (board, game, rules, scoring, SGF). No I/O, no threads.
//! 2. [`search`]: the Monte-Carlo tree search over a [`rules::Game`]. Knows nothing of GTP.
//! 3. [`endgame`]: the status of every chain at the end of the game (dead, alive, seki),
//!    judged from Benson's analysis and playouts, cached per position.
//! 4. [`time`]: time controls and budgets as pure functions.
//! 5. [`engine`]: the game plus clocks, settings and search; what GTP commands call.
//! 6. [`gtp`]: the protocol: line reading, the command table, answers.
//!
//! Start reading at `rules::board`, then `rules::game`, then `engine`.

pub mod endgame;
pub mod engine;
pub mod gtp;
pub mod rules;
pub mod search;
pub mod time;
