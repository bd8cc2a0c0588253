import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { McpTool } from './mcp-tools.js';

export type JsonSchema = Record<string, unknown>;

const COMPONENT = '#/components/schemas/';
/** OpenAPI keywords that are not JSON Schema validation keywords. */
const OPENAPI_ONLY = new Set([
  'nullable',
  'example',
  'xml',
  'externalDocs',
  'discriminator',
  'readOnly',
  'writeOnly',
]);

/**
 * One OpenAPI 3.0 schema as a self-contained JSON Schema: `$ref`s inlined (the DTOs have no
 * cycles), `nullable` turned into a `null` alternative, OpenAPI-only keywords dropped.
 */
export function toJsonSchema(
  schema: unknown,
  components: Record<string, unknown>,
  seen: string[] = [],
): JsonSchema {
  if (typeof schema !== 'object' || schema === null) return {};
  const source = schema as Record<string, unknown>;
  if (typeof source.$ref === 'string') {
    const name = source.$ref.slice(COMPONENT.length);
    if (seen.includes(name)) throw new Error(`schema ${name} refers to itself`);
    return toJsonSchema(components[name], components, [...seen, name]);
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    if (OPENAPI_ONLY.has(key)) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, child]) => [
          name,
          toJsonSchema(child, components, seen),
        ]),
      );
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not') {
      out[key] = typeof value === 'object' ? toJsonSchema(value, components, seen) : value;
    } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
      out[key] = (value as unknown[]).map((child) => toJsonSchema(child, components, seen));
    } else {
      out[key] = value;
    }
  }
  if (source.nullable !== true) return out;
  // A nullable reference is `type: object` beside `allOf: [the DTO]`: the null must be an
  // alternative to the whole, or the allOf still demands an object (a pack's liveDocument,
  // an evaluation's calibratedWith).
  if (typeof out.type === 'string' && !out.allOf && !out.anyOf && !out.oneOf)
    return {
      ...out,
      type: [out.type, 'null'],
      ...(out.enum ? { enum: [...(out.enum as unknown[]), null] } : {}),
    };
  return { anyOf: [out, { type: 'null' }] };
}

export interface ToolSchemas {
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema: JsonSchema & { type: 'object' };
}

/**
 * The tools' input and output schemas, taken from the OpenAPI document (the argument DTOs and the
 * REST answers' DTOs), so a tool can never describe its arguments or its answer differently from
 * what the validation pipe and the REST route use.
 */
@Injectable()
export class McpSchemas {
  private readonly byTool = new Map<string, ToolSchemas>();

  load(document: OpenAPIObject, tools: readonly McpTool[]): void {
    const components = (document.components?.schemas ?? {}) as Record<string, unknown>;
    for (const tool of tools) {
      this.byTool.set(tool.name, {
        // Unknown arguments are refused by the validation pipe, as unknown fields are on REST.
        inputSchema: { ...objectSchema(tool.args.name, components, tool.name), additionalProperties: false },
        outputSchema: objectSchema(tool.output.name, components, tool.name),
      });
    }
  }

  of(tool: McpTool): ToolSchemas {
    const schemas = this.byTool.get(tool.name);
    if (!schemas) throw new Error(`no schemas loaded for the MCP tool ${tool.name}`);
    return schemas;
  }
}

/** The dialect MCP tool schemas default to since revision 2025-11-25, stated on each schema. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

function objectSchema(
  name: string,
  components: Record<string, unknown>,
  tool: string,
): JsonSchema & { type: 'object' } {
  if (!(name in components)) throw new Error(`the OpenAPI document has no schema ${name} (MCP tool ${tool})`);
  const schema = toJsonSchema({ $ref: `${COMPONENT}${name}` }, components);
  return { $schema: JSON_SCHEMA_DIALECT, ...schema, type: 'object', properties: schema.properties ?? {} };
}
