//! Margo, the 3D Go of Cameron Browne: the rules core.
//!
//! Knows the pyramid geometry of boards 4x4 to 9x9 ([`geometry`]), a fast copyable position
//! with placements, cuts, burying, zombies and revealed captures but no history
//! ([`position`]), the game with turn order, swap, situational superko and undo ([`game`]),
//! the designer's notation, board diagrams and game records ([`notation`]) and move counting
//! ([`perft`]), and the game as the search sees it ([`search`]: priors, playouts, the root
//! glue, the benchmark). The rules modules know nothing of the search, of GTP framing or of
//! time.
//!
//! Move indices for the search: a placement at point `p` is `p + 1`, swap is
//! `MAX_POINTS + 1`, and 0 is never a move.

pub mod game;
pub mod geometry;
pub mod notation;
pub mod perft;
pub mod position;
pub mod search;

use std::fmt;

pub use game::{Game, PlayReport, PlayedMove};
pub use geometry::{Coordinates, Geometry, Point};
pub use notation::ParseMoveError;
pub use perft::{perft, perft_with_swap};
pub use position::{Captures, Position};
pub use search::{
    bench_lines, playout_settings, root_legal, search_game, PlayoutSettings, SWAP_INDEX,
};

/// The smallest supported board (Spargo).
pub const MIN_SIZE: usize = 4;
/// The largest supported board (Huge).
pub const MAX_SIZE: usize = 9;
/// The default board size (the board nestorgames ships).
pub const DEFAULT_SIZE: usize = 6;
/// Points of the largest pyramid: 9*10*19/6.
pub const MAX_POINTS: usize = geometry::point_count(MAX_SIZE);
/// Move indices run over `0..MOVE_SPACE` on every board size (0 is reserved and never a move).
pub const MOVE_SPACE: usize = MAX_POINTS + 2;

/// A Margo move: a ball placed at a point, or the swap of the second move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Place a ball of the mover's colour at the point.
    Place(Point),
    /// Recolour the first ball to the mover's colour; legal only as the second move.
    Swap,
}

impl Move {
    /// The search's index of the move: `point + 1` for a placement, `MAX_POINTS + 1` for swap.
    #[inline]
    pub fn index(self) -> u16 {
        match self {
            Move::Place(point) => point.0 + 1,
            Move::Swap => (MAX_POINTS + 1) as u16,
        }
    }

    /// The move of a search index, or `None` for 0 and anything beyond `MOVE_SPACE`. Whether
    /// the point is on a given board is for the game to judge.
    #[inline]
    pub fn from_index(index: u16) -> Option<Move> {
        let index = index as usize;
        if index == 0 || index >= MOVE_SPACE {
            None
        } else if index == MAX_POINTS + 1 {
            Some(Move::Swap)
        } else {
            Some(Move::Place(Point((index - 1) as u16)))
        }
    }
}

/// Why a move may not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The point already holds a ball.
    Occupied,
    /// The point is above level 0 and the four balls under it are not all there.
    NoPlatform,
    /// The placed ball's group would have no freedom once the move is complete.
    Suicide,
    /// The move would repeat an earlier position with the same side to move.
    Superko,
    /// Swap is allowed only as the second move of the game, and only when enabled.
    SwapNotAllowed,
    /// It is the other colour's turn.
    WrongTurn,
    /// The side to move has no legal move: the game has ended.
    GameOver,
    /// The point does not exist on this board size.
    OffBoard,
}

impl IllegalMove {
    /// The lower-case reason word: `occupied`, `no_platform`, `suicide`, `superko`,
    /// `swap_not_allowed`, `wrong_turn`, `game_over`, `off_board`.
    pub fn reason(self) -> &'static str {
        match self {
            IllegalMove::Occupied => "occupied",
            IllegalMove::NoPlatform => "no_platform",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Superko => "superko",
            IllegalMove::SwapNotAllowed => "swap_not_allowed",
            IllegalMove::WrongTurn => "wrong_turn",
            IllegalMove::GameOver => "game_over",
            IllegalMove::OffBoard => "off_board",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.reason())
    }
}

impl std::error::Error for IllegalMove {}

/// The error of asking for a board size outside 4..=9.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsupportedSize(pub usize);

impl fmt::Display for UnsupportedSize {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "unacceptable size {} (margo boards are {MIN_SIZE} to {MAX_SIZE})",
            self.0
        )
    }
}

impl std::error::Error for UnsupportedSize {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_indices_round_trip_and_skip_zero() {
        assert_eq!(MAX_POINTS, 285);
        assert_eq!(Move::from_index(0), None);
        assert_eq!(Move::from_index(MOVE_SPACE as u16), None);
        for index in 1..MOVE_SPACE as u16 {
            let decoded = Move::from_index(index).expect("in range");
            assert_eq!(decoded.index(), index);
        }
        assert_eq!(Move::Place(Point(0)).index(), 1);
        assert_eq!(Move::Swap.index() as usize, MAX_POINTS + 1);
    }

    #[test]
    fn reasons_are_lower_case_words() {
        assert_eq!(IllegalMove::NoPlatform.to_string(), "no_platform");
        assert_eq!(IllegalMove::SwapNotAllowed.to_string(), "swap_not_allowed");
    }
}
