#!/usr/bin/env bash
# Makes the self-signed certificate and key that the tests' loopback HTTPS server presents:
# Tests/Fixtures/tls/localhost.pem and localhost-key.pem. The certificate names 127.0.0.1 and localhost in its
# subjectAltName and is valid for 100 years, so the committed files need not be made again; run this only to
# replace them. A client that verifies certificates rejects it (it is signed by nobody it trusts); tests that
# want a successful TLS transfer pass the downloader's option to allow invalid certificates.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v openssl >/dev/null 2>&1 || Scripts/setup.sh openssl

out=Tests/Fixtures/tls
mkdir -p "$out"
# P-256 keeps the files small and the handshake quick.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -sha256 \
  -days 36500 \
  -subj "/CN=localhost/O=swift-web-image tests" \
  -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
  -addext "basicConstraints=critical,CA:FALSE" \
  -addext "keyUsage=critical,digitalSignature" \
  -addext "extendedKeyUsage=serverAuth" \
  -keyout "$out/localhost-key.pem" -out "$out/localhost.pem"
chmod 644 "$out/localhost-key.pem" "$out/localhost.pem"
openssl x509 -in "$out/localhost.pem" -noout -subject -ext subjectAltName -dates
