#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Measure a GTP engine's end-of-game play on test suites of Fuego and Pachi.

Passing (when safe, when it loses), cleanup of dead stones, the last neutral
and inside moves, and final scores, under area, Tromp-Taylor and Japanese
rules.  The suites are only read, under --suites (default $ISHI_PEER_SUITES
or /work/shared/peer-suites); their files are never copied.

Fuego (`svn2github/fuego/regression`, the FUEGO_FILES): `loadsgf FILE [N]`
becomes `clear_board`, `loadsgf /abs/FILE [N]` (the position before move N,
komi from KM[]) and the current rules again, as Fuego ignores RU[] and ishi
does not.  Rules start as Fuego's default, area scoring (`kgs-rules
chinese`); `go_rules cgos` -> `kata-set-rules tromp-taylor`; `go_rules
chinese|kgs` -> `kgs-rules chinese` (Fuego's GoRules::SetNamedRules("kgs") is
area scoring, positional superko, dead stones removed by agreement);
`go_rules japanese` and `go_param_rules japanese_scoring 1` -> `kgs-rules
japanese`; `go_param_rules capture_dead 1` -> Tromp-Taylor; other private
lines (uct_param_*, go_param*, ko_rule) are ignored.  `static_score
tromp_taylor_score|japanese_score` is `final_score` under those rules.  The
whole first answer line must match the `#? [regex]` (case-insensitive;
`[!re]` negates); tests marked `*`, failed by Fuego itself, count apart.

