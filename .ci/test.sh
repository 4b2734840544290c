#!/usr/bin/env bash
# Installs what is missing, builds from scratch in build-ci/ and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
