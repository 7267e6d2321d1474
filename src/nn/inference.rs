//! The engine's forward pass of a network's trunk (with [`Shape`]'s own point-logit head,
//! [`logits`], or alone for a richer head such as Go's value network's, [`trunk`]): each 3x3 convolution summed directly over the neighbours,
//! without the unfolding and the general matrix product that training uses
//! ([`crate::nn::forward`]).
//!
//! A convolution with 32 outputs (the shipped network's width) runs three points at a time:
//! their 3 x 32 sums stay in registers while each weight row `[input][0..32]` is read once for
//! the three. A neighbour off the board reads a row of zeros kept after the last point, so
//! the loop has no branch. Where the processor has AVX-512 (checked at run time) a point's 32
//! sums are two 16-lane registers and [`WIDE_GROUP`] points are summed together; else where
//! it has AVX2 and FMA the same code is compiled for them, with fused multiply-adds; elsewhere
//! it runs with the baseline instructions. A width that is a multiple of 32 runs as that many
//! passes of 32 outputs each (each pass reads the input rows again); other widths go
//! through the training's forward pass.
//!
//! The sums are taken in another order than the matrix product's, so the logits agree with
//! training's to rounding (about 1e-6 relative), not to the last bit.
//!
//! Knows the network's layout ([`Shape`]), nothing of boards or the tree.

use crate::nn::forward::{forward, forward_trunk, Activations};
use crate::nn::layout::Shape;
use crate::nn::pool::{second_biases, PoolScratch};

/// The output width the direct kernel is built for.
const WIDTH: usize = 32;

/// Points summed together, their sums held in registers.
const GROUP: usize = 3;

/// Points summed together by the AVX-512 kernel (two of its 32 registers a point).
const WIDE_GROUP: usize = 12;

/// Buffers of the direct forward pass, reused between evaluations.
#[derive(Default)]
pub struct Inference {
    /// For each point, its 9 neighbours' rows (the zero row `points` off the board).
    neighbours: Vec<u32>,
    neighbours_points: usize,
    neighbours_size: usize,
    /// The trunk and the block's inner layer, `[point][channel]` with a zero row after the
    /// last point.
    trunk: Vec<f32>,
    inner: Vec<f32>,
    next: Vec<f32>,
    /// The input planes with their zero row.
    input: Vec<f32>,
    /// A pooled block's biases.
    pooling: PoolScratch,
    /// The training's activations, for widths the kernel is not built for.
    fallback: Activations,
}

/// The neighbour rows of a `size` x `size` board from `table` ([`crate::nn::layout::neighbour_table`]).
fn neighbour_rows(table: &[u16], points: usize) -> Vec<u32> {
    table
        .iter()
        .map(|&source| match source {
            u16::MAX => points as u32,
            source => u32::from(source),
        })
        .collect()
}

/// Fills `logits` (`[point]`) from `input` (`[point][shape.inputs]`, one position of `points`
/// points), `table` the neighbour table of the board.
pub fn logits(
    shape: &Shape,
    parameters: &[f32],
    input: &[f32],
    points: usize,
    table: &[u16],
    inference: &mut Inference,
    logits: &mut Vec<f32>,
) {
    if !shape.channels.is_multiple_of(WIDTH) {
        forward(
            shape,
            parameters,
            input,
            points,
            table,
            &mut inference.fallback,
        );
        logits.clear();
        logits.extend_from_slice(&inference.fallback.logits);
        return;
    }
    let top = trunk(shape, parameters, input, points, table, inference);
    let head = shape.head();
    let head_weights = &parameters[head..head + shape.channels];
    let head_bias = parameters[head + shape.channels];
    logits.clear();
    logits.extend(top.chunks_exact(shape.channels).map(|row| {
        row.iter()
            .zip(head_weights)
            .map(|(value, weight)| value * weight)
            .sum::<f32>()
            + head_bias
    }));
}

