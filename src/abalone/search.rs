//! Abalone for the shared MCTS: [`Board`] as a [`SearchGame`] (every legal move a candidate,
//! priors from the game's tactics and the static evaluation, playouts of a few plies cut off
//! and scored by the evaluation), the parameters the MCTS uses for Abalone, one entry point
//! for both Abalone players ([`AbaloneEngine`]: the MCTS or the alpha-beta player, chosen by
//! `abalone_player`) and the speed lines for `ishi bench`. Knows the rules, the evaluation,
//! the alpha-beta player and the search's public API; nothing of GTP or clocks.
//!
//! - Move indices are [`Move::index`]; index 0 (the search's `PASS`) is never a move (Abalone has no
//!   pass). The AMAF sequence holds `encode(index, colour)`.
//! - A playout ends exactly when the game ends (six ejections, the ply cap, no legal move);
//!   otherwise, after `abalone_playout_plies` plies (then up to
//!   `abalone_playout_quiescence` plies of ejections only), the evaluation decides: the winner is
//!   drawn with probability sigmoid(evaluation / `abalone_evaluation_scale`) (or is the
//!   evaluation's sign when the scale is 0). Black's margin is the evaluation in marbles
//!   (the evaluation over the material weight; the exact ejection difference at an end).

use super::alphabeta::{AlphaBeta, Limits};
use super::board::{Board, Push, DEFAULT_MAX_PLIES, EJECTIONS_TO_WIN};
use super::evaluation::{evaluate, Weights};
use super::game::Game;
use super::moves::{Move, MOVE_SPACE};
use super::Start;
use crate::color::Color;
use crate::search::domain::{encode, Outcome, Prior, SearchGame};
use crate::search::driver::{Choice, GameSearch, Root, RunLimits};
use crate::search::params::SearchParams;
use crate::search::random::{threshold, Random};
use crate::search::tree::RESULT_SCALE;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Prior visits (all won) of a move that makes the sixth ejection.
const WINNING_PRIOR: u32 = 1000;

/// What a playout and the priors need besides the position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The evaluation weights.
    pub weights: Weights,
    /// Plies of the playout policy before the evaluation scores the position.
    pub playout_plies: u32,
    /// The chance (for [`Random::chance`]) that a playout move ejects when it can.
    pub ejection_threshold: u64,
    /// Evaluation units per logistic unit; 0 or less: the sign decides.
    pub evaluation_scale: f64,
    /// Plies of ejections only after the playout plies (the quiescence of a playout).
    pub quiescence_plies: u32,
}

/// The playout settings the parameters give.
pub fn settings(params: &SearchParams) -> Settings {
    Settings {
        weights: Weights::default(),
        playout_plies: params.abalone_playout_plies,
        ejection_threshold: threshold(params.abalone_playout_ejection),
        evaluation_scale: params.abalone_evaluation_scale,
        quiescence_plies: params.abalone_playout_quiescence,
    }
}

/// The parameters the shared MCTS should run with for Abalone: `base` with the selection
/// constants replaced by their `abalone_` counterparts (RAVE equivalence, exploration,
/// expansion threshold).
pub fn abalone_search_params(base: &SearchParams) -> SearchParams {
    SearchParams {
        equiv_rave: base.abalone_equiv_rave,
        explore: base.abalone_explore,
        expand_visits: base.abalone_expand_visits,
        ..base.clone()
    }
}

/// The logistic function.
#[inline]
fn sigmoid(value: f64) -> f64 {
    1.0 / (1.0 + (-value).exp())
}

/// The win probability of an evaluation for the side it is from (0.5 with a scale of 0).
#[inline]
fn win_probability(evaluation: f64, scale: f64) -> f64 {
    if scale > 0.0 {
        sigmoid(evaluation / scale)
    } else if evaluation > 0.0 {
        1.0
    } else if evaluation < 0.0 {
        0.0
    } else {
        0.5
    }
}

/// The outcome of a finished game: the rules' winner, the ejection difference as margin.
fn final_outcome(board: &Board, winner: Option<Color>) -> Outcome {
    Outcome {
        winner,
        black_margin: f64::from(board.score()),
    }
}

