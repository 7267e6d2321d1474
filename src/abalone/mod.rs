//! Abalone for ishi: the rules core (61-cell board, moves, notation, end and score), perft,
//! a static evaluation, an alpha-beta player and the game's side of the shared MCTS. Knows
//! nothing of GTP; the protocol layer reads moves through [`notation`] and the search drives [`Board`].
//! [`search`] makes `Board` a game of the shared MCTS and puts both players behind one call.
//!
//! Rules, coordinates, starts and perft figures: `shared/margo-abalone.md` §2 and §4.1;
//! notation and scoring: `shared/games-protocol.md`.
//!
//! Files: `geometry` (cells, directions, neighbours), `moves` (move values, index encoding,
//! illegal-move reasons), `board` (the position: generation, checking, playing, hash, end),
//! `game` (history and undo), `notation` (AbaPro text), `perft`, `evaluation`, `alphabeta`, `search`.

pub mod alphabeta;
pub mod board;
pub mod evaluation;
pub mod game;
pub mod geometry;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod search;

pub use board::{Board, Push, Start, DEFAULT_MAX_PLIES, EJECTIONS_TO_WIN, MARBLES_PER_SIDE};
pub use game::Game;
pub use geometry::{Cell, Direction, CELL_COUNT};
pub use moves::{IllegalMove, Move, MoveKind, MOVE_SPACE};
pub use notation::{parse_move, ParseMoveError};
pub use perft::{perft, perft_kinds, perft_pushes, PushCounts};
pub use search::{
    abalone_search_params, bench_lines, AbaloneEngine, AbalonePlayer, EngineChoice, MoveLimits,
};
