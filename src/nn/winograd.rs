//! The trunk's 3x3 convolutions on a square board by Winograd's minimal filtering
//! F(2x2, 3x3) (Lavin and Gray, arXiv 1509.09308): each 2x2 block of output points (a
//! "tile") comes from the 4x4 input points around it with 16 multiplications for each pair
//! of input and output channels, where the direct sum ([`crate::nn::inference`]) takes 36.
//! The inputs are transformed (`Bᵀ d B`), then for each of the 16 transformed positions one
//! matrix product over the channels multiplies the tiles by the weights transformed once per
//! network (`G g Gᵀ`, [`Winograd::new`]), and the products are transformed back (`Aᵀ m A`),
//! biased, added to the residual and rectified. An odd board is padded to the next even
//! side, so 9x9 runs 25 tiles over 100 points: 0.55 of the direct sum's multiply-adds (19x19
//! 0.49, 13x13 0.52).
//!
//! Everything runs in AVX-512 registers: the transforms 16 channels at a time, the products
//! on 32 output channels at a time, 12 tiles at once like the direct kernel. On a processor
//! without AVX-512 [`runs`] says no and the direct kernels serve (the transforms' share of
//! the work is too large for 256-bit registers to win). The sums are taken in another order
//! than the direct ones, so the trunk agrees with training's forward pass to rounding (about
//! 1e-6 relative).
//!
//! Knows the layout; no game (a square board of `size` x `size` points, row by row).

use crate::nn::layout::Shape;
use crate::nn::pool::{second_biases, PoolScratch};

/// Output channels of one pass of the products.
const WIDTH: usize = 32;

/// Tiles summed together by the AVX-512 kernel (two of its 32 registers a tile).
const WIDE_GROUP: usize = 12;

/// Positions of the 4x4 transformed tile.
const POSITIONS: usize = 16;

/// The weights of every convolution of a trunk, transformed: `[position][input][output]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Winograd {
    layers: Vec<Vec<f32>>,
}

impl Winograd {
    /// Transforms the weights of `shape`'s convolutions in `parameters` (`U = G g Gᵀ` for
    /// each pair of channels, `G` = [[1, 0, 0], [½, ½, ½], [½, -½, ½], [0, 0, 1]]).
    pub fn new(shape: &Shape, parameters: &[f32]) -> Winograd {
        let layers = shape
            .convolutions()
            .iter()
            .map(|layer| {
                let (inputs, outputs) = (layer.inputs, layer.outputs);
                let mut transformed = vec![0.0; POSITIONS * inputs * outputs];
                for input in 0..inputs {
                    for output in 0..outputs {
                        let g = |row: usize, column: usize| {
                            parameters[layer.weights
                                + ((row * 3 + column) * inputs + input) * outputs
                                + output]
                        };
                        // G g: 4 rows of 3.
                        let column = |column: usize| {
                            let (a, b, c) = (g(0, column), g(1, column), g(2, column));
                            [a, 0.5 * (a + b + c), 0.5 * (a - b + c), c]
                        };
                        let columns = [column(0), column(1), column(2)];
                        let left: [[f32; 3]; 4] = std::array::from_fn(|row| {
                            [columns[0][row], columns[1][row], columns[2][row]]
                        });
                        for (row, values) in left.iter().enumerate() {
                            let [a, b, c] = *values;
                            let cells = [a, 0.5 * (a + b + c), 0.5 * (a - b + c), c];
                            for (column, value) in cells.into_iter().enumerate() {
                                let position = row * 4 + column;
                                transformed[(position * inputs + input) * outputs + output] = value;
                            }
                        }
                    }
                }
                transformed
            })
            .collect();
        Winograd { layers }
    }
}

/// Buffers of the Winograd trunk, reused between evaluations.
#[derive(Default)]
pub struct WinogradScratch {
    /// For each tile, its 16 input rows (the zero row `points` off the board).
    tile_rows: Vec<u32>,
    /// The board size and channels the buffers are laid out for.
    layout: (usize, usize),
    /// The trunk, the block's inner layer and the next trunk, `[point][channel]` with a zero
    /// row after the last point; the input planes likewise.
    trunk: Vec<f32>,
    inner: Vec<f32>,
    next: Vec<f32>,
    input: Vec<f32>,
    buffers: Buffers,
    /// A pooled block's biases.
    pooling: PoolScratch,
}

