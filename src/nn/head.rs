//! Heads that read a trunk's output (`[point][channel]`, one position) and know no game:
//! - the pooled head: each channel's mean and maximum over the board's points (KataGo's
//!   global pooling, arXiv 1902.10565, which lets a fully convolutional network judge the
//!   whole board), one rectified hidden layer, and any number of scalar outputs, each a
//!   weighted sum of the hidden units plus a bias;
//! - the point head: a 1x1 convolution, one logit per point;
//!
//! with their backward passes. Where the parameters lie is the game's choice: it gives the
//! offsets ([`PooledLayout`], each output's and point head's first weight).
//!
//! Knows nothing of any game, the tree or GTP.

/// Where a pooled head's hidden layer lies among the parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PooledLayout {
    /// The trunk's channels (the pooled features are twice as many: means, then maxima).
    pub channels: usize,
    /// Units of the hidden layer.
    pub hidden: usize,
    /// Offset of the hidden weights `[2 * channels][hidden]`.
    pub hidden_weights: usize,
    /// Offset of the hidden biases `[hidden]`.
    pub hidden_biases: usize,
}

/// A pooled head's activations for one position, kept for the backward pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pooled {
    /// The pooled features: each channel's mean over the points, then its maximum.
    pub features: Vec<f32>,
    /// The point of each channel's maximum (where its gradient goes).
    pub maximum_points: Vec<usize>,
    /// The hidden layer after its rectifier.
    pub hidden: Vec<f32>,
    /// The backward pass's gradients of the hidden layer and of the pooled features.
    hidden_gradient: Vec<f32>,
    feature_gradient: Vec<f32>,
}

/// Pools `top` (`points` rows of `layout.channels`) and runs the hidden layer into `pooled`.
pub fn pooled_forward(
    layout: &PooledLayout,
    parameters: &[f32],
    top: &[f32],
    points: usize,
    pooled: &mut Pooled,
) {
    let channels = layout.channels;
    pooled.features.clear();
    pooled.features.resize(2 * channels, 0.0);
    pooled.maximum_points.clear();
    pooled.maximum_points.resize(channels, 0);
    let (means, maxima) = pooled.features.split_at_mut(channels);
    maxima.fill(f32::NEG_INFINITY);
    for (point, row) in top.chunks_exact(channels).take(points).enumerate() {
        for (channel, &value) in row.iter().enumerate() {
            means[channel] += value;
            if value > maxima[channel] {
                maxima[channel] = value;
                pooled.maximum_points[channel] = point;
            }
        }
    }
    for mean in means.iter_mut() {
        *mean /= points as f32;
    }
    pooled.hidden.clear();
    pooled
        .hidden
        .extend_from_slice(&parameters[layout.hidden_biases..layout.hidden_biases + layout.hidden]);
    for (feature, &value) in pooled.features.iter().enumerate() {
        let weights =
            &parameters[layout.hidden_weights + feature * layout.hidden..][..layout.hidden];
        for (unit, weight) in pooled.hidden.iter_mut().zip(weights) {
            *unit += value * weight;
        }
    }
    for unit in pooled.hidden.iter_mut() {
        *unit = unit.max(0.0);
    }
}

/// A scalar output of the hidden layer: its weights `[hidden]` lie from `offset`, its bias
/// right after them.
pub fn scalar_output(parameters: &[f32], offset: usize, hidden: &[f32]) -> f32 {
    let weights = &parameters[offset..offset + hidden.len()];
    let mut output = parameters[offset + hidden.len()];
    for (unit, weight) in hidden.iter().zip(weights) {
        output += unit * weight;
    }
    output
}

/// Adds the pooled head's gradients for one position into `gradient` (its parameters') and
/// `trunk_gradient` (that position's `[point][channel]`), given each scalar output's offset
/// and the loss's gradient with respect to it (`pooled` keeps the pass's buffers).
pub fn pooled_backward(
    layout: &PooledLayout,
    parameters: &[f32],
    pooled: &mut Pooled,
    outputs: &[(usize, f32)],
    points: usize,
    gradient: &mut [f32],
    trunk_gradient: &mut [f32],
) {
    let channels = layout.channels;
    let hidden = layout.hidden;
    for &(offset, output_gradient) in outputs {
        gradient[offset + hidden] += output_gradient;
    }
    pooled.hidden_gradient.clear();
    for unit in 0..hidden {
        let mut sum = 0.0;
        for &(offset, output_gradient) in outputs {
            gradient[offset + unit] += output_gradient * pooled.hidden[unit];
            sum += output_gradient * parameters[offset + unit];
        }
        pooled
            .hidden_gradient
            .push(if pooled.hidden[unit] > 0.0 { sum } else { 0.0 });
    }
    for (unit, &value) in pooled.hidden_gradient.iter().enumerate() {
        gradient[layout.hidden_biases + unit] += value;
    }
    pooled.feature_gradient.clear();
    pooled.feature_gradient.resize(2 * channels, 0.0);
    for (feature, feature_value) in pooled.features.iter().enumerate() {
        let row = layout.hidden_weights + feature * hidden;
        let mut sum = 0.0;
        for (unit, &value) in pooled.hidden_gradient.iter().enumerate() {
            gradient[row + unit] += feature_value * value;
            sum += parameters[row + unit] * value;
        }
        pooled.feature_gradient[feature] = sum;
    }
    for point in 0..points {
        for channel in 0..channels {
            trunk_gradient[point * channels + channel] +=
                pooled.feature_gradient[channel] / points as f32;
        }
    }
    for channel in 0..channels {
        let point = pooled.maximum_points[channel];
        trunk_gradient[point * channels + channel] += pooled.feature_gradient[channels + channel];
    }
}

