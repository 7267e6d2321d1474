//! The board: stones, chains with exact liberty counts, the Zobrist hash, captures and the
//! simple-ko point, all maintained incrementally. It has no history, no superko, no turn order
//! and no rules beyond "may a stone commit suicide": it is what playouts clone. `Game` adds
//! the rest.

use crate::color::Color;
use crate::go::rules::point::{
    self, array_length, point_at, stride, Move, Point, MAX_SIZE, MIN_SIZE,
};
use crate::go::rules::zobrist::{BLACK_KEYS, WHITE_KEYS};
use std::fmt;

/// What lies on a point. Stored as one byte per point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Border = 3,
}

impl Cell {
    /// The cell holding a stone of `color`.
    #[inline(always)]
    pub fn stone(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// The colour of a stone cell, `None` for empty and border.
    #[inline(always)]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Why a move may not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The point holds a stone.
    Occupied,
    /// The stone would have no liberty and capture nothing (and the rules forbid it).
    Suicide,
    /// Immediate recapture of a ko.
    Ko,
    /// The move repeats an earlier whole-board position (superko).
    Superko,
    /// The point is not on the board.
    OffBoard,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            IllegalMove::Occupied => "point occupied",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Ko => "ko",
            IllegalMove::Superko => "superko",
            IllegalMove::OffBoard => "off board",
        })
    }
}

impl std::error::Error for IllegalMove {}

const NO_POINT: u16 = 0;

/// A Go board of size 2 to 25.
///
/// Chains are circular lists of stones (`next_stone`) with a representative point
/// (`chain_head`); the representative holds the chain's stone count and exact liberty count.
#[derive(Clone, Debug)]
pub struct Board {
    size: usize,
    stride: usize,
    cells: Vec<Cell>,
    chain_head: Vec<u16>,
    next_stone: Vec<u16>,
    liberty_count: Vec<u16>,
    stone_count: Vec<u16>,
    empty_points: Vec<u16>,
    empty_position: Vec<u16>,
    hash: u64,
    ko_point: u16,
    ko_color: Color,
    captures: [u32; 2],
    last_move: Move,
    second_last_move: Move,
    last_captured: u16,
}

impl PartialEq for Board {
    /// Boards are equal when they have the same size, stones, ko restriction and captures.
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.cells == other.cells
            && self.ko_point == other.ko_point
            && (self.ko_point == NO_POINT || self.ko_color == other.ko_color)
            && self.captures == other.captures
    }
}

impl Board {
    /// An empty board of `size` x `size`.
    ///
    /// # Panics
    /// When `size` is outside 2..=25; check with [`Board::size_is_valid`] first.
    pub fn new(size: usize) -> Board {
        assert!(Board::size_is_valid(size), "board size {size} out of range");
        let length = array_length(size);
        let mut board = Board {
            size,
            stride: stride(size),
            cells: vec![Cell::Border; length],
            chain_head: vec![NO_POINT; length],
            next_stone: vec![NO_POINT; length],
            liberty_count: vec![0; length],
            stone_count: vec![0; length],
            empty_points: Vec::with_capacity(size * size),
            empty_position: vec![0; length],
            hash: 0,
            ko_point: NO_POINT,
            ko_color: Color::Black,
            captures: [0, 0],
            last_move: Move::Pass,
            second_last_move: Move::Pass,
            last_captured: 0,
        };
        for row in 0..size {
            for column in 0..size {
                let point = point_at(column, row, size);
                board.cells[point.index()] = Cell::Empty;
                board.empty_position[point.index()] = board.empty_points.len() as u16;
                board.empty_points.push(point.0);
            }
        }
        board
    }

    /// Whether ishi can play on a board of this size.
    pub fn size_is_valid(size: usize) -> bool {
        (MIN_SIZE..=MAX_SIZE).contains(&size)
    }

    /// The board's width and height.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Distance between vertically adjacent points.
    #[inline(always)]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Length of per-point arrays for this board.
    #[inline(always)]
    pub fn array_length(&self) -> usize {
        self.cells.len()
    }

    /// What lies on `point`.
    #[inline(always)]
    pub fn cell(&self, point: Point) -> Cell {
        self.cells[point.index()]
    }

    /// The colour of the stone on `point`, if any.
    #[inline(always)]
    pub fn stone(&self, point: Point) -> Option<Color> {
        self.cells[point.index()].color()
    }

