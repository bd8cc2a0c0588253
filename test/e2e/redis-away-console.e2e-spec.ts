import { describe, expect, it, jest } from '@jest/globals';
import { startApi } from '../support/api.js';
import { eventually } from '../support/worker.js';

/**
 * An API started while Redis is away (tests do it on purpose with a closed port) keeps the console
 * clean: BullMQ's connection errors are logged as one warning per queue every 10 s, never printed
 * with their stack trace on every reconnect.
 */
describe('an API started while Redis is away', () => {
  it('prints no connection error to the console, and still logs it as a warning', async () => {
    const printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = await startApi({ REDIS_URL: 'redis://127.0.0.1:1' }, { captureLogs: true });
    try {
      const warning = await eventually(
        async () =>
          api.logs
            .text()
            .split('\n')
            .find((line) => line.includes('"msg":"queue connection error"')),
        15_000,
      );
      expect(JSON.parse(warning)).toMatchObject({ level: 40, err: expect.stringContaining('ECONNREFUSED') });
      expect(printed.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      await api.close();
      printed.mockRestore();
    }
  }, 30_000);
});
