#!/usr/bin/env bash
# Runs every test: the Java modules (real PostgreSQL, real processes, real HTTP), the runtime's pytest suite and
# the dashboard's (Vitest for components; end-to-end in Chromium against the server jar mvn verify built).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/select-jdk.sh
bash scripts/lint-dockerfiles.sh
bash runtime/install.sh
mvn -B --no-transfer-progress verify
runtime/.venv/bin/python -m pytest runtime/tests
(cd ui && npx vitest run && npm run --silent e2e)
