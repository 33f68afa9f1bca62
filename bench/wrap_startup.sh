#!/usr/bin/env bash
# Start-up of each mode, side by side in one run (hyperfine, median of RUNS, default 9):
#   - `wrap --stdout` on the 2.3 MB corpus file against `msgcat` on it;
#   - `wrap --stdout` on a small file (8.8 KB) against a one-line Deno script and msgcat;
#   - as users run them (`deno task wrap`, which runs lib/cli/wrap_main.ts), as the bare `deno run`
#     line of that task, and through `main.ts wrap` (the same code behind the dispatcher of every mode);
#   - `serve` (first answer to GET /health) and `mcp` (answer to `initialize`), time to first answer.
# Usage: bench/wrap_startup.sh [RUNS]     (needs hyperfine and msgcat; apt-get install hyperfine gettext)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-9}
BIG=../shared/corpus/po/zh-cn__whatsnew__changelog.po
SMALL=../shared/corpus/po/polib__tests__test_weird_occurrences.po
# The V8 flags the wrap task passes (deno.json).
FLAGS=$(python3 -c 'import json,re; print(re.search(r"--v8-flags=\S+", json.load(open("deno.json"))["tasks"]["wrap"]).group(0))')
ONE=$(mktemp --suffix=.ts)
echo 'console.log(1);' >"$ONE"
trap 'rm -f "$ONE"' EXIT
echo "load before: $(uptime | sed 's/.*load average: //')"
hyperfine -N --style basic -w 2 -r "$RUNS" --export-json /tmp/wrap_startup.json \
  -n "msgcat big" "msgcat $BIG" \
  -n "deno task wrap --stdout big" "deno task -q wrap --stdout $BIG" \
  -n "deno run wrap_main.ts --stdout big" "deno run -q $FLAGS --allow-read lib/cli/wrap_main.ts --stdout $BIG" \
  -n "deno run main.ts wrap --stdout big" "deno run -q --allow-read main.ts wrap --stdout $BIG" \
  -n "one-line deno script" "deno run -q $ONE" \
  -n "msgcat small" "msgcat $SMALL" \
  -n "deno task wrap --stdout small" "deno task -q wrap --stdout $SMALL" \
  -n "deno run wrap_main.ts --stdout small" "deno run -q $FLAGS --allow-read lib/cli/wrap_main.ts --stdout $SMALL" \
  -n "deno run main.ts wrap --stdout small" "deno run -q --allow-read main.ts wrap --stdout $SMALL" \
  -n "deno run main.ts wrap --help" "deno run -q main.ts wrap --help" >/dev/null
echo "load after wrap rows: $(uptime | sed 's/.*load average: //')"
python3 - <<'PY'
import json
for r in json.load(open("/tmp/wrap_startup.json"))["results"]:
    print(f"{r['median'] * 1000:8.1f} ms median  {r['min'] * 1000:8.1f} min  {r['command']}")
PY

# serve and mcp: time from the command to the first answer, RUNS times each, median.
port=18765
first_answer() {
  local mode=$1 t0 t1
  t0=$(date +%s%N)
  if [ "$mode" = serve ]; then
    PORT=$port deno task -q start >/dev/null 2>&1 &
    local pid=$!
    local tries=0
    until curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/health"; do
      tries=$((tries + 1))
      if [ "$tries" -gt 3000 ]; then echo "serve did not answer" >&2; break; fi
      sleep 0.005
    done
    t1=$(date +%s%N)
    kill "$pid"; wait "$pid" 2>/dev/null || true
    pkill -P "$pid" 2>/dev/null || true
  else
    printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}' |
      deno task -q mcp 2>/dev/null | head -1 >/dev/null
    t1=$(date +%s%N)
  fi
  echo $(( (t1 - t0) / 1000000 ))
}
for mode in serve mcp; do
  times=$(for _ in $(seq 1 "$RUNS"); do first_answer "$mode"; done | sort -n | tr '\n' ' ')
  echo "$mode time to first answer (ms, sorted): $times"
done
echo "load after: $(uptime | sed 's/.*load average: //')"
