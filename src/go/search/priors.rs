//! Prior knowledge for new tree children, as equivalent experience (virtual visits and wins)
//! added to each child: an even prior plus, by default, the learned move model's rating
//! ([`crate::go::search::move_model`]: won visits growing with the square root of the move's
//! probability). With `prior_model=0` the hand-made priors instead: bonuses for captures,
//! atari escapes, MoGo shapes and closeness to the last move (common-fate-graph distance, a
//! chain counting as one point), penalties for self-atari, eye-shape filling, low moves in
//! empty areas, early passes and running from atari into a ladder that dies.
//! A node that earns `refine_visits` visits (the root at once) gets its children's priors
//! again from the network's policy head ([`crate::go::search::value`]) in place of the move
//! model, in the same form ([`compute_network_priors`]).
//! Knows the playout board, patterns, tactics, features, the model and the network; nothing
//! of the tree's layout.

use crate::color::Color;
use crate::go::search::board::{stone_code, PlayoutBoard, BORDER, CAPACITY, EMPTY, NO_POINT};
use crate::go::search::features::{
    compute_features, empty_around, line_height, FeatureScratch, MoveFeatures,
};
use crate::go::search::ladder::LadderReader;
use crate::go::search::move_model::{self, MoveModel};
use crate::go::search::patterns::{self, PatternTable};
use crate::go::search::playout::PlayoutSettings;
use crate::go::search::playout::{new_liberties, self_atari_size};
use crate::go::search::value::{self, ValueScratch};
use crate::search::domain::Prior;
use crate::search::params::SearchParams;
use crate::search::tree::POLICY_SCALE;

/// Scratch space reused between expansions.
pub struct PriorScratch {
    distances: Vec<u8>,
    queue: Vec<u16>,
    ladder: LadderReader,
    features: FeatureScratch,
    move_features: Vec<MoveFeatures>,
    network_probabilities: Vec<f32>,
    model_probabilities: Vec<f32>,
    /// The value network's buffers (the leaf evaluations share this scratch).
    pub(crate) value: ValueScratch,
}

impl Default for PriorScratch {
    fn default() -> PriorScratch {
        PriorScratch {
            distances: vec![u8::MAX; CAPACITY],
            queue: Vec::with_capacity(CAPACITY),
            ladder: LadderReader::default(),
            features: FeatureScratch::default(),
            move_features: Vec::new(),
            network_probabilities: Vec::new(),
            model_probabilities: Vec::new(),
            value: ValueScratch::default(),
        }
    }
}

const FAR: u8 = u8::MAX;

impl PriorScratch {
    /// The move model's probability of each of `points` into `model_probabilities`.
    fn compute_model_probabilities(
        &mut self,
        board: &PlayoutBoard,
        color: Color,
        model: &MoveModel,
        points: &[u16],
    ) {
        compute_features(
            board,
            color,
            points,
            &mut self.features,
            &mut self.move_features,
        );
        model.probabilities(&self.move_features, &mut self.model_probabilities);
    }

    /// Common-fate-graph distances (up to 3) from the last move; every point farther away
    /// (or every point when the last move was a pass) gets [`FAR`].
    fn compute_distances(&mut self, board: &PlayoutBoard) {
        let length = board.length();
        self.distances[..length].fill(FAR);
        self.queue.clear();
        let last = board.last_move();
        if last == NO_POINT || board.cell(last) == EMPTY {
            return;
        }
        let mark_chain = |distances: &mut Vec<u8>, queue: &mut Vec<u16>, point: usize, d: u8| {
            let mut stone = point;
            loop {
                if distances[stone] == FAR {
                    distances[stone] = d;
                    queue.push(stone as u16);
                }
                stone = board.next_stone(stone);
                if stone == point {
                    break;
                }
            }
        };
        mark_chain(&mut self.distances, &mut self.queue, last, 0);
        let mut cursor = 0;
        while cursor < self.queue.len() {
            let point = self.queue[cursor] as usize;
            cursor += 1;
            let distance = self.distances[point];
            if distance >= 3 {
                continue;
            }
            for neighbour in board.neighbours(point) {
                let cell = board.cell(neighbour);
                if cell == BORDER || self.distances[neighbour] != FAR {
                    continue;
                }
                if cell == EMPTY {
                    self.distances[neighbour] = distance + 1;
                    self.queue.push(neighbour as u16);
                } else {
                    mark_chain(
                        &mut self.distances,
                        &mut self.queue,
                        neighbour,
                        distance + 1,
                    );
                }
            }
        }
    }
}

