#!/usr/bin/env bash
# Four Examples/ThumbnailServer processes sharing one Redis (--shared-cache), as behind a load balancer that spreads
# hot URLs over them, on loopback, against an nginx origin that logs every request:
#   a. origin requests per URL: every thumbnail URL asked of all four servers at about the same time (the target
#      is 1.0: one server fetches and makes it, the others wait for its bytes in Redis);
#   b. the fleet's time over those requests against one server alone, without Redis, asked each URL four times
#      the same way (its own single-flight and memory serve the repeats), and against four servers without Redis
#      (each fetches and makes every thumbnail), in rounds whose order rotates;
#   c. the latency of a Redis hit: the fleet restarted on fresh cache directories and asked the URLs of its first
#      run again, so that every answer comes from Redis; then the same URLs again (memory hits), and again after
#      a restart on the same directories (disk hits, from the page cache);
#   d. Redis killed (SIGKILL) when half of the requests of a fleet run over new URLs have been answered: failed
#      requests (the target is 0) and origin requests per URL before and after.
# Prints a Markdown table; with --write also writes it to Benchmarks/fleet/RESULTS.md with the date and the
# machine, replacing the file (notes added by hand to the last run go with it).
#
#   Benchmarks/fleet/run.sh                1,000 URLs (4,000 requests a run), 5 rounds: about 3 minutes once built
#   Benchmarks/fleet/run.sh --quick        200 URLs, 1 round: about 25 seconds once built
#   Benchmarks/fleet/run.sh --write        ... and write RESULTS.md
#
# Installs what is missing with Scripts/setup.sh (nginx, ImageMagick, redis-server), builds the example server in
# release mode, and runs everything in a temporary directory that it deletes on exit, with every process it
# started. Needs no network once installed and built. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/../.."

count=1000
rounds=5
write=0
for arg in "$@"; do
  case $arg in
    --quick) count=200 rounds=1 ;;
    --write) write=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument $arg (--quick, --write)" >&2; exit 2 ;;
  esac
done
mode=$([[ $count == 1000 ]] && echo full || echo quick)
fleet_size=4
repeat=4
concurrency=32
latency_concurrency=4
size=256
sources=8
python=/usr/bin/python3
driver=Benchmarks/fleet/driver.py

Scripts/setup.sh nginx imagemagick
magick=$(command -v magick || true)
[[ -n $magick ]] || magick=/usr/bin/convert

tmp=$(mktemp -d)
# nginx's workers run as another user when it is started as root.
chmod 755 "$tmp"
mkdir -p "$tmp/origin" "$tmp/nginx" "$tmp/redis" "$tmp/logs" "$tmp/results" "$tmp/caches"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "run.sh: building Examples/ThumbnailServer (release)"
swift build -c release --package-path Examples/ThumbnailServer >"$tmp/logs/build.log" 2>&1 || {
  tail -40 "$tmp/logs/build.log"
  exit 1
}
server_bin=$(swift build -c release --package-path Examples/ThumbnailServer --show-bin-path)/ThumbnailServer

for i in $(seq 1 $sources); do
  "$magick" -size 1024x768 -seed "$i" plasma:fractal -blur 0x1 -seed $((i + 100)) -attenuate 0.2 +noise Gaussian \
    -strip -quality 90 -sampling-factor 4:2:0 "$tmp/origin/img$i.jpg"
