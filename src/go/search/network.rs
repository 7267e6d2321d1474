//! The Go policy network: a small residual convolutional network that rates every point of
//! the board as the next move (a distillation of KataGo's policy, trained by `ishi-train
//! --network`, see `models/README.md`). The search asks it for the priors of nodes that
//! have earned enough visits to pay for an evaluation (the root at once).
//!
//! Shape: a 3x3 convolution from [`INPUT_PLANES`] feature planes to `channels`, then
//! `blocks` residual blocks (two 3x3 convolutions, rectified, the block's input added
//! before the second rectifier), then a 1x1 convolution to one logit per point. No pass
//! output: the pass keeps its hand-made prior. The network is fully convolutional (zero
//! padding), so it runs on any board size; it is used on the sizes it was trained for.
//!
//! The layers, the passes and the kernels are [`crate::nn`]'s (training's forward pass in
//! [`crate::nn::forward`], the engine's in [`crate::nn::inference`], about 1.6x faster and
//! equal to rounding); this module holds what is Go's: the input planes (points row by row
//! from the bottom-left, as the playout board stores them), the policy head's use, the
//! file format and the shipped network.
//!
//! Knows the playout board and the network library; nothing of the tree.

use crate::color::Color;
use crate::go::search::board::{stone_code, PlayoutBoard, BORDER, CAPACITY, EMPTY, NO_POINT};
use crate::go::search::shipped::ShippedModel;
use crate::nn::forward::resize;
use crate::nn::inference::{self, Inference};
use crate::nn::layout::{neighbour_table, Shape};

/// Feature planes per point: own stones, opponent stones, own chains with 1, 2 and 3+
/// liberties, the same for the opponent, the last move, the move before it, the ko point,
/// the candidates (moves the search lists) and a plane of ones (which, zero-padded, marks
/// the edge).
pub const INPUT_PLANES: usize = 13;

const MAGIC: &[u8; 8] = b"ISHINET1";

/// Writes the feature planes of `board` with `color` to move into `planes`
/// (`[point][INPUT_PLANES]`, points row by row), marking `candidates` (pass ignored).
pub fn encode(board: &PlayoutBoard, color: Color, candidates: &[u16], planes: &mut [f32]) {
    let size = board.size();
    let stride = board.stride();
    planes[..size * size * INPUT_PLANES].fill(0.0);
    let own = stone_code(color);
    let mut liberties = [0usize; 3];
    let mut chain_liberties = [0u8; CAPACITY];
    let index = |point: usize| (point / stride - 1) * size + point % stride - 1;
    for row in 0..size {
        for column in 0..size {
            let point = (row + 1) * stride + column + 1;
            let plane = &mut planes[(row * size + column) * INPUT_PLANES..];
            plane[12] = 1.0;
            let cell = board.cell(point);
            if cell == EMPTY || cell == BORDER {
                continue;
            }
            let head = board.chain(point);
            if chain_liberties[head] == 0 {
                chain_liberties[head] = board.liberties_into(point, NO_POINT, &mut liberties) as u8;
            }
            let count = chain_liberties[head].clamp(1, 3) as usize;
            let side = if cell == own { 0 } else { 1 };
            plane[side] = 1.0;
            plane[2 + 3 * side + count - 1] = 1.0;
        }
    }
    for (point, plane_index) in [
        (board.last_move(), 8),
        (board.second_last_move(), 9),
        (board.ko_point(), 10),
    ] {
        if point != NO_POINT && board.cell(point) != BORDER {
            planes[index(point) * INPUT_PLANES + plane_index] = 1.0;
        }
    }
    for &candidate in candidates {
        if candidate as usize != NO_POINT {
            planes[index(candidate as usize) * INPUT_PLANES + 11] = 1.0;
        }
    }
}

/// A trained network.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyNetwork {
    /// Its dimensions.
    pub shape: Shape,
    /// Every weight and bias, laid out as [`Shape::convolutions`] and [`Shape::head`] say.
    pub parameters: Vec<f32>,
}

/// Buffers of one evaluation, reused between evaluations.
#[derive(Default)]
pub struct NetworkScratch {
    planes: Vec<f32>,
    table: Vec<u16>,
    table_size: usize,
    inference: Inference,
    logits: Vec<f32>,
}

