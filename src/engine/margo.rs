//! Margo as a [`PlayableGame`]: the rules core's [`Game`] (superko, swap, undo) behind the
//! engine's narrow interface, in the designer's notation. Knows the Margo rules core and its
//! search position; nothing of GTP.

use crate::color::Color;
use crate::engine::board_game::{color_field, score_text, GameOptions, MoveError, PlayableGame};
use crate::engine::GameKind;
use crate::margo::game::Game;
use crate::margo::notation::{self, ParseMoveError};
use crate::margo::perft::perft;
use crate::margo::position::Position;
use crate::margo::search::playout_settings;
use crate::margo::{Move, Point, DEFAULT_SIZE};
use crate::search::domain::SearchGame;
use crate::search::SearchParams;

/// A Margo game for the engine.
pub struct MargoGame {
    game: Game,
}

impl PlayableGame for MargoGame {
    type Position = Position;

    const KIND: GameKind = GameKind::Margo;

    fn create(options: &GameOptions) -> Result<MargoGame, String> {
        let size = options.size.unwrap_or(DEFAULT_SIZE);
        let mut game = Game::new(size).map_err(|_| "unacceptable size".to_string())?;
        game.set_swap_enabled(options.swap);
        Ok(MargoGame { game })
    }

    fn parse_move(&self, color: Color, text: &str) -> Result<u16, MoveError> {
        match self.game.parse_move(text) {
            Ok(chosen) => match self.game.check(color, chosen) {
                Ok(()) => Ok(chosen.index()),
                Err(reason) => Err(MoveError::Illegal(reason.reason())),
            },
            Err(ParseMoveError::Malformed(_)) => Err(MoveError::Syntax("syntax error".into())),
            Err(ParseMoveError::OffGrid(_)) => Err(MoveError::Illegal("off_board")),
            Err(ParseMoveError::NoPoint(_)) => Err(MoveError::Illegal("no_point")),
        }
    }

    fn move_text(&self, index: u16) -> String {
        Move::from_index(index)
            .map(|chosen| self.game.format_move(chosen))
            .unwrap_or_default()
    }

    fn to_move(&self) -> Option<Color> {
        self.game.to_move()
    }

    fn legal_moves(&self, color: Color) -> Vec<u16> {
        if self.game.to_move().is_some_and(|to_move| to_move != color) {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.game.legal_moves(color, &mut moves);
        let mut indices: Vec<u16> = moves.into_iter().map(Move::index).collect();
        indices.sort_unstable();
        indices
    }

    fn play(&mut self, color: Color, index: u16) -> Result<(), &'static str> {
        let chosen = Move::from_index(index).ok_or("off_board")?;
        self.game
            .play(color, chosen)
            .map(|_| ())
            .map_err(|reason| reason.reason())
    }

    fn undo(&mut self) -> bool {
        self.game.undo()
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn final_score(&self) -> String {
        score_text(-self.game.score())
    }

    fn showboard(&self) -> String {
        notation::board_text(self.game.position())
    }

    fn perft(&self, depth: usize) -> u64 {
        perft(&self.game, depth as u32)
    }

    fn position(&self) -> Box<Position> {
        Box::new(*self.game.position())
    }

    fn moves(&self) -> Vec<u16> {
        self.game
            .history()
            .iter()
            .map(|played| played.mv.index())
            .collect()
    }

    fn move_count(&self) -> usize {
        self.game.history().len()
    }

    fn start_key(&self) -> u64 {
        (self.game.size() as u64) << 1 | u64::from(self.game.swap_enabled())
    }

    fn time_points(&self) -> usize {
        self.game.position().geometry().point_count()
    }

    fn playout_settings(&self, params: &SearchParams) -> <Position as SearchGame>::Settings {
        playout_settings(params)
    }

    fn record(&self) -> String {
        notation::format_record(self.game.position().geometry(), self.game.history())
    }

    fn board_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let position = self.game.position();
        let geometry = position.geometry();
        let zombies = position.zombies();
        let balls: Vec<serde_json::Value> = (0..geometry.point_count())
            .map(|index| Point(index as u16))
            .filter_map(|point| {
                let color = position.get(point)?;
                let state = if position.is_buried(point) {
                    "buried"
                } else if zombies[point.index()] {
                    "zombie"
                } else {
                    "free"
                };
                Some(serde_json::json!({
                    "vertex": notation::format_point(geometry, point),
                    "level": geometry.coordinates(point).level,
                    "color": color_field(Some(color)),
                    "state": state,
                }))
            })
            .collect();
        let [black, white] = position.ball_counts();
        let swap = self
            .game
            .to_move()
            .is_some_and(|color| self.game.check(color, Move::Swap).is_ok());
        let mut fields = serde_json::Map::new();
        fields.insert("size".into(), self.game.size().into());
        fields.insert("grid".into(), geometry.grid_width().into());
        fields.insert("balls".into(), balls.into());
        fields.insert("counts".into(), serde_json::json!({"b": black, "w": white}));
        fields.insert("swap".into(), swap.into());
        fields
    }

    fn apply_options(&mut self, options: &GameOptions) {
        self.game.set_swap_enabled(options.swap);
    }

    fn set_option(options: &mut GameOptions, name: &str, value: &str) -> Result<(), String> {
        match (name, value.to_ascii_lowercase().as_str()) {
            ("swap", "on" | "true" | "1") => options.swap = true,
            ("swap", "off" | "false" | "0") => options.swap = false,
            _ => return Err(format!("margo has no option {name} {value} (swap on|off)")),
        }
        Ok(())
    }
}
