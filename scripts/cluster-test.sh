#!/usr/bin/env bash
# Three meterdesk-server processes on one PostgreSQL behind Debian's HAProxy,
# with /readyz as HAProxy's health check (issue 39; docs/operations.md,
# "Several servers behind HAProxy"). Sixteen clients send track_tokens with
# Idempotency-Keys through HAProxy and send a call again when its connection
# drops (tests/cluster/clients.mjs). Meanwhile one server is SIGKILLed and
# another SIGTERMed and started again. Then every balance must equal its
# grant less the exact sum of the calls answered 200 (replays included, which
# must not count; a call whose answer was lost is sent again and answered 409
# duplicate, counted once), the ledger must verify, and HAProxy must have stopped
# sending to the dead server once its checks failed.
#
# Usage: scripts/with-postgres.sh scripts/cluster-test.sh [meterdesk-server]
# (ctest runs it so: test cluster_haproxy). MD_CLUSTER_CALLS sets the calls
# per client (default 300). For the figures of docs/scaling.md,
# MD_CLUSTER_SERVERS=1|2|3 with MD_CLUSTER_FAULTS=0 runs the same load on
# that many servers with no fault and prints the rate.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
server=${1:-$here/build/app/meterdesk-server}
calls=${MD_CLUSTER_CALLS:-300}
clients=16
servers=${MD_CLUSTER_SERVERS:-3}
faults=${MD_CLUSTER_FAULTS:-1}
[ "$faults" = 0 ] || [ "$servers" = 3 ] || { echo "cluster-test: the faults need 3 servers" >&2; exit 2; }
: "${MD_TEST_POSTGRES_URL:?run under scripts/with-postgres.sh}"
command -v haproxy >/dev/null || { echo "cluster-test: haproxy missing (scripts/setup.sh installs it)" >&2; exit 1; }

