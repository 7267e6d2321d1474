#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Play a match of Margo or Abalone between two GTP engines and report the results.

Engine A (by default the ishi release binary) plays engine B.  Every move is
replayed on a referee (by default a separate ishi process for the same game),
which refuses illegal moves, says when the game is over (before each genmove
it is asked `all_legal_moves COLOR` for the side to move: an empty list ends
the game) and scores finished games with `final_score`.  The statistics, the
GTP client, clocks and timeouts are those of scripts/match.py, imported from
it.  Python 3 standard library only.

Examples:

    python3 scripts/games_match.py --game abalone --games 20 -j 2 \\
        --engine "target/release/ishi --game abalone --threads 1 --seed {game} --move-time 0.5" \\
        --opponent "target/release/ishi --game abalone --threads 1 --seed {game} --move-time 0.5 --param abalone_player=0"
    python3 scripts/games_match.py --game margo --no-swap --games 8 \\
        --opponent "node tests/jocly/jocly-margo-gtp.mjs --level medium --seed {game}"
    python3 scripts/games_match.py --self-test

`{game}` in a command line is replaced by the game's number (0, 1, ...).

Schedule ("colours and first mover alternate"): engine A plays Black in even
games and White in odd ones.  In Margo either colour may move first, and the
colour that moves first changes every two games, so each block of four games
holds every combination once:

    game % 4    A's colour   first colour   first mover
    0           Black        Black          A
    1           White        Black          B
    2           Black        White          B
    3           White        White          A

--first-colour black|white fixes the first colour instead.  In Abalone Black
always moves first, so only the colours alternate (A moves first in even
games).  --no-alternate keeps A on Black.

Setting up the engines: each game starts fresh processes of A, B and the
referee, and sends them `boardsize N` (Abalone: 9) and `clear_board`.  ishi
processes (those whose list_commands has the command) also get `ishi-start
START` (Abalone) or `ishi-swap off` (Margo with --no-swap), and, when
--max-plies is given, `--max-plies N` appended to their command line (ishi
has no GTP command for it).  Other engines get boardsize and clear_board
only: give them the start position, move cap and swap rule with their own
flags.

Game end: the referee's empty legal-move list for the side to move (scored by
the referee's final_score: more balls in Margo, more ejections in Abalone or
at the move cap, `0` a draw), a resignation, an illegal move (the referee
refusing it: the mover loses), a move the referee accepted but the other
engine refused (that engine loses), a `? game over` or other failed genmove
while the referee still lists moves (the mover loses), a crash, no answer
within --move-timeout (killed, loses), or a loss on time (--time-settings).
A referee fault leaves the game without result.  A Margo `swap` answer is
relayed as `play COLOR swap`.

