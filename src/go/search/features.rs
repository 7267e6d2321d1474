//! The features of a candidate move that the learned move model
//! ([`crate::go::search::move_model`]) rates: the 3x3 neighbourhood with the liberties of
//! the chains in it, spatial patterns of seven sizes (gridcular distance 4 to 10, stones and
//! edges only), and tactics: captures (with rescue and ko), atari escapes (with ladder
//! reading), ataris (ladder or not), self-ataris by size, liberties after the move, the
//! distances to the last two moves, the line and an empty neighbourhood, and for the pass
//! the stage of the game. Colours are relative to the player (own, opponent), patterns are
//! reduced over the eight symmetries of the square, so one entry covers every rotation and
//! reflection.
//!
//! A move's features are one key per [`group`](GROUP_COUNT) (0: the group does not apply);
//! pattern groups hold a 64-bit pattern hash, the other groups a small number. The trainer
//! (`crate::go::learn`) and the engine compute them with the same code, so a weight file
//! fits the engine that reads it as long as [`FEATURE_VERSION`] agrees.
//!
//! Knows the playout board, its tactics (self-atari, liberties after a move) and the ladder
//! reader; nothing of trees, weights or files.

use crate::color::Color;
use crate::go::search::board::{stone_code, PlayoutBoard, BLACK, BORDER, EMPTY, NO_POINT, WHITE};
use crate::go::search::ladder::LadderReader;
use crate::go::search::playout::{new_liberties, self_atari_size};
use std::sync::OnceLock;

/// Version of the feature definitions; a weight file names the version it was trained on.
pub const FEATURE_VERSION: u32 = 1;

/// Group of the 3x3 neighbourhood with liberties (a pattern group).
pub const PATTERN3: usize = 0;
/// First of the spatial pattern groups, one per size of [`SPATIAL_SIZES`].
pub const SPATIAL: usize = 1;
/// Gridcular sizes of the spatial patterns: every point within that distance of the move.
pub const SPATIAL_SIZES: [u32; 7] = [4, 5, 6, 7, 8, 9, 10];
/// Group of captures: 1-6 by captured size (1, 2-3, 4+) and whether an own chain in atari is
/// rescued (+3); 7 a ko capture.
pub const CAPTURE: usize = SPATIAL + SPATIAL_SIZES.len();
/// Group of atari escapes that capture nothing: 1 three or more liberties after, 2 two
/// liberties and no ladder, 3 two liberties in a ladder that dies, 4 still in atari.
pub const ESCAPE: usize = CAPTURE + 1;
/// Group of ataris on opponent chains: 1 + (the ladder catches it) + 2 (two stones or more).
pub const ATARI: usize = ESCAPE + 1;
/// Group of self-ataris: 1 one stone, 2 two, 3 three to five, 4 six or more.
pub const SELF_ATARI: usize = ATARI + 1;
/// Group of the liberties of the move's chain (counted up to three, a capture counting two
/// more): the count plus one.
pub const LIBERTIES: usize = SELF_ATARI + 1;
/// Group of the gridcular distance to the last move: 2-16, 17 for farther, 1 when the last
/// move was a pass or there was none.
pub const LAST_DISTANCE: usize = LIBERTIES + 1;
/// Group of the gridcular distance to the move before the last (as [`LAST_DISTANCE`]).
pub const SECOND_DISTANCE: usize = LAST_DISTANCE + 1;
/// Group of the line (1-5, 5 for the fifth and higher) plus 5 when no stone lies within
/// Manhattan distance 3.
pub const LINE: usize = SECOND_DISTANCE + 1;
/// Group of the pass: 1 + the stage (0-4 by the share of empty points) + 5 when the last move
/// was a pass (or there was none).
pub const PASS: usize = LINE + 1;
/// Number of groups.
pub const GROUP_COUNT: usize = PASS + 1;

/// Whether `group` holds pattern hashes (looked up in a dictionary) rather than small keys.
pub fn is_pattern_group(group: usize) -> bool {
    group < CAPTURE
}

/// The largest key of a small group (its weights are indexed `0..=largest`).
pub fn largest_key(group: usize) -> u64 {
    match group {
        CAPTURE => 7,
        ESCAPE => 4,
        ATARI => 4,
        SELF_ATARI => 4,
        LIBERTIES => 4,
        LAST_DISTANCE | SECOND_DISTANCE => 17,
        LINE => 10,
        PASS => 10,
        _ => 0,
    }
}