done
chmod 644 "$tmp"/origin/*

free_port() {
  "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
wait_ready() {
  for _ in $(seq 1 150); do
    curl -sf -o /dev/null "$1" && return 0
    sleep 0.1
  done
  echo "run.sh: $1 did not answer" >&2
  exit 1
}

# The origin: any /v/<tag>/imgN.jpg is imgN.jpg, so that each tag names new URLs; every request is logged.
origin_port=$(free_port)
cat >"$tmp/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log;
events { worker_connections 1024; }
http {
  log_format uri '\$request_uri \$status';
  access_log $tmp/nginx/access.log uri;
  sendfile on;
  keepalive_requests 100000;
  client_body_temp_path $tmp/nginx;
  proxy_temp_path $tmp/nginx;
  fastcgi_temp_path $tmp/nginx;
  uwsgi_temp_path $tmp/nginx;
  scgi_temp_path $tmp/nginx;
  types { image/jpeg jpg; }
  server {
    listen 127.0.0.1:$origin_port;
    root $tmp/origin;
    location ~ ^/v/[^/]+/(img[0-9]+\.jpg)\$ { alias $tmp/origin/\$1; }
  }
}
EOF
# In the foreground, as a child of this script, which stops it like the others.
nginx -c "$tmp/nginx/nginx.conf" -p "$tmp/nginx" &
pids+=($!)
origin="http://127.0.0.1:$origin_port"
wait_ready "$origin/img1.jpg"

# Redis: no persistence, its own directory.
redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$tmp/redis" --save '' --appendonly no \
  >"$tmp/logs/redis.log" 2>&1 &
redis_pid=$!
pids+=("$redis_pid")
# Out of the job table, so that its SIGKILL in d is not reported as a job killed; the shell still reaps it.
disown "$redis_pid"
for _ in $(seq 1 100); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.1
done

declare -A port pid
# start_server NAME CACHE_DIR [server arguments...]: a server on a free port, its log in logs/NAME.log. Thumbnails
# only on disk, as in Benchmarks/server.
start_server() {
  local name=$1 dir=$2
  shift 2
  port[$name]=$(free_port)
  "$server_bin" --port "${port[$name]}" --cache-dir "$dir" --allow-host 127.0.0.1 --no-store-originals "$@" \
    >>"$tmp/logs/$name.log" 2>&1 &
  pid[$name]=$!
  pids+=("${pid[$name]}")
}
stop_server() {
  kill -TERM "${pid[$1]}"
  wait "${pid[$1]}" || true
}
# A group is the servers GROUP1 to GROUP4: "fleet", with the shared cache, or "apart", without it.
start_group() { # start_group GROUP CACHE_SUFFIX [server arguments...]
  local group=$1 suffix=$2 n
  shift 2
  for n in $(seq 1 $fleet_size); do start_server "$group$n" "$tmp/caches/$group$n-$suffix" "$@"; done
  for n in $(seq 1 $fleet_size); do wait_ready "http://127.0.0.1:${port[$group$n]}/"; done
}
stop_group() {
  local n
  for n in $(seq 1 $fleet_size); do stop_server "$1$n"; done
}
group_ports() {
  local n list=()
  for n in $(seq 1 $fleet_size); do list+=("${port[$1$n]}"); done
  (IFS=,; echo "${list[*]}")
}
group_pids() {
  local n
  for n in $(seq 1 $fleet_size); do echo "${pid[$1$n]}"; done
}

cpu_ticks() { # cpu_ticks PID...: user and system ticks of the processes (those still there), fields 14 and 15 of
  # /proc/PID/stat
  local p
  for p in "$@"; do
    cat "/proc/$p/stat" 2>/dev/null || true
  done | sed 's/^.*) //' | awk '{total += $12 + $13} END {print total + 0}'
}
redis_commands() { # "SCRIPTS COMMANDS": the scripts Redis has run since it started, and every command (those in
  # scripts included, INFO left out); "0 0" once it is gone
  { redis-cli -p "$redis_port" info commandstats 2>/dev/null || true; } | awk -F'[=,:]' '
    /^cmdstat_eval/ {scripts += $3}
    /^cmdstat_/ && !/^cmdstat_info:/ {all += $3}
    END {print scripts + 0, all + 0}'
}
field() { # field FILE KEY
  "$python" -c 'import json, sys; v = json.load(open(sys.argv[1]))[sys.argv[2]]; print("-" if v is None else v)' "$1" "$2"
}
origin_json() { # origin_json TAG COUNT
  "$python" "$driver" origin --log "$tmp/nginx/access.log" --tag "$1" --count "$2"
}

# ask LABEL TAG PORTS CONCURRENCY CPU_PIDS [driver arguments...]: one pass; results/LABEL.json holds the driver's
# figures, the origin's requests for TAG (in all, and during the pass), the CPU seconds of CPU_PIDS
# (space-separated) and of Redis, and the commands Redis ran per URL.
ask() {
  local label=$1 tag=$2 ports=$3 c=$4 cpu_pids=$5
  shift 5
  local before after origin_before redis_before redis_after commands_before commands_after
  origin_before=$(grep -c "^/v/$tag-" "$tmp/nginx/access.log" || true)
  commands_before=$(redis_commands)
  redis_before=$(cpu_ticks "$redis_pid")
  # shellcheck disable=SC2086
  before=$(cpu_ticks $cpu_pids)
  "$python" "$driver" ask --servers "$ports" --origin "$origin" --tag "$tag" --count "$count" --repeat "$repeat" \
    --size "$size" --sources "$sources" --concurrency "$c" "$@" >"$tmp/results/$label.driver.json"
  # shellcheck disable=SC2086
  after=$(cpu_ticks $cpu_pids)
  redis_after=$(cpu_ticks "$redis_pid")
  commands_after=$(redis_commands)
  # The last answers may be sent before the origin's log line of a late fetch is written.
  sleep 0.2
  "$python" - "$tmp/results/$label.driver.json" "$(origin_json "$tag" "$count")" "$((after - before))" \
    "$(getconf CLK_TCK)" "$origin_before" "$((redis_after - redis_before))" "$commands_before" "$commands_after" "$count" \
    >"$tmp/results/$label.json" <<'EOF'
import json, sys
result = json.load(open(sys.argv[1]))
origin = json.loads(sys.argv[2])
result.update({"origin_" + key: value for key, value in origin.items()})
result["origin_during"] = origin["requests"] - int(sys.argv[5])
result["cpu_s"] = round(int(sys.argv[3]) / int(sys.argv[4]), 2)
result["redis_cpu_s"] = round(int(sys.argv[6]) / int(sys.argv[4]), 2)
# Redis gone by the end of the pass: its counts are lost.
before, after, urls = [int(n) for n in sys.argv[7].split()], [int(n) for n in sys.argv[8].split()], int(sys.argv[9])
result["redis_scripts_per_url"] = round((after[0] - before[0]) / urls, 2) if after[1] > 0 else None
result["redis_commands_per_url"] = round((after[1] - before[1]) / urls, 2) if after[1] > 0 else None
print(json.dumps(result))
EOF
  printf 'run.sh: %-14s %5s requests, %s failed, %7s s, p50 %7s ms, p99 %7s ms, origin %s per URL\n' "$label" \
    "$(field "$tmp/results/$label.json" requests)" "$(field "$tmp/results/$label.json" failed)" \
    "$(field "$tmp/results/$label.json" seconds)" "$(field "$tmp/results/$label.json" p50_ms)" \
    "$(field "$tmp/results/$label.json" p99_ms)" "$(field "$tmp/results/$label.json" origin_per_url)"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
shared=(--shared-cache "redis://127.0.0.1:$redis_port")
start_group fleet a "${shared[@]}"
start_group apart a
start_server single "$tmp/caches/single"
wait_ready "http://127.0.0.1:${port[single]}/"

# run KIND ROUND [CONCURRENCY]: one pass of KIND (fleet, apart or single) over the URLs of KIND-ROUND.
run() {
  local kind=$1 round=$2 c=${3:-$concurrency}
  if [[ $kind == single ]]; then
    ask "$kind-$round" "$kind-$round" "${port[single]}" "$c" "${pid[single]}"
  else
    ask "$kind-$round" "$kind-$round" "$(group_ports "$kind")" "$c" "$(group_pids "$kind")"
  fi
}

# A few URLs first, so that every server has its connections to the origin and to Redis open.
for kind in fleet apart single; do count=16 run "$kind" warm >/dev/null; done

echo "run.sh: $count URLs, $repeat requests each, $concurrency at once; $rounds round(s) of three runs"
kinds=(fleet single apart)
for r in $(seq 1 "$rounds"); do
  # Each round starts one kind later than the one before.
  for k in 0 1 2; do run "${kinds[$(((r - 1 + k) % 3))]}" "$r"; done
done
redis_keys=$(redis-cli -p "$redis_port" dbsize)
redis_memory=$(redis-cli -p "$redis_port" info memory | awk -F: '/^used_memory_human:/ {print $2}' | tr -d '\r')
stop_server single
stop_group apart

# c. Fresh local caches: every answer from Redis, then from memory; then a restart on the same directories.
stop_group fleet
start_group fleet c "${shared[@]}"
count=16 run fleet warm-c >/dev/null
ask hit-redis fleet-1 "$(group_ports fleet)" "$latency_concurrency" "$(group_pids fleet)"
ask hit-memory fleet-1 "$(group_ports fleet)" "$latency_concurrency" "$(group_pids fleet)"
stop_group fleet
start_group fleet c "${shared[@]}"
ask hit-disk fleet-1 "$(group_ports fleet)" "$latency_concurrency" "$(group_pids fleet)"

# d. New URLs, Redis killed when half of the requests have been answered.
warnings_before=$(cat "$tmp"/logs/fleet*.log | grep -c warning || true)
ask redis-killed redis-killed "$(group_ports fleet)" "$concurrency" "$(group_pids fleet)" --kill-pid "$redis_pid"
for _ in $(seq 1 50); do
  kill -0 "$redis_pid" 2>/dev/null || break
  sleep 0.1
done
warnings=$(($(cat "$tmp"/logs/fleet*.log | grep -c warning || true) - warnings_before))

# The report.
get() { field "$tmp/results/$1.json" "$2"; }
median() { # median VALUE...
  printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
# ratios A B: the ratio of A's time over B's in each round, as "MEDIAN (LOWEST to HIGHEST)".
ratios() {
  local r list=()
  for r in $(seq 1 "$rounds"); do
    list+=("$(awk -v a="$(get "$1-$r" seconds)" -v b="$(get "$2-$r" seconds)" 'BEGIN {printf "%.2f", a / b}')")
  done
  echo "$(median "${list[@]}") ($(printf '%s\n' "${list[@]}" | sort -g | sed -n '1p;$p' | paste -sd' ' |
    awk '{print ($1 == $2) ? "one round" : $1 " to " $2}'))"
}
per_url() { # per_url KIND: origin requests per URL over every round of KIND
  local r total=0
  for r in $(seq 1 "$rounds"); do total=$((total + $(get "$1-$r" origin_requests))); done
  awk -v a="$total" -v b="$((count * rounds))" 'BEGIN {printf "%.3f", a / b}'
}

report=$tmp/RESULTS.md
{
  echo "# A fleet of thumbnail servers sharing one Redis"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
    "load average before the run $load_before; $(redis-server --version | awk '{print $1, $2, $3}'), nginx" \
    "$(nginx -v 2>&1 | sed 's|.*/||'). \`Benchmarks/fleet/run.sh\` ($mode): $fleet_size servers" \
    "(Examples/ThumbnailServer, release, \`--no-store-originals\`) with \`--shared-cache\` on one redis-server" \
    "(no persistence), against one server alone and $fleet_size servers without it; $count thumbnail URLs a run" \
    "over $sources JPEGs of 1024 x 768 served by nginx under new names, each thumbnail fit in $size x $size, JPEG" \
    "quality 85. Everything on loopback on the same machine: the servers, Redis, the origin and the driver" \
    "(Python threads, keep-alive connections) share its cores."
  echo
  echo "## a, b. Every URL asked four times at once"
  echo
  echo "Each URL asked $repeat times, the requests of one URL queued together, $concurrency requests at once: of" \
    "the $fleet_size servers sharing Redis once each (fleet), of one server $repeat times (one server), or of" \
    "$fleet_size servers without Redis once each (apart). Each round runs the three on new URLs, each round" \
    "starting one later than the round before. CPU is the user and system time of the servers, and of Redis," \
    "during the run. Redis counts its scripts (the fleet's look-ups, claims, polls and stores: one round trip" \
    "each) and its commands (those the scripts run included) in INFO commandstats; both per URL of the run."
  echo
  echo "| run | requests | failed | seconds | p50 | p99 | origin requests per URL | CPU s, servers | CPU s, Redis | Redis scripts, commands per URL |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for r in $(seq 1 "$rounds"); do
    for kind in fleet single apart; do
      label=$kind-$r
      case $kind in
        fleet) name="fleet of $fleet_size, round $r" ;;
        single) name="one server, round $r" ;;
        apart) name="$fleet_size servers apart, round $r" ;;
      esac
      echo "| $name | $(get "$label" requests) | $(get "$label" failed) | $(get "$label" seconds) |" \
        "$(get "$label" p50_ms) ms | $(get "$label" p99_ms) ms | $(get "$label" origin_per_url) | $(get "$label" cpu_s) |" \
        "$(get "$label" redis_cpu_s) | $(get "$label" redis_scripts_per_url), $(get "$label" redis_commands_per_url) |"
    done
  done
  echo
  echo "| figure | value | target |"
  echo "|---|---|---|"
  echo "| origin requests per URL, fleet, every round | $(per_url fleet) | 1.0 |"
  echo "| origin requests per URL, $fleet_size servers apart | $(per_url apart) | (reported) |"
  echo "| fleet's time over one server's, median of the rounds (range) | $(ratios fleet single) | (reported; below 1 the fleet is faster) |"
  echo "| fleet's time over $fleet_size servers apart | $(ratios fleet apart) | (reported) |"
  echo "| Redis after the runs | $redis_keys keys, $redis_memory | |"
  echo
  echo "## c. The latency of a hit"
  echo
  echo "The URLs of the fleet's first run, asked again of each of the $fleet_size servers, $latency_concurrency" \
    "requests at once: first after a restart on fresh cache directories (every answer from Redis), then again" \
    "(from memory), then after a restart on the same directories (from disk, which the page cache holds)." \
    "Latency as the driver sees it, its own time included."
  echo
  echo "| tier | requests | failed | p50 | p99 | origin requests | CPU s, servers | Redis scripts, commands per URL |"
  echo "|---|---|---|---|---|---|---|---|"
  for tier in redis memory disk; do
    label=hit-$tier
    echo "| $tier | $(get "$label" requests) | $(get "$label" failed) | $(get "$label" p50_ms) ms | $(get "$label" p99_ms) ms |" \
      "$(get "$label" origin_during) (target 0) | $(get "$label" cpu_s) | $(get "$label" redis_scripts_per_url), $(get "$label" redis_commands_per_url) |"
  done
  echo
  echo "## d. Redis killed halfway"
  echo
  echo "A fleet run over $count new URLs; redis-server is sent SIGKILL once half of the requests have been answered."
  echo
  echo "| requests | failed | killed after | origin requests per URL | first half of the URLs | second half | warnings logged |"
  echo "|---|---|---|---|---|---|---|"
  echo "| $(get redis-killed requests) | $(get redis-killed failed) (target 0) | $(get redis-killed killed_after) answers |" \
    "$(get redis-killed origin_per_url) | $(get redis-killed origin_first_half_per_url) |" \
    "$(get redis-killed origin_second_half_per_url) | $warnings |"
  echo
  echo "## Reading the figures"
  echo
  echo "- **Origin requests per URL** is what the shared tier is for. Four servers that miss a URL at once fetch it" \
    "once between them: one claims it in Redis, fetches the source and makes the thumbnail, and the others poll" \
    "Redis for its bytes; four servers apart fetch it four times."
  echo "- **Time.** On one machine the fleet cannot be faster than one server: the same cores make the same" \
    "thumbnails, and the fleet adds Redis work for the three other requests of each URL (a local miss, the" \
    "look-up script, polls while the thumbnail is made, the bytes written to the local disk), where one server" \
    "joins them to the load it already runs, in memory. The ratio over one server is the price of that" \
    "coordination on shared cores; on machines of their own, the servers pay it side by side. The ratio over" \
    "four servers apart, what a load balancer gives without the shared tier, is the work the fleet saves by" \
    "making each thumbnail once instead of four times."
  echo "- **Latency of a hit**, with about one request in flight per server, as the Python driver sees it: its own" \
    "time is in every figure, the same for each tier. A Redis hit is a memory miss, a disk miss, one script on" \
    "Redis, then the bytes kept in memory and written to the local disk."
  echo "- **Redis killed.** The requests in flight finish and none should fail. The claims go with Redis, so each" \
    "server then fetches every URL for itself (four per URL, as apart) until Redis is back; each logs a few" \
    "warnings, then its circuit breaker stops asking Redis for a while."
  echo "- **Noise.** During a fleet run the machine's $(nproc) cores serve the four servers, Redis, nginx and the" \
    "driver; other work on the machine shows in the load average, and a burst of it slows every kind of run" \
    "in its round. The order rotates from round to round; compare the kinds within a round."
  echo
  echo "Not done: the servers in network namespaces of their own (or on hosts of their own). Here every Redis" \
    "command is a loopback round trip; across a network each Redis hit, and each poll of a fleet wait, costs a" \
    "network round trip instead."
} >"$report"
cat "$report"
if ((write)); then
  cp "$report" Benchmarks/fleet/RESULTS.md
  echo "run.sh: wrote Benchmarks/fleet/RESULTS.md"
fi
