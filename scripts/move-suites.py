#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Measure move quality on the regression suites of GNU Go and Fuego.

Every numbered `reg_genmove` test of a `.tst` file is asked at a fixed
playout count in deterministic mode (default engine `target/release/ishi
--threads 1 --seed 1 --playouts 5000`), and the first line of the answer is
checked against the `#? [...]` line below the test.  The suites are read in
place under --suites (default $ISHI_PEER_SUITES or /work/shared/peer-suites)
and never copied:

  GNU Go  runningskull/gnugo/regression: 9x9, seki, filllib, endgame, endgame1
  Fuego   svn2github/fuego/regression:   uct_pass_basics, final_moves,
          cleanup_japanese_rules, kgs-genmove_cleanup (the Fuego files with
          move tests; simpleplayers.tst tests Fuego's random and "safe"
          players, set with `fuegotest_param player`, so its tests are skipped)

Files named on the command line (paths, or names in either folder) replace
that list; --with-defaults adds it back.  Expected answers: `#? [E5|E6]` is a
regex that must match the whole answer (case-insensitively, so `PASS` matches
`pass`), `[!D5]` must not match, a trailing `*` marks a test the suite's own
engine failed: those are counted apart ("starred").

One engine process per file, started with the file's folder as working
directory so that `loadsgf games/x.sgf N` resolves (the position before move N;
komi from KM[]).  Setup lines sent as they are: play, undo, boardsize,
clear_board, komi, loadsgf, fixed_handicap, set_free_handicap, kgs-rules and
kata-set-rules; GTP 1 `black C3` becomes `play black C3`; Fuego's `go_rules`
and `go_param_rules japanese_scoring|capture_dead` are mapped as
peer-endgame.py does (cgos -> Tromp-Taylor, chinese|kgs -> Chinese, japanese
-> Japanese).  Rules: GNU Go scores the Japanese way, but its tests run here
under ishi's default Chinese rules (--rules, default chinese; `japanese` for
GNU Go's own scoring), and a file's rules lines change them; the current rules
are sent again after every loadsgf so that a record's RU[] does not change
them (GNU Go and Fuego ignore RU[]); `--rules sgf` sends none and lets ishi
follow RU[].  Lines with no effect on the position (GNU Go's increase_depths,
Fuego's uct_param_*, an unnumbered reg_genmove) are not sent.  Any other line
is sent; when it is refused (GNU Go's trymove and popgo, a bad loadsgf), the
tests after it are skipped, with the reason, until the next loadsgf,
clear_board or boardsize.  Numbered tests other than reg_genmove, genmove and
kgs-genmove_cleanup (owl_attack, restricted_genmove, final_score, ...) are
skipped and counted by command name.  A test `genmove COLOR` is asked as
`reg_genmove COLOR`, so that the position does not change (--use-genmove sends
genmove and keeps the move).  A `?` answer, a crash or no answer within
--timeout seconds fails the test; after a crash or a timeout the engine is
restarted and the position set up again.

Output: per file passed/total for unstarred and starred tests and the skipped
tests by reason, then totals; -v adds each failure (file, number, line,
expected, answer) and notes.  --json FILE writes every case; --compare OLD.json
prints the cases whose status changed since OLD after the run, --diff OLD NEW
compares two such files without a run.  Exit status 0 after a run, 2 when the
engine cannot start or no file is found.

    python3 scripts/move-suites.py                          # all default files
    python3 scripts/move-suites.py --playouts 500 9x9.tst seki.tst -v
    python3 scripts/move-suites.py --engine "/tmp/ishi-old --threads 1 --seed 1" --json old.json
    python3 scripts/move-suites.py --json new.json --compare old.json -j 2
    python3 scripts/move-suites.py --diff old.json new.json       # no run
    python3 scripts/move-suites.py --self-test
"""

import argparse
import collections
import concurrent.futures
import contextlib
import importlib.util
import io
import json
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


def _import_script(name):
    """Import a sibling script whose file name has a dash (scripts/NAME.py)."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"),
                                                  Path(__file__).with_name(name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


peer = _import_script("peer-endgame")  # GTP client, Fuego rules mapping
EngineError = peer.EngineError

DEFAULT_ENGINE = str(REPO / "target/release/ishi") + " --threads 1 --seed 1 --playouts 5000"
GNUGO_DIR = "runningskull/gnugo/regression"
FUEGO_DIR = peer.FUEGO_DIR
GNUGO_FILES = ("9x9.tst", "seki.tst", "filllib.tst", "endgame.tst", "endgame1.tst")
FUEGO_FILES = ("uct_pass_basics.tst", "final_moves.tst", "cleanup_japanese_rules.tst",
               "kgs-genmove_cleanup.tst")
RULES = {"chinese": peer.AREA, "japanese": peer.JAPANESE, "sgf": None}
MOVE_TESTS = ("reg_genmove", "genmove", "kgs-genmove_cleanup")
# Setup lines that do not change the position or the rules: not sent.
IGNORED = ("increase_depths", "decrease_depths", "reg_genmove", "echo", "uct_param_",
           "go_param ", "sg_param", "deffile", "kgs-time_settings", "time_settings")
# Setup lines that change the program under test: every later test is skipped.
STICKY = {"fuegotest_param": "fuegotest_param (Fuego's simple test players)"}


# ---------------------------------------------------------------- parsing

class Expect:
    """The `#? [...]` line of a test: regex, negation, starred."""

    def __init__(self, pattern, negate=False, star=False):
        self.pattern, self.negate, self.star = pattern, negate, star

    def __str__(self):
        return "[%s%s]%s" % ("!" if self.negate else "", self.pattern, "*" if self.star else "")

    def matches(self, answer):
        """True when the first line of the answer passes the test."""
        got = first_line(answer)
        try:
            hit = re.fullmatch(self.pattern, got, re.IGNORECASE) is not None
        except re.error:  # not a Python regex: compare the text
            hit = got.lower() == self.pattern.lower()
        return hit != self.negate


def first_line(answer):
    return answer.strip().splitlines()[0].strip() if answer and answer.strip() else ""


EXPECT_RE = re.compile(r"#\?\s*\[(!?)(.*)\](\*?)\s*$")
COMMENTED_TEST_RE = re.compile(r"#\s*\d+\s+[A-Za-z]")


def parse_tst(text):
    """The items of a .tst file, in order:
    ("setup", line, words) for an unnumbered command,
    ("test", line, number, words, expect) for a numbered one, where expect is
    an Expect, None when no `#?` line follows, or "malformed"."""
    items, pending = [], None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#?"):
            if pending is not None:
                match = EXPECT_RE.match(line)
                expect = (Expect(match.group(2), bool(match.group(1)), bool(match.group(3)))
                          if match else "malformed")
                items.append(pending + (expect,))
                pending = None
            continue
        if COMMENTED_TEST_RE.match(line) and pending is not None:
            items.append(pending + (None,))  # a commented-out test takes no answer
            pending = None
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if pending is not None:
            items.append(pending + (None,))
            pending = None
        words = line.split()
        if words[0].isdigit() and len(words) > 1:
            pending = ("test", lineno, words[0], words[1:])
        else:
            items.append(("setup", lineno, words))
    if pending is not None:
        items.append(pending + (None,))
    return items


# ---------------------------------------------------------------- engine

class Engine(peer.Engine):
    """peer-endgame's GTP client, run in a given folder; stderr kept for crash reports."""

    def __init__(self, argv, timeout, cwd=None):
        super().__init__(argv, timeout)
        self.cwd, self.errlog = cwd, None

    def start(self):
        self.errlog = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(self.argv, cwd=self.cwd, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=self.errlog,
                                         text=True, bufsize=1)
        except OSError as err:
            self.proc = None
            raise EngineError("cannot start %s: %s" % (self.argv[0], err))
        self.lines = queue.Queue()
        threading.Thread(target=lambda out, q: [q.put(l) for l in out] + [q.put(None)],
                         args=(self.proc.stdout, self.lines), daemon=True).start()

    def ask(self, command):
        try:
            return super().ask(command)
        except EngineError as err:
            if "died" in str(err) and self.errlog is not None:
                self.errlog.seek(0)
                tail = self.errlog.read().decode(errors="replace").strip().splitlines()[-1:]
                if tail:
                    raise EngineError("%s (stderr: %s)" % (err, tail[0][:200])) from None
            raise


def engine_argv(command, playouts=None):
    """argv of the engine command; a relative program path is made absolute (the
    engine runs in each file's folder), --playouts N replaces or is appended."""
    argv = shlex.split(command)
    if argv and "/" in argv[0] and not os.path.isabs(argv[0]):
        here = Path(argv[0]).resolve()
        argv[0] = str(here if here.exists() or not (REPO / argv[0]).exists()
                      else REPO / argv[0])
    if playouts is not None:
        out, skip = [], False
        for word in argv:
            if skip:
                skip = False
            elif word == "--playouts":
                skip = True
            elif not word.startswith("--playouts="):
                out.append(word)
        argv = out + ["--playouts", str(playouts)]
    return argv


# ---------------------------------------------------------------- running

class FileResult:
    def __init__(self, label, path):
        self.label, self.path = label, str(path)
        self.cases, self.notes = [], []
        self.skipped = collections.Counter()
        self.seconds, self.restarts = 0.0, 0

    def count(self, star):
        cases = [c for c in self.cases if c["status"] != "skip" and c["star"] == star]
        return sum(c["status"] == "pass" for c in cases), len(cases)


class Session:
    """An engine and the commands that rebuild its position after a restart."""

    KEEP = {"size": ("rules", "komi"), "load": ("rules", "komi"),
            "clear": ("rules", "komi", "size")}

    def __init__(self, engine, result):
        self.engine, self.result = engine, result
        self.log, self.started = [], False  # log: (kind, command)

    def ask(self, command):
        if self.engine.proc is None:
            if self.started:
                self.result.restarts += 1
            self.started = True
            self.engine.start()
            for _, logged in self.log:
                self.engine.ask(logged)
        return self.engine.ask(command)

    def send(self, command, kind):
        """Send a setup command; on success remember it for a restart."""
        answer = self.ask(command)
        if kind in ("rules", "komi"):
            self.log = [e for e in self.log if e[0] != kind]
        elif kind in self.KEEP:
            kept = {}
            for entry in self.log:
                if entry[0] in self.KEEP[kind]:
                    kept[entry[0]] = entry
            self.log = sorted(kept.values(), key=self.log.index)
        self.log.append((kind, command))
        return answer


def run_items(items, engine, label, path, rules, use_genmove):
    """Run the parsed items of one file on the engine; return a FileResult."""
    result = FileResult(label, path)
    session = Session(engine, result)
    broken = sticky = None  # reasons that skip the next tests
    started = time.monotonic()

    def case(lineno, number, words, expect, status, got="", reason=""):
        result.cases.append({"file": label, "number": number, "line": lineno,
                             "command": " ".join(words),
                             "expected": str(expect) if isinstance(expect, Expect) else expect,
                             "star": bool(isinstance(expect, Expect) and expect.star),
                             "status": status, "got": got, "reason": reason})
        if status == "skip":
            result.skipped[reason] += 1

    try:
        if rules:
            try:
                session.send(rules, "rules")
            except EngineError as err:
                broken = "rules refused"
                result.notes.append("%s: %s" % (rules, err))
        for item in items:
            if item[0] == "setup":
                _, lineno, words = item
                head = words[0].lower()
                line = " ".join(words)
                if head in STICKY:
                    sticky = STICKY[head]
                    continue
                if line.lower().startswith(IGNORED) or head.startswith(IGNORED):
                    result.notes.append("line %d not sent: %s" % (lineno, line))
                    continue
                if head in ("go_rules", "go_param_rules"):
                    mapped = peer.fuego_rules(words)
                    if mapped is None:
                        result.notes.append("line %d ignored: %s" % (lineno, line))
                        continue
                    command, kind = mapped, "rules"
                    rules = mapped
                elif head in ("kgs-rules", "kata-set-rules"):
                    command, kind = line, "rules"
                    rules = line
                elif head in ("black", "white") and len(words) == 2:
                    command, kind = "play %s %s" % (head, words[1]), "position"
                elif head in ("loadsgf", "boardsize", "clear_board"):
                    command = line
                    kind = {"loadsgf": "load", "boardsize": "size"}.get(head, "clear")
                    broken = None
                elif head == "komi":
                    command, kind = line, "komi"
                else:  # play, undo, handicap, and anything else
                    command, kind = line, "position"
                try:
                    session.send(command, kind)
                    if head == "loadsgf" and rules:
                        session.send(rules, "rules")  # RU[] must not change them
                except EngineError as err:
                    if broken is None:
                        broken = "after refused " + head
                    result.notes.append("line %d '%s': %s" % (lineno, command, err))
                continue
            _, lineno, number, words, expect = item
            head = words[0].lower()
            if head not in MOVE_TESTS:
                case(lineno, number, words, expect, "skip", reason=head)
            elif sticky:
                case(lineno, number, words, expect, "skip", reason=sticky)
            elif expect is None:
                case(lineno, number, words, expect, "skip", reason="no #? line")
            elif expect == "malformed":
                case(lineno, number, words, expect, "skip", reason="malformed #? line")
            elif broken:
                case(lineno, number, words, expect, "skip", reason=broken)
            else:
                command = " ".join(words)
                if head == "genmove" and not use_genmove:
                    command = " ".join(["reg_genmove"] + words[1:])
                try:
                    answer = session.ask(command)
                    got = first_line(answer)
                    case(lineno, number, words, expect,
                         "pass" if expect.matches(answer) else "fail", got=got)
                    if head != "reg_genmove" and command.startswith(head) and len(words) > 1 \
                            and re.fullmatch(r"[A-Za-z]\d{1,2}|pass", got, re.IGNORECASE):
                        session.log.append(("position", "play %s %s" % (words[1], got)))
                except EngineError as err:
                    case(lineno, number, words, expect, "fail", got="error", reason=str(err))
    finally:
        engine.kill(polite=True)
    if result.restarts:
        result.notes.append("engine restarted %d times" % result.restarts)
    result.seconds = time.monotonic() - started
    return result


def run_file(path, label, argv, timeout, rules, use_genmove):
    items = parse_tst(Path(path).read_text(errors="replace"))
    engine = Engine(argv, timeout, cwd=str(Path(path).parent))
    return run_items(items, engine, label, path, rules, use_genmove)


# ---------------------------------------------------------------- reports

def fraction(passed, total):
    return "%d/%d" % (passed, total)


def skipped_text(counter):
    if not counter:
        return ""
    parts = ", ".join("%s %d" % (reason, n) for reason, n in counter.most_common())
    return "skipped %d (%s)" % (sum(counter.values()), parts)


def report_file(result, verbose):
    passed, total = result.count(False)
    spassed, stotal = result.count(True)
    print("%-34s %9s  starred %7s  %6.1fs  %s" % (result.label, fraction(passed, total),
                                                 fraction(spassed, stotal), result.seconds,
                                                 skipped_text(result.skipped)))
    if verbose:
        for c in result.cases:
            if c["status"] == "fail":
                print("    FAIL %s %s (line %d) %s: expected %s, got %s%s" % (
                    c["file"], c["number"], c["line"], c["command"], c["expected"],
                    c["got"] or "(empty)", " [%s]" % c["reason"] if c["reason"] else ""))
        for note in result.notes:
            print("    note " + note)


def report_totals(results):
    print("\n%-34s %9s  %15s  %7s  %s" % ("summary", "passed", "starred", "time", "skipped"))
    skipped = collections.Counter()
    sums = [0, 0, 0, 0]
    for r in results:
        p, t = r.count(False)
        sp, st = r.count(True)
        for i, v in enumerate((p, t, sp, st)):
            sums[i] += v
        skipped.update(r.skipped)
        print("%-34s %9s  %15s  %6.1fs  %d" % (r.label, fraction(p, t), fraction(sp, st),
                                               r.seconds, sum(r.skipped.values())))
    print("%-34s %9s  %15s  %6.1fs  %d" % ("total", fraction(sums[0], sums[1]),
                                           fraction(sums[2], sums[3]),
                                           sum(r.seconds for r in results),
                                           sum(skipped.values())))
    if skipped:
        print("skipped by reason: " + ", ".join("%s %d" % kv for kv in skipped.most_common()))


def case_keys(cases):
    """{(file, number, k): case}, k telling apart repeated numbers in a file."""
    keys, seen = {}, collections.Counter()
    for c in cases:
        base = (c["file"], str(c["number"]))
        keys[base + (seen[base],)] = c
        seen[base] += 1
    return keys


def compare(old_cases, new_cases):
    """Print the cases whose status changed; return the number of changes."""
    old, new = case_keys(old_cases), case_keys(new_cases)
    changes = collections.Counter()
    lines = []
    for key in sorted(set(old) | set(new), key=lambda k: (k[0], int(k[1]) if k[1].isdigit()
                                                          else 0, k[1], k[2])):
        a, b = old.get(key), new.get(key)
        was = a["status"] if a else "absent"
        now = b["status"] if b else "absent"
        if was == now:
            continue
        changes["%s -> %s" % (was, now)] += 1
        c = b or a
        lines.append("  %-30s %5s  %s -> %s  expected %s%s, got %s -> %s" % (
            c["file"], c["number"], was, now, c["expected"], " *" if c["star"] else "",
            (a or {}).get("got") or "-", (b or {}).get("got") or "-"))
    print("\ncompared with the old results: %d cases changed status%s" % (
        sum(changes.values()),
        " (" + ", ".join("%s %d" % kv for kv in sorted(changes.items())) + ")" if changes else ""))
    for line in lines:
        print(line)
    return sum(changes.values())


def load_cases(path):
    return json.loads(Path(path).read_text())["cases"]


# ---------------------------------------------------------------- self-test

SAMPLE = """\
# comment
loadsgf games/x.sgf 12   # a note
10 reg_genmove black
#? [E5|e6]
black C3
20 genmove white
#? [!PASS]*
#30 reg_genmove black
#? [A1]
40 owl_attack D4
#? [1 D5]
50 reg_genmove black
trymove white F2
60 reg_genmove black
#? [undecided
70 reg_genmove black
#? [A1]
popgo
loadsgf games/y.sgf
80 genmove black
#? [PASS]
"""


class FakeEngine:
    """Answers like ishi: refuses trymove/popgo; crashes once on the first genmove."""

    def __init__(self):
        self.proc, self.sent, self.crashed = None, [], False

    def start(self):
        self.proc = True
        self.sent.append("(start)")

    def kill(self, polite=False):
        self.proc = None

    def ask(self, command):
        self.sent.append(command)
        head = command.split()[0]
        if head in ("trymove", "popgo"):
            raise EngineError("'%s' refused: unknown command" % command)
        if head == "reg_genmove" and command.endswith("white") and not self.crashed:
            self.crashed = True
            self.proc = None
            raise EngineError("engine died on '%s'" % command)
        return {"reg_genmove": "e6", "genmove": "D4"}.get(head, "")


def self_test():
    failures = []

    def check(what, got, want):
        if got != want:
            failures.append("%s: got %r, want %r" % (what, got, want))

    items = parse_tst(SAMPLE)
    check("items", [(i[0], i[1]) for i in items],
          [("setup", 2), ("test", 3), ("setup", 5), ("test", 6), ("test", 10), ("test", 12),
           ("setup", 13), ("test", 14), ("test", 16), ("setup", 18), ("setup", 19),
           ("test", 20)])
    check("loadsgf words", items[0][2], ["loadsgf", "games/x.sgf", "12"])
    check("expect 10", str(items[1][4]), "[E5|e6]")
    check("expect 20", (items[3][4].negate, items[3][4].star), (True, True))
    check("no #? line", items[5][4], None)
    check("malformed", items[7][4], "malformed")
    check("commented test", [i[2] for i in items if i[0] == "test"],
          ["10", "20", "40", "50", "60", "70", "80"])

    for pattern, negate, answer, want in (
            ("E5|E6", False, "e5", True), ("E5|E6", False, "E55", False),
            ("E5|E6", False, "= E6", False), ("PASS", False, "pass\n", True),
            ("!D5"[1:], True, "D5", False), ("D5", True, "C5", True),
            ("PASS|J6|H6", False, "h6", True), ("A1", False, "", False),
            ("1 (H5|J4)", False, "1 J4", True), ("(", False, "(", True)):
        check("match [%s%s] %r" % ("!" if negate else "", pattern, answer),
              Expect(pattern, negate).matches(answer), want)

    check("playouts replaced", engine_argv("/x/ishi --playouts 9 --seed 1", 500),
          ["/x/ishi", "--seed", "1", "--playouts", "500"])
    check("playouts appended", engine_argv("/x/ishi --playouts=9", 7),
          ["/x/ishi", "--playouts", "7"])

    fake = FakeEngine()
    result = run_items(items, fake, "sample.tst", "sample.tst", peer.AREA, False)
    check("statuses", [(c["number"], c["status"], c["reason"][:14]) for c in result.cases],
          [("10", "pass", ""), ("20", "fail", "engine died on"), ("40", "skip", "owl_attack"),
           ("50", "skip", "no #? line"), ("60", "skip", "malformed #? l"),
           ("70", "skip", "after refused "), ("80", "fail", "")])
    check("counts", (result.count(False), result.count(True)), ((1, 2), (0, 1)))
    check("restarts", result.restarts, 1)
    check("replay after the crash", fake.sent[fake.sent.index("(start)", 1):][:4],
          ["(start)", "loadsgf games/x.sgf 12", "kgs-rules chinese", "play black C3"])
    check("genmove asked as reg_genmove", fake.sent[-1], "reg_genmove black")
    check("GTP 1 black", "play black C3" in fake.sent, True)

    old = [{"file": "f", "number": "1", "status": "pass", "got": "A1", "expected": "[A1]",
            "star": False}]
    new = [dict(old[0], status="fail", got="B1")]
    with contextlib.redirect_stdout(io.StringIO()):
        check("compare", (compare(old, new), compare(old, old)), (1, 0))

    for failure in failures:
        print("FAIL " + failure)
    print("self-test: %s" % ("%d failures" % len(failures) if failures else "ok"))
    return 1 if failures else 0


# ---------------------------------------------------------------- main

def find_files(names, suites, with_defaults, only):
    """[(label, path)]; missing names are reported and left out."""
    folders = [("gnugo", suites / GNUGO_DIR, GNUGO_FILES),
               ("fuego", suites / FUEGO_DIR, FUEGO_FILES)]
    files = []
    if not names or with_defaults:
        for suite, folder, defaults in folders:
            if only in (None, suite):
                if not folder.is_dir():
                    print("note: no %s suite at %s, skipped" % (suite, folder))
                    continue
                files += [("%s/%s" % (suite, n), folder / n) for n in defaults
                          if (folder / n).is_file()]
    for name in names:
        path = Path(name)
        if not path.is_file():
            hits = [(s, f / name) for s, f, _ in folders if (f / name).is_file()]
            if not hits:
                print("note: %s not found (as a path, in %s or %s)" % (name, folders[0][1],
                                                                     folders[1][1]))
                continue
            suite, path = hits[0]
        else:
            path = path.resolve()
            suite = next((s for s, f, _ in folders if f.resolve() in path.parents), None)
        label = "%s/%s" % (suite, path.name) if suite else str(path)
        if label not in [l for l, _ in files]:
            files.append((label, path))
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", help=".tst files (paths or names in the suites)")
    parser.add_argument("--engine", default=DEFAULT_ENGINE, help="engine command line")
    parser.add_argument("--playouts", type=int, help="replace or append --playouts N")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per command")
    parser.add_argument("--rules", choices=sorted(RULES), default="chinese",
                        help="rules each file starts with (sgf: follow each record's RU[])")
    parser.add_argument("--use-genmove", action="store_true",
                        help="send genmove tests as genmove (the move is played)")
    parser.add_argument("--only", choices=("gnugo", "fuego"), help="default files of one suite")
    parser.add_argument("--with-defaults", action="store_true",
                        help="run the default files as well as those named")
    parser.add_argument("--suites", default=os.environ.get("ISHI_PEER_SUITES",
                                                           "/work/shared/peer-suites"),
                        help="folder holding the peer suites")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="files run at once")
    parser.add_argument("--json", help="write every case to this file")
    parser.add_argument("--compare", metavar="OLD.json",
                        help="print the cases whose status changed since OLD.json")
    parser.add_argument("--diff", nargs=2, metavar=("OLD.json", "NEW.json"),
                        help="print the cases whose status changed, without a run")
    parser.add_argument("-v", "--verbose", action="store_true", help="list failures and notes")
    parser.add_argument("--self-test", action="store_true", help="test the parser and matcher")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if args.diff:
        compare(load_cases(args.diff[0]), load_cases(args.diff[1]))
        return 0

    argv = engine_argv(args.engine, args.playouts)
    probe = Engine(argv, args.timeout)
    try:
        print("engine: %s (%s %s)" % (shlex.join(argv), probe.ask("name"), probe.ask("version")))
    except EngineError as err:
        print("move-suites: cannot start the engine: %s" % err, file=sys.stderr)
        return 2
    finally:
        probe.kill()
    print("rules: %s; genmove tests asked as %s" % (
        args.rules, "genmove" if args.use_genmove else "reg_genmove"))

    files = find_files(args.files, Path(args.suites), args.with_defaults, args.only)
    if not files:
        print("move-suites: no .tst file found", file=sys.stderr)
        return 2
    started = time.monotonic()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_file, path, label, argv, args.timeout, RULES[args.rules],
                               args.use_genmove): label for label, path in files}
        for future in concurrent.futures.as_completed(futures):
            result = future.result()
            results[result.label] = result
            report_file(result, args.verbose)
            sys.stdout.flush()
    ordered = [results[label] for label, _ in files]
    report_totals(ordered)
    print("elapsed %.1fs" % (time.monotonic() - started))
    cases = [c for r in ordered for c in r.cases]
    if args.json:
        data = {"engine": shlex.join(argv), "rules": args.rules,
                "use_genmove": args.use_genmove, "date": time.strftime("%Y-%m-%d %H:%M:%S"),
                "files": [{"file": r.label, "path": r.path,
                           "passed": r.count(False)[0], "total": r.count(False)[1],
                           "star_passed": r.count(True)[0], "star_total": r.count(True)[1],
                           "skipped": dict(r.skipped), "seconds": round(r.seconds, 1),
                           "restarts": r.restarts} for r in ordered],
                "cases": cases}
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
        print("wrote %s" % args.json)
    if args.compare:
        compare(load_cases(args.compare), cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
