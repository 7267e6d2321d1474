//! Learned weights of the 3x3 shapes around the last move, for the heavy playouts: how much
//! more likely a strong player answers the last move on a neighbouring point with that shape
//! than elsewhere. A shape is the 16-bit code of [`crate::go::search::patterns::code_at`]
//! with the colours made relative to the player (own, opponent) and reduced over the eight
//! symmetries; the weights come from the same teacher and tool as the move model
//! (`ishi-train`, `models/README.md`) and ship as `models/go-playout.bin`.
//!
//! At load every raw code gets its gamma for each player to move, so a playout reads one
//! table entry per neighbour.
//!
//! File format (little-endian): the magic `ISHIPLAY`, the format version (u32), the weight of
//! answering elsewhere (f32), the weight of an unseen shape (f32), a u32 count, then that
//! many (u16 canonical code, f32 weight) pairs.
//!
//! Knows the 3x3 codes and nothing of boards or trees.

use crate::color::Color;
use crate::go::search::shipped::ShippedModel;
use std::collections::HashMap;

const MAGIC: &[u8; 8] = b"ISHIPLAY";
const FORMAT_VERSION: u32 = 1;
const CODES: usize = 1 << 16;

/// The code of the same neighbourhood with `color`'s stones as 1 and the opponent's as 2
/// (black is 1 in a raw code).
#[inline]
pub fn relative_code(code: u32, color: Color) -> u32 {
    match color {
        Color::Black => code,
        Color::White => {
            // Swap the values 1 and 2 of every 2-bit cell; 0 (empty) and 3 (edge) stay.
            let low = code & 0x5555;
            let high = (code >> 1) & 0x5555;
            let differ = low ^ high;
            code ^ (differ | differ << 1)
        }
    }
}

/// The smallest code over the eight symmetries of the ring (rotations shift the ring by two
/// cells, reflections reverse it).
pub fn canonical_code(code: u32) -> u32 {
    let cell = |index: usize| (code >> (2 * (index % 8))) & 3;
    let mut best = u32::MAX;
    for turn in 0..4 {
        for reflect in [false, true] {
            let mut image = 0;
            for position in 0..8 {
                let source = if reflect {
                    (2 + 8 - position + 2 * turn) % 8
                } else {
                    (position + 2 * turn) % 8
                };
                image |= cell(source) << (2 * position);
            }
            best = best.min(image);
        }
    }
    best
}

/// The learned shape weights and the weight of answering elsewhere.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutPatterns {
    /// Weight of each canonical code seen in training.
    pub weights: HashMap<u16, f32>,
    /// Weight of a shape not seen in training.
    pub unknown: f32,
    /// Weight of playing away from the last move.
    pub elsewhere: f32,
}

/// Gammas of every raw code for each player, ready for playouts.
pub struct PlayoutGammas {
    gammas: [Vec<f32>; 2],
    /// Gamma of playing away from the last move.
    pub elsewhere: f32,
}

impl std::fmt::Debug for PlayoutGammas {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "PlayoutGammas {{ elsewhere: {} }}",
            self.elsewhere
        )
    }
}

impl PlayoutGammas {
    /// The gamma of playing on a point whose neighbourhood has the raw code `code`.
    #[inline(always)]
    pub fn gamma(&self, code: u32, color: Color) -> f32 {
        self.gammas[color.index()][code as usize & (CODES - 1)]
    }
}

impl PlayoutPatterns {
    /// The weight of a relative code.
    pub fn weight(&self, relative: u32) -> f32 {
        self.weights
            .get(&(canonical_code(relative) as u16))
            .copied()
            .unwrap_or(self.unknown)
    }

    /// The gamma tables of every raw code.
    pub fn gammas(&self) -> PlayoutGammas {
        let table = |color: Color| -> Vec<f32> {
            (0..CODES as u32)
                .map(|code| self.weight(relative_code(code, color)).exp())
                .collect()
        };
        PlayoutGammas {
            gammas: [table(Color::Black), table(Color::White)],
            elsewhere: self.elsewhere.exp(),
        }
    }

