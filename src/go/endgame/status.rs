//! The end-of-game status of every chain (dead, alive or seki), judged once per position.
//!
//! Four sources, strongest first:
//! 1. Benson's pass-alive analysis ([`score::pass_alive`]): pass-alive chains live, stones in
//!    the other colour's pass-alive territory are dead. Playouts never override it.
//! 2. Ownership of heavy playouts started by black and white in turn: a chain whose points the
//!    other colour owns at the end of more playouts than its own colour is dead. Playouts run
//!    in batches until every undecided chain is clearly on one side (or a cap is reached).
//! 3. Shapes the playouts misjudge, read from the position and applied over their verdict:
//!    bent four in the corner; a group whose only liberties make one eye space that gives one
//!    eye whoever moves first (one or two points, a square of four) against stronger chains;
//!    a nakade, a small chain inside a group that has no liberty but the chain's, where the
//!    space left after the capture is a dead shape (the chain touching the group, or sitting
//!    on the vital point of the group's only eye space).
//! 4. Seki: an empty point next to live chains of both colours that the playouts leave empty
//!    (neither side can fill it without putting its own chain into atari) makes the chains
//!    around it seki, together with the chains sharing an eye with them.
//!
//! Under rules without a friendly pass (Tromp-Taylor) and in capture Go every stone on the
//! board counts as alive: the game is scored as it stands, so nothing is reported dead.

use crate::color::Color;
use crate::go::rules::board::Board;
use crate::go::rules::game::Game;
use crate::go::rules::point::{Move, Point};
use crate::go::rules::rules::{Scoring, WinCondition};
use crate::go::rules::score::{self, StoneStatus};
use crate::go::search::board::{PlayoutBoard, BLACK, EMPTY, WHITE};
use crate::go::search::playout::{play_out, PlayoutSettings};
use crate::search::random::Random;
use crate::search::{PlayoutPolicy, SearchParams};

/// How many playouts judge a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JudgeSettings {
    /// Playouts per batch; the judgement stops after a batch when it is clear.
    pub batch: usize,
    /// Playouts at most.
    pub maximum: usize,
    /// Probability that the playouts refuse a self-atari of one or two stones. Lower than
    /// the search's: at the end of a game the throw-ins that kill are what matters.
    pub self_atari_reject: f64,
}

impl Default for JudgeSettings {
    fn default() -> JudgeSettings {
        JudgeSettings {
            batch: 128,
            maximum: 1024,
            self_atari_reject: 0.5,
        }
    }
}

/// A chain is decided when its mean ownership is this many standard errors from zero.
const CLEAR_MARGIN_IN_STANDARD_ERRORS: f64 = 3.0;

/// Share of playouts leaving a point empty between both colours that makes it a seki point
/// when filling it would be self-atari for both colours (and without that check).
const SEKI_EMPTY_SHARE_WITH_SELF_ATARI: f64 = 0.25;
const SEKI_EMPTY_SHARE_ALONE: f64 = 0.6;

/// What the playouts saw at their ends, per point index.
#[derive(Clone, Debug, Default)]
pub struct PlayoutStatistics {
    /// Playouts run.
    pub playouts: usize,
    /// Playouts ending with the point black's minus those ending with it white's.
    pub ownership: Vec<i64>,
    /// Playouts ending with the point empty and touching both colours (or neither).
    pub empty_between: Vec<u32>,
}

impl PlayoutStatistics {
    /// Mean owner of the point: +1 always black, -1 always white.
    pub fn mean_owner(&self, point: Point) -> f64 {
        if self.playouts == 0 {
            return 0.0;
        }
        self.ownership[point.index()] as f64 / self.playouts as f64
    }

    /// Share of playouts that ended with the point empty between both colours.
    pub fn empty_between_share(&self, point: Point) -> f64 {
        if self.playouts == 0 {
            return 0.0;
        }
        self.empty_between[point.index()] as f64 / self.playouts as f64
    }
}

/// A chain whose mean ownership lies within this of zero (between 30% and 70% of the
/// playouts) is still being fought over.
const UNSETTLED_SHARE: f64 = 0.4;

