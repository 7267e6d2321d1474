//! The Go value network: the probability that the player to move wins, with the expected
//! score lead and each point's ownership beside it, distilled from the KataGo teacher
//! (`ishi-train --value-network`, `models/README.md`).
//!
//! Shape: a residual trunk ([`Shape`]: a 3x3 stem and residual blocks, fully
//! convolutional, so one set of weights runs on every board size) over [`VALUE_PLANES`]
//! planes: Go's [`INPUT_PLANES`] and a
//! plane of the komi from the mover's side (positive when the mover receives it), divided by
//! [`KOMI_SCALE`]. The value head pools the trunk's output over the board (mean and maximum
//! of every channel), then one hidden layer (rectified) and three outputs: the win logit (the
//! win probability is its logistic), the mover's score lead over [`SCORE_SCALE`] and the
//! pass move's policy logit. The ownership head is a 1x1 convolution of the trunk's output: a
//! logit per point whose tanh is the point's expected owner from the mover's view (1 the
//! mover's, -1 the opponent's); the policy head another, each point's move logit (a softmax
//! over the legal moves and pass gives the teacher's move distribution). Score, ownership and
//! policy are auxiliary targets: they give the trunk many more facts per position to learn
//! from than one win probability (AlphaGo Zero's dual network; KataGo, arXiv 1902.10565).
//!
//! Parameters lie as the trunk's ([`Shape::convolutions`]), then from [`Shape::head`]: the
//! hidden weights `[2 * channels][hidden]`, the hidden biases `[hidden]`, the win weights
//! `[hidden]` and bias, the score weights `[hidden]` and bias, the ownership weights
//! `[channels]` and bias, the policy weights `[channels]` and bias, the pass weights
//! `[hidden]` and bias. The file: [`crate::nn::file`]'s, of the kind `go-value`, with the
//! dimensions `inputs`, `channels`, `blocks`, `hidden` and `sizes` (the board sizes trained
//! on as a mask, bit `s` for size `s`). The files of the builds before still read: magic
//! `ISHIVAL4`, the five dimensions as u32 and the parameters as f32, little-endian, and
//! `ISHIVAL3` (the same, with one board size in place of the mask).
//!
//! A position can also be judged with the board under one of its eight symmetries
//! ([`ValueNetwork::evaluate_under`], the search's `value_symmetry`), and answered whole,
//! every head's output mapped back to the board's points ([`ValueNetwork::raw`],
//! `kata-raw-nn`). `scripts/train/torch_value.py` keeps a PyTorch copy of this layout.
//!
//! Two networks of this shape ship: `models/go-value.bin` for the boards below
//! [`LARGE_BOARD`] points a side and `models/go-value-large.bin`, the same network trained on
//! with more of the teacher's 19x19 games, for the boards from there on ([`for_size`]).
//!
//! Knows the playout board, the input planes and the network library; nothing of the tree.

use crate::color::Color;
use crate::go::search::board::{PlayoutBoard, EMPTY};
use crate::go::search::planes::{candidate_probabilities, encode, symmetries, INPUT_PLANES};
use crate::go::search::shipped::ShippedModel;
use crate::go::search::LARGE_BOARD;
use crate::nn::file::{is_weight_file, WeightFile};
use crate::nn::head::{self, pooled_forward, scalar_output, Pooled, PooledLayout};
use crate::nn::inference::{self, Inference};
use crate::nn::layout::{neighbour_table, Shape};
use crate::nn::winograd::{self, Winograd, WinogradScratch};
use std::sync::OnceLock;

/// Input planes: Go's ([`INPUT_PLANES`]) and the komi.
pub const VALUE_PLANES: usize = INPUT_PLANES + 1;

/// Komi is divided by this in its plane (a handicap game's komi of 30 reads 2).
pub const KOMI_SCALE: f32 = 15.0;

/// The score output times this is the lead in points.
pub const SCORE_SCALE: f32 = 20.0;

/// The kind of network file ([`WeightFile::kind`]) this module reads and writes.
pub const KIND: &str = "go-value";

/// The format before the shared weight file.
const EARLIER_MAGIC: &[u8; 8] = b"ISHIVAL4";
/// The last format that recorded one board size instead of a mask.
const ONE_SIZE_MAGIC: &[u8; 8] = b"ISHIVAL3";
const HEADER_BYTES: usize = 8 + 5 * 4;

/// How many sizes below the smallest it learned the search still trusts a network: the
/// shipped one, which learned 9x9, 13x13 and 19x19, judges 7x7 held out far better than a
/// constant (`models/README.md`).
pub const TRUSTED_BELOW: usize = 2;

/// The value network's dimensions: its trunk and the width of the head's hidden layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueShape {
    /// The trunk (its `inputs` are [`VALUE_PLANES`]).
    pub trunk: Shape,
    /// Units of the hidden layer.
    pub hidden: usize,
}

/// Where the head's parameters lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadLayout {
    /// The pooled features (`2 * channels`: means, then maxima).
    pub features: usize,
    /// Units of the hidden layer.
    pub hidden: usize,
    /// Offset of the hidden weights `[features][hidden]`.
    pub hidden_weights: usize,
    /// Offset of the hidden biases `[hidden]`.
    pub hidden_biases: usize,
    /// Offset of the win output's weights `[hidden]`.
    pub output_weights: usize,
    /// Offset of the win output's bias.
    pub output_bias: usize,
    /// Offset of the score output's weights `[hidden]`.
    pub score_weights: usize,
    /// Offset of the score output's bias.
    pub score_bias: usize,
    /// Offset of the ownership convolution's weights `[channels]`.
    pub ownership_weights: usize,
    /// Offset of the ownership convolution's bias.
    pub ownership_bias: usize,
    /// Offset of the policy convolution's weights `[channels]`.
    pub policy_weights: usize,
    /// Offset of the policy convolution's bias.
    pub policy_bias: usize,
    /// Offset of the pass logit's weights `[hidden]`.
    pub pass_weights: usize,
    /// Offset of the pass logit's bias.
    pub pass_bias: usize,
}