/// The outcome of an unfinished position, from the evaluation (see the module).
fn evaluated_outcome(board: &Board, settings: &Settings, random: &mut Random) -> Outcome {
    let evaluation = f64::from(evaluate(board, &settings.weights));
    let black_evaluation = if board.to_move() == Color::Black {
        evaluation
    } else {
        -evaluation
    };
    let black_margin = black_evaluation / f64::from(settings.weights.material.max(1));
    let winner = if settings.evaluation_scale > 0.0 {
        let probability = sigmoid(black_evaluation / settings.evaluation_scale);
        if random.chance(threshold(probability)) {
            Some(Color::Black)
        } else {
            Some(Color::White)
        }
    } else if black_evaluation > 0.0 {
        Some(Color::Black)
    } else if black_evaluation < 0.0 {
        Some(Color::White)
    } else {
        None
    };
    Outcome {
        winner,
        black_margin,
    }
}

/// Per-worker scratch space: the move list of an expansion.
#[derive(Default)]
pub struct Scratch {
    moves: Vec<Move>,
}

impl SearchGame for Board {
    const MOVE_SPACE: usize = MOVE_SPACE;

    type Settings = Settings;

    type Scratch = Scratch;

    fn blank() -> Box<Board> {
        Box::new(Board::empty(DEFAULT_MAX_PLIES))
    }

    #[inline(always)]
    fn copy_from(&mut self, other: &Board) {
        *self = *other;
    }

    #[inline(always)]
    fn play(&mut self, index: usize, _player: Color) {
        if let Some(mv) = Move::from_index(index as u16) {
            self.play_unchecked(mv);
        }
    }

    #[inline]
    fn decided(&self, _player: Color, _settings: &Settings) -> Option<Outcome> {
        self.winner().map(|winner| final_outcome(self, winner))
    }

    fn candidates(
        &self,
        player: Color,
        allowed: Option<&[bool]>,
        params: &SearchParams,
        scratch: &mut Scratch,
        moves: &mut Vec<u16>,
        priors: &mut Vec<Prior>,
    ) {
        moves.clear();
        priors.clear();
        self.legal_moves(&mut scratch.moves);
        let weights = Weights::default();
        let scale = params.abalone_evaluation_scale;
        let danger_before = self.marbles_in_danger(player);
        for &mv in &scratch.moves {
            let index = mv.index();
            if allowed.is_some_and(|allowed| !allowed.get(index as usize).copied().unwrap_or(false))
            {
                continue;
            }
            moves.push(index);
            let even = params.abalone_prior_even;
            let mut prior = Prior::even(even);
            if params.priors {
                let mut child = *self;
                child.play_unchecked(mv);
                if child.ejected(player) >= EJECTIONS_TO_WIN {
                    prior.add(WINNING_PRIOR, true);
                    priors.push(prior);
                    continue;
                }
                match self.push_of(mv) {
                    Push::Ejects => prior.add(params.abalone_prior_ejection, true),
                    Push::Pushes => prior.add(params.abalone_prior_push, true),
                    Push::None => {}
                }
                let danger_after = child.marbles_in_danger(player);
                if danger_after > danger_before {
                    prior.add(
                        params.abalone_prior_danger * (danger_after - danger_before),
                        false,
                    );
                }
                let visits = params.abalone_prior_evaluation;
                if visits > 0 {
                    // The child's evaluation is from the opponent's side.
                    let value = -f64::from(evaluate(&child, &weights));
                    let probability = win_probability(value, scale);
                    prior.visits += visits;
                    prior.wins += (f64::from(visits * RESULT_SCALE) * probability).round() as u32;
                }
            }
            priors.push(prior);
        }
    }

    fn play_out(
        &mut self,
        player: Color,
        settings: &Settings,
        random: &mut Random,
        sequence: &mut Vec<u16>,
    ) -> Outcome {
        let mut color = player;
        let mut moves = Vec::with_capacity(128);
        for _ in 0..settings.playout_plies {
            if let Some(winner) = self.winner() {
                return final_outcome(self, winner);
            }
            self.ejecting_moves(&mut moves);
            if moves.is_empty() || !random.chance(settings.ejection_threshold) {
                self.legal_moves(&mut moves);
            }
            if moves.is_empty() {
                break;
            }
            let mv = moves[random.below(moves.len())];
            self.play_unchecked(mv);
            sequence.push(encode(mv.index() as usize, color));
            color = color.opponent();
        }
        for _ in 0..settings.quiescence_plies {
            if self.winner().is_some() {
                break;
            }
            self.ejecting_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[random.below(moves.len())];
            self.play_unchecked(mv);
            sequence.push(encode(mv.index() as usize, color));
            color = color.opponent();
        }
        match self.winner() {
            Some(winner) => final_outcome(self, winner),
            None => evaluated_outcome(self, settings, random),
        }
    }

