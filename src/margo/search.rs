//! Margo as a [`SearchGame`]: the position plays itself (placements and the swap of the
//! second move), lists its legal placements with priors from the game's own tactics
//! (captures, atari, escapes, self-atari, own eyes, stacking, the opening's control points)
//! and plays out with a cheap policy to the end of the game (the mover has no legal
//! placement) or a length cap. Also the glue a caller needs to search a [`Game`]: the root's
//! legal moves under the full rules, the tree-reuse key, one call that picks a move, and the
//! speed benchmark. Knows the rules core and the search trait; nothing of GTP or time.
//!
//! Move indices are [`Move::index`]: point + 1, swap at [`SWAP_INDEX`]; 0 is never a Margo
//! move. Superko is applied only at the root (through the full-rules legal list).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::color::Color;
use crate::margo::geometry::NO_POINT;
use crate::margo::{Game, Move, Point, Position, MAX_POINTS, MIN_SIZE};
use crate::search::domain::{encode, Outcome, Prior, SearchGame, PASS};
use crate::search::driver::{Choice, GameSearch, Root, RunLimits};
use crate::search::params::SearchParams;
use crate::search::random::{threshold, Random};

/// The search index of the swap move.
pub const SWAP_INDEX: usize = MAX_POINTS + 1;

/// What a Margo playout needs besides the position, taken from [`SearchParams`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutSettings {
    /// Moves per board point after which a playout is scored as it stands.
    pub length_factor: u32,
    /// Whether the heavy policy runs (otherwise uniformly random legal placements).
    pub heavy: bool,
    /// Threshold of [`Random::chance`]: capture a group in atari.
    pub capture: u64,
    /// Threshold: save an own group in atari.
    pub escape: u64,
    /// Threshold: refuse a random self-atari or own-eye filling while other moves remain.
    pub self_atari_reject: u64,
}

/// The playout settings of a parameter set.
pub fn playout_settings(params: &SearchParams) -> PlayoutSettings {
    PlayoutSettings {
        length_factor: params.margo_playout_length_factor.max(1),
        heavy: params.margo_playout_heavy,
        capture: threshold(params.margo_playout_capture),
        escape: threshold(params.margo_playout_escape),
        self_atari_reject: threshold(params.margo_playout_self_atari_reject),
    }
}

/// Reusable buffers of [`SearchGame::candidates`].
#[derive(Debug, Default)]
pub struct CandidateScratch {
    points: Vec<Point>,
}

/// Whether the level-0 hole `point` has only balls of `color` beside it (an eye-like hole).
fn is_own_eye(position: &Position, color: Color, point: usize) -> bool {
    let geometry = position.geometry();
    if point >= geometry.level_range(0).end {
        return false;
    }
    geometry
        .contacts(point)
        .iter()
        .take_while(|contact| contact.neighbour != NO_POINT)
        .all(|contact| position.get(Point(contact.neighbour)) == Some(color))
}

/// The holes an opening prior rewards or punishes: (control point, centre, first line).
fn opening_kind(position: &Position, point: Point) -> (bool, bool, bool) {
    let place = position.geometry().coordinates(point);
    if place.level > 0 {
        return (false, false, false);
    }
    let size = position.size();
    let last = size - 1;
    let control_line = if size >= 6 { 2 } else { 1 };
    let on_control = |value: usize| value == control_line || value == last - control_line;
    let control = on_control(place.row) && on_control(place.column);
    // Twice the distance from the centre along each axis: at most one on the central holes.
    let twice_from_centre = |value: usize| (2 * value).abs_diff(last);
    let centre = twice_from_centre(place.row) <= 1 && twice_from_centre(place.column) <= 1;
    let first_line =
        place.row == 0 || place.column == 0 || place.row == last || place.column == last;
    (control, centre, first_line)
}

