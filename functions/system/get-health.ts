import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { healthKey } from '../../shared/db/keys.ts';
import { serviceUnavailable } from '../../shared/errors.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('health.get'),
  {
    summary: 'Readiness',
    description: 'Answers 200 only when the table can be read; 503 `dependency_unavailable` otherwise.',
    errors: [503],
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
