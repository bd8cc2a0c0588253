import { parseArgs } from 'node:util';

/** How an option is read: a number, a comma-separated list of numbers, a word list, or a switch. */
type Kind = 'number' | 'numbers' | 'words' | 'flag';
type Value<K extends Kind> = K extends 'number'
  ? number
  : K extends 'numbers'
    ? number[]
    : K extends 'words'
      ? string[]
      : boolean;

export interface OptionSpec<K extends Kind = Kind> {
  kind: K;
  default: Value<K>;
}

export type Options<S extends Record<string, OptionSpec>> = {
  [N in keyof S]: S[N] extends OptionSpec<infer K> ? Value<K> : never;
} & CommonOptions;

/** What every benchmark takes: where the stores are, whether to write the docs, the API's log level. */
export interface CommonOptions {
  databaseUrl: string;
  redisUrl: string;
  /** `BENCH_WRITE_DOCS=0` or `--no-docs`: print and write the JSON, leave docs/performance.md alone. */
  writeDocs: boolean;
  /** `BENCH_PROFILE=1` or `--profile`: the measured process under `--cpu-prof`; its figures are never published. */
  profile: boolean;
  logLevel: string;
  /** `BENCH_KEEP_DATABASE=1`: leave the scratch database in place (its name is logged), to read plans in it. */
  keepDatabase: boolean;
}

/** `gatewayDelayMs` is `--gateway-delay-ms` on the command line and `BENCH_GATEWAY_DELAY_MS` in the environment. */
const flagName = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const envName = (name: string) => `BENCH_${flagName(name).replaceAll('-', '_').toUpperCase()}`;

function parse<K extends Kind>(name: string, kind: K, raw: string): Value<K> {
  if (kind === 'flag') return (raw === '1' || raw === 'true') as Value<K>;
  if (kind === 'words') return raw.split(',').filter(Boolean) as Value<K>;
  const numbers = raw.split(',').map(Number);
  if (!numbers.length || numbers.some((n) => !Number.isFinite(n) || n <= 0))
    throw new Error(`${name} must be ${kind === 'number' ? 'a positive number' : 'positive numbers'}`);
  return (kind === 'number' ? numbers[0] : numbers) as Value<K>;
}

/**
 * The one way a benchmark reads its knobs: `--name value` on the command line, else `BENCH_NAME`
 * in the environment (the names docs/performance.md lists), else the default.
 */
export function readOptions<S extends Record<string, OptionSpec>>(
  spec: S,
  env: NodeJS.ProcessEnv = process.env,
): Options<S> {
  const { values } = parseArgs({
    options: {
      ...Object.fromEntries(Object.keys(spec).map((name) => [flagName(name), { type: 'string' as const }])),
      'no-docs': { type: 'boolean' },
      profile: { type: 'boolean' },
    },
    strict: true,
  });
  const given = values as Record<string, string | boolean | undefined>;
  const read = (name: string) => (given[flagName(name)] as string | undefined) ?? env[envName(name)] ?? '';
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, { kind, default: fallback }]) => {
      const raw = read(name);
      return [name, raw === '' ? fallback : parse(name, kind, raw)];
    }),
  );
  const profile = given.profile === true || env.BENCH_PROFILE === '1';
  return {
    ...options,
    databaseUrl: env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    // A profiled process is slower than a real one, so its figures never reach the docs.
    writeDocs: given['no-docs'] !== true && env.BENCH_WRITE_DOCS !== '0' && !profile,
    profile,
    logLevel: env.BENCH_LOG_LEVEL || 'silent',
    keepDatabase: env.BENCH_KEEP_DATABASE === '1',
  } as Options<S>;
}

export const num = (value: number): OptionSpec<'number'> => ({ kind: 'number', default: value });
export const nums = (...value: number[]): OptionSpec<'numbers'> => ({ kind: 'numbers', default: value });
export const words = (...value: string[]): OptionSpec<'words'> => ({ kind: 'words', default: value });
export const flag = (value: boolean): OptionSpec<'flag'> => ({ kind: 'flag', default: value });

/** A benchmark's own settings, for its results: the common ones (store URLs among them) left out. */
export function settingsOf<O extends CommonOptions>(options: O): Omit<O, keyof CommonOptions> {
  const {
    databaseUrl: _d,
    redisUrl: _r,
    writeDocs: _w,
    profile: _p,
    logLevel: _l,
    keepDatabase: _k,
    ...own
  } = options;
  return own;
}
