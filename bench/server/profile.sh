#!/usr/bin/env bash
# Where the server's CPU goes (issue 24): JFR's CPU samples of the API-only server while 16 connections submit (wrk;
# the server warmed up first), then of a dispatching server while one job prints log lines (after a first burst) and
# an SSE client follows them. For each, the CPU seconds of the server, of PostgreSQL and of the load generator over the
# recorded pass, then the server's samples by layer (a sample counts towards every layer on its stack, so the
# shares add up to more than 100 %) and its hottest methods. The recordings stay in bench/server/profiles/.
# Usage: bench/server/profile.sh [submission-seconds] [log-lines]
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
seconds="${1:-20}"; log_lines="${2:-300000}"
profiles=bench/server/profiles
mkdir -p "$profiles"

mvn_quiet -DskipTests package
cp api/target/trainyard-server.jar "$work/server.jar"
compile_server_bench

# Records the server on a port while a command runs; prints the CPU split, then the layers and hot methods.
record() { # name port command...
  local name=$1 port=$2; shift 2
  local pid; pid=$(cat "$work/server-$port.pid")
  "$JAVA_HOME/bin/jcmd" "$pid" JFR.start name="$name" settings=profile > /dev/null
  local before; before=$(cpu_seconds "$pid")
  local started=$SECONDS
  "$@"
  local after; after=$(cpu_seconds "$pid")
  "$JAVA_HOME/bin/jcmd" "$pid" JFR.stop name="$name" filename="$PWD/$profiles/$name.jfr" > /dev/null
  python3 - "$before" "$after" "$((SECONDS - started))" <<'PY'
import sys
before, after, wall = [float(x) for x in sys.argv[1].split()], [float(x) for x in sys.argv[2].split()], int(sys.argv[3])
used = [a - b for a, b in zip(after, before)]
print(f"CPU over {wall} s of the pass: server {used[0]:.1f} s, postgres {used[1]:.1f} s, "
      f"load generator and the rest {used[2] - used[0] - used[1]:.1f} s (the machine has {__import__('os').cpu_count()} cores)")
PY
  "$JAVA_HOME/bin/jfr" print --events jdk.ExecutionSample --stack-depth 512 "$profiles/$name.jfr" \
    | python3 bench/server/cpu_layers.py
  "$JAVA_HOME/bin/jfr" view --width 160 hot-methods "$profiles/$name.jfr" | head -n 30
}

echo "== machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== submissions: 16 connections (wrk) against an API-only server"
# JFR keeps 64 frames a stack by default: a request is deeper than that, and its truncated stacks lost the frames
# near the thread's root (a share counted for the controller or a filter came out too small).
export server_jvm_args="-XX:FlightRecorderOptions:stackdepth=512"
start_server 18183 --trainyard.dispatcher.enabled=false
server_bench submission-body > "$work/submission.json"
export REQUEST_METHOD=POST REQUEST_BODY_FILE="$work/submission.json" EXPECTED_STATUS=201
# As run.sh: C2 compiles the request path for about 40 s of this load.
request_load http://127.0.0.1:18183/jobs 48s | sed 's/^/warm-up: /'
record submissions 18183 request_load http://127.0.0.1:18183/jobs "${seconds}s"
stop_server 18183
rm -rf "$work/data"
echo "== logs: one job printing $log_lines lines, followed over SSE"
start_server 18184
server_bench dispatch http://127.0.0.1:18184 20 > /dev/null
server_bench logs http://127.0.0.1:18184 "$log_lines" cold > /dev/null
record logs 18184 server_bench logs http://127.0.0.1:18184 "$log_lines" burst
stop_server 18184
