//! Perft-style move counts of the rules core on small boards, checked against an independent
//! naive implementation written here from scratch, and pinned.
//!
//! # What is counted
//!
//! `perft(d)` is the number of distinct sequences of `d` legal moves from the empty board,
//! black moving first and the colours alternating. Two variants:
//!
//! - *placements only*: every move of the sequence puts a stone on the board (passes are not
//!   moves here);
//! - *with passes*: a pass is one more legal move at every step, and two passes in a row do
//!   not end the sequence.
//!
//! Legality is that of ishi's rulesets: an occupied point is illegal; a move whose own chain is
//! left without liberties after removing the opponent's captured chains is suicide, illegal
//! unless the rules allow suicide, and always illegal for a lone stone; under simple ko, after
//! a move captured exactly one stone with a stone that is then a chain of one stone with one
//! liberty, the opponent may not play at once on the captured point (a pass lifts that ban);
//! under positional superko, no move may leave a board equal to one seen before (the start and
//! the board after every earlier move, passes included); under situational superko, no move
//! may leave a board equal to an earlier one with the same player to move.
//!
//! The naive implementation keeps the board as one byte per point, finds chains and liberties
//! by flood fill after every move, and keeps the history as whole boards (no hashing, no
//! incremental state). The ishi count uses `Game::play` and `Game::undo`.

use ishi::color::Color;
use ishi::go::rules::game::Game;
use ishi::go::rules::point::Move;
use ishi::go::rules::rules::{KoRule, Rules};

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

fn other(color: u8) -> u8 {
    if color == BLACK {
        WHITE
    } else {
        BLACK
    }
}

/// A from-scratch game: board, side to move, simple-ko ban, history of whole positions.
#[derive(Clone)]
struct NaiveGame {
    size: usize,
    ko: KoRule,
    suicide_allowed: bool,
    cells: Vec<u8>,
    to_move: u8,
    ko_ban: Option<usize>,
    /// Every position so far with the player to move in it, the start included.
    history: Vec<(Vec<u8>, u8)>,
}

impl NaiveGame {
    fn new(size: usize, rules: &Rules) -> NaiveGame {
        let cells = vec![EMPTY; size * size];
        NaiveGame {
            size,
            ko: rules.ko,
            suicide_allowed: rules.suicide_allowed,
            history: vec![(cells.clone(), BLACK)],
            cells,
            to_move: BLACK,
            ko_ban: None,
        }
    }

    fn neighbours(&self, index: usize) -> Vec<usize> {
        let (row, column) = (index / self.size, index % self.size);
        let mut found = Vec::with_capacity(4);
        if row > 0 {
            found.push(index - self.size);
        }
        if row + 1 < self.size {
            found.push(index + self.size);
        }
        if column > 0 {
            found.push(index - 1);
        }
        if column + 1 < self.size {
            found.push(index + 1);
        }
        found
    }

    /// The chain through `start` and its number of liberties, by flood fill.
    fn chain(&self, start: usize) -> (Vec<usize>, usize) {
        let color = self.cells[start];
        let mut members = vec![start];
        let mut liberties: Vec<usize> = Vec::new();
        let mut cursor = 0;
        while cursor < members.len() {
            let current = members[cursor];
            cursor += 1;
            for neighbour in self.neighbours(current) {
                let cell = self.cells[neighbour];
                if cell == color && !members.contains(&neighbour) {
                    members.push(neighbour);
                } else if cell == EMPTY && !liberties.contains(&neighbour) {
                    liberties.push(neighbour);
                }
            }
        }
        (members, liberties.len())
    }

    /// The game after the side to move plays on `index`, or `None` when that is illegal.
    fn play(&self, index: usize) -> Option<NaiveGame> {
        if self.cells[index] != EMPTY {
            return None;
        }
        if self.ko == KoRule::Simple && self.ko_ban == Some(index) {
            return None;
        }
        let color = self.to_move;
        let mut next = self.clone();
        next.cells[index] = color;
        let mut captured: Vec<usize> = Vec::new();
        for neighbour in self.neighbours(index) {
            if next.cells[neighbour] == other(color) {
                let (members, liberties) = next.chain(neighbour);
                if liberties == 0 {
                    for member in members {
                        next.cells[member] = EMPTY;
                        captured.push(member);
                    }
                }
            }
        }
        let (own, own_liberties) = next.chain(index);
        if own_liberties == 0 {
            if !self.suicide_allowed || own.len() == 1 {
                return None;
            }
            for member in own.iter() {
                next.cells[*member] = EMPTY;
            }
        }
        next.ko_ban = if captured.len() == 1 && own.len() == 1 && own_liberties == 1 {
            Some(captured[0])
        } else {
            None
        };
        next.to_move = other(color);
        let repeated = match self.ko {
            KoRule::Simple => false,
            KoRule::Positional => self.history.iter().any(|(cells, _)| *cells == next.cells),
            KoRule::Situational => self
                .history
                .iter()
                .any(|(cells, to_move)| *cells == next.cells && *to_move == next.to_move),
        };
        if repeated {
            return None;
        }
        next.history.push((next.cells.clone(), next.to_move));
        Some(next)
    }

    fn pass(&self) -> NaiveGame {
        let mut next = self.clone();
        next.to_move = other(self.to_move);
        next.ko_ban = None;
        next.history.push((next.cells.clone(), next.to_move));
        next
    }
}

