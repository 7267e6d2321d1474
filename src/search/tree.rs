//! The search tree: nodes with atomic statistics in a chunked arena that many threads grow
//! at once without locks. A node is one move (its statistics are from the view of the player
//! who made it); its children lie contiguously in the arena. The moves' points lie apart from
//! the nodes, in an array of their own beside each chunk: they never change once a node is
//! created, so the AMAF backup's scan over a node's children reads a few cache lines that no
//! other thread writes, instead of one line per child that every thread does. Visits are
//! counted on the way down (a virtual loss until the result arrives), wins on the way back. The arena never
//! grows past its byte budget: when it is full, leaves simply stop expanding. Between moves
//! the subtree of the move played is kept in place (moved down the same arena), so reuse
//! never needs a second arena.
//!
//! Knows nothing of Go beyond "a move is a point index, 0 is a pass".

use std::sync::atomic::{AtomicI64, AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::*};
use std::sync::OnceLock;

/// Results are counted in half wins so that a draw (jigo) is one unit.
pub const RESULT_SCALE: u32 = 2;

/// A leaf: no children yet.
pub const LEAF: u8 = 0;
/// A thread is creating the children.
pub const EXPANDING: u8 = 1;
/// The children exist.
pub const EXPANDED: u8 = 2;
/// The game is over here and the mover won (no playout needed).
pub const TERMINAL_WIN: u8 = 3;
/// The game is over here and the mover lost.
pub const TERMINAL_LOSS: u8 = 4;

/// One node: 48 bytes (its point, 2 bytes more, is kept by the [`Tree`] beside it).
#[derive(Default)]
pub struct Node {
    /// The node's selection urgency as its parent sees it (`f64` bits), refreshed by the
    /// search whenever the statistics below change, so that choosing among siblings reads
    /// one number per child instead of computing it from six. It depends on the search
    /// parameters too: a tree lives under one set of them (the drivers drop it when they
    /// change).
    pub urgency: AtomicU64,
    /// Real visits, including visits still in flight (virtual loss).
    pub visits: AtomicU32,
    /// Results for the mover, in units of 1/[`RESULT_SCALE`] win.
    pub wins: AtomicU32,
    /// All-moves-as-first visits (distance-weighted).
    pub amaf_visits: AtomicU32,
    /// All-moves-as-first results, same units as `wins`, same weights as `amaf_visits`.
    pub amaf_wins: AtomicU32,
    /// Sum of final score margins for the mover, in half points.
    pub score_sum: AtomicI64,
    /// Prior: virtual visits.
    pub prior_visits: AtomicU16,
    /// Prior: virtual results, in units of 1/[`RESULT_SCALE`] win.
    pub prior_wins: AtomicU16,
    /// Arena index of the first child (valid once `state` is [`EXPANDED`]).
    pub first_child: AtomicU32,
    /// Number of children.
    pub child_count: AtomicU16,
    /// [`LEAF`], [`EXPANDING`], [`EXPANDED`], [`TERMINAL_WIN`] or [`TERMINAL_LOSS`].
    pub state: AtomicU8,
    /// Whether the children's priors were refined by the game's costlier knowledge:
    /// [`UNREFINED`], [`REFINING`] or [`REFINED`] (in the node's padding: no extra bytes).
    pub refinement: AtomicU8,
    /// The node's place among its siblings by prior value, 0 the best (set with the priors,
    /// in the node's padding): progressive widening opens the siblings in this order.
    pub rank: AtomicU16,
    /// The game's learned value of the node's position, kept once asked (in the node's
    /// padding: the leaf evaluation cache, moved with the node by tree reuse): 0 not yet
    /// asked, else 1 + the probability that Black wins times [`VALUE_SCALE`].
    pub value: AtomicU16,
}

/// The resolution of a node's kept value.
pub const VALUE_SCALE: f64 = 65_534.0;

/// A node's kept value for the probability `black_wins`.
pub fn encode_value(black_wins: f64) -> u16 {
    1 + (black_wins.clamp(0.0, 1.0) * VALUE_SCALE).round() as u16
}

/// The probability that Black wins of a kept value, `None` for 0 (not asked).
pub fn decode_value(value: u16) -> Option<f64> {
    (value > 0).then(|| f64::from(value - 1) / VALUE_SCALE)
}

/// The children keep the priors they were created with.
pub const UNREFINED: u8 = 0;
/// A thread is refining the children's priors.
pub const REFINING: u8 = 1;
/// The children's priors were refined.
pub const REFINED: u8 = 2;

