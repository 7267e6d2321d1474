#!/usr/bin/env bash
# Idempotent builder for the teacher: KataGo v1.17.2 (CPU, Eigen backend) with the b10 network
# that the KaTrain 1.20.0 wheel ships (../shared/opponents.md, "KataGo 1.17.2").
#
# Usage: setup-katago.sh [DIR [MIRROR]]
#   DIR     install folder; default ../peers/katago beside the repository this script lives in.
#   MIRROR  a git directory (bare is fine) holding KataGo's tag v1.17.2. Also read from
#           $KATAGO_MIRROR. In the agent sessions it comes from the session tool
#           `fetch github:lightvector/KataGo` (-> /work/.mirror/lightvector+KataGo/repo, the
#           default when that path exists); elsewhere `git clone --bare
#           https://github.com/lightvector/KataGo katago.git` makes one.
#   Environment: JOBS (default 2) for make -j; THREADS (default 1) numSearchThreads in the config;
#   NATIVE=0 builds for any AVX2 processor instead of this one (-march=native).
#
# Steps (each skipped when its result is already there):
#   1. apt packages: cmake g++ libeigen3-dev libzip-dev zlib1g-dev python3-pip (sudo when not root)
#   2. DIR/src: `git archive v1.17.2` of the mirror without cpp/tests/models (blobs the mirror lacks)
#   3. DIR/katago: cmake -DUSE_BACKEND=EIGEN -DUSE_AVX2=1 -DNO_GIT_REVISION=1, make -j$JOBS
#      (about 8 minutes on two cores; AVX2 only when /proc/cpuinfo has it)
#   4. DIR/b10c384h6nbttflrs.bin.gz: `pip download --no-deps katrain==1.20.0`, taken from the
#      wheel's katrain/models/ (the wheel's own katago binary is an OpenCL AppImage: unused)
#   5. DIR/gtp.cfg: cpp/configs/gtp_example.cfg with numSearchThreads = $THREADS, logDir in
#      /tmp, and the searchFactor* lines commented out (fixed work per move)
#   6. always: a GTP smoke test (name, genmove b on 9x9, kata-raw-nn 0)
# Measured here (2 cores shared with other jobs, load about 8): the build took 27 min wall,
# 10 min of CPU; network sha256 0ba27eced5180b3e3d0b898b280c541112989765e789d1eb6cd0d31b2b2c1229.
set -euo pipefail

TAG=v1.17.2
NET=b10c384h6nbttflrs.bin.gz
WHEEL=katrain==1.20.0

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(git -C "$here" rev-parse --show-toplevel 2>/dev/null || echo "$here")"
dir="${1:-$repo/../peers/katago}"
mirror="${2:-${KATAGO_MIRROR:-}}"
if [ -z "$mirror" ] && [ -d /work/.mirror/lightvector+KataGo/repo ]; then
  mirror=/work/.mirror/lightvector+KataGo/repo
fi
jobs="${JOBS:-2}"
threads="${THREADS:-1}"
say() { echo "setup-katago: $*" >&2; }

mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

# 1. packages
pkgs=(cmake g++ libeigen3-dev libzip-dev zlib1g-dev python3-pip)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  say "apt-get install ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
else
  say "packages present"
fi

# 2. source
src="$dir/src"
if [ -f "$src/.exported-$TAG" ]; then
  say "source $TAG present in $src"
else
  if [ -z "$mirror" ] || ! git --git-dir="$mirror" rev-parse -q --verify "$TAG^{commit}" >/dev/null; then
    say "need a git mirror of lightvector/KataGo with tag $TAG: pass it as the second argument"
    say "or KATAGO_MIRROR (session tool: fetch github:lightvector/KataGo; else git clone --bare)"
    exit 1
  fi
  rm -rf "$src"; mkdir -p "$src"
  # The mirror lacks the blobs of cpp/tests/models; git archive names one on stderr even when it
  # is excluded, and exports every other file: count them against the tree.
  git --git-dir="$mirror" archive "$TAG" -- . ':(exclude)cpp/tests/models' 2>/dev/null | tar -x -C "$src"
  want=$(git --git-dir="$mirror" ls-tree -r --name-only "$TAG" | grep -vc '^cpp/tests/models/')
  have=$(cd "$src" && find . -type f -o -type l | wc -l)
  if [ "$have" -lt "$want" ]; then
    say "export incomplete: $have of $want files"; exit 1
  fi
  git --git-dir="$mirror" rev-parse "$TAG^{commit}" >"$src/.exported-$TAG"
  say "exported $TAG ($(cat "$src/.exported-$TAG")) into $src"
