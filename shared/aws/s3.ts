import { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';

let client: S3Client | undefined;

/**
 * One S3 client per container, imported only by the functions that touch media. Checksums only where required:
 * presigned PUT URLs then carry no checksum of an empty body that real S3 would hold against the upload.
 */
export function s3Client(config: Pick<Config, 's3Endpoint'>): S3Client {
  client ??= new S3Client({
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...(config.s3Endpoint && { endpoint: config.s3Endpoint, forcePathStyle: true }),
  });
  return client;
}