Pachi (`pasky/pachi/t-regress`): each `{fixed,tofix,nodcnn}/<case>/foo.gtp`
replays a game and ends in `tunit genmove COLOR MOVES`: the move must be one
of MOVES, or none of the `!MOVE`s; it is asked with `reg_genmove` (searched,
not played).  `echo`, `kgs-time_settings`, `pachi-engine`, other `tunit`
tests and `play B` repeating handicap stones just placed are dropped; an earlier plain
`genmove` is played.  Cases without `tunit genmove`, and old/dead_stones/*.gtp,
are checked against the table EXPECT, written from their notes and echo
lines (the last genmove becomes reg_genmove, `final_status_list dead` is
asked on that position).  `tofix` holds cases Pachi itself fails.  Rules are
Chinese unless the case sends `kgs-rules`.

One engine process per .tst file and per Pachi case.  A `?` answer, a crash
or no answer within --timeout seconds fails the test; the engine restarts and
the position is set up again.  Exit status 0 after a run, 2 when the engine
cannot start or no suite folder exists.

    python3 scripts/peer-endgame.py                  # both suites
    python3 scripts/peer-endgame.py -v --only fuego  # list every failure
    python3 scripts/peer-endgame.py --engine "target/release/ishi --threads 1 --playouts 20000"
"""

import argparse
import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

DEFAULT_ENGINE = "target/release/ishi --threads 1 --seed 1 --playouts 5000 --resign 0"
FUEGO_DIR = "svn2github/fuego/regression"
FUEGO_FILES = ("uct_pass_basics.tst", "kgs-genmove_cleanup.tst", "final_moves.tst",
               "scoring_final.tst", "cleanup_japanese_rules.tst", "scoring_static.tst")
PACHI_DIR = "pasky/pachi/t-regress"
PACHI_GROUPS = ("fixed", "tofix", "nodcnn")
AREA, JAPANESE, TROMP = "kgs-rules chinese", "kgs-rules japanese", "kata-set-rules tromp-taylor"
FUEGO_RULES = {"cgos": TROMP, "chinese": AREA, "kgs": AREA, "japanese": JAPANESE}
# Pachi cases whose name says they are about the end of the game.
END_WORDS = ("pass", "dead", "seki", "japanese", "final_score", "bent")

# Expectations of Pachi cases without `tunit genmove`, read from their notes
# or echo lines.  Tokens: MOVE / !MOVE on the tested move (as tunit does),
# dead:V (V listed by `final_status_list dead`), !dead:V, dead:any (list not
# empty), ifpass:dead:V (only checked when the move is pass), score (final_score
# answers).  influence_fuseki* cases have no expectation and are skipped.
EXPECT = {
    "fixed/bent_four_crash": ["!resign"],  # crashed Pachi 12.88; any answer
    "fixed/final_score_unclear_group": ["score"],  # final_score refused to score
    "nodcnn/second_line_cap": ["G17"],  # "must G17 consistently"
    "tofix/short_libs": ["J18", "K19"],
    "tofix/dcnn_blind_spot2": ["S10"],
    "old/dead_stones/board_full": ["!resign"],  # cleanup with no move left
    "old/dead_stones/japanese_rules": ["pass"],
    "old/dead_stones/test1": ["dead:any"],
    "old/dead_stones/test2": ["dead:any"],
    "old/dead_stones/unclear_group": ["dead:L17"],
    "old/dead_stones/unclear_group2": ["dead:R17"],
    "old/dead_stones/unclear_group3": ["dead:" + v for v in "G4 G5 L3 L2 J3 K3 J4 H4".split()],
    "old/dead_stones/unclear_group4": ["!dead:B8"],
    "old/dead_stones/unclear_group4_2": ["!pass"],
    "old/dead_stones/unfinished_game": ["!pass"],
    "old/dead_stones/unreliable": ["ifpass:dead:R14"],
}
FUSEKI_SKIP = "no expected move (notes: Pachi's josekifix influence countermeasures)"


class EngineError(Exception):
    """The engine refused a command, died or hung."""


class Engine:
    """A GTP engine process; `ask` returns the answer text or raises EngineError."""

    def __init__(self, argv, timeout):
        self.argv, self.timeout = argv, timeout
        self.proc = self.lines = None

    def start(self):
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()  # a thread feeds it, so that reads can time out
        threading.Thread(target=lambda out, q: [q.put(l) for l in out] + [q.put(None)],
                         args=(self.proc.stdout, self.lines), daemon=True).start()

    def kill(self, polite=False):
        """End the process (after `quit` when polite) and forget it."""
        if self.proc is None:
            return
        try:
            if polite:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc = None

    def ask(self, command):
        if self.proc is None:
            self.start()
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except OSError:
            self.kill()
            raise EngineError("engine died before '%s'" % command)
        deadline, answer = time.monotonic() + self.timeout, []
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise EngineError("no answer to '%s' within %gs" % (command, self.timeout))
            if line is None:
                self.kill()
                raise EngineError("engine died on '%s'" % command)
            if line.strip():
                answer.append(line.rstrip("\r\n"))
            elif answer:
                break
        text = "\n".join(answer)
        if text.startswith("?"):
            raise EngineError("'%s' refused: %s" % (command, text[1:].strip()))
        return re.sub(r"^=\d*\s?", "", text)


class Tally:
    """Pass counts of one file or case group; `star` = tests the author failed."""

    def __init__(self, name):
        self.name, self.seconds = name, 0.0
        self.passed = self.total = self.star_passed = self.star_total = self.skipped = 0
        self.failures, self.notes, self.subset = [], [], False

    def add(self, ok, star, label):
        if star:
            self.star_total, self.star_passed = self.star_total + 1, self.star_passed + ok
        else:
            self.total, self.passed = self.total + 1, self.passed + ok
        if not ok:
            self.failures.append(label + ("  [author failed it too]" if star else ""))


# ---------------------------------------------------------------- Fuego

def parse_tst(path):
    """Yield ('cmd', words) for setup lines and ('test', num, words, regex, neg, star)."""
    pending = None
    for raw in path.read_text(errors="replace").splitlines():
        line = raw.strip()
        match = re.match(r"#\?\s*\[(!?)(.*)\](\*?)", line)
        if match and pending:
            yield ("test", pending[0], pending[1], match.group(2), bool(match.group(1)),
                   bool(match.group(3)))
            pending = None
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if words[0].isdigit():
            pending = (words[0], words[1:])
        else:
            yield ("cmd", words)


def fuego_rules(words):
    """The ishi rules command for a Fuego rules line, or None to ignore it."""
    if words[0] == "go_rules" and len(words) > 1:
        return FUEGO_RULES.get(words[1].lower())
    if words[0] == "go_param_rules" and len(words) > 2:
        if words[1] == "japanese_scoring":
            return JAPANESE if words[2] == "1" else AREA
        if words[1] == "capture_dead" and words[2] == "1":
            return TROMP
    return None


def run_tst(path, argv, timeout):
    tally, engine = Tally(path.name), Engine(argv, timeout)
    rules, position = AREA, []  # position: the commands that set up the board

    def setup():
        for command in [rules] + position + ([rules] if position else []):
            engine.ask(command)

    started = time.monotonic()
    try:
        setup()
        for item in parse_tst(path):
            if item[0] == "cmd":
                words = item[1]
                try:
                    if words[0] == "loadsgf":
                        sgf = (path.parent / words[1]).resolve()
                        position = ["clear_board", " ".join(["loadsgf", str(sgf)] + words[2:])]
                        setup()
                    elif fuego_rules(words):
                        rules = fuego_rules(words)
                        engine.ask(rules)
                    elif words[0] in ("boardsize", "clear_board", "komi", "play", "undo"):
                        engine.ask(" ".join(words))
                    else:
                        tally.notes.append("ignored: " + " ".join(words))
                except EngineError as err:
                    tally.notes.append(str(err))
                continue
            _, num, words, regex, negate, star = item
            label = "%s %s: expected %s[%s], got " % (num, " ".join(words), "!" if negate else "",
                                                      regex)
            commands = [" ".join(words)]
            if words[0] == "static_score":
                kind = {"tromp_taylor_score": TROMP, "japanese_score": JAPANESE}.get(words[-1])
                if kind is None:
                    tally.skipped += 1
                    continue
                commands = [kind, "final_score", rules]
            elif words[0] not in ("reg_genmove", "genmove", "kgs-genmove_cleanup", "final_score"):
                tally.skipped += 1
                tally.notes.append("skipped test %s (private command %s)" % (num, words[0]))
                continue
            try:
                answers = [engine.ask(c) for c in commands]
                got = (answers[-2] if words[0] == "static_score" else answers[-1])
                got = got.splitlines()[0].strip() if got.strip() else ""
                ok = bool(re.fullmatch(regex, got, re.IGNORECASE)) != negate
                tally.add(ok, star, label + (got or "(empty)"))
            except EngineError as err:
                tally.add(False, star, label + str(err))
                setup()
    except EngineError as err:
        tally.notes.append("aborted: %s" % err)
    finally:
        engine.kill(polite=True)
    tally.seconds = time.monotonic() - started
    return tally


# ---------------------------------------------------------------- Pachi

def pachi_cases(root):
    """(name, path, group) for every case; group is fixed, tofix, nodcnn or old."""
    cases = []
    for group in PACHI_GROUPS:
        for folder in sorted((root / group).glob("*/")):
            if (folder / "foo.gtp").is_file():
                cases.append(("%s/%s" % (group, folder.name), folder / "foo.gtp", group))
    for path in sorted((root / "old" / "dead_stones").glob("*.gtp")):
        cases.append(("old/dead_stones/" + path.stem, path, "old"))
    return cases


