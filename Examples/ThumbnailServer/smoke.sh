#!/usr/bin/env bash
# Builds Examples/ThumbnailServer and checks it on loopback, against an origin that Python's http.server runs on a
# temporary folder: the routes, the statuses errors map to, the ETag and 304, format negotiation, a graceful stop
# on SIGTERM, and two servers sharing a redis-server of their own (Scripts/setup.sh installs it) fetching a source
# once between them. CI runs it (.ci/run). Exits non-zero, naming each check that fails.
#
#   Examples/ThumbnailServer/smoke.sh                       builds it (debug) first
#   THUMBNAIL_SERVER=PATH Examples/ThumbnailServer/smoke.sh  checks a server already built
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../../Tests/Fixtures

if [[ -n ${THUMBNAIL_SERVER:-} ]]; then
  bin=$THUMBNAIL_SERVER
else
  swift build >/dev/null
  bin=$(swift build --show-bin-path)/ThumbnailServer
fi

tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
mkdir -p "$tmp/origin"
cp "$fixtures/jpeg/photo.jpg" "$tmp/origin/photo.jpg"
cp "$fixtures/png/rgba8.png" "$tmp/origin/alpha.png"
echo "not an image" >"$tmp/origin/text.jpg"
origin_port=$(free_port)
port=$(free_port)
python3 -m http.server --bind 127.0.0.1 "$origin_port" --directory "$tmp/origin" >/dev/null 2>&1 &
pids+=($!)
"$bin" --port "$port" --cache-dir "$tmp/cache" --allow-host 127.0.0.1 >"$tmp/server.log" 2>&1 &
server=$!
pids+=("$server")

for _ in $(seq 1 100); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/" && curl -sf -o /dev/null "http://127.0.0.1:$origin_port/photo.jpg" && break
  sleep 0.2
done

base="http://127.0.0.1:$port"
origin="http://127.0.0.1:$origin_port"
failures=0
# check NAME EXPECTED_STATUS PATH [curl arguments...]: the status, and the headers in $tmp/headers.
check() {
  local name=$1 expected=$2 path=$3
  shift 3
  local status
  status=$(curl -s -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}' "$@" "$base$path")
  if [[ $status != "$expected" ]]; then
    echo "smoke.sh: $name: status $status, expected $expected: $(head -c 200 "$tmp/body")" >&2
    failures=$((failures + 1))
    return 1
  fi
}
header() {
  grep -i "^$1:" "$tmp/headers" | head -1 | cut -d' ' -f2- | tr -d '\r'
}
expect_header() {
  local name=$1 field=$2 expected=$3 actual
  actual=$(header "$field")
  if [[ $actual != "$expected" ]]; then
    echo "smoke.sh: $name: $field is '$actual', expected '$expected'" >&2
    failures=$((failures + 1))
  fi
}

check "status" 200 "/"
thumb="/thumb?url=$origin/photo.jpg&w=64&h=64"
check "webp to a client that takes it" 200 "$thumb" -H 'Accept: image/webp,*/*' && \
  expect_header "webp to a client that takes it" Content-Type image/webp
check "the image's own format to one that does not" 200 "$thumb" -H 'Accept: image/jpeg' && \
  expect_header "own format" Content-Type image/jpeg
check "a format asked for" 200 "$thumb&format=png&fit=fill" && expect_header "a format asked for" Content-Type image/png
check "cover" 200 "$thumb&fit=cover&format=jpeg"
check "transparency kept" 200 "/thumb?url=$origin/alpha.png&w=16&h=16" -H 'Accept: image/png' && \
  expect_header "transparency kept" Content-Type image/png
check "etag" 200 "$thumb&format=jpeg"
etag=$(header ETag)
cache_control=$(header Cache-Control)
[[ -n $etag && $cache_control == *max-age* ]] || { echo "smoke.sh: no ETag or Cache-Control" >&2; failures=$((failures + 1)); }
check "304 to a matching If-None-Match" 304 "$thumb&format=jpeg" -H "If-None-Match: $etag"
check "200 to another" 200 "$thumb&format=jpeg" -H 'If-None-Match: "other"'
check "a host not allowed" 400 "/thumb?url=http://localhost:$origin_port/photo.jpg&w=64&h=64"
check "no url" 400 "/thumb?w=64&h=64"
check "a bad size" 400 "/thumb?url=$origin/photo.jpg&w=0&h=64"
check "a size over the limit" 400 "/thumb?url=$origin/photo.jpg&w=5000&h=64"
check "a bad fit" 400 "$thumb&fit=stretch"
check "a format not served" 400 "$thumb&format=gif"
check "the origin's 404" 404 "/thumb?url=$origin/missing.jpg&w=64&h=64"
check "not an image" 415 "/thumb?url=$origin/text.jpg&w=64&h=64"
check "no origin" 502 "/thumb?url=http://127.0.0.1:$(free_port)/photo.jpg&w=64&h=64"

# SIGTERM: the server stops, and returns with success, within ten seconds.
kill -TERM "$server"
for _ in $(seq 1 50); do
  kill -0 "$server" 2>/dev/null || break
  sleep 0.2