/// The trunk's output (stem and residual blocks) for one position, `[point][channel]`: what
/// every head reads. Summed directly over the neighbours for a multiple of the kernel's
/// width, else by the training's forward pass.
pub fn trunk<'a>(
    shape: &Shape,
    parameters: &[f32],
    input: &[f32],
    points: usize,
    table: &[u16],
    inference: &'a mut Inference,
) -> &'a [f32] {
    if !shape.channels.is_multiple_of(WIDTH) {
        forward_trunk(
            shape,
            parameters,
            input,
            points,
            table,
            &mut inference.fallback,
        );
        return &inference.fallback.trunk[shape.blocks][..points * shape.channels];
    }
    if inference.neighbours_points != points || inference.neighbours_size != table.len() {
        inference.neighbours = neighbour_rows(table, points);
        inference.neighbours_points = points;
        inference.neighbours_size = table.len();
    }
    let channels = shape.channels;
    let rows = (points + 1) * channels;
    for buffer in [
        &mut inference.trunk,
        &mut inference.inner,
        &mut inference.next,
    ] {
        buffer.clear();
        buffer.resize(rows, 0.0);
    }
    inference.input.clear();
    inference
        .input
        .extend_from_slice(&input[..points * shape.inputs]);
    inference.input.resize((points + 1) * shape.inputs, 0.0);
    let layers = shape.convolutions();
    let neighbours = &inference.neighbours;
    let run = |layer: crate::nn::layout::Convolution,
               biases: &[f32],
               from: &[f32],
               to: &mut [f32],
               residual: Option<&[f32]>| {
        let weights = &parameters[layer.weights..layer.weights + 9 * layer.inputs * channels];
        for column in 0..channels / WIDTH {
            let biases: &[f32; WIDTH] = biases[column * WIDTH..(column + 1) * WIDTH]
                .try_into()
                .expect("the width is checked");
            let operands = Operands {
                weights,
                biases,
                inputs: layer.inputs,
                outputs: channels,
                column,
                input: from,
                neighbours,
            };
            convolve(
                operands,
                points,
                &mut to[..points * channels],
                residual.map(|residual| &residual[..points * channels]),
            );
        }
    };
    let layer_biases = |layer: crate::nn::layout::Convolution| {
        &parameters[layer.biases..layer.biases + layer.outputs]
    };
    run(
        layers[0],
        layer_biases(layers[0]),
        &inference.input,
        &mut inference.trunk,
        None,
    );
    for block in 0..shape.blocks {
        let (first, second) = (layers[1 + 2 * block], layers[2 + 2 * block]);
        run(
            first,
            layer_biases(first),
            &inference.trunk,
            &mut inference.inner,
            None,
        );
        let biases = second_biases(
            shape,
            parameters,
            block,
            layer_biases(second),
            &inference.inner,
            points,
            &mut inference.pooling,
        );
        run(
            second,
            biases,
            &inference.inner,
            &mut inference.next,
            Some(&inference.trunk),
        );
        std::mem::swap(&mut inference.trunk, &mut inference.next);
    }
    &inference.trunk[..points * channels]
}

/// What one pass of a convolution reads: its weights `[offset][input][output]` (`outputs`
/// wide, of which the pass sums the [`WIDTH`] from `column * WIDTH`) and those outputs'
/// biases, the input rows `[point][input]` (`inputs` wide, a zero row after the last point)
/// and each point's 9 neighbour rows.
#[derive(Clone, Copy)]
struct Operands<'a> {
    weights: &'a [f32],
    biases: &'a [f32; WIDTH],
    inputs: usize,
    outputs: usize,
    column: usize,
    input: &'a [f32],
    neighbours: &'a [u32],
}

impl<'a> Operands<'a> {
    /// The input rows of the neighbours at `offset` (0-8) of the `COUNT` points from `first`.
    #[inline(always)]
    fn rows<const COUNT: usize>(&self, first: usize, offset: usize) -> [&'a [f32]; COUNT] {
        std::array::from_fn(|member| {
            let row = self.neighbours[(first + member) * 9 + offset] as usize;
            &self.input[row * self.inputs..(row + 1) * self.inputs]
        })
    }

