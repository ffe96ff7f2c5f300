// Idempotency records as `@aws-lambda-powertools/idempotency` 2.35.0 (DynamoDBPersistenceLayer, the implementation
// before shared/http/idempotency.ts) wrote them, captured from DynamoDB Local as the table holds them (marshalled),
// with the requests that wrote them. Records of the last 24 hours before a deploy must keep working after it:
// tests/unit/http/idempotency.test.ts derives the same ids and hashes, tests/integration/idempotency-records.test.ts
// replays them. Captured with the invocation's remaining time at 29 s, at CAPTURED_AT.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { RequestFingerprint } from '../../shared/http/idempotency.ts';

/** When the records were written (epoch ms): their `expiration` and `in_progress_expiration` count from here. */
export const CAPTURED_AT = 1795604838844;
/** The remaining time the claiming invocations had: `in_progress_expiration` is about CAPTURED_AT plus this. */
export const REMAINING_MS = 29_000;

export interface CapturedRecord {
  routeId: string;
  accountId: string;
  key: string;
  request: RequestFingerprint;
  /** The item as stored. */
  item: Record<string, AttributeValue>;
}

const voteRequest: RequestFingerprint = {
  params: {},
  query: {},
  // mixed-case and nested keys: Powertools sorts keys case-insensitively at every depth before hashing
  body: { image_id: 'img-Zq9', value: 1, sub_id: 'fixture-sub', Zeta: 'z', alpha: ['b', { Y: 2, x: 1 }], Beta: null },
  form: undefined,
};

/** A vote answered 200: COMPLETED, with the answer in `data`. */
export const completedVote: CapturedRecord = {
  routeId: 'votes.create',
  accountId: 'acc-fixture-1',
  key: 'fixture-key-0001',
  request: voteRequest,
  item: {
    id: { S: 'votes.create#0cT5yJW8p+YelAyxS7saIHdkr9xrlEAteOWoqyXE4tw=' },
    status: { S: 'COMPLETED' },
    expiration: { N: '1795691239' },
    in_progress_expiration: { N: '1795604867846' },
    validation: { S: '+0GlMmteLGTJX7y+8HUKJN3L5xcGMV7Tgm7ESu1Z13k=' },
    data: {
      M: {
        body: { S: '{"id":"vote-fixture-1","image_id":"img-Zq9","value":1,"message":"SUCCESS"}' },
        headers: { M: { 'content-type': { S: 'application/json' } } },
        statusCode: { N: '200' },
      },
    },
  },
};

/** A vote the domain refused (400): stored like a success. */
export const storedRefusal: CapturedRecord = {
  routeId: 'votes.create',
  accountId: 'acc-fixture-1',
  key: 'fixture-key-0002',
  request: { ...voteRequest, body: { image_id: 'missing', value: 0 } },
  item: {
    id: { S: 'votes.create#HbDT2Nup5eveLfUwUpv97lVThahsE314RQXcx5x2r2s=' },
    status: { S: 'COMPLETED' },
    expiration: { N: '1795691239' },
    in_progress_expiration: { N: '1795604868145' },
    validation: { S: 'GNX3lCFo6iZ4i6vki9nES2iwRJDWs6IsoJ/8+jT4wME=' },
    data: {
      M: {
        body: { S: '{"statusCode":400,"code":"image_not_found"}' },
        headers: { M: { 'content-type': { S: 'application/json' } } },
        statusCode: { N: '400' },
      },
    },
  },
};

/** A multipart pet creation still running (captured inside the route): INPROGRESS, no `data`. */
export const inProgressUpload: CapturedRecord = {
  routeId: 'pets.create',
  accountId: 'acc-fixture-2',
  key: 'Fixture:Key/0003',
  request: {
    params: {},
    query: { dryRun: 'false' },
    body: {},
    form: {
      fields: { name: 'Rex', species_id: 'dog', Breed_ids: 'b1,b2' },
      files: [
        {
          field: 'photo',
          filename: 'rex.jpg',
          declaredType: 'image/jpeg',
          bytes: Buffer.from('not really a jpeg, but bytes'),
          truncated: false,
        },
      ],
    },
  },
  item: {
    id: { S: 'pets.create#/NRiDQnh6ACDosP2SumtPYcOsbx5pUbIdPLPSsbh1Io=' },
    status: { S: 'INPROGRESS' },
    expiration: { N: '1795691239' },
    in_progress_expiration: { N: '1795604868203' },
    validation: { S: 'ey+slxDyeAYn8LSfyQGhwnDh8B2SSQ1qDXm1BIxgavE=' },
  },
};
