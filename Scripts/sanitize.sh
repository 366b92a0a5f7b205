#!/usr/bin/env bash
# Runs tests under a sanitizer, in a build folder of its own. Extra arguments go to `swift test` (a --filter
# replaces the default one).
#
#   Scripts/sanitize.sh            the core, codec and downloader tests under AddressSanitizer (and LeakSanitizer)
#   Scripts/sanitize.sh --thread   the manager, prefetcher, cache, latch and animation tests under ThreadSanitizer (the
#                                  downloader suites that time their callers are left out: the sanitizer's
#                                  slowdown breaks their timing, not their logic)
#
# On Linux, ThreadSanitizer cannot see Synchronization's Mutex (it locks with raw futex calls), so the thread run
# compiles with WEBIMAGE_THREAD_SANITIZER, which swaps in a Mutex over pthread_mutex_t that the sanitizer
# understands (Sources/WebImageCore/Support/SanitizerMutex.swift). Races it reports are real.
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizer=address
if [[ ${1:-} == --thread ]]; then
  sanitizer=thread
  shift
fi

if [[ $sanitizer == address ]]; then
  filter=(--filter 'WebImageCoreTests|WebImageCodecsTests|WebImageCurlTests')
  build=(--sanitize=address --scratch-path .build-asan)
else
  filter=(--filter 'ImageManager|ImagePrefetcher|ImageCache|BoundedExecutor|CompletionLatch|ImageDownloaderDataTests|AnimatedImage')
  build=(--sanitize=thread -Xswiftc -DWEBIMAGE_THREAD_SANITIZER --scratch-path .build-tsan)
  # Stop at the first report, with both stacks, and fail the run.
  export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
fi
for argument in "$@"; do
  [[ $argument == --filter ]] && filter=()
done

Scripts/setup.sh
swift build --build-tests "${build[@]}"
# The tests use Swift Testing only; XCTest is left out (its runtime leaks a few bytes at exit, which
# LeakSanitizer reports).
swift test --skip-build --disable-xctest "${build[@]}" "${filter[@]}" "$@"
