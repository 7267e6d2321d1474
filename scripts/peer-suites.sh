#!/usr/bin/env bash
# Runs the rules suites of other Go programs found under ../shared/peer-suites (or
# $ISHI_PEER_SUITES) against ishi's rules core and prints the pass count of each suite:
#   Pachi t-unit board regression replay (captures, ko point, superko flag... after every move),
#   Fuego repetition.tst, scoring_static.tst and static_safety_*.tst (go_safe benson),
#   KataGo rules.txt and handicap.txt.
# The suites are replayed in process by tests/peer_rules.rs (the data is read where it lies,
# never copied). Each fails only below its pinned pass count; known mismatches are listed.
#
# Usage: scripts/peer-suites.sh [-v]     (-v also lists every mismatch and skipped case)
# Exits 0 without running anything when the peer suites folder is absent.
set -euo pipefail
cd "$(dirname "$0")/.."

verbose=0
if [ "${1:-}" = "-v" ]; then
  verbose=1
fi

suites="${ISHI_PEER_SUITES:-$PWD/../shared/peer-suites}"
if [ ! -d "$suites" ]; then
  echo "peer-suites: $suites is absent; nothing to run"
  exit 0
fi
ISHI_PEER_SUITES="$(cd "$suites" && pwd)"
export ISHI_PEER_SUITES

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

echo "peer-suites: running tests/peer_rules.rs against $ISHI_PEER_SUITES"
status=0
cargo test --test peer_rules -- --nocapture --test-threads 1 >"$log" 2>&1 || status=$?

# With one test thread the harness's "test NAME ... " shares a line with the first report line.
sed -E 's/^test [a-z_0-9]+ \.\.\. //' "$log" | while IFS= read -r line; do
  case "$line" in
    "peer suite "* | "pachi regtest:"* | "  field "* | "skipping"*)
      echo "$line"
      ;;
    "  mismatch: "* | "  skipped: "* | "  ... and "*)
      if [ "$verbose" -eq 1 ]; then
        echo "$line"
      fi
      ;;
  esac
done

# Totals over the suites.
sed -E 's/^test [a-z_0-9]+ \.\.\. //' "$log" \
  | awk '/^peer suite / {
           for (i = 1; i <= NF; i++) if ($i == "/") { passed += $(i - 1); total += $(i + 1); suites++ }
         }
         END { printf "peer-suites: %d suites, %d of %d checks passed\n", suites, passed, total }'

if [ "$status" -ne 0 ]; then
  echo "peer-suites: a suite fell below its pinned pass count (or did not build):"
  grep -E "panicked|fewer than the pinned|^error" "$log" || tail -n 30 "$log"
  exit "$status"
fi
