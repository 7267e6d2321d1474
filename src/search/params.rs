//! Every tunable constant of the search in one value: selection (RAVE, PUCT), expansion,
//! priors and the playout policy, each settable by name from text (`--param name=value`).
//! Knows nothing of boards; the defaults are the tuned values.

use std::fmt;
use std::str::FromStr;

/// Which playout policy runs after the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutPolicy {
    /// Uniformly random legal moves that do not fill one's own eyes.
    Light,
    /// Moggy-class: local captures and escapes, 2-liberty tactics, nakade, 3x3 patterns,
    /// self-atari avoidance, then random.
    Heavy,
}

impl FromStr for PlayoutPolicy {
    type Err = String;
    fn from_str(text: &str) -> Result<PlayoutPolicy, String> {
        match text {
            "light" => Ok(PlayoutPolicy::Light),
            "heavy" => Ok(PlayoutPolicy::Heavy),
            other => Err(format!("playout must be light or heavy, not {other}")),
        }
    }
}

impl fmt::Display for PlayoutPolicy {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            PlayoutPolicy::Light => "light",
            PlayoutPolicy::Heavy => "heavy",
        })
    }
}

macro_rules! search_params {
    ($( $(#[doc = $doc:literal])* $name:ident : $kind:ty = $default:expr ),* $(,)?) => {
        /// The constants of selection, expansion, priors and playouts.
        ///
        /// Prior terms are "equivalent experience": a number of virtual visits with a value
        /// (wins for bonuses, losses for penalties) added to a new child's statistics.
        #[derive(Clone, Debug, PartialEq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $name: $kind, )*
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $( $name: $default, )* }
            }
        }

        impl SearchParams {
            /// Sets the parameter `name` from text.
            ///
            /// # Errors
            /// An unknown name, or a value that does not parse as the parameter's type.
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
                match name {
                    $( stringify!($name) => {
                        self.$name = value.trim().parse::<$kind>().map_err(|error| {
                            format!("bad value {value:?} for {name}: {error}")
                        })?;
                        Ok(())
                    } )*
                    _ => Err(format!("unknown search parameter {name:?}")),
                }
            }

            /// The names of all parameters, in declaration order.
            pub fn names() -> &'static [&'static str] {
                &[ $( stringify!($name), )* ]
            }

            /// Every parameter as `name=value`, one per entry.
            pub fn describe(&self) -> Vec<String> {
                vec![ $( format!("{}={}", stringify!($name), self.$name), )* ]
            }
        }
    };
}

