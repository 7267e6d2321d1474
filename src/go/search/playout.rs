//! Playouts: from a position on a [`PlayoutBoard`], both sides move until two passes (or a
//! move limit, or a capture-Go target), then the area decides. Two policies:
//!
//! * light: a uniformly random legal move that does not fill an own eye;
//! * heavy (Moggy-class): answers to the last move first — capture a chain it left in
//!   atari, save own chains it put in atari (by capturing or extending), 2-liberty tactics
//!   (atari a 2-liberty chain, extend an own one), the vital point of a 3-point eye space
//!   (nakade), a MoGo 3x3 shape around the last move — each taken with a probability; then
//!   a random move that is neither an own-eye fill nor (mostly) a self-atari, except small
//!   self-ataris that may be throw-ins or nakade.
//!
//! Knows the playout board, the patterns and the policy's probabilities; nothing of trees.

use crate::color::Color;
use crate::go::search::black_view;
use crate::go::search::board::{
    stone_code, LibertiesBesides, PlayoutBoard, BORDER, EMPTY, NO_POINT,
};
use crate::go::search::patterns::{self, code_at, PatternTable};
use crate::go::search::playout_patterns::{self, PlayoutGammas};
use crate::search::domain::{encode, Outcome};
use crate::search::params::{PlayoutPolicy, SearchParams};
use crate::search::random::{threshold, Random};

/// Everything a playout needs to know besides the board.
#[derive(Clone, Debug)]
pub struct PlayoutSettings {
    /// Light or heavy.
    pub policy: PlayoutPolicy,
    /// Komi plus white's handicap compensation, in points.
    pub komi: f64,
    /// Black's extra komi in the playouts' count (dynamic komi, `dynamic_komi`; negative
    /// when White must win by more): the network judges at `komi` unless
    /// `network_komi_scale` weighs its lead against the extra komi.
    pub playout_komi_shift: f64,
    /// The points of the network's lead a unit of its win logit under dynamic komi
    /// (`dynamic_komi_scale`; 0: the network judges at `komi`).
    pub network_komi_scale: f64,
    /// Capture-Go target (total captures of a colour, game captures included).
    pub capture_target: Option<u32>,
    /// Moves after which the playout is scored as it stands.
    pub move_limit: usize,
    capture: u64,
    escape: u64,
    two_liberties: u64,
    nakade: u64,
    pattern: u64,
    self_atari_reject: u64,
    self_atari_nakade: usize,
    /// The learned answer shapes, when the parameters ask for them and they load.
    shapes: Option<&'static PlayoutGammas>,
    /// The value network judges each position under a symmetry of its own
    /// (`value_symmetry`).
    pub value_symmetry: bool,
    /// The empty points a position needs for the value network to judge it
    /// (`value_empty` percent of the board).
    pub value_minimum_empty: usize,
}

impl PlayoutSettings {
    /// Settings for a board of `size` from the parameters.
    pub fn new(
        params: &SearchParams,
        size: usize,
        komi: f64,
        capture_target: Option<u32>,
    ) -> PlayoutSettings {
        PlayoutSettings {
            policy: params.playout,
            komi,
            playout_komi_shift: 0.0,
            network_komi_scale: f64::from(params.dynamic_komi_scale),
            capture_target,
            move_limit: size * size * params.playout_length_factor.max(1) as usize,
            capture: threshold(params.playout_capture),
            escape: threshold(params.playout_escape),
            two_liberties: threshold(params.playout_two_liberties),
            nakade: threshold(params.playout_nakade),
            pattern: threshold(params.playout_pattern),
            self_atari_reject: threshold(params.playout_self_atari_reject),
            self_atari_nakade: params.playout_self_atari_nakade as usize,
            shapes: if params.playout_learned_shapes {
                playout_patterns::shipped()
            } else {
                None
            },
            value_symmetry: params.value_symmetry,
            value_minimum_empty: (size * size * params.value_empty.min(100) as usize).div_ceil(100),
        }
    }

