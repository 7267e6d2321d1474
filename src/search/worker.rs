//! One search thread: its random generator (seeded from the search seed and the thread index),
//! a scratch board, and the buffers of one iteration — descend the tree choosing by RAVE
//! urgency (or, with `puct`, PUCT on the priors' probabilities), expand a leaf that has enough
//! visits (children with priors), refine the children's priors of a node that reaches
//! `refine_visits` (the root at once) with the game's costlier knowledge (Go's network policy head),
//! play out, then back the result up through the path with distance-weighted AMAF updates. Each
//! node keeps its urgency, refreshed wherever its statistics change (the visit on the way down,
//! the result and AMAF updates on the way back, new priors), so that selection reads one number
//! per child; with one thread this is the same choice, to the bit, as computing it. Also
//! accumulates ownership (final area owner per point). Threads share only the tree and the
//! context: each worker, and the playout counter, sits on cache lines of its own, and AMAF
//! additions are plain (an occasional lost update) rather than locked. Knows the tree and the
//! game only through [`SearchGame`] (monomorphised per game); nothing of GTP, time or Go.

use crate::color::Color;
use crate::search::domain::{encode, Outcome, Prior};
use crate::search::domain::{SearchGame, PASS};
use crate::search::params::SearchParams;
use crate::search::random::{threshold, Random};
use crate::search::select::{
    fast_urgency, puct_score, reduced_first_play_value, score_term, urgency, widening_limit,
    AmafWeights, Blend,
};
use crate::search::tree::{
    decode_value, encode_value, Node, Tree, EXPANDED, EXPANDING, LEAF, REFINED, REFINING,
    RESULT_SCALE, TERMINAL_LOSS, TERMINAL_WIN, UNREFINED,
};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

/// The largest score margin, in half-points, that a playout adds to the statistics.
const MAXIMUM_HALF_POINTS: f64 = 1.0e6;

/// What all workers of one search share (read-only apart from the counters and flags).
pub struct Context<'a, G: SearchGame> {
    /// The tree.
    pub tree: &'a Tree,
    /// The parameters.
    pub params: &'a SearchParams,
    /// Playout settings (for Go: komi, capture target, policy).
    pub settings: G::Settings,
    /// The root position.
    pub root_board: Box<G>,
    /// The side to move at the root.
    pub root_to_move: Color,
    /// Per move index: whether the root side may play it under the game's full rules.
    pub root_legal: Vec<bool>,
    /// Black's margin when the game ends by a pass at the root (for score statistics).
    pub pass_margin: f64,
    /// Whether `pass_margin` was computed (the opponent passed last).
    pub pass_margin_known: bool,
    /// Share of the root's visits that go to its pass at least (late in the game, so that a
    /// pass that keeps every point is seen even when the win rate is saturated).
    pub root_pass_share: f64,
    /// Under territory scoring, the root's area margin minus its territory margin (black's
    /// stones minus white's, less black's prisoners minus white's); `None` under area scoring.
    /// A playout's territory margin is its area margin minus this, minus the stones black
    /// placed in the tree below the root minus white's: a stone played where passing would
    /// do costs a point, while the one-sided filling at the end of a playout costs nothing.
    pub territory_offset: Option<f64>,
    /// Playouts to run in this search (`u64::MAX`: no limit).
    pub playout_limit: u64,
    /// Playouts claimed so far (on its own cache lines: every iteration of every thread
    /// writes it, and the read-only fields beside it would otherwise be invalidated).
    pub playouts: Padded<AtomicU64>,
    /// Set to end the search.
    pub stop: AtomicBool,
    /// The caller's stop flag.
    pub external_stop: &'a AtomicBool,
    /// Whether to stop once the best move cannot be overtaken within the playout limit.
    pub early_stop: bool,
    /// Whether only one thread works (plain loads and stores instead of atomic additions).
    pub exclusive: bool,
    /// Workers that have finished.
    pub finished_workers: AtomicUsize,
    /// Black's margin the score term is centred on ([`score_centre`]).
    pub score_centre: f64,
}

impl<G: SearchGame> Context<'_, G> {
    /// The parameters of the kept urgencies in this search.
    #[inline]
    pub fn urgencies(&self) -> UrgencyParameters {
        UrgencyParameters::of(self.params, self.score_centre)
    }
}

/// The centre of the score term for a search from `tree`'s root with `root_to_move` to move:
/// Black's mean margin over the results the root kept from the searches before (0 without
/// any), so that the term sets the moves that keep more than the position was expected to
/// keep above those that give some away, wherever the game stands (KataGo's dynamic score
/// utility).
pub fn score_centre(tree: &Tree, root_to_move: Color) -> f64 {
    let root = tree.root();
    let visits = root.visits.load(Relaxed);
    if visits == 0 {
        return 0.0;
    }
    // The root's results are from the view of the player who moved into it.
    let margin = root.score_sum.load(Relaxed) as f64 / (2.0 * f64::from(visits));
    match root_to_move {
        Color::White => margin,
        Color::Black => -margin,
    }
}

/// Centres the score term of a search from `tree`'s root ([`score_centre`]) and returns the
/// centre. When the term has a weight and the centre moved from `last_centre` (the one the
/// tree's kept urgencies were stored under) by half a point or more, every kept urgency is
/// stored anew ([`refresh_all_urgencies`]); consecutive searches of one position (analysis
/// in slices) mostly keep their centre and skip the walk.
pub fn recentre_score_term(
    tree: &Tree,
    params: &SearchParams,
    root_to_move: Color,
    last_centre: f64,
) -> f64 {
    let centre = score_centre(tree, root_to_move);
    let urgencies = UrgencyParameters::of(params, centre);
    if params.score_weight != 0.0 && urgencies != UrgencyParameters::of(params, last_centre) {
        refresh_all_urgencies(tree, &urgencies, root_to_move);
    }
    centre
}

/// Stores every node's urgency (the root's excepted, which no parent reads) anew under
/// `urgencies`, the root's children moved by `root_to_move`: the kept urgencies of a reused
/// tree follow a new centre of the score term.
pub fn refresh_all_urgencies(tree: &Tree, urgencies: &UrgencyParameters, root_to_move: Color) {
    let mut pending: Vec<(u32, Color)> = Vec::new();
    if let Some(children) = tree.root().children() {
        pending.extend(children.map(|child| (child, root_to_move)));
    }
    while let Some((index, mover)) = pending.pop() {
        let node = tree.node(index);
        urgencies.refresh(node, mover);
        if let Some(children) = node.children() {
            pending.extend(children.map(|child| (child, mover.opponent())));
        }
    }
}