    /// The weights of neighbour `offset`: `[input][output]`, from the pass's first output
    /// on (each input's row `outputs` apart, the pass reading [`WIDTH`] of it).
    #[inline(always)]
    fn offset_weights(&self, offset: usize) -> &'a [f32] {
        let size = self.inputs * self.outputs;
        &self.weights[offset * size + self.column * WIDTH..(offset + 1) * size]
    }
}

/// The loop of a convolution: the sums of each group of [`GROUP`] points from `$sum`
/// (then of the points left one by one), finished into `$output`. A macro so that the AVX2
/// kernel's loop is compiled inside its `target_feature` function, like the baseline's.
macro_rules! convolve_groups {
    ($sum:ident, $operands:ident, $points:ident, $output:ident, $residual:ident) => {{
        convolve_groups!($sum, $operands, $points, $output, $residual, GROUP)
    }};
    ($sum:ident, $operands:ident, $points:ident, $output:ident, $residual:ident, $group:ident) => {{
        let mut first = 0;
        while first + $group <= $points {
            let sums = $sum::<$group>($operands, first);
            finish(&sums, first, $operands, $output, $residual);
            first += $group;
        }
        while first < $points {
            let sums = $sum::<1>($operands, first);
            finish(&sums, first, $operands, $output, $residual);
            first += 1;
        }
    }};
}

/// One rectified convolution's [`WIDTH`] outputs from `column * WIDTH`: `output[point] =
/// max(0, biases + residual[point] + sum over the 9 neighbours q and inputs c of input[q][c]
/// * weights[offset][c])`, the output and residual rows `outputs` wide.
fn convolve(operands: Operands, points: usize, output: &mut [f32], residual: Option<&[f32]>) {
    let Operands {
        weights,
        inputs,
        input,
        neighbours,
        ..
    } = operands;
    let Operands {
        outputs, column, ..
    } = operands;
    assert!(weights.len() == 9 * inputs * outputs && (column + 1) * WIDTH <= outputs);
    assert!(input.len() == (points + 1) * inputs && neighbours.len() == 9 * points);
    assert!(output.len() == points * outputs);
    assert!(residual.is_none_or(|residual| residual.len() == points * outputs));
    assert!(neighbours.iter().all(|&row| row as usize <= points));
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the processor has the features the function is compiled for (checked just
        // above); the function itself is safe code.
        unsafe { convolve_wide(operands, points, output, residual) };
        return;
    }
    convolve_narrow(operands, points, output, residual);
}

/// [`convolve`] without the AVX-512 kernel: AVX2 and FMA where the processor has them, else
/// the baseline instructions.
fn convolve_narrow(
    operands: Operands,
    points: usize,
    output: &mut [f32],
    residual: Option<&[f32]>,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: as in `convolve`.
        unsafe { convolve_fused(operands, points, output, residual) };
        return;
    }
    convolve_with(operands, points, output, residual);
}

/// [`convolve_with`]'s sums in AVX-512 registers: a point's 32 sums are two 16-lane
/// registers, [`WIDE_GROUP`] points 24 of the 32, and each weight row is loaded once for
/// the group.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn convolve_wide(
    operands: Operands,
    points: usize,
    output: &mut [f32],
    residual: Option<&[f32]>,
) {
    convolve_groups!(
        sum_group_wide,
        operands,
        points,
        output,
        residual,
        WIDE_GROUP
    );
}