/// The smallest point of the group of the ball at `point` (a group label), or `None`.
fn group_label(position: &Position, point: Point) -> Option<u16> {
    position.group(point).first().map(|first| first.0)
}

/// The prior of `player` placing at `point` on `position`.
fn placement_prior(
    position: &Position,
    player: Color,
    point: Point,
    params: &SearchParams,
    own_atari: &[u16],
    enemy_atari_groups: usize,
    opening: bool,
) -> Prior {
    let mut prior = Prior::even(params.prior_even);
    if !params.priors {
        return prior;
    }
    let opponent = player.opponent();
    let index = point.index();
    let mut after = *position;
    let captures = after.play_at_rest(player, point);
    let enemy_removed = captures.removed[opponent.index()];
    let own_removed = captures.removed[player.index()];
    if enemy_removed > 0 {
        prior.add(
            params.margo_prior_capture + params.margo_prior_capture_ball * enemy_removed.min(4),
            true,
        );
    }
    if own_removed > 0 {
        prior.add(params.margo_prior_own_loss, false);
    }
    let freedoms = after.freedom_count(point, 2);
    if own_atari.contains(&(index as u16)) && freedoms >= 2 {
        prior.add(params.margo_prior_escape, true);
    } else if freedoms <= 1 && enemy_removed == 0 {
        prior.add(params.margo_prior_self_atari, false);
    }
    if enemy_removed == 0 && is_own_eye(position, player, index) {
        prior.add(params.margo_prior_eye, false);
    }
    if params.margo_prior_atari > 0 {
        let mut holes = [0u16; MAX_POINTS];
        if after.single_freedoms(opponent, &mut holes) > enemy_atari_groups {
            prior.add(params.margo_prior_atari, true);
        }
    }
    let geometry = position.geometry();
    if geometry.coordinates(point).level > 0 {
        if opening {
            prior.add(params.margo_prior_early_stack, false);
        }
        let mut labels = [NO_POINT; 4];
        let mut distinct = 0;
        let mut on_weak_enemy = false;
        for &lower in geometry.below(index) {
            if lower == NO_POINT {
                break;
            }
            let lower_point = Point(lower);
            match position.get(lower_point) {
                Some(color) if color == player => {
                    if let Some(label) = group_label(position, lower_point) {
                        if !labels[..distinct].contains(&label) {
                            labels[distinct] = label;
                            distinct += 1;
                        }
                    }
                }
                Some(_)
                    if !position.is_buried(lower_point)
                        && position.freedom_count(lower_point, 3) <= 2 =>
                {
                    on_weak_enemy = true;
                }
                _ => {}
            }
        }
        if distinct >= 2 {
            prior.add(params.margo_prior_connect, true);
        }
        if on_weak_enemy && enemy_removed == 0 {
            prior.add(params.margo_prior_stack_on_enemy, false);
        }
    } else if opening {
        let (control, centre, first_line) = opening_kind(position, point);
        if control {
            prior.add(params.margo_prior_control_point, true);
        }
        if centre {
            prior.add(params.margo_prior_centre, true);
        }
        if first_line {
            prior.add(params.margo_prior_first_line, false);
        }
    }
    prior
}

/// A random legal move of `player` among the `holes` (the sole freedoms of groups), that
/// for an escape leaves the placed ball's group two freedoms or more.
fn pick_hole(
    position: &Position,
    player: Color,
    holes: &[u16],
    escape: bool,
    random: &mut Random,
) -> Option<Point> {
    if holes.is_empty() {
        return None;
    }
    let start = random.below(holes.len());
    for offset in 0..holes.len() {
        let point = Point(holes[(start + offset) % holes.len()]);
        if !position.is_legal_placement(player, point) {
            continue;
        }
        if escape {
            let mut after = *position;
            after.play_at_rest(player, point);
            if after.freedom_count(point, 2) < 2 {
                continue;
            }
        }
        return Some(point);
    }
    None
}

