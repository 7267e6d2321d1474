//! Running a search: the thread loop every game shares (workers on one tree until a playout
//! limit, a soft or hard time, early stop or the caller's flag; progress reports), and
//! [`GameSearch`], the complete driver for games without a pass (Margo, Abalone): root
//! legality, tree reuse along the moves played, the summary of the root. Go has its own
//! driver ([`crate::go::search::Search`]) for its pass rules and territory conversions, on
//! the same loop. Knows the tree and the game trait; no game, no GTP.

use crate::color::Color;
use crate::search::domain::SearchGame;
use crate::search::params::SearchParams;
use crate::search::select::lower_confidence_bound;
use crate::search::tree::{Tree, RESULT_SCALE};
use crate::search::worker::{cannot_be_overtaken, recentre_score_term, Context, Padded, Worker};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::time::{Duration, Instant};

/// When a search ends (whichever comes first; with none set, only the stop flag ends it).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunLimits {
    /// New playouts to run in this search (reused ones do not count).
    pub playouts: Option<u64>,
    /// Time after which the search stops unless the best move is unclear, in which case it
    /// goes on to `hard_time`.
    pub soft_time: Option<Duration>,
    /// Time after which the search always stops.
    pub hard_time: Option<Duration>,
    /// Stop as soon as the most visited move cannot be overtaken in what is left.
    pub early_stop: bool,
}

/// A progress callback (it gets the playouts so far) and the interval between its calls.
pub type Progress<'a> = (&'a mut dyn FnMut(u64), Duration);

/// Runs `workers` on `context` (one thread each) until the context stops them: the hard
/// time, the soft time once the best move is clear, early stop, a playout limit or the
/// caller's flag. Every `interval` (when given) `report` gets the playouts so far. With no
/// time limit and no report there is nothing to watch (the workers stop themselves at the
/// playout limit or the caller's flag), so the calling thread just waits for them instead
/// of waking every 2 ms and taking a core from a worker when they use them all.
pub fn run_workers<G: SearchGame>(
    workers: &mut [Worker<G>],
    context: &Context<G>,
    limits: &RunLimits,
    start: Instant,
    report: Option<Progress<'_>>,
) {
    let tree = context.tree;
    let mut report = report;
    let mut last_report = Instant::now();
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for worker in workers.iter_mut() {
            handles.push(scope.spawn(move || worker.run(context)));
        }
        let watching = limits.hard_time.is_some() || limits.soft_time.is_some() || report.is_some();
        loop {
            // Nothing to watch, or every worker done (a worker that panicked never reports
            // finished, but its thread has ended).
            if !watching
                || context.finished_workers.load(Acquire) >= handles.len()
                || handles.iter().all(|handle| handle.is_finished())
            {
                break;
            }
            let elapsed = start.elapsed();
            if let Some(hard) = limits.hard_time {
                if elapsed >= hard {
                    context.stop.store(true, Relaxed);
                }
            }
            if let Some(soft) = limits.soft_time {
                let clear = limits.hard_time.is_none() || best_is_clear(tree);
                if elapsed >= soft && clear {
                    context.stop.store(true, Relaxed);
                }
                if limits.early_stop && elapsed > soft / 10 {
                    let done = context.playouts.load(Relaxed) as f64;
                    let rate = done / elapsed.as_secs_f64().max(1e-3);
                    let left = (soft.saturating_sub(elapsed)).as_secs_f64() * rate;
                    if cannot_be_overtaken(tree, left as u64) {
                        context.stop.store(true, Relaxed);
                    }
                }
            }
            if let Some((callback, interval)) = report.as_mut() {
                if last_report.elapsed() >= *interval {
                    last_report = Instant::now();
                    callback(context.playouts.load(Relaxed));
                }
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        for handle in handles {
            if handle.join().is_err() {
                log::error!("a search thread panicked");
            }
        }
    });
}

/// Drops a tree, or the chunks a tree gave back, on another thread (freeing a large arena
/// takes time that the next search should not wait for).
pub fn drop_later<T: Send + 'static>(value: T) {
    let spawned = std::thread::Builder::new()
        .name("ishi-tree-free".to_string())
        .spawn(move || drop(value));
    if let Err(error) = spawned {
        log::debug!("freeing the old tree in place: {error}");
    }
}

/// Whether the most visited root child also has the best win rate (among children with ten
/// visits or more).
pub fn best_is_clear(tree: &Tree) -> bool {
    let Some(children) = tree.root().children() else {
        return true;
    };
    let mut most_visited = None;
    let mut most_visits = 0;
    let mut best_valued = None;
    let mut best_value = f64::NEG_INFINITY;
    for child in children {
        let statistics = tree.statistics(child);
        if statistics.visits > most_visits {
            most_visits = statistics.visits;
            most_visited = Some(child);
        }
        if statistics.visits >= 10 {
            let value = statistics.wins as f64 / (RESULT_SCALE as f64 * statistics.visits as f64);
            if value > best_value {
                best_value = value;
                best_valued = Some(child);
            }
        }
    }
    best_valued.is_none() || most_visited == best_valued
}

