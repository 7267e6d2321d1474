#!/usr/bin/env python3
"""Read and check teacher game files (gzip'd or plain JSON lines, one game a line).

Usage: read_check.py FILE [FILE ...]  [--quiet] [--max-errors N]

Replays every game with captures, no suicide and simple ko (the rules KataGo's `chinese`
setting plays), and checks that
  - every recorded move is legal (on the board, empty point, not suicide, not a simple-ko retake),
    handicap stones are distinct points and White moves first after them;
  - every policy row has size*size + 1 entries (points row by row from the top-left, then pass),
    integers 0-1000, and is 0 on every occupied point and on the simple-ko point;
  - white_win (and white_lead, ownership when present) has one entry per move, ownership rows
    size*size entries in -100..100.
It also reports (not errors): positions that repeat an earlier whole-board position (legal under
simple ko, not under positional superko), the policy row sums, how often the played move is the
policy's most likely one, and how often the played move has policy 0 (random opening moves and
rare samples).

The module is also the reader the generator and training scripts use: iter_games(path) yields
(line_number, game) and replay(game) yields (board, to_move, move_index) for every position.
Exit status 1 when any check fails.
"""
import argparse
import gzip
import json
import sys
import zlib

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP columns: no I
SEED_STRIDE = 1_000_000  # game i of a run with --seed S has the seed S * SEED_STRIDE + i
EMPTY, BLACK, WHITE = 0, 1, 2


class Truncated(Exception):
    pass


def iter_lines(path):
    """Yield (line_number, text) of complete lines; raise Truncated(good_count, byte_count) at the
    end when the file ends in a partial line or a damaged gzip member. byte_count is the plain
    text length of the good lines (for truncating a .jsonl file)."""
    n = 0
    nbytes = 0
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rb") as f:
            for raw in f:
                if not raw.endswith(b"\n"):
                    raise Truncated(n, nbytes)
                n += 1
                nbytes += len(raw)
                yield n, raw.decode("utf-8")
    except (EOFError, zlib.error, gzip.BadGzipFile, OSError) as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise Truncated(n, nbytes)


def iter_games(path, strict=True):
    """Yield (line_number, game dict). With strict=False a truncated tail or an unparsable last
    line ends the iteration quietly; unparsable lines elsewhere always raise."""
    pending = None
    try:
        for n, line in iter_lines(path):
            if pending is not None:
                yield pending
            try:
                pending = (n, json.loads(line))
            except json.JSONDecodeError:
                raise ValueError(f"{path}:{n}: not JSON")
        if pending is not None:
            yield pending
    except Truncated:
        if strict:
            raise
        if pending is not None:
            yield pending


def parse_vertex(v, size):
    """GTP vertex -> point index (row-major from the top-left), None for pass."""
    v = v.strip().upper()
    if v == "PASS":
        return None
    col = LETTERS.index(v[0])
    row = int(v[1:])
    if not (0 <= col < size and 1 <= row <= size):
        raise ValueError(f"vertex {v} off a {size}x{size} board")
    return (size - row) * size + col


def vertex(p, size):
    if p is None:
        return "pass"
    return f"{LETTERS[p % size]}{size - p // size}"


def neighbours(size):
    nb = []
    for p in range(size * size):
        r, c = divmod(p, size)
        l = []
        if r > 0:
            l.append(p - size)
        if r < size - 1:
            l.append(p + size)
        if c > 0:
            l.append(p - 1)
        if c < size - 1:
            l.append(p + 1)
        nb.append(l)
    return nb


class Board:
    def __init__(self, size):
        self.size = size
        self.nb = neighbours(size)
        self.cells = [EMPTY] * (size * size)
        self.ko = None  # point the side to move may not play (simple ko)

    def group(self, p):
        colour = self.cells[p]
        stones, libs, stack = {p}, set(), [p]
        while stack:
            q = stack.pop()
            for n in self.nb[q]:
                c = self.cells[n]
                if c == EMPTY:
                    libs.add(n)
                elif c == colour and n not in stones:
                    stones.add(n)
                    stack.append(n)
        return stones, libs

    def play(self, p, colour):
        """Play colour at p (None = pass). Returns None if legal (and played), else the reason."""
        if p is None:
            self.ko = None
            return None
        if self.cells[p] != EMPTY:
            return "occupied"
        if p == self.ko:
            return "ko"
        other = BLACK + WHITE - colour
        self.cells[p] = colour
        captured = []
        for n in self.nb[p]:
            if self.cells[n] == other:
                stones, libs = self.group(n)
                if not libs:
                    captured.extend(stones)
                    for s in stones:
                        self.cells[s] = EMPTY
        stones, libs = self.group(p)
        if not libs:
            self.cells[p] = EMPTY
            return "suicide"
        self.ko = captured[0] if (len(captured) == 1 and len(stones) == 1 and len(libs) == 1) else None
        return None


def replay(game):
    """Yield (board, to_move, i) before each move i, then play it; raises ValueError on an
    illegal move. The board object is reused: copy board.cells if you keep it."""
    size = game["size"]
    b = Board(size)
    for v in game.get("handicap") or []:
        p = parse_vertex(v, size)
        if p is None or b.cells[p] != EMPTY:
            raise ValueError(f"bad handicap stone {v}")
        b.cells[p] = BLACK
    to_move = WHITE if game.get("handicap") else BLACK
    for i, v in enumerate(game["moves"]):
        yield b, to_move, i
        why = b.play(parse_vertex(v, size), to_move)
        if why:
            raise ValueError(f"move {i + 1} {v} illegal ({why})")
        to_move = BLACK + WHITE - to_move


