//! The shape of a Margo pyramid: which points exist on an n x n board and how they touch.
//!
//! Knows, per board size 4..=9, every point of every level, the same-level orthogonal contacts
//! with the two level-up balls that straddle each, the four points below and above, the point
//! two levels straight above (the burier), and the designer's columns. Knows nothing of balls,
//! colours or rules: the tables are built once per size and shared by every position.

use std::sync::OnceLock;

use super::{MAX_POINTS, MAX_SIZE, MIN_SIZE};

/// The marker for "no such point" in the fixed-size tables.
pub const NO_POINT: u16 = u16::MAX;

/// A point of the pyramid, an index into a size's tables (level 0 first, then level 1, ...,
/// each level row by row from the bottom-left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u16);

impl Point {
    /// The point's index into the geometry tables and the position's cells.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a point sits: level (0 = the board holes), row and column (0-based from the
/// bottom-left of that level).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coordinates {
    /// The level, 0 for a board hole.
    pub level: usize,
    /// The row within the level, 0 at the bottom.
    pub row: usize,
    /// The column within the level, 0 at the left.
    pub column: usize,
}

/// A same-level orthogonal contact of a point: the neighbour and the two points one level up
/// that straddle the contact (either may be [`NO_POINT`] at the edge of the level above).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contact {
    /// The neighbouring point on the same level, or [`NO_POINT`] for an unused slot.
    pub neighbour: u16,
    /// The two level-up points whose own contact crosses over this one.
    pub straddlers: [u16; 2],
}

const NO_CONTACT: Contact = Contact {
    neighbour: NO_POINT,
    straddlers: [NO_POINT, NO_POINT],
};

/// The precomputed tables of one board size. Obtain one with [`Geometry::of`].
#[derive(Debug)]
pub struct Geometry {
    size: usize,
    point_count: usize,
    level_starts: Vec<usize>,
    coordinates: Vec<Coordinates>,
    contacts: Vec<[Contact; 4]>,
    below: Vec<[u16; 4]>,
    above: Vec<[u16; 4]>,
    burier: Vec<u16>,
    columns: Vec<Vec<u16>>,
}

static GEOMETRIES: [OnceLock<Geometry>; MAX_SIZE - MIN_SIZE + 1] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// The number of points of the pyramid on an n x n board: n(n+1)(2n+1)/6.
pub const fn point_count(size: usize) -> usize {
    size * (size + 1) * (2 * size + 1) / 6
}

