#!/usr/bin/env python3
"""Teacher data: games played by KataGo's raw policy, with its policy, value and ownership.

Python 3 standard library only. Needs KataGo as scripts/opponents/setup-katago.sh builds it.
See scripts/teacher/README.md for the origin, the format and the commands that made the data.

  generate.py --out FILE.jsonl.gz [--size 9] [--minutes M | --games N] [-j WORKERS] [--seed S]
              [--shard K/N]
  generate.py --self-test

Each game: board size --size; komi 7.5 + k (k = 0 half the time, else +-1, +-2, +-3 with
falling odds); with --handicap-prob a handicap start (2..max stones, fixed_handicap or random
set_free_handicap points, White then moves first, komi lowered from a fair guess); with
--random-prob (even games only) 1..K uniformly random opening moves. Every other move is
sampled from the raw policy (`kata-raw-nn 0`, symmetry 0, one network evaluation) at
temperature --temp-early for the first --early-moves moves (default size*size/10), then at a
per-game temperature drawn uniformly from --temp LO:HI. A game ends after two passes in a row
or 3*size*size moves.

Game i of a run with --seed S has the seed S*1000000 + i, recorded in the game; everything
random in the game comes from random.Random(that seed), so a game is reproduced by its seed
and the same settings, binary and network. Games are written whole, one JSON line each (as a
separate gzip member when FILE ends in .gz), flushed after every game. Running the same
command again resumes: games whose seeds the file holds are skipped, and a damaged tail
(interrupted write) is cut off first. --games N asks for games 0..N-1 in the file;
--minutes M stops starting games after M minutes of this run.

--shard K/N (1 <= K <= N) plays only the games i with i % N == K - 1, so N machines (or N
jobs of a scheduler: GNU parallel over ssh, a Slurm array) each run the same command with
their own K and their own --out, and `merge.py OUT SHARD...` puts the files together: the
merge of N shards' files is byte for byte the merge of one run's file (checked by
--self-test against fake_teacher.py, a stand-in for KataGo). See README.md.
"""
import argparse
import gzip
import json
import math
import multiprocessing as mp
import os
import queue
import random
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_check  # noqa: E402  (the reader: iter_lines, vertex helpers)

LETTERS = read_check.LETTERS
SEED_STRIDE = read_check.SEED_STRIDE
MAX_HANDICAP = {9: 3, 13: 5, 19: 9}


