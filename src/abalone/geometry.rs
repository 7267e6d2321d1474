//! The 61-cell Abalone hexagon: cells, their official names, the six directions and the
//! neighbour table. Knows nothing of marbles, colours or moves.
//!
//! Coordinates are the official ones: rows `a` (bottom) to `i` (top), diagonals `1` to `9`
//! running NW-SE, `a1` in the bottom-left corner. Cell (row R, diagonal k) with R = 0..8 and
//! k = 1..9 exists iff |R - (k - 1)| <= 4, so row `a` is a1-a5, `e` is e1-e9 and `i` is i5-i9.
//! Cells are numbered 0..61 row by row from `a1`, so their index order is also the order in
//! which the notation sorts them (row letter, then number).

use std::fmt;

/// Number of cells on the board.
pub const CELL_COUNT: usize = 61;
/// Number of rows (and of diagonals).
pub const ROW_COUNT: usize = 9;
/// Marker in the neighbour table for "off the board".
const NO_CELL: u8 = u8::MAX;

/// One step on the hexagon. The order is counter-clockwise from east, so the opposite of
/// direction `i` is `(i + 3) % 6`, and the first three are the "positive" axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Same row, diagonal + 1 (a1 to a2).
    East,
    /// Row + 1, diagonal + 1 (a1 to b2).
    NorthEast,
    /// Row + 1, same diagonal (a1 to b1).
    NorthWest,
    /// Same row, diagonal - 1.
    West,
    /// Row - 1, diagonal - 1.
    SouthWest,
    /// Row - 1, same diagonal.
    SouthEast,
}

impl Direction {
    /// All six directions, in index order.
    pub const ALL: [Direction; 6] = [
        Direction::East,
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::West,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// The three axis directions a line is canonically written along (east, north-east,
    /// north-west): walking a line that way goes from the end that sorts first to the other.
    pub const AXES: [Direction; 3] = [Direction::East, Direction::NorthEast, Direction::NorthWest];

    /// 0..6 in the order of [`Direction::ALL`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The direction with this index; `None` for 6 and above.
    #[inline]
    pub fn from_index(index: usize) -> Option<Direction> {
        Direction::ALL.get(index).copied()
    }

    /// The direction pointing the other way.
    #[inline]
    pub fn opposite(self) -> Direction {
        Direction::ALL[(self.index() + 3) % 6]
    }

    /// True for east, north-east and north-west (the members of [`Direction::AXES`]).
    #[inline]
    pub fn is_axis(self) -> bool {
        self.index() < 3
    }

    /// The axis of this direction: itself when [`is_axis`](Direction::is_axis), else its opposite.
    #[inline]
    pub fn axis(self) -> Direction {
        if self.is_axis() {
            self
        } else {
            self.opposite()
        }
    }

    /// True when `other` is this direction or its opposite.
    #[inline]
    pub fn is_parallel(self, other: Direction) -> bool {
        self.axis() == other.axis()
    }

    /// (row step, diagonal step).
    pub fn step(self) -> (i32, i32) {
        DIRECTION_STEPS[self.index()]
    }

    /// A short upper-case name: `E`, `NE`, `NW`, `W`, `SW`, `SE`.
    pub fn short_name(self) -> &'static str {
        ["E", "NE", "NW", "W", "SW", "SE"][self.index()]
    }

    /// Parses a [`short_name`](Direction::short_name), in any case.
    pub fn parse(text: &str) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|direction| direction.short_name().eq_ignore_ascii_case(text))
    }
}

/// (row step, diagonal step) for each direction index.
const DIRECTION_STEPS: [(i32, i32); 6] = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];

/// The first diagonal (0-based) of each row.
const ROW_FIRST_COLUMN: [u8; ROW_COUNT] = [0, 0, 0, 0, 0, 1, 2, 3, 4];
/// The number of cells in each row.
const ROW_LENGTH: [u8; ROW_COUNT] = [5, 6, 7, 8, 9, 8, 7, 6, 5];
/// The index of each row's first cell.
const ROW_START: [u8; ROW_COUNT] = [0, 5, 11, 18, 26, 35, 43, 50, 56];

