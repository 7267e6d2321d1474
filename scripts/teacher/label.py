#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Teacher labels for the positions of games ishi played (matches, self-play): every position
of each SGF's main line gets KataGo's raw policy, win probability, score lead and ownership,
written in generate.py's format so that ishi-train reads it like the teacher's own games.

  label.py --out FILE.jsonl.gz SGF-OR-FOLDER... [-j WORKERS] [--shard K/N] [--min-moves M]
  label.py --self-test

The student's search meets positions the teacher's own games never reach (blunders, lost
fights, odd shapes); labelling them teaches the value network about those (issue 31, 3a).

Each SGF (FF[4]: SZ, KM, AB/HA, then ;B[..] / ;W[..] nodes; variations after the main line are
ignored) is replayed in KataGo with `play` (area scoring, simple ko, whiteHandicapBonus 0, as
generate.py sets it); before every move `kata-raw-nn 0` labels the position. A game stops at a
move KataGo refuses. The record's `seed` is the first 12 hex digits of the sha256 of the game
(size, komi, setup stones and moves) read as a number, `source` the SGF's file name: running
the command again skips games already in FILE (resume), and a game found in two SGFs is
labelled once. --shard K/N labels the K-th of every N games in the sorted file order (same
recipe as generate.py's, merged with merge.py). Python 3 standard library only.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402
import read_check  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import match  # noqa: E402  (scripts/match.py: where an SGF's main line ends)

PROPERTY = re.compile(r"([A-Z]+)((?:\[(?:\\.|[^\]\\])*\])+)", re.S)
VALUE = re.compile(r"\[((?:\\.|[^\]\\])*)\]", re.S)


def sgf_vertex(text, size):
    """An SGF point ("dd") as a GTP vertex; pass for "" or "tt" on boards up to 19."""
    if text == "" or (text == "tt" and size <= 19):
        return "pass"
    column, row = ord(text[0]) - ord("a"), ord(text[1]) - ord("a")
    if not (0 <= column < size and 0 <= row < size):
        raise ValueError(f"point {text} off the board")
    return read_check.vertex(row * size + column, size)


def parse_sgf(text):
    """(size, komi, setup stones, moves as (colour, vertex)) of the main line of an SGF."""
    main = text[:match.sgf_main_line_end(text)]
    size, komi, setup, moves = 19, 7.5, [], []
    for name, values in PROPERTY.findall(main):
        items = VALUE.findall(values)
        if name == "SZ":
            size = int(items[0].split(":")[0])
        elif name == "KM":
            komi = float(items[0] or 0)
        elif name == "AB":
            setup.extend(items)
        elif name in ("B", "W"):
            moves.append((name, items[0]))
    return (size, komi, [sgf_vertex(v, size) for v in setup],
            [(colour, sgf_vertex(v, size)) for colour, v in moves])


def game_key(size, komi, setup, moves):
    text = json.dumps([size, komi, sorted(setup), moves])
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


def label_game(kg, path, min_moves):
    with open(path, encoding="utf-8", errors="replace") as f:
        size, komi, setup, moves = parse_sgf(f.read())
    if len(moves) < min_moves:
        return None
    if kg.size != size:
        kg.cmd(f"boardsize {size}")
        kg.size = size
    kg.cmd("clear_board")
    kg.cmd(f"komi {komi}")
    if setup:
        kg.cmd("set_free_handicap " + " ".join(setup))
    played, policy, white_win, white_lead, ownership = [], [], [], [], []
    for colour, vertex in moves:
        nn = kg.raw_nn(size)
        try:
            kg.cmd(f"play {colour} {vertex}")
        except generate.GTPError:
            break
        played.append(vertex)
        policy.append([0 if x != x else int(round(1000 * x)) for x in nn["policy"]])
        white_win.append(round(nn.get("whiteWin", float("nan")), 3))
        white_lead.append(round(nn.get("whiteLead", float("nan")), 1))
        ownership.append([int(round(100 * x)) for x in nn["own"]])
    return {"size": size, "komi": komi, "rules": "chinese", "handicap": setup,
            "seed": game_key(size, komi, setup, moves), "source": os.path.basename(path),
            "moves": played, "policy": policy, "white_win": white_win, "white_lead": white_lead,
            "ownership": ownership}


def sgf_files(paths):
    found = []
    for path in paths:
        if os.path.isdir(path):
            for folder, _, names in os.walk(path):
                found.extend(os.path.join(folder, n) for n in names if n.lower().endswith(".sgf"))
        else:
            found.append(path)
    return sorted(set(found))


def main(argv=None):
    top = generate.repo_top()
    kdir = os.environ.get("KATAGO_DIR", os.path.join(os.path.dirname(top), "peers", "katago"))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="*", help="SGF files or folders of them")
    ap.add_argument("--out", help="output file (.jsonl or .jsonl.gz); appended to")
    ap.add_argument("--shard", default="1/1", help="K/N: label only the K-th of every N games")
    ap.add_argument("--min-moves", type=int, default=10, help="skip games shorter than this")
    ap.add_argument("--katago-dir", default=kdir)
    ap.add_argument("--katago")
    ap.add_argument("--model")
    ap.add_argument("--config")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--log-dir", default=os.path.join(tempfile.gettempdir(), "ishi-teacher-logs"))
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.out or not args.inputs:
        ap.error("give --out and SGF files or folders")
    shard, shards = (int(x) for x in args.shard.split("/"))
    if not 1 <= shard <= shards:
        ap.error("--shard K/N with 1 <= K <= N")
    args.katago = args.katago or os.path.join(args.katago_dir, "katago")
    args.model = args.model or os.path.join(args.katago_dir, "b10c384h6nbttflrs.bin.gz")
    args.config = args.config or os.path.join(args.katago_dir, "gtp.cfg")
    for f in (args.katago, args.model, args.config):
        if not os.path.exists(f):
            sys.exit(f"label: {f} missing (scripts/opponents/setup-katago.sh builds it)")
    os.makedirs(args.log_dir, exist_ok=True)
    done = generate.existing_seeds(args.out)
    files = sgf_files(args.inputs)[shard - 1::shards]
    kg = generate.start_katago(args, f"label-{os.getpid()}")
    started, games, positions, skipped = time.time(), 0, 0, 0
    try:
        for path in files:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    size, komi, setup, moves = parse_sgf(f.read())
            except (OSError, ValueError, IndexError) as error:
                print(f"label: {path}: {error}; skipped", file=sys.stderr)
                skipped += 1
                continue
            if game_key(size, komi, setup, moves) in done:
                continue
            game = label_game(kg, path, args.min_moves)
            if game is None or not game["moves"]:
                skipped += 1
                continue
            generate.write_game(args.out, json.dumps(game, separators=(",", ":")))
            done.add(game["seed"])
            games += 1
            positions += len(game["moves"])
            print(f"label: {path}: {len(game['moves'])} positions; {games} games, "
                  f"{positions / (time.time() - started):.1f} positions/s", file=sys.stderr)
    except KeyboardInterrupt:
        print("label: interrupted; complete games are written", file=sys.stderr)
    finally:
        kg.close()
    print(f"label: wrote {games} games, {positions} positions ({skipped} skipped) to {args.out}",
          file=sys.stderr)
    return 0


