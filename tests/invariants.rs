//! Randomised invariant tests of the rules core (design habit 4: incremental state checked
//! against recomputation). Thousands of seeded random games on 5x5, 9x9 and 19x19, under
//! Chinese, Japanese, Tromp-Taylor, AGA and New Zealand rules (the last two and Tromp-Taylor
//! allow suicide), some starting from handicap stones. After every move:
//!
//! - `Board::check_consistency()` (chains, exact liberties, empty list, hash from scratch);
//! - the incremental hash equals `recompute_hash()`, and the game's situation hash is the board
//!   hash with the side to move mixed in;
//! - every stone placed is on the board or counted as captured by the other side;
//! - the simple-ko point, when set, is empty and refused with `IllegalMove::Ko`;
//! - for every probed point (all points on 5x5 and 9x9, a sample plus the neighbourhood of the
//!   last move on 19x19): `check_move` gives the verdict of an oracle (a play on a cloned
//!   `Board`, then superko judged against the test's own record of earlier positions, kept as
//!   stone strings without any hashing), `is_legal` agrees, and a real `Game::play` attempt
//!   gives the same answer, leaves the same board as the oracle, and `undo` restores an equal
//!   game (board compared with `==`, side to move, passes, move count, situation hash).
//!
//! At the end of each game every move is undone back to the starting position, each step
//! compared with the state recorded on the way forward, and the moves are replayed into a
//! fresh game that must reach the same board. Totals are printed (`--nocapture`).

mod common;

use std::collections::HashSet;

use ishi::color::Color;
use ishi::go::rules::board::{Board, IllegalMove};
use ishi::go::rules::game::Game;
use ishi::go::rules::point::{move_text, point_at, Move, Point};
use ishi::go::rules::rules::{KoRule, Rules};
use ishi::go::rules::zobrist::WHITE_TO_MOVE_KEY;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The rulesets the games cycle through.
fn rulesets() -> [Rules; 5] {
    [
        Rules::chinese(),
        Rules::japanese(),
        Rules::tromp_taylor(),
        Rules::aga(),
        Rules::new_zealand(),
    ]
}

/// How one size of board is exercised.
struct Plan {
    size: usize,
    games: usize,
    seed: u64,
    /// `None`: probe every point; `Some(n)`: n random points plus the last move's neighbours.
    probe_sample: Option<usize>,
}

/// Counts reported at the end of a run.
#[derive(Default)]
struct Totals {
    games: usize,
    moves: usize,
    passes: usize,
    capturing_moves: usize,
    suicides: usize,
    probes: usize,
    occupied_refusals: usize,
    suicide_refusals: usize,
    ko_refusals: usize,
    superko_refusals: usize,
    undos: usize,
}

/// A board as one byte per point (0 empty, 1 black, 2 white), row by row: the oracle's
/// record of positions, independent of Zobrist hashing.
fn stones_key(board: &Board) -> Vec<u8> {
    board
        .points()
        .map(|point| match board.stone(point) {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        })
        .collect()
}

/// The test's own record of the positions of the game so far.
struct History {
    boards: HashSet<Vec<u8>>,
    situations: HashSet<(Vec<u8>, Color)>,
}

impl History {
    fn new(game: &Game) -> History {
        let mut history = History {
            boards: HashSet::new(),
            situations: HashSet::new(),
        };
        history.record(game.board(), game.to_move());
        history
    }

    fn record(&mut self, board: &Board, to_move: Color) {
        let key = stones_key(board);
        self.situations.insert((key.clone(), to_move));
        self.boards.insert(key);
    }
}

/// What the rules say about `color` playing on `point`, computed apart from `Game`: a play on
/// a cloned board decides occupied, suicide and simple ko; the history decides superko.
/// Returns the verdict and, when legal, the board after the move.
fn oracle(
    game: &Game,
    history: &History,
    color: Color,
    point: Point,
) -> (Result<(), IllegalMove>, Option<Board>) {
    let rules = game.rules();
    let mut after = game.board().clone();
    if let Err(error) = after.try_play(Move::Place(point), color, rules.suicide_allowed) {
        return (Err(error), None);
    }
    let key = stones_key(&after);
    let repeats = match rules.ko {
        KoRule::Simple => false,
        KoRule::Positional => history.boards.contains(&key),
        KoRule::Situational => history.situations.contains(&(key, color.opponent())),
    };
    if repeats {
        (Err(IllegalMove::Superko), None)
    } else {
        (Ok(()), Some(after))
    }
}