/// A plain copy of a node's numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NodeStatistics {
    /// The move's point index (0 for pass).
    pub point: u16,
    /// Real visits.
    pub visits: u32,
    /// Real results (half wins).
    pub wins: u32,
    /// AMAF visits.
    pub amaf_visits: u32,
    /// AMAF results (half wins).
    pub amaf_wins: u32,
    /// Prior visits.
    pub prior_visits: u16,
    /// Prior results (half wins).
    pub prior_wins: u16,
    /// Score sum in half points.
    pub score_sum: i64,
    /// Place among the siblings by prior value (0 the best).
    pub rank: u16,
    /// The kept value ([`Node::value`]).
    pub value: u16,
    /// The move's probability among its siblings, in units of 1/[`POLICY_SCALE`] (0 for
    /// none given), kept beside the node like its point ([`Tree::policy`]).
    pub policy: u16,
}

impl Node {
    /// The numbers of this node, its point and policy left at zero ([`Tree::statistics`] has
    /// them).
    fn numbers(&self) -> NodeStatistics {
        NodeStatistics {
            point: 0,
            visits: self.visits.load(Relaxed),
            wins: self.wins.load(Relaxed),
            amaf_visits: self.amaf_visits.load(Relaxed),
            amaf_wins: self.amaf_wins.load(Relaxed),
            prior_visits: self.prior_visits.load(Relaxed),
            prior_wins: self.prior_wins.load(Relaxed),
            score_sum: self.score_sum.load(Relaxed),
            rank: self.rank.load(Relaxed),
            value: self.value.load(Relaxed),
            policy: 0,
        }
    }

    /// The numbers selection reads (score, point and policy left at zero).
    #[inline(always)]
    pub fn selection_statistics(&self) -> NodeStatistics {
        NodeStatistics {
            point: 0,
            visits: self.visits.load(Relaxed),
            wins: self.wins.load(Relaxed),
            amaf_visits: self.amaf_visits.load(Relaxed),
            amaf_wins: self.amaf_wins.load(Relaxed),
            prior_visits: self.prior_visits.load(Relaxed),
            prior_wins: self.prior_wins.load(Relaxed),
            score_sum: 0,
            rank: 0,
            value: 0,
            policy: 0,
        }
    }

    /// The children's arena range, if expanded.
    #[inline]
    pub fn children(&self) -> Option<std::ops::Range<u32>> {
        if self.state.load(Acquire) == EXPANDED {
            let first = self.first_child.load(Relaxed);
            Some(first..first + self.child_count.load(Relaxed) as u32)
        } else {
            None
        }
    }

    /// Sets the numbers of this node (not its point, children or state).
    fn copy_numbers(&self, numbers: &NodeStatistics) {
        self.visits.store(numbers.visits, Relaxed);
        self.wins.store(numbers.wins, Relaxed);
        self.amaf_visits.store(numbers.amaf_visits, Relaxed);
        self.amaf_wins.store(numbers.amaf_wins, Relaxed);
        self.prior_visits.store(numbers.prior_visits, Relaxed);
        self.prior_wins.store(numbers.prior_wins, Relaxed);
        self.score_sum.store(numbers.score_sum, Relaxed);
        self.rank.store(numbers.rank, Relaxed);
        self.value.store(numbers.value, Relaxed);
    }
}

const CHUNK_BITS: u32 = 14;
const CHUNK_NODES: usize = 1 << CHUNK_BITS;
const CHUNK_MASK: u32 = (CHUNK_NODES as u32) - 1;

/// One chunk of the arena: its nodes and, at the same offsets, their points and their moves'
/// probabilities (read only by PUCT selection: kept apart so that the nodes stay 48 bytes).
pub struct Chunk {
    nodes: Box<[Node]>,
    points: Box<[AtomicU16]>,
    policies: Box<[AtomicU16]>,
}

impl Chunk {
    fn new() -> Chunk {
        Chunk {
            nodes: (0..CHUNK_NODES).map(|_| Node::default()).collect(),
            points: (0..CHUNK_NODES).map(|_| AtomicU16::new(0)).collect(),
            policies: (0..CHUNK_NODES).map(|_| AtomicU16::new(0)).collect(),
        }
    }
}

/// Bytes a node takes in the arena: the node, its point and its move's probability.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>() + 2 * std::mem::size_of::<AtomicU16>();

