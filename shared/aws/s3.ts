import { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import { traced } from '../observability.ts';

let client: { endpoint: string | undefined; s3: S3Client } | undefined;

/**
 * One S3 client per container, imported only by the functions that touch media. Checksums only where required:
 * presigned PUT URLs then carry no checksum of an empty body that real S3 would hold against the upload.
 */
export function s3Client(config: Pick<Config, 's3Endpoint'>): S3Client {
  // Keyed by endpoint: a local process that restarts its emulators (the benchmarks) gets a fresh client.
  if (!client || client.endpoint !== config.s3Endpoint) {
    client = {
      endpoint: config.s3Endpoint,
      s3: traced(
        new S3Client({
          requestChecksumCalculation: 'WHEN_REQUIRED',
          ...(config.s3Endpoint && { endpoint: config.s3Endpoint, forcePathStyle: true }),
        }),
      ),
    };
  }
  return client.s3;
}
