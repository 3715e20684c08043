#!/usr/bin/env bash
# Submissions/s of several builds, measured alternately in one sitting: for a before/after where this machine's
# spread from one run to the next (±10-15 %) is as large as the change. Each round starts each build's server in
# turn (API only, security on, as run.sh does), warms it up for 48 s and measures for the given seconds, with wrk as
# run.sh does; the rounds alternate the builds so that a drift of the machine's load touches every build alike.
# Usage: bench/server/compare.sh rounds seconds worktree...   (each worktree built: api/target/trainyard-server.jar)
# E.g.   git worktree add --detach /tmp/before HEAD~3 && (cd /tmp/before && mvn -q -DskipTests package)
#        bench/server/compare.sh 3 20 /tmp/before .
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
rounds="$1"; seconds="$2"; shift 2
trees=("$@")
compile_server_bench
server_bench submission-body > "$work/submission.json"
export REQUEST_METHOD=POST REQUEST_BODY_FILE="$work/submission.json" EXPECTED_STATUS=201
for tree in "${trees[@]}"; do
  [ -f "$tree/api/target/trainyard-server.jar" ] || { echo "$tree has no api/target/trainyard-server.jar: build it first" >&2; exit 1; }
done
echo "== machine: $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  for tree in "${trees[@]}"; do
    cp "$tree/api/target/trainyard-server.jar" "$work/server.jar"
    rm -rf "$work/data"
    start_server 18183 --trainyard.dispatcher.enabled=false
    request_load http://127.0.0.1:18183/jobs 48s > /dev/null
    result=$(request_load http://127.0.0.1:18183/jobs "${seconds}s")
    stop_server 18183
    rate=$(grep -oE '= [0-9]+ requests/s' <<< "$result" | grep -oE '[0-9]+')
    p99=$(grep -oE 'p99 [0-9.]+ ms' <<< "$result")
    echo "round $round  $(printf '%-40s' "$tree")  $rate submissions/s  $p99  (load $(cut -d' ' -f1 /proc/loadavg))"
    echo "$tree $rate" >> "$work/rates"
  done
done
echo
awk '{ sum[$1] += $2; n[$1]++; if (!($1 in min) || $2 < min[$1]) min[$1] = $2; if ($2 > max[$1]) max[$1] = $2 }
  END { for (t in sum) printf "%-40s mean %6.0f submissions/s (min %d, max %d, %d rounds)\n", t, sum[t] / n[t], min[t], max[t], n[t] }' \
  "$work/rates"
