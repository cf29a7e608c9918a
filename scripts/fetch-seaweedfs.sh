#!/usr/bin/env bash
# Build SeaweedFS's `weed` (the S3-compatible store of tests/support/s3.ts) with Go from
# its module at a pinned version, and put it in .tools/seaweedfs-$VERSION/weed.
#
# Measured on a 2-core machine shared with other work: ~10 min wall, ~7.5 min CPU, a
# 2.1 GB module download and a 230 MB binary (~160 MB stripped). So the binary is also
# kept in ${XDG_CACHE_HOME:-~/.cache}/lakegate/ (a fresh clone on the same machine, as CI
# is, copies it instead of building), and the module and build caches live in a temp
# dir removed afterwards (no 3 GB left behind). Needs Go >= 1.26.6 (SeaweedFS's go.mod);
# Go is not fetched (GOTOOLCHAIN=local).
# Idempotent and safe to run concurrently (flock); exits non-zero with a clear message.
set -euo pipefail
cd "$(dirname "$0")/.."
MODULE=github.com/seaweedfs/seaweedfs
VERSION=v0.0.0-20261109003541-7506e5f91cd6 # SeaweedFS 4.53
DEST=.tools/seaweedfs-$VERSION
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/lakegate/seaweedfs-$VERSION

die() {
  echo "fetch-seaweedfs: $*" >&2
  exit 1
}
ok() { [ -x "$1/weed" ] && [ -f "$1/.built" ]; }

ok "$DEST" && exit 0
mkdir -p .tools
if command -v flock >/dev/null; then
  exec 9>.tools/seaweedfs.lock
  flock -w 1800 9 || die "timed out waiting for another fetch-seaweedfs.sh (.tools/seaweedfs.lock)"
  ok "$DEST" && exit 0
fi
copy_from_cache() {
  rm -rf "$DEST.tmp" && mkdir -p "$DEST.tmp" && cp "$CACHE/weed" "$DEST.tmp/weed" && touch "$DEST.tmp/.built" &&
    rm -rf "$DEST" && mv "$DEST.tmp" "$DEST"
}
if ok "$CACHE" && "$CACHE/weed" version >/dev/null 2>&1; then
  copy_from_cache || die "could not copy $CACHE/weed into $DEST"
  exit 0
fi

command -v go >/dev/null || die "go not found: SeaweedFS is built from its Go module (Go >= 1.26.6 at /usr/local/go/bin or on PATH)"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod
work=$(mktemp -d "${TMPDIR:-/tmp}/lakegate-seaweedfs.XXXXXX")
cleanup() {
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export GOMODCACHE="$work/mod" GOCACHE="$work/cache" GOPATH="$work/gopath"
t0=$(date +%s)
dir=$(go mod download -json "$MODULE@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$dir" ] && [ -d "$dir/weed" ] || die "go mod download $MODULE@$VERSION failed"
cp -r "$dir" "$work/src"
chmod -R u+w "$work/src"
(cd "$work/src" && go build -trimpath -ldflags "-s -w" -o "$work/weed" ./weed) >&2 || die "go build of $MODULE/weed failed (go $(go env GOVERSION))"
"$work/weed" version >/dev/null 2>&1 || die "the built weed does not run"
mkdir -p "$CACHE"
cp "$work/weed" "$CACHE/weed.tmp" && mv "$CACHE/weed.tmp" "$CACHE/weed" && touch "$CACHE/.built"
copy_from_cache || die "could not copy the built weed into $DEST"
echo "fetch-seaweedfs: built $MODULE/weed $VERSION in $(($(date +%s) - t0)) s ($(du -h "$DEST/weed" | cut -f1)), in $DEST" >&2
