import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { InvalidationAcks } from './invalidation-acks.js';

describe('InvalidationAcks', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('settles true once as many acknowledgements arrived as PUBLISH reported receivers', async () => {
    const acks = new InvalidationAcks();
    let settled: boolean | undefined;
    const done = acks.open('m1', 60_000).then((value) => (settled = value));
    acks.expect('m1', 2);
    acks.acknowledge('m1');
    await Promise.resolve();
    expect(settled).toBeUndefined();
    acks.acknowledge('m1');
    await done;
    expect(settled).toBe(true);
    expect(acks.size).toBe(0);
  });

  it('counts acknowledgements that arrive before PUBLISH reports its receivers', async () => {
    const acks = new InvalidationAcks();
    const done = acks.open('m1', 60_000);
    acks.acknowledge('m1');
    acks.acknowledge('m1');
    acks.expect('m1', 2);
    expect(await done).toBe(true);
  });

  it('ignores acknowledgements of other messages and after settling', async () => {
    const acks = new InvalidationAcks();
    let settled: boolean | undefined;
    void acks.open('m1', 60_000).then((value) => (settled = value));
    acks.expect('m1', 1);
    acks.acknowledge('m2');
    acks.acknowledge('other process');
    await Promise.resolve();
    expect(settled).toBeUndefined();
    acks.acknowledge('m1');
    await Promise.resolve();
    expect(settled).toBe(true);
    acks.acknowledge('m1');
    expect(acks.size).toBe(0);
  });

  it('settles false when the time is up, and forgets the message', async () => {
    jest.useFakeTimers();
    const acks = new InvalidationAcks();
    const done = acks.open('m1', 1_000);
    acks.expect('m1', 2);
    acks.acknowledge('m1');
    jest.advanceTimersByTime(999);
    expect(acks.size).toBe(1);
    jest.advanceTimersByTime(1);
    expect(await done).toBe(false);
    expect(acks.size).toBe(0);
  });

  it('settles false on forget and on cancelAll', async () => {
    const acks = new InvalidationAcks();
    const forgotten = acks.open('m1', 60_000);
    const first = acks.open('m2', 60_000);
    const second = acks.open('m3', 60_000);
    acks.forget('m1');
    expect(await forgotten).toBe(false);
    acks.cancelAll();
    expect(await Promise.all([first, second])).toEqual([false, false]);
    expect(acks.size).toBe(0);
  });
});
