//! Both players' clocks under one time system, as every game's engine keeps them: GTP's
//! `time_settings` fills them, `time_left` corrects them, each generated move is charged
//! (unless the controller reported the clock since), and the budget of the next move comes
//! from [`crate::time`]'s pure functions. Knows time, not games.

use crate::color::Color;
use crate::time::{self, Budget, Clock, TimeError, TimeSettings};
use std::time::Duration;

/// The time system and each colour's clock.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// The time system of the game.
    settings: TimeSettings,
    /// Each colour's clock, black first.
    clocks: [Clock; 2],
    /// Whether the controller sent `time_left` for a colour since that colour's last move.
    reported: [bool; 2],
    /// Network-lag allowance kept in reserve on every move.
    lag: Duration,
}

impl Clocks {
    /// Unlimited time, with `lag` kept in reserve on every move.
    pub fn new(lag: Duration) -> Clocks {
        Clocks {
            settings: TimeSettings::Unlimited,
            clocks: [Clock::new(&TimeSettings::Unlimited); 2],
            reported: [false; 2],
            lag,
        }
    }

    /// Sets the time system and fills both clocks.
    pub fn set_settings(&mut self, settings: TimeSettings) {
        self.clocks = [Clock::new(&settings); 2];
        self.reported = [false; 2];
        self.settings = settings;
    }

    /// The time system.
    pub fn settings(&self) -> &TimeSettings {
        &self.settings
    }

    /// Updates a clock from GTP `time_left`.
    ///
    /// # Errors
    /// When the values are not a valid clock.
    pub fn set_time_left(
        &mut self,
        color: Color,
        seconds: f64,
        stones: u32,
    ) -> Result<(), TimeError> {
        self.clocks[color.index()] = Clock::from_time_left(&self.settings, seconds, stones)?;
        self.reported[color.index()] = true;
        Ok(())
    }

    /// The budget of `color`'s next move, `None` without limits; `board_points` sizes the
    /// game (the expected number of moves follows from it) and `moves_played` says how far
    /// it is.
    pub fn budget(&self, color: Color, board_points: usize, moves_played: usize) -> Option<Budget> {
        time::budget(
            &self.settings,
            &self.clocks[color.index()],
            board_points,
            moves_played,
            self.lag,
        )
    }

    /// Charges `color`'s clock for a move that took `elapsed`, unless the controller keeps
    /// the clock itself with `time_left`.
    pub fn charge(&mut self, color: Color, elapsed: Duration) {
        let index = color.index();
        if !self.reported[index] {
            self.clocks[index] =
                time::charge(self.clocks[index], &self.settings, elapsed + self.lag);
        }
        self.reported[index] = false;
    }
}
