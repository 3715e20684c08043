#!/usr/bin/env bash
# Starts a Trainyard agent on this host from agent/target/trainyard-agent.jar (build it first with
# `mvn -DskipTests package`; the jar alone is what a GPU host needs, with a JRE >= 21 and python3):
#   TRAINYARD_AGENT_TOKEN=<an agent token made for this agent id (POST /agent-tokens)> ./scripts/agent.sh --server=http://trainyard:8080 --agent-id=gpu-07
# Every option is listed by `./scripts/agent.sh --help`. SIGTERM (Ctrl-C) stops the agent and leaves its
# trainers running; started again with the same --agent-id and --data-dir it re-attaches to them. Started
# from this checkout, its trainers find the runtime's virtualenv (runtime/.venv) unless --trainer-path says
# otherwise.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/select-jdk.sh"
jar="$root/agent/target/trainyard-agent.jar"
if [ ! -f "$jar" ]; then
  echo "$jar is missing: build it with 'mvn -DskipTests package'" >&2
  exit 1
fi
if [ -z "${TRAINYARD_TRAINER_PATH:-}" ] && [ -d "$root/runtime/.venv/bin" ]; then
  export TRAINYARD_TRAINER_PATH="$root/runtime/.venv/bin"
fi
exec "$JAVA_HOME/bin/java" -jar "$jar" "$@"
