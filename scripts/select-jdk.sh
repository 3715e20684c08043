# Sourced by the project's scripts: exports JAVA_HOME to a JDK >= 21 (the machine's default java is 17).
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then
  JAVA_HOME=""
  for candidate in /usr/lib/jvm/*; do
    if [ -x "$candidate/bin/javac" ] && "$candidate/bin/java" -version 2>&1 | grep -qE 'version "(2[1-9]|[3-9][0-9])'; then
      JAVA_HOME="$candidate"
    fi
  done
  if [ -z "$JAVA_HOME" ]; then
    echo "No JDK >= 21 found under /usr/lib/jvm; install one (e.g. Temurin 21 or 25) or set JAVA_HOME." >&2
    exit 1
  fi
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
# Debian's Maven 3.8 ends its output with ANSI resets (ESC[0m, from Jansi 2) even in batch mode and piped, unless
# told not to.
if [[ "${MAVEN_OPTS:-}" != *jansi.noreset* ]]; then
  export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }-Djansi.noreset=true"
fi
# Debian's Maven 3.8 uses sun.misc.Unsafe (through its Guava), which a JDK >= 24 warns about on every build;
# the option that allows it quietly does not exist before 24, where the JVM would refuse to start with it.
if "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[4-9]|[3-9][0-9])' &&
  [[ "${MAVEN_OPTS:-}" != *sun-misc-unsafe-memory-access* ]]; then
  export MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow"
fi