    /// The weights as bytes in the format of the module header.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&self.elsewhere.to_le_bytes());
        bytes.extend_from_slice(&self.unknown.to_le_bytes());
        bytes.extend_from_slice(&(self.weights.len() as u32).to_le_bytes());
        let mut entries: Vec<(u16, f32)> = self.weights.iter().map(|(&k, &v)| (k, v)).collect();
        entries.sort_unstable_by_key(|&(code, _)| code);
        for (code, weight) in entries {
            bytes.extend_from_slice(&code.to_le_bytes());
            bytes.extend_from_slice(&weight.to_le_bytes());
        }
        bytes
    }

    /// Reads weights written by [`PlayoutPatterns::to_bytes`].
    ///
    /// # Errors
    /// A wrong magic or version, or a truncated or overlong file.
    pub fn from_bytes(bytes: &[u8]) -> Result<PlayoutPatterns, String> {
        let take = |start: usize, length: usize| -> Result<&[u8], String> {
            bytes
                .get(start..start + length)
                .ok_or_else(|| "the playout pattern file is truncated".to_string())
        };
        if take(0, 8)? != MAGIC {
            return Err("not a playout pattern file".to_string());
        }
        let word = |start: usize| -> Result<[u8; 4], String> {
            Ok(take(start, 4)?.try_into().unwrap_or([0; 4]))
        };
        let version = u32::from_le_bytes(word(8)?);
        if version != FORMAT_VERSION {
            return Err(format!(
                "playout pattern format {version}, expected {FORMAT_VERSION}"
            ));
        }
        let elsewhere = f32::from_le_bytes(word(12)?);
        let unknown = f32::from_le_bytes(word(16)?);
        let count = u32::from_le_bytes(word(20)?) as usize;
        if bytes.len() != 24 + 6 * count {
            return Err("the playout pattern file has the wrong length".to_string());
        }
        let mut weights = HashMap::with_capacity(count);
        for entry in 0..count {
            let start = 24 + 6 * entry;
            let code = u16::from_le_bytes(take(start, 2)?.try_into().unwrap_or([0; 2]));
            weights.insert(code, f32::from_le_bytes(word(start + 2)?));
        }
        Ok(PlayoutPatterns {
            weights,
            unknown,
            elsewhere,
        })
    }
}

/// The gammas of the shipped weights.
static GAMMAS: ShippedModel<PlayoutGammas> = ShippedModel::new(
    "playout pattern file",
    include_bytes!("../../../models/go-playout.bin"),
    |bytes| PlayoutPatterns::from_bytes(bytes).map(|patterns| patterns.gammas()),
);

/// The gammas of the shipped weights, built on first use; `None` (with a warning in the
/// log) if the file does not read.
pub fn shipped() -> Option<&'static PlayoutGammas> {
    GAMMAS.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_swap_and_symmetries_agree() {
        // Cells: own stone at position 0, opponent at 3, edge at 5.
        let code = 1 | 2 << 6 | 3 << 10;
        let swapped = relative_code(code, Color::White);
        assert_eq!(swapped, 2 | 1 << 6 | 3 << 10);
        assert_eq!(relative_code(swapped, Color::White), code);
        // Every rotation and reflection of a shape has the same canonical code.
        let canonical = canonical_code(code);
        let rotate = |code: u32| (code << 4 | code >> 12) & 0xffff;
        let mut image = code;
        for _ in 0..4 {
            image = rotate(image);
            assert_eq!(canonical_code(image), canonical);
        }
        let reflect = |code: u32| {
            let mut out = 0;
            for position in 0..8 {
                out |= ((code >> (2 * ((10 - position) % 8))) & 3) << (2 * position);
            }
            out
        };
        assert_eq!(canonical_code(reflect(code)), canonical);
        assert_ne!(canonical_code(1), canonical_code(2));
    }

    #[test]
    fn round_trips() {
        let mut weights = HashMap::new();
        weights.insert(canonical_code(1) as u16, 0.5);
        let patterns = PlayoutPatterns {
            weights,
            unknown: -0.25,
            elsewhere: 1.0,
        };
        let read = PlayoutPatterns::from_bytes(&patterns.to_bytes()).unwrap();
        assert_eq!(read, patterns);
        let gammas = read.gammas();
        // An own stone on another diagonal is the same shape; an opponent's is not.
        assert!((gammas.gamma(1 << 4, Color::Black) - 0.5f32.exp()).abs() < 1e-6);
        assert!((gammas.gamma(2, Color::White) - 0.5f32.exp()).abs() < 1e-6);
        assert!((gammas.gamma(2, Color::Black) - (-0.25f32).exp()).abs() < 1e-6);
        assert!(PlayoutPatterns::from_bytes(&patterns.to_bytes()[..20]).is_err());
    }
}
