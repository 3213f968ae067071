#!/usr/bin/env bash
# The unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer
# (preset asan, build-asan/): builds only the programs `ctest -L unit` runs,
# then runs them beside a private PostgreSQL server. A sanitizer report, a leak
# included, fails the test that made it; no leak needs suppressing, not even in
# Qt. The preset builds Debug: with the sanitizers -O0 compiles about 2.5 times
# faster than -O2, and the tests are short.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-asan

cmake --preset asan >/dev/null
# A unit test is named after its program; the _postgres run shares it. The
# fixture some need (compat_npm_ci: npm ci of the Stripe mock) builds nothing.
targets=$(ctest --test-dir "$build" -N -L unit |
  sed -nE 's/^ *Test +#[0-9]+: ([A-Za-z0-9_]+)$/\1/p' | grep -vx compat_npm_ci |
  sed 's/_postgres$//' | sort -u)
# A full disk shows up as a linker crash deep in the build: say it plainly first.
free_gb=$(df -Pk "$build" | awk 'NR == 2 { print int($4 / 1048576) }')
if [ "$free_gb" -lt 8 ]; then
  echo "asan: warning: $build needs about 8 GB to build and $free_gb GB is free" >&2
fi
start=$SECONDS
cmake --build --preset asan --target $targets
echo "asan: built in $((SECONDS - start)) s"

export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Last, so make test still ends with ctest's summary.
bash scripts/with-postgres.sh ctest --test-dir "$build" -L unit --output-on-failure -j2
