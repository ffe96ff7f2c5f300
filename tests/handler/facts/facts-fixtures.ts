// Handler-test fixtures of the facts routes: one fact catalogue and two breeds served by the mocked table, and the
// call every facts route test makes (a GET under the user's API key).
import { mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { callWithKey, jsonBody } from '../../support/http-event.ts';
import { aBreed, aFact, serveReferenceData } from '../../support/reference-fixtures.ts';
import type { FactRecord } from '../../../shared/domain/reference/records.ts';

/**
 * 25 facts f00–f24: even numbers about dogs, odd about cats; f00–f02 about beagles; every fifth about anatomy, the
 * rest history; f00 alone translated into German. The pug has no facts.
 */
export const FACTS: FactRecord[] = Array.from({ length: 25 }, (_, i) =>
  aFact({
    id: `f${String(i).padStart(2, '0')}`,
    species_id: i % 2 === 0 ? 'dog' : 'cat',
    breed_id: i < 3 ? 'beagle' : null,
    category: i % 5 === 0 ? 'anatomy' : 'history',
    ...(i === 0 && { i18n: { de: { title: 'Titel', fact: 'Tatsache' } } }),
  }),
);

/** The mocked table serves the user's account, `facts` and the beagle and pug breeds. */
export function serveFacts(facts: FactRecord[] = FACTS): void {
  serveReferenceData(mockDynamoWithAccounts(standardAccounts()), {
    facts,
    breeds: [aBreed({ id: 'beagle', name: 'Beagle' }), aBreed({ id: 'pug', name: 'Pug' })],
  });
}

export const getWithKey = (
  handler: (e: any, c: any) => Promise<any>,
  path: string,
  query?: Record<string, string>,
  pathParameters?: Record<string, string>,
) => callWithKey(handler, USER_KEY, path, query, pathParameters);

export const factIds = (result: unknown): string[] => jsonBody(result).map((f: { id: string }) => f.id);
