#!/usr/bin/env bash
# Where the server's CPU goes (issue 24): JFR's CPU samples of the API-only server while 16 clients submit (the
# server warmed up by a pass first), then of a dispatching server while one job prints log lines and an SSE
# client follows them. For each, the CPU seconds of the server, of PostgreSQL and of the load generator over the
# recorded pass, then the server's samples by layer (a sample counts towards every layer on its stack, so the
# shares add up to more than 100 %) and its hottest methods. The recordings stay in bench/server/profiles/.
# Usage: bench/server/profile.sh [submissions] [log-lines]
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
submissions="${1:-4000}"; log_lines="${2:-300000}"
profiles=bench/server/profiles
mkdir -p "$profiles"

mvn_quiet -DskipTests package
cp api/target/trainyard-server.jar "$work/server.jar"
set_bench_classpath testing
bench() { "$JAVA_HOME/bin/java" -cp "$bench_classpath" bench/server/ServerBench.java "$@"; }

# CPU seconds (user + system) so far of: the server's JVM, every postgres process, everything else.
cpu_seconds() { # server pid
  local tick; tick=$(getconf CLK_TCK)
  python3 - "$1" "$tick" <<'PY'
import os, sys
server, tick = sys.argv[1], int(sys.argv[2])
totals = {"server": 0, "postgres": 0, "other": 0}
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        continue
    name = stat[stat.index("(") + 1:stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2:].split()
    used = (int(fields[11]) + int(fields[12])) / tick
    totals["server" if pid == server else "postgres" if name.startswith("postgres") else "other"] += used
print(" ".join(f"{v:.2f}" for v in totals.values()))
PY
}

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
      f"load generator and the rest {used[2]:.1f} s (the machine has {__import__('os').cpu_count()} cores)")
PY
  "$JAVA_HOME/bin/jfr" print --events jdk.ExecutionSample --stack-depth 256 "$profiles/$name.jfr" \
    | python3 bench/server/cpu_layers.py
  "$JAVA_HOME/bin/jfr" view --width 160 hot-methods "$profiles/$name.jfr" | head -n 30
}

echo "== machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== submissions: 16 clients against an API-only server"
start_server 18183 --trainyard.dispatcher.enabled=false
bench submit http://127.0.0.1:18183 "$submissions" | sed 's/^/warm-up pass: /'
record submissions 18183 bench submit http://127.0.0.1:18183 "$submissions"
stop_server 18183
rm -rf "$work/data"
echo "== logs: one job printing $log_lines lines, followed over SSE"
start_server 18184
bench dispatch http://127.0.0.1:18184 20 > /dev/null
record logs 18184 bench logs http://127.0.0.1:18184 "$log_lines"
stop_server 18184
