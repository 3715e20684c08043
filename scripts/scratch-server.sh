# Sourced by scripts that need a real server for a while (update-openapi.sh, contract-test.sh): starts the built
# server jar on a free loopback port with a fresh data folder and its embedded PostgreSQL, and stops both when
# the sourcing script exits. Sets SERVER_URL and SERVER_TOKEN (the first global admin's). Extra server
# arguments: the array SERVER_ARGS, set before sourcing. Needs api/target/trainyard-server.jar.
source "$(dirname "${BASH_SOURCE[0]}")/select-jdk.sh"
scratch_dir="$(mktemp -d -t trainyard-scratch-XXXXXX)"
server_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
SERVER_URL="http://127.0.0.1:$server_port"
"$JAVA_HOME/bin/java" -jar api/target/trainyard-server.jar --server.port="$server_port" \
  --trainyard.data-dir="$scratch_dir/data" --spring.main.banner-mode=off ${SERVER_ARGS[@]+"${SERVER_ARGS[@]}"} \
  > "$scratch_dir/server.log" 2>&1 &
scratch_server=$!
# SIGTERM lets the server stop its embedded PostgreSQL before it exits.
# The script's own exit status is kept.
trap 'status=$?; kill $scratch_server 2>/dev/null; wait $scratch_server 2>/dev/null || true; rm -rf "$scratch_dir"; exit $status' EXIT
for _ in $(seq 1 180); do
  curl -fs "$SERVER_URL/actuator/health" > /dev/null && break
  if ! kill -0 $scratch_server 2>/dev/null; then
    cat "$scratch_dir/server.log" >&2
    echo "the server exited during its start" >&2
    exit 1
  fi
  sleep 1
done
curl -fs "$SERVER_URL/actuator/health" > /dev/null || { tail -50 "$scratch_dir/server.log" >&2; echo "the server did not start" >&2; exit 1; }
SERVER_TOKEN="$(cat "$scratch_dir/data/admin-token")"
SERVER_LOG="$scratch_dir/server.log"
