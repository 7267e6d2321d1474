#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Life-and-death problems (tsumego) from a public problem set, asked of an engine.

The problems are the JSON files of Sander Land's "Ten Thousand Tsumego" collection
(https://github.com/sanderland/tsumego, MIT; Cho Chikun's Encyclopedia of Life and
Death, elementary, intermediate and advanced, by default): each gives the stones
(AB, AW), the board size and the correct first moves (SOL). They are read in place
under --problems (default $ISHI_TSUMEGO, else ../data/tsumego/problems beside the
repository) and never copied into the project:

    git clone https://github.com/sanderland/tsumego ../data/tsumego

A problem is a corner or a side of an otherwise empty board, where a whole-board
engine would rather play elsewhere. So the position gets a frame, as KataGo's
tsumego frame (KaTrain) does: the problem's stones, a margin of empty points around
them (--margin, 2), and every other point filled by the two colours, the attacker
(the side whose stones stand farther from the edges) nearest the problem, the
defender beyond, each area left with single-point eyes on the points where
(x + 2y) mod 5 is 0 (every stone of a filled area touches one) so that both live.
The attacker gets as many points as make it win by --offence-to-win (5) points
under area scoring with the komi when it takes every point of the problem's area,
so that living in it, even small, wins for the defender: the problem decides the
game, and the engine's ordinary `genmove` answers it.

Each problem is asked with `reg_genmove` at a fixed playout count in deterministic
mode (default engine `target/release/ishi --threads 1 --seed 1 --playouts 3000`),
and solved when the move is one of the correct first moves. --every K takes the
first problem of every K of each collection (sorted by file name), --limit N the
first N so taken. Output: per collection solved/total, the total; -v each failure;
--json FILE every case; --compare OLD.json the cases whose result changed.

    python3 scripts/tsumego.py --every 9 -j 2 --json new.json
    python3 scripts/tsumego.py --engine "/tmp/ishi-old --threads 1 --seed 1" --every 9 --json old.json
    python3 scripts/tsumego.py --diff old.json new.json
    python3 scripts/tsumego.py --self-test
"""

import argparse
import concurrent.futures
import importlib.util
import json
import os
import shlex
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ENGINE = str(REPO / "target/release/ishi") + " --threads 1 --seed 1 --playouts 3000"
DEFAULT_COLLECTIONS = (
    "1a. Tsumego Beginner/Cho Chikun Encyclopedia Life And Death - Elementary",
    "1b. Tsumego Intermediate/Cho Chikun Encyclopedia Life And Death - Intermediate",
    "1c. Tsumego Advanced/Cho Chikun Encyclopedia Life And Death - Advanced",
)
GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
BLACK, WHITE = "B", "W"


# move-suites.py's GTP client (Engine, EngineError) and engine_argv: a sibling whose name
# has a dash, so imported by path.
_SPEC = importlib.util.spec_from_file_location("move_suites",
                                               Path(__file__).with_name("move-suites.py"))
move_suites = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(move_suites)


def other(color):
    return WHITE if color == BLACK else BLACK


# ---------------------------------------------------------------- problems

def sgf_point(text):
    """SGF's two letters ("ba") as (x, y), x the column and y the row from the top."""
    if len(text) != 2 or not all("a" <= c <= "y" for c in text):
        raise ValueError("not an SGF point: %r" % text)
    return ord(text[0]) - ord("a"), ord(text[1]) - ord("a")


def gtp_vertex(point, size):
    x, y = point
    return "%s%d" % (GTP_LETTERS[x], size - y)


def parse_problem(data, name):
    """A problem's JSON object as a dict (size, stones, to_move, solutions), or a
    reason why it cannot be asked (a string)."""
    try:
        size = int(data.get("SZ", "19"))
        black = [sgf_point(p) for p in data.get("AB", [])]
        white = [sgf_point(p) for p in data.get("AW", [])]
        solutions = data.get("SOL") or []
        if not solutions:
            return "no solution given"
        to_move = solutions[0][0]
        if to_move not in (BLACK, WHITE) or any(s[0] != to_move for s in solutions):
            return "solutions of both colours"
        answers = {sgf_point(s[1]) for s in solutions}
    except (ValueError, TypeError, IndexError, AttributeError) as err:
        return "unreadable: %s" % err
    points = black + white
    if not 5 <= size <= 25 or any(max(p) >= size for p in points + list(answers)):
        return "off the board"
    if len(set(points)) != len(points) or not black or not white:
        return "stones missing or doubled"
    return {"name": name, "size": size, "black": black, "white": white,
            "to_move": to_move, "answers": answers}


