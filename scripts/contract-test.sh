#!/usr/bin/env bash
# Contract tests: schemathesis (in a virtualenv of its own) runs every check, in every phase (examples, coverage,
# fuzzing, stateful), against a real server on its embedded PostgreSQL, using the public OpenAPI document that
# the server serves, as the first global admin. It fails on any failure. Bounded: at most 30 examples per
# operation (api/contract/schemathesis.toml) and CONTRACT_TEST_SECONDS (default 300) for the whole run.
#   scripts/contract-test.sh              builds the server first
#   scripts/contract-test.sh --no-build   uses api/target/trainyard-server.jar as it is
set -euo pipefail
cd "$(dirname "$0")/.."
venv="api/contract/.venv"
if ! "$venv/bin/st" --version 2>/dev/null | grep -q '4.32.5'; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check schemathesis==4.32.5
fi
source scripts/select-jdk.sh
if [ "${1:-}" != "--no-build" ]; then
  rm -f api/target/trainyard-server.jar
  mvn -B -q --no-transfer-progress -pl api -am -DskipTests package
fi
# The fuzzer submits jobs much faster than a person: a higher submission rate than the default, so that the
# run tests the API rather than the rate limit (429 is documented and tested in SecurityTest). Likewise its
# ignored_auth check sends a refused token to every operation, from the same address as its real requests: far more
# than the default budget of failed authentications per address (SecurityTest covers that throttle).
SERVER_ARGS=(--trainyard.security.rate-limits.submissions-per-second=1000
  --trainyard.security.rate-limits.failed-authentications-per-minute=1000000)
source scripts/scratch-server.sh
mkdir -p api/target/contract-report
# The server's log beside schemathesis's report, for a failure's server side.
trap 'cp "$SERVER_LOG" api/target/contract-report/server.log 2>/dev/null || true' ERR
# The document as the server serves it (fetched once: its first rendering is slow on a loaded machine).
curl -fsS --max-time 120 "$SERVER_URL/v3/api-docs" -o api/target/contract-report/openapi.json
# One worker: hypothesis's lambda descriptions are not thread-safe on Python 3.11 ("AST constructor recursion
# depth mismatch"), and the run is bounded by time anyway.
"$venv/bin/st" --config-file api/contract/schemathesis.toml run api/target/contract-report/openapi.json \
  --url "$SERVER_URL" \
  --header "Authorization: Bearer $SERVER_TOKEN" \
  --checks all \
  --phases examples,coverage,fuzzing,stateful \
  --max-time "${CONTRACT_TEST_SECONDS:-300}" \
  --request-timeout 30 \
  --workers 1 \
  --seed 12012 \
  --report junit --report-dir api/target/contract-report
