//! Scoring as pure functions of a board, the dead and seki stones, the rules and the komi:
//! area counting (stones plus empty regions bordered by one colour only), territory counting
//! (the referee's territory of [`crate::go::rules::territory`] plus prisoners plus dead
//! stones: seki, points still to fill and false eyes for nobody), and
//! Benson's pass-alive analysis. Knows nothing of search: which stones are dead is an input.

use crate::color::Color;
use crate::go::rules::board::{Board, Cell};
use crate::go::rules::point::Point;
use crate::go::rules::rules::{HandicapBonus, Rules, Scoring};
use crate::go::rules::territory;
use std::fmt;

/// A final count: points of each side, komi and compensation included for white.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// Black's points.
    pub black: f64,
    /// White's points, komi included.
    pub white: f64,
}

impl Score {
    /// Black's points minus white's: positive when black wins.
    pub fn margin(&self) -> f64 {
        self.black - self.white
    }

    /// The winner, `None` for a draw (jigo).
    pub fn winner(&self) -> Option<Color> {
        let margin = self.margin();
        if margin > 0.0 {
            Some(Color::Black)
        } else if margin < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

impl fmt::Display for Score {
    /// GTP `final_score` text: `B+3.5`, `W+0.5`, or `0` for a draw.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let margin = self.margin();
        if margin == 0.0 {
            formatter.write_str("0")
        } else if margin > 0.0 {
            write!(formatter, "B+{}", format_points(margin))
        } else {
            write!(formatter, "W+{}", format_points(-margin))
        }
    }
}

/// Writes a point count with one decimal when it has a fraction and none otherwise
/// (`3`, `3.5`, `0.25` rounds to `0.2`... counts are whole or half in practice).
pub fn format_points(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

/// The status of the stones at the end of a game, one entry per point index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoneStatus {
    /// True on points whose stone is dead.
    pub dead: Vec<bool>,
    /// True on points whose stone is alive in seki.
    pub seki: Vec<bool>,
}

impl StoneStatus {
    /// Every stone alive, none in seki.
    pub fn all_alive(board: &Board) -> StoneStatus {
        StoneStatus {
            dead: vec![false; board.array_length()],
            seki: vec![false; board.array_length()],
        }
    }
}

/// Who owns each point once the dead stones are removed: a stone's colour, the colour that
/// alone borders an empty region, or `None` for dame. One entry per point index.
pub fn area_owners(board: &Board, dead: &[bool]) -> Vec<Option<Color>> {
    let length = board.array_length();
    let mut owners: Vec<Option<Color>> = vec![None; length];
    let mut visited = vec![false; length];
    let occupant = |point: Point| -> Option<Color> {
        if dead[point.index()] {
            None
        } else {
            board.stone(point)
        }
    };
    for point in board.points() {
        if let Some(color) = occupant(point) {
            owners[point.index()] = Some(color);
            continue;
        }
        if visited[point.index()] {
            continue;
        }
        let (region, borders) = flood_region(board, point, &occupant, &mut visited);
        let owner = match borders {
            [true, false] => Some(Color::Black),
            [false, true] => Some(Color::White),
            _ => None,
        };
        for member in region {
            owners[member.index()] = owner;
        }
    }
    owners
}

/// Floods the region of points without a (live) stone around `start`; returns its points and
/// whether black and white stones border it.
pub fn flood_region(
    board: &Board,
    start: Point,
    occupant: &impl Fn(Point) -> Option<Color>,
    visited: &mut [bool],
) -> (Vec<Point>, [bool; 2]) {
    let mut region = vec![start];
    visited[start.index()] = true;
    let mut borders = [false, false];
    let mut cursor = 0;
    while cursor < region.len() {
        let current = region[cursor];
        cursor += 1;
        for neighbour in board.neighbours(current) {
            if board.cell(neighbour) == Cell::Border {
                continue;
            }
            match occupant(neighbour) {
                Some(color) => borders[color.index()] = true,
                None => {
                    if !visited[neighbour.index()] {
                        visited[neighbour.index()] = true;
                        region.push(neighbour);
                    }
                }
            }
        }
    }
    (region, borders)
}

/// Scores a finished position.
///
/// Area: stones plus regions bordered by one colour (dead stones removed first; dame count for
/// nobody). Territory: the points a referee counts ([`territory_points`]: surrounded empty
/// points and the points of dead stones, but none of a seki, none its owner must still fill
/// to resolve a ko, connect a chain or close a false eye) plus prisoners taken during the
/// game plus dead stones. White gets the komi and, under area rules that give it, the handicap bonus.
pub fn score(
    board: &Board,
    status: &StoneStatus,
    rules: &Rules,
    komi: f64,
    handicap: u32,
) -> Score {
    let mut black = 0.0;
    let mut white = komi;
    match rules.scoring {
        Scoring::Area => {
            let owners = area_owners(board, &status.dead);
            for point in board.points() {
                match owners[point.index()] {
                    Some(Color::Black) => black += 1.0,
                    Some(Color::White) => white += 1.0,
                    None => {}
                }
            }
            white += match rules.handicap_bonus {
                HandicapBonus::Zero => 0.0,
                HandicapBonus::PerStone => handicap as f64,
                HandicapBonus::PerStoneAfterFirst => handicap.saturating_sub(1) as f64,
            };
        }
        Scoring::Territory => {
            let counted = territory_points(board, status);
            for point in board.points() {
                match counted[point.index()] {
                    Some(Color::Black) => black += 1.0,
                    Some(Color::White) => white += 1.0,
                    None => {}
                }
                // A dead stone is a prisoner of the other side.
                if status.dead[point.index()] {
                    match board.stone(point) {
                        Some(Color::Black) => white += 1.0,
                        Some(Color::White) => black += 1.0,
                        None => {}
                    }
                }
            }
            black += board.captures(Color::Black) as f64;
            white += board.captures(Color::White) as f64;
        }
    }
    Score { black, white }
}

/// The points a referee counts as territory under territory rules, per point index: the
/// referee's map ([`territory::board_verdicts`]: no seki, no point the owner must still fill,
/// no false eye) less the regions touching a stone `status` puts in seki.
pub fn territory_points(board: &Board, status: &StoneStatus) -> Vec<Option<Color>> {
    let verdicts = territory::board_verdicts(board, &status.dead);
    let seki_regions = regions_touching_seki(board, status);
    verdicts
        .iter()
        .zip(&seki_regions)
        .map(|(verdict, &seki)| if seki { None } else { verdict.territory })
        .collect()
}

/// Marks the points of empty (or dead-stone) regions that touch a stone in seki.
fn regions_touching_seki(board: &Board, status: &StoneStatus) -> Vec<bool> {
    let length = board.array_length();
    let mut marked = vec![false; length];
    if !status.seki.iter().any(|&seki| seki) {
        return marked;
    }
    let mut visited = vec![false; length];
    let occupant = |point: Point| -> Option<Color> {
        if status.dead[point.index()] {
            None
        } else {
            board.stone(point)
        }
    };
    for point in board.points() {
        if occupant(point).is_some() || visited[point.index()] {
            continue;
        }
        let (region, _) = flood_region(board, point, &occupant, &mut visited);
        let touches_seki = region.iter().any(|&member| {
            board
                .neighbours(member)
                .iter()
                .any(|neighbour| board.is_on_board(*neighbour) && status.seki[neighbour.index()])
        });
        if touches_seki {
            for member in region {
                marked[member.index()] = true;
            }
        }
    }
    marked
}

/// Benson's unconditional life for both colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassAlive {
    /// Per point: the colour of a pass-alive stone on it.
    pub alive: Vec<Option<Color>>,
    /// Per point: the colour whose pass-alive territory contains it (empty points and the
    /// opponent's stones there, which are dead).
    pub territory: Vec<Option<Color>>,
}

