#!/usr/bin/env python3
"""Capture Go between two GTP engines: the first player to capture wins.

    scripts/capture_match.py "A-COMMAND" "B-COMMAND" GAMES SIZE

`{game}` in a command is replaced by the game's number (give each game its own seed).
Engine A is Black in the even games, White in the odd ones. The engines must play capture
Go themselves (ishi: `--rules capture:1`); after every move engine A is asked `captures
COLOR` for the mover, and a capture ends the game. A resignation loses; an illegal move (the
other engine answers `play` with `?`) loses; a game reaching 3 * SIZE * SIZE moves counts
for nobody. Prints one line a game and A's score with a 95% Wilson interval at the end.
Python 3 standard library only.
"""

import math
import subprocess
import sys


class Engine:
    """One GTP engine process."""

    def __init__(self, command):
        self.process = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def ask(self, line):
        """Sends one command; returns (success, answer text)."""
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            text = self.process.stdout.readline()
            if text == "":
                raise RuntimeError(f"the engine closed its output after {line!r}")
            if text.strip() == "" and lines:
                break
            if text.strip():
                lines.append(text.strip())
        return lines[0].startswith("="), lines[0][1:].strip()

    def must(self, line):
        success, answer = self.ask(line)
        if not success:
            raise RuntimeError(f"{line!r} failed: {answer}")
        return answer

    def close(self):
        try:
            self.ask("quit")
            self.process.wait(5)
        except (RuntimeError, OSError, subprocess.TimeoutExpired):
            self.process.kill()


def wilson(wins, games):
    """The 95% Wilson score interval of wins out of games, in percent."""
    if games == 0:
        return 0.0, 100.0
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return 100 * (centre - half), 100 * (centre + half)


def play_game(a_command, b_command, game, size):
    """Plays one game; returns (winner colour or None, whether A won, moves)."""
    a, b = Engine(a_command.replace("{game}", str(game))), Engine(b_command.replace("{game}", str(game)))
    try:
        for engine in (a, b):
            engine.must(f"boardsize {size}")
            engine.must("clear_board")
        players = {"black": a, "white": b} if game % 2 == 0 else {"black": b, "white": a}
        colour, moves = "black", 0
        while moves < 3 * size * size:
            other = "white" if colour == "black" else "black"
            move = players[colour].must(f"genmove {colour}")
            if move.lower() == "resign":
                return other, players[other] is a, moves
            legal, _ = players[other].ask(f"play {colour} {move}")
            if not legal:
                return other, players[other] is a, moves
            moves += 1
            if int(a.must(f"captures {colour}")) > 0:
                return colour, players[colour] is a, moves
            colour = other
        return None, False, moves
    finally:
        a.close()
        b.close()


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    a_command, b_command = sys.argv[1], sys.argv[2]
    games, size = int(sys.argv[3]), int(sys.argv[4])
    wins = 0
    for game in range(games):
        winner, a_won, moves = play_game(a_command, b_command, game, size)
        wins += a_won
        who = "A" if a_won else ("B" if winner else "nobody")
        print(f"game {game}: {winner or 'no'} capture by {who} after {moves} moves; A {wins} of {game + 1}", flush=True)
    low, high = wilson(wins, games)
    print(f"A won {wins} of {games} ({low:.1f}-{high:.1f}%)")


if __name__ == "__main__":
    main()
