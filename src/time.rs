//! Time management as pure functions: time systems, one player's clock, charging a move to
//! it, and the thinking budget for the next move.
//!
//! Knows the time systems GTP clients send (no limit, absolute, Canadian overtime, Japanese
//! byo-yomi), what `time_settings`, `kgs-time_settings` and `time_left` mean for them, how a
//! move's elapsed time comes off a clock, how long a move may think given the board size and
//! the move number, and when a search may stop early or should think longer.
//!
//! Does not know colours (the engine keeps one [`Clock`] per colour), the wall clock (callers
//! measure elapsed time and pass it in, so nothing here depends on how fast the machine is),
//! threads, the search tree, Fischer increments, or the fixed `--playouts` / `--move-time`
//! modes, which the engine handles without a budget.
//!
//! How to use it: build a [`TimeSettings`] from `time_settings` or `kgs-time_settings`, start
//! each colour's clock with [`Clock::new`], replace it with [`Clock::from_time_left`] whenever
//! `time_left` arrives, otherwise [`charge`] the engine's own thinking time after each of its
//! moves, and ask [`budget`] before each search.

use std::fmt;
use std::time::Duration;

/// The default allowance for network and engine overhead per move (the engine's `--lag-ms`).
///
/// It is taken off every budget, and must cover the time between the controller's clock and
/// ours: transmission both ways plus the engine's own latency in stopping a search and
/// answering.
pub const DEFAULT_LAG: Duration = Duration::from_millis(200);

/// How far below zero a `time_left` time may be and still be read as zero, in seconds.
///
/// Some controllers report a slightly negative time while the flag is falling (KataGo accepts
/// down to −10 s too); anything lower is rejected.
pub const NEGATIVE_TIME_LEFT_TOLERANCE: f64 = 10.0;

/// The longest time accepted, in seconds (about 31 years); longer times are capped to it so
/// that arithmetic on durations can never overflow.
pub const MAXIMUM_SECONDS: f64 = 1.0e9;

/// Expected length of a game, in moves of both players, as a fraction of the board's points.
const EXPECTED_GAME_LENGTH_FRACTION: f64 = 0.7;

/// However many moves have been played, assume at least this fraction of the board's points
/// are still to be played (both players), so that a long game never runs the clock dry.
const MINIMUM_TAIL_FRACTION: f64 = 0.25;

/// However small the board, plan for at least this many more moves of our own.
const MINIMUM_OWN_MOVES_REMAINING: f64 = 4.0;

/// The weight of a move far from the peak (opening and endgame) in the move-time allocation.
const WEIGHT_BASE: f64 = 0.5;

/// How much the weight rises at its peak above [`WEIGHT_BASE`].
const WEIGHT_PEAK_HEIGHT: f64 = 1.0;

/// Where the weight peaks, as a fraction of the expected game length (early middle game).
const WEIGHT_PEAK_PROGRESS: f64 = 0.3;

/// The width of the weight's bell, as a fraction of the expected game length.
const WEIGHT_PEAK_WIDTH: f64 = 0.2;

/// Outside overtime, the hard limit is at most this multiple of the soft limit.
const HARD_MULTIPLE: f64 = 3.0;

/// The soft limit never plans to spend more than this fraction of the usable main time.
const SOFT_SHARE_CAP: f64 = 0.1;

/// The hard limit never spends more than this fraction of the usable main time.
const HARD_SHARE_CAP: f64 = 0.25;

/// With overtime to come, the main time is planned to last over this fraction of our
/// remaining moves; overtime then takes over for the endgame.
const MAIN_TIME_HORIZON_FRACTION: f64 = 0.5;

/// In overtime, the soft limit is this fraction of the time available to one move.
const OVERTIME_SOFT_FRACTION: f64 = 0.75;

/// In Canadian overtime, one stone's hard limit is at most this multiple of its even share of
/// the period (less with few stones left, so that the last stones keep some time).
const OVERTIME_HARD_MULTIPLE: f64 = 2.0;

/// [`extended_soft`] multiplies the soft limit by this much (never past the hard limit).
const EXTENSION_MULTIPLE: f64 = 2.0;

/// Why time settings or a `time_left` could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum TimeError {
    /// A time was not a number.
    NotANumber(String),
    /// A time was negative (for `time_left`: more than [`NEGATIVE_TIME_LEFT_TOLERANCE`]
    /// below zero).
    Negative(f64),
    /// A stone or period count was not a non-negative whole number.
    BadCount(String),
    /// `kgs-time_settings` named a system other than none, absolute, canadian or byoyomi.
    UnknownSystem(String),
    /// `kgs-time_settings` had the wrong number of arguments for its system.
    WrongArgumentCount {
        /// The system named.
        system: String,
        /// How many arguments the system takes after its name.
        expected: usize,
        /// How many were given after the name.
        found: usize,
    },
}

impl fmt::Display for TimeError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeError::NotANumber(text) => write!(formatter, "time is not a number: {text}"),
            TimeError::Negative(value) => write!(formatter, "time is negative: {value}"),
            TimeError::BadCount(text) => write!(formatter, "bad stone or period count: {text}"),
            TimeError::UnknownSystem(name) => write!(formatter, "unknown time system: {name}"),
            TimeError::WrongArgumentCount {
                system,
                expected,
                found,
            } => write!(
                formatter,
                "time system {system} takes {expected} arguments, got {found}"
            ),
        }
    }
}

impl std::error::Error for TimeError {}

/// A time system, as agreed for the whole game. Both players have the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeSettings {
    /// No time limit: [`budget`] returns `None`.
    #[default]
    Unlimited,
    /// Main time only: the game is lost when it runs out.
    Absolute {
        /// The main time for the whole game.
        main: Duration,
    },
    /// Main time, then Canadian overtime: `stones` stones to play in each `period`; the period
    /// starts afresh once they are played, and the game is lost if it runs out first.
    Canadian {
        /// The main time.
        main: Duration,
        /// The length of one overtime period.
        period: Duration,
        /// The stones to play in each period (at least 1).
        stones: u32,
    },
    /// Main time, then Japanese byo-yomi: `periods` periods of `period` each. A move played
    /// within the current period keeps it; overrunning it loses it, and losing the last one
    /// loses the game.
    Byoyomi {
        /// The main time.
        main: Duration,
        /// The length of one period.
        period: Duration,
        /// The number of periods (at least 1).
        periods: u32,
    },
}

impl TimeSettings {
    /// Reads GTP `time_settings main_time byo_yomi_time byo_yomi_stones` (seconds may be
    /// fractional): Canadian overtime, where `byo_yomi_time > 0` with `byo_yomi_stones = 0`
    /// means no time limit and `byo_yomi_time = 0` means absolute time.
    ///
    /// # Errors
    /// [`TimeError::NotANumber`] or [`TimeError::Negative`] for a NaN or negative time.
    pub fn from_time_settings(
        main_time: f64,
        byo_yomi_time: f64,
        byo_yomi_stones: u32,
    ) -> Result<TimeSettings, TimeError> {
        let main = settings_seconds(main_time)?;
        let period = settings_seconds(byo_yomi_time)?;
        Ok(if period.is_zero() {
            TimeSettings::Absolute { main }
        } else if byo_yomi_stones == 0 {
            TimeSettings::Unlimited
        } else {
            TimeSettings::Canadian {
                main,
                period,
                stones: byo_yomi_stones,
            }
        })
    }

    /// Reads `kgs-time_settings byoyomi main period_time periods`: Japanese byo-yomi, or
    /// absolute time when `period_time` or `periods` is zero.
    ///
    /// # Errors
    /// [`TimeError::NotANumber`] or [`TimeError::Negative`] for a NaN or negative time.
    pub fn byoyomi(
        main_time: f64,
        period_time: f64,
        periods: u32,
    ) -> Result<TimeSettings, TimeError> {
        let main = settings_seconds(main_time)?;
        let period = settings_seconds(period_time)?;
        Ok(if period.is_zero() || periods == 0 {
            TimeSettings::Absolute { main }
        } else {
            TimeSettings::Byoyomi {
                main,
                period,
                periods,
            }
        })
    }

    /// Reads `kgs-time_settings absolute main`.
    ///
    /// # Errors
    /// [`TimeError::NotANumber`] or [`TimeError::Negative`] for a NaN or negative time.
    pub fn absolute(main_time: f64) -> Result<TimeSettings, TimeError> {
        Ok(TimeSettings::Absolute {
            main: settings_seconds(main_time)?,
        })
    }

