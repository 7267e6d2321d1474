//! Training the policy network of [`crate::go::search::network`] on teacher positions: the
//! samples (feature planes and the teacher's distribution over the board candidates, the
//! pass left out), the square board's eight symmetries ([`symmetries`]), the policy head's
//! loss and gradient; the trunk's backward pass, AdamW and the training loop are
//! [`crate::nn::train`]'s. Knows the teacher positions, the network and the network
//! library; nothing of the tree.

use crate::go::learn::teacher::TeacherPosition;
use crate::go::search::board::NO_POINT;
use crate::go::search::network::{encode, PolicyNetwork, INPUT_PLANES};
use crate::nn::forward::{forward, Activations};
use crate::nn::layout::{neighbour_table, Shape};
use crate::nn::train::{
    fit_network, initial_trunk_parameters, trunk_backward, NetworkOptions, ShardResult, SizeGroup,
    TrunkBuffers,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// The plane that marks the candidates (the softmax runs over them).
const CANDIDATE_PLANE: usize = 11;

/// One training position.
pub struct NetworkSample {
    /// Feature planes `[point][INPUT_PLANES]` as 0 or 1.
    pub planes: Vec<u8>,
    /// The teacher's probability of each board candidate it gives any (point, probability),
    /// normalised over the board candidates.
    pub targets: Vec<(u16, f32)>,
    /// The teacher's most likely board candidate.
    pub best: u16,
}

/// The sample of a teacher position of the network's board size, or `None` when the
/// teacher gives the board candidates less than half its probability (it wants to pass, or
/// a move the search never lists).
pub fn network_sample(position: &TeacherPosition) -> Option<NetworkSample> {
    let board = &position.board;
    let size = board.size();
    let stride = board.stride();
    let mut targets = Vec::new();
    let mut total = 0.0;
    for (&point, &target) in position.candidates.iter().zip(&position.targets) {
        if point as usize == NO_POINT || target <= 0.0 {
            continue;
        }
        let point = point as usize;
        let index = (point / stride - 1) * size + point % stride - 1;
        targets.push((index as u16, target));
        total += target;
    }
    if total < 0.5 {
        return None;
    }
    for (_, target) in targets.iter_mut() {
        *target /= total;
    }
    let best = targets
        .iter()
        .fold((0u16, -1.0f32), |best, &(point, target)| {
            if target > best.1 {
                (point, target)
            } else {
                best
            }
        })
        .0;
    let mut planes = vec![0.0f32; size * size * INPUT_PLANES];
    encode(board, position.color, &position.candidates, &mut planes);
    Some(NetworkSample {
        planes: planes.iter().map(|&value| value as u8).collect(),
        targets,
        best,
    })
}

/// The eight symmetries of a square board of `size` as point permutations (row by row).
pub fn symmetries(size: usize) -> Vec<Vec<u16>> {
    (0..8)
        .map(|symmetry| {
            let mut permutation = Vec::with_capacity(size * size);
            for row in 0..size {
                for column in 0..size {
                    let (mut r, mut c) = (row, column);
                    if symmetry & 1 != 0 {
                        c = size - 1 - c;
                    }
                    if symmetry & 2 != 0 {
                        r = size - 1 - r;
                    }
                    if symmetry & 4 != 0 {
                        std::mem::swap(&mut r, &mut c);
                    }
                    permutation.push((r * size + c) as u16);
                }
            }
            permutation
        })
        .collect()
}

/// One shard's buffers.
#[derive(Default)]
struct Workspace {
    input: Vec<f32>,
    targets: Vec<f32>,
    activations: Activations,
    logit_gradient: Vec<f32>,
    trunk_gradient: Vec<f32>,
    inner_gradient: Vec<f32>,
    pre_gradient: Vec<f32>,
    column_gradient: Vec<f32>,
    gradient: Vec<f32>,
    loss: f64,
}

/// Fills the workspace's input and dense targets from samples under symmetries.
fn assemble(samples: &[(&NetworkSample, &[u16])], points: usize, workspace: &mut Workspace) {
    workspace.input.clear();
    workspace
        .input
        .resize(samples.len() * points * INPUT_PLANES, 0.0);
    workspace.targets.clear();
    workspace.targets.resize(samples.len() * points, 0.0);
    for (position, (sample, permutation)) in samples.iter().enumerate() {
        for point in 0..points {
            let to = position * points + permutation[point] as usize;
            for plane in 0..INPUT_PLANES {
                workspace.input[to * INPUT_PLANES + plane] =
                    f32::from(sample.planes[point * INPUT_PLANES + plane]);
            }
        }
        for &(point, target) in &sample.targets {
            workspace.targets[position * points + permutation[point as usize] as usize] = target;
        }
    }
}

/// Softmax over the candidates of each position of the last forward pass: writes the
/// probabilities into `probabilities` (0 off the candidates).
fn candidate_softmax(input: &[f32], logits: &[f32], points: usize, probabilities: &mut Vec<f32>) {
    probabilities.clear();
    probabilities.resize(logits.len(), 0.0);
    for (position, row) in logits.chunks_exact(points).enumerate() {
        let candidate = |point: usize| {
            input[(position * points + point) * INPUT_PLANES + CANDIDATE_PLANE] > 0.0
        };
        let largest = (0..points)
            .filter(|&point| candidate(point))
            .map(|point| row[point])
            .fold(f32::NEG_INFINITY, f32::max);
        let mut total = 0.0;
        for point in 0..points {
            if candidate(point) {
                let value = (row[point] - largest).exp();
                probabilities[position * points + point] = value;
                total += value;
            }
        }
        if total > 0.0 {
            for value in &mut probabilities[position * points..(position + 1) * points] {
                *value /= total;
            }
        }
    }
}

/// The summed cross-entropy of the workspace's samples and, into `workspace.gradient`, its
/// gradient with respect to every parameter, divided by `scale` (the whole batch's size).
fn gradient(
    shape: &Shape,
    parameters: &[f32],
    points: usize,
    table: &[u16],
    scale: f32,
    workspace: &mut Workspace,
) {
    let Workspace {
        input,
        targets,
        activations,
        logit_gradient,
        trunk_gradient,
        inner_gradient,
        pre_gradient,
        column_gradient,
        gradient,
        loss,
    } = workspace;
    gradient.clear();
    gradient.resize(parameters.len(), 0.0);
    *loss = 0.0;
    if input.is_empty() {
        return;
    }
    forward(shape, parameters, input, points, table, activations);
    candidate_softmax(input, &activations.logits, points, logit_gradient);
    for (probability, &target) in logit_gradient.iter_mut().zip(targets.iter()) {
        if target > 0.0 {
            *loss -= f64::from(target) * f64::from(probability.max(1e-12).ln());
        }
        *probability = (*probability - target) / scale;
    }
    let channels = shape.channels;
    let head = shape.head();
    let rows = logit_gradient.len();
    let top = &activations.trunk[shape.blocks];
    trunk_gradient.clear();
    trunk_gradient.resize(rows * channels, 0.0);
    for (row, &logit) in logit_gradient.iter().enumerate() {
        if logit == 0.0 {
            continue;
        }
        for channel in 0..channels {
            gradient[head + channel] += logit * top[row * channels + channel];
            trunk_gradient[row * channels + channel] = logit * parameters[head + channel];
        }
        gradient[head + channels] += logit;
    }
    trunk_backward(
        shape,
        parameters,
        activations,
        points,
        table,
        TrunkBuffers {
            trunk: trunk_gradient,
            inner: inner_gradient,
            pre: pre_gradient,
            columns: column_gradient,
        },
        gradient,
    );
}

/// Initial parameters: He-scaled uniform weights, the second convolution of each block a
/// tenth of that (each block starts near the identity), zero biases.
fn initial_parameters(shape: &Shape, random: &mut SmallRng) -> Vec<f32> {
    let mut parameters = vec![0.0; shape.parameter_count()];
    initial_trunk_parameters(shape, random, &mut parameters);
    let head = shape.head();
    let bound = (3.0 / shape.channels as f32).sqrt();
    for weight in &mut parameters[head..head + shape.channels] {
        *weight = random.gen_range(-bound..bound);
    }
    parameters
}

impl ShardResult for Workspace {
    fn result(&mut self) -> (&mut f64, &mut Vec<f32>) {
        (&mut self.loss, &mut self.gradient)
    }
}

/// Trains a network on `samples` (all of one board size), calling `report` with the epoch
/// and its mean training cross-entropy after each epoch.
pub fn train(
    samples: &[NetworkSample],
    board_size: usize,
    options: &NetworkOptions,
    mut report: impl FnMut(usize, f64, &PolicyNetwork),
) -> PolicyNetwork {
    let shape = Shape {
        inputs: INPUT_PLANES,
        channels: options.channels,
        blocks: options.blocks,
        board_size,
    };
    let points = board_size * board_size;
    let table = neighbour_table(board_size);
    let mut random = SmallRng::seed_from_u64(options.seed);
    let mut parameters = initial_parameters(&shape, &mut random);
    let symmetries = symmetries(board_size);
    fit_network(
        &[SizeGroup {
            size: board_size,
            samples,
            symmetries: &symmetries,
        }],
        options,
        &mut random,
        &mut parameters,
        None,
        |workspace: &mut Workspace, _, shard, parameters, scale| {
            assemble(shard, points, workspace);
            gradient(&shape, parameters, points, &table, scale, workspace);
        },
        |epoch, loss, parameters, _| {
            let network = PolicyNetwork {
                shape,
                parameters: parameters.to_vec(),
            };
            report(epoch, loss, &network);
        },
    )
    .expect("a fresh run has no state to refuse");
    PolicyNetwork { shape, parameters }
}

/// Held-out figures of a network: positions, top-1 and top-5 (the teacher's most likely
/// board candidate is the network's first, among its five first) and the mean
/// cross-entropy against the teacher's distribution.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NetworkFigures {
    /// Positions measured.
    pub positions: usize,
    /// Positions whose teacher's best is the network's first.
    pub top1: usize,
    /// Positions whose teacher's best is among the network's five first.
    pub top5: usize,
    /// Summed cross-entropy.
    pub cross_entropy: f64,
}