/// An empty region of at least this many points that belongs to nobody once the dead stones
/// are removed is still open (dame and seki liberties are smaller).
const OPEN_REGION_POINTS: usize = 4;

/// The end-of-game status of a position and whether the game is really over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// Dead and seki stones.
    pub status: StoneStatus,
    /// Chains whose fate the playouts leave open, plus open regions: when nonzero, passing
    /// now would leave the result to the referee's guess, so the search plays on.
    pub unsettled: usize,
    /// One stone of each chain whose fate the playouts leave open.
    pub fought_over: Vec<Point>,
}

/// The status of every stone of `game`'s position. Deterministic for a seed.
pub fn judge(game: &Game, params: &SearchParams, settings: JudgeSettings, seed: u64) -> Judgement {
    let board = game.board();
    let benson = score::pass_alive(board);
    let chains = board.chain_heads();
    let undecided: Vec<Point> = chains
        .iter()
        .copied()
        .filter(|&head| {
            benson.alive[head.index()].is_none() && benson.territory[head.index()].is_none()
        })
        .collect();
    let statistics = if undecided.is_empty() {
        PlayoutStatistics::default()
    } else {
        run_playouts(game, params, settings, seed, &undecided)
    };

    let mut status = StoneStatus::all_alive(board);
    let counted_as_it_stands =
        !game.rules().friendly_pass_ok || matches!(game.rules().win, WinCondition::Captures(_));
    if counted_as_it_stands {
        // Every stone on the board counts (Tromp-Taylor; capture Go, where stones are taken
        // off only by capturing): nothing is dead, but seki is still reported.
        mark_seki(board, &mut status, &statistics);
        return Judgement {
            status,
            unsettled: 0,
            fought_over: Vec::new(),
        };
    }
    let mut fought_over = Vec::new();
    for &head in &chains {
        let Some(color) = board.stone(head) else {
            continue;
        };
        let dead = if benson.alive[head.index()].is_some() {
            false
        } else if benson.territory[head.index()] == Some(color.opponent()) {
            true
        } else if statistics.playouts > 0 {
            let share = own_share(board, head, color, &statistics);
            let fought = share.abs() < UNSETTLED_SHARE;
            if fought {
                fought_over.push(head);
            }
            // Under territory rules a chain in atari that its owner saves by connecting is
            // counted alive: the owner must connect before the count (a point for nobody).
            let saved_by_connecting = fought
                && game.rules().scoring == Scoring::Territory
                && saves_chain_in_atari(board, head, color);
            share < 0.0 && !saved_by_connecting
        } else {
            false
        };
        if dead {
            for stone in board.chain_stones(head) {
                status.dead[stone.index()] = true;
            }
        }
    }
    mark_bent_four_dead(board, &mut status);
    mark_one_eye_groups_dead(board, &benson, &mut status);
    mark_nakade_kills(board, &chains, &mut status);
    mark_seki(board, &mut status, &statistics);
    let unsettled = fought_over.len() + open_regions(board, &status);
    Judgement {
        status,
        unsettled,
        fought_over,
    }
}

/// Whether the chain at `head` is in atari and `color` playing its liberty leaves it at
/// least two liberties.
fn saves_chain_in_atari(board: &Board, head: Point, color: Color) -> bool {
    if board.liberties(head) != 1 {
        return false;
    }
    let Some(liberty) = board.any_liberty(head) else {
        return false;
    };
    let mut trial = board.clone();
    trial.try_play(Move::Place(liberty), color, false).is_ok() && trial.liberties(liberty) >= 2
}

/// Empty regions of [`OPEN_REGION_POINTS`] or more that touch both colours' live stones.
fn open_regions(board: &Board, status: &StoneStatus) -> usize {
    let occupant = |point: Point| -> Option<Color> {
        if status.dead[point.index()] {
            None
        } else {
            board.stone(point)
        }
    };
    let mut visited = vec![false; board.array_length()];
    let mut open = 0;
    for start in board.points() {
        if visited[start.index()] || occupant(start).is_some() {
            continue;
        }
        let (region, borders) = score::flood_region(board, start, &occupant, &mut visited);
        let owned = borders[0] != borders[1];
        if !owned && region.len() >= OPEN_REGION_POINTS {
            open += 1;
        }
    }
    open
}

