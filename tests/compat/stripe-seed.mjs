// Seeds stripe-stateful-mock through the official stripe client (both pinned
// in package.json): node stripe-seed.mjs BASE_URL KIND ID... where KIND is
// `accounts` (connected accounts the platform's key reaches). Prints what it made.
import Stripe from "stripe";

const [base, kind, ...ids] = process.argv.slice(2);
const url = new URL(base);
const stripe = new Stripe("sk_test_meterdesk_seed", {
  host: url.hostname,
  port: Number(url.port),
  protocol: url.protocol.replace(":", ""),
  maxNetworkRetries: 2,
});
if (kind !== "accounts") {
  console.error(`stripe-seed: unknown kind ${kind}`);
  process.exit(2);
}
for (const id of ids) {
  const account = await stripe.accounts.create({ type: "custom", id });
  console.log(account.id);
}
