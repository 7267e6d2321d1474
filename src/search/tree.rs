//! The search tree: nodes with atomic statistics in a chunked arena that many threads grow
//! at once without locks. A node is one move (its statistics are from the view of the player
//! who made it); its children lie contiguously in the arena. Visits are counted on the way
//! down (a virtual loss until the result arrives), wins on the way back. The arena never
//! grows past its byte budget: when it is full, leaves simply stop expanding.
//!
//! Knows nothing of Go beyond "a move is a point index, 0 is a pass".

use std::sync::atomic::{AtomicI64, AtomicU16, AtomicU32, AtomicU8, Ordering::*};
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

/// One node: 40 bytes.
#[derive(Default)]
pub struct Node {
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
    /// The move's point index (0 for pass).
    pub point: AtomicU16,
    /// [`LEAF`], [`EXPANDING`], [`EXPANDED`], [`TERMINAL_WIN`] or [`TERMINAL_LOSS`].
    pub state: AtomicU8,
    /// Whether the children's priors were refined by the game's costlier knowledge:
    /// [`UNREFINED`], [`REFINING`] or [`REFINED`] (in the node's padding: no extra bytes).
    pub refinement: AtomicU8,
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
}

impl Node {
    /// The numbers of this node.
    pub fn statistics(&self) -> NodeStatistics {
        NodeStatistics {
            point: self.point.load(Relaxed),
            visits: self.visits.load(Relaxed),
            wins: self.wins.load(Relaxed),
            amaf_visits: self.amaf_visits.load(Relaxed),
            amaf_wins: self.amaf_wins.load(Relaxed),
            prior_visits: self.prior_visits.load(Relaxed),
            prior_wins: self.prior_wins.load(Relaxed),
            score_sum: self.score_sum.load(Relaxed),
        }
    }

    /// The numbers selection reads (score and point left at zero).
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

    /// Initialises a fresh node for `point` with a prior.
    #[inline]
    pub fn initialise(&self, point: u16, prior_visits: u16, prior_wins: u16) {
        self.point.store(point, Relaxed);
        self.prior_visits.store(prior_visits, Relaxed);
        self.prior_wins.store(prior_wins, Relaxed);
    }

    /// Copies statistics (not children) from another node.
    fn copy_statistics(&self, other: &Node) {
        let numbers = other.statistics();
        self.point.store(numbers.point, Relaxed);
        self.visits.store(numbers.visits, Relaxed);
        self.wins.store(numbers.wins, Relaxed);
        self.amaf_visits.store(numbers.amaf_visits, Relaxed);
        self.amaf_wins.store(numbers.amaf_wins, Relaxed);
        self.prior_visits.store(numbers.prior_visits, Relaxed);
        self.prior_wins.store(numbers.prior_wins, Relaxed);
        self.score_sum.store(numbers.score_sum, Relaxed);
    }
}

const CHUNK_BITS: u32 = 14;
const CHUNK_NODES: usize = 1 << CHUNK_BITS;
const CHUNK_MASK: u32 = (CHUNK_NODES as u32) - 1;

/// The arena of nodes. Node 0 is the root.
pub struct Tree {
    chunks: Vec<OnceLock<Box<[Node]>>>,
    next_free: AtomicU32,
    capacity: u32,
}

impl Tree {
    /// A tree holding at most `max_bytes` of nodes (but always room for the root and one
    /// full set of its children, `minimum_nodes`), with a fresh root.
    pub fn new(max_bytes: usize, minimum_nodes: usize) -> Tree {
        let nodes = (max_bytes / std::mem::size_of::<Node>())
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
        let chunk = self.chunks[(index >> CHUNK_BITS) as usize]
            .get()
            .expect("tree node index beyond the allocated chunks");
        &chunk[(index & CHUNK_MASK) as usize]
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
        self.chunks[(start >> CHUNK_BITS) as usize]
            .get_or_init(|| (0..CHUNK_NODES).map(|_| Node::default()).collect());
        Some(start)
    }

    /// The nodes of an arena range handed out by one [`Tree::allocate`] call.
    ///
    /// # Panics
    /// When the range was not handed out (a bug).
    #[inline(always)]
    pub fn slice(&self, range: std::ops::Range<u32>) -> &[Node] {
        let chunk = self.chunks[(range.start >> CHUNK_BITS) as usize]
            .get()
            .expect("tree range beyond the allocated chunks");
        let offset = (range.start & CHUNK_MASK) as usize;
        &chunk[offset..offset + range.len()]
    }

