// The cluster test's clients (scripts/cluster-test.sh): CLIENTS clients, one
// customer each, send CALLS balances.track_tokens each through the load
// balancer, every call with its own Idempotency-Key. A call whose
// connection drops, or that the balancer answers 502/503/504 (a server
// gone), is sent again with the same key until it is answered: 200, or 409
// duplicate_idempotency_key when the first attempt was recorded and only
// its answer was lost (docs/api.md, "Headers"). Every tenth call is sent
// once more on purpose and must be answered 409, counting nothing. Prints,
// as JSON, what each customer's calls were recorded for.
// Progress (calls answered so far) goes to PROGRESS_FILE for the script.
import http from 'node:http';
import { writeFileSync } from 'node:fs';

const [, , base, key, clients, calls, progressFile] = process.argv;
const retryable = new Set([0, 502, 503, 504]);
let answered = 0;
let retries = 0;

function post(agent, path, body, idempotencyKey) {
  return new Promise((resolve) => {
    const request = http.request(new URL(path, base), {
      method: 'POST',
      agent,
      timeout: 20000,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'idempotency-key': idempotencyKey,
      },
    }, (response) => {
      let text = '';
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, text }));
      response.on('error', (error) => resolve({ status: 0, text: error.message }));
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => resolve({ status: 0, text: error.message }));
    request.end(body);
  });
}

let recordedBeforeDrop = 0;
const duplicate = (answer) => answer.status === 409 && answer.text.includes('duplicate_idempotency_key');

// Sends until answered; `replay`: the key was recorded already, so 409 is the answer.
async function untilAnswered(agent, body, idempotencyKey, replay = false) {
  for (let attempt = 0; attempt < 200; ++attempt) {
    const answer = await post(agent, '/v1/balances.track_tokens', body, idempotencyKey);
    if (!replay && answer.status === 200) return answer;
    if (duplicate(answer) && (replay || attempt > 0)) {
      if (!replay) ++recordedBeforeDrop;
      return answer;
    }
    if (!retryable.has(answer.status))
      throw new Error(`${idempotencyKey}: ${answer.status} ${answer.text}`);
    ++retries;
    await new Promise((resolve) => setTimeout(resolve, 50)); // a client's back-off, not a test's wait
  }
  throw new Error(`${idempotencyKey}: no answer after 200 attempts`);
}

async function client(index) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const customer = `c${index}`;
  let credits = 0;
  for (let call = 0; call < Number(calls); ++call) {
    const cost = (call % 5) + 1;
    const body = JSON.stringify({
      customer_id: customer, model_id: 'flat/one', input_tokens: cost * 1000000,
      output_tokens: 0, overage_behavior: 'overflow',
    });
    const idempotencyKey = `cluster-${customer}-${call}`;
    await untilAnswered(agent, body, idempotencyKey);
    credits += cost;
    if (call % 10 === 0) await untilAnswered(agent, body, idempotencyKey, true); // no second charge
    ++answered;
  }
  agent.destroy();
  return [customer, credits];
}

const timer = setInterval(() => writeFileSync(progressFile, String(answered)), 100);
const started = Date.now();
const results = await Promise.all(Array.from({ length: Number(clients) }, (_, i) => client(i)));
clearInterval(timer);
writeFileSync(progressFile, String(answered));
const seconds = (Date.now() - started) / 1000;
console.log(JSON.stringify({
  credits: Object.fromEntries(results), calls: answered, retries, recorded_before_drop: recordedBeforeDrop, seconds,
  calls_per_second: Math.round(answered / seconds),
}));
