#!/usr/bin/env bash
# Regenerates the screenshots in docs/screenshots from the real console
# (light and dark palettes) under a virtual X server.
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
xvfb-run -a -s "-screen 0 1400x900x24" build/tools/meterdesk-screenshots docs/screenshots
ls docs/screenshots
