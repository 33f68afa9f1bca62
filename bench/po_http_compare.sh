#!/usr/bin/env bash
# Side-by-side load test of the /po/* API: our service vs the reference Python service
# (../shared/reference: FastAPI + polib + msgcat), same file, same load, same machine, one run.
#
#   bench/po_http_compare.sh [ENTRIES] [RUNS] [DURATION_S]      (defaults: 10000 3 10)
#
# Needs: wrk, python3 with the reference's Debian packages (python3-fastapi python3-uvicorn
# python3-polib python3-httpx), gettext, and ../shared/reference (the service compared against and
# its load generator: without ../shared this comparison cannot run; bench/po_soak.sh can).
# Loopback only (127.0.0.1). Writes bench/out/po-<N>-{ref,ours}.json and prints a ratio table
# (bench/compare_po.ts). Deno: $DENO, else `deno` on PATH, else `npx -y deno@2.9.6`. Every server
# it starts is stopped when it ends, Ctrl-C included (bench/_lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/_lib.sh
N=${1:-10000}
RUNS=${2:-3}
DURATION=${3:-10}
REF=../shared/reference
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 1; }
[ -d "$REF" ] || { echo "$REF is missing: this benchmark compares against the reference service in ../shared (not in a plain clone)"; exit 1; }

out=bench/out
mkdir -p "$out"
make_work po-bench
mkdir -p "$work/srv"
"$REF/perf/gen-po" -n "$N" --seed 1 -o "$work/po-$N.po" >/dev/null

bg "$REF/start" 18080 >/dev/null 2>&1
bg env PO_ROOTS="$work/srv" PORT=18000 $DENO task start >"$work/ours.log" 2>&1
ours_group=$BG_PID
wait_http 18080
wait_http 18000
ours_pid=$(server_pid "$ours_group")

for run in $(seq 1 "$RUNS"); do
  # Interleaved: reference, then ours, per run, so both see the same machine state.
  "$REF/perf/bench-po" http://127.0.0.1:18080 "$work/po-$N.po" --duration "$DURATION" --workdir "$work/srv" \
    --json "$out/po-$N-ref-$run.json" >/dev/null
  # Its exit status flags our write message (not its own wording): compare_po.ts judges the problems.
  "$REF/perf/bench-po" http://127.0.0.1:18000 "$work/po-$N.po" --duration "$DURATION" --workdir "$work/srv" \
    --json "$out/po-$N-ours-$run.json" >/dev/null || true
done
rss_kib=$(awk '/VmHWM/ {print $2}' "/proc/$ours_pid/status")
echo "peak RSS of our server (VmHWM): $((rss_kib / 1024)) MiB"
$DENO run --allow-read=bench/out bench/compare_po.ts "$N" "$RUNS" "$rss_kib"
