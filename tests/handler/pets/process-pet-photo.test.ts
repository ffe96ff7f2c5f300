// A pet photo's processing when its notification comes again: a photo made ready by a run that failed to label it is
// labelled then, and one with labels is left alone.
import { S3Client } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeLabeller } from '../../../shared/adapters/local-labeller.ts';
import { getDeps, setDepsForTest } from '../../../shared/deps.ts';
import { processPetPhoto } from '../../../shared/domain/pets/photo-processing.ts';
import { mockDynamoWithAccounts } from '../../support/fixtures.ts';
import { aStoredMedia, serveMedia } from './pet-fixtures.ts';

const s3 = mockClient(S3Client);
const labels = [{ name: 'Dog', confidence: 0.97 }];
const labelsWritten = (ddb: ReturnType<typeof mockDynamoWithAccounts>) =>
  ddb.commandCalls(UpdateCommand).filter((c) => c.args[0].input.ExpressionAttributeValues?.[':labels']);

describe('processing a pet photo that is ready already', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts([]);
    ddb.on(UpdateCommand).resolves({});
    s3.reset();
    setDepsForTest({});
  });

  it('labels its display copy when the run that made it ready ended before its labels were written', async () => {
    const photo = aStoredMedia({ labels: null });
    serveMedia(ddb, photo);
    const labeller = vi.fn(fakeLabeller(labels));

    await processPetPhoto(getDeps(), photo.file, labeller);

    expect(labeller).toHaveBeenCalledWith(getDeps().config.mediaBucket, photo.display_key);
    expect(labelsWritten(ddb)).toHaveLength(1);
    expect(s3.calls()).toHaveLength(0);
  });

  it('leaves a photo with labels as it is', async () => {
    const photo = aStoredMedia({ labels, label_source: 'model' });
    serveMedia(ddb, photo);
    const labeller = vi.fn(fakeLabeller(labels));

    await processPetPhoto(getDeps(), photo.file, labeller);

    expect(labeller).not.toHaveBeenCalled();
    expect(labelsWritten(ddb)).toHaveLength(0);
  });
});
