// Child process: the real API app (as in production, minus logging), on a free port of 127.0.0.1.
import 'reflect-metadata';
import { getHeapStatistics } from 'node:v8';
import { loadConfigOrExit } from '@app/config';
import { createApiApp } from '../../apps/api/src/app.factory.js';
import { serveUntilStopped } from './processes.js';

const config = loadConfigOrExit(process.env);
const app = await createApiApp(config);
await app.listen(0, '127.0.0.1');
const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
// `memory`: the V8 heap as the process itself sees it, for bench:memory (RSS is read from /proc).
serveUntilStopped(url, () => app.close(), {
  memory: () => ({ ...process.memoryUsage(), heapLimit: getHeapStatistics().heap_size_limit }),
});
