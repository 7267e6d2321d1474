//! Training the value network of [`crate::go::search::value`] on teacher positions: the
//! samples (feature planes, komi, the teacher's win probability for the player to move), the
//! backward pass of the pooled head into the trunk's ([`crate::nn::train::trunk_backward`]),
//! and AdamW over mini-batches with a random one
//! of the eight board symmetries per sample. The loss is the cross-entropy against the
//! teacher's probability (a soft target: distillation, not game results), plus, where the
//! teacher gave them, the auxiliary heads' losses ([`AuxiliaryWeights`]): each point's
//! ownership as a cross-entropy over its two owners, the score lead as a Huber loss, and the
//! teacher's move distribution as a cross-entropy over the candidates (legal moves that fill
//! no own eye, and pass). A run repeats exactly for a given seed and shard count on a given
//! processor. Knows the teacher positions and the network; nothing of the tree.

use crate::go::learn::teacher::TeacherPosition;
use crate::go::search::planes::{encode, INPUT_PLANES};
use crate::go::search::value::{
    head_forward, logistic, point_logits, BoardSizes, HeadActivations, PointHead, ValueNetwork,
    ValueShape, KOMI_SCALE, SCORE_SCALE, VALUE_PLANES,
};
use crate::nn::forward::{forward_trunk, Activations};
use crate::nn::head::{point_backward, pooled_backward};
use crate::nn::layout::{neighbour_table, Shape};
use crate::nn::train::{
    can_grow, fit_network, grow_trunk, initial_trunk_parameters, trunk_backward, NetworkOptions,
    ShardResult, SizeGroup, TrainingState, TrunkBuffers,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// One training position.
pub struct ValueSample {
    /// Go's feature planes `[point][INPUT_PLANES]` as 0 or 1.
    pub planes: Vec<u8>,
    /// The komi plane's value: komi from the mover's side over [`KOMI_SCALE`].
    pub komi: f32,
    /// The teacher's probability that the player to move wins.
    pub target: f32,
    /// The teacher's score lead of the player to move, in points, when given.
    pub lead: Option<f32>,
    /// The teacher's ownership from the mover's view in hundredths, point by point as the
    /// planes (empty when not given).
    pub ownership: Vec<i8>,
    /// The teacher's move distribution over the candidates: (point as the planes, or
    /// [`PASS`], probability); empty when the candidates hold none of it.
    pub policy: Vec<(u16, f32)>,
}

/// The pass move among a sample's candidates.
pub const PASS: u16 = u16::MAX;

/// The weights of the auxiliary losses beside the win probability's cross-entropy (1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AuxiliaryWeights {
    /// The ownership cross-entropy, averaged over the points.
    pub ownership: f32,
    /// The score lead's Huber loss (in units of [`SCORE_SCALE`] points, quadratic within one).
    pub score: f32,
    /// The move distribution's cross-entropy.
    pub policy: f32,
}

impl AuxiliaryWeights {
    /// No auxiliary loss: the win probability alone.
    pub const NONE: AuxiliaryWeights = AuxiliaryWeights {
        ownership: 0.0,
        score: 0.0,
        policy: 0.0,
    };
}

