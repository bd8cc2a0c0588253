import type { JsonSchema, OpenApiDocument } from '../openapi-arbitraries.js';
import type { World } from './world.js';

/** What the generators read from the running suite, handed to them rather than imported from it. */
export interface FuzzContext {
  /** The served OpenAPI document. */
  doc: OpenApiDocument;
  /** Whether a value fits a schema of `doc`. */
  documented: (schema: JsonSchema, value: unknown) => boolean;
  /** The owner's records, read when a case is generated: its pools of ids change during the run. */
  world: World;
  /** Planted in generated ticket text, emails and passwords; none may reach an error body or a log. */
  marks: { marker: string; email: string; password: string };
  /** A webhook receiver that answers, for generated endpoint URLs. */
  receiverUrl: string;
  /** A pack that imports and labels that fit it: random ones rarely reach the code behind validation. */
  examplePack: { document: unknown };
  validLabels: unknown[];
}