def repo_top():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        return subprocess.run(["git", "-C", here, "rev-parse", "--show-toplevel"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return os.path.dirname(os.path.dirname(here))


class GTPError(Exception):
    pass


class KataGo:
    def __init__(self, args, log_path):
        cmd = [args.katago, "gtp", "-model", args.model, "-config", args.config,
               "-override-config", f"numSearchThreads={args.threads},maxVisits=1,logDir={args.log_dir}"]
        self.log = open(log_path, "ab")
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                  text=True, bufsize=1)
        self.size = None

    def cmd(self, c):
        self.p.stdin.write(c + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise GTPError(f"KataGo exited on '{c}' (see {self.log.name})")
            line = line.rstrip("\r\n")
            if not lines and not line:
                continue
            if not line:
                break
            lines.append(line)
        head = lines[0]
        text = "\n".join([head[1:].strip()] + lines[1:])
        if head.startswith("?"):
            raise GTPError(f"'{c}': {text}")
        return text

    def close(self):
        try:
            self.cmd("quit")
        except (GTPError, OSError, ValueError):
            pass
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
        self.log.close()

    def raw_nn(self, size):
        out = self.cmd("kata-raw-nn 0").split("\n")
        r = {}
        i = 0
        policy, own = [], []
        while i < len(out):
            t = out[i].split()
            if not t:
                i += 1
                continue
            if t[0] == "policy":
                for row in out[i + 1:i + 1 + size]:
                    policy.extend(float("nan") if x == "NAN" else float(x) for x in row.split())
                i += 1 + size
            elif t[0] == "whiteOwnership":
                for row in out[i + 1:i + 1 + size]:
                    own.extend(float(x) for x in row.split())
                i += 1 + size
            elif t[0] == "policyPass":
                r["pass"] = float("nan") if t[1] == "NAN" else float(t[1])
                i += 1
            else:
                if len(t) == 2:
                    try:
                        r[t[0]] = float(t[1])
                    except ValueError:
                        pass
                i += 1
        if len(policy) != size * size or len(own) != size * size or "pass" not in r:
            raise GTPError("kata-raw-nn: unexpected output")
        r["policy"] = policy + [r["pass"]]
        r["own"] = own
        return r


def gtp_vertex(p, size):
    return read_check.vertex(p, size)


def pick_komi(rng):
    u = rng.random()
    if u < 0.5:
        k = 0
    else:
        k = rng.choice([1, 1, 1, 1, 1, 2, 2, 2, 3, 3]) * rng.choice([-1, 1])
    return 7.5 + k


def sample(rng, probs, temp, allowed):
    """Sample an index of probs (NaN = illegal) among allowed at temperature temp."""
    w = []
    for i in allowed:
        p = probs[i]
        if p != p or p <= 0:
            continue
        w.append((i, p))
    if not w:
        return None
    if temp <= 0.01:
        return max(w, key=lambda x: x[1])[0]
    lw = [math.log(p) / temp for _, p in w]
    m = max(lw)
    ws = [math.exp(x - m) for x in lw]
    t = rng.random() * sum(ws)
    for (i, _), x in zip(w, ws):
        t -= x
        if t <= 0:
            return i
    return w[-1][0]


def play_game(kg, args, index):
    seed = args.seed * SEED_STRIDE + index
    rng = random.Random(seed)
    size = args.size
    area = size * size
    if kg.size != size:
        kg.cmd(f"boardsize {size}")
        kg.size = size
    kg.cmd("clear_board")
    handicap = []
    komi = pick_komi(rng)
    opening = 0
    if rng.random() < args.handicap_prob and MAX_HANDICAP.get(size, 0) >= 2:
        n = rng.randint(2, MAX_HANDICAP[size])
        if rng.random() < 0.5:
            handicap = kg.cmd(f"fixed_handicap {n}").split()
        else:
            edge = 2 if size <= 9 else 3  # free stones on the third line or further in
            pts = [r * size + c for r in range(edge, size - edge) for c in range(edge, size - edge)]
            handicap = [gtp_vertex(p, size) for p in rng.sample(pts, n)]
            kg.cmd("set_free_handicap " + " ".join(handicap))
        # A stone is worth about two komi (14 points); White moving first gives half of that back.
        fair = 14.0 * (n - 0.5)
        komi = 0.5 + round(rng.uniform(0.5, 1.0) * fair)
    elif rng.random() < args.random_prob:
        opening = rng.randint(1, max(1, area // 20))
    kg.cmd(f"komi {komi}")
    early = args.early_moves if args.early_moves >= 0 else max(1, round(area / 10))
    t_late = rng.uniform(*args.temp)
    colour = "W" if handicap else "B"
    moves, policy, white_win, white_lead, ownership = [], [], [], [], []
    inner = [r * size + c for r in range(1, size - 1) for c in range(1, size - 1)] if size >= 7 else list(range(area))
    passes = 0
    while len(moves) < 3 * area:
        nn = kg.raw_nn(size)
        probs = nn["policy"]
        i = len(moves)
        if i < opening:
            legal = [p for p in inner if probs[p] == probs[p]]
            p = rng.choice(legal) if legal else area
        else:
            temp = args.temp_early if i < early else t_late
            p = sample(rng, probs, temp, range(area + 1))
            if p is None:
                p = area
        mv = "pass" if p == area else gtp_vertex(p, size)
        kg.cmd(f"play {colour} {mv}")
        moves.append(mv)
        policy.append([0 if x != x else int(round(1000 * x)) for x in probs])
        white_win.append(round(nn.get("whiteWin", float("nan")), 3))
        white_lead.append(round(nn.get("whiteLead", float("nan")), 1))
        ownership.append([int(round(100 * x)) for x in nn["own"]])
        colour = "B" if colour == "W" else "W"
        passes = passes + 1 if mv == "pass" else 0
        if passes >= 2:
            break
    return {"size": size, "komi": komi, "rules": "chinese", "handicap": handicap, "seed": seed,
            "opening": opening, "temperature": [args.temp_early, early, round(t_late, 3)],
            "moves": moves, "policy": policy, "white_win": white_win, "white_lead": white_lead,
            "ownership": ownership}


def start_katago(args, wid):
    log = os.path.join(args.log_dir, f"worker{wid}.stderr")
    kg = KataGo(args, log)
    kg.cmd("kata-set-rules chinese")
    # KataGo's chinese rules give White one point per handicap stone; the recorded komi is the
    # whole compensation, so switch that off.
    kg.cmd("kata-set-rule whiteHandicapBonus 0")
    return kg


def worker(wid, args, tasks, results, deadline):
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    kg = start_katago(args, wid)
    results.put(("rules", wid, kg.cmd("kata-get-rules")))
    try:
        while True:
            index = tasks.get()
            if index is None:
                break
            if deadline is not None and time.time() >= deadline:
                continue  # queued before the time ran out: not started
            t0 = time.time()
            g = play_game(kg, args, index)
            results.put(("game", wid, (index, json.dumps(g, separators=(",", ":")), len(g["moves"]),
                                       time.time() - t0)))
    except Exception as e:  # report and stop; the parent stops the run
        results.put(("error", wid, f"{type(e).__name__}: {e}"))
    finally:
        kg.close()
        results.put(("done", wid, None))


def existing_seeds(path):
    """Seeds of the complete games in path; cut off a damaged tail first."""
    seeds = set()
    if not os.path.exists(path):
        return seeds
    good = []
    try:
        for n, line in read_check.iter_lines(path):
            g = json.loads(line)
            seeds.add(g.get("seed"))
            good.append(line)
    except read_check.Truncated as t:
        print(f"generate: {path}: damaged tail after {t.args[0]} games; cutting it off", file=sys.stderr)
        if path.endswith(".gz"):
            tmp = path + ".repair"
            with gzip.open(tmp, "wt", encoding="utf-8") as f:
                f.writelines(good)
            os.replace(tmp, path)
        else:
            with open(path, "r+b") as f:
                f.truncate(t.args[1])
    except json.JSONDecodeError:
        sys.exit(f"generate: {path}: a line is not JSON; refusing to append")
    return seeds


def write_game(path, line):
    if path.endswith(".gz"):
        with open(path, "ab") as raw:
            raw.write(gzip.compress((line + "\n").encode("utf-8"), compresslevel=9))
            raw.flush()
            os.fsync(raw.fileno())
    else:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())


def main():
    top = repo_top()
    kdir = os.environ.get("KATAGO_DIR", os.path.join(os.path.dirname(top), "peers", "katago"))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="output file (.jsonl or .jsonl.gz); appended to")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--games", type=int, help="want games 0..N-1 of this seed in the file")
    ap.add_argument("--minutes", type=float, help="stop starting games after this many minutes")
    ap.add_argument("-j", "--workers", type=int, default=1, help="KataGo processes (default 1)")
    ap.add_argument("--threads", type=int, default=1, help="numSearchThreads per KataGo (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--temp-early", type=float, default=1.0)
    ap.add_argument("--early-moves", type=int, default=-1, help="default size*size/10")
    ap.add_argument("--temp", default="0.4:0.8", help="late temperature range LO:HI, drawn per game")
    ap.add_argument("--handicap-prob", type=float, default=0.1)
    ap.add_argument("--random-prob", type=float, default=0.3)
    ap.add_argument("--katago-dir", default=kdir, help=f"default $KATAGO_DIR or {kdir}")
    ap.add_argument("--katago")
    ap.add_argument("--model")
    ap.add_argument("--config")
    ap.add_argument("--log-dir", default=os.path.join(tempfile.gettempdir(), "ishi-teacher-logs"))
    ap.add_argument("--shard", default="1/1", help="K/N: play only the games i with i %% N == K-1")
    ap.add_argument("--self-test", action="store_true", help="check sharding and resuming, then exit")
    args = ap.parse_args()
    if args.self_test:
        sys.exit(self_test())
    if args.out is None:
        ap.error("give --out")
    if args.games is None and args.minutes is None:
        ap.error("give --games or --minutes")
    try:
        shard, shards = (int(x) for x in args.shard.split("/"))
        if not 1 <= shard <= shards:
            raise ValueError
    except ValueError:
        ap.error(f"--shard {args.shard}: want K/N with 1 <= K <= N")
    lo, hi = (float(x) for x in args.temp.split(":"))
    args.temp = (lo, hi)
    args.katago = args.katago or os.path.join(args.katago_dir, "katago")
    args.model = args.model or os.path.join(args.katago_dir, "b10c384h6nbttflrs.bin.gz")
    args.config = args.config or os.path.join(args.katago_dir, "gtp.cfg")
    for f in (args.katago, args.model, args.config):
        if not os.path.exists(f):
            sys.exit(f"generate: {f} missing (scripts/opponents/setup-katago.sh builds it)")
    os.makedirs(args.log_dir, exist_ok=True)

    done = existing_seeds(args.out)
    base = args.seed * SEED_STRIDE
    todo = (i for i in range(shard - 1, args.games if args.games is not None else SEED_STRIDE, shards)
            if base + i not in done)
    mine = sum(1 for s in done if isinstance(s, int) and base <= s < base + SEED_STRIDE)
    print(f"generate: {args.out} holds {len(done)} games ({mine} of seed {args.seed}); size {args.size}, "
          f"{args.workers} worker(s), shard {shard}/{shards}", file=sys.stderr)

    def on_term(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    t0 = time.time()
    deadline = t0 + 60 * args.minutes if args.minutes is not None else None
    ctx = mp.get_context("fork")
    tasks, results = ctx.Queue(), ctx.Queue()
    procs = [ctx.Process(target=worker, args=(w, args, tasks, results, deadline), daemon=True)
             for w in range(args.workers)]
    for p in procs:
        p.start()
    outstanding, live, exhausted = 0, args.workers, False
    games = positions = 0
    failed = None

    def feed():
        nonlocal outstanding, exhausted
        while not exhausted and outstanding < args.workers + 1:
            if deadline is not None and time.time() >= deadline:
                exhausted = True
                break
            i = next(todo, None)
            if i is None:
                exhausted = True
                break
            tasks.put(i)
            outstanding += 1
        if exhausted:
            for _ in range(args.workers):
                tasks.put(None)

    feed()
    sentinels_sent = exhausted
    try:
        while live > 0:
            try:
                kind, wid, data = results.get(timeout=5)
            except queue.Empty:
                if not any(p.is_alive() for p in procs):
                    break
                kind = None
            if kind == "rules" and wid == 0:
                print(f"generate: KataGo rules {data}", file=sys.stderr)
            elif kind == "game":
                index, line, n, secs = data
                write_game(args.out, line)
                outstanding -= 1
                games += 1
                positions += n
                el = time.time() - t0
                print(f"generate: game {index} ({n} moves, {secs:.1f} s); {games} games, {positions} positions, "
                      f"{positions / el:.1f} positions/s", file=sys.stderr)
            elif kind == "error":
                failed = data
                print(f"generate: worker {wid}: {data}", file=sys.stderr)
                exhausted = True
            elif kind == "done":
                live -= 1
            if not sentinels_sent:
                feed()
                sentinels_sent = exhausted
    except KeyboardInterrupt:
        print("generate: interrupted; complete games are written", file=sys.stderr)
        for p in procs:
            p.terminate()
    if failed:
        for p in procs:
            p.terminate()
    for p in procs:
        p.join(timeout=30)
    el = time.time() - t0
    print(f"generate: wrote {games} games, {positions} positions in {el:.0f} s "
          f"({positions / max(el, 1e-9):.1f} positions/s) to {args.out}", file=sys.stderr)
    sys.exit(1 if failed else 0)


def self_test():
    """Sharding and resuming against fake_teacher.py: one run of 7 games with two workers, and
    the same 7 games as 3 shards (one of them run twice: the second run adds nothing), merge to
    the same bytes."""
    import merge
    here = os.path.dirname(os.path.abspath(__file__))
    fake = os.path.join(here, "fake_teacher.py")
    with tempfile.TemporaryDirectory() as folder:
        def run(out, *extra):
            cmd = [sys.executable, os.path.abspath(__file__), "--out", os.path.join(folder, out), "--size", "7",
                   "--games", "7", "--seed", "9", "--handicap-prob", "0.3", "--katago", fake, "--model", fake,
                   "--config", fake, "--log-dir", os.path.join(folder, "logs"), *extra]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                raise AssertionError(f"{' '.join(cmd)} failed:\n{done.stderr}")
            return done.stderr
        run("one.jsonl.gz", "-j", "2")
        for k in (1, 2, 3):
            run(f"shard{k}.jsonl.gz", "--shard", f"{k}/3")
        again = run("shard2.jsonl.gz", "--shard", "2/3")
        if "wrote 0 games" not in again:
            print(f"self-test: a resumed shard played again:\n{again}", file=sys.stderr)
            return 1
        for k in (1, 2, 3):
            held = sorted(json.loads(line)["seed"] - 9 * SEED_STRIDE
                          for _, line in read_check.iter_lines(os.path.join(folder, f"shard{k}.jsonl.gz")))
            if held != list(range(k - 1, 7, 3)):
                print(f"self-test: shard {k}/3 holds games {held}", file=sys.stderr)
                return 1
        merge.merge([os.path.join(folder, "one.jsonl.gz")], os.path.join(folder, "merged-one.jsonl.gz"))
        merge.merge([os.path.join(folder, f"shard{k}.jsonl.gz") for k in (3, 1, 2)],
                    os.path.join(folder, "merged-shards.jsonl.gz"))
        with open(os.path.join(folder, "merged-one.jsonl.gz"), "rb") as a, \
                open(os.path.join(folder, "merged-shards.jsonl.gz"), "rb") as b:
            same = a.read() == b.read()
        games = [json.loads(line) for _, line in read_check.iter_lines(os.path.join(folder, "merged-one.jsonl.gz"))]
        seeds = [g["seed"] for g in games]
        if not same or seeds != [9 * SEED_STRIDE + i for i in range(7)]:
            print(f"self-test: merged shards differ from one run (seeds {seeds})", file=sys.stderr)
            return 1
        for g in games:
            for _ in read_check.replay(g):
                pass
        bad = merge.conflicts([os.path.join(folder, "one.jsonl.gz"), os.path.join(folder, "shard1.jsonl.gz")])
        if bad:
            print(f"self-test: the same seeds disagree: {bad}", file=sys.stderr)
            return 1
        first = os.path.join(folder, "first4.jsonl.gz")
        merge.merge([os.path.join(folder, f"shard{k}.jsonl.gz") for k in (2, 3, 1)], first, 4)
        kept = [json.loads(line)["seed"] for _, line in read_check.iter_lines(first)]
        if kept != seeds[:4]:
            print(f"self-test: the first 4 games of the shards are {kept}", file=sys.stderr)
            return 1
        try:
            merge.merge([os.path.join(folder, "shard1.jsonl.gz")], first, 4)
            print("self-test: the first 4 games merged from shard 1/3 alone", file=sys.stderr)
            return 1
        except SystemExit as gap:
            if "lacks games [1, 2]" not in str(gap):
                print(f"self-test: a gap in the first 4 games read {gap}", file=sys.stderr)
                return 1
    print("generate.py self-test: OK (7 games, 3 shards merged = one run; a resumed shard adds none; "
          "--games keeps the first ones and refuses a gap)")
    return 0


if __name__ == "__main__":
    main()
