#!/usr/bin/env bash
# Lints docker/*.Dockerfile and docker-compose.yml without a Docker engine (these machines have none, so the
# images are linted, never built): hadolint, then scripts/dockerfile_lint.py's checks: bases pinned by exact
# tag, every apt package present in the Debian release this machine runs (bookworm), every COPY source in the
# build context and not left out by .dockerignore, files that RUN steps read copied in first, every Maven
# module copied into the build stage. Prints each finding as FILE:LINE: message and exits 1 on any.
# Its tools go into .tools/dockerfile-lint (gitignored), from PyPI only.
set -euo pipefail
# No __pycache__ in scripts/ (the linter imports its own module in its tests).
export PYTHONDONTWRITEBYTECODE=1
cd "$(dirname "$0")/.."
venv=.tools/dockerfile-lint
requirements=scripts/dockerfile-lint-requirements.txt
python_bin="${TRAINYARD_PYTHON:-python3.11}"

# (Re)install when the pinned tools change; the copy of the requirements is written last, so an install that
# failed half-way is redone on the next run.
if ! cmp -s "$requirements" "$venv/requirements.txt"; then
  rm -rf "$venv"
  "$python_bin" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/requirements.txt"
fi

# apt-cache knows a release's packages only after `apt-get update`; a fresh machine's lists are empty.
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
if command -v apt-cache > /dev/null && [ -n "$codename" ] \
    && ! apt-cache policy base-files | grep -q " $codename/"; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
  else
    echo "apt-cache has no package lists for $codename: run 'apt-get update' as root first" >&2
    exit 1
  fi
fi

# The linter's own tests first: a linter that stopped finding anything would otherwise pass every Dockerfile.
"$venv/bin/python" -m unittest discover -q -s scripts -p 'test_dockerfile_lint.py'
exec "$venv/bin/python" scripts/dockerfile_lint.py --hadolint "$venv/bin/hadolint" "$@"
