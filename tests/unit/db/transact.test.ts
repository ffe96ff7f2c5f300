import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { CONFLICT_ATTEMPTS, transact } from '../../../shared/db/transact.ts';
import { AppError, conflict } from '../../../shared/errors.ts';
import { cancelled } from '../../support/dynamo-errors.ts';

const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(ddb);
const items = [{ Put: { TableName: 't', Item: { pk: 'a', sk: 'b' } } }];

describe('transact', () => {
  beforeEach(() => mock.reset());

  it('sends a transaction again when only concurrent transactions cancelled it', async () => {
    mock
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('TransactionConflict', 'None'))
      .rejectsOnce(cancelled('None', 'TransactionConflict'))
      .resolves({});

    await transact(ddb, items);

    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });

  it('answers 503 busy with Retry-After once the conflicts outlast its attempts, never a 500', async () => {
    mock.on(TransactWriteCommand).rejects(cancelled('TransactionConflict'));

    const error = await transact(ddb, items).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 503, code: 'busy', headers: { 'retry-after': '1' } });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(CONFLICT_ATTEMPTS);
  });

  it('lets the caller explain a failed condition, and never retries it', async () => {
    mock.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'TransactionConflict'));

    const error = await transact(ddb, items, (reasons) =>
      reasons[0] === 'ConditionalCheckFailed' ? conflict('already there') : undefined,
    ).catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 409, message: 'already there' });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('rethrows a failed condition nobody explains, and other failures, as they are', async () => {
    mock.on(TransactWriteCommand).rejectsOnce(cancelled('ConditionalCheckFailed')).rejectsOnce(new Error('network'));

    await expect(transact(ddb, items)).rejects.toThrow('cancelled');
    await expect(transact(ddb, items)).rejects.toThrow('network');
  });
});