    /// Nodes handed out so far.
    pub fn node_count(&self) -> usize {
        (self.next_free.load(Relaxed).min(self.capacity)) as usize
    }

    /// Bytes of node storage reserved so far.
    pub fn bytes_used(&self) -> usize {
        self.chunks
            .iter()
            .filter(|chunk| chunk.get().is_some())
            .count()
            * CHUNK_NODES
            * std::mem::size_of::<Node>()
    }

    /// Whether the byte budget is (nearly) used up: less than one board's children left.
    pub fn is_full(&self) -> bool {
        self.next_free.load(Relaxed) >= self.capacity
    }

    /// Maximum number of nodes.
    pub fn capacity(&self) -> usize {
        self.capacity as usize
    }

    /// A new tree of the same budget whose root is a copy of the subtree at `index`
    /// (statistics and all expanded descendants). Terminal marks are dropped: whether a
    /// position is final is decided again for each search.
    pub fn extract(&self, index: u32, minimum_nodes: usize) -> Tree {
        let tree = Tree::new(
            self.capacity as usize * std::mem::size_of::<Node>(),
            minimum_nodes,
        );
        tree.root().copy_statistics(self.node(index));
        let mut pending: Vec<(u32, u32)> = vec![(index, 0)];
        while let Some((from, to)) = pending.pop() {
            let Some(children) = self.node(from).children() else {
                continue;
            };
            let count = children.len();
            let Some(first) = tree.allocate(count) else {
                continue;
            };
            for (offset, child) in children.enumerate() {
                let target = first + offset as u32;
                tree.node(target).copy_statistics(self.node(child));
                pending.push((child, target));
            }
            let target = tree.node(to);
            if self.node(from).refinement.load(Relaxed) == REFINED {
                target.refinement.store(REFINED, Relaxed);
            }
            target.first_child.store(first, Relaxed);
            target.child_count.store(count as u16, Relaxed);
            target.state.store(EXPANDED, Release);
        }
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_small() {
        assert!(std::mem::size_of::<Node>() <= 40);
    }

    #[test]
    fn allocation_stops_at_the_budget() {
        let tree = Tree::new(std::mem::size_of::<Node>() * 100, 10);
        assert!(tree.allocate(50).is_some());
        assert!(tree.allocate(60).is_none());
        assert!(tree.allocate(49).is_some());
        assert!(tree.is_full());
        assert_eq!(tree.node_count(), 100);
    }

    #[test]
    fn allocations_never_straddle_chunks() {
        let tree = Tree::new(std::mem::size_of::<Node>() * CHUNK_NODES * 3, 10);
        let mut total = 1;
        while let Some(start) = tree.allocate(700) {
            let end = start + 699;
            assert_eq!(start >> CHUNK_BITS, end >> CHUNK_BITS);
            assert_eq!(tree.slice(start..start + 700).len(), 700);
            total += 700;
        }
        assert!(total > CHUNK_NODES * 2);
    }

    #[test]
    fn extract_keeps_the_subtree() {
        let tree = Tree::new(1 << 20, 10);
        let first = tree.allocate(3).unwrap();
        for offset in 0..3 {
            let child = tree.node(first + offset);
            child.initialise(10 + offset as u16, 4, 4);
            child.visits.store(offset + 1, Relaxed);
        }
        tree.root().first_child.store(first, Relaxed);
        tree.root().child_count.store(3, Relaxed);
        tree.root().state.store(EXPANDED, Release);
        let grandchildren = tree.allocate(2).unwrap();
        tree.node(grandchildren).initialise(20, 0, 0);
        tree.node(grandchildren + 1).initialise(21, 0, 0);
        let middle = tree.node(first + 1);
        middle.first_child.store(grandchildren, Relaxed);
        middle.child_count.store(2, Relaxed);
        middle.state.store(EXPANDED, Release);
        middle.refinement.store(REFINED, Relaxed);

        let copy = tree.extract(first + 1, 10);
        assert_eq!(copy.root().statistics().visits, 2);
        assert_eq!(copy.root().refinement.load(Relaxed), REFINED);
        assert_eq!(copy.root().statistics().point, 11);
        let children: Vec<u16> = copy
            .root()
            .children()
            .unwrap()
            .map(|index| copy.node(index).statistics().point)
            .collect();
        assert_eq!(children, vec![20, 21]);
        assert_eq!(copy.node_count(), 3);
    }
}