    /// The komi a playout is counted with: `komi` plus the dynamic komi's shift.
    #[inline]
    pub fn playout_komi(&self) -> f64 {
        self.komi + self.playout_komi_shift
    }

    /// The dynamic komi's extra points that `player` must win by (negative: the points its
    /// opponent must win by).
    #[inline]
    pub fn extra_komi_for(&self, player: Color) -> f64 {
        black_view(player, self.playout_komi_shift)
    }
}

/// Plays the position out with `to_move` first, recording each move with [`encode`] in
/// `sequence`, and scores it.
pub fn play_out(
    board: &mut PlayoutBoard,
    to_move: Color,
    settings: &PlayoutSettings,
    random: &mut Random,
    sequence: &mut Vec<u16>,
) -> Outcome {
    let table = patterns::table();
    let mut color = to_move;
    let mut passes = 0;
    for _ in 0..settings.move_limit {
        let point = match settings.policy {
            PlayoutPolicy::Light => random_move(board, color, random, None),
            PlayoutPolicy::Heavy => heavy_move(board, color, random, settings, table),
        };
        sequence.push(encode(point, color));
        if point == NO_POINT {
            board.pass();
            passes += 1;
            if passes >= 2 {
                break;
            }
        } else {
            board.play(point, color);
            passes = 0;
            if let Some(target) = settings.capture_target {
                if board.captures(color) >= target {
                    return Outcome {
                        winner: Some(color),
                        black_margin: board.area_margin() as f64 - settings.playout_komi(),
                    };
                }
            }
        }
        color = color.opponent();
    }
    score(board, settings.playout_komi())
}

/// Area score of a finished playout.
pub fn score(board: &PlayoutBoard, komi: f64) -> Outcome {
    Outcome::from_margin(board.area_margin() as f64 - komi)
}

/// A uniformly random legal move of `color` that does not fill its own eye (and, with
/// `self_atari_filter`, is mostly not a self-atari); [`NO_POINT`] when there is none.
#[inline]
pub fn random_move(
    board: &mut PlayoutBoard,
    color: Color,
    random: &mut Random,
    self_atari_filter: Option<&PlayoutSettings>,
) -> usize {
    let mut live = board.empty_count();
    while live > 0 {
        let index = random.below(live);
        let point = board.empty_at(index);
        let mut acceptable = board.has_empty_neighbour(point)
            || (!board.is_eye(point, color) && board.is_legal_slow(point, color));
        if acceptable {
            if let Some(settings) = self_atari_filter {
                acceptable = !rejected_self_atari(board, point, color, settings, random);
            }
        }
        if acceptable {
            return point;
        }
        live -= 1;
        board.swap_empty(index, live);
    }
    NO_POINT
}

/// Whether the random phase refuses `point` as a self-atari.
#[inline]
fn rejected_self_atari(
    board: &PlayoutBoard,
    point: usize,
    color: Color,
    settings: &PlayoutSettings,
    random: &mut Random,
) -> bool {
    match self_atari_size(board, point, color) {
        None => false,
        Some(size) if size > settings.self_atari_nakade => true,
        Some(_) => random.chance(settings.self_atari_reject),
    }
}