impl ValueShape {
    /// The head's layout in the parameter vector.
    pub fn head(&self) -> HeadLayout {
        let features = 2 * self.trunk.channels;
        let hidden_weights = self.trunk.head();
        let hidden_biases = hidden_weights + features * self.hidden;
        let output_weights = hidden_biases + self.hidden;
        let score_weights = output_weights + self.hidden + 1;
        let ownership_weights = score_weights + self.hidden + 1;
        let policy_weights = ownership_weights + self.trunk.channels + 1;
        let pass_weights = policy_weights + self.trunk.channels + 1;
        HeadLayout {
            features,
            hidden: self.hidden,
            hidden_weights,
            hidden_biases,
            output_weights,
            output_bias: output_weights + self.hidden,
            score_weights,
            score_bias: score_weights + self.hidden,
            ownership_weights,
            ownership_bias: ownership_weights + self.trunk.channels,
            policy_weights,
            policy_bias: policy_weights + self.trunk.channels,
            pass_weights,
            pass_bias: pass_weights + self.hidden,
        }
    }

    /// The number of parameters.
    pub fn parameter_count(&self) -> usize {
        self.head().pass_bias + 1
    }
}

/// The head's activations for one position, kept for the backward pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeadActivations {
    /// The pooled features and the hidden layer.
    pub pooled: Pooled,
    /// The logit of the win probability.
    pub logit: f32,
    /// The score output (the mover's lead over [`SCORE_SCALE`]).
    pub score: f32,
    /// The pass move's policy logit.
    pub pass_logit: f32,
}

/// Runs the head over one position's trunk output `top` (`[point][channel]`).
pub fn head_forward(
    layout: &HeadLayout,
    parameters: &[f32],
    top: &[f32],
    points: usize,
    activations: &mut HeadActivations,
) {
    pooled_forward(
        &layout.pooled(),
        parameters,
        top,
        points,
        &mut activations.pooled,
    );
    let hidden = &activations.pooled.hidden;
    activations.logit = scalar_output(parameters, layout.output_weights, hidden);
    activations.score = scalar_output(parameters, layout.score_weights, hidden);
    activations.pass_logit = scalar_output(parameters, layout.pass_weights, hidden);
}

/// The heads that give one logit per point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointHead {
    /// The point's owner from the mover's view is the logit's tanh.
    Ownership,
    /// The move's logit (pass's is the value head's [`HeadActivations::pass_logit`]).
    Policy,
}

impl HeadLayout {
    /// Where the pooled part (the hidden layer) lies.
    pub fn pooled(&self) -> PooledLayout {
        PooledLayout {
            channels: self.features / 2,
            hidden: self.hidden,
            hidden_weights: self.hidden_weights,
            hidden_biases: self.hidden_biases,
        }
    }

    /// The offset of a point head's weights.
    pub fn point_head(&self, head: PointHead) -> usize {
        match head {
            PointHead::Ownership => self.ownership_weights,
            PointHead::Policy => self.policy_weights,
        }
    }
}

/// A point head over one position's trunk output `top` (`[point][channel]`): the logit of
/// each point into `logits`.
pub fn point_logits(
    layout: &HeadLayout,
    parameters: &[f32],
    head: PointHead,
    top: &[f32],
    points: usize,
    logits: &mut Vec<f32>,
) {
    head::point_logits(
        parameters,
        layout.point_head(head),
        layout.features / 2,
        top,
        points,
        logits,
    );
}

/// The logistic function.
pub fn logistic(logit: f32) -> f32 {
    1.0 / (1.0 + (-logit).exp())
}

/// Writes the value network's planes of `board` with `color` to move and White's `komi` into
/// `planes` (`[point][VALUE_PLANES]`, points row by row).
pub fn encode_value(board: &PlayoutBoard, color: Color, komi: f64, planes: &mut Vec<f32>) {
    let points = board.size() * board.size();
    let komi_plane = match color {
        Color::White => komi as f32,
        Color::Black => -komi as f32,
    } / KOMI_SCALE;
    // Go's planes first, then spread in place to one more plane a point
    // (from the last point back, so nothing is overwritten before it moves).
    planes.clear();
    planes.resize(points * VALUE_PLANES, 0.0);
    encode(board, color, planes);
    for point in (0..points).rev() {
        let from = point * INPUT_PLANES;
        let to = point * VALUE_PLANES;
        planes.copy_within(from..from + INPUT_PLANES, to);
        planes[to + INPUT_PLANES] = komi_plane;
    }
}

/// A set of board sizes (2..=25): bit `s` for size `s`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardSizes(pub u32);

impl BoardSizes {
    /// The set of the sizes listed.
    pub fn of(sizes: &[usize]) -> BoardSizes {
        BoardSizes(
            sizes
                .iter()
                .filter(|&&size| (2..=25).contains(&size))
                .fold(0, |mask, &size| mask | 1 << size),
        )
    }

    /// Whether `size` is in the set.
    pub fn contains(self, size: usize) -> bool {
        size < 32 && self.0 & (1 << size) != 0
    }

    /// The smallest size in the set (`None` when empty); a bit scan, no allocation.
    pub fn smallest(self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }

    /// The largest size in the set (`None` when empty); a bit scan, no allocation.
    pub fn largest(self) -> Option<usize> {
        (self.0 != 0).then(|| 31 - self.0.leading_zeros() as usize)
    }

    /// The sizes, smallest first.
    pub fn list(self) -> Vec<usize> {
        (2..=25).filter(|&size| self.contains(size)).collect()
    }
}

/// A trained value network.
#[derive(Clone, Debug)]
pub struct ValueNetwork {
    /// Its dimensions (the trunk's `board_size` is the largest of `sizes`).
    pub shape: ValueShape,
    /// The board sizes it learned; the search trusts it on [`ValueNetwork::trusted_sizes`].
    pub sizes: BoardSizes,
    /// Every weight and bias, laid out as the module header says (not to be changed once
    /// the network has evaluated a position: the transformed weights are made from them
    /// then).
    pub parameters: Vec<f32>,
    /// The trunk's weights transformed for [`winograd::trunk`], made at the first
    /// evaluation.
    winograd: OnceLock<Winograd>,
}

impl PartialEq for ValueNetwork {
    fn eq(&self, other: &ValueNetwork) -> bool {
        (self.shape, self.sizes, &self.parameters) == (other.shape, other.sizes, &other.parameters)
    }
}

/// Buffers of one evaluation, reused between evaluations.
#[derive(Default)]
pub struct ValueScratch {
    trunk: TrunkScratch,
    head: HeadActivations,
    logits: Vec<f32>,
}

/// The trunk's buffers: the input planes, the board's neighbour table and the layers.
#[derive(Default)]
struct TrunkScratch {
    planes: Vec<f32>,
    /// The planes before a symmetry moves them, and the symmetries of `permutations_size`.
    unmoved: Vec<f32>,
    permutations: Vec<Vec<u16>>,
    permutations_size: usize,
    table: Vec<u16>,
    table_size: usize,
    inference: Inference,
    winograd: WinogradScratch,
}

/// The dimensions (inputs, channels, blocks, hidden, the sizes' mask) and the parameters of
/// a file of the formats before the shared weight file: `ISHIVAL4`, or `ISHIVAL3` (one
/// board size in place of the mask); refuses the ones before (fewer heads).
fn earlier_format(bytes: &[u8]) -> Result<([usize; 5], Vec<f32>), String> {
    if bytes.len() >= 8 && bytes.starts_with(b"ISHIVAL") && bytes[7] < ONE_SIZE_MAGIC[7] {
        return Err("a value network of an older format (fewer heads): train it again".into());
    }
    let one_size = bytes.starts_with(ONE_SIZE_MAGIC);
    if bytes.len() < HEADER_BYTES || (&bytes[..8] != EARLIER_MAGIC && !one_size) {
        return Err("not an ishi value network".into());
    }
    let dimension = |index: usize| {
        let start = 8 + 4 * index;
        u32::from_le_bytes(bytes[start..start + 4].try_into().unwrap_or([0; 4])) as usize
    };
    let mask = if one_size {
        BoardSizes::of(&[dimension(4)]).0 as usize
    } else {
        dimension(4)
    };
    let parameters: Vec<f32> = bytes[HEADER_BYTES..]
        .chunks_exact(4)
        .map(|chunk| f32::from_le_bytes(chunk.try_into().unwrap_or([0; 4])))
        .collect();
    if !(bytes.len() - HEADER_BYTES).is_multiple_of(4) {
        return Err("the parameters' bytes are not whole floats".into());
    }
    if parameters.iter().any(|parameter| !parameter.is_finite()) {
        return Err("a parameter is not finite".into());
    }
    Ok((
        [dimension(0), dimension(1), dimension(2), dimension(3), mask],
        parameters,
    ))
}

impl ValueNetwork {
    /// The network of `shape` that learned `sizes`, with `parameters`.
    pub fn new(shape: ValueShape, sizes: BoardSizes, parameters: Vec<f32>) -> ValueNetwork {
        ValueNetwork {
            shape,
            sizes,
            parameters,
            winograd: OnceLock::new(),
        }
    }

    /// The board sizes the search trusts it on: every size from [`TRUSTED_BELOW`] below the
    /// smallest it learned to the largest, but below 7x7 (a different game, where the search
    /// reads far) only the sizes it learned, so a network that learned 9x9, 13x13 and 19x19
    /// judges 7x7 to 19x19. Held out, the shipped network judges the sizes
    /// between those it learned about as well as its neighbours (`models/README.md`).
    /// Called for every leaf the network judges, so it scans the mask's bits.
    pub fn trusted_sizes(&self) -> std::ops::RangeInclusive<usize> {
        match (self.sizes.smallest(), self.sizes.largest()) {
            (Some(smallest), Some(largest)) => {
                smallest.saturating_sub(TRUSTED_BELOW).max(7).min(smallest)..=largest
            }
            // No size learned (a file refuses that): none trusted.
            #[allow(clippy::reversed_empty_ranges)]
            _ => 1..=0,
        }
    }

    /// The file's bytes: a [`WeightFile`] of the kind [`KIND`] (see the module header).
    pub fn to_bytes(&self) -> Vec<u8> {
        let trunk = self.shape.trunk;
        // `pooled` only where it is set: a file without it reads as a trunk that does not pool.
        let pooled = trunk.pooled.then_some(("pooled", 1));
        WeightFile {
            kind: KIND.into(),
            dimensions: [
                ("inputs", trunk.inputs),
                ("channels", trunk.channels),
                ("blocks", trunk.blocks),
                ("hidden", self.shape.hidden),
                ("sizes", self.sizes.0 as usize),
            ]
            .into_iter()
            .chain(pooled)
            .map(|(name, value)| (name.to_string(), value as u32))
            .collect(),
            parameters: self.parameters.clone(),
        }
        .to_bytes()
    }

