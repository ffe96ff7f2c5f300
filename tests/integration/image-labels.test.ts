// Labels are written once, on DynamoDB Local: the condition of writeLabels, not a read before it, keeps an image
// deleted while it was being labelled deleted (a ghost item would answer GET /images/{id} with 200 and no file).
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { imageKey } from '../../shared/db/keys.ts';
import { writeLabels } from '../../shared/domain/images/processing.ts';
import { depsOnLocalStack } from '../support/unreachable-store.ts';

const deps = depsOnLocalStack();
const TableName = deps.config.tableName;
afterAll(() => deps.ddb.destroy());

const read = async (id: string) =>
  (await deps.ddb.send(new GetCommand({ TableName, Key: imageKey(id), ConsistentRead: true }))).Item;
const first = { labels: [{ name: 'Dog', confidence: 0.97 }], source: 'test-model' };
const second = { labels: [{ name: 'Cat', confidence: 0.91 }], source: 'other-model' };

describe('labelling an approved upload', () => {
  it('writes nothing for an image deleted while it was being labelled', async () => {
    const id = `labels-gone-${Date.now()}`;

    await writeLabels(deps, id, first);

    expect(await read(id)).toBeUndefined();
  });

  it('labels an image once: a repeated delivery keeps the first labels', async () => {
    const id = `labels-once-${Date.now()}`;
    await deps.ddb.send(new PutCommand({ TableName, Item: { ...imageKey(id), id, labels: null } }));

    await writeLabels(deps, id, first);
    await writeLabels(deps, id, second);

    expect(await read(id)).toMatchObject({ labels: first.labels, label_source: 'test-model' });
  });
});
