import { recoverBody, webhookIdParams } from '../../shared/domain/webhooks/input.ts';
import { presentRecovery, recoverEndpoint } from '../../shared/domain/webhooks/recoveries.ts';
import { recoveryBody } from '../../shared/domain/webhooks/responses.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('webhooks.recover'),
  {
    summary: 'Recover an outage',
    description:
      'Queues one more delivery of every event whose attempts at this endpoint all failed between `since` and `until` (default now; at most the last 30 days) and that was neither delivered since nor recovered before, at most 500 (a window with more is refused: recover it in parts). `to_endpoint_id` sends them to another enabled endpoint of the account instead, e.g. the one replacing a disabled endpoint; events of a type it is not subscribed to are skipped and counted. Deliveries follow every delivery rule, the in-flight limit included.',
    errors: [409],
    params: webhookIdParams,
    body: recoverBody,
    response: recoveryBody,
  },
  async ({ params, body, account }, deps) => presentRecovery(await recoverEndpoint(deps, account.id, params.id, body)),
);