/// A point head over `top` (`points` rows of `channels`): its `channels` weights lie from
/// `offset`, its bias right after them; each point's logit into `logits`.
pub fn point_logits(
    parameters: &[f32],
    offset: usize,
    channels: usize,
    top: &[f32],
    points: usize,
    logits: &mut Vec<f32>,
) {
    let weights = &parameters[offset..offset + channels];
    let bias = parameters[offset + channels];
    logits.clear();
    logits.extend(
        top.chunks_exact(channels)
            .take(points)
            .map(|row| bias + row.iter().zip(weights).map(|(a, b)| a * b).sum::<f32>()),
    );
}

/// Adds the gradient of one point's logit (`logit_gradient`) of the point head at `offset`:
/// into its weights and bias in `gradient`, and into that point's trunk row (`top_row`, its
/// gradient `trunk_row_gradient`).
pub fn point_backward(
    parameters: &[f32],
    offset: usize,
    top_row: &[f32],
    logit_gradient: f32,
    gradient: &mut [f32],
    trunk_row_gradient: &mut [f32],
) {
    let channels = top_row.len();
    gradient[offset + channels] += logit_gradient;
    for channel in 0..channels {
        gradient[offset + channel] += logit_gradient * top_row[channel];
        trunk_row_gradient[channel] += logit_gradient * parameters[offset + channel];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pseudo_random(count: usize, seed: u64) -> Vec<f32> {
        let mut state = seed;
        (0..count)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.8
            })
            .collect()
    }

    /// A loss of two scalar outputs and a point head, in f64 for the finite differences.
    fn loss(layout: &PooledLayout, parameters: &[f32], top: &[f32], points: usize) -> f64 {
        let mut pooled = Pooled::default();
        pooled_forward(layout, parameters, top, points, &mut pooled);
        let first = scalar_output(parameters, OUTPUT_A, &pooled.hidden);
        let second = scalar_output(parameters, OUTPUT_B, &pooled.hidden);
        let mut logits = Vec::new();
        point_logits(parameters, POINT, layout.channels, top, points, &mut logits);
        let point_term: f32 = logits
            .iter()
            .enumerate()
            .map(|(point, logit)| logit * (point as f32 - 1.0))
            .sum();
        f64::from(first) * 1.5 - f64::from(second) * 0.5 + f64::from(point_term)
    }

    const CHANNELS: usize = 3;
    const HIDDEN: usize = 4;
    const OUTPUT_A: usize = 2 * CHANNELS * HIDDEN + HIDDEN;
    const OUTPUT_B: usize = OUTPUT_A + HIDDEN + 1;
    const POINT: usize = OUTPUT_B + HIDDEN + 1;
    const PARAMETERS: usize = POINT + CHANNELS + 1;

    /// The backward passes agree with finite differences, for the parameters and the trunk.
    #[test]
    fn the_heads_gradients_match_finite_differences() {
        let layout = PooledLayout {
            channels: CHANNELS,
            hidden: HIDDEN,
            hidden_weights: 0,
            hidden_biases: 2 * CHANNELS * HIDDEN,
        };
        let points = 5;
        let parameters = pseudo_random(PARAMETERS, 3);
        let top: Vec<f32> = pseudo_random(points * CHANNELS, 9)
            .iter()
            .map(|value| value.abs() + 0.05)
            .collect();
        let mut pooled = Pooled::default();
        pooled_forward(&layout, &parameters, &top, points, &mut pooled);
        let mut gradient = vec![0.0; PARAMETERS];
        let mut trunk_gradient = vec![0.0; top.len()];
        pooled_backward(
            &layout,
            &parameters,
            &mut pooled,
            &[(OUTPUT_A, 1.5), (OUTPUT_B, -0.5)],
            points,
            &mut gradient,
            &mut trunk_gradient,
        );
        for point in 0..points {
            let row = point * CHANNELS..(point + 1) * CHANNELS;
            point_backward(
                &parameters,
                POINT,
                &top[row.clone()],
                point as f32 - 1.0,
                &mut gradient,
                &mut trunk_gradient[row],
            );
        }
        let step = 1e-3;
        let close = |numeric: f64, analytic: f32, what: &str| {
            assert!(
                (numeric - f64::from(analytic)).abs() < 2e-2 * (1.0 + numeric.abs()),
                "{what}: numeric {numeric}, analytic {analytic}"
            );
        };
        for index in 0..PARAMETERS {
            let mut up = parameters.clone();
            up[index] += step;
            let mut down = parameters.clone();
            down[index] -= step;
            let numeric = (loss(&layout, &up, &top, points) - loss(&layout, &down, &top, points))
                / (2.0 * f64::from(step));
            close(numeric, gradient[index], &format!("parameter {index}"));
        }
        for index in 0..top.len() {
            let mut up = top.clone();
            up[index] += step;
            let mut down = top.clone();
            down[index] -= step;
            let numeric = (loss(&layout, &parameters, &up, points)
                - loss(&layout, &parameters, &down, points))
                / (2.0 * f64::from(step));
            close(numeric, trunk_gradient[index], &format!("trunk {index}"));
        }
        assert!(gradient.iter().any(|&value| value != 0.0));
    }
}
