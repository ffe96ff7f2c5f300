// The pipeline's observability, as one middleware: a request-scoped logger (request id, route id, and the account
// once authenticated: never its key), one access line per request (method, path, status, milliseconds), the
// `Requests` metric by route and status class, and the route as an X-Ray annotation of sampled requests.
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { getDeps } from '../deps.ts';
import type { Logger } from '../log.ts';
import { METRIC, recordMetric, traceIfSampled } from '../observability.ts';
import type { HttpResult } from './responses.ts';
import type { RouteDef } from './route-def.ts';

type Event = APIGatewayProxyEventV2;

export function observeRequests(route: RouteDef, accountIdOf: (event: Event) => string | undefined) {
  const requests = new WeakMap<Event, { started: number; log: Logger; account?: { id: string; log: Logger } }>();

  /** The logger of this request: its lines carry the request id, route id and, once known, account id. */
  const logFor = (event: Event, context: Context): Logger => {
    let request = requests.get(event);
    if (!request) {
      request = {
        started: performance.now(),
        log: getDeps().log.child({ request_id: context.awsRequestId, route: route.id }),
      };
      requests.set(event, request);
    }
    const accountId = accountIdOf(event);
    if (!accountId) return request.log;
    if (request.account?.id !== accountId)
      request.account = { id: accountId, log: request.log.child({ account_id: accountId }) };
    return request.account.log;
  };

  const record = (request: middy.Request<Event, HttpResult>) => {
    const { event, context } = request;
    const log = logFor(event, context);
    const status = request.response?.statusCode ?? 500;
    const ms = Math.round(performance.now() - requests.get(event)!.started);
    const method = event.requestContext?.http?.method ?? 'GET';
    const path = event.rawPath ?? '';
    log.info(`${method} ${path} ${status} ${ms} ms`, { method, path, status, ms });
    recordMetric(METRIC.requests, { route: route.id, status_class: `${Math.floor(status / 100)}xx` });
  };

  const middleware: middy.MiddlewareObj<Event, HttpResult> = {
    before: async (request) => {
      logFor(request.event, request.context);
      (await traceIfSampled())?.putAnnotation('route', route.id);
    },
    after: record,
    onError: record,
  };
  return { middleware, logFor };
}
