# Sourced by the bench/*.sh scripts (bash): how to run Deno, starting background processes that are
# all stopped when the script ends however it ends, and what ../shared provides.
#
#   DENO      the Deno command (default: `deno` when it is on PATH, else `npx -y deno@2.9.6`)
#   bg CMD…   runs CMD in the background in a process group of its own (setsid) and records it;
#             on exit (normal, error, Ctrl-C, TERM) every recorded group gets TERM, then KILL after
#             2 s: `deno task start` runs `deno run` as a child, which `kill $!` alone would leave
#             behind holding the port and the terminal.
#   make_work PREFIX  sets $work to a temp directory removed on exit
#   BG_PID    the process group id of the last `bg` (its leader's pid)
#   wait_http PORT   waits (20 s at most) until http://127.0.0.1:PORT/openapi.json answers; fails
#             with one line when it does not
#   server_pid PGID  the pid of the `main.ts serve` process in that group (not any on the machine)
#   SHARED    ../shared, when it exists (empty otherwise)

if [ -z "${DENO:-}" ]; then
  if command -v deno >/dev/null 2>&1; then DENO=deno; else DENO="npx -y deno@2.9.6"; fi
fi
SHARED=""
[ -d ../shared ] && SHARED=../shared

_bench_groups=()
_bench_work=""

_bench_cleanup() {
  local status=$?
  trap - EXIT INT TERM
  local g
  # Plain background jobs of the script (a sampler loop), then every group started by bg.
  kill $(jobs -p) 2>/dev/null || true
  for g in "${_bench_groups[@]}"; do kill -TERM -- "-$g" 2>/dev/null || true; done
  for _ in $(seq 1 20); do
    local alive=0
    for g in "${_bench_groups[@]}"; do kill -0 -- "-$g" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for g in "${_bench_groups[@]}"; do kill -KILL -- "-$g" 2>/dev/null || true; done
  [ -n "$_bench_work" ] && rm -rf "$_bench_work"
  exit "$status"
}
trap _bench_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# make_work PREFIX: sets $work to a new temp directory, removed on exit.
make_work() {
  work=$(mktemp -d "/tmp/$1.XXXXXX")
  _bench_work=$work
}

bg() {
  # A script without job control does not make its children group leaders, so setsid starts a
  # new session (and process group) in the child itself, whose pid is $!.
  setsid "$@" &
  BG_PID=$!
  _bench_groups+=("$BG_PID")
}

wait_http() {
  local port=$1
  for _ in $(seq 1 200); do
    curl -s -o /dev/null "http://127.0.0.1:$port/openapi.json" && return 0
    sleep 0.1
  done
  echo "nothing answered on 127.0.0.1:$port after 20 s (see the server's log)" >&2
  return 1
}

server_pid() {
  pgrep -g "$1" -f "main.ts serve" | head -1
}
