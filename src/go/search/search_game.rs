//! Go as a [`SearchGame`]: the playout board with its light or heavy playouts, the priors
//! of new children (refined by the network's policy head in nodes that earn it), the capture-Go
//! target, area ownership, and the value network's judgement ([`judge`]: win, lead and
//! ownership, on the board sizes the network is trusted on and never in capture Go, which
//! the leaf values and the reported leads and ownership share). Knows the playout board,
//! playouts, priors and the value network; nothing of the tree.

use crate::color::Color;
use crate::go::search::board::{PlayoutBoard, BLACK, CAPACITY, EMPTY, NO_POINT, WHITE};
use crate::go::search::patterns;
use crate::go::search::playout::{play_out, PlayoutSettings};
use crate::go::search::priors::{compute_network_priors, compute_priors, PriorScratch};
use crate::go::search::value;
use crate::search::domain::SearchGame;
use crate::search::domain::{Outcome, Prior};
use crate::search::params::SearchParams;
use crate::search::random::Random;

/// The value network's judgement of `board` with `player` to move under `settings` (and,
/// with `ownership`, each point's expected owner from `player`'s view, in the network's
/// order: row by row from the bottom-left); `None` in capture Go, on a board size the
/// network is not trusted on, and with a komi beyond [`value::KOMI_SCALE`] points either way
/// (its komi plane outside -1..1: the teacher's games never go there, and a komi of 40
/// read as a close game lost a won territory finish), where its judgement is not measured.
/// With `value_symmetry` and no ownership asked for, the board is seen under the symmetry
/// [`value::position_symmetry`] gives it. `None` too when less of the board is empty than
/// `settings.value_minimum_empty` (`value_empty`): late in a game the playouts judge alone.
pub fn judge(
    board: &PlayoutBoard,
    player: Color,
    settings: &PlayoutSettings,
    scratch: &mut value::ValueScratch,
    ownership: Option<&mut Vec<f32>>,
) -> Option<value::Evaluation> {
    if board.empty_count() < settings.value_minimum_empty {
        return None;
    }
    let network = value::judging(
        board.size(),
        settings.komi,
        settings.capture_target.is_some(),
    )?;
    Some(match ownership {
        // `value_symmetry`: the position under its own symmetry (the pooled value and lead
        // need no mapping back; an ownership asked for is read as the board stands).
        None if settings.value_symmetry => network.evaluate_under(
            board,
            player,
            settings.komi,
            value::position_symmetry(board),
            scratch,
        ),
        ownership => network.evaluate(board, player, settings.komi, scratch, ownership),
    })
}

/// The mover's chance to win by the network's `judgement` when it must win by
/// `extra_komi` points more (dynamic komi): the logistic of its lead by the network less
/// `extra_komi`, over `scale` points (`dynamic_komi_scale`). Without extra komi, or with
/// `scale` 0, the network's own win probability.
pub fn network_win(judgement: value::Evaluation, extra_komi: f64, scale: f64) -> f64 {
    if extra_komi == 0.0 || scale <= 0.0 {
        return f64::from(judgement.win);
    }
    1.0 / (1.0 + (-(f64::from(judgement.lead) - extra_komi) / scale).exp())
}

impl SearchGame for PlayoutBoard {
    const MOVE_SPACE: usize = CAPACITY;

    type Settings = PlayoutSettings;

    type Scratch = PriorScratch;

    fn blank() -> Box<PlayoutBoard> {
        PlayoutBoard::new(9)
    }

    #[inline(always)]
    fn copy_from(&mut self, other: &PlayoutBoard) {
        PlayoutBoard::copy_from(self, other);
    }

    #[inline(always)]
    fn play(&mut self, index: usize, player: Color) {
        if index == NO_POINT {
            self.pass();
        } else {
            PlayoutBoard::play(self, index, player);
        }
    }

    #[inline(always)]
    fn decided(&self, player: Color, settings: &PlayoutSettings) -> Option<Outcome> {
        match settings.capture_target {
            Some(target) if self.captures(player) >= target => Some(Outcome {
                winner: Some(player),
                black_margin: 0.0,
            }),
            _ => None,
        }
    }

    fn candidates(
        &self,
        player: Color,
        allowed: Option<&[bool]>,
        params: &SearchParams,
        scratch: &mut PriorScratch,
        moves: &mut Vec<u16>,
        priors: &mut Vec<Prior>,
    ) {
        moves.clear();
        let size = self.size();
        let stride = self.stride();
        for row in 0..size {
            let start = (row + 1) * stride + 1;
            for point in start..start + size {
                if self.cell(point) == EMPTY
                    && self.is_legal(point, player)
                    && !self.is_eye(point, player)
                    && allowed.is_none_or(|allowed| allowed[point])
                {
                    moves.push(point as u16);
                }
            }
        }
        moves.push(NO_POINT as u16);
        compute_priors(
            self,
            player,
            params,
            patterns::table(),
            scratch,
            moves,
            priors,
        );
    }

    fn refine_priors(
        &self,
        player: Color,
        params: &SearchParams,
        settings: &PlayoutSettings,
        scratch: &mut PriorScratch,
        moves: &[u16],
        priors: &mut Vec<Prior>,
    ) -> bool {
        compute_network_priors(self, player, params, settings, scratch, moves, priors)
    }

