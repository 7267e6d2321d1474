//! Selection formulas as pure functions of node statistics: the RAVE/AMAF blend with priors
//! (Pachi's `ucb1amaf`: β = r / (r + n + n·r/equiv)), an optional UCB term, first-play
//! urgency, PUCT's score and its reduced first-play value, and the confidence bound used to
//! report candidates. Knows nothing of trees or
//! boards.

use crate::search::tree::{NodeStatistics, RESULT_SCALE};

/// The numbers selection needs, as floating point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blend {
    /// Real plus prior visits.
    pub visits: f64,
    /// Real plus prior value in [0, 1].
    pub value: f64,
    /// AMAF visits.
    pub amaf_visits: f64,
    /// AMAF value in [0, 1].
    pub amaf_value: f64,
}

impl Blend {
    /// Real and prior statistics merged; AMAF kept apart.
    #[inline]
    pub fn from_statistics(statistics: &NodeStatistics) -> Blend {
        let scale = RESULT_SCALE as f64;
        let visits = statistics.visits as f64 + statistics.prior_visits as f64;
        let wins = (statistics.wins as f64 + statistics.prior_wins as f64) / scale;
        let amaf_visits = statistics.amaf_visits as f64;
        Blend {
            visits,
            value: if visits > 0.0 { wins / visits } else { 0.0 },
            amaf_visits,
            amaf_value: if amaf_visits > 0.0 {
                statistics.amaf_wins as f64 / scale / amaf_visits
            } else {
                0.0
            },
        }
    }
}

/// The RAVE weight β = r / (r + n + n·r/equiv) for `n` real and `r` AMAF visits.
#[inline]
pub fn rave_weight(visits: f64, amaf_visits: f64, equiv_rave: f64) -> f64 {
    let denominator = amaf_visits + visits + visits * amaf_visits / equiv_rave;
    if denominator > 0.0 {
        amaf_visits / denominator
    } else {
        0.0
    }
}

/// The urgency of a child: (1-β)·value + β·AMAF value, plus `explore`·sqrt(ln N / n) when
/// `explore` > 0; `first_play_urgency` when the child has neither kind of statistics.
#[inline]
pub fn urgency(
    blend: &Blend,
    parent_visits: f64,
    equiv_rave: f64,
    explore: f64,
    first_play_urgency: f64,
) -> f64 {
    if blend.visits <= 0.0 && blend.amaf_visits <= 0.0 {
        return first_play_urgency;
    }
    let beta = if blend.visits <= 0.0 {
        1.0
    } else {
        rave_weight(blend.visits, blend.amaf_visits, equiv_rave)
    };
    let mut result = (1.0 - beta) * blend.value + beta * blend.amaf_value;
    if explore > 0.0 && blend.visits > 0.0 {
        result += explore * ((parent_visits.max(1.0)).ln() / blend.visits).sqrt();
    }
    result
}

/// The same urgency as [`urgency`] without exploration, straight from integer statistics
/// with a single division: with D = r + n + n·r/E, (1-β)·w/n + β·a/r = (w·(1 + r/E) + a) / D,
/// where n, w are real plus prior visits and wins and r, a the AMAF visits and wins.
#[inline(always)]
pub fn fast_urgency(
    statistics: &NodeStatistics,
    inverse_equiv_rave: f64,
    first_play_urgency: f64,
) -> f64 {
    // Integer sums convert once, and the results' scale (a power of two) moves to the
    // denominator: the same value to the last bit, with fewer conversions and products.
    let visits = (statistics.visits as u64 + statistics.prior_visits as u64) as f64;
    let amaf_visits = statistics.amaf_visits as f64;
    let denominator = amaf_visits + visits + visits * amaf_visits * inverse_equiv_rave;
    if denominator <= 0.0 {
        return first_play_urgency;
    }
    let wins = (statistics.wins as u64 + statistics.prior_wins as u64) as f64;
    let amaf_wins = statistics.amaf_wins as f64;
    (wins * (1.0 + amaf_visits * inverse_equiv_rave) + amaf_wins)
        / (denominator * RESULT_SCALE as f64)
}

