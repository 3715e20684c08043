#!/usr/bin/env bash
# Runs every test: the Java modules (real PostgreSQL, real processes, real HTTP) and the runtime's pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/select-jdk.sh
bash scripts/lint-dockerfiles.sh
bash runtime/install.sh
mvn -B --no-transfer-progress verify
runtime/.venv/bin/python -m pytest runtime/tests
