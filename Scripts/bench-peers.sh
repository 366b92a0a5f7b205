#!/usr/bin/env bash
# Compares the library with Pillow, libvips, ImageMagick and a Python image service, in one run; see
# Benchmarks/peers/README.md.   Scripts/bench-peers.sh [--quick]
exec "$(dirname "$0")/../Benchmarks/peers/run.sh" "$@"
