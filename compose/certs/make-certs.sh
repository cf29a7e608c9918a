#!/bin/sh
# The stack's TLS material (runs once, in an alpine container, into the `certs` volume):
# a CA, and a server certificate it signs for lakegate (names `lakegate` on the compose
# network, `localhost` and 127.0.0.1 from the host). Clients verify against ca.crt:
#   docker compose cp lakegate:/etc/lakegate/tls/ca.crt .
#   psql "host=localhost port=5432 dbname=lakehouse user=alice sslmode=verify-full sslrootcert=ca.crt"
# Idempotent: an existing certificate is kept, so clients that trust the CA keep working
# across restarts; delete the volume (docker compose down -v) to issue new ones.
set -eu
OUT=${CERTS_DIR:-/certs}
# The CA's key lives apart (its own volume): lakegate mounts OUT and must never hold it.
CA=${CA_DIR:-/ca}
# lakegate's image runs as `node` (uid 1000): its key must be readable by that user only.
OWNER=${CERTS_OWNER:-1000:1000}
DAYS=${CERTS_DAYS:-825}

if [ -s "$OUT/lakegate.crt" ] && [ -s "$OUT/lakegate.key" ] && [ -s "$OUT/ca.crt" ]; then
  echo "certs: kept the existing certificates in $OUT"
  exit 0
fi
command -v openssl >/dev/null || apk add --no-cache openssl >/dev/null

mkdir -p "$OUT" "$CA"
umask 077
tmp=$(mktemp -d)
openssl req -x509 -newkey rsa:3072 -sha256 -nodes -days "$DAYS" \
  -keyout "$tmp/ca.key" -out "$tmp/ca.crt" -subj "/CN=lakegate compose CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
openssl req -newkey rsa:3072 -sha256 -nodes -keyout "$tmp/lakegate.key" -out "$tmp/lakegate.csr" -subj "/CN=lakegate"
printf '%s\n' "subjectAltName=DNS:lakegate,DNS:localhost,IP:127.0.0.1" \
  "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature,keyEncipherment" \
  "extendedKeyUsage=serverAuth" >"$tmp/lakegate.ext"
openssl x509 -req -sha256 -days "$DAYS" -in "$tmp/lakegate.csr" -CA "$tmp/ca.crt" -CAkey "$tmp/ca.key" \
  -CAcreateserial -extfile "$tmp/lakegate.ext" -out "$tmp/lakegate.crt"

mv "$tmp/ca.key" "$CA/ca.key"
mv "$tmp/ca.crt" "$tmp/lakegate.crt" "$tmp/lakegate.key" "$OUT/"
chmod 600 "$CA/ca.key" "$OUT/lakegate.key"
chmod 644 "$OUT/ca.crt" "$OUT/lakegate.crt"
chown "$OWNER" "$OUT/lakegate.key" "$OUT/lakegate.crt"
rm -rf "$tmp"
echo "certs: issued $OUT/lakegate.crt (CA $OUT/ca.crt)"
