#!/usr/bin/env bash
# Soak test: mixed /po/* read/write load on one catalogue for DURATION seconds against our server
# (`deno task start`), loopback only. Reports requests/s, latency, errors, every acknowledged write
# found in the file afterwards (and the file still msgcat's layout), and the server's resident
# memory sampled every 5 s, so a leak shows as a rising series.
#
#   bench/po_soak.sh [ENTRIES] [DURATION_S] [CONNECTIONS]     (defaults: 10000 60 4)
#
# Needs: wrk, curl; msgcat for the layout check (skipped without it). The catalogue comes from
# ../shared/reference/perf/gen-po when ../shared exists, else from bench/_generated_po.ts.
# Deno: $DENO, else `deno` on PATH, else `npx -y deno@2.9.6`. The server it starts is stopped when
# it ends, Ctrl-C included (bench/_lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/_lib.sh
N=${1:-10000}
DURATION=${2:-60}
CONNS=${3:-4}
PORT=${PORT:-18002}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 1; }

make_work po-soak
mkdir -p "$work/srv"
if [ -x "${SHARED:-/nonexistent}/reference/perf/gen-po" ]; then
  "$SHARED/reference/perf/gen-po" -n "$N" --seed 7 -o "$work/srv/soak.po" >/dev/null
else
  echo "../shared not found: a generated catalogue (bench/_generated_po.ts) instead of gen-po's"
  $DENO run --quiet --no-prompt --allow-write="$work/srv" bench/_generated_po.ts "$N" "$work/srv/soak.po"
fi
# Formatted first (both generators already give msgcat's layout; this makes sure).
$DENO task wrap "$work/srv/soak.po" >/dev/null
# msgids to look up (no context, no escapes that need more than the JSON escaping above).
awk '/^msgid "[^"\\]+"$/ && n++ < 2000 { print substr($0, 8, length($0) - 8) }' "$work/srv/soak.po" >"$work/msgids"

bg env PO_ROOTS="$work/srv" PORT="$PORT" $DENO task start >"$work/server.log" 2>&1
group=$BG_PID
wait_http "$PORT" || { cat "$work/server.log"; exit 1; }
pid=$(server_pid "$group")
rss() { awk '/VmRSS/ {printf "%d", $2/1024}' "/proc/$pid/status"; }
echo "server pid $pid, RSS at start $(rss) MiB; $N entries, ${DURATION}s, $CONNS connections"

(
  t=0
  while kill -0 "$pid" 2>/dev/null; do
    echo "$t $(rss)"
    sleep 5
    t=$((t + 5))
  done
) >"$work/rss" &
sampler=$!

wrk -t"$(( CONNS < 2 ? CONNS : 2 ))" -c"$CONNS" -d"${DURATION}s" --latency -s bench/po_soak.lua "http://127.0.0.1:$PORT" -- \
  "$work/srv/soak.po" "$work/msgids" | tee "$work/wrk.txt"
kill "$sampler" 2>/dev/null || true

acked=$(awk '/acknowledged writes:/ {print $3}' "$work/wrk.txt")
found=$(grep -c '^msgid "soak ' "$work/srv/soak.po" || true)
echo "entries written under load found in the file: $found (acknowledged: $acked)"
[ "$found" -ge "$acked" ] || echo "LOST UPDATES: $((acked - found))"
if command -v msgcat >/dev/null; then
  if msgcat "$work/srv/soak.po" | cmp -s - "$work/srv/soak.po"; then echo "file is msgcat's layout: yes"
  else echo "file is msgcat's layout: NO"; fi
else
  echo "msgcat not found (apt-get install gettext): the layout is not checked"
fi
echo "resident memory (s MiB):"
tr '\n' ' ' <"$work/rss"; echo
awk -v h="$((DURATION / 2))" '$1 <= h && $2 > a {a = $2} $1 > h && $2 > b {b = $2}
  END {printf "max RSS first half %d MiB, second half %d MiB\n", a, b}' "$work/rss"
echo "peak RSS (VmHWM): $(awk '/VmHWM/ {printf "%d", $2/1024}' "/proc/$pid/status") MiB"
