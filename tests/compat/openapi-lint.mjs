// docs/openapi.yaml lints clean: Redocly CLI's recommended rules find no
// error (warnings are shown, not counted), and swagger-parser validates it
// against the OpenAPI 3.0 schema with every $ref resolved. Both are pinned
// in package.json. Exit status 1 on any error.
// Usage: node openapi-lint.mjs SPEC, in the directory holding node_modules.
import { spawnSync } from "node:child_process";
import SwaggerParser from "@apidevtools/swagger-parser";

const spec = process.argv[2];
if (!spec) {
  console.error("usage: node openapi-lint.mjs SPEC");
  process.exit(2);
}

// No telemetry and no look for a newer version: the run needs no network.
const lint = spawnSync(
  "node_modules/.bin/redocly",
  ["lint", "--extends=recommended", "--format=stylish", "--max-problems=1000", spec],
  {
    stdio: "inherit",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_NOTIFICATIONS: "true" },
  },
);
let failed = lint.status !== 0;
if (failed) console.error(`redocly lint: exit status ${lint.status ?? lint.signal}`);

try {
  const api = await SwaggerParser.validate(spec);
  console.log(`swagger-parser: ${spec} is valid OpenAPI ${api.openapi}, ${Object.keys(api.paths).length} paths`);
} catch (error) {
  console.error(`swagger-parser: ${error.message}`);
  failed = true;
}
process.exit(failed ? 1 : 0);