/// When `color` playing on the empty `point` leaves its chain with one liberty (and captures
/// nothing), the size of that chain; `None` otherwise.
#[inline]
pub fn self_atari_size(board: &PlayoutBoard, point: usize, color: Color) -> Option<usize> {
    let own = stone_code(color);
    let opponent = own ^ BORDER;
    let mut liberties = [NO_POINT; 2];
    let mut count = 0;
    let mut chains = TouchingChains::new();
    for neighbour in board.neighbours(point) {
        let cell = board.cell(neighbour);
        if cell == EMPTY {
            if count == 1 {
                return None;
            }
            liberties[count] = neighbour;
            count += 1;
        } else if cell == opponent {
            if board.in_atari(neighbour) {
                return None;
            }
        } else if cell == own {
            chains.add(board.chain(neighbour));
        }
    }
    let mut size = 1;
    for (head, touching) in chains.iter() {
        size += board.chain_size(head);
        match board.liberties_besides_touching(head, point, touching) {
            LibertiesBesides::None => {}
            LibertiesBesides::One(liberty) => {
                if !liberties[..count].contains(&liberty) {
                    if count == 1 {
                        return None;
                    }
                    liberties[count] = liberty;
                    count += 1;
                }
            }
            LibertiesBesides::Several => return None,
        }
    }
    Some(size)
}

/// The distinct chains next to a point, each with the number of its stones there.
struct TouchingChains {
    heads: [usize; 4],
    touching: [usize; 4],
    count: usize,
}

impl TouchingChains {
    #[inline(always)]
    fn new() -> TouchingChains {
        TouchingChains {
            heads: [NO_POINT; 4],
            touching: [0; 4],
            count: 0,
        }
    }

    /// Counts one more stone of the chain with representative `head`.
    #[inline(always)]
    fn add(&mut self, head: usize) {
        for index in 0..self.count {
            if self.heads[index] == head {
                self.touching[index] += 1;
                return;
            }
        }
        self.heads[self.count] = head;
        self.touching[self.count] = 1;
        self.count += 1;
    }

    /// The chains in the order first met, with their touching stones.
    #[inline(always)]
    fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.count).map(|index| (self.heads[index], self.touching[index]))
    }
}

/// A small list of candidate points without allocation.
struct Candidates {
    points: [u16; 32],
    count: usize,
}

impl Candidates {
    fn new() -> Candidates {
        Candidates {
            points: [0; 32],
            count: 0,
        }
    }

    #[inline]
    fn push(&mut self, point: usize) {
        let point = point as u16;
        if self.count < self.points.len() && !self.points[..self.count].contains(&point) {
            self.points[self.count] = point;
            self.count += 1;
        }
    }
}

/// Whether the heavy policy may play `point`: legal, not an own eye, not a self-atari
/// beyond the nakade size.
#[inline]
fn sensible(board: &PlayoutBoard, point: usize, color: Color, settings: &PlayoutSettings) -> bool {
    if board.cell(point) != EMPTY || !board.is_legal(point, color) || board.is_eye(point, color) {
        return false;
    }
    !matches!(self_atari_size(board, point, color), Some(size) if size > settings.self_atari_nakade.min(1))
}

/// The heavy policy's move for `color`, [`NO_POINT`] for a pass.
pub fn heavy_move(
    board: &mut PlayoutBoard,
    color: Color,
    random: &mut Random,
    settings: &PlayoutSettings,
    table: &PatternTable,
) -> usize {
    let last = board.last_move();
    if last != NO_POINT {
        if let Some(point) = local_move(board, last, color, random, settings, table) {
            return point;
        }
    }
    random_move(board, color, random, Some(settings))
}

