#!/usr/bin/env bash
# wrk load on loopback for the greeting tool and the patent search (against the fake GPSS
# upstream, with and without cache hits), beside the reference Python service where it has the
# same endpoint. Bounded: DURATION seconds per measurement (default 5).
#
#   bench/service_load.sh [DURATION_S]
set -euo pipefail
cd "$(dirname "$0")/.."
D=${1:-5}
DENO=${DENO:-deno}
REF=../shared/reference
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 1; }
work=$(mktemp -d /tmp/service-load.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT

$DENO run --allow-net=127.0.0.1 bench/fake_gpss_server.ts >"$work/fake" &
for _ in $(seq 1 100); do [ -s "$work/fake" ] && break; sleep 0.1; done
read -r fake_url user_code <"$work/fake"

start_ours() { # PORT CACHE_TTL
  GPSS_API_URL=$fake_url USER_CODE=$user_code GPSS_CACHE_TTL_S=$2 PO_ROOTS=$work PORT=$1 $DENO task start >/dev/null 2>&1 &
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$1/openapi.json" && return; sleep 0.1; done
}
start_ours 18001 300
start_ours 18002 0
if [ -d "$REF" ]; then
  GPSS_API_URL=$fake_url USER_CODE=$user_code "$REF/start" 18081 >/dev/null 2>&1 &
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:18081/openapi.json" && break; sleep 0.2; done
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
[ -d "$REF" ] && measure "reference: POST /new/endpoint/" http://127.0.0.1:18081/new/endpoint/ '{"name":"Ada"}'
measure "ours: search_patents, cache hits" http://127.0.0.1:18001/tools/search_patents '{"keywords":"充電","max_results":5}'
measure "ours: search_patents, cache off (in-flight coalescing only)" http://127.0.0.1:18002/tools/search_patents '{"keywords":"充電","max_results":5}'
[ -d "$REF" ] && measure "reference: search_patents (no cache)" http://127.0.0.1:18081/tools/search_patents '{"keywords":"充電","max_results":5}'
pid=$(pgrep -f "main.ts serve" | head -1)
echo
echo "peak RSS of one of our servers: $(( $(awk '/VmHWM/ {print $2}' /proc/$pid/status) / 1024 )) MiB"