/// Everything `undo` must restore.
#[derive(Clone, Debug, PartialEq)]
struct Snapshot {
    board: Board,
    to_move: Color,
    passes: u32,
    move_count: usize,
    situation_hash: u64,
}

fn snapshot(game: &Game) -> Snapshot {
    Snapshot {
        board: game.board().clone(),
        to_move: game.to_move(),
        passes: game.consecutive_passes(),
        move_count: game.move_count(),
        situation_hash: game.situation_hash(),
    }
}

/// The checks made after every move of a game.
fn check_position(game: &Game, placed: [usize; 2], context: &str) {
    let board = game.board();
    if let Err(problem) = board.check_consistency() {
        panic!("{context}: inconsistent board: {problem}\n{board}");
    }
    assert_eq!(
        board.hash(),
        board.recompute_hash(),
        "{context}: incremental hash"
    );
    let expected_situation = match game.to_move() {
        Color::Black => board.recompute_hash(),
        Color::White => board.recompute_hash() ^ WHITE_TO_MOVE_KEY,
    };
    assert_eq!(
        game.situation_hash(),
        expected_situation,
        "{context}: situation hash"
    );
    let on_board = board.stone_counts();
    for color in Color::ALL {
        assert_eq!(
            placed[color.index()],
            on_board[color.index()] + board.captures(color.opponent()) as usize,
            "{context}: {color} stones placed = on board + captured by the opponent"
        );
    }
    let to_move = game.to_move();
    if let Some(ko) = board.ko_point_for(to_move) {
        assert_eq!(board.stone(ko), None, "{context}: ko point holds a stone");
        assert_eq!(
            board.last_captured(),
            1,
            "{context}: ko without one capture"
        );
        assert_eq!(
            game.check_move(to_move, Move::Place(ko)),
            Err(IllegalMove::Ko),
            "{context}: retaking the ko at {}",
            board.vertex(ko)
        );
    }
}

/// The points probed in the current position.
fn probe_points(game: &Game, sample: Option<usize>, random: &mut SmallRng) -> Vec<Point> {
    let board = game.board();
    let size = board.size();
    let Some(count) = sample else {
        return board.points().collect();
    };
    let mut points: Vec<Point> = (0..count)
        .map(|_| point_at(random.gen_range(0..size), random.gen_range(0..size), size))
        .collect();
    if let Move::Place(last) = board.last_move() {
        points.push(last);
        points.extend(
            board
                .neighbours(last)
                .into_iter()
                .chain(board.diagonals(last))
                .filter(|&point| board.is_on_board(point)),
        );
    }
    if let Some(ko) = board.ko_point_for(game.to_move()) {
        points.push(ko);
    }
    points.sort_unstable();
    points.dedup();
    points
}

/// Probes one point: oracle, `check_move`, `is_legal` and a real play followed by `undo`
/// must agree. Returns whether the move is legal.
fn probe(
    game: &mut Game,
    history: &History,
    point: Point,
    totals: &mut Totals,
    context: &str,
) -> bool {
    let color = game.to_move();
    let chosen = Move::Place(point);
    let vertex = game.board().vertex(point);
    let (expected, expected_board) = oracle(game, history, color, point);
    let verdict = game.check_move(color, chosen);
    assert_eq!(verdict, expected, "{context}: check_move {color} {vertex}");
    assert_eq!(
        game.is_legal(color, chosen),
        verdict.is_ok(),
        "{context}: is_legal {color} {vertex}"
    );
    totals.probes += 1;
    match verdict {
        Err(IllegalMove::Occupied) => totals.occupied_refusals += 1,
        Err(IllegalMove::Suicide) => totals.suicide_refusals += 1,
        Err(IllegalMove::Ko) => totals.ko_refusals += 1,
        Err(IllegalMove::Superko) => totals.superko_refusals += 1,
        Err(IllegalMove::OffBoard) | Ok(()) => {}
    }
    let before = snapshot(game);
    let attempt = game.play(color, chosen);
    assert_eq!(attempt, verdict, "{context}: play {color} {vertex}");
    match attempt {
        Ok(()) => {
            if let Some(expected_board) = expected_board {
                assert!(
                    game.board() == &expected_board,
                    "{context}: {color} {vertex} left another board than the oracle's"
                );
            }
            game.undo()
                .unwrap_or_else(|_| panic!("{context}: undo after a probe"));
            totals.undos += 1;
            let after = snapshot(game);
            assert!(
                after == before,
                "{context}: undo of {color} {vertex} did not restore the game\nbefore\n{}\nafter\n{}",
                before.board,
                after.board
            );
            true
        }
        Err(_) => {
            assert!(
                snapshot(game) == before,
                "{context}: an illegal move changed the game"
            );
            false
        }
    }
}

