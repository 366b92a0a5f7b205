#!/usr/bin/env bash
# Runs tests under a sanitizer, in a build folder of its own. Extra arguments go to `swift test` (a --filter
# replaces the default one).
#
#   Scripts/sanitize.sh            every suite under AddressSanitizer (and LeakSanitizer), with the suppressions in
#                                  Scripts/asan-suppressions.txt and Scripts/lsan-suppressions.txt, each with its
#                                  reason
#   Scripts/sanitize.sh --thread   the manager, prefetcher, cache, downloader, decoding, single-flight, latch,
#                                  animation, async coding, service and cache-promise suites under ThreadSanitizer
#
# On Linux, ThreadSanitizer cannot see Synchronization's Mutex (it locks with raw futex calls), so the thread run
# compiles with WEBIMAGE_THREAD_SANITIZER, under which the package's one lock type, Locked, locks a pthread_mutex_t
# that the sanitizer understands (Sources/WebImageCore/Concurrency/Locked.swift). Races it reports are real.
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizer=address
if [[ ${1:-} == --thread ]]; then
  sanitizer=thread
  shift
fi

if [[ $sanitizer == address ]]; then
  filter=()
  build=(--sanitize=address --scratch-path .build-asan)
  # Child processes (the tool, run by the tool's tests) inherit these. The list of suppressions used is not
  # printed: it would land in the tool's standard error, which its tests read.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-suppressions=$(pwd)/Scripts/asan-suppressions.txt}"
  export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$(pwd)/Scripts/lsan-suppressions.txt:print_suppressions=0}"
else
  filter=(--filter 'ImageManager|ImagePrefetcher|ImageCache|DiskCache|MemoryCache|BoundedExecutor|CompletionLatch|DeliveryBatch|AnimatedImage|Curl|ImageDownloader|SharedDownload|SingleFlight|DecodingImageLoader|ProgressiveDecode|ImageLoadOperation|ImageCodingAsync|ImageLoadingService|CacheQueryPromise')
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
