"""Legal-move oracle for ishi's Abalone differential test, built on abalone-boai.

abalone-boai (PyPI `abalone-boai`, import name `abalone`, MIT, Scriptim/Abalone-BoAI) is an
independent Abalone implementation. What its source (1.0.0) shows:

- `abalone.enums.Space` names cells 'A1'..'I9' in the official coordinates (rows A bottom to I
  top, numbers along the NW-SE diagonals), the same as ishi's a1..i9 in upper case.
  `Game.board` is a list of rows from I (index 0) down to A, each row from its lowest number.
- `abalone.enums.Direction`: NORTH_EAST (row+1, number+1), EAST (number+1), SOUTH_EAST (row-1),
  SOUTH_WEST (row-1, number-1), WEST (number-1), NORTH_WEST (row+1): ishi's NE, E, SE, SW, W,
  NW with the same steps (`abalone.utils.neighbor`).
- A move is `(marbles, direction)`: an inline move names its trailing marble (the
  "caboose", a single Space) and moves the whole run of own marbles ahead of it (more than 3
  is illegal); a broadside names the two end Spaces of a 2-3 line.
  `Game.generate_legal_moves` tries every own single marble and every line of 2-3 along NW,
  NE, E with all six directions on a deep copy and keeps those that raise no
  IllegalMoveException, so it yields each legal (line, direction) exactly once.
- Its `InitialPosition.BELGIAN_DAISY` and `GERMAN_DAISY` have the colours the other way round
  from ishi's rule sheet (White on a1/a2 and b1/b2), and their docstring diagrams disagree with
  the values. This oracle therefore sets up the starts from the rule sheet's cell lists
  (shared/margo-abalone.md §2.2), the same as ishi; Black moves first.

Speed: the package's generator deep-copies the game for every candidate (about 15 ms a
position). `legal_moves` below runs the same loop (`generate_own_marble_lines` x every
`Direction`, keep what `Game.move` accepts) on a plain copy of the board, and the package's
pure helpers `utils.neighbor` and `game._space_to_board_indices` are memoised: about 3.5 ms a
position, same answers (checked against `generate_legal_moves` while writing this).

Protocol: one JSON object per line on stdin,
  {"start": "standard"|"belgian"|"german", "moves": [[["a1", "a2"], "E"], ...]}
where a move is the sorted list of the mover's moving cells (lower case, row letter then
number) and a direction (E, NE, NW, W, SW, SE). For each request it prints one JSON line: a
list with, for every position of the sequence (the start, then after each move), a list of
strings: "B:" and the sorted black cells joined by commas, "W:" and the white cells, then the
sorted legal moves written "a1,a2:E". A move the package rejects prints {"error": "..."}.
"""

import functools
import json
import sys

import abalone.game
import abalone.utils

abalone.utils.neighbor = functools.lru_cache(maxsize=None)(abalone.utils.neighbor)
abalone.game.neighbor = abalone.utils.neighbor
abalone.game._space_to_board_indices = functools.lru_cache(maxsize=None)(
    abalone.game._space_to_board_indices
)

from abalone.enums import Direction, Marble, Player, Space  # noqa: E402
from abalone.game import Game, IllegalMoveException  # noqa: E402
from abalone.utils import line_from_to, line_to_edge  # noqa: E402

STARTS = {
    "standard": (
        "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5",
        "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7",
    ),
    "belgian": (
        "a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9",
        "a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6",
    ),
    "german": (
        "b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9",
        "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5",
    ),
}

DIRECTION_NAMES = {
    Direction.EAST: "E",
    Direction.NORTH_EAST: "NE",
    Direction.NORTH_WEST: "NW",
    Direction.WEST: "W",
    Direction.SOUTH_WEST: "SW",
    Direction.SOUTH_EAST: "SE",
}
DIRECTIONS = {name: direction for direction, name in DIRECTION_NAMES.items()}
OPPOSITE = {"E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}


def cell_name(space):
    return (space.value[0] + space.value[1]).lower()


def cell_key(name):
    return (name[0], int(name[1]))


def new_game(start):
    black, white = STARTS[start]
    game = Game(first_turn=Player.BLACK)
    for space in Space:
        if space is not Space.OFF:
            game.set_marble(space, Marble.BLANK)
    for names, marble in ((black, Marble.BLACK), (white, Marble.WHITE)):
        for name in names.split():
            game.set_marble(Space[name.upper()], marble)
    return game


def own_marble(game):
    return Marble.BLACK if game.turn is Player.BLACK else Marble.WHITE


def neutral(game, marbles, direction):
    """The neutral form of one of the package's moves, read before it is played."""
    if isinstance(marbles, Space):
        cells = []
        for space in line_to_edge(marbles, direction):
            if game.get_marble(space) is not own_marble(game):
                break
            cells.append(space)
    else:
        cells, _ = line_from_to(marbles[0], marbles[1])
    names = sorted((cell_name(space) for space in cells), key=cell_key)
    return ",".join(names) + ":" + DIRECTION_NAMES[direction]


def package_move(names, direction_name):
    """The package's (marbles, direction) for a neutral move."""
    direction = DIRECTIONS[direction_name]
    spaces = [Space[name.upper()] for name in names]
    if len(spaces) == 1:
        return spaces[0], direction
    _, axis = line_from_to(spaces[0], spaces[1])
    axis_name = DIRECTION_NAMES[axis]
    if direction_name == axis_name:
        return spaces[0], direction
    if direction_name == OPPOSITE[axis_name]:
        return spaces[-1], direction
    return (spaces[0], spaces[-1]), direction


def copy_of(game):
    """A copy of the game state (the board rows and the turn)."""
    copy = Game.__new__(Game)
    copy.board = [row[:] for row in game.board]
    copy.turn = game.turn
    return copy


def legal_moves(game):
    """The package's `generate_legal_moves` loop on cheap copies, in neutral spelling."""
    moves = []
    for marbles in game.generate_own_marble_lines():
        for direction in Direction:
            try:
                copy_of(game).move(marbles, direction)
            except IllegalMoveException:
                continue
            moves.append(neutral(game, marbles, direction))
    return sorted(moves)


def position(game):
    """The marbles of each colour, then the legal moves."""
    cells = {Marble.BLACK: [], Marble.WHITE: []}
    for space in Space:
        if space is not Space.OFF:
            marble = game.get_marble(space)
            if marble in cells:
                cells[marble].append(cell_name(space))
    black = ",".join(sorted(cells[Marble.BLACK], key=cell_key))
    white = ",".join(sorted(cells[Marble.WHITE], key=cell_key))
    return ["B:" + black, "W:" + white] + legal_moves(game)


def answer(request):
    game = new_game(request["start"])
    positions = [position(game)]
    for names, direction_name in request["moves"]:
        marbles, direction = package_move(names, direction_name)
        try:
            game.move(marbles, direction)
        except IllegalMoveException as error:
            return {"error": "%s:%s rejected: %s" % (",".join(names), direction_name, error)}
        game.switch_player()
        positions.append(position(game))
    return positions


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            reply = answer(json.loads(line))
        except Exception as error:  # report, keep serving
            reply = {"error": "%s: %s" % (type(error).__name__, error)}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
