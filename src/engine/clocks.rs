//! Both players' clocks under one time system, as every game's engine keeps them: GTP's
//! `time_settings` fills them, `time_left` corrects them, each generated move is charged
//! (unless the controller reported the clock since), and the budget of the next move comes
//! from [`crate::time`]'s pure functions. Until the controller sends a time system the
//! engine's own is in force (`--game-time`: sudden death, both clocks full again at each new
//! game, and no network-lag reserve, since nothing travels; else no limit). Knows time, not
//! games.

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
    /// Network-lag allowance kept in reserve on every move of the controller's clock.
    lag: Duration,
    /// Whether the controller sent the time system (else it is the engine's own).
    from_controller: bool,
}

impl Clocks {
    /// The engine's own time system: `game_time` for each player's whole game (sudden
    /// death), or no limit without it; `lag` is kept in reserve on every move once the
    /// controller sends its own.
    pub fn new(lag: Duration, game_time: Option<Duration>) -> Clocks {
        let settings = match game_time {
            Some(main) => TimeSettings::Absolute { main },
            None => TimeSettings::Unlimited,
        };
        Clocks {
            clocks: [Clock::new(&settings); 2],
            settings,
            reported: [false; 2],
            lag,
            from_controller: false,
        }
    }

    /// Sets the time system the controller sent and fills both clocks.
    pub fn set_settings(&mut self, settings: TimeSettings) {
        self.clocks = [Clock::new(&settings); 2];
        self.reported = [false; 2];
        self.settings = settings;
        self.from_controller = true;
    }

    /// The lag kept in reserve: the network's under the controller's clock, none under the
    /// engine's own.
    fn lag(&self) -> Duration {
        if self.from_controller {
            self.lag
        } else {
            Duration::ZERO
        }
    }

    /// A new game begins: under the engine's own time system both clocks are full again;
    /// the controller's clocks stay as it left them (it sends `time_settings` or
    /// `time_left` for the new game).
    pub fn new_game(&mut self) {
        if !self.from_controller {
            self.clocks = [Clock::new(&self.settings); 2];
            self.reported = [false; 2];
        }
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
            self.lag(),
        )
    }

    /// Charges `color`'s clock for a move that took `elapsed`, unless the controller keeps
    /// the clock itself with `time_left`.
    pub fn charge(&mut self, color: Color, elapsed: Duration) {
        let index = color.index();
        if !self.reported[index] {
            self.clocks[index] =
                time::charge(self.clocks[index], &self.settings, elapsed + self.lag());
        }
        self.reported[index] = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAG: Duration = Duration::from_millis(100);

    fn soft(clocks: &Clocks, color: Color) -> Option<Duration> {
        clocks.budget(color, 81, 10).map(|budget| budget.soft)
    }

    #[test]
    fn without_a_game_time_there_is_no_limit_until_the_controller_sends_one() {
        let mut clocks = Clocks::new(LAG, None);
        assert_eq!(soft(&clocks, Color::Black), None);
        clocks.new_game();
        assert_eq!(soft(&clocks, Color::White), None);
        clocks.set_settings(TimeSettings::Absolute {
            main: Duration::from_secs(60),
        });
        assert!(soft(&clocks, Color::Black).is_some());
    }

    /// `--game-time`: sudden death for each player, charged move by move, full again at each
    /// new game.
    #[test]
    fn the_game_time_is_spent_and_filled_again_at_each_new_game() {
        let mut clocks = Clocks::new(LAG, Some(Duration::from_secs(40)));
        let full = soft(&clocks, Color::Black).expect("a budget");
        // No lag reserve on the engine's own clock: what a 100 ms lag would keep back is
        // spent (the same budget as without a lag).
        assert_eq!(
            soft(
                &Clocks::new(Duration::ZERO, Some(Duration::from_secs(40))),
                Color::Black
            ),
            Some(full)
        );
        assert!(full < Duration::from_secs(40));
        assert_eq!(soft(&clocks, Color::White), Some(full));
        clocks.charge(Color::Black, Duration::from_secs(20));
        let spent = soft(&clocks, Color::Black).expect("a budget");
        assert!(spent < full, "{spent:?} against {full:?}");
        assert_eq!(soft(&clocks, Color::White), Some(full));
        clocks.new_game();
        assert_eq!(soft(&clocks, Color::Black), Some(full));
    }

    /// The controller's time system replaces the engine's own and keeps its clocks through
    /// a new game (the controller sends `time_settings` or `time_left` for it).
    #[test]
    fn the_controllers_time_system_replaces_the_game_time() {
        let mut clocks = Clocks::new(LAG, Some(Duration::from_secs(40)));
        let own = soft(&clocks, Color::Black);
        clocks.set_settings(TimeSettings::Absolute {
            main: Duration::from_secs(400),
        });
        let controllers = soft(&clocks, Color::Black).expect("a budget");
        assert!(Some(controllers) > own);
        clocks.charge(Color::Black, Duration::from_secs(200));
        let spent = soft(&clocks, Color::Black);
        clocks.new_game();
        assert_eq!(soft(&clocks, Color::Black), spent);
        assert!(spent < Some(controllers));
    }
}