/// A convolution's buffers: the transformed inputs `[tile][position][input]` and the
/// products `[tile][position][output]` (a tile's values together, for the transforms).
#[derive(Default)]
struct Buffers {
    transformed: Vec<f32>,
    products: Vec<f32>,
}

/// Whether [`trunk`] runs `shape` here: its width a multiple of the products' 32 channels,
/// on a processor with AVX-512 (elsewhere the direct kernels of [`crate::nn::inference`],
/// with their AVX2 and portable versions, are the faster).
pub fn runs(shape: &Shape) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        return shape.channels.is_multiple_of(WIDTH);
    }
    let _ = shape;
    false
}

/// The trunk's output (stem and residual blocks) for one position on a `size` x `size`
/// board, `[point][channel]`, from `input` (`[point][shape.inputs]`); `winograd` holds
/// `parameters`' transformed weights. Panics unless [`runs`] says yes.
pub fn trunk<'a>(
    shape: &Shape,
    parameters: &[f32],
    winograd: &Winograd,
    input: &[f32],
    size: usize,
    scratch: &'a mut WinogradScratch,
) -> &'a [f32] {
    assert!(runs(shape) && winograd.layers.len() == 1 + 2 * shape.blocks);
    let points = size * size;
    let channels = shape.channels;
    if scratch.layout != (size, channels) {
        // Every point's row is written before it is read; the zero rows stay zero.
        scratch.tile_rows = tile_rows(size);
        scratch.layout = (size, channels);
        for buffer in [&mut scratch.trunk, &mut scratch.inner, &mut scratch.next] {
            buffer.clear();
            buffer.resize((points + 1) * channels, 0.0);
        }
    }
    scratch.input.clear();
    scratch
        .input
        .extend_from_slice(&input[..points * shape.inputs]);
    scratch.input.resize((points + 1) * shape.inputs, 0.0);
    let layers = shape.convolutions();
    let WinogradScratch {
        tile_rows,
        trunk,
        inner,
        next,
        input,
        buffers,
        pooling,
        ..
    } = scratch;
    let layer_biases = |index: usize| {
        let layer = layers[index];
        &parameters[layer.biases..layer.biases + layer.outputs]
    };
    let mut run =
        |index: usize, biases: &[f32], from: &[f32], to: &mut [f32], residual: Option<&[f32]>| {
            let layer = layers[index];
            let operation = Convolution {
                weights: &winograd.layers[index],
                biases,
                inputs: layer.inputs,
                outputs: layer.outputs,
                size,
                tile_rows,
            };
            convolve(operation, from, to, residual, buffers);
        };
    run(0, layer_biases(0), input, trunk, None);
    for block in 0..shape.blocks {
        let (first, second) = (1 + 2 * block, 2 + 2 * block);
        run(first, layer_biases(first), trunk, inner, None);
        let biases = second_biases(
            shape,
            parameters,
            block,
            layer_biases(second),
            inner,
            points,
            pooling,
        );
        run(second, biases, inner, next, Some(trunk));
        std::mem::swap(trunk, next);
    }
    &trunk[..points * channels]
}

/// For each tile of a `size` x `size` board, the rows of its 4x4 input points (from one row
/// and column before the tile), `size * size` (the zero row) where off the board.
fn tile_rows(size: usize) -> Vec<u32> {
    let side = size.div_ceil(2);
    let mut rows = Vec::with_capacity(side * side * POSITIONS);
    for tile_row in 0..side {
        for tile_column in 0..side {
            for dy in 0..4 {
                for dx in 0..4 {
                    let (row, column) = (2 * tile_row + dy, 2 * tile_column + dx);
                    let inside = (1..=size).contains(&row) && (1..=size).contains(&column);
                    rows.push(if inside {
                        ((row - 1) * size + column - 1) as u32
                    } else {
                        (size * size) as u32
                    });
                }
            }
        }
    }
    rows
}

