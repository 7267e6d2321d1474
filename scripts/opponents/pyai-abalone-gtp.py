#!/usr/bin/env python3
"""GTP front end for pyai-abalone 1.0.2 (Harald Locke, MIT): its MagisterPlay agent
(AlphaZero-style policy/value network + sampled rollouts) speaking ishi's Abalone GTP subset.

Run it with the venv made by setup-pyai-abalone.sh:
    VENV/bin/python pyai-abalone-gtp.py [--samples 20] [--depth 13] [--seed N] [--start belgian]

Coordinates: official Abalone ones (rows a bottom .. i top, diagonals 1..9, a1 bottom-left).
Moves: AbaPro notation. Inline = trailing marble's cell + the cell it moves to (`c3d3`);
broadside = both ends of the line + the first end's destination (`a1a2b2`); either end may
come first on input, output puts the end that sorts first (row letter, then number) first.

stdout carries GTP only: the real stdout file descriptor is kept for the answers and fd 1
is pointed at stderr before TensorFlow, pygame or the package are imported, so any print or
C-level log lands on stderr.
"""

import argparse
import os
import re
import sys
import time

# ---- keep stdout for GTP only -------------------------------------------------------------
_GTP_FD = os.dup(1)
os.dup2(2, 1)
GTP_OUT = os.fdopen(_GTP_FD, "w", buffering=1, encoding="utf-8", newline="\n")
sys.stdout = sys.stderr

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # constants.py opens a pygame display
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")   # and pg.init() probes audio

NAME = "pyai-abalone-gtp"
VERSION = "1.0.2-gtp1"

# ---- board geometry in official coordinates -----------------------------------------------
ROWS = "abcdefghi"
CELLS = [(r, k) for r in range(9) for k in range(1, 10) if abs(r - (k - 1)) <= 4]
CELLSET = set(CELLS)
# (drow, dnumber): same row +-1, row +-1 same number, both +-1 (the three hex axes)
DIRS = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]
AXES = [(0, 1), (1, 0), (1, 1)]
BLACK, WHITE = "b", "w"
OTHER = {BLACK: WHITE, WHITE: BLACK}
# pyai-abalone's numpy board: 11x11, 0 empty, 1 white, 2 black, 3 off-board.
# array row r = 9 - official row index, array column = diagonal number (checked against the
# package's BELGIAN_DAISY / CLASSIC / GERMAN_DAISY arrays and the rule sheet's cell lists).
AI_VAL = {BLACK: 2, WHITE: 1}

STARTS = {
    "standard": {
        BLACK: "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5",
        WHITE: "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7",
    },
    "belgian": {
        BLACK: "a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9",
        WHITE: "a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6",
    },
    "german": {
        BLACK: "b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9",
        WHITE: "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5",
    },
}
# the package's own arrays for the same starts (pyai_abalone.starting_positions)
PKG_START_NAMES = {"standard": "CLASSIC", "belgian": "BELGIAN_DAISY", "german": "GERMAN_DAISY"}


def cell_name(c):
    return ROWS[c[0]] + str(c[1])


def parse_cell(text):
    r = ROWS.index(text[0])
    c = (r, int(text[1]))
    if c not in CELLSET:
        raise ValueError(text)
    return c


def add(c, d, n=1):
    return (c[0] + n * d[0], c[1] + n * d[1])


