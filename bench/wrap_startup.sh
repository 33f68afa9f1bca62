#!/usr/bin/env bash
# Start-up of each mode, side by side in one run (median of RUNS, default 9, interleaved):
#   - `wrap --stdout` on the 2.3 MB corpus file against `msgcat` on it;
#   - `wrap --stdout` on a small file (8.8 KB) against a one-line Deno script and msgcat;
#   - as users run them (`deno task wrap` and `bin/wrap`, which run the bundle cli/wrap/bundle.sh builds
#     on first use into .cache/wrap/; it is built before the runs are timed), as
#     the bare `deno run` line of the task, from the unbundled sources (cli/wrap/main.ts), and
#     through `main.ts wrap` (the same code behind the dispatcher of every mode);
#   - `serve` (first answer to GET /health) and `mcp` (answer to `initialize`), time to first answer.
# Usage: bench/wrap_startup.sh [RUNS]     (needs python3, curl and msgcat; apt-get install gettext)
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
# Interleaved: each round runs every command once, in turn, so a slow phase of this shared machine
# falls on all of them alike (hyperfine runs one command's runs back to back).
export BIG SMALL FLAGS ONE RUNS
python3 - <<'PY'
import os, statistics, subprocess, time
E = os.environ
BIG, SMALL, FLAGS, ONE, RUNS = E["BIG"], E["SMALL"], E["FLAGS"], E["ONE"], int(E["RUNS"])
BUNDLE = subprocess.run(["sh", "cli/wrap/bundle.sh"], capture_output=True, text=True, check=True).stdout.strip()
# Every row with the permissions bin/wrap grants: without write, detection could not keep its
# votes (.cache/wrap/layout-votes.json) and would judge the sample again on every run.
# The bundle's size: what every start loads (main.js and the chunks it imports statically), and in all.
import re
def static_imports(name, seen):
    if name not in seen:
        seen.add(name)
        with open(os.path.join(os.path.dirname(BUNDLE), name)) as f:
            # (minified: `import{a as b}from"./chunk.js";` several to a line)
            for dep in re.findall(r'(?:^|(?<=;))\s*(?:import|export)\b[^;"]*?from\s*"\./([^"]+)";', f.read(), re.M | re.S):
                static_imports(dep, seen)
    return seen
loaded = static_imports("main.js", set())
size = lambda names: sum(os.path.getsize(os.path.join(os.path.dirname(BUNDLE), n)) for n in names)
every = [n for n in os.listdir(os.path.dirname(BUNDLE)) if n.endswith(".js")]
print(f"bundle: {size(loaded)} bytes loaded at start ({len(loaded)} modules), {size(every)} in all ({len(every)})")
BASE = [
    ("msgcat big", ["msgcat", BIG]),
    ("one-line deno script", ["deno", "run", "-q", ONE]),
    # The same script through the task runner (one more process), to compare `deno task wrap` with.
    ("one-line deno script through deno task", ["deno", "task", "-q", "--eval", f"deno run -q {ONE}"]),
    ("msgcat small", ["msgcat", SMALL]),
]
def each(make):
    return [row for size, f in (("big", BIG), ("small", SMALL)) for row in make(size, f)]
# Three groups, each interleaved with the baselines and run one after the other: the sources'
# modules would lose their V8 code cache at every run if `main.ts wrap` (no V8 flags) and
# `wrap_main.ts` (the task's flags) alternated (V8 refuses a cache made under other flags).
GROUPS = [
    ("as users run it (the bundle)", each(lambda size, f: [
        (f"deno task wrap --stdout {size}", ["deno", "task", "-q", "wrap", "--stdout", f]),
        (f"bin/wrap --stdout {size}", ["bin/wrap", "--stdout", f]),
        (f"deno run wrap bundle --stdout {size}", ["deno", "run", "-q", "--no-config", FLAGS, "--allow-read", "--allow-write", "--allow-env=PO_LOCK_DIR,PO_GETTEXT", "--allow-sys=uid", BUNDLE, "--stdout", f]),
    ])),
    ("the unbundled sources", each(lambda size, f: [
        (f"deno run wrap_main.ts --stdout {size}", ["deno", "run", "-q", FLAGS, "--allow-read", "--allow-write", "--allow-env=PO_LOCK_DIR,PO_GETTEXT", "--allow-sys=uid", "cli/wrap/main.ts", "--stdout", f]),
    ])),
    ("through main.ts", each(lambda size, f: [
        (f"deno run main.ts wrap --stdout {size}", ["deno", "run", "-q", "--allow-read", "--allow-write", "--allow-env=PO_LOCK_DIR,PO_GETTEXT", "--allow-sys=uid", "main.ts", "wrap", "--stdout", f]),
    ]) + [("deno run main.ts wrap --help", ["deno", "run", "-q", "main.ts", "wrap", "--help"])]),
]
def run(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - t0) * 1000
for title, group in GROUPS:
    rows = BASE + group
    times = {name: [] for name, _ in rows}
    for _ in range(2):
        for name, cmd in rows: run(cmd)
    for _ in range(RUNS):
        for name, cmd in rows: times[name].append(run(cmd))
    med = {name: statistics.median(t) for name, t in times.items()}
    print(f"-- {title}")
    for name, _ in rows:
        note = ""
        if name.endswith(" big") and not name.startswith("msgcat"):
            note = f"  msgcat big / this: {med['msgcat big'] / med[name]:.2f}x"
        elif name.startswith("deno task") and name.endswith(" small"):
            note = f"  this / one-line script through deno task: {med[name] / med['one-line deno script through deno task']:.2f}x"
        elif name.endswith(" small") and not name.startswith("msgcat"):
            note = f"  this / one-line script: {med[name] / med['one-line deno script']:.2f}x"
        print(f"{med[name]:8.1f} ms median {min(times[name]):8.1f} min  {name}{note}")
PY
echo "load after wrap rows: $(uptime | sed 's/.*load average: //')"

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
