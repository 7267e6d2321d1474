//! Fitting the move model to teacher positions: a dictionary of the pattern keys seen often
//! enough, every candidate's features as weight indices, and the weights that minimise the
//! cross-entropy between the teacher's distribution and the model's softmax (plus an L2
//! penalty), found by mini-batch Adam. Gradients of a batch are summed over threads with
//! rayon; the order of positions comes from a seeded generator, so a fit repeats exactly
//! with the same data, options and thread count.
//!
//! Also the measurements: top-1 and top-5 agreement with the teacher's favourite move, top-1
//! agreement with the move it played, and the cross-entropy, for the model and for any other
//! ranking (the hand-made priors).
//!
//! Knows the features, the model's weights and teacher positions; nothing of search.

use crate::go::learn::teacher::{replay, TeacherGame, TeacherPosition};
use crate::go::search::features::{
    compute_features, is_pattern_group, largest_key, FeatureScratch, MoveFeatures, GROUP_COUNT,
};
use crate::go::search::move_model::{softmax, GroupWeights, MoveModel, PatternTable};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use std::collections::HashMap;

/// Where each feature key's weight lives in the weight vector.
pub struct FeatureIndex {
    /// Per group: the first index of a small group's keys (key k at `offset + k`).
    offsets: [usize; GROUP_COUNT],
    /// Per pattern group: the index of each known pattern.
    patterns: Vec<HashMap<u64, u32>>,
    /// Number of weights.
    pub weight_count: usize,
}

/// Counts of each pattern key among the candidates of the training positions.
pub type PatternCounts = Vec<HashMap<u64, u32>>;

/// Computes the features of a position's candidates.
fn position_features(
    position: &TeacherPosition,
    scratch: &mut FeatureScratch,
) -> Vec<MoveFeatures> {
    let mut features = Vec::new();
    compute_features(
        &position.board,
        position.color,
        &position.candidates,
        scratch,
        &mut features,
    );
    features
}

/// Counts every pattern key of every candidate of every position of `games`.
pub fn count_patterns(games: &[TeacherGame]) -> PatternCounts {
    let empty = || vec![HashMap::new(); GROUP_COUNT];
    games
        .par_iter()
        .fold(empty, |mut counts: PatternCounts, game| {
            let mut scratch = FeatureScratch::default();
            replay(game, |position| {
                for features in position_features(&position, &mut scratch) {
                    for (group, &key) in features.iter().enumerate() {
                        if key != 0 && is_pattern_group(group) {
                            *counts[group].entry(key).or_insert(0) += 1;
                        }
                    }
                }
            });
            counts
        })
        .reduce(empty, |mut left, right| {
            for (group, counts) in right.into_iter().enumerate() {
                for (key, count) in counts {
                    *left[group].entry(key).or_insert(0) += count;
                }
            }
            left
        })
}

impl FeatureIndex {
    /// The index of the small groups' keys and of the patterns seen at least `min_count`
    /// times (one more weight per pattern group for every other pattern).
    pub fn new(counts: &PatternCounts, min_count: u32) -> FeatureIndex {
        let mut offsets = [0; GROUP_COUNT];
        let mut patterns = vec![HashMap::new(); GROUP_COUNT];
        let mut next = 0usize;
        for group in 0..GROUP_COUNT {
            offsets[group] = next;
            if is_pattern_group(group) {
                // The unknown pattern first, then the known ones in key order.
                next += 1;
                let mut keys: Vec<u64> = counts[group]
                    .iter()
                    .filter(|&(_, &count)| count >= min_count)
                    .map(|(&key, _)| key)
                    .collect();
                keys.sort_unstable();
                for key in keys {
                    patterns[group].insert(key, next as u32);
                    next += 1;
                }
            } else {
                next += largest_key(group) as usize + 1;
            }
        }
        FeatureIndex {
            offsets,
            patterns,
            weight_count: next,
        }
    }

    /// Known patterns of each group.
    pub fn pattern_counts(&self) -> Vec<usize> {
        self.patterns.iter().map(HashMap::len).collect()
    }

