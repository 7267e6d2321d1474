//! The forward pass as training runs it: tensors channels-last (`[position][point]
//! [channel]`), each 3x3 convolution one matrix product over the "im2col" unfolding
//! `[position * point][9 * channel]` (offsets row by row from the upper left, channels
//! within) with weights `[9 * inputs][outputs]`, rectified, the residual added before the
//! second rectifier of each block (in a pooled trunk the second convolution's biases are
//! each position's own, [`crate::nn::pool`]); the trunk's activations are kept for the backward pass
//! ([`crate::nn::train`]). The engine runs the same arithmetic summed directly over the
//! neighbours ([`crate::nn::inference`]), which agrees with this to rounding.
//!
//! Knows the layout; no game.

use crate::nn::layout::{Convolution, Shape};
use crate::nn::pool::{block_biases, pool, FEATURES};

/// Unfolds `input` (`[position][point][channels]`, `points` per position) into `columns`
/// (`[position * point][9 * channels]`).
pub fn unfold(input: &[f32], channels: usize, points: usize, table: &[u16], columns: &mut [f32]) {
    let width = 9 * channels;
    let positions = input.len() / (points * channels);
    for position in 0..positions {
        let base = position * points;
        for point in 0..points {
            let row = &mut columns[(base + point) * width..(base + point + 1) * width];
            for offset in 0..9 {
                let slot = &mut row[offset * channels..(offset + 1) * channels];
                match table[point * 9 + offset] {
                    u16::MAX => slot.fill(0.0),
                    source => {
                        let start = (base + source as usize) * channels;
                        slot.copy_from_slice(&input[start..start + channels]);
                    }
                }
            }
        }
    }
}