/// A short name of each group, for reports.
pub fn group_name(group: usize) -> String {
    match group {
        PATTERN3 => "pattern3".to_string(),
        CAPTURE => "capture".to_string(),
        ESCAPE => "escape".to_string(),
        ATARI => "atari".to_string(),
        SELF_ATARI => "self_atari".to_string(),
        LIBERTIES => "liberties".to_string(),
        LAST_DISTANCE => "last_distance".to_string(),
        SECOND_DISTANCE => "second_distance".to_string(),
        LINE => "line".to_string(),
        PASS => "pass".to_string(),
        spatial => format!("spatial{}", SPATIAL_SIZES[spatial - SPATIAL]),
    }
}

/// The features of one move: one key per group, 0 where the group does not apply.
pub type MoveFeatures = [u64; GROUP_COUNT];

/// Offsets around a point in the order patterns read them, and what each cell adds to the
/// pattern codes under each of the eight symmetries.
struct Geometry {
    /// (column, row) offsets by gridcular distance, the eight neighbours first.
    offsets: Vec<(i32, i32)>,
    /// How many offsets lie within each size of [`SPATIAL_SIZES`].
    prefix: [usize; SPATIAL_SIZES.len()],
    /// The largest column or row distance of an offset: the width of the state grid's
    /// margin.
    margin: usize,
    /// Per offset and cell state (empty, own, opponent, edge): the Zobrist key it adds to
    /// the spatial hash under each symmetry, given as the change from the empty cell's key
    /// (zero for an empty cell), so that empty cells, most of them, cost nothing.
    spatial_changes: Vec<[[u64; 8]; 4]>,
    /// Per size: the hash under each symmetry of the pattern with every cell empty.
    empty_hashes: [[u64; 8]; SPATIAL_SIZES.len()],
    /// Per neighbour (the first eight offsets) and 3x3 cell code (0-7): the bits it adds to
    /// the 3x3 code under each symmetry.
    neighbourhood: [[[u64; 8]; 8]; 8],
}

/// The gridcular distance: |dx| + |dy| + max(|dx|, |dy|).
#[inline]
pub fn gridcular(dx: i32, dy: i32) -> u32 {
    let (x, y) = (dx.unsigned_abs(), dy.unsigned_abs());
    x + y + x.max(y)
}

fn symmetry(transform: usize, (dx, dy): (i32, i32)) -> (i32, i32) {
    let (x, y) = if transform & 4 != 0 {
        (dy, dx)
    } else {
        (dx, dy)
    };
    let x = if transform & 1 != 0 { -x } else { x };
    let y = if transform & 2 != 0 { -y } else { y };
    (x, y)
}

fn split_mix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let largest = *SPATIAL_SIZES.last().unwrap_or(&3) as i32;
        let mut offsets = Vec::new();
        for dy in -largest..=largest {
            for dx in -largest..=largest {
                let distance = gridcular(dx, dy);
                if distance > 0 && distance <= largest as u32 {
                    offsets.push((dx, dy));
                }
            }
        }
        // Nearest first; within a distance a fixed order (row, then column).
        offsets.sort_by_key(|&(dx, dy)| (gridcular(dx, dy), dy, dx));
        let mut prefix = [0; SPATIAL_SIZES.len()];
        for (entry, &size) in prefix.iter_mut().zip(SPATIAL_SIZES.iter()) {
            *entry = offsets
                .iter()
                .filter(|&&(dx, dy)| gridcular(dx, dy) <= size)
                .count();
        }
        // Under a symmetry the pattern reads at offset i the cell at the image of i, so a
        // cell j contributes to the slot i whose image is j.
        let preimages: Vec<Vec<usize>> = (0..8)
            .map(|transform| {
                let mut preimage = vec![0; offsets.len()];
                for (index, &offset) in offsets.iter().enumerate() {
                    let image = symmetry(transform, offset);
                    let target = offsets
                        .iter()
                        .position(|&other| other == image)
                        .expect("the offsets are closed under the symmetries");
                    preimage[target] = index;
                }
                preimage
            })
            .collect();
        let key = |slot: usize, state: usize| split_mix((slot * 4 + state) as u64 + 1);
        let spatial_changes = (0..offsets.len())
            .map(|cell| {
                std::array::from_fn(|state| {
                    std::array::from_fn(|transform| {
                        let slot = preimages[transform][cell];
                        key(slot, state) ^ key(slot, STATE_EMPTY as usize)
                    })
                })
            })
            .collect();
        let empty_hashes = std::array::from_fn(|size_index| {
            std::array::from_fn(|transform| {
                (0..prefix[size_index]).fold(0, |hash, cell| {
                    hash ^ key(preimages[transform][cell], STATE_EMPTY as usize)
                })
            })
        });
        let neighbourhood = std::array::from_fn(|cell| {
            std::array::from_fn(|code| {
                std::array::from_fn(|transform| (code as u64) << (3 * preimages[transform][cell]))
            })
        });
        let margin = offsets
            .iter()
            .map(|&(dx, dy)| dx.unsigned_abs().max(dy.unsigned_abs()) as usize)
            .max()
            .unwrap_or(0);
        Geometry {
            offsets,
            prefix,
            margin,
            spatial_changes,
            empty_hashes,
            neighbourhood,
        }
    })
}

