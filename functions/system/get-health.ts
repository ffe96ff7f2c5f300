import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { healthKey } from '../../shared/db/keys.ts';
import { serviceUnavailable } from '../../shared/errors.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import * as z from 'zod/mini';
import { documented } from '../../shared/schema/api-docs.ts';

/** Readiness probe: answers 200 only when the table can be read. */
const healthBody = z.object({
  status: z.literal('ok'),
  stage: documented(z.string(), { description: 'The deployment stage (`local`, `staging`, `production`).' }),
  time: documented(z.string(), { description: 'The server clock (ISO 8601).' }),
});

export const handler = httpRoute(
  route('health.get'),
  {
    summary: 'Readiness',
    description: 'Answers 200 only when the table can be read; 503 `dependency_unavailable` otherwise.',
    errors: [503],
    response: healthBody,
  },
  async (_request, deps) => {
    try {
      await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: healthKey() }));
    } catch (error) {
      deps.log.error('health check failed', { error });
      throw serviceUnavailable('The data store is not reachable', { code: 'dependency_unavailable' });
    }
    return { status: 'ok' as const, stage: deps.config.stage, time: deps.now().toISOString() };
  },
);