/// The next playout move of `player`, `None` when it has no legal placement.
fn playout_move(
    position: &Position,
    player: Color,
    settings: &PlayoutSettings,
    random: &mut Random,
) -> Option<Point> {
    let mut holes = [0u16; MAX_POINTS];
    if settings.heavy {
        if random.chance(settings.capture) {
            let count = position.single_freedoms(player.opponent(), &mut holes);
            if let Some(point) = pick_hole(position, player, &holes[..count], false, random) {
                return Some(point);
            }
        }
        if random.chance(settings.escape) {
            let count = position.single_freedoms(player, &mut holes);
            if let Some(point) = pick_hole(position, player, &holes[..count], true, random) {
                return Some(point);
            }
        }
    }
    let mut playable = [0u16; MAX_POINTS];
    let mut count = 0;
    for index in 0..position.geometry().point_count() {
        if position.is_playable(Point(index as u16)) {
            playable[count] = index as u16;
            count += 1;
        }
    }
    let mut fallback = None;
    while count > 0 {
        let chosen = random.below(count);
        let point = Point(playable[chosen]);
        count -= 1;
        playable[chosen] = playable[count];
        if !position.is_legal_placement(player, point) {
            continue;
        }
        if settings.heavy && random.chance(settings.self_atari_reject) {
            let bad = if is_own_eye(position, player, point.index()) {
                true
            } else {
                let mut after = *position;
                let captures = after.play_at_rest(player, point);
                captures.removed[player.opponent().index()] == 0
                    && after.freedom_count(point, 2) < 2
            };
            if bad {
                if fallback.is_none() {
                    fallback = Some(point);
                }
                continue;
            }
        }
        return Some(point);
    }
    fallback
}

impl SearchGame for Position {
    const MOVE_SPACE: usize = crate::margo::MOVE_SPACE;

    type Settings = PlayoutSettings;

    type Scratch = CandidateScratch;

    fn blank() -> Box<Position> {
        Box::new(Position::new(MIN_SIZE).unwrap_or_else(|_| unreachable!("4 is supported")))
    }

    #[inline]
    fn copy_from(&mut self, other: &Position) {
        *self = *other;
    }

    #[inline]
    fn play(&mut self, index: usize, player: Color) {
        if index == SWAP_INDEX {
            self.swap_single_ball();
        } else if index != PASS {
            self.play_at_rest(player, Point((index - 1) as u16));
        }
    }

    fn decided(&self, _player: Color, _settings: &PlayoutSettings) -> Option<Outcome> {
        None
    }

    fn candidates(
        &self,
        player: Color,
        allowed: Option<&[bool]>,
        params: &SearchParams,
        scratch: &mut CandidateScratch,
        moves: &mut Vec<u16>,
        priors: &mut Vec<Prior>,
    ) {
        moves.clear();
        priors.clear();
        self.legal_placements(player, &mut scratch.points);
        let mut own_atari = [0u16; MAX_POINTS];
        let mut enemy_atari = [0u16; MAX_POINTS];
        let (own_count, enemy_count) = if params.priors {
            (
                self.single_freedoms(player, &mut own_atari),
                self.single_freedoms(player.opponent(), &mut enemy_atari),
            )
        } else {
            (0, 0)
        };
        let counts = self.ball_counts();
        let opening = counts[0] + counts[1] < params.margo_opening_balls;
        for &point in &scratch.points {
            let index = point.index() + 1;
            if allowed.is_some_and(|allowed| !allowed.get(index).copied().unwrap_or(false)) {
                continue;
            }
            moves.push(index as u16);
            priors.push(placement_prior(
                self,
                player,
                point,
                params,
                &own_atari[..own_count],
                enemy_count,
                opening,
            ));
        }
        if allowed.is_some_and(|allowed| allowed.get(SWAP_INDEX).copied().unwrap_or(false)) {
            moves.push(SWAP_INDEX as u16);
            priors.push(Prior::even(params.prior_even));
        }
    }

