#!/usr/bin/env bash
# Builds Tests/ConsumerPackage (a package that depends on the product WebImage alone) from clean, in release mode,
# and fails if SwiftNIO or BoringSSL (swift-crypto's, swift-nio-ssl's) is compiled: a user of the library must not
# pay for what only its tests and its tool use. Prints the build's time and the packages it resolved. CI runs it.
#
#   Tests/ConsumerPackage/check.sh
set -euo pipefail
cd "$(dirname "$0")"
rm -rf .build
start=$SECONDS
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift build -c release >"$log" 2>&1; then
  tail -40 "$log"
  exit 1
fi
seconds=$((SECONDS - start))
# Each module compiled leaves object files in its NAME.build folder, C modules included; SwiftPM makes the folder,
# empty, for every module of the graph.
bin=$(swift build -c release --show-bin-path)
compiled=$(cd "$bin" && find . -path './*.build/*' -name '*.o' | cut -d/ -f2 | sed 's/\.build$//' | sort -u)
forbidden=$(grep -E '^(_?C?NIO|C?Crypto|CCryptoBoringSSL)' <<<"$compiled" || true)
if [[ -n $forbidden ]]; then
  echo "consumer: a package that depends on WebImage alone compiled these modules:" >&2
  echo "$forbidden" >&2
  exit 1
fi
echo "consumer: clean release build in $seconds s; modules compiled: $(echo $compiled | sort -u | tr "\n" " ")"
echo "consumer: packages resolved: $(swift package show-dependencies --format flatlist 2>/dev/null | sort -u | tr "\n" " ")"
.build/release/Consumer
