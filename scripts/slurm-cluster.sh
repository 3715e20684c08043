#!/usr/bin/env bash
# A real Slurm cluster on this host, for trying the Slurm backend and for its tests:
#   sudo scripts/slurm-cluster.sh start|stop|status|fail NODE
# `start` brings up munged, the accounting (MariaDB and slurmdbd), slurmctld and TRAINYARD_SLURM_NODES (2)
# slurmd "nodes" named node1, node2, ...,
# waits until sinfo shows every node usable and prints, as its last line, the server arguments that point at
# the cluster. Started again while it runs, it restarts whichever daemon is missing and prints the same line.
# `stop` stops what `start` started (by its pid files), the jobs' processes left on the nodes, and removes the
# network namespaces and bridge it made; files (state, logs, shared/) stay. `status` prints sinfo.
# `fail NODE` kills every process of one node at once (its slurmd, slurmstepd, the jobs' tasks), as when a node
# loses power: Slurm marks it DOWN after SlurmdTimeout and ends its jobs NODE_FAIL. `start` brings it back.
#
# Everything lives under ${TRAINYARD_SLURM_DIR:-/tmp/trainyard-slurm}:
#   etc/      slurm.conf, gres.conf, the nodes' /etc/hosts     shared/  the nodes' "shared filesystem"
#   munge/    this cluster's munge key and socket              state/   slurmctld's state (job ids go on)
#   spool/    each slurmd's spool                              log/     every daemon's log
#   run/      pid files                                        dev/     the fake GPUs' device files
#   accounting/  MariaDB's data and socket, for slurmdbd
# Clients need nothing but SLURM_CONF=<dir>/etc/slurm.conf: slurm.conf names the munge socket (AuthInfo), so
# neither the system's munged nor MUNGE_SOCKET is needed.
#
# Each node is a slurmd in its own network and UTS namespace (`ip netns` tyslurm-nodeN, a veth pair on the
# bridge tyslurm0, subnet ${TRAINYARD_SLURM_NET:-10.217.0}.0/24) with its own hostname and address, and an
# /etc/hosts (bind-mounted in its own mount namespace) that resolves every node name. Debian's slurmd also
# runs several slurmd per host (`slurmd -N nodeN` with a Port per node works on 22.05.8), but those nodes
# share one hostname and address: a node's name (what SLURM_JOB_NODELIST says, what MASTER_ADDR is made
# of) resolves nowhere, `hostname` is the same on every rank and two ranks cannot listen on the same port.
# With namespaces a job sees what it sees on a real cluster. The controller stays in the host's namespace on
# the bridge's address, so commands run here reach it too. One such cluster per host (fixed names and ports).
#
# Accounting is on, as on the clusters sites run: slurmdbd keeps every job in a MariaDB database of the cluster's
# own (mariadbd on 127.0.0.1:16820, slurmdbd on 16819), so sacct answers, e.g. who cancelled a job.
#
# Run as root (namespaces, mknod, daemons as SlurmUser root). Installs nothing: Debian 12's packages are
# munge, slurmctld, slurmd, slurm-client, slurmdbd (Slurm 22.05), mariadb-server and iproute2.
set -euo pipefail

dir="$(realpath -m "${TRAINYARD_SLURM_DIR:-/tmp/trainyard-slurm}")"
net="${TRAINYARD_SLURM_NET:-10.217.0}"
node_count="${TRAINYARD_SLURM_NODES:-2}"
conf="$dir/etc/slurm.conf"
bridge=tyslurm0
export SLURM_CONF="$conf"

die() {
  echo "slurm-cluster.sh: $*" >&2
  exit 1
}

