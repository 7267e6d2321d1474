#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Compares arms of an A/B test run as match.py matches on the same seeds and colours.

Each arm is one or more match.py output folders joined by commas (a run resumed into a
new folder adds one). For each arm: games, engine A's wins with the 95% Wilson interval,
wins as Black and as White, how its counted games ended (mean and median margin for A,
wins by 2.5 points or less) and its resignations. Then, for two arms, the games both
played (by game number, so by seed and colour): how many both won, only one won, both
lost, with an exact two-sided sign test on the games they split. Forfeits (a crash, a
hang, an illegal move: X+F) are left out of every count and listed. Standard library only.

    python3 scripts/arms.py ../data/matches/base,../data/matches/base-b ../data/matches/try
"""

import importlib.util
import math
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import match  # noqa: E402  (match.py beside this script: the Wilson interval)

_SPEC = importlib.util.spec_from_file_location("end_audit", HERE / "end-audit.py")
end_audit = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(end_audit)

NARROW = 2.5


def arm_games(spec):
    """Game number -> (A's colour, A won, A's margin or None, result text, A's and B's
    genmove seconds) over the folders of one arm (a later folder's game replaces an earlier
    one's), and the forfeits."""
    games, forfeits = {}, []
    for folder in spec.split(","):
        if not (Path(folder) / "results.dat").is_file():
            print(f"{folder}: no results.dat yet, left out", file=sys.stderr)
            continue
        for row in end_audit.results(Path(folder)):
            number = int(row["GAME"])
            result = row["RES_R"]
            colour = "W" if row["ALT"] == "1" else "B"
            if result.endswith("+F"):
                forfeits.append(number)
                games.pop(number, None)
                continue
            # results.dat mirrors every result so that B+ means engine A won.
            won = result.startswith("B+")
            margin = end_audit.margin(result)
            times = (float(row["TIME_B"]), float(row["TIME_W"]))
            games[number] = (colour, won, margin, result, times)
    return games, forfeits


def describe(name, games, forfeits):
    """Lines describing one arm."""
    count = len(games)
    wins = sum(won for _, won, _, _, _ in games.values())
    low, high = match.wilson_interval(wins / count, count) if count else (0.0, 0.0)
    by_colour = {
        colour: (
            sum(won for c, won, _, _, _ in games.values() if c == colour),
            sum(1 for c, _, _, _, _ in games.values() if c == colour),
        )
        for colour in "BW"
    }
    margins = [margin for _, _, margin, _, _ in games.values() if margin is not None]
    narrow = sum(1 for margin in margins if 0 < margin <= NARROW)
    time_a, time_b = (
        statistics.mean(times[side] for *_, times in games.values()) if count else 0.0
        for side in (0, 1)
    )
    resigned = sum(1 for _, won, _, result, _ in games.values() if not won and result.endswith("+R"))
    lines = [
        f"{name}: {wins} of {count} ({100 * wins / max(count, 1):.1f}%, "
        f"{100 * low:.1f}-{100 * high:.1f}%); as Black {by_colour['B'][0]} of "
        f"{by_colour['B'][1]}, as White {by_colour['W'][0]} of {by_colour['W'][1]}; "
        f"genmove time a game {time_a:.1f} / {time_b:.1f} s (A / B)",
    ]
    if margins:
        lines.append(
            f"  counted {len(margins)}: mean margin {statistics.mean(margins):+.1f}, median "
            f"{statistics.median(margins):+.1f}, wins by {NARROW} or less {narrow}; "
            f"losses by resignation {resigned}"
        )
    else:
        lines.append(f"  counted 0; losses by resignation {resigned}")
    if forfeits:
        lines.append(f"  forfeits left out: games {', '.join(map(str, sorted(forfeits)))}")
    return lines


def sign_test(first_only, second_only):
    """Exact two-sided binomial p-value of a split of the discordant games."""
    total = first_only + second_only
    if total == 0:
        return 1.0
    tail = sum(math.comb(total, k) for k in range(min(first_only, second_only) + 1))
    return min(1.0, 2 * tail / 2**total)


def paired(first, second):
    """Lines comparing two arms on the games both played."""
    common = sorted(set(first) & set(second))
    both = sum(1 for n in common if first[n][1] and second[n][1])
    first_only = [n for n in common if first[n][1] and not second[n][1]]
    second_only = [n for n in common if second[n][1] and not first[n][1]]
    neither = len(common) - both - len(first_only) - len(second_only)
    lines = [
        f"paired on {len(common)} games: both won {both}, only the first "
        f"{len(first_only)} {first_only}, only the second {len(second_only)} {second_only}, "
        f"both lost {neither}; sign test p = {sign_test(len(first_only), len(second_only)):.3f}"
    ]
    margins = [
        (first[n][2], second[n][2])
        for n in common
        if first[n][2] is not None and second[n][2] is not None
    ]
    if margins:
        difference = statistics.mean(b - a for a, b in margins)
        lines.append(
            f"  both counted in {len(margins)}: the second's margin minus the first's, "
            f"mean {difference:+.1f}"
        )
    return lines


def main(arguments):
    if not arguments or len(arguments) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    arms = [arm_games(spec) for spec in arguments]
    for spec, (games, forfeits) in zip(arguments, arms):
        print("\n".join(describe(spec, games, forfeits)))
    if len(arms) == 2:
        print("\n".join(paired(arms[0][0], arms[1][0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