/// The cell index at (row, column), both 0-based, or `NO_CELL` off the board.
const fn index_at(row: i32, column: i32) -> u8 {
    if row < 0 || row >= ROW_COUNT as i32 || column < 0 || column >= ROW_COUNT as i32 {
        return NO_CELL;
    }
    let difference = row - column;
    if difference > 4 || difference < -4 {
        return NO_CELL;
    }
    ROW_START[row as usize] + (column - ROW_FIRST_COLUMN[row as usize] as i32) as u8
}

/// (row, column), 0-based, of every cell.
const CELL_COORDINATES: [(u8, u8); CELL_COUNT] = {
    let mut table = [(0u8, 0u8); CELL_COUNT];
    let mut row = 0;
    while row < ROW_COUNT {
        let mut offset = 0;
        while offset < ROW_LENGTH[row] as usize {
            table[ROW_START[row] as usize + offset] =
                (row as u8, ROW_FIRST_COLUMN[row] + offset as u8);
            offset += 1;
        }
        row += 1;
    }
    table
};

/// The neighbour of every cell in every direction (`NO_CELL` off the board).
const NEIGHBOURS: [[u8; 6]; CELL_COUNT] = {
    let mut table = [[NO_CELL; 6]; CELL_COUNT];
    let mut cell = 0;
    while cell < CELL_COUNT {
        let (row, column) = CELL_COORDINATES[cell];
        let mut direction = 0;
        while direction < 6 {
            let (row_step, column_step) = DIRECTION_STEPS[direction];
            table[cell][direction] = index_at(row as i32 + row_step, column as i32 + column_step);
            direction += 1;
        }
        cell += 1;
    }
    table
};

/// The hex distance of every cell from the centre `e5`.
const CENTRE_DISTANCES: [u8; CELL_COUNT] = {
    let mut table = [0u8; CELL_COUNT];
    let mut cell = 0;
    while cell < CELL_COUNT {
        let (row, column) = CELL_COORDINATES[cell];
        let row_offset = row as i32 - 4;
        let column_offset = column as i32 - 4;
        table[cell] = hex_distance(row_offset, column_offset) as u8;
        cell += 1;
    }
    table
};

/// Hex distance of an offset (rows, diagonals) in these axial coordinates.
const fn hex_distance(row_offset: i32, column_offset: i32) -> i32 {
    let a = row_offset.abs();
    let b = column_offset.abs();
    let c = (row_offset - column_offset).abs();
    let larger = if a > b { a } else { b };
    if larger > c {
        larger
    } else {
        c
    }
}

/// One of the 61 cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub(super) u8);