/// Sets `priors` to `count` even priors.
fn even_priors(params: &SearchParams, count: usize, priors: &mut Vec<Prior>) {
    priors.clear();
    priors.resize(count, Prior::even(params.prior_even));
}

/// Computes the priors of every candidate in `points` (pass is [`NO_POINT`]) for `color`
/// to move on `board`, writing them to `priors` (same order).
pub fn compute_priors(
    board: &PlayoutBoard,
    color: Color,
    params: &SearchParams,
    table: &PatternTable,
    scratch: &mut PriorScratch,
    points: &[u16],
    priors: &mut Vec<Prior>,
) {
    even_priors(params, points.len(), priors);
    if !params.priors {
        return;
    }
    let model = if params.prior_model > 0 {
        move_model::shipped()
    } else {
        None
    };
    match model {
        Some(model) => {
            add_model_priors(board, color, params, model, scratch, points, priors);
            if params.prior_model_tactics {
                add_hand_priors(board, color, params, table, scratch, points, priors, true);
            }
        }
        None => add_hand_priors(board, color, params, table, scratch, points, priors, false),
    }
}

/// Adds the hand-made priors to `priors`; with `tactics_only` just the tactical terms
/// (captures, escapes, dying ladders, self-ataris).
#[allow(clippy::too_many_arguments)]
fn add_hand_priors(
    board: &PlayoutBoard,
    color: Color,
    params: &SearchParams,
    table: &PatternTable,
    scratch: &mut PriorScratch,
    points: &[u16],
    priors: &mut [Prior],
    tactics_only: bool,
) {
    if !tactics_only {
        scratch.compute_distances(board);
    }
    let own = stone_code(color);
    let opponent = own ^ BORDER;
    let size = board.size();
    for (&point, prior) in points.iter().zip(priors.iter_mut()) {
        let point = point as usize;
        if point == NO_POINT {
            if !tactics_only && board.empty_count() * 3 > size * size {
                prior.add(params.prior_pass, false);
            }
            continue;
        }
        if !tactics_only && board.is_eyeish(point, color) {
            prior.add(params.prior_eye, false);
        }
        let mut captures = false;
        let mut saved = NO_POINT;
        for neighbour in board.neighbours(point) {
            let cell = board.cell(neighbour);
            if cell == opponent && board.in_atari(neighbour) {
                captures = true;
            } else if cell == own && board.in_atari(neighbour) {
                saved = neighbour;
            }
        }
        if captures {
            prior.add(params.prior_capture, true);
        }
        if saved != NO_POINT {
            let gained = if captures {
                3
            } else {
                new_liberties(board, point, color)
            };
            // Running with two liberties may only extend a ladder that dies.
            let dead_ladder = gained == 2
                && params.prior_ladder_escape > 0
                && scratch.ladder.running_fails(board, saved, color);
            if dead_ladder {
                prior.add(params.prior_ladder_escape, false);
            } else if gained >= 2 {
                prior.add(params.prior_escape, true);
            }
        }
        if let Some(chain) = self_atari_size(board, point, color) {
            if chain > params.playout_self_atari_nakade as usize {
                prior.add(params.prior_self_atari, false);
            }
        }
        if tactics_only {
            continue;
        }
        if table.matches(board, point) {
            prior.add(params.prior_pattern, true);
        }
        match scratch.distances[point] {
            1 => prior.add(params.prior_distance_1, true),
            2 => prior.add(params.prior_distance_2, true),
            3 => prior.add(params.prior_distance_3, true),
            _ => {}
        }
        let line = line_height(board, point);
        if line <= 3 && size >= 9 && empty_around(board, point) {
            if line <= 2 {
                prior.add(params.prior_empty_low_line, false);
            } else {
                prior.add(params.prior_empty_third_line, true);
            }
        }
    }
}

/// Adds the learned move model's priors: `prior_model * sqrt(p)` won visits for a move the
/// model gives probability `p` among the candidates (Pachi's form); the pass gets the
/// hand-made pass prior instead.
fn add_model_priors(
    board: &PlayoutBoard,
    color: Color,
    params: &SearchParams,
    model: &MoveModel,
    scratch: &mut PriorScratch,
    points: &[u16],
    priors: &mut [Prior],
) {
    scratch.compute_model_probabilities(board, color, model, points);
    add_probability_priors(
        board,
        params,
        params.prior_model,
        &scratch.model_probabilities,
        points,
        priors,
    );
}

