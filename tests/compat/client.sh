#!/usr/bin/env bash
# The TypeScript client generated from the OpenAPI file: openapi-typescript
# writes its types to generated/openapi.d.ts, tsc --noEmit --strict checks
# client.ts against them, tsc compiles it to client-build/, and node runs it.
# Usage: client.sh SPEC, in the directory holding node_modules, client.ts and
# tsconfig.json, with MD_SERVER_URL and MD_API_KEY set (run-against-server.sh).
set -euo pipefail
spec=$1
bin=node_modules/.bin
rm -rf generated client-build
"$bin/openapi-typescript" "$spec" --output generated/openapi.d.ts
"$bin/tsc" --noEmit --strict -p tsconfig.json
"$bin/tsc" -p tsconfig.json
node client-build/client.js
