#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# Teacher labels for positions of ishi's own games (issue 31, 3a): plays GAMES 9x9 games of
# ishi against itself (2,000 against 500 playouts a move, 4 random opening moves, seeds by
# game) and GAMES/2 against GNU Go 3.8 level 10 (ishi at 1,000 playouts), then labels every
# position of them with the teacher (label.py). Everything lands in DIR; a rerun resumes: a
# match goes on in a new part folder from its first unplayed game (match.py --first-game keeps
# each game's seed and colours), label.py skips games already labelled.
#
#   scripts/teacher/own-games.sh DIR [GAMES] [ROUND]
#
# ROUND (default 1) seeds the random openings and names the match folders, so more rounds add
# more games. Needs target/release/ishi (cargo build --release), GNU Go at /usr/games/gnugo
# (apt install gnugo) and KataGo as for generate.py.
set -eu
dir=${1:?usage: own-games.sh DIR [GAMES] [ROUND]}
games=${2:-100}
round=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
ishi="$top/target/release/ishi"
mkdir -p "$dir"
# play NAME COUNT OPENING ENGINE [OPPONENT]: games 0..COUNT-1 of the match NAME, in part folders.
play() {
    name=$1 count=$2 opening=$3 engine=$4
    shift 4
    done_games=$(find "$dir" -path "$dir/$name-part*/game-*.sgf" 2>/dev/null | wc -l)
    [ "$done_games" -ge "$count" ] && return 0
    python3 "$top/scripts/match.py" --first-game "$done_games" --games "$count" -j 1 \
        --random-opening "$opening" --seed "$round" --engine "$engine" "$@" \
        --out "$dir/$name-part$done_games" >"$dir/$name-part$done_games.log" 2>&1
}
play "self-$round" "$games" 4 "$ishi --threads 1 --seed {game} --playouts 2000" \
    --opponent "$ishi --threads 1 --seed {game} --playouts 500"
play "gnugo-$round" "$((games / 2))" 2 "$ishi --threads 1 --seed {game} --playouts 1000"
python3 "$here/label.py" --out "$dir/labels.jsonl.gz" "$dir"
