//! Training: the backward pass of the trunk (its convolutions and rectifiers, through the
//! activations [`crate::nn::forward`] kept), AdamW, and the training loop every network
//! shares ([`fit_network`]): mini-batches of one board size each with one of the game's
//! symmetries drawn per sample, each batch split into a fixed number of shards whose
//! gradients are computed in parallel (rayon) and summed in shard order, so a run repeats
//! exactly for a given seed and shard count on a given processor (the matrix kernels differ
//! between instruction sets in their last bits). A run stopped after any epoch goes on
//! exactly as if it had not stopped from its [`TrainingState`] (the optimiser's moments and
//! the epochs done, kept in a [`WeightFile`] of kind `adamw`) and that epoch's parameters.
//! A game brings its samples, its symmetries (permutations of the points) and the loss and
//! gradient of its heads.
//!
//! Knows the layout and the forward pass; no game.

use crate::nn::file::WeightFile;
use crate::nn::forward::{multiply, Activations};
use crate::nn::layout::{Convolution, Shape};
use crate::nn::pool::{pool_backward, FEATURES};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::Rng;
use rayon::prelude::*;

/// How to train.
#[derive(Clone, Debug)]
pub struct NetworkOptions {
    /// Channels of the hidden layers.
    pub channels: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Whether the blocks pool the board ([`crate::nn::pool`]).
    pub pooled: bool,
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
/// the last [`forward_trunk`](crate::nn::forward::forward_trunk) in `activations`,
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
        if let Some(weights) = shape.pooling(block) {
            // The block's pooled bias: each position's gradient of it is the sum over its
            // points of the pre-activation's.
            let channels = shape.channels;
            let mut bias_gradient = vec![0.0f32; channels];
            for position in 0..activations.positions {
                let rows = position * points * channels..(position + 1) * points * channels;
                bias_gradient.fill(0.0);
                for row in pre_gradient[rows.clone()].chunks_exact(channels) {
                    for (sum, value) in bias_gradient.iter_mut().zip(row) {
                        *sum += value;
                    }
                }
                pool_backward(
                    parameters,
                    weights,
                    &activations.pooled[block][position * FEATURES * channels..],
                    &activations.maximum_points[block][position * channels..],
                    &bias_gradient,
                    points,
                    gradient,
                    &mut inner_gradient[rows],
                );
            }
        }
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

/// Sets the trunk's convolutions in `parameters` (the first [`Shape::head`] of them):
/// He-scaled uniform weights, the second convolution of each block a tenth of that (each
/// block starts near the identity), zero biases, zero pooling weights (the pooled bias
/// starts silent and learns from the first step: its gradient is the pooled features').
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
    if let Some(start) = shape.pooling(0) {
        parameters[start..shape.head()].fill(0.0);
    }
}

/// Whether a trunk of `smaller`'s shape can grow into one of `larger`'s with
/// [`grow_trunk`]: the same input planes, no fewer channels and no fewer blocks, and
/// pooled if the smaller one is.
pub fn can_grow(smaller: &Shape, larger: &Shape) -> bool {
    smaller.inputs == larger.inputs
        && smaller.channels <= larger.channels
        && smaller.blocks <= larger.blocks
        && (larger.pooled || !smaller.pooled)
}

