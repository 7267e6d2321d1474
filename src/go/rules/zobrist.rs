//! Zobrist keys: fixed pseudo-random 64-bit numbers per (colour, point), the same in every run
//! so hashes are reproducible. Knows nothing of boards beyond the largest array length.

use crate::go::rules::point::{array_length, MAX_SIZE};

/// Number of per-point keys: enough for the largest board.
pub const KEY_COUNT: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;

const fn split_mix(state: u64) -> u64 {
    let mut mixed = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    mixed ^ (mixed >> 31)
}

const fn make_keys(salt: u64) -> [u64; KEY_COUNT] {
    let mut keys = [0u64; KEY_COUNT];
    let mut index = 0;
    while index < KEY_COUNT {
        keys[index] = split_mix(salt.wrapping_mul(1_000_003).wrapping_add(index as u64));
        index += 1;
    }
    keys
}

/// Keys for black stones, indexed by point.
pub static BLACK_KEYS: [u64; KEY_COUNT] = make_keys(0x1234_5678);
/// Keys for white stones, indexed by point.
pub static WHITE_KEYS: [u64; KEY_COUNT] = make_keys(0x8765_4321);
/// Mixed into a hash when white is to move (situational superko).
pub const WHITE_TO_MOVE_KEY: u64 = split_mix(0xDEAD_BEEF);

const _: () = assert!(KEY_COUNT >= 703);

/// Checks that the tables cover the largest board (used by tests).
pub fn covers_largest_board() -> bool {
    array_length(MAX_SIZE) <= KEY_COUNT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_cover_the_board() {
        assert!(covers_largest_board());
        let mut all: Vec<u64> = BLACK_KEYS
            .iter()
            .chain(WHITE_KEYS.iter())
            .copied()
            .collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * KEY_COUNT);
    }
}
