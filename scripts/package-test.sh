#!/usr/bin/env bash
# Builds the Debian package and checks it as a user would meet it: unpacked
# into a throwaway folder (dpkg -x), its programs answer --version and --help,
# its man pages render, its desktop file and AppStream metadata validate,
# every package it depends on exists in Debian, and the console starts from
# it under Xvfb and stays up.
# Usage: package-test.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
scratch=$(mktemp -d /tmp/meterdesk-package.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/meterdesk_*_amd64.deb)
dpkg-deb -x "$deb" "$scratch/root"
root=$scratch/root
fail() { echo "package-test: $*" >&2; exit 1; }

version=$(dpkg-deb -f "$deb" Version)
"$root/usr/bin/meterdesk" --version | grep -q "$version" || fail "meterdesk --version does not say $version"
"$root/usr/bin/meterdesk-server" --version | grep -q "$version" || fail "meterdesk-server --version does not say $version"
"$root/usr/bin/meterdesk" --help >/dev/null || fail "meterdesk --help failed"
"$root/usr/bin/meterdesk-server" --help >/dev/null || fail "meterdesk-server --help failed"

# The man pages render without a groff warning and carry the exit codes.
for page in meterdesk meterdesk-server; do
  file="$root/usr/share/man/man1/$page.1.gz"
  [ -s "$file" ] || fail "no man page for $page"
  warnings=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$file" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "man $page: $warnings"
  MANWIDTH=80 man -E UTF-8 -l "$file" 2>/dev/null | grep -q "Exit status" || fail "man $page has no exit status"
done
[ -s "$root/usr/share/doc/meterdesk/user-guide.md" ] || fail "no user guide"

desktop-file-validate "$root/usr/share/applications/org.meterdesk.Meterdesk.desktop"
appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/org.meterdesk.Meterdesk.metainfo.xml" >/dev/null \
  || appstreamcli validate --no-net "$root/usr/share/metainfo/org.meterdesk.Meterdesk.metainfo.xml"
[ -s "$root/usr/share/icons/hicolor/256x256/apps/org.meterdesk.Meterdesk.png" ] || fail "no 256 px icon"

# Every dependency (first of each alternative) is a package Debian has.
dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/ //g' | while read -r package; do
  apt-cache show "$package" >/dev/null 2>&1 || fail "depends on $package, which Debian does not have"
done

# The console from the package, on a demo workspace, in a real X server: it
# must still be running after 8 s (timeout's 124), not have exited or crashed.
export HOME=$scratch/home XDG_CONFIG_HOME=$scratch/home/config XDG_DATA_HOME=$scratch/home/data
mkdir -p "$HOME"
set +e
QT_QPA_PLATFORM=xcb timeout 8 xvfb-run -a "$root/usr/bin/meterdesk" --demo \
  --database "$scratch/demo.db" >"$scratch/console.log" 2>&1
status=$?
set -e
[ "$status" -eq 124 ] || { cat "$scratch/console.log" >&2; fail "the console exited with $status"; }
echo "package-test: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) unpacks, validates and starts"