    /// The weight index of `key` in `group`, `None` when the group does not apply.
    fn index(&self, group: usize, key: u64) -> Option<u32> {
        if key == 0 {
            return None;
        }
        if is_pattern_group(group) {
            Some(
                self.patterns[group]
                    .get(&key)
                    .copied()
                    .unwrap_or(self.offsets[group] as u32),
            )
        } else {
            let key = key.min(largest_key(group));
            Some((self.offsets[group] + key as usize) as u32)
        }
    }

    /// The model these weights make.
    pub fn model(&self, weights: &[f32]) -> MoveModel {
        let groups = (0..GROUP_COUNT)
            .map(|group| {
                let offset = self.offsets[group];
                if is_pattern_group(group) {
                    let table: PatternTable = self.patterns[group]
                        .iter()
                        .map(|(&key, &index)| (key, weights[index as usize]))
                        .collect();
                    GroupWeights::Patterns {
                        unknown: weights[offset],
                        table,
                    }
                } else {
                    let mut values =
                        weights[offset..=offset + largest_key(group) as usize].to_vec();
                    values[0] = 0.0;
                    GroupWeights::Small(values)
                }
            })
            .collect();
        MoveModel::new(groups)
    }
}

/// A training position: each candidate's weight indices and the teacher's distribution.
pub struct Sample {
    /// Weight indices per candidate.
    width: usize,
    /// Weight indices, `width` per candidate, `u32::MAX` where a feature does not apply.
    features: Vec<u32>,
    /// The teacher's probability of each candidate.
    targets: Vec<f32>,
    /// The candidate the teacher played, if it is one.
    played: Option<u32>,
}

impl Sample {
    /// A position of `width` weight indices per candidate.
    pub fn new(width: usize, features: Vec<u32>, targets: Vec<f32>, played: Option<u32>) -> Sample {
        debug_assert_eq!(features.len(), width * targets.len());
        Sample {
            width,
            features,
            targets,
            played,
        }
    }

    fn candidate_count(&self) -> usize {
        self.targets.len()
    }

    fn strengths(&self, weights: &[f32], strengths: &mut Vec<f32>) {
        strengths.clear();
        for candidate in self.features.chunks_exact(self.width) {
            let mut sum = 0.0;
            for &index in candidate {
                if index != u32::MAX {
                    sum += weights[index as usize];
                }
            }
            strengths.push(sum);
        }
    }
}

/// The samples of every position of `games`.
pub fn build_samples(games: &[TeacherGame], index: &FeatureIndex) -> Vec<Sample> {
    games
        .par_iter()
        .map(|game| {
            let mut scratch = FeatureScratch::default();
            let mut samples = Vec::new();
            replay(game, |position| {
                let mut features = Vec::with_capacity(position.candidates.len() * GROUP_COUNT);
                for candidate in position_features(&position, &mut scratch) {
                    for (group, &key) in candidate.iter().enumerate() {
                        features.push(index.index(group, key).unwrap_or(u32::MAX));
                    }
                }
                samples.push(Sample {
                    width: GROUP_COUNT,
                    features,
                    targets: position.targets,
                    played: position.played.map(|played| played as u32),
                });
            });
            samples
        })
        .flatten()
        .collect()
}

/// Options of a fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size at the start (it falls linearly to a tenth by the last epoch).
    pub learning_rate: f32,
    /// L2 penalty per weight (added to the mean loss per position).
    pub l2: f32,
    /// Seed of the order of positions.
    pub seed: u64,
}

/// Fits the weights; `report` hears the mean training loss after each epoch.
pub fn fit(
    samples: &[Sample],
    weight_count: usize,
    options: &FitOptions,
    mut report: impl FnMut(usize, f64),
) -> Vec<f32> {
    let mut weights = vec![0.0f32; weight_count];
    let mut first_moment = vec![0.0f32; weight_count];
    let mut second_moment = vec![0.0f32; weight_count];
    let (beta1, beta2, epsilon) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut random = SmallRng::seed_from_u64(options.seed);
    let mut step = 0i32;
    let mut gradient = vec![0.0f32; weight_count];
    for epoch in 0..options.epochs {
        order.shuffle(&mut random);
        let progress = epoch as f32 / options.epochs.max(1) as f32;
        let rate = options.learning_rate * (1.0 - 0.9 * progress);
        let mut epoch_loss = 0.0f64;
        for batch in order.chunks(options.batch.max(1)) {
            epoch_loss += batch_gradient(samples, batch, &weights, &mut gradient);
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let correction1 = 1.0 - beta1.powi(step);
            let correction2 = 1.0 - beta2.powi(step);
            for index in 0..weight_count {
                let g = gradient[index] * scale + options.l2 * weights[index];
                first_moment[index] = beta1 * first_moment[index] + (1.0 - beta1) * g;
                second_moment[index] = beta2 * second_moment[index] + (1.0 - beta2) * g * g;
                let m = first_moment[index] / correction1;
                let v = second_moment[index] / correction2;
                weights[index] -= rate * m / (v.sqrt() + epsilon);
            }
        }
        report(epoch, epoch_loss / samples.len().max(1) as f64);
    }
    weights
}