    /// Reads a network written by [`ValueNetwork::to_bytes`], or by the builds before the
    /// shared weight file (`ISHIVAL4`, and `ISHIVAL3` with one board size).
    ///
    /// # Errors
    /// Not such a file, input planes other than [`VALUE_PLANES`], implausible dimensions, a
    /// length that does not match them, or a parameter that is not finite.
    pub fn from_bytes(bytes: &[u8]) -> Result<ValueNetwork, String> {
        let (dimensions, pooled, parameters) = if is_weight_file(bytes) {
            let file = WeightFile::from_bytes(bytes, KIND)?;
            let dimensions = [
                file.dimension("inputs")?,
                file.dimension("channels")?,
                file.dimension("blocks")?,
                file.dimension("hidden")?,
                file.dimension("sizes")?,
            ];
            let pooled = match file.dimension("pooled") {
                Err(_) | Ok(0) => false,
                Ok(1) => true,
                Ok(other) => return Err(format!("pooled {other}: 0 or 1")),
            };
            (dimensions, pooled, file.parameters)
        } else {
            let (dimensions, parameters) = earlier_format(bytes)?;
            (dimensions, false, parameters)
        };
        let [inputs, channels, blocks, hidden, mask] = dimensions;
        let sizes = BoardSizes(mask as u32);
        let shape = ValueShape {
            trunk: Shape {
                inputs,
                channels,
                blocks,
                pooled,
                board_size: sizes.largest().unwrap_or(0),
            },
            hidden,
        };
        if shape.trunk.inputs != VALUE_PLANES {
            return Err(format!(
                "{} input planes, this build computes {VALUE_PLANES}",
                shape.trunk.inputs
            ));
        }
        if shape.trunk.channels == 0
            || shape.trunk.channels > 512
            || shape.trunk.blocks > 64
            || shape.hidden == 0
            || shape.hidden > 1024
        {
            return Err(format!("implausible dimensions {shape:?}"));
        }
        if mask > u32::MAX as usize || sizes.0 == 0 || BoardSizes::of(&sizes.list()) != sizes {
            return Err(format!("board sizes {mask:#x}"));
        }
        let count = shape.parameter_count();
        if parameters.len() != count {
            return Err(format!(
                "{} parameters, the dimensions need {count}",
                parameters.len()
            ));
        }
        Ok(ValueNetwork::new(shape, sizes, parameters))
    }

    /// The probability that `color`, to move on `board` with White's `komi`, wins.
    pub fn win(
        &self,
        board: &PlayoutBoard,
        color: Color,
        komi: f64,
        scratch: &mut ValueScratch,
    ) -> f32 {
        self.evaluate(board, color, komi, scratch, None).win
    }

    /// The policy head's probabilities of `points` (board points, pass ignored and given 0)
    /// for `color` to move: a softmax over the board points among them
    /// ([`candidate_probabilities`]).
    pub fn policy(
        &self,
        board: &PlayoutBoard,
        color: Color,
        komi: f64,
        points: &[u16],
        scratch: &mut ValueScratch,
        probabilities: &mut Vec<f32>,
    ) {
        let size = board.size();
        let count = size * size;
        let top = self.trunk(board, color, komi, &mut scratch.trunk);
        point_logits(
            &self.shape.head(),
            &self.parameters,
            PointHead::Policy,
            top,
            count,
            &mut scratch.logits,
        );
        candidate_probabilities(board, &scratch.logits, points, probabilities);
    }

