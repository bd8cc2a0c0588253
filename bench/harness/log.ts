/** Progress goes to stderr, so stdout holds only the results. */
export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a benchmark's main: a failure is printed and sets the exit code; once done, a stray handle
 * (a socket, a timer) does not keep the process alive.
 */
export function runMain(main: () => Promise<void>): void {
  main()
    .catch((error: unknown) => {
      log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    })
    .finally(() => setTimeout(() => process.exit(), 5_000).unref());
}
