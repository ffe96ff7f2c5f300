import { describe, expect, it } from 'vitest';
import { applyDecision, presentReview } from '../../../shared/domain/reviews/review.ts';
import { aStoredReview } from '../../support/fixtures.ts';

const AT = new Date('2026-11-24T12:00:00.000Z');
const BY = { vetId: 'acc-vet', at: AT, recordId: 'rec-1' };

describe('review decisions', () => {
  it('a completed review carries the vet’s score, its WSAVA category and the notes', () => {
    const decided = applyDecision(aStoredReview(), { status: 'completed', score: 3, notes: 'Thin' }, BY);

    expect(decided).toMatchObject({
      status: 'completed',
      score: 3,
      category: 'underweight',
      notes: 'Thin',
      reason: null,
      decided_at: AT.toISOString(),
      decided_by: 'acc-vet',
      record_id: 'rec-1',
      analysis: { score: 7, category: 'overweight' },
    });
  });

  it.each([
    [1, 'underweight'],
    [4, 'ideal'],
    [5, 'ideal'],
    [6, 'overweight'],
    [7, 'overweight'],
    [8, 'obese'],
    [9, 'obese'],
  ])('score %i is %s', (score, category) => {
    expect(applyDecision(aStoredReview(), { status: 'completed', score, notes: null }, BY).category).toBe(category);
  });

  it('a rejected review carries the reason and no score', () => {
    const decided = applyDecision(aStoredReview(), { status: 'rejected', reason: 'Too dark' }, BY);

    expect(decided).toMatchObject({ status: 'rejected', reason: 'Too dark', score: null, category: null, notes: null });
  });

  it('the response leaves out the owner’s and the vet’s accounts', () => {
    const presented = presentReview(aStoredReview({ decided_by: 'acc-vet' }));

    expect(presented).not.toHaveProperty('account_id');
    expect(presented).not.toHaveProperty('decided_by');
    expect(presented).toMatchObject({ id: 'rev-1', sub_id: 'user-1', external_owner_id: 'owner-1' });
  });
});
