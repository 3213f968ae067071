#!/usr/bin/env bash
# Configuring a fresh build directory a second time must change no command:
# a setting read before it is declared (an option() after its use) makes the
# first configure of every clean clone differ from the next, and the second
# `make` then rebuilds every target (issue 51).
# Usage: configure-twice.sh SOURCE_DIR
set -euo pipefail
source_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
configure() {
  cmake -S "$source_dir" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; exit 1; }
}
# Every command ninja would run (CMake also rewrites variables no command
# reads on the second pass, such as TARGET_PDB, so build.ninja itself differs).
commands() { ninja -C "$work/build" -t commands >"$1"; }
configure
commands "$work/first"
configure
commands "$work/second"
if ! cmp -s "$work/first" "$work/second"; then
  echo "a second configure changed $(diff "$work/first" "$work/second" | grep -c '^>') commands, e.g.:"
  { diff "$work/first" "$work/second" || true; } | head -4 | cut -c1-300 || true
  exit 1
fi
grep -q -- ' -Werror ' "$work/first" || { echo "the first configure compiles without -Werror"; exit 1; }
echo "configured twice: the same $(wc -l <"$work/first") commands, -Werror from the first"