/// Chooses the next move: a random legal point that does not fill one of the player's own
/// eyes (now and then any legal point, so that suicides and self-captures happen), rarely a
/// pass, and a pass when nothing else is left.
fn choose_move(game: &Game, legal: &[Point], random: &mut SmallRng) -> Move {
    if random.gen_range(0..50) == 0 {
        return Move::Pass;
    }
    let color = game.to_move();
    let board = game.board();
    let any_point = random.gen_range(0..10) == 0;
    let candidates: Vec<Point> = legal
        .iter()
        .copied()
        .filter(|&point| any_point || !board.is_true_eye_like(point, color))
        .collect();
    if candidates.is_empty() {
        Move::Pass
    } else {
        Move::Place(candidates[random.gen_range(0..candidates.len())])
    }
}

/// The legal points of the side to move, found by trying random points first on big boards
/// (where the probes are only a sample), then every point.
fn legal_points_for_choice(
    game: &Game,
    probed_legal: Vec<Point>,
    sample: Option<usize>,
    random: &mut SmallRng,
) -> Vec<Point> {
    if sample.is_none() {
        return probed_legal;
    }
    let size = game.size();
    let color = game.to_move();
    for _ in 0..30 {
        let point = point_at(random.gen_range(0..size), random.gen_range(0..size), size);
        if game.is_legal(color, Move::Place(point)) && !game.board().is_true_eye_like(point, color)
        {
            return vec![point];
        }
    }
    game.legal_points(color)
}