impl Geometry {
    /// The shared tables of a board size, or `None` when the size is outside 4..=9.
    pub fn of(size: usize) -> Option<&'static Geometry> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        Some(GEOMETRIES[size - MIN_SIZE].get_or_init(|| Geometry::build(size)))
    }

    fn build(size: usize) -> Geometry {
        let point_count = point_count(size);
        debug_assert!(point_count <= MAX_POINTS);
        let mut level_starts = Vec::with_capacity(size + 1);
        let mut start = 0;
        for level in 0..size {
            level_starts.push(start);
            start += (size - level) * (size - level);
        }
        level_starts.push(start);
        let index = |level: isize, row: isize, column: isize| -> u16 {
            if level < 0 || level >= size as isize {
                return NO_POINT;
            }
            let width = (size as isize) - level;
            if row < 0 || column < 0 || row >= width || column >= width {
                return NO_POINT;
            }
            (level_starts[level as usize] as isize + row * width + column) as u16
        };
        let mut coordinates = Vec::with_capacity(point_count);
        let mut contacts = Vec::with_capacity(point_count);
        let mut below = Vec::with_capacity(point_count);
        let mut above = Vec::with_capacity(point_count);
        let mut burier = Vec::with_capacity(point_count);
        for level in 0..size {
            let width = size - level;
            for row in 0..width {
                for column in 0..width {
                    coordinates.push(Coordinates { level, row, column });
                    let (h, r, c) = (level as isize, row as isize, column as isize);
                    // Contacts along a row are straddled by (h+1, r-1, c) and (h+1, r, c) for
                    // the pair (c, c+1); along a column by (h+1, r, c-1) and (h+1, r, c) for
                    // the pair (r, r+1). Each contact is listed from both ends.
                    let candidates = [
                        (
                            index(h, r, c + 1),
                            [index(h + 1, r - 1, c), index(h + 1, r, c)],
                        ),
                        (
                            index(h, r, c - 1),
                            [index(h + 1, r - 1, c - 1), index(h + 1, r, c - 1)],
                        ),
                        (
                            index(h, r + 1, c),
                            [index(h + 1, r, c - 1), index(h + 1, r, c)],
                        ),
                        (
                            index(h, r - 1, c),
                            [index(h + 1, r - 1, c - 1), index(h + 1, r - 1, c)],
                        ),
                    ];
                    let mut list = [NO_CONTACT; 4];
                    let mut count = 0;
                    for (neighbour, straddlers) in candidates {
                        if neighbour != NO_POINT {
                            list[count] = Contact {
                                neighbour,
                                straddlers,
                            };
                            count += 1;
                        }
                    }
                    contacts.push(list);
                    below.push(packed([
                        index(h - 1, r, c),
                        index(h - 1, r, c + 1),
                        index(h - 1, r + 1, c),
                        index(h - 1, r + 1, c + 1),
                    ]));
                    above.push(packed([
                        index(h + 1, r - 1, c - 1),
                        index(h + 1, r - 1, c),
                        index(h + 1, r, c - 1),
                        index(h + 1, r, c),
                    ]));
                    burier.push(index(h + 2, r - 1, c - 1));
                }
            }
        }
        let width = 2 * size - 1;
        let mut columns = vec![Vec::new(); width * width];
        for (point, place) in coordinates.iter().enumerate() {
            let x = 2 * place.column + place.level;
            let y = 2 * place.row + place.level;
            columns[x * width + y].push(point as u16);
        }
        Geometry {
            size,
            point_count,
            level_starts,
            coordinates,
            contacts,
            below,
            above,
            burier,
            columns,
        }
    }

    /// Holes along one side of the board (4..=9).
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The number of points of the whole pyramid.
    #[inline]
    pub fn point_count(&self) -> usize {
        self.point_count
    }

    /// The range of point indices on one level; empty for a level at or above `size()`.
    #[inline]
    pub fn level_range(&self, level: usize) -> std::ops::Range<usize> {
        if level >= self.size {
            return self.point_count..self.point_count;
        }
        self.level_starts[level]..self.level_starts[level + 1]
    }

    /// Where a point sits. Panics if the point is not on this board.
    #[inline]
    pub fn coordinates(&self, point: Point) -> Coordinates {
        self.coordinates[point.index()]
    }

    /// The point at (level, row, column), or `None` off the pyramid.
    pub fn point(&self, level: usize, row: usize, column: usize) -> Option<Point> {
        if level >= self.size {
            return None;
        }
        let width = self.size - level;
        if row >= width || column >= width {
            return None;
        }
        Some(Point(
            (self.level_starts[level] + row * width + column) as u16,
        ))
    }

    /// Whether the point index is on this board.
    #[inline]
    pub fn contains(&self, point: Point) -> bool {
        point.index() < self.point_count
    }

    /// The same-level orthogonal contacts of a point; unused slots have `neighbour == NO_POINT`
    /// and come last.
    #[inline]
    pub fn contacts(&self, point: usize) -> &[Contact; 4] {
        &self.contacts[point]
    }

    /// The four points a level-h>0 point rests on (all [`NO_POINT`] on level 0).
    #[inline]
    pub fn below(&self, point: usize) -> &[u16; 4] {
        &self.below[point]
    }

    /// The up to four points resting on a point; absent ones are [`NO_POINT`] and come last.
    #[inline]
    pub fn above(&self, point: usize) -> &[u16; 4] {
        &self.above[point]
    }

    /// The point two levels straight above, whose ball buries this one, or [`NO_POINT`].
    #[inline]
    pub fn burier(&self, point: usize) -> u16 {
        self.burier[point]
    }

    /// Columns of the designer's (2n-1) x (2n-1) grid: `x` is the letter index (A = 0) and
    /// `y` the number minus one. Returns the points of that column from the lowest up; empty
    /// for a vertex with no point (x and y of different parity) or off the grid.
    pub fn column(&self, x: usize, y: usize) -> &[u16] {
        let width = self.grid_width();
        if x >= width || y >= width {
            return &[];
        }
        &self.columns[x * width + y]
    }

    /// The side of the designer's grid, 2n-1.
    #[inline]
    pub fn grid_width(&self) -> usize {
        2 * self.size - 1
    }

    /// The designer grid cell of a point: (letter index 2c+h, number index 2r+h, both 0-based).
    pub fn vertex(&self, point: Point) -> (usize, usize) {
        let place = self.coordinates(point);
        (2 * place.column + place.level, 2 * place.row + place.level)
    }
}