def check_tokens(tokens, move, dead, score):
    """True when every expectation token holds; move/dead/score may be None."""
    plain = [t.upper() for t in tokens if ":" not in t and t != "score"]
    wanted = [t for t in plain if not t.startswith("!")]
    unwanted = [t[1:] for t in plain if t.startswith("!")]
    mv = (move or "").upper()
    if (wanted or unwanted) and move is None or wanted and mv not in wanted or mv in unwanted:
        return False
    for token in tokens:
        if token.startswith("ifpass:"):
            if mv == "PASS" and not check_tokens([token[7:]], move, dead, score):
                return False
        elif token == "dead:any":
            if not dead:
                return False
        elif token.startswith("dead:") and (dead is None or token[5:].upper() not in dead):
            return False
        elif token.startswith("!dead:") and (dead is None or token[6:].upper() in dead):
            return False
        elif token == "score" and not score:
            return False
    return True


def run_pachi_case(name, path, argv, timeout):
    """Return (ok, detail) or (None, reason) for a skipped case."""
    lines = [l.strip() for l in path.read_text(errors="replace").splitlines()]
    lines = [l for l in lines if l and not l.startswith("#")]
    tunit = [l for l in lines if l.split()[:2] == ["tunit", "genmove"]]
    if tunit:
        tokens, tested = tunit[-1].split()[3:], None
    elif name in EXPECT:
        tokens = EXPECT[name]
        gens = [i for i, l in enumerate(lines) if l.split()[0] in ("genmove", "kgs-genmove_cleanup")]
        tested = gens[-1] if gens else None
    elif "influence_fuseki" in name:
        return None, FUSEKI_SKIP
    else:
        return None, "no tunit genmove and no expectation found"
    engine = Engine(argv, timeout)
    move = dead = score = None
    handicap = set()  # Pachi's logs repeat the handicap stones as `play B`
    try:
        if not any(l.startswith("kgs-rules") for l in lines):
            engine.ask(AREA)  # Pachi's default rules
        for i, line in enumerate(lines):
            words = line.split()
            head = words[0]
            if head in ("echo", "kgs-time_settings", "pachi-engine", "kgs-game_over"):
                continue
            if head == "tunit":
                if words[1] == "genmove":
                    move = engine.ask("reg_genmove " + words[2])
                continue
            if i == tested:
                command = line if head == "kgs-genmove_cleanup" else "reg_genmove " + words[1]
                move = engine.ask(command)
            elif head == "final_status_list":
                dead = set(engine.ask(line).upper().split())
            elif head == "final_score":
                score = engine.ask(line)
            elif head in ("fixed_handicap", "set_free_handicap"):
                answer = engine.ask(line)  # fixed_handicap answers with the stones
                handicap = set((answer if head == "fixed_handicap" else line).upper().split())
            elif head == "play" and words[1].lower() in ("b", "black") \
                    and words[2].upper() in handicap:
                handicap.discard(words[2].upper())
            else:
                handicap = set()  # only plays right after the handicap repeat it
                engine.ask(line)
        if any(t.startswith(("dead:", "!dead:", "ifpass:")) for t in tokens) and dead is None:
            dead = set(engine.ask("final_status_list dead").upper().split())
    except EngineError as err:
        return False, "expected %s, %s" % (" ".join(tokens), err)
    finally:
        engine.kill(polite=True)
    got = [move, dead is not None and "dead: " + (" ".join(sorted(dead)) or "(none)"),
           score and "score " + score]
    return (check_tokens(tokens, move, dead, score),
            "expected %s, got %s" % (" ".join(tokens), "; ".join(g for g in got if g)))