impl PolicyNetwork {
    /// The file's bytes: magic, the four dimensions (u32), the parameters (f32), all
    /// little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        for dimension in [
            self.shape.inputs,
            self.shape.channels,
            self.shape.blocks,
            self.shape.board_size,
        ] {
            bytes.extend_from_slice(&(dimension as u32).to_le_bytes());
        }
        for parameter in &self.parameters {
            bytes.extend_from_slice(&parameter.to_le_bytes());
        }
        bytes
    }

    /// Reads a network written by [`PolicyNetwork::to_bytes`].
    ///
    /// # Errors
    /// A wrong magic, input planes other than [`INPUT_PLANES`], implausible dimensions, a
    /// length that does not match them, or a parameter that is not finite.
    pub fn from_bytes(bytes: &[u8]) -> Result<PolicyNetwork, String> {
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return Err("not an ishi policy network".into());
        }
        let dimension = |index: usize| {
            let start = 8 + 4 * index;
            u32::from_le_bytes(bytes[start..start + 4].try_into().unwrap_or([0; 4])) as usize
        };
        let shape = Shape {
            inputs: dimension(0),
            channels: dimension(1),
            blocks: dimension(2),
            board_size: dimension(3),
        };
        if shape.inputs != INPUT_PLANES {
            return Err(format!(
                "{} input planes, this build computes {INPUT_PLANES}",
                shape.inputs
            ));
        }
        if shape.channels == 0 || shape.channels > 512 || shape.blocks > 64 {
            return Err(format!("implausible dimensions {shape:?}"));
        }
        if !(2..=25).contains(&shape.board_size) {
            return Err(format!("board size {}", shape.board_size));
        }
        let count = shape.parameter_count();
        if bytes.len() != 24 + 4 * count {
            return Err(format!(
                "{} bytes, the dimensions need {}",
                bytes.len(),
                24 + 4 * count
            ));
        }
        let parameters: Vec<f32> = bytes[24..]
            .chunks_exact(4)
            .map(|chunk| f32::from_le_bytes(chunk.try_into().unwrap_or([0; 4])))
            .collect();
        if parameters.iter().any(|parameter| !parameter.is_finite()) {
            return Err("a parameter is not finite".into());
        }
        Ok(PolicyNetwork { shape, parameters })
    }

    /// The probability of each of `points` (pass, [`NO_POINT`], gets 0) as `color`'s next
    /// move on `board`: the softmax of the logits over the points listed.
    pub fn policy(
        &self,
        board: &PlayoutBoard,
        color: Color,
        points: &[u16],
        scratch: &mut NetworkScratch,
        probabilities: &mut Vec<f32>,
    ) {
        let size = board.size();
        let count = size * size;
        if scratch.table_size != size {
            scratch.table = neighbour_table(size);
            scratch.table_size = size;
        }
        resize(&mut scratch.planes, count * INPUT_PLANES);
        encode(board, color, points, &mut scratch.planes);
        inference::logits(
            &self.shape,
            &self.parameters,
            &scratch.planes,
            count,
            &scratch.table,
            &mut scratch.inference,
            &mut scratch.logits,
        );
        candidate_probabilities(board, &scratch.logits, points, probabilities);
    }
}

/// The probability of each of `points` from one logit a board point (`logits`, points row
/// by row from the bottom-left): the softmax over the board points among them; pass
/// ([`NO_POINT`]) gets 0.
pub fn candidate_probabilities(
    board: &PlayoutBoard,
    logits: &[f32],
    points: &[u16],
    probabilities: &mut Vec<f32>,
) {
    let size = board.size();
    let stride = board.stride();
    probabilities.clear();
    probabilities.extend(points.iter().map(|&point| {
        let point = point as usize;
        if point == NO_POINT {
            f32::NEG_INFINITY
        } else {
            logits[(point / stride - 1) * size + point % stride - 1]
        }
    }));
    inference::softmax(probabilities);
}

/// The network in use: the one shipped in the binary unless [`use_file`] chose another.
static NETWORK: ShippedModel<PolicyNetwork> = ShippedModel::new(
    "policy network",
    include_bytes!("../../../models/go-policy.bin"),
    PolicyNetwork::from_bytes,
);

/// Uses the network in the file at `path` in place of the shipped one (`--policy-network`);
/// call it before the first search.
///
/// # Errors
/// The file does not read as a network, or a network is already in use.
pub fn use_file(path: &std::path::Path) -> Result<(), String> {
    NETWORK.use_file(path)
}