Output in --out DIR: game-NNNN.txt (header and the listing of the referee's
`ishi-record`: `1 C5* 2 E5 ...` in the designer's Margo format, `1 c3d3 2
a4b4 ...` for Abalone, ` N Resign` appended after a resignation),
results.tsv (one row per game), summary.txt (rewritten after every game) and
logs/game-NNNN-{A,B,R}.stderr.

Exit status: 0 when the match ran, 1 when --self-test fails, 2 for bad options
or an engine that cannot be started, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import datetime
import math
import re
import shlex
import signal
import sys
import threading
import time
import traceback
import unittest
from pathlib import Path

SCRIPTS_DIRECTORY = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS_DIRECTORY))
import match  # noqa: E402  (scripts/match.py: statistics, GTP client, clock)

REPOSITORY_ROOT = SCRIPTS_DIRECTORY.parent
ISHI = str(REPOSITORY_ROOT / "target" / "release" / "ishi")
BLACK, WHITE = match.BLACK, match.WHITE
ROLES = ("A", "B")
GAMES = ("margo", "abalone")
STARTS = ("standard", "belgian", "german")
COLOUR_WORD = {BLACK: "black", WHITE: "white"}

REASON_TEXT = {
    "end": "game over, scored by the referee",
    "move-cap": "runner's move cap reached, scored by the referee as it stands",
    "resign": "{loser} resigned",
    "time": "{loser} lost on time",
    "illegal": "{loser} played an illegal move",
    "refused": "{loser} refused a move the referee accepted",
    "crash": "{loser} crashed",
    "hang": "{loser} hung and was killed",
    "error": "{loser} failed a command",
    "referee": "the referee failed; no result",
    "runner": "runner fault; no result",
}
FAULTS = ("resign", "time", "illegal", "refused", "crash", "hang", "error")
FAULT_LABELS = {"resign": "Resignations", "time": "Losses on time", "illegal": "Illegal moves",
                "refused": "Refused legal moves", "crash": "Crashes",
                "hang": "Hangs (killed)", "error": "Failed commands"}
RESULT_CODES = {"resign": "R", "time": "T"}
TSV_COLUMNS = ("game", "a_colour", "first", "result", "reason", "moves",
               "a_seconds", "b_seconds", "a_outcome", "detail")


class RefereeFailure(Exception):
    """The referee crashed, hung or refused a setup command: the game has no result."""


# ---------------------------------------------------------------------------
# Pure parts: schedule, answers, listings
# ---------------------------------------------------------------------------

def a_colour_of(index: int, alternate: bool = True) -> str:
    """Engine A plays Black in even games (always, without alternation)."""
    return BLACK if index % 2 == 0 or not alternate else WHITE


def first_colour_of(game: str, index: int, first: str = "alternate") -> str:
    """Colour of the first move of game `index`.

    Abalone: always Black.  Margo: Black in games 0 and 1 of every block of
    four, White in games 2 and 3 (or the colour fixed by --first-colour).
    """
    if game == "abalone" or first == "black":
        return BLACK
    if first == "white":
        return WHITE
    return BLACK if (index // 2) % 2 == 0 else WHITE


def first_mover_of(game: str, index: int, first: str = "alternate",
                   alternate: bool = True) -> str:
    """Role ('A' or 'B') that makes the first move of game `index`."""
    return "A" if first_colour_of(game, index, first) == a_colour_of(index, alternate) else "B"


def classify_genmove(success: bool, text: str, game: str) -> tuple[str, str]:
    """A genmove answer as (kind, move): kind is move, swap, resign, game-over or failure."""
    word = text.strip()
    lowered = word.lower()
    if not success:
        return ("game-over" if "game over" in lowered else "failure", word)
    if lowered == "resign":
        return ("resign", "")
    if game == "margo" and lowered in ("swap", "swap-pieces"):
        return ("swap", "swap")
    if not word or len(word.split()) != 1:
        return ("failure", word)
    return ("move", word.upper() if game == "margo" else lowered)


def is_swap(move: str) -> bool:
    return move.lower() in ("swap", "swap-pieces")


def own_listing(game: str, moves: list[tuple[str, str]]) -> str:
    """The designer's listing built from the moves, for referees without ishi-record.

    Margo: a swap is no numbered move; it puts `*` after move 1.
    """
    parts: list[str] = []
    number = 0
    for _, move in moves:
        if is_swap(move):
            if parts:
                parts[-1] += "*"
            continue
        number += 1
        parts.append(f"{number} {move}")
    return " ".join(parts)


def listing_length(listing: str) -> int:
    """Number of numbered moves in a listing."""
    return len(re.findall(r"(?:^|\s)\d+\s", listing + " "))


def outcome_of(result: str, a_colour: str) -> str | None:
    """'win', 'draw' or 'loss' of engine A, None when unknown."""
    winner = match.winner_of(result)
    if winner is None:
        return None
    if winner == "0":
        return "draw"
    return "win" if winner == a_colour else "loss"


def wdl_text(counts: dict) -> str:
    return f"{counts['win']}-{counts['draw']}-{counts['loss']}"


def score_line(counts: dict) -> str:
    decided = counts["win"] + counts["draw"] + counts["loss"]
    if not decided:
        return "no decided game"
    score = (counts["win"] + 0.5 * counts["draw"]) / decided
    lower, upper = match.wilson_interval(score, decided)
    return (f"score {100 * score:.1f}% (95% Wilson {100 * lower:.1f}% to {100 * upper:.1f}%), "
            f"Elo {match.format_elo(match.elo_from_score(score))} "
            f"({match.format_elo(match.elo_from_score(lower))} to "
            f"{match.format_elo(match.elo_from_score(upper))})")


# ---------------------------------------------------------------------------
# Engines
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class Engine:
    """What a probe found out about an engine before the match."""
    command: list[str]
    name: str
    version: str
    commands: set[str] | None

    def has(self, command: str) -> bool:
        """Known for sure (list_commands lists it)."""
        return self.commands is not None and command in self.commands

    def supports(self, command: str) -> bool:
        """Worth trying (listed, or no list_commands)."""
        return self.commands is None or command in self.commands

    @property
    def display_name(self) -> str:
        return f"{self.name} {self.version}".strip()

    def describe(self) -> str:
        return f"{self.display_name}  [{shlex.join(self.command)}]"


def probe(command: list[str], label: str, game: str, size: int, max_plies: int | None,
          stderr_path: Path | None) -> Engine:
    """Start an engine once: name, version, commands, the game in force, the board size.

    An ishi engine for Abalone gets `--max-plies N` appended when asked for.
    Raises ValueError when it cannot play this game.
    """
    started = [word.replace("{game}", "0") for word in command]
    try:
        engine = match.GtpEngine(started, label, stderr_path)
    except match.EngineFailure as failure:
        raise ValueError(f"{label} [{shlex.join(command)}]: {failure}") from None
    try:
        name = engine.send("name", match.SETUP_TIMEOUT)
        version = engine.send("version", match.SETUP_TIMEOUT)
        listing = engine.send("list_commands", match.SETUP_TIMEOUT)
        commands = set(listing.text.split()) if listing.success else None
        info = Engine(list(command), name.text if name.success and name.text else label,
                      version.text if version.success else "", commands)
        if info.has("ishi-game"):
            current = engine.send("ishi-game", match.SETUP_TIMEOUT)
            if current.text.strip().lower() != game:
                raise ValueError(f"{label} [{shlex.join(command)}] plays "
                                 f"{current.text.strip() or '?'}, not {game}")
        if not engine.send(f"boardsize {size}", match.SETUP_TIMEOUT).success:
            raise ValueError(f"{label} [{shlex.join(command)}] refuses boardsize {size}")
    except match.EngineFailure as failure:
        raise ValueError(f"{label} [{shlex.join(command)}]: {failure}") from None
    finally:
        engine.close()
    if (game == "abalone" and max_plies is not None and info.has("ishi-start")
            and "--max-plies" not in command):
        info.command = info.command + ["--max-plies", str(max_plies)]
    return info


# ---------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class Config:
    game: str
    engines: dict[str, Engine]
    referee: Engine
    size: int
    start: str
    max_plies: int | None
    no_swap: bool
    games: int
    alternate: bool
    first: str
    time_settings: match.TimeSettings | None
    time_tolerance: float
    move_timeout: float
    move_time: float | None
    max_moves: int
    out_directory: Path
    quiet_stderr: bool
    log_gtp: bool

    @property
    def board_size(self) -> int:
        return self.size if self.game == "margo" else 9

    def describe_game(self) -> str:
        if self.game == "margo":
            return (f"Margo {self.size}x{self.size}, swap "
                    + ("off (--no-swap)" if self.no_swap else "on"))
        plies = self.max_plies if self.max_plies is not None else "engine default"
        return f"Abalone, {self.start} start, max plies {plies}"


@dataclasses.dataclass
class Record:
    index: int
    a_colour: str
    first_colour: str
    moves: list = dataclasses.field(default_factory=list)
    result: str = "?"
    reason: str = ""
    loser_role: str | None = None
    messages: list = dataclasses.field(default_factory=list)
    seconds: dict = dataclasses.field(default_factory=lambda: {"A": 0.0, "B": 0.0})
    listing: str = ""
    notes: list = dataclasses.field(default_factory=list)
    date: str = ""
    duration: float = 0.0

    def colour_of(self, role: str) -> str:
        return self.a_colour if role == "A" else match.opposite(self.a_colour)

    @property
    def first_role(self) -> str:
        return "A" if self.first_colour == self.a_colour else "B"

    def outcome_for_a(self) -> str | None:
        return outcome_of(self.result, self.a_colour)

    def reason_text(self) -> str:
        return REASON_TEXT.get(self.reason, self.reason).format(loser=f"engine {self.loser_role}")


class GamePlay:
    """Plays one game between fresh processes of A, B and the referee."""

    def __init__(self, config: Config, index: int, abort: threading.Event):
        self.config = config
        self.index = index
        self.abort = abort
        self.record = Record(index, a_colour_of(index, config.alternate),
                             first_colour_of(config.game, index, config.first))
        self.players: dict[str, match.Player] = {}
        self.referee: match.GtpEngine | None = None
        self.traffic_log = None
        self.clocks: dict[str, match.Clock] = {}
        if config.time_settings is not None:
            self.clocks = {role: match.Clock(config.time_settings, config.time_tolerance)
                           for role in ROLES}

    def log_path(self, who: str) -> Path | None:
        if self.config.quiet_stderr:
            return None
        return self.config.out_directory / "logs" / f"game-{self.index:04d}-{who}.stderr"

    def command_line(self, info: Engine) -> list[str]:
        return [word.replace("{game}", str(self.index)) for word in info.command]

    def setup_commands(self, info: Engine) -> list[tuple[str, bool]]:
        """(command, required) pairs that set an engine up for the game."""
        config = self.config
        commands = [(f"boardsize {config.board_size}", True)]
        if config.game == "abalone" and info.has("ishi-start"):
            commands.append((f"ishi-start {config.start}", True))
        commands.append(("clear_board", True))
        if config.game == "margo" and config.no_swap and info.has("ishi-swap"):
            commands.append(("ishi-swap off", True))
        if config.time_settings is not None and info is not config.referee:
            commands.append((f"time_settings {config.time_settings.gtp_arguments()}", False))
        return commands

    def ask_referee(self, command: str, timeout: float | None = None) -> match.GtpResponse:
        try:
            return self.referee.send(command, timeout or self.config.move_timeout)
        except match.EngineFailure as failure:
            raise RefereeFailure(f"referee at '{command}': {failure}") from None

    def run(self) -> Record:
        record = self.record
        record.date = datetime.datetime.now().isoformat(timespec="seconds")
        started = time.monotonic()
        if self.config.log_gtp:
            self.traffic_log = open(self.config.out_directory / "logs"
                                    / f"game-{self.index:04d}.gtp", "w", encoding="utf-8")
        try:
            try:
                self.start_processes()
                self.play()
                self.score()
            except match.GameOver as over:
                self.forfeit(over)
            except RefereeFailure as failure:
                record.reason = "referee"
                record.result = "?"
                record.messages.append(str(failure))
            self.fetch_listing()
        finally:
            for player in self.players.values():
                player.engine.close()
            if self.referee is not None:
                self.referee.close()
            if self.traffic_log:
                self.traffic_log.close()
            record.duration = time.monotonic() - started
        return record

    def start_processes(self) -> None:
        referee_info = self.config.referee
        try:
            self.referee = match.GtpEngine(self.command_line(referee_info), "R",
                                           self.log_path("R"), self.traffic_log)
        except match.EngineFailure as failure:
            raise RefereeFailure(f"referee: {failure}") from None
        for command, _ in self.setup_commands(referee_info):
            if not self.ask_referee(command, match.SETUP_TIMEOUT).success:
                raise RefereeFailure(f"referee refused '{command}'")
        for role in ROLES:
            info = self.config.engines[role]
            try:
                engine = match.GtpEngine(self.command_line(info), role, self.log_path(role),
                                         self.traffic_log)
            except match.EngineCrashed as failure:
                raise match.GameOver(role, "crash", f"engine {role}: {failure}") from None
            self.players[role] = match.Player(role, self.record.colour_of(role), info, engine)
        for role, player in self.players.items():
            for command, required in self.setup_commands(player.info):
                if required:
                    player.require(command, match.SETUP_TIMEOUT)
                elif not player.command(command, match.SETUP_TIMEOUT).success:
                    self.record.notes.append(f"engine {role} refused '{command}'")

    def player_of(self, colour: str) -> match.Player:
        return self.players["A" if colour == self.record.a_colour else "B"]

    def play(self) -> None:
        record = self.record
        colour = record.first_colour
        while True:
            if self.abort.is_set():
                raise match.MatchAborted()
            legal = self.ask_referee(f"all_legal_moves {colour}")
            if not legal.success:
                raise RefereeFailure(f"referee refused 'all_legal_moves {colour}': {legal.text}")
            legal_moves = legal.text.split()
            if not legal_moves:
                record.reason = "end"
                return
            if len(record.moves) >= self.config.max_moves:
                record.reason = "move-cap"
                return
            mover = self.player_of(colour)
            receiver = self.player_of(match.opposite(colour))
            kind, move = classify_genmove(*self.generate(mover, colour), self.config.game)
            if kind == "resign":
                raise match.GameOver(mover.role, "resign", "")
            if kind == "game-over":
                raise match.GameOver(mover.role, "error",
                                     f"engine {mover.role} answered genmove {colour} with "
                                     f"'? {move}' while the referee lists "
                                     f"{len(legal_moves)} legal moves")
            if kind == "failure":
                raise match.GameOver(mover.role, "error",
                                     f"engine {mover.role} failed genmove {colour}: {move!r}")
            answer = self.ask_referee(f"play {colour} {move}")
            if not answer.success:
                raise match.GameOver(mover.role, "illegal",
                                     f"engine {mover.role} played {colour} {move}, refused by "
                                     f"the referee: {answer.text}")
            relayed = receiver.command(f"play {colour} {move}", self.config.move_timeout)
            if not relayed.success:
                raise match.GameOver(receiver.role, "refused",
                                     f"engine {receiver.role} refused {colour} {move} "
                                     f"(accepted by the referee): {relayed.text}")
            record.moves.append((colour, move))
            colour = match.opposite(colour)

    def generate(self, mover: match.Player, colour: str) -> tuple[bool, str]:
        """genmove with timing, clock and timeout (as in match.py); (success, text)."""
        config = self.config
        clock = self.clocks.get(mover.role)
        wait_limit = config.move_timeout
        if clock is not None:
            if mover.info.has("time_left"):
                seconds, stones = clock.time_left_arguments()
                mover.command(f"time_left {colour} {seconds} {stones}", config.move_timeout)
            wait_limit = min(wait_limit, clock.allowance() + clock.tolerance + match.CLOCK_GRACE)
        started = time.monotonic()
        try:
            response = mover.engine.send(f"genmove {colour}", wait_limit)
        except match.EngineHung:
            self.record.seconds[mover.role] += time.monotonic() - started
            if wait_limit < config.move_timeout:
                raise match.GameOver(mover.role, "time",
                                     f"engine {mover.role} exceeded its time "
                                     f"(killed after {wait_limit:.1f} s)") from None
            raise match.GameOver(mover.role, "hang",
                                 f"engine {mover.role} gave no move within {wait_limit:g} s "
                                 f"and was killed") from None
        except match.EngineCrashed as failure:
            raise match.GameOver(mover.role, "crash",
                                 f"engine {mover.role} crashed at genmove: {failure}") from None
        elapsed = time.monotonic() - started
        self.record.seconds[mover.role] += elapsed
        if clock is not None and not clock.charge(elapsed):
            raise match.GameOver(mover.role, "time",
                                 f"engine {mover.role} took {elapsed:.1f} s and ran out of time")
        return response.success, response.text

    def score(self) -> None:
        answer = self.ask_referee("final_score")
        score = match.normalise_score(answer.text) if answer.success else "?"
        if match.winner_of(score) is None:
            raise RefereeFailure(f"referee final_score gave {answer.text!r}")
        self.record.result = score

    def forfeit(self, over: match.GameOver) -> None:
        record = self.record
        record.reason = over.reason
        record.loser_role = over.loser_role
        winner = match.opposite(record.colour_of(over.loser_role))
        record.result = f"{winner}+{RESULT_CODES.get(over.reason, 'F')}"
        if over.message:
            record.messages.append(over.message)

    def fetch_listing(self) -> None:
        """The referee's ishi-record, or a listing built here; `N Resign` after a resignation."""
        record = self.record
        listing = ""
        if (self.referee is not None and not self.referee.dead
                and self.config.referee.has("ishi-record")):
            try:
                answer = self.referee.send("ishi-record", match.SETUP_TIMEOUT)
                if answer.success:
                    listing = " ".join(answer.text.split())
            except match.EngineFailure as failure:
                record.notes.append(f"referee ishi-record failed: {failure}")
        if not listing and record.moves:
            listing = own_listing(self.config.game, record.moves)
        if record.reason == "resign":
            listing = (listing + " " if listing else "") + f"{listing_length(listing) + 1} Resign"
        record.listing = listing


def play_game(config: Config, index: int, abort: threading.Event) -> Record | None:
    try:
        record = GamePlay(config, index, abort).run()
    except match.MatchAborted:
        return None
    except Exception:  # keep the match going, but show the fault
        traceback.print_exc()
        record = Record(index, a_colour_of(index, config.alternate),
                        first_colour_of(config.game, index, config.first), reason="runner")
        record.messages.append("runner fault: " + traceback.format_exc().splitlines()[-1])
    return None if abort.is_set() else record


# ---------------------------------------------------------------------------
# Output and statistics
# ---------------------------------------------------------------------------

def game_text(record: Record, config: Config) -> str:
    roles = {record.colour_of(role): role for role in ROLES}
    lines = [
        f"Game: {record.index:04d} ({config.describe_game()})",
        f"Date: {record.date}",
    ]
    for role in ROLES:
        colour = COLOUR_WORD[record.colour_of(role)].capitalize()
        lines.append(f"Engine {role} ({colour}): {config.engines[role].describe()}")
    lines += [
        f"Referee: {config.referee.describe()}",
        f"First move: {COLOUR_WORD[record.first_colour]} (engine {roles[record.first_colour]})",
        f"Result: {record.result} ({record.reason_text()})",
        f"Engine A: {record.outcome_for_a() or 'unknown'}",
        f"Moves: {len(record.moves)}",
        f"Think time: A {record.seconds['A']:.1f} s, B {record.seconds['B']:.1f} s; "
        f"game {record.duration:.1f} s",
    ]
    if config.time_settings:
        lines.append(f"Time settings: {config.time_settings.gtp_arguments()}")
    if config.move_time is not None:
        lines.append(f"Move time (informational): {config.move_time:g} s")
    lines += [f"Error: {message}" for message in record.messages]
    lines += [f"Note: {note}" for note in record.notes]
    lines += ["", record.listing]
    return "\n".join(lines) + "\n"


def tsv_row(record: Record) -> str:
    detail = re.sub(r"\s+", " ", "; ".join(record.messages + record.notes)).strip() or "-"
    values = (f"{record.index:04d}", COLOUR_WORD[record.a_colour], record.first_role,
              record.result, record.reason or "-", str(len(record.moves)),
              f"{record.seconds['A']:.1f}", f"{record.seconds['B']:.1f}",
              record.outcome_for_a() or "unknown", detail)
    return "\t".join(values)


def record_of_row(row: str) -> Record:
    """A finished game read back from a results.tsv row (for --resume).

    The row keeps the result, the reason, the move count and the think times, which is
    all the tally needs; the move list itself stays in the game's own file."""
    fields = row.rstrip("\n").split("\t")
    if len(fields) != len(TSV_COLUMNS):
        raise ValueError(f"results.tsv row with {len(fields)} fields: {row.strip()!r}")
    values = dict(zip(TSV_COLUMNS, fields))
    a_colour = BLACK if values["a_colour"] == COLOUR_WORD[BLACK] else WHITE
    first_colour = a_colour if values["first"] == "A" else match.opposite(a_colour)
    record = Record(int(values["game"]), a_colour, first_colour,
                    moves=[None] * int(values["moves"]), result=values["result"],
                    reason="" if values["reason"] == "-" else values["reason"],
                    seconds={"A": float(values["a_seconds"]), "B": float(values["b_seconds"])})
    if values["detail"] != "-":
        record.notes.append(values["detail"])
    outcome = record.outcome_for_a()
    if outcome in ("win", "loss") and record.reason in FAULTS:
        record.loser_role = "B" if outcome == "win" else "A"
    return record


def empty_counts() -> dict:
    return {"win": 0, "draw": 0, "loss": 0}


def tally(records) -> dict:
    """Counts of engine A's results overall, per colour and per first mover, and faults."""
    result = {"all": empty_counts(), "unknown": 0, "games": 0,
              "colour": {BLACK: empty_counts(), WHITE: empty_counts()},
              "first": {"A": empty_counts(), "B": empty_counts()},
              "faults": {reason: {"A": 0, "B": 0} for reason in FAULTS},
              "ends": {}, "seconds": {"A": 0.0, "B": 0.0}, "moves": 0}
    for record in records:
        result["games"] += 1
        result["moves"] += len(record.moves)
        result["ends"][record.reason] = result["ends"].get(record.reason, 0) + 1
        for role in ROLES:
            result["seconds"][role] += record.seconds[role]
        if record.loser_role and record.reason in FAULTS:
            result["faults"][record.reason][record.loser_role] += 1
        outcome = record.outcome_for_a()
        if outcome is None:
            result["unknown"] += 1
            continue
        result["all"][outcome] += 1
        result["colour"][record.a_colour][outcome] += 1
        result["first"][record.first_role][outcome] += 1
    return result


@dataclasses.dataclass
class SprtState:
    sprt: match.Sprt

    def llr(self, counts: dict) -> float:
        return match.sprt_log_likelihood_ratio(counts["win"], counts["draw"], counts["loss"],
                                               self.sprt.elo0, self.sprt.elo1)


def summary_text(config: Config, records, sprt: match.Sprt | None, verdict: str | None,
                 interrupted: bool = False) -> str:
    counts = tally(records)
    overall = counts["all"]
    decided = overall["win"] + overall["draw"] + overall["loss"]
    lines = [
        f"Game: {config.describe_game()}",
        f"Engine A: {config.engines['A'].describe()}",
        f"Engine B: {config.engines['B'].describe()}",
        f"Referee:  {config.referee.describe()}",
        "Schedule: A plays Black in even games"
        + (", White in odd ones" if config.alternate else " (no alternation: always Black)")
        + ("; Black moves first" if config.game == "abalone" or config.first == "black"
           else "; White moves first" if config.first == "white"
           else "; Black moves first in games 0,1 of every 4, White in games 2,3"),
    ]
    if config.time_settings:
        lines.append(f"Time settings: {config.time_settings.gtp_arguments()} "
                     f"(tolerance {config.time_tolerance:g} s)")
    if config.move_time is not None:
        lines.append(f"Move time (informational): {config.move_time:g} s")
    lines += [
        f"Games: {counts['games']} played, {decided} with a result, {counts['unknown']} unknown"
        + (" (match interrupted)" if interrupted else ""),
        f"Engine A: {overall['win']} wins, {overall['draw']} draws, {overall['loss']} losses"
        f" (W-D-L {wdl_text(overall)})",
        f"Engine A: {score_line(overall)}",
    ]
    for colour in (BLACK, WHITE):
        part = counts["colour"][colour]
        lines.append(f"A as {COLOUR_WORD[colour]}: W-D-L {wdl_text(part)}; {score_line(part)}")
    for role, label in (("A", "A moved first"), ("B", "B moved first")):
        part = counts["first"][role]
        lines.append(f"{label}: W-D-L {wdl_text(part)}; {score_line(part)}")
    if counts["games"]:
        games = counts["games"]
        lines.append(f"Average game: {counts['moves'] / games:.1f} moves; think time per game "
                     f"A {counts['seconds']['A'] / games:.1f} s, "
                     f"B {counts['seconds']['B'] / games:.1f} s")
    ends = ", ".join(f"{reason or '?'} {number}" for reason, number in sorted(counts["ends"].items()))
    lines.append(f"Ends: {ends or 'none'}")
    for reason in FAULTS:
        faults = counts["faults"][reason]
        lines.append(f"{FAULT_LABELS[reason]}: A {faults['A']}, B {faults['B']}")
    if sprt is not None:
        lower, upper = sprt.bounds
        llr = SprtState(sprt).llr(overall)
        lines.append(f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} "
                     f"beta={sprt.beta:g}: LLR {llr:+.2f}, bounds [{lower:+.2f}, {upper:+.2f}]: "
                     + (verdict or "no decision"))
    lines.append(f"Output: {config.out_directory}")
    return "\n".join(lines) + "\n"


class GamesMatch:
    """Collects records, writes the output files, runs games in parallel."""

    def __init__(self, config: Config, sprt: match.Sprt | None):
        self.config = config
        self.sprt = sprt
        self.records: dict[int, Record] = {}
        self.verdict: str | None = None
        self.interrupted = False

    def summary(self) -> str:
        ordered = [self.records[index] for index in sorted(self.records)]
        return summary_text(self.config, ordered, self.sprt, self.verdict, self.interrupted)

    def add(self, record: Record) -> str:
        self.records[record.index] = record
        directory = self.config.out_directory
        match.write_atomically(directory / f"game-{record.index:04d}.txt",
                               game_text(record, self.config))
        rows = [tsv_row(self.records[index]) for index in sorted(self.records)]
        match.write_atomically(directory / "results.tsv",
                               "\n".join(["\t".join(TSV_COLUMNS)] + rows) + "\n")
        counts = tally(self.records.values())["all"]
        if self.sprt is not None and self.verdict is None:
            self.verdict = self.sprt.verdict(SprtState(self.sprt).llr(counts))
        match.write_atomically(directory / "summary.txt", self.summary())
        decided = counts["win"] + counts["draw"] + counts["loss"]
        rate = (counts["win"] + 0.5 * counts["draw"]) / decided if decided else 0.0
        line = (f"[{len(self.records):>4}/{self.config.games}] game {record.index:04d}"
                f"  A={COLOUR_WORD[record.a_colour]:<5} first={record.first_role}"
                f"  {record.result:<6} {len(record.moves):>4} moves"
                f"  A {wdl_text(counts)} (W-D-L) {100.0 * rate:5.1f}%"
                f"  think A {record.seconds['A']:.0f} s B {record.seconds['B']:.0f} s")
        if self.sprt is not None:
            lower, upper = self.sprt.bounds
            line += f"  LLR {SprtState(self.sprt).llr(counts):+.2f} [{lower:+.2f}, {upper:+.2f}]"
        line += f"  ({record.reason_text()})"
        if record.messages:
            line += ": " + "; ".join(record.messages)
        return line

    def resume(self) -> None:
        """Reads back the games an earlier run of the same match finished."""
        path = self.config.out_directory / "results.tsv"
        if path.exists():
            for row in path.read_text(encoding="utf-8").splitlines()[1:]:
                if row.strip():
                    record = record_of_row(row)
                    self.records[record.index] = record

    def run(self, parallel: int) -> None:
        abort = threading.Event()
        # Game numbers still to play (all of them, unless --resume read some back).
        pending = [index for index in range(self.config.games) if index not in self.records]
        pending.reverse()
        running: set[concurrent.futures.Future] = set()
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=parallel,
                                                         thread_name_prefix="game")
        try:
            while True:
                while self.verdict is None and pending and len(running) < parallel:
                    running.add(executor.submit(play_game, self.config, pending.pop(), abort))
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
            match.LIVE_ENGINES.kill_all()
            raise
        finally:
            executor.shutdown(wait=True, cancel_futures=True)
            match.write_atomically(self.config.out_directory / "summary.txt", self.summary())


# ---------------------------------------------------------------------------
# Self test
# ---------------------------------------------------------------------------

class ScheduleTest(unittest.TestCase):
    def test_margo_block_of_four(self):
        rows = [(a_colour_of(k), first_colour_of("margo", k), first_mover_of("margo", k))
                for k in range(8)]
        self.assertEqual(rows[:4], [(BLACK, BLACK, "A"), (WHITE, BLACK, "B"),
                                    (BLACK, WHITE, "B"), (WHITE, WHITE, "A")])
        self.assertEqual(rows[4:], rows[:4])
        self.assertEqual(len(set(rows[:4])), 4)

    def test_abalone_and_fixed(self):
        for k in range(6):
            self.assertEqual(first_colour_of("abalone", k), BLACK)
            self.assertEqual(first_mover_of("abalone", k), "A" if k % 2 == 0 else "B")
            self.assertEqual(first_colour_of("margo", k, "white"), WHITE)
            self.assertEqual(a_colour_of(k, alternate=False), BLACK)


class ParsingTest(unittest.TestCase):
    def test_genmove_answers(self):
        self.assertEqual(classify_genmove(True, "c5", "margo"), ("move", "C5"))
        self.assertEqual(classify_genmove(True, "A1B2", "abalone"), ("move", "a1b2"))
        self.assertEqual(classify_genmove(True, "Swap", "margo"), ("swap", "swap"))
        self.assertEqual(classify_genmove(True, "swap-pieces", "margo"), ("swap", "swap"))
        self.assertEqual(classify_genmove(True, "swap", "abalone"), ("move", "swap"))
        self.assertEqual(classify_genmove(True, "resign", "abalone"), ("resign", ""))
        self.assertEqual(classify_genmove(False, "game over", "margo")[0], "game-over")
        self.assertEqual(classify_genmove(False, "not black's turn", "margo")[0], "failure")
        self.assertEqual(classify_genmove(True, "", "margo")[0], "failure")
        self.assertEqual(classify_genmove(True, "a1 b2", "abalone")[0], "failure")

    def test_scores_and_outcomes(self):
        self.assertEqual(match.normalise_score("W+3"), "W+3")
        self.assertEqual(match.normalise_score("0"), "0")
        self.assertEqual(outcome_of("W+3", WHITE), "win")
        self.assertEqual(outcome_of("W+R", BLACK), "loss")
        self.assertEqual(outcome_of("0", BLACK), "draw")
        self.assertIsNone(outcome_of("?", BLACK))

    def test_listings(self):
        moves = [(WHITE, "C5"), (BLACK, "swap"), (WHITE, "E5"), (BLACK, "J4")]
        self.assertEqual(own_listing("margo", moves), "1 C5* 2 E5 3 J4")
        self.assertEqual(own_listing("abalone", [(BLACK, "c3d3"), (WHITE, "a4b4")]),
                         "1 c3d3 2 a4b4")
        self.assertEqual(listing_length("1 C5* 2 E5 3 J4"), 3)
        self.assertEqual(listing_length(""), 0)


class SummaryTest(unittest.TestCase):
    @staticmethod
    def config() -> Config:
        engine = Engine(["x"], "x", "1", set())
        return Config("margo", {"A": engine, "B": engine}, engine, 6, "belgian", None, True,
                      4, True, "alternate", None, 1.0, 60.0, None, 200, Path("/tmp/x"),
                      True, False)

    def test_tally_and_summary(self):
        records = []
        for index, result, reason, loser in ((0, "B+2", "end", None), (1, "B+R", "resign", "A"),
                                             (2, "0", "end", None), (3, "?", "referee", None),
                                             (4, "W+F", "illegal", "B")):
            record = Record(index, a_colour_of(index), first_colour_of("margo", index),
                            result=result, reason=reason, loser_role=loser)
            record.seconds = {"A": 2.0, "B": 1.0}
            records.append(record)
        counts = tally(records)
        self.assertEqual(counts["all"], {"win": 1, "draw": 1, "loss": 2})
        self.assertEqual(counts["unknown"], 1)
        self.assertEqual(counts["colour"][BLACK], {"win": 1, "draw": 1, "loss": 1})
        self.assertEqual(counts["first"]["A"], {"win": 1, "draw": 0, "loss": 1})
        self.assertEqual(counts["faults"]["illegal"], {"A": 0, "B": 1})
        text = summary_text(self.config(), records, match.Sprt(0, 10, 0.05, 0.05), None)
        self.assertIn("W-D-L 1-1-2", text)
        self.assertIn("Illegal moves: A 0, B 1", text)
        self.assertIn("Resignations: A 1, B 0", text)
        self.assertIn("think time per game A 2.0 s, B 1.0 s", text)
        self.assertIn("score 37.5%", text)
        self.assertIn("SPRT", text)
        self.assertEqual(tsv_row(records[4]).split("\t")[:6],
                         ["0004", "black", "A", "W+F", "illegal", "0"])

    def test_resume_reads_back_the_tally(self):
        records = []
        for index, result, reason, loser in ((0, "B+2", "end", None), (1, "B+R", "resign", "A"),
                                             (2, "0", "end", None), (3, "W+F", "illegal", "B")):
            record = Record(index, a_colour_of(index), first_colour_of("margo", index),
                            moves=["a"] * (index + 3), result=result, reason=reason,
                            loser_role=loser)
            record.seconds = {"A": 2.5, "B": 1.0}
            records.append(record)
        read_back = [record_of_row(tsv_row(record)) for record in records]
        self.assertEqual(tally(read_back), tally(records))
        self.assertEqual([record.first_role for record in read_back],
                         [record.first_role for record in records])


def run_self_test() -> int:
    suite = unittest.TestSuite()
    loader = unittest.defaultTestLoader
    for case in (ScheduleTest, ParsingTest, SummaryTest, match.StatisticsTest):
        suite.addTests(loader.loadTestsFromTestCase(case))
    return 0 if unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful() else 1


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def parse_arguments(arguments: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="games_match.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=GAMES, help="margo or abalone (required)")
    parser.add_argument("--engine", metavar="COMMAND",
                        help="engine A (default: target/release/ishi --game GAME --threads 1 "
                             "--seed {game}); A plays Black in even games")
    parser.add_argument("--opponent", metavar="COMMAND", help="engine B (default: as --engine)")
    parser.add_argument("--referee", metavar="COMMAND",
                        help="GTP referee replaying every move (default: target/release/ishi "
                             "--game GAME --threads 1); it needs all_legal_moves, play and "
                             "final_score")
    parser.add_argument("--size", type=int, default=6, help="Margo holes a side (default 6)")
    parser.add_argument("--start", choices=STARTS, default="belgian",
                        help="Abalone start, sent as ishi-start to ishi processes "
                             "(default %(default)s)")
    parser.add_argument("--max-plies", type=int, metavar="N",
                        help="Abalone move cap: --max-plies N appended to ishi command lines")
    parser.add_argument("--no-swap", action="store_true",
                        help="Margo: send 'ishi-swap off' to ishi engines and the referee")
    parser.add_argument("--first-colour", "--first-color", dest="first", default="alternate",
                        choices=("alternate", "black", "white"),
                        help="Margo: colour of the first move (default: alternate every two "
                             "games)")
    parser.add_argument("--no-alternate", dest="alternate", action="store_false",
                        help="engine A always plays Black")
    parser.add_argument("--games", type=int, default=100, help="games (SPRT: at most)")
    parser.add_argument("-j", "--parallel", type=int, default=1, metavar="N",
                        help="games at once, each with its own processes")
    parser.add_argument("--move-timeout", type=float, default=60.0, metavar="S",
                        help="no answer within S seconds: killed and lost (default 60)")
    parser.add_argument("--move-time", type=float, metavar="S",
                        help="the engines' move time, written in the records only")
    parser.add_argument("--time-settings", metavar="'M B S'",
                        help="time_settings sent to A and B; clocks kept, losses on time")
    parser.add_argument("--time-tolerance", type=float, default=1.0, metavar="S",
                        help="lenience per move before a loss on time (default 1)")
    parser.add_argument("--max-moves", type=int, metavar="N",
                        help="runner's safety cap, then scored as it stands (default: Margo "
                             "3*size^3, Abalone max plies + 10 or 1000)")
    parser.add_argument("--sprt", metavar="ELO0,ELO1",
                        help="stop when the SPRT decides; write a negative ELO0 as --sprt=-5,5")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--out", metavar="DIR", help="output (default matches/GAME-<timestamp>)")
    parser.add_argument("--force", action="store_true", help="overwrite a results.tsv in --out")
    parser.add_argument("--resume", action="store_true",
                        help="keep the games finished in --out's results.tsv and play the rest")
    parser.add_argument("--quiet-stderr", action="store_true", help="no logs/*.stderr")
    parser.add_argument("--log-gtp", action="store_true", help="keep logs/game-NNNN.gtp")
    parser.add_argument("--self-test", action="store_true", help="run the unit tests and exit")
    options = parser.parse_args(arguments)
    if options.self_test:
        return options
    if options.game is None:
        parser.error("--game margo|abalone is required")
    if options.game == "margo" and not 4 <= options.size <= 9:
        parser.error("--size must lie between 4 and 9")
    if options.games < 1 or options.parallel < 1:
        parser.error("--games and -j must be at least 1")
    if options.move_timeout <= 0 or options.time_tolerance < 0:
        parser.error("--move-timeout must be positive and --time-tolerance non-negative")
    if options.max_plies is not None and options.max_plies < 1:
        parser.error("--max-plies must be at least 1")
    if options.max_moves is None:
        options.max_moves = (3 * options.size ** 3 if options.game == "margo"
                             else (options.max_plies + 10 if options.max_plies else 1000))
    if options.time_settings is not None:
        try:
            options.time_settings = match.TimeSettings.parse(options.time_settings)
        except ValueError as error:
            parser.error(f"--time-settings: {error}")
    if options.sprt is not None:
        try:
            elo0, elo1 = (float(part) for part in options.sprt.split(","))
        except ValueError:
            parser.error("--sprt takes two numbers: ELO0,ELO1")
        if not elo0 < elo1 or not (0 < options.alpha < 0.5 and 0 < options.beta < 0.5):
            parser.error("--sprt needs ELO0 < ELO1 and alpha, beta in (0, 0.5)")
        options.sprt = match.Sprt(elo0, elo1, options.alpha, options.beta)
    default_engine = f"{shlex.quote(ISHI)} --game {options.game} --threads 1 --seed {{game}}"
    options.engine = options.engine or default_engine
    options.opponent = options.opponent or default_engine
    options.referee = options.referee or f"{shlex.quote(ISHI)} --game {options.game} --threads 1"
    try:
        for name in ("engine", "opponent", "referee"):
            setattr(options, name, shlex.split(getattr(options, name)))
    except ValueError as error:
        parser.error(f"cannot split a command line: {error}")
    if not (options.engine and options.opponent and options.referee):
        parser.error("command lines must not be empty")
    return options


def prepare_out_directory(requested: str | None, game: str, force: bool,
                          resume: bool = False) -> Path:
    if requested is None:
        directory = Path("matches") / f"{game}-{datetime.datetime.now():%Y%m%d-%H%M%S}"
    else:
        directory = Path(requested)
        if (directory / "results.tsv").exists() and not (force or resume):
            raise ValueError(f"{directory / 'results.tsv'} exists; use --force to overwrite")
    (directory / "logs").mkdir(parents=True, exist_ok=True)
    return directory


def main(arguments: list[str]) -> int:
    options = parse_arguments(arguments)
    if options.self_test:
        return run_self_test()
    try:
        out_directory = prepare_out_directory(options.out, options.game, options.force,
                                              options.resume)
    except (OSError, ValueError) as error:
        print(f"games_match.py: {error}", file=sys.stderr)
        return 2
    size = options.size if options.game == "margo" else 9

    def probe_log(who: str) -> Path | None:
        return None if options.quiet_stderr else out_directory / "logs" / f"probe-{who}.stderr"

    try:
        engines = {role: probe(command, f"engine {role}", options.game, size,
                               options.max_plies, probe_log(role))
                   for role, command in (("A", options.engine), ("B", options.opponent))}
        referee = probe(options.referee, "referee", options.game, size, options.max_plies,
                        probe_log("R"))
        for needed in ("play", "all_legal_moves", "final_score"):
            if not referee.supports(needed):
                raise ValueError(f"the referee lacks {needed}")
    except ValueError as error:
        print(f"games_match.py: {error}", file=sys.stderr)
        return 2
    config = Config(
        game=options.game, engines=engines, referee=referee, size=options.size,
        start=options.start, max_plies=options.max_plies, no_swap=options.no_swap,
        games=options.games, alternate=options.alternate, first=options.first,
        time_settings=options.time_settings, time_tolerance=options.time_tolerance,
        move_timeout=options.move_timeout, move_time=options.move_time,
        max_moves=options.max_moves, out_directory=out_directory,
        quiet_stderr=options.quiet_stderr, log_gtp=options.log_gtp)
    games_match = GamesMatch(config, options.sprt)
    if options.resume:
        try:
            games_match.resume()
        except (OSError, ValueError) as error:
            print(f"games_match.py: {error}", file=sys.stderr)
            return 2
    print(f"{config.describe_game()}: engine A {engines['A'].display_name}, engine B "
          f"{engines['B'].display_name}, referee {referee.display_name}; output in "
          f"{out_directory}", flush=True)
    signal.signal(signal.SIGTERM, match.terminate_on_sigterm)
    try:
        games_match.run(options.parallel)
    except KeyboardInterrupt:
        print("\nInterrupted; games in progress were discarded.\n", flush=True)
        print(games_match.summary(), end="", flush=True)
        return 130
    print(flush=True)
    print(games_match.summary(), end="", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