/// A value alone on its cache lines (two 64-byte lines: adjacent-line prefetch pairs them).
#[repr(align(128))]
pub struct Padded<T>(pub T);

impl<T> Padded<T> {
    /// `value` on its own cache lines.
    pub fn new(value: T) -> Padded<T> {
        Padded(value)
    }
}

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Per-thread state, on cache lines of its own: the workers of a search lie side by side in
/// one vector, and every random number and every push to the move sequence writes this
/// struct, so neighbours sharing a line would invalidate each other (false sharing).
#[repr(align(128))]
pub struct Worker<G: SearchGame> {
    index: usize,
    board: Box<G>,
    random: Random,
    path: Vec<u32>,
    sequence: Vec<u16>,
    /// Per point: generation << 12 | first play index << 1 | colour of that play.
    marks: Vec<u32>,
    generation: u32,
    ownership: Vec<i64>,
    ownership_playouts: u64,
    prior_scratch: G::Scratch,
    candidate_points: Vec<u16>,
    priors: Vec<Prior>,
    /// Child offsets in the order of their priors' values (progressive widening).
    ranking: Vec<u32>,
    /// The offsets of one node's children that get an AMAF update.
    amaf_offsets: Vec<u32>,
}

/// A prior's visits and wins as the node stores them (at most `u16::MAX` half wins).
fn clamp_prior(prior: &Prior) -> (u16, u16) {
    let visits = prior.visits.min(u16::MAX as u32 / RESULT_SCALE);
    let wins = prior.wins.min(visits * RESULT_SCALE);
    (visits as u16, wins as u16)
}

#[inline(always)]
fn add(counter: &AtomicU32, amount: u32, exclusive: bool) {
    if exclusive {
        counter.store(counter.load(Relaxed).wrapping_add(amount), Relaxed);
    } else {
        counter.fetch_add(amount, Relaxed);
    }
}

/// Adds without a locked instruction, even when other threads write the same counter: an
/// addition that races with another thread's is lost (as in Fuego's lock-free tree). For the
/// AMAF statistics, which every iteration writes for dozens of children of the nodes near
/// the root, a rare lost update costs nothing measurable, while locked additions on cache
/// lines that the other threads keep writing serialise the threads.
#[inline(always)]
fn add_racy(counter: &AtomicU32, amount: u32) {
    counter.store(counter.load(Relaxed).wrapping_add(amount), Relaxed);
}

/// What a node's kept urgency depends on besides its statistics: 1/`equiv_rave`, the
/// first-play urgency and the score term's weight, scale and centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UrgencyParameters {
    inverse_equiv_rave: f64,
    first_play_urgency: f64,
    score_weight: f64,
    inverse_score_scale: f64,
    /// The score term's centre in half points for each mover (by [`Color::index`]).
    centres: [i64; 2],
}

impl UrgencyParameters {
    /// The urgency parameters of `params`, the score term centred on Black's margin
    /// `black_centre` (points).
    pub fn of(params: &SearchParams, black_centre: f64) -> UrgencyParameters {
        let half_points = (black_centre * 2.0)
            .round()
            .clamp(-MAXIMUM_HALF_POINTS, MAXIMUM_HALF_POINTS) as i64;
        let mut centres = [0; 2];
        centres[Color::Black.index()] = half_points;
        centres[Color::White.index()] = -half_points;
        UrgencyParameters {
            inverse_equiv_rave: 1.0 / params.equiv_rave,
            first_play_urgency: params.first_play_urgency,
            score_weight: params.score_weight,
            inverse_score_scale: 1.0 / params.score_scale,
            centres,
        }
    }

    /// The urgency of a node's current statistics ([`fast_urgency`]), with the score term
    /// ([`score_term`]) when it has a weight; `mover` played the node's move.
    #[inline(always)]
    pub fn urgency(&self, node: &Node, mover: Color) -> f64 {
        let urgency = fast_urgency(
            &node.selection_statistics(),
            self.inverse_equiv_rave,
            self.first_play_urgency,
        );
        if self.score_weight == 0.0 {
            return urgency;
        }
        urgency + self.score(node, mover)
    }

    /// The score term of a node's urgency ([`score_term`]), its results' margins for
    /// `mover` (who played its move) taken from the centre.
    #[inline]
    pub fn score(&self, node: &Node, mover: Color) -> f64 {
        let visits = node.visits.load(Relaxed);
        let centred =
            node.score_sum.load(Relaxed) - self.centres[mover.index()] * i64::from(visits);
        score_term(centred, visits, self.score_weight, self.inverse_score_scale)
    }

    /// Stores the urgency of the node's current statistics in the node: called after every
    /// change of its visits, results, AMAF statistics or prior; `mover` played its move.
    #[inline(always)]
    pub fn refresh(&self, node: &Node, mover: Color) {
        node.urgency
            .store(self.urgency(node, mover).to_bits(), Relaxed);
    }
}

impl<G: SearchGame> Worker<G> {
    /// A worker for thread `index`.
    pub fn new(index: usize) -> Worker<G> {
        Worker {
            index,
            board: G::blank(),
            random: Random::new(index as u64),
            path: Vec::with_capacity(256),
            sequence: Vec::with_capacity(2048),
            marks: vec![0; G::MOVE_SPACE],
            generation: 0,
            ownership: vec![0; G::MOVE_SPACE],
            ownership_playouts: 0,
            prior_scratch: G::Scratch::default(),
            candidate_points: Vec::with_capacity(G::MOVE_SPACE),
            priors: Vec::with_capacity(G::MOVE_SPACE),
            ranking: Vec::with_capacity(G::MOVE_SPACE),
            amaf_offsets: vec![0; G::MOVE_SPACE],
        }
    }

