// The local API Gateway: turns HTTP requests into the HTTP API (payload 2.0) events that AWS sends, picks the
// route from the same route table the CDK app deploys, and invokes the handlers in-process.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyResultV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import { fallbackRoute, routes } from '../../functions/routes.ts';
import { API_BASE_PATH, type RouteDef } from '../../shared/http/route-def.ts';
import { createRouteMatcher } from '../../shared/routing/match.ts';
import { CORS } from '../../shared/http/cors.ts';
import { errorResponse } from '../../shared/http/responses.ts';
import { AppError } from '../../shared/errors.ts';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

const FUNCTIONS_DIR = join(import.meta.dirname, '..', '..', 'functions');
/** API Gateway's payload limit; larger requests never reach a function. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const TEXT_TYPES = /^(text\/|application\/(json|xml|x-www-form-urlencoded|.*\+json|.*\+xml))/i;

export interface GatewayOptions {
  port: number;
  host?: string;
}

export function createGateway() {
  const match = createRouteMatcher(routes);
  const modules = new Map<string, Promise<LambdaHandler>>();

  const load = (route: RouteDef) => {
    let handler = modules.get(route.entry);
    if (!handler) {
      // Loaded on first use, so a broken handler only breaks its own route.
      handler = import(pathToFileURL(join(FUNCTIONS_DIR, `${route.entry}.ts`)).href).then(
        (m: { handler: LambdaHandler }) => m.handler,
      );
      modules.set(route.entry, handler);
    }
    return handler;
  };

  async function invoke(
    req: IncomingMessage,
    body: Buffer,
    requestId: string,
  ): Promise<APIGatewayProxyStructuredResultV2> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const routePath = url.pathname.startsWith(`${API_BASE_PATH}/`)
      ? url.pathname.slice(API_BASE_PATH.length)
      : undefined;
    const found = routePath === undefined ? undefined : match(method, routePath);
    const route = found?.kind === 'route' ? found.route : fallbackRoute;
    const pathParameters = found?.kind === 'route' ? found.pathParameters : undefined;
    const event = toEvent(
      req,
      url,
      method,
      body,
      route === fallbackRoute ? '$default' : `${route.method} ${API_BASE_PATH}${route.path}`,
      pathParameters,
      requestId,
    );
    const handler = await load(route);
    const result = await handler(event, lambdaContext(route, requestId));
    return typeof result === 'string' ? { statusCode: 200, body: result } : result;
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // API Gateway names every request in `apigw-requestid`; clients quote it (the SDK's PetApiError.requestId).
    const requestId = randomUUID();
    const answerHeaders = { ...CORS.responseHeaders, 'apigw-requestid': requestId };
    try {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          ...CORS.preflightHeaders,
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? CORS.allowHeaders,
        });
        res.end();
        return;
      }
      const rawPath = (req.url ?? '/').split('?')[0]!;
      if (hasDotSegment(rawPath)) {
        // Refused before matching: `/v1/images/../health` must not reach another route (URL parsing would resolve it).
        const error = new AppError(400, 'The path must not contain . or .. segments', { code: 'invalid_path' });
        const result = errorResponse(error, rawPath, new Date());
        res.writeHead(400, { ...answerHeaders, ...result.headers });
        res.end(result.body);
        return;
      }
      const body = await readBody(req);
      if (body === undefined) {
        // The rest of the upload is not read, so the connection is closed once the answer is sent.
        const result = errorResponse(payloadTooLarge(), rawPath, new Date());
        res.writeHead(413, { ...answerHeaders, ...result.headers, connection: 'close' });
        res.end(result.body, () => req.socket.destroy());
        return;
      }
      const result = await invoke(req, body, requestId);
      const status = result.statusCode ?? 200;
      const headers: Record<string, string | string[]> = {
        ...answerHeaders,
        ...(result.headers as Record<string, string>),
      };
      if (result.cookies?.length) headers['set-cookie'] = result.cookies;
      const payload = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? '');
      // As API Gateway does: the length, not chunked framing (writeHead fixes the framing before the body is known).
      if (status !== 204 && status !== 304) headers['content-length'] = String(Buffer.byteLength(payload));
      res.writeHead(status, headers);
      res.end(payload);
    } catch (error) {
      // What API Gateway answers when the integration itself fails.
      console.error('local gateway: handler crashed', error);
      res.writeHead(500, { 'content-type': 'application/json', ...answerHeaders });
      res.end(JSON.stringify({ message: 'Internal Server Error' }));
    }
  };
}

export async function startGateway(
  options: GatewayOptions,
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const handle = createGateway();
  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${options.port} (PORT) is already in use`) : error),
    );
    server.listen(options.port, host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    server,
    url: `http://${host}:${port}${API_BASE_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function toEvent(
  req: IncomingMessage,
  url: URL,
  method: string,
  body: Buffer,
  routeKey: string,
  pathParameters: Record<string, string> | undefined,
  requestId: string,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // Payload 2.0 joins repeated query parameters with commas.
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const now = new Date();
  const isText = TEXT_TYPES.test(headers['content-type'] ?? '');
  const cookies = req.headers.cookie?.split(';').map((c) => c.trim());
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies && { cookies }),
    headers,
    ...(Object.keys(query).length > 0 && { queryStringParameters: query }),
    ...(pathParameters && Object.keys(pathParameters).length > 0 && { pathParameters }),
    ...(body.length > 0 && { body: isText ? body.toString('utf8') : body.toString('base64') }),
    isBase64Encoded: body.length > 0 && !isText,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

function lambdaContext(route: RouteDef, requestId: string): Context {
  const started = Date.now();
  const fail = () => {
    throw new Error('callback-style completion is not used');
  };
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `local-${route.id}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:local-${route.id}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: '/local/pet-api',
    logStreamName: route.id,
    getRemainingTimeInMillis: () => Math.max(0, 30_000 - (Date.now() - started)),
    done: fail,
    fail,
    succeed: fail,
  };
}

const EMPTY = Buffer.alloc(0);

/** API Gateway's payload limit, answered in the spec's error shape (deployed, an HTTP API answers it itself). */
const payloadTooLarge = () =>
  new AppError(413, `The request body must be at most ${MAX_BODY_BYTES} bytes`, {
    code: 'payload_too_large',
    details: { limit_bytes: MAX_BODY_BYTES },
  });

/** Whether a raw request path has a `.` or `..` segment, also percent-encoded (`%2e%2E`). */
export function hasDotSegment(rawPath: string): boolean {
  return DOT_SEGMENT.test(rawPath);
}
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  // Most requests are bodiless GETs: skip the stream machinery for them.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return EMPTY;
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
