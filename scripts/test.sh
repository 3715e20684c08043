#!/usr/bin/env bash
# Runs every test: the Java modules (real PostgreSQL, real processes, real HTTP), the runtime's pytest suite, the
# Python client and CLI's (against the server jar mvn verify built), the contract test (schemathesis against a
# real server) and the dashboard's (Vitest for components; end-to-end in
# Chromium against the server jar mvn verify built).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/select-jdk.sh
# The tests must leave the tracked files as they were (the dashboard's screenshots go under ui/target/ unless
# TRAINYARD_UPDATE_SCREENSHOTS=1): what they change is compared at the end. Outside a git checkout, nothing is.
tracked_changes() {
  git diff HEAD --binary 2> /dev/null | sha256sum
}
tracked_before="$(tracked_changes)"
bash scripts/lint-dockerfiles.sh
# Linters and format checks of the code (Python: Ruff), before the slow builds.
bash scripts/lint.sh
bash runtime/install.sh
# The committed Python client is what api/openapi.yaml generates.
bash scripts/update-python-client.sh --check
bash clients/python/install.sh
mvn -B --no-transfer-progress verify
runtime/.venv/bin/python -m pytest runtime/tests
clients/python/.venv/bin/python -m pytest clients/python/tests
# The public API against its contract (api/openapi.yaml), with the server just built.
bash scripts/contract-test.sh --no-build
(cd ui && npx vitest run && npm run --silent e2e)
if [ "$(tracked_changes)" != "$tracked_before" ]; then
  echo "test.sh: the tests changed tracked files (git status):" >&2
  git status --short --untracked-files=no >&2
  exit 1
fi