/// The sums before the rectifier of the `COUNT` points from `first`, in AVX-512 registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn sum_group_wide<const COUNT: usize>(
    operands: Operands,
    first: usize,
) -> [[f32; WIDTH]; COUNT] {
    use std::arch::x86_64::{
        __m512, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_set1_ps, _mm512_storeu_ps,
    };
    const LANES: usize = 16;
    let mut sums: [[__m512; 2]; COUNT] = [[
        _mm512_loadu_ps(operands.biases.as_ptr()),
        _mm512_loadu_ps(operands.biases.as_ptr().add(LANES)),
    ]; COUNT];
    let inputs = operands.inputs;
    for offset in 0..9 {
        let rows = operands.rows::<COUNT>(first, offset).map(<[f32]>::as_ptr);
        let offset_weights = operands.offset_weights(offset).as_ptr();
        for channel in 0..inputs {
            // SAFETY (all pointer reads below): `channel < inputs`, each row holds `inputs`
            // values, and the offset's weights from the pass's column hold `(inputs - 1) *
            // outputs + WIDTH` (sliced just above, the column checked in `convolve`).
            let row_weights = offset_weights.add(channel * operands.outputs);
            let low = _mm512_loadu_ps(row_weights);
            let high = _mm512_loadu_ps(row_weights.add(LANES));
            for member in 0..COUNT {
                let value = _mm512_set1_ps(*rows[member].add(channel));
                sums[member][0] = _mm512_fmadd_ps(value, low, sums[member][0]);
                sums[member][1] = _mm512_fmadd_ps(value, high, sums[member][1]);
            }
        }
    }
    let mut result = [[0f32; WIDTH]; COUNT];
    for (member, sum) in sums.iter().enumerate() {
        _mm512_storeu_ps(result[member].as_mut_ptr(), sum[0]);
        _mm512_storeu_ps(result[member].as_mut_ptr().add(LANES), sum[1]);
    }
    result
}

/// [`convolve_with`]'s sums in AVX2 registers with fused multiply-adds: a point's 32 sums
/// are four 8-lane registers, [`GROUP`] points twelve.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn convolve_fused(
    operands: Operands,
    points: usize,
    output: &mut [f32],
    residual: Option<&[f32]>,
) {
    convolve_groups!(sum_group_fused, operands, points, output, residual);
}

/// The sums before the rectifier of the `COUNT` points from `first`, in registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn sum_group_fused<const COUNT: usize>(
    operands: Operands,
    first: usize,
) -> [[f32; WIDTH]; COUNT] {
    use std::arch::x86_64::{
        __m256, _mm256_broadcast_ss, _mm256_fmadd_ps, _mm256_loadu_ps, _mm256_storeu_ps,
    };
    const LANES: usize = 8;
    const VECTORS: usize = WIDTH / LANES;
    let mut sums: [[__m256; VECTORS]; COUNT] = [std::array::from_fn(|vector| {
        _mm256_loadu_ps(operands.biases.as_ptr().add(vector * LANES))
    }); COUNT];
    let inputs = operands.inputs;
    for offset in 0..9 {
        let rows = operands.rows::<COUNT>(first, offset).map(<[f32]>::as_ptr);
        let offset_weights = operands.offset_weights(offset).as_ptr();
        for channel in 0..inputs {
            // SAFETY (all pointer reads below): `channel < inputs`, each row holds `inputs`
            // values, and the offset's weights from the pass's column hold `(inputs - 1) *
            // outputs + WIDTH` (sliced just above, the column checked in `convolve`).
            let row_weights = offset_weights.add(channel * operands.outputs);
            let values: [__m256; COUNT] =
                std::array::from_fn(|member| _mm256_broadcast_ss(&*rows[member].add(channel)));
            // The weights are read again for each point rather than held: the sums take
            // twelve of the sixteen registers. Indexed loops, in this order, are the shape
            // the compiler keeps in registers (as measured).
            #[allow(clippy::needless_range_loop)]
            for vector in 0..VECTORS {
                for member in 0..COUNT {
                    sums[member][vector] = _mm256_fmadd_ps(
                        values[member],
                        _mm256_loadu_ps(row_weights.add(vector * LANES)),
                        sums[member][vector],
                    );
                }
            }
        }
    }
    let mut result = [[0f32; WIDTH]; COUNT];
    for (member, sum) in sums.iter().enumerate() {
        for (vector, lanes) in sum.iter().enumerate() {
            _mm256_storeu_ps(result[member].as_mut_ptr().add(vector * LANES), *lanes);
        }
    }
    result
}

