#!/usr/bin/env bash
# Writes the public API's OpenAPI document, as the server serves it at /v3/api-docs, to api/openapi.yaml: the
# contract that clients/java and clients/python are generated from, and that ApiDocumentTest compares the served
# document with. Run it after changing a controller or a record the API returns, and commit the result.
#   scripts/update-openapi.sh              builds the server first
#   scripts/update-openapi.sh --no-build   uses api/target/trainyard-server.jar as it is
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/select-jdk.sh
if [ "${1:-}" != "--no-build" ]; then
  # The server and the modules it needs, from this checkout (package, not install: nothing from ~/.m2 mixes in).
  # A jar repackaged before is not repackaged again: remove it so that it holds this checkout's modules.
  rm -f api/target/trainyard-server.jar
  # Without the dashboard: it is typed from this very document, so it is built after the document changes.
  mvn -B -q --no-transfer-progress -pl api -am -DskipTests -Dtrainyard.ui.skip=true package
fi
source scripts/scratch-server.sh
curl -fsS "$SERVER_URL/v3/api-docs.yaml" -o api/openapi.yaml.new
mv api/openapi.yaml.new api/openapi.yaml
echo "api/openapi.yaml: $(grep -c '^      operationId:' api/openapi.yaml) operations"
git --no-pager diff --stat -- api/openapi.yaml || true
