#!/usr/bin/env bash
# Regenerates the Python client, clients/python/generated/trainyard_client (apart from the hand-written command
# line in clients/python/src), from api/openapi.yaml with openapi-generator 7.17.0's python generator (its CLI jar
# from Maven Central). With --check it changes nothing and fails when the committed client differs from what the
# contract generates (scripts/test.sh runs it): after changing the contract, run this script and commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/select-jdk.sh
version=7.17.0
tools=clients/python/target
jar="$tools/openapi-generator-cli-$version.jar"
client=clients/python/generated/trainyard_client
if [ ! -f "$jar" ]; then
  mvn -B -q --no-transfer-progress -N dependency:copy \
    -Dartifact="org.openapitools:openapi-generator-cli:$version" -DoutputDirectory="$tools"
fi
generated="$(mktemp -d -t trainyard-python-client-XXXXXX)"
trap 'rm -rf "$generated"' EXIT
# The generator says "OpenAPI 3.1 support is still in beta" on every run: show its output only when it fails.
if ! "$JAVA_HOME/bin/java" -jar "$jar" generate -i api/openapi.yaml -g python -o "$generated" \
    --package-name trainyard_client --additional-properties=packageVersion=0.1.0 \
    --openapi-normalizer REMOVE_ANYOF_ONEOF_AND_KEEP_PROPERTIES_ONLY=true \
    --global-property apiTests=false,modelTests=false,apiDocs=false,modelDocs=false > "$generated.log" 2>&1; then
  cat "$generated.log" >&2
  rm -f "$generated.log"
  exit 1
fi
rm -f "$generated.log"
if [ "${1:-}" = "--check" ]; then
  if ! diff -r -x __pycache__ "$generated/trainyard_client" "$client" > "$generated/diff"; then
    head -50 "$generated/diff" >&2
    echo "update-python-client.sh: $client is not what api/openapi.yaml generates;" \
      "run scripts/update-python-client.sh and commit the result" >&2
    exit 1
  fi
  echo "$client is current with api/openapi.yaml"
else
  rm -rf "$client"
  cp -r "$generated/trainyard_client" "$client"
  echo "generated $client from api/openapi.yaml"
fi
