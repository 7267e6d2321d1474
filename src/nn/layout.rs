//! A network's layout: its dimensions ([`Shape`]: input planes, channels, residual blocks),
//! where each convolution's weights lie in the one parameter vector ([`Convolution`]), and
//! the neighbour table that tells a 3x3 convolution which point lies at each offset of
//! each point ([`neighbour_table`] builds a square board's; a game whose board is another
//! shape builds its own, `u16::MAX` marking an offset off the board).
//!
//! A pooled trunk ([`Shape::pooled`]) keeps each block's pooling weights after the
//! convolutions ([`Shape::pooling`]; [`crate::nn::pool`]).
//!
//! Knows no game.

/// The network's dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Feature planes of the input.
    pub inputs: usize,
    /// Channels of every hidden layer.
    pub channels: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Whether every residual block biases its second convolution by the pooled board
    /// ([`crate::nn::pool`]).
    pub pooled: bool,
    /// The board size the network was trained for (a record the game keeps; the layout
    /// and the passes depend only on the points of the table they are given).
    pub board_size: usize,
}

/// Where one convolution's weights and biases lie in the parameter vector.
#[derive(Clone, Copy, Debug)]
pub struct Convolution {
    /// Input channels.
    pub inputs: usize,
    /// Output channels.
    pub outputs: usize,
    /// Offset of the weights `[9 * inputs][outputs]`.
    pub weights: usize,
    /// Offset of the biases `[outputs]`.
    pub biases: usize,
}

impl Shape {
    /// The convolutions in order: the stem, then two per block.
    pub fn convolutions(&self) -> Vec<Convolution> {
        let mut layers = Vec::with_capacity(1 + 2 * self.blocks);
        let mut offset = 0;
        let mut push = |inputs: usize, outputs: usize| {
            let weights = offset;
            let biases = weights + 9 * inputs * outputs;
            offset = biases + outputs;
            layers.push(Convolution {
                inputs,
                outputs,
                weights,
                biases,
            });
        };
        push(self.inputs, self.channels);
        for _ in 0..2 * self.blocks {
            push(self.channels, self.channels);
        }
        layers
    }

    /// Offset of the pooling weights of `block` (`[pool::FEATURES * channels][channels]`),
    /// after every convolution, or `None` in a trunk that does not pool.
    pub fn pooling(&self, block: usize) -> Option<usize> {
        (self.pooled && block < self.blocks)
            .then(|| self.convolutions_end() + block * self.pooling_length())
    }

    /// The parameters of one block's pooling weights.
    fn pooling_length(&self) -> usize {
        crate::nn::pool::FEATURES * self.channels * self.channels
    }

    /// Where the convolutions end.
    fn convolutions_end(&self) -> usize {
        let last = *self.convolutions().last().expect("the stem exists");
        last.biases + last.outputs
    }

    /// Offset of the head's weights `[channels]`, followed by its bias: the end of the trunk.
    pub fn head(&self) -> usize {
        let pooling = if self.pooled { self.blocks } else { 0 };
        self.convolutions_end() + pooling * self.pooling_length()
    }

    /// The number of parameters.
    pub fn parameter_count(&self) -> usize {
        self.head() + self.channels + 1
    }
}

/// For a board of `size`, the point (row by row, `size * size`) at each of the 9 offsets
/// around each point, or `u16::MAX` off the board.
pub fn neighbour_table(size: usize) -> Vec<u16> {
    let mut table = Vec::with_capacity(size * size * 9);
    for row in 0..size as isize {
        for column in 0..size as isize {
            for dy in -1..=1isize {
                for dx in -1..=1isize {
                    let (r, c) = (row + dy, column + dx);
                    let inside = r >= 0 && c >= 0 && r < size as isize && c < size as isize;
                    table.push(if inside {
                        (r * size as isize + c) as u16
                    } else {
                        u16::MAX
                    });
                }
            }
        }
    }
    table
}
