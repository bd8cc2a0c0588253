import { ValidateIf } from 'class-validator';

/**
 * The field may be left out; when sent, it must be valid, and `null` is not a value of any
 * optional field (class-validator's IsOptional would let null through to storage and responses).
 */
export function Omittable(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
