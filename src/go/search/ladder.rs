//! Ladder reading on the playout board: does a chain in atari that runs (extends on its
//! liberty, or captures an attacking chain in atari) get caught by a sequence of ataris?
//! The defender escapes by reaching three liberties; it tries every capture and the run;
//! the attacker tries both liberties each time the defender has two. Reading is bounded
//! (depth and node budgets); when a bound is hit the ladder counts as escaped, so callers
//! never penalise a move they could not read. Knows the playout board only.

use crate::color::Color;
use crate::go::search::board::{stone_code, PlayoutBoard, BORDER, NO_POINT};

/// Plies read at most (a ladder across a 19x19 board is about 40 moves of each side).
const DEPTH_LIMIT: usize = 100;
/// Positions visited at most per question.
const NODE_LIMIT: usize = 400;

/// Reusable boards for ladder reading (one per ply, allocated on first use).
#[derive(Default)]
pub struct LadderReader {
    boards: Vec<Box<PlayoutBoard>>,
    nodes: usize,
}

impl LadderReader {
    /// Whether the chain of `color` through the stone on `stone`, which is in atari with
    /// `color` to move, is captured in a ladder when it runs: every way of escaping (extend
    /// on the liberty, capture an attacking chain in atari) fails against the best ataris.
    /// `false` when the reading runs out of budget.
    pub fn running_fails(&mut self, board: &PlayoutBoard, stone: usize, color: Color) -> bool {
        if !board.in_atari(stone) || board.cell(stone) != stone_code(color) {
            return false;
        }
        self.nodes = 0;
        self.board_at(0).copy_from(board);
        self.defend(0, stone, color)
    }

    fn board_at(&mut self, depth: usize) -> &mut PlayoutBoard {
        while self.boards.len() <= depth {
            self.boards.push(PlayoutBoard::new(9));
        }
        &mut self.boards[depth]
    }

    /// Copies the board of `depth` to `depth + 1`, plays `point` for `color` there.
    fn play_next(&mut self, depth: usize, point: usize, color: Color) {
        self.board_at(depth + 1);
        let (done, rest) = self.boards.split_at_mut(depth + 1);
        rest[0].copy_from(&done[depth]);
        rest[0].play(point, color);
    }

    /// Defender (`color`) to move, its chain through `stone` in atari: whether it is lost.
    /// The defender tries capturing each attacking chain in atari next to it, then running
    /// on its liberty; it is lost when every try leaves it in atari or loses the ladder.
    fn defend(&mut self, depth: usize, stone: usize, color: Color) -> bool {
        self.nodes += 1;
        if self.nodes > NODE_LIMIT || depth >= DEPTH_LIMIT {
            return false;
        }
        let board = &self.boards[depth];
        let (mut tries, mut count) = capturing_moves(board, stone, color);
        let liberty = board.atari_liberty(stone);
        if !tries[..count].contains(&liberty) {
            tries[count] = liberty;
            count += 1;
        }
        for &point in &tries[..count] {
            if !self.boards[depth].is_legal(point, color) {
                continue;
            }
            self.play_next(depth, point, color);
            let board = &self.boards[depth + 1];
            let mut liberties = [NO_POINT; 3];
            let escaped = match board.liberties_into(stone, NO_POINT, &mut liberties) {
                0 | 1 => false,
                2 => !self.attack(depth + 1, stone, color, [liberties[0], liberties[1]]),
                _ => true,
            };
            if escaped {
                return false;
            }
        }
        true
    }

    /// Attacker to move against the defender's chain through `stone` with the two
    /// `liberties`: whether some atari wins.
    fn attack(&mut self, depth: usize, stone: usize, color: Color, liberties: [usize; 2]) -> bool {
        let attacker = color.opponent();
        for point in liberties {
            if !self.boards[depth].is_legal(point, attacker) {
                continue;
            }
            self.play_next(depth, point, attacker);
            let board = &self.boards[depth + 1];
            if board.cell(stone) != stone_code(color) || !board.in_atari(stone) {
                continue;
            }
            if self.defend(depth + 1, stone, color) {
                return true;
            }
        }
        false
    }
}

