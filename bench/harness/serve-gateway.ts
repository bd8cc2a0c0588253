// Child process: test/support's fake model gateway, answering every call after a fixed delay
// (BENCH_GATEWAY_DELAY_MS): the stand-in for a model with a known, flat latency.
import { FakeGateway } from '../../test/support/fake-gateway.js';
import { serveUntilStopped } from './processes.js';

const gateway = await new FakeGateway().start();
gateway.set({ kind: 'answer', delayMs: Number(process.env.BENCH_GATEWAY_DELAY_MS ?? 50) });
// The fake keeps every request; under load only the last one matters (the judge benchmark replays
// it), so the list is emptied every second instead of growing for the whole run.
let last: unknown = null;
setInterval(() => {
  last = gateway.requests.at(-1) ?? last;
  gateway.requests.length = 0;
}, 1_000).unref();
serveUntilStopped(gateway.url, () => gateway.close(), {
  'last-request': () => JSON.stringify(gateway.requests.at(-1) ?? last),
});
