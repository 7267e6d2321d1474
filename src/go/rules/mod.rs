//! Go's rules core: everything ishi knows about Go itself. No threads, no I/O, no logging, and
//! nothing of search or GTP. Read in order: points, Zobrist keys, the board (fast,
//! no history), the rules value, the game (history, superko, undo), scoring, and the
//! referee's territory map under territory rules.

pub mod board;
pub mod game;
pub mod point;
pub mod record;
// The design names this file rules/rules.rs: the Rules value of the rules core.
#[allow(clippy::module_inception)]
pub mod rules;
pub mod score;
pub mod sgf;
pub mod territory;
pub mod zobrist;

pub use crate::color::Color;
pub use board::{Board, Cell, IllegalMove};
pub use game::Game;
pub use point::{Move, Point};
pub use rules::Rules;
