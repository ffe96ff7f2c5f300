// Documentation attached to zod schemas, read only by the OpenAPI generator (scripts/openapi): a component name for
// schemas the document should show once and reference (`Pet`, `Error`), and descriptions of fields.
import * as z from 'zod/mini';

export interface SchemaDocs {
  /** Name under `components.schemas`; the schema is then referenced, not repeated. */
  id?: string;
  description?: string;
}

export const apiDocs = z.registry<SchemaDocs>();

/** Attaches `docs` to `schema` and returns it, so a definition reads `const pet = documented(z.object(…), {…})`. */
export function documented<T extends z.ZodMiniType>(schema: T, docs: SchemaDocs): T {
  apiDocs.add(schema, docs);
  return schema;
}

/** The response of routes that answer their success status with no body (the spec's deletes). */
export const emptyBody = z.undefined();
