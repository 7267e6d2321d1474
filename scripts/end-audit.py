#!/usr/bin/env python3
"""Audits how the games of a match.py run ended, for engine A (ishi).

For every game that ended by two passes it compares engine A's own `final_score` (RES_B in
results.dat, mirrored so that B+ means A won) with the referee's (RES_R), and it looks at
the passes: a game A lost that ended with A's pass is a pass into a loss; the script prints
the referee's and A's scores of those games so they can be looked at by hand (the SGF is in
the same folder). Standard library only.

    python3 scripts/end-audit.py matches/agree-5k [more folders...]
"""

import re
import sys
from pathlib import Path


def results(folder):
    """Rows of results.dat as dictionaries."""
    header = None
    for line in (folder / "results.dat").read_text().splitlines():
        if line.startswith("#GAME"):
            header = line[1:].split("\t")
        elif line and not line.startswith("#") and header:
            yield dict(zip(header, line.split("\t")))


def margin(result):
    """B+3.5 -> 3.5, W+2 -> -2, 0 -> 0; None for resignations, time, forfeits."""
    if result in ("0", "Draw", "Jigo"):
        return 0.0
    match = re.fullmatch(r"([BW])\+(\d+(?:\.\d+)?)", result or "")
    if not match:
        return None
    value = float(match.group(2))
    return value if match.group(1) == "B" else -value


def last_moves(sgf_text):
    """The colours and points of the record's moves, in order."""
    return re.findall(r";([BW])\[([a-z]{0,2})\]", sgf_text)


def main(folders):
    scored = agreed = 0
    disagreements = []
    passes_into_loss = []
    for folder in map(Path, folders):
        for row in results(folder):
            referee = margin(row["RES_R"])
            engine = margin(row["RES_B"])
            if referee is None or "+R" in row["RES_R"]:
                continue
            game = int(row["GAME"])
            sgf = (folder / f"game-{game:04d}.sgf").read_text()
            if "both players passed" not in sgf:
                continue
            scored += 1
            if engine is not None and engine == referee:
                agreed += 1
            else:
                disagreements.append((folder.name, game, row["RES_B"], row["RES_R"]))
            moves = last_moves(sgf)
            engine_color = "W" if row["ALT"] == "1" else "B"
            if referee < 0 and moves and moves[-1][0] == engine_color:
                passes_into_loss.append((folder.name, game, row["RES_B"], row["RES_R"]))
    print(f"games ended by two passes: {scored}")
    if scored:
        print(f"engine A's final_score equals the referee's: {agreed}/{scored} "
              f"({100.0 * agreed / scored:.1f}%)")
    for name, game, own, referee in disagreements:
        print(f"  differs: {name} game {game:04d}: A says {own}, referee {referee} "
              "(B+ = A won)")
    print(f"games A lost that ended with A's pass: {len(passes_into_loss)}")
    for name, game, own, referee in passes_into_loss:
        print(f"  {name} game {game:04d}: A says {own}, referee {referee}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
