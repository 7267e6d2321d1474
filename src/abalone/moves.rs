//! Abalone moves as values: which line of marbles moves which way, their kinds, their dense
//! index for the search, their canonical AbaPro spelling, and the reasons a move can be
//! illegal. Knows the geometry of a move but not whether it is legal on a board (that is
//! `board.rs`) nor how text is read (that is `notation.rs`).
//!
//! A move is a line of 1 to 3 cells plus a direction:
//! - **inline** (the direction runs along the line; a single marble is always inline): the
//!   first cell is the *trailing* marble, the line runs from it in the move direction;
//! - **broadside** (2 or 3 marbles, the direction is one of the four not along the line):
//!   the first cell is the end that sorts first, the line runs from it along one of
//!   [`Direction::AXES`].
//!
//! These canonical forms make equal moves equal values, so distinct moves have distinct
//! [`Move::index`]es.

use super::geometry::{Cell, Direction, CELL_COUNT};
use std::fmt;

/// Number of inline move indices: cell x direction x length (1..=3).
const INLINE_INDICES: usize = CELL_COUNT * 6 * 3;
/// Number of broadside move indices: cell x axis x length (2..=3) x sideways direction.
const BROADSIDE_INDICES: usize = CELL_COUNT * 3 * 2 * 4;

/// One more than the largest [`Move::index`]: index 0 is reserved (never a move), so arrays
/// indexed by moves have this length.
pub const MOVE_SPACE: usize = 1 + INLINE_INDICES + BROADSIDE_INDICES;

/// A move of 1 to 3 marbles one step in one direction, in canonical form (see the module).
/// It is a pure geometric value: legality depends on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    // Sibling modules build generated moves directly; they keep the canonical form.
    pub(super) first: Cell,
    pub(super) line: Direction,
    pub(super) length: u8,
    pub(super) direction: Direction,
}

/// The five kinds of moves the perft breakdown counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// One marble, any direction.
    Single,
    /// Two marbles along their line.
    InlineTwo,
    /// Two marbles sideways.
    BroadsideTwo,
    /// Three marbles along their line.
    InlineThree,
    /// Three marbles sideways.
    BroadsideThree,
}

impl MoveKind {
    /// All kinds, in the order of the perft tables.
    pub const ALL: [MoveKind; 5] = [
        MoveKind::Single,
        MoveKind::InlineTwo,
        MoveKind::BroadsideTwo,
        MoveKind::InlineThree,
        MoveKind::BroadsideThree,
    ];

    /// 0..5 in the order of [`MoveKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl Move {
    /// The inline move of the `length` (1..=3) marbles starting at `trailing` and running in
    /// `direction`, all moving in `direction`. `None` when the length is out of range or the
    /// line leaves the board.
    pub fn inline(trailing: Cell, direction: Direction, length: usize) -> Option<Move> {
        if !(1..=3).contains(&length) {
            return None;
        }
        trailing.walk(direction, length - 1)?;
        Some(Move {
            first: trailing,
            line: direction,
            length: length as u8,
            direction,
        })
    }

    /// The broadside move of the `length` (2..=3) marbles starting at the end `start` and
    /// running along `line` (either way), all moving in `direction`. `None` when the length is
    /// out of range, the line leaves the board or `direction` is parallel to `line`.
    pub fn broadside(
        start: Cell,
        line: Direction,
        length: usize,
        direction: Direction,
    ) -> Option<Move> {
        if !(2..=3).contains(&length) || direction.is_parallel(line) {
            return None;
        }
        let end = start.walk(line, length - 1)?;
        let first = if line.is_axis() { start } else { end };
        Some(Move {
            first,
            line: line.axis(),
            length: length as u8,
            direction,
        })
    }

    /// The first cell: the trailing marble of an inline move, the end that sorts first of a
    /// broadside.
    #[inline]
    pub fn first(self) -> Cell {
        self.first
    }

    /// The direction the line runs in from [`first`](Move::first).
    #[inline]
    pub fn line(self) -> Direction {
        self.line
    }

    /// The number of own marbles moved, 1..=3.
    #[inline]
    pub fn length(self) -> usize {
        self.length as usize
    }

    /// The direction every moved marble steps in.
    #[inline]
    pub fn direction(self) -> Direction {
        self.direction
    }

    /// True for inline moves (single marbles included), false for broadsides.
    #[inline]
    pub fn is_inline(self) -> bool {
        self.line == self.direction
    }

    /// The last cell of the line: the leading marble of an inline move, the other end of a
    /// broadside.
    #[inline]
    pub fn last(self) -> Cell {
        self.cell(self.length() - 1)
    }

    /// The `position`-th cell of the line from [`first`](Move::first).
    ///
    /// # Panics
    /// When `position >= self.length()`.
    #[inline]
    pub fn cell(self, position: usize) -> Cell {
        assert!(
            position < self.length(),
            "cell {position} of a line of {}",
            self.length
        );
        let mut cell = self.first;
        for _ in 0..position {
            // Moves are only built by the constructors above, which checked the whole line.
            cell = match cell.neighbour(self.line) {
                Some(next) => next,
                None => unreachable!("a move's line stays on the board"),
            };
        }
        cell
    }