/// The moves of `color` that capture an opponent chain in atari touching its chain through
/// `stone` (at most four, distinct), and their count; the array has room for one more.
fn capturing_moves(board: &PlayoutBoard, stone: usize, color: Color) -> ([usize; 5], usize) {
    let opponent = stone_code(color) ^ BORDER;
    let mut moves = [NO_POINT; 5];
    let mut count = 0;
    let mut current = stone;
    loop {
        for neighbour in board.neighbours(current) {
            if board.cell(neighbour) == opponent && board.in_atari(neighbour) {
                let capture = board.atari_liberty(neighbour);
                if count < 4 && !moves[..count].contains(&capture) {
                    moves[count] = capture;
                    count += 1;
                }
            }
        }
        current = board.next_stone(current);
        if current == stone {
            return (moves, count);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::board::Board;
    use crate::go::search::board::vertex_index as at;

    fn read(diagram: &str, stone: &str, color: Color) -> bool {
        let rules_board = Board::from_diagram(diagram).unwrap();
        let board = PlayoutBoard::from_board(&rules_board, color);
        LadderReader::default().running_fails(&board, at(rules_board.size(), stone), color)
    }

    /// White E5-F5-F4 in atari (liberty G4); black's ataris chase it towards the lower
    /// right corner.
    const LADDER: &str = "\
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X X . . .
. . . X O O X . .
. . . . X O . . .
. . . . . X . . .
. . . . . . . . .
. . . . . . . . .";

    /// [`LADDER`] with one more white stone at `vertex` (row 1 is the last line).
    fn with_white(vertex: &str) -> String {
        let column = "ABCDEFGHJ".find(&vertex[..1]).unwrap();
        let row = 9 - vertex[1..].parse::<usize>().unwrap();
        let mut rows: Vec<Vec<&str>> = LADDER
            .lines()
            .map(|line| line.split_whitespace().collect())
            .collect();
        rows[row][column] = "O";
        rows.iter()
            .map(|row| row.join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    // The expected answers are GNU Go 3.8's `defend E5` on the same diagrams.
    #[test]
    fn a_ladder_towards_the_corner_is_caught() {
        assert!(read(LADDER, "E5", Color::White));
        assert!(read(&with_white("J2"), "E5", Color::White));
        assert!(read(&with_white("H1"), "E5", Color::White));
        assert!(read(&with_white("B8"), "E5", Color::White));
    }

    #[test]
    fn a_stone_on_the_path_breaks_the_ladder() {
        assert!(!read(&with_white("H2"), "E5", Color::White));
        assert!(!read(&with_white("G2"), "E5", Color::White));
    }

    #[test]
    fn capturing_an_attacker_or_open_space_is_no_ladder() {
        // Running from D3 reaches three liberties.
        let open = "\
. . . . .
. . X . .
. X O . .
. . X . .
. . . . .";
        assert!(!read(open, "C3", Color::White));
        // Black C4 is in atari itself: white captures it and has three liberties.
        let capture = "\
. . O . .
. O X . .
. X O . .
. . X . .
. . . . .";
        assert!(!read(capture, "C3", Color::White));
        // Not in atari, or not white's: nothing to read.
        assert!(!read(LADDER, "D5", Color::White));
    }

    #[test]
    fn chains_read_as_caught_cannot_run_to_three_liberties() {
        use crate::go::search::playout::random_move;
        use crate::search::random::Random;
        let mut reader = LadderReader::default();
        let mut random = Random::new(11);
        let mut caught = 0;
        for size in [7, 9, 13] {
            for _game in 0..20 {
                let mut board = PlayoutBoard::new(size);
                let mut color = Color::Black;
                for _ in 0..size * size * 2 {
                    let point = random_move(&mut board, color, &mut random, None);
                    if point == NO_POINT {
                        break;
                    }
                    board.play(point, color);
                    color = color.opponent();
                    for stone in 0..board.length() {
                        if board.cell(stone) != stone_code(color)
                            || board.chain(stone) != stone
                            || !board.in_atari(stone)
                        {
                            continue;
                        }
                        if !reader.running_fails(&board, stone, color) {
                            continue;
                        }
                        caught += 1;
                        let liberty = board.atari_liberty(stone);
                        if board.is_legal(liberty, color) {
                            let mut after = board.clone();
                            after.play(liberty, color);
                            let mut liberties = [NO_POINT; 3];
                            let count = after.liberties_into(stone, NO_POINT, &mut liberties);
                            assert!(count <= 2, "a caught chain ran to {count} liberties");
                        }
                    }
                }
            }
        }
        assert!(caught > 0, "no chain was ever read as caught");
    }
}
