// The contract test: every operation of docs/openapi.yaml is called against a
// running meterdesk-server with one valid request and one refused one. Each
// answer's status must be one the file names for that operation (a code such
// as '404' or a range such as '4XX'; `default` does not count), and its body
// must match the schema the file gives for that status and content type. A
// valid request's body must match the operation's request schema too.
//
// The schemas are read as a closed world: an object answered with a property
// its schema does not list fails, so the file cannot fall behind what the
// server sends. Types are strict (no coercion; an integer field takes whole
// numbers only). The routes come from the file, and an operation of the file
// without a case here fails the run, so a new route cannot be left out.
// Whether the server serves a route the file lacks is checked by
// tests/trust/tst_security.cpp against ApiRoutes::listing().
//
// run-against-server.sh --contract starts the server on the conformance
// workspace with a tenant to link and a live key; it passes MD_SERVER_URL,
// MD_API_KEY (a sandbox key holding '*') and MD_LIVE_KEY. MD_OPENAPI is the
// path of docs/openapi.yaml.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv2019 from "ajv/dist/2019.js";
import addFormats from "ajv-formats";

const server = process.env.MD_SERVER_URL;
const testKey = process.env.MD_API_KEY;
const liveKey = process.env.MD_LIVE_KEY;
const specPath = process.env.MD_OPENAPI;
for (const [name, value] of Object.entries({ MD_SERVER_URL: server, MD_API_KEY: testKey, MD_LIVE_KEY: liveKey, MD_OPENAPI: specPath }))
  if (!value) throw new Error(`${name} is not set; run this through run-against-server.sh --contract`);

const spec = await SwaggerParser.dereference(specPath);
const Methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

// OpenAPI 3.0 schema words that JSON Schema (draft 2019-09) does not have.
const Annotations = new Set(["example", "xml", "externalDocs", "discriminator", "deprecated"]);

// An OpenAPI 3.0 schema as JSON Schema for ajv: `nullable` becomes a null
// alternative, a boolean `exclusiveMinimum` a number, annotations go, and
// every object schema that lists properties is closed (unevaluatedProperties,
// which sees through allOf; a member of an allOf is closed by its parent).
function jsonSchema(schema, allOfMember = false) {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const out = {};
  for (const [word, value] of Object.entries(schema)) {
    if (Annotations.has(word) || word.startsWith("x-") || word === "nullable") continue;
    if (word === "properties")
      out.properties = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, jsonSchema(s)]));
    else if (word === "allOf") out.allOf = value.map((s) => jsonSchema(s, true));
    else if (word === "oneOf" || word === "anyOf") out[word] = value.map((s) => jsonSchema(s));
    else if (word === "items" || word === "additionalProperties" || word === "not") out[word] = jsonSchema(value);
    else out[word] = value;
  }
  for (const [bound, limit] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]]) {
    if (typeof schema[bound] !== "boolean") continue;
    delete out[bound];
    if (schema[bound]) {
      out[bound] = schema[limit];
      delete out[limit];
    }
  }
  if (!allOfMember && (out.properties || out.allOf) && out.additionalProperties === undefined) {
    out.type ??= "object";
    out.unevaluatedProperties = false;
  }
  return schema.nullable === true ? { anyOf: [{ type: "null" }, out] } : out;
}

