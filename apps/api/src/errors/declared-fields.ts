import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import type { ValidationIssue } from '@app/domain';

const declared = new WeakMap<object, ReadonlySet<string>>();

/** The fields a DTO class declares: those with a validation rule, as class-validator's whitelist counts them. */
function declaredFields(dto: Type): ReadonlySet<string> {
  let fields = declared.get(dto);
  if (!fields) {
    const rules = getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false);
    fields = new Set(rules.map((rule) => rule.propertyName));
    declared.set(dto, fields);
  }
  return fields;
}

/**
 * The unknown-field rule, checked on the value's own keys against a Set. Nest's pipe deletes
 * `__proto__`, `prototype` and `constructor`, class-transformer skips keys naming the instance's
 * functions (`toString`, `hasOwnProperty`), and class-validator looks names up in a plain object,
 * so behind them such a field was dropped silently instead of refused.
 */
export function undeclaredFieldIssues(value: Record<string, unknown>, dto: Type): ValidationIssue[] {
  const fields = declaredFields(dto);
  // Worded as the validation pipe words them, so the same field gives the same issue either way.
  return Object.keys(value)
    .filter((key) => !fields.has(key))
    .map((key) => ({
      path: key,
      message: value[key] === null ? `${key} must not be null` : `property ${key} should not exist`,
    }));
}
