import { httpRoute } from '../../shared/http/pipeline.ts';
import { REFERENCE_PAGE, REFERENCE_PAGE_HEADERS } from '../../shared/http/reference-page.ts';
import { RawReply } from '../../shared/http/responses.ts';
import { route } from './routes.ts';
import * as z from 'zod/mini';
import { documented } from '../../shared/schema/api-docs.ts';

const referencePageBody = documented(z.string(), { description: 'The reference page (Swagger UI).' });

export const handler = httpRoute(
  route('docs.page'),
  {
    summary: 'Browsable API reference',
    description: 'Swagger UI over GET /openapi.json, with every asset served by the API itself (no CDN).',
    contentTypes: ['text/html'],
    headers: ['cache-control'],
    response: referencePageBody,
  },
  async () => new RawReply(REFERENCE_PAGE, 'text/html; charset=utf-8', REFERENCE_PAGE_HEADERS),
);
