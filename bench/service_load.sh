#!/usr/bin/env bash
# wrk load on loopback for the greeting tool and the patent search (against the fake GPSS
# upstream, with and without cache hits), beside the reference Python service where it has the
# same endpoint (../shared/reference; without ../shared only our rows are measured). Bounded:
# DURATION seconds per measurement (default 5). Needs wrk and curl. Deno: $DENO, else `deno` on
# PATH, else `npx -y deno@2.9.6`. Every server it starts is stopped when it ends, Ctrl-C included
# (bench/_lib.sh).
#
#   bench/service_load.sh [DURATION_S]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/_lib.sh
D=${1:-5}
REF=../shared/reference
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 1; }
make_work service-load

bg $DENO run --quiet --no-prompt --allow-net=127.0.0.1 bench/fake_gpss_server.ts >"$work/fake"
for _ in $(seq 1 200); do [ -s "$work/fake" ] && break; sleep 0.1; done
read -r fake_url user_code <"$work/fake"

start_ours() { # PORT CACHE_TTL
  bg env GPSS_API_URL="$fake_url" USER_CODE="$user_code" GPSS_CACHE_TTL_S="$2" PO_ROOTS="$work" PORT="$1" \
    $DENO task start >/dev/null 2>&1
  ours_group=$BG_PID
  wait_http "$1"
}
start_ours 18001 300
start_ours 18002 0
ref_up=""
if [ -d "$REF" ]; then
  bg env GPSS_API_URL="$fake_url" USER_CODE="$user_code" "$REF/start" 18081 >/dev/null 2>&1
  if wait_http 18081 2>/dev/null; then ref_up=1; else echo "the reference service did not start: its rows are left out"; fi
else
  echo "../shared not found: the reference service's rows are left out"
fi

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("BODY")
LUA

measure() { # LABEL URL BODY
  local out
  out=$(BODY=$3 wrk -t1 -c4 -d"${D}s" --latency -s "$work/post.lua" "$2" 2>&1)
  printf '| %s | %s | %s | %s | %s |\n' "$1" \
    "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" \
    "$(awk '$1=="50%" {print $2}' <<<"$out")" \
    "$(awk '$1=="99%" {print $2}' <<<"$out")" \
    "$(awk '/Non-2xx/ {n=$4} END {print n+0}' <<<"$out")"
}

echo "| measurement (wrk -t1 -c4, ${D}s) | req/s | p50 | p99 | non-2xx |"
echo "| --- | --- | --- | --- | --- |"
measure "ours: POST /new/endpoint/" http://127.0.0.1:18001/new/endpoint/ '{"name":"Ada"}'
[ -n "$ref_up" ] && measure "reference: POST /new/endpoint/" http://127.0.0.1:18081/new/endpoint/ '{"name":"Ada"}'
measure "ours: search_patents, cache hits" http://127.0.0.1:18001/tools/search_patents '{"keywords":"充電","max_results":5}'
measure "ours: search_patents, cache off (in-flight coalescing only)" http://127.0.0.1:18002/tools/search_patents '{"keywords":"充電","max_results":5}'
[ -n "$ref_up" ] && measure "reference: search_patents (no cache)" http://127.0.0.1:18081/tools/search_patents '{"keywords":"充電","max_results":5}'
pid=$(server_pid "$ours_group")
echo
echo "peak RSS of one of our servers: $(( $(awk '/VmHWM/ {print $2}' /proc/$pid/status) / 1024 )) MiB"
