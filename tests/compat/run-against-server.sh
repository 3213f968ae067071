#!/usr/bin/env bash
# Runs the published JS client's calls (autumn-client.test.mjs) and the
# standardwebhooks verifier on the server's deliveries (webhooks.test.mjs)
# against a meterdesk-server on a loopback port, loaded with the conformance
# workspace; or, given a COMMAND, runs that instead (the contract test, the
# generated TypeScript client).
# Usage: run-against-server.sh [--contract] SERVER_BINARY WORKSPACE CATALOGUE COMPAT_DIR [COMMAND ARG...]
# COMPAT_DIR holds package.json, the lockfile and node_modules (npm ci); the
# tests, and COMMAND, run there with MD_SERVER_URL and MD_API_KEY set.
# --contract adds what contract.test.mjs needs beyond the workspace: a
# Stripe for the link and the import (stripe-stateful-mock on a loopback
# port, seeded with the account acct_contract and the subscription
# sub_contract through the stripe client, and the
# organization's test key connected), a tenant delta-t1 to link it to, and a
# live key holding '*' (MD_LIVE_KEY).
set -euo pipefail
contract=false
if [[ ${1:-} == --contract ]]; then
  contract=true
  shift
fi
server=$1 workspace=$2 catalogue=$3 compat=$4
shift 4
key=sk_test_delta000000000000000000000000000 # the workspace's test key

work=$(mktemp -d)
pid=""
stripe_pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  if [ -n "$stripe_pid" ]; then # killed, so its status is not the test's
    kill "$stripe_pid" 2>/dev/null || true
    wait "$stripe_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

if $contract; then
  node -e '
    const fs = require("fs");
    const [from, to] = process.argv.slice(1);
    const workspace = JSON.parse(fs.readFileSync(from, "utf8"));
    const delta = workspace.organizations.find((o) => o.slug === "delta");
    delta.processor = { test_secret_connected: true };
    workspace.organizations.push({ id: "org_delta_t1", slug: "delta-t1", name: "Delta tenant",
                                   created_at: 1000, master_org: "delta" });
    fs.writeFileSync(to, JSON.stringify(workspace));' "$workspace" "$work/workspace.json"
  workspace=$work/workspace.json
fi
"$server" workspace load "$workspace" --database "$work/compat.sqlite"
stripe_args=()
if $contract; then
  MD_LIVE_KEY=$("$server" keys create --database "$work/compat.sqlite" --org delta --env live \
    --name contract)
  export MD_LIVE_KEY
  stripe_port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => {
    console.log(s.address().port); s.close(); });')
  mkfifo "$work/stripe"
  PORT=$stripe_port node "$compat/node_modules/stripe-stateful-mock/dist/cli.js" >"$work/stripe" 2>&1 &
  stripe_pid=$!
  exec 4<"$work/stripe"
  if ! read -r -t 30 said <&4 || [[ $said != *"Server started on port"* ]]; then
    echo "stripe-stateful-mock did not start: ${said:-no line}" >&2
    exit 1
  fi
  cat <&4 >"$work/stripe.log" & # its log, drained so that it never blocks on writing
  (cd "$compat" && node stripe-seed.mjs "http://127.0.0.1:$stripe_port" accounts acct_contract >/dev/null)
  # The subscription billing.import links: plan "metered", started now.
  cat >"$work/stripe-steps.json" <<'STEPS'
[{"create": "products", "params": {"id": "prod_contract", "name": "Metered"}},
 {"create": "plans", "params": {"id": "plan_contract", "product": "prod_contract", "amount": 900,
   "currency": "usd", "interval": "month", "metadata": {"meterdesk_plan_id": "metered"}}},
 {"create": "customers", "params": {"id": "cus_contract", "email": "billing@contract.example"}},
 {"create": "subscriptions", "params": {"id": "sub_contract", "customer": "cus_contract",
   "items": [{"plan": "plan_contract", "quantity": 1}]}}]
STEPS
  (cd "$compat" && node stripe-seed.mjs "http://127.0.0.1:$stripe_port" steps "$work/stripe-steps.json" >/dev/null)
  printf 'sk_test_meterdesk_contract_0001\n' >"$work/stripe-key"
  chmod 600 "$work/stripe-key"
  "$server" processors connect --database "$work/compat.sqlite" --org delta --env test \
    --secret-file "$work/stripe-key" >/dev/null
  stripe_args=(--stripe-api-base "http://127.0.0.1:$stripe_port")
fi
mkfifo "$work/out"
# Webhooks may go to the tests' receivers, on a loopback port over http.
"$server" serve --database "$work/compat.sqlite" --listen 127.0.0.1:0 --catalogue "$catalogue" \
  --webhooks-allow-http --webhooks-allow-private "${stripe_args[@]}" >"$work/out" 2>"$work/err" &
pid=$!
# The one line the server prints when it is ready: "listening on URL".
exec 3<"$work/out"
if ! read -r -t 20 line <&3 || [[ $line != "listening on "* ]]; then
  echo "meterdesk-server did not start: ${line:-no line}; $(cat "$work/err")" >&2
  exit 1
fi
url=${line#listening on }

cd "$compat"
export MD_SERVER_URL=$url MD_API_KEY=$key
if [[ $# -gt 0 ]]; then
  "$@"
else
  node --test --test-reporter=spec autumn-client.test.mjs webhooks.test.mjs
fi
