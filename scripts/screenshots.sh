#!/usr/bin/env bash
# Regenerates the screenshots in docs/screenshots from the real console
# (light and dark palettes) under a virtual X server.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build --target meterdesk-screenshots >/dev/null
xvfb-run -a -s "-screen 0 1400x900x24" build/tools/meterdesk-screenshots docs/screenshots
ls docs/screenshots
