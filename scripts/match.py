#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Play a match between two GTP Go engines and report the results.

Engine A (by default the ishi release binary) plays engine B (by default
GNU Go 3.8 at level 10 with Chinese rules).  Colours alternate game by game:
engine A takes Black in even-numbered games (0, 2, 4, ...) and White in the
odd ones.  Games that both players end by passing are scored by a referee
engine (by default a separate GNU Go process).  Python 3 standard library
only.

Examples:

    python3 scripts/match.py --engine "target/release/ishi --threads 1 --playouts 10000" --games 100 -j 2
    python3 scripts/match.py --engine "/usr/games/gnugo --mode gtp --level 1" --games 4 -j 2
    python3 scripts/match.py --engine "target/release/ishi --playouts 5000" \\
        --opponent "target/release/ishi --playouts 2500" --sprt 0,30 --games 2000 -j 2
    python3 scripts/match.py --time-settings "10 1 1" --random-opening 4 --games 20
    python3 scripts/match.py --engine "target/release/ishi --threads 1 --seed {game} --playouts 10000"

`{game}` in an engine's command line is replaced by the game's number: deterministic engines
(ishi in deterministic mode, GNU Go) would otherwise repeat the same game every other game.

Equal think time against an engine that plays a fixed number of playouts (Pachi's `-t =N`,
GNU Go has no such knob): write `{budget}` in engine B's command and give its first value
with --balance-time.  After every game the runner sets it so that B's genmove time a move
matches A's over the last 20 games (B's time taken as proportional to the budget):

    python3 scripts/match.py --engine "target/release/ishi --threads 1 --move-time 1 --lag-ms 0" \\
        --opponent "pachi --patterns -t ={budget} threads=1" --balance-time 10000 \\
        --balance-floor 500 -j 2
    python3 scripts/match.py --self-test

Games from given positions (converting a won position, say): --start-positions FILE, one
position a line, `SGF MOVES [b|w]`: the first MOVES moves of the SGF's main line (a path
relative to FILE's folder), and optionally the colour engine A plays from there (else the
colours alternate).  Games 2i and 2i+1 start from line i (modulo the lines), so a run of
N games plays each position N / (2 * lines) times in pairs; `{game}` seeds differ.

Game end: two consecutive passes (scored by the referee), a resignation, an
illegal move (the runner's own board check or the opponent answering `play`
with `?`: the mover loses), a crash or closed output (that engine loses), an
engine hanging for longer than --move-timeout (it is killed and loses; every
game starts fresh engine processes), a loss on time (with --time-settings),
or the move cap (--max-moves: the position is scored as it stands).

Output in --out DIR: game-NNNN.sgf for every game, results.dat in the layout
of gogui-twogtp (engine A is the "Black" program of that file: ALT is 1 when
it played White, and the RES_B/RES_W/RES_R results are mirrored then, as
gogui-twogtp does, so that "B+" always means engine A won), summary.txt, and
logs/game-NNNN-{A,B,referee}.stderr with each engine's standard error.