/// Writes the summed gradient of the cross-entropy over the positions of `batch` into
/// `gradient` and returns the summed loss. Positions are shared out in fixed chunks and the
/// chunks' contributions added in order, so the sum does not depend on the threads.
fn batch_gradient(
    samples: &[Sample],
    batch: &[usize],
    weights: &[f32],
    gradient: &mut [f32],
) -> f64 {
    let parts: Vec<(Vec<(u32, f32)>, f64)> = batch
        .par_chunks(64)
        .map(|chunk| {
            let mut entries = Vec::new();
            let mut loss = 0.0f64;
            let mut strengths = Vec::new();
            for &position in chunk {
                let sample = &samples[position];
                sample.strengths(weights, &mut strengths);
                softmax(&mut strengths);
                for (candidate, features) in sample.features.chunks_exact(sample.width).enumerate()
                {
                    let target = sample.targets[candidate];
                    if target > 0.0 {
                        loss -= target as f64 * (strengths[candidate].max(1e-12) as f64).ln();
                    }
                    let difference = strengths[candidate] - target;
                    for &index in features {
                        if index != u32::MAX {
                            entries.push((index, difference));
                        }
                    }
                }
            }
            (entries, loss)
        })
        .collect();
    gradient.fill(0.0);
    let mut loss = 0.0;
    for (entries, part) in parts {
        for (index, value) in entries {
            gradient[index as usize] += value;
        }
        loss += part;
    }
    loss
}

/// How well a ranking predicts the teacher.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prediction {
    /// Positions measured.
    pub positions: usize,
    /// The ranking's first move is the teacher's favourite.
    pub top1: usize,
    /// The teacher's favourite is among the ranking's first five.
    pub top5: usize,
    /// The ranking's first move is the move the teacher played.
    pub top1_played: usize,
    /// Positions whose played move is a candidate.
    pub played_positions: usize,
    /// Sum of the cross-entropies (teacher against the ranking's distribution), nats.
    pub cross_entropy: f64,
}

impl Prediction {
    /// Adds a position: `probabilities` the ranking's distribution over the candidates.
    pub fn add(&mut self, probabilities: &[f32], targets: &[f32], played: Option<usize>) {
        let favourite = argmax(targets);
        let mut order: Vec<usize> = (0..probabilities.len()).collect();
        // Best first; ties keep the candidate order (stable sort).
        order.sort_by(|&a, &b| probabilities[b].total_cmp(&probabilities[a]));
        self.positions += 1;
        self.top1 += (order[0] == favourite) as usize;
        self.top5 += order
            .iter()
            .take(5)
            .any(|&candidate| candidate == favourite) as usize;
        if let Some(played) = played {
            self.played_positions += 1;
            self.top1_played += (order[0] == played) as usize;
        }
        for (probability, target) in probabilities.iter().zip(targets.iter()) {
            if *target > 0.0 {
                self.cross_entropy -= *target as f64 * (probability.max(1e-12) as f64).ln();
            }
        }
    }

    /// Merges another measurement.
    pub fn merge(mut self, other: Prediction) -> Prediction {
        self.positions += other.positions;
        self.top1 += other.top1;
        self.top5 += other.top5;
        self.top1_played += other.top1_played;
        self.played_positions += other.played_positions;
        self.cross_entropy += other.cross_entropy;
        self
    }

