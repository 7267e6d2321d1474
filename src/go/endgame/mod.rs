//! The end of the game: the status of every chain (dead, alive, seki) judged from Benson's
//! analysis and playouts (`status`), a cache of those judgements keyed by position, rules
//! and komi, so that `final_status_list`, `final_score`, pass decisions and the cleanup phase
//! all see one answer, and what is left to play before passing under territory rules
//! (`finish`). Knows the rules core and the search's playouts; never GTP.

pub mod finish;
pub mod status;

pub use status::{judge, JudgeSettings, Judgement};

use crate::go::rules::game::Game;
use crate::go::rules::rules::Rules;
use crate::search::SearchParams;
use std::collections::HashMap;

/// Positions kept before the cache starts afresh.
const CACHE_CAPACITY: usize = 256;

/// What a judgement depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct StatusKey {
    size: usize,
    board_hash: u64,
    captures: [u32; 2],
    rules: Rules,
    komi_bits: u64,
}

/// Judgements of positions already seen.
#[derive(Debug, Default)]
pub struct StatusCache {
    entries: HashMap<StatusKey, Judgement>,
}

impl StatusCache {
    /// An empty cache.
    pub fn new() -> StatusCache {
        StatusCache::default()
    }

    /// The judgement of `game`'s position, made now or remembered.
    pub fn judgement(
        &mut self,
        game: &Game,
        params: &SearchParams,
        settings: JudgeSettings,
        seed: u64,
    ) -> Judgement {
        let board = game.board();
        let key = StatusKey {
            size: game.size(),
            board_hash: board.hash(),
            captures: [
                board.captures(crate::color::Color::Black),
                board.captures(crate::color::Color::White),
            ],
            rules: *game.rules(),
            komi_bits: game.komi().to_bits(),
        };
        if let Some(judgement) = self.entries.get(&key) {
            return judgement.clone();
        }
        if self.entries.len() >= CACHE_CAPACITY {
            self.entries.clear();
        }
        let seed = seed ^ key.board_hash ^ key.komi_bits.rotate_left(17);
        let judgement = judge(game, params, settings, seed);
        self.entries.insert(key, judgement.clone());
        judgement
    }
}

/// A game whose board is the diagram's stones (set up, not played), for the tests of this
/// folder.
#[cfg(test)]
pub(crate) fn game_from_diagram(diagram: &str, rules: Rules, komi: f64) -> Game {
    use crate::go::rules::board::Board;
    let board = Board::from_diagram(diagram).expect("diagram");
    let mut game = Game::new(board.size(), rules, komi);
    let stones: Vec<_> = board
        .points()
        .filter_map(|point| board.stone(point).map(|color| (color, point)))
        .collect();
    game.setup(&stones).expect("setup");
    game
}
