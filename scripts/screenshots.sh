#!/usr/bin/env bash
# Regenerates the screenshots in docs/screenshots from the real console
# under a virtual X server. It makes:
# - each page (in a 1280x760 window) and the dialogs the docs show, light
#   and dark: balances-light.png, balances-dark.png, …;
# - the Balances page in windows of 1280x720 and 1920x1080, light and dark:
#   balances-light-1280x720.png, balances-dark-1920x1080.png, …;
# - in German, light: balances-light-de.png and price-call-light-de.png.
# The sizes and German are shown for those few only, so that the committed
# set stays small; tools/screenshots.cpp says which, and tests/docs checks
# that every picture it makes is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build --target meterdesk-screenshots >/dev/null
# Settings (recent connections) of its own, not the user's.
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
# The pictures' person (recent connections under /home/ana): who the Audit
# page names for the console's own writes.
export USER=ana
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
# A screen larger than the largest window (1920x1080) shot.
xvfb-run -a -s "-screen 0 2560x1440x24" build/tools/meterdesk-screenshots docs/screenshots
ls docs/screenshots