/// `c = a · b` (or `c += a · b` with `accumulate`), row-major, `a` `[m][k]`, `b` `[k][n]`;
/// `transpose_a` reads `a` stored as `[k][m]`, `transpose_b` reads `b` stored as `[n][k]`.
#[allow(clippy::too_many_arguments)]
pub fn multiply(
    m: usize,
    k: usize,
    n: usize,
    a: &[f32],
    transpose_a: bool,
    b: &[f32],
    transpose_b: bool,
    c: &mut [f32],
    accumulate: bool,
) {
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    let (row_a, column_a) = if transpose_a {
        (1, m as isize)
    } else {
        (k as isize, 1)
    };
    let (row_b, column_b) = if transpose_b {
        (1, k as isize)
    } else {
        (n as isize, 1)
    };
    // SAFETY: the slices hold at least the m*k, k*n and m*n elements the strides address
    // (asserted above), and `c` does not alias `a` or `b` (distinct borrows).
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            row_a,
            column_a,
            b.as_ptr(),
            row_b,
            column_b,
            if accumulate { 1.0 } else { 0.0 },
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

/// Runs one convolution: `output = unfold(input) · weights + biases`, the `residual`
/// added when given, rectified; the biases are the layer's, or with `position_biases`
/// (`[position][outputs]`) each position's own; `columns` receives the unfolding (kept by
/// training for the backward pass).
#[allow(clippy::too_many_arguments)]
pub fn convolve(
    parameters: &[f32],
    layer: Convolution,
    input: &[f32],
    points: usize,
    table: &[u16],
    columns: &mut [f32],
    output: &mut [f32],
    residual: Option<&[f32]>,
    position_biases: Option<&[f32]>,
) {
    let rows = input.len() / layer.inputs;
    unfold(input, layer.inputs, points, table, columns);
    let weights = &parameters[layer.weights..layer.weights + 9 * layer.inputs * layer.outputs];
    multiply(
        rows,
        9 * layer.inputs,
        layer.outputs,
        columns,
        false,
        weights,
        false,
        output,
        false,
    );
    let layer_biases = &parameters[layer.biases..layer.biases + layer.outputs];
    for (row, out) in output.chunks_exact_mut(layer.outputs).enumerate() {
        let biases = match position_biases {
            Some(biases) => {
                let position = row / points;
                &biases[position * layer.outputs..(position + 1) * layer.outputs]
            }
            None => layer_biases,
        };
        match residual {
            Some(residual) => {
                let skip = &residual[row * layer.outputs..(row + 1) * layer.outputs];
                for ((value, bias), skip) in out.iter_mut().zip(biases).zip(skip) {
                    *value = (*value + bias + skip).max(0.0);
                }
            }
            None => {
                for (value, bias) in out.iter_mut().zip(biases) {
                    *value = (*value + bias).max(0.0);
                }
            }
        }
    }
}

/// The activations of one forward pass over a batch, kept for the backward pass.
#[derive(Default)]
pub struct Activations {
    /// Positions in the batch.
    pub positions: usize,
    /// Points per position.
    pub points: usize,
    /// The unfolded input of every convolution, in order.
    pub columns: Vec<Vec<f32>>,
    /// The trunk after the stem and after each block (`blocks + 1` tensors).
    pub trunk: Vec<Vec<f32>>,
    /// The first convolution's output in each block.
    pub inner: Vec<Vec<f32>>,
    /// In a pooled trunk, each block's pooled features `[position][FEATURES * channels]`.
    pub pooled: Vec<Vec<f32>>,
    /// In a pooled trunk, each block's point of each channel's maximum `[position][channel]`.
    pub maximum_points: Vec<Vec<u32>>,
    /// Scratch: a pooled block's second convolution's biases `[position][channel]`.
    pub block_biases: Vec<f32>,
    /// The logits, `[position][point]`.
    pub logits: Vec<f32>,
}

/// Sets `buffer` to `length` values (the old ones kept, new ones zero).
pub(crate) fn resize(buffer: &mut Vec<f32>, length: usize) {
    if buffer.len() != length {
        buffer.resize(length, 0.0);
    }
}

/// Runs the trunk and a 1x1 head to one logit per point over `input` (`[position][point]
/// [shape.inputs]`), filling
/// `activations` (buffers are reused between calls of the same batch size).
pub fn forward(
    shape: &Shape,
    parameters: &[f32],
    input: &[f32],
    points: usize,
    table: &[u16],
    activations: &mut Activations,
) {
    forward_trunk(shape, parameters, input, points, table, activations);
    let rows = activations.positions * points;
    let head = shape.head();
    let head_weights = &parameters[head..head + shape.channels];
    let head_bias = parameters[head + shape.channels];
    resize(&mut activations.logits, rows);
    multiply(
        rows,
        shape.channels,
        1,
        &activations.trunk[shape.blocks],
        false,
        head_weights,
        false,
        &mut activations.logits,
        false,
    );
    for logit in activations.logits.iter_mut() {
        *logit += head_bias;
    }
}

/// Runs the stem and the residual blocks of `shape` over `input` (`[position][point]
/// [shape.inputs]`), leaving the trunk's output in `activations.trunk[shape.blocks]`; every
/// head (the policy's here, the value network's) reads it.
pub fn forward_trunk(
    shape: &Shape,
    parameters: &[f32],
    input: &[f32],
    points: usize,
    table: &[u16],
    activations: &mut Activations,
) {
    let positions = input.len() / (points * shape.inputs);
    let rows = positions * points;
    let layers = shape.convolutions();
    activations.positions = positions;
    activations.points = points;
    activations.columns.resize_with(layers.len(), Vec::new);
    activations.trunk.resize_with(shape.blocks + 1, Vec::new);
    activations.inner.resize_with(shape.blocks, Vec::new);
    for (layer, columns) in layers.iter().zip(activations.columns.iter_mut()) {
        resize(columns, rows * 9 * layer.inputs);
    }
    for tensor in activations
        .trunk
        .iter_mut()
        .chain(activations.inner.iter_mut())
    {
        resize(tensor, rows * shape.channels);
    }
    convolve(
        parameters,
        layers[0],
        input,
        points,
        table,
        &mut activations.columns[0],
        &mut activations.trunk[0],
        None,
        None,
    );
    if shape.pooled {
        activations.pooled.resize_with(shape.blocks, Vec::new);
        activations
            .maximum_points
            .resize_with(shape.blocks, Vec::new);
        resize(&mut activations.block_biases, positions * shape.channels);
    }
    for block in 0..shape.blocks {
        let (before, after) = activations.trunk.split_at_mut(block + 1);
        let trunk_in = &before[block];
        convolve(
            parameters,
            layers[1 + 2 * block],
            trunk_in,
            points,
            table,
            &mut activations.columns[1 + 2 * block],
            &mut activations.inner[block],
            None,
            None,
        );
        let second = layers[2 + 2 * block];
        if let Some(weights) = shape.pooling(block) {
            let channels = shape.channels;
            let features = &mut activations.pooled[block];
            resize(features, positions * FEATURES * channels);
            let maximum_points = &mut activations.maximum_points[block];
            maximum_points.resize(positions * channels, 0);
            let layer_biases = &parameters[second.biases..second.biases + channels];
            for position in 0..positions {
                let pooled = &mut features[position * FEATURES * channels..][..FEATURES * channels];
                pool(
                    &activations.inner[block][position * points * channels..],
                    points,
                    channels,
                    pooled,
                    &mut maximum_points[position * channels..(position + 1) * channels],
                );
                block_biases(
                    parameters,
                    weights,
                    layer_biases,
                    pooled,
                    &mut activations.block_biases[position * channels..(position + 1) * channels],
                );
            }
        }
        convolve(
            parameters,
            second,
            &activations.inner[block],
            points,
            table,
            &mut activations.columns[2 + 2 * block],
            &mut after[0],
            Some(trunk_in),
            shape.pooled.then_some(activations.block_biases.as_slice()),
        );
    }
}
