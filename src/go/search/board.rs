//! The playout board: a copy of a [`rules::Board`](crate::go::rules::Board) tuned for speed and
//! nothing else. Same point layout as `rules::point` (so a `Point` index means the same
//! square), fixed arrays of a power-of-two length indexed through a mask (no bounds checks),
//! colours as bits, chains as circular stone lists whose representative keeps the stone
//! count and *pseudo*-liberties (one per stone-liberty adjacency) with the sum and the sum of
//! squares of their indices, so "is this chain in atari, and where is its liberty" is exact
//! in O(1). Simple ko only, no hash, no history, no suicide in playouts.
//!
//! It knows how to play, capture, test legality and eyes, list a few liberties, keep each
//! point's 3x3 neighbourhood code, and count the area at the end of a playout; it knows
//! nothing of trees or policies.

use crate::color::Color;
use crate::go::rules::board::Board;
use crate::go::rules::point::Point;

/// Length of every per-point array: a power of two above `array_length(25)` (703).
pub const CAPACITY: usize = 1024;
const MASK: usize = CAPACITY - 1;

/// Cell code of an empty point.
pub const EMPTY: u8 = 1;
/// Cell code of a black stone.
pub const BLACK: u8 = 2;
/// Cell code of a white stone.
pub const WHITE: u8 = 4;
/// Cell code of the border: both colour bits, so "own stone or border" is one AND.
pub const BORDER: u8 = 6;
/// The index used for "no point" and for a pass (index 0 is always border).
pub const NO_POINT: usize = 0;

/// The cell code of a stone of `color`.
#[inline(always)]
pub fn stone_code(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// What [`PlayoutBoard::liberties_besides`] tells of a chain's other liberties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LibertiesBesides {
    /// The point asked about is the chain's only liberty.
    None,
    /// Exactly one other liberty, on this point.
    One(usize),
    /// Two or more other liberties.
    Several,
}

/// A fast board for playouts and tree descent.
#[derive(Clone)]
pub struct PlayoutBoard {
    size: usize,
    stride: usize,
    length: usize,
    cells: [u8; CAPACITY],
    head: [u16; CAPACITY],
    next: [u16; CAPACITY],
    stones: [u16; CAPACITY],
    pseudo: [u16; CAPACITY],
    liberty_sum: [u32; CAPACITY],
    liberty_square_sum: [u32; CAPACITY],
    empty: [u16; CAPACITY],
    empty_position: [u16; CAPACITY],
    /// Per point, the 3x3 code of its eight neighbours (two bits each, the cell code
    /// shifted right by one, in [`PlayoutBoard::ring`] order), kept as stones come and go:
    /// heavy playouts read codes at every move.
    codes: [u16; CAPACITY],
    empty_count: usize,
    ko_point: usize,
    captures: [u32; 2],
    last_move: usize,
    second_last_move: usize,
}

impl PlayoutBoard {
    /// An empty board of `size` (2..=25).
    pub fn new(size: usize) -> Box<PlayoutBoard> {
        let stride = size + 1;
        let length = (size + 2) * stride + 1;
        let mut board = Box::new(PlayoutBoard {
            size,
            stride,
            length,
            cells: [BORDER; CAPACITY],
            head: [0; CAPACITY],
            next: [0; CAPACITY],
            stones: [0; CAPACITY],
            pseudo: [0; CAPACITY],
            liberty_sum: [0; CAPACITY],
            liberty_square_sum: [0; CAPACITY],
            empty: [0; CAPACITY],
            empty_position: [0; CAPACITY],
            codes: [0; CAPACITY],
            empty_count: 0,
            ko_point: NO_POINT,
            captures: [0, 0],
            last_move: NO_POINT,
            second_last_move: NO_POINT,
        });
        for row in 0..size {
            for column in 0..size {
                let point = (row + 1) * stride + column + 1;
                board.cells[point] = EMPTY;
                board.add_empty(point);
            }
        }
        for point in 0..board.length {
            if board.cells[point] != BORDER {
                board.codes[point] = board.code_from_cells(point) as u16;
            }
        }
        board
    }