fn packed(points: [u16; 4]) -> [u16; 4] {
    let mut list = [NO_POINT; 4];
    let mut count = 0;
    for point in points {
        if point != NO_POINT {
            list[count] = point;
            count += 1;
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_counts_match_the_sheet() {
        let expected = [(4, 30), (5, 55), (6, 91), (7, 140), (8, 204), (9, 285)];
        for (size, count) in expected {
            let geometry = Geometry::of(size).expect("supported size");
            assert_eq!(geometry.point_count(), count);
            assert_eq!(point_count(size), count);
        }
        assert!(Geometry::of(3).is_none());
        assert!(Geometry::of(10).is_none());
        assert_eq!(point_count(MAX_SIZE), MAX_POINTS);
    }

    #[test]
    fn below_and_above_are_inverse() {
        for size in MIN_SIZE..=MAX_SIZE {
            let geometry = Geometry::of(size).expect("supported size");
            for point in 0..geometry.point_count() {
                let place = geometry.coordinates(Point(point as u16));
                let below: Vec<u16> = geometry
                    .below(point)
                    .iter()
                    .copied()
                    .filter(|&p| p != NO_POINT)
                    .collect();
                assert_eq!(below.len(), if place.level == 0 { 0 } else { 4 });
                for lower in below {
                    assert!(geometry.above(lower as usize).contains(&(point as u16)));
                }
                for &upper in geometry.above(point) {
                    if upper != NO_POINT {
                        assert!(geometry.below(upper as usize).contains(&(point as u16)));
                    }
                }
            }
        }
    }

    #[test]
    fn contacts_are_symmetric_and_straddlers_rest_on_both_ends() {
        for size in MIN_SIZE..=MAX_SIZE {
            let geometry = Geometry::of(size).expect("supported size");
            for point in 0..geometry.point_count() {
                for contact in geometry.contacts(point) {
                    if contact.neighbour == NO_POINT {
                        continue;
                    }
                    let back = geometry.contacts(contact.neighbour as usize);
                    let reverse = back
                        .iter()
                        .find(|other| other.neighbour == point as u16)
                        .expect("contact listed from both ends");
                    let mut mine = contact.straddlers;
                    let mut theirs = reverse.straddlers;
                    mine.sort_unstable();
                    theirs.sort_unstable();
                    assert_eq!(mine, theirs);
                    for straddler in contact.straddlers {
                        if straddler != NO_POINT {
                            let rests = geometry.below(straddler as usize);
                            assert!(rests.contains(&(point as u16)));
                            assert!(rests.contains(&contact.neighbour));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn burier_rests_on_the_four_points_above() {
        let geometry = Geometry::of(6).expect("supported size");
        let low = geometry.point(0, 2, 3).expect("on board");
        let burier = geometry.burier(low.index());
        assert_eq!(Some(Point(burier)), geometry.point(2, 1, 2));
        let mut resting: Vec<u16> = geometry.below(burier as usize).to_vec();
        let mut upper: Vec<u16> = geometry.above(low.index()).to_vec();
        resting.sort_unstable();
        upper.sort_unstable();
        assert_eq!(resting, upper);
        let corner = geometry.point(0, 0, 0).expect("on board");
        assert_eq!(geometry.burier(corner.index()), NO_POINT);
    }

    #[test]
    fn every_point_has_one_column_and_columns_stack_buriers() {
        for size in MIN_SIZE..=MAX_SIZE {
            let geometry = Geometry::of(size).expect("supported size");
            let width = geometry.grid_width();
            let mut seen = 0;
            for x in 0..width {
                for y in 0..width {
                    let column = geometry.column(x, y);
                    if (x + y) % 2 == 1 {
                        assert!(column.is_empty());
                    }
                    for pair in column.windows(2) {
                        assert_eq!(geometry.burier(pair[0] as usize), pair[1]);
                    }
                    for &point in column {
                        assert_eq!(geometry.vertex(Point(point)), (x, y));
                    }
                    seen += column.len();
                }
            }
            assert_eq!(seen, geometry.point_count());
        }
    }
}
