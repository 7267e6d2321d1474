//! The referee's count under territory rules, as a pure function of the stones and the stones
//! marked dead: which empty points (and points under dead stones) are a player's territory,
//! which belong to groups alive in seki (nobody's), which are dame, and which are false eyes
//! that their owner must fill before the game is really over (not counted). Knows a
//! rectangular grid of stones of any width and height and nothing else: no board, no search,
//! no GTP. [`crate::go::rules::score`] counts with it.
//!
//! The method is that of lightvector's goscorer (MIT licence), rewritten here:
//! 1. Connection blocks: small shapes (a hane, a diagonal cut, an edge gap) where an empty
//!    point would let the opponent through if left open; reachability does not pass them.
//! 2. Reachability: from each colour's live stones through everything but the other colour's
//!    live stones (strictly), and again stopping at the other colour's blocks.
//! 3. Regions: maximal areas reached by one colour only (its live stones included); points
//!    reached by both or neither are dame. Chains: connected points of one kind (colour and
//!    dead mark, or empty). Macrochains: live chains of one colour joined through dame.
//! 4. Eyes: the empty and dead-stone points of a region, connected. A point of an eye
//!    touching a macrochain is a false eye when that macrochain cannot reach every side of
//!    the point without passing through it.
//! 5. Eye values (0, 1 or 2) from the eye's real points: how many moves it takes to close
//!    each point off, bottlenecks that split the eye, big or bulky spaces, dead stones inside.
//! 6. A region whose eyes are worth one eye or none in total is alive in seki: none of its
//!    points count. A false eye is unscorable when its macrochain reaches no eye worth
//!    anything: the owner must connect there, so nobody counts it (nor the points beside a
//!    dead stone thrown into such a point).
//!
//! Grid points are indexed row by row, `y * width + x`, with `y = 0` the top row.

use crate::color::Color;
use crate::go::rules::board::Board;
use crate::go::rules::point::point_at;

/// Stones on a rectangular grid with the ones agreed dead marked, the input of
/// [`territory_verdicts`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkedGrid {
    width: usize,
    height: usize,
    stones: Vec<Option<Color>>,
    dead: Vec<bool>,
}

impl MarkedGrid {
    /// An empty grid.
    ///
    /// # Panics
    /// When `width` or `height` is zero.
    pub fn new(width: usize, height: usize) -> MarkedGrid {
        assert!(width > 0 && height > 0, "a grid needs at least one point");
        MarkedGrid {
            width,
            height,
            stones: vec![None; width * height],
            dead: vec![false; width * height],
        }
    }

    /// The grid of `board` (top row first: GTP's highest row is `y = 0`), with the stones on
    /// the point indices where `dead` is true marked dead.
    pub fn from_board(board: &Board, dead: &[bool]) -> MarkedGrid {
        let size = board.size();
        let mut grid = MarkedGrid::new(size, size);
        for y in 0..size {
            for x in 0..size {
                let point = point_at(x, size - 1 - y, size);
                if let Some(color) = board.stone(point) {
                    grid.set(x, y, Some(color), dead[point.index()]);
                }
            }
        }
        grid
    }

    /// Puts a stone (or nothing) on `(x, y)`, dead or alive.
    ///
    /// # Panics
    /// When `(x, y)` is off the grid.
    pub fn set(&mut self, x: usize, y: usize, stone: Option<Color>, dead: bool) {
        assert!(
            x < self.width && y < self.height,
            "({x}, {y}) is off the grid"
        );
        let index = y * self.width + x;
        self.stones[index] = stone;
        self.dead[index] = dead && stone.is_some();
    }

    /// Width of the grid.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height of the grid.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The grid index of `board`'s point at GTP `(column, row)` (row 0 at the bottom).
    pub fn index_of_board_point(&self, column: usize, row: usize) -> usize {
        (self.height - 1 - row) * self.width + column
    }

    fn is_live(&self, index: usize, color: Color) -> bool {
        self.stones[index] == Some(color) && !self.dead[index]
    }

    fn is_live_stone(&self, index: usize) -> bool {
        self.stones[index].is_some() && !self.dead[index]
    }

    /// The on-grid neighbours of `index`: above, below, left, right.
    fn neighbours(&self, index: usize) -> impl Iterator<Item = usize> {
        let (width, height) = (self.width, self.height);
        let (x, y) = (index % width, index / width);
        [
            (y > 0).then(|| index - width),
            (y + 1 < height).then(|| index + width),
            (x > 0).then(|| index - 1),
            (x + 1 < width).then(|| index + 1),
        ]
        .into_iter()
        .flatten()
    }

    fn are_adjacent(&self, first: usize, second: usize) -> bool {
        self.neighbours(first).any(|neighbour| neighbour == second)
    }

    fn is_on_edge(&self, index: usize) -> bool {
        let (x, y) = (index % self.width, index / self.width);
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }
}

