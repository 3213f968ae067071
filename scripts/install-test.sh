#!/usr/bin/env bash
# Installs the Debian package with apt on a clean Debian bookworm, as a user
# would, and checks that what it declares is all it needs: mmdebstrap makes
# a minimal system in a throwaway folder from Debian's mirror, apt installs
# the package and its dependencies there, and inside it both programs
# answer, the server makes a SQLite workspace, the PostgreSQL driver loads,
# and the console starts under Xvfb and stays up. A picture of it is left in
# BUILD_DIR/install-test/console.png (docs/packaged-console.png is one).
# Usage: install-test.sh BUILD_DIR   (after package-test.sh built the .deb)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
deb=$(ls "$build"/meterdesk_*_amd64.deb)
scratch=$(mktemp -d /tmp/meterdesk-install.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# Runs inside the new system, while mmdebstrap has /proc and /dev mounted.
cat >"$scratch/check.sh" <<'CHECK'
set -eu
fail() { echo "install-test: $*" >&2; exit 1; }
meterdesk --version >/dev/null
meterdesk-server --version >/dev/null
meterdesk-server workspace demo --database /tmp/demo.db >/dev/null
# No PostgreSQL here: the connection must fail, not the driver.
if meterdesk-server workspace dump --database postgresql://nobody@127.0.0.1:1/none \
     >/dev/null 2>/tmp/pg.err; then fail "reached a PostgreSQL that is not there"; fi
grep -qi "driver not loaded" /tmp/pg.err && fail "the PostgreSQL driver is missing: $(cat /tmp/pg.err)"
# Up 8 s after the start, then photographed: it must not have exited or crashed.
set +e
HOME=/root xvfb-run -a -s "-screen 0 1280x800x24" sh -c '
  meterdesk --demo --database /tmp/console.db >/tmp/console.log 2>&1 & console=$!
  sleep 8
  kill -0 $console || exit 3
  import -window root /tmp/console.png
  kill $console'
status=$?
set -e
[ "$status" -eq 0 ] || { cat /tmp/console.log >&2; fail "the console did not stay up ($status)"; }
CHECK

mkdir -p "$build/install-test"
mmdebstrap --quiet --variant=apt --include=xvfb,xauth,imagemagick \
  --customize-hook="copy-in $deb $scratch/check.sh /tmp" \
  --customize-hook="chroot \"\$1\" apt-get install -y -qq --no-install-recommends /tmp/$(basename "$deb") >/dev/null" \
  --customize-hook='chroot "$1" sh /tmp/check.sh' \
  --customize-hook="copy-out /tmp/console.png $build/install-test" \
  bookworm "$scratch/root" >"$scratch/log" 2>&1 \
  || { cat "$scratch/log" >&2; echo "install-test: failed" >&2; exit 1; }
echo "install-test: $(basename "$deb") installs with apt on a clean bookworm, and its programs run there"
