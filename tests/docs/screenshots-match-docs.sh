#!/usr/bin/env bash
# Runs the screenshot tool (offscreen, into a throwaway folder) and checks
# that every picture README.md and docs/user-guide.md show is one it makes
# and is committed, and that every picture it makes is committed: the docs
# cannot point at a screen the tool no longer shows.
# Usage: screenshots-match-docs.sh SCREENSHOT_TOOL SOURCE_DIR
set -euo pipefail
tool=$1
source=$2
scratch=$(mktemp -d /tmp/meterdesk-shots.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
XDG_CONFIG_HOME=$scratch/config "$tool" "$scratch/shots" 2>"$scratch/log" \
  || { cat "$scratch/log" >&2; echo "the screenshot tool failed" >&2; exit 1; }

status=0
made=$(ls "$scratch/shots")
[ -n "$made" ] || { echo "the screenshot tool made no picture" >&2; exit 1; }
for picture in $made; do
  [ -s "$scratch/shots/$picture" ] || { echo "$picture is empty" >&2; status=1; }
  [ -f "$source/docs/screenshots/$picture" ] \
    || { echo "$picture is made but not in docs/screenshots: run scripts/screenshots.sh" >&2; status=1; }
done
shown=$(grep -ho 'screenshots/[A-Za-z0-9_-]*\.png' "$source/README.md" "$source/docs/user-guide.md" | sort -u)
for reference in $shown; do
  picture=${reference#screenshots/}
  [ -f "$scratch/shots/$picture" ] || { echo "the docs show $picture, which the tool does not make" >&2; status=1; }
done
echo "$(echo "$made" | wc -w) pictures made, $(echo "$shown" | wc -w) shown in the docs"
exit $status
