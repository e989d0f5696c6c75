#!/usr/bin/env bash
# Builds FerretDB v1.24.2 (MongoDB wire protocol over SQLite) with the Go toolchain into the folder $1
# (default ./data/bin). Used by the app's embedded database, by the tests and by .ci/run.
#
# Why not a plain `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2`: the module proxy here refuses
# the module's version list (go install reads it for deprecation notices and fails), and the module zip lacks
# build/version/version.txt, so a binary built straight from it panics at start. So: fetch the exact version
# into a throw-away module, copy its source, write version.txt, and build.
set -euo pipefail
VERSION=v1.24.2
BIN_DIR=$(mkdir -p "${1:-data/bin}" && cd "${1:-data/bin}" && pwd)
# The version output is read whole before it is matched: with pipefail, `ferretdb --version | head -1` fails with
# SIGPIPE (exit 141) whenever head closes the pipe before ferretdb has written everything.
installed_version() { local out; out=$("$BIN_DIR/ferretdb" --version 2>/dev/null) || true; printf '%s\n' "$out"; }
if [ -x "$BIN_DIR/ferretdb" ] && [[ "$(installed_version)" == *"version: $VERSION"* ]]; then
  echo "FerretDB $VERSION already at $BIN_DIR/ferretdb"
  exit 0
fi
command -v go >/dev/null || { echo "Go is not installed: cannot build FerretDB" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
go mod init knack-ferretdb-build >/dev/null 2>&1
go get "github.com/FerretDB/FerretDB/cmd/ferretdb@$VERSION" >/dev/null
SRC=$(go list -m -f '{{.Dir}}' github.com/FerretDB/FerretDB)
cp -r "$SRC" "$WORK/src"
chmod -R u+w "$WORK/src"
echo "$VERSION" > "$WORK/src/build/version/version.txt"
cd "$WORK/src"
go build -trimpath -o "$BIN_DIR/ferretdb.tmp" ./cmd/ferretdb
mv "$BIN_DIR/ferretdb.tmp" "$BIN_DIR/ferretdb"
out=$(installed_version)
echo "${out%%$'\n'*}"
