//! Finishing a game under territory rules the way a referee wants it finished: the moves a
//! player must still make before passing (saving an own chain in atari, which also resolves a
//! ko; filling a false eye or cutting point the referee does not count), the dame that are
//! safe to fill, and whether a move throws a point away (a stone in territory, one's own or
//! the opponent's, where it costs a point or becomes a prisoner). Pure functions of the
//! position, the end-of-game status and the referee's map
//! ([`crate::go::rules::territory`]); knows the rules core and the search's ladder reader.

use crate::color::Color;
use crate::go::rules::board::Board;
use crate::go::rules::game::Game;
use crate::go::rules::point::{Move, Point};
use crate::go::rules::score::StoneStatus;
use crate::go::rules::territory::PointVerdict;
use crate::go::search::board::PlayoutBoard;
use crate::go::search::ladder::LadderReader;

/// The moves left to `color` before passing, most urgent first: the liberty of each own
/// chain in atari that saves it, then the false eyes and cutting points of its own region the
/// referee will not count, then the dame next to its live stones. Each is legal and leaves
/// the chain it makes at least two liberties; none touches a stone in seki. `verdicts` is the
/// referee's map of the position with the stones of `status` dead, by point index.
pub fn finishing_moves(
    game: &Game,
    color: Color,
    status: &StoneStatus,
    verdicts: &[PointVerdict],
) -> Vec<Point> {
    let board = game.board();
    let live = |point: Point, wanted: Color| {
        board.stone(point) == Some(wanted) && !status.dead[point.index()]
    };
    let mut moves: Vec<Point> = Vec::new();
    let add = |point: Point, moves: &mut Vec<Point>| {
        if !moves.contains(&point) && is_safe_fill(game, color, point, status) {
            moves.push(point);
        }
    };
    // Own chains in atari (a ko the opponent could take, a chain the opponent could capture).
    for head in board.chain_heads() {
        if !live(head, color) || status.seki[head.index()] || board.liberties(head) != 1 {
            continue;
        }
        if let Some(liberty) = board.any_liberty(head) {
            add(liberty, &mut moves);
        }
    }
    // Points of its own region that the referee does not count because they must be filled.
    for point in board.points() {
        let verdict = verdicts[point.index()];
        if board.stone(point).is_none()
            && verdict.unscorable_false_eye
            && verdict.region == Some(color)
        {
            add(point, &mut moves);
        }
    }
    // Dame next to its live stones.
    for point in board.points() {
        let verdict = verdicts[point.index()];
        let touches_own = board
            .neighbours(point)
            .iter()
            .any(|&neighbour| board.is_on_board(neighbour) && live(neighbour, color));
        if board.stone(point).is_none() && verdict.dame && touches_own {
            add(point, &mut moves);
        }
    }
    moves
}

/// Whether `color` playing on the empty `point` is legal, touches no stone in seki, and
/// leaves the chain it makes (or joins) at least two liberties.
fn is_safe_fill(game: &Game, color: Color, point: Point, status: &StoneStatus) -> bool {
    let board = game.board();
    if !game.is_legal(color, Move::Place(point)) {
        return false;
    }
    let touches_seki = board
        .neighbours(point)
        .iter()
        .any(|&neighbour| board.is_on_board(neighbour) && status.seki[neighbour.index()]);
    if touches_seki {
        return false;
    }
    let Some(trial) = board_after(game, color, point) else {
        return false;
    };
    trial.stone(point) == Some(color) && trial.liberties(point) >= 2
}

/// The board after `color` plays on `point` in `game`'s position, or `None` when the board
/// refuses the stone (occupied, or suicide where the rules forbid it).
fn board_after(game: &Game, color: Color, point: Point) -> Option<Board> {
    let mut trial: Board = game.board().clone();
    trial
        .try_play(Move::Place(point), color, game.rules().suicide_allowed)
        .ok()?;
    Some(trial)
}

/// Whether `color` playing on the empty `point` puts a live chain of the opponent (one not
/// dead in `status`) in atari: a threat the opponent must answer, not a wasted stone.
pub fn puts_live_chain_in_atari(
    game: &Game,
    color: Color,
    point: Point,
    status: &StoneStatus,
) -> bool {
    let board = game.board();
    let Some(trial) = board_after(game, color, point) else {
        return false;
    };
    board.neighbours(point).iter().any(|&neighbour| {
        board.is_on_board(neighbour)
            && board.stone(neighbour) == Some(color.opponent())
            && !status.dead[neighbour.index()]
            && trial.stone(neighbour) == Some(color.opponent())
            && trial.liberties(neighbour) == 1
    })
}