/// The unit of a move's kept probability ([`NodeStatistics::policy`]): 1/65,535.
pub const POLICY_SCALE: f64 = 65_535.0;

/// The arena of nodes. Node 0 is the root.
pub struct Tree {
    chunks: Vec<OnceLock<Chunk>>,
    next_free: AtomicU32,
    capacity: u32,
}

impl Tree {
    /// A tree holding at most `max_bytes` of nodes (but always room for the root and one
    /// full set of its children, `minimum_nodes`), with a fresh root.
    pub fn new(max_bytes: usize, minimum_nodes: usize) -> Tree {
        let nodes = (max_bytes / NODE_BYTES)
            .max(minimum_nodes + 1)
            .min(u32::MAX as usize / 2);
        let chunk_count = nodes.div_ceil(CHUNK_NODES);
        let tree = Tree {
            chunks: (0..chunk_count).map(|_| OnceLock::new()).collect(),
            next_free: AtomicU32::new(0),
            capacity: nodes as u32,
        };
        let _root = tree.allocate(1);
        tree
    }

    /// The node at arena `index`.
    ///
    /// # Panics
    /// When `index` was never handed out by [`Tree::allocate`] (a bug).
    #[inline(always)]
    pub fn node(&self, index: u32) -> &Node {
        let (chunk, offset) = self.place(index);
        &chunk.nodes[offset]
    }

    /// The chunk holding arena `index`, and the index's offset in it.
    #[inline(always)]
    fn place(&self, index: u32) -> (&Chunk, usize) {
        let chunk = self.chunks[(index >> CHUNK_BITS) as usize]
            .get()
            .expect("tree node index beyond the allocated chunks");
        (chunk, (index & CHUNK_MASK) as usize)
    }

    /// The point of the move of the node at arena `index` (0 for pass).
    #[inline(always)]
    pub fn point(&self, index: u32) -> u16 {
        let (chunk, offset) = self.place(index);
        chunk.points[offset].load(Relaxed)
    }

    /// The kept probability of the move of the node at arena `index`
    /// ([`NodeStatistics::policy`]).
    #[inline(always)]
    pub fn policy(&self, index: u32) -> u16 {
        let (chunk, offset) = self.place(index);
        chunk.policies[offset].load(Relaxed)
    }

    /// Keeps `policy` as the probability of the move of the node at arena `index`.
    #[inline]
    pub fn set_policy(&self, index: u32, policy: u16) {
        let (chunk, offset) = self.place(index);
        chunk.policies[offset].store(policy, Relaxed);
    }

    /// The kept probabilities of the moves of an arena range handed out by one
    /// [`Tree::allocate`] call, at the same offsets as [`Tree::slice`]'s nodes.
    #[inline(always)]
    pub fn policies(&self, range: std::ops::Range<u32>) -> &[AtomicU16] {
        let (chunk, offset) = self.place(range.start);
        &chunk.policies[offset..offset + range.len()]
    }

    /// The numbers of the node at arena `index`, its point and policy included.
    pub fn statistics(&self, index: u32) -> NodeStatistics {
        NodeStatistics {
            point: self.point(index),
            policy: self.policy(index),
            ..self.node(index).numbers()
        }
    }

    /// Initialises the fresh node at arena `index` for `point` with a prior; returns it.
    #[inline]
    pub fn initialise(&self, index: u32, point: u16, prior_visits: u16, prior_wins: u16) -> &Node {
        let (chunk, offset) = self.place(index);
        chunk.points[offset].store(point, Relaxed);
        let node = &chunk.nodes[offset];
        node.prior_visits.store(prior_visits, Relaxed);
        node.prior_wins.store(prior_wins, Relaxed);
        node
    }

    /// The root node.
    #[inline(always)]
    pub fn root(&self) -> &Node {
        self.node(0)
    }

    /// Reserves `count` (at most one chunk's worth) contiguous fresh nodes, all in one
    /// chunk so that they can be read as a slice; `None` when the byte budget is used up.
    pub fn allocate(&self, count: usize) -> Option<u32> {
        let count = count.min(CHUNK_NODES) as u32;
        let mut current = self.next_free.load(Relaxed);
        let start = loop {
            let mut start = current;
            if count > 0 && (start & CHUNK_MASK) + count > CHUNK_NODES as u32 {
                // Would straddle two chunks: begin at the next chunk.
                start = (start | CHUNK_MASK).checked_add(1)?;
            }
            let end = start.checked_add(count)?;
            if end > self.capacity {
                return None;
            }
            match self
                .next_free
                .compare_exchange_weak(current, end, Relaxed, Relaxed)
            {
                Ok(_) => break start,
                Err(actual) => current = actual,
            }
        };
        self.chunks[(start >> CHUNK_BITS) as usize].get_or_init(Chunk::new);
        Some(start)
    }