/// How the referee counts one point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointVerdict {
    /// The player this point is a point of territory for (under a dead stone too; the dead
    /// stone itself is a prisoner besides), `None` when it counts for nobody.
    pub territory: Option<Color>,
    /// The colour whose region (the points reached by its live stones only) holds this point,
    /// `None` for dame.
    pub region: Option<Color>,
    /// The colour of the group in seki (without two eyes) this point is part of, stones and
    /// the space they surround.
    pub seki: Option<Color>,
    /// An eye point that does not help the group live (its neighbours do not connect but
    /// through it).
    pub false_eye: bool,
    /// A false eye that the owner must fill eventually, so it is not counted.
    pub unscorable_false_eye: bool,
    /// Reached by both colours' live stones (or by neither): a neutral point.
    pub dame: bool,
    /// How many eyes (0 to 2) the eye space holding this point is worth.
    pub eye_value: u8,
}

/// The referee's verdict on every point of `grid`, indexed like the grid (see
/// [`MarkedGrid`]). Assumes the dead marks are right; the heuristics for eyes are those of a
/// finished game.
pub fn territory_verdicts(grid: &MarkedGrid) -> Vec<PointVerdict> {
    Analysis::new(grid).verdicts()
}

/// The referee's verdict on every point of `board` with the stones on the point indices where
/// `dead` is true removed, indexed by point index (off-board entries are the default).
pub fn board_verdicts(board: &Board, dead: &[bool]) -> Vec<PointVerdict> {
    let grid = MarkedGrid::from_board(board, dead);
    let verdicts = territory_verdicts(&grid);
    let size = board.size();
    let mut by_point = vec![PointVerdict::default(); board.array_length()];
    for row in 0..size {
        for column in 0..size {
            by_point[point_at(column, row, size).index()] =
                verdicts[grid.index_of_board_point(column, row)];
        }
    }
    by_point
}

/// Shapes around an empty point `@` that block the opponent's reach through it: `p` a live
/// stone of the player, `e` empty, a live stone of the player or a dead one of the opponent,
/// `?` anything. A last row of `x` means that row lies off the board (the shape is on an
/// edge). Each shape is tried in the eight orientations.
const CONNECTION_BLOCK_SHAPES: [&[&str]; 6] = [
    &["pp", "@e", "pe"],
    &["ep?", "e@e", "ep?"],
    &["pee", "e@p", "pee"],
    &["?e?", "p@p", "xxx"],
    &["pp", "@e", "xx"],
    &["ep?", "e@e", "xxx"],
];

/// The eight orientations of a shape: how a step along its rows and along its columns moves
/// on the grid, as `(row step y, row step x, column step y, column step x)`.
const ORIENTATIONS: [(isize, isize, isize, isize); 8] = [
    (1, 0, 0, 1),
    (-1, 0, 0, 1),
    (1, 0, 0, -1),
    (-1, 0, 0, -1),
    (0, 1, 1, 0),
    (0, -1, 1, 0),
    (0, 1, -1, 0),
    (0, -1, -1, 0),
];

/// Liveness and colour of a chain: connected points holding the same thing.
#[derive(Clone, Debug)]
struct Chain {
    /// The region of all its points, `None` when they lie in different ones (or none).
    region: Option<usize>,
    /// Empty points next to it.
    liberties: Vec<usize>,
}

/// Live chains of one colour joined through dame that the opponent cannot cut.
#[derive(Clone, Debug)]
struct Macrochain {
    /// For each eye it touches (in the order met), the stones of this macrochain touching it.
    eye_contacts: Vec<(usize, Vec<usize>)>,
}

/// The empty and dead-stone points of a region, connected.
#[derive(Clone, Debug)]
struct Eye {
    region: usize,
    /// For each macrochain it touches (in the order met), its points touching it.
    macrochain_contacts: Vec<(usize, Vec<usize>)>,
    /// Its points that are not false eyes (filled in with the eye values).
    real_points: Vec<usize>,
    value: u8,
}

#[derive(Clone, Debug)]
struct Region {
    color: Color,
    eyes: Vec<usize>,
}

/// Everything the verdicts are computed from.
struct Analysis<'a> {
    grid: &'a MarkedGrid,
    connection_blocks: Vec<Option<Color>>,
    /// Per colour: reached from its live stones through anything but the other colour's
    /// live stones.
    strictly_reaches: [Vec<bool>; 2],
    /// The same, stopping at the other colour's connection blocks.
    reaches: [Vec<bool>; 2],
    region_of: Vec<Option<usize>>,
    regions: Vec<Region>,
    chain_of: Vec<usize>,
    chains: Vec<Chain>,
    macrochain_of: Vec<Option<usize>>,
    macrochains: Vec<Macrochain>,
    eye_of: Vec<Option<usize>>,
    eyes: Vec<Eye>,
}

/// Adds `item` to a small set kept as a vector.
fn insert_once(items: &mut Vec<usize>, item: usize) {
    if !items.contains(&item) {
        items.push(item);
    }
}