/// Marks dead the chains whose only liberties form a bent four in the corner: the attacker
/// kills them through a ko the defender cannot win, as it may first remove every ko threat
/// (the Japanese rules call such a group dead outright; under area rules it can be killed).
/// Playouts rarely see this, so the shape is recognised directly.
fn mark_bent_four_dead(board: &Board, status: &mut StoneStatus) {
    let size = board.size();
    if size < 4 {
        return;
    }
    let last = size - 1;
    let corners = [
        (0, 0, 1, 1),
        (last, 0, -1, 1),
        (0, last, 1, -1),
        (last, last, -1, -1),
    ];
    for (column, row, step_column, step_row) in corners {
        let at = |along_column: isize, along_row: isize| {
            let x = column as isize + along_column * step_column;
            let y = row as isize + along_row * step_row;
            crate::go::rules::point::point_at(x as usize, y as usize, size)
        };
        // The corner, its two neighbours, and one more point along either edge.
        for shape in [
            [at(0, 0), at(1, 0), at(0, 1), at(2, 0)],
            [at(0, 0), at(1, 0), at(0, 1), at(0, 2)],
        ] {
            if let Some(chains) = enclosing_chains(board, &shape) {
                for head in chains {
                    for stone in board.chain_stones(head) {
                        status.dead[stone.index()] = true;
                    }
                }
            }
        }
    }
}

/// Marks dead the groups whose only liberties form one empty eye space that makes one eye
/// whoever moves first: one point, two, or four in a square. Playouts see such groups live
/// when neither side will throw stones in (a square of four is filled only by self-ataris).
/// Only where every chain of the other colour around them is pass-alive or has more liberties
/// than the group's eye space gives it in a capturing race (1, 2 and 5), with one to spare,
/// and is not itself judged dead: the group cannot live by capturing.
fn mark_one_eye_groups_dead(board: &Board, benson: &score::PassAlive, status: &mut StoneStatus) {
    let mut seen = vec![false; board.array_length()];
    let stone = |point: Point| board.stone(point);
    for start in board.points() {
        if board.stone(start).is_some() || seen[start.index()] {
            continue;
        }
        let (region, _) = score::flood_region(board, start, &stone, &mut seen);
        let race_liberties = match region.len() {
            1 => 1,
            2 => 2,
            4 if is_square(board, &region) => 5,
            _ => continue,
        };
        let Some(owners) = enclosing_chains(board, &region) else {
            continue;
        };
        let color = board.stone(owners[0]).expect("an owner chain has stones");
        let owner_stones: Vec<Point> = owners
            .iter()
            .flat_map(|&head| board.chain_stones(head))
            .collect();
        let attackers = opponent_chains_next_to(board, &owner_stones, color);
        let attackers_safe = !attackers.is_empty()
            && attackers.iter().all(|&head| {
                !status.dead[head.index()]
                    && (benson.alive[head.index()].is_some()
                        || board.chain_liberties(head, race_liberties + 2).len()
                            > race_liberties + 1)
            });
        if attackers_safe {
            for stone in owner_stones {
                status.dead[stone.index()] = true;
            }
        }
    }
}

/// Whether the points fill a two-by-two square (four points) or hold one (more).
fn is_square(board: &Board, points: &[Point]) -> bool {
    let inside = |point: Point| points.contains(&point);
    let size = board.size();
    points.iter().any(|&point| {
        let (column, row) = crate::go::rules::point::coordinates(point, size);
        column + 1 < size
            && row + 1 < size
            && [(1, 0), (0, 1), (1, 1)].iter().all(|&(right, up)| {
                inside(crate::go::rules::point::point_at(
                    column + right,
                    row + up,
                    size,
                ))
            })
    })
}

