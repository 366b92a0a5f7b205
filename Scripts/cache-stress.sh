#!/usr/bin/env bash
# Longer versions of the disk cache's process tests, on an optimised build of the webimage tool:
# - two writers storing the same keys over and over while this script reads every entry;
# - a writer killed with SIGKILL at random moments, many times; the temporary files the killed writers left are
#   removed by a trim once they are old enough to be told from writes starting;
# - four writers with their own keys and one size limit, which must hold for them all, within one entry.
# Every entry read must be byte-equal to one of the two payloads, and `webimage cache verify` must decode them
# all. Usage: [TOOL=path/to/webimage] Scripts/cache-stress.sh [ROUNDS] (default 200: writes per key and writer
# are ROUNDS x 10, kills are ROUNDS). With TOOL, that binary is used and nothing is built.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-200}

if [[ -n "${TOOL:-}" ]]; then
  tool=$TOOL
else
  flags=(-c release -Xswiftc -enable-testing --scratch-path .build-release)
  swift build "${flags[@]}" --product webimage
  tool="$(swift build "${flags[@]}" --show-bin-path)/webimage"
fi

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
payloads=(Tests/Fixtures/source/photo.png Tests/Fixtures/jpeg/photo.jpg)
options=(--cache-dir "$work/cache")
directory="$work/cache/default"

# Fails unless every visible file of the cache is one of the payloads. Each file is read once, through one open:
# a file replaced while it is read is read whole from the inode that was opened, while two opens could see two
# different (whole) files.
check_entries() {
  local name
  for name in "$directory"/*; do
    cat "$name" > "$work/read" 2>/dev/null || continue   # gone since the listing: not torn
    if ! cmp -s "$work/read" "${payloads[0]}" && ! cmp -s "$work/read" "${payloads[1]}"; then
      echo "cache-stress.sh: torn entry $name" >&2
      exit 1
    fi
  done
}

verify() {
  "$tool" cache verify "${options[@]}" >/dev/null || { echo "cache-stress.sh: verify failed" >&2; exit 1; }
}

echo "cache-stress.sh: two writers, $((rounds * 10)) rounds each"
for payload in "${payloads[@]}"; do
  arguments=()
  for key in 0 1 2 3 4 5 6 7; do arguments+=("https://example.com/stress-$key.img" "$payload"); done
  "$tool" cache put --repeat $((rounds * 10)) "${arguments[@]}" "${options[@]}" >/dev/null &
  pids+=($!)
done
checks=0
while kill -0 "${pids[0]}" 2>/dev/null || kill -0 "${pids[1]}" 2>/dev/null; do
  check_entries
  checks=$((checks + 1))
done
for pid in "${pids[@]}"; do wait "$pid"; done
pids=()
check_entries
verify
echo "cache-stress.sh: $checks passes over the entries while writing, no torn file"

echo "cache-stress.sh: $rounds writers killed with SIGKILL"
arguments=()
for key in 0 1 2; do arguments+=("https://example.com/killed-$key.img" "${payloads[$((key % 2))]}"); done
for round in $(seq 1 "$rounds"); do
  "$tool" cache put --repeat 100000000 "${arguments[@]}" "${options[@]}" >/dev/null &
  pids=($!)
  sleep "0.0$((RANDOM % 9 + 1))"
  kill -KILL "${pids[0]}"
  wait "${pids[0]}" 2>/dev/null || true
  pids=()
  check_entries
done
verify
temporaries=$(find "$directory" -maxdepth 1 -name '.*.tmp' | wc -l)
echo "cache-stress.sh: every entry whole after $rounds kills ($temporaries temporary files left by killed writes)"
# No process holds their locks: once they look older than a write starting, a trim removes every one.
find "$directory" -maxdepth 1 -name '.*.tmp' -exec touch -d '1 minute ago' {} +
"$tool" cache trim "${options[@]}" >/dev/null
temporaries=$(find "$directory" -maxdepth 1 -name '.*.tmp' | wc -l)
if [[ $temporaries -ne 0 ]]; then
  echo "cache-stress.sh: $temporaries temporary files of killed writers left after a trim" >&2
  exit 1
fi
echo "cache-stress.sh: a trim removed the temporary files of the killed writers"

# The bytes of the entries and temporary files in the cache, as `du` counts them.
cached_bytes() {
  find "$1" -maxdepth 1 -type f \( -name '[!.]*' -o -name '.*.tmp' \) -printf '%b\n' | awk '{ total += $1 * 512 } END { print total + 0 }'
}

limited="$work/limited"
entry=$(( $(stat -c '%b' "${payloads[1]}") * 512 ))
limit=$((16 * entry))
repeats=$(( rounds / 2 > 0 ? rounds / 2 : 1 ))
echo "cache-stress.sh: four writers, $repeats rounds of 30 keys each, one limit of $limit bytes"
for writer in 0 1 2 3; do
  arguments=()
  for key in $(seq 0 29); do arguments+=("https://example.com/limited-$writer-$key.img" "${payloads[1]}"); done
  "$tool" cache put --repeat "$repeats" --max-size "$limit" --cache-dir "$limited" "${arguments[@]}" >/dev/null &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
pids=()
total=$(cached_bytes "$limited/default")
if [[ $total -gt $((limit + entry)) ]]; then
  echo "cache-stress.sh: $total bytes left for a limit of $limit (entries of $entry bytes)" >&2
  exit 1
fi
echo "cache-stress.sh: $total bytes left for a limit of $limit"