    /// The Zobrist hash of the stones (not of the side to move or the ko point).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones of the opponent that `color` has captured so far.
    #[inline(always)]
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// Sets the capture counts (used by setup from SGF and tests).
    pub fn set_captures(&mut self, black: u32, white: u32) {
        self.captures = [black, white];
    }

    /// The point where `color` may not play because it would retake a ko at once.
    #[inline(always)]
    pub fn ko_point_for(&self, color: Color) -> Option<Point> {
        if self.ko_point != NO_POINT && self.ko_color == color {
            Some(Point(self.ko_point))
        } else {
            None
        }
    }

    /// The last move played on this board (a pass when none).
    #[inline(always)]
    pub fn last_move(&self) -> Move {
        self.last_move
    }

    /// The move before the last one (a pass when none).
    #[inline(always)]
    pub fn second_last_move(&self) -> Move {
        self.second_last_move
    }

    /// How many stones the last move captured.
    #[inline(always)]
    pub fn last_captured(&self) -> u32 {
        self.last_captured as u32
    }

    /// The empty points, in no particular order.
    #[inline(always)]
    pub fn empty_points(&self) -> &[u16] {
        &self.empty_points
    }

    /// Every on-board point, row by row from A1.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let size = self.size;
        (0..size).flat_map(move |row| (0..size).map(move |column| point_at(column, row, size)))
    }

    /// The four neighbours of `point` (some may be border cells).
    #[inline(always)]
    pub fn neighbours(&self, point: Point) -> [Point; 4] {
        let index = point.0;
        let stride = self.stride as u16;
        [
            Point(index - stride),
            Point(index - 1),
            Point(index + 1),
            Point(index + stride),
        ]
    }

    /// The four diagonal neighbours of `point` (some may be border cells or outside the array
    /// padding's first row: only call for on-board points).
    #[inline(always)]
    pub fn diagonals(&self, point: Point) -> [Point; 4] {
        let index = point.0;
        let stride = self.stride as u16;
        [
            Point(index - stride - 1),
            Point(index - stride + 1),
            Point(index + stride - 1),
            Point(index + stride + 1),
        ]
    }

    /// Whether `point` is on the board (not border, within the array).
    #[inline]
    pub fn is_on_board(&self, point: Point) -> bool {
        point.index() < self.cells.len() && self.cells[point.index()] != Cell::Border
    }

    /// The representative point of the chain through the stone on `point`.
    #[inline(always)]
    pub fn chain(&self, point: Point) -> Point {
        Point(self.chain_head[point.index()])
    }

    /// Exact number of liberties of the chain through the stone on `point`.
    #[inline(always)]
    pub fn liberties(&self, point: Point) -> usize {
        self.liberty_count[self.chain_head[point.index()] as usize] as usize
    }

    /// Number of stones of the chain through the stone on `point`.
    #[inline(always)]
    pub fn chain_size(&self, point: Point) -> usize {
        self.stone_count[self.chain_head[point.index()] as usize] as usize
    }

    /// The stones of the chain through `point`, starting at `point`.
    pub fn chain_stones(&self, point: Point) -> ChainStones<'_> {
        ChainStones {
            board: self,
            start: point.0,
            current: point.0,
            done: false,
        }
    }

    /// One stone of every chain, in point order (the first stone of each chain met).
    pub fn chain_heads(&self) -> Vec<Point> {
        let mut heads = Vec::new();
        let mut seen = vec![false; self.array_length()];
        for point in self.points() {
            if self.stone(point).is_none() || seen[point.index()] {
                continue;
            }
            for stone in self.chain_stones(point) {
                seen[stone.index()] = true;
            }
            heads.push(point);
        }
        heads
    }

    /// The liberties of the chain through the stone on `point`, each once, at most `limit`.
    pub fn chain_liberties(&self, point: Point, limit: usize) -> Vec<Point> {
        let mut found: Vec<Point> = Vec::with_capacity(limit.min(8));
        for stone in self.chain_stones(point) {
            for neighbour in self.neighbours(stone) {
                if self.cells[neighbour.index()] == Cell::Empty && !found.contains(&neighbour) {
                    found.push(neighbour);
                    if found.len() >= limit {
                        return found;
                    }
                }
            }
        }
        found
    }

    /// One liberty of the chain through `point` (the only one when it is in atari).
    pub fn any_liberty(&self, point: Point) -> Option<Point> {
        for stone in self.chain_stones(point) {
            for neighbour in self.neighbours(stone) {
                if self.cells[neighbour.index()] == Cell::Empty {
                    return Some(neighbour);
                }
            }
        }
        None
    }

    /// Counts the empty neighbours of `point`.
    #[inline(always)]
    pub fn empty_neighbour_count(&self, point: Point) -> usize {
        self.neighbours(point)
            .iter()
            .filter(|neighbour| self.cells[neighbour.index()] == Cell::Empty)
            .count()
    }

    /// Whether `color` playing on the empty `point` would leave its own stone without
    /// liberties and capture nothing. Does not look at ko.
    #[inline]
    pub fn is_suicide(&self, point: Point, color: Color) -> bool {
        let own = Cell::stone(color);
        for neighbour in self.neighbours(point) {
            let cell = self.cells[neighbour.index()];
            if cell == Cell::Empty {
                return false;
            }
            if cell == Cell::Border {
                continue;
            }
            let liberties = self.liberties(neighbour);
            if cell == own {
                if liberties > 1 {
                    return false;
                }
            } else if liberties == 1 {
                return false;
            }
        }
        true
    }

    /// Whether `color` may place a stone on `point` under simple ko, with or without suicide.
    ///
    /// # Errors
    /// The reason the move is illegal.
    pub fn check_move(
        &self,
        point: Point,
        color: Color,
        suicide_allowed: bool,
    ) -> Result<(), IllegalMove> {
        if !self.is_on_board(point) {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[point.index()] != Cell::Empty {
            return Err(IllegalMove::Occupied);
        }
        if self.ko_point == point.0 && self.ko_color == color {
            return Err(IllegalMove::Ko);
        }
        if self.is_suicide(point, color) {
            // A suicide that removes only a single stone changes nothing and is never legal.
            let lone = self
                .neighbours(point)
                .iter()
                .all(|neighbour| self.cells[neighbour.index()] != Cell::stone(color));
            if !suicide_allowed || lone {
                return Err(IllegalMove::Suicide);
            }
        }
        Ok(())
    }

    /// Whether `point` is an eye-like point of `color`: every neighbour is a `color` stone or
    /// the edge, and the diagonals do not make it a false eye (at most one opponent diagonal
    /// in the centre, none on the edge).
    #[inline]
    pub fn is_true_eye_like(&self, point: Point, color: Color) -> bool {
        let own = Cell::stone(color);
        for neighbour in self.neighbours(point) {
            let cell = self.cells[neighbour.index()];
            if cell != own && cell != Cell::Border {
                return false;
            }
        }
        let opponent = Cell::stone(color.opponent());
        let mut opponent_diagonals = 0;
        let mut edge = false;
        for diagonal in self.diagonals(point) {
            match self.cells[diagonal.index()] {
                Cell::Border => edge = true,
                cell if cell == opponent => opponent_diagonals += 1,
                _ => {}
            }
        }
        if edge {
            opponent_diagonals == 0
        } else {
            opponent_diagonals < 2
        }
    }

    /// Plays a move of `color`, checking legality under simple ko.
    ///
    /// # Errors
    /// The reason the move is illegal; the board is then unchanged.
    pub fn try_play(
        &mut self,
        chosen: Move,
        color: Color,
        suicide_allowed: bool,
    ) -> Result<(), IllegalMove> {
        if let Move::Place(point) = chosen {
            self.check_move(point, color, suicide_allowed)?;
        }
        self.play_unchecked(chosen, color);
        Ok(())
    }

    /// Plays a move already known to be legal (multi-stone suicide is carried out).
    #[inline]
    pub fn play_unchecked(&mut self, chosen: Move, color: Color) {
        self.second_last_move = self.last_move;
        self.last_move = chosen;
        self.ko_point = NO_POINT;
        self.last_captured = 0;
        if let Move::Place(point) = chosen {
            self.place_stone(point, color);
        }
    }

    /// Puts a stone on an empty point without any check or capture of the player's own chain
    /// unless it has no liberties (setup of positions).
    ///
    /// # Panics
    /// In debug builds when the point is not empty.
    pub fn setup_stone(&mut self, point: Point, color: Color) {
        debug_assert_eq!(self.cells[point.index()], Cell::Empty);
        let captures = self.captures;
        self.place_stone(point, color);
        self.captures = captures;
        self.ko_point = NO_POINT;
        self.last_captured = 0;
    }

    /// Removes the stone on `point` (setup of positions), keeping all counts exact. The
    /// board is rebuilt from its stones, so this is for setup, not for search.
    pub fn remove_stone(&mut self, point: Point) {
        if self.cells[point.index()].color().is_none() {
            return;
        }
        let mut rebuilt = Board::new(self.size);
        for other in self.points() {
            if other != point {
                if let Some(color) = self.stone(other) {
                    rebuilt.setup_stone(other, color);
                }
            }
        }
        rebuilt.captures = self.captures;
        rebuilt.last_move = self.last_move;
        rebuilt.second_last_move = self.second_last_move;
        *self = rebuilt;
    }

    fn place_stone(&mut self, point: Point, color: Color) {
        let index = point.index();
        let own = Cell::stone(color);
        let opponent = Cell::stone(color.opponent());
        self.remove_empty(point);
        self.cells[index] = own;
        self.hash ^= key(color, index);
        self.chain_head[index] = point.0;
        self.next_stone[index] = point.0;
        self.stone_count[index] = 1;
        let neighbours = self.neighbours(point);
        let mut own_liberties = 0u16;
        let mut seen: [u16; 4] = [NO_POINT; 4];
        let mut seen_count = 0;
        for neighbour in neighbours {
            let cell = self.cells[neighbour.index()];
            if cell == Cell::Empty {
                own_liberties += 1;
            } else if cell != Cell::Border {
                let head = self.chain_head[neighbour.index()];
                if !seen[..seen_count].contains(&head) {
                    seen[seen_count] = head;
                    seen_count += 1;
                    self.liberty_count[head as usize] -= 1;
                }
            }
        }
        self.liberty_count[index] = own_liberties;
        let mut merged = false;
        for &head in &seen[..seen_count] {
            if self.cells[head as usize] == own {
                let current = self.chain_head[index];
                if current != head {
                    self.merge_chains(current, head);
                    merged = true;
                }
            }
        }
        if merged {
            let head = self.chain_head[index];
            self.liberty_count[head as usize] = self.count_liberties(Point(head)) as u16;
        }
        let mut captured_total = 0u32;
        let mut captured_point = NO_POINT;
        for &head in &seen[..seen_count] {
            if self.cells[head as usize] == opponent && self.liberty_count[head as usize] == 0 {
                captured_total += self.stone_count[head as usize] as u32;
                captured_point = head;
                self.remove_chain(Point(head), color.opponent());
            }
        }
        self.captures[color.index()] += captured_total;
        self.last_captured = captured_total.min(u16::MAX as u32) as u16;
        let head = self.chain_head[index] as usize;
        if captured_total == 1 && self.stone_count[head] == 1 && self.liberty_count[head] == 1 {
            self.ko_point = captured_point;
            self.ko_color = color.opponent();
        }
        if self.liberty_count[head] == 0 {
            // Suicide, allowed by the rules in force: the chain is removed.
            let count = self.stone_count[head] as u32;
            self.remove_chain(Point(head as u16), color);
            self.captures[color.opponent().index()] += count;
        }
    }

    /// Merges the chain headed by `from` into the chain headed by `into` (or the other way
    /// round when `from` is the larger).
    fn merge_chains(&mut self, first: u16, second: u16) {
        let (big, small) = if self.stone_count[first as usize] >= self.stone_count[second as usize]
        {
            (first, second)
        } else {
            (second, first)
        };
        let mut stone = small;
        loop {
            self.chain_head[stone as usize] = big;
            stone = self.next_stone[stone as usize];
            if stone == small {
                break;
            }
        }
        self.next_stone.swap(big as usize, small as usize);
        self.stone_count[big as usize] += self.stone_count[small as usize];
    }

    /// Exact liberty count of the chain through `point`, from scratch: a liberty is counted
    /// at the first of its chain neighbours in neighbour order.
    fn count_liberties(&self, point: Point) -> usize {
        let head = self.chain_head[point.index()];
        let mut count = 0;
        for stone in self.chain_stones(point) {
            for neighbour in self.neighbours(stone) {
                if self.cells[neighbour.index()] != Cell::Empty {
                    continue;
                }
                let first = self
                    .neighbours(neighbour)
                    .into_iter()
                    .find(|around| {
                        self.cells[around.index()].color().is_some()
                            && self.chain_head[around.index()] == head
                    })
                    .map(|around| around == stone)
                    .unwrap_or(false);
                if first {
                    count += 1;
                }
            }
        }
        count
    }

    fn remove_chain(&mut self, head: Point, color: Color) {
        let start = head.0;
        let mut stone = start;
        loop {
            self.clear_point(Point(stone), color);
            stone = self.next_stone[stone as usize];
            if stone == start {
                break;
            }
        }
        // Every neighbouring chain gains each freed point once.
        let mut stone = start;
        loop {
            let point = Point(stone);
            let mut seen: [u16; 4] = [NO_POINT; 4];
            let mut seen_count = 0;
            for neighbour in self.neighbours(point) {
                if self.cells[neighbour.index()].color().is_some() {
                    let neighbour_head = self.chain_head[neighbour.index()];
                    if !seen[..seen_count].contains(&neighbour_head) {
                        seen[seen_count] = neighbour_head;
                        seen_count += 1;
                        self.liberty_count[neighbour_head as usize] += 1;
                    }
                }
            }
            let next = self.next_stone[stone as usize];
            self.next_stone[stone as usize] = NO_POINT;
            self.chain_head[stone as usize] = NO_POINT;
            stone = next;
            if stone == start {
                break;
            }
        }
    }

    fn clear_point(&mut self, point: Point, color: Color) {
        let index = point.index();
        self.cells[index] = Cell::Empty;
        self.hash ^= key(color, index);
        self.empty_position[index] = self.empty_points.len() as u16;
        self.empty_points.push(point.0);
    }

    #[inline(always)]
    fn remove_empty(&mut self, point: Point) {
        let position = self.empty_position[point.index()] as usize;
        let last = self.empty_points.pop().unwrap_or(point.0);
        if last != point.0 {
            self.empty_points[position] = last;
            self.empty_position[last as usize] = position as u16;
        }
    }

    /// Recomputes chains, liberties, stone counts, the empty list and the hash from the cells
    /// alone, and compares them with the incremental state.
    ///
    /// # Errors
    /// A description of the first disagreement.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut hash = 0u64;
        let mut empty_seen = 0;
        for point in self.points() {
            let index = point.index();
            match self.cells[index] {
                Cell::Empty => {
                    empty_seen += 1;
                    let position = self.empty_position[index] as usize;
                    if self.empty_points.get(position) != Some(&point.0) {
                        return Err(format!("empty list lost {}", self.vertex(point)));
                    }
                }
                Cell::Border => return Err(format!("border inside at {index}")),
                cell => {
                    let color = cell.color().unwrap_or(Color::Black);
                    hash ^= key(color, index);
                    // Flood the chain from scratch.
                    let mut members = vec![point];
                    let mut cursor = 0;
                    while cursor < members.len() {
                        let current = members[cursor];
                        cursor += 1;
                        for neighbour in self.neighbours(current) {
                            if self.cells[neighbour.index()] == cell
                                && !members.contains(&neighbour)
                            {
                                members.push(neighbour);
                            }
                        }
                    }
                    let head = self.chain_head[index];
                    for member in &members {
                        if self.chain_head[member.index()] != head {
                            return Err(format!("chain split at {}", self.vertex(point)));
                        }
                    }
                    let listed: Vec<Point> = self.chain_stones(point).collect();
                    if listed.len() != members.len() {
                        return Err(format!(
                            "stone list of {} has {} stones, flood has {}",
                            self.vertex(point),
                            listed.len(),
                            members.len()
                        ));
                    }
                    if self.stone_count[head as usize] as usize != members.len() {
                        return Err(format!("stone count wrong at {}", self.vertex(point)));
                    }
                    let mut liberties: Vec<Point> = Vec::new();
                    for member in &members {
                        for neighbour in self.neighbours(*member) {
                            if self.cells[neighbour.index()] == Cell::Empty
                                && !liberties.contains(&neighbour)
                            {
                                liberties.push(neighbour);
                            }
                        }
                    }
                    if liberties.is_empty() {
                        return Err(format!("chain without liberties at {}", self.vertex(point)));
                    }
                    if self.liberty_count[head as usize] as usize != liberties.len() {
                        return Err(format!(
                            "liberties of {}: incremental {}, recomputed {}",
                            self.vertex(point),
                            self.liberty_count[head as usize],
                            liberties.len()
                        ));
                    }
                }
            }
        }
        if empty_seen != self.empty_points.len() {
            return Err(format!(
                "empty list has {} points, board has {}",
                self.empty_points.len(),
                empty_seen
            ));
        }
        if hash != self.hash {
            return Err("incremental hash differs from recomputed hash".to_string());
        }
        Ok(())
    }

    /// Recomputes the Zobrist hash from the stones.
    pub fn recompute_hash(&self) -> u64 {
        let mut hash = 0;
        for point in self.points() {
            if let Some(color) = self.stone(point) {
                hash ^= key(color, point.index());
            }
        }
        hash
    }

    /// GTP text of a point of this board.
    pub fn vertex(&self, point: Point) -> String {
        point::vertex_text(point, self.size)
    }

    /// Counts the stones of each colour: `[black, white]`.
    pub fn stone_counts(&self) -> [usize; 2] {
        let mut counts = [0, 0];
        for point in self.points() {
            if let Some(color) = self.stone(point) {
                counts[color.index()] += 1;
            }
        }
        counts
    }

    /// Builds a board from rows of text, top row first: `X`/`x`/`B` black, `O`/`o`/`W` white,
    /// anything else empty. Whitespace between points is ignored. Used by tests.
    ///
    /// # Errors
    /// When the rows do not form a square board of a valid size.
    pub fn from_diagram(diagram: &str) -> Result<Board, String> {
        let rows: Vec<Vec<char>> = diagram
            .lines()
            .map(|line| {
                line.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<_>>()
            })
            .filter(|row| !row.is_empty())
            .collect();
        let size = rows.len();
        if !Board::size_is_valid(size) || rows.iter().any(|row| row.len() != size) {
            return Err(format!(
                "diagram is not a square board of size 2..25 ({size} rows)"
            ));
        }
        let mut board = Board::new(size);
        for (top_row, row) in rows.iter().enumerate() {
            for (column, &symbol) in row.iter().enumerate() {
                let color = match symbol {
                    'X' | 'x' | 'B' | '#' => Color::Black,
                    'O' | 'o' | 'W' | '@' => Color::White,
                    _ => continue,
                };
                board.setup_stone(point_at(column, size - 1 - top_row, size), color);
            }
        }
        Ok(board)
    }
}

