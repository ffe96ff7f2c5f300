import { httpRoute } from '../../shared/http/pipeline.ts';
import { consoleManifest, consolePage, consolePageHeaders } from '../../shared/http/console-page.ts';
import { RawReply } from '../../shared/http/responses.ts';
import { route } from './routes.ts';
import * as z from 'zod/mini';
import { documented } from '../../shared/schema/api-docs.ts';

const consolePageBody = documented(z.string(), { description: 'The web console: one page of HTML.' });

export const handler = httpRoute(
  route('docs.console'),
  {
    summary: 'The web console',
    description:
      "A browser console over this API: sign in with an API key (kept in the tab’s session storage only) to see features, quota and rate limits, rotate the key, manage webhook endpoints and read their delivery log, and browse pets; vets decide pending body condition reviews, administrators public-image requests, and look accounts up. It calls the public routes with the caller’s own key, so it can do nothing the key may not. Strict Content-Security-Policy (scripts and styles from this origin only, no inline script, `frame-ancestors 'none'`).",
    contentTypes: ['text/html'],
    headers: ['cache-control'],
    response: consolePageBody,
  },
  async (_request, deps) =>
    new RawReply(consolePage(consoleManifest()), 'text/html; charset=utf-8', consolePageHeaders(deps.config)),
);