/// The answers to the last move, in order of priority.
fn local_move(
    board: &PlayoutBoard,
    last: usize,
    color: Color,
    random: &mut Random,
    settings: &PlayoutSettings,
    table: &PatternTable,
) -> Option<usize> {
    let own = stone_code(color);
    let opponent = own ^ BORDER;
    let neighbours = board.neighbours(last);
    let mut candidates = Candidates::new();

    // Capture the last move's chain, or a chain next to it, left in atari.
    if random.chance(settings.capture) {
        if board.cell(last) == opponent && board.in_atari(last) {
            candidates.push(board.atari_liberty(last));
        }
        for neighbour in neighbours {
            if board.cell(neighbour) == opponent && board.in_atari(neighbour) {
                candidates.push(board.atari_liberty(neighbour));
            }
        }
        // Chains our own last move put in atari that the opponent left there.
        let own_last = board.second_last_move();
        if own_last != NO_POINT && board.cell(own_last) == own {
            for neighbour in board.neighbours(own_last) {
                if board.cell(neighbour) == opponent && board.in_atari(neighbour) {
                    candidates.push(board.atari_liberty(neighbour));
                }
            }
        }
        if let Some(point) = pick_sensible(board, &mut candidates, color, random, settings, true) {
            return Some(point);
        }
    }

    // Save own chains the last move put in atari.
    if random.chance(settings.escape) {
        for neighbour in neighbours {
            if board.cell(neighbour) == own && board.in_atari(neighbour) {
                escapes(board, neighbour, color, &mut candidates);
            }
        }
        if let Some(point) = pick_sensible(board, &mut candidates, color, random, settings, false) {
            return Some(point);
        }
    }

    // 2-liberty tactics around the last move.
    if random.chance(settings.two_liberties) {
        let mut chains = [NO_POINT; 5];
        chains[0] = if board.cell(last) == opponent {
            last
        } else {
            NO_POINT
        };
        chains[1..].copy_from_slice(&neighbours);
        let mut seen = [NO_POINT; 5];
        let mut seen_count = 0;
        for point in chains {
            let cell = board.cell(point);
            if point == NO_POINT || (cell != own && cell != opponent) {
                continue;
            }
            let head = board.chain(point);
            if seen[..seen_count].contains(&head) {
                continue;
            }
            seen[seen_count] = head;
            seen_count += 1;
            let Some(liberties) = board.two_liberties(head) else {
                continue;
            };
            for liberty in &liberties {
                // Atari an opponent chain, or extend an own chain to more liberties; either
                // way the stone played must keep at least two liberties itself.
                let enough = if cell == opponent {
                    new_liberties_up_to::<2>(board, *liberty, color) >= 2
                } else {
                    new_liberties_up_to::<3>(board, *liberty, color) >= 3
                };
                if enough {
                    candidates.push(*liberty);
                }
            }
        }
        if let Some(point) = pick_sensible(board, &mut candidates, color, random, settings, false) {
            return Some(point);
        }
    }

    // The vital point of a 3-point eye space next to the last move.
    if random.chance(settings.nakade) {
        for neighbour in neighbours {
            // The region borders the last move's stone, so one that touches an own stone
            // (checked first, cheaply) is bordered by both colours and has no vital point.
            if board.cell(neighbour) == EMPTY
                && !board
                    .neighbours(neighbour)
                    .iter()
                    .any(|&around| board.cell(around) == own)
            {
                if let Some(vital) = three_point_vital(board, neighbour) {
                    candidates.push(vital);
                }
            }
        }
        if let Some(point) = pick_sensible(board, &mut candidates, color, random, settings, true) {
            return Some(point);
        }
    }

    // Learned answer shapes, or MoGo's, around the last move.
    if let Some(shapes) = settings.shapes {
        if random.chance(settings.pattern) {
            return learned_answer(board, last, color, random, settings, shapes);
        }
        return None;
    }
    if random.chance(settings.pattern) {
        for point in board.ring(last) {
            if board.cell(point) == EMPTY && table.matches(board, point) {
                candidates.push(point);
            }
        }
        if let Some(point) = pick_sensible(board, &mut candidates, color, random, settings, false) {
            return Some(point);
        }
    }
    None
}