/// The most visited line from the node `index` on (its move first, up to 30 moves) as move
/// indices, and the visits of each of its moves.
pub fn principal_variation(tree: &Tree, index: u32) -> (Vec<u16>, Vec<u64>) {
    let mut line = Vec::new();
    let mut visits = Vec::new();
    let mut current = index;
    loop {
        let node = tree.node(current);
        line.push(tree.point(current));
        visits.push(node.visits.load(Relaxed) as u64);
        if line.len() >= 30 {
            break;
        }
        let Some(children) = node.children() else {
            break;
        };
        let next = children
            .max_by_key(|&child| tree.node(child).visits.load(Relaxed))
            .filter(|&child| tree.node(child).visits.load(Relaxed) > 0);
        match next {
            Some(child) => current = child,
            None => break,
        }
    }
    (line, visits)
}

/// The position a [`GameSearch`] searches, with what tree reuse needs to know of it.
pub struct Root<'a, G: SearchGame> {
    /// The position.
    pub position: &'a G,
    /// The side to move.
    pub to_move: Color,
    /// Every legal move of the side to move under the game's full rules (repetition
    /// included), as move indices.
    pub legal: &'a [u16],
    /// The playout settings.
    pub settings: G::Settings,
    /// A key of everything besides the moves that the tree depends on (start position,
    /// size, options): a tree is reused only for the same key.
    pub start_key: u64,
    /// The move indices played from the start, in order (tree reuse follows them).
    pub moves: &'a [u16],
}

/// One root move of a [`Choice`].
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove {
    /// The move index.
    pub index: u16,
    /// Real visits.
    pub visits: u64,
    /// Win rate for the side to move.
    pub win_rate: f64,
    /// Win rate minus two standard errors.
    pub lower_confidence_bound: f64,
    /// Mean final margin for the side to move (the game's own unit).
    pub score_lead: f64,
    /// The most visited line from this move on (the move first), as move indices.
    pub principal_variation: Vec<u16>,
}

/// The result of a [`GameSearch`].
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move to play: the most visited legal root move, `None` when there is no legal
    /// move.
    pub best: Option<u16>,
    /// Win rate of the best move for the side to move (0.5 without visits).
    pub win_rate: f64,
    /// Playouts run in this search.
    pub playouts: u64,
    /// Visits of the root (reused ones included).
    pub root_visits: u64,
    /// Visits carried over from the previous search.
    pub reused_visits: u64,
    /// Root moves with visits, most visited first.
    pub candidates: Vec<RootMove>,
    /// Time spent.
    pub elapsed: Duration,
}

/// A callback that gets the search's state so far, and the interval between its calls.
pub type ChoiceReporter<'a> = (&'a mut dyn FnMut(&Choice), Duration);

/// The search for games without a pass: tree, workers and settings. `Send`.
pub struct GameSearch<G: SearchGame> {
    params: SearchParams,
    threads: usize,
    seed: u64,
    max_tree_bytes: usize,
    tree: Option<Tree>,
    /// The start key and the moves of the tree's root position.
    position: Option<(u64, Vec<u16>)>,
    workers: Vec<Worker<G>>,
    /// Black's margin the last search centred its score term on ([`recentre_score_term`]).
    score_centre: f64,
}

impl<G: SearchGame> GameSearch<G> {
    /// A search with these parameters, `threads` workers (at least one), a seed and a tree
    /// budget in bytes.
    pub fn new(params: SearchParams, threads: usize, seed: u64, max_tree_bytes: usize) -> Self {
        let threads = threads.max(1);
        GameSearch {
            params,
            threads,
            seed,
            max_tree_bytes,
            tree: None,
            position: None,
            workers: (0..threads).map(Worker::new).collect(),
            score_centre: 0.0,
        }
    }