/// Per-position work shared by every candidate: liberty classes of the chains, the cell
/// states of the whole board, and the ladder reader.
pub struct FeatureScratch {
    /// Liberties (0-3, 3 meaning three or more) of the chain through each stone.
    liberties: Vec<u8>,
    /// A copy of the board for ladder questions after an atari.
    board: Box<PlayoutBoard>,
    ladder: LadderReader,
    /// Cell states of every point from the player's view, in a grid with a margin of edge
    /// cells wide enough for the largest pattern, so that a candidate reads each cell of
    /// its patterns with one load and no bounds test.
    grid: Vec<u8>,
    /// Board size that `deltas` were computed for (0: none yet).
    grid_size: usize,
    /// Per offset of the geometry, its displacement in `grid`.
    deltas: Vec<isize>,
    /// Per point of the board (its index), each spatial size's hash under each symmetry of
    /// the pattern with no stone: empty cells on the board, edge cells off it. Stones are
    /// then the only cells a candidate adds.
    edge_bases: Vec<[[u64; 8]; SPATIAL_SIZES.len()]>,
}

impl Default for FeatureScratch {
    fn default() -> FeatureScratch {
        FeatureScratch {
            liberties: Vec::new(),
            board: PlayoutBoard::new(9),
            ladder: LadderReader::default(),
            grid: Vec::new(),
            grid_size: 0,
            deltas: Vec::new(),
            edge_bases: Vec::new(),
        }
    }
}

/// Cell states of the spatial patterns.
const STATE_EMPTY: u8 = 0;
const STATE_OWN: u8 = 1;
const STATE_OPPONENT: u8 = 2;
const STATE_EDGE: u8 = 3;

/// Computes the features of every move in `points` (a pass is [`NO_POINT`]) for `color` to
/// play on `board`, writing them to `features` (same order). The points must be empty and
/// legal.
pub fn compute_features(
    board: &PlayoutBoard,
    color: Color,
    points: &[u16],
    scratch: &mut FeatureScratch,
    features: &mut Vec<MoveFeatures>,
) {
    features.clear();
    prepare_liberties(board, scratch);
    prepare_grid(board, color, scratch);
    let recent = [
        move_place(board, board.last_move()),
        move_place(board, board.second_last_move()),
    ];
    for &point in points {
        let point = point as usize;
        features.push(if point == NO_POINT {
            pass_features(board)
        } else {
            move_features(board, point, color, recent, scratch)
        });
    }
}

/// Fills the liberty class (up to 3) of every stone's chain.
fn prepare_liberties(board: &PlayoutBoard, scratch: &mut FeatureScratch) {
    let length = board.length();
    scratch.liberties.clear();
    scratch.liberties.resize(length, 0);
    let mut done = vec![false; length];
    for point in 0..length {
        let cell = board.cell(point);
        if cell == EMPTY || cell == BORDER {
            continue;
        }
        let head = board.chain(point);
        if !done[head] {
            done[head] = true;
            let mut found = [NO_POINT; 3];
            let count = board.liberties_into(head, NO_POINT, &mut found) as u8;
            scratch.liberties[head] = count;
        }
        scratch.liberties[point] = scratch.liberties[head];
    }
}