const ajv = new Ajv2019({ strict: true, strictTypes: true, strictRequired: true, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
const validators = new Map();
function validate(where, schema, value) {
  if (!validators.has(where)) validators.set(where, ajv.compile(jsonSchema(schema)));
  const check = validators.get(where);
  if (!check(value))
    assert.fail(`${where}: ${ajv.errorsText(check.errors, { separator: "\n  " })}\n${JSON.stringify(value).slice(0, 2000)}`);
}

function operationOf(route) {
  const [method, path] = route.split(" ");
  const operation = spec.paths[path]?.[method];
  assert.ok(operation, `${route} is not in ${specPath}`);
  return operation;
}

// The status must be named by the operation; then the body must match.
function checkAnswer(route, answer) {
  const operation = operationOf(route);
  const named = operation.responses[String(answer.status)] ?? operation.responses[`${String(answer.status)[0]}XX`];
  assert.ok(named, `${route} answered ${answer.status}, which the file does not name for it: ${answer.text.slice(0, 500)}`);
  const type = (answer.contentType ?? "").split(";")[0].trim();
  if (!named.content) {
    assert.equal(answer.text, "", `${route} ${answer.status}: the file gives no body, the server sent one`);
    return;
  }
  const media = named.content[type];
  assert.ok(media, `${route} ${answer.status}: content type "${type}" is not one of ${Object.keys(named.content)}`);
  if (type === "application/json") {
    let body;
    try {
      body = JSON.parse(answer.text);
    } catch {
      assert.fail(`${route} ${answer.status}: not JSON: ${answer.text.slice(0, 500)}`);
    }
    validate(`${route} ${answer.status}`, media.schema, body);
    answer.body = body;
  } else {
    validate(`${route} ${answer.status} ${type}`, media.schema, answer.text);
  }
}

function checkRequest(route, request) {
  const schema = operationOf(route).requestBody?.content?.["application/json"]?.schema;
  if (schema && request.body !== undefined && typeof request.body === "object")
    validate(`${route} request`, schema, request.body);
}

// One HTTP exchange. A request: { key (default the sandbox key; null for
// none), params (path parameters), body (an object, or text sent as it is),
// headers, raw (bytes written as they are, for a request no client sends) }.
async function send(route, request) {
  if (request.raw) return sendRaw(request.raw);
  const [method, template] = route.split(" ");
  const path = template.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(request.params[name]));
  const headers = { ...request.headers };
  const key = request.key === undefined ? testKey : request.key;
  if (key) headers.authorization = `Bearer ${key}`;
  let body;
  if (method !== "get") {
    headers["content-type"] = "application/json";
    body = typeof request.body === "string" ? request.body : JSON.stringify(request.body ?? {});
  }
  const answer = await fetch(server + path, {
    method: method.toUpperCase(),
    headers,
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(20000), // a hang says where, rather than stall the run
  });
  return { status: answer.status, contentType: answer.headers.get("content-type"), text: await answer.text() };
}

function sendRaw(bytes) {
  const { hostname, port } = new URL(server);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(bytes));
    const chunks = [];
    socket.setTimeout(20000, () => socket.destroy(new Error("no answer in 20 s")));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const bytes = Buffer.concat(chunks);
      const split = bytes.indexOf("\r\n\r\n");
      const head = bytes.subarray(0, split).toString("latin1").split("\r\n");
      const field = (name) =>
        head.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
      const length = Number(field("content-length") ?? bytes.length);
      resolve({
        status: Number(head[0].split(" ")[1]),
        contentType: field("content-type"),
        text: bytes.subarray(split + 4, split + 4 + length).toString("utf8"),
      });
    });
  });
}

// What earlier cases made, for later ones (ids, secrets, links).
const made = {};
let receiver;
let receiverUrl;
let narrowKey; // holds keys:read only

before(async () => {
  // A receiver for the endpoint the webhook cases make: it takes every delivery.
  receiver = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(204).end());
  });
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;
  const answer = await send("post /v1/meterdesk/api_keys.create", { body: { name: "contract: keys:read only", scopes: ["keys:read"] } });
  assert.equal(answer.status, 200, answer.text);
  narrowKey = JSON.parse(answer.text).secret;
});

after(() => {
  receiver.closeAllConnections();
  return new Promise((resolve) => receiver.close(resolve));
});

const track = { customer_id: "capped", model_id: "acme/basic", input_tokens: 1000, output_tokens: 500 };
// Well-formed ids that name nothing.
const unknown = { endpoint: "we_0000000000000", delivery: "wd_0000000000000", key: "key_0000000000000" };
const ApiVersion = { "x-api-version": "2.4.0" };

