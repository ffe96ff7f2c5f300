// The single table's physical shape, shared by the CDK app and the local bootstrap so the two cannot differ.
export const TABLE_KEY = { partitionKey: 'pk', sortKey: 'sk' } as const;

export const INDEXES = {
  gsi1: { partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
} as const;

/** Epoch-seconds attribute that DynamoDB's TTL sweeper reads. */
export const TTL_ATTRIBUTE = 'expiresAt';

/**
 * The requests table: short-lived records about requests rather than data (idempotency records, rate-limit windows),
 * kept out of the single table so they never reach its stream and the event router. Key and TTL attribute are the
 * defaults of the Powertools idempotency persistence layer (shared/http/idempotency.ts).
 */
export const REQUESTS_TABLE = { partitionKey: 'id', ttlAttribute: 'expiration' } as const;
