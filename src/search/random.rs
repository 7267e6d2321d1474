//! The search's random number generator: small, fast, seedable, identical on every
//! platform, so deterministic mode reproduces games. Knows nothing of games.

/// A small fast random number generator (xorshift64*), seeded through splitmix64.
#[derive(Clone, Debug)]
pub struct Random(u64);

impl Random {
    /// A generator from any seed (0 included).
    pub fn new(seed: u64) -> Random {
        let mut mixed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        mixed ^= mixed >> 31;
        Random(mixed | 1)
    }

    /// The next 64 random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        let mut state = self.0;
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        self.0 = state;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A uniform number in `0..bound` (`bound` > 0).
    #[inline(always)]
    pub fn below(&mut self, bound: usize) -> usize {
        (((self.next_u64() >> 32) * bound as u64) >> 32) as usize
    }

    /// True with probability `threshold` / 2^32.
    #[inline(always)]
    pub fn chance(&mut self, threshold: u64) -> bool {
        (self.next_u64() >> 32) < threshold
    }
}

/// A probability as a threshold for [`Random::chance`].
pub fn threshold(probability: f64) -> u64 {
    (probability.clamp(0.0, 1.0) * 4_294_967_296.0) as u64
}
