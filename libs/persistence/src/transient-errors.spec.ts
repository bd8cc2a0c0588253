import { describe, expect, it } from '@jest/globals';
import { QueryFailedError } from 'typeorm';
import { isTransientError, retryTransient } from './transient-errors.js';

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('isTransientError', () => {
  it.each([
    [
      'a terminated backend (57P01)',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['a connection exception class (08006)', withCode('connection failure', '08006')],
    ['too many connections (53300)', withCode('sorry, too many clients already', '53300')],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    ['pg: connection cut', new Error('Connection terminated unexpectedly')],
    ['pg-pool: no connection in time', new Error('timeout exceeded when trying to connect')],
    ['ioredis: closed', new Error('Connection is closed.')],
    [
      'TypeORM wrapping a terminated backend',
      new QueryFailedError('SELECT 1', [], withCode('terminating connection', '57P01')),
    ],
  ])('is true for %s', (_name, error) => {
    expect(isTransientError(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value', '23505')],
    ['a syntax error', withCode('syntax error at or near', '42601')],
    [
      'TypeORM wrapping a constraint failure',
      new QueryFailedError('INSERT', [], withCode('violates', '23503')),
    ],
    ['a plain error', new Error('boom')],
    ['a string', 'Connection terminated unexpectedly'],
    ['null', null],
  ])('is false for %s', (_name, error) => {
    expect(isTransientError(error)).toBe(false);
  });
});

describe('retryTransient', () => {
  it('runs again while the error is transient, and returns the first success', async () => {
    let runs = 0;
    const result = await retryTransient(
      async () => {
        runs++;
        if (runs < 3) throw new Error('Connection terminated unexpectedly');
        return 'recorded';
      },
      6,
      1,
    );
    expect(result).toBe('recorded');
    expect(runs).toBe(3);
  });

  it('gives up after the last attempt with the last error, and never retries other errors', async () => {
    let runs = 0;
    const failing = () =>
      retryTransient(
        async () => {
          runs++;
          throw withCode('connect ECONNREFUSED', 'ECONNREFUSED');
        },
        4,
        1,
      );
    await expect(failing()).rejects.toThrow('ECONNREFUSED');
    expect(runs).toBe(4);

    runs = 0;
    await expect(
      retryTransient(async () => {
        runs++;
        throw withCode('duplicate key value', '23505');
      }),
    ).rejects.toThrow('duplicate key');
    expect(runs).toBe(1);
  });
});