class Board:
    """Position in official coordinates: cell -> 'b' / 'w' (absent = empty)."""

    def __init__(self, start):
        self.cells = {}
        for colour, names in STARTS[start].items():
            for n in names.split():
                self.cells[parse_cell(n)] = colour
        self.to_move = BLACK
        self.ejected = {BLACK: 0, WHITE: 0}   # marbles each colour has pushed off
        self.plies = 0

    def copy(self):
        b = Board.__new__(Board)
        b.cells = dict(self.cells)
        b.to_move = self.to_move
        b.ejected = dict(self.ejected)
        b.plies = self.plies
        return b

    def legal_moves(self):
        """dict canonical AbaPro string -> (moves list [(from, to)], ejects bool)."""
        me = self.to_move
        opp = OTHER[me]
        cells = self.cells
        out = {}
        own = [c for c, v in cells.items() if v == me]
        # inline (including single marbles): x is the trailing marble, d the direction
        for x in own:
            for d in DIRS:
                line = [x]
                y = add(x, d)
                while len(line) < 3 and cells.get(y) == me:
                    line.append(y)
                    y = add(y, d)
                if y not in CELLSET or cells.get(y) == me:
                    continue  # own marble off the board, or a 4th own marble ahead
                shifts = [(c, add(c, d)) for c in reversed(line)]
                ejects = False
                if cells.get(y) == opp:
                    if len(line) == 1:
                        continue
                    n = 0
                    z = y
                    while cells.get(z) == opp:
                        n += 1
                        z = add(z, d)
                    if n >= len(line):
                        continue  # no numerical superiority
                    if z in CELLSET and cells.get(z) is not None:
                        continue  # own marble behind the opponents (sandwich)
                    opp_shifts = []
                    for i in range(n - 1, -1, -1):
                        c = add(y, d, i)
                        opp_shifts.append((c, add(c, d)))
                    ejects = z not in CELLSET
                    shifts = opp_shifts + shifts
                out[cell_name(x) + cell_name(add(x, d))] = (shifts, ejects)
        # broadside: lines of 2-3 along an axis, moved sideways into empty cells
        for x in own:
            for a in AXES:
                for length in (2, 3):
                    line = [add(x, a, i) for i in range(length)]
                    if any(cells.get(c) != me for c in line):
                        break
                    for d in DIRS:
                        if d == a or d == (-a[0], -a[1]):
                            continue
                        targets = [add(c, d) for c in line]
                        if all(t in CELLSET and t not in cells for t in targets):
                            e1, e2 = min(line[0], line[-1]), max(line[0], line[-1])
                            key = cell_name(e1) + cell_name(e2) + cell_name(add(e1, d))
                            out[key] = ([(c, add(c, d)) for c in line], False)
        return out

    def play(self, shifts, ejects):
        me = self.to_move
        cells = self.cells
        moved = [(src, cells[src]) for src, _ in shifts]
        for src, _ in shifts:
            del cells[src]
        for (src, dst), (_, colour) in zip(shifts, moved):
            if dst in CELLSET:
                cells[dst] = colour
        if ejects:
            self.ejected[me] += 1
        self.to_move = OTHER[me]
        self.plies += 1

    def winner(self):
        for colour in (BLACK, WHITE):
            if self.ejected[colour] >= 6:
                return colour
        return None

    def to_array(self, np):
        arr = np.full((11, 11), 3, dtype=np.int16)
        for (r, k) in CELLS:
            arr[9 - r, k] = AI_VAL.get(self.cells.get((r, k)), 0)
        return arr

    def showboard(self):
        lines = []
        for r in range(8, -1, -1):
            ks = [k for k in range(1, 10) if (r, k) in CELLSET]
            row = " ".join({BLACK: "X", WHITE: "O"}.get(self.cells.get((r, k)), ".") for k in ks)
            lines.append("%s %s%s   %s%d-%s%d" % (ROWS[r], " " * abs(r - 4), row,
                                                  ROWS[r], ks[0], ROWS[r], ks[-1]))
        lines.append("ejected by black %d, by white %d; %s to move; ply %d" % (
            self.ejected[BLACK], self.ejected[WHITE],
            "black" if self.to_move == BLACK else "white", self.plies))
        return "\n" + "\n".join(lines)


MOVE_RE = re.compile(r"^(?:[a-i][1-9]){2,3}$")


def canonical_input(text):
    """Canonical AbaPro spelling of an input move, or None when it is not well formed."""
    t = text.lower()
    if not MOVE_RE.match(t):
        return None
    try:
        cs = [parse_cell(t[i:i + 2]) for i in range(0, len(t), 2)]
    except ValueError:
        return None
    if len(cs) == 2:
        return cell_name(cs[0]) + cell_name(cs[1])
    e1, e2, dst = cs
    d = (dst[0] - e1[0], dst[1] - e1[1])
    if d not in DIRS:
        return None
    if e2 < e1:
        e1, e2 = e2, e1
    return cell_name(e1) + cell_name(e2) + cell_name(add(e1, d))


def parse_colour(text):
    t = text.lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    return None