    /// The position of a rules board with `to_move` next: stones, captures, the ko point
    /// that binds `to_move`, and the last two moves.
    pub fn from_board(source: &Board, to_move: Color) -> Box<PlayoutBoard> {
        let mut board = PlayoutBoard::new(source.size());
        for point in source.points() {
            if let Some(color) = source.stone(point) {
                board.setup_stone(point.index(), color);
            }
        }
        board.captures = [source.captures(Color::Black), source.captures(Color::White)];
        board.ko_point = source
            .ko_point_for(to_move)
            .map(|point| point.index())
            .unwrap_or(NO_POINT);
        board.last_move = move_index(source.last_move());
        board.second_last_move = move_index(source.second_last_move());
        board
    }

    /// Copies `other` (a board of the same size) into `self` without allocating, touching
    /// only the used part of the arrays.
    pub fn copy_from(&mut self, other: &PlayoutBoard) {
        let used = other.length;
        self.size = other.size;
        self.stride = other.stride;
        self.length = other.length;
        self.cells[..used].copy_from_slice(&other.cells[..used]);
        self.head[..used].copy_from_slice(&other.head[..used]);
        self.next[..used].copy_from_slice(&other.next[..used]);
        self.stones[..used].copy_from_slice(&other.stones[..used]);
        self.pseudo[..used].copy_from_slice(&other.pseudo[..used]);
        self.liberty_sum[..used].copy_from_slice(&other.liberty_sum[..used]);
        self.liberty_square_sum[..used].copy_from_slice(&other.liberty_square_sum[..used]);
        self.empty[..used].copy_from_slice(&other.empty[..used]);
        self.codes[..used].copy_from_slice(&other.codes[..used]);
        self.empty_position[..used].copy_from_slice(&other.empty_position[..used]);
        self.empty_count = other.empty_count;
        self.ko_point = other.ko_point;
        self.captures = other.captures;
        self.last_move = other.last_move;
        self.second_last_move = other.second_last_move;
    }

    /// Board width.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Distance between vertically adjacent points.
    #[inline(always)]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Length of the used part of the per-point arrays.
    #[inline(always)]
    pub fn length(&self) -> usize {
        self.length
    }

    /// The cell code on `point`.
    #[inline(always)]
    pub fn cell(&self, point: usize) -> u8 {
        self.cells[point & MASK]
    }

    /// Number of empty points.
    #[inline(always)]
    pub fn empty_count(&self) -> usize {
        self.empty_count
    }

    /// The `index`-th empty point (in no particular order).
    #[inline(always)]
    pub fn empty_at(&self, index: usize) -> usize {
        self.empty[index & MASK] as usize
    }

    /// Moves the empty point at list position `first` to position `second` and back: used
    /// by playouts to shrink the live range of candidates while keeping the choice uniform.
    #[inline(always)]
    pub fn swap_empty(&mut self, first: usize, second: usize) {
        let a = self.empty[first & MASK];
        let b = self.empty[second & MASK];
        self.empty[first & MASK] = b;
        self.empty[second & MASK] = a;
        self.empty_position[b as usize & MASK] = first as u16;
        self.empty_position[a as usize & MASK] = second as u16;
    }

    /// Stones `color` has captured (including those of the game before the playout).
    #[inline(always)]
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// The point the next player may not play because of simple ko, or [`NO_POINT`].
    #[inline(always)]
    pub fn ko_point(&self) -> usize {
        self.ko_point
    }

    /// The last move's point, or [`NO_POINT`] after a pass (or at the start).
    #[inline(always)]
    pub fn last_move(&self) -> usize {
        self.last_move
    }

    /// The point of the move before the last, or [`NO_POINT`].
    #[inline(always)]
    pub fn second_last_move(&self) -> usize {
        self.second_last_move
    }

    /// The four neighbours of an on-board point.
    #[inline(always)]
    pub fn neighbours(&self, point: usize) -> [usize; 4] {
        [
            point - self.stride,
            point - 1,
            point + 1,
            point + self.stride,
        ]
    }

    /// The four diagonal neighbours of an on-board point.
    #[inline(always)]
    pub fn diagonals(&self, point: usize) -> [usize; 4] {
        [
            point - self.stride - 1,
            point - self.stride + 1,
            point + self.stride - 1,
            point + self.stride + 1,
        ]
    }