/// The grid index of an on-board point.
#[inline]
fn grid_index((column, row): (i32, i32), margin: usize, side: usize) -> usize {
    (row as usize - 1 + margin) * side + (column as usize - 1 + margin)
}

/// Fills the state grid of `board` for `color` to play (and, when the board size changed,
/// the offsets' displacements and the points' edge bases).
fn prepare_grid(board: &PlayoutBoard, color: Color, scratch: &mut FeatureScratch) {
    let geometry = geometry();
    let size = board.size();
    let margin = geometry.margin;
    let side = size + 2 * margin;
    if scratch.grid_size != size {
        scratch.grid_size = size;
        scratch.deltas.clear();
        scratch.deltas.extend(
            geometry
                .offsets
                .iter()
                .map(|&(dx, dy)| dy as isize * side as isize + dx as isize),
        );
        scratch.edge_bases.clear();
        scratch
            .edge_bases
            .resize(board.length(), [[0; 8]; SPATIAL_SIZES.len()]);
        for point in 0..board.length() {
            if board.cell(point) != BORDER {
                let place = coordinates(board, point);
                scratch.edge_bases[point] = edge_base(geometry, size as i32, place);
            }
        }
    }
    scratch.grid.clear();
    scratch.grid.resize(side * side, STATE_EDGE);
    let own = stone_code(color);
    let stride = board.stride();
    for row in 1..=size {
        let first = (row - 1 + margin) * side + margin;
        for (column, state) in scratch.grid[first..first + size].iter_mut().enumerate() {
            let cell = board.cell(row * stride + column + 1);
            *state = if cell == EMPTY {
                STATE_EMPTY
            } else if cell == own {
                STATE_OWN
            } else {
                STATE_OPPONENT
            };
        }
    }
}

/// Each spatial size's hash under each symmetry of the pattern around the point at `place`
/// (column, row) on a board of `size` with no stone on it.
fn edge_base(
    geometry: &Geometry,
    size: i32,
    (column, row): (i32, i32),
) -> [[u64; 8]; SPATIAL_SIZES.len()] {
    let mut changes = [0u64; 8];
    let mut start = 0;
    std::array::from_fn(|size_index| {
        let end = geometry.prefix[size_index];
        for cell in start..end {
            let (dx, dy) = geometry.offsets[cell];
            let (x, y) = (column + dx, row + dy);
            if x < 1 || y < 1 || x > size || y > size {
                let keys = &geometry.spatial_changes[cell][STATE_EDGE as usize];
                for (change, key) in changes.iter_mut().zip(keys) {
                    *change ^= key;
                }
            }
        }
        start = end;
        std::array::from_fn(|transform| {
            changes[transform] ^ geometry.empty_hashes[size_index][transform]
        })
    })
}

fn pass_features(board: &PlayoutBoard) -> MoveFeatures {
    let mut features = [0; GROUP_COUNT];
    let area = (board.size() * board.size()) as f64;
    let empty = board.empty_count() as f64 / area;
    let stage = if empty < 0.1 {
        0
    } else if empty < 0.2 {
        1
    } else if empty < 0.35 {
        2
    } else if empty < 0.5 {
        3
    } else {
        4
    };
    let after_pass = (board.last_move() == NO_POINT) as u64;
    features[PASS] = 1 + stage + 5 * after_pass;
    features
}

/// (column, row) of an on-board point, both from 1.
#[inline]
fn coordinates(board: &PlayoutBoard, point: usize) -> (i32, i32) {
    let stride = board.stride();
    ((point % stride) as i32, (point / stride) as i32)
}

/// The (column, row) of a move, `None` for a pass or no move yet.
fn move_place(board: &PlayoutBoard, point: usize) -> Option<(i32, i32)> {
    (point != NO_POINT).then(|| coordinates(board, point))
}

/// The distance class of a move at `place` to an earlier move at `other` (1 after a pass).
fn distance_key((column, row): (i32, i32), other: Option<(i32, i32)>) -> u64 {
    match other {
        None => 1,
        Some((other_column, other_row)) => {
            gridcular(column - other_column, row - other_row).clamp(2, 17) as u64
        }
    }
}

