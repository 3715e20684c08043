#!/usr/bin/env bash
# Installs the Python client and the trainyard command line, with pytest, into clients/python/.venv (created with
# python3.11 when absent), as a user would: `pip install ./clients/python`, at the versions tested together.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python_bin="${TRAINYARD_PYTHON:-python3.11}"

if [ ! -x "$venv/bin/python" ]; then
  "$python_bin" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -c "$here/constraints.txt" "$here[test]"
echo "trainyard client and CLI installed in $venv ($venv/bin/trainyard)"