    /// The eight neighbours of an on-board point, clockwise from the upper left (in array
    /// order: row below first, as the array stores row 1 first).
    #[inline(always)]
    pub fn ring(&self, point: usize) -> [usize; 8] {
        let stride = self.stride;
        [
            point - stride - 1,
            point - stride,
            point - stride + 1,
            point + 1,
            point + stride + 1,
            point + stride,
            point + stride - 1,
            point - 1,
        ]
    }

    /// Representative of the chain through the stone on `point`.
    #[inline(always)]
    pub fn chain(&self, point: usize) -> usize {
        self.head[point & MASK] as usize
    }

    /// Stones in the chain through `point`.
    #[inline(always)]
    pub fn chain_size(&self, point: usize) -> usize {
        self.stones[self.chain(point) & MASK] as usize
    }

    /// The next stone in the circular list of the chain through `point`.
    #[inline(always)]
    pub fn next_stone(&self, point: usize) -> usize {
        self.next[point & MASK] as usize
    }

    /// Whether the chain through the stone on `point` has exactly one liberty.
    #[inline(always)]
    pub fn in_atari(&self, point: usize) -> bool {
        let head = self.chain(point) & MASK;
        let count = self.pseudo[head] as u64;
        let sum = self.liberty_sum[head] as u64;
        count > 0 && count * self.liberty_square_sum[head] as u64 == sum * sum
    }

    /// The liberty of a chain in atari (meaningless otherwise).
    #[inline(always)]
    pub fn atari_liberty(&self, point: usize) -> usize {
        let head = self.chain(point) & MASK;
        let count = self.pseudo[head].max(1) as u32;
        (self.liberty_sum[head] / count) as usize
    }

    /// The liberties of the chain through the stone on `chain` besides the empty `point`
    /// next to it, told in O(1) from the pseudo-liberties: the pseudo-liberties `point`
    /// contributes (one per stone of the chain next to it) are taken out, and the rest are
    /// either none, all one point (the atari test on what is left), or two or more points.
    #[inline(always)]
    pub fn liberties_besides(&self, chain: usize, point: usize) -> LibertiesBesides {
        let head = self.chain(chain) & MASK;
        let color = self.cells[head];
        let mut touching = 0;
        for neighbour in self.neighbours(point) {
            let index = neighbour & MASK;
            touching += (self.cells[index] == color && self.head[index] as usize == head) as usize;
        }
        self.liberties_besides_touching(head, point, touching)
    }

    /// [`PlayoutBoard::liberties_besides`] for a caller that has counted the `touching`
    /// stones of the chain through `chain` next to `point` (1 to 4).
    #[inline(always)]
    pub fn liberties_besides_touching(
        &self,
        chain: usize,
        point: usize,
        touching: usize,
    ) -> LibertiesBesides {
        let head = self.chain(chain) & MASK;
        let touching = touching as u64;
        let point = point as u64;
        let count = self.pseudo[head] as u64 - touching;
        if count == 0 {
            return LibertiesBesides::None;
        }
        let sum = self.liberty_sum[head] as u64 - touching * point;
        let square_sum = self.liberty_square_sum[head] as u64 - touching * point * point;
        if count * square_sum == sum * sum {
            LibertiesBesides::One((sum / count) as usize)
        } else {
            LibertiesBesides::Several
        }
    }

    /// Whether the chain through the stone on `point` surely has more than `count`
    /// liberties, told from its pseudo-liberties: a liberty touches at most one stone of a
    /// chain of one or two stones, two of three or four, three of five or six (a point
    /// closed on four sides by one chain takes seven stones), four of more; so the chain
    /// has at least its pseudo-liberties divided by that many. `false` says nothing.
    #[inline(always)]
    pub fn more_liberties_than(&self, point: usize, count: usize) -> bool {
        let head = self.chain(point) & MASK;
        let touching = match self.stones[head] {
            0..=2 => 1,
            3..=4 => 2,
            5..=6 => 3,
            _ => 4,
        };
        self.pseudo[head] as usize > count * touching
    }

