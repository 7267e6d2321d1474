//! Training the policy network of [`crate::go::search::network`] on teacher positions: the
//! samples (feature planes and the teacher's distribution over the board candidates, the
//! pass left out), the backward pass through the same forward pass the engine runs, and
//! AdamW over mini-batches with a random one of the eight board symmetries per sample.
//! Each mini-batch is split into a fixed number of shards, each shard's gradient computed
//! in parallel (rayon) and summed in shard order, so a run repeats exactly for a given seed
//! and shard count on a given processor (the matrix kernels differ between instruction
//! sets in their last bits). Knows the teacher positions and the network; nothing of the tree.

use crate::go::learn::teacher::TeacherPosition;
use crate::go::search::board::NO_POINT;
use crate::go::search::network::{
    encode, forward, multiply, neighbour_table, Activations, Convolution, PolicyNetwork, Shape,
    INPUT_PLANES,
};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
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

/// How to train.
#[derive(Clone, Debug)]
pub struct NetworkOptions {
    /// Channels of the hidden layers.
    pub channels: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Passes over the samples.
    pub epochs: usize,
    /// Samples per step.
    pub batch: usize,
    /// AdamW's step size at the start (decaying linearly to a tenth).
    pub learning_rate: f32,
    /// Decoupled weight decay per step, relative to the step size.
    pub weight_decay: f32,
    /// Seed of the initial weights, the order of samples and the symmetries.
    pub seed: u64,
    /// Shards per mini-batch (computed in parallel; part of what a run repeats with).
    pub shards: usize,
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

/// Adds the column gradient back onto the points it was unfolded from.
fn fold(columns: &[f32], channels: usize, points: usize, table: &[u16], output: &mut [f32]) {
    output.fill(0.0);
    let width = 9 * channels;
    let positions = output.len() / (points * channels);
    for position in 0..positions {
        let base = position * points;
        for point in 0..points {
            let row = &columns[(base + point) * width..(base + point + 1) * width];
            for offset in 0..9 {
                let source = table[point * 9 + offset];
                if source == u16::MAX {
                    continue;
                }
                let start = (base + source as usize) * channels;
                for (out, value) in output[start..start + channels]
                    .iter_mut()
                    .zip(&row[offset * channels..(offset + 1) * channels])
                {
                    *out += value;
                }
            }
        }
    }
}

/// The weight and bias gradients of `layer` from the gradient before its rectifier, and
/// (when `input_gradient` is given) the gradient of its input.
#[allow(clippy::too_many_arguments)]
fn convolution_backward(
    parameters: &[f32],
    layer: Convolution,
    columns: &[f32],
    pre_gradient: &[f32],
    points: usize,
    table: &[u16],
    gradient: &mut [f32],
    column_gradient: &mut Vec<f32>,
    input_gradient: Option<&mut [f32]>,
) {
    let rows = pre_gradient.len() / layer.outputs;
    let width = 9 * layer.inputs;
    multiply(
        width,
        rows,
        layer.outputs,
        columns,
        true,
        pre_gradient,
        false,
        &mut gradient[layer.weights..layer.weights + width * layer.outputs],
        true,
    );
    let biases = &mut gradient[layer.biases..layer.biases + layer.outputs];
    for row in pre_gradient.chunks_exact(layer.outputs) {
        for (bias, value) in biases.iter_mut().zip(row) {
            *bias += value;
        }
    }
    if let Some(input_gradient) = input_gradient {
        column_gradient.resize(rows * width, 0.0);
        multiply(
            rows,
            layer.outputs,
            width,
            pre_gradient,
            false,
            &parameters[layer.weights..layer.weights + width * layer.outputs],
            true,
            column_gradient,
            false,
        );
        fold(column_gradient, layer.inputs, points, table, input_gradient);
    }
}

/// Sets `pre` to `gradient` where `output` (after a rectifier) is positive, else zero.
fn rectifier_backward(gradient: &[f32], output: &[f32], pre: &mut Vec<f32>) {
    pre.clear();
    pre.extend(
        gradient
            .iter()
            .zip(output)
            .map(|(&value, &out)| if out > 0.0 { value } else { 0.0 }),
    );
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

/// The buffers of [`trunk_backward`], reused between calls.
pub(crate) struct TrunkBuffers<'a> {
    /// On entry the gradient of the trunk's output `[position * point][channel]`; spent.
    pub trunk: &'a mut Vec<f32>,
    /// Scratch.
    pub inner: &'a mut Vec<f32>,
    /// Scratch.
    pub pre: &'a mut Vec<f32>,
    /// Scratch.
    pub columns: &'a mut Vec<f32>,
}

/// Adds to `gradient` the gradients of every convolution of the trunk (stem and blocks) of
/// the last [`forward_trunk`](crate::go::search::network::forward_trunk) in `activations`,
/// given the gradient of its output in `buffers.trunk`. Every head (policy, value) ends its
/// own backward pass here.
pub(crate) fn trunk_backward(
    shape: &Shape,
    parameters: &[f32],
    activations: &Activations,
    points: usize,
    table: &[u16],
    buffers: TrunkBuffers<'_>,
    gradient: &mut [f32],
) {
    let TrunkBuffers {
        trunk: trunk_gradient,
        inner: inner_gradient,
        pre: pre_gradient,
        columns: column_gradient,
    } = buffers;
    let layers = shape.convolutions();
    inner_gradient.resize(trunk_gradient.len(), 0.0);
    for block in (0..shape.blocks).rev() {
        rectifier_backward(trunk_gradient, &activations.trunk[block + 1], pre_gradient);
        convolution_backward(
            parameters,
            layers[2 + 2 * block],
            &activations.columns[2 + 2 * block],
            pre_gradient,
            points,
            table,
            gradient,
            column_gradient,
            Some(inner_gradient),
        );
        for (value, &out) in inner_gradient.iter_mut().zip(&activations.inner[block]) {
            if out <= 0.0 {
                *value = 0.0;
            }
        }
        // The skip connection carries the gradient before the block's second rectifier.
        std::mem::swap(trunk_gradient, pre_gradient);
        convolution_backward(
            parameters,
            layers[1 + 2 * block],
            &activations.columns[1 + 2 * block],
            inner_gradient,
            points,
            table,
            gradient,
            column_gradient,
            Some(pre_gradient),
        );
        for (value, &skip) in trunk_gradient.iter_mut().zip(pre_gradient.iter()) {
            *value += skip;
        }
    }
    rectifier_backward(trunk_gradient, &activations.trunk[0], pre_gradient);
    convolution_backward(
        parameters,
        layers[0],
        &activations.columns[0],
        pre_gradient,
        points,
        table,
        gradient,
        column_gradient,
        None,
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

/// Sets the trunk's convolutions in `parameters` (the first [`Shape::head`] of them):
/// He-scaled uniform weights, the second convolution of each block a tenth of that (each
/// block starts near the identity), zero biases.
pub(crate) fn initial_trunk_parameters(
    shape: &Shape,
    random: &mut SmallRng,
    parameters: &mut [f32],
) {
    for (index, layer) in shape.convolutions().iter().enumerate() {
        let mut bound = (6.0 / (9 * layer.inputs) as f32).sqrt();
        if index > 0 && index % 2 == 0 {
            bound *= 0.1;
        }
        for weight in &mut parameters[layer.weights..layer.biases] {
            *weight = random.gen_range(-bound..bound);
        }
        parameters[layer.biases..layer.biases + layer.outputs].fill(0.0);
    }
}

/// A shard's buffers, as the shared training loop sees them: where its computation leaves
/// the summed loss and the gradient.
pub(crate) trait ShardResult: Default + Send {
    /// The loss and the gradient the last computation left.
    fn result(&mut self) -> (&mut f64, &mut Vec<f32>);
}

impl ShardResult for Workspace {
    fn result(&mut self) -> (&mut f64, &mut Vec<f32>) {
        (&mut self.loss, &mut self.gradient)
    }
}

/// Splits `samples` into one shard per workspace and runs `compute` (workspace, its samples,
/// parameters, the batch's size) on every shard in parallel; returns the summed loss and
/// leaves the summed gradient in the first workspace.
fn batch_gradient<S: Sync, W: ShardResult>(
    parameters: &[f32],
    samples: &[(&S, &[u16])],
    workspaces: &mut [W],
    compute: &(impl Fn(&mut W, &[(&S, &[u16])], &[f32], f32) + Sync),
) -> f64 {
    let shard = samples.len().div_ceil(workspaces.len()).max(1);
    let scale = samples.len() as f32;
    workspaces
        .par_iter_mut()
        .enumerate()
        .for_each(|(index, workspace)| {
            let start = (index * shard).min(samples.len());
            let end = ((index + 1) * shard).min(samples.len());
            compute(workspace, &samples[start..end], parameters, scale);
        });
    let (first, rest) = workspaces.split_at_mut(1);
    let (first_loss, first_gradient) = first[0].result();
    for other in rest.iter_mut() {
        let (loss, gradient) = other.result();
        for (sum, value) in first_gradient.iter_mut().zip(gradient.iter()) {
            *sum += value;
        }
        *first_loss += *loss;
    }
    *first_loss
}

/// One board size's training samples.
pub struct SizeGroup<'a, S> {
    /// The board size of every sample of the group.
    pub size: usize,
    /// The samples.
    pub samples: &'a [S],
}

/// The training loop of every network: `options.epochs` passes over the samples of every
/// group (one board size each), each group's samples in a shuffled order cut into
/// mini-batches of `options.batch` (a batch never mixes sizes), the batches of all groups
/// in a shuffled order when there are several groups, one of the eight symmetries drawn per
/// sample; each batch's gradient from `compute` (workspace, board size, shard, parameters,
/// batch size) over `options.shards` shards in parallel, AdamW with the step decaying
/// linearly to a tenth. `report` gets the epoch, its mean training loss and the parameters
/// after it.
pub(crate) fn fit_network<S: Sync, W: ShardResult>(
    groups: &[SizeGroup<'_, S>],
    options: &NetworkOptions,
    random: &mut SmallRng,
    parameters: &mut [f32],
    compute: impl Fn(&mut W, usize, &[(&S, &[u16])], &[f32], f32) + Sync,
    mut report: impl FnMut(usize, f64, &[f32]),
) {
    let permutations: Vec<Vec<Vec<u16>>> =
        groups.iter().map(|group| symmetries(group.size)).collect();
    let mut optimiser = AdamW::new(parameters.len());
    let mut workspaces: Vec<W> = (0..options.shards.max(1)).map(|_| W::default()).collect();
    let batch_size = options.batch.max(1);
    let mut orders: Vec<Vec<usize>> = groups
        .iter()
        .map(|group| (0..group.samples.len()).collect())
        .collect();
    let sample_count: usize = groups.iter().map(|group| group.samples.len()).sum();
    let steps_per_epoch: usize = groups
        .iter()
        .map(|group| group.samples.len().div_ceil(batch_size))
        .sum();
    let total_steps = (steps_per_epoch * options.epochs).max(1);
    let mut step = 0usize;
    for epoch in 0..options.epochs {
        // (group, first, end) of each batch in its group's shuffled order.
        let mut batches = Vec::with_capacity(steps_per_epoch);
        for (group, order) in orders.iter_mut().enumerate() {
            order.shuffle(random);
            for start in (0..order.len()).step_by(batch_size) {
                batches.push((group, start, (start + batch_size).min(order.len())));
            }
        }
        if groups.len() > 1 {
            batches.shuffle(random);
        }
        let mut loss = 0.0;
        for (group, start, end) in batches {
            let samples = groups[group].samples;
            let chosen: Vec<(&S, &[u16])> = orders[group][start..end]
                .iter()
                .map(|&index| {
                    let symmetry = random.gen_range(0..8);
                    (&samples[index], permutations[group][symmetry].as_slice())
                })
                .collect();
            let size = groups[group].size;
            loss += batch_gradient(
                parameters,
                &chosen,
                &mut workspaces,
                &|workspace: &mut W, shard: &[(&S, &[u16])], parameters: &[f32], scale| {
                    compute(workspace, size, shard, parameters, scale)
                },
            );
            step += 1;
            let progress = step as f32 / total_steps as f32;
            let rate = options.learning_rate * (1.0 - 0.9 * progress);
            let (_, gradient) = workspaces[0].result();
            optimiser.step(parameters, gradient, rate, options.weight_decay);
        }
        report(epoch, loss / sample_count.max(1) as f64, parameters);
    }
}

/// AdamW's state: the moment estimates of every parameter and the steps taken (β 0.9 and
/// 0.999, ε 1e-8).
pub(crate) struct AdamW {
    first_moment: Vec<f32>,
    second_moment: Vec<f32>,
    steps: i32,
}

impl AdamW {
    /// A fresh state for `count` parameters.
    pub(crate) fn new(count: usize) -> AdamW {
        AdamW {
            first_moment: vec![0.0; count],
            second_moment: vec![0.0; count],
            steps: 0,
        }
    }

    /// One step of size `rate` along `gradient`, with weight decay `weight_decay` relative
    /// to the step size (decoupled from the moments).
    pub(crate) fn step(
        &mut self,
        parameters: &mut [f32],
        gradient: &[f32],
        rate: f32,
        weight_decay: f32,
    ) {
        let (beta1, beta2) = (0.9f32, 0.999f32);
        self.steps += 1;
        let correction1 = 1.0 - beta1.powi(self.steps);
        let correction2 = 1.0 - beta2.powi(self.steps);
        for (index, parameter) in parameters.iter_mut().enumerate() {
            let g = gradient[index];
            self.first_moment[index] = beta1 * self.first_moment[index] + (1.0 - beta1) * g;
            self.second_moment[index] = beta2 * self.second_moment[index] + (1.0 - beta2) * g * g;
            let m = self.first_moment[index] / correction1;
            let v = self.second_moment[index] / correction2;
            *parameter -= rate * (m / (v.sqrt() + 1e-8) + weight_decay * *parameter);
        }
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
    fit_network(
        &[SizeGroup {
            size: board_size,
            samples,
        }],
        options,
        &mut random,
        &mut parameters,
        |workspace: &mut Workspace, _, shard, parameters, scale| {
            assemble(shard, points, workspace);
            gradient(&shape, parameters, points, &table, scale, workspace);
        },
        |epoch, loss, parameters| {
            let network = PolicyNetwork {
                shape,
                parameters: parameters.to_vec(),
            };
            report(epoch, loss, &network);
        },
    );
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

    #[derive(Default)]
    struct Recorder {
        loss: f64,
        gradient: Vec<f32>,
    }

    impl ShardResult for Recorder {
        fn result(&mut self) -> (&mut f64, &mut Vec<f32>) {
            (&mut self.loss, &mut self.gradient)
        }
    }

    /// Several board sizes train together: each batch holds one size (with that size's
    /// symmetries), every sample is used once an epoch, and batches of both sizes mix.
    #[test]
    fn a_batch_never_mixes_board_sizes_and_every_sample_is_seen_each_epoch() {
        let small: Vec<(usize, u32)> = (0..23).map(|index| (5, index)).collect();
        let large: Vec<(usize, u32)> = (0..17).map(|index| (7, 100 + index)).collect();
        let groups = [
            SizeGroup {
                size: 5,
                samples: &small,
            },
            SizeGroup {
                size: 7,
                samples: &large,
            },
        ];
        let options = NetworkOptions {
            channels: 1,
            blocks: 0,
            epochs: 3,
            batch: 4,
            learning_rate: 0.0,
            weight_decay: 0.0,
            seed: 1,
            shards: 2,
        };
        let seen = std::sync::Mutex::new(Vec::new());
        let reports = std::cell::Cell::new(0);
        let mut parameters = vec![0.0f32; 1];
        let mut random = SmallRng::seed_from_u64(2);
        fit_network(
            &groups,
            &options,
            &mut random,
            &mut parameters,
            |workspace: &mut Recorder, size, shard: &[(&(usize, u32), &[u16])], _, _| {
                workspace.loss = 0.0;
                workspace.gradient = vec![0.0];
                for &(&(sample_size, _), permutation) in shard {
                    assert_eq!(sample_size, size);
                    assert_eq!(permutation.len(), size * size);
                }
                let numbers: Vec<u32> = shard.iter().map(|(sample, _)| sample.1).collect();
                seen.lock().unwrap().push((size, numbers));
            },
            |_, _, _| reports.set(reports.get() + 1),
        );
        assert_eq!(reports.get(), 3);
        let seen = seen.into_inner().unwrap();
        let mut numbers: Vec<u32> = seen
            .iter()
            .flat_map(|(_, numbers)| numbers.clone())
            .collect();
        numbers.sort_unstable();
        let mut expected: Vec<u32> = (0..23).chain(100..117).flat_map(|n| [n; 3]).collect();
        expected.sort_unstable();
        assert_eq!(numbers, expected);
        // The batch order is shuffled across sizes, not all of one size first.
        let sizes: Vec<usize> = seen.iter().map(|(size, _)| *size).collect();
        let changes = sizes.windows(2).filter(|pair| pair[0] != pair[1]).count();
        assert!(changes > 3, "{sizes:?}");
    }
}
