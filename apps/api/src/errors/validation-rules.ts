import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsObject, ValidateIf, ValidateNested } from 'class-validator';

/**
 * The field may be left out; when sent, it must be valid, and `null` is not a value of any
 * optional field (class-validator's IsOptional would let null through to storage and responses).
 */
export function Omittable(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/** One nested object of the given DTO: an array, a string or null in its place is refused. */
export function IsNestedObject(type: () => new () => object): PropertyDecorator {
  return applyDecorators(IsObject(), ValidateNested(), Type(type));
}

/** An array of nested objects of the given DTO: each item must be an object (`[[]]` is refused). */
export function IsNestedObjects(type: () => new () => object): PropertyDecorator {
  return applyDecorators(IsArray(), IsObject({ each: true }), ValidateNested({ each: true }), Type(type));
}
