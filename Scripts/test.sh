#!/usr/bin/env bash
# Installs what the package needs, builds everything with warnings as errors, and runs the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/setup.sh
# Every target of the package sets treatAllWarnings(as: .error); a warning fails this build.
swift build --build-tests
swift test --skip-build "$@"