    /// The nodes of an arena range handed out by one [`Tree::allocate`] call.
    ///
    /// # Panics
    /// When the range was not handed out (a bug).
    #[inline(always)]
    pub fn slice(&self, range: std::ops::Range<u32>) -> &[Node] {
        let (chunk, offset) = self.place(range.start);
        &chunk.nodes[offset..offset + range.len()]
    }

    /// The points of the nodes of an arena range handed out by one [`Tree::allocate`] call,
    /// at the same offsets as [`Tree::slice`]'s nodes.
    ///
    /// # Panics
    /// When the range was not handed out (a bug).
    #[inline(always)]
    pub fn points(&self, range: std::ops::Range<u32>) -> &[AtomicU16] {
        let (chunk, offset) = self.place(range.start);
        &chunk.points[offset..offset + range.len()]
    }

    /// Nodes handed out so far.
    pub fn node_count(&self) -> usize {
        (self.next_free.load(Relaxed).min(self.capacity)) as usize
    }

    /// Bytes of node storage (nodes and points) reserved so far.
    pub fn bytes_used(&self) -> usize {
        self.chunks
            .iter()
            .filter(|chunk| chunk.get().is_some())
            .count()
            * CHUNK_NODES
            * NODE_BYTES
    }

    /// Whether the byte budget is (nearly) used up: less than one board's children left.
    pub fn is_full(&self) -> bool {
        self.next_free.load(Relaxed) >= self.capacity
    }

    /// Maximum number of nodes.
    pub fn capacity(&self) -> usize {
        self.capacity as usize
    }

    /// Keeps only the subtree at `index` (statistics and all expanded descendants), with
    /// that node as the new root, in place: the kept nodes move down the arena in arena
    /// order (each to an index no higher than its own, so no kept node is overwritten before
    /// it has moved), the rest of the used arena is cleared for reuse, and chunks past the
    /// kept nodes are freed. No second arena exists at any moment, so the tree never holds
    /// more than its budget. Terminal marks are dropped: whether a position is final is
    /// decided again for each search. `index` 0 keeps everything as it is. Returns the freed
    /// chunks, for the caller to drop where the time it takes does not matter.
    #[must_use = "the freed chunks are dropped where this result is"]
    pub fn keep_subtree(&mut self, index: u32) -> Vec<Chunk> {
        if index == 0 {
            return Vec::new();
        }
        let used = self.node_count() as u32;
        // The kept sibling runs: (old first index, length), found from the new root down.
        let mut runs: Vec<(u32, u32)> = Vec::new();
        let mut pending = vec![index];
        while let Some(parent) = pending.pop() {
            if let Some(children) = self.node(parent).children() {
                runs.push((children.start, children.len() as u32));
                pending.extend(children);
            }
        }
        runs.sort_unstable();
        // New places in the same order, with the rule of `allocate` (a run never straddles
        // two chunks); the root takes index 0.
        let mut moved = std::collections::HashMap::with_capacity(runs.len());
        let mut cursor = 1u32;
        for &(first, length) in &runs {
            if (cursor & CHUNK_MASK) + length > CHUNK_NODES as u32 {
                cursor = (cursor | CHUNK_MASK) + 1;
            }
            moved.insert(first, cursor);
            cursor += length;
        }
        let new_place = |node: &Node| -> Option<(u32, u16, bool)> {
            node.children().map(|children| {
                (
                    moved[&children.start],
                    children.len() as u16,
                    node.refinement.load(Relaxed) == REFINED,
                )
            })
        };
        // The root first: its old place may be overwritten by a moved run.
        let root = self.node(index);
        let root_numbers = self.statistics(index);
        let root_children = new_place(root);
        let root_urgency = root.urgency.load(Relaxed);
        self.write(0, &root_numbers, root_children);
        self.node(0).urgency.store(root_urgency, Relaxed);
        for &(first, length) in &runs {
            let target = moved[&first];
            for offset in 0..length {
                let node = self.node(first + offset);
                let numbers = self.statistics(first + offset);
                let children = new_place(node);
                let urgency = node.urgency.load(Relaxed);
                self.write(target + offset, &numbers, children);
                self.node(target + offset).urgency.store(urgency, Relaxed);
            }
        }
        // Give back the chunks past the kept nodes (a later chunk comes fresh from the
        // allocator), and clear the used rest of the last kept chunk.
        let first_free_chunk = (cursor as usize).div_ceil(CHUNK_NODES);
        let freed: Vec<Chunk> = self.chunks[first_free_chunk..]
            .iter_mut()
            .filter_map(OnceLock::take)
            .collect();
        let chunk_end = (first_free_chunk * CHUNK_NODES) as u32;
        for stale in cursor..used.min(chunk_end) {
            self.clear(stale);
        }
        self.next_free.store(cursor, Relaxed);
        freed
    }

