import { createHash } from 'node:crypto';

/**
 * A named SQL statement, typed in and out. Its SQL names its parameters (`:userId`), which are
 * numbered here, in order of first use, so a placeholder's meaning is always next to it and no
 * position is shared with another file. Rows come back as the SQL selects them: aliases in
 * camelCase give the row type without a mapping step.
 */
export interface Statement<Params, Row> {
  /** `area.what`, unique: the snapshot header and the error messages name it. */
  readonly name: string;
  /** The SQL sent, with `$n` placeholders. */
  readonly text: string;
  /** Parameter names in `$n` order. */
  readonly parameters: ReadonlyArray<keyof Params & string>;
  /** The name of the prepared statement on each connection (derived from the text). */
  readonly preparedName: string;
  /**
   * True: sent unnamed, so Postgres plans it on every call with the values given (a custom plan), as
   * a statement whose optional filters fold away by value (`:x IS NULL OR ...`) needs.
   */
  readonly plannedPerCall: boolean;
  values(params: Params): unknown[];
  /** Phantom: the row type, for inference only. */
  readonly row?: Row;
}

export interface StatementDefinition<Params> {
  name: string;
  sql: string;
  /** Parameters sent as JSON text: arrays meant for a jsonb column (pg would send a Postgres array). */
  json?: ReadonlyArray<keyof Params & string>;
  /**
   * Plan on every call with the values sent instead of once per connection: for a statement whose
   * optional filters read `(:x::type IS NULL OR column = :x)`, which the planner simplifies only
   * when it sees the values (a prepared statement's generic plan keeps every branch, and no index
   * fits it). Costs a planning per call, a fraction of a millisecond.
   */
  plannedPerCall?: boolean;
}

/**
 * `:name`, but not the second colon of a `::type` cast, a colon inside a word, nor anything in a
 * string literal or a quoted identifier (matched first and kept as they are).
 */
const PLACEHOLDER = /'(?:[^']|'')*'|"(?:[^"]|"")*"|(?<![:\w]):([A-Za-z_]\w*)/g;

/** The SQL without its source indentation, so the snapshots read as written. */
function dedent(sql: string): string {
  const lines = sql
    .replace(/^\s*\n/, '')
    .trimEnd()
    .split('\n');
  const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => line.search(/\S/)));
  return lines
    .map((line) => line.slice(indent))
    .join('\n')
    .trim();
}

export function defineStatement<Params extends object = Record<never, never>, Row = never>(
  definition: StatementDefinition<Params>,
): Statement<Params, Row> {
  const parameters: Array<keyof Params & string> = [];
  const text = dedent(definition.sql).replace(PLACEHOLDER, (match, key?: keyof Params & string) => {
    if (!key) return match;
    let index = parameters.indexOf(key);
    if (index < 0) index = parameters.push(key) - 1;
    return `$${index + 1}`;
  });
  const json = new Set<string>(definition.json ?? []);
  for (const key of json) {
    if (!parameters.includes(key as keyof Params & string))
      throw new Error(`statement ${definition.name}: json parameter :${key} is not in its SQL`);
  }
  return {
    name: definition.name,
    text,
    parameters,
    preparedName: `tj_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`,
    plannedPerCall: definition.plannedPerCall ?? false,
    values: (params) =>
      parameters.map((key) => {
        const value = params[key] ?? null;
        return json.has(key) && value !== null ? JSON.stringify(value) : value;
      }),
  };
}

/**
 * A multi-line fragment (a column list) to interpolate at `column` of the SQL's source: its lines
 * after the first are indented to that column, so the snapshot shows it aligned where it sits.
 */
export function aligned(fragment: string, column: number): string {
  return fragment
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .join(`\n${' '.repeat(column)}`);
}
