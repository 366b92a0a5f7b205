#!/usr/bin/env bash
# The long runs the default test suite leaves out, on an optimised build:
# - every test, including the 144-megapixel PNG streamed to a thumbnail (WEBIMAGE_LARGE_TESTS=1);
# - the concurrency tests, repeated (default 20 rounds; Scripts/stress.sh N for N);
# - the disk cache shared by processes, writers killed mid-write (Scripts/cache-stress.sh, 10 x N rounds).
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
Scripts/cache-stress.sh $((rounds * 10))
echo "stress.sh: all rounds passed"
