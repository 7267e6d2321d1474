#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""How well ishi's value network judges a game as the board fills: over teacher-labelled games
(scripts/teacher/generate.py or label.py output), the network's win probability (`kata-raw-nn
0`) against the teacher's, bucketed by the share of the board still empty.

  value-phases.py LABELS.jsonl.gz [--engine "ishi --threads 1"] [--games N] [--every K]
                  [--held-out]
  value-phases.py --self-test

For each bucket: the positions, how often the network and the teacher agree on the side ahead
(positions where the teacher is outside 0.45-0.55), and the mean KL divergence of the network's
win probability from the teacher's. --held-out reads only ishi-train's held-out games (the
first of every ten in the file); --every K judges every K-th position of a game (2 by
default). Python 3 standard library only.
"""

import argparse
import gzip
import json
import math
import shlex
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import match  # noqa: E402  (scripts/match.py: the GTP client)

TIMEOUT = 60.0


def ask(engine, command):
    """The answer's text; an error where the engine refuses the command."""
    response = engine.send(command, TIMEOUT)
    if not response.success:
        raise RuntimeError(f"{command}: {response.text}")
    return response.text


def records(path):
    """The games of a labels file, stopping quietly at a truncated end (a file being written)."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt") as lines:
            for line in lines:
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:
                    return
    except (EOFError, zlib.error, OSError):
        return


def divergence(teacher, network):
    """KL divergence of a win probability from the teacher's, in nats."""
    clamp = lambda p: min(max(p, 1e-6), 1 - 1e-6)
    t, n = clamp(teacher), clamp(network)
    return t * math.log(t / n) + (1 - t) * math.log((1 - t) / (1 - n))


def empty_points(board_lines, size):
    """Empty points of a `showboard` answer."""
    count = 0
    for line in board_lines:
        fields = line.split()
        if len(fields) > size and fields[0].isdigit():
            count += fields[1 : 1 + size].count(".")
    return count


def measure(engine, games, every):
    """Per bucket (tenths of the board empty): [positions, decided, agreeing, KL sum]."""
    buckets = {}
    for game in games:
        size = game["size"]
        for command in (f"boardsize {size}", "clear_board", f"komi {game['komi']}"):
            ask(engine, command)
        for index, move in enumerate(game["moves"]):
            color = "b" if index % 2 == 0 else "w"
            if index % every == 0:
                answer = ask(engine, "kata-raw-nn 0").splitlines()
                network = float(
                    next(line for line in answer if line.startswith("whiteWin")).split()[1]
                )
                board = ask(engine, "showboard").splitlines()
                share = empty_points(board, size) / (size * size)
                teacher = game["white_win"][index]
                bucket = buckets.setdefault(min(int(share * 10), 9), [0, 0, 0, 0.0])
                bucket[0] += 1
                if abs(teacher - 0.5) > 0.05:
                    bucket[1] += 1
                    bucket[2] += (network > 0.5) == (teacher > 0.5)
                bucket[3] += divergence(teacher, network)
            if not engine.send(f"play {color} {move}", TIMEOUT).success:
                break
    return buckets


def report(buckets):
    lines = ["empty share   positions   side ahead agreed   KL"]
    for key in sorted(buckets):
        positions, decided, agreeing, kl = buckets[key]
        agreed = f"{100 * agreeing / decided:5.1f}%" if decided else "    -"
        lines.append(
            f"{key / 10:.1f}-{(key + 1) / 10:.1f}     {positions:9d}   {agreed:>17}   {kl / positions:.3f}"
        )
    return "\n".join(lines)


def self_test():
    assert divergence(0.3, 0.3) < 1e-12
    assert divergence(0.9, 0.1) > 1.5
    board = ["   A B C", " 3 . X .  3", " 2 O . .  2", " 1 . . X  1", "   A B C"]
    assert empty_points(board, 3) == 6
    buckets = {2: [4, 2, 1, 0.8], 9: [1, 0, 0, 0.1]}
    text = report(buckets)
    assert "0.2-0.3" in text and "50.0%" in text and "0.200" in text, text
    print("value-phases: self-test passed")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("labels", nargs="?")
    parser.add_argument("--engine", default="target/release/ishi --threads 1")
    parser.add_argument("--games", type=int, default=0, help="the first N games (0: all)")
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--held-out", action="store_true")
    parser.add_argument("--self-test", action="store_true")
    arguments = parser.parse_args()
    if arguments.self_test:
        self_test()
        return
    if not arguments.labels:
        parser.error("a labels file is needed")
    chosen = []
    for number, game in enumerate(records(arguments.labels)):
        if arguments.games and number >= arguments.games:
            break
        if arguments.held_out and number % 10 != 0:
            continue
        chosen.append(game)
    engine = match.GtpEngine(shlex.split(arguments.engine), "engine", None)
    try:
        buckets = measure(engine, chosen, max(arguments.every, 1))
    finally:
        engine.close()
    print(f"{arguments.labels}: {len(chosen)} games")
    print(report(buckets))


if __name__ == "__main__":
    sys.exit(main())