    /// Reads the arguments of `kgs-time_settings`: `none`, `absolute M`, `canadian M P S` or
    /// `byoyomi M P N`, the system name in any case. Canadian means the same as
    /// [`TimeSettings::from_time_settings`]; byo-yomi as [`TimeSettings::byoyomi`].
    ///
    /// # Errors
    /// [`TimeError::UnknownSystem`] (also for no arguments), [`TimeError::WrongArgumentCount`],
    /// or the errors of the numbers: [`TimeError::NotANumber`], [`TimeError::Negative`],
    /// [`TimeError::BadCount`].
    pub fn from_kgs_arguments(arguments: &[&str]) -> Result<TimeSettings, TimeError> {
        let Some((system, numbers)) = arguments.split_first() else {
            return Err(TimeError::UnknownSystem(String::new()));
        };
        let system = system.to_ascii_lowercase();
        let expected = match system.as_str() {
            "none" => 0,
            "absolute" => 1,
            "canadian" | "byoyomi" => 3,
            _ => return Err(TimeError::UnknownSystem(system)),
        };
        if numbers.len() != expected {
            return Err(TimeError::WrongArgumentCount {
                system,
                expected,
                found: numbers.len(),
            });
        }
        match system.as_str() {
            "none" => Ok(TimeSettings::Unlimited),
            "absolute" => TimeSettings::absolute(parse_seconds(numbers[0])?),
            "canadian" => TimeSettings::from_time_settings(
                parse_seconds(numbers[0])?,
                parse_seconds(numbers[1])?,
                parse_count(numbers[2])?,
            ),
            _ => TimeSettings::byoyomi(
                parse_seconds(numbers[0])?,
                parse_seconds(numbers[1])?,
                parse_count(numbers[2])?,
            ),
        }
    }

    /// Whether there is no time limit.
    #[must_use]
    pub fn is_unlimited(&self) -> bool {
        matches!(self, TimeSettings::Unlimited)
    }
}

impl fmt::Display for TimeSettings {
    /// A short description for logs, such as `byo-yomi 600s + 5 x 30s`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeSettings::Unlimited => write!(formatter, "no time limit"),
            TimeSettings::Absolute { main } => {
                write!(formatter, "absolute {}s", main.as_secs_f64())
            }
            TimeSettings::Canadian {
                main,
                period,
                stones,
            } => write!(
                formatter,
                "canadian {}s + {}s per {} stones",
                main.as_secs_f64(),
                period.as_secs_f64(),
                stones
            ),
            TimeSettings::Byoyomi {
                main,
                period,
                periods,
            } => write!(
                formatter,
                "byo-yomi {}s + {} x {}s",
                main.as_secs_f64(),
                periods,
                period.as_secs_f64()
            ),
        }
    }
}

/// One player's clock. Which fields matter depends on the [`TimeSettings`] it goes with.
///
/// The player is in overtime when the settings have overtime and `main_time_left` is zero.
/// While still in main time, the overtime fields hold a fresh period.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Main time left.
    pub main_time_left: Duration,
    /// Canadian and byo-yomi: time left in the current overtime period.
    pub period_time_left: Duration,
    /// Canadian only: stones still to play in the current period (0 for other systems).
    pub stones_left_in_period: u32,
    /// Byo-yomi only: periods left, the current one included (0 for other systems).
    pub periods_left: u32,
}

impl Clock {
    /// A full clock at the start of a game under `settings` (all zero when unlimited).
    #[must_use]
    pub fn new(settings: &TimeSettings) -> Clock {
        match *settings {
            TimeSettings::Unlimited => Clock::default(),
            TimeSettings::Absolute { main } => Clock {
                main_time_left: main,
                ..Clock::default()
            },
            TimeSettings::Canadian {
                main,
                period,
                stones,
            } => Clock {
                main_time_left: main,
                period_time_left: period,
                stones_left_in_period: stones,
                periods_left: 0,
            },
            TimeSettings::Byoyomi {
                main,
                period,
                periods,
            } => Clock {
                main_time_left: main,
                period_time_left: period,
                stones_left_in_period: 0,
                periods_left: periods,
            },
        }
    }

    /// The clock that GTP `time_left color time stones` reports under `settings`.
    ///
    /// `stones = 0` means the player is in main time and `time` is the main time left. Otherwise
    /// the player is in overtime and `time` is the time left in the current period; `stones`
    /// is the number of stones left to play in it (Canadian), or, as kgsGtp sends it for
    /// byo-yomi, the number of periods left. Absolute time ignores `stones`; no time limit
    /// ignores everything but still checks the number. A time slightly below zero (down to
    /// −[`NEGATIVE_TIME_LEFT_TOLERANCE`] seconds) reads as zero.
    ///
    /// # Errors
    /// [`TimeError::NotANumber`] for NaN, [`TimeError::Negative`] for a time further below zero.
    pub fn from_time_left(
        settings: &TimeSettings,
        time: f64,
        stones: u32,
    ) -> Result<Clock, TimeError> {
        let time = time_left_seconds(time)?;
        let fresh = Clock::new(settings);
        Ok(match *settings {
            TimeSettings::Unlimited => fresh,
            TimeSettings::Absolute { .. } => Clock {
                main_time_left: time,
                ..fresh
            },
            _ if stones == 0 => Clock {
                main_time_left: time,
                ..fresh
            },
            TimeSettings::Canadian { .. } => Clock {
                main_time_left: Duration::ZERO,
                period_time_left: time,
                stones_left_in_period: stones,
                periods_left: 0,
            },
            TimeSettings::Byoyomi { .. } => Clock {
                main_time_left: Duration::ZERO,
                period_time_left: time,
                stones_left_in_period: 0,
                periods_left: stones,
            },
        })
    }

    /// Whether the player is in overtime (Canadian or byo-yomi, main time used up).
    #[must_use]
    pub fn in_overtime(&self, settings: &TimeSettings) -> bool {
        matches!(
            settings,
            TimeSettings::Canadian { .. } | TimeSettings::Byoyomi { .. }
        ) && self.main_time_left.is_zero()
    }

    /// Whether the player has lost on time (or has no time left for another move): absolute
    /// main time gone, a Canadian period empty, or every byo-yomi period lost.
    #[must_use]
    pub fn has_run_out(&self, settings: &TimeSettings) -> bool {
        if !self.main_time_left.is_zero() {
            return false;
        }
        match settings {
            TimeSettings::Unlimited => false,
            TimeSettings::Absolute { .. } => true,
            TimeSettings::Canadian { .. } => self.period_time_left.is_zero(),
            TimeSettings::Byoyomi { .. } => self.periods_left == 0,
        }
    }
}

/// The clock after a move that took `elapsed`, for when no `time_left` arrives.
///
/// Main time is spent first; what is left over goes to overtime. In Canadian overtime the move
/// counts as one of the period's stones (also the move during which main time ran out), and the
/// period starts afresh once its stones are played; overrunning the period empties it
/// ([`Clock::has_run_out`]). In byo-yomi a move within the current period leaves a full period;
/// an overrun loses that period and, if the overrun is longer still, each further period it
/// spans. Reaching exactly zero is still in time. No time limit leaves the clock unchanged.
#[must_use]
pub fn charge(clock: Clock, settings: &TimeSettings, elapsed: Duration) -> Clock {
    let mut clock = clock;
    match *settings {
        TimeSettings::Unlimited => {}
        TimeSettings::Absolute { .. } => {
            clock.main_time_left = clock.main_time_left.saturating_sub(elapsed);
        }
        TimeSettings::Canadian { period, stones, .. } => {
            let Some(overtime) = spend_main_time(&mut clock, elapsed) else {
                return clock;
            };
            if clock.stones_left_in_period == 0 {
                clock.stones_left_in_period = stones.max(1);
                clock.period_time_left = period;
            }
            if overtime > clock.period_time_left {
                clock.period_time_left = Duration::ZERO;
                return clock;
            }
            clock.period_time_left -= overtime;
            clock.stones_left_in_period -= 1;
            if clock.stones_left_in_period == 0 {
                clock.stones_left_in_period = stones.max(1);
                clock.period_time_left = period;
            }
        }
        TimeSettings::Byoyomi { period, .. } => {
            let Some(overtime) = spend_main_time(&mut clock, elapsed) else {
                return clock;
            };
            if clock.periods_left == 0 {
                return clock;
            }
            if overtime > clock.period_time_left {
                let beyond_current = (overtime - clock.period_time_left).as_nanos();
                let further_periods_spanned = if period.is_zero() {
                    u128::from(u32::MAX)
                } else {
                    (beyond_current - 1) / period.as_nanos()
                };
                let lost = further_periods_spanned.saturating_add(1);
                let lost = u32::try_from(lost).unwrap_or(u32::MAX);
                clock.periods_left = clock.periods_left.saturating_sub(lost);
            }
            clock.period_time_left = if clock.periods_left == 0 {
                Duration::ZERO
            } else {
                period
            };
        }
    }
    clock
}