    /// Prepares for a new search: reseeds and clears the ownership sums.
    pub fn reset(&mut self, seed: u64) {
        self.random = Random::new(seed ^ (self.index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        self.ownership.fill(0);
        self.ownership_playouts = 0;
    }

    /// Ownership sums (+1 black, -1 white per playout) and the number of playouts counted.
    pub fn ownership(&self) -> (&[i64], u64) {
        (&self.ownership, self.ownership_playouts)
    }

    /// Runs iterations until the context says stop. A search that has not run an iteration
    /// yet runs one even when told to stop (a time budget spent before it began), so that
    /// the root is expanded and the move comes from the tree, not a pass for want of one.
    pub fn run(&mut self, context: &Context<G>) {
        loop {
            if (context.stop.load(Relaxed) || context.external_stop.load(Relaxed))
                && context.playouts.load(Relaxed) > 0
            {
                break;
            }
            let claimed = context.playouts.fetch_add(1, Relaxed);
            if claimed >= context.playout_limit {
                break;
            }
            self.iterate(context);
            if context.early_stop
                && context.playout_limit != u64::MAX
                && claimed % 64 == 63
                && cannot_be_overtaken(context.tree, context.playout_limit - claimed - 1)
            {
                context.stop.store(true, Relaxed);
            }
        }
        context.finished_workers.fetch_add(1, Release);
    }

    /// One iteration: descend, maybe expand, play out, back up.
    pub fn iterate(&mut self, context: &Context<G>) {
        let tree = context.tree;
        let params = context.params;
        let urgencies = context.urgencies();
        self.board.copy_from(&context.root_board);
        self.path.clear();
        self.sequence.clear();
        self.path.push(0);
        add(&tree.root().visits, 1, context.exclusive);
        let mut color = context.root_to_move;
        let mut index = 0u32;
        let mut terminal: Option<Outcome> = None;
        // Stones placed in the tree: black's minus white's.
        let mut placed = 0i32;
        loop {
            let node = tree.node(index);
            let state = node.state.load(Acquire);
            if state == TERMINAL_WIN || state == TERMINAL_LOSS {
                let mover = color.opponent();
                let winner = if state == TERMINAL_WIN { mover } else { color };
                terminal = Some(Outcome {
                    winner: Some(winner),
                    black_margin: context.pass_margin,
                });
                break;
            }
            if state == LEAF
                && (index == 0 || node.visits.load(Relaxed) > params.expand_visits)
                && !tree.is_full()
                && node
                    .state
                    .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
                    .is_ok()
            {
                self.expand(context, index, color);
            }
            let Some(children) = node.children() else {
                break;
            };
            if params.refine_visits > 0
                && node.refinement.load(Relaxed) == UNREFINED
                && (index == 0 || node.visits.load(Relaxed) >= params.refine_visits)
                && node
                    .refinement
                    .compare_exchange(UNREFINED, REFINING, Acquire, Relaxed)
                    .is_ok()
            {
                self.refine(context, children.clone(), color);
                node.refinement.store(REFINED, Release);
            }
            let Some(child) = self.select(context, index, children, color) else {
                break;
            };
            let child_node = tree.node(child);
            add(&child_node.visits, 1, context.exclusive);
            urgencies.refresh(child_node, color);
            let point = tree.point(child) as usize;
            self.board.play(point, color);
            self.sequence.push(encode(point, color));
            self.path.push(child);
            if point != PASS {
                placed += if color == Color::Black { 1 } else { -1 };
                if let Some(outcome) = self.board.decided(color, &context.settings) {
                    terminal = Some(outcome);
                    break;
                }
            }
            color = color.opponent();
            index = child;
        }
        let mut value = None;
        let outcome = match terminal {
            Some(outcome) => outcome,
            None => {
                if params.value_weight > 0 {
                    // Each node's position is evaluated once, from its `value_visits`-th
                    // visit on (the earlier ones back up their playouts alone); its later
                    // visits as a leaf (and the searches that reuse it) read the kept value.
                    let node = tree.node(index);
                    let judged = node.visits.load(Relaxed) >= params.value_visits;
                    value = decode_value(node.value.load(Relaxed)).or_else(|| {
                        if !judged {
                            return None;
                        }
                        let win = self.board.evaluate(
                            color,
                            &context.settings,
                            &mut self.prior_scratch,
                        )?;
                        let black_wins = if color == Color::Black {
                            win
                        } else {
                            1.0 - win
                        };
                        node.value.store(encode_value(black_wins), Relaxed);
                        Some(black_wins)
                    });
                }
                let outcome = self.board.play_out(
                    color,
                    &context.settings,
                    &mut self.random,
                    &mut self.sequence,
                );
                self.board.add_ownership(&mut self.ownership);
                self.ownership_playouts += 1;
                match context.territory_offset {
                    Some(offset) => {
                        Outcome::from_margin(outcome.black_margin - offset - f64::from(placed))
                    }
                    None => outcome,
                }
            }
        };
        self.back_up(context, &outcome, value, &urgencies);
    }

    /// Creates the children of the node at `index` (state [`EXPANDING`], owned by this
    /// thread) for `color` to move on the current board.
    fn expand(&mut self, context: &Context<G>, index: u32, color: Color) {
        let tree = context.tree;
        let allowed = (index == 0).then_some(context.root_legal.as_slice());
        self.board.candidates(
            color,
            allowed,
            context.params,
            &mut self.prior_scratch,
            &mut self.candidate_points,
            &mut self.priors,
        );
        let node = tree.node(index);
        let count = self.candidate_points.len();
        let Some(first) = tree.allocate(count) else {
            node.state.store(LEAF, Release);
            return;
        };
        let urgencies = context.urgencies();
        let virtual_visits = prior_visits_kept(context.params);
        for (offset, (&point, prior)) in self.candidate_points.iter().zip(&self.priors).enumerate()
        {
            let (visits, wins) = if virtual_visits {
                clamp_prior(prior)
            } else {
                (0, 0)
            };
            let child = tree.initialise(first + offset as u32, point, visits, wins);
            tree.set_policy(first + offset as u32, prior.policy);
            urgencies.refresh(child, color);
        }
        self.rank_children(context, first..first + count as u32);
        node.first_child.store(first, Relaxed);
        node.child_count.store(count as u16, Relaxed);
        node.state.store(EXPANDED, Release);
    }

    /// Stores each child's rank by the value of the prior in `self.priors` (same order as
    /// `children`), best first, ties to the earlier child, when progressive widening is on.
    fn rank_children(&mut self, context: &Context<G>, children: std::ops::Range<u32>) {
        if context.params.widening == 0 {
            return;
        }
        let value = |prior: &Prior| -> f64 {
            if prior.visits == 0 {
                0.5
            } else {
                prior.wins as f64 / (RESULT_SCALE as f64 * prior.visits as f64)
            }
        };
        self.ranking.clear();
        self.ranking.extend(0..self.priors.len() as u32);
        let priors = &self.priors;
        self.ranking.sort_by(|&first, &second| {
            value(&priors[second as usize]).total_cmp(&value(&priors[first as usize]))
        });
        for (rank, &offset) in self.ranking.iter().enumerate() {
            let rank = rank.min(u16::MAX as usize) as u16;
            context
                .tree
                .node(children.start + offset)
                .rank
                .store(rank, Relaxed);
        }
    }

    /// Refines the priors of `children` (of the node on the current board, `color` to move)
    /// with the game's costlier knowledge, when it has some.
    fn refine(&mut self, context: &Context<G>, children: std::ops::Range<u32>, color: Color) {
        let tree = context.tree;
        self.candidate_points.clear();
        self.candidate_points
            .extend(children.clone().map(|child| tree.point(child)));
        if !self.board.refine_priors(
            color,
            context.params,
            &context.settings,
            &mut self.prior_scratch,
            &self.candidate_points,
            &mut self.priors,
        ) {
            return;
        }
        let urgencies = context.urgencies();
        let virtual_visits = prior_visits_kept(context.params);
        for (child, prior) in children.clone().zip(&self.priors) {
            let node = tree.node(child);
            if virtual_visits {
                let (visits, wins) = clamp_prior(prior);
                node.prior_visits.store(visits, Relaxed);
                node.prior_wins.store(wins, Relaxed);
            }
            tree.set_policy(child, prior.policy);
            urgencies.refresh(node, color);
        }
        self.rank_children(context, children);
    }

    /// The child of the node at `index` with the highest urgency (the first on ties).
    fn select(
        &self,
        context: &Context<G>,
        index: u32,
        children: std::ops::Range<u32>,
        color: Color,
    ) -> Option<u32> {
        let tree = context.tree;
        let params = context.params;
        let parent_visits = tree.node(index).visits.load(Relaxed) as f64;
        let mut best = None;
        let mut best_urgency = f64::NEG_INFINITY;
        let first = children.start;
        let pass_floor = context.root_pass_share * parent_visits;
        // Progressive widening below the root: the children ranked past the limit wait.
        let open = if index == 0 {
            u32::MAX
        } else {
            widening_limit(
                params.widening,
                params.widening_visits,
                parent_visits as u32,
            )
        };
        if params.puct > 0.0 {
            return select_puct(context, index, children, open, pass_floor);
        }
        // Without an exploration term (the usual case) the kept urgencies decide: at the root
        // with its tests, below it free of them, and of the ranks' when widening is off.
        if params.explore <= 0.0 {
            let nodes = tree.slice(children.clone());
            let offset = if index == 0 {
                let points = tree.points(children);
                most_urgent_at_root(nodes, points, &context.root_legal, pass_floor)
            } else if params.widening == 0 {
                most_urgent::<false>(nodes, open)
            } else {
                most_urgent::<true>(nodes, open)
            };
            return offset.map(|offset| first + offset);
        }
        // With exploration, the urgency depends on the parent's visits: computed here.
        let urgencies = context.urgencies();
        for (offset, node) in tree.slice(children).iter().enumerate() {
            let child = first + offset as u32;
            if node.rank.load(Relaxed) as u32 >= open {
                continue;
            }
            if index == 0 {
                let point = tree.point(child) as usize;
                if !context.root_legal[point] {
                    continue;
                }
                if point == PASS && (node.visits.load(Relaxed) as f64) < pass_floor {
                    return Some(child);
                }
            }
            let value = urgency(
                &Blend::from_statistics(&node.selection_statistics()),
                parent_visits,
                params.equiv_rave,
                params.explore,
                params.first_play_urgency,
            ) + urgencies.score(node, color);
            if value > best_urgency {
                best_urgency = value;
                best = Some(child);
            }
        }
        best
    }

    /// Adds the result to every node of the path and the AMAF results to their children: the
    /// playout's, mixed with `black_value` (the value network's probability that Black wins
    /// at the leaf, when it was asked) at the `value_weight` share.
    fn back_up(
        &mut self,
        context: &Context<G>,
        outcome: &Outcome,
        black_value: Option<f64>,
        urgencies: &UrgencyParameters,
    ) {
        let tree = context.tree;
        let exclusive = context.exclusive;
        let black_result = match outcome.winner {
            Some(Color::Black) => RESULT_SCALE,
            Some(Color::White) => 0,
            None => RESULT_SCALE / 2,
        };
        // The mixed result is rounded at random to a whole unit (a half win), up with the
        // probability of its fraction: the tree keeps integer sums, and on average backs
        // up the mixture itself.
        let black_result = match black_value {
            Some(value) => {
                let share = f64::from(context.params.value_weight.min(100)) / 100.0;
                let mixed = (1.0 - share) * f64::from(black_result)
                    + share * value.clamp(0.0, 1.0) * f64::from(RESULT_SCALE);
                let whole = mixed.floor();
                let up = self.random.chance(threshold(mixed - whole));
                (whole as u32 + u32::from(up)).min(RESULT_SCALE)
            }
            None => black_result,
        };
        let result_for = |color: Color| -> u32 {
            match color {
                Color::Black => black_result,
                Color::White => RESULT_SCALE - black_result,
            }
        };
        // GTP accepts any finite komi: cap the margin so that `komi 1e300` cannot overflow
        // the score sums (a board margin is at most 625 points).
        let black_half_points = (outcome.black_margin * 2.0)
            .round()
            .clamp(-MAXIMUM_HALF_POINTS, MAXIMUM_HALF_POINTS)
            as i64;
        let root_to_move = context.root_to_move;
        let to_move_at = |depth: usize| -> Color {
            if depth.is_multiple_of(2) {
                root_to_move
            } else {
                root_to_move.opponent()
            }
        };
        for (depth, &index) in self.path.iter().enumerate() {
            let node = tree.node(index);
            let mover = to_move_at(depth).opponent();
            add(&node.wins, result_for(mover), exclusive);
            let margin = if mover == Color::Black {
                black_half_points
            } else {
                -black_half_points
            };
            if exclusive {
                node.score_sum
                    .store(node.score_sum.load(Relaxed) + margin, Relaxed);
            } else {
                node.score_sum.fetch_add(margin, Relaxed);
            }
            // A move below the root gets its urgency refreshed with its AMAF statistics
            // below (its own point is always marked for its parent), a pass here.
            if depth > 0 && tree.point(index) as usize == PASS {
                urgencies.refresh(node, mover);
            }
        }
        // AMAF: walk up from the deepest node, marking the first play at each point from
        // that depth on.
        self.generation += 1;
        if self.generation >= 1 << 20 {
            self.marks.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        let length = self.sequence.len();
        let distance_rave = context.params.distance_rave;
        let mut next = length;
        for depth in (0..self.path.len()).rev() {
            while next > depth {
                next -= 1;
                let entry = self.sequence[next] as u32;
                let point = (entry >> 1) as usize;
                if point != PASS && next < 1 << 11 {
                    self.marks[point] = generation << 12 | (next as u32) << 1 | (entry & 1);
                }
            }
            let Some(children) = tree.node(self.path[depth]).children() else {
                continue;
            };
            let mover = to_move_at(depth).index() as u32;
            let result = result_for(to_move_at(depth));
            let weights = AmafWeights::new(length - depth, distance_rave);
            // A mark of this generation and this mover (the pass is never marked).
            let wanted = generation << 12 | mover;
            let nodes = tree.slice(children.clone());
            let points = tree.points(children);
            if self.amaf_offsets.len() < nodes.len() {
                self.amaf_offsets.resize(nodes.len(), 0);
            }
            // The children to update, found from the points alone (a few cache lines that
            // no thread writes) and without a branch per child: whether a child's point is
            // marked is a coin toss that a branch predictor would lose half the time.
            let marks = self.marks.as_slice();
            let offsets = &mut self.amaf_offsets[..nodes.len()];
            let mut count = 0;
            for (offset, point) in points.iter().enumerate() {
                let mark = marks
                    .get(point.load(Relaxed) as usize)
                    .copied()
                    .unwrap_or(0);
                offsets[count] = offset as u32;
                count += usize::from(mark & !(0x7ff << 1) == wanted);
            }
            // The additions first, then the urgencies: with several threads the children's
            // cache lines are fetched for writing in a short loop that keeps many fetches in
            // flight, instead of one at a time behind each urgency's arithmetic.
            for &offset in &offsets[..count] {
                let node = &nodes[offset as usize];
                let mark = marks[points[offset as usize].load(Relaxed) as usize];
                let first = ((mark >> 1) & 0x7ff) as usize;
                let weight = weights.weight(first - depth);
                add_racy(&node.amaf_visits, weight);
                add_racy(&node.amaf_wins, weight * result);
            }
            let mover = to_move_at(depth);
            for &offset in &offsets[..count] {
                urgencies.refresh(&nodes[offset as usize], mover);
            }
        }
    }
}

/// Whether children keep their priors as virtual visits: always, except under PUCT without
/// `puct_prior_visits`.
fn prior_visits_kept(params: &SearchParams) -> bool {
    params.puct <= 0.0 || params.puct_prior_visits
}

/// PUCT selection among the `children` of the node at `index` ([`puct_score`]): a child's
/// value is its kept urgency (real, prior and AMAF statistics blended) or, with no statistics
/// at all, the parent's value for the mover reduced by the policy already visited
/// ([`reduced_first_play_value`]); its probability is its kept policy over the siblings'
/// total (equal shares when the game gave none). The root's rules (legal moves, the pass's
/// floor) and progressive widening's `open` ranks apply as in the other selections; the
/// first child wins ties.
fn select_puct<G: SearchGame>(
    context: &Context<G>,
    index: u32,
    children: std::ops::Range<u32>,
    open: u32,
    pass_floor: f64,
) -> Option<u32> {
    let tree = context.tree;
    let params = context.params;
    let parent = tree.node(index);
    let parent_visits = parent.visits.load(Relaxed);
    // The parent's results are its mover's: the children's mover has the rest.
    let parent_value = if parent_visits >= 2 {
        1.0 - f64::from(parent.wins.load(Relaxed))
            / (f64::from(RESULT_SCALE) * f64::from(parent_visits))
    } else {
        0.5
    };
    let nodes = tree.slice(children.clone());
    let policies = tree.policies(children.clone());
    let points = tree.points(children.clone());
    let mut total = 0u64;
    let mut visited = 0u64;
    let mut visited_children = 0usize;
    for (node, policy) in nodes.iter().zip(policies) {
        let policy = u64::from(policy.load(Relaxed));
        total += policy;
        if node.visits.load(Relaxed) > 0 {
            visited += policy;
            visited_children += 1;
        }
    }
    let equal_share = 1.0 / nodes.len().max(1) as f64;
    let share = |policy: u16| -> f64 {
        if total > 0 {
            f64::from(policy) / total as f64
        } else {
            equal_share
        }
    };
    let visited_probability = if total > 0 {
        visited as f64 / total as f64
    } else {
        equal_share * visited_children as f64
    };
    let first_play =
        reduced_first_play_value(parent_value, params.puct_fpu_reduction, visited_probability);
    let sqrt_parent_visits = f64::from(parent_visits.max(1)).sqrt();
    let mut best = None;
    let mut best_score = f64::NEG_INFINITY;
    for (offset, ((node, policy), point)) in nodes.iter().zip(policies).zip(points).enumerate() {
        if index != 0 && node.rank.load(Relaxed) as u32 >= open {
            continue;
        }
        let visits = node.visits.load(Relaxed);
        if index == 0 {
            let point = point.load(Relaxed) as usize;
            if !context.root_legal[point] {
                continue;
            }
            if point == PASS && f64::from(visits) < pass_floor {
                return Some(children.start + offset as u32);
            }
        }
        let unseen = visits == 0
            && node.prior_visits.load(Relaxed) == 0
            && node.amaf_visits.load(Relaxed) == 0;
        let value = if unseen {
            first_play
        } else {
            f64::from_bits(node.urgency.load(Relaxed))
        };
        let score = puct_score(
            value,
            share(policy.load(Relaxed)),
            f64::from(visits),
            sqrt_parent_visits,
            params.puct,
        );
        if score > best_score {
            best_score = score;
            best = Some(children.start + offset as u32);
        }
    }
    best
}

/// The offset among `nodes` of the one with the highest kept urgency (the first on ties),
/// with `WIDENING` only among those ranked below `open`.
#[inline(always)]
fn most_urgent<const WIDENING: bool>(nodes: &[Node], open: u32) -> Option<u32> {
    let mut best = None;
    let mut best_urgency = f64::NEG_INFINITY;
    for (offset, node) in nodes.iter().enumerate() {
        if WIDENING && node.rank.load(Relaxed) as u32 >= open {
            continue;
        }
        let value = f64::from_bits(node.urgency.load(Relaxed));
        if value > best_urgency {
            best_urgency = value;
            best = Some(offset as u32);
        }
    }
    best
}

/// The offset among the root's children `nodes` (their points in `points`) of the one with
/// the highest kept urgency (the first on ties) among those `legal` for the side to move, or
/// of the pass while its visits are below `pass_floor`.
#[inline(always)]
fn most_urgent_at_root(
    nodes: &[Node],
    points: &[AtomicU16],
    legal: &[bool],
    pass_floor: f64,
) -> Option<u32> {
    let mut best = None;
    let mut best_urgency = f64::NEG_INFINITY;
    for (offset, (node, point)) in nodes.iter().zip(points).enumerate() {
        let point = point.load(Relaxed) as usize;
        if !legal[point] {
            continue;
        }
        if point == PASS && (node.visits.load(Relaxed) as f64) < pass_floor {
            return Some(offset as u32);
        }
        let value = f64::from_bits(node.urgency.load(Relaxed));
        if value > best_urgency {
            best_urgency = value;
            best = Some(offset as u32);
        }
    }
    best
}

/// Whether the most visited root child leads the runner-up by more than `remaining` visits.
pub fn cannot_be_overtaken(tree: &Tree, remaining: u64) -> bool {
    let Some(children) = tree.root().children() else {
        return false;
    };
    let mut best = 0u64;
    let mut second = 0u64;
    for child in children {
        let visits = tree.node(child).visits.load(Relaxed) as u64;
        if visits > best {
            second = best;
            best = visits;
        } else if visits > second {
            second = visits;
        }
    }
    best > second + remaining
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tree::Tree;

    /// A toy game for the generic worker: a pile of stones, each move takes 1, 2 or 3 (move
    /// index = stones taken), whoever takes the last stone wins. No pass, no board.
    #[derive(Clone)]
    struct Pile {
        stones: usize,
    }

    impl SearchGame for Pile {
        const MOVE_SPACE: usize = 4;
        type Settings = ();
        type Scratch = ();

        fn blank() -> Box<Pile> {
            Box::new(Pile { stones: 0 })
        }

        fn copy_from(&mut self, other: &Pile) {
            self.stones = other.stones;
        }

        fn play(&mut self, index: usize, _player: Color) {
            self.stones -= index;
        }

        fn decided(&self, player: Color, _settings: &()) -> Option<Outcome> {
            (self.stones == 0)
                .then(|| Outcome::from_margin(if player == Color::Black { 1.0 } else { -1.0 }))
        }

        fn candidates(
            &self,
            _player: Color,
            allowed: Option<&[bool]>,
            params: &SearchParams,
            _scratch: &mut (),
            moves: &mut Vec<u16>,
            priors: &mut Vec<Prior>,
        ) {
            moves.clear();
            priors.clear();
            for take in 1..=self.stones.min(3) {
                if allowed.is_none_or(|allowed| allowed[take]) {
                    moves.push(take as u16);
                    priors.push(Prior::even(params.prior_even));
                }
            }
        }

        /// An oracle: the winning take (leaving a multiple of four) gets 50 won visits and
        /// probability 0.8, the others 50 lost ones and 0.1; none where every take loses.
        fn refine_priors(
            &self,
            _player: Color,
            _params: &SearchParams,
            _settings: &(),
            _scratch: &mut (),
            moves: &[u16],
            priors: &mut Vec<Prior>,
        ) -> bool {
            if self.stones.is_multiple_of(4) {
                return false;
            }
            priors.clear();
            for &take in moves {
                let winning = take as usize == self.stones % 4;
                let mut prior = Prior::default();
                prior.add(50, winning);
                prior.policy = if winning { 52_428 } else { 6_554 };
                priors.push(prior);
            }
            true
        }

        /// An oracle value: the player to move wins exactly when the pile is not a multiple
        /// of four.
        fn evaluate(&self, _player: Color, _settings: &(), _scratch: &mut ()) -> Option<f64> {
            Some(if self.stones.is_multiple_of(4) {
                0.0
            } else {
                1.0
            })
        }

        fn play_out(
            &mut self,
            mut player: Color,
            _settings: &(),
            random: &mut Random,
            sequence: &mut Vec<u16>,
        ) -> Outcome {
            loop {
                let take = 1 + random.below(self.stones.min(3));
                self.stones -= take;
                sequence.push(encode(take, player));
                if self.stones == 0 {
                    return Outcome::from_margin(if player == Color::Black { 1.0 } else { -1.0 });
                }
                player = player.opponent();
            }
        }

        fn add_ownership(&self, _sums: &mut [i64]) {}
    }

    /// A toy game of one move for Black: taking 1, 2 or 3 (the move index) ends the game,
    /// won by ten points a stone taken; no pass.
    #[derive(Clone)]
    struct Margins {
        taken: usize,
    }

    impl SearchGame for Margins {
        const MOVE_SPACE: usize = 4;
        type Settings = ();
        type Scratch = ();

        fn blank() -> Box<Margins> {
            Box::new(Margins { taken: 0 })
        }

        fn copy_from(&mut self, other: &Margins) {
            self.taken = other.taken;
        }

        fn play(&mut self, index: usize, _player: Color) {
            self.taken = index;
        }

        fn decided(&self, _player: Color, _settings: &()) -> Option<Outcome> {
            (self.taken > 0).then(|| Outcome::from_margin(10.0 * self.taken as f64))
        }

        fn candidates(
            &self,
            _player: Color,
            _allowed: Option<&[bool]>,
            params: &SearchParams,
            _scratch: &mut (),
            moves: &mut Vec<u16>,
            priors: &mut Vec<Prior>,
        ) {
            moves.clear();
            priors.clear();
            if self.taken == 0 {
                moves.extend([1, 2, 3]);
                priors.extend([Prior::even(params.prior_even); 3]);
            }
        }

        fn refine_priors(
            &self,
            _player: Color,
            _params: &SearchParams,
            _settings: &(),
            _scratch: &mut (),
            _moves: &[u16],
            _priors: &mut Vec<Prior>,
        ) -> bool {
            false
        }

        fn evaluate(&self, _player: Color, _settings: &(), _scratch: &mut ()) -> Option<f64> {
            None
        }

        /// Never reached (every move ends the game): the game as it stands.
        fn play_out(
            &mut self,
            _player: Color,
            _settings: &(),
            _random: &mut Random,
            _sequence: &mut Vec<u16>,
        ) -> Outcome {
            Outcome::from_margin(10.0 * self.taken as f64)
        }

        fn add_ownership(&self, _sums: &mut [i64]) {}
    }

    /// The tree after `playouts` iterations from a pile of `stones`.
    fn search(stones: usize, playouts: u64, params: SearchParams) -> Tree {
        search_from(Box::new(Pile { stones }), playouts, params)
    }

    /// The tree after `playouts` iterations from `root_board`, Black to move.
    fn search_from<G: SearchGame<Settings = ()>>(
        root_board: Box<G>,
        playouts: u64,
        params: SearchParams,
    ) -> Tree {
        let tree = Tree::new(1 << 20, 16);
        let stop = AtomicBool::new(false);
        let context = Context {
            tree: &tree,
            params: &params,
            settings: (),
            root_board,
            root_to_move: Color::Black,
            root_legal: vec![true; G::MOVE_SPACE],
            pass_margin: 0.0,
            pass_margin_known: false,
            root_pass_share: 0.0,
            territory_offset: None,
            playout_limit: playouts,
            playouts: Padded::new(AtomicU64::new(0)),
            stop: AtomicBool::new(false),
            external_stop: &stop,
            early_stop: false,
            exclusive: true,
            finished_workers: AtomicUsize::new(0),
            score_centre: 0.0,
        };
        let mut worker = Worker::<G>::new(0);
        worker.reset(7);
        worker.run(&context);
        tree
    }

    /// The most visited root move after `playouts` iterations from a pile of `stones`, no
    /// refinement.
    fn best_take(stones: usize, playouts: u64) -> usize {
        let params = SearchParams {
            equiv_rave: 20.0,
            refine_visits: 0,
            ..SearchParams::default()
        };
        let tree = search(stones, playouts, params);
        let children = tree.root().children().expect("the root was expanded");
        children
            .max_by_key(|&child| tree.node(child).visits.load(Relaxed))
            .map(|child| tree.point(child) as usize)
            .expect("the root has children")
    }

    #[test]
    fn workers_and_the_shared_counter_keep_cache_lines_of_their_own() {
        assert!(std::mem::align_of::<Worker<Pile>>() >= 128);
        assert_eq!(std::mem::size_of::<Worker<Pile>>() % 128, 0);
        assert!(std::mem::align_of::<Padded<AtomicU64>>() >= 128);
        let workers: Vec<Worker<Pile>> = (0..2).map(Worker::new).collect();
        let distance = (&workers[1] as *const Worker<Pile> as usize)
            - (&workers[0] as *const Worker<Pile> as usize);
        assert!(distance >= 128);
    }

    #[test]
    fn leaf_values_are_mixed_into_the_results_at_their_weight() {
        // With the oracle's value alone, and the root's children kept as leaves, every
        // result is exact: a take that leaves a multiple of four has only won results
        // (priors are kept apart), the others only lost ones.
        let params = SearchParams {
            equiv_rave: 20.0,
            refine_visits: 0,
            expand_visits: u32::MAX,
            value_weight: 100,
            value_visits: 1,
            ..SearchParams::default()
        };
        let tree = search(22, 2000, params.clone());
        for child in tree.root().children().expect("the root was expanded") {
            let node = tree.node(child);
            let take = tree.point(child) as usize;
            let visits = u64::from(node.visits.load(Relaxed));
            let wins = u64::from(node.wins.load(Relaxed));
            let expected = if (22 - take).is_multiple_of(4) {
                visits * u64::from(RESULT_SCALE)
            } else {
                0
            };
            assert_eq!(wins, expected, "take {take}: {wins} of {visits} visits");
        }
        // Half from the value, half from the playout: the winning take's mean result lies
        // between the playouts' alone and the oracle's.
        let mean = |tree: &Tree| {
            let child = tree
                .root()
                .children()
                .expect("expanded")
                .find(|&child| tree.point(child) == 2)
                .expect("take 2");
            let node = tree.node(child);
            f64::from(node.wins.load(Relaxed))
                / (f64::from(RESULT_SCALE) * f64::from(node.visits.load(Relaxed)))
        };
        let playouts_only = mean(&search(
            22,
            2000,
            SearchParams {
                value_weight: 0,
                ..params.clone()
            },
        ));
        let mixed = mean(&search(
            22,
            2000,
            SearchParams {
                value_weight: 50,
                ..params
            },
        ));
        assert!(
            playouts_only < mixed && mixed < 1.0,
            "{playouts_only} {mixed}"
        );
    }

    /// A leaf is judged once it has `value_visits` visits: a root child with fewer keeps no
    /// value, and with the threshold out of reach the search is the playouts' alone.
    #[test]
    fn leaves_are_judged_from_their_value_visits_on() {
        let params = SearchParams {
            equiv_rave: 20.0,
            refine_visits: 0,
            expand_visits: u32::MAX,
            value_weight: 50,
            value_visits: 3,
            ..SearchParams::default()
        };
        let statistics = |tree: &Tree| -> Vec<(u32, u32, u16)> {
            let children = tree.root().children().expect("the root was expanded");
            children
                .map(|child| {
                    let node = tree.node(child);
                    (
                        node.visits.load(Relaxed),
                        node.wins.load(Relaxed),
                        node.value.load(Relaxed),
                    )
                })
                .collect()
        };
        for playouts in [4, 9, 40] {
            let children = statistics(&search(22, playouts, params.clone()));
            assert!(children.iter().any(|&(visits, ..)| visits >= 3));
            for &(visits, _, value) in &children {
                assert_eq!(value != 0, visits >= 3, "{children:?}");
            }
        }
        let out_of_reach = search(
            22,
            400,
            SearchParams {
                value_visits: u32::MAX,
                ..params.clone()
            },
        );
        let playouts_only = search(
            22,
            400,
            SearchParams {
                value_weight: 0,
                ..params
            },
        );
        assert_eq!(statistics(&out_of_reach), statistics(&playouts_only));
    }

    #[test]
    fn the_score_term_leans_to_the_bigger_win() {
        // Every move wins: once each has been tried (no prior visits, so first-play urgency
        // tries them), by the results alone the search stays on the first (ties go to it);
        // with the score term it turns to the move that wins by most, in the kept urgencies
        // and in those computed with an exploration term alike.
        let most_visited = |score_weight: f64, explore: f64| {
            let params = SearchParams {
                refine_visits: 0,
                prior_even: 0,
                score_weight,
                explore,
                ..SearchParams::default()
            };
            let tree = search_from(Box::new(Margins { taken: 0 }), 3000, params);
            let children = tree.root().children().expect("the root was expanded");
            let visits: Vec<u32> = children
                .map(|child| tree.node(child).visits.load(Relaxed))
                .collect();
            let best = (0..visits.len())
                .max_by_key(|&offset| visits[offset])
                .expect("three moves");
            (best + 1, visits)
        };
        let (best, visits) = most_visited(0.0, 0.0);
        assert_eq!(best, 1, "{visits:?}");
        let (best, visits) = most_visited(0.3, 0.0);
        assert_eq!(best, 3, "{visits:?}");
        assert!(visits[2] > 2 * (visits[0] + visits[1]), "{visits:?}");
        let (best, visits) = most_visited(0.3, 0.05);
        assert_eq!(best, 3, "{visits:?}");
        assert!(visits[2] > visits[0] + visits[1], "{visits:?}");
    }

    #[test]
    fn the_generic_worker_solves_a_toy_game() {
        // Taking the last stone wins: leave the opponent a multiple of four.
        assert_eq!(best_take(10, 4000), 2);
        assert_eq!(best_take(7, 4000), 3);
        assert_eq!(best_take(9, 4000), 1);
    }

    /// Walks the tree below `index` (a pile of `stones`) and returns, over every expanded
    /// node but the root, the takes of visited children that are neither the first take nor
    /// the winning one; checks the ranks of refined nodes on the way.
    fn widened_takes(tree: &Tree, index: u32, stones: usize, out: &mut Vec<usize>) {
        let Some(children) = tree.node(index).children() else {
            return;
        };
        let refined = tree.node(index).refinement.load(Relaxed) == REFINED;
        let winning = stones % 4;
        let mut ranks = Vec::new();
        for child in children {
            let node = tree.node(child);
            let take = tree.point(child) as usize;
            ranks.push(node.rank.load(Relaxed));
            if refined && winning != 0 {
                assert_eq!(node.rank.load(Relaxed) == 0, take == winning);
            }
            if index != 0 && node.visits.load(Relaxed) > 0 && take != 1 && take != winning {
                out.push(take);
            }
            widened_takes(tree, child, stones - take, out);
        }
        ranks.sort_unstable();
        assert!(ranks
            .iter()
            .enumerate()
            .all(|(place, &rank)| rank as usize == place));
    }

    #[test]
    fn progressive_widening_selects_by_rank_of_prior() {
        // One child open below the root: the first take while the priors are even (ties
        // keep the children's order), the oracle's winning take once refined.
        let params = SearchParams {
            refine_visits: 30,
            widening: 1,
            widening_visits: 1_000_000,
            ..SearchParams::default()
        };
        let tree = search(14, 3000, params);
        let mut others = Vec::new();
        widened_takes(&tree, 0, 14, &mut others);
        assert!(
            others.is_empty(),
            "takes past the widening limit: {others:?}"
        );
        // Without widening the other takes are searched too.
        let params = SearchParams {
            refine_visits: 30,
            ..SearchParams::default()
        };
        let tree = search(14, 3000, params);
        let mut others = Vec::new();
        let root = tree.root();
        for child in root.children().unwrap() {
            let take = tree.point(child) as usize;
            for grandchild in tree.node(child).children().into_iter().flatten() {
                let node = tree.node(grandchild);
                let second = tree.point(grandchild) as usize;
                if node.visits.load(Relaxed) > 0 && second != 1 && second != (14 - take) % 4 {
                    others.push(second);
                }
            }
        }
        assert!(!others.is_empty());
    }

    /// With refined priors and progressive widening: every node below the root keeps the
    /// urgency of its statistics to the bit, so selection by kept urgency is selection by
    /// [`fast_urgency`].
    #[test]
    fn kept_urgencies_equal_the_statistics() {
        for widening in [0, 2] {
            let params = SearchParams {
                refine_visits: 30,
                widening,
                widening_visits: 50,
                ..SearchParams::default()
            };
            let parameters = UrgencyParameters::of(&params, 0.0);
            let tree = search(17, 3000, params);
            let mut pending: Vec<(u32, Color)> = tree
                .root()
                .children()
                .unwrap()
                .map(|child| (child, Color::Black))
                .collect();
            let mut checked = 0;
            while let Some((index, mover)) = pending.pop() {
                let node = tree.node(index);
                let children = node.children().into_iter().flatten();
                pending.extend(children.map(|child| (child, mover.opponent())));
                assert_eq!(
                    node.urgency.load(Relaxed),
                    parameters.urgency(node, mover).to_bits()
                );
                checked += 1;
            }
            assert!(checked > 100, "{checked} nodes");
        }
    }

    /// The root child of each take: (take, visits, prior visits, kept policy).
    fn root_children(tree: &Tree) -> Vec<(usize, u32, u16, u16)> {
        tree.root()
            .children()
            .unwrap()
            .map(|child| {
                let node = tree.node(child);
                (
                    tree.point(child) as usize,
                    node.visits.load(Relaxed),
                    node.prior_visits.load(Relaxed),
                    tree.policy(child),
                )
            })
            .collect()
    }

    #[test]
    fn puct_solves_the_toy_game_with_and_without_virtual_visits() {
        for prior_visits in [true, false] {
            // No refinement: the game gives no probabilities, every take is equally likely.
            let params = SearchParams {
                equiv_rave: 20.0,
                refine_visits: 0,
                puct: 1.0,
                puct_prior_visits: prior_visits,
                ..SearchParams::default()
            };
            for (stones, winning) in [(10, 2), (7, 3), (9, 1)] {
                let tree = search(stones, 4000, params.clone());
                let children = root_children(&tree);
                let best = children.iter().max_by_key(|child| child.1).unwrap();
                assert_eq!(best.0, winning, "{prior_visits} {stones}: {children:?}");
                for &(_, _, virtual_visits, policy) in &children {
                    assert_eq!(virtual_visits > 0, prior_visits);
                    assert_eq!(policy, 0);
                }
            }
            // The same search twice is the same tree (one thread, one seed).
            assert_eq!(
                root_children(&search(13, 500, params.clone())),
                root_children(&search(13, 500, params))
            );
        }
    }

    #[test]
    fn puct_follows_the_refined_probabilities() {
        // Refined at once, the root's children keep the oracle's probabilities; with a large
        // coefficient the visits of a short search follow them (0.8 for the winning take),
        // where without refinement the three takes share alike.
        let share = |refine_visits: u32| -> f64 {
            let params = SearchParams {
                refine_visits,
                puct: 8.0,
                puct_prior_visits: false,
                ..SearchParams::default()
            };
            let children = root_children(&search(10, 60, params));
            let total: u32 = children.iter().map(|child| child.1).sum();
            let mut winning = 0;
            for &(take, visits, virtual_visits, policy) in &children {
                assert_eq!(virtual_visits, 0);
                let expected = match (refine_visits, take) {
                    (0, _) => 0,
                    (_, 2) => 52_428,
                    _ => 6_554,
                };
                assert_eq!(policy, expected);
                if take == 2 {
                    winning = visits;
                }
            }
            f64::from(winning) / f64::from(total)
        };
        let (refined, even) = (share(1_000), share(0));
        assert!(refined > 0.7 && even < 0.5, "{refined} {even}");
    }

    #[test]
    fn nodes_with_enough_visits_get_refined_priors() {
        let params = SearchParams {
            refine_visits: 30,
            ..SearchParams::default()
        };
        let tree = search(10, 300, params);
        let root = tree.root();
        assert_eq!(root.refinement.load(Relaxed), REFINED);
        for child in root.children().unwrap() {
            let node = tree.node(child);
            let winning = tree.point(child) == 2;
            assert_eq!(node.prior_visits.load(Relaxed), 50);
            assert_eq!(node.prior_wins.load(Relaxed), if winning { 100 } else { 0 });
            let visits = node.visits.load(Relaxed);
            let refinement = node.refinement.load(Relaxed);
            if node.children().is_none() || visits < 30 {
                assert_eq!(refinement, UNREFINED, "{visits} visits");
            } else {
                assert_eq!(refinement, REFINED, "{visits} visits");
            }
        }
    }
}
