import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { getDeps } from '../../shared/deps.ts';
import { AppError } from '../../shared/errors.ts';
import { errorResponse } from '../../shared/http/responses.ts';
import { createRouteMatcher } from '../../shared/routing/match.ts';
import { API_BASE_PATH } from '../../shared/http/route-def.ts';
import { routes } from '../routes.ts';

const match = createRouteMatcher(routes);

/** API Gateway's `$default` route: 405 with `Allow` when the path exists under other methods, else 404. */
export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> {
  const { method, path } = event.requestContext.http;
  const now = getDeps().now();
  const routePath = path.startsWith(`${API_BASE_PATH}/`) ? path.slice(API_BASE_PATH.length) : undefined;
  const result = routePath === undefined ? { kind: 'not-found' as const } : match(method, routePath);
  if (result.kind === 'method-not-allowed') {
    const allow = result.allowed.join(', ');
    return errorResponse(
      new AppError(405, `${method} is not allowed on ${path}; allowed: ${allow}`, { headers: { allow } }),
      path,
      now,
    );
  }
  return errorResponse(new AppError(404, `No route matches ${method} ${path}`, { code: 'route_not_found' }), path, now);
}