# ---- the agent ------------------------------------------------------------------------------
class PyaiAgent:
    def __init__(self, args):
        import contextlib
        self.quiet = contextlib.redirect_stdout(sys.stderr)
        import random
        import numpy as np
        import tensorflow as tf
        self.np = np
        tf.config.threading.set_intra_op_parallelism_threads(args.tf_threads)
        tf.config.threading.set_inter_op_parallelism_threads(args.tf_threads)
        if args.seed is not None:
            random.seed(args.seed)
            np.random.seed(args.seed)
            tf.random.set_seed(args.seed)
        with self.quiet:
            import pyai_abalone
            from pyai_abalone import starting_positions
            from pyai_abalone.abalone_ai import NumpyAbalone
            from pyai_abalone.player_ai import MagisterPlay
        self.NumpyAbalone = NumpyAbalone
        self.starting_positions = starting_positions
        if not args.native_draws:
            # The package ends a game as a draw on a 3-fold repetition or 50 turns without
            # an ejection; ishi has neither rule, and once the agent's game has ended it no
            # longer moves. Turn both off (also inside its rollouts).
            NumpyAbalone.reps_to_draw = 10 ** 9
            NumpyAbalone.noloss_draw = 10 ** 9
        t0 = time.time()
        with self.quiet:
            model = pyai_abalone.get_trained_magister_zero()
            if not args.eager:
                # Same network, same weights, called as one traced graph instead of eagerly:
                # about 5 ms instead of 19 ms a call here; outputs agree to ~1e-8.
                keras_model = model

                @tf.function(input_signature=[tf.TensorSpec((None, 11, 11, 4), tf.float32)],
                             autograph=False)
                def graph_model(x):
                    return keras_model(x, training=False)

                model = graph_model
            self.player = MagisterPlay(
                model=model,
                starting_position=starting_positions.BELGIAN_DAISY,
                prob_sum=args.prob_sum,
                num_mcts=args.samples,
                depth_mcts=args.depth,
                num_threads=args.threads)
        log("pyai-abalone agent ready in %.1fs (samples=%d depth=%d prob_sum=%.3f threads=%d "
            "tf_threads=%d %s)" % (time.time() - t0, args.samples, args.depth, args.prob_sum,
                                   args.threads, args.tf_threads,
                                   "eager" if args.eager else "graph"))

    def new_game(self, board):
        arr = board.to_array(self.np)
        p = self.player
        p.game = self.NumpyAbalone(arr)
        if not p.mcts_threads:
            # MagisterPlay.reset() creates worker threads after a finished game but never
            # starts them (its make_ai_move would then wait forever); start them here.
            p._start_threads()
            for t in p.mcts_threads:
                t.daemon = True
                t.start()

    def legal_arrays(self):
        with self.quiet:
            states, _ = self.player.game.calc_nonlosing_moves(return_reversed=False)
        return states

    def given(self, arr):
        with self.quiet:
            self.player.make_given_move(arr.copy())

    def think(self):
        with self.quiet:
            self.player.make_ai_move()
        return self.player.game.board

    def board_array(self):
        return self.player.game.board

    def ended(self):
        return self.player.game.game_ended


def log(msg):
    print(NAME + ": " + msg, file=sys.stderr, flush=True)


