#!/usr/bin/env bash
# Runs the published JS client's calls (autumn-client.test.mjs) and the
# standardwebhooks verifier on the server's deliveries (webhooks.test.mjs)
# against a meterdesk-server on a loopback port, loaded with the conformance
# workspace.
# Usage: run-against-server.sh SERVER_BINARY WORKSPACE CATALOGUE COMPAT_DIR
# COMPAT_DIR holds package.json, the lockfile and node_modules (npm ci).
set -euo pipefail
server=$1 workspace=$2 catalogue=$3 compat=$4
key=sk_test_delta000000000000000000000000000 # the workspace's test key

work=$(mktemp -d)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

"$server" workspace load "$workspace" --database "$work/compat.sqlite"
mkfifo "$work/out"
# Webhooks may go to webhooks.test.mjs's receiver, on a loopback port over http.
"$server" serve --database "$work/compat.sqlite" --listen 127.0.0.1:0 --catalogue "$catalogue" \
  --webhooks-allow-http --webhooks-allow-private >"$work/out" 2>"$work/err" &
pid=$!
# The one line the server prints when it is ready: "listening on URL".
exec 3<"$work/out"
if ! read -r -t 20 line <&3 || [[ $line != "listening on "* ]]; then
  echo "meterdesk-server did not start: ${line:-no line}; $(cat "$work/err")" >&2
  exit 1
fi
url=${line#listening on }

cd "$compat"
MD_SERVER_URL=$url MD_API_KEY=$key node --test --test-reporter=spec autumn-client.test.mjs \
  webhooks.test.mjs