    /// The trunk's output for `board` with `color` to move at `komi` (`[point][channels]`).
    fn trunk<'a>(
        &self,
        board: &PlayoutBoard,
        color: Color,
        komi: f64,
        scratch: &'a mut TrunkScratch,
    ) -> &'a [f32] {
        encode_value(board, color, komi, &mut scratch.planes);
        self.trunk_of_planes(board.size(), scratch)
    }

    /// The trunk's output for the planes in `scratch.planes` of a `size` board.
    fn trunk_of_planes<'a>(&self, size: usize, scratch: &'a mut TrunkScratch) -> &'a [f32] {
        if scratch.table_size != size {
            scratch.table = neighbour_table(size);
            scratch.table_size = size;
        }
        let shape = &self.shape.trunk;
        if winograd::runs(shape) {
            let transformed = self
                .winograd
                .get_or_init(|| Winograd::new(shape, &self.parameters));
            return winograd::trunk(
                shape,
                &self.parameters,
                transformed,
                &scratch.planes,
                size,
                &mut scratch.winograd,
            );
        }
        inference::trunk(
            shape,
            &self.parameters,
            &scratch.planes,
            size * size,
            &scratch.table,
            &mut scratch.inference,
        )
    }

    /// The evaluation of `board` with `color` to move and White's `komi`; with `ownership`,
    /// also each point's expected owner from `color`'s view (-1..1, row by row from the
    /// bottom-left, as the planes).
    pub fn evaluate(
        &self,
        board: &PlayoutBoard,
        color: Color,
        komi: f64,
        scratch: &mut ValueScratch,
        ownership: Option<&mut Vec<f32>>,
    ) -> Evaluation {
        let points = board.size() * board.size();
        let top = self.trunk(board, color, komi, &mut scratch.trunk);
        let layout = self.shape.head();
        head_forward(&layout, &self.parameters, top, points, &mut scratch.head);
        if let Some(ownership) = ownership {
            point_logits(
                &layout,
                &self.parameters,
                PointHead::Ownership,
                top,
                points,
                ownership,
            );
            for value in ownership.iter_mut() {
                *value = value.tanh();
            }
        }
        Evaluation {
            win: logistic(scratch.head.logit),
            lead: scratch.head.score * SCORE_SCALE,
        }
    }

    /// The trunk's output for `board` with `color` to move at `komi`, the board seen under
    /// `symmetry` ([`symmetries`]): the planes moved point by point.
    fn trunk_under<'a>(
        &self,
        board: &PlayoutBoard,
        color: Color,
        komi: f64,
        symmetry: usize,
        scratch: &'a mut TrunkScratch,
    ) -> &'a [f32] {
        let size = board.size();
        if scratch.permutations_size != size {
            scratch.permutations = symmetries(size);
            scratch.permutations_size = size;
        }
        encode_value(board, color, komi, &mut scratch.unmoved);
        scratch.planes.clear();
        scratch.planes.resize(scratch.unmoved.len(), 0.0);
        for (point, &image) in scratch.permutations[symmetry % 8].iter().enumerate() {
            let (from, to) = (point * VALUE_PLANES, image as usize * VALUE_PLANES);
            scratch.planes[to..to + VALUE_PLANES]
                .copy_from_slice(&scratch.unmoved[from..from + VALUE_PLANES]);
        }
        self.trunk_of_planes(size, scratch)
    }

    /// The win probability and lead of [`ValueNetwork::evaluate`], the board seen under
    /// `symmetry` ([`symmetries`]): the pooled heads do not depend on where the points lie,
    /// so only the input moves.
    pub fn evaluate_under(
        &self,
        board: &PlayoutBoard,
        color: Color,
        komi: f64,
        symmetry: usize,
        scratch: &mut ValueScratch,
    ) -> Evaluation {
        let points = board.size() * board.size();
        let top = self.trunk_under(board, color, komi, symmetry, &mut scratch.trunk);
        head_forward(
            &self.shape.head(),
            &self.parameters,
            top,
            points,
            &mut scratch.head,
        );
        Evaluation {
            win: logistic(scratch.head.logit),
            lead: scratch.head.score * SCORE_SCALE,
        }
    }

    /// Everything the network says of `board` with `color` to move and White's `komi`, the
    /// board seen under one of its eight symmetries ([`symmetries`]; the answers mapped
    /// back to the board's own points): what KataGo's `kata-raw-nn` answers.
    pub fn raw(
        &self,
        board: &PlayoutBoard,
        color: Color,
        komi: f64,
        symmetry: usize,
        scratch: &mut ValueScratch,
    ) -> RawOutput {
        let size = board.size();
        let points = size * size;
        let permutation = symmetries(size).swap_remove(symmetry % 8);
        let top = self.trunk_under(board, color, komi, symmetry, &mut scratch.trunk);
        let layout = self.shape.head();
        head_forward(&layout, &self.parameters, top, points, &mut scratch.head);
        let mut logits = Vec::new();
        point_logits(
            &layout,
            &self.parameters,
            PointHead::Policy,
            top,
            points,
            &mut logits,
        );
        let mut owners = Vec::new();
        point_logits(
            &layout,
            &self.parameters,
            PointHead::Ownership,
            top,
            points,
            &mut owners,
        );
        let stride = board.stride();
        let legal: Vec<bool> = (0..points)
            .map(|index| {
                let point = (index / size + 1) * stride + index % size + 1;
                board.cell(point) == EMPTY && board.is_legal(point, color)
            })
            .collect();
        let logit_of = |index: usize| logits[permutation[index] as usize];
        let largest = (0..points)
            .filter(|&index| legal[index])
            .map(logit_of)
            .fold(scratch.head.pass_logit, f32::max);
        let pass = (scratch.head.pass_logit - largest).exp();
        let mut policy: Vec<Option<f32>> = (0..points)
            .map(|index| legal[index].then(|| (logit_of(index) - largest).exp()))
            .collect();
        let total = pass + policy.iter().flatten().sum::<f32>();
        for probability in policy.iter_mut().flatten() {
            *probability /= total;
        }
        RawOutput {
            win: logistic(scratch.head.logit),
            lead: scratch.head.score * SCORE_SCALE,
            policy,
            pass: pass / total,
            ownership: (0..points)
                .map(|index| owners[permutation[index] as usize].tanh())
                .collect(),
        }
    }
}

/// The symmetry (0 to 7) a position is judged under with `value_symmetry`: a hash of its
/// stones, the side's last moves and the ko point, so the same position always gets the
/// same one.
pub fn position_symmetry(board: &PlayoutBoard) -> usize {
    let size = board.size();
    let stride = board.stride();
    let mut hash: u64 = 0x9E37_79B9_7F4A_7C15;
    for row in 0..size {
        for column in 0..size {
            let point = (row + 1) * stride + column + 1;
            let cell = board.cell(point);
            if cell != EMPTY {
                hash ^= (point as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9)
                    ^ u64::from(cell).wrapping_mul(0x94D0_49BB_1331_11EB);
                hash = hash.rotate_left(17).wrapping_mul(0x2545_F491_4F6C_DD1D);
            }
        }
    }
    for point in [
        board.last_move(),
        board.second_last_move(),
        board.ko_point(),
    ] {
        hash = (hash ^ point as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    }
    (hash >> 61) as usize
}

/// Everything the network says of one position, from the player to move's view
/// ([`ValueNetwork::raw`]); points row by row from the bottom-left, as the planes.
#[derive(Clone, Debug, PartialEq)]
pub struct RawOutput {
    /// The probability of winning.
    pub win: f32,
    /// The expected score lead in points.
    pub lead: f32,
    /// Each point's move probability, `None` where the mover may not play (occupied, the
    /// ko point, suicide): the policy head's softmax over the legal points and pass.
    pub policy: Vec<Option<f32>>,
    /// The pass's probability.
    pub pass: f32,
    /// Each point's expected owner, -1 (the opponent's) to 1 (the mover's).
    pub ownership: Vec<f32>,
}

/// What the value network says of a position, from the player to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The probability of winning.
    pub win: f32,
    /// The expected score lead in points.
    pub lead: f32,
}