Results files in the .dat: RES_B is engine A's own final_score, RES_W engine
B's, RES_R the referee's (engine B's with --referee none); "?" when unknown.
For games ending without scoring all three hold the result: X+R resignation,
X+T time, X+F forfeit (crash, hang, illegal move, failed command).  TIME_B and
TIME_W are wall-clock seconds spent in genmove by A and B; CPU_B and CPU_W
come from the engines' cputime command (0 when they lack it).  DUP names an
earlier game with the same colours and the identical move sequence, else "-".

SPRT: with --sprt elo0,elo1 the log-likelihood ratio of the generalised SPRT
(the normal approximation of Michel Van den Bergh, on the win/draw/loss
counts of engine A, logistic Elo) is updated after every game; the match
stops once it leaves [log(beta/(1-alpha)), log((1-beta)/alpha)].  Games
already being played when it stops are finished and recorded.

Exit status: 0 when the match ran, 1 when --self-test fails, 2 for bad options
or an engine that cannot be started, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import datetime
import math
import os
import platform
import queue
import random
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
import unittest
from pathlib import Path

REPOSITORY_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ENGINE = str(REPOSITORY_ROOT / "target" / "release" / "ishi")
DEFAULT_OPPONENT = "/usr/games/gnugo --mode gtp --level 10 --chinese-rules"
DEFAULT_REFEREE = "/usr/games/gnugo --mode gtp --chinese-rules"

BLACK = "B"
WHITE = "W"
ROLES = ("A", "B")
COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
Z_95 = 1.959963984540054
SETUP_TIMEOUT = 30.0
QUIT_TIMEOUT = 5.0
CLOCK_GRACE = 0.5

BALANCE_WINDOW = 20
BUDGET_PLACEHOLDER = "{budget}"

DAT_COLUMNS = ("GAME", "RES_B", "RES_W", "RES_R", "ALT", "DUP", "LEN",
               "TIME_B", "TIME_W", "CPU_B", "CPU_W", "ERR", "ERR_MSG")


def opposite(colour: str) -> str:
    return WHITE if colour == BLACK else BLACK


def other_role(role: str) -> str:
    return "B" if role == "A" else "A"


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------

def wilson_interval(score: float, count: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a proportion `score` observed over `count` trials."""
    if count <= 0:
        return (0.0, 1.0)
    z_squared = z * z
    denominator = 1.0 + z_squared / count
    centre = (score + z_squared / (2.0 * count)) / denominator
    half_width = z * math.sqrt(score * (1.0 - score) / count
                               + z_squared / (4.0 * count * count)) / denominator
    return (max(0.0, centre - half_width), min(1.0, centre + half_width))


def elo_from_score(score: float) -> float:
    """Logistic Elo difference that gives the expected score `score`."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of a player `elo` logistic Elo points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Lower (accept H0) and upper (accept H1) bounds of the log-likelihood ratio."""
    return (math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


def sprt_log_likelihood_ratio(wins: int, draws: int, losses: int,
                              elo0: float, elo1: float) -> float:
    """Generalised SPRT log-likelihood ratio of H1 (elo1) against H0 (elo0).

    Uses the normal approximation of Michel Van den Bergh on the trinomial
    results: LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 variance), where s0 and
    s1 are the expected scores under the two hypotheses and mean and variance
    are the observed per-game score statistics.  While no win or no loss has
    been seen, the variance is estimated with one extra win and one extra
    loss: a one-sided sample would otherwise have a zero variance, and never
    be decided.
    """
    count = wins + draws + losses
    if count == 0:
        return 0.0
    mean = (wins + 0.5 * draws) / count
    variance_wins, variance_losses = wins, losses
    if wins == 0 or losses == 0:
        variance_wins, variance_losses = wins + 1, losses + 1
    variance_count = variance_wins + draws + variance_losses
    variance_mean = (variance_wins + 0.5 * draws) / variance_count
    variance = (variance_wins * (1.0 - variance_mean) ** 2
                + draws * (0.5 - variance_mean) ** 2
                + variance_losses * variance_mean ** 2) / variance_count
    score0 = score_from_elo(elo0)
    score1 = score_from_elo(elo1)
    return count * (score1 - score0) * (2.0 * mean - score0 - score1) / (2.0 * variance)


def format_elo(elo: float) -> str:
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    rounded = round(elo)
    return f"{rounded:+d}" if rounded else "0"


def format_number(value: float) -> str:
    """One decimal at most, as gogui-twogtp writes its time columns."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def format_komi(komi: float) -> str:
    return str(int(komi)) if float(komi).is_integer() else str(komi)


# ---------------------------------------------------------------------------
# Board: just enough rules to check moves and pick random openings
# ---------------------------------------------------------------------------

def parse_vertex(text: str, size: int) -> tuple[int, int] | None:
    """GTP vertex to (column, row) counted from the lower left; None for pass.

    Raises ValueError for anything that is not a vertex of the board.
    """
    word = text.strip().upper()
    if word == "PASS":
        return None
    match = re.fullmatch(r"([A-HJ-Z])(\d{1,2})", word)
    if not match:
        raise ValueError(f"not a vertex: {text!r}")
    column = COLUMN_LETTERS.index(match.group(1))
    row = int(match.group(2)) - 1
    if not (0 <= column < size and 0 <= row < size):
        raise ValueError(f"vertex off the board: {text!r}")
    return (column, row)


def vertex_text(point: tuple[int, int] | None) -> str:
    if point is None:
        return "pass"
    return f"{COLUMN_LETTERS[point[0]]}{point[1] + 1}"


def sgf_point(point: tuple[int, int] | None, size: int) -> str:
    if point is None:
        return ""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[point[0]] + letters[size - 1 - point[1]]


class Board:
    """A Go board with captures, simple ko and suicide detection."""

    def __init__(self, size: int):
        self.size = size
        self.stones: dict[tuple[int, int], str] = {}
        self.ko_point: tuple[int, int] | None = None

    def neighbours(self, point: tuple[int, int]) -> list[tuple[int, int]]:
        column, row = point
        candidates = ((column - 1, row), (column + 1, row), (column, row - 1), (column, row + 1))
        return [(c, r) for c, r in candidates if 0 <= c < self.size and 0 <= r < self.size]

    def group_and_liberties(self, point: tuple[int, int]) -> tuple[set, set]:
        colour = self.stones[point]
        group = {point}
        liberties = set()
        frontier = [point]
        while frontier:
            current = frontier.pop()
            for neighbour in self.neighbours(current):
                occupant = self.stones.get(neighbour)
                if occupant is None:
                    liberties.add(neighbour)
                elif occupant == colour and neighbour not in group:
                    group.add(neighbour)
                    frontier.append(neighbour)
        return group, liberties

    def illegality(self, colour: str, point: tuple[int, int] | None) -> str | None:
        """Why the move would be illegal, or None when it is legal (passes always are)."""
        if point is None:
            return None
        if point in self.stones:
            return "point occupied"
        if point == self.ko_point:
            return "ko recapture"
        self.stones[point] = colour
        try:
            for neighbour in self.neighbours(point):
                if self.stones.get(neighbour) == opposite(colour):
                    _, liberties = self.group_and_liberties(neighbour)
                    if not liberties:
                        return None
            _, liberties = self.group_and_liberties(point)
            return None if liberties else "suicide"
        finally:
            del self.stones[point]

    def play(self, colour: str, point: tuple[int, int] | None) -> None:
        """Play a move already known to be legal."""
        self.ko_point = None
        if point is None:
            return
        self.stones[point] = colour
        captured = set()
        for neighbour in self.neighbours(point):
            if self.stones.get(neighbour) == opposite(colour):
                group, liberties = self.group_and_liberties(neighbour)
                if not liberties:
                    captured |= group
        for stone in captured:
            del self.stones[stone]
        group, liberties = self.group_and_liberties(point)
        if len(captured) == 1 and len(group) == 1 and len(liberties) == 1:
            self.ko_point = next(iter(captured))

    def empty_points(self) -> list[tuple[int, int]]:
        return [(column, row) for row in range(self.size) for column in range(self.size)
                if (column, row) not in self.stones]


# ---------------------------------------------------------------------------
# GTP client
# ---------------------------------------------------------------------------

class EngineFailure(Exception):
    """The engine process can no longer be used."""


class EngineCrashed(EngineFailure):
    """The engine exited, closed its output or could not be started."""


class EngineHung(EngineFailure):
    """The engine did not answer in time; it has been killed."""


class MatchAborted(Exception):
    """The whole match is being interrupted."""


@dataclasses.dataclass
class GtpResponse:
    success: bool
    text: str


RESPONSE_START = re.compile(r"([=?])(\d*)\s*(.*)")


class LiveEngines:
    """Registry of running engine processes, so an interrupted match can kill them all."""

    def __init__(self):
        self.lock = threading.Lock()
        self.engines: set[GtpEngine] = set()

    def add(self, engine: GtpEngine) -> None:
        with self.lock:
            self.engines.add(engine)

    def remove(self, engine: GtpEngine) -> None:
        with self.lock:
            self.engines.discard(engine)

    def kill_all(self) -> None:
        with self.lock:
            engines = list(self.engines)
        for engine in engines:
            engine.kill()


LIVE_ENGINES = LiveEngines()


class GtpEngine:
    """A GTP engine running as a child process, spoken to over its pipes.

    A reader thread queues the engine's output lines, so that every command
    can wait for its response with a timeout.  Commands carry numeric ids; a
    response whose echoed id does not match is discarded.
    """

    def __init__(self, command: list[str], label: str, stderr_path: Path | None,
                 traffic_log=None):
        self.command = command
        self.label = label
        self.traffic_log = traffic_log
        self.next_identifier = 1
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.dead = False
        self.stderr_file = open(stderr_path, "wb") if stderr_path else None
        try:
            self.process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self.stderr_file if self.stderr_file else subprocess.DEVNULL,
                start_new_session=True)
        except (OSError, ValueError) as error:
            if self.stderr_file:
                self.stderr_file.close()
            raise EngineCrashed(f"cannot start {shlex.join(command)}: {error}") from error
        LIVE_ENGINES.add(self)
        self.reader = threading.Thread(target=self._read_lines, daemon=True,
                                       name=f"gtp-reader-{label}")
        self.reader.start()

    def _read_lines(self) -> None:
        try:
            for raw_line in iter(self.process.stdout.readline, b""):
                self.lines.put(raw_line.decode("utf-8", "replace"))
        except (OSError, ValueError):
            pass
        finally:
            self.lines.put(None)

    def _log(self, direction: str, text: str) -> None:
        if self.traffic_log is not None:
            for line in text.splitlines() or [""]:
                self.traffic_log.write(f"{self.label}{direction} {line}\n")
            self.traffic_log.flush()

    def exit_description(self) -> str:
        try:
            status = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if status < 0:
            try:
                return f"killed by signal {signal.Signals(-status).name}"
            except ValueError:
                return f"killed by signal {-status}"
        return f"exited with status {status}"

    def send(self, command: str, timeout: float) -> GtpResponse:
        """Send one command and wait for its response, at most `timeout` seconds."""
        if self.dead:
            raise EngineCrashed("engine is no longer running")
        identifier = self.next_identifier
        self.next_identifier += 1
        self._log(">", f"{identifier} {command}")
        try:
            self.process.stdin.write(f"{identifier} {command}\n".encode())
            self.process.stdin.flush()
        except (OSError, ValueError):
            description = self.exit_description()
            self.kill()
            raise EngineCrashed(description) from None
        deadline = time.monotonic() + timeout
        while True:
            success, echoed, body = self._read_response(deadline, command, timeout)
            if echoed is None or echoed == identifier:
                return GtpResponse(success, "\n".join(body).strip())
            self._log("!", f"discarded response to command {echoed}")

    def _next_line(self, deadline: float, command: str, timeout: float) -> str:
        remaining = deadline - time.monotonic()
        try:
            if remaining <= 0:
                raise queue.Empty
            line = self.lines.get(timeout=remaining)
        except queue.Empty:
            self.kill()
            self._log("!", f"no answer within {timeout:g} s: killed")
            raise EngineHung(f"no answer to '{command}' within {timeout:g} s") from None
        if line is None:
            description = self.exit_description()
            self.kill()
            self._log("!", description)
            raise EngineCrashed(description)
        return line.replace("\r", "").rstrip("\n")

    def _read_response(self, deadline: float, command: str,
                       timeout: float) -> tuple[bool, int | None, list[str]]:
        """Read one response: '=' or '?', optional id, text, then an empty line."""
        while True:
            line = self._next_line(deadline, command, timeout)
            match = RESPONSE_START.fullmatch(line)
            if match:
                break
            if line.strip():
                self._log("!", f"ignored line: {line}")
        status, echoed_text, first_text = match.groups()
        self._log("<", line)
        body = [first_text]
        while True:
            line = self._next_line(deadline, command, timeout)
            if not line.strip():
                break
            self._log("<", line)
            body.append(line)
        echoed = int(echoed_text) if echoed_text else None
        return status == "=", echoed, body

    def kill(self) -> None:
        """Kill the engine's whole process group at once."""
        self.dead = True
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        try:
            self.process.wait(timeout=QUIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        """Ask the engine to quit, kill it if it does not, and release its pipes."""
        if not self.dead:
            try:
                self.send("quit", QUIT_TIMEOUT)
            except EngineFailure:
                pass
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=QUIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
        self.dead = True
        # Closing stdout while the reader thread still blocks in it could hang.
        self.reader.join(timeout=QUIT_TIMEOUT)
        if not self.reader.is_alive():
            self.process.stdout.close()
        if self.stderr_file:
            self.stderr_file.close()
        LIVE_ENGINES.remove(self)


@dataclasses.dataclass
class EngineInfo:
    """What a probe found out about an engine before the match."""
    command: list[str]
    name: str
    version: str
    commands: set[str] | None  # None when list_commands is not available

    def supports(self, command: str) -> bool:
        return self.commands is None or command in self.commands

    @property
    def display_name(self) -> str:
        return f"{self.name} {self.version}".strip()


def probe_engine(command: list[str], fallback_name: str, size: int,
                 stderr_path: Path | None, budget: int = 0) -> EngineInfo:
    """Start an engine once to learn its name, version and commands.

    Raises EngineFailure when it cannot be started or does not answer, and
    ValueError when it refuses the board size.
    """
    probe_command = [word.replace("{game}", "0").replace(BUDGET_PLACEHOLDER, str(budget))
                     for word in command]
    try:
        return probe_started_engine(GtpEngine(probe_command, fallback_name, stderr_path),
                                    command, fallback_name, size)
    except EngineFailure as failure:
        raise EngineFailure(f"{fallback_name} [{shlex.join(command)}]: {failure}") from None


def probe_started_engine(engine: GtpEngine, command: list[str], fallback_name: str,
                         size: int) -> EngineInfo:
    try:
        name_response = engine.send("name", SETUP_TIMEOUT)
        name = name_response.text if name_response.success and name_response.text else fallback_name
        version_response = engine.send("version", SETUP_TIMEOUT)
        version = version_response.text if version_response.success else ""
        listing = engine.send("list_commands", SETUP_TIMEOUT)
        commands = set(listing.text.split()) if listing.success else None
        if not engine.send(f"boardsize {size}", SETUP_TIMEOUT).success:
            raise ValueError(f"{fallback_name} [{shlex.join(command)}] refuses boardsize {size}")
        return EngineInfo(command, name, version, commands)
    finally:
        engine.close()


# ---------------------------------------------------------------------------
# Clock
# ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class TimeSettings:
    """GTP (Canadian byo-yomi) time settings: main time, byo-yomi time and stones."""
    main_time: int
    byo_yomi_time: int
    byo_yomi_stones: int

    @classmethod
    def parse(cls, text: str) -> TimeSettings:
        parts = text.split()
        if len(parts) != 3 or not all(part.isdigit() for part in parts):
            raise ValueError("time settings are three non-negative integers: "
                             "main_time byo_yomi_time byo_yomi_stones")
        return cls(*(int(part) for part in parts))

    @property
    def unlimited(self) -> bool:
        """GTP: a byo-yomi time with zero stones means no time limit."""
        return self.byo_yomi_time > 0 and self.byo_yomi_stones == 0

    @property
    def absolute(self) -> bool:
        return self.byo_yomi_time == 0

    def gtp_arguments(self) -> str:
        return f"{self.main_time} {self.byo_yomi_time} {self.byo_yomi_stones}"


class Clock:
    """One player's clock, charged with the wall time of each genmove."""

    def __init__(self, settings: TimeSettings, tolerance: float):
        self.settings = settings
        self.tolerance = tolerance
        self.main_left = float(settings.main_time)
        self.in_byo_yomi = False
        self.period_left = float(settings.byo_yomi_time)
        self.stones_left = settings.byo_yomi_stones

    def _enter_byo_yomi_if_due(self) -> None:
        if not self.in_byo_yomi and not self.settings.absolute and self.main_left <= 0:
            self.in_byo_yomi = True
            self.period_left = float(self.settings.byo_yomi_time)
            self.stones_left = self.settings.byo_yomi_stones

    def time_left_arguments(self) -> tuple[int, int]:
        """Arguments of GTP time_left: seconds left and stones (0 while in main time)."""
        self._enter_byo_yomi_if_due()
        if self.in_byo_yomi:
            return (max(0, int(self.period_left)), self.stones_left)
        return (max(0, int(self.main_left)), 0)

    def allowance(self) -> float:
        """Longest the next move may take without losing (tolerance excluded)."""
        if self.settings.unlimited:
            return math.inf
        self._enter_byo_yomi_if_due()
        if self.in_byo_yomi:
            return max(0.0, self.period_left)
        if self.settings.absolute:
            return max(0.0, self.main_left)
        return self.main_left + self.settings.byo_yomi_time

    def charge(self, elapsed: float) -> bool:
        """Charge a move's time; False when the player has lost on time."""
        if self.settings.unlimited:
            return True
        self._enter_byo_yomi_if_due()
        if not self.in_byo_yomi:
            if elapsed <= self.main_left:
                self.main_left -= elapsed
                return True
            overflow = elapsed - self.main_left
            self.main_left = 0.0
            if self.settings.absolute:
                return overflow <= self.tolerance
            self.in_byo_yomi = True
            self.period_left = float(self.settings.byo_yomi_time)
            self.stones_left = self.settings.byo_yomi_stones
            elapsed = overflow
        self.period_left -= elapsed
        if self.period_left < -self.tolerance:
            return False
        self.period_left = max(0.0, self.period_left)
        self.stones_left -= 1
        if self.stones_left <= 0:
            self.period_left = float(self.settings.byo_yomi_time)
            self.stones_left = self.settings.byo_yomi_stones
        return True


# ---------------------------------------------------------------------------
# Equal think time against a fixed-budget engine
# ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class BudgetSample:
    """One finished game of a balanced match: engine B's budget and both engines' think time."""
    budget: int
    a_seconds: float
    a_moves: int
    b_seconds: float
    b_moves: int


def balanced_budget(samples: list[BudgetSample], current: int, floor: int = 1) -> int:
    """Engine B's budget that makes its think time a move equal engine A's.

    B's time a move is taken as proportional to its budget, its rate measured
    over the samples given; the answer moves at most a factor of two from the
    current budget, so one odd game cannot throw it far, and never below the
    floor (the least the engine accepts).  Without usable samples (no moves,
    no time) the current budget stays.
    """
    a_seconds = sum(sample.a_seconds for sample in samples)
    a_moves = sum(sample.a_moves for sample in samples)
    b_seconds = sum(sample.b_seconds for sample in samples)
    b_units = sum(sample.budget * sample.b_moves for sample in samples)
    if a_seconds <= 0 or a_moves == 0 or b_seconds <= 0 or b_units == 0:
        return current
    target = (a_seconds / a_moves) / (b_seconds / b_units)
    return max(floor, 1, round(min(max(target, current / 2), current * 2)))


class TimeBalancer:
    """Holds engine B's `{budget}` and moves it after every game (see balanced_budget)."""

    def __init__(self, start: int, floor: int = 1):
        self.start = start
        self.floor = floor
        self.current = start
        self.samples: list[BudgetSample] = []
        self.lock = threading.Lock()

    def budget(self) -> int:
        with self.lock:
            return self.current

    def record(self, sample: BudgetSample) -> None:
        with self.lock:
            self.samples.append(sample)
            self.current = balanced_budget(self.samples[-BALANCE_WINDOW:], self.current,
                                           self.floor)

    def summary(self) -> str:
        with self.lock:
            samples = list(self.samples)
            current = self.current
        a_moves = sum(sample.a_moves for sample in samples)
        b_moves = sum(sample.b_moves for sample in samples)
        line = f"Balanced time: engine B's {BUDGET_PLACEHOLDER} started at {self.start}, now {current}"
        if a_moves and b_moves:
            a_rate = sum(sample.a_seconds for sample in samples) / a_moves
            b_rate = sum(sample.b_seconds for sample in samples) / b_moves
            line += (f"; genmove time a move A {a_rate:.3f} s, B {b_rate:.3f} s"
                     f" (B/A {b_rate / a_rate:.2f})" if a_rate > 0 else "")
        return line


# ---------------------------------------------------------------------------
# Start positions
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class StartPosition:
    """The first moves of a recorded game, and the colour engine A plays from there."""
    name: str
    moves: list
    a_colour: str | None


SGF_PROPERTY = re.compile(r"([A-Z]+)((?:\s*\[(?:\\.|[^\]\\])*\])+)", re.S)
SGF_VALUE = re.compile(r"\[((?:\\.|[^\]\\])*)\]", re.S)


def sgf_main_line_end(text: str) -> int:
    """Where an SGF's main line ends: it runs through the first child of every branch, so
    it ends at the first closing parenthesis outside a property value."""
    inside, escaped = False, False
    for index, char in enumerate(text):
        if inside:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == "]":
                inside = False
        elif char == "[":
            inside = True
        elif char == ")":
            return index
    return len(text)


def sgf_main_line(text: str) -> tuple[int, list]:
    """(board size, moves as (colour, point)) of an SGF's main line.

    Raises ValueError for setup stones (AB, AW), which the runner cannot send by `play`.
    """
    size, moves = 19, []
    for name, values in SGF_PROPERTY.findall(text[:sgf_main_line_end(text)]):
        items = SGF_VALUE.findall(values)
        if name == "SZ":
            size = int(items[0].split(":")[0])
        elif name in ("AB", "AW"):
            raise ValueError("setup stones (AB/AW) are not supported")
        elif name in ("B", "W"):
            value = items[0]
            if value == "" or (value == "tt" and size <= 19):
                moves.append((name, None))
            else:
                column = ord(value[0]) - ord("a")
                row = size - 1 - (ord(value[1]) - ord("a"))
                if not (0 <= column < size and 0 <= row < size):
                    raise ValueError(f"point {value} off the board")
                moves.append((name, (column, row)))
    return size, moves


def load_start_positions(path: str, size: int) -> list[StartPosition]:
    """The lines `SGF MOVES [b|w]` of a start-positions file, each checked by the board."""
    folder = Path(path).resolve().parent
    positions = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{path}:{number}"
        if len(words) not in (2, 3) or not words[1].isdigit() or (
                len(words) == 3 and words[2].lower() not in ("b", "w")):
            raise ValueError(f"{where}: expected 'SGF MOVES [b|w]', got {line.strip()!r}")
        sgf = folder / words[0]
        try:
            sgf_size, moves = sgf_main_line(sgf.read_text(encoding="utf-8", errors="replace"))
        except (OSError, ValueError, IndexError) as error:
            raise ValueError(f"{where}: {words[0]}: {error}") from None
        if sgf_size != size:
            raise ValueError(f"{where}: {words[0]} is {sgf_size}x{sgf_size}, the match {size}x{size}")
        count = int(words[1])
        if count > len(moves):
            raise ValueError(f"{where}: {words[0]} has {len(moves)} moves, not {count}")
        board = Board(size)
        for turn, (colour, point) in enumerate(moves[:count]):
            expected = BLACK if turn % 2 == 0 else WHITE
            if colour != expected:
                raise ValueError(f"{where}: move {turn + 1} is {colour}'s, {expected}'s expected")
            problem = board.illegality(colour, point)
            if problem:
                raise ValueError(f"{where}: move {turn + 1} {vertex_text(point)}: {problem}")
            board.play(colour, point)
        a_colour = words[2].upper() if len(words) == 3 else None
        positions.append(StartPosition(f"{words[0]} move {count}", moves[:count], a_colour))
    if not positions:
        raise ValueError(f"{path}: no positions")
    return positions


def start_position_of(config: MatchConfig, index: int) -> StartPosition | None:
    """Games 2i and 2i+1 start from position i, modulo the positions."""
    if not config.start_positions:
        return None
    return config.start_positions[(index // 2) % len(config.start_positions)]


def a_colour_of(config: MatchConfig, index: int) -> str:
    """Engine A's colour in game `index`: the start position's when it names one, else
    Black in even games (always with --no-alternate) and White in odd ones."""
    start = start_position_of(config, index)
    if start is not None and start.a_colour is not None:
        return start.a_colour
    return BLACK if (index % 2 == 0 or not config.alternate) else WHITE


# ---------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class MatchConfig:
    engines: dict[str, EngineInfo]
    referee: EngineInfo | None
    size: int
    komi: float
    games: int
    first_game: int
    alternate: bool
    time_settings: TimeSettings | None
    time_tolerance: float
    move_timeout: float
    max_moves: int
    random_opening: int
    seed: int
    out_directory: Path
    quiet_stderr: bool
    log_gtp: bool
    balancer: TimeBalancer | None = None
    start_positions: list[StartPosition] = dataclasses.field(default_factory=list)
    start_positions_file: str = ""


REASON_TEXT = {
    "passes": "both players passed",
    "move-cap": "move cap reached, scored as it stands",
    "resign": "{loser} resigned",
    "time": "{loser} lost on time",
    "illegal": "{loser} played an illegal move",
    "crash": "{loser} crashed",
    "hang": "{loser} hung and was killed",
    "error": "{loser} failed a command",
}

RESULT_CODES = {"resign": "R", "time": "T"}


@dataclasses.dataclass
class GameRecord:
    index: int
    a_colour: str
    moves: list = dataclasses.field(default_factory=list)
    opening_length: int = 0
    result: str = "?"
    reason: str = ""
    loser_role: str | None = None
    error: bool = False
    error_messages: list = dataclasses.field(default_factory=list)
    referee_score: str = "?"
    engine_scores: dict = dataclasses.field(default_factory=lambda: {"A": "?", "B": "?"})
    genmove_seconds: dict = dataclasses.field(default_factory=lambda: {"A": 0.0, "B": 0.0})
    genmove_counts: dict = dataclasses.field(default_factory=lambda: {"A": 0, "B": 0})
    budget: int | None = None
    cpu_seconds: dict = dataclasses.field(default_factory=lambda: {"A": 0.0, "B": 0.0})
    notes: list = dataclasses.field(default_factory=list)
    date: str = ""
    duration: float = 0.0

    def colour_of(self, role: str) -> str:
        return self.a_colour if role == "A" else opposite(self.a_colour)

    def winner(self) -> str | None:
        return winner_of(self.result)

    def outcome_for_a(self) -> str | None:
        """'win', 'loss', 'draw' or None when the result is unknown."""
        winner = self.winner()
        if winner is None:
            return None
        if winner == "0":
            return "draw"
        return "win" if winner == self.a_colour else "loss"

    def reason_text(self) -> str:
        template = REASON_TEXT.get(self.reason, self.reason)
        return template.format(loser=f"engine {self.loser_role}")

    def error_message(self) -> str:
        return "; ".join(self.error_messages)


class GameOver(Exception):
    """Ends a game before scoring: `loser_role` loses for `reason`."""

    def __init__(self, loser_role: str, reason: str, message: str):
        super().__init__(message)
        self.loser_role = loser_role
        self.reason = reason
        self.message = message


def normalise_score(text: str) -> str:
    """A final_score answer as 'B+3.5', 'W+R', '0' or '?'."""
    word = text.strip().split()[0].upper() if text.strip() else ""
    if word in ("0", "DRAW", "JIGO", "B+0", "W+0", "B+0.0", "W+0.0"):
        return "0"
    if re.fullmatch(r"[BW]\+(\d+(\.\d+)?|R|T|F|RESIGN|TIME|FORFEIT)?", word):
        return word
    return "?"


def winner_of(score: str) -> str | None:
    """'B', 'W', '0' for a draw, or None when the score is unknown."""
    if score == "0":
        return "0"
    if score[:2] in ("B+", "W+"):
        return score[0]
    return None


def mirror_result(result: str) -> str:
    """Exchange the colours in a result, as gogui-twogtp does for alternated games."""
    return result.translate(str.maketrans("BW", "WB"))


class Player:
    """One engine taking part in a game, with failures turned into GameOver."""

    def __init__(self, role: str, colour: str, info: EngineInfo, engine: GtpEngine):
        self.role = role
        self.colour = colour
        self.info = info
        self.engine = engine

    def command(self, text: str, timeout: float) -> GtpResponse:
        try:
            return self.engine.send(text, timeout)
        except EngineHung:
            raise GameOver(self.role, "hang",
                           f"engine {self.role} gave no answer to '{text}' within "
                           f"{timeout:g} s and was killed") from None
        except EngineCrashed as failure:
            raise GameOver(self.role, "crash",
                           f"engine {self.role} crashed at '{text}': {failure}") from None

    def require(self, text: str, timeout: float) -> GtpResponse:
        response = self.command(text, timeout)
        if not response.success:
            raise GameOver(self.role, "error",
                           f"engine {self.role} refused '{text}': {response.text}")
        return response


class GamePlay:
    """Plays one game between fresh processes of engines A and B."""

    def __init__(self, config: MatchConfig, index: int, abort: threading.Event):
        self.config = config
        self.index = index
        self.abort = abort
        self.record = GameRecord(index=index, a_colour=a_colour_of(config, index))
        self.board = Board(config.size)
        self.players: dict[str, Player] = {}
        self.traffic_log = None
        self.clocks: dict[str, Clock] = {}
        if config.time_settings is not None:
            self.clocks = {role: Clock(config.time_settings, config.time_tolerance)
                           for role in ROLES}

    def log_path(self, who: str) -> Path | None:
        if self.config.quiet_stderr:
            return None
        return self.config.out_directory / "logs" / f"game-{self.index:04d}-{who}.stderr"

    def player_of(self, colour: str) -> Player:
        role = "A" if colour == self.record.a_colour else "B"
        return self.players[role]

    def check_abort(self) -> None:
        if self.abort.is_set():
            raise MatchAborted()

    def run(self) -> GameRecord:
        record = self.record
        record.date = datetime.datetime.now().isoformat(timespec="seconds")
        started = time.monotonic()
        if self.config.log_gtp:
            self.traffic_log = open(self.config.out_directory / "logs"
                                    / f"game-{self.index:04d}.gtp", "w", encoding="utf-8")
        try:
            try:
                self.start_players()
                self.check_abort()
                self.play_opening()
                self.play_moves()
                self.score()
            except GameOver as over:
                self.forfeit(over)
            self.collect_cpu_times()
        finally:
            for player in self.players.values():
                player.engine.close()
            if self.traffic_log:
                self.traffic_log.close()
            record.duration = time.monotonic() - started
        return record

    def start_players(self) -> None:
        for role in ROLES:
            info = self.config.engines[role]
            # `{game}` in a command line becomes the game's number, so a deterministic
            # engine can take a different seed in every game (`--seed {game}`).
            command = [word.replace("{game}", str(self.index)) for word in info.command]
            if self.config.balancer is not None and role == "B":
                if self.record.budget is None:
                    self.record.budget = self.config.balancer.budget()
                    self.record.notes.append(f"engine B's budget: {self.record.budget}")
                command = [word.replace(BUDGET_PLACEHOLDER, str(self.record.budget))
                           for word in command]
            try:
                engine = GtpEngine(command, role, self.log_path(role), self.traffic_log)
            except EngineCrashed as failure:
                raise GameOver(role, "crash", f"engine {role}: {failure}") from None
            self.players[role] = Player(role, self.record.colour_of(role), info, engine)
        for player in self.players.values():
            player.require(f"boardsize {self.config.size}", SETUP_TIMEOUT)
            player.require("clear_board", SETUP_TIMEOUT)
            if not player.command(f"komi {format_komi(self.config.komi)}", SETUP_TIMEOUT).success:
                self.record.notes.append(f"engine {player.role} refused komi")
            if self.config.time_settings is not None:
                settings = self.config.time_settings.gtp_arguments()
                if not player.command(f"time_settings {settings}", SETUP_TIMEOUT).success:
                    self.record.notes.append(f"engine {player.role} refused time_settings")

    def play_opening(self) -> None:
        """Play random opening moves, checked by the board and by both engines.

        The random generator is seeded with the seed and the pair of games,
        so both games of a pair (colours exchanged) start from one opening.
        Points on the first line are avoided on boards of size 7 and more.
        """
        start = start_position_of(self.config, self.index)
        if start is not None:
            self.play_start_position(start)
            return
        count = self.config.random_opening
        if count <= 0:
            return
        generator = random.Random(f"{self.config.seed}:{self.index // 2}")
        refusals = 0
        margin = 1 if self.config.size >= 7 else 0
        while len(self.record.moves) < count and refusals < 20:
            colour = BLACK if len(self.record.moves) % 2 == 0 else WHITE
            candidates = [point for point in self.board.empty_points()
                          if margin <= point[0] < self.config.size - margin
                          and margin <= point[1] < self.config.size - margin
                          and self.board.illegality(colour, point) is None]
            if not candidates:
                break
            point = generator.choice(candidates)
            accepted = []
            for role in ROLES:
                player = self.players[role]
                if not player.command(f"play {colour} {vertex_text(point)}",
                                      self.config.move_timeout).success:
                    break
                accepted.append(player)
            if len(accepted) < len(ROLES):
                refusals += 1
                self.record.notes.append(f"opening move {colour} {vertex_text(point)} refused")
                for player in accepted:
                    self.replay(player)
                continue
            self.board.play(colour, point)
            self.record.moves.append((colour, point))
        self.record.opening_length = len(self.record.moves)

    def play_start_position(self, start: StartPosition) -> None:
        """Play a start position's moves (checked when it was loaded) to both engines; an
        engine refusing one fails the command and loses the game."""
        for colour, point in start.moves:
            for role in ROLES:
                self.players[role].require(f"play {colour} {vertex_text(point)}",
                                           self.config.move_timeout)
            self.board.play(colour, point)
            self.record.moves.append((colour, point))
        self.record.opening_length = len(self.record.moves)
        self.record.notes.append(f"start position: {start.name}")

    def replay(self, player: Player) -> None:
        """Bring an engine back to the moves recorded so far."""
        player.require("clear_board", SETUP_TIMEOUT)
        for colour, point in self.record.moves:
            player.require(f"play {colour} {vertex_text(point)}", self.config.move_timeout)

    def play_moves(self) -> None:
        record = self.record
        colour = BLACK if len(record.moves) % 2 == 0 else WHITE
        consecutive_passes = 0
        while True:
            self.check_abort()
            if len(record.moves) >= self.config.max_moves:
                record.reason = "move-cap"
                return
            mover = self.player_of(colour)
            receiver = self.player_of(opposite(colour))
            point = self.generate_move(mover, colour)
            reason = self.board.illegality(colour, point)
            if reason is not None:
                raise GameOver(mover.role, "illegal",
                               f"engine {mover.role} played {colour} {vertex_text(point)}: {reason}")
            response = receiver.command(f"play {colour} {vertex_text(point)}",
                                        self.config.move_timeout)
            if not response.success:
                raise GameOver(mover.role, "illegal",
                               f"engine {mover.role} played {colour} {vertex_text(point)}, "
                               f"refused by engine {receiver.role}: {response.text}")
            self.board.play(colour, point)
            record.moves.append((colour, point))
            consecutive_passes = consecutive_passes + 1 if point is None else 0
            if consecutive_passes >= 2:
                record.reason = "passes"
                return
            colour = opposite(colour)

    def generate_move(self, mover: Player, colour: str) -> tuple[int, int] | None:
        """Ask the mover for a move, timing it and enforcing its clock."""
        clock = self.clocks.get(mover.role)
        wait_limit = self.config.move_timeout
        if clock is not None:
            if mover.info.supports("time_left"):
                seconds, stones = clock.time_left_arguments()
                mover.command(f"time_left {colour} {seconds} {stones}", self.config.move_timeout)
            wait_limit = min(wait_limit, clock.allowance() + clock.tolerance + CLOCK_GRACE)
        started = time.monotonic()
        self.record.genmove_counts[mover.role] += 1
        try:
            response = mover.engine.send(f"genmove {colour}", wait_limit)
        except EngineHung:
            self.record.genmove_seconds[mover.role] += time.monotonic() - started
            if wait_limit < self.config.move_timeout:
                raise GameOver(mover.role, "time",
                               f"engine {mover.role} exceeded its time "
                               f"(killed after {wait_limit:.1f} s)") from None
            raise GameOver(mover.role, "hang",
                           f"engine {mover.role} gave no move within "
                           f"{wait_limit:g} s and was killed") from None
        except EngineCrashed as failure:
            raise GameOver(mover.role, "crash",
                           f"engine {mover.role} crashed at genmove: {failure}") from None
        elapsed = time.monotonic() - started
        self.record.genmove_seconds[mover.role] += elapsed
        if clock is not None and not clock.charge(elapsed):
            raise GameOver(mover.role, "time",
                           f"engine {mover.role} took {elapsed:.1f} s and ran out of time")
        if not response.success:
            raise GameOver(mover.role, "error",
                           f"engine {mover.role} failed genmove: {response.text}")
        answer = response.text.strip()
        if answer.lower() == "resign":
            raise GameOver(mover.role, "resign", "")
        try:
            return parse_vertex(answer, self.config.size)
        except ValueError as error:
            raise GameOver(mover.role, "illegal", f"engine {mover.role}: {error}") from None

    def forfeit(self, over: GameOver) -> None:
        record = self.record
        record.reason = over.reason
        record.loser_role = over.loser_role
        winner = opposite(record.colour_of(over.loser_role))
        record.result = f"{winner}+{RESULT_CODES.get(over.reason, 'F')}"
        if over.reason in ("crash", "hang", "illegal", "error"):
            record.error = True
        if over.message:
            record.error_messages.append(over.message)
        record.referee_score = record.result
        record.engine_scores = {"A": record.result, "B": record.result}

    def score(self) -> None:
        """Score a finished game: each engine's own final_score and the referee's."""
        record = self.record
        for role, player in self.players.items():
            if player.engine.dead or not player.info.supports("final_score"):
                continue
            try:
                response = player.engine.send("final_score", self.config.move_timeout)
            except EngineFailure as failure:
                record.notes.append(f"engine {role} final_score failed: {failure}")
                continue
            if response.success:
                record.engine_scores[role] = normalise_score(response.text)
        if self.config.referee is None:
            record.referee_score = record.engine_scores["B"]
        else:
            record.referee_score = self.referee_score()
        if winner_of(record.referee_score) is not None:
            record.result = record.referee_score
            return
        a_score, b_score = record.engine_scores["A"], record.engine_scores["B"]
        if winner_of(a_score) is not None and winner_of(a_score) == winner_of(b_score):
            record.result = b_score
            record.notes.append("no referee score: both engines agree on the winner")
        else:
            record.error = True
            record.error_messages.append("no usable score")

    def referee_score(self) -> str:
        """Feed the whole game to a fresh referee process and ask for final_score."""
        referee = None
        try:
            referee = GtpEngine(self.config.referee.command, "R", self.log_path("referee"),
                                self.traffic_log)
            for command in (f"boardsize {self.config.size}", "clear_board",
                            f"komi {format_komi(self.config.komi)}"):
                if not referee.send(command, SETUP_TIMEOUT).success:
                    raise EngineCrashed(f"refused '{command}'")
            for number, (colour, point) in enumerate(self.record.moves, start=1):
                command = f"play {colour} {vertex_text(point)}"
                if not referee.send(command, self.config.move_timeout).success:
                    self.record.error_messages.append(f"referee refused move {number}: {command}")
                    return "?"
            response = referee.send("final_score", self.config.move_timeout)
        except EngineFailure as failure:
            self.record.error_messages.append(f"referee failed: {failure}")
            return "?"
        finally:
            if referee is not None:
                referee.close()
        return normalise_score(response.text) if response.success else "?"

    def collect_cpu_times(self) -> None:
        for role, player in self.players.items():
            if player.engine.dead or not player.info.supports("cputime"):
                continue
            try:
                response = player.engine.send("cputime", SETUP_TIMEOUT)
                if response.success:
                    self.record.cpu_seconds[role] = float(response.text.split()[0])
            except (EngineFailure, ValueError, IndexError):
                pass


def play_game(config: MatchConfig, index: int, abort: threading.Event) -> GameRecord | None:
    """Play game `index`; None when the match was interrupted meanwhile.

    A fault of the runner itself is reported on stderr and recorded as a game
    without result, so that the rest of the match still runs.
    """
    try:
        record = GamePlay(config, index, abort).run()
    except MatchAborted:
        return None
    except Exception:  # keep the match going, but show the fault
        traceback.print_exc()
        record = GameRecord(index=index, a_colour=a_colour_of(config, index),
                            reason="runner fault", error=True)
        record.error_messages.append("runner fault: " + traceback.format_exc().splitlines()[-1])
    return None if abort.is_set() else record


# ---------------------------------------------------------------------------
# Output files
# ---------------------------------------------------------------------------

def sgf_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def host_description() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpu_info:
            for line in cpu_info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{socket.gethostname()} ({model})"


def game_sgf(record: GameRecord, config: MatchConfig) -> str:
    engines = config.engines
    black_role = "A" if record.a_colour == BLACK else "B"
    white_role = other_role(black_role)
    comment = [
        f"Result: {record.result} ({record.reason_text()})",
        f"Referee score: {record.referee_score}",
        f"Engine A ({'Black' if record.a_colour == BLACK else 'White'}) final_score: "
        f"{record.engine_scores['A']}",
        f"Engine B ({'White' if record.a_colour == BLACK else 'Black'}) final_score: "
        f"{record.engine_scores['B']}",
        f"Engine A: {engines['A'].display_name} [{shlex.join(engines['A'].command)}]",
        f"Engine B: {engines['B'].display_name} [{shlex.join(engines['B'].command)}]",
        "Referee: " + (f"{config.referee.display_name} [{shlex.join(config.referee.command)}]"
                       if config.referee else "none (engine B's final_score)"),
    ]
    if record.opening_length and not config.start_positions:
        comment.append(f"Random opening: {record.opening_length} moves (seed {config.seed})")
    if config.time_settings:
        comment.append(f"Time settings: {config.time_settings.gtp_arguments()}")
    comment.append(f"Genmove time: A {record.genmove_seconds['A']:.1f} s, "
                   f"B {record.genmove_seconds['B']:.1f} s; game duration {record.duration:.1f} s")
    if record.error_messages:
        comment.append("Errors: " + record.error_message())
    comment.extend(f"Note: {note}" for note in record.notes)
    comment.append(f"Date: {record.date}")
    properties = [
        "FF[4]", "GM[1]", "CA[UTF-8]", "AP[ishi match.py:1]",
        f"SZ[{config.size}]", f"KM[{format_komi(config.komi)}]", "RU[Chinese]",
        f"DT[{record.date[:10]}]", f"GN[game {record.index:04d}]",
        f"PB[{sgf_text(engines[black_role].display_name)}]",
        f"PW[{sgf_text(engines[white_role].display_name)}]",
    ]
    if record.result != "?":
        properties.append(f"RE[{record.result}]")
    if config.time_settings:
        settings = config.time_settings
        properties.append(f"TM[{settings.main_time}]")
        if not settings.absolute:
            properties.append(f"OT[{settings.byo_yomi_stones}/{settings.byo_yomi_time} Canadian]")
    properties.append(f"C[{sgf_text(chr(10).join(comment))}]")
    lines = ["(;" + "".join(properties[:8]), "".join(properties[8:])]
    nodes = [f";{colour}[{sgf_point(point, config.size)}]" for colour, point in record.moves]
    for start in range(0, len(nodes), 12):
        lines.append("".join(nodes[start:start + 12]))
    lines[-1] += ")"
    return "\n".join(lines) + "\n"


def dat_header(config: MatchConfig) -> list[str]:
    properties = {}
    for role, prefix in (("A", "Black"), ("B", "White")):
        info = config.engines[role]
        properties[prefix] = info.name
        properties[prefix + "Command"] = shlex.join(info.command)
        properties[prefix + "Label"] = f"engine {role}: {info.display_name}"
        properties[prefix + "Version"] = info.version
    if config.referee is None:
        properties["Referee"] = "-"
    else:
        properties["Referee"] = config.referee.name
        properties["RefereeCommand"] = shlex.join(config.referee.command)
        properties["RefereeVersion"] = config.referee.version
    properties["Size"] = str(config.size)
    properties["Komi"] = format_komi(config.komi)
    properties["Date"] = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    properties["Host"] = host_description()
    properties["Alternate"] = "1" if config.alternate else "0"
    if config.time_settings:
        properties["TimeSettings"] = config.time_settings.gtp_arguments()
    if config.random_opening:
        properties["Openings"] = f"random, {config.random_opening} moves, seed {config.seed}"
    if config.start_positions:
        properties["Openings"] = (f"start positions of {config.start_positions_file} "
                                  f"({len(config.start_positions)})")
    properties["Xml"] = "0"
    lines = [f"# {key}: {value}" for key, value in sorted(properties.items())]
    lines.append("#")
    lines.append("#" + "\t".join(DAT_COLUMNS))
    return lines


def dat_row(record: GameRecord, duplicate: str) -> str:
    alternated = record.a_colour == WHITE

    def oriented(result: str) -> str:
        return mirror_result(result) if alternated else result

    message = re.sub(r"\s+", " ", record.error_message()).strip()
    if not message and record.reason not in ("passes", "resign", ""):
        message = record.reason_text()
    values = (
        str(record.index), oriented(record.engine_scores["A"]),
        oriented(record.engine_scores["B"]), oriented(record.referee_score),
        "1" if alternated else "0", duplicate, str(len(record.moves)),
        format_number(record.genmove_seconds["A"]), format_number(record.genmove_seconds["B"]),
        format_number(record.cpu_seconds["A"]), format_number(record.cpu_seconds["B"]),
        "1" if record.error else "0", message,
    )
    return "\t".join(values)


def write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".new")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


# ---------------------------------------------------------------------------
# Match bookkeeping
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class Sprt:
    elo0: float
    elo1: float
    alpha: float
    beta: float

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def verdict(self, llr: float) -> str | None:
        lower, upper = self.bounds
        if llr >= upper:
            return f"H1 accepted: engine A is at least {self.elo1:g} Elo stronger"
        if llr <= lower:
            return f"H0 accepted: engine A is not more than {self.elo0:g} Elo stronger"
        return None


class Match:
    """Collects game records, writes the output files and computes the statistics."""

    def __init__(self, config: MatchConfig, sprt: Sprt | None):
        self.config = config
        self.sprt = sprt
        self.records: dict[int, GameRecord] = {}
        self.duplicates: dict[int, str] = {}
        self.header = dat_header(config)
        self.verdict: str | None = None
        self.interrupted = False

    def tally(self) -> dict:
        counts = {"win": 0, "loss": 0, "draw": 0, "unknown": 0,
                  "black games": 0, "white games": 0, "black wins": 0, "white wins": 0}
        failures = {reason: {"A": 0, "B": 0} for reason in ("time", "illegal", "crash", "hang",
                                                             "error", "resign")}
        disagreements = {"A": 0, "B": 0}
        compared = {"A": 0, "B": 0}
        for record in self.records.values():
            outcome = record.outcome_for_a()
            counts[outcome or "unknown"] += 1
            colour_word = "black" if record.a_colour == BLACK else "white"
            if outcome is not None:
                counts[f"{colour_word} games"] += 1
                if outcome == "win":
                    counts[f"{colour_word} wins"] += 1
            if record.loser_role and record.reason in failures:
                failures[record.reason][record.loser_role] += 1
            if record.reason in ("passes", "move-cap"):
                referee_winner = winner_of(record.referee_score)
                for role in ROLES:
                    own_winner = winner_of(record.engine_scores[role])
                    if referee_winner is None or own_winner is None:
                        continue
                    if self.config.referee is None and role == "B":
                        continue
                    compared[role] += 1
                    if own_winner != referee_winner:
                        disagreements[role] += 1
        return {"counts": counts, "failures": failures,
                "disagreements": disagreements, "compared": compared}

    def llr(self) -> float:
        counts = self.tally()["counts"]
        return sprt_log_likelihood_ratio(counts["win"], counts["draw"], counts["loss"],
                                         self.sprt.elo0, self.sprt.elo1)

    def add(self, record: GameRecord) -> str:
        """Record a finished game, rewrite the output files, return its progress line."""
        signature = (record.a_colour, tuple(record.moves))
        duplicate = "-"
        for earlier in sorted(self.records.values(), key=lambda game: game.index):
            if (earlier.a_colour, tuple(earlier.moves)) == signature:
                duplicate = str(earlier.index)
                break
        self.records[record.index] = record
        self.duplicates[record.index] = duplicate
        if self.config.balancer is not None and record.budget is not None:
            self.config.balancer.record(BudgetSample(
                record.budget, record.genmove_seconds["A"], record.genmove_counts["A"],
                record.genmove_seconds["B"], record.genmove_counts["B"]))
        directory = self.config.out_directory
        write_atomically(directory / f"game-{record.index:04d}.sgf", game_sgf(record, self.config))
        rows = [dat_row(self.records[index], self.duplicates[index])
                for index in sorted(self.records)]
        write_atomically(directory / "results.dat", "\n".join(self.header + rows) + "\n")
        line = self.progress_line(record)
        if self.sprt is not None and self.verdict is None:
            self.verdict = self.sprt.verdict(self.llr())
        write_atomically(directory / "summary.txt", self.summary())
        return line

    def progress_line(self, record: GameRecord) -> str:
        counts = self.tally()["counts"]
        decided = counts["win"] + counts["loss"] + counts["draw"]
        rate = (counts["win"] + 0.5 * counts["draw"]) / decided if decided else 0.0
        colour_word = "black" if record.a_colour == BLACK else "white"
        planned = self.config.games - self.config.first_game
        line = (f"[{len(self.records):>4}/{planned}] game {record.index:04d}"
                f"  A={colour_word:<5}  {record.result:<8} {len(record.moves):>4} moves"
                f"  A {counts['win']}-{counts['loss']}-{counts['draw']} (W-L-D)"
                f" {100.0 * rate:5.1f}%")
        if self.sprt is not None:
            lower, upper = self.sprt.bounds
            line += f"  LLR {self.llr():+.2f} [{lower:+.2f}, {upper:+.2f}]"
        if record.reason != "passes":
            line += f"  ({record.reason_text()})"
        return line

    def summary(self) -> str:
        config = self.config
        tally = self.tally()
        counts, failures = tally["counts"], tally["failures"]
        decided = counts["win"] + counts["loss"] + counts["draw"]
        lines = [
            f"Engine A: {config.engines['A'].display_name}  [{shlex.join(config.engines['A'].command)}]",
            f"Engine B: {config.engines['B'].display_name}  [{shlex.join(config.engines['B'].command)}]",
            "Referee:  " + (f"{config.referee.display_name}  [{shlex.join(config.referee.command)}]"
                            if config.referee else "none (engine B's final_score)"),
            f"Board {config.size}x{config.size}, komi {format_komi(config.komi)}"
            + (f", time settings {config.time_settings.gtp_arguments()}"
               if config.time_settings else "")
            + (f", random opening of {config.random_opening} moves (seed {config.seed})"
               if config.random_opening else "")
            + (f", from the {len(config.start_positions)} start positions of "
               f"{config.start_positions_file}" if config.start_positions else ""),
            f"Games: {len(self.records)} played, {decided} with a result, "
            f"{counts['unknown']} unknown" + (" (match interrupted)" if self.interrupted else ""),
        ]
        if decided:
            score = (counts["win"] + 0.5 * counts["draw"]) / decided
            lower, upper = wilson_interval(score, decided)
            lines += [
                f"Engine A: {counts['win']} wins, {counts['loss']} losses, {counts['draw']} draws",
                f"Win rate: {100 * score:.1f}% (95% Wilson interval {100 * lower:.1f}% "
                f"to {100 * upper:.1f}%)",
                f"Elo difference: {format_elo(elo_from_score(score))} "
                f"(95% interval {format_elo(elo_from_score(lower))} "
                f"to {format_elo(elo_from_score(upper))})",
            ]
        lines += [
            f"As Black: {counts['black wins']} wins of {counts['black games']}; "
            f"as White: {counts['white wins']} wins of {counts['white games']}",
        ]
        for reason, label in (("resign", "Resignations"), ("time", "Losses on time"),
                              ("illegal", "Illegal moves"), ("crash", "Crashes"),
                              ("hang", "Hangs (killed)"), ("error", "Failed commands")):
            lines.append(f"{label}: A {failures[reason]['A']}, B {failures[reason]['B']}")
        disagreement_parts = [f"{role} {tally['disagreements'][role]} of {tally['compared'][role]}"
                              for role in ROLES
                              if not (config.referee is None and role == "B")]
        lines.append("Disagreements with the referee on the winner: "
                     + ", ".join(disagreement_parts))
        if self.records:
            moves = sum(len(record.moves) for record in self.records.values())
            time_a = sum(record.genmove_seconds["A"] for record in self.records.values())
            time_b = sum(record.genmove_seconds["B"] for record in self.records.values())
            count = len(self.records)
            lines.append(f"Average game: {moves / count:.1f} moves; genmove time A {time_a / count:.1f} s,"
                         f" B {time_b / count:.1f} s")
        if config.balancer is not None:
            lines.append(config.balancer.summary())
        if self.sprt is not None:
            lower, upper = self.sprt.bounds
            lines.append(f"SPRT elo0={self.sprt.elo0:g} elo1={self.sprt.elo1:g} "
                         f"alpha={self.sprt.alpha:g} beta={self.sprt.beta:g}: "
                         f"LLR {self.llr():+.2f}, bounds [{lower:+.2f}, {upper:+.2f}]: "
                         + (self.verdict or "no decision"))
        lines.append(f"Output: {config.out_directory}")
        return "\n".join(lines) + "\n"

    def run(self, parallel: int) -> None:
        abort = threading.Event()
        next_index = self.config.first_game
        running: set[concurrent.futures.Future] = set()
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=parallel,
                                                         thread_name_prefix="game")
        try:
            while True:
                while (self.verdict is None and next_index < self.config.games
                       and len(running) < parallel):
                    running.add(executor.submit(play_game, self.config, next_index, abort))
                    next_index += 1
                if not running:
                    break
                finished, running = concurrent.futures.wait(
                    running, timeout=0.5, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in finished:
                    record = future.result()
                    if record is not None:
                        print(self.add(record), flush=True)
        except KeyboardInterrupt:
            self.interrupted = True
            abort.set()
            LIVE_ENGINES.kill_all()
            raise
        finally:
            executor.shutdown(wait=True, cancel_futures=True)
            write_atomically(self.config.out_directory / "summary.txt", self.summary())


# ---------------------------------------------------------------------------
# Self test
# ---------------------------------------------------------------------------

class StatisticsTest(unittest.TestCase):
    def test_wilson_interval_of_eight_in_ten(self):
        lower, upper = wilson_interval(0.8, 10)
        self.assertAlmostEqual(lower, 0.4902, places=3)
        self.assertAlmostEqual(upper, 0.9433, places=3)

    def test_wilson_interval_is_symmetric_and_bounded(self):
        lower, upper = wilson_interval(0.5, 100)
        self.assertAlmostEqual(lower + upper, 1.0, places=12)
        self.assertAlmostEqual(upper - lower, 2 * 0.0961, places=3)
        self.assertEqual(wilson_interval(1.0, 5)[1], 1.0)
        self.assertGreater(wilson_interval(0.0, 5)[1], 0.0)
        self.assertEqual(wilson_interval(0.3, 0), (0.0, 1.0))

    def test_elo(self):
        self.assertAlmostEqual(elo_from_score(0.5), 0.0)
        self.assertAlmostEqual(elo_from_score(0.75), 190.848, places=2)
        self.assertAlmostEqual(elo_from_score(0.25), -190.848, places=2)
        self.assertEqual(elo_from_score(1.0), math.inf)
        self.assertEqual(elo_from_score(0.0), -math.inf)
        for elo in (-300.0, -12.5, 0.0, 42.0, 800.0):
            self.assertAlmostEqual(elo_from_score(score_from_elo(elo)), elo, places=9)

    def test_sprt_bounds(self):
        lower, upper = sprt_bounds(0.05, 0.05)
        self.assertAlmostEqual(lower, -2.944439, places=5)
        self.assertAlmostEqual(upper, 2.944439, places=5)
        lower, upper = sprt_bounds(0.05, 0.1)
        self.assertAlmostEqual(lower, math.log(0.1 / 0.95))
        self.assertAlmostEqual(upper, math.log(0.9 / 0.05))

    def test_sprt_log_likelihood_ratio(self):
        # 60 wins, 40 losses: mean 0.6, variance 0.24, s0 0.5, s1 0.514387.
        self.assertAlmostEqual(sprt_log_likelihood_ratio(60, 0, 40, 0, 10), 0.5563, places=3)
        # A score of exactly (s0 + s1) / 2 is neutral.
        self.assertAlmostEqual(sprt_log_likelihood_ratio(50, 0, 50, -10, 10), 0.0)
        # Exchanging wins and losses with mirrored hypotheses negates the ratio.
        self.assertAlmostEqual(sprt_log_likelihood_ratio(30, 20, 10, -5, 5),
                               -sprt_log_likelihood_ratio(10, 20, 30, -5, 5))
        # Draws lower the variance, so the same score carries more evidence.
        self.assertGreater(sprt_log_likelihood_ratio(10, 80, 0, 0, 10),
                           sprt_log_likelihood_ratio(50, 0, 40, 0, 10))
        self.assertEqual(sprt_log_likelihood_ratio(0, 0, 0, 0, 10), 0.0)

    def test_sprt_one_sided_samples_are_decided(self):
        # Five straight wins: variance taken from 6 wins and 1 loss.
        variance = 6 * (1 / 7) ** 2 / 7 + (6 / 7) ** 2 / 7
        expected = 5 * (score_from_elo(10) - 0.5) * (2 - 0.5 - score_from_elo(10)) / (2 * variance)
        self.assertAlmostEqual(sprt_log_likelihood_ratio(5, 0, 0, 0, 10), expected)
        upper = sprt_bounds(0.05, 0.05)[1]
        self.assertLess(sprt_log_likelihood_ratio(10, 0, 0, 0, 10), upper)
        self.assertGreater(sprt_log_likelihood_ratio(40, 0, 0, 0, 10), upper)
        self.assertLess(sprt_log_likelihood_ratio(0, 0, 40, 0, 10), sprt_bounds(0.05, 0.05)[0])
        # One loss more is a little less evidence, but no jump in the estimate.
        one_sided = sprt_log_likelihood_ratio(20, 0, 0, 0, 10)
        with_a_loss = sprt_log_likelihood_ratio(20, 0, 1, 0, 10)
        self.assertGreater(one_sided, with_a_loss)
        self.assertLess(one_sided, 1.15 * with_a_loss)

    def test_sprt_verdicts(self):
        sprt = Sprt(0, 10, 0.05, 0.05)
        self.assertIsNone(sprt.verdict(0.0))
        self.assertTrue(sprt.verdict(3.0).startswith("H1"))
        self.assertTrue(sprt.verdict(-3.0).startswith("H0"))


class RulesTest(unittest.TestCase):
    def test_vertices(self):
        self.assertEqual(parse_vertex("A1", 9), (0, 0))
        self.assertEqual(parse_vertex("j9", 9), (8, 8))
        self.assertIsNone(parse_vertex("PASS", 9))
        for text in ("I5", "K1", "A10", "", "resign"):
            with self.assertRaises(ValueError):
                parse_vertex(text, 9)
        self.assertEqual(vertex_text((7, 2)), "H3")
        self.assertEqual(sgf_point((0, 0), 9), "ai")
        self.assertEqual(sgf_point(None, 9), "")

    @staticmethod
    def board_with(size: int, moves: str) -> Board:
        board = Board(size)
        for move in moves.split():
            colour, vertex = move.split(":")
            board.play(colour, parse_vertex(vertex, size))
        return board

    def test_capture_and_simple_ko(self):
        board = self.board_with(9, "B:B1 W:C1 B:A2 W:B2")
        self.assertIsNone(board.illegality("W", parse_vertex("A1", 9)))
        board.play("W", parse_vertex("A1", 9))
        self.assertNotIn(parse_vertex("B1", 9), board.stones)
        self.assertEqual(board.ko_point, parse_vertex("B1", 9))
        self.assertEqual(board.illegality("B", parse_vertex("B1", 9)), "ko recapture")
        self.assertEqual(board.illegality("B", parse_vertex("A1", 9)), "point occupied")
        board.play("B", parse_vertex("H9", 9))
        self.assertIsNone(board.ko_point)
        self.assertIsNone(board.illegality("B", parse_vertex("B1", 9)))

    def test_capture_without_ko(self):
        board = self.board_with(9, "B:E5 W:D5 W:F5 W:E4")
        board.play("W", parse_vertex("E6", 9))
        self.assertNotIn(parse_vertex("E5", 9), board.stones)
        self.assertIsNone(board.ko_point)

    def test_suicide(self):
        board = self.board_with(9, "W:A1 W:C1 W:B2")
        self.assertEqual(board.illegality("B", parse_vertex("B1", 9)), "suicide")
        self.assertIsNone(board.illegality("W", parse_vertex("B1", 9)))
        self.assertEqual(len(board.empty_points()), 81 - 3)

    def test_scores(self):
        self.assertEqual(normalise_score("B+16.5"), "B+16.5")
        self.assertEqual(normalise_score("w+r"), "W+R")
        self.assertEqual(normalise_score("0"), "0")
        self.assertEqual(normalise_score("unknown"), "?")
        self.assertEqual(winner_of("W+2"), "W")
        self.assertEqual(winner_of("?"), None)
        self.assertEqual(mirror_result("B+3.5"), "W+3.5")


class BalanceTest(unittest.TestCase):
    def test_budget_makes_time_a_move_equal(self):
        # A: 0.5 s a move; B: 1.0 s a move at 10,000, so 5,000 gives equal time.
        samples = [BudgetSample(10000, 20.0, 40, 40.0, 40)]
        self.assertEqual(balanced_budget(samples, 10000), 5000)
        # Unequal move counts count per move, and earlier budgets pool by their units.
        samples = [BudgetSample(4000, 30.0, 60, 10.0, 50), BudgetSample(6000, 30.0, 60, 15.0, 50)]
        self.assertEqual(balanced_budget(samples, 5000), 10000)

    def test_budget_moves_at_most_a_factor_of_two(self):
        self.assertEqual(balanced_budget([BudgetSample(1000, 50.0, 10, 1.0, 10)], 1000), 2000)
        self.assertEqual(balanced_budget([BudgetSample(1000, 1.0, 10, 50.0, 10)], 1000), 500)
        self.assertEqual(balanced_budget([BudgetSample(1, 1.0, 10, 50.0, 10)], 1), 1)
        self.assertEqual(balanced_budget([BudgetSample(900, 1.0, 10, 50.0, 10)], 900, 500), 500)

    def test_budget_stays_without_usable_samples(self):
        self.assertEqual(balanced_budget([], 700), 700)
        self.assertEqual(balanced_budget([BudgetSample(700, 0.0, 0, 3.0, 4)], 700), 700)
        self.assertEqual(balanced_budget([BudgetSample(700, 3.0, 4, 0.0, 0)], 700), 700)

    def test_balancer_converges_on_an_engine_with_overhead(self):
        # B spends 0.05 s a move plus 1e-4 s a unit; A spends 0.6 s a move: equal at 5,500.
        # Once the window holds only games near the answer, the estimate is within 1%.
        balancer = TimeBalancer(20000)
        for _ in range(BALANCE_WINDOW + 15):
            budget = balancer.budget()
            balancer.record(BudgetSample(budget, 24.0, 40, 40 * (0.05 + 1e-4 * budget), 40))
        self.assertAlmostEqual(balancer.budget(), 5500, delta=55)
        self.assertIn("started at 20000", balancer.summary())


class ClockTest(unittest.TestCase):
    def test_canadian_byo_yomi(self):
        clock = Clock(TimeSettings(10, 5, 2), tolerance=1.0)
        self.assertEqual(clock.time_left_arguments(), (10, 0))
        self.assertEqual(clock.allowance(), 15.0)
        self.assertTrue(clock.charge(8.0))
        self.assertTrue(clock.charge(4.0))  # 2 s of main time, then 2 s of the period
        self.assertEqual(clock.time_left_arguments(), (3, 1))
        self.assertTrue(clock.charge(3.5))  # within the tolerance; new period
        self.assertEqual(clock.time_left_arguments(), (5, 2))
        self.assertFalse(clock.charge(6.5))

    def test_absolute_and_unlimited(self):
        clock = Clock(TimeSettings(2, 0, 0), tolerance=1.0)
        self.assertTrue(clock.charge(2.5))
        self.assertFalse(clock.charge(1.5))
        clock = Clock(TimeSettings(0, 1, 0), tolerance=1.0)
        self.assertEqual(clock.allowance(), math.inf)
        self.assertTrue(clock.charge(100.0))


class GtpEngineTest(unittest.TestCase):
    FAKE_ENGINE = r"""
import sys
for line in sys.stdin:
    parts = line.split()
    identifier, command = parts[0], parts[1]
    if command == "quit":
        print(f"={identifier}\n", flush=True)
        break
    if command == "noise":
        print("garbage before the response", flush=True)
        print(f"={identifier} first\r\nsecond\n", flush=True)
    elif command == "fail":
        print(f"?{identifier} no such thing\n", flush=True)
    elif command == "sleep":
        import time; time.sleep(30)
    elif command == "die":
        sys.exit(3)
    else:
        print(f"= {command}\n", flush=True)
"""

    def start(self) -> GtpEngine:
        return GtpEngine([sys.executable, "-c", self.FAKE_ENGINE], "T", None)

    def test_responses(self):
        engine = self.start()
        try:
            self.assertEqual(engine.send("hello", 10), GtpResponse(True, "hello"))
            self.assertEqual(engine.send("noise", 10), GtpResponse(True, "first\nsecond"))
            self.assertEqual(engine.send("fail", 10), GtpResponse(False, "no such thing"))
        finally:
            engine.close()

    def test_hang_and_crash(self):
        engine = self.start()
        with self.assertRaises(EngineHung):
            engine.send("sleep", 0.5)
        self.assertTrue(engine.dead)
        engine.close()
        engine = self.start()
        with self.assertRaises(EngineCrashed) as caught:
            engine.send("die", 10)
        self.assertIn("status 3", str(caught.exception))
        engine.close()
        with self.assertRaises(EngineCrashed):
            GtpEngine(["/nonexistent/engine"], "T", None)


class StartPositionTest(unittest.TestCase):
    def write(self, folder: Path, name: str, text: str) -> Path:
        path = folder / name
        path.write_text(text, encoding="utf-8")
        return path

    def config(self, positions: list, alternate: bool = True) -> MatchConfig:
        return MatchConfig(
            engines={}, referee=None, size=5, komi=0.5, games=8, first_game=0,
            alternate=alternate, time_settings=None, time_tolerance=1.0, move_timeout=5.0,
            max_moves=75, random_opening=0, seed=1, out_directory=Path("."),
            quiet_stderr=True, log_gtp=False, start_positions=positions)

    def test_main_line_passes_and_captures(self):
        size, moves = sgf_main_line("(;FF[4]SZ[5]C[a ) b \\] c];B[bb];W[ab]"
                                    ";B[];W[ba](;B[aa])(;B[cc]))")
        self.assertEqual(size, 5)
        self.assertEqual(moves, [("B", (1, 3)), ("W", (0, 3)), ("B", None), ("W", (1, 4)),
                                 ("B", (0, 4))])
        with self.assertRaises(ValueError):
            sgf_main_line("(;SZ[5]AB[aa];W[bb])")

    def test_positions_file_and_colours(self):
        import tempfile
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            (folder / "games").mkdir()
            self.write(folder / "games", "one.sgf", "(;SZ[5];B[cc];W[bb];B[];W[dd])")
            listing = self.write(folder, "positions.txt",
                                 "# converting\ngames/one.sgf 3 w\n\ngames/one.sgf 0\n")
            positions = load_start_positions(str(listing), 5)
            self.assertEqual([p.name for p in positions],
                             ["games/one.sgf move 3", "games/one.sgf move 0"])
            self.assertEqual(positions[0].moves, [("B", (2, 2)), ("W", (1, 3)), ("B", None)])
            self.assertEqual((positions[0].a_colour, positions[1].a_colour), ("W", None))
            config = self.config(positions)
            # Games 0 and 1 from line 1 (A White in both), 2 and 3 from line 2 (alternating),
            # 4 and 5 from line 1 again.
            self.assertEqual([start_position_of(config, i).name[-6:] for i in range(6)],
                             ["move 3", "move 3", "move 0", "move 0", "move 3", "move 3"])
            self.assertEqual([a_colour_of(config, i) for i in range(4)], ["W", "W", "B", "W"])
            self.assertEqual([a_colour_of(self.config([]), i) for i in range(3)], ["B", "W", "B"])
            self.assertEqual(a_colour_of(self.config([], alternate=False), 1), "B")
            for text, problem in (("games/one.sgf 5", "has 4 moves"),
                                  ("games/one.sgf x", "expected"),
                                  ("games/one.sgf 1 red", "expected"),
                                  ("games/none.sgf 1", "none.sgf"),
                                  ("", "no positions")):
                self.write(folder, "bad.txt", text + "\n")
                with self.assertRaisesRegex(ValueError, problem):
                    load_start_positions(str(folder / "bad.txt"), 5)
            with self.assertRaisesRegex(ValueError, "is 5x5, the match 9x9"):
                load_start_positions(str(listing), 9)
            self.write(folder / "games", "illegal.sgf", "(;SZ[5];B[cc];W[cc])")
            self.write(folder, "bad.txt", "games/illegal.sgf 2\n")
            with self.assertRaisesRegex(ValueError, "point occupied"):
                load_start_positions(str(folder / "bad.txt"), 5)
            self.write(folder / "games", "order.sgf", "(;SZ[5];W[cc];B[dd])")
            self.write(folder, "bad.txt", "games/order.sgf 1\n")
            with self.assertRaisesRegex(ValueError, "move 1 is W's"):
                load_start_positions(str(folder / "bad.txt"), 5)


def run_self_test() -> int:
    suite = unittest.TestSuite()
    loader = unittest.defaultTestLoader
    for case in (StatisticsTest, RulesTest, BalanceTest, ClockTest, GtpEngineTest,
                 StartPositionTest):
        suite.addTests(loader.loadTestsFromTestCase(case))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    return 0 if result.wasSuccessful() else 1


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def parse_arguments(arguments: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="match.py", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    engines = parser.add_argument_group("engines")
    engines.add_argument("--engine", "--black-engine", dest="engine", default=DEFAULT_ENGINE,
                         metavar="COMMAND",
                         help="GTP command line of engine A, split like a shell would "
                              "(default: %(default)s); A plays Black in even games")
    engines.add_argument("--engine-args", default="", metavar="ARGUMENTS",
                         help="extra arguments appended to engine A's command, "
                              "e.g. \"--threads 1 --playouts 10000\"")
    engines.add_argument("--opponent", "--white-engine", dest="opponent",
                         default=DEFAULT_OPPONENT, metavar="COMMAND",
                         help="GTP command line of engine B (default: %(default)s)")
    engines.add_argument("--referee", default=DEFAULT_REFEREE, metavar="COMMAND",
                         help="GTP engine that scores games ended by two passes or the "
                              "move cap, fed the whole game then asked final_score; 'none' "
                              "uses engine B's final_score (default: %(default)s)")
    engines.add_argument("--no-alternate", dest="alternate", action="store_false",
                         help="do not alternate colours: engine A always plays Black")
    game = parser.add_argument_group("games")
    game.add_argument("--games", type=int, default=100,
                      help="number of games, the maximum with --sprt (default: %(default)s)")
    game.add_argument("--first-game", type=int, default=0, metavar="N",
                      help="start at game index N, to finish an interrupted match in a new "
                           "directory: game N keeps the colours and the {game} seed it has "
                           "in the full match (default: %(default)s)")
    game.add_argument("--size", type=int, default=9, help="board size (default: %(default)s)")
    game.add_argument("--komi", type=float, default=7.5, help="komi (default: %(default)s)")
    game.add_argument("--max-moves", type=int, default=None, metavar="N",
                      help="move cap, after which the game is scored as it stands "
                           "(default: 3 * size * size)")
    game.add_argument("--random-opening", type=int, default=0, metavar="N",
                      help="start each game with N random legal moves off the first line, "
                           "accepted by both engines; both games of a pair share the "
                           "opening (default: 0, off)")
    game.add_argument("--start-positions", metavar="FILE",
                      help="start games from recorded positions: lines 'SGF MOVES [b|w]', "
                           "games 2i and 2i+1 from line i, engine A playing the colour "
                           "given (else alternating)")
    game.add_argument("--seed", type=int, default=1,
                      help="seed of the random openings (default: %(default)s)")
    timing = parser.add_argument_group("time")
    timing.add_argument("--time-settings", metavar="'MAIN BYO STONES'",
                        help="send 'time_settings MAIN BYO STONES' (seconds, Canadian "
                             "byo-yomi) to both engines, send time_left before each genmove "
                             "and enforce losses on time, e.g. \"10 1 1\" (default: no clock)")
    timing.add_argument("--balance-time", type=int, metavar="BUDGET",
                        help="equal think time against a fixed-budget engine B: its command's "
                             "{budget} starts at BUDGET and after every game becomes the budget "
                             "at which B's genmove time a move matches A's over the last "
                             f"{BALANCE_WINDOW} games (default: off)")
    timing.add_argument("--balance-floor", type=int, default=1, metavar="BUDGET",
                        help="the least budget engine B accepts, e.g. 500 for Pachi's -t =N "
                             "(default: %(default)s)")
    timing.add_argument("--time-tolerance", type=float, default=1.0, metavar="SECONDS",
                        help="lenience per move before a loss on time (default: %(default)s)")
    timing.add_argument("--move-timeout", type=float, default=60.0, metavar="SECONDS",
                        help="an engine answering no command within this time is killed "
                             "and loses the game (default: %(default)s)")
    running = parser.add_argument_group("running and output")
    running.add_argument("-j", "--parallel", type=int, default=1, metavar="N",
                         help="games played at once, each with its own engine processes "
                              "(default: %(default)s)")
    running.add_argument("--out", metavar="DIRECTORY",
                         help="output directory (default: matches/<timestamp>)")
    running.add_argument("--force", action="store_true",
                         help="write into --out even if it already holds results.dat")
    running.add_argument("--quiet-stderr", action="store_true",
                         help="discard the engines' standard error instead of keeping "
                              "logs/game-NNNN-ROLE.stderr")
    running.add_argument("--log-gtp", action="store_true",
                         help="also keep the GTP dialogue of every game in logs/game-NNNN.gtp")
    statistics = parser.add_argument_group("SPRT")
    statistics.add_argument("--sprt", metavar="ELO0,ELO1", nargs="?", const="0,10",
                            help="sequential test of H0: A-B = ELO0 against H1: A-B = ELO1 "
                                 "logistic Elo; stops when decided (default when given "
                                 "without a value: 0,10; write a negative ELO0 as "
                                 "--sprt=-5,5)")
    statistics.add_argument("--alpha", type=float, default=0.05,
                            help="SPRT false positive rate (default: %(default)s)")
    statistics.add_argument("--beta", type=float, default=0.05,
                            help="SPRT false negative rate (default: %(default)s)")
    parser.add_argument("--self-test", action="store_true",
                        help="run the unit tests of the statistics, rules, clock and GTP "
                             "client, and exit")
    options = parser.parse_args(arguments)
    if options.self_test:
        return options
    if not 2 <= options.size <= 25:
        parser.error("--size must be between 2 and 25")
    if options.games < 1 or options.parallel < 1:
        parser.error("--games and --parallel must be at least 1")
    if not 0 <= options.first_game < options.games:
        parser.error("--first-game must lie between 0 and --games - 1")
    if options.move_timeout <= 0 or options.time_tolerance < 0:
        parser.error("--move-timeout must be positive and --time-tolerance non-negative")
    if options.random_opening < 0:
        parser.error("--random-opening must not be negative")
    if options.start_positions is not None:
        if options.random_opening:
            parser.error("--start-positions and --random-opening exclude each other")
        try:
            options.start_position_list = load_start_positions(options.start_positions,
                                                               options.size)
        except (OSError, ValueError) as error:
            parser.error(f"--start-positions: {error}")
    else:
        options.start_position_list = []
    if options.max_moves is None:
        options.max_moves = 3 * options.size * options.size
    if options.max_moves < 1:
        parser.error("--max-moves must be at least 1")
    if options.time_settings is not None:
        try:
            options.time_settings = TimeSettings.parse(options.time_settings)
        except ValueError as error:
            parser.error(f"--time-settings: {error}")
    if options.sprt is not None:
        try:
            elo0, elo1 = (float(part) for part in options.sprt.split(","))
        except ValueError:
            parser.error("--sprt takes two numbers: ELO0,ELO1")
        if not elo0 < elo1:
            parser.error("--sprt needs ELO0 < ELO1")
        if not (0 < options.alpha < 0.5 and 0 < options.beta < 0.5):
            parser.error("--alpha and --beta must lie between 0 and 0.5")
        options.sprt = Sprt(elo0, elo1, options.alpha, options.beta)
    try:
        options.engine = shlex.split(options.engine) + shlex.split(options.engine_args)
        options.opponent = shlex.split(options.opponent)
        options.referee = (None if options.referee.strip().lower() == "none"
                           else shlex.split(options.referee))
    except ValueError as error:
        parser.error(f"cannot split a command line: {error}")
    if not options.engine or not options.opponent or options.referee == []:
        parser.error("engine command lines must not be empty")
    has_placeholder = any(BUDGET_PLACEHOLDER in word for word in options.opponent)
    if options.balance_time is not None:
        if not 1 <= options.balance_floor <= options.balance_time:
            parser.error("--balance-time must be at least --balance-floor, itself at least 1")
        if not has_placeholder:
            parser.error(f"--balance-time needs {BUDGET_PLACEHOLDER} in engine B's command")
    elif has_placeholder:
        parser.error(f"engine B's command holds {BUDGET_PLACEHOLDER}: give --balance-time")
    return options


def prepare_out_directory(requested: str | None, force: bool) -> Path:
    if requested is None:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        directory = Path("matches") / stamp
        suffix = 1
        while directory.exists():
            suffix += 1
            directory = Path("matches") / f"{stamp}-{suffix}"
    else:
        directory = Path(requested)
        if (directory / "results.dat").exists() and not force:
            raise ValueError(f"{directory / 'results.dat'} exists; use --force to overwrite")
    (directory / "logs").mkdir(parents=True, exist_ok=True)
    return directory


def terminate_on_sigterm(signal_number, frame) -> None:
    raise KeyboardInterrupt


def main(arguments: list[str]) -> int:
    options = parse_arguments(arguments)
    if options.self_test:
        return run_self_test()
    try:
        out_directory = prepare_out_directory(options.out, options.force)
    except (OSError, ValueError) as error:
        print(f"match.py: {error}", file=sys.stderr)
        return 2
    probe_log = (lambda who: None) if options.quiet_stderr else (
        lambda who: out_directory / "logs" / f"probe-{who}.stderr")
    try:
        engines = {"A": probe_engine(options.engine, "engine A", options.size, probe_log("A")),
                   "B": probe_engine(options.opponent, "engine B", options.size, probe_log("B"),
                                     options.balance_time or 0)}
        referee = None
        if options.referee is not None:
            referee = probe_engine(options.referee, "referee", options.size, probe_log("referee"))
            if not referee.supports("final_score"):
                raise ValueError(f"referee {shlex.join(options.referee)} lacks final_score")
    except (EngineFailure, ValueError) as error:
        print(f"match.py: {error}", file=sys.stderr)
        return 2
    config = MatchConfig(
        engines=engines, referee=referee, size=options.size, komi=options.komi,
        games=options.games, first_game=options.first_game, alternate=options.alternate,
        time_settings=options.time_settings,
        time_tolerance=options.time_tolerance, move_timeout=options.move_timeout,
        max_moves=options.max_moves, random_opening=options.random_opening, seed=options.seed,
        out_directory=out_directory, quiet_stderr=options.quiet_stderr, log_gtp=options.log_gtp,
        start_positions=options.start_position_list,
        start_positions_file=options.start_positions or "",
        balancer=(TimeBalancer(options.balance_time, options.balance_floor)
                  if options.balance_time else None))
    match = Match(config, options.sprt)
    print(f"Engine A: {engines['A'].display_name}; engine B: {engines['B'].display_name}; "
          f"output in {out_directory}", flush=True)
    signal.signal(signal.SIGTERM, terminate_on_sigterm)
    try:
        match.run(options.parallel)
    except KeyboardInterrupt:
        print("\nInterrupted; games in progress were discarded.\n", flush=True)
        print(match.summary(), end="", flush=True)
        return 130
    print(flush=True)
    print(match.summary(), end="", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