    /// The two liberties of the chain through the stone on `point` when it has exactly two,
    /// in the order [`PlayoutBoard::liberties_into`] finds them; `None` otherwise. Chains in
    /// atari and chains whose pseudo-liberties prove three or more liberties
    /// ([`PlayoutBoard::more_liberties_than`]) are answered without walking the chain.
    #[inline]
    pub fn two_liberties(&self, point: usize) -> Option<[usize; 2]> {
        if self.more_liberties_than(point, 2) || self.in_atari(point) {
            return None;
        }
        let mut found = [NO_POINT; 3];
        (self.liberties_into(point, NO_POINT, &mut found) == 2).then_some([found[0], found[1]])
    }

    /// Whether the chain through `point` has no pseudo-liberty left (it is captured).
    #[inline(always)]
    fn dead_chain(&self, head: usize) -> bool {
        self.pseudo[head & MASK] == 0
    }

    /// Writes up to `found.len()` distinct liberties of the chain through `point` into
    /// `found`, skipping `except`, and returns how many it wrote.
    pub fn liberties_into(&self, point: usize, except: usize, found: &mut [usize]) -> usize {
        let limit = found.len();
        if limit == 0 {
            return 0;
        }
        let mut count = 0;
        let mut stone = point;
        loop {
            for neighbour in self.neighbours(stone) {
                if self.cells[neighbour & MASK] == EMPTY
                    && neighbour != except
                    && !found[..count].contains(&neighbour)
                {
                    found[count] = neighbour;
                    count += 1;
                    if count == limit {
                        return count;
                    }
                }
            }
            stone = self.next[stone & MASK] as usize;
            if stone == point {
                return count;
            }
        }
    }

    /// Whether `point` has an empty neighbour.
    #[inline(always)]
    pub fn has_empty_neighbour(&self, point: usize) -> bool {
        self.neighbours(point)
            .iter()
            .any(|&neighbour| self.cells[neighbour & MASK] == EMPTY)
    }

    /// Whether `color` may play on the empty `point`: not the ko point, not suicide.
    #[inline]
    pub fn is_legal(&self, point: usize, color: Color) -> bool {
        if self.has_empty_neighbour(point) {
            return true;
        }
        self.is_legal_slow(point, color)
    }

    /// [`PlayoutBoard::is_legal`] for a point without empty neighbours.
    #[inline]
    pub fn is_legal_slow(&self, point: usize, color: Color) -> bool {
        if point == self.ko_point {
            return false;
        }
        let own = stone_code(color);
        for neighbour in self.neighbours(point) {
            let cell = self.cells[neighbour & MASK];
            if cell == BORDER {
                continue;
            }
            let atari = self.in_atari(neighbour);
            if (cell == own) != atari {
                // Own chain with two or more liberties, or an opponent chain we capture.
                return true;
            }
        }
        false
    }

    /// Whether `point` is an eye of `color`: all neighbours are its stones or the edge, and
    /// the diagonals do not make it false (at most one opponent diagonal in the centre, none
    /// on the edge).
    #[inline]
    pub fn is_eye(&self, point: usize, color: Color) -> bool {
        let own = stone_code(color);
        for neighbour in self.neighbours(point) {
            if self.cells[neighbour & MASK] & own == 0 {
                return false;
            }
        }
        let opponent = own ^ BORDER;
        let mut opponent_diagonals = 0;
        let mut edge = 0;
        for diagonal in self.diagonals(point) {
            let cell = self.cells[diagonal & MASK];
            opponent_diagonals += (cell == opponent) as u32;
            edge |= (cell == BORDER) as u32;
        }
        opponent_diagonals + edge < 2
    }

    /// Whether `point` is surrounded by `color` stones and the edge (an eye shape, true or
    /// false).
    #[inline(always)]
    pub fn is_eyeish(&self, point: usize, color: Color) -> bool {
        let own = stone_code(color);
        self.neighbours(point)
            .iter()
            .all(|&neighbour| self.cells[neighbour & MASK] & own != 0)
    }

    /// Passes: the ko point lapses.
    #[inline]
    pub fn pass(&mut self) {
        self.second_last_move = self.last_move;
        self.last_move = NO_POINT;
        self.ko_point = NO_POINT;
    }

