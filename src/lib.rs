//! ishi: a Monte-Carlo tree search engine for Go, Margo and Abalone that speaks GTP.
//!
//! The crate is layered; each module uses only those listed before it:
//!
//! 1. [`color`]: the two players, shared by every game.
//! 2. [`search`]: the game-independent Monte-Carlo tree search (the game trait, selection,
//!    the lock-free tree, the workers). Knows no game and nothing of GTP.
//! 3. [`nn`]: residual convolutional networks that know no game (layout, forward pass,
//!    the engine's inference kernels, backward pass, AdamW, the training loop).
//! 4. [`go`]: Go — the rules core, its search knowledge and driver, the end-of-game
//!    judgement.
//! 5. [`margo`]: Margo — the pyramid rules core (zombies, cuts, revealed captures, superko,
//!    swap), notation, perft and its search knowledge.
//! 6. [`abalone`]: Abalone — the hexagon rules core, notation, perft, evaluation, the
//!    alpha-beta player and its search knowledge.
//! 7. [`time`]: time controls and budgets as pure functions (any game).
//! 8. [`engine`]: the game in force plus clocks, settings and search; what GTP commands call.
//! 9. [`gtp`]: the protocol: line reading, the command tables, answers.
//! 10. [`bench`]: `ishi bench`, the speed figures and deterministic signatures.
//!
//! Start reading at `go::rules::board`, then `go::rules::game`, then `engine`.

pub mod abalone;
pub mod bench;
pub mod color;
pub mod engine;
pub mod go;
pub mod gtp;
pub mod margo;
pub mod nn;
pub mod search;
pub mod time;
