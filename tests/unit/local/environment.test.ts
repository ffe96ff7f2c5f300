import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../shared/config.ts';
import { createLogger } from '../../../shared/log.ts';
import { serviceName } from '../../../shared/observability.ts';
import { localServiceEnvironment } from '../../../scripts/local/environment.ts';

const stack = { env: { TABLE_NAME: 'pet-api-local' }, mediaBaseUrl: 'http://127.0.0.1:4567' };

describe("the local service's environment", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('names the service in every log line as the deployed stages name theirs (PetApi-<stage>), not service_undefined', () => {
    vi.stubEnv('LOG_FORMAT', 'json'); // Powertools' JSON lines instead of the readable ones
    vi.stubEnv('LOG_LEVEL', 'INFO');
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', undefined);
    for (const [name, value] of Object.entries(localServiceEnvironment(stack, false))) vi.stubEnv(name, value);
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });

    createLogger().info('GET /v1/health 200 1 ms');

    expect(JSON.parse(written[0]!)).toMatchObject({ service: 'PetApi-local', message: 'GET /v1/health 200 1 ms' });
    expect(serviceName('production')).toBe('PetApi-production');
  });

  it('loads as the local stage, its local-only switches on', () => {
    const config = loadConfig(localServiceEnvironment(stack, false));

    expect(config).toMatchObject({ stage: 'local', allowLoopbackWebhooks: true, tableName: 'pet-api-local' });
    expect(config.webhookSecretKey).toBeDefined();
  });
});