    /// Plays a legal move of `color` on the empty `point`, capturing what it captures. A
    /// suicide (which playouts never choose) removes the chain.
    pub fn play(&mut self, point: usize, color: Color) {
        let own = stone_code(color);
        let opponent = own ^ BORDER;
        self.second_last_move = self.last_move;
        self.last_move = point;
        self.ko_point = NO_POINT;
        self.remove_empty(point);
        let index = point & MASK;
        self.cells[index] = own;
        self.recode(point, own);
        self.head[index] = point as u16;
        self.next[index] = point as u16;
        self.stones[index] = 1;
        let neighbours = self.neighbours(point);
        let mut pseudo = 0u16;
        let mut sum = 0u32;
        let mut square_sum = 0u32;
        for neighbour in neighbours {
            let cell = self.cells[neighbour & MASK];
            if cell == EMPTY {
                pseudo += 1;
                sum += neighbour as u32;
                square_sum += (neighbour * neighbour) as u32;
            } else if cell != BORDER {
                let head = self.chain(neighbour);
                self.remove_liberty(head, point);
            }
        }
        self.pseudo[index] = pseudo;
        self.liberty_sum[index] = sum;
        self.liberty_square_sum[index] = square_sum;
        // Merges and captures in one pass: a capture only adds liberties, which merging
        // sums, and merges never touch the empty list, so the order does not matter.
        let mut captured = 0u32;
        let mut captured_at = NO_POINT;
        for neighbour in neighbours {
            let cell = self.cells[neighbour & MASK];
            if cell == own {
                let theirs = self.chain(neighbour);
                let mine = self.chain(point);
                if theirs != mine {
                    self.merge(mine, theirs);
                }
            } else if cell == opponent {
                let head = self.chain(neighbour);
                if self.dead_chain(head) {
                    captured += self.stones[head & MASK] as u32;
                    captured_at = neighbour;
                    self.remove_chain(head);
                }
            }
        }
        self.captures[color.index()] += captured;
        let mine = self.chain(point) & MASK;
        if captured == 1 && self.stones[mine] == 1 && self.pseudo[mine] == 1 {
            self.ko_point = captured_at;
        }
        if self.pseudo[mine] == 0 {
            self.captures[color.opponent().index()] += self.stones[mine] as u32;
            self.remove_chain(mine);
        }
    }

    /// Puts a stone without captures (setting up a legal position).
    fn setup_stone(&mut self, point: usize, color: Color) {
        let saved = (self.last_move, self.second_last_move, self.captures);
        self.play(point, color);
        (self.last_move, self.second_last_move, self.captures) = saved;
        self.ko_point = NO_POINT;
    }

    /// Updates the neighbours' 3x3 codes for the cell on `point` changing between empty and
    /// a `stone` ([`BLACK`] or [`WHITE`]), either way: `point` sits opposite in each
    /// neighbour's ring.
    #[inline(always)]
    fn recode(&mut self, point: usize, stone: u8) {
        let change = u16::from(stone >> 1);
        for (position, neighbour) in self.ring(point).into_iter().enumerate() {
            self.codes[neighbour & MASK] ^= change << (2 * ((position + 4) % 8));
        }
    }

    /// The 3x3 code of the neighbours of `point` (see [`crate::go::search::patterns`]).
    #[inline(always)]
    pub fn code(&self, point: usize) -> u32 {
        u32::from(self.codes[point & MASK])
    }

    /// The 3x3 code of `point` read from the cells.
    #[inline(always)]
    fn code_from_cells(&self, point: usize) -> u32 {
        self.ring(point)
            .iter()
            .enumerate()
            .fold(0, |code, (position, &neighbour)| {
                code | u32::from(self.cells[neighbour & MASK] >> 1) << (2 * position)
            })
    }

    #[inline(always)]
    fn add_liberty(&mut self, head: usize, liberty: usize) {
        let head = head & MASK;
        self.pseudo[head] += 1;
        self.liberty_sum[head] += liberty as u32;
        self.liberty_square_sum[head] += (liberty * liberty) as u32;
    }

    #[inline(always)]
    fn remove_liberty(&mut self, head: usize, liberty: usize) {
        let head = head & MASK;
        self.pseudo[head] -= 1;
        self.liberty_sum[head] -= liberty as u32;
        self.liberty_square_sum[head] -= (liberty * liberty) as u32;
    }

