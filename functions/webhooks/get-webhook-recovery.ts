import { recoveryParams } from '../../shared/domain/webhooks/input.ts';
import { getRecovery, presentRecovery } from '../../shared/domain/webhooks/recoveries.ts';
import { recoveryBody } from '../../shared/domain/webhooks/responses.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('webhooks.recovery'),
  {
    summary: 'Progress of a recovery',
    description: 'How many of the recovered events were queued, delivered and failed; kept 30 days.',
    params: recoveryParams,
    response: recoveryBody,
  },
  async ({ params, account }, deps) =>
    presentRecovery(await getRecovery(deps, account.id, params.id, params.recoveryId)),
);
