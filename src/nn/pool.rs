//! The trunk's global pooling (KataGo's global pooling bias, Wu, arXiv 1902.10565, section
//! 4.1): in a trunk whose [`Shape::pooled`](crate::nn::layout::Shape) is set, each residual
//! block pools its inner layer (the first convolution's rectified output) over the board
//! into [`FEATURES`] values a channel (the mean, the mean times the board's [`width_scale`],
//! the maximum), and a linear map of those values gives a bias for each output channel of
//! the block's second convolution, added to that convolution's own bias. After one block
//! every point hears of the whole board, whatever its receptive field: what a fully
//! convolutional network needs to weigh a fight against the rest of a 19x19 board, and
//! (with the scaled mean) to know the board's size.
//!
//! The same functions serve training (a batch, the features kept for the backward pass)
//! and the engine (one position); the weights of a block are `[FEATURES * channels]
//! [channels]`, the features ordered means, scaled means, maxima.
//!
//! Knows no game.

/// Features a channel: mean, scaled mean, maximum.
pub const FEATURES: usize = 3;

/// The factor of the second feature, `(√points − 14) / 10` (KataGo's): 0 on a board of 196
/// points (14x14), -0.5 on 9x9, 0.5 on 19x19.
pub fn width_scale(points: usize) -> f32 {
    ((points as f32).sqrt() - 14.0) / 10.0
}

/// Pools one position's `inner` (`[point][channels]`, `points` rows read) into `features`
/// (`FEATURES * channels`) and each channel's first point of its maximum into
/// `maximum_points` (`channels`).
pub fn pool(
    inner: &[f32],
    points: usize,
    channels: usize,
    features: &mut [f32],
    maximum_points: &mut [u32],
) {
    pool_values(inner, points, channels, features);
    let maxima = &features[2 * channels..FEATURES * channels];
    let maximum_points = &mut maximum_points[..channels];
    maximum_points.fill(u32::MAX);
    for (point, row) in inner[..points * channels]
        .chunks_exact(channels)
        .enumerate()
    {
        for ((slot, &maximum), &value) in maximum_points.iter_mut().zip(maxima).zip(row) {
            if *slot == u32::MAX && value == maximum {
                *slot = point as u32;
            }
        }
    }
}

/// The biases of a pooled block's second convolution for one position: `layer_biases` plus
/// `features` times the block's pooling weights (at `weights` in `parameters`).
pub fn block_biases(
    parameters: &[f32],
    weights: usize,
    layer_biases: &[f32],
    features: &[f32],
    biases: &mut [f32],
) {
    let channels = layer_biases.len();
    biases[..channels].copy_from_slice(layer_biases);
    for (feature, &value) in features[..FEATURES * channels].iter().enumerate() {
        if value == 0.0 {
            continue;
        }
        let row = &parameters[weights + feature * channels..weights + (feature + 1) * channels];
        for (bias, &weight) in biases[..channels].iter_mut().zip(row) {
            *bias += value * weight;
        }
    }
}

/// The backward pass of one position's pooling: given `bias_gradient` (`channels`: the
/// gradient of the block's second convolution's pre-activation summed over the points),
/// adds the pooling weights' gradient into `gradient` (at `weights`) and the features'
/// gradient, spread back over the points they pooled, into `inner_gradient`
/// (`[point][channels]`, before the inner layer's rectifier is undone).
#[allow(clippy::too_many_arguments)]
pub fn pool_backward(
    parameters: &[f32],
    weights: usize,
    features: &[f32],
    maximum_points: &[u32],
    bias_gradient: &[f32],
    points: usize,
    gradient: &mut [f32],
    inner_gradient: &mut [f32],
) {
    let channels = bias_gradient.len();
    let mut feature_gradient = vec![0.0f32; FEATURES * channels];
    for (feature, (&value, slot)) in features[..FEATURES * channels]
        .iter()
        .zip(feature_gradient.iter_mut())
        .enumerate()
    {
        let start = weights + feature * channels;
        let row = &parameters[start..start + channels];
        let gradient_row = &mut gradient[start..start + channels];
        let mut sum = 0.0;
        for ((weight_gradient, &weight), &bias) in
            gradient_row.iter_mut().zip(row).zip(bias_gradient)
        {
            *weight_gradient += value * bias;
            sum += weight * bias;
        }
        *slot = sum;
    }
    let (means, rest) = feature_gradient.split_at(channels);
    let (scaled, maxima) = rest.split_at(channels);
    let (inverse, scale) = (1.0 / points as f32, width_scale(points));
    let spread: Vec<f32> = means
        .iter()
        .zip(scaled)
        .map(|(&mean, &scaled)| (mean + scaled * scale) * inverse)
        .collect();
    for row in inner_gradient[..points * channels].chunks_exact_mut(channels) {
        for (value, &share) in row.iter_mut().zip(&spread) {
            *value += share;
        }
    }
    for (channel, (&point, &maximum)) in maximum_points.iter().zip(maxima).enumerate() {
        inner_gradient[point as usize * channels + channel] += maximum;
    }
}

