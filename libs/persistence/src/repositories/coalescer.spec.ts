import { describe, expect, it, jest } from '@jest/globals';
import { Coalescer, type BatchAnswer } from './coalescer.js';

/** A batch function that records each batch it runs and doubles every input. */
function doubling(answer?: (inputs: number[]) => Promise<ReadonlyArray<BatchAnswer<number>>>) {
  const batches: number[][] = [];
  const run = jest.fn((inputs: number[]) => {
    batches.push([...inputs]);
    return answer ? answer(inputs) : Promise.resolve(inputs.map((input) => input * 2));
  });
  return { run, batches };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('Coalescer', () => {
  it('runs the calls of one turn as one batch, answering each caller with its own result', async () => {
    const { run, batches } = doubling();
    const coalescer = new Coalescer(run);
    const results = await Promise.all([1, 2, 3].map((input) => coalescer.call(input)));
    expect(results).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('does not hold a lone call for company, and runs later turns as their own batches', async () => {
    const { run, batches } = doubling();
    const coalescer = new Coalescer(run);
    expect(await coalescer.call(1)).toBe(2);
    expect(await coalescer.call(2)).toBe(4);
    expect(batches).toEqual([[1], [2]]);
  });

  it('waits for the end of the turn, not for the earlier batch to finish', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { run, batches } = doubling(async (inputs) => {
      if (inputs[0] === 1) await gate;
      return inputs.map((input) => input * 2);
    });
    const coalescer = new Coalescer(run);
    const first = coalescer.call(1);
    await nextTurn();
    const second = coalescer.call(2);
    expect(await second).toBe(4);
    release();
    expect(await first).toBe(2);
    expect(batches).toEqual([[1], [2]]);
  });

  it('splits a turn of more than maxBatch calls into batches of at most maxBatch, in call order', async () => {
    const { run, batches } = doubling();
    const coalescer = new Coalescer(run, 2);
    const inputs = [1, 2, 3, 4, 5];
    expect(await Promise.all(inputs.map((input) => coalescer.call(input)))).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('refuses a maxBatch below one', () => {
    expect(() => new Coalescer(doubling().run, 0)).toThrow('maxBatch must be at least 1, not 0');
  });

  it('fails only the caller whose answer is a rejected promise', async () => {
    const coalescer = new Coalescer<number, number>((inputs) =>
      Promise.resolve(
        inputs.map((input) => (input === 2 ? Promise.reject(new Error('bad 2')) : Promise.resolve(input))),
      ),
    );
    const results = await Promise.allSettled([1, 2, 3].map((input) => coalescer.call(input)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('bad 2') },
      { status: 'fulfilled', value: 3 },
    ]);
  });

  it('rejects every caller of a batch that fails, and only of that batch', async () => {
    const failure = new Error('connection lost');
    const { run } = doubling((inputs) =>
      inputs.includes(3) ? Promise.reject(failure) : Promise.resolve(inputs.map((input) => input * 2)),
    );
    const coalescer = new Coalescer(run, 2);
    const results = await Promise.allSettled([1, 2, 3, 4].map((input) => coalescer.call(input)));
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    expect((results[2] as PromiseRejectedResult).reason).toBe(failure);
  });

  it('rejects every caller when the batch function throws before returning a promise', async () => {
    const coalescer = new Coalescer<number, number>(() => {
      throw new Error('sync failure');
    });
    const results = await Promise.allSettled([coalescer.call(1), coalescer.call(2)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });

  it('rejects every caller of a batch that answers the wrong number of results', async () => {
    const coalescer = new Coalescer<number, number>((inputs) => Promise.resolve(inputs.slice(1)));
    const results = await Promise.allSettled([coalescer.call(1), coalescer.call(2)]);
    expect(results).toEqual([
      { status: 'rejected', reason: new Error('a batch of 2 answered 1 results') },
      { status: 'rejected', reason: new Error('a batch of 2 answered 1 results') },
    ]);
  });

  it('loses no call among many, made over several turns while batches are in flight', async () => {
    const { run, batches } = doubling(async (inputs) => {
      await new Promise((resolve) => setTimeout(resolve, inputs.length % 3));
      return inputs.map((input) => input * 2);
    });
    const coalescer = new Coalescer(run, 7);
    const calls: Array<Promise<number>> = [];
    for (let turn = 0; turn < 20; turn++) {
      for (let i = 0; i < turn % 11; i++) calls.push(coalescer.call(calls.length));
      await nextTurn();
    }
    const results = await Promise.all(calls);
    expect(results).toEqual(calls.map((_, i) => i * 2));
    expect(batches.flat().sort((a, b) => a - b)).toEqual(calls.map((_, i) => i));
    expect(Math.max(...batches.map((batch) => batch.length))).toBeLessThanOrEqual(7);
  });
});