/// Takes `elapsed` off the main time. Returns `None` when the move ended within main time,
/// otherwise the part of `elapsed` that was played in overtime (main time is then zero).
fn spend_main_time(clock: &mut Clock, elapsed: Duration) -> Option<Duration> {
    if !clock.main_time_left.is_zero() && elapsed <= clock.main_time_left {
        clock.main_time_left -= elapsed;
        return None;
    }
    let overtime = elapsed.saturating_sub(clock.main_time_left);
    clock.main_time_left = Duration::ZERO;
    Some(overtime)
}

/// How long one move may think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// When to stop normally (earlier if [`can_stop_early`] says so).
    pub soft: Duration,
    /// When to stop whatever happens; never later than the time left minus the lag.
    pub hard: Duration,
}

impl Budget {
    /// No time at all: play at once (the engine should still answer with its quickest move).
    pub const ZERO: Budget = Budget {
        soft: Duration::ZERO,
        hard: Duration::ZERO,
    };
}

/// The thinking budget for the next move of the player whose clock this is, or `None` when
/// there is no time limit.
///
/// `board_points` is the number of points on the board (81 for 9x9), `moves_played` the moves
/// of both players so far, and `lag` the allowance for network and engine overhead per move
/// ([`DEFAULT_LAG`] unless configured), taken off every time.
///
/// Guarantees: `soft <= hard`; `hard` is at most the time this move can use without losing
/// (main time plus the current period) minus `lag` — in byo-yomi at most one period minus
/// `lag`, never burning a period; in Canadian overtime at most the period left minus `lag`
/// for each stone still to play. Absolute time keeps a reserve of `lag` for every move still
/// expected plus as many again for a long endgame, and never spends more than a quarter of
/// what is left on one move: a game twice the expected length does not lose on time even when
/// every fourth move thinks to the hard limit (see the tests). More time left never gives a
/// smaller budget.
///
/// Allocation: the expected number of moves still to play comes from the board size and the
/// moves played ([`expected_own_moves_remaining`]), weighted by [`move_weight`] so that the
/// early middle game gets the most. With overtime to come, the main time is planned to last
/// over the first half of the remaining moves: each of them gets what a move in overtime
/// would, and the main time beyond that is shared out by weight (so a generous overtime
/// simply uses main time at the overtime rate). In overtime each move gets a share of the
/// period.
/// A clock that has run out gives [`Budget::ZERO`].
#[must_use]
pub fn budget(
    settings: &TimeSettings,
    clock: &Clock,
    board_points: usize,
    moves_played: usize,
    lag: Duration,
) -> Option<Budget> {
    if settings.is_unlimited() {
        return None;
    }
    if clock.has_run_out(settings) {
        return Some(Budget::ZERO);
    }
    let own_moves = expected_own_moves_remaining(board_points, moves_played);
    let weight = move_weight(board_points, moves_played);
    let main_usable = clock.main_time_left.saturating_sub(lag);
    let main_seconds = main_usable.as_secs_f64();

    let Some(overtime) = overtime_budget(settings, clock, lag) else {
        // Absolute time: keep a lag for every move still expected, and for a long tail.
        let tail_own_moves = board_points as f64 * MINIMUM_TAIL_FRACTION / 2.0;
        let reserve = (own_moves + tail_own_moves) * lag.as_secs_f64();
        let planned = (main_seconds - reserve).max(0.0);
        let soft = (planned / own_moves * weight).min(main_seconds * SOFT_SHARE_CAP);
        let hard = soft.max((soft * HARD_MULTIPLE).min(main_seconds * HARD_SHARE_CAP));
        return Some(clamped_budget(soft, hard, main_usable));
    };
    if clock.main_time_left.is_zero() {
        return Some(overtime);
    }
    // Main time with overtime to come.
    let horizon = (own_moves * MAIN_TIME_HORIZON_FRACTION).max(1.0);
    let overtime_soft = overtime.soft.as_secs_f64();
    let overtime_hard = overtime.hard.as_secs_f64();
    // Every move until the horizon gets what it would in overtime; the rest is weighted.
    let spare = (main_seconds - horizon * overtime_soft).max(0.0);
    let extra = (spare / horizon * weight).min(main_seconds * SOFT_SHARE_CAP);
    let soft = overtime_soft + extra;
    let hard = soft.max((soft * HARD_MULTIPLE).min(main_seconds * HARD_SHARE_CAP + overtime_hard));
    let in_main_time = clamped_budget(soft, hard, move_allowance(settings, clock, lag));
    // Never less than the same move would get in overtime, exactly (no rounding).
    let hard = in_main_time.hard.max(overtime.hard);
    let soft = in_main_time.soft.max(overtime.soft).min(hard);
    Some(Budget { soft, hard })
}

/// The budget of one move played wholly in overtime with the clock's current period, or `None`
/// for systems without overtime.
fn overtime_budget(settings: &TimeSettings, clock: &Clock, lag: Duration) -> Option<Budget> {
    match *settings {
        TimeSettings::Unlimited | TimeSettings::Absolute { .. } => None,
        TimeSettings::Canadian { .. } => {
            let stones = clock.stones_left_in_period.max(1);
            let usable = clock
                .period_time_left
                .saturating_sub(lag.saturating_mul(stones));
            let share = usable.as_secs_f64() / f64::from(stones);
            let soft = share * OVERTIME_SOFT_FRACTION;
            // With n stones left, (n + 1) / 2 shares leave the others half a share each.
            let multiple = OVERTIME_HARD_MULTIPLE.min((f64::from(stones) + 1.0) / 2.0);
            let hard = share * multiple;
            Some(clamped_budget(soft, hard, usable))
        }
        TimeSettings::Byoyomi { .. } => {
            let usable = clock.period_time_left.saturating_sub(lag);
            let soft = usable.as_secs_f64() * OVERTIME_SOFT_FRACTION;
            Some(clamped_budget(soft, usable.as_secs_f64(), usable))
        }
    }
}

/// The most the next move may take, overtime included, without losing on time or a byo-yomi
/// period, once the lag of this move and of the Canadian stones still due in the period are
/// taken off.
fn move_allowance(settings: &TimeSettings, clock: &Clock, lag: Duration) -> Duration {
    let total = clock.main_time_left.saturating_add(clock.period_time_left);
    match *settings {
        TimeSettings::Unlimited => Duration::MAX,
        TimeSettings::Absolute { .. } => clock.main_time_left.saturating_sub(lag),
        TimeSettings::Canadian { .. } => {
            total.saturating_sub(lag.saturating_mul(clock.stones_left_in_period.max(1)))
        }
        TimeSettings::Byoyomi { .. } => total.saturating_sub(lag),
    }
}

/// A budget from seconds, with `hard` at most `allowance` and `soft` at most `hard`.
fn clamped_budget(soft: f64, hard: f64, allowance: Duration) -> Budget {
    let hard = duration_from_seconds(hard).min(allowance);
    let soft = duration_from_seconds(soft).min(hard);
    Budget { soft, hard }
}

/// The number of moves of our own still to play, as the allocation assumes: the rest of an
/// expected game of 0.7 × `board_points` moves (both players), but never less than the moves
/// of 0.25 × `board_points` more, and never less than 4.
#[must_use]
pub fn expected_own_moves_remaining(board_points: usize, moves_played: usize) -> f64 {
    let points = board_points as f64;
    let expected_length = points * EXPECTED_GAME_LENGTH_FRACTION;
    let remaining = (expected_length - moves_played as f64).max(points * MINIMUM_TAIL_FRACTION);
    (remaining / 2.0).max(MINIMUM_OWN_MOVES_REMAINING)
}