    fn merge(&mut self, first: usize, second: usize) {
        let (big, small) = if self.stones[first & MASK] >= self.stones[second & MASK] {
            (first & MASK, second & MASK)
        } else {
            (second & MASK, first & MASK)
        };
        let mut stone = small;
        loop {
            self.head[stone] = big as u16;
            stone = self.next[stone] as usize & MASK;
            if stone == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.stones[big] += self.stones[small];
        self.pseudo[big] += self.pseudo[small];
        self.liberty_sum[big] += self.liberty_sum[small];
        self.liberty_square_sum[big] += self.liberty_square_sum[small];
    }

    fn remove_chain(&mut self, head: usize) {
        let start = head & MASK;
        let mut stone = start;
        let color = self.cells[start];
        loop {
            self.cells[stone] = EMPTY;
            self.recode(stone, color);
            self.add_empty(stone);
            stone = self.next[stone] as usize & MASK;
            if stone == start {
                break;
            }
        }
        loop {
            for neighbour in self.neighbours(stone) {
                let cell = self.cells[neighbour & MASK];
                if cell == BLACK || cell == WHITE {
                    let neighbour_head = self.chain(neighbour);
                    self.add_liberty(neighbour_head, stone);
                }
            }
            stone = self.next[stone] as usize & MASK;
            if stone == start {
                break;
            }
        }
    }

    #[inline(always)]
    fn add_empty(&mut self, point: usize) {
        self.empty_position[point & MASK] = self.empty_count as u16;
        self.empty[self.empty_count & MASK] = point as u16;
        self.empty_count += 1;
    }

    #[inline(always)]
    fn remove_empty(&mut self, point: usize) {
        let position = self.empty_position[point & MASK] as usize;
        self.empty_count -= 1;
        let last = self.empty[self.empty_count & MASK];
        self.empty[position & MASK] = last;
        self.empty_position[last as usize & MASK] = position as u16;
    }

    /// The area owner of `point` at the end of a playout: the stone's colour, or the colour
    /// of all neighbouring stones of an empty point; 0 when mixed (dame).
    #[inline]
    pub fn area_owner(&self, point: usize) -> u8 {
        let cell = self.cells[point & MASK];
        if cell != EMPTY {
            return cell;
        }
        // The border has both colour bits: leave it out, or every empty point on the edge
        // would count for nobody.
        let mut seen = 0;
        for neighbour in self.neighbours(point) {
            let cell = self.cells[neighbour & MASK];
            if cell != BORDER {
                seen |= cell;
            }
        }
        match seen & BORDER {
            BLACK => BLACK,
            WHITE => WHITE,
            _ => 0,
        }
    }

    /// Black's area minus white's (no komi), empty points counted for the colour that alone
    /// touches them.
    pub fn area_margin(&self) -> i32 {
        let mut margin = 0;
        for row in 0..self.size {
            let start = (row + 1) * self.stride + 1;
            for point in start..start + self.size {
                match self.area_owner(point) {
                    BLACK => margin += 1,
                    WHITE => margin -= 1,
                    _ => {}
                }
            }
        }
        margin
    }

    /// Checks the incremental chain data against a recomputation (for tests).
    ///
    /// # Errors
    /// A description of the first disagreement.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut empties = 0;
        for row in 0..self.size {
            for column in 0..self.size {
                let point = (row + 1) * self.stride + column + 1;
                let cell = self.cells[point];
                if cell == EMPTY {
                    empties += 1;
                    if self.empty[self.empty_position[point] as usize] as usize != point {
                        return Err(format!("empty list lost {point}"));
                    }
                    continue;
                }
                let head = self.chain(point);
                let mut count = 0;
                let mut sum = 0u32;
                let mut squares = 0u32;
                let mut stones = 0;
                let mut stone = head;
                loop {
                    if self.chain(stone) != head || self.cells[stone] != cell {
                        return Err(format!("chain list broken at {stone}"));
                    }
                    stones += 1;
                    for neighbour in self.neighbours(stone) {
                        if self.cells[neighbour] == EMPTY {
                            count += 1;
                            sum += neighbour as u32;
                            squares += (neighbour * neighbour) as u32;
                        }
                    }
                    stone = self.next[stone] as usize;
                    if stone == head {
                        break;
                    }
                }
                if stones != self.stones[head] as usize
                    || count != self.pseudo[head] as usize
                    || sum != self.liberty_sum[head]
                    || squares != self.liberty_square_sum[head]
                {
                    return Err(format!("chain data wrong at {point}"));
                }
                for neighbour in self.neighbours(point) {
                    if self.cells[neighbour] == cell && self.chain(neighbour) != head {
                        return Err(format!("neighbours in two chains at {point}"));
                    }
                }
                if count == 0 {
                    return Err(format!("chain without liberties at {point}"));
                }
            }
        }
        if empties != self.empty_count {
            return Err("empty count wrong".to_string());
        }
        Ok(())
    }
}