/// An empty neighbour of the last move drawn by the learned gammas of its shape, or `None`
/// when the draw falls on answering elsewhere (or no neighbour is sensible).
fn learned_answer(
    board: &PlayoutBoard,
    last: usize,
    color: Color,
    random: &mut Random,
    settings: &PlayoutSettings,
    shapes: &PlayoutGammas,
) -> Option<usize> {
    let mut points = [NO_POINT; 8];
    let mut gammas = [0.0f32; 8];
    let mut count = 0;
    let mut total = shapes.elsewhere;
    for point in board.ring(last) {
        if board.cell(point) == EMPTY {
            let gamma = shapes.gamma(code_at(board, point), color);
            points[count] = point;
            gammas[count] = gamma;
            total += gamma;
            count += 1;
        }
    }
    while count > 0 {
        let mut draw = (random.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32) * total;
        let mut chosen = count;
        for (index, gamma) in gammas[..count].iter().enumerate() {
            draw -= gamma;
            if draw < 0.0 {
                chosen = index;
                break;
            }
        }
        if chosen == count {
            return None;
        }
        let point = points[chosen];
        if sensible(board, point, color, settings) {
            return Some(point);
        }
        total -= gammas[chosen];
        count -= 1;
        points[chosen] = points[count];
        gammas[chosen] = gammas[count];
    }
    None
}

/// Picks a random sensible candidate (trying them in random order) and clears the list.
/// The empty list, the usual case, is answered inline.
#[inline(always)]
fn pick_sensible(
    board: &PlayoutBoard,
    candidates: &mut Candidates,
    color: Color,
    random: &mut Random,
    settings: &PlayoutSettings,
    allow_self_atari: bool,
) -> Option<usize> {
    if candidates.count == 0 {
        return None;
    }
    pick_sensible_among(board, candidates, color, random, settings, allow_self_atari)
}

/// [`pick_sensible`] for a list that is not empty.
#[inline(never)]
fn pick_sensible_among(
    board: &PlayoutBoard,
    candidates: &mut Candidates,
    color: Color,
    random: &mut Random,
    settings: &PlayoutSettings,
    allow_self_atari: bool,
) -> Option<usize> {
    while candidates.count > 0 {
        let index = random.below(candidates.count);
        let point = candidates.points[index] as usize;
        candidates.count -= 1;
        candidates.points[index] = candidates.points[candidates.count];
        let fine = if allow_self_atari {
            board.cell(point) == EMPTY
                && board.is_legal(point, color)
                && !board.is_eye(point, color)
        } else {
            sensible(board, point, color, settings)
        };
        if fine {
            candidates.count = 0;
            return Some(point);
        }
    }
    None
}

/// Moves that save the own chain through `chain` (in atari): capture an adjacent opponent
/// chain in atari, or extend on the liberty when that gives two or more liberties.
fn escapes(board: &PlayoutBoard, chain: usize, color: Color, candidates: &mut Candidates) {
    let opponent = stone_code(color) ^ BORDER;
    let mut stone = chain;
    let mut steps = 0;
    loop {
        for neighbour in board.neighbours(stone) {
            if board.cell(neighbour) == opponent && board.in_atari(neighbour) {
                candidates.push(board.atari_liberty(neighbour));
            }
        }
        stone = board.next_stone(stone);
        steps += 1;
        if stone == chain || steps > 64 {
            break;
        }
    }
    let liberty = board.atari_liberty(chain);
    if new_liberties_up_to::<2>(board, liberty, color) >= 2 {
        candidates.push(liberty);
    }
}

/// Liberties (counted up to 3) of the chain `color` would form by playing on `point`,
/// without looking at captures except that capturing counts as two.
pub fn new_liberties(board: &PlayoutBoard, point: usize, color: Color) -> usize {
    new_liberties_up_to::<3>(board, point, color)
}