/// One convolution as [`convolve`] reads it.
#[derive(Clone, Copy)]
struct Convolution<'a> {
    /// Transformed weights `[position][input][output]`.
    weights: &'a [f32],
    biases: &'a [f32],
    inputs: usize,
    outputs: usize,
    size: usize,
    tile_rows: &'a [u32],
}

/// One rectified convolution: `to[point] = max(0, biases + residual[point] + the 3x3 sum
/// over from's neighbours)`, `from` `[point][inputs]` and `to` `[point][outputs]`, each with
/// a zero row after the last point (left as it is in `to`).
fn convolve(
    operation: Convolution,
    from: &[f32],
    to: &mut [f32],
    residual: Option<&[f32]>,
    buffers: &mut Buffers,
) {
    let Convolution {
        weights,
        biases,
        inputs,
        outputs,
        size,
        tile_rows,
    } = operation;
    let points = size * size;
    let tiles = tile_rows.len() / POSITIONS;
    assert!(from.len() == (points + 1) * inputs && to.len() == (points + 1) * outputs);
    assert!(weights.len() == POSITIONS * inputs * outputs && outputs.is_multiple_of(WIDTH));
    assert!(biases.len() == outputs && tiles == size.div_ceil(2).pow(2));
    assert!(residual.is_none_or(|residual| residual.len() >= points * outputs));
    // Every value of these is written before it is read: no need to clear them.
    for (buffer, length) in [
        (&mut buffers.transformed, POSITIONS * tiles * inputs),
        (&mut buffers.products, POSITIONS * tiles * outputs),
    ] {
        if buffer.len() < length {
            buffer.resize(length, 0.0);
        }
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the processor has the features the function is compiled for (checked just
        // above); the lengths it relies on are asserted above.
        unsafe { convolve_wide(operation, from, to, residual, buffers) };
        return;
    }
    unreachable!("the Winograd trunk runs only where `runs` said yes");
}

/// [`convolve`] in AVX-512 registers: the transforms 16 channels at a time (masked where
/// fewer are left), the products by [`multiply_wide`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn convolve_wide(
    operation: Convolution,
    from: &[f32],
    to: &mut [f32],
    residual: Option<&[f32]>,
    buffers: &mut Buffers,
) {
    let tiles = operation.tile_rows.len() / POSITIONS;
    let (inputs, outputs) = (operation.inputs, operation.outputs);
    let Buffers {
        transformed,
        products,
    } = buffers;
    transform_inputs(from, inputs, operation.tile_rows, transformed);
    for position in 0..POSITIONS {
        let rows = Rows {
            values: &transformed[position * inputs..tiles * POSITIONS * inputs],
            stride: POSITIONS * inputs,
            count: tiles,
            width: inputs,
        };
        multiply_wide(
            rows,
            &operation.weights[position * inputs * outputs..(position + 1) * inputs * outputs],
            &mut products[position * outputs..tiles * POSITIONS * outputs],
            POSITIONS * outputs,
            outputs,
        );
    }
    transform_outputs(operation, products, to, residual);
}

/// Channels transformed together: one 512-bit register.
const LANES: usize = 16;

/// The mask of the first `count` (at most [`LANES`]) lanes.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lanes_mask(count: usize) -> u16 {
    if count >= LANES {
        u16::MAX
    } else {
        (1u16 << count) - 1
    }
}

