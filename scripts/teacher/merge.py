#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Merge teacher files (generate.py's shards, runs on several machines) into one.

  merge.py [--games N] OUT.jsonl.gz IN.jsonl.gz [IN ...]

Every complete game of the inputs, once, ordered by (board size, seed), one gzip member per
game as generate.py writes them (so OUT can be resumed by generate.py and read by ishi-train).
With --games N only the games 0..N-1 of each run (board size and --seed) are kept, and a game
missing among them stops the merge: the first N games of a run that went on, in seed order,
as a network learned them (ishi-train holds out every tenth game of a file in its order).
A seed found twice must hold the same game (a shard run twice, a file listed twice); two
different games under one seed stop the merge. A damaged tail of an input (an interrupted
write) is left out with a warning. Python 3 standard library only.
"""
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_check  # noqa: E402


def games_of(paths):
    """(key, line) of every complete game of paths, in file order."""
    for path in paths:
        try:
            for _, line in read_check.iter_lines(path):
                game = json.loads(line)
                yield (game["size"], game["seed"]), line.rstrip("\n")
        except read_check.Truncated as damage:
            print(f"merge: {path}: damaged tail after {damage.args[0]} games left out", file=sys.stderr)


def conflicts(paths):
    """Seeds that name two different games among paths."""
    seen, bad = {}, []
    for key, line in games_of(paths):
        if seen.setdefault(key, line) != line:
            bad.append(key)
    return bad


SEED_STRIDE = read_check.SEED_STRIDE


def merge(paths, out, first=None):
    """Writes the merge of paths to out (only games 0..first-1 of each run when first is
    given); returns the number of games."""
    games = {}
    for key, line in games_of(paths):
        if first is not None and key[1] % SEED_STRIDE >= first:
            continue
        if games.setdefault(key, line) != line:
            raise SystemExit(f"merge: two different games with size {key[0]} and seed {key[1]}")
    if first is not None:
        runs = {(size, seed // SEED_STRIDE) for size, seed in games}
        for size, run in sorted(runs):
            missing = [i for i in range(first) if (size, run * SEED_STRIDE + i) not in games]
            if missing:
                raise SystemExit(f"merge: size {size} seed {run} lacks games {missing[:10]}"
                                 f"{' ...' if len(missing) > 10 else ''} of the first {first}")
    tmp = out + ".partial"
    with open(tmp, "wb") as f:
        for key in sorted(games):
            data = (games[key] + "\n").encode("utf-8")
            f.write(gzip.compress(data, compresslevel=9, mtime=0) if out.endswith(".gz") else data)
    os.replace(tmp, out)
    return len(games)


def main():
    arguments = sys.argv[1:]
    first = None
    if arguments[:1] == ["--games"] and len(arguments) > 1:
        if not arguments[1].isdigit() or int(arguments[1]) < 1:
            sys.exit(f"merge: --games wants a positive count, not {arguments[1]!r}")
        first, arguments = int(arguments[1]), arguments[2:]
    if len(arguments) < 2 or arguments[0].startswith("-"):
        sys.exit(__doc__)
    out, paths = arguments[0], arguments[1:]
    if os.path.abspath(out) in (os.path.abspath(p) for p in paths):
        sys.exit("merge: the output must not be one of the inputs")
    count = merge(paths, out, first)
    print(f"merge: {count} games from {len(paths)} files to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
