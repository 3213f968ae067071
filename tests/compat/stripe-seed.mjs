// Seeds stripe-stateful-mock through the official stripe client (both pinned
// in package.json). Prints what it made, one id a line.
//   node stripe-seed.mjs BASE_URL accounts ID...   connected accounts the platform's key reaches
//   node stripe-seed.mjs BASE_URL steps FILE       a JSON array of steps, run in order:
//     {"create": "products"|"plans"|"customers"|"subscriptions", "params": {...}, "account"?: "acct_…"}
//     {"quantity": N, "subscription": "sub_…", "account"?: "acct_…"}  sets its first item's quantity
// Steps of one kind in a row run 16 at a time.
import { readFileSync } from "node:fs";
import Stripe from "stripe";

const [base, kind, ...rest] = process.argv.slice(2);
const url = new URL(base);
const stripe = new Stripe("sk_test_meterdesk_seed", {
  host: url.hostname,
  port: Number(url.port),
  protocol: url.protocol.replace(":", ""),
  maxNetworkRetries: 2,
});

async function run(step) {
  const options = step.account ? [{ stripeAccount: step.account }] : [];
  if (step.create) return (await stripe[step.create].create(step.params, ...options)).id;
  const subscription = await stripe.subscriptions.retrieve(step.subscription, ...options);
  const item = subscription.items.data[0];
  await stripe.subscriptionItems.update(item.id, { quantity: step.quantity }, ...options);
  return item.id;
}

if (kind === "accounts") {
  for (const id of rest) console.log((await stripe.accounts.create({ type: "custom", id })).id);
} else if (kind === "steps") {
  const steps = JSON.parse(readFileSync(rest[0], "utf8"));
  for (let i = 0; i < steps.length; ) {
    let j = i;
    while (j < steps.length && j - i < 16 && steps[j].create === steps[i].create) ++j;
    for (const id of await Promise.all(steps.slice(i, j).map(run))) console.log(id);
    i = j;
  }
} else {
  console.error(`stripe-seed: unknown kind ${kind}`);
  process.exit(2);
}