/// Finds the pass-alive chains and territories of both colours (Benson's algorithm).
///
/// A chain is pass-alive when it keeps two vital regions: regions enclosed by its colour
/// whose every empty point is its liberty, while every chain bordering those regions stays
/// alive too. Pass-alive territory is a region, bordered only by pass-alive chains, that is
/// vital to one of them.
pub fn pass_alive(board: &Board) -> PassAlive {
    let length = board.array_length();
    let mut alive = vec![None; length];
    let mut territory = vec![None; length];
    for color in Color::ALL {
        benson_for(board, color, &mut alive, &mut territory);
    }
    PassAlive { alive, territory }
}

fn benson_for(
    board: &Board,
    color: Color,
    alive: &mut [Option<Color>],
    territory: &mut [Option<Color>],
) {
    let length = board.array_length();
    // Chains of `color`, by representative.
    let mut chain_heads: Vec<Point> = Vec::new();
    for point in board.points() {
        if board.stone(point) == Some(color) && board.chain(point) == point {
            chain_heads.push(point);
        }
    }
    if chain_heads.is_empty() {
        return;
    }
    // Regions: maximal connected sets of points not holding a `color` stone.
    let mut region_of = vec![usize::MAX; length];
    let mut regions: Vec<Vec<Point>> = Vec::new();
    for point in board.points() {
        if board.stone(point) == Some(color) || region_of[point.index()] != usize::MAX {
            continue;
        }
        let id = regions.len();
        let mut members = vec![point];
        region_of[point.index()] = id;
        let mut cursor = 0;
        while cursor < members.len() {
            let current = members[cursor];
            cursor += 1;
            for neighbour in board.neighbours(current) {
                if board.is_on_board(neighbour)
                    && board.stone(neighbour) != Some(color)
                    && region_of[neighbour.index()] == usize::MAX
                {
                    region_of[neighbour.index()] = id;
                    members.push(neighbour);
                }
            }
        }
        regions.push(members);
    }
    // For each region: the chains bordering it, and the chains it is vital to.
    let chain_index = |point: Point| {
        chain_heads
            .iter()
            .position(|&head| head == board.chain(point))
    };
    let mut bordering: Vec<Vec<usize>> = vec![Vec::new(); regions.len()];
    let mut vital_to: Vec<Vec<usize>> = vec![Vec::new(); regions.len()];
    for (id, members) in regions.iter().enumerate() {
        let mut borders: Vec<usize> = Vec::new();
        for &member in members {
            for neighbour in board.neighbours(member) {
                if board.stone(neighbour) == Some(color) {
                    if let Some(index) = chain_index(neighbour) {
                        if !borders.contains(&index) {
                            borders.push(index);
                        }
                    }
                }
            }
        }
        for &chain in &borders {
            let head = chain_heads[chain];
            let vital = members.iter().all(|&member| {
                board.stone(member).is_some()
                    || board.neighbours(member).iter().any(|&neighbour| {
                        board.stone(neighbour) == Some(color) && board.chain(neighbour) == head
                    })
            });
            if vital {
                vital_to[id].push(chain);
            }
        }
        bordering[id] = borders;
    }
    let mut chain_alive = vec![true; chain_heads.len()];
    let mut region_alive = vec![true; regions.len()];
    loop {
        let mut changed = false;
        for (chain, chain_is_alive) in chain_alive.iter_mut().enumerate() {
            if !*chain_is_alive {
                continue;
            }
            let vital_regions = (0..regions.len())
                .filter(|&id| region_alive[id] && vital_to[id].contains(&chain))
                .count();
            if vital_regions < 2 {
                *chain_is_alive = false;
                changed = true;
            }
        }
        for id in 0..regions.len() {
            if region_alive[id] && bordering[id].iter().any(|&chain| !chain_alive[chain]) {
                region_alive[id] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (chain, &head) in chain_heads.iter().enumerate() {
        if chain_alive[chain] {
            for stone in board.chain_stones(head) {
                alive[stone.index()] = Some(color);
            }
        }
    }
    for (id, members) in regions.iter().enumerate() {
        let enclosed = !bordering[id].is_empty()
            && bordering[id].iter().all(|&chain| chain_alive[chain])
            && vital_to[id].iter().any(|&chain| chain_alive[chain]);
        if enclosed {
            for &member in members {
                territory[member.index()] = Some(color);
            }
        }
    }
}

/// The simple end-of-game status: stones inside the other colour's pass-alive territory are
/// dead, everything else is alive; no seki. The search-based status refines this.
pub fn pass_alive_status(board: &Board) -> StoneStatus {
    let analysis = pass_alive(board);
    let mut status = StoneStatus::all_alive(board);
    for point in board.points() {
        if let Some(color) = board.stone(point) {
            if analysis.territory[point.index()] == Some(color.opponent()) {
                status.dead[point.index()] = true;
            }
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::point::{parse_move, Move};

    fn at(board: &Board, text: &str) -> Point {
        match parse_move(text, board.size()) {
            Ok(Move::Place(point)) => point,
            other => panic!("bad vertex {text}: {other:?}"),
        }
    }

    const SPLIT: &str = "
        . X O . .
        . X O . .
        X X O . .
        . X O O O
        . X O . .";

    #[test]
    fn area_counts_stones_and_surrounded_points() {
        let board = Board::from_diagram(SPLIT).unwrap();
        let status = StoneStatus::all_alive(&board);
        let result = score(&board, &status, &Rules::chinese(), 0.5, 0);
        // Black: columns A-B (10 points). White: columns C-E (15 points).
        assert_eq!(result.black, 10.0);
        assert_eq!(result.white, 15.5);
        assert_eq!(result.to_string(), "W+5.5");
    }

    #[test]
    fn territory_counts_empty_points_prisoners_and_dead_stones() {
        let mut board = Board::from_diagram(
            "
            . X O . .
            . X O . X
            X X O . .
            . X O O O
            . X O . .",
        )
        .unwrap();
        board.set_captures(2, 1);
        let mut status = StoneStatus::all_alive(&board);
        status.dead[at(&board, "E4").index()] = true;
        let result = score(&board, &status, &Rules::japanese(), 6.5, 0);
        // Black: A5 A4 A2 A1 = 4 territory + 2 prisoners = 6.
        // White: D5 E5 D4 E4(dead point) D3 E3 D1 E1 = 8 + 1 dead + 1 prisoner + 6.5.
        assert_eq!(result.black, 6.0);
        assert_eq!(result.white, 16.5);
    }

    #[test]
    fn a_point_the_owner_must_fill_counts_only_under_area_rules() {
        // White's E3 is in atari; its liberty E2 must be filled by white before the count.
        let board = Board::from_diagram(
            "
            . . . . .
            . . . . X
            X X X X O
            O O O O .
            . . . . O",
        )
        .unwrap();
        let status = StoneStatus::all_alive(&board);
        let territory = score(&board, &status, &Rules::japanese(), 0.0, 0);
        // Black: row 5 and A4-D4. White: A1-D1, not E2.
        assert_eq!((territory.black, territory.white), (9.0, 4.0));
        let area = score(&board, &status, &Rules::chinese(), 0.0, 0);
        // Area: black 9 + 5 stones; white 4 + E2 + 6 stones.
        assert_eq!((area.black, area.white), (14.0, 11.0));
    }

    #[test]
    fn dame_between_colours_count_for_nobody() {
        let board = Board::from_diagram(
            "
            X . O
            X . O
            X . O",
        )
        .unwrap();
        let result = score(
            &board,
            &StoneStatus::all_alive(&board),
            &Rules::chinese(),
            0.0,
            0,
        );
        assert_eq!(result.black, 3.0);
        assert_eq!(result.white, 3.0);
        assert_eq!(result.to_string(), "0");
    }

    #[test]
    fn two_eyed_group_is_pass_alive_and_one_eyed_is_not() {
        let board = Board::from_diagram(
            "
            . X . X O . .
            X X X X O . .
            O O O O O . .
            . . . . . . .
            . . . . . . .
            O O O . . . .
            . X O . . . .",
        )
        .unwrap();
        let analysis = pass_alive(&board);
        assert_eq!(analysis.alive[at(&board, "B7").index()], Some(Color::Black));
        assert_eq!(
            analysis.territory[at(&board, "A7").index()],
            Some(Color::Black)
        );
        assert_eq!(analysis.alive[at(&board, "B1").index()], None);
        let status = pass_alive_status(&board);
        assert!(!status.dead[at(&board, "B7").index()]);
    }

    #[test]
    fn stones_inside_pass_alive_territory_are_dead() {
        let board = Board::from_diagram(
            "
            . X . . X
            X X X X X
            . . . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        // Black's wall has the eyes A5 and B5..D5 region (containing nothing).
        let analysis = pass_alive(&board);
        assert_eq!(analysis.alive[at(&board, "A4").index()], Some(Color::Black));
        let board = Board::from_diagram(
            "
            . X . O X
            X X X X X
            . . . . .
            . . . . .
            . . . . .",
        )
        .unwrap();
        let status = pass_alive_status(&board);
        assert!(status.dead[at(&board, "D5").index()]);
    }
}