def check_game(game, stats):
    """Return a list of error strings for one game; add to stats."""
    errs = []
    size = game.get("size")
    moves = game.get("moves")
    if not isinstance(size, int) or not (2 <= size <= 25) or not isinstance(moves, list):
        return ["bad size or moves"]
    area = size * size
    n = len(moves)
    pol = game.get("policy")
    if not isinstance(pol, list) or len(pol) != n:
        errs.append(f"policy has {len(pol) if isinstance(pol, list) else '?'} rows for {n} moves")
        pol = None
    for key in ("white_win", "white_lead", "ownership"):
        if key in game and (not isinstance(game[key], list) or len(game[key]) != n):
            errs.append(f"{key} has {len(game[key])} entries for {n} moves")
    if "white_win" not in game:
        errs.append("no white_win")
    own = game.get("ownership") if isinstance(game.get("ownership"), list) and len(game["ownership"]) == n else None
    seen = set()
    try:
        for b, to_move, i in replay(game):
            cells = tuple(b.cells)
            if i > 0 and moves[i - 1] != "pass" and cells in seen:
                stats["repeats"] += 1
            seen.add(cells)
            stats["positions"] += 1
            if pol is not None:
                row = pol[i]
                if not isinstance(row, list) or len(row) != area + 1:
                    errs.append(f"position {i}: policy row of {len(row)} entries, want {area + 1}")
                    continue
                if any((not isinstance(x, int)) or x < 0 or x > 1000 for x in row):
                    errs.append(f"position {i}: policy entries not integers 0-1000")
                    continue
                s = sum(row)
                stats["sum_min"] = min(stats["sum_min"], s)
                stats["sum_max"] = max(stats["sum_max"], s)
                stats["sum_total"] += s
                bad = [p for p in range(area) if b.cells[p] != EMPTY and row[p] != 0]
                if b.ko is not None and row[b.ko] != 0:
                    bad.append(b.ko)
                if bad:
                    errs.append(f"position {i}: policy {row[bad[0]]} on occupied/ko point {vertex(bad[0], size)}")
                mp = parse_vertex(moves[i], size)
                played = row[area if mp is None else mp]
                stats["played_sum"] += played
                if played == 0:
                    stats["played_zero"] += 1
                if played == max(row):
                    stats["top1"] += 1
            if own is not None:
                orow = own[i]
                if not isinstance(orow, list) or len(orow) != area or any(
                        (not isinstance(x, int)) or x < -100 or x > 100 for x in orow):
                    errs.append(f"position {i}: ownership row not {area} integers in -100..100")
    except ValueError as e:
        errs.append(str(e))
    return errs


def check_file(path, quiet=False, max_errors=20):
    stats = dict(games=0, positions=0, repeats=0, repeat_games=0, bad_games=0, sum_min=10**9,
                 sum_max=-1, sum_total=0, played_sum=0, played_zero=0, top1=0, sizes={},
                 handicap=0, passes_end=0)
    shown = 0
    try:
        for ln, game in iter_games(path):
            stats["games"] += 1
            stats["sizes"][game.get("size")] = stats["sizes"].get(game.get("size"), 0) + 1
            if game.get("handicap"):
                stats["handicap"] += 1
            if game.get("moves", [])[-2:] == ["pass", "pass"]:
                stats["passes_end"] += 1
            before = stats["repeats"]
            errs = check_game(game, stats)
            if stats["repeats"] > before:
                stats["repeat_games"] += 1
            if errs:
                stats["bad_games"] += 1
                if shown < max_errors:
                    for e in errs[:3]:
                        print(f"{path}:{ln}: {e}")
                    shown += 1
    except Truncated as t:
        print(f"{path}: truncated after {t.args[0]} complete lines")
        stats["bad_games"] += 1
    p = max(stats["positions"], 1)
    if not quiet:
        print(f"{path}: {stats['games']} games {dict(sorted((k or 0, v) for k, v in stats['sizes'].items()))}, "
              f"{stats['positions']} positions, {stats['handicap']} handicap games, "
              f"{stats['passes_end']} end in two passes")
        print(f"  policy row sums {stats['sum_min']}..{stats['sum_max']} (mean {stats['sum_total'] / p:.1f}); "
              f"played move: mean policy {stats['played_sum'] / p:.0f}/1000, policy top-1 "
              f"{100 * stats['top1'] / p:.1f}%, policy 0 in {stats['played_zero']} positions")
        print(f"  {stats['repeats']} positions in {stats['repeat_games']} games repeat an earlier whole-board "
              f"position (simple ko allows it)")
        print(f"  {'OK' if stats['bad_games'] == 0 else 'FAILED: %d bad games' % stats['bad_games']}")
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--max-errors", type=int, default=20)
    a = ap.parse_args()
    bad = 0
    for f in a.files:
        bad += check_file(f, a.quiet, a.max_errors)["bad_games"]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