/// The network of the boards below [`LARGE_BOARD`] points a side: the one shipped in the
/// binary (`models/go-value.bin`) unless [`use_file`] chose another.
static NETWORK: ShippedModel<ValueNetwork> = ShippedModel::new(
    "value network",
    include_bytes!("../../../models/go-value.bin"),
    ValueNetwork::from_bytes,
);

/// The network of the boards of [`LARGE_BOARD`] points a side and more: the shipped one
/// (`models/go-value-large.bin`, trained on from the other with more of the teacher's 19x19
/// games, `models/README.md`) unless [`use_large_file`] or [`use_file`] chose another.
static LARGE_NETWORK: ShippedModel<ValueNetwork> = ShippedModel::new(
    "large-board value network",
    include_bytes!("../../../models/go-value-large.bin"),
    ValueNetwork::from_bytes,
);

/// Uses the network in the file at `path` in place of the shipped ones (`--value-network`):
/// on every board size, but the large boards where [`use_large_file`] chose theirs before.
/// Call it before the first search.
///
/// # Errors
/// The file does not read as a value network, or a network is already in use.
pub fn use_file(path: &std::path::Path) -> Result<(), String> {
    let network = NETWORK.read_file(path)?;
    if !LARGE_NETWORK.is_settled() {
        LARGE_NETWORK.use_model(network.clone())?;
    }
    NETWORK.use_model(network)
}

/// Uses the network in the file at `path` on the boards of [`LARGE_BOARD`] points a side and
/// more (`--value-network-large`); call it before [`use_file`] and the first search.
///
/// # Errors
/// The file does not read as a value network, or a network is already in use there.
pub fn use_large_file(path: &std::path::Path) -> Result<(), String> {
    LARGE_NETWORK.use_file(path)
}

/// The network in use on the boards below [`LARGE_BOARD`], read on first use; `None` (with a
/// warning in the log) if the shipped one does not read, so the search backs up playouts
/// alone.
pub fn shipped() -> Option<&'static ValueNetwork> {
    NETWORK.get()
}

/// The network in use on a `size` board: the large boards' from [`LARGE_BOARD`] on (the
/// other where that one does not read), [`shipped`] below; whether it is trusted on `size`
/// is [`proposing`]'s and [`judging`]'s question.
pub fn for_size(size: usize) -> Option<&'static ValueNetwork> {
    if size >= LARGE_BOARD {
        LARGE_NETWORK.get().or_else(shipped)
    } else {
        shipped()
    }
}

/// The network in use when it judges a position of a `size` board at `komi` (`None` in
/// capture Go, `capture`): only on the sizes it is trusted on
/// ([`ValueNetwork::trusted_sizes`]) and with the komi plane within -1..1 ([`KOMI_SCALE`]
/// points either way), where its judgement is measured.
pub fn judging(size: usize, komi: f64, capture: bool) -> Option<&'static ValueNetwork> {
    if capture || komi.abs() > f64::from(KOMI_SCALE) {
        return None;
    }
    proposing(size)
}

/// The network in use when its policy head gives the priors of a `size` board: on the
/// sizes it is trusted on, whatever the komi (read within the komi plane's range, see
/// [`prior_komi`]) and the rules (in capture Go its moves are ordinary Go's, which the
/// hand-made tactics join in the priors).
pub fn proposing(size: usize) -> Option<&'static ValueNetwork> {
    for_size(size).filter(|network| network.trusted_sizes().contains(&size))
}

