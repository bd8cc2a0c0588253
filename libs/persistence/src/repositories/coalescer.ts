/**
 * What a batch answers for one of its inputs: the value, or a promise for that input's own outcome
 * (a rejected one fails that caller only).
 */
export type BatchAnswer<Out> = Out | PromiseLike<Out>;

/** Runs one batch: answers every input, in input order. Throwing fails every caller of the batch. */
export type BatchFunction<In, Out> = (inputs: In[]) => Promise<ReadonlyArray<BatchAnswer<Out>>>;

interface Queue<In, Out> {
  inputs: In[];
  resolves: Array<(answer: BatchAnswer<Out>) => void>;
  rejects: Array<(error: unknown) => void>;
}

/**
 * Coalesces calls into batches: the calls made during one turn of the event loop run as one batch as
 * soon as that turn ends (nothing waits for a timer), `maxBatch` inputs at most; the rest of a busier
 * turn runs on the next turns, without waiting for the earlier batch to finish. Each caller gets the
 * answer at its own position.
 */
export class Coalescer<In, Out> {
  // Parallel arrays rather than one object per call: this sits on the judging hot path.
  private queue: Queue<In, Out> = { inputs: [], resolves: [], rejects: [] };
  private readonly flushLater = () => void this.flush();

  constructor(
    private readonly run: BatchFunction<In, Out>,
    private readonly maxBatch = Infinity,
  ) {
    if (!(maxBatch >= 1)) throw new Error(`maxBatch must be at least 1, not ${maxBatch}`);
  }

  call(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      const queue = this.queue;
      if (queue.inputs.push(input) === 1) setImmediate(this.flushLater);
      queue.resolves.push(resolve);
      queue.rejects.push(reject);
    });
  }

  private async flush(): Promise<void> {
    const { inputs, resolves, rejects } = this.take();
    if (this.queue.inputs.length) setImmediate(this.flushLater);
    let answers: ReadonlyArray<BatchAnswer<Out>>;
    try {
      answers = await this.run(inputs);
      if (answers.length !== inputs.length) {
        throw new Error(`a batch of ${inputs.length} answered ${answers.length} results`);
      }
    } catch (error) {
      for (const reject of rejects) reject(error);
      return;
    }
    for (let i = 0; i < resolves.length; i++) resolves[i](answers[i]);
  }

  /** The next batch: the whole queue when it fits (no copy), else its first `maxBatch` calls. */
  private take(): Queue<In, Out> {
    const queue = this.queue;
    if (queue.inputs.length <= this.maxBatch) {
      this.queue = { inputs: [], resolves: [], rejects: [] };
      return queue;
    }
    return {
      inputs: queue.inputs.splice(0, this.maxBatch),
      resolves: queue.resolves.splice(0, this.maxBatch),
      rejects: queue.rejects.splice(0, this.maxBatch),
    };
  }
}
