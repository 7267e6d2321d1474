#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""A stand-in for KataGo in the teacher scripts' self-tests: a GTP program that answers the
commands generate.py sends (boardsize, clear_board, komi, play, fixed_handicap,
set_free_handicap, kata-set-rules, kata-set-rule, kata-get-rules, kata-raw-nn, quit) in
KataGo's formats, with made-up numbers that depend only on the position.

It knows the rules through read_check.Board (captures, simple ko, no suicide): its policy is
NAN on occupied and illegal points and otherwise a weight hashed from the stones and the
point; its ownership gives stones to their colour. Command-line arguments (KataGo's `gtp
-model ... -config ...`) are ignored. Python 3 standard library only.
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_check  # noqa: E402

BLACK, WHITE, EMPTY = read_check.BLACK, read_check.WHITE, read_check.EMPTY


def weight(key):
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "little")


class Teacher:
    def __init__(self):
        self.size = 19
        self.clear()

    def clear(self):
        self.board = read_check.Board(self.size)
        self.to_move = BLACK

    def legal(self, p, colour):
        if self.board.cells[p] != EMPTY:
            return False
        trial = read_check.Board(self.size)
        trial.cells = list(self.board.cells)
        trial.ko = self.board.ko
        return trial.play(p, colour) is None

    def raw_nn(self):
        size, cells = self.size, self.board.cells
        key = "".join(".XO"[(c == BLACK) + 2 * (c == WHITE)] for c in cells)
        raw = [weight(f"{key}/{p}") % 97 + 1 if self.legal(p, self.to_move) else None for p in range(size * size)]
        pass_weight = 3
        total = sum(w for w in raw if w) + pass_weight
        win = (weight(key) % 1000) / 1000
        rows = lambda values: [" ".join(values[r * size:(r + 1) * size]) for r in range(size)]  # noqa: E731
        policy = ["NAN" if w is None else f"{w / total:.6f}" for w in raw]
        own = [f"{1.0 if c == WHITE else -1.0 if c == BLACK else 0.0:.6f}" for c in cells]
        return "\n".join(["symmetry 0", f"whiteWin {win:.6f}", f"whiteLoss {1 - win:.6f}", "noResult 0.000000",
                          f"whiteLead {20 * win - 10:.3f}", "policy", *rows(policy),
                          f"policyPass {pass_weight / total:.6f}", "whiteOwnership", *rows(own)])

    def answer(self, words):
        command, arguments = words[0], words[1:]
        if command == "boardsize":
            self.size = int(arguments[0])
            self.clear()
        elif command == "clear_board":
            self.clear()
        elif command in ("komi", "kata-set-rules", "kata-set-rule"):
            pass
        elif command == "kata-get-rules":
            return '{"ko":"SIMPLE","scoring":"AREA","suicide":false,"fake":true}'
        elif command == "play":
            colour = BLACK if arguments[0].lower().startswith("b") else WHITE
            why = self.board.play(read_check.parse_vertex(arguments[1], self.size), colour)
            if why:
                raise ValueError(f"illegal move ({why})")
            self.to_move = BLACK + WHITE - colour
        elif command in ("fixed_handicap", "set_free_handicap"):
            if command == "fixed_handicap":
                edge = 2 if self.size <= 9 else 3
                corners = [(edge, edge), (self.size - 1 - edge, self.size - 1 - edge),
                           (edge, self.size - 1 - edge), (self.size - 1 - edge, edge)]
                arguments = [read_check.vertex(r * self.size + c, self.size)
                             for r, c in corners[:int(arguments[0])]]
            for v in arguments:
                self.board.cells[read_check.parse_vertex(v, self.size)] = BLACK
            self.to_move = WHITE
            return " ".join(arguments) if command == "fixed_handicap" else ""
        elif command == "kata-raw-nn":
            return self.raw_nn()
        elif command == "quit":
            return None
        else:
            raise ValueError("unknown command")
        return ""


def main():
    teacher = Teacher()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            text = teacher.answer(words)
        except (ValueError, IndexError, TypeError) as error:
            sys.stdout.write(f"? {error}\n\n")
        else:
            sys.stdout.write(f"= {text or ''}\n\n")
            if text is None:
                sys.stdout.flush()
                return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
