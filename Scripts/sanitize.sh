#!/usr/bin/env bash
# Runs the core and codec tests under AddressSanitizer (a separate build folder, so the normal build stays).
set -euo pipefail
cd "$(dirname "$0")/.."

Scripts/setup.sh
# The tests use Swift Testing only; XCTest is left out (its runtime leaks a few bytes at exit, which
# LeakSanitizer reports).
swift build --build-tests --sanitize=address --scratch-path .build-asan
swift test --skip-build --disable-xctest --sanitize=address --scratch-path .build-asan \
  --filter 'WebImageCoreTests|WebImageCodecsTests' "$@"
