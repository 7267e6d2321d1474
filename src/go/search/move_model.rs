//! The learned move model: a generalised Bradley-Terry model (Coulom 2007) over the features
//! of [`crate::go::search::features`]. Every feature key has a weight (the logarithm of its
//! gamma); a move's strength is the sum of its features' weights, and the probability of a
//! move among the candidates is the softmax of those sums. Pattern groups keep a dictionary
//! of the patterns seen often enough in training plus one weight for every unseen pattern.
//!
//! The weights ship inside the binary (`models/go-moves.bin`, made by `ishi-train` from
//! teacher data; see `models/README.md`) and are read once, on first use.
//!
//! File format (little-endian): the magic `ISHIMOVE`, the format version (u32), the feature
//! version (u32), the group count (u32), then per group a kind byte: 0 a small group (a u32
//! count, then that many f32 weights indexed by key), 1 a pattern group (the f32 weight of an
//! unseen pattern, a u32 count, then that many (u64 key, f32 weight) pairs).
//!
//! Knows the feature keys and nothing of boards or trees.

use crate::go::search::features::{is_pattern_group, MoveFeatures, FEATURE_VERSION, GROUP_COUNT};
use crate::go::search::shipped::ShippedModel;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

const MAGIC: &[u8; 8] = b"ISHIMOVE";
const FORMAT_VERSION: u32 = 1;

/// A hasher for keys that are already (mostly) hashes: one multiply and a rotation.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ byte as u64).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
}

/// A dictionary from pattern keys to weights.
pub type PatternTable = HashMap<u64, f32, BuildHasherDefault<KeyHasher>>;

/// The weights of one group.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupWeights {
    /// Weights indexed by the key (key 0, "does not apply", is always 0).
    Small(Vec<f32>),
    /// A dictionary of patterns and the weight of every other pattern.
    Patterns {
        /// The weight of a pattern the dictionary lacks.
        unknown: f32,
        /// Known patterns.
        table: PatternTable,
    },
}

/// The model: the weights of every feature group.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveModel {
    groups: Vec<GroupWeights>,
}

impl MoveModel {
    /// A model from one [`GroupWeights`] per group.
    ///
    /// # Panics
    /// When the number of groups or a group's kind does not match the features.
    pub fn new(groups: Vec<GroupWeights>) -> MoveModel {
        assert_eq!(groups.len(), GROUP_COUNT);
        for (group, weights) in groups.iter().enumerate() {
            assert_eq!(
                matches!(weights, GroupWeights::Patterns { .. }),
                is_pattern_group(group)
            );
        }
        MoveModel { groups }
    }

    /// The weights of each group.
    pub fn groups(&self) -> &[GroupWeights] {
        &self.groups
    }

    /// The strength (log-gamma) of a move with these features.
    #[inline]
    pub fn strength(&self, features: &MoveFeatures) -> f32 {
        let mut sum = 0.0;
        for (weights, &key) in self.groups.iter().zip(features.iter()) {
            if key == 0 {
                continue;
            }
            sum += match weights {
                GroupWeights::Small(values) => values.get(key as usize).copied().unwrap_or(0.0),
                GroupWeights::Patterns { unknown, table } => {
                    table.get(&key).copied().unwrap_or(*unknown)
                }
            };
        }
        sum
    }

    /// The probability of each move among `moves` (a softmax of their strengths), written
    /// to `probabilities`.
    pub fn probabilities(&self, moves: &[MoveFeatures], probabilities: &mut Vec<f32>) {
        probabilities.clear();
        probabilities.extend(moves.iter().map(|features| self.strength(features)));
        softmax(probabilities);
    }