/// `transformed[tile][position][channel]` = `Bᵀ d B` of each tile's 4x4 inputs `d` (`Bᵀ` =
/// [[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]]), [`LANES`] channels at a
/// time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn transform_inputs(
    from: &[f32],
    inputs: usize,
    tile_rows: &[u32],
    transformed: &mut [f32],
) {
    use std::arch::x86_64::{
        __m512, _mm512_add_ps, _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps, _mm512_setzero_ps,
        _mm512_sub_ps,
    };
    let tiles = tile_rows.len() / POSITIONS;
    assert!(transformed.len() >= POSITIONS * tiles * inputs);
    assert!(tile_rows
        .iter()
        .all(|&row| (row as usize + 1) * inputs <= from.len()));
    let (source, target) = (from.as_ptr(), transformed.as_mut_ptr());
    for (tile, rows) in tile_rows.chunks_exact(POSITIONS).enumerate() {
        for start in (0..inputs).step_by(LANES) {
            let mask = lanes_mask(inputs - start);
            // SAFETY (the masked reads and writes): each row holds `inputs` values from
            // `row * inputs` and the position's tile `inputs` from its start (asserted
            // above); the mask covers the channels from `start` below `inputs` only.
            let mut d = [_mm512_setzero_ps(); POSITIONS];
            for position in 0..POSITIONS {
                let at = rows[position] as usize * inputs + start;
                d[position] = _mm512_maskz_loadu_ps(mask, source.add(at));
            }
            // Bᵀ d: in each column (d0 - d2, d1 + d2, d2 - d1, d1 - d3).
            let mut left: [__m512; POSITIONS] = [_mm512_setzero_ps(); POSITIONS];
            for column in 0..4 {
                let (zero, one) = (d[column], d[4 + column]);
                let (two, three) = (d[8 + column], d[12 + column]);
                left[column] = _mm512_sub_ps(zero, two);
                left[4 + column] = _mm512_add_ps(one, two);
                left[8 + column] = _mm512_sub_ps(two, one);
                left[12 + column] = _mm512_sub_ps(one, three);
            }
            // (Bᵀ d) B: the same in each row.
            for line in 0..4 {
                let (zero, one) = (left[line * 4], left[line * 4 + 1]);
                let (two, three) = (left[line * 4 + 2], left[line * 4 + 3]);
                let values = [
                    _mm512_sub_ps(zero, two),
                    _mm512_add_ps(one, two),
                    _mm512_sub_ps(two, one),
                    _mm512_sub_ps(one, three),
                ];
                for (column, value) in values.into_iter().enumerate() {
                    let at = (tile * POSITIONS + line * 4 + column) * inputs + start;
                    _mm512_mask_storeu_ps(target.add(at), mask, value);
                }
            }
        }
    }
}

/// `to[point]` for each tile's 2x2 points on the board: `Aᵀ m A` of the tile's 16 products
/// (`Aᵀ` = [[1, 1, 1, 0], [0, 1, -1, -1]]) plus the bias and the residual, rectified,
/// [`LANES`] channels at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn transform_outputs(
    operation: Convolution,
    products: &[f32],
    to: &mut [f32],
    residual: Option<&[f32]>,
) {
    use std::arch::x86_64::{
        __m512, _mm512_add_ps, _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps, _mm512_max_ps,
        _mm512_setzero_ps, _mm512_sub_ps,
    };
    let Convolution {
        biases,
        outputs,
        size,
        ..
    } = operation;
    let side = size.div_ceil(2);
    let tiles = side * side;
    assert!(products.len() >= POSITIONS * tiles * outputs && biases.len() == outputs);
    assert!(to.len() >= size * size * outputs);
    assert!(residual.is_none_or(|residual| residual.len() >= size * size * outputs));
    let zero = _mm512_setzero_ps();
    for tile in 0..tiles {
        let (tile_row, tile_column) = (tile / side, tile % side);
        for start in (0..outputs).step_by(LANES) {
            let mask = lanes_mask(outputs - start);
            // SAFETY (the masked reads and writes): the products, biases, residual and
            // output rows hold the channels the mask covers (asserted above).
            let mut m = [zero; POSITIONS];
            for (position, value) in m.iter_mut().enumerate() {
                let at = (tile * POSITIONS + position) * outputs + start;
                *value = _mm512_maskz_loadu_ps(mask, products.as_ptr().add(at));
            }
            // Aᵀ m: in each column (m0 + m1 + m2, m1 - m2 - m3).
            let mut top: [__m512; 8] = [zero; 8];
            for column in 0..4 {
                let (first, second) = (m[column], m[4 + column]);
                let (third, fourth) = (m[8 + column], m[12 + column]);
                top[column] = _mm512_add_ps(_mm512_add_ps(first, second), third);
                top[4 + column] = _mm512_sub_ps(_mm512_sub_ps(second, third), fourth);
            }
            let bias = _mm512_maskz_loadu_ps(mask, biases.as_ptr().add(start));
            for dy in 0..2 {
                let row = 2 * tile_row + dy;
                if row >= size {
                    continue;
                }
                let (first, second) = (top[dy * 4], top[dy * 4 + 1]);
                let (third, fourth) = (top[dy * 4 + 2], top[dy * 4 + 3]);
                let values = [
                    _mm512_add_ps(_mm512_add_ps(first, second), third),
                    _mm512_sub_ps(_mm512_sub_ps(second, third), fourth),
                ];
                for (dx, value) in values.into_iter().enumerate() {
                    let column = 2 * tile_column + dx;
                    if column >= size {
                        continue;
                    }
                    let at = (row * size + column) * outputs + start;
                    let mut value = _mm512_add_ps(value, bias);
                    if let Some(residual) = residual {
                        let skip = _mm512_maskz_loadu_ps(mask, residual.as_ptr().add(at));
                        value = _mm512_add_ps(value, skip);
                    }
                    _mm512_mask_storeu_ps(
                        to.as_mut_ptr().add(at),
                        mask,
                        _mm512_max_ps(value, zero),
                    );
                }
            }
        }
    }
}