    /// Overwrites the node at arena `index` with `numbers` (its point included) and, when
    /// given, its children (first index, count, whether refined); without children it
    /// becomes an unrefined leaf.
    fn write(&self, index: u32, numbers: &NodeStatistics, children: Option<(u32, u16, bool)>) {
        let (chunk, offset) = self.place(index);
        chunk.points[offset].store(numbers.point, Relaxed);
        chunk.policies[offset].store(numbers.policy, Relaxed);
        let node = &chunk.nodes[offset];
        node.copy_numbers(numbers);
        let (first, count, refined) = children.unwrap_or((0, 0, false));
        node.first_child.store(first, Relaxed);
        node.child_count.store(count, Relaxed);
        node.refinement
            .store(if refined { REFINED } else { UNREFINED }, Relaxed);
        node.state
            .store(if children.is_some() { EXPANDED } else { LEAF }, Release);
    }

    /// Resets the node at arena `index` to a fresh one (all zeros, point too), as
    /// `allocate` hands nodes out.
    fn clear(&self, index: u32) {
        self.write(index, &NodeStatistics::default(), None);
        self.node(index).urgency.store(0, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_small() {
        const { assert!(std::mem::size_of::<Node>() <= 48) };
        const { assert!(NODE_BYTES <= 52) };
    }

    #[test]
    fn allocation_stops_at_the_budget() {
        let tree = Tree::new(NODE_BYTES * 100, 10);
        assert!(tree.allocate(50).is_some());
        assert!(tree.allocate(60).is_none());
        assert!(tree.allocate(49).is_some());
        assert!(tree.is_full());
        assert_eq!(tree.node_count(), 100);
    }

    #[test]
    fn allocations_never_straddle_chunks() {
        let tree = Tree::new(NODE_BYTES * CHUNK_NODES * 3, 10);
        let mut total = 1;
        while let Some(start) = tree.allocate(700) {
            let end = start + 699;
            assert_eq!(start >> CHUNK_BITS, end >> CHUNK_BITS);
            assert_eq!(tree.slice(start..start + 700).len(), 700);
            total += 700;
        }
        assert!(total > CHUNK_NODES * 2);
    }

    /// A tree with a root of three children (points 10-12) where the middle child has two
    /// children (20, 21) and is refined, and the last child is a terminal leaf.
    fn small_tree() -> (Tree, u32) {
        let tree = Tree::new(1 << 20, 10);
        let first = tree.allocate(3).unwrap();
        for offset in 0..3 {
            let child = tree.initialise(first + offset, 10 + offset as u16, 4, 4);
            child.visits.store(offset + 1, Relaxed);
        }
        tree.node(first + 2).state.store(TERMINAL_WIN, Relaxed);
        tree.root().first_child.store(first, Relaxed);
        tree.root().child_count.store(3, Relaxed);
        tree.root().state.store(EXPANDED, Release);
        let grandchildren = tree.allocate(2).unwrap();
        tree.initialise(grandchildren, 20, 0, 0);
        tree.initialise(grandchildren + 1, 21, 0, 0);
        tree.node(grandchildren + 1).wins.store(7, Relaxed);
        tree.set_policy(grandchildren + 1, 40_000);
        let middle = tree.node(first + 1);
        middle.first_child.store(grandchildren, Relaxed);
        middle.child_count.store(2, Relaxed);
        middle.state.store(EXPANDED, Release);
        middle.refinement.store(REFINED, Relaxed);
        (tree, first)
    }

    #[test]
    fn keep_subtree_keeps_the_subtree_in_place() {
        let (mut tree, first) = small_tree();
        assert!(tree.keep_subtree(first + 1).is_empty());
        assert_eq!(tree.statistics(0).visits, 2);
        assert_eq!(tree.statistics(0).point, 11);
        assert_eq!(tree.root().refinement.load(Relaxed), REFINED);
        let children: Vec<(u16, u32, u16)> = tree
            .root()
            .children()
            .unwrap()
            .map(|index| {
                let numbers = tree.statistics(index);
                (numbers.point, numbers.wins, numbers.policy)
            })
            .collect();
        // The moves' probabilities move with their nodes (PUCT reads them after reuse).
        assert_eq!(children, vec![(20, 0, 0), (21, 7, 40_000)]);
        assert_eq!(tree.node_count(), 3);
        // What is left past the kept nodes is fresh again.
        for stale in 3..6 {
            assert_eq!(tree.statistics(stale), NodeStatistics::default());
            assert_eq!(tree.node(stale).state.load(Relaxed), LEAF);
        }
        let next = tree.allocate(4).unwrap();
        assert_eq!(next, 3);
    }

    #[test]
    fn keep_subtree_drops_terminal_marks_and_keeping_the_root_changes_nothing() {
        let (mut tree, first) = small_tree();
        assert!(tree.keep_subtree(0).is_empty());
        assert_eq!(tree.node_count(), 6);
        assert!(tree.keep_subtree(first + 2).is_empty());
        assert_eq!(tree.root().state.load(Relaxed), LEAF);
        assert_eq!(tree.statistics(0).point, 12);
        assert_eq!(tree.node_count(), 1);
    }

    /// A random tree over several chunks (runs of 1 to 400 children), and the same tree
    /// after keeping a random subtree: every kept node's numbers and shape are the same as
    /// in a recursive comparison with the original, and the chunks past them are freed.
    #[test]
    fn keep_subtree_matches_the_original_on_random_trees() {
        let mut random = crate::search::random::Random::new(3);
        let mut freed_chunks = 0;
        for _ in 0..20 {
            let mut tree = Tree::new(NODE_BYTES * CHUNK_NODES * 6, 10);
            let mut leaves = vec![0u32];
            let mut serial = 0u32;
            while tree.node_count() < 4 * CHUNK_NODES {
                let parent = leaves.swap_remove(random.below(leaves.len()));
                let count = 1 + random.below(400);
                let Some(first) = tree.allocate(count) else {
                    break;
                };
                for offset in 0..count as u32 {
                    serial += 1;
                    let node = tree.initialise(first + offset, (serial % 60_000) as u16, 1, 1);
                    node.visits.store(serial, Relaxed);
                    node.score_sum.store(-(serial as i64), Relaxed);
                    node.urgency.store(u64::from(serial) << 20, Relaxed);
                    leaves.push(first + offset);
                }
                let node = tree.node(parent);
                node.first_child.store(first, Relaxed);
                node.child_count.store(count as u16, Relaxed);
                node.state.store(EXPANDED, Release);
            }
            // A copy of the original shape: (numbers, children) per node from the root.
            fn shape(tree: &Tree, index: u32) -> Vec<(NodeStatistics, u64, usize)> {
                let mut out = Vec::new();
                let mut pending = vec![index];
                while let Some(node) = pending.pop() {
                    let children: Vec<u32> =
                        tree.node(node).children().into_iter().flatten().collect();
                    let urgency = tree.node(node).urgency.load(Relaxed);
                    out.push((tree.statistics(node), urgency, children.len()));
                    pending.extend(children);
                }
                out
            }
            let children: Vec<u32> = tree.root().children().unwrap().collect();
            let kept = children[random.below(children.len())];
            let expected = shape(&tree, kept);
            let chunks_before = tree.bytes_used();
            let freed = tree.keep_subtree(kept);
            assert_eq!(shape(&tree, 0), expected);
            assert!(tree.node_count() >= expected.len());
            assert_eq!(
                tree.bytes_used() + freed.len() * CHUNK_NODES * NODE_BYTES,
                chunks_before
            );
            freed_chunks += freed.len();
            // The freed room is handed out again, fresh.
            while let Some(first) = tree.allocate(300) {
                for offset in 0..300 {
                    assert_eq!(tree.statistics(first + offset), NodeStatistics::default());
                    assert_eq!(tree.node(first + offset).urgency.load(Relaxed), 0);
                    assert!(tree.node(first + offset).children().is_none());
                }
            }
        }
        assert!(freed_chunks > 0, "no chunk was given back");
    }
}