/// The score term of a child's urgency ([`crate::search::params::SearchParams::score_weight`]):
/// `weight` times atan(m · `inverse_scale`) / π, m the mean margin of its `visits` results for
/// its mover from their sum in half points, `score_sum_half_points`; 0 without visits.
#[inline]
pub fn score_term(score_sum_half_points: i64, visits: u32, weight: f64, inverse_scale: f64) -> f64 {
    if weight == 0.0 || visits == 0 || score_sum_half_points == 0 {
        return 0.0;
    }
    let mean = score_sum_half_points as f64 / (2.0 * f64::from(visits));
    weight * (mean * inverse_scale).atan() * std::f64::consts::FRAC_1_PI
}

/// PUCT's score of a child (AlphaGo Zero's selection): its `value` plus
/// `coefficient` · `probability` · sqrt(N) / (1 + `visits`), where `sqrt_parent_visits` is
/// sqrt(N), the square root of the parent's visits.
#[inline(always)]
pub fn puct_score(
    value: f64,
    probability: f64,
    visits: f64,
    sqrt_parent_visits: f64,
    coefficient: f64,
) -> f64 {
    value + coefficient * probability * sqrt_parent_visits / (1.0 + visits)
}

/// PUCT's value of a child with no statistics yet (first-play urgency with reduction, as in
/// Leela Zero and KataGo): the parent's value for the mover, less `reduction` times the
/// square root of the probability of the siblings already visited, so that the more of the
/// policy the search has looked at, the less an unseen move is assumed worth.
#[inline]
pub fn reduced_first_play_value(
    parent_value: f64,
    reduction: f64,
    visited_probability: f64,
) -> f64 {
    parent_value - reduction * visited_probability.max(0.0).sqrt()
}

/// Progressive widening: the factor by which a node's visits grow for one more child to open
/// (Coulom 2007, "Efficient Selectivity and Backup Operators in Monte-Carlo Tree Search").
pub const WIDENING_GROWTH: f64 = 1.4;

/// Progressive widening: how many children (by rank of prior value) a node with `visits`
/// selects from: `widening` at first, one more at `widening_visits` visits and at every
/// further growth by [`WIDENING_GROWTH`]; every child (`u32::MAX`) when `widening` is 0.
#[inline]
pub fn widening_limit(widening: u32, widening_visits: u32, visits: u32) -> u32 {
    if widening == 0 {
        return u32::MAX;
    }
    let threshold = widening_visits.max(1) as f64;
    if (visits as f64) < threshold {
        return widening;
    }
    let steps = ((visits as f64 / threshold).ln() / WIDENING_GROWTH.ln()).floor() as u32;
    widening.saturating_add(1 + steps)
}

/// A lower confidence bound of a win rate (normal approximation, 2 standard errors; 0 for no
/// visits).
pub fn lower_confidence_bound(win_rate: f64, visits: f64) -> f64 {
    if visits <= 0.0 {
        return 0.0;
    }
    let spread = (win_rate * (1.0 - win_rate) / visits).sqrt();
    (win_rate - 2.0 * spread).max(0.0)
}

/// The AMAF weight of a move played `offset` moves after a node in a sequence of `length`
/// moves: `distance_rave` for the first, falling linearly to 1 for the last.
#[inline]
pub fn amaf_weight(offset: usize, length: usize, distance_rave: u32) -> u32 {
    if distance_rave <= 1 || length == 0 {
        return 1;
    }
    let extra = (distance_rave - 1) as usize * (length - offset.min(length)) / length;
    1 + extra as u32
}

/// [`amaf_weight`] for every offset of one node without a division per move: built once
/// per node from the sequence length after it.
#[derive(Clone, Copy, Debug)]
pub struct AmafWeights {
    span: u64,
    scale: u64,
    enabled: bool,
}

