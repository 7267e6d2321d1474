//! The engines behind GTP: what every game shares (the command-line [`Settings`], the
//! [`Level`]s, the [`clocks::Clocks`], resignation) and one engine per kind of game: Go's
//! ([`go::Engine`], with its komi, handicap and end-of-game judgement) and the generic
//! [`board_game::BoardEngine`] over a [`board_game::PlayableGame`] for Margo and Abalone.
//! Knows the games and the search; nothing of the protocol's text.

pub mod abalone;
pub mod board_game;
pub mod clocks;
pub mod go;
pub mod margo;

pub use go::{
    fixed_handicap_points, maximum_fixed_handicap, Decision, Engine, SetupError, StatusKind,
    UnacceptableSize,
};

use crate::engine::clocks::Clocks;
use crate::go::rules::rules::Rules;
use crate::time::Budget;
use std::time::Duration;

/// The games ishi plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// Go.
    Go,
    /// Margo.
    Margo,
    /// Abalone.
    Abalone,
}

impl GameKind {
    /// Every game.
    pub const ALL: [GameKind; 3] = [GameKind::Go, GameKind::Margo, GameKind::Abalone];

    /// The name used on the command line and in GTP (`go`, `margo`, `abalone`).
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Go => "go",
            GameKind::Margo => "margo",
            GameKind::Abalone => "abalone",
        }
    }

    /// Parses a game name in any case.
    pub fn parse(text: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(text.trim()))
    }
}

/// The longest `--move-time` or `--game-time` taken, in seconds: a year.
pub const LONGEST_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// Seconds per move when neither a clock, `--playouts` nor `--move-time` limits the search.
pub const DEFAULT_MOVE_SECONDS: f64 = 2.0;

/// Root visits needed before a resignation is trusted.
pub const RESIGN_MINIMUM_VISITS: u64 = 1_000;

/// Playing strength presets for people who want a fair opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A few hundred playouts per move.
    Easy,
    /// About five thousand playouts per move.
    Medium,
    /// Everything the clock allows.
    Hard,
}

impl Level {
    /// Parses `easy`, `medium` or `hard`.
    pub fn parse(text: &str) -> Option<Level> {
        match text.to_ascii_lowercase().as_str() {
            "easy" => Some(Level::Easy),
            "medium" => Some(Level::Medium),
            "hard" => Some(Level::Hard),
            _ => None,
        }
    }

    /// The level's name: `easy`, `medium` or `hard`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The playout cap of the level, `None` for no cap.
    pub fn playouts(self) -> Option<u64> {
        match self {
            Level::Easy => Some(300),
            Level::Medium => Some(5_000),
            Level::Hard => None,
        }
    }
}

/// Settings fixed at start-up from the command line.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The game at start-up.
    pub game: GameKind,
    /// Board size at start-up (the game's default when `None`).
    pub size: Option<usize>,
    /// Abalone's start position at start-up (`standard`, `belgian`, `german`).
    pub start: String,
    /// Abalone's ply cap.
    pub max_plies: usize,
    /// Rules at start-up (and after `clear_board` unless GTP changed them).
    pub rules: Rules,
    /// Komi at start-up, when given on the command line.
    pub komi: Option<f64>,
    /// Worker threads of the search.
    pub threads: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Fixed playouts per move, when set.
    pub playouts: Option<u64>,
    /// Fixed seconds per move when no time settings are known.
    pub move_time: Option<f64>,
    /// Seconds for each player's whole game (sudden death, spread by the time manager)
    /// until the controller sends time settings; every new game starts with full clocks.
    pub game_time: Option<f64>,
    /// Resign below this win rate (0 disables).
    pub resign_threshold: f64,
    /// Strength preset.
    pub level: Level,
    /// Search during the opponent's time.
    pub ponder: bool,
    /// Network lag allowance in milliseconds.
    pub lag_milliseconds: u64,
    /// Tree memory cap in MiB.
    pub max_tree_megabytes: usize,
    /// `name=value` pairs for the search parameters.
    pub parameters: Vec<(String, String)>,
    /// What `version` answers instead of ishi's own version (Lizzie's Leela Zero check).
    pub version_override: Option<String>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            game: GameKind::Go,
            size: None,
            start: "belgian".to_string(),
            max_plies: usize::from(crate::abalone::DEFAULT_MAX_PLIES),
            rules: Rules::chinese(),
            komi: None,
            threads: 1,
            seed: 0,
            playouts: None,
            move_time: None,
            game_time: None,
            resign_threshold: 0.1,
            level: Level::Hard,
            ponder: false,
            lag_milliseconds: 200,
            max_tree_megabytes: 2048,
            parameters: Vec::new(),
            version_override: None,
        }
    }
}

