#!/usr/bin/env bash
# Creates bench/runtime/.venv-dgl: DGL 2.1.0 for the --compare-dgl benchmark, in a virtual environment of its own
# (its wheels need torch 2.2.1, torchdata 0.7.1, pandas < 2.2 and numpy < 2, none of which the runtime pins;
# graphbolt imports pyyaml and pydantic without declaring them).
# Idempotent: a second run only checks that the pinned versions are present.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv-dgl"
python_bin="${TRAINYARD_PYTHON:-python3.11}"

if [ ! -x "$venv/bin/python" ]; then
  "$python_bin" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "torch==2.2.1" "torchdata==0.7.1" "pandas<2.2" "numpy<2" "pyyaml" "pydantic<3" "dgl==2.1.0"
"$venv/bin/python" -c "import dgl, torch; print(f'DGL {dgl.__version__} on torch {torch.__version__} in $venv')"