def run_pachi(root, argv, timeout, verbose):
    tallies = {g: Tally("pachi " + g) for g in PACHI_GROUPS + ("old",)}
    end = Tally("pachi end-of-game subset")
    end.subset = True
    for name, path, group in pachi_cases(root):
        started = time.monotonic()
        ok, detail = run_pachi_case(name, path, argv, timeout)
        seconds = time.monotonic() - started
        tally = tallies[group]
        tally.seconds += seconds
        if ok is None:
            tally.skipped += 1
            tally.notes.append("skipped %s: %s" % (name, detail))
            continue
        tally.add(ok, False, "%s: %s" % (name, detail))
        if group == "old" or any(w in name for w in END_WORDS):
            end.add(ok, False, name)
            end.seconds += seconds
        if verbose:
            print("  %-40s %s  %5.1fs  %s" % (name, "ok  " if ok else "FAIL", seconds, detail))
    return [t for t in tallies.values() if t.total or t.skipped] + [end]


# ---------------------------------------------------------------- main

def report(tally, verbose, failures=True):
    star = ("  author-failed %d/%d" % (tally.star_passed, tally.star_total)
            if tally.star_total else "")
    print("%-28s %3d/%-3d%s%s  %.1fs" % (tally.name, tally.passed, tally.total, star,
                                          "  skipped %d" % tally.skipped if tally.skipped else "",
                                          tally.seconds))
    if verbose:
        for failure in tally.failures if failures else []:
            print("    FAIL " + failure)
        for note in tally.notes:
            print("    note " + note)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=DEFAULT_ENGINE, help="engine command line")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per command")
    parser.add_argument("--only", choices=("fuego", "pachi"), help="run one suite")
    parser.add_argument("--suites", default=os.environ.get("ISHI_PEER_SUITES",
                                                           "/work/shared/peer-suites"),
                        help="folder holding the peer suites")
    parser.add_argument("-v", "--verbose", action="store_true", help="list each failure")
    args = parser.parse_args()
    argv = shlex.split(args.engine)
    started = time.monotonic()

    probe = Engine(argv, args.timeout)
    try:
        print("engine: %s (%s)" % (args.engine, probe.ask("name") + " " + probe.ask("version")))
    except (OSError, EngineError) as err:
        print("peer-endgame: cannot start the engine: %s" % err, file=sys.stderr)
        return 2
    finally:
        probe.kill()

    suites, tallies, found = Path(args.suites), [], 0
    for suite, folder in (("fuego", suites / FUEGO_DIR), ("pachi", suites / PACHI_DIR)):
        if args.only not in (None, suite):
            continue
        if not folder.is_dir():
            print("note: no %s suite at %s, skipped" % (suite, folder))
            continue
        found += 1
        print("== %s %s" % (suite, folder))
        if suite == "fuego":
            for name in FUEGO_FILES:
                if (folder / name).is_file():
                    tallies.append(run_tst(folder / name, argv, args.timeout))
                    report(tallies[-1], args.verbose)
                else:
                    print("%-28s missing" % name)
        else:
            for tally in run_pachi(folder, argv, args.timeout, args.verbose):
                report(tally, args.verbose, failures=False)
                tallies.append(tally)
    if not found:
        print("peer-endgame: no suite found under %s" % suites, file=sys.stderr)
        return 2

    print("\n%-28s %9s %15s %8s %8s" % ("summary", "passed", "author-failed", "skipped", "time"))
    for t in tallies:
        star = "%d/%d" % (t.star_passed, t.star_total) if t.star_total else "-"
        print("%-28s %9s %15s %8d %7.1fs" % (t.name, "%d/%d" % (t.passed, t.total), star,
                                              t.skipped, t.seconds))
    counted = [t for t in tallies if not t.subset]
    print("%-28s %9s %15s" % ("total", "%d/%d" % (sum(t.passed for t in counted),
                                                 sum(t.total for t in counted)),
                              "%d/%d" % (sum(t.star_passed for t in counted),
                                         sum(t.star_total for t in counted))))
    print("elapsed %.1fs" % (time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
