// A recovery's progress as its deliveries end, counted by the delivery worker (kept apart from recoveries.ts so the
// worker's bundle carries this one write only).
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../deps.ts';
import { whenConditionFails } from '../../db/errors.ts';
import { webhookRecoveryKey } from '../../db/keys.ts';
import type { DeliveryJob } from './delivery-queue.ts';

/**
 * Counts how a recovery's delivery ended (delivered, or failed for good), at most once per queued event; a repeat of
 * an SQS message past that is not counted again.
 */
export async function countRecoveryOutcome(
  deps: Pick<Deps, 'ddb' | 'config'>,
  recovery: NonNullable<DeliveryJob['recovery']>,
  outcome: 'delivered' | 'failed',
): Promise<void> {
  await whenConditionFails(
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: webhookRecoveryKey(recovery.webhook_id, recovery.id),
        // Conditions cannot add, so `ended` keeps delivered + failed.
        UpdateExpression: 'ADD #outcome :one, ended :one',
        ConditionExpression: 'attribute_exists(pk) AND ended < queued',
        ExpressionAttributeNames: { '#outcome': outcome },
        ExpressionAttributeValues: { ':one': 1 },
      }),
    ),
    () => undefined,
  );
}
