import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { adminKey, api } from '../support/api-client.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
// The script bounds its own waits (60 s for the webhook, 90 s for the photo); this is the test's outer bound.
const SMOKE_TIMEOUT_MS = 180_000;

/** `npm run smoke` as a child process: its exit code and output. */
async function smoke(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/smoke/run.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, PET_API_ADMIN_KEY: '', NODE_NO_WARNINGS: '1', ...env },
      timeout: SMOKE_TIMEOUT_MS,
    });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const lines = (stdout: string) => stdout.trim().split('\n');

/** The account the run made (from its line), as the admin overview shows it after the run. */
async function madeAccount(stdout: string) {
  const id = /create an account \(admin key\): account (\S+)/.exec(stdout)?.[1];
  return (await api('GET', `/accounts/${id}/overview`, { key: adminKey() })).body;
}

describe('npm run smoke against the local stack', () => {
  it(
    'passes every check with a receiver of its own, and leaves its account inactive and empty',
    async () => {
      const result = await smoke(['--base-url', inject('baseUrl'), '--admin-key', adminKey()]);

      expect(result.code, result.stdout).toBe(0);
      expect(lines(result.stdout).filter((l) => l.startsWith('FAIL'))).toEqual([]);
      expect(lines(result.stdout).at(-1)).toMatch(/^[1-9]\d* passed, 0 failed$/);
      expect(result.stdout).toContain('ok    webhook vote.created received and verified');
      expect(result.stdout).toContain('ok    read GET /breeds/bans/country');
      expect(result.stdout).toContain("ok    auth: a deactivated account's key is 401");
      expect(await madeAccount(result.stdout)).toMatchObject({
        account: { status: 'inactive' },
        counts: { votes: 0, favourites: 0, images: 0, pets: 0, webhooks: 0 },
      });
    },
    SMOKE_TIMEOUT_MS,
  );

  it(
    'finds the delivery in the delivery log with --no-receiver, the admin key from PET_API_ADMIN_KEY',
    async () => {
      const result = await smoke(['--base-url', inject('baseUrl'), '--no-receiver'], { PET_API_ADMIN_KEY: adminKey() });

      expect(result.code, result.stdout).toBe(0);
      expect(result.stdout).toContain('ok    webhook vote.created in the delivery log');
      expect(lines(result.stdout).at(-1)).toMatch(/^[1-9]\d* passed, 0 failed$/);
    },
    SMOKE_TIMEOUT_MS,
  );

  it(
    'cleans up after a check fails midway: the webhook is refused, the vote and the pet are still removed',
    async () => {
      const result = await smoke([
        ...['--base-url', inject('baseUrl'), '--admin-key', adminKey()],
        ...['--no-receiver', '--webhook-url', 'http://example.com/hook'],
      ]);

      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^FAIL {2}register a webhook for vote.created: .*invalid_webhook_url/m);
      expect(result.stdout).toMatch(/^ok {4}clean up: delete the vote/m);
      expect(lines(result.stdout).at(-1)).toMatch(/^\d+ passed, 2 failed$/);
      expect(await madeAccount(result.stdout)).toMatchObject({
        account: { status: 'inactive' },
        counts: { votes: 0, pets: 0, webhooks: 0 },
      });
    },
    SMOKE_TIMEOUT_MS,
  );

  it('reports failed checks and exits 1 when the admin key is refused; 2 on a usage error', async () => {
    const refused = await smoke(['--base-url', inject('baseUrl'), '--admin-key', 'live_not-an-admin-key']);
    const usage = await smoke(['--base-url', inject('baseUrl')]);

    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^FAIL {2}create an account \(admin key\): POST \/accounts: expected 201, got 403/m);
    expect(lines(refused.stdout).at(-1)).toMatch(/^\d+ passed, [1-9]\d* failed$/);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('--admin-key') });
  });
});