/// How much thinking a move deserves relative to an average one: a bell over the progress of
/// the game (moves played over the expected game length), about 0.6 on the first move, 1.5 at
/// the peak in the early middle game (30% of the way), and 0.5 in the endgame.
#[must_use]
pub fn move_weight(board_points: usize, moves_played: usize) -> f64 {
    let expected_length = (board_points as f64 * EXPECTED_GAME_LENGTH_FRACTION).max(1.0);
    let progress = moves_played as f64 / expected_length;
    let distance = (progress - WEIGHT_PEAK_PROGRESS) / WEIGHT_PEAK_WIDTH;
    WEIGHT_BASE + WEIGHT_PEAK_HEIGHT * (-distance * distance).exp()
}

/// The soft limit to use when the search is unsure, typically because the most-visited move is
/// not the one with the best value: twice the soft limit, never past the hard limit.
#[must_use]
pub fn extended_soft(budget: Budget) -> Duration {
    let extended = duration_from_seconds(budget.soft.as_secs_f64() * EXTENSION_MULTIPLE);
    extended.max(budget.soft).min(budget.hard)
}

/// Whether the search can stop now because the runner-up cannot catch up: even if every
/// playout still expected before `soft` went to the second-most-visited root move, it would
/// not pass the most-visited one.
///
/// The playouts still expected are `playouts_per_second` (measured in this search) times the
/// time from `elapsed` to `soft`. Always true once `elapsed >= soft`; false when the rate is
/// unknown (zero, negative or not finite) and time remains. Pass the extended soft limit
/// ([`extended_soft`]) when thinking longer.
#[must_use]
pub fn can_stop_early(
    best_visits: u64,
    second_visits: u64,
    elapsed: Duration,
    soft: Duration,
    playouts_per_second: f64,
) -> bool {
    if elapsed >= soft {
        return true;
    }
    if !(playouts_per_second.is_finite() && playouts_per_second > 0.0) {
        return false;
    }
    let remaining_playouts = (soft - elapsed).as_secs_f64() * playouts_per_second;
    best_visits.saturating_sub(second_visits) as f64 >= remaining_playouts
}

/// The playout rate of a search so far, in playouts per second; zero when no time has elapsed.
#[must_use]
pub fn playouts_per_second(playouts: u64, elapsed: Duration) -> f64 {
    let seconds = elapsed.as_secs_f64();
    if seconds > 0.0 {
        playouts as f64 / seconds
    } else {
        0.0
    }
}

/// A time from time settings: not NaN, not negative, capped at [`MAXIMUM_SECONDS`].
fn settings_seconds(seconds: f64) -> Result<Duration, TimeError> {
    if seconds.is_nan() {
        return Err(TimeError::NotANumber(seconds.to_string()));
    }
    if seconds < 0.0 {
        return Err(TimeError::Negative(seconds));
    }
    Ok(duration_from_seconds(seconds))
}

/// A time from `time_left`: like [`settings_seconds`], but slightly negative reads as zero.
fn time_left_seconds(seconds: f64) -> Result<Duration, TimeError> {
    if seconds.is_nan() {
        return Err(TimeError::NotANumber(seconds.to_string()));
    }
    if seconds < -NEGATIVE_TIME_LEFT_TOLERANCE {
        return Err(TimeError::Negative(seconds));
    }
    Ok(duration_from_seconds(seconds))
}

/// Seconds to a duration, negative and NaN as zero, large values capped at [`MAXIMUM_SECONDS`].
fn duration_from_seconds(seconds: f64) -> Duration {
    if seconds.is_nan() || seconds <= 0.0 {
        Duration::ZERO
    } else {
        Duration::from_secs_f64(seconds.min(MAXIMUM_SECONDS))
    }
}

/// Reads a time in seconds from text.
fn parse_seconds(text: &str) -> Result<f64, TimeError> {
    text.parse::<f64>()
        .map_err(|_| TimeError::NotANumber(text.to_string()))
}