/// [`pool`] without the points of the maxima, which only training's backward pass needs:
/// the engine's form, whose loops the compiler turns into vector instructions.
pub fn pool_values(inner: &[f32], points: usize, channels: usize, features: &mut [f32]) {
    let (means, rest) = features[..FEATURES * channels].split_at_mut(channels);
    let (scaled, maxima) = rest.split_at_mut(channels);
    means.fill(0.0);
    maxima.fill(f32::NEG_INFINITY);
    for row in inner[..points * channels].chunks_exact(channels) {
        for ((mean, maximum), &value) in means.iter_mut().zip(maxima.iter_mut()).zip(row) {
            *mean += value;
            *maximum = if value > *maximum { value } else { *maximum };
        }
    }
    let (inverse, scale) = (1.0 / points as f32, width_scale(points));
    for (mean, scaled) in means.iter_mut().zip(scaled.iter_mut()) {
        *mean *= inverse;
        *scaled = *mean * scale;
    }
}

/// The engine's buffers for one position's pooled biases.
#[derive(Clone, Debug, Default)]
pub struct PoolScratch {
    features: Vec<f32>,
    /// The biases [`pooled_biases`] left.
    pub biases: Vec<f32>,
}

/// One position's biases of a pooled block's second convolution (the engine's form of
/// [`pool`] then [`block_biases`], by [`pool_values`]): `inner` `[point][channels]` (`points` rows read), the
/// block's pooling weights at `weights`; the result in `scratch.biases`.
pub fn pooled_biases(
    parameters: &[f32],
    weights: usize,
    layer_biases: &[f32],
    inner: &[f32],
    points: usize,
    scratch: &mut PoolScratch,
) {
    let channels = layer_biases.len();
    scratch.features.resize(FEATURES * channels, 0.0);
    scratch.biases.resize(channels, 0.0);
    pool_values(inner, points, channels, &mut scratch.features);
    block_biases(
        parameters,
        weights,
        layer_biases,
        &scratch.features,
        &mut scratch.biases,
    );
}

/// The biases of `block`'s second convolution as the engine runs it: the layer's own
/// (`layer_biases`) in a trunk that does not pool, else [`pooled_biases`] of the block's
/// `inner` layer.
pub fn second_biases<'a>(
    shape: &crate::nn::layout::Shape,
    parameters: &[f32],
    block: usize,
    layer_biases: &'a [f32],
    inner: &[f32],
    points: usize,
    scratch: &'a mut PoolScratch,
) -> &'a [f32] {
    match shape.pooling(block) {
        Some(weights) => {
            pooled_biases(parameters, weights, layer_biases, inner, points, scratch);
            &scratch.biases
        }
        None => layer_biases,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::test_values::pseudo_random;

    /// The features' gradient spread over the points matches finite differences of a
    /// linear loss of the biases, and the weights' gradient too.
    #[test]
    fn the_pooling_gradient_matches_finite_differences() {
        let (points, channels) = (7, 3);
        let inner: Vec<f32> = pseudo_random(points * channels, 3, 2.0)
            .into_iter()
            .map(|value| value.max(0.0))
            .collect();
        let weights = 5;
        let parameters = pseudo_random(weights + FEATURES * channels * channels, 4, 1.0);
        let layer_biases = [0.1, -0.2, 0.3];
        let upstream = [0.7f32, -1.3, 0.4];
        let loss = |parameters: &[f32], inner: &[f32]| {
            let mut features = vec![0.0; FEATURES * channels];
            let mut maximum_points = vec![0; channels];
            pool(inner, points, channels, &mut features, &mut maximum_points);
            let mut biases = vec![0.0; channels];
            block_biases(parameters, weights, &layer_biases, &features, &mut biases);
            biases
                .iter()
                .zip(upstream)
                .map(|(&bias, weight)| f64::from(bias * weight))
                .sum::<f64>()
        };
        let mut features = vec![0.0; FEATURES * channels];
        let mut maximum_points = vec![0; channels];
        pool(&inner, points, channels, &mut features, &mut maximum_points);
        // The engine's pooling gives the same features.
        let mut values = vec![0.0; FEATURES * channels];
        pool_values(&inner, points, channels, &mut values);
        assert_eq!(values, features);
        let mut gradient = vec![0.0; parameters.len()];
        let mut inner_gradient = vec![0.0; inner.len()];
        pool_backward(
            &parameters,
            weights,
            &features,
            &maximum_points,
            &upstream,
            points,
            &mut gradient,
            &mut inner_gradient,
        );
        let step = 1e-3;
        for index in 0..parameters.len() {
            let (mut up, mut down) = (parameters.clone(), parameters.clone());
            up[index] += step;
            down[index] -= step;
            let numeric = (loss(&up, &inner) - loss(&down, &inner)) / (2.0 * f64::from(step));
            assert!(
                (numeric - f64::from(gradient[index])).abs() < 1e-3,
                "weight {index}: {numeric} against {}",
                gradient[index]
            );
        }
        for index in 0..inner.len() {
            let (mut up, mut down) = (inner.clone(), inner.clone());
            up[index] += step;
            down[index] -= step;
            let numeric = (loss(&parameters, &up) - loss(&parameters, &down)) / (2.0 * 1e-3);
            assert!(
                (numeric - f64::from(inner_gradient[index])).abs() < 1e-3,
                "inner {index}: {numeric} against {}",
                inner_gradient[index]
            );
        }
    }
}
