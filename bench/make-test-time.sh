#!/usr/bin/env bash
# How long a clean clone's `make test` takes, part by part (docs/build-time.md):
# clones this repository at REV into a scratch folder and runs each step of
# `make test` there in turn, timed, with the packages already installed; then
# reads both build trees' .ninja_log: compile and link time summed over all
# steps (CPU seconds, two at a time), and the slowest units.
# Usage: bench/make-test-time.sh [REV]    (takes as long as a CI run)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-HEAD}
scratch=$(mktemp -d /tmp/meterdesk-clone.XXXXXX)
# Both build trees take about 14 GB; a clone left behind filled the disk
# under a later CI run.
trap 'rm -rf "$scratch"' EXIT
git clone -q "$src" "$scratch/tree"
cd "$scratch/tree"
git checkout -q "$rev"

total=$SECONDS
times=()
step() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  times+=("$(printf '%-16s %5d s' "$name" $((SECONDS - start)))")
}
step configure make configure
step build cmake --build --preset default
step ctest bash scripts/with-postgres.sh ctest --test-dir build -j2
step package-test bash scripts/package-test.sh build
step install-test bash scripts/install-test.sh build
step asan bash scripts/asan-test.sh

echo "make test in a clean clone of $(git rev-parse --short HEAD):"
printf '  %s\n' "${times[@]}"
printf '  %-16s %5d s\n' total $((SECONDS - total))
for tree in build build-asan; do
  echo "$tree/.ninja_log, CPU seconds:"
  awk 'NR > 1 { t = ($2 - $1) / 1000; kind = $4 ~ /\.o$/ ? "compile" : ($4 ~ /\.(gch|pch)$/ ? "pch" : "link+other")
               sum[kind] += t; n[kind]++; print t, $4 > "/dev/stderr" }
       END { for (k in sum) printf "  %-10s %6.0f s in %d steps\n", k, sum[k], n[k] }' \
    "$tree/.ninja_log" 2>"$scratch/$tree.steps"
  echo "  slowest:"
  sort -rn "$scratch/$tree.steps" | awk 'NR <= 8 { printf "    %5.1f s  %s\n", $1, $2 }'
done
