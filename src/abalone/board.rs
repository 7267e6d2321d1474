//! The Abalone position: marbles on the 61 cells, ejection counts, side to move, ply and ply
//! cap, an incremental Zobrist hash. Generates, checks and plays moves and judges the end.
//! Knows no history (no undo: that is [`Game`](super::Game)) and no text notation beyond the
//! diagram of [`Board::showboard`].
//!
//! The position is `Copy` and lives in fixed-size arrays (about 180 bytes, no heap), so the
//! search copies it freely.
//!
//! End of the game, in this order: a side that has ejected six opposing marbles wins; at the
//! ply cap (counted from the start) the side that has ejected more wins, equal counts draw;
//! a side to move without a legal move draws (PlayStrategy's rule; it practically never
//! happens).

use super::geometry::{Cell, Direction, CELL_COUNT};
use super::moves::{IllegalMove, Move};
use crate::color::Color;
use std::fmt::Write as _;

/// Marbles each side starts with.
pub const MARBLES_PER_SIDE: usize = 14;
/// Ejections that win the game.
pub const EJECTIONS_TO_WIN: u8 = 6;
/// The default ply cap.
pub const DEFAULT_MAX_PLIES: u16 = 400;

/// A start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Start {
    /// The original start: Black a1-a5 b1-b6 c3-c5, White i5-i9 h4-h9 g5-g7.
    Standard,
    /// Belgian daisy, the tournament start and the default.
    #[default]
    Belgian,
    /// German daisy.
    German,
}

impl Start {
    /// All starts.
    pub const ALL: [Start; 3] = [Start::Standard, Start::Belgian, Start::German];

    /// `standard`, `belgian` or `german`.
    pub fn name(self) -> &'static str {
        match self {
            Start::Standard => "standard",
            Start::Belgian => "belgian",
            Start::German => "german",
        }
    }

    /// Parses a [`name`](Start::name), in any case.
    pub fn parse(text: &str) -> Option<Start> {
        Start::ALL
            .into_iter()
            .find(|start| start.name().eq_ignore_ascii_case(text))
    }

    /// The cells of each colour's marbles (Black first), as in the rule sheet.
    pub fn cells(self) -> [[&'static str; MARBLES_PER_SIDE]; 2] {
        match self {
            Start::Standard => [
                [
                    "a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "b6", "c3", "c4",
                    "c5",
                ],
                [
                    "i5", "i6", "i7", "i8", "i9", "h4", "h5", "h6", "h7", "h8", "h9", "g5", "g6",
                    "g7",
                ],
            ],
            Start::Belgian => [
                [
                    "a1", "a2", "b1", "b2", "b3", "c2", "c3", "g7", "g8", "h7", "h8", "h9", "i8",
                    "i9",
                ],
                [
                    "a4", "a5", "b4", "b5", "b6", "c5", "c6", "g4", "g5", "h4", "h5", "h6", "i5",
                    "i6",
                ],
            ],
            Start::German => [
                [
                    "b1", "b2", "c1", "c2", "c3", "d2", "d3", "f7", "f8", "g7", "g8", "g9", "h8",
                    "h9",
                ],
                [
                    "b5", "b6", "c5", "c6", "c7", "d6", "d7", "f3", "f4", "g3", "g4", "g5", "h4",
                    "h5",
                ],
            ],
        }
    }
}

/// What an inline move does to opposing marbles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Push {
    /// No opposing marble moves (every broadside, and inline moves into an empty cell).
    None,
    /// Opposing marbles are pushed and all stay on the board.
    Pushes,
    /// The last pushed opposing marble leaves the board.
    Ejects,
}

