// The service's published JS client (npm autumn-js, pinned in package.json)
// called against a meterdesk-server: each call must pass the client's own
// response validation (zod schemas), which throws on any missing or mistyped
// field. run-against-server.sh starts the server on the conformance
// workspace and passes its URL and key in MD_SERVER_URL and MD_API_KEY.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Autumn } from "autumn-js";

const client = new Autumn({
  secretKey: process.env.MD_API_KEY,
  serverURL: process.env.MD_SERVER_URL,
});

// The client wraps a response its schema refuses in an error whose message
// names the field; show that message rather than a bare stack.
async function call(what, promise) {
  try {
    return await promise;
  } catch (error) {
    const issues = error.cause?.issues ? JSON.stringify(error.cause.issues) : "";
    assert.fail(`${what}: ${error.name}: ${error.message} ${issues}\n${JSON.stringify(error.rawValue ?? "")}`);
  }
}

test("trackTokens: the answer and its balance summary pass the client's schema", async () => {
  const answer = await call(
    "trackTokens",
    client.trackTokens({
      customerId: "alerting",
      featureId: "credits",
      modelId: "acme/basic",
      inputTokens: 1000,
      outputTokens: 500,
    }),
  );
  assert.equal(answer.customerId, "alerting");
  // acme/basic: $2.5 and $10 a million tokens.
  assert.equal(answer.value, 0.0075);
  assert.equal(answer.balance.featureId, "credits");
  assert.equal(answer.balance.usage, 0.0075);
  assert.equal(answer.balance.remaining, 99.9925);
  // No price on the row: no maximum, written as null (the client requires the key).
  assert.equal(answer.balance.maxPurchase, null);
});

test("trackTokens overflow: overage on a priced row, with its maximum", async () => {
  const answer = await call(
    "trackTokens overflow",
    client.trackTokens({
      customerId: "noover",
      featureId: "credits",
      modelId: "acme/gift",
      inputTokens: 1_000_000,
      outputTokens: 1_000_000,
      overageBehavior: "overflow",
    }),
  );
  assert.equal(answer.value, 2);
  assert.equal(answer.balance.remaining, -1);
  assert.equal(answer.balance.maxPurchase, 40);
});

test("trackTokens refusals are the client's typed API errors", async () => {
  await assert.rejects(
    client.trackTokens({ customerId: "nobody", modelId: "acme/basic", inputTokens: 1, outputTokens: 1 }),
    (error) => error.statusCode === 404 && JSON.parse(error.body).code === "customer_not_found",
  );
});

test("billing.import: the dry run passes the client's schema; the import all but its camelCase customer", async () => {
  const params = {
    customerId: "compat-imported",
    customerData: { name: "Compat Imported", email: "billing@compat.example" },
    billables: [
      {
        plan: {
          planId: "metered",
          startedAt: Date.UTC(2026, 0, 15),
          balances: [{ featureId: "credits", usage: 12.5 }],
        },
      },
    ],
  };
  const preview = await call("billing.import dry run", client.billing.import({ ...params, dryRun: true }));
  assert.equal(preview.customerId, "compat-imported");
  assert.equal(preview.flashed.length, 1);
  assert.equal(preview.flashed[0].planId, "metered");

  // docs/api.md, The customer object gives the import answer's customer object camelCase
  // keys, as the service sends them; autumn-js 1.3.13 reads that object with
  // its snake_case customer schema and so refuses it (docs/api.md,
  // "The published client"). Everything else in the answer must pass.
  const refusal = await client.billing.import(params).then(
    () => assert.fail("autumn-js 1.3.13 accepted a camelCase customer: revisit docs/api.md"),
    (error) => error,
  );
  assert.equal(refusal.name, "ResponseValidationError", refusal.message);
  for (const issue of refusal.cause.issues) assert.deepEqual(issue.path, ["customer"], JSON.stringify(issue));
  const imported = refusal.rawValue;
  assert.equal(imported.customer_id, "compat-imported");
  assert.equal(imported.flashed[0].status, "active");
  assert.equal(imported.customer.id, "compat-imported");
  assert.equal(imported.customer.email, "billing@compat.example");
  const credits = imported.customer.balances.credits;
  assert.equal(credits.usage, 12.5);
  assert.equal(credits.remaining, 87.5);
  assert.equal(credits.maxPurchase, null);
  // A monthly plan started on 15 January: the current period starts on a 15th.
  const subscription = imported.customer.subscriptions[0];
  assert.equal(new Date(subscription.currentPeriodStart).getUTCDate(), 15);
  assert.ok(subscription.currentPeriodEnd > subscription.currentPeriodStart);
});

test("rewards.update: a coupon and a feature grant pass the client's schema", async () => {
  const coupon = await call(
    "rewards.update coupon",
    client.rewards.update({ rewardId: "spring", coupon: { name: "Spring sale" } }),
  );
  assert.equal(coupon.coupon.name, "Spring sale");
  assert.deepEqual(coupon.coupon.duration, { type: "months", length: 2 });

  const grant = await call(
    "rewards.update feature grant",
    client.rewards.update({
      rewardId: "boost",
      featureGrant: { grants: [{ featureId: "credits", included: 250.125, expiry: { type: "month", length: 1 } }] },
    }),
  );
  assert.equal(grant.featureGrant.grants[0].included, 250.125);
  assert.deepEqual(grant.featureGrant.grants[0].expiry, { type: "month", length: 1 });
});
