import { describe, expect, it } from 'vitest';
import { LOCAL_ONLY_SETTINGS, loadConfig } from '../../../shared/config.ts';

const deployed = (settings: Record<string, string>) => ({ TABLE_NAME: 't', STAGE: 'production', ...settings });

describe('local-only settings', () => {
  it('refuse to load on a deployed stage: loopback webhook receivers cannot be switched on there', () => {
    expect(() => loadConfig(deployed({ ALLOW_LOOPBACK_WEBHOOKS: 'true' }))).toThrow(
      'invalid environment: ALLOW_LOOPBACK_WEBHOOKS is for the local stage only (STAGE=production); remove it from the environment',
    );
  });

  it.each(LOCAL_ONLY_SETTINGS)('refuse %s on any stage but the local one, whatever its value', (name) => {
    const value = 'not-true'.repeat(4); // passes TOKEN_SECRET's own length rule, switches nothing on
    for (const stage of ['staging', 'production', 'test'])
      expect(() => loadConfig({ ...deployed({ [name]: value }), STAGE: stage }), stage).toThrow(
        new RegExp(`${name} is for the local stage only \\(STAGE=${stage}\\)`),
      );
  });

  it('are named together when several are set', () => {
    expect(() => loadConfig(deployed({ TOKEN_SECRET: 'x'.repeat(32), LOG_FORMAT: 'readable' }))).toThrow(
      'TOKEN_SECRET, LOG_FORMAT are for the local stage only (STAGE=production); remove them',
    );
  });

  it('load on the local stage, named or by default', () => {
    const local = Object.fromEntries(LOCAL_ONLY_SETTINGS.map((name) => [name, 'true']));
    expect(loadConfig({ TABLE_NAME: 't', STAGE: 'local', ...local, TOKEN_SECRET: 'x'.repeat(32) })).toMatchObject({
      stage: 'local',
      allowLoopbackWebhooks: true,
    });
    expect(loadConfig({ TABLE_NAME: 't', ...local, TOKEN_SECRET: 'x'.repeat(32) }).allowLoopbackWebhooks).toBe(true);
  });

  it('leave a deployed stage without them alone', () => {
    expect(loadConfig(deployed({ TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:x' }))).toMatchObject({
      stage: 'production',
      allowLoopbackWebhooks: false,
    });
  });
});