    /// The model as bytes in the file format of the module header.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&FEATURE_VERSION.to_le_bytes());
        bytes.extend_from_slice(&(self.groups.len() as u32).to_le_bytes());
        for weights in &self.groups {
            match weights {
                GroupWeights::Small(values) => {
                    bytes.push(0);
                    bytes.extend_from_slice(&(values.len() as u32).to_le_bytes());
                    for value in values {
                        bytes.extend_from_slice(&value.to_le_bytes());
                    }
                }
                GroupWeights::Patterns { unknown, table } => {
                    bytes.push(1);
                    bytes.extend_from_slice(&unknown.to_le_bytes());
                    bytes.extend_from_slice(&(table.len() as u32).to_le_bytes());
                    let mut entries: Vec<(u64, f32)> =
                        table.iter().map(|(&key, &value)| (key, value)).collect();
                    entries.sort_unstable_by_key(|&(key, _)| key);
                    for (key, value) in entries {
                        bytes.extend_from_slice(&key.to_le_bytes());
                        bytes.extend_from_slice(&value.to_le_bytes());
                    }
                }
            }
        }
        bytes
    }

    /// Reads a model written by [`MoveModel::to_bytes`].
    ///
    /// # Errors
    /// A wrong magic, format or feature version, group layout, or a truncated file.
    pub fn from_bytes(bytes: &[u8]) -> Result<MoveModel, String> {
        let mut reader = Reader { bytes, position: 0 };
        if reader.take(8)? != MAGIC {
            return Err("not a move model file".to_string());
        }
        let format = reader.u32()?;
        if format != FORMAT_VERSION {
            return Err(format!("model format {format}, expected {FORMAT_VERSION}"));
        }
        let features = reader.u32()?;
        if features != FEATURE_VERSION {
            return Err(format!(
                "model of feature version {features}, this engine computes {FEATURE_VERSION}"
            ));
        }
        let count = reader.u32()? as usize;
        if count != GROUP_COUNT {
            return Err(format!("model has {count} groups, expected {GROUP_COUNT}"));
        }
        let mut groups = Vec::with_capacity(count);
        for group in 0..count {
            let kind = reader.take(1)?[0];
            if (kind == 1) != is_pattern_group(group) || kind > 1 {
                return Err(format!("group {group} has the wrong kind {kind}"));
            }
            if kind == 0 {
                let length = reader.u32()? as usize;
                let values = (0..length)
                    .map(|_| reader.f32())
                    .collect::<Result<Vec<f32>, String>>()?;
                groups.push(GroupWeights::Small(values));
            } else {
                let unknown = reader.f32()?;
                let length = reader.u32()? as usize;
                let mut table = PatternTable::default();
                table.reserve(length);
                for _ in 0..length {
                    let key = reader.u64()?;
                    table.insert(key, reader.f32()?);
                }
                groups.push(GroupWeights::Patterns { unknown, table });
            }
        }
        if reader.position != bytes.len() {
            return Err("trailing bytes after the model".to_string());
        }
        Ok(MoveModel { groups })
    }

    /// Number of weights (dictionary entries and small-group values).
    pub fn weight_count(&self) -> usize {
        self.groups
            .iter()
            .map(|weights| match weights {
                GroupWeights::Small(values) => values.len(),
                GroupWeights::Patterns { table, .. } => table.len() + 1,
            })
            .sum()
    }
}

/// Replaces strengths by their softmax in place (an empty slice stays empty).
pub fn softmax(values: &mut [f32]) {
    let largest = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for value in values.iter_mut() {
        *value = (*value - largest).exp();
        sum += *value;
    }
    if sum > 0.0 {
        for value in values.iter_mut() {
            *value /= sum;
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl Reader<'_> {
    fn take(&mut self, count: usize) -> Result<&[u8], String> {
        let end = self.position + count;
        if end > self.bytes.len() {
            return Err("the model file is truncated".to_string());
        }
        let slice = &self.bytes[self.position..end];
        self.position = end;
        Ok(slice)
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or([0; 4]),
        ))
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or([0; 8]),
        ))
    }

    fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or([0; 4]),
        ))
    }
}

/// The model shipped in the binary.
static MODEL: ShippedModel<MoveModel> = ShippedModel::new(
    "move model",
    include_bytes!("../../../models/go-moves.bin"),
    MoveModel::from_bytes,
);

/// The shipped model, read on first use; `None` (with a warning in the log) if it does not
/// read, so the engine falls back to its hand-made priors.
pub fn shipped() -> Option<&'static MoveModel> {
    MODEL.get()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::search::features::{CAPTURE, LINE, PATTERN3};

    fn small_model() -> MoveModel {
        let groups = (0..GROUP_COUNT)
            .map(|group| {
                if is_pattern_group(group) {
                    let mut table = PatternTable::default();
                    table.insert(42 | 1 << 63, 1.5);
                    GroupWeights::Patterns {
                        unknown: -0.25,
                        table,
                    }
                } else {
                    GroupWeights::Small(vec![0.0, 0.5, -1.0, 2.0])
                }
            })
            .collect();
        MoveModel::new(groups)
    }

    #[test]
    fn round_trips_and_rates() {
        let model = small_model();
        let read = MoveModel::from_bytes(&model.to_bytes()).unwrap();
        assert_eq!(read, model);
        let mut features = [0u64; GROUP_COUNT];
        features[PATTERN3] = 42 | 1 << 63;
        features[CAPTURE] = 3;
        features[LINE] = 99;
        assert_eq!(model.strength(&features), 1.5 + 2.0);
        let mut other = [0u64; GROUP_COUNT];
        other[PATTERN3] = 7;
        assert_eq!(model.strength(&other), -0.25);
        let mut probabilities = Vec::new();
        model.probabilities(&[features, other], &mut probabilities);
        assert!((probabilities.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(probabilities[0] > probabilities[1]);
    }

    #[test]
    fn refuses_broken_files() {
        let bytes = small_model().to_bytes();
        assert!(MoveModel::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(MoveModel::from_bytes(b"ISHIMOVX").is_err());
        let mut wrong = bytes.clone();
        wrong[12] ^= 0xff;
        assert!(MoveModel::from_bytes(&wrong).is_err());
    }
}