impl Cell {
    /// The cell with this index (0..61, row by row from `a1`); `None` otherwise.
    #[inline]
    pub fn from_index(index: usize) -> Option<Cell> {
        if index < CELL_COUNT {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    /// 0..61.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Every cell, `a1` first.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELL_COUNT as u8).map(Cell)
    }

    /// The cell at `row` (0 for `a` .. 8 for `i`) and `diagonal` (1..9), if it exists.
    pub fn from_coordinates(row: usize, diagonal: usize) -> Option<Cell> {
        if !(1..=ROW_COUNT).contains(&diagonal) || row >= ROW_COUNT {
            return None;
        }
        let index = index_at(row as i32, diagonal as i32 - 1);
        if index == NO_CELL {
            None
        } else {
            Some(Cell(index))
        }
    }

    /// The row, 0 for `a` .. 8 for `i`.
    #[inline]
    pub fn row(self) -> usize {
        CELL_COORDINATES[self.index()].0 as usize
    }

    /// The diagonal number, 1..9.
    #[inline]
    pub fn diagonal(self) -> usize {
        CELL_COORDINATES[self.index()].1 as usize + 1
    }

    /// The adjacent cell in `direction`, or `None` off the board.
    #[inline]
    pub fn neighbour(self, direction: Direction) -> Option<Cell> {
        let index = NEIGHBOURS[self.index()][direction.index()];
        if index == NO_CELL {
            None
        } else {
            Some(Cell(index))
        }
    }

    /// The cell `steps` steps away in `direction`, or `None` when the walk leaves the board.
    pub fn walk(self, direction: Direction, steps: usize) -> Option<Cell> {
        let mut cell = self;
        for _ in 0..steps {
            cell = cell.neighbour(direction)?;
        }
        Some(cell)
    }

    /// The direction from this cell to an adjacent `other`, if they are adjacent.
    pub fn direction_to(self, other: Cell) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|&direction| self.neighbour(direction) == Some(other))
    }

    /// Hex distance to the centre `e5` (0..=4).
    #[inline]
    pub fn centre_distance(self) -> u32 {
        CENTRE_DISTANCES[self.index()] as u32
    }

    /// Hex distance between two cells.
    pub fn distance(self, other: Cell) -> u32 {
        let (row, column) = CELL_COORDINATES[self.index()];
        let (other_row, other_column) = CELL_COORDINATES[other.index()];
        hex_distance(
            row as i32 - other_row as i32,
            column as i32 - other_column as i32,
        ) as u32
    }

    /// True for the 24 cells of the outer ring (with at least one neighbour off the board).
    #[inline]
    pub fn is_rim(self) -> bool {
        self.centre_distance() == 4
    }

    /// Parses `a1`..`i9` (either case); `None` for text that names no cell.
    pub fn parse(text: &str) -> Option<Cell> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let row = bytes[0].to_ascii_lowercase();
        let diagonal = bytes[1];
        if !(b'a'..=b'i').contains(&row) || !(b'1'..=b'9').contains(&diagonal) {
            return None;
        }
        Cell::from_coordinates((row - b'a') as usize, (diagonal - b'0') as usize)
    }

    /// The row letter, `a`..`i`.
    pub fn row_letter(self) -> char {
        (b'a' + self.row() as u8) as char
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}{}", self.row_letter(), self.diagonal())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_the_official_cells() {
        let names: Vec<String> = Cell::all().map(|cell| cell.to_string()).collect();
        assert_eq!(names.len(), 61);
        assert_eq!(&names[..5], &["a1", "a2", "a3", "a4", "a5"]);
        assert_eq!(names[26], "e1");
        assert_eq!(names[34], "e9");
        assert_eq!(&names[56..], &["i5", "i6", "i7", "i8", "i9"]);
        for cell in Cell::all() {
            assert_eq!(Cell::parse(&cell.to_string()), Some(cell));
        }
        assert_eq!(Cell::parse("a6"), None);
        assert_eq!(Cell::parse("i4"), None);
        assert_eq!(Cell::parse("E5"), Cell::from_coordinates(4, 5));
    }

    #[test]
    fn neighbours_are_symmetric() {
        for cell in Cell::all() {
            let mut count = 0;
            for direction in Direction::ALL {
                if let Some(next) = cell.neighbour(direction) {
                    count += 1;
                    assert_eq!(next.neighbour(direction.opposite()), Some(cell));
                    assert_eq!(cell.distance(next), 1);
                }
            }
            assert_eq!(count == 6, !cell.is_rim(), "{cell}");
        }
        let a1 = Cell::parse("a1").unwrap();
        assert_eq!(a1.neighbour(Direction::NorthEast), Cell::parse("b2"));
        assert_eq!(a1.neighbour(Direction::NorthWest), Cell::parse("b1"));
        assert_eq!(a1.neighbour(Direction::West), None);
        assert_eq!(Cell::all().filter(|cell| cell.is_rim()).count(), 24);
    }
}
