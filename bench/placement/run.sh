#!/usr/bin/env bash
# Placement benchmarks.
#  1. The placement policy on a simulated pool, in memory (PlacementBench; default: 100 agents x 8 GPUs,
#     10,000 queued jobs).
#  2. The PostgreSQL placement path (ServerPlacementBench): the real server over HTTP, on its embedded
#     PostgreSQL, with -Xmx512m, driven by simulated agents (virtual threads speaking the agent protocol).
#     a. throughput: the same pool and queue shape (jobs of 1/1/1/1/2/2/4/8 GPUs lasting PG_MIN_SECONDS to
#        PG_MAX_SECONDS): placements/s, GPUs busy while jobs wait, makespan, server heap;
#     b. running: PG_RUNNING_JOBS 1-GPU jobs that keep running on PG_RUNNING_AGENTS x gpus-per-agent GPUs:
#        heap used, idle CPU, and placement latency with them all running.
#     Each scenario gets a fresh server and data directory.
# Usage: bench/placement/run.sh [agents] [gpus-per-agent] [jobs]
#   env: PG_MIN_SECONDS (2), PG_MAX_SECONDS (8), PG_RUNNING_AGENTS (250), PG_RUNNING_JOBS (2000), PG_PROBES (50),
#        PG_SKIP_IN_MEMORY=1 to run only the server benchmarks.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
agents="${1:-100}"; gpus="${2:-8}"; jobs="${3:-10000}"

echo "== machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; java: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"

if [ "${PG_SKIP_IN_MEMORY:-0}" != 1 ]; then
  echo "== in memory: the placement policy (PlacementBench)"
  # Installed: dependency:build-classpath resolves the Trainyard modules backends/local depends on from ~/.m2.
  mvn_quiet -DskipTests install -pl backends/local -am
  mvn_quiet dependency:build-classpath -pl backends/local -Dmdep.outputFile="$work/classpath-placement" -DincludeScope=runtime
  # The placement code (backends/local) and the types it decides in (core) from this tree's classes, ahead
  # of their jars in ~/.m2: that repository is shared, and another checkout's install may replace them meanwhile.
  "$JAVA_HOME/bin/java" -Xmx512m -cp "backends/local/target/classes:core/target/classes:$(cat "$work/classpath-placement")" \
    bench/placement/PlacementBench.java "$agents" "$gpus" "$jobs"
fi

# Always (re)built, incrementally: the benchmark is of the code in this working tree.
mvn_quiet -DskipTests package
# A copy: a build running beside this one may rewrite the jar while the server still loads classes from it.
cp api/target/trainyard-server.jar "$work/server.jar"
# ServerPlacementBench's class path: job bodies (testing) and the agents' messages (protocol).
set_bench_classpath testing protocol

# Each run on a fresh database of its own, with remote agents only, on short leases.
server_heap=512m
start_placement_server() { # port
  rm -rf "$work/data-$1"
  server_data="$work/data-$1" start_server "$1" --trainyard.local.embedded-agent=false \
    --trainyard.agent.heartbeat-interval=2s --trainyard.agent.lease=30s
}
stop_placement_server() { # port: stops it, then shows what it logged at WARN or above (root level WARN) while running
  local log="$work/server-$1.log" lines
  lines=$(wc -l < "$log")
  stop_server "$1"
  { head -n "$lines" "$log" | grep -E ' (WARN|ERROR) ' || true; } | { grep -v SpringDoc || true; } > "$work/warnings-$1"
  if [ -s "$work/warnings-$1" ]; then
    echo "server log: $(wc -l < "$work/warnings-$1") WARN/ERROR line(s) while it ran (SpringDoc notices left out), the last 20:"
    tail -20 "$work/warnings-$1" | cut -c1-400 | sed 's/^/  /'
  fi
  local at_stop
  at_stop=$(tail -n +"$((lines + 1))" "$log" | grep -cE ' (WARN|ERROR) ' || true)
  if [ "$at_stop" -gt 0 ]; then
    echo "server log: $at_stop WARN/ERROR line(s) while it stopped, e.g.: $(tail -n +"$((lines + 1))" "$log" | grep -E ' (WARN|ERROR) ' | tail -1 | cut -c1-300)"
  fi
}

start_placement_server 18191
"$JAVA_HOME/bin/java" -cp "$bench_classpath" bench/placement/ServerPlacementBench.java throughput http://127.0.0.1:18191 \
  "$agents" "$gpus" "$jobs" "${PG_MIN_SECONDS:-2}" "${PG_MAX_SECONDS:-8}"
stop_placement_server 18191

start_placement_server 18192
"$JAVA_HOME/bin/java" -cp "$bench_classpath" bench/placement/ServerPlacementBench.java running http://127.0.0.1:18192 \
  "${PG_RUNNING_AGENTS:-250}" "$gpus" "${PG_RUNNING_JOBS:-2000}" "${PG_PROBES:-50}"
stop_placement_server 18192
