#!/usr/bin/env bash
# Server benchmarks (issue 2's targets), all over loopback on this machine:
#   submissions/s with 16 concurrent clients (against an API-only replica, so dispatch does not compete),
#   submit-to-process-start latency p50/p99 of no-op jobs (alone, then beside 16 clients submitting at full speed),
#   and log lines/s end to end for a job printing
#   1,000,000 lines with the SSE follower's lag; then the ceiling for submissions, pgbench committing the same rows
#   (bench/server/pgbench.sh), and the ratio of the two.
# Usage: bench/server/run.sh [submissions] [dispatch-jobs] [log-lines]
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
submissions="${1:-10000}"; dispatch_jobs="${2:-200}"; log_lines="${3:-1000000}"

# Always (re)built, incrementally: the benchmark is of the code in this working tree.
mvn_quiet -DskipTests package
# A copy: a build running beside this one may rewrite the jar while the server still loads classes from it.
cp api/target/trainyard-server.jar "$work/server.jar"
# ServerBench's class path: job bodies (testing), and Jackson with them.
set_bench_classpath testing

echo "== machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; java: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
start_server 18181 --trainyard.dispatcher.enabled=false
# Twice: the first pass still shares the cores with the JIT compilers of both JVMs; the second is the
# steady state of a server that has been up for a while.
"$JAVA_HOME/bin/java" -cp "$bench_classpath" bench/server/ServerBench.java submit http://127.0.0.1:18181 "$submissions" | sed 's/^/first pass: /'
"$JAVA_HOME/bin/java" -cp "$bench_classpath" bench/server/ServerBench.java submit http://127.0.0.1:18181 "$submissions" \
  | sed 's/^/steady state: /' | tee "$work/steady"
stop_server 18181
rm -rf "$work/data"
start_server 18182
"$JAVA_HOME/bin/java" -cp "$bench_classpath" bench/server/ServerBench.java dispatch http://127.0.0.1:18182 "$dispatch_jobs"
"$JAVA_HOME/bin/java" -cp "$bench_classpath" bench/server/ServerBench.java logs http://127.0.0.1:18182 "$log_lines"
stop_server 18182
# The ceiling, in the same sitting: what PostgreSQL commits when each transaction stores what a submission does.
ceiling=$(bash bench/server/pgbench.sh 20)
steady=$(grep -oE '= [0-9]+ submissions/s' "$work/steady" | grep -oE '[0-9]+')
awk -v ours="$steady" -v ceiling="$ceiling" 'BEGIN {
  printf "\n%-56s %10s %10s %7s\n", "", "Trainyard", "pgbench", "ratio"
  printf "%-56s %10d %10d %6.0f%%\n", "submissions/s, steady, 16 clients (a job + its event)", ours, ceiling, 100 * ours / ceiling
}'
