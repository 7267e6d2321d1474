#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Follow ishi's memory through one whole game with pondering, to check that
--max-tree-mb holds.

ishi (with the given arguments; pondering on) plays a game against GNU Go under
real time settings, so that it keeps thinking during GNU Go's turns. Every
--interval seconds the script reads ishi's resident memory (VmRSS) from
/proc/PID/status, and at the end its peak (VmHWM). It prints one line per
ishi move (move number, RSS, tree MiB from `ishi-tree-stats` when that answers)
and a summary line with the peak, so that the figure can be set against the
--max-tree-mb budget. Linux only (/proc). Python 3 standard library only.

Example (19x19, a 256 MiB tree budget, 2 s a move, 2 threads):

    python3 scripts/tree-memory.py --size 19 --seconds-per-move 2 \\
        --engine "target/release/ishi --threads 2 --ponder --max-tree-mb 256"
"""

import argparse
import shlex
import subprocess
import sys
import threading
import time


class Engine:
    """A GTP engine in a subprocess."""

    def __init__(self, command):
        self.process = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if line == "":
                raise RuntimeError(f"engine closed its output after {command!r}")
            line = line.rstrip("\r\n")
            if line == "" and lines:
                break
            if line != "":
                lines.append(line)
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise RuntimeError(f"{command!r} failed: {answer}")
        return answer[1:].strip()

    def close(self):
        try:
            self.send("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.process.wait(timeout=30)


def memory_kib(pid, field):
    """A field of /proc/PID/status in KiB, or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--engine",
        default="target/release/ishi --threads 2 --ponder --max-tree-mb 256",
        help="ishi's command line (add --ponder to think in GNU Go's turns)",
    )
    parser.add_argument(
        "--opponent",
        default="/usr/games/gnugo --mode gtp --level 1 --chinese-rules",
        help="the opponent's command line",
    )
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument(
        "--seconds-per-move",
        type=float,
        default=2.0,
        help="byo-yomi per move for ishi (time_settings 0 S 1)",
    )
    parser.add_argument("--max-moves", type=int, default=400)
    parser.add_argument("--interval", type=float, default=0.2)
    arguments = parser.parse_args()

    ishi = Engine(arguments.engine)
    opponent = Engine(arguments.opponent)
    for engine in (ishi, opponent):
        engine.send(f"boardsize {arguments.size}")
        engine.send("clear_board")
        engine.send(f"komi {arguments.komi}")
    ishi.send(f"time_settings 0 {arguments.seconds_per_move:g} 1")

    pid = ishi.process.pid
    peak_sampled = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            rss = memory_kib(pid, "VmRSS")
            if rss is not None:
                peak_sampled[0] = max(peak_sampled[0], rss)
            time.sleep(arguments.interval)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()

    colours = ("b", "w")
    passes = 0
    move_number = 0
    try:
        while move_number < arguments.max_moves and passes < 2:
            colour = colours[move_number % 2]
            if colour == "b":
                move = ishi.send(f"genmove {colour}")
                rss = memory_kib(pid, "VmRSS")
                print(
                    f"move {move_number + 1:3d} ishi {move:>6}  RSS {rss / 1024:7.1f} MiB",
                    flush=True,
                )
            else:
                move = opponent.send(f"genmove {colour}")
            # A resignation ends the game here: it is not a move to relay.
            if move.lower() == "resign":
                break
            if colour == "b":
                opponent.send(f"play {colour} {move}")
            else:
                ishi.send(f"play {colour} {move}")
            passes = passes + 1 if move.lower() == "pass" else 0
            move_number += 1
        peak = memory_kib(pid, "VmHWM")
    finally:
        done.set()
        sampler.join()
        ishi.close()
        opponent.close()
    print(
        f"{move_number} moves; ishi's peak RSS {peak / 1024:.1f} MiB (VmHWM), "
        f"largest sample {peak_sampled[0] / 1024:.1f} MiB; command: {arguments.engine}"
    )


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, KeyboardInterrupt) as error:
        print(f"tree-memory: {error}", file=sys.stderr)
        sys.exit(1)
