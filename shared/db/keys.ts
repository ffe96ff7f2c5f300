// Key builders: the only place that spells entity prefixes. See docs/ARCHITECTURE.md#access-patterns.

export const accountKey = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' });

/** All accounts, newest last: the operator's list (gsi1). */
export const accountListKey = (createdAt: string, accountId: string) => ({
  gsi1pk: 'ACCOUNTS',
  gsi1sk: `${createdAt}#${accountId}`,
});
export const ACCOUNT_LIST_PARTITION = 'ACCOUNTS';

export const apiKeyKey = (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' });

/** Sentinel item the readiness probe reads. */
export const healthKey = () => ({ pk: 'HEALTH', sk: 'HEALTH' });

/** Which snapshot version of a reference data set is current. */
export const refPointerKey = (set: string) => ({ pk: `REFDATA#${set}`, sk: 'CURRENT' });
/** The chunks of one snapshot version, in order. */
export const refChunkPartition = (set: string, version: string) => `REFDATA#${set}#${version}`;
export const refChunkKey = (set: string, version: string, index: number) => ({
  pk: refChunkPartition(set, version),
  sk: `CHUNK#${String(index).padStart(4, '0')}`,
});

/** One posting (an image summary at an ordinal) of a catalogue facet, within one index version. */
export const imageFacetPartition = (version: string, facet: string) => `IMGIDX#${version}#${facet}`;
export const imagePostingKey = (version: string, facet: string, ordinal: string) => ({ pk: imageFacetPartition(version, facet), sk: ordinal });
