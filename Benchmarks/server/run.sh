#!/usr/bin/env bash
# Thumbnail servers on loopback under wrk, over the same 1024 x 768 JPEG sources served by nginx:
#   - Examples/ThumbnailServer (this library), warm (one thumbnail asked again and again) and cold (every request a
#     new source URL, so each is fetched, decoded reduced, encoded and stored), and its own `GET /`, the
#     framework's ceiling on this machine;
#   - nginx serving the same thumbnail as a static file, the physical anchor of a warm request;
#   - thumbor 7 (PyPI), with its result storage on disk, the same size and quality (256 x 256 fit, JPEG 85);
#   - the Python service of Benchmarks/server/python_service.py (requests and Pillow, disk and memory cache).
# For each: requests/s, p50 and p99 latency, CPU seconds per 1,000 requests and peak RSS of the server's processes,
# and the ratios the issue's targets are stated in, from one run. Prints the table and writes it to
# Benchmarks/server/RESULTS.md with the date and the machine. Any failed request (a socket error, a status
# other than 2xx) fails the run.
#
#   Benchmarks/server/run.sh            10 s per measurement (about 5 minutes once installed and built)
#   DURATION=30 Benchmarks/server/run.sh
#
# Installs what is missing, once: Debian packages (nginx, wrk, ImageMagick, python3-venv, python3-dev), thumbor and
# the Python service's packages with pip in virtual environments under Benchmarks/.build-server, and builds the
# example server in release mode. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
work=$root/Benchmarks/.build-server
duration=${DURATION:-10}
threads=2
connections=16
size=256
sources=24

Scripts/setup.sh nginx wrk imagemagick python3-venv python3-dev
magick=$(command -v magick || true)
[[ -n $magick ]] || magick=/usr/bin/convert

mkdir -p "$work/origin" "$work/static" "$work/logs"
for i in $(seq 1 $sources); do
  file=$work/origin/img$i.jpg
  [[ -f $file ]] && continue
  "$magick" -size 1024x768 -seed "$i" plasma:fractal -blur 0x1 -seed $((i + 100)) -attenuate 0.2 +noise Gaussian \
    -strip -quality 90 -sampling-factor 4:2:0 "$file"
done

# Debian's Python, whose venv module python3-venv provides; pycurl, which thumbor's loader uses, builds against
# libcurl and Python's headers.
make_venv() {
  local venv=$1 check=$2
  shift 2
  if ! "$venv/bin/python" -c "$check" >/dev/null 2>&1; then
    echo "run.sh: installing $* in $venv"
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet "$@"
  fi
}
make_venv "$work/venv-thumbor" 'import thumbor' 'thumbor>=7,<8'
make_venv "$work/venv-python" 'import PIL, requests' pillow requests

echo "run.sh: building Examples/ThumbnailServer (release)"
swift build -c release --package-path Examples/ThumbnailServer >"$work/logs/build.log" 2>&1 || {
  tail -40 "$work/logs/build.log"
  exit 1
}
server_bin=$(swift build -c release --package-path Examples/ThumbnailServer --show-bin-path)/ThumbnailServer

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
origin_port=$(free_port)
static_port=$(free_port)
ours_port=$(free_port)
thumbor_port=$(free_port)
python_port=$(free_port)

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [[ -f $work/nginx/nginx.pid ]] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  # The caches of the previous run, deleted only now that every measurement is done (see below).
  rm -rf "$work/trash"
}
trap cleanup EXIT

# One nginx: the origin (any /v/<tag>/imgN.jpg is imgN.jpg, so that every cold request names a new source), and
# the static thumbnails.
# The previous run's caches (tens of thousands of files) are moved aside, not deleted: on ext4, creating files in
# the minutes after many were deleted makes the kernel step over each recently deleted inode, which would charge
# the cold runs (every request writes files) for this script's own clean-up. They are deleted at the end; leave a
# few minutes between runs.
mkdir -p "$work/trash"
for dir in nginx cache-ours cache-thumbor cache-python; do
  [[ -e $work/$dir ]] && mv "$work/$dir" "$work/trash/$dir-$(date +%s%N)"