/// Grows a trained trunk (`smaller`, its `smaller_parameters`) into a wider and deeper one
/// that computes the same thing on the old channels (function-preserving growth: Net2Net,
/// Chen, Goodfellow and Shlens, arXiv 1511.05641). `larger_parameters` holds a fresh
/// initialisation of `larger` ([`initial_trunk_parameters`]) and receives:
/// - in every old convolution, the old weights and biases on the old channels, zero weights
///   from the new input channels into the old outputs, and the new outputs left as
///   initialised (random weights from every input), so the new channels carry signals from
///   the first step while nothing reads them yet;
/// - the new blocks after the old ones, their first convolution as initialised and their
///   second one writing zero into the old channels: with the residual added before the
///   rectifier and the trunk already rectified, such a block passes the old channels through;
/// - in a pooled trunk, the old blocks' pooling weights between old channels, zero weights
///   everywhere else (a trunk that did not pool grows into one whose pooled biases start
///   silent).
///
/// The heads must then read the new channels with zero weights (the game's heads know
/// their layout); training learns those weights, through which the rest learns. Panics when
/// [`can_grow`] says no.
pub fn grow_trunk(
    smaller: &Shape,
    smaller_parameters: &[f32],
    larger: &Shape,
    larger_parameters: &mut [f32],
) {
    assert!(
        can_grow(smaller, larger),
        "{smaller:?} cannot grow into {larger:?}"
    );
    let old_layers = smaller.convolutions();
    let new_layers = larger.convolutions();
    for (old, new) in old_layers.iter().zip(&new_layers) {
        for offset in 0..9 {
            for input in 0..new.inputs {
                let row = new.weights + (offset * new.inputs + input) * new.outputs;
                let target = &mut larger_parameters[row..row + old.outputs];
                if input < old.inputs {
                    let from = old.weights + (offset * old.inputs + input) * old.outputs;
                    target.copy_from_slice(&smaller_parameters[from..from + old.outputs]);
                } else {
                    target.fill(0.0);
                }
            }
        }
        larger_parameters[new.biases..new.biases + old.outputs]
            .copy_from_slice(&smaller_parameters[old.biases..old.biases + old.outputs]);
    }
    for block in smaller.blocks..larger.blocks {
        let second = new_layers[2 + 2 * block];
        for row in 0..9 * second.inputs {
            let start = second.weights + row * second.outputs;
            larger_parameters[start..start + smaller.channels].fill(0.0);
        }
        larger_parameters[second.biases..second.biases + smaller.channels].fill(0.0);
    }
    for block in 0..larger.blocks {
        let Some(target) = larger.pooling(block) else {
            break;
        };
        let (old_channels, new_channels) = (smaller.channels, larger.channels);
        larger_parameters[target..target + FEATURES * new_channels * new_channels].fill(0.0);
        let Some(source) = smaller.pooling(block) else {
            continue;
        };
        for feature in 0..FEATURES * old_channels {
            let (kind, channel) = (feature / old_channels, feature % old_channels);
            let to = target + (kind * new_channels + channel) * new_channels;
            let from = source + feature * old_channels;
            larger_parameters[to..to + old_channels]
                .copy_from_slice(&smaller_parameters[from..from + old_channels]);
        }
    }
}

/// A shard's buffers, as the shared training loop sees them: where its computation leaves
/// the summed loss and the gradient.
pub(crate) trait ShardResult: Default + Send {
    /// The loss and the gradient the last computation left.
    fn result(&mut self) -> (&mut f64, &mut Vec<f32>);
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
    /// The board's symmetries, each a permutation of its points (the identity among them):
    /// training draws one per sample.
    pub symmetries: &'a [Vec<u16>],
}

/// The training loop of every network: `options.epochs` passes over the samples of every
/// group (one board size each), each group's samples in a shuffled order cut into
/// mini-batches of `options.batch` (a batch never mixes sizes), the batches of all groups
/// in a shuffled order when there are several groups, one of the group's symmetries drawn
/// per sample; each batch's gradient from `compute` (workspace, board size, shard, parameters,
/// batch size) over `options.shards` shards in parallel, AdamW with the step decaying
/// linearly to a tenth. `report` gets the epoch, its mean training loss, the parameters
/// after it and the state a resumed run needs.
///
/// With `resume` (a state `report` gave, and `parameters` the ones it gave beside it) the
/// epochs it had done are drawn again without computing (the same shuffles and symmetries,
/// so `random` stands where it stood) and training goes on from the next one: the result is
/// the uninterrupted run's, bit for bit.
///
/// # Errors
/// A state for another number of parameters, or whose steps are not those its epochs take
/// with these samples and batch size (another run's), or that has done every epoch.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fit_network<S: Sync, W: ShardResult>(
    groups: &[SizeGroup<'_, S>],
    options: &NetworkOptions,
    random: &mut SmallRng,
    parameters: &mut [f32],
    resume: Option<TrainingState>,
    compute: impl Fn(&mut W, usize, &[(&S, &[u16])], &[f32], f32) + Sync,
    mut report: impl FnMut(usize, f64, &[f32], &TrainingState),
) -> Result<(), String> {
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
    let mut state = match resume {
        None => TrainingState {
            epochs_done: 0,
            optimiser: AdamW::new(parameters.len()),
        },
        Some(state) => {
            state.check(parameters.len(), steps_per_epoch, options.epochs)?;
            state
        }
    };
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
        if epoch < state.epochs_done {
            // Done before the run stopped: the same draws, nothing computed.
            for &(group, start, end) in &batches {
                for _ in start..end {
                    random.gen_range(0..groups[group].symmetries.len());
                }
            }
            step += batches.len();
            continue;
        }
        let mut loss = 0.0;
        for (group, start, end) in batches {
            let samples = groups[group].samples;
            let chosen: Vec<(&S, &[u16])> = orders[group][start..end]
                .iter()
                .map(|&index| {
                    let symmetries = groups[group].symmetries;
                    let symmetry = random.gen_range(0..symmetries.len());
                    (&samples[index], symmetries[symmetry].as_slice())
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
            state
                .optimiser
                .step(parameters, gradient, rate, options.weight_decay);
        }
        state.epochs_done = epoch + 1;
        report(epoch, loss / sample_count.max(1) as f64, parameters, &state);
    }
    Ok(())
}

/// Where a training run stands after an epoch, beside that epoch's parameters: what
/// [`fit_network`] needs to go on as if it had not stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingState {
    /// Epochs finished.
    pub epochs_done: usize,
    optimiser: AdamW,
}

