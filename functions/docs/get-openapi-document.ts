import { httpRoute } from '../../shared/http/pipeline.ts';
import { PreparedReply } from '../../shared/http/responses.ts';
import { servedJsonDocument } from '../../shared/http/served-document.ts';
import { route } from './routes.ts';
import * as z from 'zod/mini';
import { documented } from '../../shared/schema/api-docs.ts';

const openApiDocumentBody = documented(z.record(z.string(), z.unknown()), {
  description: 'This OpenAPI 3.1 document (docs/openapi.json, generated from the route table and zod schemas).',
});

const document = servedJsonDocument('docs/openapi.json', 'public, max-age=300');

export const handler = httpRoute(
  route('docs.openapi'),
  {
    summary: 'This OpenAPI document',
    description:
      'The contract as OpenAPI 3.1: generate clients from it, or browse it at GET /docs. Gzipped for clients that accept it; `If-None-Match` with its `ETag` answers 304 while it is unchanged.',
    headers: ['cache-control', 'etag'],
    response: openApiDocumentBody,
  },
  async ({ headers }) => new PreparedReply(document(headers)),
);
