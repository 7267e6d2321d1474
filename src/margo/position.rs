//! The fast Margo position: which ball lies on which point, and the rules of one placement.
//!
//! Knows groups (same-level contacts cut by two enemy straddlers, ball-on-ball contacts,
//! buried balls in no group), freedoms (empty level-0 holes beside a group's level-0 balls),
//! legal placement (empty and supported, no suicide), captures with zombies and revealed
//! captures over the whole board, ball counts and a Zobrist hash of the contents. It is a
//! fixed-size `Copy` struct with no heap, for playouts. Knows nothing of turns, swap, history
//! or superko: that is [`crate::margo::game`].

use std::fmt;

use crate::color::Color;
use crate::margo::geometry::{Geometry, Point, NO_POINT};
use crate::margo::{IllegalMove, UnsupportedSize, MAX_POINTS};

const EMPTY: u8 = 0;

#[inline]
fn cell_of(color: Color) -> u8 {
    color.index() as u8 + 1
}

#[inline]
fn color_of(cell: u8) -> Option<Color> {
    match cell {
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => None,
    }
}

const fn split_mix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut mixed = state;
    mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, mixed ^ (mixed >> 31))
}

const fn build_keys() -> ([[u64; 2]; MAX_POINTS], [u64; 2]) {
    let mut keys = [[0u64; 2]; MAX_POINTS];
    let mut state = 0x4D61_7267_6F21_2024_u64;
    let mut point = 0;
    while point < MAX_POINTS {
        let (next, black) = split_mix(state);
        let (next, white) = split_mix(next);
        keys[point] = [black, white];
        state = next;
        point += 1;
    }
    let (next, black) = split_mix(state);
    let (_, white) = split_mix(next);
    (keys, [black, white])
}

const KEYS: ([[u64; 2]; MAX_POINTS], [u64; 2]) = build_keys();

/// The Zobrist key of a ball of a colour on a point (fixed-seed splitmix64 keys).
#[inline]
pub fn ball_key(point: Point, color: Color) -> u64 {
    KEYS.0[point.index()][color.index()]
}

/// The Zobrist key of the side to move (0 when no side is to move yet).
#[inline]
pub fn side_key(side: Option<Color>) -> u64 {
    match side {
        Some(color) => KEYS.1[color.index()],
        None => 0,
    }
}

/// What the captures of one placement removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Captures {
    /// Balls removed per colour (index by [`Color::index`]).
    pub removed: [u32; 2],
    /// Whether any ball was removed after the first (enemy) capture round: a revealed capture
    /// or the capture of a friendly group other than the placed ball's.
    pub revealed: bool,
}

impl Captures {
    /// All balls removed.
    pub fn total(&self) -> u32 {
        self.removed[0] + self.removed[1]
    }
}

/// A Margo board position: the contents of every point, ball counts and the hash of the
/// contents (the side to move is not part of it).
#[derive(Clone, Copy)]
pub struct Position {
    geometry: &'static Geometry,
    cells: [u8; MAX_POINTS],
    counts: [u32; 2],
    hash: u64,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.geometry.size() == other.geometry.size() && self.cells == other.cells
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}", crate::margo::notation::board_text(self))
    }
}

impl Position {
    /// The empty board of a size.
    ///
    /// # Errors
    /// [`UnsupportedSize`] outside 4..=9.
    pub fn new(size: usize) -> Result<Position, UnsupportedSize> {
        let geometry = Geometry::of(size).ok_or(UnsupportedSize(size))?;
        Ok(Position {
            geometry,
            cells: [EMPTY; MAX_POINTS],
            counts: [0; 2],
            hash: 0,
        })
    }