/// The features of the move on `point`, `recent` the places of the last two moves.
fn move_features(
    board: &PlayoutBoard,
    point: usize,
    color: Color,
    recent: [Option<(i32, i32)>; 2],
    scratch: &mut FeatureScratch,
) -> MoveFeatures {
    let mut features = [0; GROUP_COUNT];
    let geometry = geometry();
    let own = stone_code(color);
    let opponent = own ^ BORDER;
    let (column, row) = coordinates(board, point);

    // Cell states around the point from the grid, with the liberty classes of the eight
    // neighbours for the 3x3 pattern.
    let centre = grid_index(
        (column, row),
        geometry.margin,
        board.size() + 2 * geometry.margin,
    );
    let grid = &scratch.grid;
    let mut code3 = [0u8; 8];
    for (index, (&(dx, dy), &delta)) in geometry
        .offsets
        .iter()
        .zip(&scratch.deltas)
        .take(8)
        .enumerate()
    {
        code3[index] = match grid[centre.wrapping_add_signed(delta)] {
            STATE_EMPTY => 0,
            STATE_EDGE => 1,
            state => {
                let (x, y) = (column + dx, row + dy);
                let other = (y as usize) * board.stride() + x as usize;
                let liberties = scratch.liberties[other].clamp(1, 3);
                (if state == STATE_OWN { 1 } else { 4 }) + liberties
            }
        };
    }
    features[PATTERN3] = pattern3_key(&code3, geometry);
    spatial_keys(
        grid,
        centre,
        &scratch.deltas,
        &scratch.edge_bases[point],
        geometry,
        &mut features,
    );

    // Captures, rescues and ko.
    let mut captured = 0;
    let mut heads = [NO_POINT; 4];
    let mut head_count = 0;
    let mut own_in_atari = NO_POINT;
    let mut open = false;
    for neighbour in board.neighbours(point) {
        let cell = board.cell(neighbour);
        if cell == EMPTY {
            open = true;
        } else if cell == opponent && board.in_atari(neighbour) {
            let head = board.chain(neighbour);
            if !heads[..head_count].contains(&head) {
                heads[head_count] = head;
                head_count += 1;
                captured += board.chain_size(head);
            }
        } else if cell == own {
            open = true;
            if board.in_atari(neighbour) {
                own_in_atari = neighbour;
            }
        }
    }
    if captured > 0 {
        features[CAPTURE] = if captured == 1 && !open {
            7
        } else {
            let class = match captured {
                1 => 1,
                2 | 3 => 2,
                _ => 3,
            };
            class + 3 * (own_in_atari != NO_POINT) as u64
        };
    } else if own_in_atari != NO_POINT {
        let liberties = new_liberties(board, point, color);
        features[ESCAPE] = match liberties {
            0 | 1 => 4,
            2 => {
                if scratch.ladder.running_fails(board, own_in_atari, color) {
                    3
                } else {
                    2
                }
            }
            _ => 1,
        };
    }

    // Ataris on opponent chains with two liberties.
    let self_atari = self_atari_size(board, point, color);
    if self_atari.is_none() {
        let mut best = 0;
        for neighbour in board.neighbours(point) {
            if board.cell(neighbour) != opponent || scratch.liberties[neighbour] != 2 {
                continue;
            }
            let large = (board.chain_size(neighbour) >= 2) as u64;
            scratch.board.copy_from(board);
            scratch.board.play(point, color);
            let caught = scratch
                .ladder
                .running_fails(&scratch.board, neighbour, color.opponent())
                as u64;
            best = best.max(1 + caught + 2 * large);
        }
        features[ATARI] = best;
    }
    features[SELF_ATARI] = match self_atari {
        None => 0,
        Some(1) => 1,
        Some(2) => 2,
        Some(3..=5) => 3,
        Some(_) => 4,
    };
    features[LIBERTIES] = new_liberties(board, point, color) as u64 + 1;
    features[LAST_DISTANCE] = distance_key((column, row), recent[0]);
    features[SECOND_DISTANCE] = distance_key((column, row), recent[1]);
    // The line from the coordinates (the same answer as [`line_height`]).
    let size = board.size() as i32;
    let line = column
        .min(row)
        .min(size + 1 - column)
        .min(size + 1 - row)
        .min(5) as u64;
    features[LINE] = line + 5 * empty_around(board, point) as u64;
    features
}