done
mkdir -p "$work/nginx"
cat >"$work/nginx/nginx.conf" <<EOF
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 100000;
  client_body_temp_path $work/nginx;
  proxy_temp_path $work/nginx;
  fastcgi_temp_path $work/nginx;
  uwsgi_temp_path $work/nginx;
  scgi_temp_path $work/nginx;
  types { image/jpeg jpg; }
  server {
    listen 127.0.0.1:$origin_port;
    root $work/origin;
    location ~ ^/v/[^/]+/(img[0-9]+\.jpg)\$ { alias $work/origin/\$1; }
  }
  server {
    listen 127.0.0.1:$static_port;
    root $work/static;
  }
}
EOF
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx"

# Thumbnails on disk and no copy of the sources, as thumbor below is configured (its storage off, its result
# storage on disk).
"$server_bin" --port "$ours_port" --cache-dir "$work/cache-ours" --allow-host 127.0.0.1 --no-store-originals \
  >"$work/logs/ours.log" 2>&1 &
ours_pid=$!
pids+=("$ours_pid")

cat >"$work/thumbor.conf" <<EOF
ALLOW_UNSAFE_URL = True
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.no_storage'
RESULT_STORAGE = 'thumbor.result_storages.file_storage'
RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '$work/cache-thumbor'
RESULT_STORAGE_STORES_UNSAFE = True
QUALITY = 85
MAX_AGE = 86400
EOF
"$work/venv-thumbor/bin/thumbor" --port "$thumbor_port" --conf "$work/thumbor.conf" -l warning >"$work/logs/thumbor.log" 2>&1 &
thumbor_pid=$!
pids+=("$thumbor_pid")

"$work/venv-python/bin/python" Benchmarks/server/python_service.py --port "$python_port" \
  --cache-dir "$work/cache-python" --allow-host 127.0.0.1 >"$work/logs/python.log" 2>&1 &
python_pid=$!
pids+=("$python_pid")

wait_ready() {
  for _ in $(seq 1 100); do
    curl -sf -o /dev/null "$1" && return 0
    sleep 0.2
  done
  echo "run.sh: $1 did not answer" >&2
  exit 1
}
wait_ready "http://127.0.0.1:$origin_port/img1.jpg"
wait_ready "http://127.0.0.1:$ours_port/"
wait_ready "http://127.0.0.1:$thumbor_port/healthcheck"
wait_ready "http://127.0.0.1:$python_port/"

source_url="http://127.0.0.1:$origin_port/img1.jpg"
ours_warm="http://127.0.0.1:$ours_port/thumb?url=$source_url&w=$size&h=$size&format=jpeg"
thumbor_warm="http://127.0.0.1:$thumbor_port/unsafe/fit-in/${size}x${size}/127.0.0.1:$origin_port/img1.jpg"
python_warm="http://127.0.0.1:$python_port/thumb?url=$source_url&w=$size&h=$size"
# The static file is the example server's own thumbnail, so that nginx sends the same bytes.
curl -sf -o "$work/static/img1-$size.jpg" "$ours_warm"
static_url="http://127.0.0.1:$static_port/img1-$size.jpg"
for url in "$thumbor_warm" "$python_warm"; do curl -sf -o /dev/null "$url"; done

