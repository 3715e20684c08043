#!/usr/bin/env bash
# Runs the linters and format checks of the repository's code, one section per language, before anything is
# built (scripts/test.sh runs it first: a finding fails in seconds, not after the Maven build). Every section
# runs, even after one found something; the script exits 1 when any did.
#   scripts/lint.sh          check only
#   scripts/lint.sh --fix    apply what the tools can fix themselves (formatting, import order), then check
# Tools come pinned, installed on first use into .tools/ (gitignored), from their registries only.
set -euo pipefail
cd "$(dirname "$0")/.."
fix=false
case "${1:-}" in
  --fix) fix=true ;;
  "") ;;
  *) echo "usage: scripts/lint.sh [--fix]" >&2; exit 2 ;;
esac
python_bin="${TRAINYARD_PYTHON:-python3.11}"
failed=()

# --- Python: Ruff, linter and formatter (config: ruff.toml) -------------------------------------------------
# All hand-written Python (runtime/, the CLI and its tests, bench/, scripts/, the Java modules' .py resources);
# ruff.toml leaves out the generated client (clients/python/generated). Ruff gets a virtual environment of its
# own, .tools/python-lint, rather than a place in the runtime's or the client's: those hold what the code runs
# with (the runtime's is gigabytes of torch), a linter is not among it, and its pin moves on its own.
venv=.tools/python-lint
requirements=scripts/python-lint-requirements.txt
# (Re)install when the pin changes; the copy of the requirements is written last, so an install that failed
# half-way is redone on the next run.
if ! cmp -s "$requirements" "$venv/requirements.txt"; then
  rm -rf "$venv"
  "$python_bin" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/requirements.txt"
fi
ruff="$venv/bin/ruff"
if $fix; then
  "$ruff" check --fix --quiet . || true
  "$ruff" format --quiet .
fi
python_ok=true
"$ruff" check . || python_ok=false
"$ruff" format --check . || python_ok=false
if ! $python_ok; then
  echo "lint.sh: Python: Ruff found the above; 'scripts/lint.sh --fix' fixes formatting and import order" >&2
  failed+=(Python)
fi

# --- Java: Checkstyle (config/checkstyle/checkstyle.xml) ------------------------------------------------------
# The same check every module's build runs in its validate phase (Error Prone runs in the build's compiles, as it
# needs them); here alone it takes seconds. Checkstyle fixes nothing itself.
source scripts/select-jdk.sh
if ! mvn -B -q --no-transfer-progress -fae validate; then
  echo "lint.sh: Java: Checkstyle found the above" >&2
  failed+=(Java)
fi

# --- TypeScript: ESLint and Prettier (ui/eslint.config.js, ui/.prettierrc) -------------------------------------
# The dashboard's own pinned tools, from ui/package-lock.json (installed here when ui/build.sh has not yet, or
# installed an older lock file: npm keeps its copy of what it installed in node_modules/.package-lock.json).
if [ ! -d ui/node_modules ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
  (cd ui && npm ci --no-audit --no-fund --silent)
fi
if $fix; then
  (cd ui && npm run --silent format)
fi
if ! (cd ui && npm run --silent lint); then
  echo "lint.sh: TypeScript: ESLint or Prettier found the above; 'scripts/lint.sh --fix' formats" >&2
  failed+=(TypeScript)
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "lint.sh: findings in: ${failed[*]}" >&2
  exit 1
fi
echo "lint.sh: no findings"
