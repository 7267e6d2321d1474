//! A network library that knows no game: residual convolutional networks over a board
//! given as a neighbour table (each point's 3x3 neighbourhood), in the design of the Go
//! programs since AlphaGo Zero (a 3x3 stem, residual blocks of two 3x3 convolutions, heads
//! on the trunk's output; KataGo, arXiv 1902.10565). One set of weights runs on any board a
//! table describes, so a game may train one network over several sizes.
//!
//! Read in order: `layout` (dimensions, where the parameters lie, the neighbour table),
//! `pool` (the trunk's global pooling bias, KataGo's), `forward` (the forward pass as training runs it: unfolding and matrix products, the
//! activations kept), `inference` (the same trunk as the engine runs it: direct AVX-512,
//! AVX2/FMA or portable kernels), `winograd` (the same trunk on a square board by Winograd's
//! minimal filtering, fewer multiplications), `head` (the pooled head and the point head, forward and
//! backward), `train` (the backward pass, AdamW, the shared training
//! loop over size groups and symmetries), `file` (the versioned weight file that names a
//! network's kind and dimensions). A game brings its input planes, its heads, their
//! losses and its file format: Go's are in [`crate::go::search::network`],
//! [`crate::go::search::value`] and [`crate::go::learn`].
//!
//! Knows nothing of any game, the tree or GTP.

pub mod file;
pub mod forward;
pub mod head;
pub mod inference;
pub mod layout;
pub mod pool;
pub mod train;
pub mod winograd;

/// Values for the tests of the passes: a seeded sequence, no random-number crate.
#[cfg(test)]
pub(crate) mod test_values {
    /// `count` values in `[-scale / 2, scale / 2)` from a linear congruential sequence.
    pub fn pseudo_random(count: usize, mut state: u64, scale: f32) -> Vec<f32> {
        (0..count)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * scale
            })
            .collect()
    }

    /// `count` input planes' values, each 0 or 1, from the same sequence.
    pub fn pseudo_planes(count: usize, state: u64) -> Vec<f32> {
        pseudo_random(count, state, 2.0)
            .into_iter()
            .map(|value| if value > 0.0 { 1.0 } else { 0.0 })
            .collect()
    }
}