/// Whether the opponent of `color` could use the empty `point`: a stone there would capture
/// something, or, without being in atari itself, put a live chain of `color` in atari or give
/// a chain of its own with one or two liberties more liberties than before (an escape that
/// no ladder catches) next to a live chain of `color` with two liberties or fewer.
/// Where it could not, `color` filling the point defends nothing.
pub fn opponent_could_use(game: &Game, color: Color, point: Point, status: &StoneStatus) -> bool {
    let board = game.board();
    let opponent = color.opponent();
    let Some(trial) = board_after(game, opponent, point) else {
        return false;
    };
    if trial.captures(opponent) > board.captures(opponent) {
        return true;
    }
    if trial.stone(point) != Some(opponent) || trial.liberties(point) < 2 {
        return false;
    }
    let on_board = |neighbour: &&Point| board.is_on_board(**neighbour);
    let ataris = board
        .neighbours(point)
        .iter()
        .filter(on_board)
        .any(|&neighbour| {
            board.stone(neighbour) == Some(color)
                && !status.dead[neighbour.index()]
                && trial.liberties(neighbour) == 1
        });
    // A chain in atari that runs into a ladder escapes nothing.
    let caught_in_ladder = |stone: Point| {
        let playout_board = PlayoutBoard::from_board(board, opponent);
        LadderReader::default().running_fails(&playout_board, stone.index(), opponent)
    };
    let escapes = board
        .neighbours(point)
        .iter()
        .filter(on_board)
        .any(|&neighbour| {
            board.stone(neighbour) == Some(opponent)
                && board.liberties(neighbour) <= 2
                && trial.liberties(point) > board.liberties(neighbour)
                && !(board.liberties(neighbour) == 1 && caught_in_ladder(neighbour))
        });
    // An escape matters when the chain then presses a live chain of `color` short of
    // liberties (two or fewer): a race, not a dead chain running inside strong walls.
    let presses = || {
        trial.chain_stones(point).any(|stone| {
            trial.neighbours(stone).iter().any(|&neighbour| {
                trial.is_on_board(neighbour)
                    && trial.stone(neighbour) == Some(color)
                    && !status.dead[neighbour.index()]
                    && trial.liberties(neighbour) <= 2
            })
        })
    };
    ataris || (escapes && presses())
}

/// Whether a stone of `color` on the empty `point` throws a point away at the count: the
/// point is territory (its own, or the opponent's, where the stone would be a prisoner).
pub fn throws_a_point_away(verdicts: &[PointVerdict], point: Point) -> bool {
    verdicts[point.index()].territory.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::point::{parse_move, vertex_text};
    use crate::go::rules::rules::Rules;
    use crate::go::rules::territory::board_verdicts;

    fn game_from(diagram: &str) -> Game {
        crate::go::endgame::game_from_diagram(diagram, Rules::japanese(), 6.5)
    }

    fn texts(game: &Game, points: &[Point]) -> Vec<String> {
        points
            .iter()
            .map(|&point| vertex_text(point, game.size()))
            .collect()
    }

    fn finishing(game: &Game, color: Color) -> Vec<String> {
        let status = StoneStatus::all_alive(game.board());
        let verdicts = board_verdicts(game.board(), &status.dead);
        texts(game, &finishing_moves(game, color, &status, &verdicts))
    }

    /// White's J6 is in atari: black could take it at J5 (a ko). White must connect first.
    const KO: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . X
        X X X X X X X X O
        O O O O O O O O .
        . . . . . . . . O
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn the_ko_point_comes_first_for_its_owner_only() {
        let game = game_from(KO);
        assert_eq!(finishing(&game, Color::White), ["J5"]);
        // J5 is white's (and illegal for black only as long as it captures nothing: it does).
        assert!(finishing(&game, Color::Black).is_empty());
    }

    /// White E5-E4 has two liberties, E6 and E3: black E3 would put it in atari, so white must
    /// connect at E6 some time. E3 is a dame black may fill.
    const CUTTING_POINT: &str = "
        . . . . . . . . .
        . . . . . . . . .
        O O O O O O O O O
        X X X O . O X X X
        . . X X O X X . .
        . . . X O X . . .
        . . . X . X . . .
        . . . . X . . . .
        . . . . . . . . .";

    #[test]
    fn the_cutting_point_and_the_dame_are_left_to_fill() {
        let game = game_from(CUTTING_POINT);
        assert_eq!(finishing(&game, Color::White), ["E6"]);
        assert_eq!(finishing(&game, Color::Black), ["E3"]);
    }

    #[test]
    fn a_point_of_territory_is_thrown_away_and_a_dame_is_not() {
        let game = game_from(CUTTING_POINT);
        let status = StoneStatus::all_alive(game.board());
        let verdicts = board_verdicts(game.board(), &status.dead);
        let at = |text: &str| match parse_move(text, 9) {
            Ok(Move::Place(point)) => point,
            other => panic!("{other:?}"),
        };
        assert!(throws_a_point_away(&verdicts, at("A9")));
        assert!(throws_a_point_away(&verdicts, at("A1")));
        assert!(!throws_a_point_away(&verdicts, at("E3")));
        assert!(!throws_a_point_away(&verdicts, at("E6")));
    }
}
