//! An alpha-beta player for Abalone: iterative deepening negamax with principal variation
//! search, a Zobrist transposition table, move ordering and a quiescence search over
//! ejecting pushes. Knows the rules through [`Board`] and positions through
//! [`evaluation`](super::evaluation); knows nothing of GTP, clocks or the MCTS.
//!
//! - Scores are from the side to move's view. A won game scores [`WIN`] minus the plies to
//!   the win, so faster wins score higher and slower losses less badly; the ply cap
//!   adjudicates as the rules do (more ejections win, equal is 0); no legal move is 0.
//! - Transposition table: a fixed number of entries (rounded up to a power of two), replace
//!   by depth (an entry from an earlier search is always replaced). The hash has no ply, so
//!   near the ply cap an entry may carry a value from a different distance to the cap.
//! - Move ordering: the table move, ejecting pushes, other pushes, two killer moves per ply,
//!   then the history heuristic.
//! - Limits: a depth, a node count (checked at every node) and a deadline plus a stop flag
//!   (checked every 1024 nodes). Only completed iterations count, except that the first
//!   iteration's best-so-far move is used when even it does not complete, so a legal move is
//!   returned whenever one exists.
//! - Repetition: Abalone has no repetition rule, but a game that returns to an earlier
//!   position has made no progress, and two searchers that both prefer the same quiet moves
//!   shuffle to the ply cap. A root move that recreates a position of the game so far (set by
//!   [`AlphaBeta::set_earlier_positions`]) scores [`REPETITION_SCORE`], as a draw would: the
//!   side that is ahead finds something else, the side behind may repeat.
//! - Determinism: with no deadline and an unset stop flag, a search depends only on the
//!   position, the limits and the searcher's state; a fresh searcher (or one after
//!   [`AlphaBeta::clear`]) gives the same result every time.

use super::board::{Board, Push};
use super::evaluation::{evaluate, Weights};
use super::moves::{Move, MOVE_SPACE};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The score of a win at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this (in absolute value) are wins or losses.
const WIN_THRESHOLD: i32 = WIN - 10_000;
/// The score of a root move that repeats an earlier position of the game.
pub const REPETITION_SCORE: i32 = 0;
/// Deepest nominal depth of an iteration.
pub const MAX_DEPTH: u32 = 64;
/// Most plies of quiescence below the nominal depth.
const MAX_QUIESCENCE: usize = 8;
/// Plies of PV and ordering state kept.
const MAX_PLY: usize = MAX_DEPTH as usize + MAX_QUIESCENCE + 2;
/// Nodes between looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 1024;

/// What bounds a search. `Default` is unbounded: set at least one.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Deepest iteration (at most [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Stop once this many nodes have been visited.
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the side to move has none (or the game is over).
    pub best_move: Option<Move>,
    /// Its score for the side to move (see the module).
    pub score: i32,
    /// The depth of the last completed iteration (0 when none completed).
    pub depth: u32,
    /// Nodes visited (quiescence nodes included).
    pub nodes: u64,
    /// The expected line from the root, `best_move` first.
    pub principal_variation: Vec<Move>,
}

