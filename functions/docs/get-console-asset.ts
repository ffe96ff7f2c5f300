import { notFound } from '../../shared/errors.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { CONSOLE_ASSET_CACHE_CONTROL, consoleAssetText, consoleAssetType } from '../../shared/http/console-page.ts';
import { PreparedReply } from '../../shared/http/responses.ts';
import { type ServedDocument, servedDocument } from '../../shared/http/served-document.ts';
import { route } from './routes.ts';
import * as z from 'zod/mini';
import { documented } from '../../shared/schema/api-docs.ts';

const consoleAssetBody = documented(z.string(), { description: 'A script or style sheet of the web console.' });

/** Each file read, gzipped and tagged once per container. */
const served = new Map<string, ServedDocument>();

export const handler = httpRoute(
  route('docs.consoleAsset'),
  {
    summary: 'A script or style of the web console',
    description:
      'A file of the current console build, named by its content hash (the page names them), so it is cached for a year (`immutable`). Gzipped for clients that accept it; `If-None-Match` with its `ETag` answers 304. Any other name is 404.',
    params: idParam('file'),
    contentTypes: ['text/javascript', 'text/css'],
    headers: ['cache-control', 'etag'],
    response: consoleAssetBody,
  },
  async ({ params, headers }) => {
    const contentType = consoleAssetType(params.file);
    if (!contentType) throw notFound(`No console file ${params.file}`);
    let answer = served.get(params.file);
    if (!answer) {
      answer = servedDocument(() => consoleAssetText(params.file), contentType, CONSOLE_ASSET_CACHE_CONTROL);
      served.set(params.file, answer);
    }
    const reply = answer(headers);
    return new PreparedReply({ ...reply, headers: { ...reply.headers, 'x-content-type-options': 'nosniff' } });
  },
);