/// Adds `weight * sqrt(p)` won visits to each point's prior, `p` its probability; the pass
/// gets the hand-made pass prior instead. Every prior keeps its `p` (PUCT reads it).
fn add_probability_priors(
    board: &PlayoutBoard,
    params: &SearchParams,
    weight: u32,
    probabilities: &[f32],
    points: &[u16],
    priors: &mut [Prior],
) {
    let size = board.size();
    for ((prior, &probability), &point) in priors
        .iter_mut()
        .zip(probabilities.iter())
        .zip(points.iter())
    {
        prior.policy = (f64::from(probability.clamp(0.0, 1.0)) * POLICY_SCALE).round() as u16;
        if point as usize == NO_POINT {
            // The teacher passes as its own rules allow; ishi's passes follow its end-of-game
            // judgement, so the pass keeps the hand-made prior.
            if board.empty_count() * 3 > size * size {
                prior.add(params.prior_pass, false);
            }
            continue;
        }
        let won = (probability.sqrt() * weight as f32).round() as u32;
        prior.add(won, true);
    }
}

/// The priors of `points` from the network's policy head (with the hand-made tactics when
/// the move model takes them), for nodes that earned an evaluation. False, with `priors`
/// unspecified, when no network applies: none shipped, `prior_network=0`, priors off, or a
/// board size the network is not trusted on ([`value::proposing`]).
pub fn compute_network_priors(
    board: &PlayoutBoard,
    color: Color,
    params: &SearchParams,
    settings: &PlayoutSettings,
    scratch: &mut PriorScratch,
    points: &[u16],
    priors: &mut Vec<Prior>,
) -> bool {
    if !params.priors || params.prior_network == 0 {
        return false;
    }
    let Some(network) = value::proposing(board.size()) else {
        return false;
    };
    network.policy(
        board,
        color,
        value::prior_komi(settings.komi),
        points,
        &mut scratch.value,
        &mut scratch.network_probabilities,
    );
    even_priors(params, points.len(), priors);
    let share = params.prior_network_share.min(100) as f32 / 100.0;
    if share < 1.0 {
        if let Some(model) = move_model::shipped() {
            scratch.compute_model_probabilities(board, color, model, points);
            for (probability, &model_probability) in scratch
                .network_probabilities
                .iter_mut()
                .zip(&scratch.model_probabilities)
            {
                *probability = share * *probability + (1.0 - share) * model_probability;
            }
        }
    }
    add_probability_priors(
        board,
        params,
        params.prior_network,
        &scratch.network_probabilities,
        points,
        priors,
    );
    if params.prior_model_tactics {
        add_hand_priors(
            board,
            color,
            params,
            patterns::table(),
            scratch,
            points,
            priors,
            true,
        );
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::board::Board;

    use crate::go::search::board::vertex_index as at;

    /// Black to play: E7 and A2 capture, D1 is a three-stone self-atari, H8 is quiet.
    fn example_board() -> Box<PlayoutBoard> {
        let rules_board = Board::from_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . X O X . . .
             . . . . X . . . .
             . . . . . . . . .
             . . . . . . . . .
             . O O O . . . . .
             O X X . . . . . .",
        )
        .unwrap();
        PlayoutBoard::from_board(&rules_board, Color::Black)
    }

    /// E7 (a capture), H8 (quiet), D1 (a three-stone self-atari) and pass on the example.
    fn capture_quiet_self_atari_pass() -> [u16; 4] {
        [
            at(9, "E7") as u16,
            at(9, "H8") as u16,
            at(9, "D1") as u16,
            NO_POINT as u16,
        ]
    }

    /// The priors of E7 (a capture), H8 (quiet, empty area), A2 (a capture), D1 (a
    /// three-stone self-atari) and pass, black to play.
    fn example_priors(params: &SearchParams) -> Vec<Prior> {
        let board = example_board();
        let points = [
            at(9, "E7") as u16,
            at(9, "H8") as u16,
            at(9, "A2") as u16,
            at(9, "D1") as u16,
            NO_POINT as u16,
        ];
        let mut priors = Vec::new();
        let mut scratch = PriorScratch::default();
        compute_priors(
            &board,
            Color::Black,
            params,
            patterns::table(),
            &mut scratch,
            &points,
            &mut priors,
        );
        priors
    }

    #[test]
    fn hand_priors_favour_the_capture_and_penalise_the_self_atari() {
        let params = SearchParams {
            prior_model: 0,
            ..SearchParams::default()
        };
        let priors = example_priors(&params);
        // E7 captures the white stone in atari; H8 is a quiet move in an empty area.
        assert!(priors[0].value() > priors[1].value());
        // D1 is a self-atari of three black stones.
        assert!(priors[3].value() < 0.5);
    }

    #[test]
    fn the_move_model_favours_the_captures_over_quiet_moves_and_the_self_atari() {
        assert!(move_model::shipped().is_some(), "the shipped model loads");
        let priors = example_priors(&SearchParams::default());
        let values: Vec<f64> = priors.iter().map(Prior::value).collect();
        assert!(values[0] > values[1], "{values:?}");
        assert!(values[2] > values[3], "{values:?}");
        // The model alone only adds won visits; the hand-made tactics penalise D1.
        let model_only = example_priors(&SearchParams {
            prior_model_tactics: false,
            ..SearchParams::default()
        });
        assert!(model_only[..4].iter().all(|prior| prior.value() >= 0.5));
        // The pass keeps the hand-made prior: penalised while the board is open.
        assert!(model_only[4].value() < 0.5);
        assert!(values[3] < model_only[3].value(), "{values:?}");
        // Only the even prior without knowledge.
        let plain = example_priors(&SearchParams {
            priors: false,
            ..SearchParams::default()
        });
        assert!(plain.iter().all(|prior| prior.value() == 0.5));
    }

    #[test]
    fn the_network_favours_the_captures_over_the_self_atari() {
        let params = SearchParams::default();
        let board = example_board();
        let points = capture_quiet_self_atari_pass();
        let mut priors = Vec::new();
        assert!(compute_network_priors(
            &board,
            Color::Black,
            &params,
            &PlayoutSettings::new(&params, 9, 7.5, None),
            &mut PriorScratch::default(),
            &points,
            &mut priors,
        ));
        let values: Vec<f64> = priors.iter().map(Prior::value).collect();
        assert!(values[0] > values[2] && values[2] < 0.5, "{values:?}");
        assert!(priors[0].wins > priors[2].wins, "{priors:?}");
        // With no share for the network, the move model's priors exactly.
        let model_only = SearchParams {
            prior_network_share: 0,
            ..params.clone()
        };
        let mut mixed = Vec::new();
        assert!(compute_network_priors(
            &board,
            Color::Black,
            &model_only,
            &PlayoutSettings::new(&model_only, 9, 7.5, None),
            &mut PriorScratch::default(),
            &points,
            &mut mixed,
        ));
        let mut model_priors = Vec::new();
        compute_priors(
            &board,
            Color::Black,
            &model_only,
            patterns::table(),
            &mut PriorScratch::default(),
            &points,
            &mut model_priors,
        );
        assert_eq!(mixed, model_priors);
        // No network for a size it is not trusted on, nor with prior_network=0.
        let small = PlayoutBoard::new(5);
        assert!(!compute_network_priors(
            &small,
            Color::Black,
            &params,
            &PlayoutSettings::new(&params, 5, 7.5, None),
            &mut PriorScratch::default(),
            &[NO_POINT as u16],
            &mut priors,
        ));
        let off = SearchParams {
            prior_network: 0,
            ..params.clone()
        };
        assert!(!compute_network_priors(
            &board,
            Color::Black,
            &off,
            &PlayoutSettings::new(&off, 9, 7.5, None),
            &mut PriorScratch::default(),
            &points,
            &mut priors,
        ));
    }

    /// The policy head gives the refined priors on every size the network is trusted on
    /// (13x13 too), in capture Go as in Go (the same moves: only the hand-made tactics know
    /// the capture rule), and with a komi past the plane's range as at the range's end.
    #[test]
    fn the_policy_head_refines_the_priors_on_every_trusted_size() {
        let params = SearchParams::default();
        let board = example_board();
        let points = capture_quiet_self_atari_pass();
        let refine = |board: &PlayoutBoard, komi, capture, points: &[u16]| {
            let settings = PlayoutSettings::new(&params, board.size(), komi, capture);
            let mut priors = Vec::new();
            compute_network_priors(
                board,
                Color::Black,
                &params,
                &settings,
                &mut PriorScratch::default(),
                points,
                &mut priors,
            )
            .then_some(priors)
        };
        let head = refine(&board, 7.5, None, &points).unwrap();
        assert_eq!(refine(&board, 7.5, Some(1), &points).unwrap(), head);
        assert_eq!(
            refine(&board, 40.0, None, &points),
            refine(&board, f64::from(value::KOMI_SCALE), None, &points)
        );
        assert_ne!(refine(&board, 0.0, None, &points).unwrap(), head);
        let thirteen = PlayoutBoard::new(13);
        let corner = [at(13, "D4") as u16, at(13, "A1") as u16, NO_POINT as u16];
        let head = refine(&thirteen, 7.5, None, &corner).unwrap();
        assert!(head[0].wins > head[1].wins, "{head:?}");
    }
}
