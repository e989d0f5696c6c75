#!/usr/bin/env bash
# Builds FerretDB v1.24.2 (MongoDB wire protocol over SQLite) with the Go toolchain and installs it into the
# folder $1 (default ./data/bin). Used by the app's embedded database, by the tests and by .ci/run.
#
# Why not a plain `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2`: the module proxy here refuses
# the module's version list (go install reads it for deprecation notices and fails), and the module zip lacks
# build/version/version.txt, so a binary built straight from it panics at start. So: fetch the exact version
# into a throw-away module, copy its source, write version.txt, and build.
#
# Two fixes are made to FerretDB's source before the build; the build fails if a line to change is not exactly as
# expected, rather than build a binary without the fix.
# 1. Finding a document by `_id` uses the collection's unique index. FerretDB's SQLite backend creates that index
#    on the expression `_ferretdb_sjson->"_id"` but looks documents up with `_ferretdb_sjson->'$._id'`. The two give
#    the same value, yet SQLite uses an index only for a query that spells the same expression, so every lookup by
#    `_id` read the whole table: 10 to 18 ms at 1,000 documents, 350 to 470 ms at 40,000. Spelling the lookup
#    `->'_id'` makes it an index lookup (1 to 2 ms at any size; `npm run bench` measures it). Existing data files
#    keep working: only queries change, not what is stored or indexed.
# 2. An update command of 100 statements or more (a bulkWrite of that many updates) no longer hangs. FerretDB's
#    update handler kept each statement's query open until the whole command ended (a `defer` inside its loop),
#    and each open query holds one of the 100 connections of its SQLite pool: the statement that needed the 101st
#    waited for ever, and so did every later command on that database. Each statement's query is now closed
#    once that statement is done.
# FerretDB 1.x gets no further releases, so the fixes are carried here.
#
# A patched binary says so itself: `ferretdb --version` prints `package: knack-sqlite-fixes`. The app's embedded
# database (server/db/embedded.ts) checks that line and does not start a FerretDB without it, and this script
# rebuilds one found in the target folder without it.
#
# The build takes minutes on two cores, so it is done once per machine: the binary is kept in a cache outside
# the clone (KNACK_CACHE_DIR, default ~/.cache/knack), under a name made from the version, the patch and this
# script's own hash, so a change to how it is built makes a new one. A fresh clone on the same machine copies it.
set -euo pipefail
VERSION=v1.24.2
PATCH_ID=sqlite-fixes
# Each fix: the file, the line as FerretDB has it, and what it becomes (a line, or lines).
ID_INDEX_FILE=internal/backends/sqlite/metadata/metadata.go
ID_INDEX_LINE=$'\tIDColumn = DefaultColumn + "->\'$._id\'"'
ID_INDEX_FIXED=$'\tIDColumn = DefaultColumn + "->\'_id\'"'
UPDATE_FILE=internal/handler/msg_update.go
UPDATE_DEFER_LINE=$'\t\tdefer closer.Close()'
UPDATE_DEFER_FIXED=$'\t\t// Closed below, once this statement is done: a deferred close kept every statement\'s query open.'
UPDATE_CALL_LINE=$'\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)'
UPDATE_CALL_FIXED=$'\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n\t\tcloser.Close()'
SCRIPT_HASH=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-12)
BUILD_ID="$VERSION-knack-$PATCH_ID-$SCRIPT_HASH"
BIN_DIR=$(mkdir -p "${1:-data/bin}" && cd "${1:-data/bin}" && pwd)
CACHE_DIR="${KNACK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/knack}/ferretdb-$BUILD_ID"

# The version output is read whole before it is matched: with pipefail, `ferretdb --version | head -1` fails with
# SIGPIPE (exit 141) whenever head closes the pipe before ferretdb has written everything.
version_of() { local out; out=$("$1" --version 2>/dev/null) || true; printf '%s\n' "$out"; }
is_build() {
  local out
  [ -x "$1/ferretdb" ] && [ "$(cat "$1/ferretdb.build" 2>/dev/null)" = "$BUILD_ID" ] || return 1
  out=$(version_of "$1/ferretdb")
  [[ "$out" == *"version: $VERSION"* && "$out" == *"package: knack-$PATCH_ID"* ]]
}

# Replaces one line of a file of the copied source, or stops the build if that line is not there exactly once.
replace_line() {
  local file=$1 original=$2 fixed=$3 what=$4 tmp
  if [ "$(grep -cxF "$original" "$file")" != 1 ]; then
    echo "Cannot apply the $what fix: $file of FerretDB $VERSION has no single line '${original#"${original%%[![:space:]]*}"}'." >&2
    echo "Not building a FerretDB without it." >&2
    exit 1
  fi
  tmp="$file.new"
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "$line" = "$original" ]; then printf '%s\n' "$fixed"; else printf '%s\n' "$line"; fi
  done < "$file" > "$tmp"
  mv "$tmp" "$file"
}

# Makes both fixes in the copied source and marks the build.
apply_patch() {
  local src=$1
  replace_line "$src/$ID_INDEX_FILE" "$ID_INDEX_LINE" "$ID_INDEX_FIXED" "_id index"
  replace_line "$src/$UPDATE_FILE" "$UPDATE_DEFER_LINE" "$UPDATE_DEFER_FIXED" "update statement"
  replace_line "$src/$UPDATE_FILE" "$UPDATE_CALL_LINE" "$UPDATE_CALL_FIXED" "update statement"
  # Read by `ferretdb --version` (and nothing else with telemetry off): how a patched binary is told apart.
  echo "knack-$PATCH_ID" > "$src/build/version/package.txt"
}

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
  echo "FerretDB $VERSION (knack-$PATCH_ID) already at $BIN_DIR/ferretdb"
  exit 0
fi

if ! is_build "$CACHE_DIR"; then
  command -v go >/dev/null || { echo "Go is not installed: cannot build FerretDB" >&2; exit 1; }
  echo "Building FerretDB $VERSION with our fixes into $CACHE_DIR (once per machine)"
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
    apply_patch "$WORK/src"
    cd "$WORK/src"
    go build -trimpath -o "$WORK/ferretdb" ./cmd/ferretdb
  )
  install_from "$WORK" "$CACHE_DIR"
fi

install_from "$CACHE_DIR" "$BIN_DIR"
out=$(version_of "$BIN_DIR/ferretdb")
echo "${out%%$'\n'*} (from $CACHE_DIR)"