/// [`new_liberties`] counted only up to `LIMIT` (at most 3): its answer or `LIMIT`,
/// whichever is smaller, found with less work when the limit is reached early.
#[inline(always)]
pub fn new_liberties_up_to<const LIMIT: usize>(
    board: &PlayoutBoard,
    point: usize,
    color: Color,
) -> usize {
    let own = stone_code(color);
    let opponent = own ^ BORDER;
    let mut liberties = [NO_POINT; 3];
    let mut count = 0;
    let mut captures = false;
    let mut chains = TouchingChains::new();
    for neighbour in board.neighbours(point) {
        let cell = board.cell(neighbour);
        if cell == EMPTY {
            // The neighbours are distinct: no test for a repeat.
            liberties[count] = neighbour;
            count += 1;
            if count == LIMIT {
                return LIMIT;
            }
        } else if cell == opponent {
            captures |= board.in_atari(neighbour);
        } else if cell == own {
            chains.add(board.chain(neighbour));
        }
    }
    for (head, touching) in chains.iter() {
        let mut found = [NO_POINT; 3];
        let got = match board.liberties_besides_touching(head, point, touching) {
            LibertiesBesides::None => 0,
            LibertiesBesides::One(liberty) => {
                found[0] = liberty;
                1
            }
            // Two or more besides `point` reach a limit of 2; four or more, three besides
            // `point`, any limit.
            LibertiesBesides::Several if LIMIT <= 2 || board.more_liberties_than(head, 3) => {
                return LIMIT
            }
            LibertiesBesides::Several => board.liberties_into(head, point, &mut found),
        };
        for &liberty in &found[..got] {
            if !liberties[..count].contains(&liberty) {
                liberties[count] = liberty;
                count += 1;
                if count == LIMIT {
                    return LIMIT;
                }
            }
        }
    }
    if captures {
        count += 2;
    }
    count.min(LIMIT)
}

/// When the empty region through `start` has exactly three points, all bordered by stones
/// of one colour, the vital point (the one touching both others).
pub fn three_point_vital(board: &PlayoutBoard, start: usize) -> Option<usize> {
    // Three points in a row or an L: either `start` is the middle, with two empty
    // neighbours whose only empty neighbour is `start`, or an end, whose one empty
    // neighbour is the middle, with `start` and one more end.
    let (around_start, count) = empty_neighbours(board, start);
    let (vital, region) = match count {
        2 => (start, [start, around_start[0], around_start[1]]),
        1 => {
            let middle = around_start[0];
            let (around_middle, middle_count) = empty_neighbours(board, middle);
            if middle_count != 2 {
                return None;
            }
            let end = if around_middle[0] == start {
                around_middle[1]
            } else {
                around_middle[0]
            };
            (middle, [start, middle, end])
        }
        _ => return None,
    };
    let mut colours = 0u8;
    for point in region {
        if point != vital && empty_neighbours(board, point).1 != 1 {
            return None;
        }
        for neighbour in board.neighbours(point) {
            let cell = board.cell(neighbour);
            if cell != EMPTY && cell != BORDER {
                colours |= cell;
            }
        }
    }
    if colours == BORDER || colours == 0 {
        return None;
    }
    Some(vital)
}

