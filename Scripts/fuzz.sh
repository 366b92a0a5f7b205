#!/usr/bin/env bash
# Fuzzes the library with libFuzzer under AddressSanitizer, one target per concern (Scripts/fuzz.sh --list names
# them). The targets live in Fuzz/, a package of its own; each starts from its seed corpus in
# Fuzz/Corpus/<target>/, copied to a temporary working corpus so that the repository stays clean, and uses the
# libFuzzer dictionary Fuzz/Dictionaries/<target>.dict, or <prefix>.dict for the part of its name before the first
# dash, when there is one.
#
#   Scripts/fuzz.sh                     build once, then every target for 60 seconds
#   Scripts/fuzz.sh 300                 every target for 300 seconds
#   Scripts/fuzz.sh --target NAME [S]   one target
#   Scripts/fuzz.sh --list              the targets
#   Scripts/fuzz.sh --jobs N            N targets at a time (default: one per core)
#
# The targets run at the library's default limits (100 megapixels, 10,000 frames), under libFuzzer's RSS cap of
# 1024 MB (one allocation over it counts too) and a 25 s limit per input. Any finding (a crash, a failed check,
# a memory error, a leak, a timeout, memory over the cap) fails the run: the script names the target and the
# file libFuzzer saved the input to, under Fuzz/findings/<target>/, and prints the end of that target's log. A
# table of executions, coverage (libFuzzer's cov: and ft:) and results closes the run. Needs no terminal.
#
# Replay a finding:
#   SWIFT_BACKTRACE=enable=no Fuzz/.build-fuzz/release/WebImageFuzz TARGET Fuzz/findings/TARGET/FILE
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
parallel=$(nproc 2>/dev/null || echo 1)
only=""
list=false
while (( $# )); do
  case $1 in
    --list) list=true ;;
    --target) only=${2:?--target needs a target name}; shift ;;
    --jobs) parallel=${2:?--jobs needs a number}; shift ;;
    *)
      if [[ ! $1 =~ ^[0-9]+$ ]]; then
        echo "fuzz.sh: unknown argument '$1' (see the comment at the top of Scripts/fuzz.sh)" >&2
        exit 2
      fi
      seconds=$1
      ;;
  esac
  shift
done

Scripts/setup.sh

# One build for every target: release (a debug build runs the pixel loops several times slower), instrumented
# for libFuzzer and AddressSanitizer, with testing enabled for the targets' @testable import.
build=(swift build -c release --scratch-path .build-fuzz
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld)
build_start=$(date +%s)
(cd Fuzz && "${build[@]}")
build_seconds=$(( $(date +%s) - build_start ))
fuzzer=$(cd Fuzz && "${build[@]}" --show-bin-path)/WebImageFuzz

if $list; then
  "$fuzzer" --list
  exit 0
fi

targets=()
while IFS=$'\t' read -r name _; do targets+=("$name"); done < <("$fuzzer" --list)
if [[ -n $only ]]; then
  if [[ ! " ${targets[*]} " =~ " $only " ]]; then
    echo "fuzz.sh: no target '$only'; the targets are: ${targets[*]}" >&2
    exit 2
  fi
  targets=("$only")
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/webimage-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p Fuzz/findings

# Runs one target into $work/NAME: its log, its exit status, and a marker for the findings it saves.
run_target() {
  local name=$1
  local dir=$work/$name
  mkdir -p "$dir/corpus" "$dir/tmp" "Fuzz/findings/$name"
  if [[ -d Fuzz/Corpus/$name ]]; then cp Fuzz/Corpus/"$name"/* "$dir/corpus/"; fi
  # A dictionary named after the target, or after the part of its name before the first dash.
  local dict=()
  for candidate in "Fuzz/Dictionaries/$name.dict" "Fuzz/Dictionaries/${name%%-*}.dict"; do
    if [[ -f $candidate ]]; then dict=("-dict=$candidate"); break; fi
  done
  touch "$dir/start"
  local status=0
  # The Swift runtime's own crash reporter is turned off: it reads memory AddressSanitizer then reports.
  TMPDIR=$dir/tmp SWIFT_BACKTRACE=enable=no "$fuzzer" "$name" "$dir/corpus" "${dict[@]}" \
    -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=25 -print_final_stats=1 \
    -artifact_prefix="Fuzz/findings/$name/" > "$dir/log" 2>&1 || status=$?
  echo "$status" > "$dir/status"
  echo "fuzz: $name finished (exit status $status)"
}

echo "fuzz: built in ${build_seconds} s; running ${#targets[@]} target(s) for ${seconds} s each, ${parallel} at a time"
for name in "${targets[@]}"; do
  while (( $(jobs -rp | wc -l) >= parallel )); do wait -n || true; done
  echo "fuzz: $name started"
  run_target "$name" &
done
wait

# The value of libFuzzer's final statistic NAME in LOG; empty when the log has none.
final_stat() { grep -o "stat::$1: *[0-9]*" "$2" | grep -o '[0-9]*$' | tail -1 || true; }

# What went wrong in a failed target, from its LOG and exit STATUS.
classify() {
  local log=$1
  if grep -q 'ERROR: libFuzzer: timeout' "$log"; then echo timeout
  elif grep -q 'ERROR: libFuzzer: out-of-memory' "$log"; then echo out-of-memory
  elif grep -q 'ERROR: LeakSanitizer' "$log"; then echo leak
  elif grep -q 'ERROR: AddressSanitizer' "$log"; then echo memory-error
  elif grep -q 'fuzz check failed' "$log"; then echo check-failed
  elif grep -q 'deadly signal' "$log"; then echo crash
  else echo "exit-$2"
  fi
}

failed=0
rows=()
for name in "${targets[@]}"; do
  dir=$work/$name
  log=$dir/log
  status=$(cat "$dir/status")
  executions=$(final_stat number_of_executed_units "$log")
  rate=$(final_stat average_exec_per_sec "$log")
  # The last status line's coverage: cov: N ft: M.
  read -r _ cov _ ft <<< "$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)"
  result=ok
  # libFuzzer also saves inputs that ran for more than 10 s (slow-unit-*), which are not failures by themselves.
  find "Fuzz/findings/$name" -type f -name 'slow-unit-*' -newer "$dir/start" | sed "s/^/fuzz: $name: slow input saved to /"
  if [[ $status != 0 ]]; then
    failed=1
    result=$(classify "$log" "$status")
    echo
    echo "fuzz: FINDING in $name: $result"
    find "Fuzz/findings/$name" -type f ! -name 'slow-unit-*' -newer "$dir/start" | sed 's/^/fuzz:   input saved to /'
    grep -m1 -E 'fuzz check failed|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)' "$log" | sed 's/^/fuzz:   /' || true
    echo "fuzz: end of the $name log:"
    grep -vE '^(#[0-9]+|INFO:|	NEW_FUNC)' "$log" | tail -40 | sed 's/^/    /'
  fi
  rows+=("$(printf '%-16s %12s %8s %7s %7s  %s' "$name" "${executions:--}" "${rate:--}" "${cov:--}" "${ft:--}" "$result")")
done

echo
echo "fuzz: build ${build_seconds} s, ${seconds} s per target"
printf '%-16s %12s %8s %7s %7s  %s\n' target executions exec/s cov ft result
printf '%s\n' "${rows[@]}"
exit "$failed"