def load_problems(folder, collections, every, limit):
    """[(collection, problem or reason)] of each collection, every K-th file."""
    out = []
    for collection in collections:
        path = Path(folder) / collection
        files = sorted(path.glob("*.json"))
        if not files:
            raise FileNotFoundError("no problems in %s" % path)
        chosen = files[::every][:limit] if limit else files[::every]
        for file in chosen:
            with open(file, encoding="utf-8") as handle:
                out.append((collection, parse_problem(json.load(handle), file.stem)))
    return out


# ---------------------------------------------------------------- the frame

def guess_attacker(problem):
    """The side whose stones stand farther from the edges on average: it surrounds."""
    size = problem["size"]

    def distance(points):
        return sum(min(x, y, size - 1 - x, size - 1 - y) for x, y in points) / len(points)

    return BLACK if distance(problem["black"]) > distance(problem["white"]) else WHITE


def problem_area(problem, margin):
    """The problem's box (its stones' bounding box widened by the margin, cut at the
    edges) as (x0, y0, x1, y1), inclusive."""
    size = problem["size"]
    points = problem["black"] + problem["white"]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (max(0, min(xs) - margin), max(0, min(ys) - margin),
            min(size - 1, max(xs) + margin), min(size - 1, max(ys) + margin))


def neighbours(point, size):
    x, y = point
    for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
        if 0 <= nx < size and 0 <= ny < size:
            yield nx, ny


def frame(problem, komi=7.5, margin=2, offence_to_win=5):
    """The frame's stones as {point: colour} (the eyes left out), the attacker, and the
    number of points each side's frame area holds."""
    size = problem["size"]
    x0, y0, x1, y1 = problem_area(problem, margin)
    inside = (x1 - x0 + 1) * (y1 - y0 + 1)

    def distance(point):
        x, y = point
        return max(x0 - x, x - x1, 0) + max(y0 - y, y - y1, 0)

    outside = sorted(((x, y) for y in range(size) for x in range(size)
                      if not (x0 <= x <= x1 and y0 <= y <= y1)),
                     key=lambda p: (distance(p), p[1], p[0]))
    attacker = guess_attacker(problem)
    # Area scoring with the attacker taking the whole box: its margin is
    # attacker_area + inside - defender_area, less the komi when it is Black.
    komi_for_attacker = komi if attacker == WHITE else -komi
    wanted = (len(outside) + offence_to_win - komi_for_attacker - inside) / 2
    attacker_points = min(len(outside), max(0, int(wanted + 0.999)))
    owner = {p: (attacker if i < attacker_points else other(attacker))
             for i, p in enumerate(outside)}
    stones = {}
    for point, color in owner.items():
        x, y = point
        eye = (x + 2 * y) % 5 == 0 and all(owner.get(n) == color
                                           for n in neighbours(point, size))
        if not eye:
            stones[point] = color
    return stones, attacker, attacker_points, len(outside) - attacker_points


def placement(problem, komi=7.5, margin=2):
    """The stones to play, in order: the problem's, then the frame's (the attacker's
    nearest the problem first)."""
    stones, attacker, _, _ = frame(problem, komi, margin)
    order = [(BLACK, p) for p in problem["black"]] + [(WHITE, p) for p in problem["white"]]
    order += [(c, p) for p, c in stones.items() if c == attacker]
    order += [(c, p) for p, c in stones.items() if c != attacker]
    return order


def chains_without_liberties(board, size):
    """The points of every chain on the board ({point: colour}) that has no liberty."""
    seen, dead = set(), []
    for start in board:
        if start in seen:
            continue
        color, chain, stack, free = board[start], [], [start], False
        seen.add(start)
        while stack:
            point = stack.pop()
            chain.append(point)
            for n in neighbours(point, size):
                if n not in board:
                    free = True
                elif board[n] == color and n not in seen:
                    seen.add(n)
                    stack.append(n)
        if not free:
            dead.extend(chain)
    return dead


def placement_captures(order, size):
    """Whether playing the stones in order captures or suicides anything (it must not:
    the position would not be the one meant)."""
    board = {}
    for color, point in order:
        if point in board:
            return True
        board[point] = color
        if chains_without_liberties(board, size):
            return True
    return False


# ---------------------------------------------------------------- running