/// When the `shape` points are empty, bordered by stones of one colour only, and those
/// chains have no liberty elsewhere, one stone of each of those chains.
fn enclosing_chains(board: &Board, shape: &[Point]) -> Option<Vec<Point>> {
    if shape.iter().any(|&point| board.stone(point).is_some()) {
        return None;
    }
    let mut owner: Option<Color> = None;
    let mut heads: Vec<Point> = Vec::new();
    for &point in shape {
        for neighbour in board.neighbours(point) {
            if !board.is_on_board(neighbour) || shape.contains(&neighbour) {
                continue;
            }
            let color = board.stone(neighbour)?;
            if owner.is_some_and(|owner| owner != color) {
                return None;
            }
            owner = Some(color);
            let head = board.chain(neighbour);
            if !heads.contains(&head) {
                heads.push(head);
            }
        }
    }
    owner?;
    let all_inside = heads.iter().all(|&head| {
        board
            .chain_liberties(head, usize::MAX)
            .iter()
            .all(|liberty| shape.contains(liberty))
    });
    all_inside.then_some(heads)
}

/// Largest chain whose liberties are checked for a nakade kill.
const NAKADE_CHAIN_STONES: usize = 6;
/// Largest eye space a nakade kill can leave (bulky five and the cross are the largest dead
/// shapes recognised).
const NAKADE_SPACE_POINTS: usize = 5;

/// Marks dead the chains a nakade kills, which look like seki to playouts that never sacrifice
/// several stones: a small chain of one colour inside a group of the other that has no
/// liberty but the chain's. The chain's owner fills all its liberties but one; the group, in
/// atari on that last point with the chain, must capture, and the space it gets back (the
/// chain and the filled points) is a dead eye shape, where the next move kills.
fn mark_nakade_kills(board: &Board, chains: &[Point], status: &mut StoneStatus) {
    for &head in chains {
        if let Some(victims) = nakade_victims(board, head) {
            for victim in victims {
                status.dead[victim.index()] = true;
            }
            for stone in board.chain_stones(head) {
                status.dead[stone.index()] = false;
            }
        }
    }
}

/// The stones a nakade from the chain at `head` kills (see [`mark_nakade_kills`]), or `None`.
fn nakade_victims(board: &Board, head: Point) -> Option<Vec<Point>> {
    let color = board.stone(head)?;
    let stones: Vec<Point> = board.chain_stones(head).collect();
    if stones.len() > NAKADE_CHAIN_STONES {
        return None;
    }
    let liberties = board.chain_liberties(head, NAKADE_SPACE_POINTS + 1);
    if liberties.len() < 2 || stones.len() + liberties.len() - 1 > NAKADE_SPACE_POINTS {
        return None;
    }
    // The surrounding chains of the other colour, with no liberty outside the chain's: those
    // touching the chain, or, where none does, those around its liberties when the chain and
    // its liberties fill the space they enclose (a stone on the vital point of an eye space).
    let mut surrounding = opponent_chains_next_to(board, &stones, color);
    if surrounding.is_empty() {
        let enclosed = liberties.iter().all(|&liberty| {
            board
                .neighbours(liberty)
                .iter()
                .filter(|&&neighbour| board.is_on_board(neighbour))
                .all(|&neighbour| match board.stone(neighbour) {
                    None => liberties.contains(&neighbour),
                    Some(stone) => stone != color || stones.contains(&neighbour),
                })
        });
        if !enclosed {
            return None;
        }
        surrounding = opponent_chains_next_to(board, &liberties, color);
    }
    if surrounding.is_empty() {
        return None;
    }
    for &other in &surrounding {
        let outside = board
            .chain_liberties(other, usize::MAX)
            .iter()
            .any(|liberty| !liberties.contains(liberty));
        if outside {
            return None;
        }
    }
    let kills = liberties.iter().any(|&last| {
        let space: Vec<Point> = stones
            .iter()
            .copied()
            .chain(liberties.iter().copied().filter(|&liberty| liberty != last))
            .collect();
        is_dead_shape(board, &space)
    });
    if !kills {
        return None;
    }
    Some(
        surrounding
            .iter()
            .flat_map(|&other| board.chain_stones(other))
            .collect(),
    )
}

/// The chains of `color`'s opponent next to any of `points`, one stone of each.
fn opponent_chains_next_to(board: &Board, points: &[Point], color: Color) -> Vec<Point> {
    let mut chains: Vec<Point> = Vec::new();
    for &point in points {
        for neighbour in board.neighbours(point) {
            if board.is_on_board(neighbour) && board.stone(neighbour) == Some(color.opponent()) {
                let other = board.chain(neighbour);
                if !chains.contains(&other) {
                    chains.push(other);
                }
            }
        }
    }
    chains
}

