#!/usr/bin/env bash
# Builds FerretDB v1.24.2 (MongoDB wire protocol over SQLite) with the Go toolchain and installs it into the
# folder $1 (default ./data/bin). Used by the app's embedded database, by the tests and by .ci/run.
#
# Why not a plain `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2`: the module proxy here refuses
# the module's version list (go install reads it for deprecation notices and fails), and the module zip lacks
# build/version/version.txt, so a binary built straight from it panics at start. So: fetch the exact version
# into a throw-away module, copy its source, write version.txt, and build.
#
# The build takes minutes on two cores, so it is done once per machine: the binary is kept in a cache outside
# the clone (KNACK_CACHE_DIR, default ~/.cache/knack), under a name made from the version and this script's
# own hash, so a change to how it is built makes a new one. A fresh clone on the same machine copies it.
set -euo pipefail
VERSION=v1.24.2
SCRIPT_HASH=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-12)
BUILD_ID="$VERSION-$SCRIPT_HASH"
BIN_DIR=$(mkdir -p "${1:-data/bin}" && cd "${1:-data/bin}" && pwd)
CACHE_DIR="${KNACK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/knack}/ferretdb-$BUILD_ID"

# The version output is read whole before it is matched: with pipefail, `ferretdb --version | head -1` fails with
# SIGPIPE (exit 141) whenever head closes the pipe before ferretdb has written everything.
version_of() { local out; out=$("$1" --version 2>/dev/null) || true; printf '%s\n' "$out"; }
is_build() { [ -x "$1/ferretdb" ] && [ "$(cat "$1/ferretdb.build" 2>/dev/null)" = "$BUILD_ID" ] && [[ "$(version_of "$1/ferretdb")" == *"version: $VERSION"* ]]; }

# Copies the binary and its build stamp from one folder to another; the rename makes it whole or absent, so a
# reader never starts a half-copied binary and two concurrent installs cannot corrupt each other.
install_from() {
  local from=$1 to=$2 tmp
  mkdir -p "$to"
  tmp=$(mktemp "$to/ferretdb.XXXXXX")
  cp "$from/ferretdb" "$tmp"
  chmod 755 "$tmp"
  mv -f "$tmp" "$to/ferretdb"
  echo "$BUILD_ID" > "$to/ferretdb.build"
}

if is_build "$BIN_DIR"; then
  echo "FerretDB $VERSION already at $BIN_DIR/ferretdb"
  exit 0
fi

if ! is_build "$CACHE_DIR"; then
  command -v go >/dev/null || { echo "Go is not installed: cannot build FerretDB" >&2; exit 1; }
  echo "Building FerretDB $VERSION into $CACHE_DIR (once per machine)"
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  (
    cd "$WORK"
    go mod init knack-ferretdb-build >/dev/null 2>&1
    go get "github.com/FerretDB/FerretDB/cmd/ferretdb@$VERSION" >/dev/null
    SRC=$(go list -m -f '{{.Dir}}' github.com/FerretDB/FerretDB)
    cp -r "$SRC" "$WORK/src"
    chmod -R u+w "$WORK/src"
    echo "$VERSION" > "$WORK/src/build/version/version.txt"
    cd "$WORK/src"
    go build -trimpath -o "$WORK/ferretdb" ./cmd/ferretdb
  )
  install_from "$WORK" "$CACHE_DIR"
fi

install_from "$CACHE_DIR" "$BIN_DIR"
out=$(version_of "$BIN_DIR/ferretdb")
echo "${out%%$'\n'*} (from $CACHE_DIR)"
