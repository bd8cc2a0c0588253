import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { describeListenError } from './listen-error.js';

describe('describeListenError', () => {
  it('names the variable for a port in use, as Node reports it', async () => {
    const first = createServer();
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
    const port = (first.address() as { port: number }).port;
    const error = await new Promise<unknown>((resolve) => {
      const second = createServer();
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    first.close();
    expect(describeListenError(error, 'WORKER_HEALTH_PORT', port, '127.0.0.1')).toBe(
      `WORKER_HEALTH_PORT=${port} is already in use on 127.0.0.1: set WORKER_HEALTH_PORT to a free port (each process on one host needs its own)`,
    );
  });

  it('leaves other errors to the caller', () => {
    expect(describeListenError(new Error('boom'), 'PORT', 3000, '127.0.0.1')).toBeNull();
    expect(describeListenError(null, 'PORT', 3000, '127.0.0.1')).toBeNull();
  });
});