/// Whether an eye space of these points dies to a move at its vital point: up to three
/// points, four in a square or a T, five in a bulky five or a cross.
fn is_dead_shape(board: &Board, space: &[Point]) -> bool {
    let inside = |point: Point| space.contains(&point);
    let most_neighbours = space
        .iter()
        .map(|&point| {
            board
                .neighbours(point)
                .iter()
                .filter(|&&neighbour| inside(neighbour))
                .count()
        })
        .max()
        .unwrap_or(0);
    let has_square = is_square(board, space);
    match space.len() {
        0..=3 => true,
        4 => has_square || most_neighbours >= 3,
        5 => has_square || most_neighbours >= 4,
        _ => false,
    }
}

/// The chain's mean ownership from its own colour's side: +1 when it always survives, -1
/// when the other colour always owns its points.
fn own_share(board: &Board, head: Point, color: Color, statistics: &PlayoutStatistics) -> f64 {
    let mut sum = 0.0;
    let mut stones = 0.0;
    for stone in board.chain_stones(head) {
        sum += statistics.mean_owner(stone);
        stones += 1.0;
    }
    let mean = sum / stones;
    if color == Color::Black {
        mean
    } else {
        -mean
    }
}

/// Heavy playouts from the position, black and white starting in turn, in batches until
/// every chain of `undecided` is clearly alive or dead or the maximum is reached.
pub fn run_playouts(
    game: &Game,
    params: &SearchParams,
    settings: JudgeSettings,
    seed: u64,
    undecided: &[Point],
) -> PlayoutStatistics {
    let board = game.board();
    let size = board.size();
    let length = board.array_length();
    let mut params = params.clone();
    params.playout = PlayoutPolicy::Heavy;
    params.playout_self_atari_reject = settings.self_atari_reject;
    let playout_settings = PlayoutSettings::new(&params, size, game.komi(), None);
    // Black starts the even playouts and white the odd ones, whoever is to move, so that the
    // judgement of a position is the same before and after a pass.
    let starts = [
        PlayoutBoard::from_board(board, Color::Black),
        PlayoutBoard::from_board(board, Color::White),
    ];
    let mut scratch = PlayoutBoard::new(size);
    let mut random = Random::new(seed);
    let mut sequence = Vec::with_capacity(size * size * 4);
    let mut statistics = PlayoutStatistics {
        playouts: 0,
        ownership: vec![0; length],
        empty_between: vec![0; length],
    };
    let batch = settings.batch.max(1);
    while statistics.playouts < settings.maximum.max(1) {
        for _ in 0..batch {
            let side = statistics.playouts % 2;
            let to_move = if side == 0 {
                Color::Black
            } else {
                Color::White
            };
            scratch.copy_from(&starts[side]);
            sequence.clear();
            let _ = play_out(
                &mut scratch,
                to_move,
                &playout_settings,
                &mut random,
                &mut sequence,
            );
            record_ending(board, &scratch, &mut statistics);
        }
        if all_clear(board, undecided, &statistics) {
            break;
        }
    }
    statistics
}

/// Adds one finished playout board to the statistics.
fn record_ending(board: &Board, ending: &PlayoutBoard, statistics: &mut PlayoutStatistics) {
    for point in board.points() {
        let index = point.index();
        match ending.area_owner(index) {
            BLACK => statistics.ownership[index] += 1,
            WHITE => statistics.ownership[index] -= 1,
            _ => {
                if ending.cell(index) == EMPTY {
                    statistics.empty_between[index] += 1;
                }
            }
        }
    }
    statistics.playouts += 1;
}

/// Whether every chain's mean ownership is clearly away from zero.
fn all_clear(board: &Board, undecided: &[Point], statistics: &PlayoutStatistics) -> bool {
    let margin = CLEAR_MARGIN_IN_STANDARD_ERRORS / (statistics.playouts as f64).sqrt();
    undecided.iter().all(|&head| {
        board
            .stone(head)
            .is_none_or(|color| own_share(board, head, color, statistics).abs() > margin)
    })
}

