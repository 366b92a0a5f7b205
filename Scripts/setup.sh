#!/usr/bin/env bash
# Installs the C libraries the package links (and pkg-config) with apt, when any is missing.
# Does nothing when all are present. Works as root or through sudo.
set -euo pipefail

packages=(libpng-dev libturbojpeg0-dev libjpeg62-turbo-dev libwebp-dev libgif-dev libavif-dev libjxl-dev libheif-dev libcurl4-openssl-dev libhiredis-dev libssl-dev redis-server pkg-config "$@")

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
  done
else
  missing=("${packages[@]}")
fi

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup.sh: these packages are needed but this system has no apt-get: ${missing[*]}" >&2
  echo "setup.sh: install libpng, libjpeg-turbo (TurboJPEG and libjpeg), libwebp, giflib, libavif, libjxl, libheif, libcurl, hiredis, OpenSSL, redis-server and pkg-config with your package manager." >&2
  exit 1
fi

if [[ $(id -u) -eq 0 ]]; then
  run=()
elif command -v sudo >/dev/null 2>&1; then
  run=(sudo)
else
  echo "setup.sh: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi

echo "setup.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${run[@]}" apt-get update -qq
"${run[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