/// SplitMix64, for the fixed Zobrist keys.
const fn split_mix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut value = state;
    value = (value ^ (value >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    value = (value ^ (value >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, value ^ (value >> 31))
}

/// Zobrist keys: per cell and colour, then the side to move, then ejection counts 0..=14 per
/// colour. Fixed seed, computed at compile time.
struct Keys {
    cells: [[u64; 2]; CELL_COUNT],
    white_to_move: u64,
    ejected: [[u64; MARBLES_PER_SIDE + 1]; 2],
}

const KEYS: Keys = {
    let mut state = 0x4142_414C_4F4E_4531; // "ABALONE1"
    let mut cells = [[0u64; 2]; CELL_COUNT];
    let mut cell = 0;
    while cell < CELL_COUNT {
        let mut color = 0;
        while color < 2 {
            let (next, key) = split_mix(state);
            state = next;
            cells[cell][color] = key;
            color += 1;
        }
        cell += 1;
    }
    let (next, white_to_move) = split_mix(state);
    state = next;
    let mut ejected = [[0u64; MARBLES_PER_SIDE + 1]; 2];
    let mut color = 0;
    while color < 2 {
        let mut count = 0;
        while count <= MARBLES_PER_SIDE {
            let (next, key) = split_mix(state);
            state = next;
            ejected[color][count] = key;
            count += 1;
        }
        color += 1;
    }
    Keys {
        cells,
        white_to_move,
        ejected,
    }
};

/// Marker in the slot table for an empty cell.
const NO_SLOT: u8 = u8::MAX;

/// An Abalone position (see the module for what it holds and how the game ends).
#[derive(Clone, Copy, Debug)]
pub struct Board {
    cells: [Option<Color>; CELL_COUNT],
    /// Each colour's marble cells (indices), the first `marble_counts[colour]` valid.
    marbles: [[u8; MARBLES_PER_SIDE]; 2],
    marble_counts: [u8; 2],
    /// The position of each occupied cell in its colour's marble list.
    slots: [u8; CELL_COUNT],
    /// Opposing marbles each colour has pushed off the board.
    ejected: [u8; 2],
    to_move: Color,
    ply: u16,
    max_plies: u16,
    hash: u64,
}

impl PartialEq for Board {
    /// Equal contents, ejections, side to move, ply and cap (the order of the marble lists is
    /// an implementation detail and is ignored).
    fn eq(&self, other: &Board) -> bool {
        self.cells == other.cells
            && self.ejected == other.ejected
            && self.to_move == other.to_move
            && self.ply == other.ply
            && self.max_plies == other.max_plies
            && self.hash == other.hash
    }
}

impl Eq for Board {}

impl Board {
    /// The start position with Black to move, ply 0 and the default ply cap.
    pub fn new(start: Start) -> Board {
        let mut board = Board::empty(DEFAULT_MAX_PLIES);
        for color in Color::ALL {
            for name in start.cells()[color.index()] {
                if let Some(cell) = Cell::parse(name) {
                    board.add_marble(cell, color);
                }
            }
        }
        board
    }

    /// An empty board, Black to move, with the given ply cap; fill it with
    /// [`Board::with_marble`].
    pub fn empty(max_plies: u16) -> Board {
        Board {
            cells: [None; CELL_COUNT],
            marbles: [[0; MARBLES_PER_SIDE]; 2],
            marble_counts: [0; 2],
            slots: [NO_SLOT; CELL_COUNT],
            ejected: [0; 2],
            to_move: Color::Black,
            ply: 0,
            max_plies,
            hash: KEYS.ejected[0][0] ^ KEYS.ejected[1][0],
        }
    }

    /// This board with a `color` marble put on the empty `cell` (for setting up test
    /// positions). `None` when the cell is occupied or the colour already has 14 marbles on
    /// the board.
    pub fn with_marble(mut self, cell: Cell, color: Color) -> Option<Board> {
        if self.cells[cell.index()].is_some()
            || self.marble_counts[color.index()] as usize >= MARBLES_PER_SIDE
        {
            return None;
        }
        self.add_marble(cell, color);
        Some(self)
    }

    /// This board with the side to move, ejection counts and ply set (for test positions).
    /// `None` when an ejection count is above 14.
    pub fn with_state(
        mut self,
        to_move: Color,
        ejected_by_black: u8,
        ejected_by_white: u8,
        ply: u16,
    ) -> Option<Board> {
        if ejected_by_black as usize > MARBLES_PER_SIDE
            || ejected_by_white as usize > MARBLES_PER_SIDE
        {
            return None;
        }
        if self.to_move != to_move {
            self.hash ^= KEYS.white_to_move;
            self.to_move = to_move;
        }
        for (color, count) in [
            (Color::Black, ejected_by_black),
            (Color::White, ejected_by_white),
        ] {
            let index = color.index();
            self.hash ^= KEYS.ejected[index][self.ejected[index] as usize];
            self.ejected[index] = count;
            self.hash ^= KEYS.ejected[index][count as usize];
        }
        self.ply = ply;
        Some(self)
    }

    /// Sets the ply cap (counted from the start position).
    pub fn set_max_plies(&mut self, max_plies: u16) {
        self.max_plies = max_plies;
    }

    /// The ply cap.
    pub fn max_plies(&self) -> u16 {
        self.max_plies
    }

    /// Moves played since the start position.
    #[inline]
    pub fn ply(&self) -> u16 {
        self.ply
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The marble on `cell`, if any.
    #[inline]
    pub fn at(&self, cell: Cell) -> Option<Color> {
        self.cells[cell.index()]
    }

    /// The number of opposing marbles `color` has pushed off the board.
    #[inline]
    pub fn ejected(&self, color: Color) -> u8 {
        self.ejected[color.index()]
    }

    /// The cells of `color`'s marbles on the board, in no particular order.
    pub fn marbles(&self, color: Color) -> impl Iterator<Item = Cell> + '_ {
        let index = color.index();
        self.marbles[index][..self.marble_counts[index] as usize]
            .iter()
            .map(|&cell| Cell(cell))
    }

    /// The number of `color`'s marbles on the board.
    #[inline]
    pub fn marble_count(&self, color: Color) -> usize {
        self.marble_counts[color.index()] as usize
    }

    /// The Zobrist hash: marbles, side to move and both ejection counts (not the ply).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Ejection difference, Black's minus White's: `final_score` says `B+n` for positive `n`,
    /// `W+n` for negative, `0` for zero.
    pub fn score(&self) -> i32 {
        self.ejected[0] as i32 - self.ejected[1] as i32
    }

    fn add_marble(&mut self, cell: Cell, color: Color) {
        let index = color.index();
        let slot = self.marble_counts[index];
        self.marbles[index][slot as usize] = cell.0;
        self.marble_counts[index] += 1;
        self.slots[cell.index()] = slot;
        self.cells[cell.index()] = Some(color);
        self.hash ^= KEYS.cells[cell.index()][index];
    }

    fn remove_marble(&mut self, cell: Cell, color: Color) {
        let index = color.index();
        let slot = self.slots[cell.index()] as usize;
        let last = self.marble_counts[index] as usize - 1;
        let moved = self.marbles[index][last];
        self.marbles[index][slot] = moved;
        self.slots[moved as usize] = slot as u8;
        self.marble_counts[index] -= 1;
        self.slots[cell.index()] = NO_SLOT;
        self.cells[cell.index()] = None;
        self.hash ^= KEYS.cells[cell.index()][index];
    }

    /// Moves a marble from `from` to the empty `to`.
    fn shift_marble(&mut self, from: Cell, to: Cell, color: Color) {
        let index = color.index();
        let slot = self.slots[from.index()];
        self.marbles[index][slot as usize] = to.0;
        self.slots[to.index()] = slot;
        self.slots[from.index()] = NO_SLOT;
        self.cells[from.index()] = None;
        self.cells[to.index()] = Some(color);
        self.hash ^= KEYS.cells[from.index()][index] ^ KEYS.cells[to.index()][index];
    }

    /// True when the game has ended (see the module for the rules).
    pub fn is_over(&self) -> bool {
        self.ejected[0] >= EJECTIONS_TO_WIN
            || self.ejected[1] >= EJECTIONS_TO_WIN
            || self.ply >= self.max_plies
            || !self.has_legal_move()
    }

    /// `None` while the game goes on; `Some(Some(colour))` when that colour has won (six
    /// ejections, or more ejections at the ply cap); `Some(None)` for a draw (equal ejections
    /// at the ply cap, or the side to move has no legal move).
    pub fn winner(&self) -> Option<Option<Color>> {
        for color in Color::ALL {
            if self.ejected[color.index()] >= EJECTIONS_TO_WIN {
                return Some(Some(color));
            }
        }
        if self.ply >= self.max_plies {
            return Some(match self.score() {
                score if score > 0 => Some(Color::Black),
                score if score < 0 => Some(Color::White),
                _ => None,
            });
        }
        if !self.has_legal_move() {
            return Some(None);
        }
        None
    }

    /// True when the side to move has at least one legal move (ignoring whether the game is
    /// over by ejections or the cap).
    pub fn has_legal_move(&self) -> bool {
        // A marble next to an empty cell can always step there.
        for cell in self.marbles(self.to_move) {
            for direction in Direction::ALL {
                if let Some(next) = cell.neighbour(direction) {
                    if self.cells[next.index()].is_none() {
                        return true;
                    }
                }
            }
        }
        let mut moves = Vec::new();
        self.generate(&mut moves);
        !moves.is_empty()
    }

    /// Appends every legal move of the side to move to `moves` (cleared first); none once the
    /// game is over.
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.ejected[0] >= EJECTIONS_TO_WIN
            || self.ejected[1] >= EJECTIONS_TO_WIN
            || self.ply >= self.max_plies
        {
            return;
        }
        self.generate(moves);
    }

    /// Every legal move of the side to move, ignoring whether the game is over.
    fn generate(&self, moves: &mut Vec<Move>) {
        let own = self.to_move;
        let opponent = own.opponent();
        for cell in self.marbles(own) {
            for direction in Direction::ALL {
                if let Some(mv) = self.inline_from(cell, direction, own, opponent) {
                    moves.push(mv);
                }
            }
            for axis in Direction::AXES {
                let Some(second) = cell.neighbour(axis) else {
                    continue;
                };
                if self.cells[second.index()] != Some(own) {
                    continue;
                }
                let third = second
                    .neighbour(axis)
                    .filter(|third| self.cells[third.index()] == Some(own));
                for direction in Direction::ALL {
                    if direction.is_parallel(axis) {
                        continue;
                    }
                    let free = |target: Option<Cell>| {
                        target.is_some_and(|target| self.cells[target.index()].is_none())
                    };
                    if !free(cell.neighbour(direction)) || !free(second.neighbour(direction)) {
                        continue;
                    }
                    moves.push(Move {
                        first: cell,
                        line: axis,
                        length: 2,
                        direction,
                    });
                    if let Some(third) = third {
                        if free(third.neighbour(direction)) {
                            moves.push(Move {
                                first: cell,
                                line: axis,
                                length: 3,
                                direction,
                            });
                        }
                    }
                }
            }
        }
    }

    /// The legal inline move whose trailing marble is `cell`, moving in `direction`, if any.
    #[inline]
    fn inline_from(
        &self,
        cell: Cell,
        direction: Direction,
        own: Color,
        opponent: Color,
    ) -> Option<Move> {
        let mut length = 1u8;
        let mut front = cell.neighbour(direction)?;
        while self.cells[front.index()] == Some(own) {
            length += 1;
            if length > 3 {
                return None;
            }
            front = front.neighbour(direction)?;
        }
        if self.cells[front.index()] == Some(opponent) {
            let mut pushed = 1;
            let mut beyond = front.neighbour(direction);
            while let Some(next) = beyond {
                match self.cells[next.index()] {
                    None => break,
                    Some(color) if color == own => return None,
                    Some(_) => {
                        pushed += 1;
                        if pushed >= length {
                            return None;
                        }
                        beyond = next.neighbour(direction);
                    }
                }
            }
            if pushed >= length {
                return None;
            }
        }
        Some(Move {
            first: cell,
            line: direction,
            length,
            direction,
        })
    }

    /// Appends to `moves` (cleared first) every legal move of the side to move that ejects an
    /// opposing marble: the quiescence moves of the search. The same set as the ejecting
    /// moves among [`Board::legal_moves`], found from the rim instead of from every line.
    pub fn ejecting_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.ejected[0] >= EJECTIONS_TO_WIN
            || self.ejected[1] >= EJECTIONS_TO_WIN
            || self.ply >= self.max_plies
        {
            return;
        }
        let victim = self.to_move.opponent();
        for cell in self.marbles(victim) {
            if !cell.is_rim() {
                continue;
            }
            for direction in Direction::ALL {
                if cell.neighbour(direction).is_some() {
                    continue;
                }
                // Every column long enough ejects: 2 v 1, 3 v 1 and 3 v 2 are distinct moves.
                if let Some((nearest, victims, pushers)) =
                    self.ejection_over(cell, direction, victim)
                {
                    let mut trailing = nearest;
                    for length in 1..=pushers {
                        if length > victims {
                            moves.push(Move {
                                first: trailing,
                                line: direction,
                                length,
                                direction,
                            });
                        }
                        match trailing.neighbour(direction.opposite()) {
                            Some(next) => trailing = next,
                            None => break,
                        }
                    }
                }
            }
        }
    }

    /// The number of `victim`'s marbles that its opponent could eject with one move if it
    /// were the opponent's turn (each marble counted once).
    pub fn marbles_in_danger(&self, victim: Color) -> u32 {
        let mut count = 0;
        for cell in self.marbles(victim) {
            if cell.is_rim()
                && Direction::ALL.into_iter().any(|direction| {
                    cell.neighbour(direction).is_none()
                        && self.ejection_over(cell, direction, victim).is_some()
                })
            {
                count += 1;
            }
        }
        count
    }

    /// Whether `victim`'s opponent can push the `victim` marble on the rim cell `edge` off the
    /// board in `direction` (whose neighbour is off the board): then the pusher nearest the
    /// victims, the number of victims (1-2) and of pushers behind them (up to 3, more than
    /// the victims); the ejecting moves are the columns longer than the victims.
    fn ejection_over(
        &self,
        edge: Cell,
        direction: Direction,
        victim: Color,
    ) -> Option<(Cell, u8, u8)> {
        let pusher = victim.opponent();
        let back = direction.opposite();
        // The victims' run from the edge inwards (at most two can be pushed).
        let mut victims = 1;
        let mut cell = edge.neighbour(back)?;
        while self.cells[cell.index()] == Some(victim) {
            victims += 1;
            if victims > 2 {
                return None;
            }
            cell = cell.neighbour(back)?;
        }
        if self.cells[cell.index()] != Some(pusher) {
            return None;
        }
        // The pushers' run behind them: the column uses the (at most three) nearest.
        let mut pushers = 1;
        let mut trailing = cell;
        while pushers < 3 {
            match trailing.neighbour(back) {
                Some(next) if self.cells[next.index()] == Some(pusher) => {
                    pushers += 1;
                    trailing = next;
                }
                _ => break,
            }
        }
        if pushers <= victims {
            return None;
        }
        Some((cell, victims, pushers))
    }

    /// Whether `color` may play `mv` now.
    ///
    /// # Errors
    /// The [`IllegalMove`] reason, checked in this order: `game_over`, `wrong_turn`,
    /// `not_own_line`, then for inline moves `own_marble_off`, `blocked`, `no_sumito`, and for
    /// broadsides the first target cell (from the first end) that is off the board
    /// (`own_marble_off`) or occupied (`blocked`).
    pub fn check(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if color != self.to_move {
            return Err(IllegalMove::WrongTurn);
        }
        self.check_geometry(mv)
    }

    /// [`Board::check`] without the turn and game-over tests.
    fn check_geometry(&self, mv: Move) -> Result<(), IllegalMove> {
        let own = self.to_move;
        let opponent = own.opponent();
        if mv.cells().any(|cell| self.cells[cell.index()] != Some(own)) {
            return Err(IllegalMove::NotOwnLine);
        }
        let direction = mv.direction();
        if mv.is_inline() {
            let Some(front) = mv.last().neighbour(direction) else {
                return Err(IllegalMove::OwnMarbleOff);
            };
            match self.cells[front.index()] {
                None => Ok(()),
                Some(color) if color == own => Err(IllegalMove::Blocked),
                Some(_) => {
                    let mut pushed = 0;
                    let mut next = Some(front);
                    while let Some(cell) = next {
                        match self.cells[cell.index()] {
                            Some(color) if color == opponent => {
                                pushed += 1;
                                next = cell.neighbour(direction);
                            }
                            Some(_) => return Err(IllegalMove::NoSumito),
                            None => break,
                        }
                    }
                    if pushed >= mv.length() {
                        Err(IllegalMove::NoSumito)
                    } else {
                        Ok(())
                    }
                }
            }
        } else {
            for cell in mv.cells() {
                match cell.neighbour(direction) {
                    None => return Err(IllegalMove::OwnMarbleOff),
                    Some(target) if self.cells[target.index()].is_some() => {
                        return Err(IllegalMove::Blocked)
                    }
                    Some(_) => {}
                }
            }
            Ok(())
        }
    }

    /// What the legal move `mv` does to opposing marbles. Meaningless for illegal moves.
    pub fn push_of(&self, mv: Move) -> Push {
        if !mv.is_inline() {
            return Push::None;
        }
        let direction = mv.direction();
        let Some(front) = mv.last().neighbour(direction) else {
            return Push::None;
        };
        if self.cells[front.index()].is_none() {
            return Push::None;
        }
        let mut cell = front;
        loop {
            match cell.neighbour(direction) {
                None => return Push::Ejects,
                Some(next) if self.cells[next.index()].is_none() => return Push::Pushes,
                Some(next) => cell = next,
            }
        }
    }

    /// Plays `mv` for `color` after checking it.
    ///
    /// # Errors
    /// As [`Board::check`]; the board is unchanged then.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        self.check(color, mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` for the side to move without checking it.
    ///
    /// Precondition: `mv` is legal (from [`Board::legal_moves`] or checked); otherwise the
    /// position becomes garbage (no memory unsafety; debug builds may panic).
    pub fn play_unchecked(&mut self, mv: Move) {
        let own = self.to_move;
        let opponent = own.opponent();
        let direction = mv.direction();
        if mv.is_inline() {
            let trailing = mv.first();
            let front = mv.last().neighbour(direction);
            if let Some(front) = front {
                if self.cells[front.index()] == Some(opponent) {
                    // The opposing run shifts by one: its first marble lands beyond its last.
                    let mut beyond = front.neighbour(direction);
                    while let Some(next) = beyond {
                        if self.cells[next.index()] != Some(opponent) {
                            break;
                        }
                        beyond = next.neighbour(direction);
                    }
                    match beyond {
                        Some(beyond) => self.shift_marble(front, beyond, opponent),
                        None => {
                            self.remove_marble(front, opponent);
                            let index = own.index();
                            self.hash ^= KEYS.ejected[index][self.ejected[index] as usize];
                            self.ejected[index] += 1;
                            self.hash ^= KEYS.ejected[index][self.ejected[index] as usize];
                        }
                    }
                }
                self.shift_marble(trailing, front, own);
            }
        } else {
            for cell in mv.cells() {
                if let Some(target) = cell.neighbour(direction) {
                    self.shift_marble(cell, target, own);
                }
            }
        }
        self.to_move = opponent;
        self.hash ^= KEYS.white_to_move;
        self.ply = self.ply.saturating_add(1);
    }

    /// Recomputes the marble lists, counts and hash from the cells and compares.
    ///
    /// # Errors
    /// A description of the first inconsistency found.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut hash = 0;
        let mut counts = [0usize; 2];
        for cell in Cell::all() {
            if let Some(color) = self.cells[cell.index()] {
                counts[color.index()] += 1;
                hash ^= KEYS.cells[cell.index()][color.index()];
                let slot = self.slots[cell.index()] as usize;
                if slot >= self.marble_counts[color.index()] as usize
                    || self.marbles[color.index()][slot] as usize != cell.index()
                {
                    return Err(format!("{cell}: bad slot {slot}"));
                }
            } else if self.slots[cell.index()] != NO_SLOT {
                return Err(format!("{cell}: empty cell with a slot"));
            }
        }
        for color in Color::ALL {
            let index = color.index();
            if counts[index] != self.marble_counts[index] as usize {
                return Err(format!(
                    "{color}: {} marbles on the board, list says {}",
                    counts[index], self.marble_counts[index]
                ));
            }
            let lost = self.ejected[color.opponent().index()] as usize;
            if counts[index] + lost != MARBLES_PER_SIDE {
                return Err(format!(
                    "{color}: {} marbles on the board plus {lost} ejected is not {MARBLES_PER_SIDE}",
                    counts[index]
                ));
            }
            hash ^= KEYS.ejected[index][self.ejected[index] as usize];
        }
        if self.to_move == Color::White {
            hash ^= KEYS.white_to_move;
        }
        if hash != self.hash {
            return Err(format!("hash {:016x}, recomputed {hash:016x}", self.hash));
        }
        Ok(())
    }

    /// A text diagram: the hexagon with row letters on the left and diagonal numbers below
    /// and on the right, `X` for Black, `O` for White, `.` for empty, then a line with the
    /// side to move, the ejections and the ply. Example (Belgian daisy):
    ///
    /// ```text
    ///     i O O . X X
    ///    h O O O X X X
    ///   g . O O . X X .
    ///  f . . . . . . . .
    /// e . . . . . . . . .
    ///  d . . . . . . . . 9
    ///   c . X X . O O . 8
    ///    b X X X O O O 7
    ///     a X X . O O 6
    ///        1 2 3 4 5
    /// black to move, ejected by black 0, by white 0, ply 0 of 400
    /// ```
    pub fn showboard(&self) -> String {
        let mut text = String::new();
        for row in (0..9).rev() {
            let indent = (row as i32 - 4).unsigned_abs() as usize;
            text.push_str(&" ".repeat(indent));
            text.push((b'a' + row as u8) as char);
            for diagonal in 1..=9 {
                if let Some(cell) = Cell::from_coordinates(row, diagonal) {
                    text.push(' ');
                    text.push(match self.cells[cell.index()] {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    });
                }
            }
            if row < 4 {
                let _ = write!(text, " {}", row + 6);
            }
            text.push('\n');
        }
        text.push_str("       1 2 3 4 5\n");
        let _ = writeln!(
            text,
            "{} to move, ejected by black {}, by white {}, ply {} of {}",
            self.to_move, self.ejected[0], self.ejected[1], self.ply, self.max_plies
        );
        text
    }
}