    fn add_ownership(&self, _sums: &mut [i64]) {}
}

/// Which program chooses Abalone moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbalonePlayer {
    /// The shared MCTS over [`Board`].
    Mcts,
    /// The alpha-beta player ([`AlphaBeta`]).
    AlphaBeta,
}

impl AbalonePlayer {
    /// The player the parameter `abalone_player` names (0 the MCTS, 1 alpha-beta).
    ///
    /// # Errors
    /// Any other value.
    pub fn from_params(params: &SearchParams) -> Result<AbalonePlayer, String> {
        match params.abalone_player {
            0 => Ok(AbalonePlayer::Mcts),
            1 => Ok(AbalonePlayer::AlphaBeta),
            other => Err(format!(
                "abalone_player must be 0 (mcts) or 1 (alphabeta), not {other}"
            )),
        }
    }

    /// The player's name.
    pub fn name(self) -> &'static str {
        match self {
            AbalonePlayer::Mcts => "mcts",
            AbalonePlayer::AlphaBeta => "alphabeta",
        }
    }
}

/// What bounds one move's search (whichever comes first; set at least one).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveLimits {
    /// Time for the move.
    pub time: Option<Duration>,
    /// MCTS playouts.
    pub playouts: Option<u64>,
    /// Alpha-beta nodes.
    pub nodes: Option<u64>,
    /// Alpha-beta depth.
    pub depth: Option<u32>,
}

/// The move an [`AbaloneEngine`] chose and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineChoice {
    /// The move; `None` when the side to move has none or the game is over.
    pub best: Option<Move>,
    /// The player that chose it.
    pub player: AbalonePlayer,
    /// Playouts (MCTS) or nodes (alpha-beta) spent.
    pub work: u64,
    /// The MCTS's win rate, or the alpha-beta score, for the side to move.
    pub value: f64,
    /// Time spent.
    pub elapsed: Duration,
}

/// A key of a game's first position and ply cap, for the MCTS's tree reuse.
pub fn start_key(game: &Game) -> u64 {
    let mut first = *game.board();
    let mut copy = game.clone();
    while copy.undo() {
        first = *copy.board();
    }
    first.hash() ^ (u64::from(first.ply()) << 48) ^ (u64::from(first.max_plies()) << 32)
}

/// Both Abalone players behind one call: the MCTS (with its tree kept for reuse) and the
/// alpha-beta player (with its transposition table).
pub struct AbaloneEngine {
    player: AbalonePlayer,
    settings: Settings,
    mcts: GameSearch<Board>,
    alphabeta: AlphaBeta,
}

impl AbaloneEngine {
    /// An engine with these (base) parameters, `threads` MCTS workers, a seed and a tree
    /// budget in bytes; the alpha-beta table gets 2^20 entries.
    ///
    /// # Errors
    /// A bad `abalone_player`.
    pub fn new(
        params: &SearchParams,
        threads: usize,
        seed: u64,
        tree_bytes: usize,
    ) -> Result<AbaloneEngine, String> {
        Ok(AbaloneEngine {
            player: AbalonePlayer::from_params(params)?,
            settings: settings(params),
            mcts: GameSearch::new(abalone_search_params(params), threads, seed, tree_bytes),
            alphabeta: AlphaBeta::new(1 << 20, Weights::default()),
        })
    }

    /// The player [`AbaloneEngine::choose`] uses.
    pub fn player(&self) -> AbalonePlayer {
        self.player
    }

    /// Chooses the move of the side to move in `game` with the engine's player.
    pub fn choose(&mut self, game: &Game, limits: &MoveLimits, stop: &AtomicBool) -> EngineChoice {
        self.choose_with(self.player, game, limits, stop)
    }

