#!/usr/bin/env bash
# The long runs the default test suite leaves out, on an optimised build:
# - every test, including the 144-megapixel PNG streamed to a thumbnail (WEBIMAGE_LARGE_TESTS=1);
# - the concurrency tests, repeated (default 20 rounds; Scripts/stress.sh N for N).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-20}

Scripts/setup.sh
flags=(-c release -Xswiftc -enable-testing --scratch-path .build-release)
swift build --build-tests "${flags[@]}"
WEBIMAGE_LARGE_TESTS=1 swift test --skip-build "${flags[@]}"
for round in $(seq 1 "$rounds"); do
  echo "stress.sh: concurrency round $round of $rounds"
  swift test --skip-build "${flags[@]}" --filter 'oncurren|[Tt]hread|many' >/dev/null
done
echo "stress.sh: all rounds passed"