class Engine:
    def __init__(self, args):
        self.args = args
        self.agent = PyaiAgent(args)
        self.np = self.agent.np
        self.check_starts()
        self.clear_board()

    def check_starts(self):
        np = self.np
        for name, pkg in PKG_START_NAMES.items():
            mine = Board(name).to_array(np)
            theirs = getattr(self.agent.starting_positions, pkg)
            if not np.array_equal(mine, theirs):
                log("WARNING: start %s differs from pyai_abalone.%s" % (name, pkg))

    def clear_board(self):
        self.board = Board(self.args.start)
        self.agent.new_game(self.board)
        self.legal = None
        self.sync_check()

    def legal_results(self):
        """canonical move -> (shifts, ejects, resulting numpy array)"""
        if self.legal is None:
            res = {}
            for mv, (shifts, ejects) in self.board.legal_moves().items():
                b = self.board.copy()
                b.play(shifts, ejects)
                res[mv] = (shifts, ejects, b.to_array(self.np))
            self.legal = res
        return self.legal

    def sync_check(self):
        """The agent's board must equal ours; optionally compare the two move generators."""
        np = self.np
        if not np.array_equal(self.agent.board_array(), self.board.to_array(np)):
            log("WARNING: agent board differs from the wrapper's")
        if self.args.check and not self.game_over():
            mine = {a.tobytes() for (_, _, a) in self.legal_results().values()}
            theirs = {np.asarray(a, dtype=np.int16).tobytes() for a in self.agent.legal_arrays()}
            if mine != theirs:
                log("WARNING: move generators disagree at ply %d: wrapper %d, agent %d "
                    "(%d only wrapper, %d only agent)" % (
                        self.board.plies, len(mine), len(theirs),
                        len(mine - theirs), len(theirs - mine)))

    def game_over(self):
        if self.board.winner() is not None:
            return True
        if self.args.max_plies and self.board.plies >= self.args.max_plies:
            return True
        if self.args.native_draws and self.agent.ended():
            return True  # the package declared a draw (repetition / no ejection for 50 turns)
        return not self.board.legal_moves()

    def apply(self, mv, entry):
        shifts, ejects, arr = entry
        self.board.play(shifts, ejects)
        self.legal = None

    # --- commands ---
    def cmd_play(self, a):
        if len(a) != 2:
            raise GtpError("syntax error")
        colour = parse_colour(a[0])
        if colour is None:
            raise GtpError("syntax error")
        mv = canonical_input(a[1])
        if mv is None:
            raise GtpError("syntax error" if not MOVE_RE.match(a[1].lower()) else "illegal move")
        if colour != self.board.to_move or self.game_over():
            raise GtpError("illegal move")
        entry = self.legal_results().get(mv)
        if entry is None:
            raise GtpError("illegal move")
        arr = entry[2]
        if not any(self.np.array_equal(arr, s) for s in self.agent.legal_arrays()):
            raise GtpError("illegal move")  # the agent's rules refuse it
        self.agent.given(arr)
        self.apply(mv, entry)
        self.sync_check()
        return ""

    def cmd_genmove(self, a):
        if len(a) != 1:
            raise GtpError("syntax error")
        colour = parse_colour(a[0])
        if colour is None:
            raise GtpError("syntax error")
        if self.game_over():
            raise GtpError("game over")
        if colour != self.board.to_move:
            raise GtpError("illegal move")
        legal = self.legal_results()
        t0, c0 = time.time(), time.process_time()
        after = self.agent.think()
        dt, dc = time.time() - t0, time.process_time() - c0
        found = [mv for mv, e in legal.items() if self.np.array_equal(e[2], after)]
        if len(found) != 1:
            log("ERROR: agent's position after its move matches %d legal moves" % len(found))
            if not found:
                raise GtpError("agent made an unrecognised move")
        mv = sorted(found)[0]
        self.apply(mv, legal[mv])
        self.sync_check()
        log("genmove %s -> %s in %.2fs wall, %.2fs cpu" % (colour, mv, dt, dc))
        return mv

    def cmd_showboard(self, a):
        return self.board.showboard()

    def cmd_final_score(self, a):
        d = self.board.ejected[BLACK] - self.board.ejected[WHITE]
        return "0" if d == 0 else ("B+%d" % d if d > 0 else "W+%d" % -d)

    def cmd_all_legal_moves(self, a):
        if len(a) != 1 or parse_colour(a[0]) is None:
            raise GtpError("syntax error")
        if parse_colour(a[0]) != self.board.to_move or self.game_over():
            return ""
        return " ".join(sorted(self.legal_results()))

    def cmd_is_legal(self, a):
        if len(a) != 2 or parse_colour(a[0]) is None:
            raise GtpError("syntax error")
        mv = canonical_input(a[1])
        ok = (mv is not None and parse_colour(a[0]) == self.board.to_move
              and not self.game_over() and mv in self.legal_results())
        return "1" if ok else "0"


class GtpError(Exception):
    pass


COMMANDS = ["protocol_version", "name", "version", "list_commands", "known_command",
            "boardsize", "clear_board", "play", "genmove", "showboard", "final_score",
            "all_legal_moves", "is_legal", "time_settings", "time_left",
            "kgs-time_settings", "quit"]


