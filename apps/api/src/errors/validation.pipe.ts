import {
  ValidationPipe,
  type ArgumentMetadata,
  type ValidationError as ClassValidatorError,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { ValidationError, type ValidationIssue } from '@app/domain';
import { fastAcceptOf } from './fast-accept.js';

function flatten(errors: ClassValidatorError[], parent = ''): ValidationIssue[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property || 'body';
    // No field takes null (optional ones are left out): one clear issue instead of every rule's.
    if (error.value === null && error.constraints)
      return [{ path, message: `${error.property} must not be null` }];
    const own = Object.values(error.constraints ?? {}).map((message) => ({ path, message }));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

const isPlainObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A request DTO class, as opposed to the built-in types a pipe also sees (String, Object…). */
const isDto = (metatype: unknown): boolean =>
  typeof metatype === 'function' && ![String, Number, Boolean, Object, Array].includes(metatype as never);

/**
 * Nest's ValidationPipe, except that a body whose DTO carries a @FastAccept check and passes it is
 * handed on as parsed, without class-transformer and class-validator (the check accepts only bodies
 * they would accept; see fast-accept.ts). Controllers read these bodies' fields, never their class.
 */
export class FastAcceptValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && fastAcceptOf(metadata.metatype)?.(value)) return value;
    // Every body DTO is an object: `null`, an array or a bare value would skip its rules.
    if (metadata.type === 'body' && isDto(metadata.metatype) && !isPlainObject(value)) {
      throw new ValidationError([{ path: 'body', message: 'body must be a JSON object' }]);
    }
    return super.transform(value, metadata);
  }
}

/**
 * Request DTOs are validated strictly: unknown fields are refused, not silently dropped, and each
 * failure becomes an issue naming the path of the offending field.
 */
export const VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  forbidUnknownValues: true,
  exceptionFactory: (errors) => new ValidationError(flatten(errors)),
};

export function createValidationPipe(): ValidationPipe {
  return new FastAcceptValidationPipe(VALIDATION_OPTIONS);
}
