#!/usr/bin/env bash
# Installs the trainer runtime into runtime/.venv (created with python3.11 when absent).
# Idempotent: a second run only checks that the pinned versions are present, and rebuilds the native sampler only
# when its sources, setup.py or the installed torch changed (a stamp in the venv records what it was built from).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python_bin="${TRAINYARD_PYTHON:-python3.11}"

if [ ! -x "$venv/bin/python" ]; then
  "$python_bin" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
# The editable install compiles the native CPU sampler (csrc/, C++ with OpenMP) against the torch just installed,
# hence no build isolation. setuptools warns on every build; show its output only when the install fails.
stamp="$venv/native-sampler.stamp"
built_from="$(cat "$here/setup.py" "$here"/csrc/* | sha256sum | cut -d' ' -f1) torch $("$venv/bin/python" -c 'import torch; print(torch.__version__)')"
if [ "$(cat "$stamp" 2>/dev/null)" != "$built_from" ] || ! "$venv/bin/python" -c "import trainyard_runtime.sampler._native" 2> /dev/null; then
  rm -f "$stamp"
  if ! log="$("$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e "$here" 2>&1)"; then
    echo "$log" >&2
    echo "install.sh: building the runtime (and its native sampler: g++ with OpenMP, Python headers) failed" >&2
    exit 1
  fi
  if ! "$venv/bin/python" -c "import trainyard_runtime.sampler._native" 2>&1; then
    echo "install.sh: the native sampler was not built into trainyard_runtime/sampler/" >&2
    exit 1
  fi
  echo "$built_from" > "$stamp"
fi
echo "trainyard runtime installed in $venv"
