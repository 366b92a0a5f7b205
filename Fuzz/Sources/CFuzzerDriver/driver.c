// The driver itself is libFuzzer's, linked by -sanitize=fuzzer; this target declares it for Swift and gives the
// sanitizers the defaults every run of the targets needs, replays of saved findings included.
#include "CFuzzerDriver.h"

// A memory request the allocator cannot meet returns NULL, which the library must turn into an error, rather
// than aborting the run; a single request over libFuzzer's malloc limit is still reported as out-of-memory.
const char *__asan_default_options(void) {
    return "allocator_may_return_null=1";
}

// The Swift runtime keeps a weakly referenced object's side table through a tagged pointer in the object's
// header, which LeakSanitizer cannot follow: a side table made during one input for an object that lives on
// (the downloader a download refers to weakly) is reported as leaked when it is not.
const char *__lsan_default_suppressions(void) {
    return "leak:formWeakReference\n";
}