fi

# 3. build
if [ -x "$dir/katago" ] && "$dir/katago" version 2>/dev/null | grep -q "${TAG#v}"; then
  say "binary present: $dir/katago"
else
  avx2=0; grep -qw avx2 /proc/cpuinfo && avx2=1
  # For this processor's widest vectors (AVX-512 where it has them): the teacher's labels
  # are the same (generate.py's games and labels compared file for file) and come 1.2
  # times as fast on an AVX-512 Xeon as with AVX2 alone. NATIVE=0 builds for any AVX2
  # processor (a binary to copy to other machines).
  native="-march=native"; [ "${NATIVE:-1}" = 0 ] && native=""
  say "building (Eigen, AVX2=$avx2, flags '${native}', -j$jobs); about 8 minutes on two cores"
  start=$(date +%s)
  (cd "$src/cpp" &&
   cmake . -DUSE_BACKEND=EIGEN -DUSE_AVX2=$avx2 -DNO_GIT_REVISION=1 -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_CXX_FLAGS="$native" >cmake.log &&
   make -j"$jobs" >make.log 2>&1) || { say "build failed; see $src/cpp/cmake.log, make.log"; exit 1; }
  cp "$src/cpp/katago" "$dir/katago"
  say "built in $(( $(date +%s) - start )) s: $dir/katago"
fi

# 4. network
if [ -s "$dir/$NET" ] && gzip -t "$dir/$NET" 2>/dev/null; then
  say "network present: $dir/$NET"
else
  wdir="$dir/wheel"; mkdir -p "$wdir"
  py=python3; command -v "$py" >/dev/null || py=python
  "$py" -m pip download --quiet --no-deps "$WHEEL" -d "$wdir"
  whl="$(ls "$wdir"/katrain-1.20.0-*.whl | head -1)"
  "$py" - "$whl" "katrain/models/$NET" "$dir/$NET" <<'PY'
import sys, zipfile, shutil
whl, member, out = sys.argv[1:]
with zipfile.ZipFile(whl) as z, z.open(member) as f, open(out + ".tmp", "wb") as g:
    shutil.copyfileobj(f, g)
import os; os.replace(out + ".tmp", out)
PY
  gzip -t "$dir/$NET"
  say "network extracted from $(basename "$whl"): $dir/$NET"
fi
(cd "$dir" && sha256sum "$NET" >"$NET.sha256")

# 5. config
cfg="$dir/gtp.cfg"
if [ -f "$cfg" ] && grep -q "^numSearchThreads = $threads\$" "$cfg"; then
  say "config present: $cfg"
else
  sed -e "s|^numSearchThreads = .*|numSearchThreads = $threads|" \
      -e "s|^logDir = .*|logDir = /tmp/katago-gtp-logs|" \
      -e "s|^logAllGTPCommunication = .*|logAllGTPCommunication = false|" \
      -e "s|^logSearchInfo = .*|logSearchInfo = false|" \
      -e "s|^\(searchFactor.*\)|# \1|" \
      "$src/cpp/configs/gtp_example.cfg" >"$cfg.tmp"
  mv "$cfg.tmp" "$cfg"
  say "config written: $cfg"
fi

# smoke test: GTP name, a 9x9 genmove, the raw network output
reply="$(printf 'name\nboardsize 9\nclear_board\ngenmove b\nkata-raw-nn 0\nquit\n' |
  "$dir/katago" gtp -model "$dir/$NET" -config "$cfg" -override-config maxVisits=1 2>/dev/null)"
if ! grep -q '^= KataGo' <<<"$reply" || ! grep -q '^policyPass' <<<"$reply"; then
  say "GTP smoke test failed:"; echo "$reply" >&2; exit 1
fi
say "GTP smoke test: name KataGo, 9x9 genmove b = $(grep -m1 -E '^= [A-HJ-T][0-9]' <<<"$reply" | cut -c3-), kata-raw-nn 0 answers"

cat <<EOF
KataGo $TAG ready in $dir
  run:          $dir/katago gtp -model $dir/$NET -config $cfg -override-config maxVisits=N
  raw policy:   ... -override-config "maxVisits=1,chosenMoveTemperatureEarly=0,chosenMoveTemperature=0"
  teacher:      after play/loadsgf, 'kata-raw-nn 0' prints policy, whiteWin, whiteLead, whiteOwnership
EOF
