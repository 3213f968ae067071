// A TypeScript client generated from docs/openapi.yaml, as an integrator
// would make one: openapi-typescript writes the types (generated/openapi.d.ts,
// by client.sh), openapi-fetch calls the routes with them, and tsc --strict
// must accept every call and every field read below. Then, compiled, it
// runs against meterdesk-server (run-against-server.sh passes MD_SERVER_URL
// and MD_API_KEY) and checks the answers. No @types/node: only what the DOM
// library gives (fetch), so the client is the one a browser would use.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/openapi.js";

declare const process: { env: Record<string, string | undefined>; exitCode?: number };

const client = createClient<paths>({
  baseUrl: process.env.MD_SERVER_URL,
  headers: { Authorization: `Bearer ${process.env.MD_API_KEY}` },
});

type Customer = components["schemas"]["Customer"];
type BalanceSummary = components["schemas"]["BalanceSummary"];

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(what);
}

// The answer's data, or the failure with the server's error body.
function ok<T>(answer: { data?: T; error?: unknown; response: Response }, what: string): T {
  check(answer.data !== undefined, `${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}

async function main(): Promise<void> {
  const customers = ok(await client.POST("/v1/meterdesk/customers.list", { body: { search: "tea", limit: 10 } }), "customers.list");
  check(customers.list.length === 1 && customers.list[0].id === "teams", `customers.list: ${JSON.stringify(customers.list)}`);
  check(customers.has_more === false && customers.next_cursor === null, "customers.list: one page");

  const teams: Customer = ok(await client.POST("/v1/meterdesk/customers.get", { body: { customer_id: "teams" } }), "customers.get");
  const credits = teams.balances["credits"];
  check(credits !== undefined && credits.remaining === 70, `customers.get: credits ${JSON.stringify(credits)}`);
  check(credits.breakdown.every((row) => row.planId === null && row.reset === null), "customers.get: standalone rows");

  const missing = await client.POST("/v1/meterdesk/customers.get", { body: { customer_id: "nobody" } });
  check(missing.response.status === 404 && missing.error?.code === "customer_not_found", `customers.get nobody: ${JSON.stringify(missing.error)}`);

  const products = ok(await client.POST("/v1/meterdesk/products.list", {}), "products.list");
  const metered = products.list.find((product) => product.id === "metered");
  check(metered !== undefined && metered.items[0].interval === "month" && metered.items[0].price === 0.5, `products.list: ${JSON.stringify(metered)}`);

  const tracked = ok(
    await client.POST("/v1/balances.track_tokens", {
      params: { header: { "Idempotency-Key": "client-ts-1" } },
      body: { customer_id: "capped", model_id: "acme/basic", input_tokens: 1000, output_tokens: 500 },
    }),
    "balances.track_tokens",
  );
  const balance: BalanceSummary | null = tracked.balance;
  check(tracked.value === 0.0075 && balance !== null && balance.remaining === 99.9925, `track_tokens: ${JSON.stringify(tracked)}`);
  check(tracked.deductions[0].balance_id === "b_capped", "track_tokens: drawn on b_capped");

  const list = ok(
    await client.POST("/v1/balances.list", {
      params: { header: { "x-api-version": "2.4.0" } },
      body: { customer_id: "capped", statuses: ["active"] },
    }),
    "balances.list",
  );
  check(list.list.length === 1 && list.list[0].remaining === 99.9925 && list.list[0].status === "active", `balances.list: ${JSON.stringify(list)}`);

  // A write: a standalone balance made by hand, then seen in the ledger.
  const grant = ok(
    await client.POST("/v1/meterdesk/balances.create", {
      body: { customer_id: "empty", feature_id: "calls", amount: 3, reason: "client.ts: a standalone balance" },
    }),
    "balances.create",
  );
  check(grant.kind === "grant" && grant.amount === 3 && grant.source.route === "balances.create", `balances.create: ${JSON.stringify(grant)}`);
  const ledger = ok(await client.POST("/v1/meterdesk/ledger.list", { body: { customer_id: "empty" } }), "ledger.list");
  check(ledger.list.some((entry) => entry.id === grant.id), "ledger.list: the grant is listed");

  const portal = ok(
    await client.POST("/v1/customers/{customer_id}/billing_portal", { params: { path: { customer_id: "portal" } }, body: {} }),
    "billing_portal",
  );
  check(portal.customer_id === "portal" && portal.url.includes("/portal/"), `billing_portal: ${JSON.stringify(portal)}`);
  console.log("client.ts: customers.list, customers.get, products.list, balances.track_tokens, balances.list, balances.create, ledger.list and billing_portal answered as typed");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
