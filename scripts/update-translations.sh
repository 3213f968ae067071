#!/usr/bin/env bash
# Brings translations/*.ts up to date with the sources (new strings arrive as
# unfinished; tests/i18n fails until they are translated).
set -euo pipefail
cd "$(dirname "$0")/.."
for ts in translations/*.ts; do
  # English is the source language: its file holds only the plural forms.
  extra=()
  [[ $ts == *_en.ts ]] && extra=(-pluralonly)
  # lupdate records our nested namespaces without them; views/window/Translator.cpp allows for that.
  /usr/lib/qt6/bin/lupdate -silent -no-obsolete -locations none "${extra[@]}" views models app \
    -ts "$ts" 2>&1 | { grep -v "Qualifying with unknown namespace" || true; }
done
