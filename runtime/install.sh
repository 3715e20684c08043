#!/usr/bin/env bash
# Installs the trainer runtime into runtime/.venv (created with python3.11 when absent).
# Idempotent: a second run only checks that the pinned versions are present.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python_bin="${TRAINYARD_PYTHON:-python3.11}"

if [ ! -x "$venv/bin/python" ]; then
  "$python_bin" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
# setuptools warns on every editable build; show its output only when the install fails.
if ! log="$("$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -e "$here" 2>&1)"; then
  echo "$log" >&2
  exit 1
fi
echo "trainyard runtime installed in $venv"
