#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Trains the Go value network with PyTorch on a machine with a GPU from teacher files
# carried there, in one command: `ishi-train --export-samples` writes the samples of every
# file in DATA (packed `*.ishigames.gz` or JSON lines `*.jsonl.gz`; every tenth game of each
# held out, as ishi-train holds them out), then torch_value.py trains and writes the best
# held-out epoch's network to OUT/value.bin with its report in OUT/train.log.
#
#   scripts/train/device.sh DATA OUT [torch_value.py options]
#
# Environment: ISHI_TRAIN (default target/release/ishi-train, built here and carried: it
# needs glibc 2.34), PYTHON (default python3, the one that holds PyTorch), SIZES (default
# 9,13,19), SAMPLES (default /tmp/ishi-samples). The device call this was written for, from
# the repository's root (the binary and the packed files carried):
#
#   cargo build --release --bin ishi-train && mkdir -p .device-data &&
#   echo /.device-data/ >> .git/info/exclude &&
#   for f in ../shared/teacher/*.jsonl.gz ../data/teacher/*.jsonl.gz; do
#       target/release/ishi-train --pack .device-data/$(basename "$f" .jsonl.gz).ishigames.gz --data "$f"
#   done
#   run: bash scripts/train/device.sh .device-data "$OUT" --start-from models/go-value.bin \
#        --epochs 30 --batch 256 --minutes 6 --device cuda
#        (carry .device-data and target/release/ishi-train)
#
# then, here: ishi-train --data ... --evaluate-value-network value.bin (models/README.md).
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 DATA OUT [torch_value.py options]" >&2
    exit 2
fi
data=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
train=${ISHI_TRAIN:-target/release/ishi-train}
python=${PYTHON:-python3}
sizes=${SIZES:-9,13,19}
samples=${SAMPLES:-/tmp/ishi-samples}
mkdir -p "$out" "$samples"
files=""
for file in "$data"/*.ishigames.gz "$data"/*.jsonl.gz; do
    [ -f "$file" ] && files="$files --data $file"
done
if [ -z "$files" ]; then
    echo "device.sh: no teacher files in $data" >&2
    exit 1
fi
# shellcheck disable=SC2086 # one --data per file, the names without spaces
"$train" $files --network-size "$sizes" --export-samples "$samples" | tee "$out/export.log"
PYTHONUNBUFFERED=1 "$python" "$here/torch_value.py" --samples "$samples" --out "$out/value.bin" "$@" \
    2>&1 | tee "$out/train.log"