/// The network in use, read on first use; `None` (with a warning in the log) if the shipped
/// one does not read, so the engine keeps the move model's priors.
pub fn shipped() -> Option<&'static PolicyNetwork> {
    NETWORK.get()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::board::Board;
    use crate::go::search::board::vertex_index as at;
    use crate::nn::forward::convolve;

    /// A network with deterministic pseudo-random parameters.
    fn example_network(channels: usize, blocks: usize) -> PolicyNetwork {
        let shape = Shape {
            inputs: INPUT_PLANES,
            channels,
            blocks,
            board_size: 9,
        };
        let mut state = 12345u64;
        let parameters = (0..shape.parameter_count())
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.4
            })
            .collect();
        PolicyNetwork { shape, parameters }
    }

    #[test]
    fn round_trips_and_refuses_broken_files() {
        let network = example_network(4, 2);
        let bytes = network.to_bytes();
        assert_eq!(PolicyNetwork::from_bytes(&bytes).unwrap(), network);
        assert!(PolicyNetwork::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        assert!(PolicyNetwork::from_bytes(b"ISHINET2").is_err());
        let mut wrong_planes = bytes.clone();
        wrong_planes[8] = 7;
        assert!(PolicyNetwork::from_bytes(&wrong_planes).is_err());
        let mut not_finite = bytes;
        let last = not_finite.len() - 4;
        not_finite[last..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(PolicyNetwork::from_bytes(&not_finite).is_err());
    }

    /// The convolution by matrix product agrees with a direct sum over the neighbours.
    #[test]
    fn convolution_matches_the_direct_sum() {
        let network = example_network(3, 1);
        let layer = network.shape.convolutions()[0];
        let size = 4;
        let points = size * size;
        let input: Vec<f32> = (0..2 * points * INPUT_PLANES)
            .map(|index| ((index * 7919) % 13) as f32 / 13.0 - 0.4)
            .collect();
        let table = neighbour_table(size);
        let mut columns = vec![0.0; 2 * points * 9 * INPUT_PLANES];
        let mut output = vec![0.0; 2 * points * 3];
        convolve(
            &network.parameters,
            layer,
            &input,
            points,
            &table,
            &mut columns,
            &mut output,
            None,
        );
        for position in 0..2 {
            for row in 0..size as isize {
                for column in 0..size as isize {
                    for out in 0..3 {
                        let mut sum = network.parameters[layer.biases + out];
                        for dy in -1..=1isize {
                            for dx in -1..=1isize {
                                let (r, c) = (row + dy, column + dx);
                                if r < 0 || c < 0 || r >= size as isize || c >= size as isize {
                                    continue;
                                }
                                let offset = ((dy + 1) * 3 + dx + 1) as usize;
                                let source = position * points + (r * size as isize + c) as usize;
                                for channel in 0..INPUT_PLANES {
                                    sum += input[source * INPUT_PLANES + channel]
                                        * network.parameters[layer.weights
                                            + (offset * INPUT_PLANES + channel) * 3
                                            + out];
                                }
                            }
                        }
                        let point = position * points + (row * size as isize + column) as usize;
                        let got = output[point * 3 + out];
                        assert!((got - sum.max(0.0)).abs() < 1e-4, "{got} against {sum}");
                    }
                }
            }
        }
    }

    #[test]
    fn encodes_stones_liberties_and_candidates() {
        let rules_board = Board::from_diagram(
            ". . . . .
             . . . . .
             . . X O .
             . . . . .
             . . . . .",
        )
        .unwrap();
        let mut board = PlayoutBoard::from_board(&rules_board, Color::Black);
        board.play(at(5, "C2"), Color::Black);
        let mut planes = vec![0.0; 25 * INPUT_PLANES];
        let candidates = [at(5, "A1") as u16, NO_POINT as u16];
        encode(&board, Color::White, &candidates, &mut planes);
        let plane = |vertex: &str, plane: usize| {
            let point = at(5, vertex);
            let stride = board.stride();
            planes[((point / stride - 1) * 5 + point % stride - 1) * INPUT_PLANES + plane]
        };
        // White to move: D3 is own with three liberties, C3 and C2 opponent stones with
        // five liberties together (3+), C2 the last move.
        assert_eq!(plane("D3", 0), 1.0);
        assert_eq!(plane("D3", 4), 1.0);
        assert_eq!(plane("C3", 1), 1.0);
        assert_eq!(plane("C3", 7), 1.0);
        assert_eq!(plane("C2", 8), 1.0);
        assert_eq!(plane("A1", 11), 1.0);
        assert_eq!(plane("B1", 11), 0.0);
        assert_eq!(plane("E5", 12), 1.0);
        assert_eq!(plane("E5", 0) + plane("E5", 1), 0.0);
    }

    #[test]
    fn the_policy_sums_to_one_over_the_points() {
        let network = example_network(8, 2);
        let board = PlayoutBoard::new(9);
        let points = [
            at(9, "E5") as u16,
            at(9, "C3") as u16,
            at(9, "A1") as u16,
            NO_POINT as u16,
        ];
        let mut scratch = NetworkScratch::default();
        // Twice: the second answer comes from reused buffers and must not differ.
        let mut answers = Vec::new();
        for _ in 0..2 {
            let mut probabilities = Vec::new();
            network.policy(
                &board,
                Color::Black,
                &points,
                &mut scratch,
                &mut probabilities,
            );
            answers.push(probabilities);
        }
        let probabilities = &answers[0];
        assert_eq!(probabilities.len(), 4);
        assert_eq!(probabilities[3], 0.0);
        assert!((probabilities.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert_eq!(answers[0], answers[1]);
    }

    #[test]
    fn the_shipped_network_loads_and_opens_in_the_centre() {
        let network = shipped().expect("the shipped network loads");
        assert_eq!(network.shape.board_size, 9);
        let board = PlayoutBoard::new(9);
        let points: Vec<u16> = (0..board.length())
            .filter(|&point| board.cell(point) == EMPTY)
            .map(|point| point as u16)
            .chain([NO_POINT as u16])
            .collect();
        let mut probabilities = Vec::new();
        network.policy(
            &board,
            Color::Black,
            &points,
            &mut NetworkScratch::default(),
            &mut probabilities,
        );
        let best = points[probabilities
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .unwrap()
            .0] as usize;
        let centre = at(9, "E5");
        let stride = board.stride();
        let (row, column) = (best / stride, best % stride);
        let (centre_row, centre_column) = (centre / stride, centre % stride);
        assert!(
            row.abs_diff(centre_row) <= 1 && column.abs_diff(centre_column) <= 1,
            "opens at {best}"
        );
    }
}
