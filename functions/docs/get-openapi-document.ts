import * as z from 'zod/mini';
import document from '../../docs/openapi.json' with { type: 'json' };
import { documented } from '../../shared/http/api-docs.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { withHeaders } from '../../shared/http/responses.ts';
import { route } from '../routes.ts';

const response = documented(z.record(z.string(), z.unknown()), {
  description: 'This OpenAPI 3.1 document (docs/openapi.json, generated from the route table and zod schemas).',
});

export const handler = httpRoute(
  route('docs.openapi'),
  {
    summary: 'This OpenAPI document',
    description: 'The contract as OpenAPI 3.1: generate clients from it, or browse it at GET /docs.',
    response,
    headers: ['cache-control'],
  },
  async () => withHeaders(document as Record<string, unknown>, { 'cache-control': 'public, max-age=300' }),
);
