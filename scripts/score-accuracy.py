#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Measure how well a GTP engine's end-of-game scoring matches reference data.

Two suites, both read in place from folders outside the repository (their
data is never copied into the project):

OGS score-estimator (--ogs, the `test_games` folder of
online-go/score-estimator): each `<folder>/<name>.game` file holds a header
(`height H`, `width W`, `player_to_move 1|-1`), then H rows of W integers for
the board (1 black, -1 white, 0 empty; the first row is the top row, GTP row
H), a blank line, and H rows of W integers where 1 marks a point the OGS
estimator removes.  Those marks also cover some EMPTY points (shared
liberties in seki, dame); GTP's `final_status_list dead` lists stones only,
so only marked points holding a stone form the reference set.  Each position
is set up with `kgs-rules chinese`, `boardsize N`, `clear_board`, `komi 7.5`,
one `gogui-setup b A1 w B2 ...` and `gogui-setup_player b|w`; the answer to
`final_status_list dead` must equal the reference set exactly.  Results per
folder and per board size (9x9, 19x19, other sizes together).  Non-square
boards are skipped with a note.

GNU Go score.tst / score2.tst (--gnugo, GNU Go's `regression` folder):
`loadsgf games/...` lines are sent with absolute paths, each numbered command
(`N final_score`) is checked against the following `#? [regex]` line: the
regex must match the whole first line of the answer, a leading `!` inside the
brackets negates it, a `*` after the brackets marks a test GNU Go itself
fails.  Commented-out tests are skipped.  GNU Go ran these with its default
Japanese (territory) rules, so `kgs-rules japanese` is sent before every
loadsgf (score1-30.sgf also carry RU[Japanese]; komi comes from each KM[]).
With -v each failure shows the expected and given result and the margin
error, positive when the engine's score favours Black more than expected.

One engine process serves the whole run.  A command answered with `?`, an
engine that dies or stays silent for --timeout seconds fails the case at hand
(with the reason) and the engine is restarted.  Engines lacking `kgs-rules`
or `gogui-setup_player` (GNU Go) go without them, and without `gogui-setup`
the stones are placed with `play`.  Exit status: 0 after a run, 2 when the
engine cannot be started or no data folder exists.

    python3 scripts/score-accuracy.py
    python3 scripts/score-accuracy.py -v --only ogs
    python3 scripts/score-accuracy.py --engine "/usr/games/gnugo --mode gtp"
"""

import argparse
import os
import queue
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ENGINE = "target/release/ishi --threads 1 --seed 1"
DEFAULT_OGS = "/work/shared/peer-suites/online-go/score-estimator/test_games"
DEFAULT_GNUGO = "/work/shared/peer-suites/runningskull/gnugo/regression"
GNUGO_FILES = ("score.tst", "score2.tst")
LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP columns skip I
OPTIONAL = ("kgs-rules", "gogui-setup_player")  # other engines (GNU Go) lack them


class EngineError(Exception):
    """The engine refused a command, died or hung; the case fails."""


class Engine:
    """A GTP engine process, started on demand and restarted after a failure."""

    def __init__(self, command, timeout):
        self.argv = shlex.split(command)
        if self.argv and not os.path.isabs(self.argv[0]) and "/" in self.argv[0] \
                and not os.path.exists(self.argv[0]) and (REPO / self.argv[0]).exists():
            self.argv[0] = str(REPO / self.argv[0])  # run from outside the repo
        self.timeout = timeout
        self.known = {}
        self.proc = None
        self.lines = None
        self.stderr = None
        self.starts = 0

    def start(self):
        self.stderr = tempfile.TemporaryFile()
        for attempt in range(10):  # the binary may be briefly missing during a rebuild
            try:
                self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=self.stderr,
                                             text=True, bufsize=1)
                break
            except FileNotFoundError:
                if attempt == 9:
                    raise EngineError(f"cannot start {self.argv[0]}: no such file")
                time.sleep(2)
            except OSError as error:
                raise EngineError(f"cannot start {self.argv[0]}: {error}")
        self.starts += 1
        self.lines = queue.Queue()
        threading.Thread(target=self._reader, args=(self.proc.stdout, self.lines),
                         daemon=True).start()
        self.send("protocol_version")

    @staticmethod
    def _reader(stream, lines):
        for line in stream:
            lines.put(line.rstrip("\r\n"))
        lines.put(None)

    def stderr_tail(self):
        if self.stderr is None:
            return ""
        self.stderr.seek(0)
        tail = self.stderr.read().decode(errors="replace").strip().splitlines()[-1:]
        return f" (stderr: {tail[0][:200]})" if tail else ""

    def stop(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        if self.stderr is not None:
            self.stderr.close()
        self.proc = self.stderr = None

    def send(self, command):
        """Send one command; return the answer text (lines joined by \\n).

        On any failure the engine is stopped (the next command restarts it)."""
        if self.proc is None:
            self.start()
        try:
            return self._exchange(command)
        except EngineError:
            self.stop()
            raise

    def _exchange(self, command):
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except OSError:
            raise EngineError(f"engine died before '{command}'{self.stderr_tail()}")
        deadline = time.monotonic() + self.timeout
        answer = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.proc.kill()
                raise EngineError(f"no answer to '{command}' within {self.timeout:g} s")
            if line is None:
                raise EngineError(f"engine died on '{command}'{self.stderr_tail()}")
            if not answer and not line.strip():
                continue  # stray blank lines between answers
            if answer and not line.strip():
                break
            answer.append(line)
        first = answer[0]
        text = "\n".join([re.sub(r"^[=?]\d*\s?", "", first)] + answer[1:]).strip()
        if first.startswith("?"):
            raise EngineError(f"'{command[:60]}' answered '? {text}'")
        if not first.startswith("="):
            raise EngineError(f"'{command[:60]}' answered garbage '{first[:60]}'")
        return text

    def supports(self, name):
        if name not in self.known:
            self.known[name] = self.send(f"known_command {name}") == "true"
        return self.known[name]

    def run_case(self, commands):
        """Send commands in order and return the last answer.  Commands in
        OPTIONAL are left out when the engine does not know them."""
        answer = None
        for command in commands:
            if command.split()[0] not in OPTIONAL or self.supports(command.split()[0]):
                answer = self.send(command)
        return answer


def vertex(row, col, size):
    """GTP vertex of a point given as (row from the top, column from the left)."""
    return f"{LETTERS[col]}{size - row}"


def points(vertices):
    """Vertices sorted by column, then row, as one string ('-' when none)."""
    key = lambda v: (v[:1], int(v[1:]) if v[1:].isdigit() else 0)
    return " ".join(sorted(vertices, key=key)) or "-"


def percent(good, total):
    return f"{good}/{total} ({100.0 * good / total:.1f}%)" if total else "0/0"


# ---------------------------------------------------------------- OGS suite

def parse_game(path):
    """Return (size, to_move 'b'|'w', board rows, mark rows, note) or raise ValueError."""
    header, sections, current = {}, [], []
    for line in path.read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if re.fullmatch(r"-?\d+(\s+-?\d+)*", text):
            current.append([int(v) for v in text.split()])
            continue
        if current:
            sections.append(current)
            current = []
        if text:
            key, _, value = text.partition(" ")
            header[key] = value.strip()
    if current:
        sections.append(current)
    height, width = int(header.get("height", 0)), int(header.get("width", 0))
    rows = [row for section in sections for row in section]
    if height != width:
        raise ValueError(f"non-square board {width}x{height}")
    if not 2 <= height <= len(LETTERS):
        raise ValueError(f"unsupported size {height}")
    if len(rows) < 2 * height or any(len(row) != width for row in rows[:2 * height]):
        raise ValueError("expected two blocks of height x width numbers")
    if any(v not in (0, 1, -1) for row in rows[:height] for v in row):
        raise ValueError("board values other than 1, -1, 0")
    note = f"{len(rows) - 2 * height} extra rows ignored" if len(rows) > 2 * height else ""
    to_move = "w" if header.get("player_to_move") == "-1" else "b"
    return height, to_move, rows[:height], rows[height:2 * height], note


def chain_of(board, size, row, col):
    colour, chain, todo = board[row][col], set(), [(row, col)]
    while todo:
        r, c = todo.pop()
        if (r, c) in chain:
            continue
        chain.add((r, c))
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < size and 0 <= nc < size and board[nr][nc] == colour:
                todo.append((nr, nc))
    return chain


def ogs_case(engine, size, to_move, board, marks):
    """Return (expected dead set, engine's dead set, notes)."""
    stones = {"b": [], "w": []}
    expected, notes, marked_empty, partial = set(), [], 0, set()
    for r in range(size):
        for c in range(size):
            if board[r][c]:
                stones["b" if board[r][c] == 1 else "w"].append(vertex(r, c, size))
            if marks[r][c] and board[r][c]:
                expected.add(vertex(r, c, size))
                if any(not marks[a][b] for a, b in chain_of(board, size, r, c)):
                    partial.add(vertex(r, c, size))
            elif marks[r][c]:
                marked_empty += 1
    if marked_empty:
        notes.append(f"{marked_empty} marked empty points ignored")
    if partial:
        notes.append("reference marks only part of a chain: " + points(partial))
    commands = ["kgs-rules chinese", f"boardsize {size}", "clear_board", "komi 7.5"]
    pairs = [f"{colour} {v}" for colour in "bw" for v in stones[colour]]
    if pairs and engine.supports("gogui-setup"):
        commands.append("gogui-setup " + " ".join(pairs))
    else:  # every chain of a real position has a liberty: plays never capture
        commands += [f"play {pair}" for pair in pairs]
    commands += [f"gogui-setup_player {to_move}", "final_status_list dead"]
    answer = engine.run_case(commands)
    got = {v.upper() for v in answer.split()}
    return expected, got, notes


def run_ogs(engine, root, verbose):
    if (root / "test_games").is_dir():
        root = root / "test_games"
    files = sorted(root.glob("*/*.game"))
    if not files:
        print(f"note: no */*.game files under {root}; OGS suite skipped")
        return None
    folders, sizes, total = {}, {}, [0, 0]
    start = time.monotonic()
    for path in files:
        name = f"{path.parent.name}/{path.stem}"
        try:
            size, to_move, board, marks, note = parse_game(path)
        except (ValueError, OSError) as error:
            print(f"note: {name}: skipped, {error}")
            continue
        if note:
            print(f"note: {name}: {note}")
        bucket = f"{size}x{size}" if size in (9, 19) else "other"
        problem, case_notes = "", []
        try:
            expected, got, case_notes = ogs_case(engine, size, to_move, board, marks)
            if got != expected:
                problem = f"missing {points(expected - got)}; extra {points(got - expected)}"
        except EngineError as error:
            problem = str(error)
        for counts in (folders.setdefault(path.parent.name, [0, 0]),
                       sizes.setdefault(bucket, [0, 0]), total):
            counts[0] += not problem
            counts[1] += 1
        if verbose and (problem or any("chain" in note for note in case_notes)):
            state = "WRONG" if problem else "ok"
            print(f"  {state:5} {name} ({size}x{size}, {to_move} to move): {problem}"
                  + ("" if not case_notes else f"  [{'; '.join(case_notes)}]"))
    elapsed = time.monotonic() - start
    parts = [f"{key} {percent(*sizes[key])}" for key in ("9x9", "19x19") if key in sizes]
    if "other" in sizes:
        parts.append(f"other {sizes['other'][0]}/{sizes['other'][1]}")
    line = (f"OGS score-estimator: {'  '.join(parts)}  total {percent(*total)}"
            f"  [{elapsed:.1f} s, {elapsed / max(1, total[1]):.2f} s/position]")
    detail = "  ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(folders.items()))
    return [line, f"  by folder: {detail}"]


# ------------------------------------------------------------- GNU Go suite

def parse_tst(path, regression):
    """Yield (number, setup commands, command, pattern, negate, gnugo_fails)."""
    setup, pending = [], None
    for line in path.read_text().splitlines():
        expect = re.match(r"#\?\s*\[(.*)\]\s*(\*)?", line)
        if expect and pending:
            pattern, negate = expect.group(1), expect.group(1).startswith("!")
            yield (*pending, pattern[1:] if negate else pattern, negate, bool(expect.group(2)))
            pending = None
            continue
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        numbered = re.match(r"(\d+)\s+(.*)", text)
        if numbered:
            pending = (int(numbered.group(1)), list(setup), numbered.group(2))
            continue
        words = text.split()
        if words[0] == "loadsgf" and len(words) > 1:
            words[1] = str((regression / words[1]).resolve())
            setup = ["kgs-rules japanese"]
        setup.append(" ".join(words))


def margin(text):
    """Black's margin from 'B+3.5' / 'W+3.5' / '0' (regex escapes allowed), else None."""
    match = re.fullmatch(r"([BW])\\?\+(\d+(?:\.\d+)?)", text.strip())
    if match:
        return float(match.group(2)) * (1 if match.group(1) == "B" else -1)
    return 0.0 if text.strip() in ("0", "Draw", "Jigo") else None


def run_gnugo(engine, regression, name, verbose):
    path = regression / name
    tests = list(parse_tst(path, regression))
    passed, errors, star_passed, stars, failures = 0, [], 0, 0, []
    start = time.monotonic()
    for number, setup, command, pattern, negate, gnugo_fails in tests:
        try:
            answer = engine.run_case(setup + [command]).splitlines()
            got = answer[0].strip() if answer else ""
            try:
                ok = bool(re.fullmatch(pattern, got)) != negate
            except re.error:
                ok = pattern == got  # not a valid regex: compare literally
        except EngineError as error:
            got, ok = f"error: {error}", False
        passed += ok
        stars += gnugo_fails
        star_passed += ok and gnugo_fails
        want, have = margin(pattern), margin(got)
        if not negate and want is not None and have is not None:
            errors.append(have - want)
        if not ok:
            off = (f"off by {have - want:+.1f}" if not negate and want is not None
                   and have is not None else "")
            failures.append(f"  WRONG {name}:{number} expected {'!' if negate else ''}"
                            f"[{pattern}]{'*' if gnugo_fails else ''} got {got}  {off}")
    elapsed = time.monotonic() - start
    if verbose and failures:
        print("\n".join(failures))
    mean = (f"  mean |error| {sum(abs(e) for e in errors) / len(errors):.2f} points"
            if errors else "")
    stars_text = f"  (GNU Go's own {stars} failures '*': {star_passed} passed)" if stars else ""
    return [f"GNU Go {name}: {percent(passed, len(tests))}{mean}{stars_text}"
            f"  [{elapsed:.1f} s, {elapsed / max(1, len(tests)):.2f} s/position]"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=DEFAULT_ENGINE,
                        help=f"GTP engine command line (default: {DEFAULT_ENGINE})")
    parser.add_argument("--ogs", default=DEFAULT_OGS, type=Path,
                        help="OGS score-estimator test_games folder")
    parser.add_argument("--gnugo", default=DEFAULT_GNUGO, type=Path,
                        help="GNU Go regression folder (with score.tst, score2.tst, games/)")
    parser.add_argument("--only", choices=("ogs", "gnugo"), help="run one suite only")
    parser.add_argument("--timeout", default=60.0, type=float,
                        help="seconds to wait for any one answer (default 60)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list every wrong position and the data notes")
    args = parser.parse_args()

    ogs = args.only != "gnugo" and args.ogs.is_dir()
    if args.only != "gnugo" and not ogs:
        print(f"note: OGS folder {args.ogs} not found; suite skipped")
    tst_files = [n for n in GNUGO_FILES if args.only != "ogs" and (args.gnugo / n).is_file()]
    for name in [n for n in GNUGO_FILES if args.only != "ogs" and n not in tst_files]:
        print(f"note: {args.gnugo / name} not found; skipped")
    if not ogs and not tst_files:
        print("error: no reference data folder found (see --ogs / --gnugo)", file=sys.stderr)
        return 2

    engine = Engine(args.engine, args.timeout)
    try:
        engine.start()
    except EngineError as error:
        print(f"error: the engine cannot start: {error}", file=sys.stderr)
        engine.stop()
        return 2
    summary = []
    try:
        if ogs:
            summary += run_ogs(engine, args.ogs, args.verbose) or []
        for name in tst_files:
            summary += run_gnugo(engine, args.gnugo, name, args.verbose)
    finally:
        engine.stop()
    if engine.starts > 1:
        summary.append(f"(engine restarted {engine.starts - 1} times after failures)")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