    /// Chooses the move of the side to move in `game` with `player`.
    pub fn choose_with(
        &mut self,
        player: AbalonePlayer,
        game: &Game,
        limits: &MoveLimits,
        stop: &AtomicBool,
    ) -> EngineChoice {
        let started = Instant::now();
        match player {
            AbalonePlayer::Mcts => {
                let choice = mcts_choice(&mut self.mcts, game, self.settings, limits, stop);
                EngineChoice {
                    best: choice.best.and_then(Move::from_index),
                    player,
                    work: choice.playouts,
                    value: choice.win_rate,
                    elapsed: started.elapsed(),
                }
            }
            AbalonePlayer::AlphaBeta => {
                let search_limits = Limits {
                    depth: limits.depth,
                    nodes: limits.nodes,
                    deadline: limits.time.map(|time| started + time),
                };
                let result = self.alphabeta.search(game.board(), &search_limits, stop);
                EngineChoice {
                    best: result.best_move,
                    player,
                    work: result.nodes,
                    value: f64::from(result.score),
                    elapsed: started.elapsed(),
                }
            }
        }
    }
}

/// Runs the MCTS on the position of `game` (tree reuse follows the game's moves).
pub fn mcts_choice(
    search: &mut GameSearch<Board>,
    game: &Game,
    settings: Settings,
    limits: &MoveLimits,
    stop: &AtomicBool,
) -> Choice {
    let mut legal_moves = Vec::new();
    game.legal_moves(&mut legal_moves);
    let legal: Vec<u16> = legal_moves.iter().map(|mv| mv.index()).collect();
    let moves: Vec<u16> = game.moves().map(Move::index).collect();
    let root = Root {
        position: game.board(),
        to_move: game.to_move(),
        legal: &legal,
        settings,
        start_key: start_key(game),
        moves: &moves,
    };
    let run_limits = RunLimits {
        playouts: limits.playouts,
        hard_time: limits.time,
        ..RunLimits::default()
    };
    search.run(root, &run_limits, stop, None)
}

/// Speed lines for `ishi bench`: MCTS playouts per second from the Belgian start with one
/// thread and with `threads` (when more than one), and alpha-beta nodes per second (one
/// thread). `scale` multiplies the work of each case.
pub fn bench_lines(threads: usize, scale: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let game = Game::new(Start::Belgian);
    let stop = AtomicBool::new(false);
    let params = SearchParams::default();
    let playouts = ((40_000.0 * scale) as u64).max(100);
    let mut thread_counts = vec![1];
    if threads > 1 {
        thread_counts.push(threads);
    }
    for thread_count in thread_counts {
        let mut search = GameSearch::new(abalone_search_params(&params), thread_count, 1, 1 << 28);
        let limits = MoveLimits {
            playouts: Some(playouts),
            ..MoveLimits::default()
        };
        let choice = mcts_choice(&mut search, &game, settings(&params), &limits, &stop);
        let seconds = choice.elapsed.as_secs_f64().max(1e-9);
        lines.push(format!(
            "abalone mcts threads {thread_count}: {:.0} playouts/s ({} playouts in {seconds:.2} s, {} nodes, best {})",
            choice.playouts as f64 / seconds,
            choice.playouts,
            search.node_count(),
            choice
                .best
                .and_then(Move::from_index)
                .map(|mv| mv.to_string())
                .unwrap_or_else(|| "none".to_string()),
        ));
    }
    let nodes = ((2_000_000.0 * scale) as u64).max(1000);
    let mut alphabeta = AlphaBeta::new(1 << 20, Weights::default());
    let started = Instant::now();
    let result = alphabeta.search(
        game.board(),
        &Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        &stop,
    );
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    lines.push(format!(
        "abalone alphabeta threads 1: {:.0} nodes/s ({} nodes in {seconds:.2} s, depth {}, best {})",
        result.nodes as f64 / seconds,
        result.nodes,
        result.depth,
        result
            .best_move
            .map(|mv| mv.to_string())
            .unwrap_or_else(|| "none".to_string()),
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::domain::PASS;

    #[test]
    fn pass_is_never_a_move_index() {
        let mut moves = Vec::new();
        Board::new(Start::Belgian).legal_moves(&mut moves);
        assert!(moves.iter().all(|mv| mv.index() as usize != PASS));
    }

    #[test]
    fn search_params_take_the_abalone_constants() {
        let base = SearchParams {
            abalone_equiv_rave: 7.0,
            abalone_explore: 0.5,
            abalone_expand_visits: 9,
            ..SearchParams::default()
        };
        let params = abalone_search_params(&base);
        assert_eq!(params.equiv_rave, 7.0);
        assert_eq!(params.explore, 0.5);
        assert_eq!(params.expand_visits, 9);
    }
}
