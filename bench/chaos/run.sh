#!/usr/bin/env bash
# Chaos benchmark (issue 10): two replicas on one PostgreSQL 15, a remote agent given both replicas, jobs with
# steady log output submitted all along, while at random a replica (SIGTERM or SIGKILL), the remote agent
# (SIGKILL) or PostgreSQL (pg_ctl stop -m immediate) is killed and started again. At the end it prints jobs
# submitted, SUCCEEDED, FAILED by cause, log lines lost and duplicated, and attempts that overlapped.
# A job every 2 s prints 300 lines over about 9 s; a fault every 10-25 s, the part back after 3-10 s. The lease
# is 45 s, longer than a replica takes to start again on a small machine (see README, "Rolling restarts").
# Usage: bench/chaos/run.sh [minutes]   (needs root or the postgres user for PostgreSQL 15's binaries)
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
minutes="${1:-10}"

# Always (re)built, incrementally: the benchmark is of the code in this working tree.
mvn_quiet -DskipTests package
# Copies: a build running beside this one may rewrite the jars while they run.
cp api/target/trainyard-server.jar "$work/server.jar"
cp agent/target/trainyard-agent.jar "$work/agent.jar"
chmod 777 "$work"

echo "== machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 bench/chaos/chaos.py --work="$work" --java="$JAVA_HOME/bin/java" --minutes="$minutes"
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