    /// The parameters.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Replaces the parameters; the tree is dropped.
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        self.clear();
    }

    /// Forgets the tree.
    pub fn clear(&mut self) {
        if let Some(old) = self.tree.take() {
            drop_later(old);
        }
        self.position = None;
    }

    /// Nodes in the current tree (0 without one).
    pub fn node_count(&self) -> usize {
        self.tree.as_ref().map(Tree::node_count).unwrap_or(0)
    }

    /// Keeps the subtree of `root` when it continues the last searched position.
    fn prepare_tree(&mut self, root: &Root<'_, G>) {
        let minimum_nodes = root.legal.len() + 1;
        let reuse = match (&self.tree, &self.position) {
            (Some(tree), Some((key, moves)))
                if *key == root.start_key
                    && moves.len() <= root.moves.len()
                    && root.moves[..moves.len()] == moves[..] =>
            {
                descend(tree, &root.moves[moves.len()..])
            }
            _ => None,
        };
        match reuse {
            Some(0) => {}
            Some(index) => {
                if let Some(tree) = self.tree.as_mut() {
                    let freed = tree.keep_subtree(index);
                    if !freed.is_empty() {
                        drop_later(freed);
                    }
                }
            }
            None => {
                if let Some(old) = self.tree.take() {
                    drop_later(old);
                }
                self.tree = Some(Tree::new(self.max_tree_bytes, minimum_nodes));
            }
        }
        self.position = Some((root.start_key, root.moves.to_vec()));
    }

    /// Searches `root` until a limit, early stop or `stop` ends it; `report`, when given, is
    /// called every interval with the state so far.
    pub fn run(
        &mut self,
        root: Root<'_, G>,
        limits: &RunLimits,
        stop: &AtomicBool,
        mut report: Option<ChoiceReporter<'_>>,
    ) -> Choice {
        let start = Instant::now();
        self.prepare_tree(&root);
        let Some(tree) = self.tree.take() else {
            return summarize_root(&Tree::new(0, 1), &[], 0, 0, start.elapsed());
        };
        let mut root_legal = vec![false; G::MOVE_SPACE];
        for &index in root.legal {
            if let Some(entry) = root_legal.get_mut(index as usize) {
                *entry = true;
            }
        }
        let mut root_board = G::blank();
        root_board.copy_from(root.position);
        let reused_visits = tree.root().visits.load(Relaxed) as u64;
        let move_seed = self
            .seed
            .wrapping_add((root.moves.len() as u64).wrapping_mul(0x2545_f491_4f6c_dd1d))
            .wrapping_add(reused_visits.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        for worker in &mut self.workers {
            worker.reset(move_seed);
        }
        let params = self.params.clone();
        let context = Context {
            tree: &tree,
            params: &params,
            settings: root.settings,
            root_board,
            root_to_move: root.to_move,
            root_legal,
            pass_margin: 0.0,
            pass_margin_known: false,
            root_pass_share: 0.0,
            territory_offset: None,
            playout_limit: if root.legal.is_empty() {
                0
            } else {
                limits.playouts.unwrap_or(u64::MAX)
            },
            playouts: Padded::new(AtomicU64::new(0)),
            stop: AtomicBool::new(false),
            external_stop: stop,
            early_stop: limits.early_stop,
            exclusive: self.threads == 1,
            finished_workers: AtomicUsize::new(0),
            score_centre: recentre_score_term(&tree, &params, root.to_move, self.score_centre),
        };
        self.score_centre = context.score_centre;
        let legal = root.legal;
        match report.as_mut() {
            Some((callback, interval)) => {
                let mut progress = |playouts: u64| {
                    callback(&summarize_root(
                        &tree,
                        legal,
                        playouts,
                        reused_visits,
                        start.elapsed(),
                    ))
                };
                run_workers(
                    &mut self.workers,
                    &context,
                    limits,
                    start,
                    Some((&mut progress, *interval)),
                );
            }
            None => run_workers(&mut self.workers, &context, limits, start, None),
        }
        let playouts = context.playouts.load(Relaxed).min(context.playout_limit);
        drop(context);
        let choice = summarize_root(&tree, legal, playouts, reused_visits, start.elapsed());
        self.tree = Some(tree);
        choice
    }
}

/// The arena index reached from the root by following `moves` (each must be a child).
fn descend(tree: &Tree, moves: &[u16]) -> Option<u32> {
    let mut index = 0u32;
    for &chosen in moves {
        let children = tree.node(index).children()?;
        index = children
            .into_iter()
            .find(|&child| tree.point(child) == chosen)?;
    }
    Some(index)
}

/// The summary of the root's legal children.
fn summarize_root(
    tree: &Tree,
    legal: &[u16],
    playouts: u64,
    reused_visits: u64,
    elapsed: Duration,
) -> Choice {
    let root = tree.statistics(0);
    let mut candidates = Vec::new();
    let mut fallback: Option<(f64, u16)> = None;
    if let Some(children) = tree.root().children() {
        for child in children {
            let statistics = tree.statistics(child);
            if !legal.contains(&statistics.point) {
                continue;
            }
            let prior_value = if statistics.prior_visits > 0 {
                statistics.prior_wins as f64
                    / (RESULT_SCALE as f64 * statistics.prior_visits as f64)
            } else {
                0.5
            };
            if fallback.is_none_or(|(value, _)| prior_value > value) {
                fallback = Some((prior_value, statistics.point));
            }
            if statistics.visits == 0 {
                continue;
            }
            let visits = statistics.visits as f64;
            let win_rate = statistics.wins as f64 / (RESULT_SCALE as f64 * visits);
            candidates.push(RootMove {
                index: statistics.point,
                visits: statistics.visits as u64,
                win_rate,
                lower_confidence_bound: lower_confidence_bound(win_rate, visits),
                score_lead: statistics.score_sum as f64 / 2.0 / visits,
                principal_variation: principal_variation(tree, child).0,
            });
        }
    }
    candidates.sort_by(|first, second| {
        second
            .visits
            .cmp(&first.visits)
            .then(second.win_rate.total_cmp(&first.win_rate))
    });
    let best = candidates
        .first()
        .map(|candidate| candidate.index)
        .or(fallback.map(|(_, index)| index))
        .or(legal.first().copied());
    Choice {
        best,
        win_rate: candidates
            .first()
            .map(|candidate| candidate.win_rate)
            .unwrap_or(0.5),
        playouts,
        root_visits: root.visits as u64,
        reused_visits,
        candidates,
        elapsed,
    }
}
