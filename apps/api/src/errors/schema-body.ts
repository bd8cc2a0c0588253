import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import type { ValidateFunction } from 'ajv';
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '@app/domain';
import { createAjv, withTypeUnions } from './json-schema-check.js';
import { schemaIssues, type JsonSchemaNode, type LeafCheck } from './schema-issues.js';

/**
 * The hot bodies (the judge and inbound routes, the MCP judge tool, and those that carry a ticket)
 * are defined once, as zod schemas. From each come its type, its OpenAPI schema, and a compiled
 * JSON Schema check: a valid body costs that one check; a refused one is then walked for issues.
 * Every other body is a class-validator DTO.
 */
const bodyAjv = createAjv({ allErrors: false });
/** For refused bodies only: all of a field's failed keywords. */
const issueAjv = createAjv({ allErrors: true });
const leafChecks = new WeakMap<JsonSchemaNode, ValidateFunction>();

const checkLeaf: LeafCheck = (node, value) => {
  let validate = leafChecks.get(node);
  if (!validate) leafChecks.set(node, (validate = issueAjv.compile(node)));
  return validate(value) ? null : (validate.errors ?? []);
};

export class BodySchema<T> {
  /** The JSON Schema the body is checked against (draft 7). */
  readonly json: JsonSchemaNode;
  private readonly validate: ValidateFunction;

  constructor(readonly zod: z.ZodObject) {
    this.json = withTypeUnions(z.toJSONSchema(zod, { target: 'draft-7' }) as JsonSchemaNode);
    this.validate = bodyAjv.compile(this.json);
  }

  /** The body as parsed when valid (no copy, no second pass), else a ValidationError with issues. */
  parse(body: unknown): T {
    if (this.validate(body)) return body as T;
    const issues = this.issues(body);
    // The walk covers every keyword these schemas use; ajv's own words if it ever does not.
    for (const error of issues.length ? [] : (this.validate.errors ?? [])) {
      const path = error.instancePath.slice(1).replaceAll('/', '.') || 'body';
      issues.push({ path, message: `${path} ${error.message ?? 'is invalid'}` });
    }
    throw new ValidationError(issues);
  }

  /** The issues of a refused body (none for a valid one). */
  issues(body: unknown): ValidationIssue[] {
    return schemaIssues(this.json, body, checkLeaf);
  }
}

/** A schema-defined body class: Nest's metatype for `@Body()`, with its schema on the class. */
export interface SchemaDtoClass<T = unknown> {
  new (): T;
  readonly bodySchema: BodySchema<T>;
}

/** The class documenting a nested object (or each item of an array) in OpenAPI. */
type Model = () => SchemaDtoClass;

/**
 * A body class for `schema`: its OpenAPI properties come from the schema (`models` names the
 * classes that document nested objects, which OpenAPI shows as `$ref`s), its validation is the
 * compiled schema, and its instances have the schema's type.
 */
export function SchemaDto<S extends z.ZodObject>(
  schema: S,
  models: { [K in keyof S['shape']]?: Model } = {},
): SchemaDtoClass<z.infer<S>> {
  class Dto {
    static readonly bodySchema = new BodySchema<z.infer<S>>(schema);
  }
  const shape: Record<string, z.ZodType> = schema.shape;
  for (const [key, field] of Object.entries(shape)) {
    ApiProperty(propertyOptions(field, models[key as keyof S['shape']]))(Dto.prototype, key);
  }
  return Dto as SchemaDtoClass<z.infer<S>>;
}

export function bodySchemaOf(metatype: unknown): BodySchema<unknown> | undefined {
  return typeof metatype === 'function' ? (metatype as Partial<SchemaDtoClass>).bodySchema : undefined;
}

const STRUCTURE = new Set(['type', 'items', 'properties', 'additionalProperties', 'required']);

function propertyOptions(field: z.ZodType, model: Model | undefined): ApiPropertyOptions {
  const required = !field.isOptional();
  const json = z.toJSONSchema(field, { target: 'openapi-3.0' }) as Record<string, unknown>;
  if (!model) return { ...json, required };
  const inner = field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field;
  const isArray = inner instanceof z.ZodArray;
  const nested = isArray ? inner.element : inner;
  // Only the documentation keywords and an array's bounds stay beside the nested class's $ref.
  const documented = Object.fromEntries(Object.entries(json).filter(([key]) => !STRUCTURE.has(key)));
  // Swagger takes a function named `type` for a lazy reference to a class declared later.
  const type = () => {
    const dto = model();
    if (dto.bodySchema.zod !== nested) throw new Error(`${dto.name} does not document this field's schema`);
    return dto;
  };
  return { ...documented, type, isArray, required };
}