fn play_random_game(plan: &Plan, game_index: usize, totals: &mut Totals) {
    let seed = plan.seed + game_index as u64;
    let mut random = SmallRng::seed_from_u64(seed);
    let rules = rulesets()[game_index % 5];
    let size = plan.size;
    let mut game = Game::new(size, rules, rules.default_komi());
    let mut placed = [0usize; 2];
    if size >= 9 && game_index % 4 == 3 {
        let stones: Vec<Point> = (0..random.gen_range(2..6))
            .map(|_| point_at(random.gen_range(0..size), random.gen_range(0..size), size))
            .collect::<HashSet<Point>>()
            .into_iter()
            .collect();
        game.place_handicap(&stones)
            .expect("handicap before any move");
        placed[Color::Black.index()] = game.board().stone_counts()[Color::Black.index()];
    }
    let start = snapshot(&game);
    let mut history = History::new(&game);
    let mut trail: Vec<Snapshot> = vec![start.clone()];
    let move_limit = 3 * size * size;
    check_position(&game, placed, &format!("{size}x{size} seed {seed} start"));
    while !game.both_passed() && game.move_count() < move_limit {
        let context = format!(
            "{size}x{size} {rules} seed {seed} move {}",
            game.move_count() + 1
        );
        let mut legal = Vec::new();
        for point in probe_points(&game, plan.probe_sample, &mut random) {
            if probe(&mut game, &history, point, totals, &context) {
                legal.push(point);
            }
        }
        let legal = legal_points_for_choice(&game, legal, plan.probe_sample, &mut random);
        let chosen = choose_move(&game, &legal, &mut random);
        let color = game.to_move();
        let captured_before = game.board().captures(color.opponent());
        game.play(color, chosen).unwrap_or_else(|error| {
            panic!(
                "{context}: chosen move {} refused: {error}",
                move_text(chosen, size)
            )
        });
        totals.moves += 1;
        match chosen {
            Move::Pass => totals.passes += 1,
            Move::Place(point) => {
                placed[color.index()] += 1;
                if game.board().last_captured() > 0 {
                    totals.capturing_moves += 1;
                }
                if game.board().stone(point).is_none() {
                    totals.suicides += 1;
                    assert!(
                        rules.suicide_allowed
                            && game.board().captures(color.opponent()) > captured_before,
                        "{context}: a stone vanished without a suicide"
                    );
                }
            }
        }
        history.record(game.board(), game.to_move());
        check_position(&game, placed, &context);
        trail.push(snapshot(&game));
    }
    // Undo back to the start, comparing each step with the way forward.
    let moves: Vec<(Color, Move)> = game.moves().collect();
    trail.pop();
    while let Some(expected) = trail.pop() {
        game.undo()
            .unwrap_or_else(|_| panic!("seed {seed}: undo failed with moves left"));
        totals.undos += 1;
        let state = snapshot(&game);
        assert!(
            state == expected,
            "seed {seed}: undo back to move {} differs\nexpected\n{}\ngot\n{}",
            expected.move_count,
            expected.board,
            state.board
        );
        if expected.move_count > 0 {
            game.board()
                .check_consistency()
                .unwrap_or_else(|problem| panic!("seed {seed}: after undo: {problem}"));
        }
    }
    assert!(game.undo().is_err(), "seed {seed}: undo past the start");
    assert!(snapshot(&game) == start, "seed {seed}: start not restored");
    // Replaying the same moves reaches the same end.
    let end = {
        let mut replay = game.clone();
        for &(color, chosen) in &moves {
            replay
                .play(color, chosen)
                .unwrap_or_else(|error| panic!("seed {seed}: replay refused: {error}"));
        }
        replay.board().clone()
    };
    let mut forward = game;
    for &(color, chosen) in &moves {
        forward.play(color, chosen).expect("replay");
    }
    assert!(forward.board() == &end, "seed {seed}: replays differ");
    totals.games += 1;
}

fn run(plan: Plan) -> Totals {
    let mut totals = Totals::default();
    for game_index in 0..plan.games {
        play_random_game(&plan, game_index, &mut totals);
    }
    println!(
        "invariants {size}x{size}: {} games, {} moves ({} passes, {} capturing moves, {} suicides), \
         {} probes ({} occupied, {} suicide, {} ko, {} superko refusals), {} undos",
        totals.games,
        totals.moves,
        totals.passes,
        totals.capturing_moves,
        totals.suicides,
        totals.probes,
        totals.occupied_refusals,
        totals.suicide_refusals,
        totals.ko_refusals,
        totals.superko_refusals,
        totals.undos,
        size = plan.size,
    );
    totals
}

#[test]
fn random_games_on_5x5_keep_every_invariant() {
    let totals = run(Plan {
        size: 5,
        games: 2000,
        seed: 5_000,
        probe_sample: None,
    });
    assert_eq!(totals.games, 2000);
    assert!(totals.suicides > 0 && totals.ko_refusals > 0 && totals.superko_refusals > 0);
}

#[test]
fn random_games_on_9x9_keep_every_invariant() {
    let totals = run(Plan {
        size: 9,
        games: 300,
        seed: 9_000,
        probe_sample: None,
    });
    assert_eq!(totals.games, 300);
    assert!(totals.suicides > 0 && totals.ko_refusals > 0);
}

#[test]
fn random_games_on_19x19_keep_every_invariant() {
    let totals = run(Plan {
        size: 19,
        games: 12,
        seed: 19_000,
        probe_sample: Some(24),
    });
    assert_eq!(totals.games, 12);
    assert!(totals.capturing_moves > 0);
}

#[test]
fn random_games_on_the_smallest_odd_and_largest_boards_keep_every_invariant() {
    let mut games = 0;
    for (size, count, sample) in [
        (2, 200, None),
        (3, 200, None),
        (4, 100, None),
        (7, 40, None),
        (13, 4, Some(24)),
        (25, 2, Some(24)),
    ] {
        games += run(Plan {
            size,
            games: count,
            seed: 25_000 + 100 * size as u64,
            probe_sample: sample,
        })
        .games;
    }
    assert_eq!(games, 546);
}