done
if kill -0 "$server" 2>/dev/null; then
  echo "smoke.sh: the server did not stop within 10 s of SIGTERM" >&2
  failures=$((failures + 1))
elif ! wait "$server"; then
  echo "smoke.sh: the server did not exit with success after SIGTERM" >&2
  failures=$((failures + 1))
fi

# A second server, with AVIF preferred and no originals kept: an AVIF thumbnail to a client that takes it, and
# only the variants on disk.
port=$(free_port)
"$bin" --port "$port" --cache-dir "$tmp/cache-lean" --allow-host 127.0.0.1 --prefer-avif --no-store-originals \
  >"$tmp/server.log" 2>&1 &
server=$!
pids+=("$server")
for _ in $(seq 1 100); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.2
done
base="http://127.0.0.1:$port"
check "avif to a client that takes it, when preferred" 200 "$thumb" -H 'Accept: image/avif,image/webp,*/*' && \
  expect_header "avif when preferred" Content-Type image/avif
check "webp to one that takes no avif" 200 "$thumb" -H 'Accept: image/webp,*/*' && \
  expect_header "webp without avif" Content-Type image/webp
check "an avif asked for" 200 "$thumb&format=avif&fit=fill" && expect_header "an avif asked for" Content-Type image/avif
# Three variants of one source were made: three files, and no copy of the source (hidden files are the cache's own).
stored=$(find "$tmp/cache-lean" -type f ! -name '.*' | wc -l)
if [[ $stored != 3 ]]; then
  echo "smoke.sh: --no-store-originals: $stored files on disk for three variants, expected 3" >&2
  failures=$((failures + 1))
fi
kill -TERM "$server"
wait "$server" || true

# Two servers sharing one Redis: a thumbnail asked of both at once is fetched from the origin once, and both
# answer with the same bytes.
command -v redis-server >/dev/null || { echo "smoke.sh: redis-server is missing: run Scripts/setup.sh" >&2; exit 1; }
mkdir -p "$tmp/fleet-origin"
cp "$fixtures/jpeg/photo.jpg" "$tmp/fleet-origin/photo.jpg"
fleet_origin_port=$(free_port)
python3 -m http.server --bind 127.0.0.1 "$fleet_origin_port" --directory "$tmp/fleet-origin" >"$tmp/fleet-origin.log" 2>&1 &
pids+=($!)
redis_port=$(free_port)
mkdir -p "$tmp/redis"
redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$tmp/redis" --save '' --appendonly no >"$tmp/redis.log" 2>&1 &
pids+=($!)
fleet=()
for name in a b; do
  port=$(free_port)
  "$bin" --port "$port" --cache-dir "$tmp/cache-$name" --allow-host 127.0.0.1 --shared-cache "redis://127.0.0.1:$redis_port" \
    >"$tmp/server-$name.log" 2>&1 &
  pids+=($!)
  fleet+=("$port")
done
for _ in $(seq 1 100); do
  curl -sf -o /dev/null "http://127.0.0.1:${fleet[0]}/" && curl -sf -o /dev/null "http://127.0.0.1:${fleet[1]}/" && \
    curl -sf -o /dev/null "http://127.0.0.1:$fleet_origin_port/" && break
  sleep 0.2
done
shared="/thumb?url=http://127.0.0.1:$fleet_origin_port/photo.jpg&w=64&h=64&format=jpeg"
curl -s -o "$tmp/fleet-a" -w '%{http_code}' "http://127.0.0.1:${fleet[0]}$shared" >"$tmp/status-a" &
curl_a=$!
curl -s -o "$tmp/fleet-b" -w '%{http_code}' "http://127.0.0.1:${fleet[1]}$shared" >"$tmp/status-b"
wait "$curl_a" || true
fetches=$(grep -c 'GET /photo.jpg' "$tmp/fleet-origin.log" || true)
if [[ $(cat "$tmp/status-a") != 200 || $(cat "$tmp/status-b") != 200 ]] || ! cmp -s "$tmp/fleet-a" "$tmp/fleet-b"; then
  echo "smoke.sh: --shared-cache: statuses $(cat "$tmp/status-a") and $(cat "$tmp/status-b"), or different bytes" >&2
  failures=$((failures + 1))
elif [[ $fetches != 1 ]]; then
  echo "smoke.sh: --shared-cache: the origin was asked $fetches times for one thumbnail asked of two servers" >&2
  failures=$((failures + 1))
fi
if grep -q warning "$tmp/server-a.log" "$tmp/server-b.log"; then
  echo "smoke.sh: --shared-cache: warnings from the servers:" >&2
  grep -h warning "$tmp/server-a.log" "$tmp/server-b.log" >&2
  failures=$((failures + 1))
fi

if ((failures > 0)); then
  echo "smoke.sh: $failures checks failed; the server's log:" >&2
  tail -20 "$tmp/server.log" >&2
  exit 1
fi
echo "smoke.sh: every check passed"