    /// The cells of the moving line, from [`first`](Move::first).
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        (0..self.length()).map(move |position| self.cell(position))
    }

    /// The kind of the move.
    pub fn kind(self) -> MoveKind {
        match (self.length, self.is_inline()) {
            (1, _) => MoveKind::Single,
            (2, true) => MoveKind::InlineTwo,
            (2, false) => MoveKind::BroadsideTwo,
            (_, true) => MoveKind::InlineThree,
            (_, false) => MoveKind::BroadsideThree,
        }
    }

    /// The dense index, 1..[`MOVE_SPACE`]; 0 is never a move. Distinct moves have distinct
    /// indices.
    pub fn index(self) -> u16 {
        let cell = self.first.index();
        let length = self.length();
        let index = if self.is_inline() {
            1 + (cell * 6 + self.direction.index()) * 3 + (length - 1)
        } else {
            let side = sideways_position(self.line, self.direction);
            1 + INLINE_INDICES + ((cell * 3 + self.line.index()) * 2 + (length - 2)) * 4 + side
        };
        index as u16
    }

    /// The move with this [`index`](Move::index); `None` for 0, out-of-range indices and
    /// indices whose line would leave the board.
    pub fn from_index(index: u16) -> Option<Move> {
        let index = index as usize;
        if index == 0 || index >= MOVE_SPACE {
            return None;
        }
        let index = index - 1;
        if index < INLINE_INDICES {
            let length = index % 3 + 1;
            let direction = Direction::from_index(index / 3 % 6)?;
            let cell = Cell::from_index(index / 18)?;
            Move::inline(cell, direction, length)
        } else {
            let index = index - INLINE_INDICES;
            let side = index % 4;
            let length = index / 4 % 2 + 2;
            let line = Direction::AXES[index / 8 % 3];
            let cell = Cell::from_index(index / 24)?;
            let direction = Direction::from_index((line.index() + [1, 2, 4, 5][side]) % 6)?;
            Move::broadside(cell, line, length, direction)
        }
    }
}

/// The position (0..4) of a sideways `direction` among the four not parallel to `axis`.
fn sideways_position(axis: Direction, direction: Direction) -> usize {
    match (direction.index() + 6 - axis.index()) % 6 {
        1 => 0,
        2 => 1,
        4 => 2,
        _ => 3,
    }
}

impl fmt::Display for Move {
    /// The canonical AbaPro spelling, lower case: inline `a1a2` (the trailing marble's cell,
    /// then the cell it moves to), broadside `a1a2b2` (the end that sorts first, the other
    /// end, the destination of the first end). A move whose first cell would leave the board
    /// (never a legal one) writes `off` for the destination.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let destination = self.first.neighbour(self.direction);
        let destination = match destination {
            Some(cell) => cell.to_string(),
            None => "off".to_string(),
        };
        if self.is_inline() {
            write!(formatter, "{}{}", self.first, destination)
        } else {
            write!(formatter, "{}{}{}", self.first, self.last(), destination)
        }
    }
}

/// Why a move is illegal. Each has a reason word ([`IllegalMove::reason`]), shown by
/// `Display`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// `not_own_line`: the cells are not a line of 1 to 3 of the mover's marbles (a cell is
    /// empty, holds an opposing marble, or the line leaves the board).
    NotOwnLine,
    /// `blocked`: a target cell is occupied and no push applies: an inline move whose front
    /// target holds an own marble (the line would be longer than 3), or a broadside target
    /// that is not empty.
    Blocked,
    /// `no_sumito`: an inline move into opposing marbles that the sumito rules forbid: equal
    /// numbers (pac, including one marble against one), the pusher outnumbered, or an own
    /// marble right behind the pushed ones (sandwich).
    NoSumito,
    /// `own_marble_off`: the move would carry one of the mover's own marbles off the board
    /// (an inline front marble at the edge, or a broadside target off the board).
    OwnMarbleOff,
    /// `wrong_turn`: the colour is not the side to move.
    WrongTurn,
    /// `game_over`: the game has ended (six ejections, the ply cap, or no legal move).
    GameOver,
}

impl IllegalMove {
    /// Every reason, for tests and documentation.
    pub const ALL: [IllegalMove; 6] = [
        IllegalMove::NotOwnLine,
        IllegalMove::Blocked,
        IllegalMove::NoSumito,
        IllegalMove::OwnMarbleOff,
        IllegalMove::WrongTurn,
        IllegalMove::GameOver,
    ];

    /// The reason word: `not_own_line`, `blocked`, `no_sumito`, `own_marble_off`,
    /// `wrong_turn` or `game_over`.
    pub fn reason(self) -> &'static str {
        match self {
            IllegalMove::NotOwnLine => "not_own_line",
            IllegalMove::Blocked => "blocked",
            IllegalMove::NoSumito => "no_sumito",
            IllegalMove::OwnMarbleOff => "own_marble_off",
            IllegalMove::WrongTurn => "wrong_turn",
            IllegalMove::GameOver => "game_over",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.reason())
    }
}

impl std::error::Error for IllegalMove {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip_and_are_dense() {
        let mut seen = vec![false; MOVE_SPACE];
        let mut count = 0;
        for index in 0..MOVE_SPACE as u16 + 5 {
            if let Some(mv) = Move::from_index(index) {
                assert_eq!(mv.index(), index);
                assert!(!seen[index as usize]);
                seen[index as usize] = true;
                count += 1;
            }
        }
        assert!(!seen[0]);
        assert!(count > 2000);
    }

    #[test]
    fn broadsides_are_canonical_either_way() {
        let a1 = Cell::parse("a1").unwrap();
        let a2 = Cell::parse("a2").unwrap();
        let forward = Move::broadside(a1, Direction::East, 2, Direction::NorthEast).unwrap();
        let backward = Move::broadside(a2, Direction::West, 2, Direction::NorthEast).unwrap();
        assert_eq!(forward, backward);
        assert_eq!(forward.to_string(), "a1a2b2");
        assert_eq!(forward.kind(), MoveKind::BroadsideTwo);
        assert!(Move::broadside(a1, Direction::East, 2, Direction::West).is_none());
        assert!(Move::inline(a1, Direction::West, 1).is_some());
        assert!(Move::inline(a1, Direction::West, 2).is_none());
    }
}
