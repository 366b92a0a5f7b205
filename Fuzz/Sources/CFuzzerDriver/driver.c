// The driver itself is libFuzzer's, linked by -sanitize=fuzzer; this target only declares it for Swift.
#include "CFuzzerDriver.h"
