#!/usr/bin/env bash
# Server benchmarks (issue 2's and issue 24's targets), all over loopback on this machine:
#   submissions/s from 16 connections at once (wrk, against an API-only replica, so dispatch does not compete): the
#   first seconds of a fresh server, then its steady state, with the CPU per request of the server, PostgreSQL and the
#   rest (the load generator, the kernel); the same for GET /users/me (what HTTP, authentication and Spring MVC cost
#   with next to no work) and for a dry run (a submission's checks without storing);
#   submit-to-process-start latency p50/p99 of no-op jobs (alone, then beside 16 clients submitting at full speed),
#   and log lines/s end to end for a job printing
#   1,000,000 lines with the SSE follower's lag; then the ceiling for submissions, pgbench committing the same rows
#   (bench/server/pgbench.sh), and the ratio of the two.
# Usage: bench/server/run.sh [submission-seconds] [dispatch-jobs] [log-lines]
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
seconds="${1:-20}"; dispatch_jobs="${2:-200}"; log_lines="${3:-1000000}"
if [ "$seconds" -gt 600 ]; then
  echo "the first argument is the seconds of the measured submission pass (it was a number of submissions once)" >&2
  exit 2
fi

# Always (re)built, incrementally: the benchmark is of the code in this working tree.
mvn_quiet -DskipTests package
# A copy: a build running beside this one may rewrite the jar while the server still loads classes from it.
cp api/target/trainyard-server.jar "$work/server.jar"
compile_server_bench
server_bench submission-body > "$work/submission.json"

echo "== machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; java: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
start_server 18181 --trainyard.dispatcher.enabled=false
export REQUEST_METHOD=POST REQUEST_BODY_FILE="$work/submission.json" EXPECTED_STATUS=201
measured_load 18181 /jobs 8s | sed 's/^/submissions, the first 8 s of a fresh server: /'
# On 2 cores, C2 compiles the request path for about 40 s of this load (the rate rises from ~500/s to its plateau
# meanwhile); a long-running server is past that.
request_load http://127.0.0.1:18181/jobs 40s > /dev/null
measured_load 18181 /jobs "${seconds}s" | sed 's/^/submissions, steady state: /' | tee "$work/steady"
# Where a submission's cost lies: the framework alone, then the submission's checks without storing.
export REQUEST_METHOD=GET REQUEST_BODY_FILE="" EXPECTED_STATUS=200
request_load http://127.0.0.1:18181/users/me 8s > /dev/null
measured_load 18181 /users/me 8s | sed 's|^|GET /users/me: |'
export REQUEST_METHOD=POST REQUEST_BODY_FILE="$work/submission.json" EXPECTED_STATUS=200
request_load http://127.0.0.1:18181/jobs/dry-run 8s > /dev/null
measured_load 18181 /jobs/dry-run 8s | sed 's|^|POST /jobs/dry-run: |'
stop_server 18181
rm -rf "$work/data"
start_server 18182
server_bench dispatch http://127.0.0.1:18182 "$dispatch_jobs"
# Dispatch beside full-speed submissions of jobs that the dispatcher fails at once (they insist on a GPU).
server_bench gpu-submission-body > "$work/gpu-submission.json"
export REQUEST_METHOD=POST REQUEST_BODY_FILE="$work/gpu-submission.json" EXPECTED_STATUS=201
# wrk in rounds of 5 s until the measured pass is done, each round's line kept to add them up.
(while [ ! -f "$work/beside-done" ]; do request_load http://127.0.0.1:18182/jobs 5s; done) > "$work/beside" &
sleep 2
server_bench dispatch-beside http://127.0.0.1:18182 "$dispatch_jobs"
touch "$work/beside-done"
wait $!
awk '{ requests += $1; seconds += $4 } END { printf "dispatch beside submissions: %d submitted beside in %.1f s = %.0f/s\n", requests,
  seconds, requests / seconds }' "$work/beside"
server_bench drain-queue http://127.0.0.1:18182 | sed 's/^/dispatch beside submissions: /'
# Log passes, each with the CPU per line: the rest is the job's Python printer and this benchmark's SSE follower, one
# JVM for all passes (a coprocess told each pass in turn). The first burst only warms up: on 2 cores C2 still
# compiles the log path after the cold pass, and a burst measured then varied by 25 % (server 5.2-10.1 µs a line).
coproc LOG_PASSES { server_bench logs http://127.0.0.1:18182 "$log_lines"; }
for pass in cold warm-up burst paced; do
  before=$(cpu_seconds "$(cat "$work/server-18182.pid")")
  echo "${pass/warm-up/burst}" >&"${LOG_PASSES[1]}"
  read -r result <&"${LOG_PASSES[0]}"
  after=$(cpu_seconds "$(cat "$work/server-18182.pid")")
  [ "$pass" = warm-up ] && continue
  echo "$result"
  echo "logs ($pass): CPU per line: $(cpu_per "$before" "$after" "$log_lines")"
done
eval "exec ${LOG_PASSES[1]}>&-"
wait "$LOG_PASSES_PID"
stop_server 18182
# The ceiling, in the same sitting: what PostgreSQL commits when each transaction stores what a submission does.
ceiling=$(bash bench/server/pgbench.sh 20)
steady=$(grep -oE '= [0-9]+ requests/s' "$work/steady" | grep -oE '[0-9]+')
awk -v ours="$steady" -v ceiling="$ceiling" 'BEGIN {
  printf "\n%-56s %10s %10s %7s\n", "", "Trainyard", "pgbench", "ratio"
  printf "%-56s %10d %10d %6.0f%%\n", "submissions/s, steady, 16 clients (a job + its event)", ours, ceiling, 100 * ours / ceiling
}'
