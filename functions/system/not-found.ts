import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { getDeps } from '../../shared/deps.ts';
import { AppError } from '../../shared/errors.ts';
import { echo } from '../../shared/schema/echo.ts';
import { observeRequests } from '../../shared/http/observe.ts';
import { refuseDirectRequests } from '../../shared/http/origin-check.ts';
import { errorResponse, type HttpResult } from '../../shared/http/responses.ts';
import { API_BASE_PATH } from '../../shared/http/route-def.ts';
import { createRouteMatcher } from '../../shared/routing/match.ts';
import { fallbackRoute, routes } from '../routes.ts';

const match = createRouteMatcher(routes);

/** API Gateway's `$default` route: 405 with `Allow` when the path exists under other methods, else 404. */
function answer(event: APIGatewayProxyEventV2): HttpResult {
  const { method, path } = event.requestContext.http;
  const now = getDeps().now();
  const routePath = path.startsWith(`${API_BASE_PATH}/`) ? path.slice(API_BASE_PATH.length) : undefined;
  const result = routePath === undefined ? { kind: 'not-found' as const } : match(method, routePath);
  if (result.kind === 'method-not-allowed') {
    const allow = result.allowed.join(', ');
    return errorResponse(
      new AppError(405, `${method} is not allowed on ${echo(path)}; allowed: ${allow}`, { headers: { allow } }),
      path,
      now,
    );
  }
  return errorResponse(
    new AppError(404, `No route matches ${method} ${echo(path)}`, { code: 'route_not_found' }),
    path,
    now,
  );
}

// Unmatched requests are requests too: they get the same access line, metric and trace annotation as routed ones,
// so a client probing paths shows up in the 4xx rate and the logs.
export const handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult> = middy<
  APIGatewayProxyEventV2,
  HttpResult
>()
  .use(observeRequests(fallbackRoute, () => undefined).middleware)
  .use({
    before: (request) => refuseDirectRequests(getDeps(), request.event.headers),
    // The origin check is the only thing here that can fail: a refusal, or the origin secret unreadable (a 500).
    onError: (request) => {
      const { error, event } = request;
      if (!(error instanceof AppError)) getDeps().log.error('unhandled error', { path: event.rawPath, error });
      const answer = error instanceof AppError ? error : new AppError(500, 'Internal server error');
      request.response = errorResponse(answer, event.rawPath ?? '', getDeps().now());
    },
  })
  .handler(async (event) => answer(event));