/// [`convolve`] with the baseline instructions.
#[inline(always)]
fn convolve_with(operands: Operands, points: usize, output: &mut [f32], residual: Option<&[f32]>) {
    convolve_groups!(sum_group, operands, points, output, residual);
}

/// The sums before the rectifier of the `COUNT` points from `first`.
#[inline(always)]
fn sum_group<const COUNT: usize>(operands: Operands, first: usize) -> [[f32; WIDTH]; COUNT] {
    let mut sums = [*operands.biases; COUNT];
    for offset in 0..9 {
        let rows = operands.rows::<COUNT>(first, offset);
        let offset_weights = operands.offset_weights(offset);
        for channel in 0..operands.inputs {
            let start = channel * operands.outputs;
            let row_weights: &[f32; WIDTH] = offset_weights[start..start + WIDTH]
                .try_into()
                .expect("the width is sliced");
            for (sum, row) in sums.iter_mut().zip(rows) {
                let value = row[channel];
                for (total, weight) in sum.iter_mut().zip(row_weights) {
                    *total += value * weight;
                }
            }
        }
    }
    sums
}

/// Adds the residual, rectifies and stores the sums of the points from `first` (in their
/// rows `operands.outputs` wide, from the pass's column).
#[inline(always)]
fn finish<const COUNT: usize>(
    sums: &[[f32; WIDTH]; COUNT],
    first: usize,
    operands: Operands,
    output: &mut [f32],
    residual: Option<&[f32]>,
) {
    for (member, sum) in sums.iter().enumerate() {
        let start = (first + member) * operands.outputs + operands.column * WIDTH;
        let out = &mut output[start..start + WIDTH];
        match residual {
            Some(residual) => {
                let skip = &residual[start..start + WIDTH];
                for ((value, total), skip) in out.iter_mut().zip(sum).zip(skip) {
                    *value = (total + skip).max(0.0);
                }
            }
            None => {
                for (value, total) in out.iter_mut().zip(sum) {
                    *value = total.max(0.0);
                }
            }
        }
    }
}