/// The products `c = a · b` in AVX-512 registers, `rows` rows of `a` (`inner` values each,
/// `a_stride` apart) by `b` (`[inner][columns]`) into the rows of `c` (`columns` values
/// each, `c_stride` apart): a row's 32 sums from a column are two 16-lane registers,
/// [`WIDE_GROUP`] rows 24 of the 32, each weight row loaded once for the group.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn multiply_wide(a: Rows, b: &[f32], c: &mut [f32], c_stride: usize, columns: usize) {
    let Rows {
        values,
        stride,
        count,
        width: inner,
    } = a;
    assert!(count > 0 && inner > 0 && columns.is_multiple_of(WIDTH));
    assert!(values.len() >= (count - 1) * stride + inner && b.len() >= inner * columns);
    assert!(c.len() >= (count - 1) * c_stride + columns);
    for column in (0..columns).step_by(WIDTH) {
        let mut first = 0;
        while first + WIDE_GROUP <= count {
            multiply_group_wide::<WIDE_GROUP>(a, b, c, c_stride, columns, first, column);
            first += WIDE_GROUP;
        }
        while first < count {
            multiply_group_wide::<1>(a, b, c, c_stride, columns, first, column);
            first += 1;
        }
    }
}

/// Rows of a matrix inside a larger buffer: `count` rows of `width` values, `stride` apart.
#[derive(Clone, Copy)]
struct Rows<'a> {
    values: &'a [f32],
    stride: usize,
    count: usize,
    width: usize,
}