    fn play_out(
        &mut self,
        player: Color,
        settings: &PlayoutSettings,
        random: &mut Random,
        sequence: &mut Vec<u16>,
    ) -> Outcome {
        let cap = settings.length_factor as usize * self.geometry().point_count();
        let mut color = player;
        for _ in 0..cap {
            let Some(point) = playout_move(self, color, settings, random) else {
                break;
            };
            self.play_at_rest(color, point);
            sequence.push(encode(point.index() + 1, color));
            color = color.opponent();
        }
        let counts = self.ball_counts();
        Outcome::from_margin(
            f64::from(counts[Color::Black.index()]) - f64::from(counts[Color::White.index()]),
        )
    }

    fn add_ownership(&self, sums: &mut [i64]) {
        for index in 0..self.geometry().point_count() {
            let Some(sum) = sums.get_mut(index + 1) else {
                break;
            };
            match self.get(Point(index as u16)) {
                Some(Color::Black) => *sum += 1,
                Some(Color::White) => *sum -= 1,
                None => {}
            }
        }
    }
}

/// Every legal move of `color` in `game` under the full rules (superko, swap), as search
/// indices.
pub fn root_legal(game: &Game, color: Color) -> Vec<u16> {
    let mut moves = Vec::new();
    game.legal_moves(color, &mut moves);
    moves.into_iter().map(Move::index).collect()
}

/// The tree-reuse key of a game: its size and whether swap is offered.
pub fn start_key(game: &Game) -> u64 {
    (game.size() as u64) << 1 | u64::from(game.swap_enabled())
}

/// Searches `game` for `color` (who must be to move, or the game fresh) and returns the
/// search's choice; `legal` restricts the root (the full-rules list when `None`).
pub fn search_game(
    search: &mut GameSearch<Position>,
    game: &Game,
    color: Color,
    legal: Option<&[u16]>,
    limits: &RunLimits,
) -> Choice {
    let full;
    let legal = match legal {
        Some(legal) => legal,
        None => {
            full = root_legal(game, color);
            &full
        }
    };
    let moves: Vec<u16> = game
        .history()
        .iter()
        .map(|played| played.mv.index())
        .collect();
    let settings = playout_settings(search.params());
    let stop = AtomicBool::new(false);
    search.run(
        Root {
            position: game.position(),
            to_move: color,
            legal,
            settings,
            start_key: start_key(game),
            moves: &moves,
        },
        limits,
        &stop,
        None,
    )
}

/// The move of a search index, `None` for an index that is no Margo move.
pub fn move_of_index(index: u16) -> Option<Move> {
    Move::from_index(index)
}

/// Speed lines for `ishi bench`: the first move on the empty 6x6 board with one thread and,
/// when more, `threads` threads; `scale` multiplies the 20,000 playouts of each case.
pub fn bench_lines(threads: usize, scale: f64) -> Vec<String> {
    let mut thread_counts = vec![1];
    if threads > 1 {
        thread_counts.push(threads);
    }
    let playouts = ((20_000.0 * scale) as u64).max(100);
    let mut lines = Vec::new();
    for thread_count in thread_counts {
        let Ok(game) = Game::new(6) else {
            continue;
        };
        let mut search =
            GameSearch::<Position>::new(SearchParams::default(), thread_count, 1, 256 << 20);
        let limits = RunLimits {
            playouts: Some(playouts),
            ..RunLimits::default()
        };
        let start = Instant::now();
        let choice = search_game(&mut search, &game, Color::White, None, &limits);
        let seconds = start.elapsed().as_secs_f64().max(1e-9);
        lines.push(format!(
            "margo 6x6 threads {thread_count}: {:.0} playouts/s ({} playouts, {} nodes)",
            choice.playouts as f64 / seconds,
            choice.playouts,
            search.node_count()
        ));
    }
    lines
}
