//! The narrow interface between the search and the game it searches: a two-player position
//! that can be copied, can play a move, can list the moves worth a tree node (with their
//! priors), can play itself out to a scored end and can say who owns each point. The tree,
//! selection, backup and threads ([`crate::search::worker`]) know only this trait, so they
//! are monomorphised for each game at no cost. Go's implementation is
//! [`crate::go::search::search_game`]; later games (Margo, Abalone) bring their own.
//!
//! Conventions shared with the tree: a move is a `u16` index below [`SearchGame::MOVE_SPACE`]
//! and index 0 ([`PASS`]) is the pass (or "no move"); the two players are the two
//! [`Color`]s.

use crate::color::Color;
use crate::search::params::SearchParams;
use crate::search::random::Random;
use crate::search::tree::RESULT_SCALE;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Black's area minus white's area and komi (for capture Go: the same count, while
    /// `winner` says who reached the target).
    pub black_margin: f64,
}

/// Encodes a played move for the AMAF sequence: point index times two plus colour index.
#[inline(always)]
pub fn encode(point: usize, color: Color) -> u16 {
    ((point << 1) | color.index()) as u16
}

impl Outcome {
    /// The outcome of a game black wins by `black_margin` (komi included).
    pub fn from_margin(black_margin: f64) -> Outcome {
        let winner = if black_margin > 0.0 {
            Some(Color::Black)
        } else if black_margin < 0.0 {
            Some(Color::White)
        } else {
            None
        };
        Outcome {
            winner,
            black_margin,
        }
    }
}

/// A prior: virtual visits and virtual results (half wins), and the move's probability
/// among the candidates where the game's knowledge gives one (PUCT selection reads it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prior {
    /// Virtual visits.
    pub visits: u32,
    /// Virtual results in units of 1/[`RESULT_SCALE`] win.
    pub wins: u32,
    /// The move's probability in units of 1/[`crate::search::tree::POLICY_SCALE`]; 0 when
    /// the game gives none (then the search takes every candidate as equally likely).
    pub policy: u16,
}

impl Prior {
    /// `visits` virtual visits at value 0.5, no probability.
    #[inline]
    pub fn even(visits: u32) -> Prior {
        Prior {
            visits,
            wins: visits * RESULT_SCALE / 2,
            policy: 0,
        }
    }

    /// Adds `visits` virtual visits, all won when `value_is_win`.
    #[inline]
    pub fn add(&mut self, visits: u32, value_is_win: bool) {
        self.visits += visits;
        if value_is_win {
            self.wins += visits * RESULT_SCALE;
        }
    }

    /// The prior's value in [0, 1] (0.5 without visits).
    pub fn value(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins as f64 / (RESULT_SCALE as f64 * self.visits as f64)
        }
    }
}

/// The move index of a pass.
pub const PASS: usize = 0;

/// What the search needs of a game position.
pub trait SearchGame: Send + Sync + Sized {
    /// One more than the largest move index (the length of per-move arrays: AMAF marks,
    /// ownership sums).
    const MOVE_SPACE: usize;

    /// Everything a playout needs besides the position (policy, komi, end conditions).
    type Settings: Send + Sync;

    /// Per-worker scratch space for [`SearchGame::candidates`] (reused between expansions).
    type Scratch: Send + Default;

    /// An empty position of the same kind, to be overwritten with [`SearchGame::copy_from`].
    fn blank() -> Box<Self>;

    /// Makes `self` a copy of `other` without allocating.
    fn copy_from(&mut self, other: &Self);

    /// Plays the move `index` of `player` (a legal move from [`SearchGame::candidates`], or
    /// [`PASS`]).
    fn play(&mut self, index: usize, player: Color);

    /// When the move `player` just made ends the game at once (capture Go's target), the
    /// outcome; `None` otherwise.
    fn decided(&self, player: Color, settings: &Self::Settings) -> Option<Outcome>;

    /// Appends the moves of `player` that deserve a tree node, pass last when the game has
    /// one, to `moves`, and their priors (same order) to `priors`; both are cleared first.
    /// With `allowed` (the root, under the game's full rules), a move other than the pass
    /// is listed only when its entry is true.
    fn candidates(
        &self,
        player: Color,
        allowed: Option<&[bool]>,
        params: &SearchParams,
        scratch: &mut Self::Scratch,
        moves: &mut Vec<u16>,
        priors: &mut Vec<Prior>,
    );

    /// Replaces the priors of `moves` (the children of a node that has earned enough visits,
    /// [`SearchParams::refine_visits`]) with the game's costlier knowledge, writing them to
    /// `priors` (same order); returns false, leaving `priors` unspecified, when the game has
    /// none for this position. The default has none.
    fn refine_priors(
        &self,
        _player: Color,
        _params: &SearchParams,
        _settings: &Self::Settings,
        _scratch: &mut Self::Scratch,
        _moves: &[u16],
        _priors: &mut Vec<Prior>,
    ) -> bool {
        false
    }

    /// The probability that `player`, to move, wins from this position by the game's
    /// learned judgement (a value network), or `None` when the game has none here. The
    /// default has none.
    fn evaluate(
        &self,
        _player: Color,
        _settings: &Self::Settings,
        _scratch: &mut Self::Scratch,
    ) -> Option<f64> {
        None
    }

    /// Plays the position out with `player` first, appending each move (encoded with
    /// [`encode`]) to `sequence`, and scores the end.
    fn play_out(
        &mut self,
        player: Color,
        settings: &Self::Settings,
        random: &mut Random,
        sequence: &mut Vec<u16>,
    ) -> Outcome;

    /// Adds the final owner of every point to `sums` (+1 black, -1 white; indices below
    /// [`SearchGame::MOVE_SPACE`]).
    fn add_ownership(&self, sums: &mut [i64]);
}