def self_test():
    """Labels two SGFs (one with setup stones and a pass, one a duplicate of the first under
    another name) with fake_teacher.py, twice: one game per distinct SGF, moves and labels as
    replayed, nothing added on the second run."""
    here = os.path.dirname(os.path.abspath(__file__))
    fake = os.path.join(here, "fake_teacher.py")
    size, komi, setup, moves = parse_sgf("(;FF[4]GM[1]SZ[7]KM[0.5]AB[cc][ee];W[dd];B[]C[a (comment\\] B[aa]];W[cd](;B[ab])(;B[ba]))")
    assert (size, komi, setup) == (7, 0.5, ["C5", "E3"]), (size, komi, setup)
    assert moves == [("W", "D4"), ("B", "pass"), ("W", "C4"), ("B", "A6")], moves
    with tempfile.TemporaryDirectory() as folder:
        records = {
            "a.sgf": "(;FF[4]SZ[7]KM[6.5]AB[cc][ee];W[dd];B[dc];W[cd];B[];W[bb];B[de];W[ed])",
            "b.sgf": "(;FF[4]SZ[7]KM[6.5]AB[cc][ee];W[dd];B[dc];W[cd];B[];W[bb];B[de];W[ed])",
            "c.sgf": "(;FF[4]SZ[7]KM[7.5];B[dd];W[cc];B[dc];W[cd];B[ce];W[bd];B[])",
        }
        for name, text in records.items():
            with open(os.path.join(folder, name), "w") as f:
                f.write(text)
        out = os.path.join(folder, "labels.jsonl.gz")
        common = ["--out", out, "--min-moves", "2", "--katago", fake, "--model", fake, "--config", fake,
                  "--log-dir", os.path.join(folder, "logs"), folder]
        for _ in range(2):
            done = subprocess.run([sys.executable, os.path.abspath(__file__), *common], capture_output=True,
                                  text=True)
            assert done.returncode == 0, done.stderr
        games = [json.loads(line) for _, line in read_check.iter_lines(out)]
        assert len(games) == 2, [g["source"] for g in games]
        assert "wrote 0 games" in done.stderr, done.stderr
        first = next(g for g in games if g["source"] == "a.sgf")
        assert first["moves"] == ["D4", "D5", "C4", "pass", "B6", "D3", "E4"], first["moves"]
        assert first["handicap"] == ["C5", "E3"] and first["komi"] == 6.5
        for g in games:
            assert len(g["policy"]) == len(g["white_win"]) == len(g["ownership"]) == len(g["moves"])
        checked = subprocess.run([sys.executable, os.path.join(here, "read_check.py"), "--quiet", out],
                                 capture_output=True, text=True)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        # The fake teacher's ownership gives the stones to their colours: the first position's
        # setup stones are Black's.
        assert first["ownership"][0][2 * 7 + 2] == -100 and first["ownership"][0][4 * 7 + 4] == -100
    print("label.py self-test: OK (SGF main line, setup stones, pass, duplicates, resume)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
