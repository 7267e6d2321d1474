//! Reading AbaPro move text against a position. Knows the notation and asks the board for
//! legality; writing moves is `Move`'s `Display` (canonical, lower case).
//!
//! - inline: two cells, the trailing marble's cell and the cell it moves to (`a1a2`, a
//!   single marble `c3d3`). The moving line is every marble of the mover in a row from the
//!   trailing cell in that direction, at most three;
//! - broadside: three cells, the two ends of the line (2 or 3 cells long) and the
//!   destination of the first end (`a1a2b2` moves a1,a2 to b2,b3). Either end may come first.
//!
//! Input is case-insensitive.

use super::board::Board;
use super::geometry::{Cell, Direction};
use super::moves::{IllegalMove, Move};
use crate::color::Color;
use std::fmt;

/// Why move text was not accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseMoveError {
    /// The text names no move shape: not 2 or 3 cells, a cell off the board, an inline
    /// destination not adjacent, broadside ends not 2-3 cells of one line, or a broadside
    /// destination not adjacent to the first end or along the line. The text says which.
    Syntax(&'static str),
    /// Well-formed, but not legal now.
    Illegal(IllegalMove),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Syntax(reason) => write!(formatter, "syntax error: {reason}"),
            ParseMoveError::Illegal(reason) => write!(formatter, "illegal move: {reason}"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl From<IllegalMove> for ParseMoveError {
    fn from(reason: IllegalMove) -> ParseMoveError {
        ParseMoveError::Illegal(reason)
    }
}

/// The cells of move text, without any board.
fn cells_of(text: &str) -> Result<Vec<Cell>, ParseMoveError> {
    if !text.is_ascii() || !(text.len() == 4 || text.len() == 6) {
        return Err(ParseMoveError::Syntax(
            "expected 2 or 3 cells such as a1a2 or a1a2b2",
        ));
    }
    let mut cells = Vec::with_capacity(3);
    for position in (0..text.len()).step_by(2) {
        match text.get(position..position + 2).and_then(Cell::parse) {
            Some(cell) => cells.push(cell),
            None => return Err(ParseMoveError::Syntax("not a cell of the board")),
        }
    }
    Ok(cells)
}

/// Reads `text` as a move of `color` and checks it on `board`.
///
/// # Errors
/// [`ParseMoveError::Syntax`] for malformed text (checked first), else
/// [`ParseMoveError::Illegal`] with the reason of [`Board::check`].
pub fn parse_move(board: &Board, color: Color, text: &str) -> Result<Move, ParseMoveError> {
    let mv = parse_shape(board, color, text)?;
    board.check(color, mv)?;
    Ok(mv)
}

/// Reads the move's shape; the inline length is the run of `color`'s marbles on `board`.
fn parse_shape(board: &Board, color: Color, text: &str) -> Result<Move, ParseMoveError> {
    let cells = cells_of(text)?;
    if let [trailing, target] = cells[..] {
        let Some(direction) = trailing.direction_to(target) else {
            return Err(ParseMoveError::Syntax(
                "an inline move goes to an adjacent cell",
            ));
        };
        let mut length = 1;
        let mut next = trailing.neighbour(direction);
        while length < 3 && board.at(trailing) == Some(color) {
            match next {
                Some(cell) if board.at(cell) == Some(color) => {
                    length += 1;
                    next = cell.neighbour(direction);
                }
                _ => break,
            }
        }
        return Move::inline(trailing, direction, length)
            .ok_or(ParseMoveError::Syntax("the line leaves the board"));
    }
    let (end, other_end, destination) = (cells[0], cells[1], cells[2]);
    let line = Direction::ALL.into_iter().find_map(|direction| {
        (1..=2)
            .find(|&steps| end.walk(direction, steps) == Some(other_end))
            .map(|steps| (direction, steps + 1))
    });
    let Some((line, length)) = line else {
        return Err(ParseMoveError::Syntax(
            "the ends are not 2 or 3 cells of one line",
        ));
    };
    let Some(direction) = end.direction_to(destination) else {
        return Err(ParseMoveError::Syntax(
            "the third cell must be adjacent to the first",
        ));
    };
    Move::broadside(end, line, length, direction).ok_or(ParseMoveError::Syntax(
        "a broadside moves sideways, not along its line",
    ))
}
