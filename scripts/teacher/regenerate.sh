#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Makes again, on a machine that has lost them, the teacher files the shipped value network
# and the measurements of models/README.md were made from, most useful first, each game for
# game as before (generate.py reproduces a game from its seed with the same KataGo and
# network): 13x13 seed 7 (309 games), 9x9 seed 5 (1,018), 9x9 seed 6 (277), 19x19 seed 8
# (65), 19x19 seed 14 (the first 184: 75 learned, 184 measured), 9x9 seed 13 (941), the held-out sizes 7x7 seed 9 (40), 11x11 seed 10 (24), 15x15
# seed 11 (12) and 17x17 seed 12 (10), and last the move model's runs, 9x9 seed 1 (1,034) and
# 13x13 seed 2 (43; named katago-9x9-gen and katago-13x13-gen in models/README.md). Every step resumes (games already in a file are
# skipped), so the same command, run again after an interruption or on another day, goes on
# where it stopped; stop it at any time. About 40 hours of one core in all (the rates of
# scripts/teacher/README.md); WORKERS KataGo processes share each step.
#
#   scripts/teacher/regenerate.sh [DIR [WORKERS]]
#
# DIR defaults to ../data/teacher beside the repository, WORKERS to 1. Needs KataGo as
# scripts/opponents/setup-katago.sh builds it ($KATAGO_DIR, default ../peers/katago), and on
# Intel processors the flush-to-zero library in $LD_PRELOAD (../shared/opponents.md).
# The labels of ishi's own games (labels-matches1) came from match records that are not
# kept: own-games.sh makes new ones.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dir=${1:-$top/../data/teacher}
workers=${2:-1}
mkdir -p "$dir"
# make SIZE SEED GAMES: games 0..GAMES-1 of the seed into katago-SIZExSIZE-sSEED.jsonl.gz.
make() {
    python3 "$here/generate.py" --out "$dir/katago-$1x$1-s$2.jsonl.gz" --size "$1" \
        --seed "$2" --games "$3" -j "$workers"
}
make 13 7 309
make 9 5 1018
make 9 6 277
make 19 8 65
# 19x19 seed 14, its first 75 games (models/go-value-large.bin learned them) and its first 184
# (step 11 of models/README.md, not shipped, learned them), put in seed order: ishi-train holds out every tenth game of a
# file in the file's order, and two workers finish games out of order.
seed14=$dir/katago-19x19-s14.jsonl.gz
python3 "$here/generate.py" --out "$seed14" --size 19 --seed 14 --games 184 -j "$workers"
python3 "$here/merge.py" --games 184 "$dir/katago-19x19-s14-first184.jsonl.gz" "$seed14"
python3 "$here/merge.py" --games 75 "$dir/katago-19x19-s14-first75.jsonl.gz" "$seed14"
make 9 13 941
make 7 9 40
make 11 10 24
make 15 11 12
make 17 12 10
make 9 1 1034
make 13 2 43
python3 "$here/read_check.py" "$dir"/katago-*.jsonl.gz
