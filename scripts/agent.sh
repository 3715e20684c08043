#!/usr/bin/env bash
# Starts a Trainyard agent on this host, from the server's own jar (build it first with
# `mvn -DskipTests package`):
#   TRAINYARD_AGENT_TOKEN=<the server's trainyard.agent.token> ./scripts/agent.sh --server=http://trainyard:8080
# Every option is listed by `./scripts/agent.sh --help`. SIGTERM (Ctrl-C) stops the agent and leaves its
# trainers running; started again with the same --agent-id and --data-dir it re-attaches to them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/select-jdk.sh"
jar="$root/api/target/trainyard-server.jar"
if [ ! -f "$jar" ]; then
  echo "$jar is missing: build it with 'mvn -DskipTests package'" >&2
  exit 1
fi
exec "$JAVA_HOME/bin/java" -Dloader.main=io.trainyard.backend.local.agent.AgentMain -cp "$jar" \
  org.springframework.boot.loader.launch.PropertiesLauncher "$@"