/// The playout-board index of a move: the point's index, [`NO_POINT`] for a pass.
#[inline]
pub fn move_index(chosen: crate::go::rules::point::Move) -> usize {
    match chosen {
        crate::go::rules::point::Move::Place(point) => point.index(),
        crate::go::rules::point::Move::Pass => NO_POINT,
    }
}

/// The move for a playout-board index.
#[inline]
pub fn index_move(index: usize) -> crate::go::rules::point::Move {
    if index == NO_POINT {
        crate::go::rules::point::Move::Pass
    } else {
        crate::go::rules::point::Move::Place(Point(index as u16))
    }
}

/// The point index of the GTP vertex `text` on a board of `size` (for tests).
///
/// # Panics
/// When `text` is not a vertex of that board.
#[cfg(test)]
pub(crate) fn vertex_index(size: usize, text: &str) -> usize {
    match crate::go::rules::point::parse_move(text, size) {
        Ok(crate::go::rules::point::Move::Place(point)) => point.index(),
        other => panic!("bad vertex {text}: {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::point::Move;
    use crate::go::search::board::vertex_index as at;

    #[test]
    fn random_games_agree_with_the_rules_board() {
        let mut state = 12345u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for size in [5, 9, 19] {
            for _ in 0..10 {
                let mut rules_board = Board::new(size);
                let mut board = PlayoutBoard::new(size);
                let mut color = Color::Black;
                for _ in 0..size * size * 2 {
                    if board.empty_count() == 0 {
                        break;
                    }
                    let index = (random() % board.empty_count() as u64) as usize;
                    let point = board.empty_at(index);
                    let legal = board.is_legal(point, color);
                    let rules_legal = rules_board
                        .check_move(Point(point as u16), color, false)
                        .is_ok();
                    assert_eq!(legal, rules_legal, "legality differs at {point}");
                    if !legal {
                        continue;
                    }
                    board.play(point, color);
                    rules_board.play_unchecked(Move::Place(Point(point as u16)), color);
                    board.check_consistency().unwrap();
                    for other in rules_board.points() {
                        let expected = match rules_board.stone(other) {
                            Some(stone) => stone_code(stone),
                            None => EMPTY,
                        };
                        assert_eq!(board.cell(other.index()), expected);
                        if rules_board.stone(other).is_some() {
                            assert_eq!(
                                board.in_atari(other.index()),
                                rules_board.liberties(other) == 1
                            );
                        }
                    }
                    assert_eq!(
                        board.ko_point(),
                        rules_board
                            .ko_point_for(color.opponent())
                            .map(|point| point.index())
                            .unwrap_or(NO_POINT)
                    );
                    color = color.opponent();
                }
                let copy = PlayoutBoard::from_board(&rules_board, color);
                copy.check_consistency().unwrap();
                // The playouts' area count agrees with the rules core's, edges included.
                let no_dead = vec![false; rules_board.array_length()];
                let owners = crate::go::rules::score::area_owners(&rules_board, &no_dead);
                let mut expected_margin = 0;
                let mut isolated = true;
                for point in rules_board.points() {
                    let code = match owners[point.index()] {
                        Some(owner) => {
                            expected_margin += if owner == Color::Black { 1 } else { -1 };
                            stone_code(owner)
                        }
                        None => 0,
                    };
                    // The playout board looks at the neighbours only, the rules core at
                    // whole regions: they agree on stones and on one-point regions (all
                    // that is left empty at the end of a playout).
                    if !board.has_empty_neighbour(point.index())
                        || board.cell(point.index()) != EMPTY
                    {
                        assert_eq!(board.area_owner(point.index()), code, "owner of {point:?}");
                    } else {
                        isolated = false;
                    }
                }
                if isolated {
                    assert_eq!(board.area_margin(), expected_margin);
                }
            }
        }
    }

    /// The O(1) liberty answers (`liberties_besides`, `more_liberties_than`,
    /// `two_liberties`) agree with the liberties found by walking the chain, on every chain
    /// and every empty point next to it, and the kept 3x3 codes with the cells, through
    /// random games (captures included).
    #[test]
    fn quick_liberty_answers_agree_with_walking_the_chain() {
        let mut state = 777u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = [0usize; 3];
        for size in [5, 9, 19] {
            for _ in 0..6 {
                let mut board = PlayoutBoard::new(size);
                let mut color = Color::Black;
                for _ in 0..size * size * 2 {
                    if board.empty_count() == 0 {
                        break;
                    }
                    let point = board.empty_at((random() % board.empty_count() as u64) as usize);
                    if !board.is_legal(point, color) || board.is_eye(point, color) {
                        continue;
                    }
                    board.play(point, color);
                    color = color.opponent();
                    for other in 0..board.length() {
                        if board.cell(other) == BORDER {
                            continue;
                        }
                        let recomputed = board.ring(other).iter().enumerate().fold(
                            0,
                            |code, (position, &neighbour)| {
                                code | u32::from(board.cell(neighbour) >> 1) << (2 * position)
                            },
                        );
                        assert_eq!(board.code(other), recomputed, "the 3x3 code of {other}");
                        assert_eq!(board.code_from_cells(other), recomputed);
                    }
                    for stone in 0..board.length() {
                        let cell = board.cell(stone);
                        if (cell != BLACK && cell != WHITE) || board.chain(stone) != stone {
                            continue;
                        }
                        let mut all = [NO_POINT; CAPACITY];
                        let count = board.liberties_into(stone, NO_POINT, &mut all);
                        let liberties = &all[..count];
                        for bound in 0..6 {
                            if board.more_liberties_than(stone, bound) {
                                assert!(count > bound, "chain {stone}: {count} liberties");
                            }
                        }
                        let mut first = [NO_POINT; 3];
                        let got = board.liberties_into(stone, NO_POINT, &mut first);
                        let expected = (got == 2).then_some([first[0], first[1]]);
                        assert_eq!(board.two_liberties(stone), expected, "chain {stone}");
                        for &liberty in liberties {
                            let others: Vec<usize> = liberties
                                .iter()
                                .copied()
                                .filter(|&other| other != liberty)
                                .collect();
                            let expected = match others.len() {
                                0 => LibertiesBesides::None,
                                1 => LibertiesBesides::One(others[0]),
                                _ => LibertiesBesides::Several,
                            };
                            checked[others.len().min(2)] += 1;
                            assert_eq!(
                                board.liberties_besides(stone, liberty),
                                expected,
                                "chain {stone} besides {liberty}"
                            );
                        }
                    }
                }
            }
        }
        assert!(checked.iter().all(|&count| count > 100), "{checked:?}");
    }

    #[test]
    fn finds_the_liberty_of_a_chain_in_atari() {
        let rules_board = Board::from_diagram(
            ". X O . .
             X O O X .
             . X X . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        let board = PlayoutBoard::from_board(&rules_board, Color::Black);
        let white = at(5, "B4");
        assert!(board.in_atari(white));
        assert_eq!(board.atari_liberty(white), at(5, "D5"));
        let mut found = [0; 3];
        assert_eq!(board.liberties_into(at(5, "B3"), NO_POINT, &mut found), 3);
        // A5 is a false eye of black (white B4 on the diagonal, on the edge), and white may
        // play there because it captures B5.
        assert!(board.is_eyeish(at(5, "A5"), Color::Black));
        assert!(!board.is_eye(at(5, "A5"), Color::Black));
        assert!(board.in_atari(at(5, "B5")));
        assert!(board.is_legal(at(5, "A5"), Color::White));
    }
}
