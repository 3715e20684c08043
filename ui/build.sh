#!/usr/bin/env bash
# Builds the dashboard into the folder given (the api module's Maven build passes its static resources folder):
# installs the locked npm packages, generates the typed API client from api/openapi.yaml, type-checks and
# bundles with Vite. Uses the machine's Node.js and npm; downloads nothing but npm packages.
set -euo pipefail
cd "$(dirname "$0")"
out="${1:?usage: ui/build.sh OUTPUT_DIR}"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent generate
npx tsc -p tsconfig.json
TRAINYARD_UI_OUT="$out" npx vite build --logLevel warn