    fn evaluate(
        &self,
        player: Color,
        settings: &PlayoutSettings,
        scratch: &mut PriorScratch,
    ) -> Option<f64> {
        judge(self, player, settings, &mut scratch.value, None).map(|judgement| {
            network_win(
                judgement,
                settings.extra_komi_for(player),
                settings.network_komi_scale,
            )
        })
    }

    #[inline(always)]
    fn play_out(
        &mut self,
        player: Color,
        settings: &PlayoutSettings,
        random: &mut Random,
        sequence: &mut Vec<u16>,
    ) -> Outcome {
        play_out(self, player, settings, random, sequence)
    }

    fn add_ownership(&self, sums: &mut [i64]) {
        let size = self.size();
        let stride = self.stride();
        for row in 0..size {
            let start = (row + 1) * stride + 1;
            for (point, sum) in sums.iter_mut().enumerate().take(start + size).skip(start) {
                match self.area_owner(point) {
                    BLACK => *sum += 1,
                    WHITE => *sum -= 1,
                    _ => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::board::Board;

    /// The value network judges the board sizes it is trusted on (the shipped one learned
    /// 9x9, 13x13 and 19x19: 7x7 to 19x19) and no other, with a komi within 15 points either
    /// way; capture Go never.
    #[test]
    fn the_leaf_value_is_given_on_the_networks_board_sizes_only() {
        let params = SearchParams::default();
        let mut scratch = PriorScratch::default();
        for (size, capture_target, komi, expected) in [
            (9, None, 7.5, true),
            (13, None, 7.5, true),
            (9, None, -15.0, true),
            (7, None, 7.5, true),
            (5, None, 7.5, false),
            (6, None, 7.5, false),
            (19, None, 7.5, true),
            (11, None, 7.5, true),
            (16, None, 7.5, true),
            (21, None, 7.5, false),
            (9, Some(1), 7.5, false),
            (13, Some(1), 7.5, false),
            (9, None, 40.5, false),
            (13, None, -15.5, false),
        ] {
            let board = PlayoutBoard::from_board(&Board::new(size), Color::Black);
            let settings = PlayoutSettings::new(&params, size, komi, capture_target);
            let value = board.evaluate(Color::Black, &settings, &mut scratch);
            assert_eq!(
                value.is_some(),
                expected,
                "{size} {capture_target:?} {komi}"
            );
            if let Some(value) = value {
                assert!((0.0..=1.0).contains(&value));
            }
        }
    }

    /// Under dynamic komi the network's lead, less the mover's extra komi, makes its win:
    /// even where the lead equals the extra komi, falling as the extra komi grows, the
    /// opponent's the complement; without extra komi (or scale) its own win probability.
    #[test]
    fn dynamic_komi_weighs_the_networks_lead_against_the_extra_komi() {
        let judgement = |win: f32, lead: f32| value::Evaluation { win, lead };
        let leader = judgement(0.99, 40.0);
        let opponent = judgement(0.01, -40.0);
        assert_eq!(network_win(leader, 0.0, 8.0), f64::from(0.99f32));
        assert_eq!(network_win(leader, 20.0, 0.0), f64::from(0.99f32));
        assert!((network_win(leader, 40.0, 8.0) - 0.5).abs() < 1e-12);
        let at_20 = network_win(leader, 20.0, 8.0);
        assert!((at_20 - 1.0 / (1.0 + (-2.5f64).exp())).abs() < 1e-12);
        assert!(network_win(leader, 10.0, 8.0) > at_20);
        assert!(
            network_win(judgement(0.99, 30.0), 20.0, 8.0) < at_20,
            "ten points given away"
        );
        assert!((network_win(opponent, -20.0, 8.0) - (1.0 - at_20)).abs() < 1e-12);
        // The playout settings give each side its extra komi from Black's shift.
        let mut settings = PlayoutSettings::new(&SearchParams::default(), 19, 7.5, None);
        settings.playout_komi_shift = 12.0;
        assert_eq!(settings.extra_komi_for(Color::Black), 12.0);
        assert_eq!(settings.extra_komi_for(Color::White), -12.0);
    }

    /// With `value_empty` the network judges a position only while that share of the board
    /// is empty: on 9x9 at 40%, 33 empty points (81 * 0.4 rounded up) and not 32; at 0
    /// every position.
    #[test]
    fn late_positions_are_left_to_the_playouts_with_value_empty() {
        let params = SearchParams {
            value_empty: 40,
            ..SearchParams::default()
        };
        let settings = PlayoutSettings::new(&params, 9, 7.5, None);
        assert_eq!(settings.value_minimum_empty, 33);
        let everywhere = PlayoutSettings::new(
            &SearchParams {
                value_empty: 0,
                ..SearchParams::default()
            },
            9,
            7.5,
            None,
        );
        let mut scratch = PriorScratch::default();
        let mut board = Board::new(9);
        let points: Vec<_> = board.points().collect();
        let mut color = Color::Black;
        for (placed, &point) in points.iter().enumerate() {
            let playout_board = PlayoutBoard::from_board(&board, color);
            let empty = 81 - placed;
            assert_eq!(playout_board.empty_count(), empty);
            let value = playout_board.evaluate(color, &settings, &mut scratch);
            assert_eq!(value.is_some(), empty >= 33, "{empty} empty");
            assert!(playout_board
                .evaluate(color, &everywhere, &mut scratch)
                .is_some());
            if empty == 32 {
                break;
            }
            // Stones of alternating colours by columns, so that no chain runs out of liberties.
            let stone = if (point.index() % 10) % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            board.setup_stone(point, stone);
            color = color.opponent();
        }
    }
}
