#!/usr/bin/env bash
# Fuzzes every decoder with libFuzzer under AddressSanitizer, starting from the committed fixtures.
#   Scripts/fuzz.sh            60 seconds
#   Scripts/fuzz.sh 600        ten minutes
# Findings (crashing inputs) are written to Fuzz/findings/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}

Scripts/setup.sh
(cd Fuzz && swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld --scratch-path .build-fuzz)
fuzzer=$(cd Fuzz && swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld --scratch-path .build-fuzz --show-bin-path)/DecodeFuzzer

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
find Tests/Fixtures -type f \( -name '*.png' -o -name '*.jpg' -o -name '*.gif' -o -name '*.webp' \) -size -64k \
  -exec cp {} "$corpus/" \;
mkdir -p Fuzz/findings
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 "$fuzzer" "$corpus" \
  -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=4096 -timeout=10 \
  -artifact_prefix=Fuzz/findings/ -print_final_stats=1