    /// One line: percentages and the mean cross-entropy.
    pub fn summary(&self) -> String {
        let percent = |count: usize, total: usize| 100.0 * count as f64 / total.max(1) as f64;
        format!(
            "{} positions: top-1 {:.1}%, top-5 {:.1}% (teacher's favourite); top-1 {:.1}% (move played); cross-entropy {:.3}",
            self.positions,
            percent(self.top1, self.positions),
            percent(self.top5, self.positions),
            percent(self.top1_played, self.played_positions),
            self.cross_entropy / self.positions.max(1) as f64
        )
    }
}

fn argmax(values: &[f32]) -> usize {
    let mut best = 0;
    for (index, value) in values.iter().enumerate() {
        if *value > values[best] {
            best = index;
        }
    }
    best
}

/// How well the weights predict the samples.
pub fn evaluate(samples: &[Sample], weights: &[f32]) -> Prediction {
    samples
        .par_iter()
        .fold(
            || (Prediction::default(), Vec::new()),
            |(mut prediction, mut strengths), sample| {
                sample.strengths(weights, &mut strengths);
                softmax(&mut strengths);
                prediction.add(
                    &strengths,
                    &sample.targets,
                    sample.played.map(|played| played as usize),
                );
                (prediction, strengths)
            },
        )
        .map(|(prediction, _)| prediction)
        .reduce(Prediction::default, Prediction::merge)
}

/// How well `rank` (a probability-like score per candidate) predicts the teacher over every
/// position of `games`.
pub fn evaluate_ranking(
    games: &[TeacherGame],
    rank: impl Fn(&TeacherPosition, &mut Vec<f32>) + Sync,
) -> Prediction {
    games
        .par_iter()
        .map(|game| {
            let mut prediction = Prediction::default();
            let mut scores = Vec::new();
            replay(game, |position| {
                rank(&position, &mut scores);
                debug_assert_eq!(scores.len(), position.candidates.len());
                prediction.add(&scores, &position.targets, position.played);
            });
            prediction
        })
        .reduce(Prediction::default, Prediction::merge)
}

/// Rates the candidates of `position` with `model`: its probabilities, in `scores`.
pub fn rank_with_model(model: &MoveModel, position: &TeacherPosition, scores: &mut Vec<f32>) {
    let mut features = Vec::new();
    compute_features(
        &position.board,
        position.color,
        &position.candidates,
        &mut FeatureScratch::default(),
        &mut features,
    );
    model.probabilities(&features, scores);
}

/// Total candidates over the samples (for reports).
pub fn candidate_total(samples: &[Sample]) -> usize {
    samples.iter().map(Sample::candidate_count).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::learn::teacher::parse_game;

    /// A tiny teacher who always wants the centre first and then the point below it.
    fn games() -> Vec<TeacherGame> {
        let mut lines = Vec::new();
        for _ in 0..4 {
            let mut first = vec![0u16; 26];
            first[12] = 1000; // C3
            let mut second = vec![0u16; 26];
            second[17] = 1000; // C2
            lines.push(format!(
                r#"{{"size":5,"moves":["C3","C2"],"policy":[{first:?},{second:?}]}}"#
            ));
        }
        lines.iter().map(|line| parse_game(line).unwrap()).collect()
    }

    #[test]
    fn fits_a_simple_teacher() {
        let games = games();
        let counts = count_patterns(&games);
        let index = FeatureIndex::new(&counts, 1);
        let samples = build_samples(&games, &index);
        assert_eq!(samples.len(), 8);
        let options = FitOptions {
            epochs: 60,
            batch: 4,
            learning_rate: 0.1,
            l2: 0.0,
            seed: 1,
        };
        let before = evaluate(&samples, &vec![0.0; index.weight_count]);
        let weights = fit(&samples, index.weight_count, &options, |_, _| {});
        let after = evaluate(&samples, &weights);
        assert_eq!(after.top1, 8);
        assert!(after.cross_entropy < before.cross_entropy / 4.0);
        // The model made from the weights rates positions as the fit does.
        let model = index.model(&weights);
        let prediction = evaluate_ranking(&games, |position, scores| {
            rank_with_model(&model, position, scores)
        });
        assert_eq!(prediction.top1, 8);
        assert!((prediction.cross_entropy - after.cross_entropy).abs() < 1e-3);
    }
}
