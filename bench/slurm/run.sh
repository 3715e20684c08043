#!/usr/bin/env bash
# The Slurm backend against the cluster of scripts/slurm-cluster.sh (issue 25's benchmark), over loopback:
#   submit-to-RUNNING latency of no-op jobs one at a time, and batch jobs handed to sbatch per second when
#   [burst] jobs (default 200) are submitted at once. Runs as root (the cluster does); stops what it started.
# Usage: sudo bench/slurm/run.sh [burst]
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/lib.sh
burst="${1:-200}"

mvn_quiet -DskipTests -Dtrainyard.ui.skip=true package
cp api/target/trainyard-server.jar "$work/server.jar"
compile_server_bench

# Not under $work: munged wants every folder above its socket open to all, and $work is the user's alone.
export TRAINYARD_SLURM_DIR=/tmp/trainyard-slurm-bench
exit_hooks+=("bash scripts/slurm-cluster.sh stop > /dev/null 2>&1")
read -r -a cluster_args < <(bash scripts/slurm-cluster.sh start | tail -n 1)
export SLURM_CONF="$TRAINYARD_SLURM_DIR/etc/slurm.conf"
echo "== machine: $(nproc) cores; $(sinfo --version): $(sinfo --noheader --format='%D nodes, %c CPUs and %G each')"
start_server 18191 "${cluster_args[@]}"
server_bench slurm http://127.0.0.1:18191 "$burst"
stop_server 18191