/// The entry for `key` in a small map kept as a vector in insertion order, made when absent.
fn entry_of(map: &mut Vec<(usize, Vec<usize>)>, key: usize) -> &mut Vec<usize> {
    let position = match map.iter().position(|(existing, _)| *existing == key) {
        Some(position) => position,
        None => {
            map.push((key, Vec::new()));
            map.len() - 1
        }
    };
    &mut map[position].1
}

fn contacts_of(map: &[(usize, Vec<usize>)], key: usize) -> &[usize] {
    map.iter()
        .find(|(existing, _)| *existing == key)
        .map_or(&[], |(_, points)| points.as_slice())
}

impl<'a> Analysis<'a> {
    fn new(grid: &'a MarkedGrid) -> Analysis<'a> {
        let length = grid.width * grid.height;
        let mut analysis = Analysis {
            grid,
            connection_blocks: vec![None; length],
            strictly_reaches: [vec![false; length], vec![false; length]],
            reaches: [vec![false; length], vec![false; length]],
            region_of: vec![None; length],
            regions: Vec::new(),
            chain_of: vec![usize::MAX; length],
            chains: Vec::new(),
            macrochain_of: vec![None; length],
            macrochains: Vec::new(),
            eye_of: vec![None; length],
            eyes: Vec::new(),
        };
        analysis.mark_connection_blocks();
        for color in Color::ALL {
            analysis.strictly_reaches[color.index()] = analysis.reachability(color, false);
            analysis.reaches[color.index()] = analysis.reachability(color, true);
        }
        analysis.mark_regions();
        analysis.mark_chains();
        analysis.mark_macrochains();
        analysis.mark_eyes();
        analysis
    }

    /// Marks the empty points where one of [`CONNECTION_BLOCK_SHAPES`] holds for a colour.
    fn mark_connection_blocks(&mut self) {
        let grid = self.grid;
        let (width, height) = (grid.width as isize, grid.height as isize);
        for player in Color::ALL {
            for (row_y, row_x, column_y, column_x) in ORIENTATIONS {
                for shape in CONNECTION_BLOCK_SHAPES {
                    let on_edge = shape[shape.len() - 1].starts_with('x');
                    let rows = if on_edge {
                        shape.len() - 1
                    } else {
                        shape.len()
                    };
                    let columns = shape[0].len();
                    // An edge shape is tried only where its last row lies just off the grid.
                    let edge_distance = shape.len() as isize - 2;
                    let (mut ys, mut xs) = ((0..height).collect::<Vec<_>>(), (0..width).collect());
                    if on_edge {
                        match (row_y, row_x) {
                            (-1, _) => ys = vec![edge_distance],
                            (1, _) => ys = vec![height - 1 - edge_distance],
                            (_, -1) => xs = vec![edge_distance],
                            _ => xs = vec![width - 1 - edge_distance],
                        }
                    }
                    for &y in &ys {
                        for &x in &xs {
                            let at = |row: usize, column: usize| {
                                let (row, column) = (row as isize, column as isize);
                                (
                                    y + row_y * row + column_y * column,
                                    x + row_x * row + column_x * column,
                                )
                            };
                            let inside = |(ty, tx): (isize, isize)| {
                                (0..height).contains(&ty) && (0..width).contains(&tx)
                            };
                            if !inside((y, x)) || !inside(at(rows - 1, columns - 1)) {
                                continue;
                            }
                            let mut blocked_point = None;
                            let fits = (0..rows).all(|row| {
                                shape[row].bytes().enumerate().all(|(column, symbol)| {
                                    let (ty, tx) = at(row, column);
                                    let index = (ty * width + tx) as usize;
                                    match symbol {
                                        b'?' => true,
                                        b'p' => grid.is_live(index, player),
                                        // Empty, a live stone of the player or a dead
                                        // one of the opponent.
                                        b'e' => grid.stones[index].is_none_or(|color| {
                                            (color == player) != grid.dead[index]
                                        }),
                                        b'@' => {
                                            blocked_point = Some(index);
                                            grid.stones[index].is_none()
                                        }
                                        _ => false,
                                    }
                                })
                            });
                            if let (true, Some(index)) = (fits, blocked_point) {
                                self.connection_blocks[index] = Some(player);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The points reached from `player`'s live stones through anything but the opponent's
    /// live stones; with `blocked`, a point the opponent blocks is reached but not passed.
    fn reachability(&self, player: Color, blocked: bool) -> Vec<bool> {
        let grid = self.grid;
        let opponent = player.opponent();
        let mut reached = vec![false; self.region_of.len()];
        let mut pending: Vec<usize> = (0..reached.len())
            .filter(|&index| grid.is_live(index, player))
            .collect();
        while let Some(index) = pending.pop() {
            if reached[index] || grid.is_live(index, opponent) {
                continue;
            }
            reached[index] = true;
            if blocked && self.connection_blocks[index] == Some(opponent) {
                continue;
            }
            pending.extend(grid.neighbours(index));
        }
        reached
    }

    /// Regions: from each point reached by one colour only (in grid order), the points
    /// reached by that colour only that can be walked to without crossing the other colour's
    /// live stones or blocks or an earlier region.
    fn mark_regions(&mut self) {
        let grid = self.grid;
        let length = self.region_of.len();
        for start in 0..length {
            for player in Color::ALL {
                let opponent = player.opponent();
                let own = &self.reaches[player.index()];
                let other = &self.reaches[opponent.index()];
                if !own[start] || other[start] || self.region_of[start].is_some() {
                    continue;
                }
                let id = self.regions.len();
                self.regions.push(Region {
                    color: player,
                    eyes: Vec::new(),
                });
                let mut visited = vec![false; length];
                let mut pending = vec![start];
                while let Some(index) = pending.pop() {
                    if visited[index]
                        || self.region_of[index].is_some()
                        || grid.is_live(index, opponent)
                    {
                        continue;
                    }
                    visited[index] = true;
                    if own[index] && !other[index] {
                        self.region_of[index] = Some(id);
                    }
                    if self.connection_blocks[index] == Some(opponent) {
                        continue;
                    }
                    pending.extend(grid.neighbours(index));
                }
            }
        }
    }

    /// Chains of every kind (black or white, alive or dead, or empty), in grid order.
    fn mark_chains(&mut self) {
        let grid = self.grid;
        for start in 0..self.chain_of.len() {
            if self.chain_of[start] != usize::MAX {
                continue;
            }
            let id = self.chains.len();
            let kind = (grid.stones[start], grid.dead[start]);
            let mut chain = Chain {
                region: self.region_of[start],
                liberties: Vec::new(),
            };
            let mut pending = vec![start];
            self.chain_of[start] = id;
            while let Some(index) = pending.pop() {
                if chain.region != self.region_of[index] {
                    chain.region = None;
                }
                for neighbour in grid.neighbours(index) {
                    if (grid.stones[neighbour], grid.dead[neighbour]) == kind {
                        if self.chain_of[neighbour] == usize::MAX {
                            self.chain_of[neighbour] = id;
                            pending.push(neighbour);
                        }
                    } else if grid.stones[neighbour].is_none() {
                        insert_once(&mut chain.liberties, neighbour);
                    }
                }
            }
            self.chains.push(chain);
        }
    }

    /// Macrochains: live chains of one colour (in grid order) joined through dame that the
    /// other colour does not block.
    fn mark_macrochains(&mut self) {
        let grid = self.grid;
        let length = self.chain_of.len();
        for player in Color::ALL {
            let opponent = player.opponent();
            let mut visited = vec![false; length];
            for start in 0..length {
                if !grid.is_live(start, player) || visited[start] {
                    continue;
                }
                let id = self.macrochains.len();
                self.macrochains.push(Macrochain {
                    eye_contacts: Vec::new(),
                });
                let mut pending = vec![start];
                while let Some(index) = pending.pop() {
                    if visited[index] {
                        continue;
                    }
                    visited[index] = true;
                    if grid.is_live(index, player) {
                        self.macrochain_of[index] = Some(id);
                        pending.extend(grid.neighbours(index));
                    } else if self.region_of[index].is_none()
                        && self.connection_blocks[index] != Some(opponent)
                    {
                        pending.extend(grid.neighbours(index));
                    }
                }
            }
        }
    }

    /// Eyes: the connected empty and dead-stone points of each region, with the macrochains
    /// they touch.
    fn mark_eyes(&mut self) {
        let grid = self.grid;
        let length = self.eye_of.len();
        let mut visited = vec![false; length];
        for start in 0..length {
            if visited[start] || self.eye_of[start].is_some() || grid.is_live_stone(start) {
                continue;
            }
            let Some(region) = self.region_of[start] else {
                continue;
            };
            let id = self.eyes.len();
            let mut eye = Eye {
                region,
                macrochain_contacts: Vec::new(),
                real_points: Vec::new(),
                value: 0,
            };
            // (point, the eye point it was reached from)
            let mut pending = vec![(start, usize::MAX)];
            while let Some((index, from)) = pending.pop() {
                if visited[index] || self.region_of[index] != Some(region) {
                    continue;
                }
                if let Some(macrochain) = self.macrochain_of[index] {
                    insert_once(entry_of(&mut eye.macrochain_contacts, macrochain), from);
                    insert_once(
                        entry_of(&mut self.macrochains[macrochain].eye_contacts, id),
                        index,
                    );
                }
                if grid.is_live_stone(index) {
                    continue;
                }
                visited[index] = true;
                self.eye_of[index] = Some(id);
                pending.extend(grid.neighbours(index).map(|neighbour| (neighbour, index)));
            }
            self.eyes.push(eye);
            self.regions[region].eyes.push(id);
        }
    }

    fn in_eye(&self, index: usize, eye: usize) -> bool {
        self.eye_of[index] == Some(eye)
    }

    /// The false eye points with the eye values as they stand: with every value 0, the points
    /// that do not help life; with the values known, the ones the owner must fill.
    fn false_eye_points(&self) -> Vec<bool> {
        let grid = self.grid;
        let mut false_eye = vec![false; self.eye_of.len()];
        for (eye_id, eye) in self.eyes.iter().enumerate() {
            for (macrochain, points) in &eye.macrochain_contacts {
                for &point in points {
                    let neighbours_in_eye = grid
                        .neighbours(point)
                        .filter(|&neighbour| self.in_eye(neighbour, eye_id))
                        .count();
                    if neighbours_in_eye > 1 {
                        continue;
                    }
                    let sides_needed = grid
                        .neighbours(point)
                        .filter(|&neighbour| self.region_of[neighbour] == Some(eye.region))
                        .count();
                    let mut search = SideSearch {
                        analysis: self,
                        eye: eye_id,
                        point,
                        sides_needed,
                        sides_reached: Vec::new(),
                        macrochains_seen: vec![false; self.macrochains.len()],
                        other_eyes_seen: vec![false; self.eyes.len()],
                        eye_points_seen: vec![point],
                    };
                    if !search.reaches_from(*macrochain) {
                        false_eye[point] = true;
                    }
                }
            }
        }
        false_eye
    }

    /// Whether `color` could put a stone on the empty `index` without it being suicide at
    /// first sight: it touches something not the opponent's, or an opponent chain with one
    /// liberty.
    fn may_play(&self, index: usize, color: Color) -> bool {
        let grid = self.grid;
        if grid.stones[index].is_some() {
            return false;
        }
        grid.neighbours(index).any(|neighbour| {
            grid.stones[neighbour] != Some(color.opponent())
                || self.chains[self.chain_of[neighbour]].liberties.len() <= 1
        })
    }

    /// Fills in the real points and the value of every eye, from the false eye points seen
    /// with all values 0.
    fn mark_eye_values(&mut self, false_eye: &[bool]) {
        for eye_id in 0..self.eyes.len() {
            let region = self.eyes[eye_id].region;
            let player = self.regions[region].color;
            let real_points: Vec<usize> = (0..self.eye_of.len())
                .filter(|&index| self.in_eye(index, eye_id) && !false_eye[index])
                .collect();
            let value = self.eye_value(&real_points, player, false_eye);
            let eye = &mut self.eyes[eye_id];
            eye.real_points = real_points;
            eye.value = value;
        }
    }

    /// The value (0 to 2) of an eye of `player` with these real points.
    fn eye_value(&self, real_points: &[usize], player: Color, false_eye: &[bool]) -> u8 {
        let grid = self.grid;
        let opponent = player.opponent();
        let is_real = |index: usize| real_points.contains(&index);
        let stone = |index: usize| grid.stones[index];
        let facts: Vec<EyePointFacts> = real_points
            .iter()
            .map(|&index| {
                let mut facts = EyePointFacts::default();
                for neighbour in grid.neighbours(index) {
                    if is_real(neighbour) {
                        facts.eye_neighbours += 1;
                        if stone(neighbour).is_none() {
                            facts.empty_eye_neighbours += 1;
                        }
                    }
                    if stone(neighbour).is_none() && false_eye[neighbour] {
                        facts.empty_false_neighbours += 1;
                    }
                    if stone(neighbour) == Some(opponent) && false_eye[neighbour] {
                        facts.opponent_false_neighbours += 1;
                    }
                }
                facts.false_eye_poke = stone(index) == Some(opponent)
                    && (facts.opponent_false_neighbours > 0 || facts.empty_false_neighbours >= 2);
                facts
            })
            .collect();
        let facts_of = |index: usize| {
            real_points
                .iter()
                .position(|&point| point == index)
                .map(|position| &facts[position])
        };
        // Moves to close each point off as an eye point: one per empty neighbour outside the
        // eye or weakened by a throw-in, a thousand per neighbour the opponent holds for good.
        let moves_to_block: Vec<u32> = real_points
            .iter()
            .map(|&index| {
                grid.neighbours(index)
                    .map(|neighbour| {
                        let neighbour_facts = facts_of(neighbour);
                        let mut block = 0;
                        if stone(neighbour).is_none() && !is_real(neighbour) {
                            block = 1;
                        }
                        if stone(neighbour).is_none()
                            && neighbour_facts.is_some_and(|f| f.opponent_false_neighbours >= 1)
                        {
                            block = 1;
                        }
                        if stone(neighbour) == Some(opponent)
                            && neighbour_facts.is_some_and(|f| f.empty_false_neighbours >= 1)
                        {
                            block = 1;
                        }
                        if stone(neighbour) == Some(opponent) && false_eye[neighbour] {
                            block = 1000;
                        }
                        if stone(neighbour) == Some(opponent)
                            && neighbour_facts.is_some_and(|f| f.false_eye_poke)
                        {
                            block = 1000;
                        }
                        block
                    })
                    .sum()
            })
            .collect();
        let blocks_of = |index: usize| {
            let position = real_points
                .iter()
                .position(|&point| point == index)
                .expect("a real point");
            moves_to_block[position]
        };
        let count = |predicate: &dyn Fn(usize, usize) -> bool| {
            real_points
                .iter()
                .enumerate()
                .filter(|&(position, &index)| predicate(position, index))
                .count()
        };

        let mut value = 0usize;
        // A point that closes off in a move or less makes at least one eye.
        if moves_to_block.iter().any(|&moves| moves <= 1) {
            value = 1;
        }
        // A playable bottleneck: as many eyes as the pieces it splits the space into that
        // hold a point already closed off.
        for (position, &removed) in real_points.iter().enumerate() {
            if !self.may_play(removed, player) {
                continue;
            }
            let pieces = connected_pieces(grid, real_points, &[removed]);
            if pieces.len() < 2 {
                continue;
            }
            // Playing the bottleneck closes off what only its throw-in kept open.
            let bonus = facts[position].opponent_false_neighbours == 1;
            let closed = pieces
                .iter()
                .filter(|piece| {
                    piece.iter().any(|&index| {
                        let moves = blocks_of(index);
                        moves == 0 || (bonus && moves <= 1)
                    })
                })
                .count();
            value = value.max(closed);
        }
        // Many dead stones inside: one eye from five, two from eight.
        let dead_inside = count(&|_, index| stone(index) == Some(opponent) && grid.dead[index]);
        if dead_inside >= 5 {
            value = value.max(1);
        }
        if dead_inside >= 8 {
            value = value.max(2);
        }
        // A big space: its size less its weaknesses (counted twice when severe) less the
        // opponent's stones inside with two neighbours in the eye, six or more.
        if value < 2 {
            let size = real_points.len();
            let weak = count(&|position, _| moves_to_block[position] >= 1);
            let severe = count(&|position, _| moves_to_block[position] >= 2);
            let lodged = count(&|position, index| {
                stone(index) == Some(opponent) && facts[position].eye_neighbours >= 2
            });
            if size as isize - weak as isize - severe as isize - lodged as isize >= 6 {
                value = 2;
            }
        }
        // A bulky space: empty points with three or four neighbours in the eye (fours twice).
        if value < 2 {
            let bulky = count(&|position, index| {
                stone(index).is_none() && facts[position].eye_neighbours >= 4
            }) + count(&|position, index| {
                stone(index).is_none() && facts[position].eye_neighbours >= 3
            });
            if bulky >= 6 {
                value = 2;
            }
        }
        // Two adjacent points of degree three or more, one empty, playable, off the edge and
        // closed off in a move, the other empty or with another empty neighbour in the eye,
        // that split the space into pieces each holding a closed-off point, one of them two.
        if value < 2 {
            'first: for (position, &first) in real_points.iter().enumerate() {
                if stone(first).is_some()
                    || grid.is_on_edge(first)
                    || !self.may_play(first, player)
                    || moves_to_block[position] > 1
                    || facts[position].eye_neighbours < 3
                {
                    continue;
                }
                for second in grid.neighbours(first).filter(|&index| is_real(index)) {
                    let second_facts = facts_of(second).expect("a real point");
                    if second_facts.eye_neighbours < 3 || blocks_of(second) > 1 {
                        continue;
                    }
                    if stone(second).is_some() && second_facts.empty_eye_neighbours <= 1 {
                        continue;
                    }
                    let pieces = connected_pieces(grid, real_points, &[first, second]);
                    if pieces.len() < 2 {
                        continue;
                    }
                    let closed_points = |piece: &Vec<usize>| {
                        piece.iter().filter(|&&index| blocks_of(index) == 0).count()
                    };
                    let with_one = pieces.iter().filter(|p| closed_points(p) >= 1).count();
                    let with_two = pieces.iter().filter(|p| closed_points(p) >= 2).count();
                    if with_one >= 2 && with_two >= 1 && (stone(second).is_none() || with_two >= 2)
                    {
                        value = 2;
                        break 'first;
                    }
                }
            }
        }
        // Dead stones inside that, once captured, leave a living shape: the opponent may keep
        // any one unplayable point out (or none), the others count with the dead stones.
        if value < 2 {
            let dead_points: Vec<usize> = real_points
                .iter()
                .copied()
                .filter(|&index| stone(index) == Some(opponent) && grid.dead[index])
                .collect();
            let unplayable: Vec<usize> = real_points
                .iter()
                .copied()
                .filter(|&index| !dead_points.contains(&index) && !self.may_play(index, player))
                .collect();
            if !dead_points.is_empty() {
                let eye = self.eye_of[real_points[0]].expect("an eye point");
                let throw_ins = (0..self.eye_of.len())
                    .filter(|&index| {
                        self.in_eye(index, eye)
                            && stone(index) == Some(opponent)
                            && false_eye[index]
                    })
                    .count();
                let omissions = unplayable.iter().map(Some).chain(std::iter::once(None));
                let mut good_for_defender = true;
                for omitted in omissions {
                    let mut shape = dead_points.clone();
                    shape.extend(
                        unplayable
                            .iter()
                            .filter(|&point| Some(point) != omitted)
                            .copied(),
                    );
                    let piece_count = connected_pieces(grid, &shape, &[]).len();
                    let mut bottlenecks = 0;
                    let mut bulky_points = 0;
                    for &removed in &shape {
                        if connected_pieces(grid, &shape, &[removed]).len() > piece_count {
                            bottlenecks += 1;
                        } else if grid
                            .neighbours(removed)
                            .filter(|neighbour| shape.contains(neighbour))
                            .count()
                            >= 3
                        {
                            bulky_points += 1;
                        }
                    }
                    let bonus = usize::from(shape.len() >= 7);
                    let eyes = piece_count as isize - throw_ins as isize
                        + ((bottlenecks + bulky_points + bonus) / 2) as isize;
                    if eyes < 2 {
                        good_for_defender = false;
                        break;
                    }
                }
                if good_for_defender {
                    value = 2;
                }
            }
        }
        value.min(2) as u8
    }

    /// The verdict on every point.
    fn verdicts(mut self) -> Vec<PointVerdict> {
        let grid = self.grid;
        let life_false_eye = self.false_eye_points();
        self.mark_eye_values(&life_false_eye);
        let unscorable = self.false_eye_points();
        // The points beside a dead stone thrown into an unscorable false eye are not counted
        // for the player who would capture it either.
        let length = self.eye_of.len();
        let mut beside_throw_in = [vec![false; length], vec![false; length]];
        for (index, &unscorable_here) in unscorable.iter().enumerate() {
            if let (true, Some(color), true) =
                (unscorable_here, grid.stones[index], grid.dead[index])
            {
                for neighbour in grid.neighbours(index) {
                    beside_throw_in[color.opponent().index()][neighbour] = true;
                }
            }
        }
        let mut verdicts = vec![PointVerdict::default(); length];
        for (index, verdict) in verdicts.iter_mut().enumerate() {
            let Some(region) = self.region_of[index] else {
                verdict.dame = true;
                continue;
            };
            let color = self.regions[region].color;
            verdict.region = Some(color);
            let eyes: usize = self.regions[region]
                .eyes
                .iter()
                .map(|&eye| usize::from(self.eyes[eye].value))
                .sum();
            if eyes <= 1 {
                verdict.seki = Some(color);
            }
            verdict.false_eye = life_false_eye[index];
            verdict.unscorable_false_eye = unscorable[index]
                || ((grid.stones[index].is_none() || grid.dead[index])
                    && beside_throw_in[color.index()][index]);
            verdict.eye_value = self.eye_of[index].map_or(0, |eye| self.eyes[eye].value);
            let counts = (grid.stones[index] != Some(color) || grid.dead[index])
                && verdict.seki.is_none()
                && !verdict.unscorable_false_eye
                && self.chains[self.chain_of[index]].region == Some(region)
                && !self.strictly_reaches[color.opponent().index()][index];
            if counts {
                verdict.territory = Some(color);
            }
        }
        verdicts
    }
}

/// What an eye's value is judged from, per real point.
#[derive(Clone, Copy, Debug, Default)]
struct EyePointFacts {
    /// Neighbours that are real points of the eye.
    eye_neighbours: usize,
    /// Of those, the empty ones.
    empty_eye_neighbours: usize,
    /// Empty neighbours that are false eye points.
    empty_false_neighbours: usize,
    /// Neighbours that are opponent stones on false eye points (throw-ins).
    opponent_false_neighbours: usize,
    /// An opponent stone here connects to a throw-in on a false eye point (or two empty false
    /// eye points make one possible): the player can never close this point off.
    false_eye_poke: bool,
}

/// The search behind a false eye: from the macrochain touching `point`, through the
/// macrochains and eyes it touches, can the owner reach every side of `point` (or an eye worth
/// something) without passing through `point`?
struct SideSearch<'b, 'a> {
    analysis: &'b Analysis<'a>,
    eye: usize,
    point: usize,
    sides_needed: usize,
    sides_reached: Vec<usize>,
    macrochains_seen: Vec<bool>,
    other_eyes_seen: Vec<bool>,
    eye_points_seen: Vec<usize>,
}

impl SideSearch<'_, '_> {
    fn reach_side(&mut self, index: usize) -> bool {
        if self.analysis.grid.are_adjacent(index, self.point) {
            insert_once(&mut self.sides_reached, index);
        }
        self.sides_reached.len() >= self.sides_needed
    }

    fn reaches_from(&mut self, macrochain: usize) -> bool {
        if self.macrochains_seen[macrochain] {
            return false;
        }
        self.macrochains_seen[macrochain] = true;
        let analysis = self.analysis;
        for (eye_id, stones) in &analysis.macrochains[macrochain].eye_contacts {
            let eye_id = *eye_id;
            if self.other_eyes_seen[eye_id] {
                continue;
            }
            let eye = &analysis.eyes[eye_id];
            if eye_id != self.eye {
                self.other_eyes_seen[eye_id] = true;
                if eye.value > 0 {
                    return true;
                }
                for (next, _) in &eye.macrochain_contacts {
                    if self.reaches_from(*next) {
                        return true;
                    }
                }
                continue;
            }
            let mut done = false;
            for &stone in stones {
                done |= self.reach_side(stone);
            }
            if done {
                return true;
            }
            // The eye's points reachable from this macrochain without crossing the tested
            // point (or points met before).
            let reached = self.flood_eye(contacts_of(&eye.macrochain_contacts, macrochain));
            if reached.is_empty() {
                continue;
            }
            self.eye_points_seen.extend(reached.iter().copied());
            if eye.value > 0 && reached.iter().any(|point| eye.real_points.contains(point)) {
                return true;
            }
            let mut done = false;
            for &point in &reached {
                done |= self.reach_side(point);
            }
            if done {
                return true;
            }
            for (next, points) in &eye.macrochain_contacts {
                if points.iter().any(|point| reached.contains(point)) && self.reaches_from(*next) {
                    return true;
                }
            }
        }
        false
    }

    /// The points of the tested eye connected to `starts` within it, avoiding those seen.
    fn flood_eye(&self, starts: &[usize]) -> Vec<usize> {
        let analysis = self.analysis;
        let mut reached: Vec<usize> = Vec::new();
        let mut pending: Vec<usize> = starts.to_vec();
        while let Some(index) = pending.pop() {
            if self.eye_points_seen.contains(&index)
                || reached.contains(&index)
                || !analysis.in_eye(index, self.eye)
            {
                continue;
            }
            reached.push(index);
            pending.extend(analysis.grid.neighbours(index));
        }
        reached
    }
}

/// The connected pieces of `points` once `removed` are taken out.
fn connected_pieces(grid: &MarkedGrid, points: &[usize], removed: &[usize]) -> Vec<Vec<usize>> {
    let mut open = vec![false; grid.width * grid.height];
    for &point in points {
        open[point] = true;
    }
    for &point in removed {
        open[point] = false;
    }
    let mut pieces = Vec::new();
    for &start in points {
        if !open[start] {
            continue;
        }
        open[start] = false;
        let mut piece = vec![start];
        let mut cursor = 0;
        while cursor < piece.len() {
            let current = piece[cursor];
            cursor += 1;
            for neighbour in grid.neighbours(current) {
                if open[neighbour] {
                    open[neighbour] = false;
                    piece.push(neighbour);
                }
            }
        }
        pieces.push(piece);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid from rows written top first: `x`/`o` stones, `b`/`w` stones marked dead.
    fn grid(rows: &[&str]) -> MarkedGrid {
        let mut grid = MarkedGrid::new(rows[0].len(), rows.len());
        for (y, row) in rows.iter().enumerate() {
            for (x, symbol) in row.bytes().enumerate() {
                let (stone, dead) = match symbol {
                    b'x' => (Some(Color::Black), false),
                    b'o' => (Some(Color::White), false),
                    b'b' => (Some(Color::Black), true),
                    b'w' => (Some(Color::White), true),
                    _ => (None, false),
                };
                grid.set(x, y, stone, dead);
            }
        }
        grid
    }

    /// The territory map as rows: `B`/`W` territory, `s` seki, `f` unscorable false eye.
    fn picture(rows: &[&str]) -> Vec<String> {
        let grid = grid(rows);
        let verdicts = territory_verdicts(&grid);
        (0..grid.height())
            .map(|y| {
                (0..grid.width())
                    .map(|x| {
                        let verdict = verdicts[y * grid.width() + x];
                        match (
                            verdict.territory,
                            verdict.seki,
                            verdict.unscorable_false_eye,
                        ) {
                            (Some(Color::Black), _, _) => 'B',
                            (Some(Color::White), _, _) => 'W',
                            (None, Some(_), _) => 's',
                            (None, None, true) => 'f',
                            _ => '.',
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_liberty_of_a_lone_stone_in_atari_counts_for_nobody() {
        // White's stone at the right end of the third row is in atari; its liberty below
        // is white's but must be filled (black could take it as a ko).
        let map = picture(&[
            ".......", "......x", "xxxxxxo", "oooooo.", "......o", ".......",
        ]);
        assert_eq!(
            map,
            ["BBBBBBB", "BBBBBB.", ".......", "......f", "WWWWWW.", "WWWWWWW"]
        );
    }

    #[test]
    fn dead_stones_are_removed_and_their_points_count() {
        let map = picture(&["..x.o.", ".wx.ob", "..x.o.", "..x.o."]);
        assert_eq!(map, ["BB...W", "BB...W", "BB...W", "BB...W"]);
    }

    #[test]
    fn a_seki_without_eyes_gives_nobody_anything() {
        // Black's four stones at the top and white's three share the liberties between
        // them; the outer groups live. The seki and its liberties count for nobody.
        let map = picture(&[
            "..ox.ox..",
            "..ox.ox..",
            "..oxxox..",
            "oooooxx..",
            "....ox...",
            "....ox...",
        ]);
        assert_eq!(
            map,
            [
                "WW.s.s.BB",
                "WW.s.s.BB",
                "WW.sss.BB",
                ".......BB",
                "WWWW..BBB",
                "WWWW..BBB",
            ]
        );
    }
}
