#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Where a match was won and lost, in the teacher's eyes: each move's cost in win probability
and in points, from the labels that scripts/teacher/label.py gives the match's SGFs.

    python3 scripts/teacher/label.py --out ../data/labels/m19.jsonl.gz ../data/matches19/run
    python3 scripts/turning-points.py --labels ../data/labels/m19.jsonl.gz ../data/matches19/run

label.py records, before every move of a game, KataGo's raw win probability and score lead
for White. A move's cost to its mover is the fall of the mover's win probability (and of its
lead) from the position before it to the position after it. For each SGF whose game the
labels hold (found by label.py's game key: size, komi, setup stones, moves) this prints the
engine's colour (the player whose PB/PW name holds --player, "ishi" by default), the result,
the engine's win probability at moves 50, 100, 150 and 200, the highest it reached after
move 30, and its moves that cost --points or more (move number, vertex, points, win
probability before and after, the teacher's first choice there). Then, for the engine and
its opponent, in won and lost games: moves, mean points lost a move in each stretch of 50
moves, moves that cost 5 and 10 points or more, and how many games the engine led at 0.9 or
more and still lost. The raw network is a fallible judge (b10, one evaluation), so the
figures point at positions to look at, not verdicts.

--start-positions FILE writes, for every game where the engine's lead (the teacher's count)
reached --min-lead points with the engine to move within --window FIRST-LAST moves played, a
line `SGF MOVES b|w` at the highest such lead: match.py --start-positions plays on from
there, to ask how often the engine converts a won position. Standard library only.
"""
import argparse
import gzip
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "teacher"))
import label  # noqa: E402
import read_check  # noqa: E402

STRETCH = 50
STRETCHES = 5  # moves 1-50, ..., 201 and on
NAME = re.compile(r"\b(PB|PW|RE)\[((?:\\.|[^\]\\])*)\]")


def load_labels(paths):
    """label.py's game key -> its record, over every labels file."""
    games = {}
    for path in paths:
        for _, line in read_check.iter_lines(path):
            record = json.loads(line)
            games[record["seed"]] = record
    return games


def players(text):
    """PB, PW and RE of an SGF's root (the first of each)."""
    found = {}
    for name, value in NAME.findall(text):
        found.setdefault(name, value)
    return found


def move_costs(record):
    """(mover, move number from 1, vertex, win probability before and after for the mover,
    points lost by the mover, the teacher's first choice before the move) for every move
    whose following position is labelled."""
    size = record["size"]
    costs = []
    for index in range(len(record["moves"]) - 1):
        mover = "B" if _mover_is_black(record, index) else "W"
        white_before, white_after = record["white_win"][index], record["white_win"][index + 1]
        lead_before, lead_after = record["white_lead"][index], record["white_lead"][index + 1]
        if mover == "W":
            before, after, lost = white_before, white_after, lead_before - lead_after
        else:
            before, after, lost = 1 - white_before, 1 - white_after, lead_after - lead_before
        policy = record["policy"][index]
        best = max(range(len(policy)), key=policy.__getitem__)
        choice = read_check.vertex(None if best == size * size else best, size)
        costs.append((mover, index + 1, record["moves"][index], before, after, lost, choice))
    return costs


def _mover_is_black(record, index):
    """Black moves first without setup stones, White first after a handicap setup."""
    black_first = not record.get("handicap")
    return (index % 2 == 0) == black_first


def win_probability(record, colour, move):
    """The colour's win probability before the given move (from 1), or None past the end."""
    if move > len(record["white_win"]):
        return None
    white = record["white_win"][move - 1]
    return white if colour == "W" else 1 - white


def peak_lead(record, colour, first, last):
    """(moves played, lead) where the colour's lead by the teacher's count is highest with
    the colour to move and between first and last moves played; None when no such position."""
    best = None
    for played in range(first, min(last, len(record["white_lead"]) - 1) + 1):
        if ("B" if _mover_is_black(record, played) else "W") != colour:
            continue
        white = record["white_lead"][played]
        lead = white if colour == "W" else -white
        if best is None or lead > best[1]:
            best = (played, lead)
    return best


def engine_won(result, colour):
    return bool(result) and result[0] == colour


class Tally:
    """Points lost by one side over many games, by stretch of the game."""

    def __init__(self):
        self.moves = [0] * STRETCHES
        self.points = [0.0] * STRETCHES
        self.costly = {5: 0, 10: 0}

    def add(self, move, lost):
        stretch = min((move - 1) // STRETCH, STRETCHES - 1)
        self.moves[stretch] += 1
        self.points[stretch] += lost
        for threshold in self.costly:
            if lost >= threshold:
                self.costly[threshold] += 1

    def line(self, name):
        means = " ".join(
            f"{self.points[s] / self.moves[s]:5.2f}" if self.moves[s] else "    -"
            for s in range(STRETCHES))
        return (f"{name:<24} {sum(self.moves):6d} moves; mean points lost a move by stretch "
                f"{means}; >=5: {self.costly[5]}, >=10: {self.costly[10]}")


def analyse(sgf_paths, labels, player, threshold, out=sys.stdout, starts=None):
    """Prints the report and returns the counts and, with `starts` (min lead, first, last, the
    positions file's folder), the start-position lines of the games whose lead reached the
    minimum (none without)."""
    lines = []
    tallies = {(side, won): Tally() for side in ("engine", "opponent") for won in (True, False)}
    counts = {"games": 0, "unlabelled": 0, "won": 0, "thrown": 0}
    for path in sgf_paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        size, komi, setup, moves = label.parse_sgf(text)
        record = labels.get(label.game_key(size, komi, setup, moves))
        root = players(text)
        if player in root.get("PB", ""):
            colour = "B"
        elif player in root.get("PW", ""):
            colour = "W"
        else:
            continue
        if record is None:
            counts["unlabelled"] += 1
            continue
        result = root.get("RE", "?")
        won = engine_won(result, colour)
        counts["games"] += 1
        counts["won"] += won
        probabilities = [win_probability(record, colour, m) for m in (50, 100, 150, 200)]
        late = [win_probability(record, colour, m) for m in range(31, len(record["white_win"]) + 1)]
        peak = max(late) if late else None
        if peak is not None and peak >= 0.9 and not won:
            counts["thrown"] += 1
        if starts is not None:
            minimum, first, last, folder = starts
            best = peak_lead(record, colour, first, last)
            if best is not None and best[1] >= minimum:
                lines.append(f"{os.path.relpath(path, folder)} {best[0]} {colour.lower()}"
                             f"   # lead {best[1]:+.0f} by the teacher's count; {result}")
        shown = " ".join("  -  " if p is None else f"{p:.2f}" for p in probabilities)
        peak_text = "-" if peak is None else f"{peak:.2f}"
        print(f"{os.path.basename(path)}: engine {colour}, {result}, {'won' if won else 'lost'}; "
              f"win probability at 50/100/150/200: {shown}; peak after 30: {peak_text}", file=out)
        for mover, move, vertex, before, after, lost, choice in move_costs(record):
            side = "engine" if mover == colour else "opponent"
            tallies[(side, won)].add(move, lost)
            if side == "engine" and lost >= threshold:
                print(f"    move {move:3d} {vertex:<4} cost {lost:5.1f} points, win probability "
                      f"{before:.2f} -> {after:.2f} (teacher's choice {choice})", file=out)
    print(f"\n{counts['games']} games labelled ({counts['unlabelled']} without labels), "
          f"engine won {counts['won']}; lost after leading at 0.9 or more: {counts['thrown']}",
          file=out)
    print(f"stretches of {STRETCH} moves (the last from move {STRETCH * (STRETCHES - 1) + 1} on)",
          file=out)
    for (side, won), tally in tallies.items():
        if sum(tally.moves):
            print(tally.line(f"{side}, {'won' if won else 'lost'} games"), file=out)
    return counts, lines


def self_test():
    """Two labelled 7x7 games, one with a handicap setup: costs, colours and tallies."""
    record = {"size": 7, "komi": 7.5, "handicap": [], "moves": ["D4", "C5", "E3", "pass"],
              "white_win": [0.5, 0.6, 0.2, 0.3], "white_lead": [0.0, 2.0, -6.0, -4.0],
              "policy": [[0] * 49 + [1]] + [[1] + [0] * 49] * 3}
    costs = move_costs(record)
    assert [c[0] for c in costs] == ["B", "W", "B"], costs
    # Black's D4: Black's win probability 0.5 -> 0.4, White's lead 0 -> 2: Black lost 2.
    assert costs[0][1:3] == (1, "D4") and abs(costs[0][3] - 0.5) < 1e-9
    assert abs(costs[0][4] - 0.4) < 1e-9 and abs(costs[0][5] - 2.0) < 1e-9, costs[0]
    assert costs[0][6] == "pass" and costs[1][6] == "A7", costs
    # White's C5: White's lead 2 -> -6, 8 points lost.
    assert abs(costs[1][5] - 8.0) < 1e-9 and costs[1][0] == "W"
    handicap = dict(record, handicap=["C3", "E5"])
    assert [c[0] for c in move_costs(handicap)] == ["W", "B", "W"]
    assert win_probability(record, "B", 3) == 0.8 and win_probability(record, "W", 9) is None
    assert engine_won("W+R", "W") and not engine_won("B+0.5", "W") and not engine_won("", "B")
    # Black's lead (White's negated): 0, -2, +6, +4 after 0-3 moves; Black moves at 0 and 2.
    assert peak_lead(record, "B", 0, 9) == (2, 6.0), peak_lead(record, "B", 0, 9)
    assert peak_lead(record, "W", 0, 9) == (1, 2.0) and peak_lead(record, "B", 3, 3) is None
    with tempfile.TemporaryDirectory() as folder:
        sgf = "(;FF[4]SZ[7]KM[7.5]PB[ishi 0.1.0]PW[GNU Go]RE[W+R];B[dd];W[cc];B[ee];W[])"
        path = os.path.join(folder, "game-0001.sgf")
        with open(path, "w") as f:
            f.write(sgf)
        other = os.path.join(folder, "game-0002.sgf")
        with open(other, "w") as f:
            f.write("(;FF[4]SZ[7]KM[7.5]PB[ishi]PW[GNU Go]RE[B+3.5];B[aa];W[bb])")
        size, komi, setup, moves = label.parse_sgf(sgf)
        record["seed"] = label.game_key(size, komi, setup, moves)
        labels_path = os.path.join(folder, "labels.jsonl.gz")
        with gzip.open(labels_path, "wt") as f:
            f.write(json.dumps(record) + "\n")
        lines = []

        class Lines:
            def write(self, text):
                lines.append(text)

        counts, starts = analyse([path, other], load_labels([labels_path]), "ishi", 5.0,
                                 out=Lines(), starts=(5.0, 0, 300, os.path.dirname(folder)))
        text = "".join(lines)
        name = os.path.basename(folder)
        assert starts == [f"{name}/game-0001.sgf 2 b   # lead +6 by the teacher's count; W+R"], starts
        _, none = analyse([path], load_labels([labels_path]), "ishi", 5.0, out=Lines(),
                          starts=(7.0, 0, 300, folder))
        assert none == [], none
        assert counts == {"games": 1, "unlabelled": 1, "won": 0, "thrown": 0}, counts
        assert "engine B, W+R, lost" in text, text
        # Only White's C3 cost 5 points or more, and White is the opponent here.
        assert "cost" not in text, text
        assert "opponent, lost games" in text and ">=5: 1" in text, text
    print("turning-points.py self-test: OK (costs by mover, handicap order, labels by game key)")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="*", help="SGF files or folders of them")
    parser.add_argument("--labels", action="append", default=[],
                        help="label.py output (.jsonl or .jsonl.gz); may be repeated")
    parser.add_argument("--player", default="ishi", help="a part of the engine's PB/PW name")
    parser.add_argument("--points", type=float, default=5.0,
                        help="list the engine's moves that cost this many points or more")
    parser.add_argument("--start-positions", metavar="FILE",
                        help="write match.py start positions at each game's peak lead here")
    parser.add_argument("--min-lead", type=float, default=30.0,
                        help="the least peak lead (points) for a start position")
    parser.add_argument("--window", default="80-170", metavar="FIRST-LAST",
                        help="the moves played between which the peak is looked for")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.labels or not args.inputs:
        parser.error("give --labels and SGF files or folders")
    files, labels = label.sgf_files(args.inputs), load_labels(args.labels)
    if args.start_positions is None:
        analyse(files, labels, args.player, args.points)
        return 0
    try:
        first, last = (int(x) for x in args.window.split("-"))
    except ValueError:
        parser.error("--window FIRST-LAST, two move counts")
    folder = os.path.dirname(os.path.abspath(args.start_positions))
    _, lines = analyse(files, labels, args.player, args.points,
                       starts=(args.min_lead, first, last, folder))
    with open(args.start_positions, "w", encoding="utf-8") as f:
        f.write(f"# turning-points.py: the engine to move at its peak lead of {args.min_lead:g} "
                f"points or more, {first}-{last} moves played\n")
        f.writelines(line + "\n" for line in lines)
    print(f"wrote {len(lines)} start positions to {args.start_positions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
