#!/usr/bin/env bash
# Idempotent builder for Pachi 12.90 without a neural network (../shared/opponents.md, "Pachi").
#
# Usage: setup-pachi.sh [DIR [MIRROR]]
#   DIR     install folder; default ../peers/pachi beside the repository this script lives in.
#           DIR/pachi is the binary; patterns_mm.spat, patterns_mm.gamma and joseki19.gtp lie
#           beside it (Pachi looks in the current folder, $DATA_DIR, then the binary's folder,
#           and aborts without them).
#   MIRROR  a git directory (bare is fine) holding commit b69e353981e6728058e142b14632eb125b011c02
#           (one past tag pachi-12.90-homebrew). Also read from $PACHI_MIRROR. In the agent
#           sessions it comes from the session tool `fetch github:pasky/pachi`
#           (-> /work/.mirror/pasky+pachi/repo, the default when that path exists); elsewhere
#           `git clone --bare https://github.com/pasky/pachi pachi.git` makes one.
#   Environment: JOBS (default 2) for make -j.
#
# Build: the Makefile reads .git/HEAD and .git/index, which an exported tree lacks: both are
# created empty and build.h.git is written here; then
#   make DCNN=0 JOSEKIFIX=0 BUILD_KATAGO=0 -j$JOBS        (under a minute on two cores; 135 s
#   wall, 23 s CPU here beside a KataGo build and two matches)
# Always ends with a GTP smoke test (name, genmove b on 9x9 at full strength, run from /).
set -euo pipefail

COMMIT=b69e353981e6728058e142b14632eb125b011c02
DATA=(patterns_mm.spat patterns_mm.gamma joseki19.gtp)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(git -C "$here" rev-parse --show-toplevel 2>/dev/null || echo "$here")"
dir="${1:-$repo/../peers/pachi}"
mirror="${2:-${PACHI_MIRROR:-}}"
if [ -z "$mirror" ] && [ -d /work/.mirror/pasky+pachi/repo ]; then
  mirror=/work/.mirror/pasky+pachi/repo
fi
jobs="${JOBS:-2}"
say() { echo "setup-pachi: $*" >&2; }

mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

# packages: a C compiler and make (Debian: build-essential)
if ! command -v gcc >/dev/null || ! command -v make >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  say "apt-get install build-essential"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq build-essential
fi

src="$dir/src"
if [ -f "$src/.exported-$COMMIT" ]; then
  say "source $COMMIT present in $src"
else
  if [ -z "$mirror" ] || ! git --git-dir="$mirror" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
    say "need a git mirror of pasky/pachi with commit $COMMIT: pass it as the second argument"
    say "or PACHI_MIRROR (session tool: fetch github:pasky/pachi; else git clone --bare)"
    exit 1
  fi
  rm -rf "$src"; mkdir -p "$src"
  git --git-dir="$mirror" archive "$COMMIT" | tar -x -C "$src"
  echo "$COMMIT" >"$src/.exported-$COMMIT"
  say "exported $COMMIT into $src"
fi

if [ -x "$dir/pachi" ] && [ -f "$dir/.built-$COMMIT" ]; then
  say "binary present: $dir/pachi"
else
  start=$(date +%s)
  mkdir -p "$src/.git"
  touch "$src/.git/HEAD" "$src/.git/index"
  sleep 1   # build.h.git must be newer than .git/HEAD and .git/index, or make rebuilds it with git
  printf '#define PACHI_GIT_BRANCH   "%s"\n#define PACHI_GIT_HASH     "%s"\n' \
    "pachi-12.90-homebrew+1" "${COMMIT:0:7}" >"$src/build.h.git"
  (cd "$src" && make DCNN=0 JOSEKIFIX=0 BUILD_KATAGO=0 -j"$jobs" >make.log 2>&1) ||
    { say "build failed; see $src/make.log"; exit 1; }
  cp "$src/pachi" "$dir/pachi"
  touch "$dir/.built-$COMMIT"
  say "built in $(( $(date +%s) - start )) s: $dir/pachi"
fi

for f in "${DATA[@]}"; do
  [ -f "$dir/$f" ] || cp "$src/$f" "$dir/$f"
done

# smoke test from another folder: GTP name and a 9x9 genmove at full strength (10,000 playouts)
reply="$(cd / && printf 'name\nboardsize 9\nclear_board\nkomi 7.5\ngenmove b\nquit\n' |
  "$dir/pachi" --patterns -t =10000 threads=1 2>/dev/null)"
if ! grep -q '^= Pachi' <<<"$reply" || ! grep -qE '^= [A-HJ-T][0-9]' <<<"$reply"; then
  say "GTP smoke test failed:"; echo "$reply" >&2; exit 1
fi
say "GTP smoke test: name Pachi, 9x9 genmove b = $(grep -m1 -E '^= [A-HJ-T][0-9]' <<<"$reply" | cut -c3-)"

cat <<EOF
Pachi 12.90 (commit ${COMMIT:0:10}, no DCNN) ready in $dir (data files beside the binary)
  full strength (Moggy playouts + MM pattern priors), 10,000 playouts a move, one thread:
    $dir/pachi --patterns -t =10000 threads=1
  (run it from any folder: Pachi also looks for its data in the binary's folder, or set DATA_DIR=$dir)
EOF