impl NetworkFigures {
    /// One line: positions, top-1 %, top-5 %, mean cross-entropy.
    pub fn summary(&self) -> String {
        let share = |count: usize| 100.0 * count as f64 / self.positions.max(1) as f64;
        format!(
            "{} positions, top-1 {:.1}%, top-5 {:.1}%, cross-entropy {:.3}",
            self.positions,
            share(self.top1),
            share(self.top5),
            self.cross_entropy / self.positions.max(1) as f64
        )
    }

    /// Counts one position from its probabilities (`[point]`, 0 off the candidates).
    pub fn add(&mut self, probabilities: &[f32], sample: &NetworkSample) {
        let best = probabilities[sample.best as usize];
        let higher = probabilities.iter().filter(|&&value| value > best).count();
        self.positions += 1;
        if higher == 0 {
            self.top1 += 1;
        }
        if higher < 5 {
            self.top5 += 1;
        }
        for &(point, target) in &sample.targets {
            self.cross_entropy -=
                f64::from(target) * f64::from(probabilities[point as usize].max(1e-12).ln());
        }
    }
}

/// The network's probabilities over the board of each sample (of board `size`; identity
/// symmetry), in parallel chunks. The network runs on any size, whatever it was trained on.
pub fn predict(network: &PolicyNetwork, samples: &[NetworkSample], size: usize) -> Vec<Vec<f32>> {
    let points = size * size;
    let table = neighbour_table(size);
    let identity: Vec<u16> = (0..points as u16).collect();
    samples
        .par_chunks(64)
        .flat_map_iter(|chunk| {
            let mut workspace = Workspace::default();
            let chosen: Vec<(&NetworkSample, &[u16])> = chunk
                .iter()
                .map(|sample| (sample, identity.as_slice()))
                .collect();
            assemble(&chosen, points, &mut workspace);
            forward(
                &network.shape,
                &network.parameters,
                &workspace.input,
                points,
                &table,
                &mut workspace.activations,
            );
            let mut probabilities = Vec::new();
            candidate_softmax(
                &workspace.input,
                &workspace.activations.logits,
                points,
                &mut probabilities,
            );
            probabilities
                .chunks_exact(points)
                .map(<[f32]>::to_vec)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The held-out figures of `network` on `samples` (of board `size`).
pub fn evaluate_network(
    network: &PolicyNetwork,
    samples: &[NetworkSample],
    size: usize,
) -> NetworkFigures {
    let mut figures = NetworkFigures::default();
    for (probabilities, sample) in predict(network, samples, size).iter().zip(samples) {
        figures.add(probabilities, sample);
    }
    figures
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::go::learn::teacher::{parse_game, replay};

    /// Two positions of a 5x5 game as samples.
    fn small_samples() -> Vec<NetworkSample> {
        let mut policy_a = vec![0u16; 26];
        policy_a[12] = 700;
        policy_a[6] = 300;
        let mut policy_b = vec![0u16; 26];
        policy_b[7] = 600;
        policy_b[17] = 400;
        let line = format!(
            r#"{{"size":5,"komi":7.5,"moves":["C3","B4"],"policy":[{policy_a:?},{policy_b:?}]}}"#
        );
        let game = parse_game(&line).unwrap();
        let mut samples = Vec::new();
        replay(&game, |position| {
            if let Some(sample) = network_sample(&position) {
                samples.push(sample);
            }
        });
        assert_eq!(samples.len(), 2);
        samples
    }

    fn loss_of(shape: &Shape, parameters: &[f32], samples: &[NetworkSample]) -> f64 {
        let identity: Vec<u16> = (0..25).collect();
        let chosen: Vec<(&NetworkSample, &[u16])> = samples
            .iter()
            .map(|sample| (sample, identity.as_slice()))
            .collect();
        let mut workspace = Workspace::default();
        assemble(&chosen, 25, &mut workspace);
        gradient(
            shape,
            parameters,
            25,
            &neighbour_table(5),
            1.0,
            &mut workspace,
        );
        workspace.loss
    }

    /// The backward pass agrees with finite differences of the loss.
    #[test]
    fn gradients_match_finite_differences() {
        let samples = small_samples();
        let shape = Shape {
            inputs: INPUT_PLANES,
            channels: 4,
            blocks: 2,
            board_size: 5,
        };
        let mut random = SmallRng::seed_from_u64(3);
        let mut parameters = initial_parameters(&shape, &mut random);
        // Larger second convolutions and biases, so every parameter matters.
        for value in parameters.iter_mut() {
            *value += random.gen_range(-0.2..0.2);
        }
        let identity: Vec<u16> = (0..25).collect();
        let chosen: Vec<(&NetworkSample, &[u16])> = samples
            .iter()
            .map(|sample| (sample, identity.as_slice()))
            .collect();
        let mut workspace = Workspace::default();
        assemble(&chosen, 25, &mut workspace);
        gradient(
            &shape,
            &parameters,
            25,
            &neighbour_table(5),
            1.0,
            &mut workspace,
        );
        let analytic = workspace.gradient.clone();
        let mut checked = 0;
        let mut agreed = 0;
        for index in (0..parameters.len()).step_by(7) {
            let epsilon = 1e-3f32;
            let mut plus = parameters.clone();
            plus[index] += epsilon;
            let mut minus = parameters.clone();
            minus[index] -= epsilon;
            let numeric = (loss_of(&shape, &plus, &samples) - loss_of(&shape, &minus, &samples))
                / (2.0 * f64::from(epsilon));
            let difference = (numeric - f64::from(analytic[index])).abs();
            checked += 1;
            if difference < 2e-3 + 0.05 * numeric.abs() {
                agreed += 1;
            }
        }
        // A rectifier's kink inside the difference interval may spoil a rare one.
        assert!(agreed * 100 >= checked * 97, "{agreed} of {checked}");
        assert!(analytic.iter().any(|&value| value.abs() > 1e-3));
    }

    #[test]
    fn samples_hold_the_teacher_over_the_board() {
        let samples = small_samples();
        let first = &samples[0];
        // C3 is the centre, index 12 of the 5x5 board row by row from the top.
        assert_eq!(first.best, 12);
        let total: f32 = first.targets.iter().map(|&(_, target)| target).sum();
        assert!((total - 1.0).abs() < 1e-6);
        assert_eq!(first.planes[12 * INPUT_PLANES + CANDIDATE_PLANE], 1);
        // In the second position the centre holds black's stone: not a candidate.
        assert_eq!(samples[1].planes[12 * INPUT_PLANES + CANDIDATE_PLANE], 0);
        assert_eq!(
            samples[1].planes[12 * INPUT_PLANES + 1],
            1,
            "an opponent stone"
        );
        let _ = Color::Black;
    }

    #[test]
    fn symmetries_are_permutations_and_training_learns_and_repeats() {
        for permutation in symmetries(5) {
            let mut sorted = permutation.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..25).collect::<Vec<u16>>());
        }
        let samples = small_samples();
        let options = NetworkOptions {
            channels: 8,
            blocks: 1,
            epochs: 60,
            batch: 2,
            learning_rate: 0.01,
            weight_decay: 0.0,
            seed: 5,
            shards: 2,
        };
        let mut losses = Vec::new();
        let network = train(&samples, 5, &options, |_, loss, _| losses.push(loss));
        assert!(losses[losses.len() - 1] < losses[0] * 0.9, "{losses:?}");
        let again = train(&samples, 5, &options, |_, _, _| {});
        assert_eq!(network, again);
    }
}
