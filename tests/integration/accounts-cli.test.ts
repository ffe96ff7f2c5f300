import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/local/ports.ts';
import { api, createAccount } from '../support/api-client.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

const localPort = () => new URL(inject('localEnv').AWS_ENDPOINT_URL_DYNAMODB!).port;

function runCli(args: string[], port = localPort()) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/accounts.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DYNAMODB_LOCAL_PORT: port, NODE_NO_WARNINGS: '1' },
  });
}

async function cli(...args: string[]) {
  return JSON.parse((await runCli(args)).stdout);
}

describe('the operator CLI against the local stack', () => {
  it('creates an account whose key the API accepts, updates it and lists it', async () => {
    const created = await cli(
      'create',
      '--name',
      'CLI account',
      '--features',
      'full_breed_schema,body_condition',
      '--quota',
      '50',
    );
    const token = await api('POST', '/auth/token', { key: created.api_key });
    const updated = await cli('update', created.id, '--status', 'inactive');
    const listed: { id: string }[] = await cli('list');

    expect(created).toMatchObject({
      name: 'CLI account',
      features: ['body_condition', 'full_breed_schema'],
      quota: 50,
      role: 'user',
    });
    expect(token.status).toBe(200);
    expect(updated).toMatchObject({ id: created.id, status: 'inactive' });
    expect(listed.map((a) => a.id)).toContain(created.id);
  });

  it('makes a vet: the account then reads the review queue', async () => {
    const created = await cli('create', '--name', 'Dr CLI', '--role', 'vet');

    expect(created.role).toBe('vet');
    expect((await api('GET', '/reviews?status=pending', { key: created.api_key })).status).toBe(200);
  });

  it("refuses invalid input with the API's messages and a non-zero exit", async () => {
    await expect(cli('create', '--name', 'X', '--role', 'owner')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('role must be one of: admin, user, vet'),
    });
  });

  it('rotates an API key: the new key works at once, the old one is refused (401: it was rotated)', async () => {
    const account = await createAccount();
    const rotated = await cli('rotate-key', account.id);
    const [withOld, withNew] = [
      await api('POST', '/auth/token', { key: account.api_key }),
      await api('POST', '/auth/token', { key: rotated.api_key }),
    ];

    expect(rotated).toMatchObject({ id: account.id, api_key: expect.stringMatching(/^live_/) });
    expect(rotated.api_key).not.toBe(account.api_key);
    expect(withNew.status).toBe(200);
    expect(withOld.body).toMatchObject({ statusCode: 401, code: 'api_key_expired' });
  });

  it('rotates with a grace period, and revokes every key of an account at once', async () => {
    const account = await createAccount();
    const rotated = await cli('rotate-key', account.id, '--grace-seconds', '3600');
    const [oldInGrace, newKey] = [
      await api('GET', '/accounts/features', { key: account.api_key }),
      await api('GET', '/accounts/features', { key: rotated.api_key }),
    ];
    const revoked = await cli('revoke-key', account.id);
    // The CLI runs in its own process; the service, which had both old keys cached, drops them within 30 s (the
    // route's own revocation drops them at once: tests/integration/api-key-rotation.test.ts).
    const withRevokedKey = await api('POST', '/auth/token', { key: revoked.api_key });

    expect(rotated).toMatchObject({ grace_period_seconds: 3600, previous_key_expires_at: expect.any(String) });
    expect([oldInGrace.status, newKey.status]).toEqual([200, 200]);
    expect(revoked).toMatchObject({ id: account.id, api_key: expect.stringMatching(/^live_/) });
    expect(withRevokedKey.status).toBe(200);
  });

  it("lists an account's webhook endpoints and disables one, which then stays listed as disabled", async () => {
    const account = await createAccount();
    const hook = await api('POST', '/webhooks', {
      key: account.api_key,
      body: { url: 'http://127.0.0.1:9/hook', description: 'cli', enabled_events: ['vote.created'] },
    });

    const before = await cli('webhooks', account.id);
    const disabled = await cli('disable-webhook', account.id, hook.body.id, '--reason', 'abuse report 42');
    const after = await api('GET', `/webhooks/${hook.body.id}`, { key: account.api_key });

    expect(before).toEqual([expect.objectContaining({ id: hook.body.id, status: 'enabled' })]);
    expect(disabled).toMatchObject({ id: hook.body.id, status: 'disabled', disabled_reason: 'abuse report 42' });
    expect(after.body).toMatchObject({ status: 'disabled', disabled_reason: 'abuse report 42' });
  });

  it("shows an account's quota and overview as the admin API does", async () => {
    const account = await createAccount({ quota: 7 });

    const quota = await cli('quota', account.id);
    const overview = await cli('overview', account.id);

    expect(quota).toEqual((await api('GET', `/accounts/${account.id}/quota`, { key: inject('adminKey') })).body);
    expect(quota).toMatchObject({ quota: 7, usage: 0, remaining: 7 });
    expect(overview).toMatchObject({ account: { id: account.id }, counts: { votes: 0, webhooks: 0 } });
  });

  it('answers an unknown account with 404 and exit code 1', async () => {
    await expect(runCli(['overview', 'no-such-account'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('404'),
    });
  });

  // Nine CLI processes (each loads the SDK): tens of seconds on a busy two-core machine.
  it('explains --help for every command and exits 0; a usage error exits 2 and shows the usage', {
    timeout: 120_000,
  }, async () => {
    const commands = [
      'create',
      'update',
      'list',
      'rotate-key',
      'revoke-key',
      'quota',
      'overview',
      'webhooks',
      'disable-webhook',
    ];
    const helps = await Promise.all(commands.map((command) => runCli([command, '--help'])));
    for (const [i, { stdout }] of helps.entries())
      expect(stdout, commands[i]).toContain(`Usage: npm run accounts -- ${commands[i]}`);
    await expect(runCli(['rotate-key'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("missing required argument 'accountId'"),
    });
  });

  it('names the DynamoDB Local port it tried, and how to set it, when nothing answers there', async () => {
    const unused = String(await freePort());
    await expect(runCli(['list'], unused)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(new RegExp(`127\\.0\\.0\\.1:${unused}[\\s\\S]*DYNAMODB_LOCAL_PORT`)),
    });
  });
});