impl AmafWeights {
    /// Weights for a sequence of `length` moves after the node.
    #[inline]
    pub fn new(length: usize, distance_rave: u32) -> AmafWeights {
        let enabled = distance_rave > 1 && length > 0;
        let span = length.max(1) as u64;
        // Rounded up, so that the product floors exactly (length < 2^21).
        let scale = ((distance_rave.max(1) as u64 - 1) << 32).div_ceil(span);
        AmafWeights {
            span,
            scale,
            enabled,
        }
    }

    /// The weight of the move `offset` moves after the node.
    #[inline(always)]
    pub fn weight(&self, offset: usize) -> u32 {
        if !self.enabled {
            return 1;
        }
        let remaining = self.span - (offset as u64).min(self.span);
        1 + ((remaining * self.scale) >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rave_weight_follows_the_sylvain_formula() {
        assert_eq!(rave_weight(0.0, 0.0, 3000.0), 0.0);
        assert_eq!(rave_weight(0.0, 10.0, 3000.0), 1.0);
        // r = n = 3000: β = 3000 / (3000 + 3000 + 3000) = 1/3.
        assert!((rave_weight(3000.0, 3000.0, 3000.0) - 1.0 / 3.0).abs() < 1e-12);
        // Many real visits: RAVE fades.
        assert!(rave_weight(1e6, 1e6, 3000.0) < 0.01);
    }

    #[test]
    fn the_score_term_is_bounded_odd_and_rises_with_the_margin() {
        let scale = 1.0 / 20.0;
        // No weight, no visits or an even margin: nothing.
        assert_eq!(score_term(400, 10, 0.0, scale), 0.0);
        assert_eq!(score_term(400, 0, 0.3, scale), 0.0);
        assert_eq!(score_term(0, 10, 0.3, scale), 0.0);
        // A mean of 20 points (400 half points over 10 visits) at scale 20: atan(1)/π = 1/4.
        assert!((score_term(400, 10, 0.3, scale) - 0.3 / 4.0).abs() < 1e-12);
        // Odd in the margin, rising, and within half the weight.
        assert_eq!(
            score_term(-400, 10, 0.3, scale),
            -score_term(400, 10, 0.3, scale)
        );
        let mut last = f64::NEG_INFINITY;
        for half_points in (-20_000..=20_000).step_by(500) {
            let term = score_term(half_points, 10, 0.3, scale);
            assert!(term > last);
            assert!(term.abs() < 0.15);
            last = term;
        }
        // A scale of zero is a step, never a NaN.
        assert!((score_term(1, 3, 0.2, f64::INFINITY) - 0.1).abs() < 1e-12);
        assert_eq!(score_term(0, 3, 0.2, f64::INFINITY), 0.0);
    }

    #[test]
    fn urgency_blends_values() {
        let blend = Blend {
            visits: 10.0,
            value: 0.2,
            amaf_visits: 100.0,
            amaf_value: 0.8,
        };
        let beta = rave_weight(10.0, 100.0, 3000.0);
        let expected = (1.0 - beta) * 0.2 + beta * 0.8;
        assert!((urgency(&blend, 100.0, 3000.0, 0.0, 1.1) - expected).abs() < 1e-12);
        assert!(urgency(&blend, 100.0, 3000.0, 0.5, 1.1) > expected);
        let fresh = Blend {
            visits: 0.0,
            value: 0.0,
            amaf_visits: 0.0,
            amaf_value: 0.0,
        };
        assert_eq!(urgency(&fresh, 100.0, 3000.0, 0.0, 1.1), 1.1);
    }

    #[test]
    fn fast_urgency_equals_the_blend() {
        for (visits, wins, prior_visits, prior_wins, amaf_visits, amaf_wins) in [
            (10, 7, 10, 10, 40, 50),
            (0, 0, 0, 0, 12, 5),
            (0, 0, 10, 10, 0, 0),
            (1000, 1500, 20, 30, 5000, 4000),
        ] {
            let statistics = NodeStatistics {
                visits,
                wins,
                prior_visits,
                prior_wins,
                amaf_visits,
                amaf_wins,
                ..NodeStatistics::default()
            };
            let slow = urgency(&Blend::from_statistics(&statistics), 1.0, 3000.0, 0.0, 1.1);
            let fast = fast_urgency(&statistics, 1.0 / 3000.0, 1.1);
            assert!((slow - fast).abs() < 1e-12, "{slow} vs {fast}");
        }
        assert_eq!(
            fast_urgency(&NodeStatistics::default(), 1.0 / 3000.0, 1.1),
            1.1
        );
    }

    #[test]
    fn puct_favours_probable_and_little_visited_moves() {
        let score = |probability, visits| puct_score(0.5, probability, visits, 10.0, 1.5);
        assert!((score(0.2, 0.0) - (0.5 + 1.5 * 0.2 * 10.0)).abs() < 1e-12);
        assert!(score(0.4, 3.0) > score(0.2, 3.0));
        assert!(score(0.2, 3.0) > score(0.2, 30.0));
        // The bonus fades with visits: at 99 visits a tenth of the one at 9.
        let bonus = |visits| score(0.3, visits) - 0.5;
        assert!((bonus(9.0) / bonus(99.0) - 10.0).abs() < 1e-9);
        assert_eq!(puct_score(0.7, 0.0, 0.0, 10.0, 1.5), 0.7);
        // First play: the parent's value, less reduction * sqrt(visited probability).
        assert_eq!(reduced_first_play_value(0.6, 0.2, 0.0), 0.6);
        assert!((reduced_first_play_value(0.6, 0.2, 0.25) - 0.5).abs() < 1e-12);
        assert!(
            reduced_first_play_value(0.6, 0.2, 0.81) < reduced_first_play_value(0.6, 0.2, 0.25)
        );
    }

    #[test]
    fn statistics_merge_priors() {
        let statistics = NodeStatistics {
            visits: 10,
            wins: 2 * 5,
            prior_visits: 10,
            prior_wins: 2 * 10,
            amaf_visits: 4,
            amaf_wins: 2,
            ..NodeStatistics::default()
        };
        let blend = Blend::from_statistics(&statistics);
        assert_eq!(blend.visits, 20.0);
        assert_eq!(blend.value, 0.75);
        assert_eq!(blend.amaf_value, 0.25);
    }

    #[test]
    fn fast_amaf_weights_equal_the_formula() {
        for distance_rave in [1, 2, 3, 5] {
            for length in [1, 2, 3, 7, 90, 107, 1000, 2047] {
                let weights = AmafWeights::new(length, distance_rave);
                for offset in 0..length {
                    assert_eq!(
                        weights.weight(offset),
                        amaf_weight(offset, length, distance_rave),
                        "offset {offset} length {length} distance {distance_rave}"
                    );
                }
            }
        }
    }

    #[test]
    fn widening_opens_one_child_per_growth_step() {
        assert_eq!(widening_limit(0, 40, 1_000_000), u32::MAX);
        assert_eq!(widening_limit(5, 40, 0), 5);
        assert_eq!(widening_limit(5, 40, 39), 5);
        assert_eq!(widening_limit(5, 40, 40), 6);
        assert_eq!(widening_limit(5, 40, 55), 6);
        assert_eq!(widening_limit(5, 40, 56), 7);
        // 40 * 1.4^10 = 1157.0
        assert_eq!(widening_limit(5, 40, 1156), 15);
        assert_eq!(widening_limit(5, 40, 1158), 16);
        let mut last = 0;
        for visits in (0..100_000).step_by(7) {
            let limit = widening_limit(3, 20, visits);
            assert!(limit >= last);
            last = limit;
        }
    }

    #[test]
    fn amaf_weights_fall_with_distance() {
        assert_eq!(amaf_weight(0, 90, 3), 3);
        assert_eq!(amaf_weight(89, 90, 3), 1);
        assert_eq!(amaf_weight(10, 90, 1), 1);
        assert!(lower_confidence_bound(0.5, 100.0) < 0.5);
    }
}