fn naive_perft(game: &NaiveGame, depth: usize, with_passes: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut count = 0;
    for index in 0..game.size * game.size {
        if let Some(next) = game.play(index) {
            count += naive_perft(&next, depth - 1, with_passes);
        }
    }
    if with_passes {
        count += naive_perft(&game.pass(), depth - 1, with_passes);
    }
    count
}

fn ishi_perft(game: &mut Game, depth: usize, with_passes: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let color = game.to_move();
    let points: Vec<_> = game.board().points().collect();
    let mut count = 0;
    for point in points {
        if game.play(color, Move::Place(point)).is_ok() {
            count += ishi_perft(game, depth - 1, with_passes);
            game.undo().expect("undo the move just played");
        }
    }
    if with_passes {
        game.play(color, Move::Pass).expect("a pass is legal");
        count += ishi_perft(game, depth - 1, with_passes);
        game.undo().expect("undo the pass");
    }
    count
}

/// Counts with both implementations for depths 1..=pinned.len(), asserts they agree and equal
/// the pinned values, and prints them.
fn check(size: usize, rules: Rules, with_passes: bool, pinned: &[u64]) {
    let naive = NaiveGame::new(size, &rules);
    let mut game = Game::new(size, rules, rules.default_komi());
    let mut ishi_counts = Vec::new();
    let mut naive_counts = Vec::new();
    for depth in 1..=pinned.len() {
        ishi_counts.push(ishi_perft(&mut game, depth, with_passes));
        naive_counts.push(naive_perft(&naive, depth, with_passes));
    }
    let variant = if with_passes {
        "with passes"
    } else {
        "placements only"
    };
    println!("perft {size}x{size} {rules} {variant}: {ishi_counts:?}");
    assert_eq!(
        ishi_counts, naive_counts,
        "{size}x{size} {rules} {variant}: ishi against the naive implementation"
    );
    assert_eq!(
        ishi_counts, pinned,
        "{size}x{size} {rules} {variant}: against the pinned counts"
    );
    assert_eq!(game.move_count(), 0);
    assert_eq!(game.to_move(), Color::Black);
}

/// The five named rulesets, in the order of the pinned tables below.
fn rulesets() -> [Rules; 5] {
    [
        Rules::japanese(),
        Rules::chinese(),
        Rules::aga(),
        Rules::tromp_taylor(),
        Rules::new_zealand(),
    ]
}

#[test]
fn perft_2x2_placements_only() {
    let pinned: [&[u64]; 5] = [
        &[4, 12, 24, 16, 32, 32, 32, 96, 192, 128, 256, 256],
        &[4, 12, 24, 16, 32, 32, 16, 48, 80, 32, 64, 32],
        &[4, 12, 24, 16, 32, 32, 16, 48, 80, 32, 64, 32],
        &[4, 12, 24, 16, 32, 32, 16, 48, 80, 32, 64, 32],
        &[4, 12, 24, 16, 32, 32, 16, 48, 80, 32, 64, 32],
    ];
    for (rules, counts) in rulesets().into_iter().zip(pinned) {
        check(2, rules, false, counts);
    }
}

/// With passes, all five rulesets differ: a pass lifts the simple-ko ban but not superko, and
/// changes the side to move, which only situational superko looks at.
#[test]
fn perft_2x2_with_passes() {
    let pinned: [&[u64]; 5] = [
        &[5, 21, 73, 193, 493, 1149, 2697, 6457, 15517, 37965],
        &[5, 21, 73, 193, 493, 1149, 2617, 6049, 13461, 31133],
        &[5, 21, 73, 193, 493, 1149, 2641, 6177, 13941, 32653],
        &[5, 21, 73, 193, 493, 1149, 2617, 6049, 13461, 31133],
        &[5, 21, 73, 193, 493, 1149, 2713, 6537, 15709, 39261],
    ];
    for (rules, counts) in rulesets().into_iter().zip(pinned) {
        check(2, rules, true, counts);
    }
}

/// At depth 6 multi-stone suicide (Tromp-Taylor, New Zealand) adds sequences; at depth 7
/// positional superko (Chinese, Tromp-Taylor) removes some that simple ko and situational
/// superko allow.
#[test]
fn perft_3x3_placements_only() {
    let pinned: [&[u64]; 5] = [
        &[9, 72, 504, 2976, 14720, 56176, 168144],
        &[9, 72, 504, 2976, 14720, 56176, 168112],
        &[9, 72, 504, 2976, 14720, 56176, 168144],
        &[9, 72, 504, 2976, 14720, 57040, 177904],
        &[9, 72, 504, 2976, 14720, 57040, 177936],
    ];
    for (rules, counts) in rulesets().into_iter().zip(pinned) {
        check(3, rules, false, counts);
    }
}

/// On 4x4 and 5x5 the rulesets do not differ yet at these depths (captures happen, suicide
/// and repetition do not).
#[test]
fn perft_4x4_and_5x5_placements_only() {
    for rules in [Rules::japanese(), Rules::tromp_taylor()] {
        check(4, rules, false, &[16, 240, 3360, 43576, 521800]);
    }
    check(5, Rules::chinese(), false, &[25, 600, 13800, 303424]);
}