/// The komi the policy head reads for the priors: `komi` within the plane's -1..1
/// ([`KOMI_SCALE`] points either way).
pub fn prior_komi(komi: f64) -> f64 {
    komi.clamp(-f64::from(KOMI_SCALE), f64::from(KOMI_SCALE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_network() -> ValueNetwork {
        small_network_pooled(false)
    }

    fn small_network_pooled(pooled: bool) -> ValueNetwork {
        let shape = ValueShape {
            trunk: Shape {
                inputs: VALUE_PLANES,
                channels: 32,
                blocks: 1,
                pooled,
                board_size: 9,
            },
            hidden: 8,
        };
        let mut state = 12345u64;
        let parameters = (0..shape.parameter_count())
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2
            })
            .collect();
        ValueNetwork::new(shape, BoardSizes::of(&[9]), parameters)
    }

    /// Denormal floats cost Intel processors ten times and more; the shipped networks need
    /// no flush-to-zero: none of their weights is subnormal, nor any activation of their
    /// trunks over positions of seeded random games (measured also over 3,000 teacher
    /// positions: 0 of 70.9 million activations).
    #[test]
    fn the_shipped_networks_compute_no_subnormal_float() {
        let large = for_size(LARGE_BOARD).expect("the shipped large-board network loads");
        for value in [shipped().expect("the shipped value network loads"), large] {
            computes_no_subnormal_float(value);
        }
    }

    fn computes_no_subnormal_float(value: &ValueNetwork) {
        use crate::nn::forward::{forward_trunk, Activations};
        assert!(!value.parameters.iter().any(|weight| weight.is_subnormal()));
        let table = neighbour_table(9);
        let mut activations = Activations::default();
        let mut planes = Vec::new();
        let mut random = crate::search::random::Random::new(5);
        let mut checked = 0;
        for _ in 0..20 {
            let mut board =
                PlayoutBoard::from_board(&crate::go::rules::board::Board::new(9), Color::Black);
            let mut color = Color::Black;
            for _ in 0..60 {
                encode_value(&board, color, 7.5, &mut planes);
                forward_trunk(
                    &value.shape.trunk,
                    &value.parameters,
                    &planes,
                    81,
                    &table,
                    &mut activations,
                );
                for tensor in activations.trunk.iter().chain(&activations.inner) {
                    assert!(!tensor.iter().any(|value| value.is_subnormal()));
                    checked += tensor.len();
                }
                let stride = board.stride();
                let moves: Vec<usize> = (stride..stride * 10)
                    .filter(|&point| {
                        board.cell(point) == crate::go::search::board::EMPTY
                            && board.is_legal(point, color)
                            && !board.is_eye(point, color)
                    })
                    .collect();
                if moves.is_empty() {
                    break;
                }
                board.play(moves[random.below(moves.len())], color);
                color = color.opponent();
            }
        }
        assert!(checked > 1_000_000, "{checked}");
    }

    /// The boards of [`LARGE_BOARD`] points a side and more have their own network, read
    /// from its own shipped file, trusted on 19x19; the smaller boards keep the other.
    #[test]
    fn the_large_boards_have_their_own_network() {
        let small = shipped().expect("the shipped value network loads");
        let large = for_size(LARGE_BOARD).expect("the shipped large-board network loads");
        assert!(!std::ptr::eq(small, large) && small != large);
        assert_eq!(small.shape, large.shape);
        for size in [7, 9, 13, LARGE_BOARD - 1] {
            assert!(std::ptr::eq(for_size(size).unwrap(), small), "{size}");
        }
        for size in [LARGE_BOARD, 19, 25] {
            assert!(std::ptr::eq(for_size(size).unwrap(), large), "{size}");
        }
        assert!(std::ptr::eq(proposing(19).unwrap(), large));
        assert!(std::ptr::eq(judging(19, 7.5, false).unwrap(), large));
        assert!(std::ptr::eq(proposing(13).unwrap(), small));
        assert!(proposing(25).is_none());
    }

    /// `network` as the builds before the shared weight file wrote it (`ISHIVAL4`).
    fn earlier_bytes(network: &ValueNetwork) -> Vec<u8> {
        let mut bytes = EARLIER_MAGIC.to_vec();
        let trunk = network.shape.trunk;
        for dimension in [
            trunk.inputs,
            trunk.channels,
            trunk.blocks,
            network.shape.hidden,
            network.sizes.0 as usize,
        ] {
            bytes.extend_from_slice(&(dimension as u32).to_le_bytes());
        }
        for parameter in &network.parameters {
            bytes.extend_from_slice(&parameter.to_le_bytes());
        }
        bytes
    }

    #[test]
    fn the_file_round_trips_and_refuses_damage() {
        let network = small_network();
        let bytes = network.to_bytes();
        assert!(is_weight_file(&bytes));
        assert_eq!(ValueNetwork::from_bytes(&bytes), Ok(network.clone()));
        assert!(ValueNetwork::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        // A pooled trunk records it (and its weights); a file that does not say so is an
        // unpooled one, which the pooled network's length does not match.
        let pooled = small_network_pooled(true);
        assert!(pooled.parameters.len() > network.parameters.len());
        let pooled_file = WeightFile::from_bytes(&pooled.to_bytes(), KIND).unwrap();
        assert!(pooled_file.dimensions.contains(&("pooled".to_string(), 1)));
        assert!(!WeightFile::from_bytes(&bytes, KIND)
            .unwrap()
            .dimensions
            .iter()
            .any(|(name, _)| name == "pooled"));
        assert_eq!(
            ValueNetwork::from_bytes(&pooled.to_bytes()),
            Ok(pooled.clone())
        );
        for edit in [0, 2] {
            let mut edited = pooled_file.clone();
            for dimension in edited.dimensions.iter_mut() {
                if dimension.0 == "pooled" {
                    dimension.1 = edit;
                }
            }
            assert!(ValueNetwork::from_bytes(&edited.to_bytes()).is_err());
        }
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert!(ValueNetwork::from_bytes(&wrong).is_err());
        // Several sizes round trip; a size outside 2..=25 is refused, as are a missing
        // dimension, another kind and a parameter short.
        let mut several = network.clone();
        several.sizes = BoardSizes::of(&[9, 13, 19]);
        several.shape.trunk.board_size = 19;
        let read = ValueNetwork::from_bytes(&several.to_bytes()).unwrap();
        assert_eq!(read, several);
        assert!(read.sizes.contains(13) && !read.sizes.contains(11));
        // Trusted from two below the smallest size learned (never below 7 unless learned) to the
        // largest.
        assert_eq!(read.trusted_sizes(), 7..=19);
        assert_eq!(
            (BoardSizes(0).smallest(), BoardSizes(0).largest()),
            (None, None)
        );
        for (learned, trusted) in [
            (&[5][..], 5..=5),
            (&[6, 9], 6..=9),
            (&[8, 9], 7..=9),
            (&[3], 3..=3),
            (&[13], 11..=13),
        ] {
            let mut other = network.clone();
            other.sizes = BoardSizes::of(learned);
            assert_eq!(other.trusted_sizes(), trusted, "{learned:?}");
            assert_eq!(other.sizes.smallest(), learned.first().copied());
            assert_eq!(other.sizes.largest(), learned.last().copied());
        }
        let file = WeightFile::from_bytes(&bytes, KIND).unwrap();
        let edited = |edit: &dyn Fn(&mut WeightFile)| {
            let mut file = file.clone();
            edit(&mut file);
            ValueNetwork::from_bytes(&file.to_bytes())
        };
        for mask in [0u32, 1 << 1, 1 << 26, (1 << 9) | (1 << 30)] {
            let refused = edited(&|file| file.dimensions[4].1 = mask);
            assert!(refused.is_err(), "{mask:#x}");
        }
        assert!(edited(&|file| {
            file.dimensions.remove(3);
        })
        .is_err());
        assert!(edited(&|file| file.kind = "go-policy".into()).is_err());
        assert!(edited(&|file| {
            file.parameters.pop();
        })
        .is_err());
        // The format before reads the same network; its one-size form reads as that size.
        let earlier = earlier_bytes(&several);
        assert_eq!(ValueNetwork::from_bytes(&earlier), Ok(several));
        let mut one_size = earlier_bytes(&network);
        one_size[7] = b'3';
        one_size[24..28].copy_from_slice(&13u32.to_le_bytes());
        let read = ValueNetwork::from_bytes(&one_size).unwrap();
        assert_eq!(
            (read.sizes.list(), read.shape.trunk.board_size),
            (vec![13], 13)
        );
        let mut first_format = earlier_bytes(&network);
        first_format[7] = b'2';
        let refusal = ValueNetwork::from_bytes(&first_format).unwrap_err();
        assert!(refusal.contains("train it again"), "{refusal}");
        for mut damaged in [bytes, earlier_bytes(&network)] {
            let at = damaged.len() - 4;
            damaged[at..].copy_from_slice(&f32::NAN.to_le_bytes());
            assert!(ValueNetwork::from_bytes(&damaged).is_err());
        }
    }

    #[test]
    fn komi_reads_from_the_movers_side_and_every_size_evaluates() {
        let network = small_network();
        let mut scratch = ValueScratch::default();
        for size in [7, 9, 13, 19] {
            let board =
                PlayoutBoard::from_board(&crate::go::rules::board::Board::new(size), Color::Black);
            let black = network.win(&board, Color::Black, 7.5, &mut scratch);
            assert!((0.0..=1.0).contains(&black), "{size}: {black}");
            let mut planes = Vec::new();
            encode_value(&board, Color::Black, 7.5, &mut planes);
            assert_eq!(planes.len(), size * size * VALUE_PLANES);
            assert_eq!(planes[VALUE_PLANES - 1], -0.5);
            encode_value(&board, Color::White, 7.5, &mut planes);
            assert_eq!(planes[VALUE_PLANES - 1], 0.5);
        }
    }

    #[test]
    fn the_raw_answer_under_a_symmetry_is_the_mirrored_boards() {
        use crate::go::rules::board::Board;
        let network = shipped().expect("the shipped network reads");
        let mut scratch = ValueScratch::default();
        // A position and its mirror image (symmetry 1 flips the columns).
        let diagram = ". . . . . . .
                       . . X O . . .
                       . X O . O . .
                       . . X O . . .
                       . . . X . . .
                       . . . . . . .
                       . . . . . . .";
        let mirrored: String = diagram
            .lines()
            .map(|line| line.split_whitespace().rev().collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n");
        let board = PlayoutBoard::from_board(&Board::from_diagram(diagram).unwrap(), Color::Black);
        let image =
            PlayoutBoard::from_board(&Board::from_diagram(&mirrored).unwrap(), Color::Black);
        let plain = network.raw(&board, Color::Black, 7.5, 0, &mut scratch);
        // Symmetry 0 is the evaluation the search makes.
        let evaluation = network.evaluate(&board, Color::Black, 7.5, &mut scratch, None);
        assert_eq!((plain.win, plain.lead), (evaluation.win, evaluation.lead));
        // Under symmetry 1 the network sees the mirror image: the same answer, mirrored back;
        // the search's judgement under a symmetry (`value_symmetry`) is the same.
        let seen = network.raw(&board, Color::Black, 7.5, 1, &mut scratch);
        for symmetry in 0..8 {
            let under = network.evaluate_under(&board, Color::Black, 7.5, symmetry, &mut scratch);
            let whole = network.raw(&board, Color::Black, 7.5, symmetry, &mut scratch);
            assert_eq!((under.win, under.lead), (whole.win, whole.lead));
        }
        assert_eq!(
            network
                .evaluate_under(&board, Color::Black, 7.5, 0, &mut scratch)
                .win,
            evaluation.win
        );
        assert!(position_symmetry(&board) < 8);
        assert_eq!(position_symmetry(&board), position_symmetry(&board.clone()));
        let image_answer = network.raw(&image, Color::Black, 7.5, 0, &mut scratch);
        assert_eq!(seen.win, image_answer.win);
        let size = 7;
        for point in 0..size * size {
            let across = point / size * size + size - 1 - point % size;
            // (The softmax sums the points in another order: equal to rounding.)
            match (seen.policy[point], image_answer.policy[across]) {
                (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-5 * b, "{a} against {b}"),
                (a, b) => assert_eq!(a, b),
            }
            assert_eq!(seen.ownership[point], image_answer.ownership[across]);
        }
        // The policy is a distribution over the legal points and pass; the eight stones get
        // none, D5 (among White's stones, but taking C5) some.
        let total = plain.pass + plain.policy.iter().flatten().sum::<f32>();
        assert!((total - 1.0).abs() < 1e-4, "{total}");
        let occupied = (0..size * size)
            .filter(|&point| plain.policy[point].is_none())
            .count();
        assert_eq!(occupied, 8);
        assert!(plain.policy[4 * size + 3].is_some(), "D5 takes C5");
        assert!(plain.ownership.iter().all(|owner| owner.abs() <= 1.0));
    }
}