/// Marks seki: live chains next to an empty point between both colours that playouts leave
/// empty, and the live chains sharing an eye with them.
fn mark_seki(board: &Board, status: &mut StoneStatus, statistics: &PlayoutStatistics) {
    if statistics.playouts == 0 {
        return;
    }
    let live = |point: Point| -> Option<Color> {
        if status.dead[point.index()] {
            None
        } else {
            board.stone(point)
        }
    };
    let mut seki_heads: Vec<Point> = Vec::new();
    for point in board.points() {
        if board.stone(point).is_some() {
            continue;
        }
        let mut touches = [false, false];
        for neighbour in board.neighbours(point) {
            if let Some(color) = live(neighbour) {
                touches[color.index()] = true;
            }
        }
        if !(touches[0] && touches[1]) {
            continue;
        }
        let share = statistics.empty_between_share(point);
        let unfillable = Color::ALL
            .iter()
            .all(|&color| filling_is_self_atari(board, point, color));
        let seki_point = share >= SEKI_EMPTY_SHARE_ALONE
            || (unfillable && share >= SEKI_EMPTY_SHARE_WITH_SELF_ATARI);
        if seki_point {
            for neighbour in board.neighbours(point) {
                if live(neighbour).is_some() {
                    seki_heads.push(neighbour);
                }
            }
        }
    }
    let mut seki = vec![false; board.array_length()];
    let mut pending = seki_heads;
    while let Some(head) = pending.pop() {
        if seki[head.index()] {
            continue;
        }
        let color = board.stone(head).expect("a seki chain has stones");
        let stones: Vec<Point> = board.chain_stones(head).collect();
        for &stone in &stones {
            seki[stone.index()] = true;
        }
        // Chains of the same colour bordering an eye (an empty region touching only this
        // colour's live stones) of this chain share its fate.
        for &stone in &stones {
            for neighbour in board.neighbours(stone) {
                if board.is_on_board(neighbour) && board.stone(neighbour).is_none() {
                    for partner in eye_partners(board, neighbour, color, &live) {
                        if !seki[partner.index()] {
                            pending.push(partner);
                        }
                    }
                }
            }
        }
    }
    for point in board.points() {
        if seki[point.index()] && !status.dead[point.index()] {
            status.seki[point.index()] = true;
        }
    }
}

/// When the empty region around `start` (dead stones count as empty) touches only live
/// stones of `color`, the live stones bordering it; otherwise none.
fn eye_partners(
    board: &Board,
    start: Point,
    color: Color,
    live: &impl Fn(Point) -> Option<Color>,
) -> Vec<Point> {
    const MAXIMUM_EYE: usize = 12;
    let mut region = vec![start];
    let mut borders = Vec::new();
    let mut cursor = 0;
    while cursor < region.len() {
        let current = region[cursor];
        cursor += 1;
        for neighbour in board.neighbours(current) {
            if !board.is_on_board(neighbour) || region.contains(&neighbour) {
                continue;
            }
            match live(neighbour) {
                Some(other) if other != color => return Vec::new(),
                Some(_) => borders.push(neighbour),
                None => {
                    region.push(neighbour);
                    if region.len() > MAXIMUM_EYE {
                        return Vec::new();
                    }
                }
            }
        }
    }
    borders
}

