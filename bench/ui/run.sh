#!/usr/bin/env bash
# Dashboard benchmark (issue 14's targets): with 100,000 jobs in the database and one job of 1,000,000 log
# lines, in Debian's Chromium (playwright-core): time to a first rendered jobs page (p50 of 5 loads), time to
# open the big job's log, and scrolling it from start to end with no long task over 200 ms.
# Usage: bench/ui/run.sh [jobs] [log-lines]
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
jobs="${1:-100000}"; log_lines="${2:-1000000}"

# Always (re)built, incrementally: the benchmark is of the code in this working tree (the dashboard included).
mvn_quiet -DskipTests -pl api -am package
cp api/target/trainyard-server.jar "$work/server.jar"
(cd ui && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; })

echo "== machine: $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# The big log: a real job printing the lines, run by the server's own agent.
start_server 18191
node bench/ui/ui_bench.mjs big-log http://127.0.0.1:18191 "$work/data/admin-token" "$log_lines" > "$work/big-job"
stop_server 18191
# The 100,000 jobs, through the API, on a replica that dispatches nothing: they stay queued.
start_server 18192 --trainyard.dispatcher.enabled=false
node bench/ui/ui_bench.mjs seed http://127.0.0.1:18192 "$work/data/admin-token" "$jobs"
node bench/ui/ui_bench.mjs measure http://127.0.0.1:18192 "$work/data/admin-token" "$(cat "$work/big-job")"
stop_server 18192
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
