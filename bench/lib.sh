# Sourced by the benchmarks' run.sh, from the repository root: a JDK >= 21, the run's temporary folder $work,
# Maven without its noise, and the class path of a benchmark run by Java's source launcher.
source scripts/select-jdk.sh

work="$(mktemp -d)"
# On any exit: stops the servers the run started (each leaves its pid in $work/server-*.pid) and waits for
# them, so that their data is no longer written when $work goes.
trap 'for f in "$work"/server-*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work"' EXIT

# Maven on JDK 24+ prints sun.misc.Unsafe deprecation warnings (from its own Guava) and colour resets even
# with -q; they are left out here. Its exit status still counts (pipefail).
mvn_quiet() {
  mvn -B -q --no-transfer-progress "$@" 2>&1 | sed 's/\x1b\[0m//g' | { grep -vE 'sun\.misc\.Unsafe|terminally deprecated|AbstractFuture|^$' || true; }
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
