#!/usr/bin/env bash
# Metrics benchmark (issue 13's targets: >= 200k points/s ingested, query p99 <= 50 ms): 1,000,000 scalar points
# of one tag in an event file written by PyTorch's SummaryWriter, shipped by the server's own agent from a job's
# TensorBoard folder and stored; then a 1,000-point downsampled read of that series, repeated.
# Needs the runtime's virtual environment (bash runtime/install.sh) for SummaryWriter.
# Usage: bench/metrics/run.sh [points] [queries]
# METRICS_BENCH_EVENTS=<file> reuses an event file written earlier by write_events.py with the same points.
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
points="${1:-1000000}"; queries="${2:-200}"

events="${METRICS_BENCH_EVENTS:-$work/events.out.tfevents.bench}"
if [ ! -f "$events" ]; then
  echo "== writing $points points with SummaryWriter (not timed)"
  runtime/.venv/bin/python bench/metrics/write_events.py "$events" "$points"
fi
ls -l "$events" | awk '{printf "== event file: %.1f MB\n", $5 / 1e6}'

mvn_quiet -DskipTests package
cp api/target/trainyard-server.jar "$work/server.jar"
set_bench_classpath testing

port=18191
"$JAVA_HOME/bin/java" -Xmx1g -jar "$work/server.jar" --server.port="$port" --trainyard.data-dir="$work/data" \
  --logging.level.root=WARN > "$work/server-$port.log" 2>&1 &
echo $! > "$work/server-$port.pid"
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$port/actuator/health" > /dev/null && break
  sleep 1
done
TRAINYARD_TOKEN="$(cat "$work/data/admin-token")"
export TRAINYARD_TOKEN

echo "== machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$JAVA_HOME/bin/java" -cp "$bench_classpath" bench/metrics/MetricsBench.java "http://127.0.0.1:$port" \
  "$events" "$points" "$queries"
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
