import * as z from 'zod/mini';
import { notFound } from '../../shared/errors.ts';
import { documented } from '../../shared/http/api-docs.ts';
import { idParam } from '../../shared/http/common-params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { ASSET_CACHE_CONTROL, REFERENCE_ASSETS } from '../../shared/http/reference-page.ts';
import { RawReply } from '../../shared/http/responses.ts';
import { route } from '../routes.ts';

const response = documented(z.string(), { description: 'A script or style sheet of the reference page.' });
const loaded = new Map<string, string>();

export const handler = httpRoute(
  route('docs.asset'),
  {
    summary: 'A script or style of the reference page',
    description: `One of: ${Object.keys(REFERENCE_ASSETS).join(', ')}.`,
    params: idParam('file'),
    response,
    contentTypes: ['text/javascript', 'text/css'],
    headers: ['cache-control'],
  },
  async ({ params }) => {
    const asset = Object.hasOwn(REFERENCE_ASSETS, params.file) ? REFERENCE_ASSETS[params.file] : undefined;
    if (!asset) throw notFound(`No asset ${params.file}`);
    const body = loaded.get(params.file) ?? asset.read();
    loaded.set(params.file, body);
    return new RawReply(body, asset.contentType, { 'cache-control': ASSET_CACHE_CONTROL });
  },
);
