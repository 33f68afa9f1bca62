#!/usr/bin/env bash
# Side-by-side load test of the /po/* API: our service vs the reference Python service
# (../shared/reference: FastAPI + polib + msgcat), same file, same load, same machine, one run.
#
#   bench/po_http_compare.sh [ENTRIES] [RUNS] [DURATION_S]      (defaults: 10000 3 10)
#
# Needs: wrk, python3 with the reference's Debian packages (python3-fastapi python3-uvicorn
# python3-polib python3-httpx), gettext, and ../shared/reference. Loopback only (127.0.0.1).
# Writes bench/out/po-<N>-{ref,ours}.json and prints a ratio table (bench/compare_po.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
RUNS=${2:-3}
DURATION=${3:-10}
REF=../shared/reference
DENO=${DENO:-deno}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 1; }
[ -d "$REF" ] || { echo "$REF is missing"; exit 1; }

out=bench/out
mkdir -p "$out"
work=$(mktemp -d /tmp/po-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/srv"
"$REF/perf/gen-po" -n "$N" --seed 1 -o "$work/po-$N.po" >/dev/null

"$REF/start" 18080 >/dev/null 2>&1 &
PO_ROOTS="$work/srv" PORT=18000 $DENO task start >"$work/ours.log" 2>&1 &
for port in 18080 18000; do
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/openapi.json" && break; sleep 0.2; done
done
ours_pid=$(pgrep -f "main.ts serve" | head -1)

for run in $(seq 1 "$RUNS"); do
  # Interleaved: reference, then ours, per run, so both see the same machine state.
  "$REF/perf/bench-po" http://127.0.0.1:18080 "$work/po-$N.po" --duration "$DURATION" --workdir "$work/srv" \
    --json "$out/po-$N-ref-$run.json" >/dev/null
  "$REF/perf/bench-po" http://127.0.0.1:18000 "$work/po-$N.po" --duration "$DURATION" --workdir "$work/srv" \
    --json "$out/po-$N-ours-$run.json" >/dev/null
done
rss_kib=$(awk '/VmHWM/ {print $2}' "/proc/$ours_pid/status")
echo "peak RSS of our server (VmHWM): $((rss_kib / 1024)) MiB"
$DENO run --allow-read=bench/out bench/compare_po.ts "$N" "$RUNS" "$rss_kib"