/// The 32 sums from `column` of the `COUNT` rows from `first`, in AVX-512 registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn multiply_group_wide<const COUNT: usize>(
    a: Rows,
    b: &[f32],
    c: &mut [f32],
    c_stride: usize,
    columns: usize,
    first: usize,
    column: usize,
) {
    use std::arch::x86_64::{
        __m512, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_set1_ps, _mm512_setzero_ps,
        _mm512_storeu_ps,
    };
    const LANES: usize = 16;
    let inner = a.width;
    let mut sums: [[__m512; 2]; COUNT] = [[_mm512_setzero_ps(); 2]; COUNT];
    let rows = a.values[first * a.stride..(first + COUNT - 1) * a.stride + inner].as_ptr();
    let weights = b[column..(inner - 1) * columns + column + WIDTH].as_ptr();
    for index in 0..inner {
        // SAFETY (the pointer reads): `index < inner`, the rows lie `a.stride` apart with
        // `inner` values each and the weights hold `(inner - 1) * columns + WIDTH` values
        // from the column (sliced above).
        let row_weights = weights.add(index * columns);
        let low = _mm512_loadu_ps(row_weights);
        let high = _mm512_loadu_ps(row_weights.add(LANES));
        for (member, sum) in sums.iter_mut().enumerate() {
            let value = _mm512_set1_ps(*rows.add(member * a.stride + index));
            sum[0] = _mm512_fmadd_ps(value, low, sum[0]);
            sum[1] = _mm512_fmadd_ps(value, high, sum[1]);
        }
    }
    let out = c[first * c_stride..(first + COUNT - 1) * c_stride + column + WIDTH].as_mut_ptr();
    for (member, sum) in sums.iter().enumerate() {
        // SAFETY: the row's 32 values from the column lie in the slice taken above.
        let target = out.add(member * c_stride + column);
        _mm512_storeu_ps(target, sum[0]);
        _mm512_storeu_ps(target.add(LANES), sum[1]);
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::nn::forward::{forward_trunk, Activations};
    use crate::nn::layout::neighbour_table;
    use crate::nn::test_values::{pseudo_planes, pseudo_random};

    /// The Winograd trunk gives training's forward pass to rounding on odd and even boards,
    /// at one and two passes of output channels, twice in a row with the same buffers and
    /// after another size, with and without the blocks' pooling.
    #[test]
    fn the_winograd_trunk_matches_the_training_forward_pass() {
        if !std::arch::is_x86_feature_detected!("avx512f") {
            return;
        }
        let mut scratch = WinogradScratch::default();
        for (size, channels, blocks, pooled) in [
            (9, 32, 2, false),
            (2, 32, 1, false),
            (5, 64, 1, false),
            (8, 32, 1, false),
            (19, 32, 1, false),
            (9, 64, 2, false),
            (9, 32, 2, true),
            (19, 32, 2, true),
            (13, 64, 1, true),
        ] {
            let shape = Shape {
                inputs: 7,
                channels,
                blocks,
                pooled,
                board_size: size,
            };
            let mut parameters = pseudo_random(shape.parameter_count(), 11 + size as u64, 0.4);
            // Biases that make some sums positive and some not.
            for layer in shape.convolutions() {
                for (index, bias) in parameters[layer.biases..layer.biases + layer.outputs]
                    .iter_mut()
                    .enumerate()
                {
                    *bias = 0.05 * (index % 5) as f32 - 0.1;
                }
            }
            let points = size * size;
            let input = pseudo_planes(points * shape.inputs, 5);
            let table = neighbour_table(size);
            let mut activations = Activations::default();
            forward_trunk(
                &shape,
                &parameters,
                &input,
                points,
                &table,
                &mut activations,
            );
            let expected = &activations.trunk[blocks][..points * channels];
            let winograd = Winograd::new(&shape, &parameters);
            for _ in 0..2 {
                let output = trunk(&shape, &parameters, &winograd, &input, size, &mut scratch);
                assert_eq!(output.len(), expected.len());
                let largest = expected
                    .iter()
                    .fold(0f32, |largest, value| largest.max(*value));
                assert!(
                    largest > 0.01 && expected.contains(&0.0),
                    "a degenerate example"
                );
                for (fast, plain) in output.iter().zip(expected) {
                    assert!(
                        (fast - plain).abs() <= 1e-4 * largest.max(1.0),
                        "size {size}, width {channels}: {fast} against {plain}"
                    );
                }
            }
        }
    }

    /// The products give a plainly written sum, at one and two passes of columns and for
    /// row counts that leave partial groups.
    #[test]
    fn the_products_match_a_plain_sum() {
        if !std::arch::is_x86_feature_detected!("avx512f") {
            return;
        }
        for (rows, inner, columns) in [(25, 32, 32), (7, 14, 64), (1, 3, 32)] {
            let a = pseudo_random(rows * inner, 1, 1.0);
            let b = pseudo_random(inner * columns, 2, 1.0);
            let mut result = vec![1.0; rows * columns];
            let rows_of_a = Rows {
                values: &a,
                stride: inner,
                count: rows,
                width: inner,
            };
            // SAFETY: the processor has the features (checked above).
            unsafe { multiply_wide(rows_of_a, &b, &mut result, columns, columns) };
            for row in 0..rows {
                for column in 0..columns {
                    let exact: f32 = (0..inner)
                        .map(|index| a[row * inner + index] * b[index * columns + column])
                        .sum();
                    assert!((result[row * columns + column] - exact).abs() < 1e-4);
                }
            }
        }
    }
}
