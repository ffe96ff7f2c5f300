// Reads the local table directly: how many items of a pet's partition start with a sort-key prefix, whatever the API says.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { petPartition } from '../../shared/db/keys.ts';

export async function petItemCount(petId: string, skPrefix: string): Promise<number> {
  const env = inject('localEnv');
  const ddb = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const { Count } = await ddb.send(
    new QueryCommand({
      TableName: env.TABLE_NAME,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': petPartition(petId), ':prefix': skPrefix },
      ConsistentRead: true,
    }),
  );
  ddb.destroy();
  return Count ?? 0;
}
