import { notFound } from '../../shared/errors.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { ASSET_CACHE_CONTROL, REFERENCE_ASSETS } from '../../shared/http/reference-page.ts';
import { PreparedReply } from '../../shared/http/responses.ts';
import { type ServedDocument, servedDocument } from '../../shared/http/served-document.ts';
import { route } from './routes.ts';
import * as z from 'zod/mini';
import { documented } from '../../shared/schema/api-docs.ts';

const referenceAssetBody = documented(z.string(), { description: 'A script or style sheet of the reference page.' });

/** Each asset read, gzipped and tagged once per container (the Swagger UI script is 1.7 MB). */
const served = new Map<string, ServedDocument>();

export const handler = httpRoute(
  route('docs.asset'),
  {
    summary: 'A script or style of the reference page',
    description: `One of: ${Object.keys(REFERENCE_ASSETS).join(', ')}. Gzipped for clients that accept it; \`If-None-Match\` with its \`ETag\` answers 304 while it is unchanged.`,
    params: idParam('file'),
    contentTypes: ['text/javascript', 'text/css'],
    headers: ['cache-control', 'etag'],
    response: referenceAssetBody,
  },
  async ({ params, headers }) => {
    const asset = Object.hasOwn(REFERENCE_ASSETS, params.file) ? REFERENCE_ASSETS[params.file] : undefined;
    if (!asset) throw notFound(`No asset ${params.file}`);
    let answer = served.get(params.file);
    if (!answer) {
      answer = servedDocument(asset.read, asset.contentType, ASSET_CACHE_CONTROL);
      served.set(params.file, answer);
    }
    return new PreparedReply(answer(headers));
  },
);