/// The canonical 3x3 key: the smallest code over the eight symmetries, marked non-zero.
fn pattern3_key(code3: &[u8; 8], geometry: &Geometry) -> u64 {
    let mut codes = [0u64; 8];
    for (cell, &code) in code3.iter().enumerate() {
        let bits = &geometry.neighbourhood[cell][code as usize];
        for transform in 0..8 {
            codes[transform] |= bits[transform];
        }
    }
    codes.iter().copied().min().unwrap_or(0) | 1 << 63
}

/// The canonical hash of each spatial size around the grid cell `centre`: the smallest
/// over the eight symmetries. Each size's hash is the point's stoneless pattern's
/// (`bases`, [`edge_base`]) with the changes of the cells that hold stones.
fn spatial_keys(
    grid: &[u8],
    centre: usize,
    deltas: &[isize],
    bases: &[[u64; 8]; SPATIAL_SIZES.len()],
    geometry: &Geometry,
    features: &mut MoveFeatures,
) {
    let mut changes = [0u64; 8];
    let mut start = 0;
    for (size_index, &end) in geometry.prefix.iter().enumerate() {
        for (keys, &delta) in geometry.spatial_changes[start..end]
            .iter()
            .zip(&deltas[start..end])
        {
            let state = grid[centre.wrapping_add_signed(delta)];
            if state == STATE_OWN || state == STATE_OPPONENT {
                for (change, key) in changes.iter_mut().zip(&keys[state as usize]) {
                    *change ^= key;
                }
            }
        }
        start = end;
        let base = &bases[size_index];
        let mut smallest = u64::MAX;
        for transform in 0..8 {
            smallest = smallest.min(changes[transform] ^ base[transform]);
        }
        features[SPATIAL + size_index] = smallest | 1;
    }
}

/// The line of an on-board point counted from the nearest edge (1 = edge).
pub fn line_height(board: &PlayoutBoard, point: usize) -> usize {
    let stride = board.stride();
    let column = point % stride;
    let row = point / stride;
    let size = board.size();
    column.min(row).min(size + 1 - column).min(size + 1 - row)
}