/// The [`WeightFile`] kind of a [`TrainingState`].
pub const STATE_KIND: &str = "adamw";

impl TrainingState {
    /// The state as a weight file: dimensions `epochs`, `steps` and `parameters`, then the
    /// first moments and the second moments.
    pub fn to_weight_file(&self) -> WeightFile {
        let optimiser = &self.optimiser;
        let mut parameters = optimiser.first_moment.clone();
        parameters.extend_from_slice(&optimiser.second_moment);
        WeightFile {
            kind: STATE_KIND.into(),
            dimensions: vec![
                ("epochs".into(), self.epochs_done as u32),
                ("steps".into(), optimiser.steps as u32),
                ("parameters".into(), optimiser.first_moment.len() as u32),
            ],
            parameters,
        }
    }

    /// Reads a state written by [`TrainingState::to_weight_file`].
    ///
    /// # Errors
    /// Another kind, a missing dimension, or moments of another length than it names.
    pub fn from_weight_file(file: &WeightFile) -> Result<TrainingState, String> {
        if file.kind != STATE_KIND {
            return Err(format!("a {} file, not a training state", file.kind));
        }
        let count = file.dimension("parameters")?;
        if file.parameters.len() != 2 * count {
            return Err(format!(
                "{} moments for {count} parameters",
                file.parameters.len()
            ));
        }
        let steps =
            i32::try_from(file.dimension("steps")?).map_err(|_| "too many steps".to_string())?;
        Ok(TrainingState {
            epochs_done: file.dimension("epochs")?,
            optimiser: AdamW {
                first_moment: file.parameters[..count].to_vec(),
                second_moment: file.parameters[count..].to_vec(),
                steps,
            },
        })
    }

    /// Refuses a state that cannot be this run's (see [`fit_network`]).
    fn check(
        &self,
        parameters: usize,
        steps_per_epoch: usize,
        epochs: usize,
    ) -> Result<(), String> {
        if self.optimiser.first_moment.len() != parameters {
            return Err(format!(
                "the training state is for {} parameters, the network has {parameters}",
                self.optimiser.first_moment.len()
            ));
        }
        if self.optimiser.steps as usize != self.epochs_done * steps_per_epoch {
            return Err(format!(
                "the training state took {} steps in {} epochs; these samples take {} an epoch \
                 (another run's state, or other data or batch size)",
                self.optimiser.steps, self.epochs_done, steps_per_epoch
            ));
        }
        if self.epochs_done >= epochs {
            return Err(format!(
                "the training state has done {} of {epochs} epochs: nothing is left to do",
                self.epochs_done
            ));
        }
        Ok(())
    }
}

