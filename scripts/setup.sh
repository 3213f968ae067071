#!/usr/bin/env bash
# Installs the Debian packages Meterdesk needs to build, test and run.
# Installs only what is missing, so `make run` / `make test` stay fast on a ready machine.
set -euo pipefail

# Kept as one list so a fresh machine and CI get exactly the same set.
# libqt6opengl6-dev is named explicitly: Qt Charts needs it and
# --no-install-recommends would otherwise drop it. libboost-dev (Beast and
# Asio) and libssl-dev carry the HTTP server (docs/http-layer.md).
# rapidjson-dev reads and writes the wire's JSON with exact numbers;
# nlohmann-json3-dev and libsimdjson-dev are only for bench_json, the
# comparison that chose it (docs/json.md).
# libxlsxwriter-dev writes the Excel exports; unzip lets their test read
# the sheets back (docs/export.md). poppler-utils (pdfinfo, pdftotext) reads
# the PDF report back in its test; fonts-dejavu-core is the font it is drawn
# with wherever no desktop brought one.
# chromium renders the billing portal page in its test;
# openssl makes the certificate chain of the HTTPS test; desktop-file-utils
# and appstream validate what the Debian package installs.
# clang-14 with libclang-rt-14-dev builds the libFuzzer targets of `make fuzz`;
# llvm-14 brings the symbolizer that turns their sanitizer reports into lines.
# help2man writes the man pages from --help at build time; man-db renders
# them in the package test; mmdebstrap makes the clean bookworm system the
# install test installs the package on. lld links faster than GNU ld
# (docs/build-time.md). HAProxy fronts three servers in the cluster test
# (scripts/cluster-test.sh); prometheus brings promtool, which checks the
# metrics' exposition (docs/operations.md).
PACKAGES=(
  build-essential cmake ninja-build pkg-config clang-format lld
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev
  libboost-dev libssl-dev qt6-charts-dev
  rapidjson-dev nlohmann-json3-dev libsimdjson-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
  libqt6sql6-sqlite libqt6sql6-psql libqt6svg6 libsqlite3-dev
  libxlsxwriter-dev unzip poppler-utils fonts-dejavu-core
  qtkeychain-qt6-dev
  postgresql
  xvfb xauth
  chromium
  sqlite3
  openssl
  desktop-file-utils appstream
  help2man man-db mmdebstrap
  clang-14 libclang-rt-14-dev llvm-14
  haproxy prometheus
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# node and npm run the published JS client's compatibility test
# (tests/compat). Machines that ship their own Node.js keep it; others get
# Debian's.
command -v npm >/dev/null || missing+=(nodejs npm)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