// Every operation, in the order the cases run: a case may use what an
// earlier one made. `expect` is the status each request must get.
const cases = [
  {
    route: "get /healthz",
    valid: () => ({ key: null }),
    refused: () => ({ raw: "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n", expect: 400 }), // no Host
  },
  {
    route: "get /readyz",
    valid: () => ({ key: null }),
    refused: () => ({ raw: "GET /readyz HTTP/1.1\r\nConnection: close\r\n\r\n", expect: 400 }),
  },
  {
    route: "post /v1/meterdesk/whoami",
    valid: () => ({}),
    refused: () => ({ key: null, expect: 401 }),
    then: (body) => assert.equal(body.organization.slug, "delta"),
  },
  {
    route: "post /v1/meterdesk/about",
    valid: () => ({}),
    refused: () => ({ key: "sk_test_nobody00000000000000000000000000", expect: 401 }),
  },
  {
    route: "post /v1/balances.list",
    valid: () => ({ headers: ApiVersion, body: { customer_id: "teams", statuses: ["active", "expired"], limit: 10 } }),
    refused: () => ({ body: { customer_id: "teams" }, expect: 400 }), // no x-api-version
    then: (body) => assert.deepEqual(body.list.map((row) => row.id).sort(), ["b_teams", "b_teams_e1"]),
  },
  {
    route: "post /v1/meterdesk/balances.pages",
    valid: () => ({ body: { feature_id: "credits", page_size: 3 } }),
    refused: () => ({ body: { limit: 5 }, expect: 400 }),
  },
  {
    route: "post /v1/meterdesk/balances.totals",
    valid: () => ({ body: { group_by: "customer", statuses: ["active"] } }),
    refused: () => ({ body: { customer_id: "nobody" }, expect: 404 }),
  },
  {
    route: "post /v1/meterdesk/customers.list",
    valid: () => ({ body: { search: "cap", limit: 5 } }),
    refused: () => ({ body: { limit: 0 }, expect: 400 }),
    then: (body) => assert.deepEqual(body.list.map((c) => c.id), ["capped"]),
  },
  {
    route: "post /v1/meterdesk/customers.get",
    valid: () => ({ body: { customer_id: "teams" } }),
    refused: () => ({ body: { customer_id: "nobody" }, expect: 404 }),
    then: (body) => assert.equal(body.balances.credits.remaining, 70),
  },
  {
    route: "post /v1/meterdesk/features.list",
    valid: () => ({}),
    refused: () => ({ key: narrowKey, expect: 403 }),
  },
  {
    route: "post /v1/meterdesk/products.list",
    valid: () => ({}),
    refused: () => ({ key: narrowKey, expect: 403 }),
  },
  {
    route: "post /v1/meterdesk/rewards.list",
    valid: () => ({}),
    refused: () => ({ key: narrowKey, expect: 403 }),
  },
  {
    route: "post /v1/meterdesk/organizations.list",
    valid: () => ({}),
    refused: () => ({ key: null, expect: 401 }),
  },
  {
    route: "post /v1/meterdesk/models.list",
    valid: () => ({}),
    refused: () => ({ key: narrowKey, expect: 403 }),
  },
  {
    route: "post /v1/meterdesk/track_tokens.price",
    valid: () => ({ body: { ...track, reasoning_tokens: 10 } }),
    refused: () => ({ body: { ...track, model_id: "acme/none" }, expect: 400 }),
    then: (body) => assert.equal(body.feature_id, "credits"),
  },
  {
    route: "post /v1/balances.track_tokens",
    valid: () => ({ headers: { "Idempotency-Key": "contract-track-1" }, body: track }),
    refused: () => ({ headers: { "Idempotency-Key": "contract-track-1" }, body: track, expect: 409 }),
    then: (body) => assert.equal(body.value, 0.0075),
  },
  {
    route: "post /v1/meterdesk/balances.track",
    valid: () => ({ body: { customer_id: "exact", feature_id: "calls", value: 2, properties: { source: "contract" } } }),
    refused: () => ({ body: { customer_id: "exact", feature_id: "nothing" }, expect: 404 }),
  },
  {
    route: "post /v1/meterdesk/balances.check",
    valid: () => ({ body: { customer_id: "teams", feature_id: "credits", entity_id: "e1", required_balance: 5 } }),
    refused: () => ({ body: { customer_id: "nobody", feature_id: "credits" }, expect: 404 }),
    then: (body) => assert.equal(body.allowed, true),
  },
  {
    route: "post /v1/meterdesk/usage.batch",
    valid: () => ({
      body: {
        dry_run: true,
        events: [
          { kind: "feature", customer_id: "exact", feature_id: "calls", value: 1 },
          { kind: "tokens", ...track, idempotency_key: "contract-batch-1" },
          { kind: "tokens", ...track, customer_id: "nobody" },
        ],
      },
    }),
    refused: () => ({ body: { events: [] }, expect: 400 }),
    then: (body) => assert.deepEqual(body.results.map((r) => r.status), [200, 200, 404]),
  },
  {
    route: "post /v1/meterdesk/usage_events.list",
    valid: () => ({ body: { customer_id: "capped", limit: 10 } }),
    refused: () => ({ body: { from: "yesterday" }, expect: 400 }),
  },
  {
    route: "post /v1/meterdesk/charges.preview",
    valid: () => ({ body: { customer_id: "teams" } }),
    refused: () => ({ body: { customer_id: "nobody" }, expect: 404 }),
    then: (body) => assert.ok(body.period_start < body.period_end),
  },
  {
    route: "post /v1/meterdesk/usage_events.totals",
    valid: () => ({ body: { group_by: "model", top: 2 } }),
    refused: () => ({ body: { feature_id: "nothing" }, expect: 404 }),
    then: (body) => assert.equal(body.total.events, body.groups.reduce((n, g) => n + g.events, body.other ? body.other.events : 0)),
  },
  {
    route: "post /v1/meterdesk/customers.update_billing_controls",
    valid: () => ({
      body: {
        customer_id: "alerting",
        billing_controls: {
          usageAlerts: [{ featureId: "credits", threshold: 1, thresholdType: "usage", name: "first credit" }],
          usageLimits: [{ featureId: "credits", limit: 50, interval: "day" }],
          spendLimits: [{ overageLimit: 5 }],
          overageAllowed: [{ featureId: "credits", enabled: true }],
        },
      },
    }),
    refused: () => ({
      body: { customer_id: "alerting", billing_controls: { usageLimits: [{ featureId: "nothing", limit: 1, interval: "day" }] } },
      expect: 404,
    }),
  },
  {
    route: "post /v1/meterdesk/customers.billing_controls",
    valid: () => ({ body: { customer_id: "alerting" } }),
    refused: () => ({ body: { customer_id: "nobody" }, expect: 404 }),
    then: (body) => assert.equal(body.billing_controls.usageLimits[0].limit, 50),
  },
  {
    // The alert set above fires on this call's usage.
    route: "post /v1/meterdesk/usage_alerts.list",
    valid: async () => {
      const used = await send("post /v1/meterdesk/balances.track", { body: { customer_id: "alerting", feature_id: "credits", value: 2 } });
      assert.equal(used.status, 200, used.text);
      return { body: { limit: 10 } };
    },
    refused: () => ({ body: { limit: 201 }, expect: 400 }),
    then: (body) => assert.equal(body.list[0].name, "first credit"),
  },
  {
    route: "post /v1/meterdesk/ledger.list",
    valid: () => ({ body: { customer_id: "capped", feature_id: "credits" } }),
    refused: () => ({ body: { customer_id: "nobody" }, expect: 404 }),
  },
  {
    route: "post /v1/meterdesk/balances.adjust",
    valid: () => ({ body: { balance_id: "b_capped", amount: -1.5, reason: "contract: a correction" } }),
    refused: () => ({ body: { balance_id: "b_nobody", amount: 1, reason: "contract" }, expect: 404 }),
    then: (body) => assert.equal(body.kind, "adjustment"),
  },
  {
    route: "post /v1/meterdesk/balances.create",
    valid: () => ({ body: { customer_id: "empty", feature_id: "calls", amount: 3, reason: "contract: a standalone balance" } }),
    refused: () => ({ body: { customer_id: "empty", feature_id: "calls", amount: 0, reason: "contract" }, expect: 400 }),
    then: (body) => assert.equal(body.kind, "grant"),
  },
  {
    route: "post /v1/meterdesk/clock.get",
    valid: () => ({}),
    refused: () => ({ key: null, expect: 401 }),
    then: (body) => (made.now = body.now),
  },
  {
    route: "post /v1/meterdesk/clock.advance",
    valid: () => ({ body: { to: made.now + 40 * 24 * 3600 * 1000, dry_run: true } }),
    refused: () => ({ key: liveKey, body: { to: made.now + 1000 }, expect: 403 }), // sandbox_only
  },
  {
    route: "post /v1/billing.import",
    valid: () => ({
      body: {
        customer_id: "contract-imported",
        customer_data: { name: "Contract Imported", email: "billing@contract.example" },
        processors: [{ type: "stripe", id: "cus_contract" }],
        billables: [
          {
            link: { subscription_id: "sub_contract" },
            plan: { plan_id: "metered", status: "active", started_at: Date.UTC(2026, 0, 15), balances: [{ feature_id: "credits", usage: 12.5 }] },
          },
        ],
      },
    }),
    refused: () => ({ body: { customer_id: "contract-imported", billables: [{ plan: { plan_id: "nothing" } }] }, expect: 404 }),
    then: (body) => {
      assert.equal(body.customer.balances.credits.remaining, 87.5);
      // Stripe started the subscription now, not on January 15: Stripe is imported.
      assert.equal(body.flashed[0].mismatch, true);
      assert.deepEqual(body.flashed[0].differences.map((d) => d.field), ["billables[0].plan.started_at"]);
    },
  },
  {
    route: "post /v1/rewards.update",
    valid: () => ({ body: { reward_id: "spring", coupon: { name: "Spring (contract)", promo_codes: [{ code: "SPRING", global_max_redemption: 20, first_time_transaction: true }] } } }),
    refused: () => ({ body: { reward_id: "nothing", coupon: { name: "Nothing" } }, expect: 404 }),
  },
  {
    route: "post /v1/products/{product_id}",
    valid: () => ({
      params: { product_id: "weekly" },
      body: {
        name: "Weekly (contract)",
        group: "extras",
        items: [{ feature_id: "credits", included_usage: 10, interval: "week", interval_count: 2, rollover: { max: null, length: 1, duration: "month" } }],
        free_trial: { duration: "day", length: 7, unique_fingerprint: true },
      },
    }),
    refused: () => ({ params: { product_id: "nothing" }, body: { name: "Nothing" }, expect: 404 }),
  },
  {
    route: "post /v1/customers/{customer_id}/billing_portal",
    valid: () => ({ params: { customer_id: "portal" }, body: { return_url: "https://app.example.com/account" } }),
    refused: () => ({ params: { customer_id: "nobody" }, expect: 404 }),
    then: (body) => (made.portal = new URL(body.url).pathname.split("/").pop()),
  },
  {
    route: "get /portal/{token}",
    valid: () => ({ key: null, params: { token: made.portal } }),
    refused: () => ({ key: null, params: { token: `${made.portal.slice(0, -2)}xx` }, expect: 403 }),
  },
  {
    route: "post /v1/platform/organizations/stripe",
    valid: () => ({ body: { organization_slug: "delta-t1", test_account_id: "acct_contract" } }),
    refused: () => ({ body: { organization_slug: "delta-t1", live_account_id: "acct_contract" }, expect: 403 }), // live_key_required
  },
  {
    route: "post /v1/meterdesk/environments.diff",
    valid: () => ({ key: liveKey }),
    refused: () => ({ expect: 403 }), // a sandbox key: live_key_required
    // spare has no items: production has none of the sandbox's features.
    then: (body) => (made.spare = body.products.find((entry) => entry.id === "spare")),
  },
  {
    route: "post /v1/meterdesk/environments.promote",
    valid: () => ({ key: liveKey, body: { products: [{ id: "spare", production: null, to: made.spare.sandbox }], rewards: [] } }),
    // Production has it now: the diff read before is stale.
    refused: () => ({ key: liveKey, body: { products: [{ id: "spare", production: null, to: made.spare.sandbox }] }, expect: 409 }),
  },
  {
    route: "post /v1/meterdesk/audit_log.list",
    valid: () => ({ body: { resource_type: "product", limit: 5 } }),
    refused: () => ({ body: { resource_id: "spare" }, expect: 400 }), // only with resource_type
  },
  {
    route: "post /v1/meterdesk/track_queue.failed",
    valid: () => ({ body: { limit: 5 } }),
    refused: () => ({ body: { limit: 0 }, expect: 400 }),
  },
  {
    route: "post /v1/meterdesk/track_queue.retry",
    valid: () => ({ body: { ids: ["tq_0000000000000"] } }),
    refused: () => ({ body: { ids: [] }, expect: 400 }),
    then: (body) => assert.deepEqual(body.not_found, ["tq_0000000000000"]),
  },
  {
    route: "post /v1/meterdesk/track_queue.discard",
    valid: () => ({ body: { ids: ["tq_0000000000000"] } }),
    refused: () => ({ body: { ids: "tq_0000000000000" }, expect: 400 }),
  },
  {
    route: "post /v1/meterdesk/webhook_endpoints.create",
    valid: () => ({ body: { url: receiverUrl, events: ["*"], description: "contract" } }),
    refused: () => ({ body: { url: "ftp://hooks.example.com/", events: ["*"] }, expect: 400 }),
    then: (body) => (made.endpoint = body.id),
  },
  {
    route: "post /v1/meterdesk/webhook_endpoints.list",
    valid: () => ({}),
    refused: () => ({ key: narrowKey, expect: 403 }),
  },
  {
    route: "post /v1/meterdesk/webhook_endpoints.update",
    valid: () => ({ body: { id: made.endpoint, description: null, events: ["webhook_endpoint.test", "balances.reset"] } }),
    refused: () => ({ body: { id: unknown.endpoint, enabled: false }, expect: 404 }),
  },
  {
    route: "post /v1/meterdesk/webhook_endpoints.rotate_secret",
    valid: () => ({ body: { id: made.endpoint } }),
    refused: () => ({ body: { id: unknown.endpoint }, expect: 404 }),
  },
  {
    route: "post /v1/meterdesk/webhook_endpoints.send_test",
    valid: () => ({ body: { id: made.endpoint } }),
    refused: () => ({ body: { id: unknown.endpoint }, expect: 404 }),
    then: (body) => (made.delivery = body.id),
  },
  {
    route: "post /v1/meterdesk/webhook_deliveries.list",
    valid: () => ({ body: { endpoint_id: made.endpoint, limit: 10 } }),
    refused: () => ({ body: { status: "lost" }, expect: 400 }),
  },
  {
    route: "post /v1/meterdesk/webhook_deliveries.redeliver",
    valid: () => ({ body: { id: made.delivery } }),
    refused: () => ({ body: { id: unknown.delivery }, expect: 404 }),
  },
  {
    route: "post /v1/meterdesk/webhook_endpoints.delete",
    valid: () => ({ body: { id: made.endpoint } }),
    refused: () => ({ body: { id: made.endpoint }, expect: 404 }), // gone now
  },
  {
    route: "post /v1/meterdesk/api_keys.create",
    valid: () => ({ body: { name: "contract", scopes: ["balances:read", "webhooks:read"], expires_at: Date.now() + 86400000 } }),
    refused: () => ({ body: { name: "", scopes: ["balances:read"] }, expect: 400 }),
    then: (body) => (made.key = body.id),
  },
  {
    route: "post /v1/meterdesk/api_keys.list",
    valid: () => ({}),
    refused: () => ({ key: null, expect: 401 }),
  },
  {
    route: "post /v1/meterdesk/api_keys.roll",
    valid: () => ({ body: { id: made.key, overlap_ms: 60000 } }),
    refused: () => ({ body: { id: unknown.key }, expect: 404 }),
  },
  {
    route: "post /v1/meterdesk/api_keys.revoke",
    valid: () => ({ body: { id: made.key } }),
    refused: () => ({ body: { id: unknown.key }, expect: 404 }),
  },
  // Last: the sandbox's clock moves 40 days on, so every customer's first
  // period closes into a statement.
  {
    route: "post /v1/meterdesk/statements.list",
    valid: async () => {
      const moved = await send("post /v1/meterdesk/clock.advance", { body: { to: made.now + 40 * 24 * 3600 * 1000 } });
      assert.equal(moved.status, 200, moved.text.slice(0, 1000));
      return { body: { limit: 5 } };
    },
    refused: () => ({ body: { customer_id: "nobody" }, expect: 404 }),
    then: (body) => {
      assert.ok(body.list.length > 0);
      made.statement = body.list[0].id;
    },
  },
  {
    route: "post /v1/meterdesk/statements.get",
    valid: () => ({ body: { id: made.statement } }),
    refused: () => ({ body: { id: "stmt_0000000000000" }, expect: 404 }),
    then: (body) => assert.equal(body.id, made.statement),
  },
  {
    route: "post /v1/meterdesk/revenue.summary",
    valid: () => ({ body: { from: made.now - 60 * 24 * 3600 * 1000, to: made.now + 60 * 24 * 3600 * 1000, group_by: "product", include_open: true, open_max_age_ms: 60000 } }),
    refused: () => ({ body: { from: 0, to: 1, group_by: "year" }, expect: 400 }),
    then: (body) => {
      assert.equal(Math.round(body.total * 100), body.groups.reduce((cents, g) => cents + Math.round(g.total * 100), 0));
      assert.equal(typeof body.open_as_of, "number");
    },
  },
  {
    route: "post /v1/meterdesk/processors.subscriptions",
    valid: () => ({ body: { limit: 10 } }),
    refused: () => ({ body: { limit: 101 }, expect: 400 }),
    then: (body) => {
      assert.deepEqual(body.data.map((s) => s.id), ["sub_contract"]);
      assert.equal(body.data[0].items[0].meterdesk_plan_id, "metered");
      assert.deepEqual(body.products, [{ id: "prod_contract", name: "Metered" }]);
    },
  },
  {
    route: "post /v1/meterdesk/processors.keys",
    valid: () => ({ body: {} }),
    refused: () => ({ key: "sk_test_nobody00000000000000000000000000", body: {}, expect: 401 }),
    then: (body) => assert.deepEqual(body.list.map((k) => k.hint), ["sk_test_…0001"]),
  },
  {
    route: "post /v1/meterdesk/processors.connect",
    // The same key again: Stripe (the mock) accepts it, only its hint comes back.
    valid: () => ({ body: { secret: "sk_test_meterdesk_contract_0001" } }),
    refused: () => ({ body: { secret: "sk_live_meterdesk_contract_0001" }, expect: 400 }),
    then: (body) => {
      assert.equal(body.hint, "sk_test_…0001");
      assert.ok(!JSON.stringify(body).includes("meterdesk_contract"));
    },
  },
  {
    route: "post /v1/meterdesk/processors.verify",
    valid: () => ({ body: { customer_ids: ["contract-imported"] } }),
    refused: () => ({ body: { customer_ids: "contract-imported" }, expect: 400 }),
    // The import above linked sub_contract, as the mock still has it; only
    // the period may differ: the cases above moved the sandbox clock on.
    then: (body) => {
      assert.equal(body.checked, 1);
      assert.deepEqual(body.differences.filter((d) => !d.field.startsWith("current_period_")), []);
    },
  },
  {
    route: "post /v1/meterdesk/processors.disconnect",
    valid: () => ({ body: {} }),
    refused: () => ({ body: {}, expect: 404 }), // none left to forget
    then: (body) => assert.deepEqual(body.list, []),
  },
];

const documented = Object.entries(spec.paths).flatMap(([path, item]) =>
  Methods.filter((method) => item[method]).map((method) => `${method} ${path}`),
);

test("every operation of the file has a case here, and every case an operation of the file", () => {
  const here = cases.map((c) => c.route);
  assert.deepEqual(documented.filter((route) => !here.includes(route)), [], "operations without a case");
  assert.deepEqual(here.filter((route) => !documented.includes(route)), [], "cases of no operation");
  assert.equal(new Set(here).size, here.length, "a route with two cases");
});

for (const c of cases) {
  test(`${c.route}: a valid request`, async () => {
    const request = await c.valid();
    checkRequest(c.route, request);
    const answer = await send(c.route, request);
    assert.equal(answer.status, request.expect ?? 200, answer.text.slice(0, 1000));
    checkAnswer(c.route, answer);
    if (c.then) await c.then(answer.body);
  });
  test(`${c.route}: a refused request`, async () => {
    const request = await c.refused();
    const answer = await send(c.route, request);
    assert.equal(answer.status, request.expect, answer.text.slice(0, 1000));
    checkAnswer(c.route, answer);
  });
}