/// AdamW's state: the moment estimates of every parameter and the steps taken (β 0.9 and
/// 0.999, ε 1e-8).
#[derive(Clone, Debug, PartialEq)]
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

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
    /// symmetries, both drawn), every sample is used once an epoch, and batches of both
    /// sizes mix.
    #[test]
    fn a_batch_never_mixes_board_sizes_and_every_sample_is_seen_each_epoch() {
        let small: Vec<(usize, u32)> = (0..23).map(|index| (5, index)).collect();
        let large: Vec<(usize, u32)> = (0..17).map(|index| (7, 100 + index)).collect();
        // Two made-up symmetries a size: the identity and the reversal of the points.
        let symmetries = |size: usize| -> Vec<Vec<u16>> {
            let identity: Vec<u16> = (0..(size * size) as u16).collect();
            let reversed = identity.iter().rev().copied().collect();
            vec![identity, reversed]
        };
        let (small_symmetries, large_symmetries) = (symmetries(5), symmetries(7));
        let groups = [
            SizeGroup {
                size: 5,
                samples: &small,
                symmetries: &small_symmetries,
            },
            SizeGroup {
                size: 7,
                samples: &large,
                symmetries: &large_symmetries,
            },
        ];
        let options = NetworkOptions {
            channels: 1,
            blocks: 0,
            pooled: false,
            epochs: 3,
            batch: 4,
            learning_rate: 0.0,
            weight_decay: 0.0,
            seed: 1,
            shards: 2,
        };
        let seen = std::sync::Mutex::new(Vec::new());
        let reversals = std::sync::atomic::AtomicUsize::new(0);
        let reports = std::cell::Cell::new(0);
        let mut parameters = vec![0.0f32; 1];
        let mut random = SmallRng::seed_from_u64(2);
        fit_network(
            &groups,
            &options,
            &mut random,
            &mut parameters,
            None,
            |workspace: &mut Recorder, size, shard: &[(&(usize, u32), &[u16])], _, _| {
                workspace.loss = 0.0;
                workspace.gradient = vec![0.0];
                for &(&(sample_size, _), permutation) in shard {
                    assert_eq!(sample_size, size);
                    assert_eq!(permutation.len(), size * size);
                    if permutation[0] != 0 {
                        reversals.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
                let numbers: Vec<u32> = shard.iter().map(|(sample, _)| sample.1).collect();
                seen.lock().unwrap().push((size, numbers));
            },
            |_, _, _, _| reports.set(reports.get() + 1),
        )
        .expect("a fresh run");
        assert_eq!(reports.get(), 3);
        let reversals = reversals.into_inner();
        assert!(
            (30..=90).contains(&reversals),
            "{reversals} of 120 reversed"
        );
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

    /// A grown trunk computes the smaller one's output on the old channels (and a trunk
    /// grown into its own shape is itself), pooled or not, and a trunk that did not pool
    /// grows into one that does; the shapes that cannot grow are refused.
    #[test]
    fn a_grown_trunk_computes_what_the_smaller_one_did() {
        use crate::nn::forward::forward_trunk;
        use crate::nn::layout::neighbour_table;
        for pooled in [false, true] {
            let smaller = Shape {
                inputs: 5,
                channels: 4,
                blocks: 2,
                pooled,
                board_size: 5,
            };
            let mut random = SmallRng::seed_from_u64(7);
            let mut old = vec![0.0; smaller.head()];
            initial_trunk_parameters(&smaller, &mut random, &mut old);
            // Trained biases and pooling weights are not zero: give the old ones some.
            for layer in smaller.convolutions() {
                for bias in &mut old[layer.biases..layer.biases + layer.outputs] {
                    *bias = random.gen_range(-0.2..0.2);
                }
            }
            if let Some(start) = smaller.pooling(0) {
                for weight in &mut old[start..] {
                    *weight = random.gen_range(-0.3..0.3);
                }
            }
            let points = 25;
            let table = neighbour_table(5);
            let input: Vec<f32> = (0..2 * points * smaller.inputs)
                .map(|_| random.gen_range(0.0..1.0))
                .collect();
            let mut activations = Activations::default();
            forward_trunk(&smaller, &old, &input, points, &table, &mut activations);
            let expected = activations.trunk[smaller.blocks].clone();
            for (channels, blocks, grown_pooled) in [
                (4, 2, pooled),
                (6, 2, pooled),
                (4, 3, pooled),
                (7, 4, pooled),
                (4, 2, true),
                (6, 3, true),
            ] {
                let larger = Shape {
                    channels,
                    blocks,
                    pooled: grown_pooled,
                    ..smaller
                };
                assert!(can_grow(&smaller, &larger));
                let mut grown = vec![0.0; larger.head()];
                initial_trunk_parameters(&larger, &mut random, &mut grown);
                grow_trunk(&smaller, &old, &larger, &mut grown);
                if larger == smaller {
                    assert_eq!(grown, old);
                }
                forward_trunk(&larger, &grown, &input, points, &table, &mut activations);
                let output = &activations.trunk[larger.blocks];
                let mut new_channels_carry_signal = false;
                for (row, old_row) in output.chunks_exact(channels).zip(expected.chunks_exact(4)) {
                    for (value, old_value) in row.iter().zip(old_row) {
                        assert!(
                            (value - old_value).abs() < 1e-5,
                            "{larger:?}: {value} against {old_value}"
                        );
                    }
                    new_channels_carry_signal |= row[4..].iter().any(|&value| value > 0.0);
                }
                assert_eq!(new_channels_carry_signal, channels > 4);
            }
            let mut refused = vec![
                Shape {
                    channels: 3,
                    ..smaller
                },
                Shape {
                    blocks: 1,
                    ..smaller
                },
                Shape {
                    inputs: 6,
                    ..smaller
                },
            ];
            if pooled {
                refused.push(Shape {
                    pooled: false,
                    ..smaller
                });
            }
            for larger in refused {
                assert!(!can_grow(&smaller, &larger));
            }
        }
    }
}