    /// Builds a position from a diagram, one string per level from level 0 up (missing upper
    /// levels are empty). Each level lists its rows top row first, separated by `/` or new
    /// lines; spaces are ignored. Cells: `.` empty, `B`/`X` black, `W`/`O` white (either case,
    /// so [`crate::margo::notation::board_text`] zombies read back), `#` black and `@` white
    /// (buried balls as the diagram prints them). No captures are made.
    ///
    /// # Errors
    /// A text naming the problem: a bad size, a wrong row count or length, an unknown cell, or
    /// a ball with an incomplete platform under it.
    pub fn from_diagram(size: usize, levels: &[&str]) -> Result<Position, String> {
        let mut position = Position::new(size).map_err(|error| error.to_string())?;
        if levels.len() > size {
            return Err(format!(
                "{} levels given, a {size}x{size} board has {size}",
                levels.len()
            ));
        }
        for (level, text) in levels.iter().enumerate() {
            let width = size - level;
            let rows: Vec<String> = text
                .split(['/', '\n'])
                .map(|row| {
                    row.chars()
                        .filter(|c| !c.is_whitespace())
                        .collect::<String>()
                })
                .filter(|row| !row.is_empty())
                .collect();
            if rows.len() != width {
                return Err(format!(
                    "level {level} has {} rows, expected {width}",
                    rows.len()
                ));
            }
            for (line, row_text) in rows.iter().enumerate() {
                let row = width - 1 - line;
                let cells: Vec<char> = row_text.chars().collect();
                if cells.len() != width {
                    return Err(format!(
                        "level {level} row {row} has {} cells, expected {width}",
                        cells.len()
                    ));
                }
                for (column, symbol) in cells.into_iter().enumerate() {
                    let color = match symbol {
                        '.' => None,
                        'B' | 'b' | 'X' | 'x' | '#' => Some(Color::Black),
                        'W' | 'w' | 'O' | 'o' | '@' => Some(Color::White),
                        other => {
                            return Err(format!("unknown cell {other:?} at level {level}"));
                        }
                    };
                    if let Some(color) = color {
                        let point = position
                            .geometry
                            .point(level, row, column)
                            .ok_or_else(|| format!("no point ({level},{row},{column})"))?;
                        position.put(point, color);
                    }
                }
            }
        }
        for point in 0..position.geometry.point_count() {
            if position.cells[point] != EMPTY && !position.is_supported(Point(point as u16)) {
                let place = position.geometry.coordinates(Point(point as u16));
                return Err(format!(
                    "ball at ({},{},{}) has no complete platform",
                    place.level, place.row, place.column
                ));
            }
        }
        Ok(position)
    }

    /// The shared geometry tables of this board size.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    /// Holes along one side.
    #[inline]
    pub fn size(&self) -> usize {
        self.geometry.size()
    }

    /// The colour of the ball at a point, `None` when empty or off the board.
    #[inline]
    pub fn get(&self, point: Point) -> Option<Color> {
        if !self.geometry.contains(point) {
            return None;
        }
        color_of(self.cells[point.index()])
    }

    /// Balls in play per colour (zombies and buried balls included), black first.
    #[inline]
    pub fn ball_counts(&self) -> [u32; 2] {
        self.counts
    }