/// Whether `color` playing on the empty `point` is illegal, or leaves its chain with one
/// liberty without capturing anything.
fn filling_is_self_atari(board: &Board, point: Point, color: Color) -> bool {
    let mut trial = board.clone();
    if trial.try_play(Move::Place(point), color, false).is_err() {
        return true;
    }
    trial.captures(color) == board.captures(color) && trial.liberties(point) <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::rules::Rules;

    fn game_from(diagram: &str, rules: Rules) -> Game {
        crate::go::endgame::game_from_diagram(diagram, rules, 7.5)
    }

    fn dead_points(game: &Game, status: &StoneStatus) -> Vec<String> {
        let board = game.board();
        board
            .points()
            .filter(|point| status.dead[point.index()])
            .map(|point| board.vertex(point))
            .collect()
    }

    /// Black owns the four left columns, white the rest; a white stone at B8 and a black one
    /// at G3 are dead.
    const TWO_LONE_STONES: &str = ". . . X O . . . .
        . O . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . X . .
        . . . X O . . . .
        . . . X O . . . .";

    fn judge_default(game: &Game) -> StoneStatus {
        judge(game, &SearchParams::default(), JudgeSettings::default(), 1).status
    }

    #[test]
    fn lone_stone_in_territory_is_dead() {
        let game = game_from(TWO_LONE_STONES, Rules::chinese());
        let status = judge_default(&game);
        let dead = dead_points(&game, &status);
        assert!(dead.contains(&"B8".to_string()), "{dead:?}");
        assert!(dead.contains(&"G3".to_string()), "{dead:?}");
        assert_eq!(dead.len(), 2, "{dead:?}");
    }

    #[test]
    fn tromp_taylor_counts_every_stone_alive() {
        let game = game_from(TWO_LONE_STONES, Rules::tromp_taylor());
        let status = judge_default(&game);
        assert!(dead_points(&game, &status).is_empty());
    }

    /// White's only eye space on the right edge (H5, J4, J5, J6) is a pyramid four whose
    /// vital point, J5, black holds; white has no liberty outside it (game 13 of a 19x19
    /// match against Pachi ended on this shape, and ishi counted the group alive).
    const PYRAMID_WITH_THE_VITAL_POINT_TAKEN: &str = ". . . . . X X X X
        . . . . . X O O O
        . . . . . X O O O
        . . . . . X O O .
        . . . . . X O . X
        . . . . . X O O .
        . . . . . X O O O
        . . . . . X X X X
        . . . . . . . . .";

    #[test]
    fn a_group_whose_eye_space_holds_the_vital_point_is_dead() {
        let game = game_from(PYRAMID_WITH_THE_VITAL_POINT_TAKEN, Rules::chinese());
        let status = judge_default(&game);
        let dead = dead_points(&game, &status);
        let white = game
            .board()
            .points()
            .filter(|&point| game.board().stone(point) == Some(Color::White))
            .count();
        assert_eq!(dead.len(), white, "{dead:?}");
        assert!(!dead.contains(&"J5".to_string()), "{dead:?}");
    }

    #[test]
    fn the_same_group_with_a_second_eye_lives() {
        let game = game_from(
            ". . . . . X X X X
            . . . . . X O O O
            . . . . . X O . O
            . . . . . X O O .
            . . . . . X O . X
            . . . . . X O O .
            . . . . . X O O O
            . . . . . X X X X
            . . . . . . . . .",
            Rules::chinese(),
        );
        let status = judge_default(&game);
        let dead = dead_points(&game, &status);
        assert_eq!(dead, vec!["J5".to_string()], "{dead:?}");
    }

    #[test]
    fn a_group_whose_only_eye_space_is_a_square_of_four_is_dead() {
        let game = game_from(
            "X . . X O . . . .
            X . . X O . . . .
            X X X X O . . . .
            O O O O O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            Rules::chinese(),
        );
        let status = judge_default(&game);
        let dead = dead_points(&game, &status);
        assert_eq!(dead.len(), 8, "{dead:?}");
        assert!(dead.contains(&"A9".to_string()), "{dead:?}");
    }

    #[test]
    fn a_one_eye_group_next_to_a_short_chain_is_left_to_the_playouts() {
        // The white chain E7-E9 has three liberties: black, with a square's five in the race,
        // could capture it, so the rule does not decide (the playouts do).
        let board = Board::from_diagram(
            "X . . X O . X . .
            X . . X O . X . .
            X X X X O . X . .
            O O O O X X . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .expect("diagram");
        let mut status = StoneStatus::all_alive(&board);
        mark_one_eye_groups_dead(&board, &score::pass_alive(&board), &mut status);
        assert!(status.dead.iter().all(|&dead| !dead));
    }

    #[test]
    fn judgement_repeats_for_a_seed() {
        let game = game_from(
            "
            . X O . .
            X X O . .
            . X O O .
            X X X O .
            . X . O .
            ",
            Rules::chinese(),
        );
        let first = judge_default(&game);
        let second = judge_default(&game);
        assert_eq!(first, second);
    }
}
