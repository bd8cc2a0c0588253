import { Ajv, type AnySchema, type ValidateFunction } from 'ajv';
import { isISO8601, minLength } from 'class-validator';

/**
 * A compiled check that a request body is valid, for the hot routes (the judge and the inbound
 * webhook take one every request). class-validator stays the authority: the check is written to
 * accept only bodies its rules accept, with class-validator's own predicates as ajv formats, and
 * every body it does not accept goes through the ValidationPipe as before (which accepts it, or
 * answers with the usual issues). So a check that is too strict costs only speed; fast-accept.spec
 * checks that none is too lenient. A rule made stricter in a DTO must be made stricter here too.
 */
const ajv = new Ajv({
  strict: true,
  allowUnionTypes: true,
  allErrors: false,
  coerceTypes: false,
  useDefaults: false,
});
ajv.addFormat('iso8601-strict', { type: 'string', validate: (value) => isISO8601(value, { strict: true }) });
ajv.addFormat('min-length-1', { type: 'string', validate: (value) => minLength(value, 1) });

const FAST_ACCEPT = Symbol('fast-accept');

/** Puts a compiled fast-accept check on a body DTO (see above: it must accept a subset of its rules). */
export function FastAccept(schema: AnySchema): ClassDecorator {
  const check = ajv.compile(schema);
  return (target) => {
    Reflect.defineMetadata(FAST_ACCEPT, check, target);
  };
}

export function fastAcceptOf(metatype: unknown): ValidateFunction | undefined {
  return typeof metatype === 'function'
    ? (Reflect.getOwnMetadata(FAST_ACCEPT, metatype) as ValidateFunction | undefined)
    : undefined;
}

/** JSON-schema pieces matching the class-validator decorators they stand for. */
export const FAST = {
  /** @IsString() @MinLength(1) */
  nonEmptyString: { type: 'string', format: 'min-length-1' },
  /** @IsString() */
  string: { type: 'string' },
  /** @IsISO8601({ strict: true }) */
  iso8601: { type: 'string', format: 'iso8601-strict' },
} as const;
