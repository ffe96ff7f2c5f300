// The list prices and AWS limits the capacity model uses (docs/scale.md). Prices are AWS's us-east-1 list prices, free
// tier ignored, as AWS's pricing pages for each service gave them in November 2026; limits as AWS documents them
// (sources in docs/scale.md). Update them here when AWS changes a price: every figure in docs/scale.md follows.

export const PRICES = {
  /** API Gateway HTTP API, first 300 M requests a month. */
  httpApiPerRequest: 1.0 / 1e6,
  lambdaPerRequest: 0.2 / 1e6,
  /** Lambda duration per GB-second, first tier. */
  lambdaGbSecond: { arm64: 0.0000133334, x86_64: 0.0000166667 },
  /** DynamoDB on demand, per write and read request unit. */
  writeUnit: 0.625 / 1e6,
  readUnit: 0.125 / 1e6,
  /** SQS standard, per request (each 64 KB chunk). */
  sqsRequest: 0.4 / 1e6,
  /** CloudWatch Logs ingestion, per byte. */
  logByte: 0.5 / 1024 ** 3,
  s3Put: 0.005 / 1000,
} as const;

export const LIMITS = {
  /** DynamoDB: one partition serves at most this many units a second; a single item never more. */
  partitionWriteUnits: 1000,
  partitionReadUnits: 3000,
  /** Lambda concurrent executions per account and region (default quota, raised through Service Quotas). */
  accountConcurrency: 1000,
  /** API Gateway requests a second per account and region, across HTTP APIs (default quota, adjustable). */
  accountApiRate: 10_000,
  /** SQS event source: concurrent batches (invocations) one mapping reaches at most. */
  sqsMappingConcurrency: 1000,
} as const;
