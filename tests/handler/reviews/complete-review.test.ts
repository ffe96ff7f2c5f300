import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/reviews/complete-review.ts';
import { jsonBody } from '../../support/http-event.ts';
import { ADMIN_KEY, call, mockReviewTable, NOW, OWNER_KEY, serveReview, VET_KEY } from './review-fixtures.ts';
import { cancelled, conditionFailsOn } from '../../support/dynamo-errors.ts';
import { allWrites, writeTo } from '../../support/dynamo-writes.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { aRecord } from '../../support/factories/records.ts';
import { pendingReviewKey, petKey, petRecordKey, reviewKey } from '../../../shared/db/keys.ts';

const complete = (body: unknown, key = VET_KEY) =>
  call(handler, key, { method: 'POST', path: '/reviews/rev-1/complete', pathParameters: { id: 'rev-1' }, body });

describe('POST /reviews/{id}/complete', () => {
  let ddb: ReturnType<typeof mockReviewTable>;
  beforeEach(() => {
    ddb = mockReviewTable();
    serveReview(ddb);
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('completes a pending review with the vet’s score, its category and notes', async () => {
    const result = await complete({ score: 5, notes: 'Ideal: ribs palpable, waist visible' });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      id: 'rev-1',
      status: 'completed',
      score: 5,
      category: 'ideal',
      notes: 'Ideal: ribs palpable, waist visible',
      reason: null,
      decided_at: NOW.toISOString(),
      analysis: { score: 7 },
    });
  });

  it('writes the decision on the condition that the review is pending and removes the pet’s marker with it', async () => {
    await complete({ score: 6 }, ADMIN_KEY);

    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(writeTo(ddb, reviewKey('pet-1', 'rev-1'))).toMatchObject({
      update: {
        status: 'completed',
        score: 6,
        category: 'overweight',
        reason: null,
        decided_at: NOW.toISOString(),
        decided_by: 'acc-admin',
      },
      conditionValues: ['pending'],
    });
    expect(writeTo(ddb, pendingReviewKey('pet-1'))).toMatchObject({ delete: true, conditionValues: ['rev-1'] });
  });

  it('keeps the decision as a record of the pet in the same transaction, with the photo hashes of the analysis record', async () => {
    ddb.on(GetCommand, { Key: petRecordKey('pet-1', 'an-1') } as never).resolves({
      Item: { record: aRecord(0, { id: 'an-1' }) },
    });

    await complete({ score: 5, notes: 'Ideal' });

    expect(writeTo(ddb, petRecordKey('pet-1', 'rev-new')).put?.record).toEqual({
      id: 'rev-new',
      pet_id: 'pet-1',
      type: 'bcs_review',
      created_at: NOW.toISOString(),
      result: {
        review_id: 'rev-1',
        status: 'completed',
        score: 5,
        category: 'ideal',
        notes: 'Ideal',
        reason: null,
        requested_at: '2026-11-24T09:00:00.000Z',
        analysis: expect.objectContaining({ score: 7, explanation: 'Waist barely visible', image_ids: ['ph-1'] }),
      },
      inputs: [
        { kind: 'analysis', id: 'an-1', sha256: null },
        { kind: 'photo', id: 'ph-1', sha256: 'a'.repeat(64) },
      ],
      provider: null,
      model_id: null,
      method_version: null,
      lang: null,
      season: null,
      country: null,
      asked_by: { account_id: 'acc-user', sub_id: 'user-1' },
      vet: { account_id: 'acc-vet', decision: 'completed' },
    });
    // Only while the pet exists, and in the one transaction that decides.
    expect(writeTo(ddb, petKey('pet-1')).check).toBe(true);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('names the decision’s record in the decided review (the response, and the pet.bcs.reviewed it commits)', async () => {
    const result = await complete({ score: 5 });

    expect(jsonBody(result).record_id).toBe('rev-new');
    expect(writeTo(ddb, reviewKey('pet-1', 'rev-1')).update).toMatchObject({ record_id: 'rev-new' });
    expect(writeTo(ddb, petRecordKey('pet-1', 'rev-new')).put?.record).toMatchObject({ id: 'rev-new' });
  });

  it('offers the same record again after a cancelled write: a retried decision cannot add a second record', async () => {
    let ids = 0;
    setDepsForTest({ newId: () => `rec-${++ids}`, now: () => NOW });
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('TransactionConflict', 'None', 'None', 'None'))
      .resolves({});

    const result = await complete({ score: 5 });

    expect(result.statusCode).toBe(200);
    const records = allWrites(ddb).filter((w) => String(w.key.sk).startsWith('RECORD#'));
    expect(records.map((w) => w.key)).toEqual([petRecordKey('pet-1', 'rec-1'), petRecordKey('pet-1', 'rec-1')]);
    expect(jsonBody(result).record_id).toBe('rec-1');
  });

  it('answers 409 naming the status when the review was already decided (the other vet won)', async () => {
    serveReview(ddb, { status: 'rejected', reason: 'Too dark' });
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(reviewKey('pet-1', 'rev-1')));

    const result = await complete({ score: 5 });

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toMatchObject({ code: 'review_not_pending', review_id: 'rev-1', status: 'rejected' });
  });

  it('decides again after a concurrent transaction cancelled the write: then the other decision shows as 409', async () => {
    serveReview(ddb, { status: 'completed', score: 8 });
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('TransactionConflict', 'TransactionConflict'))
      .callsFake(conditionFailsOn(reviewKey('pet-1', 'rev-1')));

    const result = await complete({ score: 5 });

    expect(result.statusCode).toBe(409);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('answers 503 busy, to be retried, when concurrent transactions keep cancelling the write', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('TransactionConflict', 'None'));

    const result = await complete({ score: 5 });

    expect(result.statusCode).toBe(503);
    expect(result.headers['retry-after']).toBe('1');
    expect(jsonBody(result).code).toBe('busy');
  });

  it('answers 404 when the pet (and so the review) was deleted meanwhile', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(pendingReviewKey('pet-1')));

    expect((await complete({ score: 5 })).statusCode).toBe(404);
  });

  it('answers 404 when only the pet item was gone at the decision: nothing is decided and no record is kept', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(petKey('pet-1')));

    expect((await complete({ score: 5 })).statusCode).toBe(404);
  });

  it('answers 400 for a score outside 1–9 or not whole, over-long notes or unknown fields', async () => {
    for (const body of [{ score: 0 }, { score: 10 }, { score: 4.5 }, {}, { score: 5, notes: 'x'.repeat(2001) }]) {
      expect((await complete(body)).statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    const unknown = await complete({ score: 5, verdict: 'fine' });
    expect(unknown.statusCode).toBe(400);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 403 to a non-vet', async () => {
    expect((await complete({ score: 5 }, OWNER_KEY)).statusCode).toBe(403);
  });
});
