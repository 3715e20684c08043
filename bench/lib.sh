# Sourced by the benchmarks' run.sh, from the repository root: a JDK >= 21, the run's temporary folder $work,
# Maven without its noise, and the class path of a benchmark run by Java's source launcher.
source scripts/select-jdk.sh

work="$(mktemp -d)"
# On any exit: stops the servers the run started (each leaves its pid in $work/server-*.pid) and waits for
# them, so that their data is no longer written when $work goes; then runs the benchmark's own exit_hooks
# (e.g. stopping a cluster it started).
exit_hooks=()
on_exit() {
  for f in "$work"/server-*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
  wait 2>/dev/null
  local hook
  for hook in "${exit_hooks[@]}"; do eval "$hook" || true; done
  rm -rf "$work"
}
trap on_exit EXIT

# Maven without its progress and INFO lines (select-jdk.sh, sourced above, already keeps Debian's Maven from
# printing Unsafe warnings and colour resets).
mvn_quiet() {
  mvn -B -q --no-transfer-progress "$@"
}

# Sets bench_classpath to the given modules' classes (as built in this tree) and their runtime dependencies.
# The Trainyard modules they use (testing uses the generated client, clients/java) come from this tree too, not
# from ~/.m2: with -am and the compile phase in the same run, Maven resolves them to their target/classes.
# One dependency:build-classpath writes a file per module into $work: Maven fills in ${project.artifactId}.
set_bench_classpath() { # module...
  local modules
  modules=$(IFS=,; echo "$*")
  mvn_quiet compile dependency:build-classpath -pl "$modules" -am -Dmdep.outputFile="$work/classpath-\${project.artifactId}" -DincludeScope=runtime
  bench_classpath=""
  local module
  for module in "$@"; do
    bench_classpath+="${bench_classpath:+:}$module/target/classes:$(cat "$work/classpath-trainyard-$module")"
  done
}

# Compiles bench/server/ServerBench.java once into $work, with the testing module's class path (set_bench_classpath),
# for server_bench to run: Java's source launcher would compile it again at each start, on the cores a pass measures.
compile_server_bench() {
  set_bench_classpath testing
  "$JAVA_HOME/bin/javac" -d "$work/bench-classes" -cp "$bench_classpath" bench/server/ServerBench.java
}

# Runs a phase of ServerBench (compile_server_bench first): server_bench <phase> <base-url> ...
server_bench() {
  "$JAVA_HOME/bin/java" -cp "$work/bench-classes:$bench_classpath" ServerBench "$@"
}

# Starts $work/server.jar on a port, on its embedded PostgreSQL in $server_data (default $work/data, kept between
# starts), with security on as deployed and the per-token submission limit raised, so that a benchmark measures
# throughput, not the limit; exports the first admin's token as TRAINYARD_TOKEN. Its pid goes to
# $work/server-<port>.pid, its output to $work/server-<port>.log. Heap: $server_heap (default 1g).
start_server() { # port, extra server args...
  local port=$1; shift
  local data="${server_data:-$work/data}"
  if curl -fs "http://127.0.0.1:$port/actuator/health" > /dev/null; then
    echo "port $port is taken by another server; stop it first" >&2; return 1
  fi
  "$JAVA_HOME/bin/java" -Xmx"${server_heap:-1g}" ${server_jvm_args:-} -jar "$work/server.jar" --server.port="$port" \
    --trainyard.data-dir="$data" --logging.level.root=WARN \
    --trainyard.security.rate-limits.submissions-per-second=1000000 "$@" > "$work/server-$port.log" 2>&1 &
  echo $! > "$work/server-$port.pid"
  for _ in $(seq 1 180); do
    kill -0 "$(cat "$work/server-$port.pid")" 2>/dev/null || break
    if curl -fs "http://127.0.0.1:$port/actuator/health" > /dev/null; then
      # Written before the server listens.
      TRAINYARD_TOKEN="$(cat "$data/admin-token")"
      export TRAINYARD_TOKEN
      return
    fi
    sleep 1
  done
  cat "$work/server-$port.log" >&2; return 1
}

stop_server() { # port
  kill "$(cat "$work/server-$1.pid")"; wait "$(cat "$work/server-$1.pid")" 2>/dev/null || true
  rm -f "$work/server-$1.pid"
}

# CPU seconds (user + system) used so far by: the process $1 (a server), every postgres process (those that ended
# too), and the whole machine (its busy time from /proc/stat, so that processes that have ended since, a load
# generator, count too).
cpu_seconds() { # server pid
  python3 - "$1" <<'PY'
import os, sys
server, tick = sys.argv[1], os.sysconf("SC_CLK_TCK")
used = {"server": 0, "postgres": 0}
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        continue  # it ended meanwhile
    name = stat[stat.index("(") + 1:stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2:].split()  # utime and stime are the 12th and 13th after the name
    if pid == server:
        used["server"] += (int(fields[11]) + int(fields[12])) / tick
    elif name.startswith("postgres"):
        # With cutime and cstime: the postmaster's, that of the backends and autovacuum workers it has reaped.
        used["postgres"] += sum(int(x) for x in fields[11:15]) / tick
with open("/proc/stat") as f:
    ticks = [int(x) for x in f.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
print(used["server"], used["postgres"], (sum(ticks) - ticks[3] - ticks[4]) / tick)
PY
}

# The CPU between two cpu_seconds readings, per unit of work: "server … µs, postgres … µs, the rest … µs".
cpu_per() { # before after units
  python3 - "$1" "$2" "$3" <<'PY'
import sys
before, after = [float(x) for x in sys.argv[1].split()], [float(x) for x in sys.argv[2].split()]
server, postgres, machine = (a - b for a, b in zip(after, before))
units = int(sys.argv[3])
print(f"server {server / units * 1e6:.1f} µs, postgres {postgres / units * 1e6:.1f} µs, "
      f"the rest {(machine - server - postgres) / units * 1e6:.1f} µs")
PY
}

# Sends requests to a URL from 16 connections at once, each sending its next request when answered, for a duration
# (e.g. 20s), through wrk and bench/server/requests.lua: a load generator in C, where a Java client took nearly as
# much CPU per request as the server on these shared cores. The method, body file and the status expected come
# from REQUEST_METHOD, REQUEST_BODY_FILE and EXPECTED_STATUS. Prints requests.lua's line.
request_load() { # url duration
  command -v wrk > /dev/null || { echo "wrk is missing: apt-get install wrk (.ci/run installs it)" >&2; return 1; }
  wrk -t2 -c16 -d"$2" -s bench/server/requests.lua "$1" | tail -n 1
}

# request_load against the server on a port, then the CPU per request over it (cpu_per), on one line.
measured_load() { # port path duration
  local pid before after result
  pid=$(cat "$work/server-$1.pid")
  before=$(cpu_seconds "$pid")
  result=$(request_load "http://127.0.0.1:$1$2" "$3")
  after=$(cpu_seconds "$pid")
  echo "$result; CPU per request: $(cpu_per "$before" "$after" "$(grep -oE '^[0-9]+' <<< "$result")")"
}