def ask_problem(engine, problem, komi, margin):
    """The engine's move for the problem (after setting it up), as text."""
    size = problem["size"]
    engine.ask("boardsize %d" % size)
    engine.ask("clear_board")
    engine.ask("komi %g" % komi)
    for color, point in placement(problem, komi, margin):
        engine.ask("play %s %s" % (color, gtp_vertex(point, size)))
    return engine.ask("reg_genmove %s" % problem["to_move"]).strip()


def solved(problem, answer):
    size = problem["size"]
    return answer.upper() in {gtp_vertex(p, size) for p in problem["answers"]}


def run(problems, argv, timeout, komi, margin, jobs, verbose):
    """Asks every problem; returns the cases as dicts."""
    local = threading.local()
    engines = []
    lock = threading.Lock()

    def one(item):
        collection, problem = item
        case = {"collection": collection}
        if isinstance(problem, str):
            case.update(name="?", status="skipped", reason=problem)
            return case
        case["name"] = problem["name"]
        case["answers"] = sorted(gtp_vertex(p, problem["size"]) for p in problem["answers"])
        engine = getattr(local, "engine", None)
        if engine is None:
            engine = local.engine = move_suites.Engine(argv, timeout)
            with lock:
                engines.append(engine)
        try:
            answer = ask_problem(engine, problem, komi, margin)
        except move_suites.EngineError as err:
            engine.kill()
            case.update(status="failed", answer="", reason=str(err))
            return case
        case.update(answer=answer, status="solved" if solved(problem, answer) else "failed")
        if verbose and case["status"] == "failed":
            print("failed %s %s: %s, wanted %s" % (collection, case["name"], answer,
                                                    "|".join(case["answers"])), flush=True)
        return case

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, problems))
    finally:
        for engine in engines:
            engine.kill(polite=True)


def report(cases, out=sys.stdout):
    collections = []
    for case in cases:
        if case["collection"] not in collections:
            collections.append(case["collection"])
    total_solved = total = 0
    for collection in collections:
        mine = [c for c in cases if c["collection"] == collection]
        asked = [c for c in mine if c["status"] != "skipped"]
        good = sum(c["status"] == "solved" for c in asked)
        total_solved, total = total_solved + good, total + len(asked)
        skipped = len(mine) - len(asked)
        print("%-80s %3d/%-3d%s" % (collection, good, len(asked),
                                    "  (%d skipped)" % skipped if skipped else ""), file=out)
    print("%-80s %3d/%-3d" % ("total", total_solved, total), file=out)
    return total_solved, total


def compare(old_cases, new_cases, out=sys.stdout):
    """Prints the cases whose status changed; returns (gained, lost)."""
    old = {(c["collection"], c["name"]): c for c in old_cases}
    gained = lost = 0
    for case in new_cases:
        before = old.get((case["collection"], case["name"]))
        if before is None or before["status"] == case["status"]:
            continue
        if case["status"] == "solved":
            gained += 1
        elif before["status"] == "solved":
            lost += 1
        print("%s %s: %s (%s) -> %s (%s)" % (case["collection"].split("/")[-1], case["name"],
                                             before["status"], before.get("answer", ""),
                                             case["status"], case.get("answer", "")), file=out)
    print("gained %d, lost %d" % (gained, lost), file=out)
    return gained, lost


# ---------------------------------------------------------------- self-test

