import {
  ValidationPipe,
  type ArgumentMetadata,
  type ValidationError as ClassValidatorError,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { ValidationError, type ValidationIssue } from '@app/domain';
import { undeclaredFieldIssues } from './declared-fields.js';
import { bodySchemaOf } from './schema-body.js';
import { isPlainObject } from './schema-issues.js';

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

/** A request DTO class, as opposed to the built-in types a pipe also sees (String, Object…). */
const isDto = (metatype: unknown): boolean =>
  typeof metatype === 'function' && ![String, Number, Boolean, Object, Array].includes(metatype as never);

const mergeIssues = (first: ValidationIssue[], more: ValidationIssue[]): ValidationIssue[] => {
  const seen = new Set(first.map((issue) => `${issue.path}\n${issue.message}`));
  return [...first, ...more.filter((issue) => !seen.has(`${issue.path}\n${issue.message}`))];
};

/**
 * Nest's ValidationPipe, except that a body defined by a schema (see schema-body.ts) is checked by
 * that schema alone and handed on as parsed, without class-transformer and class-validator.
 * Controllers read these bodies' fields, never their class. The unknown-field rule of query and
 * body DTOs is also checked here, on own keys (see declared-fields.ts).
 */
export class SchemaBodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') {
      const schema = bodySchemaOf(metadata.metatype);
      if (schema) return schema.parse(value);
      // Every body DTO is an object: `null`, an array or a bare value would skip its rules.
      if (isDto(metadata.metatype) && !isPlainObject(value)) {
        throw new ValidationError([{ path: 'body', message: 'body must be a JSON object' }]);
      }
    }
    const checked = (metadata.type === 'body' || metadata.type === 'query') && isDto(metadata.metatype);
    const undeclared =
      checked && isPlainObject(value) ? undeclaredFieldIssues(value, metadata.metatype!) : [];
    let result: unknown;
    try {
      result = await super.transform(value, metadata);
    } catch (error) {
      // One answer names every issue: the field rules' and the undeclared fields the libraries hid.
      if (error instanceof ValidationError && undeclared.length)
        throw new ValidationError(mergeIssues(error.issues, undeclared));
      throw error;
    }
    if (undeclared.length) throw new ValidationError(undeclared);
    return result;
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
  return new SchemaBodyValidationPipe(VALIDATION_OPTIONS);
}
