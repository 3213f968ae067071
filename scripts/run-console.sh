#!/usr/bin/env bash
# Starts the console; on a machine without a display it runs under Xvfb so
# `make run` still works (and says so).
set -euo pipefail
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run-console: no display found; starting under xvfb-run (screenshots: see docs/)" >&2
  exec xvfb-run -a -s "-screen 0 1400x900x24" "$@"
fi
exec "$@"