    /// The Zobrist hash of the contents (buried balls included; no side-to-move term).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn buried(&self, point: usize) -> bool {
        let burier = self.geometry.burier(point);
        burier != NO_POINT && self.cells[burier as usize] != EMPTY
    }

    /// Whether a ball two levels straight above the point hides it. Off-board points: false.
    pub fn is_buried(&self, point: Point) -> bool {
        self.geometry.contains(point) && self.buried(point.index())
    }

    /// Whether the point is on level 0 or all four points under it hold balls.
    pub fn is_supported(&self, point: Point) -> bool {
        if !self.geometry.contains(point) {
            return false;
        }
        self.geometry
            .below(point.index())
            .iter()
            .all(|&lower| lower == NO_POINT || self.cells[lower as usize] != EMPTY)
    }

    #[inline]
    fn pinned(&self, point: usize) -> bool {
        self.geometry
            .above(point)
            .iter()
            .any(|&upper| upper != NO_POINT && self.cells[upper as usize] != EMPTY)
    }

    /// Whether any ball rests on the point (it cannot be removed while one does).
    pub fn is_pinned(&self, point: Point) -> bool {
        self.geometry.contains(point) && self.pinned(point.index())
    }

    fn put(&mut self, point: Point, color: Color) {
        let index = point.index();
        debug_assert_eq!(self.cells[index], EMPTY);
        self.cells[index] = cell_of(color);
        self.counts[color.index()] += 1;
        self.hash ^= ball_key(point, color);
    }

    fn remove(&mut self, point: usize) {
        if let Some(color) = color_of(self.cells[point]) {
            self.cells[point] = EMPTY;
            self.counts[color.index()] -= 1;
            self.hash ^= ball_key(Point(point as u16), color);
        }
    }

    /// Calls `visit` for every ball connected to the (unburied) ball at `point` of `cell`.
    #[inline]
    fn for_each_connection(&self, point: usize, cell: u8, mut visit: impl FnMut(usize)) {
        let enemy = 3 - cell;
        let geometry = self.geometry;
        for contact in geometry.contacts(point) {
            if contact.neighbour == NO_POINT {
                break;
            }
            let neighbour = contact.neighbour as usize;
            if self.cells[neighbour] != cell || self.buried(neighbour) {
                continue;
            }
            let [first, second] = contact.straddlers;
            let cut = first != NO_POINT
                && second != NO_POINT
                && self.cells[first as usize] == enemy
                && self.cells[second as usize] == enemy;
            if !cut {
                visit(neighbour);
            }
        }
        for &lower in geometry.below(point) {
            if lower == NO_POINT {
                break;
            }
            let lower = lower as usize;
            if self.cells[lower] == cell && !self.buried(lower) {
                visit(lower);
            }
        }
        for &upper in geometry.above(point) {
            if upper == NO_POINT {
                break;
            }
            let upper = upper as usize;
            if self.cells[upper] == cell && !self.buried(upper) {
                visit(upper);
            }
        }
    }

    /// Whether a level-0 point has an empty orthogonal hole beside it.
    #[inline]
    fn touches_empty_hole(&self, point: usize) -> bool {
        self.geometry
            .contacts(point)
            .iter()
            .take_while(|contact| contact.neighbour != NO_POINT)
            .any(|contact| self.cells[contact.neighbour as usize] == EMPTY)
    }

    /// Whether a ball of `cell` lies beside or under the point (a possible connection).
    #[inline]
    fn touches_own_ball(&self, point: usize, cell: u8) -> bool {
        let geometry = self.geometry;
        geometry
            .contacts(point)
            .iter()
            .take_while(|contact| contact.neighbour != NO_POINT)
            .any(|contact| self.cells[contact.neighbour as usize] == cell)
            || geometry
                .below(point)
                .iter()
                .take_while(|&&lower| lower != NO_POINT)
                .any(|&lower| self.cells[lower as usize] == cell)
    }

    /// Marks, starting from the stacked points, everything connected to them.
    fn spread(
        &self,
        cell: u8,
        marks: &mut [bool; MAX_POINTS],
        stack: &mut [u16; MAX_POINTS],
        mut top: usize,
    ) {
        while top > 0 {
            top -= 1;
            let point = stack[top] as usize;
            self.for_each_connection(point, cell, |next| {
                if !marks[next] {
                    marks[next] = true;
                    stack[top] = next as u16;
                    top += 1;
                }
            });
        }
    }

    /// Marks every unburied ball of `cell` whose group has a freedom.
    fn mark_free(&self, cell: u8, marks: &mut [bool; MAX_POINTS], stack: &mut [u16; MAX_POINTS]) {
        let mut top = 0;
        for point in self.geometry.level_range(0) {
            if self.cells[point] == cell
                && !marks[point]
                && !self.buried(point)
                && self.touches_empty_hole(point)
            {
                marks[point] = true;
                stack[top] = point as u16;
                top += 1;
            }
        }
        self.spread(cell, marks, stack, top);
    }

    /// One capture round for `color`: every freedomless group (other than the group of
    /// `keep`) is captured, its balls removed highest first where nothing rests on them.
    /// Returns the number removed.
    fn capture_round(&mut self, color: Color, keep: Option<usize>) -> u32 {
        let cell = cell_of(color);
        let mut marks = [false; MAX_POINTS];
        let mut stack = [0u16; MAX_POINTS];
        self.mark_free(cell, &mut marks, &mut stack);
        if let Some(kept) = keep {
            if !marks[kept] {
                marks[kept] = true;
                stack[0] = kept as u16;
                self.spread(cell, &mut marks, &mut stack, 1);
            }
        }
        // The captured balls, highest level first, fixed before any removal: a ball that a
        // removal un-buries belonged to no group this round.
        let mut count = 0;
        for level in (0..self.geometry.size()).rev() {
            for point in self.geometry.level_range(level) {
                if self.cells[point] == cell && !marks[point] && !self.buried(point) {
                    stack[count] = point as u16;
                    count += 1;
                }
            }
        }
        let mut removed = 0;
        for &point in &stack[..count] {
            let point = point as usize;
            if !self.pinned(point) {
                self.remove(point);
                removed += 1;
            }
        }
        removed
    }

    /// Whether the group of the (unburied) ball at `point` has a freedom.
    pub fn group_has_freedom(&self, point: Point) -> bool {
        let index = point.index();
        let cell = self.cells[index];
        if cell == EMPTY || self.buried(index) {
            return false;
        }
        let mut marks = [false; MAX_POINTS];
        let mut stack = [0u16; MAX_POINTS];
        marks[index] = true;
        stack[0] = index as u16;
        let mut top = 1;
        let level_zero = self.geometry.level_range(0).end;
        while top > 0 {
            top -= 1;
            let current = stack[top] as usize;
            if current < level_zero && self.touches_empty_hole(current) {
                return true;
            }
            self.for_each_connection(current, cell, |next| {
                if !marks[next] {
                    marks[next] = true;
                    stack[top] = next as u16;
                    top += 1;
                }
            });
        }
        false
    }

    /// The number of distinct freedoms of the group of the (unburied) ball at `point`,
    /// counted up to `limit` (the search's atari and self-atari tests); 0 for an empty or
    /// buried point.
    pub fn freedom_count(&self, point: Point, limit: u32) -> u32 {
        let index = point.index();
        if !self.geometry.contains(point) || self.cells[index] == EMPTY || self.buried(index) {
            return 0;
        }
        let cell = self.cells[index];
        // Balls and holes are disjoint, so one mark array serves both.
        let mut marks = [false; MAX_POINTS];
        let mut stack = [0u16; MAX_POINTS];
        marks[index] = true;
        stack[0] = index as u16;
        let mut top = 1;
        let mut count = 0;
        let level_zero = self.geometry.level_range(0).end;
        while top > 0 {
            top -= 1;
            let current = stack[top] as usize;
            if current < level_zero {
                for contact in self.geometry.contacts(current) {
                    if contact.neighbour == NO_POINT {
                        break;
                    }
                    let hole = contact.neighbour as usize;
                    if self.cells[hole] == EMPTY && !marks[hole] {
                        marks[hole] = true;
                        count += 1;
                        if count >= limit {
                            return count;
                        }
                    }
                }
            }
            self.for_each_connection(current, cell, |next| {
                if !marks[next] {
                    marks[next] = true;
                    stack[top] = next as u16;
                    top += 1;
                }
            });
        }
        count
    }

    /// Writes to `holes` the sole freedom of every group of `color` that has exactly one
    /// (each hole once) and returns how many were written: the captures the opponent may
    /// make, or the groups `color` must save.
    pub fn single_freedoms(&self, color: Color, holes: &mut [u16; MAX_POINTS]) -> usize {
        let cell = cell_of(color);
        let mut marks = [false; MAX_POINTS];
        let mut seen_hole = [0u16; MAX_POINTS];
        let mut stack = [0u16; MAX_POINTS];
        let mut written = 0;
        let level_zero = self.geometry.level_range(0).end;
        let mut group_number = 0u16;
        for start in 0..self.geometry.point_count() {
            if self.cells[start] != cell || marks[start] || self.buried(start) {
                continue;
            }
            group_number += 1;
            marks[start] = true;
            stack[0] = start as u16;
            let mut top = 1;
            let mut first = NO_POINT;
            let mut several = false;
            while top > 0 {
                top -= 1;
                let current = stack[top] as usize;
                if current < level_zero && !several {
                    for contact in self.geometry.contacts(current) {
                        if contact.neighbour == NO_POINT {
                            break;
                        }
                        let hole = contact.neighbour as usize;
                        if self.cells[hole] == EMPTY && seen_hole[hole] != group_number {
                            seen_hole[hole] = group_number;
                            if first == NO_POINT {
                                first = hole as u16;
                            } else {
                                several = true;
                            }
                        }
                    }
                }
                self.for_each_connection(current, cell, |next| {
                    if !marks[next] {
                        marks[next] = true;
                        stack[top] = next as u16;
                        top += 1;
                    }
                });
            }
            if first != NO_POINT && !several && !holes[..written].contains(&first) {
                holes[written] = first;
                written += 1;
            }
        }
        written
    }

    /// The balls of the group of the ball at `point`, sorted; empty for an empty or buried
    /// point (a buried ball belongs to no group).
    pub fn group(&self, point: Point) -> Vec<Point> {
        let index = point.index();
        if !self.geometry.contains(point) || self.cells[index] == EMPTY || self.buried(index) {
            return Vec::new();
        }
        let mut marks = [false; MAX_POINTS];
        let mut stack = [0u16; MAX_POINTS];
        marks[index] = true;
        stack[0] = index as u16;
        self.spread(self.cells[index], &mut marks, &mut stack, 1);
        (0..self.geometry.point_count())
            .filter(|&other| marks[other])
            .map(|other| Point(other as u16))
            .collect()
    }

    /// For every point, whether it holds a zombie: an unburied ball whose group has no
    /// freedom.
    pub fn zombies(&self) -> [bool; MAX_POINTS] {
        let mut free = [false; MAX_POINTS];
        let mut stack = [0u16; MAX_POINTS];
        for color in Color::ALL {
            self.mark_free(cell_of(color), &mut free, &mut stack);
        }
        let mut zombies = [false; MAX_POINTS];
        for (point, zombie) in zombies
            .iter_mut()
            .enumerate()
            .take(self.geometry.point_count())
        {
            *zombie = self.cells[point] != EMPTY && !free[point] && !self.buried(point);
        }
        zombies
    }

    /// Whether the point is empty and supported (a structural placement test, no rules).
    #[inline]
    pub fn is_playable(&self, point: Point) -> bool {
        self.geometry.contains(point)
            && self.cells[point.index()] == EMPTY
            && self.is_supported(point)
    }

    /// The placement rules without superko: on the board, empty, supported, and not suicide.
    ///
    /// # Errors
    /// [`IllegalMove::OffBoard`], [`IllegalMove::Occupied`], [`IllegalMove::NoPlatform`] or
    /// [`IllegalMove::Suicide`].
    pub fn check_placement(&self, color: Color, point: Point) -> Result<(), IllegalMove> {
        if !self.geometry.contains(point) {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[point.index()] != EMPTY {
            return Err(IllegalMove::Occupied);
        }
        if !self.is_supported(point) {
            return Err(IllegalMove::NoPlatform);
        }
        if self.placement_survives(color, point) {
            Ok(())
        } else {
            Err(IllegalMove::Suicide)
        }
    }

    /// The same test as [`Position::check_placement`], as a yes/no for the hot path.
    #[inline]
    pub fn is_legal_placement(&self, color: Color, point: Point) -> bool {
        self.is_playable(point) && self.placement_survives(color, point)
    }

    /// Whether the ball placed at an empty supported point has a freedom once the move is
    /// complete. Captures only ever add freedoms to the placed ball's group, so a group that
    /// has one straight after the placement keeps it.
    fn placement_survives(&self, color: Color, point: Point) -> bool {
        let index = point.index();
        if index < self.geometry.level_range(0).end {
            if self.touches_empty_hole(index) {
                return true;
            }
        } else if !self.touches_own_ball(index, cell_of(color)) {
            // A raised ball that touches no ball of its colour is a group of its own with no
            // board-level member, and captures cannot give it one: the balls under it stay.
            return false;
        }
        let mut trial = *self;
        trial.put(point, color);
        if trial.group_has_freedom(point) {
            return true;
        }
        trial.resolve_captures(color, index);
        trial.group_has_freedom(point)
    }

    /// Places a ball and makes every capture, without checking legality.
    ///
    /// Preconditions: the point is on the board, empty and supported; a suicidal placement
    /// leaves the placed ball's group freedomless on the board (callers test first).
    pub fn play_unchecked(&mut self, color: Color, point: Point) -> Captures {
        self.put(point, color);
        self.resolve_captures(color, point.index())
    }

    /// [`Position::play_unchecked`] with a fast path for positions at rest (every
    /// freedomless group pinned, as every completed move leaves them): a board-level
    /// placement only takes a freedom from the groups beside it, so when all of them keep one
    /// nothing is captured and the capture rounds are skipped.
    ///
    /// Preconditions: those of [`Position::play_unchecked`], and the position is at rest.
    pub fn play_at_rest(&mut self, color: Color, point: Point) -> Captures {
        let index = point.index();
        if index >= self.geometry.level_range(0).end {
            return self.play_unchecked(color, point);
        }
        self.put(point, color);
        let geometry = self.geometry;
        for contact in geometry.contacts(index) {
            if contact.neighbour == NO_POINT {
                break;
            }
            let neighbour = contact.neighbour as usize;
            if self.cells[neighbour] == EMPTY || self.buried(neighbour) {
                continue;
            }
            if !self.group_has_freedom(Point(neighbour as u16)) {
                return self.resolve_captures(color, index);
            }
        }
        Captures::default()
    }

    /// Capture rounds after a placement by `mover` at `placed`: enemy, friend, enemy, ...
    /// with freedoms recomputed each round, until two rounds in a row remove nothing.
    fn resolve_captures(&mut self, mover: Color, placed: usize) -> Captures {
        let mut captures = Captures::default();
        let mut color = mover.opponent();
        let mut quiet_rounds = 0;
        let mut first_round = true;
        while quiet_rounds < 2 {
            let keep = if color == mover { Some(placed) } else { None };
            let removed = self.capture_round(color, keep);
            if removed > 0 {
                captures.removed[color.index()] += removed;
                if !first_round {
                    captures.revealed = true;
                }
                quiet_rounds = 0;
            } else {
                quiet_rounds += 1;
            }
            first_round = false;
            color = color.opponent();
        }
        captures
    }

    /// Appends every legal placement of `color` (superko not considered), in point order.
    pub fn legal_placements(&self, color: Color, moves: &mut Vec<Point>) {
        moves.clear();
        for index in 0..self.geometry.point_count() {
            let point = Point(index as u16);
            if self.is_legal_placement(color, point) {
                moves.push(point);
            }
        }
    }

    /// Whether `color` has any legal placement (superko not considered).
    pub fn has_legal_placement(&self, color: Color) -> bool {
        (0..self.geometry.point_count())
            .any(|index| self.is_legal_placement(color, Point(index as u16)))
    }

    /// Recolours the only ball on the board (the swap of the second move). Returns false, and
    /// changes nothing, unless exactly one ball is on the board.
    pub fn swap_single_ball(&mut self) -> bool {
        if self.counts[0] + self.counts[1] != 1 {
            return false;
        }
        let Some(index) = (0..self.geometry.point_count()).find(|&i| self.cells[i] != EMPTY) else {
            return false;
        };
        let point = Point(index as u16);
        let Some(color) = color_of(self.cells[index]) else {
            return false;
        };
        self.remove(index);
        self.put(point, color.opponent());
        true
    }

    /// Recomputes the counts and hash from the contents and checks that every ball is
    /// supported and no cell outside the board is used.
    ///
    /// # Errors
    /// A text describing the first disagreement.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut counts = [0u32; 2];
        let mut hash = 0u64;
        for (index, &cell) in self.cells.iter().enumerate() {
            if index >= self.geometry.point_count() {
                if cell != EMPTY {
                    return Err(format!("cell {index} beyond the board holds {cell}"));
                }
                continue;
            }
            if cell == EMPTY {
                continue;
            }
            let color = color_of(cell).ok_or_else(|| format!("cell {index} holds {cell}"))?;
            counts[color.index()] += 1;
            hash ^= ball_key(Point(index as u16), color);
            if !self.is_supported(Point(index as u16)) {
                return Err(format!("ball at point {index} has no complete platform"));
            }
        }
        if counts != self.counts {
            return Err(format!("counts {:?}, recomputed {:?}", self.counts, counts));
        }
        if hash != self.hash {
            return Err(format!("hash {:016x}, recomputed {:016x}", self.hash, hash));
        }
        Ok(())
    }

    /// Checks the state every completed move leaves: no freedomless group keeps a ball that
    /// nothing rests on (it would have been removed).
    ///
    /// # Errors
    /// A text naming the removable ball.
    pub fn check_at_rest(&self) -> Result<(), String> {
        let zombies = self.zombies();
        for (index, &zombie) in zombies.iter().enumerate().take(self.geometry.point_count()) {
            if zombie && !self.pinned(index) {
                let place = self.geometry.coordinates(Point(index as u16));
                return Err(format!(
                    "freedomless ball at ({},{},{}) is not pinned",
                    place.level, place.row, place.column
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.0.iter().flatten().copied().collect();
        all.extend(KEYS.1);
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
    }

    #[test]
    fn play_and_counts() {
        let mut position = Position::new(4).expect("size");
        let point = Point(5);
        assert!(position.is_legal_placement(Color::White, point));
        let captures = position.play_unchecked(Color::White, point);
        assert_eq!(captures.total(), 0);
        assert_eq!(position.ball_counts(), [0, 1]);
        assert_eq!(
            position.check_placement(Color::Black, point),
            Err(IllegalMove::Occupied)
        );
        assert!(position.check_consistency().is_ok());
    }
}