def handle(engine, cmd, args):
    if cmd == "protocol_version":
        return "2"
    if cmd == "name":
        return NAME
    if cmd == "version":
        return VERSION
    if cmd == "list_commands":
        return "\n".join(COMMANDS)
    if cmd == "known_command":
        return "true" if args and args[0] in COMMANDS else "false"
    if cmd == "boardsize":
        if len(args) != 1:
            raise GtpError("syntax error")
        if args[0] != "9":
            raise GtpError("unacceptable size")
        engine.clear_board()
        return ""
    if cmd == "clear_board":
        engine.clear_board()
        return ""
    if cmd == "quit":
        return ""
    if cmd in ("time_settings", "time_left", "kgs-time_settings"):
        return ""  # accepted and ignored: the agent's effort is fixed by --samples/--depth
    fn = getattr(engine, "cmd_" + cmd, None) if cmd in COMMANDS else None
    if fn is None:
        raise GtpError("unknown command")
    return fn(args)


def format_answer(ok, cid, body):
    lines = [l.rstrip() for l in body.splitlines() if l.strip()]
    lead = "\n" if body.startswith("\n") and lines else ""
    return "%s%s %s%s\n\n" % ("=" if ok else "?", cid, lead, "\n".join(lines))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--samples", type=int, default=20,
                   help="MagisterPlay num_mcts: root moves sampled (with replacement) from the "
                        "policy, one rollout each (default 20)")
    p.add_argument("--depth", type=int, default=13,
                   help="MagisterPlay depth_mcts: plies per rollout counting the root move, then "
                        "the value net scores the leaf; 0 = play rollouts to the end (default 13)")
    p.add_argument("--prob-sum", type=float, default=0.95,
                   help="MagisterPlay prob_sum: root moves are restricted to the most probable "
                        "ones whose policy mass reaches this (default 0.95)")
    p.add_argument("--threads", type=int, default=1,
                   help="MagisterPlay num_threads: rollout worker threads (default 1; the "
                        "package's own default is cpu_count())")
    p.add_argument("--tf-threads", type=int, default=1,
                   help="TensorFlow intra-/inter-op threads (default 1)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed Python's random (the agent's sampler), numpy and TensorFlow; "
                        "reproducible with --threads 1")
    p.add_argument("--start", choices=sorted(STARTS), default="belgian",
                   help="start position for clear_board (default belgian; the net was trained "
                        "mainly on Belgian daisy)")
    p.add_argument("--max-plies", type=int, default=400,
                   help="genmove answers '? game over' from this ply on, as ishi (0 = no cap)")
    p.add_argument("--native-draws", action="store_true",
                   help="keep the package's draw rules (3-fold repetition, 50 turns without an "
                        "ejection); off by default since ishi has neither")
    p.add_argument("--eager", action="store_true",
                   help="call the network eagerly as the package does (slower); by default it "
                        "is wrapped in a tf.function")
    p.add_argument("--no-check", dest="check", action="store_false",
                   help="skip comparing the wrapper's and the package's move generators")
    args = p.parse_args()

    engine = Engine(args)
    for raw in sys.stdin:
        line = "".join(ch for ch in raw if ch == "\t" or ch == "\n" or ord(ch) >= 32)
        line = line.split("#", 1)[0].replace("\t", " ").strip()
        if not line:
            continue
        words = line.split()
        cid = ""
        if words[0].isdigit():
            cid = words.pop(0)
            if not words:
                continue
        cmd, cargs = words[0], words[1:]
        try:
            out = handle(engine, cmd, cargs)
            GTP_OUT.write(format_answer(True, cid, out))
        except GtpError as e:
            GTP_OUT.write(format_answer(False, cid, str(e)))
        except Exception as e:  # never die on one command
            log("internal error: %r" % (e,))
            GTP_OUT.write(format_answer(False, cid, "internal error"))
        GTP_OUT.flush()
        if cmd == "quit":
            break
    GTP_OUT.flush()
    os._exit(0)  # the agent's worker threads block on a queue; don't wait for them


if __name__ == "__main__":
    main()