/// Turns `values` (logits, `-inf` for the excluded) into probabilities in place: the
/// softmax over the finite ones, 0 for the excluded; all 0 when none is finite.
pub fn softmax(values: &mut [f32]) {
    let largest = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for value in values.iter_mut() {
        *value = if *value == f32::NEG_INFINITY {
            0.0
        } else {
            (*value - largest).exp()
        };
        total += *value;
    }
    if total > 0.0 {
        for value in values.iter_mut() {
            *value /= total;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::layout::neighbour_table;
    use crate::nn::test_values::{pseudo_planes, pseudo_random};

    /// Input planes of the test networks (Go's count).
    const INPUT_PLANES: usize = 13;

    /// The baseline-instruction kernel (the one processors without AVX2 and FMA run) and the
    /// AVX2 one (run where AVX-512 is missing) give the sums of the dispatching one, with and
    /// without a residual, for point counts that leave partial groups, at the kernel's width
    /// and at twice it (two passes, one a column of outputs).
    #[test]
    fn baseline_kernel_matches_the_dispatching_one() {
        for size in [5, 9] {
            for outputs in [WIDTH, 2 * WIDTH] {
                compare_kernels(size, outputs);
            }
        }
    }

    fn compare_kernels(size: usize, outputs: usize) {
        let points = size * size;
        let inputs = 7;
        let table = neighbour_table(size);
        let neighbours = neighbour_rows(&table, points);
        let weights = pseudo_random(9 * inputs * outputs, 3, 0.5);
        let all_biases = pseudo_random(outputs, 4, 0.2);
        let mut input = pseudo_random(points * inputs, 5, 2.0);
        input.resize((points + 1) * inputs, 0.0);
        let skip = pseudo_random(points * outputs, 6, 1.0);
        for residual in [None, Some(&skip[..])] {
            let mut dispatched = vec![0f32; points * outputs];
            let mut baseline = vec![1f32; points * outputs];
            let mut narrow = vec![2f32; points * outputs];
            for column in 0..outputs / WIDTH {
                let biases: &[f32; WIDTH] = all_biases[column * WIDTH..(column + 1) * WIDTH]
                    .try_into()
                    .unwrap();
                let operands = Operands {
                    weights: &weights,
                    biases,
                    inputs,
                    outputs,
                    column,
                    input: &input,
                    neighbours: &neighbours,
                };
                convolve(operands, points, &mut dispatched, residual);
                convolve_with(operands, points, &mut baseline, residual);
                convolve_narrow(operands, points, &mut narrow, residual);
            }
            assert!(dispatched.iter().any(|&value| value > 0.1));
            assert!(dispatched.contains(&0.0), "the rectifier cuts");
            for ((fast, plain), narrow) in dispatched.iter().zip(&baseline).zip(&narrow) {
                assert!((fast - plain).abs() <= 1e-4, "{fast} against {plain}");
                assert!((narrow - plain).abs() <= 1e-4, "{narrow} against {plain}");
            }
            // A plainly written sum for one point and output of the last column.
            let (point, output) = (size + 1, outputs - 3);
            let mut total = all_biases[output];
            for offset in 0..9 {
                let row = neighbours[point * 9 + offset] as usize;
                for channel in 0..inputs {
                    total += input[row * inputs + channel]
                        * weights[(offset * inputs + channel) * outputs + output];
                }
            }
            if let Some(skip) = residual {
                total += skip[point * outputs + output];
            }
            let plain = baseline[point * outputs + output];
            assert!(
                (total.max(0.0) - plain).abs() <= 1e-4,
                "{total} against {plain}"
            );
        }
    }

    /// The direct pass gives the training's logits to rounding, on boards whose point count
    /// is and is not a multiple of the group, for the kernel's width, its multiples and
    /// other widths, with and without the blocks' pooling.
    #[test]
    fn direct_logits_match_the_training_forward_pass() {
        let cases = [
            (9, 32, 2, false),
            (5, 32, 1, false),
            (7, 8, 1, false),
            (2, 32, 1, false),
            (9, 64, 2, false),
            (5, 96, 1, false),
            (7, 48, 1, false),
            (9, 32, 2, true),
            (7, 8, 2, true),
            (13, 64, 1, true),
        ];
        for (size, channels, blocks, pooled) in cases {
            let shape = Shape {
                inputs: INPUT_PLANES,
                channels,
                blocks,
                pooled,
                board_size: size,
            };
            let parameters = pseudo_random(shape.parameter_count(), 7 + size as u64, 0.3);
            let points = size * size;
            let input = pseudo_planes(points * INPUT_PLANES, 99);
            let table = neighbour_table(size);
            let mut activations = Activations::default();
            forward(
                &shape,
                &parameters,
                &input,
                points,
                &table,
                &mut activations,
            );
            let mut inference = Inference::default();
            let mut direct = Vec::new();
            for _ in 0..2 {
                logits(
                    &shape,
                    &parameters,
                    &input,
                    points,
                    &table,
                    &mut inference,
                    &mut direct,
                );
                assert_eq!(direct.len(), points);
                let largest = activations
                    .logits
                    .iter()
                    .fold(0f32, |largest, value| largest.max(value.abs()));
                assert!(largest > 0.01, "a degenerate example");
                for (direct, trained) in direct.iter().zip(&activations.logits) {
                    assert!(
                        (direct - trained).abs() <= 1e-4 * largest.max(1.0),
                        "size {size}, width {channels}: {direct} against {trained}"
                    );
                }
            }
        }
    }
}