search_params! {
    /// Playout policy: `light` or `heavy`.
    playout: PlayoutPolicy = PlayoutPolicy::Heavy,
    /// RAVE equivalence: real visits at which RAVE and real values weigh the same (Pachi's
    /// `equiv_rave`, 3000 on small boards).
    equiv_rave: f64 = 3000.0,
    /// Coefficient of the UCB exploration term (0: none; priors and RAVE explore).
    explore: f64 = 0.0,
    /// Urgency of a child with neither visits nor AMAF statistics (first-play urgency).
    first_play_urgency: f64 = 1.1,
    /// PUCT (AlphaGo Zero's selection): a child's urgency gains
    /// `puct` * p * sqrt(parent visits) / (1 + visits), p the move's probability from the
    /// game's knowledge (Go: the move model, then the network in refined nodes); 0 selects by
    /// the kept RAVE urgency alone.
    puct: f64 = 0.0,
    /// PUCT: whether the children keep their priors as virtual visits too (the RAVE search's
    /// form); without them a child's value comes from its real and AMAF statistics, and a
    /// child with neither takes the first-play urgency below.
    puct_prior_visits: bool = true,
    /// PUCT: first-play urgency reduction. A child with no statistics is valued at its
    /// parent's value for the mover less this times the square root of the probability of the
    /// siblings already visited (Leela Zero's and KataGo's form).
    puct_fpu_reduction: f64 = 0.2,
    /// Weight of a score term in a child's urgency (KataGo's dynamic score utility): a child
    /// whose results end, on average, `m` points further ahead for its mover than the
    /// search's centre (Go: the playouts' margins, komi included; the centre is the mean
    /// margin of the root's results kept from the searches before, 0 for a fresh tree)
    /// gains `score_weight` times atan(`m` / `score_scale`) / π, at most half the weight
    /// either way, so that among moves that all win (or all lose) the search leans to
    /// those that keep more points. It lives in selection only: reported win rates are the
    /// results' alone. 0 leaves it out.
    score_weight: f64 = 0.0,
    /// The margin, in points, at which the score term reaches a quarter of its weight.
    score_scale: f64 = 30.0,
    /// Go, in the moves a game plays (`genmove`): dynamic komi (Pachi's `dynkomi`), the
    /// share in percent of the side to move's lead that its playouts must win by besides
    /// komi. When every move wins, the win rates of a won game all read 1 and the search
    /// cannot tell keeping a lead from giving most of it away; counting the playouts
    /// against a komi raised by part of the lead keeps them apart. The lead is the last
    /// search's (the network's and the playouts' mix) where the game continues that
    /// search's position; the extra komi falls to nothing as the board fills (whole from
    /// [`crate::go::search::DYNAMIC_KOMI_FULL_EMPTY`] percent of the board empty to none at
    /// `value_empty`), is at most [`crate::go::search::DYNAMIC_KOMI_MAXIMUM`] points, never
    /// helps the side behind, and leaves the end of the game and the reported leads at the
    /// true komi (the value network's judgement too, unless `dynamic_komi_scale` weighs its
    /// lead against the extra komi). 0 leaves it out. Boards below
    /// [`crate::go::search::LARGE_BOARD`] points a side; `dynamic_komi_large` above.
    dynamic_komi: u32 = 0,
    /// Go on boards of [`crate::go::search::LARGE_BOARD`] points a side and more: the
    /// dynamic komi's share in place of `dynamic_komi`. On 19x19 against GNU Go 3.8 level
    /// 10 at 2 s a move, 50 keeps the points but has not won more games: from 6 positions
    /// where the teacher counted ishi 30 to 70 points ahead (two games each) it converted
    /// 12 of 12 where 0 converted 11 of 12, keeping 5.9 points more a game where both were
    /// counted; in full games it won 31 of 37 (mean counted margin +11.8, one win by 2.5
    /// or less in 27) where the build without it had won 42 of 48 (+6.2, 17 of 38 by 2.5
    /// or less). With the network's share shifted too (`dynamic_komi_scale` 8) it won 41
    /// of 44 (+15.1, two wins by 2.5 or less in 28) where 0 won 21 of 23 on the same seeds
    /// (2 games each that only one of them won). So it stays off until it wins more.
    dynamic_komi_large: u32 = 0,
    /// Under dynamic komi, the points of the value network's lead that make one unit of its
    /// win logit: a leaf the network judges is worth the logistic of (the mover's lead by
    /// the network, less the mover's extra komi) over this many points, so that the
    /// network's share of the leaf tells keeping a lead from giving it away as the
    /// playouts' share does (the network's own win probability reads 1 for every move of a
    /// won game, and its komi input does not move it). 0 leaves the network's judgement at
    /// the true komi under dynamic komi. With `dynamic_komi_large` 50 on 19x19 against GNU
    /// Go 3.8 level 10 at 2 s a move, 8 converted the 6 won positions' 12 games as 0 did,
    /// keeping 3.0 points a game more where both were counted (mean margin +14.5 against
    /// +11.1); in full games see `dynamic_komi_large`.
    dynamic_komi_scale: u32 = 8,
    /// AMAF weight of moves played soon after a node; the weight falls linearly to 1 for the
    /// last moves of the playout (Pachi's `distance_rave`).
    distance_rave: u32 = 3,
    /// Whether new children get prior knowledge beyond the even prior.
    priors: bool = true,
    /// Visits a leaf needs before its children are created.
    expand_visits: u32 = 4,
    /// Visits a node needs before the game's costlier knowledge (Go: the network's policy head)
    /// refines its children's priors; the root is refined at once; 0 never.
    refine_visits: u32 = 10,
    /// Progressive widening (Coulom's, as in Crazy Stone): the children a node (the root
    /// excepted) selects from at first, in the order of their priors' values; one more
    /// opens each time the node's visits grow by a factor of
    /// [`crate::search::select::WIDENING_GROWTH`] past `widening_visits`; 0 selects from
    /// every child.
    widening: u32 = 0,
    /// Progressive widening: the visits at which the first child past `widening` opens.
    widening_visits: u32 = 40,
    /// Even prior: visits at value 0.5 for every child.
    prior_even: u32 = 10,
    /// Go: won visits of the learned move model's prior, times the square root of the move's
    /// probability among the candidates; 0 uses the hand-made priors below instead.
    prior_model: u32 = 160,
    /// Go: with the move model, whether the hand-made tactical priors (captures, escapes,
    /// dying ladders, self-ataris) are added to it.
    prior_model_tactics: bool = true,
    /// Go: won visits of the network's policy prior (times the square root of the move's
    /// probability), which replaces the move model's in nodes refined after
    /// `refine_visits`, on the board sizes the network is trusted on; 0 leaves it out.
    prior_network: u32 = 160,
    /// Go: the network's share, in percent, of the probability those priors use; the move
    /// model has the rest.
    prior_network_share: u32 = 100,
    /// The value network's share, in percent, of the result a leaf backs up: the rest comes
    /// from its playout (AlphaGo's λ mixing); 0 runs playouts alone. Games without a value
    /// network (Go on a board size its network is not trusted on, or with the capture
    /// rules) always back up the playout. 50 won 72 of 100 9x9 games at equal think time.
    value_weight: u32 = 50,
    /// Go on boards of [`crate::go::search::LARGE_BOARD`] points a side and more (19x19 the
    /// one measured): the value network's share in place of `value_weight`; 0 runs playouts
    /// alone there. 19x19 playouts judge a 20-point lead near 0.6 where the network says 0.9
    /// and more, so at 50 the search hardly told keeping a lead from giving half of it away:
    /// against GNU Go 3.8 level 10 at 2 s a move, 75 won 23 of 24 games where 50 won 19 of
    /// 23 on the same seeds and colours (step 8's network; on 9x9 70 and on 13x13 75 had
    /// matched 50).
    value_weight_large: u32 = 75,
    /// Visits a leaf needs (this one counted) before the value network judges its position:
    /// 1 judges every leaf; more leaves the leaves that the search passes by once to their
    /// playouts alone, and spends the network where the search returns. A judged node keeps
    /// its value for every later visit. 2 (with the policy head's priors) won 68 of 80 13x13
    /// games against the playouts alone at equal think time, where judging every leaf won
    /// 38 of 80.
    value_visits: u32 = 2,
    /// Whether the value network judges each position under one of the board's eight
    /// symmetries, chosen by the position (the same position always under the same one),
    /// instead of as it stands: the network's judgement differs between the symmetries
    /// (`kata-raw-nn all`), and spreading the positions over them keeps that error from
    /// leaning the same way across the tree. The same cost.
    value_symmetry: bool = false,
    /// Go: the share of the board, in percent, that must be empty for the value network to
    /// judge a position (leaves, and the leads and ownership a search reports); below it the
    /// playouts judge alone. Late in a game, with dead stones left standing, the network
    /// taught on the teacher's games misjudged the board (step 5, on ishi's own 13x13 games
    /// with a fifth of the board empty, picked the side ahead less often than a coin), while
    /// the playouts of a nearly settled board reach its count; but the playouts break sekis
    /// the network sees (GNU Go's `seki.tst` 43-45 of 113 at 20 against 31-32 at 40, seeds
    /// 1-3). 0 judges every position. 20 against 40 at 1,000 playouts: 107 of 200 9x9 games and
    /// 49 of 100 13x13 games; 40 against 0: 103 of 200 9x9 games and 52 of 100 13x13 games.
    value_empty: u32 = 20,
    /// Penalty (losses) for filling one's own eye shape.
    prior_eye: u32 = 40,
    /// Bonus (wins) for capturing a chain in atari.
    prior_capture: u32 = 30,
    /// Bonus (wins) for saving an own chain from atari.
    prior_escape: u32 = 20,
    /// Penalty (losses) for running from atari into a ladder that dies (0: no ladder
    /// reading); such a move gets no escape bonus.
    prior_ladder_escape: u32 = 30,
    /// Penalty (losses) for a self-atari of more than one stone (not a nakade).
    prior_self_atari: u32 = 30,
    /// Bonus (wins) for matching a 3x3 playout pattern.
    prior_pattern: u32 = 10,
    /// Bonus (wins) for a move at graph distance 1 from the last move.
    prior_distance_1: u32 = 20,
    /// Bonus (wins) for a move at graph distance 2 from the last move.
    prior_distance_2: u32 = 12,
    /// Bonus (wins) for a move at graph distance 3 from the last move.
    prior_distance_3: u32 = 8,
    /// Penalty (losses) for a first- or second-line move in an empty area.
    prior_empty_low_line: u32 = 20,
    /// Bonus (wins) for a third-line move in an empty area.
    prior_empty_third_line: u32 = 10,
    /// Penalty (losses) for passing while much of the board is still open.
    prior_pass: u32 = 30,
    /// Heavy playouts: probability of capturing a chain the last move left in atari.
    playout_capture: f64 = 0.9,
    /// Heavy playouts: probability of saving own chains the last move put in atari.
    playout_escape: f64 = 0.9,
    /// Heavy playouts: probability of the 2-liberty tactics around the last move.
    playout_two_liberties: f64 = 0.8,
    /// Heavy playouts: probability of playing the vital point of a 3-point eye space.
    playout_nakade: f64 = 0.8,
    /// Heavy playouts: probability of answering with a 3x3 pattern around the last move.
    playout_pattern: f64 = 0.9,
    /// Heavy playouts: answer the last move by the learned 3x3 shape gammas (with
    /// `playout_pattern` as the probability of trying) instead of MoGo's shapes.
    playout_learned_shapes: bool = false,
    /// Heavy playouts: probability of refusing a random move that is a self-atari.
    playout_self_atari_reject: f64 = 0.9,
    /// Heavy playouts: largest self-atari chain allowed anyway (throw-ins and nakade).
    playout_self_atari_nakade: u32 = 2,
    /// Playouts stop after this many moves per board point (then they are scored).
    playout_length_factor: u32 = 3,
    /// Abalone: the player that chooses moves, 0 the MCTS, 1 the alpha-beta player.
    abalone_player: u32 = 1,
    /// Abalone: plies of the playout policy after the tree before the evaluation scores the
    /// position (0: the evaluation scores the leaf itself).
    abalone_playout_plies: u32 = 2,
    /// Abalone: probability that a playout move is an ejection when one is available (the
    /// other moves are uniformly random).
    abalone_playout_ejection: f64 = 0.9,
    /// Abalone: evaluation units per logistic unit when an evaluation becomes a win
    /// probability (the playout's winner is drawn with it); 0 or less: the sign of the
    /// evaluation names the winner.
    abalone_evaluation_scale: f64 = 500.0,
    /// Abalone: the RAVE equivalence the MCTS uses in place of `equiv_rave` (a tiny value
    /// switches RAVE off).
    abalone_equiv_rave: f64 = 3000.0,
    /// Abalone: the UCB exploration coefficient the MCTS uses in place of `explore`.
    abalone_explore: f64 = 0.0,
    /// Abalone: the visits a leaf needs before expansion, in place of `expand_visits`.
    abalone_expand_visits: u32 = 2,
    /// Abalone: even prior, visits at value 0.5 for every child.
    abalone_prior_even: u32 = 10,
    /// Abalone: prior visits at the win probability of the static evaluation after the move.
    abalone_prior_evaluation: u32 = 20,
    /// Abalone: bonus (wins) for a push that ejects a marble.
    abalone_prior_ejection: u32 = 40,
    /// Abalone: bonus (wins) for a push that keeps the pushed marbles on the board.
    abalone_prior_push: u32 = 10,
    /// Abalone: penalty (losses) per own marble a move newly leaves in danger of ejection.
    abalone_prior_danger: u32 = 30,
    /// Abalone: after the playout plies, at most this many plies of ejections only (each side
    /// ejects while it can), so that the evaluation scores a quiet position.
    abalone_playout_quiescence: u32 = 0,
    /// Margo playouts: at most this many moves per board point, then they are scored.
    margo_playout_length_factor: u32 = 2,
    /// Margo playouts: whether to use the heavy policy (captures, escapes, no self-atari, no
    /// own-eye filling); false plays uniformly random legal placements.
    margo_playout_heavy: bool = true,
    /// Margo heavy playouts: probability of capturing a group in atari when one exists.
    margo_playout_capture: f64 = 0.9,
    /// Margo heavy playouts: probability of saving an own group in atari when possible.
    margo_playout_escape: f64 = 0.7,
    /// Margo heavy playouts: probability of refusing a random move that is a self-atari
    /// (or fills an own eye-like hole) while other moves remain.
    margo_playout_self_atari_reject: f64 = 0.9,
    /// Margo prior: bonus (wins) for a move that captures.
    margo_prior_capture: u32 = 20,
    /// Margo prior: further bonus (wins) per enemy ball captured (at most four counted).
    margo_prior_capture_ball: u32 = 5,
    /// Margo prior: penalty (losses) for a move whose revealed captures remove own balls.
    margo_prior_own_loss: u32 = 30,
    /// Margo prior: bonus (wins) for saving an own group in atari (it ends with two freedoms
    /// or more).
    margo_prior_escape: u32 = 20,
    /// Margo prior: bonus (wins) for putting an enemy group in atari.
    margo_prior_atari: u32 = 8,
    /// Margo prior: penalty (losses) for a self-atari that captures nothing.
    margo_prior_self_atari: u32 = 25,
    /// Margo prior: penalty (losses) for filling an own eye-like hole.
    margo_prior_eye: u32 = 30,
    /// Margo prior: penalty (losses) for stacking in the opening (fewer balls on the board
    /// than `margo_opening_balls`).
    margo_prior_early_stack: u32 = 15,
    /// Margo prior: penalty (losses) for a stacked ball resting on enemy balls that are in
    /// danger (it would pin them: captured, they stay as zombies).
    margo_prior_stack_on_enemy: u32 = 10,
    /// Margo prior: bonus (wins) for a stacked ball that joins two or more own groups.
    margo_prior_connect: u32 = 10,
    /// Margo prior: bonus (wins) in the opening for the corner control points (the 3-3
    /// points; 2-2 on boards below 6x6).
    margo_prior_control_point: u32 = 15,
    /// Margo prior: bonus (wins) in the opening for the central holes.
    margo_prior_centre: u32 = 10,
    /// Margo prior: penalty (losses) in the opening for first-line holes.
    margo_prior_first_line: u32 = 20,
    /// Margo: balls on the board below which the opening priors apply.
    margo_opening_balls: u32 = 8,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_every_parameter_by_name() {
        let mut params = SearchParams::default();
        params.set("equiv_rave", "1234.5").unwrap();
        assert_eq!(params.equiv_rave, 1234.5);
        params.set("playout", "light").unwrap();
        assert_eq!(params.playout, PlayoutPolicy::Light);
        assert!(params.set("expand_visits", "-1").is_err());
        assert!(params.set("no_such_thing", "1").is_err());
        assert_eq!(SearchParams::names().len(), params.describe().len());
        for entry in SearchParams::default().describe() {
            let (name, value) = entry.split_once('=').unwrap();
            params.set(name, value).unwrap();
        }
        assert_eq!(params, SearchParams::default());
    }
}
