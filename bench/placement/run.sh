#!/usr/bin/env bash
# The placement policy on a simulated pool (default: 100 agents x 8 GPUs, 10,000 queued jobs).
# Usage: bench/placement/run.sh [agents] [gpus-per-agent] [jobs]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/select-jdk.sh
mvn -B -q --no-transfer-progress -DskipTests install -pl scheduler -am
classpath_file="$(mktemp)"
mvn -B -q --no-transfer-progress dependency:build-classpath -pl scheduler -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=runtime
"$JAVA_HOME/bin/java" -Xmx512m -cp "scheduler/target/classes:$(cat "$classpath_file")" bench/placement/PlacementBench.java "$@"
rm -f "$classpath_file"