[[ "$node_count" =~ ^[1-9]$ ]] || die "TRAINYARD_SLURM_NODES must be 1 to 9"
[[ "$net" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "TRAINYARD_SLURM_NET must be the first three numbers of a /24, e.g. 10.217.0"
nodes=()
for i in $(seq 1 "$node_count"); do nodes+=("node$i"); done

usage() {
  echo "usage: $0 start|stop|status|fail NODE" >&2
  exit 2
}

require() {
  local missing=() binary
  for binary in munged mungekey slurmctld slurmd slurmdbd sinfo scontrol sacctmgr mariadbd mariadb-install-db ip nsenter unshare; do
    command -v "$binary" > /dev/null || missing+=("$binary")
  done
  [ ${#missing[@]} -eq 0 ] ||
    die "missing ${missing[*]}: install Debian's packages with: apt-get install munge slurmctld slurmd slurm-client slurmdbd mariadb-server iproute2"
  [ "$(id -u)" = 0 ] || die "run it as root: it makes network namespaces and device files and runs the daemons as root"
}

# alive PIDFILE COMM: the pid file names a running process called COMM (a stale pid file, or a pid reused by
# another program, is not ours).
alive() {
  local pid
  [ -s "$1" ] || return 1
  pid="$(< "$1")"
  [ -r "/proc/$pid/comm" ] && [ "$(< "/proc/$pid/comm")" = "$2" ]
}

# stop_daemons PIDFILE:COMM...: SIGTERM to each that runs, then up to 10 s for all of them, then SIGKILL.
stop_daemons() {
  local entry pid running pids=()
  for entry in "$@"; do
    if alive "${entry%:*}" "${entry##*:}"; then
      pid="$(< "${entry%:*}")"
      kill "$pid" 2> /dev/null || true
      pids+=("$pid")
    fi
    rm -f "${entry%:*}"
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  for _ in $(seq 1 100); do
    running=no
    for pid in "${pids[@]}"; do [ ! -e "/proc/$pid" ] || running=yes; done
    [ $running = yes ] || return 0
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2> /dev/null || true; done
}

server_args() {
  echo "--trainyard.slurm.enabled=true --trainyard.slurm.conf=$conf --trainyard.slurm.work-root=$dir/shared --trainyard.slurm.partition=debug"
}

node_address() { # node1 -> <net>.11
  echo "$net.$((10 + ${1#node}))"
}

write_config() {
  local node node_lines="" node_list
  for node in "${nodes[@]}"; do
    node_lines+="NodeName=$node NodeAddr=$(node_address "$node") CPUs=4 RealMemory=8192 Gres=gpu:2 State=UNKNOWN"$'\n'
  done
  node_list="$(IFS=,; echo "${nodes[*]}")"
  cat > "$conf" << EOF
# Written by scripts/slurm-cluster.sh (each start rewrites it while slurmctld is down): a single-host test
# cluster. Every node is a slurmd in its own network namespace on the bridge $bridge ($net.0/24).
ClusterName=trainyard
# "localhost" makes this host's slurmctld the primary controller whatever the host is called; clients and
# slurmds connect to the address in parentheses, the bridge's, which every namespace reaches.
SlurmctldHost=localhost($net.1)
# Not 6817/6818, so that a system Slurm on this host is left alone.
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
# This cluster's own munged; clients find its socket here, no MUNGE_SOCKET needed.
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
# Kept across stop/start, so job ids keep growing as on a real cluster (a server that remembers an id
# never meets it again as another job).
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups: processes are tracked through /proc and not confined or bound to CPUs.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
# Cores and GRES are scheduled, memory is not (--mem up to RealMemory is accepted, not enforced).
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
# The nodes are as big as written below, not as this host is (they share its cores): 4 CPUs and 2 GPUs each.
SlurmdParameters=config_overrides
# A slurmd that stops answering makes its node DOWN, and the node's jobs NODE_FAIL, after about 10 s; the
# node is back as soon as its slurmd registers again (ReturnToService=2), even after such a failure.
SlurmdTimeout=10
ReturnToService=2
# A job that fails with its node ends NODE_FAIL instead of being requeued.
JobRequeue=0
# SIGTERM, then SIGKILL 5 s later (scancel, time limit).
KillWait=5
# A job that asks for more than the partition has (nodes, CPUs) is refused by sbatch instead of pending
# forever (Reason=PartitionNodeLimit, PartitionConfig); GRES beyond a node's is refused in any case.
EnforcePartLimits=ALL
# A finished job stays visible to squeue and scontrol for 5 minutes.
MinJobAge=300
InactiveLimit=0
# Jobs are recorded by this cluster's slurmdbd (sacct reads them); with munge, the "password" names its socket.
# No limits or associations are enforced: any user may submit to any account.
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=$net.1
AccountingStoragePort=16819
AccountingStoragePass=$dir/munge/munge.socket
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
${node_lines}PartitionName=debug Nodes=$node_list Default=YES MaxTime=INFINITE State=UP
EOF
  # slurmdbd reads it from beside slurm.conf, and only when it is SlurmUser's alone (it names the database's user).
  cat > "$dir/etc/slurmdbd.conf" << EOF
# Written by scripts/slurm-cluster.sh: the accounting daemon, on the cluster's MariaDB.
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
DbdHost=localhost
DbdAddr=$net.1
DbdPort=16819
SlurmUser=root
PidFile=$dir/run/slurmdbd.pid
LogFile=$dir/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=16820
StorageUser=slurm
StorageLoc=slurm_accounting
EOF
  chmod 600 "$dir/etc/slurmdbd.conf"
  # slurmd drops a GPU without a device file from its GRES ("Removing file-less GPU"), so each node's two
  # GPUs are two character devices (copies of /dev/null, 1:3) under dev/; jobs get CUDA_VISIBLE_DEVICES.
  cat > "$dir/etc/gres.conf" << EOF
# Written by scripts/slurm-cluster.sh: two fake GPUs per node, no detection.
AutoDetect=off
Name=gpu File=$dir/dev/gpu[0-1]
EOF
  {
    echo "127.0.0.1 localhost"
    echo "::1 localhost ip6-localhost ip6-loopback"
    echo "$net.1 $(hostname) slurmctld"
    for node in "${nodes[@]}"; do echo "$(node_address "$node") $node"; done
  } > "$dir/etc/hosts"
}

prepare_dirs() {
  mkdir -p "$dir"/{etc,state,log,run,dev,shared,accounting} "${nodes[@]/#/$dir/spool/}"
  chmod 755 "$dir" "$dir/etc"
  # Jobs of any user write their folders here.
  chmod 1777 "$dir/shared"
  local gpu
  for gpu in 0 1; do
    [ -c "$dir/dev/gpu$gpu" ] || { rm -f "$dir/dev/gpu$gpu"; mknod -m 666 "$dir/dev/gpu$gpu" c 1 3; }
  done
  # munged wants its socket's folder searchable by everyone and its key readable by itself alone.
  mkdir -p "$dir/munge"
  chmod 755 "$dir/munge"
  if [ ! -s "$dir/munge/munge.key" ]; then
    mungekey --create --keyfile="$dir/munge/munge.key" --bits=1024
  fi
  chmod 600 "$dir/munge/munge.key"
}

start_munge() {
  alive "$dir/run/munged.pid" munged && return 0
  munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" ||
    die "munged did not start: see $dir/log/munged.log"
}

network_up() {
  if ! ip link show "$bridge" > /dev/null 2>&1; then
    if ip -4 addr show | grep -q "inet $net\." || ip -4 route show | grep -q "^$net\."; then
      die "$net.0/24 is already used on this host: set TRAINYARD_SLURM_NET to a free /24 (e.g. 10.218.0)"
    fi
    ip link add "$bridge" type bridge
    ip addr add "$net.1/24" dev "$bridge"
    ip link set "$bridge" up
  fi
  local node ns veth address
  for node in "${nodes[@]}"; do
    ns="tyslurm-$node"
    veth="tyslurm-${node#node}"
    address="$(node_address "$node")"
    if [ -e "/run/netns/$ns" ] && ip -n "$ns" -4 addr show dev eth0 2> /dev/null | grep -q "inet $address/"; then
      continue
    fi
    # A half-made namespace (an interrupted start) is made again.
    if [ -e "/run/netns/$ns" ]; then ip netns delete "$ns"; fi
    ip link delete "$veth" 2> /dev/null || true
    ip netns add "$ns"
    ip link add "$veth" type veth peer name eth0 netns "$ns"
    ip link set "$veth" master "$bridge" up
    ip -n "$ns" link set lo up
    ip -n "$ns" addr add "$address/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" route add default via "$net.1"
  done
}

network_down() {
  local ns
  for ns in /run/netns/tyslurm-node*; do
    if [ -e "$ns" ]; then ip netns delete "${ns##*/}"; fi
    # Deleting the namespace deletes the veth pair, unless a process still holds the namespace.
    ip link delete "tyslurm-${ns##*/tyslurm-node}" 2> /dev/null || true
  done
  ip link delete "$bridge" 2> /dev/null || true
}

# MariaDB, made on first start with a user for slurmdbd (no password: it listens on loopback only).
start_database() {
  local socket="$dir/accounting/mariadb.sock"
  if [ ! -d "$dir/accounting/data/mysql" ]; then
    mariadb-install-db --no-defaults --datadir="$dir/accounting/data" --user=root --skip-test-db \
      > "$dir/log/mariadb-install.log" 2>&1 || die "mariadb-install-db failed: see $dir/log/mariadb-install.log"
  fi
  if ! alive "$dir/run/mariadbd.pid" mariadbd; then
    # A small buffer pool: the database holds a few thousand jobs at most.
    mariadbd --no-defaults --datadir="$dir/accounting/data" --socket="$socket" --port=16820 --bind-address=127.0.0.1 \
      --user=root --pid-file="$dir/run/mariadbd.pid" --log-error="$dir/log/mariadb.log" --skip-name-resolve \
      --innodb-buffer-pool-size=32M > /dev/null 2>&1 &
  fi
  for _ in $(seq 1 100); do
    if mariadb --no-defaults --socket="$socket" --user=root --execute="CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1';
        GRANT ALL ON slurm_accounting.* TO 'slurm'@'127.0.0.1';" 2> /dev/null; then
      return 0
    fi
    sleep 0.1
  done
  die "MariaDB does not answer: see $dir/log/mariadb.log"
}

# slurmdbd, and the cluster known to it (slurmctld records its jobs only once it is).
start_slurmdbd() {
  alive "$dir/run/slurmdbd.pid" slurmdbd || slurmdbd || die "slurmdbd did not start: see $dir/log/slurmdbd.log"
  for _ in $(seq 1 100); do
    if sacctmgr --noheader --parsable2 list cluster format=cluster 2> /dev/null | grep -qx trainyard; then
      return 0
    fi
    sacctmgr --immediate add cluster trainyard > /dev/null 2>&1 || sleep 0.1
  done
  die "slurmdbd does not answer: see $dir/log/slurmdbd.log"
}

start_slurmctld() {
  if ! alive "$dir/run/slurmctld.pid" slurmctld; then
    # -i: a state file cut short by a killed slurmctld is skipped instead of stopping the start.
    slurmctld -i -f "$conf" || die "slurmctld did not start: see $dir/log/slurmctld.log"
  fi
  for _ in $(seq 1 100); do
    scontrol ping 2> /dev/null | grep -q "UP" && return 0
    sleep 0.1
  done
  tail -n 20 "$dir/log/slurmctld.log" >&2 || true
  die "slurmctld does not answer: see $dir/log/slurmctld.log"
}

start_slurmd() {
  local node="$1"
  alive "$dir/run/slurmd-$node.pid" slurmd && return 0
  # The node's own hostname (UTS namespace) and /etc/hosts (a private mount namespace); slurmd daemonizes
  # and keeps all three namespaces, and so do the jobs it starts. nsenter, not `ip netns exec`: that one
  # mounts a fresh /sys, without the /sys/fs/cgroup that slurmd looks at when it starts.
  # shellcheck disable=SC2016 # $1..$3 are the inner shell's arguments
  nsenter --net="/run/netns/tyslurm-$node" unshare --uts --mount --propagation private \
    sh -c 'hostname "$1" && mount --bind "$2" /etc/hosts && exec slurmd -f "$3" -N "$1"' \
    sh "$node" "$dir/etc/hosts" "$conf" || die "slurmd of $node did not start: see $dir/log/slurmd-$node.log"
}

# Every node answers and is usable (idle, mixed or allocated; not down, drained, unknown or not responding).
wait_nodes() {
  local states
  for _ in $(seq 1 300); do
    states="$(sinfo --noheader --Node --format='%N %t' 2> /dev/null || true)"
    if [ -n "$states" ] && ! echo "$states" | grep -qvE ' (idle|mix|alloc|comp)$'; then
      return 0
    fi
    sleep 0.1
  done
  echo "$states" >&2
  die "the nodes did not become idle in 30 s: see $dir/log/"
}

start() {
  require
  prepare_dirs
  alive "$dir/run/slurmctld.pid" slurmctld || write_config
  start_munge
  network_up
  # After the network: slurmctld and sacctmgr reach slurmdbd on the bridge's address.
  start_database
  start_slurmdbd
  start_slurmctld
  local node
  for node in "${nodes[@]}"; do start_slurmd "$node"; done
  wait_nodes
  server_args
}

stop() {
  require
  local ns pid pidfile daemons=()
  # slurmctld and the slurmds stop together (each takes seconds), munged after them. Every node found (pid
  # files, namespaces), whatever TRAINYARD_SLURM_NODES says now.
  for pidfile in "$dir"/run/slurmd-*.pid; do
    if [ -e "$pidfile" ]; then daemons+=("$pidfile:slurmd"); fi
  done
  stop_daemons ${daemons[@]+"${daemons[@]}"} "$dir/run/slurmctld.pid:slurmctld"
  # What jobs left running on the nodes (slurmstepd and its tasks outlive slurmd): each node's namespace
  # holds only what its slurmd started. SIGTERM, 2 s, then SIGKILL (slurmstepd ignores SIGTERM).
  local namespaces=()
  for ns in /run/netns/tyslurm-node*; do
    if [ -e "$ns" ]; then namespaces+=("${ns##*/}"); fi
  done
  if [ ${#namespaces[@]} -gt 0 ]; then
    for ns in "${namespaces[@]}"; do
      for pid in $(ip netns pids "$ns"); do kill "$pid" 2> /dev/null || true; done
    done
    for _ in $(seq 1 20); do
      [ -z "$(for ns in "${namespaces[@]}"; do ip netns pids "$ns"; done)" ] && break
      sleep 0.1
    done
    for ns in "${namespaces[@]}"; do
      for pid in $(ip netns pids "$ns"); do kill -KILL "$pid" 2> /dev/null || true; done
    done
  fi
  stop_daemons "$dir/run/slurmdbd.pid:slurmdbd"
  stop_daemons "$dir/run/mariadbd.pid:mariadbd" "$dir/run/munged.pid:munged"
  network_down
  echo "stopped the Slurm cluster in $dir"
}

status() {
  require
  alive "$dir/run/slurmctld.pid" slurmctld || die "not running (no slurmctld for $dir)"
  sinfo --Node --long
}

fail_node() {
  require
  local ns="tyslurm-$1" pids
  [ -e "/run/netns/$ns" ] || die "no node $1 (no network namespace $ns)"
  # Every process started in the node's namespaces: the slurmd and what it started keep its network namespace.
  mapfile -t pids < <(ip netns pids "$ns")
  [ ${#pids[@]} -eq 0 ] || kill -KILL "${pids[@]}" 2> /dev/null || true
  rm -f "$dir/run/slurmd-$1.pid"
  echo "node $1: its ${#pids[@]} processes killed; Slurm marks it DOWN after SlurmdTimeout"
}

case "${1:-} $#" in
  "start 1") start ;;
  "stop 1") stop ;;
  "status 1") status ;;
  "fail 2") fail_node "$2" ;;
  *) usage ;;
esac