/// Whether no stone lies within Manhattan distance 3 of `point`, read by linear offsets: on
/// the rightmost columns the offsets past the edge wrap onto the first columns of the next
/// rows (one border column separates rows). The shipped move model was trained with this
/// reading, so it stays until the model is retrained.
pub fn empty_around(board: &PlayoutBoard, point: usize) -> bool {
    let stride = board.stride() as isize;
    let length = board.length();
    (-3isize..=3).all(|row| {
        let span = 3 - row.abs();
        let first = point as isize + row * stride - span;
        (first..=first + 2 * span).all(|other| {
            // A negative index wraps past `length` and is skipped like one beyond the end.
            let other = other as usize;
            other >= length || !matches!(board.cell(other), BLACK | WHITE)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::board::Board;
    use crate::go::search::board::vertex_index as at;

    fn features_of(diagram: &str, color: Color, vertices: &[&str]) -> Vec<MoveFeatures> {
        let rules_board = Board::from_diagram(diagram).unwrap();
        let size = rules_board.size();
        let board = PlayoutBoard::from_board(&rules_board, color);
        let points: Vec<u16> = vertices
            .iter()
            .map(|vertex| {
                if *vertex == "pass" {
                    NO_POINT as u16
                } else {
                    at(size, vertex) as u16
                }
            })
            .collect();
        let mut features = Vec::new();
        compute_features(
            &board,
            color,
            &points,
            &mut FeatureScratch::default(),
            &mut features,
        );
        features
    }

    /// The cell states around `point` read from the board one by one, with bounds tests.
    fn direct_states(board: &PlayoutBoard, point: usize, color: Color) -> Vec<u8> {
        let size = board.size() as i32;
        let (column, row) = coordinates(board, point);
        geometry()
            .offsets
            .iter()
            .map(|&(dx, dy)| {
                let (x, y) = (column + dx, row + dy);
                if x < 1 || y < 1 || x > size || y > size {
                    return STATE_EDGE;
                }
                let cell = board.cell(y as usize * board.stride() + x as usize);
                if cell == EMPTY {
                    STATE_EMPTY
                } else if cell == stone_code(color) {
                    STATE_OWN
                } else {
                    STATE_OPPONENT
                }
            })
            .collect()
    }

    /// A board of `size` after `tries` random placements (the legal ones played, colours
    /// alternating), and the colour to move.
    fn random_position(
        size: usize,
        tries: usize,
        random: &mut crate::search::random::Random,
    ) -> (Box<PlayoutBoard>, Color) {
        let mut board = PlayoutBoard::new(size);
        let mut color = Color::Black;
        for _ in 0..tries {
            let point = board.stride() * (1 + random.below(size)) + 1 + random.below(size);
            if board.cell(point) == EMPTY && board.is_legal(point, color) {
                board.play(point, color);
                color = color.opponent();
            }
        }
        (board, color)
    }

    #[test]
    fn the_state_grid_reads_what_the_board_holds() {
        let mut random = crate::search::random::Random::new(5);
        let mut scratch = FeatureScratch::default();
        for size in [2, 3, 6, 9, 13, 19, 25, 9] {
            for position in 0..4 {
                let (board, color) = random_position(size, size * size * position / 3, &mut random);
                prepare_grid(&board, color, &mut scratch);
                for row in 1..=size {
                    for column in 1..=size {
                        let point = row * board.stride() + column;
                        let margin = geometry().margin;
                        let centre =
                            grid_index(coordinates(&board, point), margin, size + 2 * margin);
                        let states: Vec<u8> = scratch
                            .deltas
                            .iter()
                            .map(|&delta| scratch.grid[centre.wrapping_add_signed(delta)])
                            .collect();
                        assert_eq!(states, direct_states(&board, point, color));
                    }
                }
            }
        }
    }

    /// [`empty_around`] as first written: every linear offset within Manhattan distance 3,
    /// tested for bounds and read.
    fn empty_around_by_offsets(board: &PlayoutBoard, point: usize) -> bool {
        let stride = board.stride() as isize;
        let length = board.length() as isize;
        for row in -3isize..=3 {
            let span = 3 - row.abs();
            for column in -span..=span {
                let other = point as isize + row * stride + column;
                if other < 0 || other >= length {
                    continue;
                }
                let cell = board.cell(other as usize);
                if cell != EMPTY && cell != BORDER {
                    return false;
                }
            }
        }
        true
    }

    /// The spatial keys (kept as changes from the empty pattern) and the line feature (from
    /// the gathered states) agree with their definitions computed cell by cell from the
    /// board: the xor of every cell's key under each symmetry, the smallest over the eight,
    /// and [`line_height`] with [`empty_around`].
    #[test]
    fn spatial_keys_and_lines_match_their_definitions() {
        let geometry = geometry();
        let offsets = &geometry.offsets;
        let slot = |transform: usize, cell: usize| {
            offsets
                .iter()
                .position(|&offset| symmetry(transform, offset) == offsets[cell])
                .unwrap()
        };
        let mut random = crate::search::random::Random::new(11);
        let mut scratch = FeatureScratch::default();
        let mut features = Vec::new();
        for size in [5, 9, 13, 19] {
            for position in 0..3 {
                let (board, color) = random_position(size, size * size * position / 4, &mut random);
                let points: Vec<u16> = (0..board.length())
                    .filter(|&point| board.cell(point) == EMPTY && board.is_legal(point, color))
                    .map(|point| point as u16)
                    .collect();
                compute_features(&board, color, &points, &mut scratch, &mut features);
                for (&point, features) in points.iter().zip(&features) {
                    let point = point as usize;
                    let states = direct_states(&board, point, color);
                    for (size_index, &end) in geometry.prefix.iter().enumerate() {
                        let smallest = (0..8)
                            .map(|transform| {
                                (0..end).fold(0u64, |hash, cell| {
                                    let key = slot(transform, cell) * 4 + states[cell] as usize;
                                    hash ^ split_mix(key as u64 + 1)
                                })
                            })
                            .min()
                            .unwrap();
                        assert_eq!(features[SPATIAL + size_index], smallest | 1);
                    }
                    let line = line_height(&board, point).min(5) as u64;
                    let expected = line + 5 * empty_around_by_offsets(&board, point) as u64;
                    assert_eq!(features[LINE], expected, "size {size}, point {point}");
                }
            }
        }
    }

    #[test]
    fn offsets_are_sized_and_nearest_first() {
        let geometry = geometry();
        assert_eq!(geometry.prefix[0], 12);
        assert_eq!(*geometry.prefix.last().unwrap(), geometry.offsets.len());
        assert!(geometry.offsets[..8]
            .iter()
            .all(|&(dx, dy)| dx.abs() <= 1 && dy.abs() <= 1));
    }

    #[test]
    fn symmetric_moves_share_their_patterns() {
        // The same shape in two corners, mirrored: every pattern key agrees.
        let features = features_of(
            ". . . . . . . . .
             . . . . . . . X .
             . . . . . . . O .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . O . . . . . . .
             . X . . . . . . .
             . . . . . . . . .",
            Color::Black,
            &["C3", "G7"],
        );
        assert_eq!(
            features[0][PATTERN3..CAPTURE],
            features[1][PATTERN3..CAPTURE]
        );
    }

    #[test]
    fn every_symmetry_of_a_board_gives_the_same_patterns() {
        // A fixed scattered position on 9x9 and its seven images.
        let mut random = crate::search::random::Random::new(7);
        let mut cells = [[b'.'; 9]; 9];
        for row in cells.iter_mut() {
            for cell in row.iter_mut() {
                *cell = match random.below(5) {
                    0 => b'X',
                    1 => b'O',
                    _ => b'.',
                };
            }
        }
        let image = |transform: usize, column: usize, row: usize| -> (usize, usize) {
            let (x, y) = symmetry(transform, (column as i32 - 4, row as i32 - 4));
            ((x + 4) as usize, (y + 4) as usize)
        };
        let mut reference: Vec<MoveFeatures> = Vec::new();
        for transform in 0..8 {
            let mut moved = [[b'.'; 9]; 9];
            for (row, line) in cells.iter().enumerate() {
                for (column, &cell) in line.iter().enumerate() {
                    let (x, y) = image(transform, column, row);
                    moved[y][x] = cell;
                }
            }
            let diagram: String = moved
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|&c| format!("{} ", c as char))
                        .collect::<String>()
                        + "\n"
                })
                .collect();
            let rules_board = Board::from_diagram(&diagram).unwrap();
            let board = PlayoutBoard::from_board(&rules_board, Color::Black);
            let mut points = Vec::new();
            for (row, line) in cells.iter().enumerate() {
                for (column, &cell) in line.iter().enumerate() {
                    if cell == b'.' {
                        let (x, y) = image(transform, column, row);
                        // Diagram rows run from the top: row index y is board row 9 - y.
                        let point = (9 - y) * board.stride() + x + 1;
                        points.push(point as u16);
                    }
                }
            }
            let mut features = Vec::new();
            compute_features(
                &board,
                Color::Black,
                &points,
                &mut FeatureScratch::default(),
                &mut features,
            );
            if transform == 0 {
                reference = features;
            } else {
                for (left, right) in reference.iter().zip(features.iter()) {
                    assert_eq!(left[..CAPTURE], right[..CAPTURE], "transform {transform}");
                    assert_eq!(left[LINE], right[LINE]);
                }
            }
        }
    }

    #[test]
    fn tactics_are_named() {
        let features = features_of(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . X O X . . .
             . . . . X . . . .
             . . . . . . . . .
             . . . . . . . . .
             . O O O . . . . .
             O X X . . . . . .",
            Color::Black,
            &["E7", "D1", "A2", "pass", "H8"],
        );
        // E7 captures one stone; D1 is a three-stone self-atari; A2 captures the corner stone.
        assert_eq!(features[0][CAPTURE], 1);
        assert_eq!(features[1][SELF_ATARI], 3);
        assert_eq!(features[2][CAPTURE], 1);
        assert_ne!(features[3][PASS], 0);
        assert_eq!(features[3][PATTERN3], 0);
        assert_eq!(features[4][LINE], 2 + 5);
        assert_eq!(features[0][LINE], 3);
    }
}
