#!/usr/bin/env bash
# Compares this library with what users would pick instead, on the same files in the same run: decode throughput
# against Pillow, libvips (pyvips), ImageMagick and the C libraries called directly; 4000 px JPEG thumbnails
# against Pillow and libvips; and the whole job of an image server (fetch from a loopback nginx, thumbnail, disk
# cache, then a warm pass), on camera originals and on web-size images, against a Python implementation. Prints the table of ratios and writes it to
# Benchmarks/peers/RESULTS.md. See Benchmarks/peers/README.md for what is measured and how.
#   Benchmarks/peers/run.sh           about 6 minutes once installed and built (7 rounds)
#   Benchmarks/peers/run.sh --quick   about 2 minutes (3 rounds, shorter loops, half the files)
# Installs what is missing, once: Debian packages (nginx, libvips, ImageMagick, python3-venv, the encoders of
# webp, libavif, libheif and libjxl, and the C libraries) with apt, and Pillow, pyvips and requests with pip in
# Benchmarks/.build-peers/venv, with pillow-heif and pillow-jxl-plugin where pip can install them (without them
# Pillow's HEIC and JPEG XL rows are skipped). The generated files go to Benchmarks/.build-peers/corpus.
set -euo pipefail
cd "$(dirname "$0")/../.."

quick=()
case ${1:-} in
  --quick) quick=(--quick) ;;
  "") ;;
  *) echo "usage: Benchmarks/peers/run.sh [--quick]" >&2; exit 2 ;;
esac

work=Benchmarks/.build-peers
need=(nginx libvips42 imagemagick python3-venv webp libavif-bin libheif-examples libjxl-tools)
Scripts/setup.sh "${need[@]}"

# ImageMagick 7 calls itself magick; Debian's ImageMagick 6 convert.
magick=$(command -v magick || true)
[[ -n $magick ]] || magick=/usr/bin/convert
[[ -x $magick ]] || magick=$(command -v convert)

# The inputs of the codec benchmarks, made with the same commands as Scripts/bench.sh when missing.
inputs=Benchmarks/Inputs
if [[ ! -f $inputs/photo-256.jpg ]]; then
  echo "run.sh: making the inputs in $inputs"
  mkdir -p "$inputs"
  base=$(mktemp --suffix=.png)
  "$magick" -size 2000x1500 -seed 42 plasma:fractal -blur 0x1 -strip "$base"
  "$magick" "$base" -resize 4000x3000! -seed 43 -attenuate 0.3 +noise Gaussian -strip \
    -quality 90 -sampling-factor 4:2:0 "$inputs/photo-4000x3000.jpg"
  "$magick" "$base" -resize 4000x3000! -strip -quality 85 -sampling-factor 4:2:0 "$inputs/photo-4000x3000-smooth.jpg"
  "$magick" "$base" -strip -define png:exclude-chunks=date,time "PNG24:$inputs/photo-2000x1500.png"
  cwebp -quiet -q 80 "$base" -o "$inputs/photo-2000x1500.webp"
  "$magick" "$base" -resize 1000x750! -colors 256 -strip "$inputs/photo-1000x750.gif"
  "$magick" "$base" -resize 256x192! -strip -quality 85 "$inputs/photo-256.jpg"
  rm -f "$base"
fi
# AVIF, JPEG XL and HEIC from the PNG input, as Scripts/bench.sh makes them.
[[ -f $inputs/photo-2000x1500.avif ]] ||
  avifenc -j 1 -s 8 "$inputs/photo-2000x1500.png" "$inputs/photo-2000x1500.avif" >/dev/null
[[ -f $inputs/photo-2000x1500.jxl ]] ||
  cjxl --quiet -d 1 "$inputs/photo-2000x1500.png" "$inputs/photo-2000x1500.jxl" 2>/dev/null
