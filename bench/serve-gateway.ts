// Child process: the fake model gateway with a fixed delay (BENCH_GATEWAY_DELAY_MS).
import { serveUntilStopped } from './child-process.js';
import { FixedDelayGateway } from './fake-gateway.js';

const delayMs = Number(process.env.BENCH_GATEWAY_DELAY_MS ?? 50);
const gateway = await new FixedDelayGateway(delayMs).start();
serveUntilStopped(gateway.url, () => gateway.close());
