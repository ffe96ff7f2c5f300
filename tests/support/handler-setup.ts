// Handler tests run the real pipeline with SDK clients mocked; these are the only settings they need.
import { afterEach } from 'vitest';
import { clearAuthCache } from '../../shared/auth/authenticate.ts';
import { setDepsForTest } from '../../shared/deps.ts';
import { clearReferenceCache } from '../../shared/domain/reference/snapshot-store.ts';
import { clearCatalogueCache } from '../../shared/domain/images/catalogue-store.ts';

process.env.TABLE_NAME = 'test-table';
process.env.REQUESTS_TABLE_NAME = 'test-requests';
process.env.AWS_REGION = 'us-east-1';
process.env.TOKEN_SECRET = 'test-secret-that-is-at-least-32-characters-long';
process.env.STAGE = 'local';
process.env.LOG_LEVEL = 'silent';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
// Presigned URLs (pet media, two-step uploads) are signed in-process, with any credentials.
process.env.AWS_ACCESS_KEY_ID = 'test-access-key';
process.env.AWS_SECRET_ACCESS_KEY = 'test-secret-key';

afterEach(() => {
  clearAuthCache();
  clearReferenceCache();
  clearCatalogueCache();
  setDepsForTest(undefined);
});