[[ -f $inputs/photo-2000x1500.heic ]] ||
  heif-enc "$inputs/photo-2000x1500.png" -o "$inputs/photo-2000x1500.heic" >/dev/null

# Debian's Python, whose venv module python3-venv provides; pyvips finds Debian's libvips.
venv=$work/venv
python=$venv/bin/python
if ! "$python" -c 'import PIL, pyvips, requests' >/dev/null 2>&1; then
  echo "run.sh: installing Pillow, pyvips and requests in $venv"
  base_python=/usr/bin/python3
  [[ -x $base_python ]] || base_python=python3
  "$base_python" -m venv "$venv"
  "$python" -m pip install --quiet --upgrade pip
  "$python" -m pip install --quiet pillow pyvips requests
fi
# Pillow's readers of HEIC and JPEG XL: optional, as a wheel may not exist for this machine.
for plugin in pillow_heif:pillow-heif pillow_jxl:pillow-jxl-plugin; do
  if ! "$python" -c "import ${plugin%%:*}" >/dev/null 2>&1; then
    "$python" -m pip install --quiet "${plugin#*:}" ||
      echo "run.sh: pip could not install ${plugin#*:}; Pillow's rows for its format are skipped" >&2
  fi
done

corpus=$work/corpus
"$python" Benchmarks/peers/make_corpus.py "$inputs" "$corpus" 16 400

# Built in a scratch directory of its own, from clean whenever the library's sources changed since the last
# build: an incremental build has been seen to keep a call into the library compiled against its previous
# interface, which crashed at run time.
scratch=$work/build
stamp=$(cat Package.swift $(find Sources -type f | LC_ALL=C sort) | sha1sum | cut -d' ' -f1)
if [[ -d $scratch && $(cat "$work/build.stamp" 2>/dev/null) != "$stamp" ]]; then
  echo "run.sh: the library changed since the last build; building from clean (a few minutes)"
  rm -rf "$scratch"
fi
echo "run.sh: building PeerTiming" >&2
(cd Benchmarks && swift build -c release --product PeerTiming --scratch-path "../$scratch") >/dev/null
echo "$stamp" >"$work/build.stamp"
timing=$(cd Benchmarks && swift build -c release --scratch-path "../$scratch" --show-bin-path)/PeerTiming

# nginx on a free loopback port, serving the corpus (the camera originals under /job/, the web images under
# /web/): one process in the foreground, its own configuration, logs and temporary directories in a directory of
# its own; stopped on exit.
server=$(mktemp -d)
nginx_pid=
cleanup() {
  if [[ -n $nginx_pid ]]; then
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  rm -rf "$server"
}
trap cleanup EXIT
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$server/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $server/nginx.pid;
error_log $server/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  types { image/jpeg jpg; image/png png; image/webp webp; image/gif gif; }
  client_body_temp_path $server/client;
  proxy_temp_path $server/proxy;
  fastcgi_temp_path $server/fastcgi;
  uwsgi_temp_path $server/uwsgi;
  scgi_temp_path $server/scgi;
  server {
    listen 127.0.0.1:$port;
    root $(cd "$corpus" && pwd);
  }
}
EOF
nginx -p "$server" -c "$server/nginx.conf" -e "$server/error.log" &
nginx_pid=$!
base_url=http://127.0.0.1:$port
probe=job/$(ls "$corpus/job" | head -1)
for _ in $(seq 50); do
  if "$python" -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)" "$base_url/$probe" 2>/dev/null; then
    break
  fi
  kill -0 "$nginx_pid" 2>/dev/null || { cat "$server/error.log" >&2; echo "run.sh: nginx did not start" >&2; exit 1; }
  sleep 0.1
done

echo "run.sh: load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$python" Benchmarks/peers/compare.py --timing "$timing" --inputs "$inputs" --corpus "$corpus" \
  --base-url "$base_url" --magick "$magick" --results Benchmarks/peers/RESULTS.md "${quick[@]}"
