#!/usr/bin/env bash
# Runs every fuzz target (or those named) for SECONDS each on its seed corpus
# and saved findings, under ASan, UBSan and leak detection. Any crash, leak,
# timeout or sanitizer report fails the run; the input is kept in
# build-fuzz/findings/<target>/. Then tst_randomops (tests/trust) runs
# MD_RANDOM_OPS (200,000) random operations on SQLite and on PostgreSQL, in
# the normal build. Usage: run.sh SECONDS [TARGET...|randomops]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
build=build-fuzz
targets=()
randomops=false
for t in "$@"; do
  if [ "$t" = randomops ]; then randomops=true; else targets+=("$t"); fi
done
if [ $# -eq 0 ]; then
  randomops=true
  targets=(track_tokens list_balances balance_totals audit_log import_customer update_product update_reward
           link_organization billing_portal page_request workspace_loader http_request usage usage_batch)
fi

if [ ${#targets[@]} -gt 0 ]; then
  cmake --preset fuzz >/dev/null
  cmake --build --preset fuzz
fi
mkdir -p "$build"

# The committed dictionary and every wire word of the decoders.
dict=$build/wire.dict
{
  cat fuzz/json.dict
  grep -ohE '"[a-z0-9_:.-]+"_L1' services/api/*.cpp services/engine/*.cpp services/engine/*/*.cpp |
    sed -E 's/^"(.*)"_L1$/"\\"\1\\""/' | sort -u
} >"$dict"

export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer-14 || command -v llvm-symbolizer)

failed=0
rows=()
for t in "${targets[@]}"; do
  # What this run adds to the seeds. Not kept for the next run: replaying a
  # grown corpus would take most of a short run's time.
  work=$build/corpus/$t
  findings=$build/findings/$t
  log=$build/logs/$t.log
  rm -rf "$work"
  mkdir -p "$work" "$findings" "$(dirname "$log")"
  dirs=("$work" "fuzz/corpus/$t")
  [ -d "fuzz/regressions/$t" ] && dirs+=("fuzz/regressions/$t")
  echo "== $t: ${seconds}s (log: $log)"
  set +e
  "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -dict="$dict" -print_final_stats=1 -artifact_prefix="$findings/" "${dirs[@]}" >"$log" 2>&1
  status=$?
  set -e
  stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
  execs=$(stat number_of_executed_units)
  rate=$(stat average_exec_per_sec)
  cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
  result=ok
  if [ $status -ne 0 ] || grep -qE '^(==[0-9]+==ERROR|SUMMARY: |.*runtime error: )' "$log"; then
    failed=1
    result="FAILED: $(grep -Eom1 'ERROR: [A-Za-z]+: [a-z -]+|runtime error: .*|ALARM: .*|FATAL: .*' "$log" || echo "exit $status")"
    tail -n 40 "$log"
    ls -1 "$findings" | sed 's/^/  finding: /'
  fi
  rows+=("$(printf '%-18s %10s %8s %7s  %-20s %s' "$t" "${execs:-?}" "${rate:-?}" "${seconds}" "${cov:-?}" "$result")")
done

# The model-based random test, far longer than `make test` runs it (execs:
# its operations). A failure prints the seed and the sequence to replay.
if $randomops; then
  ops=${MD_RANDOM_OPS:-200000}
  cmake --preset default >/dev/null
  cmake --build --preset default --target tst_randomops
  for db in sqlite postgres; do
    log=$build/logs/randomops_$db.log
    mkdir -p "$(dirname "$log")"
    echo "== randomops on $db: $ops operations (log: $log)"
    start=$(date +%s)
    set +e
    MD_RANDOM_OPS=$ops MD_TEST_DATABASE=$db QT_QPA_PLATFORM=offscreen \
      bash scripts/with-postgres.sh build/tests/trust/tst_randomops >"$log" 2>&1
    status=$?
    set -e
    result=ok
    if [ $status -ne 0 ]; then
      failed=1
      result="FAILED: $(grep -m1 '^FAIL!' "$log" | sed 's/^FAIL! *: [^ ]* //' | cut -c1-100)"
      grep -m1 -A 150 '^sequence ' "$log" || tail -n 40 "$log"
    fi
    rows+=("$(printf '%-18s %10s %8s %7s  %-20s %s' "randomops_$db" "$ops" - "$(($(date +%s) - start))" - "$result")")
  done
fi

echo
printf '%-18s %10s %8s %7s  %-20s %s\n' target execs exec/s seconds coverage result
printf '%s\n' "${rows[@]}"
exit $failed
