// What the docs routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import * as z from 'zod/mini';
import { documented } from '../../shared/http/api-docs.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { docsRoutes } from './routes.ts';

const openApiDocumentBody = documented(z.record(z.string(), z.unknown()), {
  description: 'This OpenAPI 3.1 document (docs/openapi.json, generated from the route table and zod schemas).',
});

const referencePageBody = documented(z.string(), { description: 'The reference page (Swagger UI).' });

const referenceAssetBody = documented(z.string(), { description: 'A script or style sheet of the reference page.' });

export const docsResponses = {
  'docs.openapi': openApiDocumentBody,
  'docs.page': referencePageBody,
  'docs.asset': referenceAssetBody,
} satisfies ResponseSchemas<typeof docsRoutes>;
