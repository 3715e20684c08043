#!/usr/bin/env bash
# Builds Trainyard, starts the server on its embedded PostgreSQL with the local pool of this host, submits
# the link-prediction demo job from examples/ and follows its log live. The server keeps running
# afterwards (Ctrl-C stops it); with --once it stops when the demo job ends.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
source scripts/select-jdk.sh
if ! command -v bwrap > /dev/null; then
  echo "The server's agent runs every trainer in a bubblewrap sandbox: install it first (apt-get install bubblewrap)." >&2
  exit 1
fi
port="${TRAINYARD_PORT:-8080}"
base="http://127.0.0.1:$port"

bash runtime/install.sh
mvn -B -q --no-transfer-progress -DskipTests package

# The demo's trainer command is `python -m trainyard_runtime.train`: started from the repository root, the
# server's agent puts the runtime's virtualenv (runtime/.venv/bin) first on its trainers' PATH
# (trainyard.local.trainer-path).
# Submissions may name config files under examples/ only (trainyard.config-roots).
"$JAVA_HOME/bin/java" -jar api/target/trainyard-server.jar --server.port="$port" \
  --trainyard.data-dir="$root/.trainyard" --trainyard.config-roots="$root/examples" > "$root/.trainyard-server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
echo "Server starting (pid $server, log in .trainyard-server.log) ..."
for _ in $(seq 1 120); do
  curl -fs "$base/actuator/health" > /dev/null && break
  kill -0 $server 2>/dev/null || { cat "$root/.trainyard-server.log" >&2; exit 1; }
  sleep 1
done

# The first start wrote the global admin's token here (mode 0600); every request but health needs a token.
token="$(cat "$root/.trainyard/admin-token")"
auth=(-H "Authorization: Bearer $token")
job=$(curl -fsS "${auth[@]}" -X POST "$base/jobs" -H 'Content-Type: application/json' -d @- <<JSON
{"jobName": "demo_link_prediction",
 "taskConfigUri": "file://$root/examples/link-prediction/task_config.yaml",
 "resourceConfigUri": "file://$root/examples/link-prediction/resource_config.yaml",
 "labels": {"purpose": "demo"}}
JSON
)
id=$(printf '%s' "$job" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
echo "Submitted job $id; following $base/jobs/$id/logs/stream"
curl -fsSN "${auth[@]}" "$base/jobs/$id/logs/stream" | python3 -c '
import json, sys
event = None
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("event: "):
        event = line[7:]
    elif line.startswith("data: "):
        data = json.loads(line[6:])
        if event == "end":
            print("== job ended:", data["state"], "exit code", data["exitCode"], data.get("failureMessage") or "")
            break
        print(("[rank %d] " % data["rank"] if data["rank"] else "") + data["text"], flush=True)
'
curl -fsS "${auth[@]}" "$base/jobs/$id" | python3 -m json.tool
if [ "${1:-}" = "--once" ]; then
  exit 0
fi
echo "The dashboard is open at $base/ (sign in with the token in .trainyard/admin-token)."
echo "Server running at $base (OpenAPI: $base/v3/api-docs, Swagger UI: $base/swagger-ui.html). Ctrl-C stops it."
echo "The global admin's token is in $root/.trainyard/admin-token: curl -H \"Authorization: Bearer \$(cat .trainyard/admin-token)\" $base/jobs"
wait $server
