"""The load of Benchmarks/fleet/run.sh: every thumbnail URL asked of several servers at about the same time, as a
load balancer spreading hot URLs over a fleet would, and the origin's access log counted afterwards.

    driver.py ask --servers P1,P2,... --origin http://127.0.0.1:O --tag T --count N [--repeat R] [--size S]
                  [--sources K] [--concurrency C] [--timeout SECONDS] [--kill-pid PID]
    driver.py origin --log FILE --tag T --count N

ask: source i (0 <= i < N) is http://127.0.0.1:O/v/T-i/imgK.jpg, K = i % sources + 1 (the origin serves any
/v/<tag>/imgK.jpg as imgK.jpg, so every i is a new URL to the servers). Each source is asked R times (4 by default),
the k-th time of server k % len(servers), its R requests queued one after the other, so that they are in flight
together; C threads (32 by default) take the requests in that order, each over keep-alive connections of its own.
Every socket operation is bounded by the timeout (30 s by default); an exception or a status other than 200 is a
failed request. With --kill-pid, that process is sent SIGKILL once half of the requests have been answered.
Prints one JSON object: requests, ok, failed, the statuses and errors seen, seconds from the first request to the
last answer, and the latency percentiles of the answered requests in milliseconds.

origin: the requests the origin's access log holds for the sources of tag T (one request URI per line), in total
and for each half of the sources, as JSON.
"""

import argparse
import http.client
import json
import os
import queue
import re
import signal
import sys
import threading
import time
from urllib.parse import quote


def percentile(sorted_values, fraction):
    if not sorted_values:
        return None
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def ask(args):
    ports = [int(port) for port in args.servers.split(",")]
    jobs = queue.Queue()
    for i in range(args.count):
        source = f"{args.origin}/v/{args.tag}-{i}/img{i % args.sources + 1}.jpg"
        path = f"/thumb?url={quote(source, safe=':/')}&w={args.size}&h={args.size}&format=jpeg"
        for k in range(args.repeat):
            jobs.put((ports[k % len(ports)], path))
    total = jobs.qsize()

    lock = threading.Lock()
    latencies = []
    statuses = {}
    errors = {}
    answered = [0]
    killed_at = [None]

    def record(status, error, seconds):
        with lock:
            answered[0] += 1
            if status is not None:
                statuses[str(status)] = statuses.get(str(status), 0) + 1
            if error is not None:
                errors[error] = errors.get(error, 0) + 1
            if status == 200:
                latencies.append(seconds)
            kill = args.kill_pid and killed_at[0] is None and answered[0] >= total // 2
            if kill:
                killed_at[0] = answered[0]
        if kill:
            os.kill(args.kill_pid, signal.SIGKILL)

    def worker():
        connections = {}
        while True:
            try:
                port, path = jobs.get_nowait()
            except queue.Empty:
                break
            started = time.perf_counter()
            status, error = None, None
            try:
                connection = connections.get(port)
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=args.timeout)
                    connections[port] = connection
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                status = response.status
                if status != 200:
                    error = f"status {status}"
            except Exception as exception:  # noqa: BLE001: every failure is counted, by its kind
                error = type(exception).__name__
                if port in connections:
                    connections.pop(port).close()
            record(status, error, time.perf_counter() - started)
        for connection in connections.values():
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started

    latencies.sort()
    milliseconds = lambda value: None if value is None else round(value * 1000, 3)  # noqa: E731
    print(json.dumps({
        "requests": total,
        "ok": len(latencies),
        "failed": total - len(latencies),
        "statuses": statuses,
        "errors": errors,
        "seconds": round(seconds, 3),
        "p50_ms": milliseconds(percentile(latencies, 0.50)),
        "p99_ms": milliseconds(percentile(latencies, 0.99)),
        "max_ms": milliseconds(latencies[-1] if latencies else None),
        "killed_after": killed_at[0],
    }))


def origin(args):
    pattern = re.compile(r"/v/" + re.escape(args.tag) + r"-(\d+)/")
    total, first, second = 0, 0, 0
    with open(args.log, encoding="utf-8", errors="replace") as log:
        for line in log:
            match = pattern.search(line)
            if not match:
                continue
            total += 1
            if int(match.group(1)) < args.count // 2:
                first += 1
            else:
                second += 1
    half = args.count // 2
    print(json.dumps({
        "requests": total,
        "per_url": round(total / args.count, 3),
        "first_half_per_url": round(first / half, 3) if half else None,
        "second_half_per_url": round(second / (args.count - half), 3),
    }))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    asking = commands.add_parser("ask")
    asking.add_argument("--servers", required=True)
    asking.add_argument("--origin", required=True)
    asking.add_argument("--tag", required=True)
    asking.add_argument("--count", type=int, required=True)
    asking.add_argument("--repeat", type=int, default=4)
    asking.add_argument("--size", type=int, default=256)
    asking.add_argument("--sources", type=int, default=8)
    asking.add_argument("--concurrency", type=int, default=32)
    asking.add_argument("--timeout", type=float, default=30)
    asking.add_argument("--kill-pid", type=int)
    counting = commands.add_parser("origin")
    counting.add_argument("--log", required=True)
    counting.add_argument("--tag", required=True)
    counting.add_argument("--count", type=int, required=True)
    args = parser.parse_args()
    if args.command == "ask":
        ask(args)
    else:
        origin(args)


if __name__ == "__main__":
    sys.exit(main())
