//! Go: the rules core ([`rules`]: board, game, rulesets, scoring, SGF), its search knowledge
//! and driver ([`search`]: playout board, patterns, playouts, ladder reader, priors, the
//! [`crate::search::domain::SearchGame`] implementation and the root's pass rules), and the
//! end-of-game judgement ([`endgame`]). Knows nothing of GTP.

pub mod endgame;
pub mod learn;
pub mod rules;
pub mod search;