def self_test():
    failures = []

    def check(what, got, want):
        if got != want:
            failures.append("%s: got %r, want %r" % (what, got, want))

    check("sgf point", sgf_point("ba"), (1, 0))
    check("gtp vertex skips I", gtp_vertex((8, 0), 19), "J19")
    check("gtp vertex", gtp_vertex((1, 0), 19), "B19")
    # A made-up corner problem: White's three stones inside, Black around them.
    data = {"AB": ["ab", "bb", "cb", "db", "dc", "ea"], "AW": ["aa", "ba", "ca"],
            "SZ": "19", "SOL": [["B", "da", "", ""], ["B", "ac", "", ""]]}
    problem = parse_problem(data, "made-up")
    check("parsed answers", problem["answers"], {(3, 0), (0, 2)})
    check("attacker", guess_attacker(problem), BLACK)
    check("problem area", problem_area(problem, 2), (0, 0, 6, 4))
    check("unreadable", parse_problem({"AB": ["ta"], "AW": ["aa"], "SOL": [["B", "ab"]]}, "x"),
          "off the board")
    check("no solution", parse_problem({"AB": ["ab"], "AW": ["aa"]}, "x"), "no solution given")
    for komi in (7.5, 0.0, -3.5):
        for mover_problem in (problem, dict(problem, black=problem["white"],
                                            white=problem["black"], to_move=WHITE)):
            stones, attacker, a_points, d_points = frame(mover_problem, komi)
            x0, y0, x1, y1 = problem_area(mover_problem, 2)
            inside = (x1 - x0 + 1) * (y1 - y0 + 1)
            # The attacker taking the whole box wins by 5 or 6 (the half point rounds up).
            margin = a_points + inside - d_points + (komi if attacker == WHITE else -komi)
            check("kill margin, komi %g" % komi, 5 <= margin < 7, True)
            check("areas fill the outside", a_points + d_points, 19 * 19 - inside)
            near = [p for p in stones
                    for n in neighbours(p, 19) if x0 <= n[0] <= x1 and y0 <= n[1] <= y1]
            check("the frame next to the box is the attacker's",
                  {stones[p] for p in near}, {attacker})
            order = placement(mover_problem, komi)
            check("placing captures nothing", placement_captures(order, 19), False)
            board = dict((p, c) for c, p in order)
            empty_outside = [(x, y) for y in range(19) for x in range(19)
                             if (x, y) not in board and not (x0 <= x <= x1 and y0 <= y <= y1)]
            check("every empty frame point is an eye of one colour", all(
                len({board.get(n) for n in neighbours(p, 19)}) == 1 for p in empty_outside), True)
            check("eyes are not adjacent", any(
                n in empty_outside for p in empty_outside for n in neighbours(p, 19)), False)
    check("capture found", placement_captures(
        [(BLACK, (0, 1)), (BLACK, (1, 0)), (WHITE, (0, 0))], 19), True)

    class FakeEngine:
        def __init__(self, *_):
            self.commands = []

        def ask(self, command):
            self.commands.append(command)
            return "D19" if command.startswith("reg_genmove") else ""

    fake = FakeEngine()
    answer = ask_problem(fake, problem, 7.5, 2)
    check("answer", (answer, solved(problem, answer)), ("D19", True))
    check("setup", fake.commands[:4], ["boardsize 19", "clear_board", "komi 7.5", "play B A18"])
    check("one play a stone", sum(c.startswith("play") for c in fake.commands),
          len(placement(problem)))
    check("a wrong answer fails", solved(problem, "E19"), False)
    cases = [{"collection": "c", "name": "1", "status": "solved", "answer": "A1"},
             {"collection": "c", "name": "2", "status": "failed", "answer": "B1"},
             {"collection": "c", "name": "3", "status": "skipped"}]
    sink = open(os.devnull, "w")
    check("report", report(cases, sink), (1, 2))
    newer = [dict(cases[0], status="failed"), dict(cases[1], status="solved"), cases[2]]
    check("compare", compare(cases, newer, sink), (1, 1))
    sink.close()
    for failure in failures:
        print("FAIL", failure)
    print("self-test: %s" % ("failed" if failures else "passed"))
    return 1 if failures else 0


# ---------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default=DEFAULT_ENGINE, help="the engine's command line")
    parser.add_argument("--playouts", type=int, help="replace or add --playouts N")
    parser.add_argument("--problems", default=os.environ.get(
        "ISHI_TSUMEGO", str(REPO.parent / "data/tsumego/problems")),
        help="the collection's problems/ folder")
    parser.add_argument("--collection", action="append",
                        help="a collection folder under --problems (repeatable; default "
                             "Cho Chikun's three)")
    parser.add_argument("--every", type=int, default=1, help="every K-th problem")
    parser.add_argument("--limit", type=int, default=0, help="at most N a collection")
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--margin", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300, help="seconds an answer")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="engines at once")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--json", help="write every case here")
    parser.add_argument("--compare", help="after the run, the changes since this --json file")
    parser.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"), help="compare two files")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if args.diff:
        with open(args.diff[0]) as old, open(args.diff[1]) as new:
            compare(json.load(old), json.load(new))
        return 0
    argv = move_suites.engine_argv(args.engine, args.playouts)
    try:
        problems = load_problems(args.problems, args.collection or DEFAULT_COLLECTIONS,
                                 max(1, args.every), args.limit)
    except FileNotFoundError as err:
        print("tsumego: %s (see --help for where the problems come from)" % err,
              file=sys.stderr)
        return 2
    print("engine: %s" % " ".join(shlex.quote(a) for a in argv), flush=True)
    cases = run(problems, argv, args.timeout, args.komi, args.margin, max(1, args.jobs),
                args.verbose)
    report(cases)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(cases, out, indent=1)
    if args.compare:
        with open(args.compare) as old:
            compare(json.load(old), cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