impl Settings {
    /// The clocks the engine starts with: `--game-time`'s sudden death, or no limit (also
    /// for a game time that is no duration: negative, not finite or too long).
    pub fn clocks(&self) -> Clocks {
        Clocks::new(
            Duration::from_millis(self.lag_milliseconds),
            self.game_time
                .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
                .filter(|time| !time.is_zero()),
        )
    }
}

/// The playouts and times that bound one move's search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveBounds {
    /// Playouts, from `--playouts` or the level.
    pub playouts: Option<u64>,
    /// The time after which the search stops once the best move is clear.
    pub soft_time: Option<Duration>,
    /// The time after which it always stops.
    pub hard_time: Option<Duration>,
}

/// The bounds of a move for every game (a pure function): playouts from `--playouts` or the
/// level; time from the clock's `budget` (the controller's clock, or `--game-time`'s), else
/// `--move-time`, else, with no playout bound, [`DEFAULT_MOVE_SECONDS`].
pub fn move_bounds(settings: &Settings, budget: Option<Budget>) -> MoveBounds {
    let playouts = settings.playouts.or(settings.level.playouts());
    let time = match budget {
        Some(budget) => Some((budget.soft, budget.hard)),
        None => match settings.move_time {
            Some(seconds) => {
                let time = Duration::try_from_secs_f64(seconds.clamp(0.01, LONGEST_SECONDS))
                    .unwrap_or(Duration::from_millis(10));
                Some((time, time))
            }
            None if playouts.is_none() => {
                let time = Duration::from_secs_f64(DEFAULT_MOVE_SECONDS);
                Some((time, time))
            }
            None => None,
        },
    };
    MoveBounds {
        playouts,
        soft_time: time.map(|(soft, _)| soft),
        hard_time: time.map(|(_, hard)| hard),
    }
}

/// The engine of `kind` when it is a game without a pass (`None` for Go, whose engine the
/// GTP session always keeps).
///
/// # Errors
/// A bad size, option or `--param` for that game.
pub fn new_board_game(
    kind: GameKind,
    settings: &Settings,
) -> Result<Option<Box<dyn board_game::BoardGameEngine>>, String> {
    Ok(match kind {
        GameKind::Go => None,
        GameKind::Margo => Some(Box::new(board_game::BoardEngine::<margo::MargoGame>::new(
            settings,
        )?)),
        GameKind::Abalone => Some(Box::new(
            board_game::BoardEngine::<abalone::AbaloneGame>::new(settings)?,
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;

    /// A move time or game time that is no duration (a library caller's Settings are not
    /// checked as the command line's are) bounds the move sensibly, never panics.
    #[test]
    fn any_move_time_or_game_time_gives_a_bound() {
        for seconds in [f64::NAN, f64::INFINITY, -3.0, 0.0, 1e300, 0.5] {
            let settings = Settings {
                move_time: Some(seconds),
                game_time: Some(seconds),
                ..Settings::default()
            };
            let clocks = settings.clocks();
            let bounds = move_bounds(&settings, clocks.budget(Color::Black, 81, 0));
            let time = bounds.hard_time.expect("a time bound");
            assert!(time >= Duration::from_millis(10), "{seconds}: {time:?}");
            assert!(time.as_secs_f64() <= LONGEST_SECONDS, "{seconds}: {time:?}");
        }
        let half = Settings {
            move_time: Some(0.5),
            ..Settings::default()
        };
        assert_eq!(
            move_bounds(&half, None).hard_time,
            Some(Duration::from_millis(500))
        );
    }
}