work=$(mktemp -d /tmp/meterdesk-cluster.XXXXXX)
pids=()
dbname="cluster_$$_$RANDOM"
cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql -q "$MD_TEST_POSTGRES_URL" -c "DROP DATABASE IF EXISTS $dbname" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "cluster-test: FAIL: $*" >&2; for f in "$work"/*.err; do echo "--- $f" >&2; head -c 1500 "$f" >&2; done; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

psql -q "$MD_TEST_POSTGRES_URL" -c "CREATE DATABASE $dbname" >/dev/null
database="${MD_TEST_POSTGRES_URL%/*}/$dbname"
key=sk_test_cluster00000000000000000000000000
grant=1000000000

# The workspace: one organization, a key, sixteen customers with a billion credits each.
python3 - "$work/workspace.json" "$key" "$clients" "$grant" <<'PY'
import json, sys
path, key, clients, grant = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
customers = [{"id": f"c{i}", "created_at": 1, "balances": [{"id": f"b{i}", "feature_id": "credits",
              "included_grant": 0, "prepaid_grant": grant, "remaining": grant, "usage": 0,
              "created_at": 1}]} for i in range(clients)]
json.dump({"format": "meterdesk-workspace", "version": 1, "organizations": [{
    "id": "org_cluster", "slug": "cluster", "name": "Cluster", "created_at": 1,
    "api_keys": [{"env": "test", "secret": key, "scopes": ["*"], "created_at": 1}],
    "test": {"features": [{"id": "credits", "name": "credits", "type": "credit_system",
                           "created_at": 1, "credit_system": {"markups": []}}],
             "customers": customers}}]}, open(path, "w"))
PY
"$server" workspace load --database "$database" "$work/workspace.json" >/dev/null

# Each server picks a free port the first time (port 0) and keeps it when
# started again, as behind a real balancer.
ports=("" 0 0 0)
server_pid=("" "" "" "")
start_server() { # index
  local before
  before=$(grep -c "listening on" "$work/s$1.out" 2>/dev/null || true)
  "$server" serve --database "$database" --listen "127.0.0.1:${ports[$1]}" \
      --catalogue "$here/tests/conformance/data/pricing-catalogue.json" \
      >>"$work/s$1.out" 2>>"$work/s$1.err" &
  server_pid[$1]=$!
  pids+=("$!")
  for _ in $(seq 200); do
    if [ "$(grep -c "listening on" "$work/s$1.out" 2>/dev/null || true)" -gt "${before:-0}" ]; then
      ports[$1]=$(grep "listening on" "$work/s$1.out" | tail -n 1 | sed 's/.*://')
      return 0
    fi
    kill -0 "${server_pid[$1]}" 2>/dev/null || fail "server s$1 did not start"
    sleep 0.05
  done
  fail "server s$1 printed no listening line"
}
for i in $(seq "$servers"); do start_server "$i"; done

front=$(free_port)
stats=$(free_port)
inter_ms=500
fall=2
cat >"$work/haproxy.cfg" <<CFG
global
  maxconn 1024
defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
frontend api
  bind 127.0.0.1:$front
  default_backend meterdesk
frontend stats
  bind 127.0.0.1:$stats
  stats enable
  stats uri /stats
backend meterdesk
  balance roundrobin
  # A connection refused is tried on another server: nothing of the
  # request reached a server then, so this is safe even without a key.
  option redispatch
  retries 2
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter ${inter_ms}ms fall $fall rise 2
CFG
for i in $(seq "$servers"); do echo "  server s$i 127.0.0.1:${ports[$i]} check" >>"$work/haproxy.cfg"; done
haproxy -c -q -f "$work/haproxy.cfg" || fail "haproxy refuses its configuration"
haproxy -db -f "$work/haproxy.cfg" >"$work/haproxy.out" 2>"$work/haproxy.err" &
pids+=("$!")

# A server's column in HAProxy's CSV statistics: status (UP, DOWN, …) or stot (sessions).
stat_of() { # server column
  curl -s "http://127.0.0.1:$stats/stats;csv" | awk -F, -v s="$1" -v c="$2" '
    NR == 1 { for (i = 1; i <= NF; i++) { name = $i; sub(/^# /, "", name); col[name] = i } next }
    $1 == "meterdesk" && $2 == s { print $col[c] }'
}
wait_status() { # server status seconds
  local deadline=$(( $(date +%s%N) + $3 * 1000000000 ))
  while [ "$(stat_of "$1" status)" != "$2" ]; do
    [ "$(date +%s%N)" -lt "$deadline" ] || fail "HAProxy did not see $1 $2 within $3 s"
    sleep 0.05
  done
}
for i in $(seq "$servers"); do wait_status "s$i" UP 10; done

total=$(( clients * calls ))
node "$here/tests/cluster/clients.mjs" "http://127.0.0.1:$front" "$key" "$clients" "$calls" \
    "$work/progress" >"$work/clients.json" 2>"$work/clients.err" &
clients_pid=$!
pids+=("$clients_pid")
progress() { local n; n=$(cat "$work/progress" 2>/dev/null || true); echo "${n:-0}"; }
wait_progress() { # answered calls
  while [ "$(progress)" -lt "$1" ]; do
    kill -0 "$clients_pid" 2>/dev/null || break
    sleep 0.05
  done
}

if [ "$faults" != 0 ]; then
# A third of the way: s1 dies without a word.
wait_progress $(( total / 3 ))
kill -0 "$clients_pid" 2>/dev/null || fail "the clients finished before the faults; raise MD_CLUSTER_CALLS"
kill -KILL "${server_pid[1]}"
killed_at=$(date +%s%N)
wait_status s1 DOWN 10
down_ms=$(( ($(date +%s%N) - killed_at) / 1000000 ))
sessions_at_down=$(stat_of s1 stot)

# Two thirds: s2 is stopped as an operator would, and started again.
wait_progress $(( 2 * total / 3 ))
kill -0 "$clients_pid" 2>/dev/null || fail "the clients finished before the faults; raise MD_CLUSTER_CALLS"
kill -TERM "${server_pid[2]}"
for _ in $(seq 400); do kill -0 "${server_pid[2]}" 2>/dev/null || break; sleep 0.05; done
kill -0 "${server_pid[2]}" 2>/dev/null && fail "s2 did not exit within 20 s of SIGTERM"
if wait "${server_pid[2]}"; then term_status=0; else term_status=$?; fi
[ "$term_status" -eq 0 ] || fail "s2 exited $term_status after SIGTERM"
start_server 2
wait_status s2 UP 10

fi
wait "$clients_pid" || fail "the clients failed: $(cat "$work/clients.err")"
if [ "$faults" != 0 ]; then
  sessions_at_end=$(stat_of s1 stot)
  [ "$sessions_at_end" = "$sessions_at_down" ] ||
    fail "HAProxy sent s1 sessions after marking it DOWN ($sessions_at_down, then $sessions_at_end)"
fi

# Every balance is its grant less exactly what was answered 200.
python3 - "$work/clients.json" "http://127.0.0.1:${ports[$servers]}" "$key" "$grant" <<'PY' || fail "balances differ"
import json, sys, urllib.request
from decimal import Decimal
result = json.load(open(sys.argv[1]))
base, key, grant = sys.argv[2], sys.argv[3], Decimal(sys.argv[4])
bad = 0
for customer, credits in result["credits"].items():
    request = urllib.request.Request(base + "/v1/balances.list", method="POST",
        data=json.dumps({"customer_id": customer}).encode(),
        headers={"authorization": "Bearer " + key, "content-type": "application/json",
                 "x-api-version": "2.4.0"})
    row = json.loads(urllib.request.urlopen(request).read(), parse_float=Decimal)["list"][0]
    remaining = Decimal(str(row["remaining"]))
    if grant - remaining != credits:
        print(f"{customer}: answered {credits} credits, the balance lost {grant - remaining}")
        bad += 1
sys.exit(1 if bad else 0)
PY

for i in $(seq "$servers"); do [ "$i" = 1 ] && [ "$faults" != 0 ] && continue; kill -TERM "${server_pid[$i]}"; wait "${server_pid[$i]}" || fail "s$i did not stop cleanly"; done
"$server" workspace verify --database "$database" >"$work/verify.out" || fail "workspace verify: $(cat "$work/verify.out")"

summary=$(python3 - "$work/clients.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"{r['calls']} calls recorded ({r['calls_per_second']}/s through HAProxy), {r['retries']}"
      f" sent again, {r['recorded_before_drop']} of them answered 409 duplicate as their first"
      " attempt had counted")
PY
)
if [ "$faults" = 0 ]; then
  echo "cluster-test: $servers servers, no fault: $summary; every balance exact; ledger verified"
else
echo "cluster-test: $summary; s1 SIGKILLed, HAProxy saw it DOWN after $down_ms ms (checks every $inter_ms ms, $fall to fall) and sent it nothing more; s2 SIGTERMed (exit 0) and back UP; every balance exact; ledger verified"
fi
