#!/usr/bin/env bash
# Runs every benchmark on SQLite and on the PostgreSQL server that
# scripts/with-postgres.sh started (MD_TEST_POSTGRES_URL). Usage: run.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
scratch=$(mktemp -d /tmp/meterdesk-bench.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

echo "== JSON libraries on a 200-row balances.list page (docs/json.md)"
"$build/bench/bench_json"

echo
echo "== balances.list on SQLite"
"$build/bench/bench_balances" --database "$scratch/bench.db" "${@:2}"

echo
echo "== every per-call path at 2,000, 200,000 and 2,000,000 balances (the realistic demo)"
if [ -n "${MD_TEST_POSTGRES_URL:-}" ]; then
  "$build/bench/bench_sizes" --server "$build/app/meterdesk-server" --postgres "$MD_TEST_POSTGRES_URL"
else
  "$build/bench/bench_sizes" --server "$build/app/meterdesk-server"
fi

echo
echo "== the console on the realistic demo at about 2,000,000 balances, embedded and over HTTP"
"$build/bench/bench_console" --server "$build/app/meterdesk-server"

echo
echo "== the Excel export of a million rows (docs/export.md)"
"$build/bench/bench_export"

echo
echo "== balances.list over loopback HTTP"
"$build/bench/bench_http" --server "$build/app/meterdesk-server"

echo
echo "== the import wizard on 10,000 customers"
"$build/bench/bench_import" --server "$build/app/meterdesk-server"

echo
echo "== the import wizard's Stripe source on 5,000 customers in stripe-stateful-mock"
"$build/bench/bench_stripesource"

echo
echo "== what reading Stripe costs meterdesk-server, at 2,000 and 200,000 balances"
"$build/bench/bench_stripeserver" --server "$build/app/meterdesk-server"

echo
if [ -n "${MD_TEST_POSTGRES_URL:-}" ]; then
  echo "== balances.track_tokens on SQLite and PostgreSQL in one run (docs/performance.md)"
  psql -q "$MD_TEST_POSTGRES_URL" -c "CREATE DATABASE meterdesk_bench_track" >/dev/null
  "$build/bench/bench_track" --database "$scratch/track.db" \
    --database "${MD_TEST_POSTGRES_URL%/*}/meterdesk_bench_track" --server "$build/app/meterdesk-server"
else
  echo "== balances.track_tokens on SQLite (docs/performance.md)"
  "$build/bench/bench_track" --database "$scratch/track.db" --server "$build/app/meterdesk-server"
fi
echo
if [ -n "${MD_TEST_POSTGRES_URL:-}" ]; then
  echo "== usage of any feature: balances.check, balances.track and usage.batch (docs/performance.md)"
  psql -q "$MD_TEST_POSTGRES_URL" -c "CREATE DATABASE meterdesk_bench_usage" >/dev/null
  "$build/bench/bench_usage" --database "$scratch/usage.db" \
    --database "${MD_TEST_POSTGRES_URL%/*}/meterdesk_bench_usage" --server "$build/app/meterdesk-server"
else
  echo "== usage of any feature: balances.check, balances.track and usage.batch (docs/performance.md)"
  "$build/bench/bench_usage" --database "$scratch/usage.db" --server "$build/app/meterdesk-server"
fi
echo
echo "== the usage backfill: a million rows read, dry-run and committed (docs/performance.md)"
"$build/bench/bench_backfill"
echo
echo "== balances.track_tokens on SQLite with synchronous=FULL"
MD_SQLITE_SYNCHRONOUS=FULL "$build/bench/bench_track" --database "$scratch/track-full.db" \
  --server "$build/app/meterdesk-server" --calls 12000 --async-calls 20000

echo
if [ -n "${MD_TEST_POSTGRES_URL:-}" ]; then
  echo "== the billing clock: a million due balances swept under track_tokens load (docs/performance.md)"
  psql -q "$MD_TEST_POSTGRES_URL" -c "CREATE DATABASE meterdesk_bench_clock" >/dev/null
  "$build/bench/bench_clock" --database "$scratch/clock.db" \
    --database "${MD_TEST_POSTGRES_URL%/*}/meterdesk_bench_clock" --server "$build/app/meterdesk-server" \
    --customers 200000
else
  echo "== the billing clock: a million due balances swept under track_tokens load (docs/performance.md)"
  "$build/bench/bench_clock" --database "$scratch/clock.db" --server "$build/app/meterdesk-server" \
    --customers 200000
fi

echo
echo "== statements: a month closed by the sweep for 200,000 customers under track_tokens load; revenue.summary (docs/performance.md)"
"$build/bench/bench_statements" --database "$scratch/statements.db" --server "$build/app/meterdesk-server"

echo
if [ -n "${MD_TEST_POSTGRES_URL:-}" ]; then
  echo "== webhooks: track_tokens with 1 % of calls firing an alert told to an endpoint; the outbox drained (docs/performance.md)"
  psql -q "$MD_TEST_POSTGRES_URL" -c "CREATE DATABASE meterdesk_bench_webhooks" >/dev/null
  "$build/bench/bench_webhooks" --database "$scratch/webhooks.db" \
    --database "${MD_TEST_POSTGRES_URL%/*}/meterdesk_bench_webhooks" --server "$build/app/meterdesk-server"
else
  echo "== webhooks: track_tokens with 1 % of calls firing an alert told to an endpoint; the outbox drained (docs/performance.md)"
  "$build/bench/bench_webhooks" --database "$scratch/webhooks.db" --server "$build/app/meterdesk-server"
fi

echo
echo "== mixed load on SQLite for 60 s (list, track, import dry run)"
catalogue=tests/conformance/data/pricing-catalogue.json
"$build/bench/bench_load" --database "$scratch/load.db" --server "$build/app/meterdesk-server" \
  --catalogue "$catalogue"

if [ -n "${MD_TEST_POSTGRES_URL:-}" ]; then
  echo
  echo "== mixed load on PostgreSQL for 60 s"
  psql -q "$MD_TEST_POSTGRES_URL" -c "CREATE DATABASE meterdesk_bench_load" >/dev/null
  "$build/bench/bench_load" --database "${MD_TEST_POSTGRES_URL%/*}/meterdesk_bench_load" \
    --server "$build/app/meterdesk-server" --catalogue "$catalogue"

  echo
  echo "== balances.list on PostgreSQL"
  psql -q "$MD_TEST_POSTGRES_URL" -c "CREATE DATABASE meterdesk_bench" >/dev/null
  "$build/bench/bench_balances" --database "${MD_TEST_POSTGRES_URL%/*}/meterdesk_bench" "${@:2}"
fi