/// The sample of a teacher position, `None` when the teacher gave no win probability.
pub fn value_sample(position: &TeacherPosition) -> Option<ValueSample> {
    let target = position.win?;
    let size = position.board.size();
    let mut planes = vec![0.0; size * size * INPUT_PLANES];
    encode(&position.board, position.color, &mut planes);
    let komi = match position.color {
        crate::color::Color::White => position.komi as f32,
        crate::color::Color::Black => -position.komi as f32,
    } / KOMI_SCALE;
    let stride = size + 1;
    let covered: f32 = position.targets.iter().sum();
    let policy = if covered > 0.5 {
        position
            .candidates
            .iter()
            .zip(&position.targets)
            .map(|(&point, &probability)| {
                let point = point as usize;
                let index = if point == crate::go::search::board::NO_POINT {
                    PASS
                } else {
                    ((point / stride - 1) * size + point % stride - 1) as u16
                };
                (index, probability)
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(ValueSample {
        planes: planes.iter().map(|&value| value as u8).collect(),
        komi,
        target,
        lead: position.lead,
        ownership: position.ownership.clone().unwrap_or_default(),
        policy,
    })
}

/// One shard's buffers.
#[derive(Default)]
struct Workspace {
    input: Vec<f32>,
    targets: Vec<f32>,
    /// Each sample's score target (lead over [`SCORE_SCALE`]), when given.
    leads: Vec<Option<f32>>,
    /// Each sample's ownership targets as probabilities that the mover owns the point
    /// (`[sample][point]` under the sample's symmetry; empty rows when not given).
    ownership: Vec<Vec<f32>>,
    ownership_logits: Vec<f32>,
    /// Each sample's move targets under its symmetry (see [`ValueSample::policy`]).
    policy: Vec<Vec<(u16, f32)>>,
    policy_logits: Vec<f32>,
    /// The softmax over one sample's candidates.
    policy_probabilities: Vec<f32>,
    activations: Activations,
    head: HeadActivations,
    trunk_gradient: Vec<f32>,
    inner_gradient: Vec<f32>,
    pre_gradient: Vec<f32>,
    column_gradient: Vec<f32>,
    gradient: Vec<f32>,
    /// The win probability's summed cross-entropy (what an epoch reports).
    loss: f64,
    /// The whole objective, auxiliary losses included (what the gradient is of).
    objective: f64,
}

/// Fills the workspace's input from samples under symmetries.
fn assemble(samples: &[(&ValueSample, &[u16])], points: usize, workspace: &mut Workspace) {
    workspace.input.clear();
    workspace
        .input
        .resize(samples.len() * points * VALUE_PLANES, 0.0);
    workspace.targets.clear();
    workspace.leads.clear();
    workspace.ownership.resize_with(samples.len(), Vec::new);
    workspace.policy.resize_with(samples.len(), Vec::new);
    for (position, (sample, permutation)) in samples.iter().enumerate() {
        for point in 0..points {
            let to = (position * points + permutation[point] as usize) * VALUE_PLANES;
            for plane in 0..INPUT_PLANES {
                workspace.input[to + plane] =
                    f32::from(sample.planes[point * INPUT_PLANES + plane]);
            }
            workspace.input[to + INPUT_PLANES] = sample.komi;
        }
        workspace.targets.push(sample.target);
        workspace
            .leads
            .push(sample.lead.map(|lead| lead / SCORE_SCALE));
        let row = &mut workspace.ownership[position];
        row.clear();
        if sample.ownership.len() == points {
            row.resize(points, 0.0);
            for (point, &owner) in sample.ownership.iter().enumerate() {
                row[permutation[point] as usize] = 0.5 + f32::from(owner) / 200.0;
            }
        }
        let moves = &mut workspace.policy[position];
        moves.clear();
        moves.extend(sample.policy.iter().map(|&(point, probability)| {
            let point = if point == PASS {
                PASS
            } else {
                permutation[point as usize]
            };
            (point, probability)
        }));
    }
}

/// The cross-entropy of a probability against a soft target (its logit given, for a stable
/// logarithm).
fn cross_entropy(logit: f32, target: f32) -> f64 {
    let logit = f64::from(logit);
    let target = f64::from(target);
    // -t ln σ(z) - (1 - t) ln(1 - σ(z)) = softplus(z) - t z
    let softplus = if logit > 0.0 {
        logit + (-logit).exp().ln_1p()
    } else {
        logit.exp().ln_1p()
    };
    softplus - target * logit
}

/// The summed cross-entropy of the workspace's samples and, into `workspace.gradient`, its
/// gradient with respect to every parameter, divided by `scale` (the whole batch's size).
fn gradient(
    shape: &ValueShape,
    parameters: &[f32],
    points: usize,
    table: &[u16],
    (scale, auxiliary): (f32, AuxiliaryWeights),
    workspace: &mut Workspace,
) {
    let Workspace {
        input,
        targets,
        leads,
        ownership,
        ownership_logits,
        policy,
        policy_logits,
        policy_probabilities,
        activations,
        head,
        trunk_gradient,
        inner_gradient,
        pre_gradient,
        column_gradient,
        gradient,
        loss,
        objective,
    } = workspace;
    gradient.clear();
    gradient.resize(parameters.len(), 0.0);
    *loss = 0.0;
    *objective = 0.0;
    if input.is_empty() {
        return;
    }
    let trunk = &shape.trunk;
    forward_trunk(trunk, parameters, input, points, table, activations);
    let layout = shape.head();
    let channels = trunk.channels;
    let top = &activations.trunk[trunk.blocks];
    trunk_gradient.clear();
    trunk_gradient.resize(top.len(), 0.0);
    for (position, &target) in targets.iter().enumerate() {
        let rows = position * points * channels..(position + 1) * points * channels;
        head_forward(&layout, parameters, &top[rows.clone()], points, head);
        let win_loss = cross_entropy(head.logit, target);
        *loss += win_loss;
        *objective += win_loss;
        let logit_gradient = (logistic(head.logit) - target) / scale;
        // Huber: quadratic within one unit of the target, linear beyond.
        let score_gradient = match leads[position] {
            Some(lead) if auxiliary.score > 0.0 => {
                let error = head.score - lead;
                *objective += f64::from(auxiliary.score)
                    * if error.abs() <= 1.0 {
                        0.5 * f64::from(error * error)
                    } else {
                        f64::from(error.abs()) - 0.5
                    };
                auxiliary.score * error.clamp(-1.0, 1.0) / scale
            }
            _ => 0.0,
        };
        // The move distribution: a softmax over the candidates' logits (the points' from the
        // policy convolution, pass's from the value head), its gradient into both.
        let moves = &policy[position];
        let mut pass_gradient = 0.0;
        if auxiliary.policy > 0.0 && !moves.is_empty() {
            point_logits(
                &layout,
                parameters,
                PointHead::Policy,
                &top[rows.clone()],
                points,
                policy_logits,
            );
            let logit_of = |point: u16| {
                if point == PASS {
                    head.pass_logit
                } else {
                    policy_logits[point as usize]
                }
            };
            let largest = moves
                .iter()
                .map(|&(point, _)| logit_of(point))
                .fold(f32::NEG_INFINITY, f32::max);
            policy_probabilities.clear();
            policy_probabilities.extend(
                moves
                    .iter()
                    .map(|&(point, _)| (logit_of(point) - largest).exp()),
            );
            let total: f32 = policy_probabilities.iter().sum();
            for (&(point, target), probability) in moves.iter().zip(policy_probabilities.iter_mut())
            {
                *probability /= total;
                if target > 0.0 {
                    *objective -= f64::from(auxiliary.policy)
                        * f64::from(target)
                        * f64::from(probability.max(1e-30).ln());
                }
                let move_gradient = auxiliary.policy * (*probability - target) / scale;
                if point == PASS {
                    pass_gradient = move_gradient;
                    continue;
                }
                let start = rows.start + point as usize * channels;
                let row = start..start + channels;
                point_backward(
                    parameters,
                    layout.policy_weights,
                    &top[row.clone()],
                    move_gradient,
                    gradient,
                    &mut trunk_gradient[row],
                );
            }
        }
        pooled_backward(
            &layout.pooled(),
            parameters,
            &mut head.pooled,
            &[
                (layout.output_weights, logit_gradient),
                (layout.score_weights, score_gradient),
                (layout.pass_weights, pass_gradient),
            ],
            points,
            gradient,
            &mut trunk_gradient[rows.clone()],
        );
        let owners = &ownership[position];
        if auxiliary.ownership > 0.0 && owners.len() == points {
            // The owner's probability is the logistic of twice the logit (tanh's own).
            point_logits(
                &layout,
                parameters,
                PointHead::Ownership,
                &top[rows.clone()],
                points,
                ownership_logits,
            );
            let weight = auxiliary.ownership / points as f32;
            for (point, (&logit, &owner)) in ownership_logits.iter().zip(owners).enumerate() {
                *objective += f64::from(weight) * cross_entropy(2.0 * logit, owner);
                let point_gradient = weight * 2.0 * (logistic(2.0 * logit) - owner) / scale;
                let start = rows.start + point * channels;
                let row = start..start + channels;
                point_backward(
                    parameters,
                    layout.ownership_weights,
                    &top[row.clone()],
                    point_gradient,
                    gradient,
                    &mut trunk_gradient[row],
                );
            }
        }
    }
    trunk_backward(
        trunk,
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

/// Initial parameters: the trunk's as [`initial_trunk_parameters`] makes them; the head's weights uniform at
/// He scale, biases zero.
fn initial_parameters(shape: &ValueShape, random: &mut SmallRng) -> Vec<f32> {
    let mut parameters = vec![0.0; shape.parameter_count()];
    initial_trunk_parameters(&shape.trunk, random, &mut parameters);
    let layout = shape.head();
    let bound = (6.0 / layout.features as f32).sqrt();
    for weight in &mut parameters[layout.hidden_weights..layout.hidden_biases] {
        *weight = random.gen_range(-bound..bound);
    }
    let bound = (3.0 / layout.hidden as f32).sqrt();
    for weight in &mut parameters[layout.output_weights..layout.output_bias] {
        *weight = random.gen_range(-bound..bound);
    }
    for weight in &mut parameters[layout.score_weights..layout.score_bias] {
        *weight = random.gen_range(-bound..bound);
    }
    for weight in &mut parameters[layout.pass_weights..layout.pass_bias] {
        *weight = random.gen_range(-bound..bound);
    }
    let bound = (3.0 / shape.trunk.channels as f32).sqrt();
    for weight in &mut parameters[layout.ownership_weights..layout.ownership_bias] {
        *weight = random.gen_range(-bound..bound);
    }
    for weight in &mut parameters[layout.policy_weights..layout.policy_bias] {
        *weight = random.gen_range(-bound..bound);
    }
    parameters
}

/// Puts `start`'s parameters into `parameters`, a fresh initialisation of `shape`: a copy
/// when the shapes agree; when `shape` has more channels or blocks, the trunk grown as
/// [`grow_trunk`] says and the heads reading the new channels with zero weights, so the
/// grown network judges every position as `start` did and training goes on from there.
///
/// # Errors
/// `shape` has fewer channels or blocks than `start`, or another head width.
pub fn grow(
    start: &ValueNetwork,
    shape: &ValueShape,
    parameters: &mut [f32],
) -> Result<(), String> {
    let (old, new) = (&start.shape, shape);
    if old.hidden != new.hidden || !can_grow(&old.trunk, &new.trunk) {
        return Err(format!(
            "the starting network ({} blocks of {} channels, {} head units) cannot grow into \
             the one asked for ({} blocks of {} channels, {} head units)",
            old.trunk.blocks,
            old.trunk.channels,
            old.hidden,
            new.trunk.blocks,
            new.trunk.channels,
            new.hidden
        ));
    }
    grow_trunk(&old.trunk, &start.parameters, &new.trunk, parameters);
    let (from, to) = (old.head(), new.head());
    let (old_channels, new_channels) = (old.trunk.channels, new.trunk.channels);
    // The pooled features: each channel's mean, then each channel's maximum.
    parameters[to.hidden_weights..to.hidden_biases].fill(0.0);
    for feature in 0..from.features {
        let (pool, channel) = (feature / old_channels, feature % old_channels);
        let target = to.hidden_weights + (pool * new_channels + channel) * to.hidden;
        let source = from.hidden_weights + feature * from.hidden;
        parameters[target..target + to.hidden]
            .copy_from_slice(&start.parameters[source..source + from.hidden]);
    }
    let same_width = [
        (from.hidden_biases, to.hidden_biases, from.hidden),
        (from.output_weights, to.output_weights, from.hidden + 1),
        (from.score_weights, to.score_weights, from.hidden + 1),
        (from.pass_weights, to.pass_weights, from.hidden + 1),
    ];
    for (source, target, length) in same_width {
        parameters[target..target + length]
            .copy_from_slice(&start.parameters[source..source + length]);
    }
    for (source, target) in [
        (from.ownership_weights, to.ownership_weights),
        (from.policy_weights, to.policy_weights),
    ] {
        parameters[target..target + new_channels + 1].fill(0.0);
        parameters[target..target + old_channels]
            .copy_from_slice(&start.parameters[source..source + old_channels]);
        parameters[target + new_channels] = start.parameters[source + old_channels];
    }
    Ok(())
}

impl ShardResult for Workspace {
    fn result(&mut self) -> (&mut f64, &mut Vec<f32>) {
        (&mut self.loss, &mut self.gradient)
    }
}

/// Trains a value network of `hidden` head units on `groups` (one board size each; the
/// network records their sizes), the auxiliary heads with `auxiliary`, from `start`'s
/// parameters when given (its shape must be the one asked for) or from random ones, calling
/// `report` with the epoch, its mean training cross-entropy, the network after each epoch
/// and the state that resumes the run there. With `resume` (that state, and `start` the
/// network reported beside it) the run goes on after the state's epochs as if it had not
/// stopped.
///
/// # Errors
/// `start`'s shape differs from the one `options` and `hidden` ask for, or `resume` is not
/// a state of this run (see [`fit_network`]).
pub fn train(
    groups: &[SizeGroup<'_, ValueSample>],
    hidden: usize,
    auxiliary: AuxiliaryWeights,
    options: &NetworkOptions,
    start: Option<&ValueNetwork>,
    resume: Option<TrainingState>,
    mut report: impl FnMut(usize, f64, &ValueNetwork, &TrainingState),
) -> Result<ValueNetwork, String> {
    let size_list: Vec<usize> = groups.iter().map(|group| group.size).collect();
    // The sizes learned: those of the groups, and those the starting network had learned
    // (a network trained on from one that knew 19x19 still knows it).
    let sizes = BoardSizes(BoardSizes::of(&size_list).0 | start.map_or(0, |start| start.sizes.0));
    let shape = ValueShape {
        trunk: Shape {
            inputs: VALUE_PLANES,
            channels: options.channels,
            blocks: options.blocks,
            pooled: options.pooled,
            board_size: sizes.largest().unwrap_or(0),
        },
        hidden,
    };
    let tables: Vec<(usize, Vec<u16>)> = size_list
        .iter()
        .map(|&size| (size, neighbour_table(size)))
        .collect();
    let mut random = SmallRng::seed_from_u64(options.seed);
    let mut parameters = initial_parameters(&shape, &mut random);
    if let Some(start) = start {
        grow(start, &shape, &mut parameters)?;
    }
    fit_network(
        groups,
        options,
        &mut random,
        &mut parameters,
        resume,
        |workspace: &mut Workspace, size, shard, parameters, scale| {
            let points = size * size;
            let table = tables
                .iter()
                .find(|(table_size, _)| *table_size == size)
                .map(|(_, table)| table.as_slice())
                .unwrap_or_default();
            assemble(shard, points, workspace);
            gradient(
                &shape,
                parameters,
                points,
                table,
                (scale, auxiliary),
                workspace,
            );
        },
        |epoch, loss, parameters, state| {
            let network = ValueNetwork::new(shape, sizes, parameters.to_vec());
            report(epoch, loss, &network, state);
        },
    )?;
    Ok(ValueNetwork::new(shape, sizes, parameters))
}

/// What the network says of one sample, from the mover's view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prediction {
    /// The win probability.
    pub win: f32,
    /// The score lead in points.
    pub lead: f32,
    /// Each point's expected owner (-1..1), as the planes.
    pub ownership: Vec<f32>,
    /// The move distribution over the sample's candidates (its [`ValueSample::policy`] order).
    pub policy: Vec<f32>,
}

/// The network's prediction for each sample (identity symmetry), in parallel.
pub fn predict(network: &ValueNetwork, samples: &[ValueSample], size: usize) -> Vec<Prediction> {
    let points = size * size;
    let table = neighbour_table(size);
    let identity: Vec<u16> = (0..points as u16).collect();
    samples
        .par_chunks(256)
        .flat_map_iter(|chunk| {
            let mut workspace = Workspace::default();
            let chosen: Vec<(&ValueSample, &[u16])> = chunk
                .iter()
                .map(|sample| (sample, identity.as_slice()))
                .collect();
            assemble(&chosen, points, &mut workspace);
            let trunk = &network.shape.trunk;
            forward_trunk(
                trunk,
                &network.parameters,
                &workspace.input,
                points,
                &table,
                &mut workspace.activations,
            );
            let layout = network.shape.head();
            let top = &workspace.activations.trunk[trunk.blocks];
            let width = points * trunk.channels;
            (0..chunk.len())
                .map(|position| {
                    let rows = &top[position * width..(position + 1) * width];
                    head_forward(
                        &layout,
                        &network.parameters,
                        rows,
                        points,
                        &mut workspace.head,
                    );
                    let mut ownership = Vec::new();
                    point_logits(
                        &layout,
                        &network.parameters,
                        PointHead::Ownership,
                        rows,
                        points,
                        &mut ownership,
                    );
                    ownership.iter_mut().for_each(|value| *value = value.tanh());
                    let mut logits = Vec::new();
                    point_logits(
                        &layout,
                        &network.parameters,
                        PointHead::Policy,
                        rows,
                        points,
                        &mut logits,
                    );
                    let mut policy: Vec<f32> = chunk[position]
                        .policy
                        .iter()
                        .map(|&(point, _)| match point {
                            PASS => workspace.head.pass_logit,
                            point => logits[point as usize],
                        })
                        .collect();
                    let largest = policy.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                    policy
                        .iter_mut()
                        .for_each(|logit| *logit = (*logit - largest).exp());
                    let total: f32 = policy.iter().sum();
                    policy
                        .iter_mut()
                        .for_each(|probability| *probability /= total);
                    Prediction {
                        win: logistic(workspace.head.logit),
                        lead: workspace.head.score * SCORE_SCALE,
                        ownership,
                        policy,
                    }
                })
                .collect::<Vec<Prediction>>()
        })
        .collect()
}

/// Held-out figures of a value network against the teacher.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueFigures {
    /// Positions measured.
    pub positions: usize,
    /// Mean cross-entropy against the teacher's probability (nats).
    pub cross_entropy: f64,
    /// The teacher's own mean entropy: the cross-entropy's floor (their difference is the
    /// mean KL divergence).
    pub teacher_entropy: f64,
    /// The cross-entropy of always answering the mean target (the floor of knowing nothing).
    pub constant_cross_entropy: f64,
    /// Mean squared error of the probability.
    pub squared_error: f64,
    /// Share of positions where network and teacher agree on who is ahead (both above or
    /// both below one half; positions the teacher calls within 0.45..0.55 left out).
    pub agreement: f64,
    /// Calibration: per tenth of the network's probability, (positions, mean network
    /// probability, mean teacher probability).
    pub calibration: Vec<(usize, f64, f64)>,
    /// Positions with the teacher's score lead.
    pub scored: usize,
    /// Mean absolute error of the score lead, in points.
    pub lead_error: f64,
    /// Points with the teacher's ownership.
    pub owned_points: usize,
    /// Mean absolute error of the ownership (-1..1).
    pub ownership_error: f64,
    /// Share of the points the teacher gives to one side (|ownership| at least 0.5) that the
    /// network gives to the same side.
    pub ownership_agreement: f64,
    /// Positions with the teacher's move distribution.
    pub policy_positions: usize,
    /// Mean cross-entropy of the move distribution against the teacher's (nats).
    pub policy_cross_entropy: f64,
    /// Share of those positions where the network's most likely move is the teacher's.
    pub policy_top1: f64,
}

/// The entropy of a probability, in nats.
fn entropy(probability: f64) -> f64 {
    let mut total = 0.0;
    for value in [probability, 1.0 - probability] {
        if value > 0.0 {
            total -= value * value.ln();
        }
    }
    total
}

/// Measures `predictions` against the samples' targets.
pub fn evaluate_value(predictions: &[Prediction], samples: &[ValueSample]) -> ValueFigures {
    let count = predictions.len().min(samples.len());
    if count == 0 {
        return ValueFigures::default();
    }
    let mean_target = samples[..count]
        .iter()
        .map(|sample| f64::from(sample.target))
        .sum::<f64>()
        / count as f64;
    let mut figures = ValueFigures {
        positions: count,
        calibration: vec![(0, 0.0, 0.0); 10],
        ..ValueFigures::default()
    };
    let (mut decided, mut agreed) = (0usize, 0usize);
    let (mut owned, mut owned_agreed) = (0usize, 0usize);
    let mut top1 = 0usize;
    for (prediction, sample) in predictions.iter().zip(samples) {
        if !sample.policy.is_empty() && prediction.policy.len() == sample.policy.len() {
            figures.policy_positions += 1;
            let most_likely = |values: &mut dyn Iterator<Item = f32>| {
                values
                    .enumerate()
                    .fold((0, f32::NEG_INFINITY), |best, (index, value)| {
                        if value > best.1 {
                            (index, value)
                        } else {
                            best
                        }
                    })
                    .0
            };
            for (&probability, &(_, target)) in prediction.policy.iter().zip(&sample.policy) {
                if target > 0.0 {
                    figures.policy_cross_entropy -=
                        f64::from(target) * f64::from(probability.max(1e-30)).ln();
                }
            }
            let network_choice = most_likely(&mut prediction.policy.iter().copied());
            let teacher_choice = most_likely(&mut sample.policy.iter().map(|&(_, target)| target));
            if network_choice == teacher_choice {
                top1 += 1;
            }
        }
        if let Some(lead) = sample.lead {
            figures.scored += 1;
            figures.lead_error += f64::from((prediction.lead - lead).abs());
        }
        if sample.ownership.len() == prediction.ownership.len() {
            for (&owner, &predicted) in sample.ownership.iter().zip(&prediction.ownership) {
                let owner = f32::from(owner) / 100.0;
                figures.owned_points += 1;
                figures.ownership_error += f64::from((owner - predicted).abs());
                if owner.abs() >= 0.5 {
                    owned += 1;
                    if (owner > 0.0) == (predicted > 0.0) {
                        owned_agreed += 1;
                    }
                }
            }
        }
        let probability = f64::from(prediction.win).clamp(1e-7, 1.0 - 1e-7);
        let target = f64::from(sample.target);
        figures.cross_entropy -=
            target * probability.ln() + (1.0 - target) * (1.0 - probability).ln();
        figures.teacher_entropy += entropy(target);
        figures.constant_cross_entropy -=
            target * mean_target.ln() + (1.0 - target) * (1.0 - mean_target).ln();
        figures.squared_error += (probability - target).powi(2);
        if (target - 0.5).abs() >= 0.05 {
            decided += 1;
            if (probability > 0.5) == (target > 0.5) {
                agreed += 1;
            }
        }
        let bin = ((probability * 10.0) as usize).min(9);
        let (positions, predicted, taught) = &mut figures.calibration[bin];
        *positions += 1;
        *predicted += probability;
        *taught += target;
    }
    let scale = count as f64;
    figures.cross_entropy /= scale;
    figures.teacher_entropy /= scale;
    figures.constant_cross_entropy /= scale;
    figures.squared_error /= scale;
    figures.agreement = agreed as f64 / decided.max(1) as f64;
    figures.lead_error /= figures.scored.max(1) as f64;
    figures.ownership_error /= figures.owned_points.max(1) as f64;
    figures.ownership_agreement = owned_agreed as f64 / owned.max(1) as f64;
    figures.policy_cross_entropy /= figures.policy_positions.max(1) as f64;
    figures.policy_top1 = top1 as f64 / figures.policy_positions.max(1) as f64;
    for (positions, predicted, taught) in &mut figures.calibration {
        if *positions > 0 {
            *predicted /= *positions as f64;
            *taught /= *positions as f64;
        }
    }
    figures
}

impl ValueFigures {
    /// One line of the main figures.
    pub fn summary(&self) -> String {
        format!(
            "{} positions, cross-entropy {:.4} (teacher's entropy {:.4}, so KL {:.4}; a constant {:.4}), \
             squared error {:.4}, agrees on the side ahead {:.1}%; score lead off by {:.2} points \
             ({} positions); ownership off by {:.3}, {:.1}% of the teacher's owned points agree \
             ({} points); moves: cross-entropy {:.3}, the teacher's first choice first {:.1}% \
             ({} positions)",
            self.positions,
            self.cross_entropy,
            self.teacher_entropy,
            self.cross_entropy - self.teacher_entropy,
            self.constant_cross_entropy,
            self.squared_error,
            100.0 * self.agreement,
            self.lead_error,
            self.scored,
            self.ownership_error,
            100.0 * self.ownership_agreement,
            self.owned_points,
            self.policy_cross_entropy,
            100.0 * self.policy_top1,
            self.policy_positions,
        )
    }

    /// The calibration table, one line per tenth that holds positions.
    pub fn calibration_lines(&self) -> Vec<String> {
        self.calibration
            .iter()
            .enumerate()
            .filter(|(_, (positions, _, _))| *positions > 0)
            .map(|(bin, (positions, predicted, taught))| {
                format!(
                    "  {:.1}-{:.1}: {positions} positions, network {predicted:.3}, teacher {taught:.3}",
                    bin as f64 / 10.0,
                    (bin + 1) as f64 / 10.0
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::go::rules::board::Board;
    use crate::go::rules::point::{point_at, Move};
    use crate::go::search::board::PlayoutBoard;
    use crate::go::search::planes::symmetries;
    use crate::nn::file::WeightFile;
    use crate::nn::train::STATE_KIND;

    const AUXILIARY: AuxiliaryWeights = AuxiliaryWeights {
        ownership: 1.5,
        score: 0.7,
        policy: 0.8,
    };

    /// Made-up ownership from the mover's view that a network can learn under every
    /// symmetry: stones belong to their colour, empty points on the edge to the mover, the
    /// others to the opponent by less.
    fn made_up_ownership(board: &PlayoutBoard, color: Color) -> Vec<i8> {
        let size = board.size();
        (0..size * size)
            .map(|point| {
                let (row, column) = (point / size, point % size);
                let cell = board.cell((row + 1) * board.stride() + column + 1);
                if cell == crate::go::search::board::stone_code(color) {
                    100
                } else if cell == crate::go::search::board::stone_code(color.opponent()) {
                    -100
                } else if row == 0 || column == 0 || row == size - 1 || column == size - 1 {
                    70
                } else {
                    -60
                }
            })
            .collect()
    }

    /// A made-up move distribution that a network can learn under every symmetry: the empty
    /// points on the edge three times as likely as the others, pass half as likely.
    fn made_up_policy(board: &PlayoutBoard) -> (Vec<u16>, Vec<f32>) {
        let size = board.size();
        let mut candidates = Vec::new();
        let mut weights = Vec::new();
        for row in 0..size {
            for column in 0..size {
                let point = (row + 1) * board.stride() + column + 1;
                if board.cell(point) == crate::go::search::board::EMPTY {
                    candidates.push(point as u16);
                    let edge = row == 0 || column == 0 || row == size - 1 || column == size - 1;
                    weights.push(if edge { 3.0 } else { 1.0 });
                }
            }
        }
        candidates.push(crate::go::search::board::NO_POINT as u16);
        weights.push(0.5);
        let total: f32 = weights.iter().sum();
        (
            candidates,
            weights.iter().map(|weight| weight / total).collect(),
        )
    }

    /// The positions of a 5x5 game played under `symmetry` (the symmetries' numbering: bit 0
    /// mirrors the columns, bit 1 the rows, bit 2 swaps them), with made-up ownership and
    /// moves, win 0.5 and lead 1.
    fn game_positions(symmetry: usize) -> Vec<TeacherPosition> {
        let transform = |column: usize, row: usize| {
            let (mut r, mut c) = (row, column);
            if symmetry & 1 != 0 {
                c = 4 - c;
            }
            if symmetry & 2 != 0 {
                r = 4 - r;
            }
            if symmetry & 4 != 0 {
                std::mem::swap(&mut r, &mut c);
            }
            (c, r)
        };
        let mut board = Board::new(5);
        let mut color = Color::Black;
        let mut positions = Vec::new();
        for (column, row) in [(2, 2), (1, 1), (3, 1), (1, 3), (3, 3), (2, 1)] {
            let playout = PlayoutBoard::from_board(&board, color);
            let (candidates, targets) = made_up_policy(&playout);
            positions.push(TeacherPosition {
                ownership: Some(made_up_ownership(&playout, color)),
                board: playout,
                color,
                candidates,
                targets,
                played: None,
                komi: 7.5,
                win: Some(0.5),
                lead: Some(1.0),
            });
            let (c, r) = transform(column, row);
            board
                .try_play(Move::Place(point_at(c, r, 5)), color, false)
                .expect("legal");
            color = color.opponent();
        }
        positions
    }

    /// The game's positions with made-up targets (the last without the auxiliary ones; one
    /// lead beyond the Huber loss's quadratic part).
    fn samples() -> Vec<ValueSample> {
        game_positions(0)
            .into_iter()
            .enumerate()
            .map(|(index, mut position)| {
                position.win = Some(0.2 + 0.1 * index as f32);
                position.lead = (index < 5).then_some(-6.0 + 7.0 * index as f32);
                if index >= 5 {
                    position.ownership = None;
                }
                value_sample(&position).expect("a win probability")
            })
            .collect()
    }

    /// The samples of the game played under `symmetry`.
    fn transformed_samples(symmetry: usize) -> Vec<ValueSample> {
        game_positions(symmetry)
            .iter()
            .map(|position| value_sample(position).expect("a win probability"))
            .collect()
    }

    /// The symmetries training draws are the board's: a position's planes and ownership
    /// and move targets under symmetry s are those of the game played mirrored by s (stones,
    /// liberties, the last moves, komi, owners and moves all move together).
    #[test]
    fn training_symmetries_move_planes_and_owners_together() {
        let permutations = symmetries(5);
        let identity: Vec<u16> = (0..25).collect();
        for permutation in &permutations {
            let mut sorted = permutation.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, identity);
        }
        let original = transformed_samples(0);
        for (symmetry, permutation) in permutations.iter().enumerate() {
            let mirrored = transformed_samples(symmetry);
            for (sample, mirror) in original.iter().zip(&mirrored) {
                let mut drawn = Workspace::default();
                assemble(&[(sample, permutation.as_slice())], 25, &mut drawn);
                let mut played = Workspace::default();
                assemble(&[(mirror, identity.as_slice())], 25, &mut played);
                assert_eq!(drawn.input, played.input, "symmetry {symmetry}");
                assert_eq!(drawn.ownership, played.ownership, "symmetry {symmetry}");
                let mut drawn_moves = drawn.policy[0].clone();
                let mut played_moves = played.policy[0].clone();
                drawn_moves.sort_by_key(|&(point, _)| point);
                played_moves.sort_by_key(|&(point, _)| point);
                assert_eq!(drawn_moves, played_moves, "symmetry {symmetry}");
            }
        }
    }

    fn loss_at(shape: &ValueShape, parameters: &[f32], chosen: &[(&ValueSample, &[u16])]) -> f64 {
        let mut workspace = Workspace::default();
        assemble(chosen, 25, &mut workspace);
        gradient(
            shape,
            parameters,
            25,
            &neighbour_table(5),
            (1.0, AUXILIARY),
            &mut workspace,
        );
        workspace.objective
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        gradient_check(false);
    }

    /// The same with the blocks' pooling (its weights and everything before it).
    #[test]
    fn the_pooled_gradient_matches_finite_differences() {
        gradient_check(true);
    }

    fn gradient_check(pooled: bool) {
        let samples = samples();
        let shape = ValueShape {
            trunk: Shape {
                inputs: VALUE_PLANES,
                channels: 4,
                blocks: 1,
                pooled,
                board_size: 5,
            },
            hidden: 3,
        };
        let mut random = SmallRng::seed_from_u64(3);
        let mut parameters = initial_parameters(&shape, &mut random);
        // Biases away from zero, so rectifiers are not all at their kink.
        for parameter in parameters.iter_mut() {
            *parameter += random.gen_range(-0.05..0.05);
        }
        let permutations = symmetries(5);
        let chosen: Vec<(&ValueSample, &[u16])> = samples
            .iter()
            .enumerate()
            .map(|(index, sample)| (sample, permutations[index % 8].as_slice()))
            .collect();
        let mut workspace = Workspace::default();
        assemble(&chosen, 25, &mut workspace);
        gradient(
            &shape,
            &parameters,
            25,
            &neighbour_table(5),
            (1.0, AUXILIARY),
            &mut workspace,
        );
        let analytic = workspace.gradient.clone();
        let layout = shape.head();
        let trunk_layers = shape.trunk.convolutions();
        // A few parameters of every part: stem, block, head (hidden, win, score, ownership).
        let probes = [
            trunk_layers[0].weights + 5,
            trunk_layers[0].biases + 1,
            trunk_layers[1].weights + 17,
            trunk_layers[2].weights + 3,
            trunk_layers[2].biases,
            layout.hidden_weights + 2,
            layout.hidden_weights + 4 * layout.hidden + 1,
            layout.hidden_biases + 1,
            layout.output_weights,
            layout.output_bias,
            layout.score_weights + 1,
            layout.score_bias,
            layout.ownership_weights,
            layout.ownership_weights + 3,
            layout.ownership_bias,
            layout.policy_weights + 2,
            layout.policy_bias,
            layout.pass_weights + 1,
            layout.pass_bias,
        ];
        // The pooling weights: from the means, the scaled means and the maxima.
        let pooling: Vec<usize> = shape
            .trunk
            .pooling(0)
            .map(|start| vec![start + 1, start + 4 * 4 + 2, start + 2 * 4 * 4 + 5])
            .unwrap_or_default();
        for &index in probes.iter().chain(&pooling) {
            let step = 1e-3;
            let mut plus = parameters.clone();
            plus[index] += step;
            let mut minus = parameters.clone();
            minus[index] -= step;
            let numeric = (loss_at(&shape, &plus, &chosen) - loss_at(&shape, &minus, &chosen))
                / (2.0 * f64::from(step));
            let exact = f64::from(analytic[index]);
            let tolerance = 2e-3 + 2e-2 * numeric.abs().max(exact.abs());
            assert!(
                (numeric - exact).abs() < tolerance,
                "parameter {index}: finite differences {numeric}, backward pass {exact}"
            );
        }
    }

    /// A run stopped after an epoch and resumed from what it reported (the state through its
    /// file) ends with the uninterrupted run's weights, bit for bit; a state that cannot be
    /// the run's is refused.
    #[test]
    fn a_resumed_run_ends_where_the_uninterrupted_one_does() {
        let samples = samples();
        let options = NetworkOptions {
            channels: 8,
            blocks: 1,
            pooled: false,
            epochs: 3,
            batch: 2,
            learning_rate: 3e-3,
            weight_decay: 1e-4,
            seed: 5,
            shards: 2,
        };
        let symmetries = symmetries(5);
        let groups = [SizeGroup {
            size: 5,
            samples: &samples,
            symmetries: &symmetries,
        }];
        let mut reported = Vec::new();
        let whole = train(
            &groups,
            8,
            AUXILIARY,
            &options,
            None,
            None,
            |epoch, _, network, state| {
                reported.push((epoch, network.clone(), state.clone()));
            },
        )
        .expect("a fresh run");
        assert_eq!(reported.len(), 3);
        let (_, after_one, state) = reported[0].clone();
        assert_eq!(state.epochs_done, 1);
        let file = WeightFile::from_bytes(&state.to_weight_file().to_bytes(), STATE_KIND)
            .expect("the state's file reads back");
        let state = TrainingState::from_weight_file(&file).expect("a state");
        assert_eq!(state, reported[0].2);
        let mut epochs = Vec::new();
        let resumed = train(
            &groups,
            8,
            AUXILIARY,
            &options,
            Some(&after_one),
            Some(state.clone()),
            |epoch, _, _, _| epochs.push(epoch),
        )
        .expect("the run's own state");
        assert_eq!(epochs, vec![1, 2]);
        assert_eq!(resumed.parameters, whole.parameters);
        assert_ne!(after_one.parameters, whole.parameters);
        // Every epoch done, another batch size (other steps an epoch), other dimensions.
        let refused = |options: &NetworkOptions, state: TrainingState| {
            train(
                &groups,
                8,
                AUXILIARY,
                options,
                Some(&after_one),
                Some(state),
                |_, _, _, _| {},
            )
            .is_err()
        };
        assert!(refused(&options, reported[2].2.clone()));
        assert!(refused(
            &NetworkOptions {
                batch: 3,
                ..options.clone()
            },
            state.clone()
        ));
        let mut other = state.to_weight_file();
        other.dimensions[2].1 -= 1;
        other.parameters.truncate(other.parameters.len() - 2);
        let other = TrainingState::from_weight_file(&other).expect("a consistent file");
        assert!(refused(&options, other));
        let mut damaged = state.to_weight_file();
        damaged.parameters.pop();
        assert!(TrainingState::from_weight_file(&damaged).is_err());
    }

    /// (The network pools the board in its block, so the engine's pooled trunk is checked
    /// against training's here too.)
    #[test]
    fn training_fits_a_few_positions_and_prediction_agrees_with_the_engine() {
        let samples = samples();
        let options = NetworkOptions {
            channels: 32,
            blocks: 1,
            pooled: true,
            epochs: 150,
            batch: 6,
            learning_rate: 3e-3,
            weight_decay: 0.0,
            seed: 1,
            shards: 2,
        };
        let mut first = None;
        let mut last = 0.0;
        let symmetries = symmetries(5);
        let groups = [SizeGroup {
            size: 5,
            samples: &samples,
            symmetries: &symmetries,
        }];
        let network = train(
            &groups,
            8,
            AUXILIARY,
            &options,
            None,
            None,
            |epoch, loss, _, _| {
                if epoch == 0 {
                    first = Some(loss);
                }
                last = loss;
            },
        )
        .expect("a fresh network");
        let first = first.expect("an epoch ran");
        assert!(last < first, "loss {first} -> {last}");
        assert_eq!(network.sizes.list(), vec![5]);
        // Training again from the trained weights starts where the first run ended, not
        // where a fresh one starts; a starting network that is wider is refused.
        let again = NetworkOptions {
            epochs: 1,
            learning_rate: 1e-4,
            ..options
        };
        let mut resumed = 0.0;
        let retrained = train(
            &groups,
            8,
            AUXILIARY,
            &again,
            Some(&network),
            None,
            |_, loss, _, _| {
                resumed = loss;
            },
        )
        .expect("the same shape");
        // A network trained on keeps the sizes its start had learned beside those trained.
        assert_eq!(retrained.sizes.list(), vec![5]);
        let knew_seven = ValueNetwork::new(
            network.shape,
            BoardSizes::of(&[5, 7]),
            network.parameters.clone(),
        );
        let knowing = train(
            &groups,
            8,
            AUXILIARY,
            &NetworkOptions {
                epochs: 1,
                ..again.clone()
            },
            Some(&knew_seven),
            None,
            |_, _, _, _| {},
        )
        .expect("the same shape");
        assert_eq!(knowing.sizes.list(), vec![5, 7]);
        assert!(
            (resumed - last).abs() < 0.25 * (first - last),
            "fresh {first}, trained {last}, resumed {resumed}"
        );
        let narrower = NetworkOptions {
            channels: 16,
            ..again
        };
        assert!(train(
            &groups,
            8,
            AUXILIARY,
            &narrower,
            Some(&network),
            None,
            |_, _, _, _| {}
        )
        .is_err());
        let predictions = predict(&network, &samples, 5);
        // Grown wider and deeper, the network predicts what it did (to rounding), so
        // training a grown network starts where the smaller one ended.
        let larger = ValueShape {
            trunk: Shape {
                channels: 64,
                blocks: 3,
                ..network.shape.trunk
            },
            hidden: 8,
        };
        let mut parameters = initial_parameters(&larger, &mut SmallRng::seed_from_u64(3));
        grow(&network, &larger, &mut parameters).expect("a larger shape");
        let grown = ValueNetwork::new(larger, network.sizes, parameters);
        for (old, new) in predictions.iter().zip(predict(&grown, &samples, 5)) {
            assert!((old.win - new.win).abs() < 1e-4, "{old:?} against {new:?}");
            assert!(
                (old.lead - new.lead).abs() < 1e-3,
                "{old:?} against {new:?}"
            );
            for (old, new) in old.ownership.iter().zip(&new.ownership) {
                assert!((old - new).abs() < 1e-4);
            }
            for (old, new) in old.policy.iter().zip(&new.policy) {
                assert!((old - new).abs() < 1e-4);
            }
        }
        let other_head = ValueShape {
            hidden: 9,
            ..larger
        };
        let mut parameters = initial_parameters(&other_head, &mut SmallRng::seed_from_u64(3));
        assert!(grow(&network, &other_head, &mut parameters).is_err());
        let figures = evaluate_value(&predictions, &samples);
        assert!(
            figures.cross_entropy - figures.teacher_entropy < 0.05,
            "{}",
            figures.summary()
        );
        assert_eq!((figures.scored, figures.owned_points), (5, 125));
        // A constant lead would be off by 8.4 points on average (the leads are -6..22).
        assert!(figures.lead_error < 3.0, "{}", figures.summary());
        assert!(figures.ownership_agreement > 0.95, "{}", figures.summary());
        // The move distribution: near the made-up one's entropy (its floor).
        let entropy: f64 = samples
            .iter()
            .map(|sample| {
                sample
                    .policy
                    .iter()
                    .map(|&(_, target)| -f64::from(target) * f64::from(target).ln())
                    .sum::<f64>()
            })
            .sum::<f64>()
            / samples.len() as f64;
        assert_eq!(figures.policy_positions, 6);
        assert!(
            figures.policy_cross_entropy - entropy < 0.05,
            "entropy {entropy}: {}",
            figures.summary()
        );
        // The engine's evaluation (direct kernel, identity symmetry) gives the same numbers.
        let mut board = Board::new(5);
        let mut scratch = crate::go::search::value::ValueScratch::default();
        let first_position = PlayoutBoard::from_board(&board, Color::Black);
        let mut ownership = Vec::new();
        let engine = network.evaluate(
            &first_position,
            Color::Black,
            7.5,
            &mut scratch,
            Some(&mut ownership),
        );
        assert!(
            (engine.win - predictions[0].win).abs() < 1e-4
                && (engine.lead - predictions[0].lead).abs() < 1e-3,
            "{engine:?} {:?}",
            predictions[0]
        );
        assert_eq!(ownership.len(), 25);
        for (engine, training) in ownership.iter().zip(&predictions[0].ownership) {
            assert!((engine - training).abs() < 1e-4, "{engine} {training}");
        }
        board
            .try_play(Move::Place(point_at(2, 2, 5)), Color::Black, false)
            .expect("legal");
        let second = PlayoutBoard::from_board(&board, Color::White);
        let engine = network.win(&second, Color::White, 7.5, &mut scratch);
        assert!(
            (engine - predictions[1].win).abs() < 1e-4,
            "{engine} {:?}",
            predictions[1]
        );
    }
}