/// Iterator over the stones of one chain.
pub struct ChainStones<'board> {
    board: &'board Board,
    start: u16,
    current: u16,
    done: bool,
}

impl Iterator for ChainStones<'_> {
    type Item = Point;
    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.done {
            return None;
        }
        let point = self.current;
        self.current = self.board.next_stone[point as usize];
        if self.current == self.start || self.current == NO_POINT {
            self.done = true;
        }
        Some(Point(point))
    }
}

#[inline(always)]
fn key(color: Color, index: usize) -> u64 {
    match color {
        Color::Black => BLACK_KEYS[index],
        Color::White => WHITE_KEYS[index],
    }
}

impl fmt::Display for Board {
    /// A diagram with coordinates, `X` black, `O` white, `.` empty, top row first, and no
    /// empty line.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: String = point::COLUMN_LETTERS[..self.size]
            .iter()
            .map(|&letter| format!(" {}", letter as char))
            .collect();
        writeln!(formatter, "   {letters}")?;
        for row in (0..self.size).rev() {
            write!(formatter, "{:>2} ", row + 1)?;
            for column in 0..self.size {
                let point = point_at(column, row, self.size);
                let symbol = match self.cells[point.index()] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ if self.ko_point == point.0 => '*',
                    _ => '.',
                };
                write!(formatter, " {symbol}")?;
            }
            writeln!(formatter, " {:>2}", row + 1)?;
        }
        write!(formatter, "   {letters}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::point::parse_move;

    fn at(board: &Board, text: &str) -> Point {
        match parse_move(text, board.size()) {
            Ok(Move::Place(point)) => point,
            other => panic!("bad vertex {text}: {other:?}"),
        }
    }

    #[test]
    fn captures_a_single_stone_and_sets_ko() {
        let mut board = Board::from_diagram(
            ". X O .
             X O . O
             . X O .
             . . . .",
        )
        .unwrap();
        let capture = at(&board, "C3");
        board
            .try_play(Move::Place(capture), Color::Black, false)
            .unwrap();
        assert_eq!(board.captures(Color::Black), 1);
        assert_eq!(board.stone(at(&board, "B3")), None);
        assert_eq!(board.ko_point_for(Color::White), Some(at(&board, "B3")));
        assert_eq!(
            board.try_play(Move::Place(at(&board, "B3")), Color::White, false),
            Err(IllegalMove::Ko)
        );
        board.check_consistency().unwrap();
    }

    #[test]
    fn suicide_is_refused_unless_allowed() {
        let board = Board::from_diagram(
            ". X .
             X X .
             . . .",
        )
        .unwrap();
        let corner = at(&board, "A3");
        assert_eq!(
            board.check_move(corner, Color::White, false),
            Err(IllegalMove::Suicide)
        );
        // A lone stone suicide is illegal even when suicide is allowed.
        assert_eq!(
            board.check_move(corner, Color::White, true),
            Err(IllegalMove::Suicide)
        );
        // Black filling its own eye is legal.
        assert!(board.check_move(corner, Color::Black, false).is_ok());
        board.check_consistency().unwrap();
    }

    #[test]
    fn multi_stone_suicide_removes_the_chain() {
        let mut board = Board::from_diagram(
            ". O X .
             O X X .
             X X . .
             . . . .",
        )
        .unwrap();
        // White A4 is already captured-looking? No: A4 is empty; B4 and A3 are white.
        let point = at(&board, "A4");
        assert_eq!(
            board.check_move(point, Color::White, false),
            Err(IllegalMove::Suicide)
        );
        board
            .try_play(Move::Place(point), Color::White, true)
            .unwrap();
        assert_eq!(board.stone(at(&board, "B4")), None);
        assert_eq!(board.stone(at(&board, "A3")), None);
        assert_eq!(board.captures(Color::Black), 3);
        board.check_consistency().unwrap();
    }

    #[test]
    fn merging_counts_shared_liberties_once() {
        let mut board = Board::new(5);
        for vertex in ["B2", "D2", "C3"] {
            let point = at(&board, vertex);
            board
                .try_play(Move::Place(point), Color::Black, false)
                .unwrap();
        }
        let join = at(&board, "C2");
        board
            .try_play(Move::Place(join), Color::Black, false)
            .unwrap();
        board.check_consistency().unwrap();
        assert_eq!(board.chain_size(join), 4);
        assert_eq!(board.liberties(join), 8);
    }

    #[test]
    fn eyes_are_recognised() {
        let board = Board::from_diagram(
            ". X . X
             X X X X
             X . X .
             X X . .",
        )
        .unwrap();
        assert!(board.is_true_eye_like(at(&board, "A4"), Color::Black));
        assert!(board.is_true_eye_like(at(&board, "C4"), Color::Black));
        assert!(board.is_true_eye_like(at(&board, "B2"), Color::Black));
        assert!(!board.is_true_eye_like(at(&board, "D2"), Color::Black));
        assert!(!board.is_true_eye_like(at(&board, "B2"), Color::White));
    }

    #[test]
    fn random_games_stay_consistent() {
        use rand::{Rng, SeedableRng};
        let mut random = rand::rngs::SmallRng::seed_from_u64(7);
        for size in [2, 3, 5, 9, 13, 19] {
            for game in 0..20 {
                let suicide_allowed = game % 2 == 1;
                let mut board = Board::new(size);
                let mut color = Color::Black;
                for _ in 0..size * size * 3 {
                    let point =
                        point_at(random.gen_range(0..size), random.gen_range(0..size), size);
                    let chosen = if random.gen_range(0..20) == 0 {
                        Move::Pass
                    } else {
                        Move::Place(point)
                    };
                    if board.try_play(chosen, color, suicide_allowed).is_ok() {
                        board.check_consistency().unwrap();
                        assert_eq!(board.hash(), board.recompute_hash());
                        color = color.opponent();
                    }
                }
            }
        }
    }

    #[test]
    fn display_has_no_empty_line() {
        let board = Board::new(9);
        let text = board.to_string();
        assert!(!text.lines().any(|line| line.trim().is_empty()));
        assert_eq!(text.lines().count(), 11);
    }
}