/// The empty neighbours of `point` (first in the array) and how many there are.
#[inline(always)]
fn empty_neighbours(board: &PlayoutBoard, point: usize) -> ([usize; 4], usize) {
    let mut empty = [NO_POINT; 4];
    let mut count = 0;
    for neighbour in board.neighbours(point) {
        empty[count] = neighbour;
        count += (board.cell(neighbour) == EMPTY) as usize;
    }
    (empty, count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::board::Board;
    use crate::go::search::board::vertex_index as at;

    fn heavy_board(diagram: &str, last: &str, to_move: Color) -> Box<PlayoutBoard> {
        let rules_board = Board::from_diagram(diagram).unwrap();
        let mut board = PlayoutBoard::from_board(&rules_board, to_move);
        // Make `last` the last move by replaying it: remove and put back is not available,
        // so the diagrams leave the last point empty and we play it here.
        let size = rules_board.size();
        board.play(at(size, last), to_move.opponent());
        board
    }

    fn heavy_choices(board: &PlayoutBoard, to_move: Color) -> Vec<usize> {
        let params = SearchParams {
            playout_capture: 1.0,
            playout_escape: 1.0,
            ..SearchParams::default()
        };
        let settings = PlayoutSettings::new(&params, board.size(), 7.5, None);
        let mut random = Random::new(3);
        let mut choices = Vec::new();
        for _ in 0..50 {
            let mut copy = board.clone();
            choices.push(heavy_move(
                &mut copy,
                to_move,
                &mut random,
                &settings,
                patterns::table(),
            ));
        }
        choices
    }

    #[test]
    fn heavy_policy_captures_a_chain_in_atari() {
        // White just played C3 into atari (its liberty is D3).
        let board = heavy_board(
            ". . . . .
             . . X . .
             . X . . .
             . . X . .
             . . . . .",
            "C3",
            Color::Black,
        );
        assert!(board.in_atari(at(5, "C3")));
        let choices = heavy_choices(&board, Color::Black);
        assert!(choices.iter().all(|&point| point == at(5, "D3")));
    }

    #[test]
    fn heavy_policy_escapes_from_atari() {
        // White C2 puts black C3 (liberty D3 after the move... black has C4 and D3).
        let board = heavy_board(
            ". . . . .
             . . O . .
             . O X . .
             . . . . .
             . . . . .",
            "C2",
            Color::Black,
        );
        assert!(board.in_atari(at(5, "C3")));
        let choices = heavy_choices(&board, Color::Black);
        assert!(choices.iter().all(|&point| point == at(5, "D3")));
    }

    #[test]
    fn self_atari_is_detected() {
        let rules_board = Board::from_diagram(
            ". O . . .
             O X O . .
             . O . . .
             . . . . .
             . . . . .",
        )
        .unwrap();
        let board = PlayoutBoard::from_board(&rules_board, Color::Black);
        // Black A4 is a self-atari of one stone; black B3... captures nothing: B4 is in atari
        // (liberty? none besides... B4 has no empty neighbour: it is already in atari? no).
        assert_eq!(self_atari_size(&board, at(5, "A5"), Color::Black), Some(1));
        assert_eq!(self_atari_size(&board, at(5, "D3"), Color::Black), None);
    }

    /// `self_atari_size` as it was before it used the pseudo-liberty answers: walking
    /// each own chain for its liberties.
    fn self_atari_size_by_walking(
        board: &PlayoutBoard,
        point: usize,
        color: Color,
    ) -> Option<usize> {
        let own = stone_code(color);
        let opponent = own ^ BORDER;
        let mut liberties = Vec::new();
        let mut heads = Vec::new();
        let mut size = 1;
        for neighbour in board.neighbours(point) {
            let cell = board.cell(neighbour);
            if cell == EMPTY {
                liberties.push(neighbour);
            } else if cell == opponent && board.in_atari(neighbour) {
                return None;
            } else if cell == own && !heads.contains(&board.chain(neighbour)) {
                heads.push(board.chain(neighbour));
                size += board.chain_size(neighbour);
                let mut found = [NO_POINT; 400];
                let got = board.liberties_into(neighbour, point, &mut found);
                liberties.extend_from_slice(&found[..got]);
            }
        }
        liberties.sort_unstable();
        liberties.dedup();
        (liberties.len() <= 1).then_some(size)
    }

    /// `new_liberties` by walking every own chain next to `point`.
    fn new_liberties_by_walking(board: &PlayoutBoard, point: usize, color: Color) -> usize {
        let own = stone_code(color);
        let opponent = own ^ BORDER;
        let mut liberties = Vec::new();
        let mut captures = false;
        for neighbour in board.neighbours(point) {
            let cell = board.cell(neighbour);
            if cell == EMPTY {
                liberties.push(neighbour);
            } else if cell == opponent && board.in_atari(neighbour) {
                captures = true;
            } else if cell == own {
                let mut found = [NO_POINT; 400];
                let got = board.liberties_into(neighbour, point, &mut found);
                liberties.extend_from_slice(&found[..got]);
            }
        }
        liberties.sort_unstable();
        liberties.dedup();
        let count = liberties.len().min(3);
        if captures {
            (count + 2).min(3)
        } else {
            count
        }
    }

    /// `three_point_vital` as it was first written: a search of the empty region that
    /// gives up beyond three points.
    fn three_point_vital_by_search(board: &PlayoutBoard, start: usize) -> Option<usize> {
        let mut region = vec![start];
        let mut colours = 0u8;
        let mut cursor = 0;
        while cursor < region.len() {
            let point = region[cursor];
            cursor += 1;
            for neighbour in board.neighbours(point) {
                let cell = board.cell(neighbour);
                if cell == EMPTY {
                    if !region.contains(&neighbour) {
                        if region.len() == 3 {
                            return None;
                        }
                        region.push(neighbour);
                    }
                } else if cell != BORDER {
                    colours |= cell;
                }
            }
        }
        if region.len() != 3 || colours == BORDER || colours == 0 {
            return None;
        }
        region.iter().copied().find(|&point| {
            let touching = board.neighbours(point);
            region
                .iter()
                .filter(|other| touching.contains(other))
                .count()
                == 2
        })
    }

    /// The self-atari and new-liberty answers, which use the pseudo-liberties to skip
    /// chain walks, agree with walking every chain, and the vital points of three-point
    /// eye spaces with a search of the region, at every empty point of positions along
    /// random playouts.
    #[test]
    fn liberty_questions_agree_with_walking_the_chains() {
        let mut random = Random::new(11);
        let mut checked = 0;
        let mut vitals = 0;
        for size in [7, 9, 19] {
            for _ in 0..8 {
                let mut board = PlayoutBoard::new(size);
                let mut color = Color::Black;
                for _ in 0..size * size * 3 / 2 {
                    let point = random_move(&mut board, color, &mut random, None);
                    if point == NO_POINT {
                        break;
                    }
                    board.play(point, color);
                    color = color.opponent();
                    for index in 0..board.empty_count() {
                        let point = board.empty_at(index);
                        let vital = three_point_vital(&board, point);
                        assert_eq!(vital, three_point_vital_by_search(&board, point));
                        vitals += vital.is_some() as usize;
                        for color in [Color::Black, Color::White] {
                            assert_eq!(
                                self_atari_size(&board, point, color),
                                self_atari_size_by_walking(&board, point, color)
                            );
                            let liberties = new_liberties_by_walking(&board, point, color);
                            assert_eq!(new_liberties(&board, point, color), liberties);
                            assert_eq!(
                                new_liberties_up_to::<2>(&board, point, color),
                                liberties.min(2)
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000);
        assert!(vitals > 100, "{vitals} vital points");
    }

    #[test]
    fn finds_the_vital_point_of_three() {
        let rules_board = Board::from_diagram(
            "O O O O O
             O . . . O
             O O O O O
             . . . . .
             . . . . .",
        )
        .unwrap();
        let board = PlayoutBoard::from_board(&rules_board, Color::Black);
        assert_eq!(three_point_vital(&board, at(5, "B4")), Some(at(5, "C4")));
        assert_eq!(three_point_vital(&board, at(5, "A1")), None);
    }

    #[test]
    fn light_playouts_finish_and_score() {
        let mut random = Random::new(1);
        let params = SearchParams {
            playout: PlayoutPolicy::Light,
            ..SearchParams::default()
        };
        for policy in [PlayoutPolicy::Light, PlayoutPolicy::Heavy] {
            let params = SearchParams {
                playout: policy,
                ..params.clone()
            };
            let settings = PlayoutSettings::new(&params, 9, 7.5, None);
            for _ in 0..50 {
                let mut board = PlayoutBoard::new(9);
                let mut sequence = Vec::new();
                let outcome = play_out(
                    &mut board,
                    Color::Black,
                    &settings,
                    &mut random,
                    &mut sequence,
                );
                board.check_consistency().unwrap();
                assert!(outcome.winner.is_some());
                assert!(sequence.len() > 40);
            }
        }
    }
}