impl SearchResult {
    /// True when the score says the side to move wins by force.
    pub fn is_win(&self) -> bool {
        self.score > WIN_THRESHOLD
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    score: i32,
    move_index: u16,
    depth: u8,
    bound: Bound,
    generation: u8,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    score: 0,
    move_index: 0,
    depth: 0,
    bound: Bound::Upper,
    generation: 0,
};

/// Ordering bonuses (the history heuristic stays below the killers).
const ORDER_TABLE_MOVE: i32 = 1 << 30;
const ORDER_EJECTION: i32 = 1 << 29;
const ORDER_PUSH: i32 = 1 << 28;
const ORDER_KILLER: i32 = 1 << 27;
const HISTORY_LIMIT: i32 = 1 << 26;

/// The searcher: transposition table, killers, history and weights, reused across searches.
pub struct AlphaBeta {
    weights: Weights,
    table: Vec<Entry>,
    generation: u8,
    killers: Vec<[u16; 2]>,
    history: Vec<i32>,
    move_lists: Vec<Vec<Move>>,
    order_lists: Vec<Vec<(i32, Move)>>,
    principal: Vec<Vec<Move>>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// Hashes of the game's earlier positions, sorted (see the repetition note above).
    earlier_positions: Vec<u64>,
}

/// The outcome of one root iteration.
struct Iteration {
    score: i32,
    best: Option<Move>,
    completed: bool,
}

impl AlphaBeta {
    /// A searcher with a transposition table of at least `table_entries` entries (16 bytes
    /// each; rounded up to a power of two, at least 1024) and the given weights.
    pub fn new(table_entries: usize, weights: Weights) -> AlphaBeta {
        let size = table_entries.max(1024).next_power_of_two();
        AlphaBeta {
            weights,
            table: vec![EMPTY_ENTRY; size],
            generation: 0,
            killers: vec![[0; 2]; MAX_PLY],
            history: vec![0; 2 * MOVE_SPACE],
            move_lists: (0..MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            order_lists: (0..MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            principal: (0..MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            earlier_positions: Vec::new(),
        }
    }

    /// The hashes of the positions the game has passed through; a root move that recreates
    /// one scores [`REPETITION_SCORE`]. Kept until set again (not touched by [`clear`]).
    ///
    /// [`clear`]: AlphaBeta::clear
    pub fn set_earlier_positions(&mut self, hashes: impl IntoIterator<Item = u64>) {
        self.earlier_positions.clear();
        self.earlier_positions.extend(hashes);
        self.earlier_positions.sort_unstable();
        self.earlier_positions.dedup();
    }

    fn repeats_earlier_position(&self, board: &Board) -> bool {
        self.earlier_positions.binary_search(&board.hash()).is_ok()
    }

    /// The evaluation weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Forgets the transposition table, killers and history.
    pub fn clear(&mut self) {
        self.table.fill(EMPTY_ENTRY);
        self.generation = 0;
        self.killers.fill([0; 2]);
        self.history.fill(0);
    }

    /// Searches `board` within `limits` (and until `stop` becomes true).
    pub fn search(&mut self, board: &Board, limits: &Limits, stop: &AtomicBool) -> SearchResult {
        self.generation = self.generation.wrapping_add(1);
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.deadline;
        self.aborted = false;
        self.killers.fill([0; 2]);
        for value in &mut self.history {
            *value /= 8;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result = SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            nodes: 0,
            principal_variation: Vec::new(),
        };
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        if moves.is_empty() {
            result.score = terminal_score(board, 0).unwrap_or(0);
            return result;
        }
        for depth in 1..=max_depth {
            let iteration = self.root(board, depth as i32, stop);
            if iteration.completed {
                result.best_move = iteration.best;
                result.score = iteration.score;
                result.depth = depth;
                result.principal_variation = self.principal[0].clone();
                if iteration.score.abs() > WIN_THRESHOLD
                    && WIN - iteration.score.abs() <= depth as i32
                {
                    break; // a forced result within the horizon: deeper finds nothing faster
                }
            } else {
                if result.best_move.is_none() {
                    result.best_move = iteration.best.or(moves.first().copied());
                    result.score = iteration.score;
                    result.principal_variation = result.best_move.into_iter().collect();
                }
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// One iteration at the root.
    fn root(&mut self, board: &Board, depth: i32, stop: &AtomicBool) -> Iteration {
        let mut best = None;
        let mut alpha = -WIN - 1;
        let beta = WIN + 1;
        let mut orders = std::mem::take(&mut self.order_lists[0]);
        self.order_moves(board, 0, self.table_move(board), &mut orders);
        self.principal[0].clear();
        let mut first = true;
        for &(_, mv) in orders.iter() {
            let mut child = *board;
            child.play_unchecked(mv);
            let score = if self.repeats_earlier_position(&child) {
                REPETITION_SCORE
            } else if first {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1, stop)
            } else {
                let probe = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, stop);
                if probe > alpha && !self.aborted {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1, stop)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            first = false;
            if score > alpha {
                alpha = score;
                best = Some(mv);
                self.update_principal(0, mv);
            }
        }
        self.order_lists[0] = orders;
        if let (Some(mv), false) = (best, self.aborted) {
            self.store(board, depth, alpha, Bound::Exact, mv, 0);
        }
        Iteration {
            score: alpha,
            best,
            completed: !self.aborted,
        }
    }

    /// Counts a node and decides whether to stop.
    #[inline]
    fn visit(&mut self, stop: &AtomicBool) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(POLL_INTERVAL) {
            if stop.load(Ordering::Relaxed) {
                self.aborted = true;
            } else if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    fn negamax(
        &mut self,
        board: &Board,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stop: &AtomicBool,
    ) -> i32 {
        if self.visit(stop) {
            return 0;
        }
        self.principal[ply].clear();
        if let Some(score) = terminal_score(board, ply) {
            return score;
        }
        if depth <= 0 || ply + MAX_QUIESCENCE + 1 >= MAX_PLY {
            return self.quiescence(board, alpha, beta, ply, 0, stop);
        }
        let original_alpha = alpha;
        let table_move = match self.probe(board) {
            Some(entry) => {
                let score = score_from_table(entry.score, ply);
                if entry.depth as i32 >= depth {
                    let cutoff = match entry.bound {
                        Bound::Exact => true,
                        Bound::Lower => score >= beta,
                        Bound::Upper => score <= alpha,
                    };
                    if cutoff {
                        return score;
                    }
                }
                Move::from_index(entry.move_index)
            }
            None => None,
        };
        let mut orders = std::mem::take(&mut self.order_lists[ply]);
        self.order_moves(board, ply, table_move, &mut orders);
        if orders.is_empty() {
            self.order_lists[ply] = orders;
            return 0; // no legal move: a draw
        }
        let mut best_score = -WIN - 1;
        let mut best_move = orders[0].1;
        let color = board.to_move().index();
        for (position, &(order, mv)) in orders.iter().enumerate() {
            let mut child = *board;
            child.play_unchecked(mv);
            let score = if position == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, stop)
            } else {
                let probe = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, stop);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, stop)
                } else {
                    probe
                }
            };
            if self.aborted {
                self.order_lists[ply] = orders;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.update_principal(ply, mv);
                    if score >= beta {
                        if order < ORDER_KILLER {
                            self.reward_quiet(ply, color, mv, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.order_lists[ply] = orders;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(board, depth, best_score, bound, best_move, ply);
        best_score
    }

    fn quiescence(
        &mut self,
        board: &Board,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        quiescence_ply: usize,
        stop: &AtomicBool,
    ) -> i32 {
        if quiescence_ply > 0 {
            if self.visit(stop) {
                return 0;
            }
            self.principal[ply].clear();
            if let Some(score) = terminal_score(board, ply) {
                return score;
            }
        }
        let stand = evaluate(board, &self.weights);
        if stand >= beta || quiescence_ply >= MAX_QUIESCENCE || ply + 1 >= MAX_PLY {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        board.ejecting_moves(&mut moves);
        for &mv in moves.iter() {
            let mut child = *board;
            child.play_unchecked(mv);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, quiescence_ply + 1, stop);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_principal(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.move_lists[ply] = moves;
        if self.aborted {
            return 0;
        }
        best
    }

    /// Fills `orders` with the legal moves and their ordering keys, best first.
    fn order_moves(
        &mut self,
        board: &Board,
        ply: usize,
        table_move: Option<Move>,
        orders: &mut Vec<(i32, Move)>,
    ) {
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        board.legal_moves(&mut moves);
        orders.clear();
        let color = board.to_move().index();
        let killers = self.killers[ply];
        for &mv in moves.iter() {
            let index = mv.index();
            let key = if Some(mv) == table_move {
                ORDER_TABLE_MOVE
            } else {
                match board.push_of(mv) {
                    Push::Ejects => ORDER_EJECTION + mv.length() as i32,
                    Push::Pushes => ORDER_PUSH + mv.length() as i32,
                    Push::None if index == killers[0] => ORDER_KILLER + 1,
                    Push::None if index == killers[1] => ORDER_KILLER,
                    Push::None => self.history[color * MOVE_SPACE + index as usize],
                }
            };
            orders.push((key, mv));
        }
        // Stable, so equal keys keep the generator's (deterministic) order.
        orders.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        self.move_lists[ply] = moves;
    }

    /// Killer and history credit for a quiet move that caused a cutoff.
    fn reward_quiet(&mut self, ply: usize, color: usize, mv: Move, depth: i32) {
        let index = mv.index();
        let killers = &mut self.killers[ply];
        if killers[0] != index {
            killers[1] = killers[0];
            killers[0] = index;
        }
        let value = &mut self.history[color * MOVE_SPACE + index as usize];
        *value = (*value + depth * depth).min(HISTORY_LIMIT - 1);
    }

    /// principal[ply] = mv followed by principal[ply + 1].
    fn update_principal(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.principal.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        if let Some(rest) = tail.first() {
            line.extend_from_slice(rest);
        }
    }

    fn slot(&self, board: &Board) -> usize {
        (board.hash() as usize) & (self.table.len() - 1)
    }

    fn probe(&self, board: &Board) -> Option<Entry> {
        let entry = self.table[self.slot(board)];
        (entry.key == board.hash() && entry.move_index != 0).then_some(entry)
    }

    fn table_move(&self, board: &Board) -> Option<Move> {
        self.probe(board)
            .and_then(|entry| Move::from_index(entry.move_index))
    }

    fn store(&mut self, board: &Board, depth: i32, score: i32, bound: Bound, mv: Move, ply: usize) {
        let slot = self.slot(board);
        let entry = &mut self.table[slot];
        let depth = depth.clamp(0, u8::MAX as i32) as u8;
        if entry.generation == self.generation && entry.depth > depth && entry.key != board.hash() {
            return;
        }
        *entry = Entry {
            key: board.hash(),
            score: score_to_table(score, ply),
            move_index: mv.index(),
            depth,
            bound,
            generation: self.generation,
        };
    }
}

/// The score of a finished game for the side to move, `ply` plies from the root.
fn terminal_score(board: &Board, ply: usize) -> Option<i32> {
    let own = board.to_move();
    let opponent = own.opponent();
    let win = WIN - ply as i32;
    if board.ejected(opponent) >= super::board::EJECTIONS_TO_WIN {
        return Some(-win);
    }
    if board.ejected(own) >= super::board::EJECTIONS_TO_WIN {
        return Some(win);
    }
    if board.ply() >= board.max_plies() {
        return Some(match board.ejected(own).cmp(&board.ejected(opponent)) {
            std::cmp::Ordering::Greater => win,
            std::cmp::Ordering::Less => -win,
            std::cmp::Ordering::Equal => 0,
        });
    }
    None
}

/// Win scores are stored relative to the node, not the root.
fn score_to_table(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score + ply as i32
    } else if score < -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_table(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score - ply as i32
    } else if score < -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}
