// Webhook deliveries checked with the published standardwebhooks verifier
// (npm, pinned in package.json): what any receiver built on it, or on
// Svix's libraries, does. run-against-server.sh starts the server with
// --webhooks-allow-http and --webhooks-allow-private, so it may post to
// this test's receiver on a loopback port.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Webhook } from "standardwebhooks";

const server = process.env.MD_SERVER_URL;
const key = process.env.MD_API_KEY;

async function call(route, body) {
  const answer = await fetch(`${server}/v1/meterdesk/${route}`, {
    method: "POST",
    signal: AbortSignal.timeout(20000), // a hang says where, rather than stall the run
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await answer.json();
  assert.equal(answer.status, 200, `${route}: ${JSON.stringify(json)}`);
  return json;
}

// A receiver that keeps each request and answers 204.
function receiver() {
  const received = [];
  let waiting = [];
  const listener = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(204).end();
      waiting = waiting.filter(([count, resolve]) => (received.length >= count ? resolve() : true));
    });
  });
  return {
    received,
    listen: () => new Promise((resolve) => listener.listen(0, "127.0.0.1", resolve)),
    url: () => `http://127.0.0.1:${listener.address().port}/hooks`,
    // The count-th request, or a failure after 20 s naming what came.
    until: (count) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`${received.length} of ${count} deliveries arrived in 20 s`)),
          20000,
        );
        waiting.push([count, () => (clearTimeout(timer), resolve())]);
      }),
    close: () => listener.close(),
  };
}

test("every delivery verifies with the endpoint's secret, and with both after a rotation", async () => {
  const hooks = receiver();
  await hooks.listen();
  try {
    const endpoint = await call("webhook_endpoints.create", {
      url: hooks.url(),
      events: ["webhook_endpoint.test"],
      description: "standardwebhooks compatibility",
    });
    assert.match(endpoint.secret, /^whsec_/);
    await call("webhook_endpoints.send_test", { id: endpoint.id });
    await hooks.until(1);
    const first = hooks.received[0];
    const event = new Webhook(endpoint.secret).verify(first.body, first.headers);
    assert.equal(event.type, "webhook_endpoint.test");
    assert.equal(event.data.endpoint_id, endpoint.id);
    assert.match(first.headers["webhook-id"], /^msg_/);

    // A body changed on the way is refused: the verifier does check.
    assert.throws(() => new Webhook(endpoint.secret).verify(first.body + " ", first.headers));

    const rotated = await call("webhook_endpoints.rotate_secret", { id: endpoint.id });
    assert.notEqual(rotated.secret, endpoint.secret);
    await call("webhook_endpoints.send_test", { id: endpoint.id });
    await hooks.until(2);
    const second = hooks.received[1];
    // Receivers that still hold the old secret and those with the new one both accept it.
    for (const secret of [endpoint.secret, rotated.secret])
      assert.equal(new Webhook(secret).verify(second.body, second.headers).type, "webhook_endpoint.test");
    assert.notEqual(second.headers["webhook-id"], first.headers["webhook-id"]);

    // Sent again: the same id, so a receiver can drop what it already has.
    const [delivery] = (await call("webhook_deliveries.list", { endpoint_id: endpoint.id, limit: 1 })).list;
    await call("webhook_deliveries.redeliver", { id: delivery.id });
    await hooks.until(3);
    assert.equal(hooks.received[2].headers["webhook-id"], second.headers["webhook-id"]);
    assert.equal(new Webhook(rotated.secret).verify(hooks.received[2].body, hooks.received[2].headers).type,
      "webhook_endpoint.test");
    await call("webhook_endpoints.delete", { id: endpoint.id });
  } finally {
    hooks.close();
  }
});