# Every process of a server: nginx's master and workers, the others' one process.
processes() {
  case $1 in
    nginx) cat "$work/nginx/nginx.pid"; pgrep -P "$(cat "$work/nginx/nginx.pid")" ;;
    *) echo "$1" ;;
  esac
}
cpu_ticks() {
  local total=0 pid
  for pid in $(processes "$1"); do
    # utime and stime, fields 14 and 15 of /proc/PID/stat (after the command name, which may hold spaces).
    total=$((total + $(sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}')))
  done
  echo "$total"
}
peak_rss_kb() {
  local total=0 pid
  for pid in $(processes "$1"); do
    total=$((total + $(awk '/VmHWM/ {print $2}' "/proc/$pid/status")))
  done
  echo "$total"
}

# Unique source URLs for the cold runs: wrk's threads each count their own requests.
cat >"$work/cold.lua" <<'EOF'
local counter = 0
local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end
function init(args)
  pattern = os.getenv("COLD_PATTERN")
  sources = tonumber(os.getenv("COLD_SOURCES"))
end
function request()
  counter = counter + 1
  local tag = id .. "-" .. counter .. "-" .. os.time()
  local path = string.gsub(pattern, "TAG", tag)
  path = string.gsub(path, "N", tostring(counter % sources + 1))
  return wrk.format("GET", path)
end
EOF

results=()
# measure NAME SERVER URL [cold pattern]: one wrk run; appends "name rps p50 p99 cpu_per_1000 rss" to results.
measure() {
  local name=$1 server=$2 url=$3 pattern=${4:-}
  local before after out rps p50 p99 requests
  before=$(cpu_ticks "$server")
  if [[ -n $pattern ]]; then
    out=$(COLD_PATTERN=$pattern COLD_SOURCES=$sources wrk -t$threads -c$connections -d"${duration}s" --latency -s "$work/cold.lua" "$url")
  else
    out=$(wrk -t$threads -c$connections -d"${duration}s" --latency "$url")
  fi
  after=$(cpu_ticks "$server")
  echo "$out" >"$work/logs/wrk-$name.txt"
  if grep -qE 'Non-2xx|Socket errors' <<<"$out"; then
    echo "run.sh: failed requests in $name:" >&2
    echo "$out" >&2
    exit 1
  fi
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  local hz
  hz=$(getconf CLK_TCK)
  local cpu
  cpu=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" 'BEGIN {printf "%.3f", t / hz / n * 1000}')
  results+=("$name $rps $p50 $p99 $cpu $(peak_rss_kb "$server")")
  printf '%-22s %10s req/s  p50 %8s  p99 %8s  %7s CPU s/1000\n' "$name" "$rps" "$p50" "$p99" "$cpu"
}

echo "run.sh: measuring, ${duration} s each, wrk -t$threads -c$connections"
measure ours-root "$ours_pid" "http://127.0.0.1:$ours_port/"
measure ours-warm "$ours_pid" "$ours_warm"
measure nginx-static nginx "$static_url"
measure thumbor-warm "$thumbor_pid" "$thumbor_warm"
measure python-warm "$python_pid" "$python_warm"
measure ours-cold "$ours_pid" "http://127.0.0.1:$ours_port/" \
  "/thumb?url=http://127.0.0.1:$origin_port/v/TAG/imgN.jpg&w=$size&h=$size&format=jpeg"
measure thumbor-cold "$thumbor_pid" "http://127.0.0.1:$thumbor_port/" \
  "/unsafe/fit-in/${size}x${size}/127.0.0.1:$origin_port/v/TAG/imgN.jpg"
measure python-cold "$python_pid" "http://127.0.0.1:$python_port/" \
  "/thumb?url=http://127.0.0.1:$origin_port/v/TAG/imgN.jpg&w=$size&h=$size"

# The table and the ratios.
value() { # value NAME FIELD (1 rps, 2 p50, 3 p99, 4 cpu, 5 rss)
  local line
  for line in "${results[@]}"; do
    set -- $line
    if [[ $1 == "$NAME" ]]; then shift "$FIELD"; echo "$1"; return; fi
  done
}
field() { NAME=$1 FIELD=$2 value; }
ratio() { awk -v a="$(field "$1" 1)" -v b="$(field "$2" 1)" 'BEGIN {printf "%.2f", a / b}'; }

{
  echo "# Thumbnail servers under wrk"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
    "load average before the run $(cut -d' ' -f1-3 /proc/loadavg). wrk -t$threads -c$connections, ${duration} s per line," \
    "over loopback. Sources: $sources JPEGs of 1024 x 768 served by nginx; thumbnails fit in $size x $size, JPEG quality 85."
  echo
  echo "| server | requests/s | p50 | p99 | CPU s per 1,000 requests | peak RSS |"
  echo "|---|---|---|---|---|---|"
  for line in "${results[@]}"; do
    set -- $line
    echo "| $1 | $2 | $3 | $4 | $5 | $(( $6 / 1024 )) MiB |"
  done
  echo
  echo "| ratio | value | target |"
  echo "|---|---|---|"
  echo "| warm /thumb over the same server's GET / | $(ratio ours-warm ours-root) | at least 0.8 |"
  echo "| warm /thumb over nginx's static file | $(ratio ours-warm nginx-static) | (reported) |"
  echo "| warm over thumbor warm | $(ratio ours-warm thumbor-warm) | at least 10 |"
  echo "| cold over thumbor cold | $(ratio ours-cold thumbor-cold) | at least 3 |"
  echo "| warm over the Python service warm | $(ratio ours-warm python-warm) | (reported) |"
  echo "| cold over the Python service cold | $(ratio ours-cold python-cold) | (reported) |"
} >"$work/RESULTS.md"
cat "$work/RESULTS.md"
cp "$work/RESULTS.md" Benchmarks/server/RESULTS.md
