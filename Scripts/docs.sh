#!/usr/bin/env bash
# Builds the documentation of the WebImage module: the catalog in Sources/WebImage/Docs.docc over the symbol
# graphs of WebImage and the three modules it re-exports (WebImageCore, WebImageCodecs, WebImageCurl), into one
# DocC archive.
#
#   Scripts/docs.sh [--output DIR] [--preview]
#
#   --output DIR   where the archive goes (default .build-docs/WebImage.doccarchive)
#   --preview      serve it with `docc preview` afterwards instead of only converting it
#
# Builds in its own scratch directory (.build-docs), so that it does not wait on or disturb other builds in .build.
# Every diagnostic is printed. The script fails when the catalog itself has a warning (an unresolved link, say);
# warnings from doc comments in the sources are counted but do not fail it.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
scratch="$root/.build-docs"
output="$scratch/WebImage.doccarchive"
preview=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --output) output=$2; shift 2 ;;
    --preview) preview=1; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "docs.sh: unknown argument $1" >&2; exit 64 ;;
  esac
done
catalog="$root/Sources/WebImage/Docs.docc"

if ! command -v docc >/dev/null 2>&1; then
  echo "docs.sh: docc not found; it ships with the Swift toolchain (usr/bin/docc)" >&2
  exit 1
fi

# Symbol graphs of every module, public symbols only, each module on its own (re-exported symbols stay with the
# module that declares them).
# SwiftPM also tries the test modules, which it cannot load for this and reports as errors; only the four
# library modules matter here, so the command's status is not used: each of their graphs must be new instead.
echo "docs.sh: building and extracting symbol graphs in $scratch"
mkdir -p "$scratch"
stamp="$scratch/docs-stamp"
touch "$stamp"
extract_log="$scratch/docs-symbol-graph.log"
swift package --scratch-path "$scratch" dump-symbol-graph --minimum-access-level public >"$extract_log" 2>&1 || true
extracted=$(find "$scratch" -type d -name symbolgraph -newer "$stamp" | head -n 1)
graphs="$scratch/docs-symbol-graphs"
rm -rf "$graphs"
mkdir -p "$graphs"
for module in WebImage WebImageCore WebImageCodecs WebImageCurl; do
  if [[ -z "$extracted" || ! "$extracted/$module.symbols.json" -nt "$stamp" ]]; then
    echo "docs.sh: no new symbol graph for $module; the build or the extraction failed:" >&2
    grep -E "error:" "$extract_log" >&2 || tail -n 20 "$extract_log" >&2
    exit 1
  fi
  cp "$extracted/$module".symbols.json "$graphs/"
  cp "$extracted/$module"@*.symbols.json "$graphs/" 2>/dev/null || true
done

echo "docs.sh: converting $catalog"
log="$scratch/docs-diagnostics.txt"
rm -rf "$output"
status=0
docc convert "$catalog" \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name WebImage \
  --fallback-bundle-identifier swift-web-image.WebImage \
  --output-path "$output" \
  --ide-console-output 2>&1 | tee "$log" || status=$?
if [[ $status -ne 0 ]]; then
  echo "docs.sh: docc convert failed ($status)" >&2
  exit "$status"
fi

ours=$(grep -cE "^$catalog/[^:]+:[0-9].*: (warning|error):" "$log" || true)
others=$(grep -E ": (warning|error):" "$log" | grep -cvE "^$catalog/" || true)
echo "docs.sh: $ours warning(s) in the catalog, $others in doc comments of the sources"
echo "docs.sh: archive at $output"
if [[ $ours -ne 0 ]]; then
  grep -E "^$catalog/[^:]+:[0-9].*: (warning|error):" "$log" >&2
  exit 1
fi

if [[ $preview -eq 1 ]]; then
  docc preview "$catalog" --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name WebImage --fallback-bundle-identifier swift-web-image.WebImage
fi
