#!/usr/bin/env bash
# Runs the core, codec and downloader tests under AddressSanitizer (and LeakSanitizer), in a build folder of its own.
# Extra arguments go to `swift test` (a --filter replaces the default one).
#
# ThreadSanitizer is not offered: on Linux it cannot see Synchronization's Mutex, which guards all the shared
# state here, and reports every access inside `withLock` as a race.
set -euo pipefail
cd "$(dirname "$0")/.."

filter=(--filter 'WebImageCoreTests|WebImageCodecsTests|WebImageCurlTests')
for argument in "$@"; do
  [[ $argument == --filter ]] && filter=()
done

Scripts/setup.sh
swift build --build-tests --sanitize=address --scratch-path .build-asan
# The tests use Swift Testing only; XCTest is left out (its runtime leaks a few bytes at exit, which
# LeakSanitizer reports).
swift test --skip-build --disable-xctest --sanitize=address --scratch-path .build-asan "${filter[@]}" "$@"
