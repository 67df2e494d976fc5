#!/usr/bin/env bash
# The test command: lint (ruff), type check (mypy), then the test suite (pytest).
# Run scripts/setup.sh first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check tablecam tests benchmarks scripts
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
