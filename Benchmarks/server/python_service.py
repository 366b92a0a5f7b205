"""A thumbnail service as a Python developer would write it, the peer of Examples/ThumbnailServer in
Benchmarks/server/run.sh: GET /thumb?url=U&w=W&h=H fetches U with requests, makes a thumbnail with Pillow (JPEG
draft mode, so a large JPEG is decoded reduced), encodes it as JPEG at quality 85, keeps it on disk under the MD5
of the query, and serves the bytes, from a dict in memory once they have been read. GET / answers a status.

    python_service.py --port P --cache-dir DIR [--allow-host HOST ...]

ThreadingHTTPServer, one thread per connection, HTTP/1.1 keep-alive.
"""

import argparse
import hashlib
import io
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import requests
from PIL import Image

lock = threading.Lock()
memory = {}
local = threading.local()


def session():
    if not hasattr(local, "session"):
        local.session = requests.Session()
    return local.session


def make_thumbnail(data, width, height):
    image = Image.open(io.BytesIO(data))
    image.draft("RGB", (width, height))
    image = image.convert("RGB")
    image.thumbnail((width, height))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = urlsplit(self.path)
        if parts.path == "/":
            return self.send(200, b"python thumbnail service: ok\n", "text/plain")
        if parts.path != "/thumb":
            return self.send(404, b"not found\n", "text/plain")
        query = parse_qs(parts.query)
        try:
            url = query["url"][0]
            width, height = int(query["w"][0]), int(query["h"][0])
        except (KeyError, ValueError):
            return self.send(400, b"bad query\n", "text/plain")
        if urlsplit(url).hostname not in self.server.allowed:
            return self.send(400, b"host not allowed\n", "text/plain")
        key = hashlib.md5(parts.query.encode()).hexdigest()
        with lock:
            body = memory.get(key)
        if body is None:
            path = os.path.join(self.server.cache_dir, key + ".jpg")
            try:
                with open(path, "rb") as file:
                    body = file.read()
            except FileNotFoundError:
                try:
                    response = session().get(url, timeout=15)
                except requests.RequestException:
                    return self.send(502, b"origin failed\n", "text/plain")
                if response.status_code != 200:
                    return self.send(404 if response.status_code == 404 else 502, b"origin status\n", "text/plain")
                try:
                    body = make_thumbnail(response.content, width, height)
                except Exception:
                    return self.send(415, b"not an image\n", "text/plain")
                temporary = path + ".%d.tmp" % threading.get_ident()
                with open(temporary, "wb") as file:
                    file.write(body)
                os.replace(temporary, path)
            with lock:
                memory[key] = body
        self.send(200, body, "image/jpeg")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cache-dir", required=True)
    parser.add_argument("--allow-host", action="append", default=[])
    arguments = parser.parse_args()
    os.makedirs(arguments.cache_dir, exist_ok=True)
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    server.cache_dir = arguments.cache_dir
    server.allowed = set(arguments.allow_host)
    server.serve_forever()


if __name__ == "__main__":
    main()