/// Reads a stone or period count from text: a non-negative whole number, `5` or `5.0`.
fn parse_count(text: &str) -> Result<u32, TimeError> {
    if let Ok(count) = text.parse::<u32>() {
        return Ok(count);
    }
    match text.parse::<f64>() {
        Ok(value) if value >= 0.0 && value.fract() == 0.0 && value <= f64::from(u32::MAX) => {
            Ok(value as u32)
        }
        _ => Err(TimeError::BadCount(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seconds(value: f64) -> Duration {
        Duration::from_secs_f64(value)
    }

    fn close(actual: Duration, expected: f64) -> bool {
        (actual.as_secs_f64() - expected).abs() < 1e-6
    }

    const BOARDS: [usize; 5] = [25, 49, 81, 169, 361];
    const MOVES: [usize; 9] = [0, 5, 20, 40, 80, 150, 250, 400, 1000];
    const LAGS: [f64; 4] = [0.0, 0.05, 0.2, 1.0];
    const MAIN_TIMES: [f64; 14] = [
        0.0, 0.05, 0.1, 0.2, 0.21, 0.5, 1.0, 3.0, 10.0, 30.0, 60.0, 300.0, 1800.0, 36000.0,
    ];
    const PERIOD_TIMES: [f64; 8] = [0.1, 0.2, 0.25, 1.0, 5.0, 30.0, 60.0, 300.0];

    /// Every time system with a limit, over a spread of parameters.
    fn limited_settings() -> Vec<TimeSettings> {
        let mut all = Vec::new();
        for &main in &MAIN_TIMES {
            all.push(TimeSettings::Absolute {
                main: seconds(main),
            });
            for &period in &PERIOD_TIMES {
                for stones in [1, 2, 5, 25] {
                    all.push(TimeSettings::Canadian {
                        main: seconds(main),
                        period: seconds(period),
                        stones,
                    });
                }
                for periods in [1, 3, 5] {
                    all.push(TimeSettings::Byoyomi {
                        main: seconds(main),
                        period: seconds(period),
                        periods,
                    });
                }
            }
        }
        all
    }

    /// Clocks a player can have under `settings`: in main time and in overtime.
    fn clock_states(settings: &TimeSettings) -> Vec<Clock> {
        let fresh = Clock::new(settings);
        let mut clocks: Vec<Clock> = MAIN_TIMES
            .iter()
            .map(|&main| Clock {
                main_time_left: seconds(main),
                ..fresh
            })
            .collect();
        match *settings {
            TimeSettings::Canadian { period, stones, .. } => {
                for fraction in [0.0, 0.01, 0.3, 0.9, 1.0] {
                    for stones_left in [1, stones / 2 + 1, stones] {
                        clocks.push(Clock {
                            main_time_left: Duration::ZERO,
                            period_time_left: period.mul_f64(fraction),
                            stones_left_in_period: stones_left,
                            periods_left: 0,
                        });
                    }
                }
            }
            TimeSettings::Byoyomi {
                period, periods, ..
            } => {
                for fraction in [0.0, 0.01, 0.3, 0.9, 1.0] {
                    for periods_left in [0, 1, periods] {
                        clocks.push(Clock {
                            main_time_left: Duration::ZERO,
                            period_time_left: period.mul_f64(fraction),
                            stones_left_in_period: 0,
                            periods_left,
                        });
                    }
                }
            }
            _ => {}
        }
        clocks
    }

    /// The most the next move may take without losing on time (or a byo-yomi period), minus
    /// the lag of every move that must still be sent in that time. Written independently of
    /// the code under test.
    fn most_the_move_may_use(settings: &TimeSettings, clock: &Clock, lag: Duration) -> Duration {
        match *settings {
            TimeSettings::Unlimited => Duration::MAX,
            TimeSettings::Absolute { .. } => clock.main_time_left.saturating_sub(lag),
            TimeSettings::Canadian { .. } => {
                let stones = clock.stones_left_in_period.max(1);
                (clock.main_time_left + clock.period_time_left).saturating_sub(lag * stones)
            }
            TimeSettings::Byoyomi { .. } => {
                if clock.periods_left == 0 && clock.main_time_left.is_zero() {
                    Duration::ZERO
                } else {
                    (clock.main_time_left + clock.period_time_left).saturating_sub(lag)
                }
            }
        }
    }

    // ---- Reading time settings ----

    #[test]
    fn time_settings_zero_one_zero_means_no_limit() {
        let settings = TimeSettings::from_time_settings(0.0, 1.0, 0).unwrap();
        assert_eq!(settings, TimeSettings::Unlimited);
        assert!(settings.is_unlimited());
        let clock = Clock::new(&settings);
        assert_eq!(budget(&settings, &clock, 361, 0, DEFAULT_LAG), None);
        assert_eq!(budget(&settings, &clock, 81, 50, Duration::ZERO), None);
        assert!(!clock.has_run_out(&settings));
    }

    #[test]
    fn time_settings_with_zero_byo_yomi_time_is_absolute() {
        let settings = TimeSettings::from_time_settings(300.0, 0.0, 0).unwrap();
        assert_eq!(
            settings,
            TimeSettings::Absolute {
                main: seconds(300.0)
            }
        );
        // byo_yomi_stones does not matter once byo_yomi_time is zero.
        assert_eq!(
            TimeSettings::from_time_settings(300.0, 0.0, 5).unwrap(),
            settings
        );
        // Even with no main time at all: the clock has already run out.
        let nothing = TimeSettings::from_time_settings(0.0, 0.0, 0).unwrap();
        assert_eq!(
            nothing,
            TimeSettings::Absolute {
                main: Duration::ZERO
            }
        );
        let clock = Clock::new(&nothing);
        assert!(clock.has_run_out(&nothing));
        assert_eq!(
            budget(&nothing, &clock, 81, 0, DEFAULT_LAG),
            Some(Budget::ZERO)
        );
    }

    #[test]
    fn time_settings_with_stones_is_canadian_and_accepts_fractions() {
        let settings = TimeSettings::from_time_settings(10.0, 1.0, 1).unwrap();
        assert_eq!(
            settings,
            TimeSettings::Canadian {
                main: seconds(10.0),
                period: seconds(1.0),
                stones: 1
            }
        );
        let fractional = TimeSettings::from_time_settings(90.5, 0.25, 3).unwrap();
        assert_eq!(
            fractional,
            TimeSettings::Canadian {
                main: seconds(90.5),
                period: seconds(0.25),
                stones: 3
            }
        );
    }

    #[test]
    fn time_settings_rejects_negative_and_nan_and_caps_huge() {
        assert_eq!(
            TimeSettings::from_time_settings(-1.0, 0.0, 0),
            Err(TimeError::Negative(-1.0))
        );
        assert!(matches!(
            TimeSettings::from_time_settings(10.0, f64::NAN, 1),
            Err(TimeError::NotANumber(_))
        ));
        assert!(TimeSettings::absolute(-0.5).is_err());
        let huge = TimeSettings::absolute(f64::INFINITY).unwrap();
        assert_eq!(
            huge,
            TimeSettings::Absolute {
                main: seconds(MAXIMUM_SECONDS)
            }
        );
        let budget = budget(&huge, &Clock::new(&huge), 361, 0, DEFAULT_LAG).unwrap();
        assert!(budget.soft <= budget.hard);
    }

    #[test]
    fn kgs_time_settings_every_system() {
        assert_eq!(
            TimeSettings::from_kgs_arguments(&["none"]),
            Ok(TimeSettings::Unlimited)
        );
        assert_eq!(
            TimeSettings::from_kgs_arguments(&["absolute", "600"]),
            Ok(TimeSettings::Absolute {
                main: seconds(600.0)
            })
        );
        assert_eq!(
            TimeSettings::from_kgs_arguments(&["canadian", "600", "300", "25"]),
            Ok(TimeSettings::Canadian {
                main: seconds(600.0),
                period: seconds(300.0),
                stones: 25
            })
        );
        assert_eq!(
            TimeSettings::from_kgs_arguments(&["ByoYomi", "1800", "30.5", "5.0"]),
            Ok(TimeSettings::Byoyomi {
                main: seconds(1800.0),
                period: seconds(30.5),
                periods: 5
            })
        );
        // Byo-yomi without periods, or with empty periods, is absolute time.
        assert_eq!(
            TimeSettings::from_kgs_arguments(&["byoyomi", "600", "30", "0"]),
            Ok(TimeSettings::Absolute {
                main: seconds(600.0)
            })
        );
        assert_eq!(
            TimeSettings::byoyomi(600.0, 0.0, 5),
            Ok(TimeSettings::Absolute {
                main: seconds(600.0)
            })
        );
        // Canadian reads like time_settings.
        assert_eq!(
            TimeSettings::from_kgs_arguments(&["canadian", "0", "1", "0"]),
            Ok(TimeSettings::Unlimited)
        );
    }

    #[test]
    fn kgs_time_settings_errors() {
        assert_eq!(
            TimeSettings::from_kgs_arguments(&[]),
            Err(TimeError::UnknownSystem(String::new()))
        );
        assert_eq!(
            TimeSettings::from_kgs_arguments(&["fischer", "600", "10"]),
            Err(TimeError::UnknownSystem("fischer".to_string()))
        );
        assert_eq!(
            TimeSettings::from_kgs_arguments(&["byoyomi", "600", "30"]),
            Err(TimeError::WrongArgumentCount {
                system: "byoyomi".to_string(),
                expected: 3,
                found: 2
            })
        );
        assert!(TimeSettings::from_kgs_arguments(&["none", "5"]).is_err());
        assert!(matches!(
            TimeSettings::from_kgs_arguments(&["absolute", "ten"]),
            Err(TimeError::NotANumber(_))
        ));
        assert!(matches!(
            TimeSettings::from_kgs_arguments(&["canadian", "600", "300", "-1"]),
            Err(TimeError::BadCount(_))
        ));
        assert!(matches!(
            TimeSettings::from_kgs_arguments(&["byoyomi", "600", "30", "2.5"]),
            Err(TimeError::BadCount(_))
        ));
        assert!(matches!(
            TimeSettings::from_kgs_arguments(&["byoyomi", "600", "-30", "5"]),
            Err(TimeError::Negative(_))
        ));
        // Errors print something readable.
        assert!(!TimeError::BadCount("x".to_string()).to_string().is_empty());
    }

    #[test]
    fn settings_display_for_logs() {
        let byoyomi = TimeSettings::byoyomi(600.0, 30.0, 5).unwrap();
        assert_eq!(byoyomi.to_string(), "byo-yomi 600s + 5 x 30s");
        assert_eq!(TimeSettings::Unlimited.to_string(), "no time limit");
        assert_eq!(
            TimeSettings::absolute(60.0).unwrap().to_string(),
            "absolute 60s"
        );
        assert_eq!(
            TimeSettings::from_time_settings(600.0, 300.0, 25)
                .unwrap()
                .to_string(),
            "canadian 600s + 300s per 25 stones"
        );
    }

    // ---- Clocks and time_left ----

    #[test]
    fn fresh_clocks() {
        let canadian = TimeSettings::from_time_settings(600.0, 300.0, 25).unwrap();
        let clock = Clock::new(&canadian);
        assert_eq!(clock.main_time_left, seconds(600.0));
        assert_eq!(clock.period_time_left, seconds(300.0));
        assert_eq!(clock.stones_left_in_period, 25);
        assert!(!clock.in_overtime(&canadian));

        let byoyomi = TimeSettings::byoyomi(0.0, 30.0, 5).unwrap();
        let clock = Clock::new(&byoyomi);
        assert!(
            clock.in_overtime(&byoyomi),
            "no main time: straight into byo-yomi"
        );
        assert_eq!(clock.periods_left, 5);
        assert!(!clock.has_run_out(&byoyomi));

        let absolute = TimeSettings::absolute(60.0).unwrap();
        assert!(!Clock::new(&absolute).in_overtime(&absolute));
        assert_eq!(Clock::new(&TimeSettings::Unlimited), Clock::default());
    }

    #[test]
    fn time_left_in_canadian_main_time_and_overtime() {
        let settings = TimeSettings::from_time_settings(600.0, 300.0, 25).unwrap();
        let clock = Clock::from_time_left(&settings, 550.5, 0).unwrap();
        assert_eq!(clock.main_time_left, seconds(550.5));
        assert_eq!(clock.period_time_left, seconds(300.0));
        assert_eq!(clock.stones_left_in_period, 25);
        assert!(!clock.in_overtime(&settings));

        let clock = Clock::from_time_left(&settings, 120.0, 7).unwrap();
        assert_eq!(clock.main_time_left, Duration::ZERO);
        assert_eq!(clock.period_time_left, seconds(120.0));
        assert_eq!(clock.stones_left_in_period, 7);
        assert!(clock.in_overtime(&settings));

        // Main time just reported as used up: a fresh period follows.
        let clock = Clock::from_time_left(&settings, 0.0, 0).unwrap();
        assert!(clock.in_overtime(&settings));
        assert_eq!(clock.period_time_left, seconds(300.0));
        assert!(!clock.has_run_out(&settings));
    }

    #[test]
    fn time_left_in_byo_yomi_counts_periods() {
        let settings = TimeSettings::byoyomi(600.0, 30.0, 5).unwrap();
        let clock = Clock::from_time_left(&settings, 400.0, 0).unwrap();
        assert_eq!(clock.main_time_left, seconds(400.0));
        assert_eq!(clock.periods_left, 5);
        assert_eq!(clock.period_time_left, seconds(30.0));

        let clock = Clock::from_time_left(&settings, 30.0, 3).unwrap();
        assert_eq!(clock.main_time_left, Duration::ZERO);
        assert_eq!(clock.periods_left, 3);
        assert_eq!(clock.period_time_left, seconds(30.0));
        assert!(clock.in_overtime(&settings));
        assert!(!clock.has_run_out(&settings));
    }

    #[test]
    fn time_left_in_absolute_and_unlimited() {
        let absolute = TimeSettings::absolute(600.0).unwrap();
        let clock = Clock::from_time_left(&absolute, 42.0, 3).unwrap();
        assert_eq!(
            clock,
            Clock {
                main_time_left: seconds(42.0),
                ..Clock::default()
            }
        );
        let unlimited = TimeSettings::Unlimited;
        assert_eq!(
            Clock::from_time_left(&unlimited, 42.0, 0).unwrap(),
            Clock::default()
        );
        assert!(Clock::from_time_left(&unlimited, f64::NAN, 0).is_err());
    }

    #[test]
    fn time_left_slightly_negative_is_zero() {
        let absolute = TimeSettings::absolute(600.0).unwrap();
        let clock = Clock::from_time_left(&absolute, -3.0, 0).unwrap();
        assert_eq!(clock.main_time_left, Duration::ZERO);
        assert!(clock.has_run_out(&absolute));
        assert!(Clock::from_time_left(&absolute, -NEGATIVE_TIME_LEFT_TOLERANCE, 0).is_ok());
        assert_eq!(
            Clock::from_time_left(&absolute, -10.5, 0),
            Err(TimeError::Negative(-10.5))
        );
        assert!(matches!(
            Clock::from_time_left(&absolute, f64::NAN, 0),
            Err(TimeError::NotANumber(_))
        ));
        let byoyomi = TimeSettings::byoyomi(600.0, 30.0, 5).unwrap();
        let clock = Clock::from_time_left(&byoyomi, -0.5, 2).unwrap();
        assert_eq!(clock.period_time_left, Duration::ZERO);
        assert_eq!(clock.periods_left, 2);
        assert_eq!(
            budget(&byoyomi, &clock, 361, 100, DEFAULT_LAG),
            Some(Budget::ZERO)
        );
    }

    // ---- Charging ----

    #[test]
    fn charge_absolute_and_unlimited() {
        let settings = TimeSettings::absolute(60.0).unwrap();
        let clock = charge(Clock::new(&settings), &settings, seconds(15.5));
        assert_eq!(clock.main_time_left, seconds(44.5));
        let clock = charge(clock, &settings, seconds(100.0));
        assert_eq!(clock.main_time_left, Duration::ZERO);
        assert!(clock.has_run_out(&settings));

        let unlimited = TimeSettings::Unlimited;
        let clock = Clock::new(&unlimited);
        assert_eq!(charge(clock, &unlimited, seconds(1000.0)), clock);
    }

    #[test]
    fn charge_canadian_main_time_first_then_stones() {
        let settings = TimeSettings::from_time_settings(10.0, 60.0, 3).unwrap();
        let clock = charge(Clock::new(&settings), &settings, seconds(4.0));
        assert_eq!(clock.main_time_left, seconds(6.0));
        assert_eq!(clock.stones_left_in_period, 3);

        // Using main time exactly leaves a fresh period, no stone counted.
        let exact = charge(clock, &settings, seconds(6.0));
        assert!(exact.in_overtime(&settings));
        assert_eq!(exact.period_time_left, seconds(60.0));
        assert_eq!(exact.stones_left_in_period, 3);

        // Running past main time: the move counts as the period's first stone.
        let clock = charge(clock, &settings, seconds(10.0));
        assert_eq!(clock.main_time_left, Duration::ZERO);
        assert_eq!(clock.period_time_left, seconds(56.0));
        assert_eq!(clock.stones_left_in_period, 2);

        let clock = charge(clock, &settings, seconds(20.0));
        assert_eq!(clock.period_time_left, seconds(36.0));
        assert_eq!(clock.stones_left_in_period, 1);

        // The last stone of the period: the period starts afresh.
        let clock = charge(clock, &settings, seconds(30.0));
        assert_eq!(clock.period_time_left, seconds(60.0));
        assert_eq!(clock.stones_left_in_period, 3);
        assert!(!clock.has_run_out(&settings));

        // A move played in no time still counts as a stone.
        let clock = charge(clock, &settings, Duration::ZERO);
        assert_eq!(clock.stones_left_in_period, 2);
        assert_eq!(clock.period_time_left, seconds(60.0));
    }

    #[test]
    fn charge_canadian_overrun_runs_out() {
        let settings = TimeSettings::from_time_settings(0.0, 10.0, 5).unwrap();
        let clock = charge(Clock::new(&settings), &settings, seconds(4.0));
        assert_eq!(clock.stones_left_in_period, 4);
        let clock = charge(clock, &settings, seconds(6.5));
        assert!(clock.has_run_out(&settings));
        assert_eq!(
            budget(&settings, &clock, 81, 30, DEFAULT_LAG),
            Some(Budget::ZERO)
        );
    }

    #[test]
    fn charge_byo_yomi_keeps_or_loses_periods() {
        let settings = TimeSettings::byoyomi(5.0, 30.0, 3).unwrap();
        // Into byo-yomi: 5 s of main time, then 20 s of the first period, which is kept.
        let clock = charge(Clock::new(&settings), &settings, seconds(25.0));
        assert!(clock.in_overtime(&settings));
        assert_eq!(clock.periods_left, 3);
        assert_eq!(clock.period_time_left, seconds(30.0));

        // Exactly the period is still in time.
        let clock = charge(clock, &settings, seconds(30.0));
        assert_eq!(clock.periods_left, 3);

        // An overrun loses the period, and the next one starts full.
        let clock = charge(clock, &settings, seconds(31.0));
        assert_eq!(clock.periods_left, 2);
        assert_eq!(clock.period_time_left, seconds(30.0));
        assert!(!clock.has_run_out(&settings));

        // Losing the last periods loses the game.
        let clock = charge(clock, &settings, seconds(61.0));
        assert_eq!(clock.periods_left, 0);
        assert!(clock.has_run_out(&settings));
        assert_eq!(charge(clock, &settings, seconds(1.0)), clock);
    }

    #[test]
    fn charge_byo_yomi_long_overrun_spans_several_periods() {
        let settings = TimeSettings::byoyomi(0.0, 10.0, 5).unwrap();
        let start = Clock::new(&settings);
        // 25 s: the first period, the second, and half of the third, which is kept.
        let clock = charge(start, &settings, seconds(25.0));
        assert_eq!(clock.periods_left, 3);
        // 20 s exactly: the first period is lost, the second ends exactly in time.
        let clock = charge(start, &settings, seconds(20.0));
        assert_eq!(clock.periods_left, 4);
        // A partial current period, as time_left can report it.
        let partial = Clock::from_time_left(&settings, 4.0, 5).unwrap();
        let clock = charge(partial, &settings, seconds(5.0));
        assert_eq!(clock.periods_left, 4);
        assert_eq!(clock.period_time_left, seconds(10.0));
        // Enormous overruns do not loop or overflow.
        let clock = charge(start, &settings, Duration::from_secs(u64::MAX / 4));
        assert!(clock.has_run_out(&settings));
    }

    // ---- Budgets ----

    #[test]
    fn hard_limit_never_exceeds_what_remains_minus_lag() {
        let mut checked = 0usize;
        for settings in limited_settings() {
            for clock in clock_states(&settings) {
                for &lag in &LAGS {
                    let lag = seconds(lag);
                    let limit = most_the_move_may_use(&settings, &clock, lag);
                    for &points in &BOARDS {
                        for &moves in &MOVES {
                            let budget = budget(&settings, &clock, points, moves, lag)
                                .expect("limited settings give a budget");
                            assert!(
                                budget.soft <= budget.hard,
                                "{settings} {clock:?} {budget:?}"
                            );
                            assert!(
                                budget.hard <= limit,
                                "{settings} {clock:?} lag {lag:?}: {budget:?} > {limit:?}"
                            );
                            if clock.in_overtime(&settings) {
                                if let TimeSettings::Byoyomi { period, .. } = settings {
                                    assert!(budget.hard <= period.saturating_sub(lag));
                                }
                            }
                            if let TimeSettings::Absolute { .. } = settings {
                                let quarter = clock.main_time_left.saturating_sub(lag) / 4;
                                assert!(budget.hard <= quarter + Duration::from_nanos(1));
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 100_000, "only {checked} states checked");
    }

    #[test]
    fn more_main_time_never_gives_less_budget() {
        let main_times: Vec<f64> = (0..400).map(|step| f64::from(step) * 0.37).collect();
        let mut all_settings = vec![TimeSettings::absolute(3600.0).unwrap()];
        for &period in &PERIOD_TIMES {
            all_settings.push(TimeSettings::from_time_settings(600.0, period, 5).unwrap());
            all_settings.push(TimeSettings::from_time_settings(600.0, period, 1).unwrap());
            all_settings.push(TimeSettings::byoyomi(600.0, period, 3).unwrap());
        }
        for settings in &all_settings {
            for &lag in &LAGS {
                for &points in &BOARDS {
                    for &moves in &MOVES {
                        let mut previous = Budget::ZERO;
                        for &main in &main_times {
                            let clock = Clock {
                                main_time_left: seconds(main),
                                ..Clock::new(settings)
                            };
                            let budget =
                                budget(settings, &clock, points, moves, seconds(lag)).unwrap();
                            assert!(
                                budget.soft >= previous.soft && budget.hard >= previous.hard,
                                "{settings} main {main} lag {lag} {points} points move \
                                 {moves}: {budget:?} < {previous:?}"
                            );
                            previous = budget;
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn more_period_time_never_gives_less_budget() {
        for &lag in &LAGS {
            for &moves in &MOVES {
                for stones in [1, 2, 10, 25] {
                    let settings = TimeSettings::from_time_settings(0.0, 300.0, 25).unwrap();
                    let mut previous = Budget::ZERO;
                    for step in 0..=600 {
                        let clock = Clock::from_time_left(&settings, f64::from(step) * 0.5, stones)
                            .unwrap();
                        let budget = budget(&settings, &clock, 361, moves, seconds(lag)).unwrap();
                        assert!(budget.soft >= previous.soft && budget.hard >= previous.hard);
                        previous = budget;
                    }
                }
                let settings = TimeSettings::byoyomi(0.0, 60.0, 5).unwrap();
                let mut previous = Budget::ZERO;
                for step in 0..=600 {
                    let clock = Clock::from_time_left(&settings, f64::from(step) * 0.1, 2).unwrap();
                    let budget = budget(&settings, &clock, 81, moves, seconds(lag)).unwrap();
                    assert!(budget.soft >= previous.soft && budget.hard >= previous.hard);
                    previous = budget;
                }
            }
        }
    }

    #[test]
    fn absolute_budget_spreads_main_time() {
        let settings = TimeSettings::absolute(1800.0).unwrap();
        let clock = Clock::new(&settings);
        let opening = budget(&settings, &clock, 361, 0, DEFAULT_LAG).unwrap();
        // About 126 moves of our own expected, the first weighted about 0.6: roughly 8.4 s.
        assert!(
            opening.soft > seconds(7.0) && opening.soft < seconds(10.0),
            "{opening:?}"
        );
        assert!(opening.hard > opening.soft && opening.hard <= seconds(3.0 * 10.0));
        assert!(opening.hard <= clock.main_time_left.saturating_sub(DEFAULT_LAG) / 4);
    }

    #[test]
    fn middle_game_gets_more_than_opening_and_endgame() {
        assert!(move_weight(361, 76) > move_weight(361, 0));
        assert!(move_weight(361, 76) > move_weight(361, 200));
        assert!(move_weight(361, 76) > move_weight(361, 300));
        assert!(move_weight(81, 17) > move_weight(81, 0));
        assert!(move_weight(81, 17) > move_weight(81, 50));
        assert!((move_weight(361, 76) - 1.5).abs() < 0.01);
        // The same clock gives the middle game more than the opening.
        let settings = TimeSettings::absolute(900.0).unwrap();
        let clock = Clock::new(&settings);
        let opening = budget(&settings, &clock, 361, 0, DEFAULT_LAG).unwrap();
        let middle = budget(&settings, &clock, 361, 76, DEFAULT_LAG).unwrap();
        assert!(middle.soft > opening.soft * 2, "{middle:?} vs {opening:?}");
    }

    #[test]
    fn small_boards_get_more_time_per_move_than_large() {
        assert!(expected_own_moves_remaining(361, 0) > 2.0 * expected_own_moves_remaining(81, 0));
        assert!(expected_own_moves_remaining(361, 0) > expected_own_moves_remaining(361, 100));
        assert_eq!(
            expected_own_moves_remaining(361, 10_000),
            361.0 * MINIMUM_TAIL_FRACTION / 2.0
        );
        assert_eq!(
            expected_own_moves_remaining(4, 0),
            MINIMUM_OWN_MOVES_REMAINING
        );
        assert_eq!(
            expected_own_moves_remaining(0, 0),
            MINIMUM_OWN_MOVES_REMAINING
        );

        let absolute = TimeSettings::absolute(300.0).unwrap();
        let byoyomi = TimeSettings::byoyomi(300.0, 5.0, 3).unwrap();
        for settings in [absolute, byoyomi] {
            let clock = Clock::new(&settings);
            let nine = budget(&settings, &clock, 81, 0, DEFAULT_LAG).unwrap();
            let nineteen = budget(&settings, &clock, 361, 0, DEFAULT_LAG).unwrap();
            assert!(
                nine.soft > nineteen.soft * 2,
                "{settings}: {nine:?} {nineteen:?}"
            );
            assert!(nine.hard > nineteen.hard);
            // The same stage of the game (early middle game) compares the same way.
            let nine = budget(&settings, &clock, 81, 17, DEFAULT_LAG).unwrap();
            let nineteen = budget(&settings, &clock, 361, 76, DEFAULT_LAG).unwrap();
            assert!(
                nine.soft > nineteen.soft,
                "{settings}: {nine:?} {nineteen:?}"
            );
        }
    }

    #[test]
    fn byo_yomi_overtime_uses_most_of_the_period() {
        let settings = TimeSettings::byoyomi(0.0, 30.0, 5).unwrap();
        let clock = Clock::from_time_left(&settings, 30.0, 5).unwrap();
        let budget = budget(&settings, &clock, 361, 200, DEFAULT_LAG).unwrap();
        assert_eq!(budget.hard, seconds(29.8));
        assert!(close(budget.soft, 29.8 * OVERTIME_SOFT_FRACTION));
        // The number of periods left does not change the budget: periods are never burnt.
        let last = Clock::from_time_left(&settings, 30.0, 1).unwrap();
        assert_eq!(
            super::budget(&settings, &last, 361, 200, DEFAULT_LAG),
            Some(budget)
        );
    }

    #[test]
    fn byo_yomi_main_time_is_used_but_not_overused() {
        let settings = TimeSettings::byoyomi(600.0, 30.0, 5).unwrap();
        let clock = Clock::new(&settings);
        let overtime = budget(
            &settings,
            &Clock::from_time_left(&settings, 30.0, 5).unwrap(),
            361,
            0,
            DEFAULT_LAG,
        )
        .unwrap();
        for moves in [0, 40, 76, 150, 250] {
            let main = budget(&settings, &clock, 361, moves, DEFAULT_LAG).unwrap();
            // Never less than a move in byo-yomi gets...
            assert!(main.soft >= overtime.soft && main.hard >= overtime.hard);
            // ...and at most a quarter of the main time on top of a period.
            assert!(main.hard <= seconds(599.8 * HARD_SHARE_CAP) + overtime.hard);
        }
        // A long main time with a short byo-yomi is spread over the game.
        let settings = TimeSettings::byoyomi(1800.0, 10.0, 3).unwrap();
        let clock = Clock::new(&settings);
        let opening = budget(&settings, &clock, 361, 0, DEFAULT_LAG).unwrap();
        // Planned over half of about 126 moves: 7.35 s of byo-yomi rate each, and the
        // remaining 1337 s shared out, weighted about 0.6 on the first move: roughly 20 s.
        assert!(
            opening.soft > seconds(18.0) && opening.soft < seconds(22.0),
            "{opening:?}"
        );
    }

    #[test]
    fn canadian_overtime_shares_the_period_between_stones() {
        let settings = TimeSettings::from_time_settings(0.0, 300.0, 25).unwrap();
        let lag = seconds(0.2);
        let clock = Clock::from_time_left(&settings, 300.0, 25).unwrap();
        let budget = budget(&settings, &clock, 361, 150, lag).unwrap();
        let share = (300.0 - 25.0 * 0.2) / 25.0;
        assert!(
            close(budget.soft, share * OVERTIME_SOFT_FRACTION),
            "{budget:?}"
        );
        assert!(
            close(budget.hard, share * OVERTIME_HARD_MULTIPLE),
            "{budget:?}"
        );
        // The last stone of a period may use all of what is left, minus the lag.
        let last = Clock::from_time_left(&settings, 12.0, 1).unwrap();
        let budget = super::budget(&settings, &last, 361, 150, lag).unwrap();
        assert_eq!(budget.hard, seconds(11.8));
    }

    #[test]
    fn ten_seconds_main_then_one_second_per_move() {
        // time_settings 10 1 1, as gtp2ogs sends for simple or fake byo-yomi time.
        let settings = TimeSettings::from_time_settings(10.0, 1.0, 1).unwrap();
        let lag = DEFAULT_LAG;
        let clock = Clock::new(&settings);
        let first = budget(&settings, &clock, 81, 0, lag).unwrap();
        assert!(first.soft >= seconds(0.8 * OVERTIME_SOFT_FRACTION) - Duration::from_nanos(1));
        assert!(first.hard <= seconds(10.0 + 1.0 - 0.2));
        assert!(first.hard > first.soft);

        let overtime = Clock::from_time_left(&settings, 1.0, 1).unwrap();
        let later = budget(&settings, &overtime, 81, 40, lag).unwrap();
        assert_eq!(later.hard, seconds(0.8));
        assert!(close(later.soft, 0.8 * OVERTIME_SOFT_FRACTION));

        // A whole game in which every move thinks to the hard limit and then loses the lag:
        // the engine never runs out of time.
        let mut clock = Clock::new(&settings);
        let mut overtime_moves = 0;
        for own_move in 0..200 {
            let budget = budget(&settings, &clock, 81, 2 * own_move, lag).unwrap();
            clock = charge(clock, &settings, budget.hard + lag);
            assert!(!clock.has_run_out(&settings), "move {own_move}: {clock:?}");
            if clock.in_overtime(&settings) {
                overtime_moves += 1;
            }
        }
        assert!(
            overtime_moves > 150,
            "main time lasted too long: {overtime_moves}"
        );
    }

    #[test]
    fn thinking_to_the_hard_limit_never_loses_on_time_in_overtime_systems() {
        let mut all_settings = Vec::new();
        for &main in &[0.0, 1.0, 60.0, 600.0] {
            for &period in &[0.5, 1.0, 10.0, 30.0, 300.0] {
                for stones in [1, 5, 25] {
                    all_settings
                        .push(TimeSettings::from_time_settings(main, period, stones).unwrap());
                }
                all_settings.push(TimeSettings::byoyomi(main, period, 1).unwrap());
                all_settings.push(TimeSettings::byoyomi(main, period, 5).unwrap());
            }
        }
        for settings in &all_settings {
            for &lag in &[0.0, 0.01, 0.2] {
                let lag = seconds(lag);
                if let TimeSettings::Canadian { period, stones, .. } = *settings {
                    if period < lag * stones {
                        continue; // The lag alone overruns the period: no policy can help.
                    }
                }
                for &points in &[81, 361] {
                    let mut clock = Clock::new(settings);
                    for own_move in 0..400 {
                        let budget = budget(settings, &clock, points, 2 * own_move, lag).unwrap();
                        clock = charge(clock, settings, budget.hard + lag);
                        assert!(
                            !clock.has_run_out(settings),
                            "{settings} lag {lag:?} {points} points, move {own_move}"
                        );
                        if let TimeSettings::Byoyomi { periods, .. } = *settings {
                            assert_eq!(clock.periods_left, periods, "a period was burnt");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn absolute_time_lasts_a_long_game() {
        for (points, main) in [(81, 60.0), (81, 300.0), (361, 300.0), (361, 1800.0)] {
            let settings = TimeSettings::absolute(main).unwrap();
            for &lag in &[0.0, 0.2] {
                let lag = seconds(lag);
                // Soft limits for a game twice the expected length, hard every fourth move.
                let mut clock = Clock::new(&settings);
                let own_moves = points * 7 / 10;
                for own_move in 0..own_moves {
                    let budget = budget(&settings, &clock, points, 2 * own_move, lag).unwrap();
                    let thought = if own_move % 4 == 0 {
                        budget.hard
                    } else {
                        budget.soft
                    };
                    clock = charge(clock, &settings, thought + lag);
                    assert!(
                        !clock.has_run_out(&settings),
                        "{settings} {points} points lag {lag:?}, move {own_move}"
                    );
                }
                // Some time was kept in reserve but most of it was used.
                assert!(
                    clock.main_time_left < seconds(main * 0.5),
                    "{settings} {clock:?}"
                );
            }
        }
    }

    // ---- Early stop and thinking longer ----

    #[test]
    fn early_stop_when_the_runner_up_cannot_catch_up() {
        let soft = seconds(2.0);
        let elapsed = seconds(1.0);
        // 500 playouts to come, lead of 900.
        assert!(can_stop_early(1000, 100, elapsed, soft, 500.0));
        // 1000 playouts to come: the runner-up could still pass.
        assert!(!can_stop_early(1000, 100, elapsed, soft, 1000.0));
        // Exactly enough to tie is not enough to overtake.
        assert!(can_stop_early(1000, 100, elapsed, soft, 900.0));
        assert!(!can_stop_early(1000, 100, elapsed, soft, 900.5));
        // The runner-up ahead (or equal): keep going while time remains.
        assert!(!can_stop_early(100, 1000, elapsed, soft, 10.0));
        assert!(!can_stop_early(500, 500, elapsed, soft, 10.0));
        // Time is up: stop whatever the counts.
        assert!(can_stop_early(500, 500, soft, soft, 1000.0));
        assert!(can_stop_early(0, 0, seconds(3.0), soft, 1000.0));
        // Unknown rate: never stop early.
        assert!(!can_stop_early(1000, 0, elapsed, soft, 0.0));
        assert!(!can_stop_early(1000, 0, elapsed, soft, f64::NAN));
        assert!(!can_stop_early(1000, 0, elapsed, soft, -5.0));
        assert!(!can_stop_early(1000, 0, elapsed, soft, f64::INFINITY));
    }

    #[test]
    fn playout_rate() {
        assert_eq!(playouts_per_second(5000, seconds(2.0)), 2500.0);
        assert_eq!(playouts_per_second(5000, Duration::ZERO), 0.0);
    }

    #[test]
    fn thinking_longer_stays_within_the_hard_limit() {
        let roomy = Budget {
            soft: seconds(1.0),
            hard: seconds(5.0),
        };
        assert_eq!(extended_soft(roomy), seconds(2.0));
        let tight = Budget {
            soft: seconds(3.0),
            hard: seconds(4.0),
        };
        assert_eq!(extended_soft(tight), seconds(4.0));
        assert_eq!(extended_soft(Budget::ZERO), Duration::ZERO);
        for settings in limited_settings() {
            for clock in clock_states(&settings) {
                let budget = budget(&settings, &clock, 361, 60, DEFAULT_LAG).unwrap();
                let extended = extended_soft(budget);
                assert!(budget.soft <= extended && extended <= budget.hard);
            }
        }
    }
}
